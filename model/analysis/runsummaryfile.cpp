// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/runsummaryfile.h"

#include "model/analysis/runsummarystream.h"

#include "model/files/atomicfile.h"
#include <QBuffer>
#include <QCoreApplication>
#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>

#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include <zlib.h>

#ifdef SCOPELINE_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

namespace scopeline {

namespace {

// The payload as qCompress writes it (its size, big-endian, then a zlib stream) at a fast level: ISA-L's
// first where it is built in (a quarter of zlib's time on a 58k-kernel run, 5 % larger), else zlib's
// first (10 % larger than level 6, a fifth of `summarize`'s time less). Either reads back with both.
void compressFast(const QByteArray &payload, QByteArray &out)
{
#ifdef SCOPELINE_HAVE_ISAL
    if (quint64(payload.size()) < (quint64(1) << 31)) {
        out.resize(qsizetype(4 + payload.size() + payload.size() / 64 + 1024));
        const auto size = quint32(payload.size());
        for (int i = 0; i < 4; ++i)
            out[i] = char(size >> (24 - 8 * i));
        std::vector<uint8_t> levelBuffer(ISAL_DEF_LVL1_DEFAULT);
        auto stream = std::make_unique<isal_zstream>();
        isal_deflate_init(stream.get());
        stream->level = 1;
        stream->level_buf = levelBuffer.data();
        stream->level_buf_size = uint32_t(levelBuffer.size());
        stream->gzip_flag = IGZIP_ZLIB;
        stream->end_of_stream = 1;
        stream->next_in = reinterpret_cast<uint8_t *>(const_cast<char *>(payload.constData()));
        stream->avail_in = size;
        stream->next_out = reinterpret_cast<uint8_t *>(out.data()) + 4;
        stream->avail_out = uint32_t(out.size() - 4);
        if (isal_deflate(stream.get()) == COMP_OK && stream->internal_state.state == ZSTATE_END) {
            out.truncate(qsizetype(4 + stream->total_out));
            return;
        }
    }
#endif
    out = qCompress(payload, 1);
}

// A payload is read and let go: up to this size it is inflated into a buffer each thread keeps for its
// next summary, whose pages are then faulted in once rather than once a file.
constexpr quint64 kKeptPayloadBytes = 64 << 20;

// qCompress'd data into payload (payloadBytes long), inflated by ISA-L where it is built in (a third less
// time than zlib on a summary); by zlib where ISA-L refuses it, so that what a damaged file gets is
// zlib's verdict (called directly: qUncompress would also print Qt's warnings). Empty when damaged.
void inflatePayload(const QByteArray &compressed, quint64 payloadBytes, QByteArray &payload)
{
    payload.resize(qsizetype(payloadBytes));
    // past qCompress's own size
    const auto *in = reinterpret_cast<const uint8_t *>(compressed.constData()) + 4;
    const auto inBytes = uint32_t(compressed.size() - 4);
#ifdef SCOPELINE_HAVE_ISAL
    auto state = std::make_unique<inflate_state>();
    isal_inflate_init(state.get());
    state->crc_flag = ISAL_ZLIB; // the zlib header and its Adler-32 checked
    state->next_in = const_cast<uint8_t *>(in);
    state->avail_in = inBytes;
    state->next_out = reinterpret_cast<uint8_t *>(payload.data());
    state->avail_out = uint32_t(payload.size());
    if (isal_inflate(state.get()) == ISAL_DECOMP_OK && state->block_state == ISAL_BLOCK_FINISH &&
        state->avail_out == 0)
        return;
#endif
    uLongf size = uLongf(payloadBytes);
    if (uncompress(reinterpret_cast<Bytef *>(payload.data()), &size, in, inBytes) != Z_OK ||
        size != payloadBytes)
        payload.clear();
}

QString tr(const char *text)
{
    return QCoreApplication::translate("RunSummaryFile", text);
}

// magic (8) + version (4) + flags (4) + payload bytes (8) + compressed bytes (8), little-endian.
constexpr qint64 kHeaderBytes = 32;

void writePayload(QDataStream &out, const RunSummary &s, const std::vector<RunSummary::Kernel> &kernels,
                  const std::vector<RunSummary::Range> &ranges, const StringTable &strings)
{
    using namespace summarystream;
    writeString(out, s.sourceFile);
    out << quint8(s.format) << qint64(s.events);
    out << quint64(s.skipped.size());
    for (const auto &[reason, count] : s.skipped) {
        writeString(out, reason);
        out << qint64(count);
    }
    out << quint64(s.caveats.size());
    for (const QString &caveat : s.caveats)
        writeString(out, caveat);
    writeString(out, s.launchOrigin.pid);
    out << qint64(s.launchOrigin.firstId) << qint64(s.launchOrigin.lastId);
    writeStrings(out, strings);
    writeArray(out, kernels);
    writeArray(out, ranges);
    writeArray(out, s.messages());
}

} // namespace

bool RunSummaryFile::isSummaryFile(const QString &path)
{
    if (path.endsWith(suffix(), Qt::CaseInsensitive))
        return true;
    QFile file(path);
    if (QFileInfo(path).isDir() || !file.open(QIODevice::ReadOnly))
        return false;
    char magic[8];
    return file.read(magic, 8) == 8 && std::memcmp(magic, kMagic, 8) == 0;
}

QString RunSummaryFile::write(const RunSummary &summary, const QString &path)
{
    // Each thread keeps its buffers for its next summary, as it does those it reads into: their pages are
    // faulted in once, not once a file (a diff that keeps every run's summary: +16 % CPU became +5-10).
    thread_local QByteArray payload, compressed;
    {
        payload.truncate(0); // a buffer opened to write keeps what it held
        QBuffer buffer(&payload);
        buffer.open(QIODevice::WriteOnly);
        QDataStream out(&buffer);
        out.setByteOrder(QDataStream::LittleEndian);
        out.setVersion(QDataStream::Qt_6_4);
        writePayload(out, summary, summary.m_kernels, summary.m_ranges, summary.m_strings);
        out << qint64(summary.m_busyNs) << qint64(summary.m_spanNs) << qint64(summary.m_kernelLaunches)
            << qint64(summary.m_graphLaunches);
        summarystream::writeArray(out, summary.m_graphLaunchDelays);
        out << quint8(summary.m_scopes != nullptr);
        if (summary.m_scopes)
            summary.m_scopes->write(out);
    }
    compressFast(payload, compressed);
    const auto release = qScopeGuard([] {
        for (QByteArray *buffer : {&payload, &compressed})
            if (quint64(buffer->capacity()) > kKeptPayloadBytes) {
                buffer->clear();
                buffer->squeeze();
            }
    });

    QByteArray header;
    {
        QDataStream out(&header, QIODevice::WriteOnly);
        out.setByteOrder(QDataStream::LittleEndian);
        out.writeRawData(kMagic, 8);
        out << quint32(kVersion) << quint32(0) << quint64(payload.size()) << quint64(compressed.size());
    }
    const QString shown = QDir::toNativeSeparators(path);
    QSaveFile file(path);
    if (!writeAll(file, header) || !writeAll(file, compressed) || !file.commit())
        return tr("%1: cannot write (%2)").arg(shown, file.errorString());
    return {};
}

QString RunSummaryFile::read(const QString &path, RunSummary &summary)
{
    const QString shown = QDir::toNativeSeparators(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return tr("%1: cannot open (%2)").arg(shown, file.errorString());
    const QByteArray header = file.read(kHeaderBytes);
    if (header.size() < 8 || std::memcmp(header.constData(), kMagic, 8) != 0)
        return tr("%1: not a Scopeline run summary (no SCOPESUM header)").arg(shown);
    if (header.size() < kHeaderBytes)
        return tr("%1: truncated run summary (the header is cut short)").arg(shown);
    QDataStream head(header);
    head.setByteOrder(QDataStream::LittleEndian);
    head.skipRawData(8);
    quint32 version = 0, flags = 0;
    quint64 payloadBytes = 0, compressedBytes = 0;
    head >> version >> flags >> payloadBytes >> compressedBytes;
    // A newer file needs a newer Scopeline; an older one, the trace summarised again.
    if (version > kVersion)
        return tr("%1: run summary version %2, written by a newer Scopeline; this build reads version %3 "
                  "(update Scopeline to read it)")
            .arg(shown)
            .arg(version)
            .arg(kVersion);
    if (version != kVersion)
        return tr("%1: run summary version %2; this build reads version %3 (summarise the trace again "
                  "with this scopeline-cli)")
            .arg(shown)
            .arg(version)
            .arg(kVersion);
    if (compressedBytes > quint64(std::numeric_limits<qint64>::max()) - kHeaderBytes)
        return tr("%1: damaged run summary (its sizes disagree)").arg(shown);
    const QByteArray compressed = file.read(qint64(std::min<quint64>(compressedBytes, quint64(INT32_MAX))));
    if (quint64(compressed.size()) != compressedBytes)
        return tr("%1: truncated run summary (%2 of %3 bytes)")
            .arg(shown)
            .arg(kHeaderBytes + compressed.size())
            .arg(kHeaderBytes + qint64(compressedBytes));
    // qCompress's own 4-byte size (big-endian) must agree with the header, and deflate expands by at
    // most about 1:1032: a damaged size is refused here rather than allocated.
    const quint64 stated = compressed.size() >= 4 ? quint64(uint8_t(compressed[0])) << 24 |
                                                        quint64(uint8_t(compressed[1])) << 16 |
                                                        quint64(uint8_t(compressed[2])) << 8 | uint8_t(compressed[3])
                                                  : 0;
    if (stated != payloadBytes || payloadBytes > 1100 * compressedBytes + 64 || payloadBytes == 0)
        return tr("%1: damaged run summary (its sizes disagree)").arg(shown);
    thread_local QByteArray kept;
    QByteArray fresh;
    QByteArray &payload = payloadBytes <= kKeptPayloadBytes ? kept : fresh;
    inflatePayload(compressed, payloadBytes, payload);
    if (quint64(payload.size()) != payloadBytes || payload.isEmpty())
        return tr("%1: damaged run summary (its data does not decompress)").arg(shown);

    QBuffer buffer(&payload);
    buffer.open(QIODevice::ReadOnly);
    QDataStream in(&buffer);
    in.setByteOrder(QDataStream::LittleEndian);
    in.setVersion(QDataStream::Qt_6_4);
    using namespace summarystream;
    RunSummary &s = summary;
    bool ok = readString(in, s.sourceFile);
    quint8 format = 0;
    qint64 events = 0;
    uint64_t skipped = 0;
    in >> format >> events;
    s.format = TraceFormat(format);
    s.events = events;
    ok = ok && readCount(in, skipped, 12);
    for (uint64_t i = 0; ok && i < skipped; ++i) {
        QString reason;
        qint64 count = 0;
        ok = readString(in, reason);
        in >> count;
        s.skipped[reason] = count;
    }
    uint64_t caveats = 0;
    ok = ok && readCount(in, caveats, 4);
    for (uint64_t i = 0; ok && i < caveats; ++i)
        ok = readString(in, s.caveats.emplace_back());
    ok = ok && readString(in, s.launchOrigin.pid);
    qint64 firstLaunchId = -1, lastLaunchId = -1;
    in >> firstLaunchId >> lastLaunchId;
    s.launchOrigin.firstId = firstLaunchId;
    s.launchOrigin.lastId = lastLaunchId;
    ok = ok && readStrings(in, s.m_strings) && readArray(in, s.m_kernels) && readArray(in, s.m_ranges) &&
         readArray(in, s.m_messages);
    qint64 busy = 0, span = 0, launches = 0, graphLaunches = 0;
    in >> busy >> span >> launches >> graphLaunches;
    s.m_busyNs = busy;
    s.m_spanNs = span;
    s.m_kernelLaunches = launches;
    s.m_graphLaunches = graphLaunches;
    ok = ok && readArray(in, s.m_graphLaunchDelays);
    quint8 hasScopes = 0;
    in >> hasScopes;
    if (ok && hasScopes) {
        auto scopes = std::make_shared<ScopeIndex>();
        ok = ScopeIndex::read(in, *scopes);
        s.m_scopes = std::move(scopes);
    }
    // Every id must be in range: a damaged file must not read out of bounds later.
    for (const RunSummary::Kernel &k : s.m_kernels)
        ok = ok && k.name < s.m_strings.size() && k.op < s.m_strings.size() &&
             uint8_t(k.launch) <= uint8_t(RunSummary::Launch::Graph);
    for (const RunSummary::Range &r : s.m_ranges)
        ok = ok && r.name < s.m_strings.size();
    for (const RunSummary::Message &m : s.m_messages)
        ok = ok && m.kernel < s.m_kernels.size() && m.group < s.m_strings.size();
    if (!ok || !summarystream::ok(in) || !buffer.atEnd())
        return tr("%1: damaged run summary (inconsistent data)").arg(shown);
    return {};
}

} // namespace scopeline
