// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The building blocks of the run summary file's payload (docs/summary-format.md): counts, arrays of
// plain values and string tables on a little-endian QDataStream, every read checked against the
// bytes left so that a damaged file fails cleanly instead of allocating gigabytes.

#include "model/tracedata/stringtable.h"

#include <QDataStream>
#include <QIODevice>
#include <QString>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace scopeline::summarystream {

inline bool ok(const QDataStream &in)
{
    return in.status() == QDataStream::Ok;
}

// An element count that the rest of the payload can hold at `bytesEach` bytes an element.
inline bool readCount(QDataStream &in, uint64_t &count, uint64_t bytesEach)
{
    quint64 n = 0;
    in >> n;
    if (!ok(in) || (bytesEach > 0 && n > uint64_t(in.device()->bytesAvailable()) / bytesEach)) {
        in.setStatus(QDataStream::ReadCorruptData);
        return false;
    }
    count = n;
    return true;
}

// Arrays of plain values as their bytes: the format is little-endian, as every machine it runs on.
template <typename T>
void writeArray(QDataStream &out, const std::vector<T> &values)
{
    static_assert(std::is_trivially_copyable_v<T>);
    out << quint64(values.size());
    out.writeRawData(reinterpret_cast<const char *>(values.data()), int(values.size() * sizeof(T)));
}

template <typename T>
bool readArray(QDataStream &in, std::vector<T> &values)
{
    static_assert(std::is_trivially_copyable_v<T>);
    uint64_t n = 0;
    if (!readCount(in, n, sizeof(T)))
        return false;
    values.resize(std::size_t(n));
    const auto bytes = qint64(n * sizeof(T));
    if (in.readRawData(reinterpret_cast<char *>(values.data()), int(bytes)) != bytes) {
        in.setStatus(QDataStream::ReadPastEnd);
        return false;
    }
    return true;
}

inline void writeBools(QDataStream &out, const std::vector<bool> &values)
{
    writeArray(out, std::vector<uint8_t>(values.begin(), values.end()));
}

inline bool readBools(QDataStream &in, std::vector<bool> &values)
{
    std::vector<uint8_t> bytes;
    if (!readArray(in, bytes))
        return false;
    values.assign(bytes.begin(), bytes.end());
    return true;
}

// Ids 1.. in order (0 is always the empty string), each as a length and its UTF-8 bytes.
inline void writeStrings(QDataStream &out, const StringTable &table)
{
    out << quint64(table.size());
    for (uint32_t id = 1; id < table.size(); ++id) {
        const std::string_view text = table.view(id);
        out << quint32(text.size());
        out.writeRawData(text.data(), int(text.size()));
    }
}

// Interning in order gives each text its written id back; a repeated text means a damaged file.
inline bool readStrings(QDataStream &in, StringTable &table)
{
    uint64_t n = 0;
    if (!readCount(in, n, 4) || n == 0)
        return false;
    std::string text;
    for (uint64_t id = 1; id < n; ++id) {
        quint32 length = 0;
        in >> length;
        if (!ok(in) || length > uint64_t(in.device()->bytesAvailable())) {
            in.setStatus(QDataStream::ReadCorruptData);
            return false;
        }
        text.resize(length);
        if (in.readRawData(text.data(), int(length)) != int(length) || table.intern(text) != id) {
            in.setStatus(QDataStream::ReadCorruptData);
            return false;
        }
    }
    return true;
}

inline void writeString(QDataStream &out, const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    out << quint32(utf8.size());
    out.writeRawData(utf8.constData(), int(utf8.size()));
}

inline bool readString(QDataStream &in, QString &text)
{
    quint32 length = 0;
    in >> length;
    if (!ok(in) || length > uint64_t(in.device()->bytesAvailable())) {
        in.setStatus(QDataStream::ReadCorruptData);
        return false;
    }
    QByteArray utf8(qsizetype(length), Qt::Uninitialized);
    if (in.readRawData(utf8.data(), int(length)) != int(length)) {
        in.setStatus(QDataStream::ReadPastEnd);
        return false;
    }
    text = QString::fromUtf8(utf8);
    return true;
}

} // namespace scopeline::summarystream
