#include "inflatingstreambuf.h"

#include <QCoreApplication>

namespace scopeline {

namespace {
constexpr std::size_t kInputChunk = 1 << 18;
constexpr std::size_t kOutputChunk = 1 << 20;
} // namespace

InflatingStreamBuf::InflatingStreamBuf() : m_in(kInputChunk), m_out(kOutputChunk)
{
    setg(m_out.data(), m_out.data(), m_out.data());
}

InflatingStreamBuf::~InflatingStreamBuf()
{
    if (m_zInit)
        inflateEnd(&m_zs);
}

bool InflatingStreamBuf::open(const QString &path)
{
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadOnly)) {
        m_error = m_file.errorString();
        return false;
    }
    m_fileSize = m_file.size();
    if (!fillInput() && !m_error.isEmpty())
        return false;
    const auto *bytes = reinterpret_cast<const unsigned char *>(m_in.data());
    m_gzip = m_zs.avail_in >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
    if (m_gzip) {
        if (inflateInit2(&m_zs, 15 + 16) != Z_OK) {
            m_error = QCoreApplication::translate("InflatingStreamBuf", "cannot initialise zlib");
            return false;
        }
        m_zInit = true;
    }
    return true;
}

bool InflatingStreamBuf::fillInput()
{
    if (m_inputEof)
        return false;
    const qint64 got = m_file.read(m_in.data(), qint64(m_in.size()));
    if (got < 0) {
        m_error = QCoreApplication::translate("InflatingStreamBuf", "read error at byte %1: %2")
                      .arg(m_fileRead)
                      .arg(m_file.errorString());
        m_inputEof = true;
        return false;
    }
    if (got == 0) {
        m_inputEof = true;
        return false;
    }
    m_fileRead += got;
    m_zs.next_in = reinterpret_cast<Bytef *>(m_in.data());
    m_zs.avail_in = uInt(got);
    if (m_progress && m_fileSize > 0)
        m_progress(double(m_fileRead) / double(m_fileSize));
    return true;
}

std::string_view InflatingStreamBuf::peek()
{
    if (gptr() == egptr())
        underflow();
    return {gptr(), std::size_t(egptr() - gptr())};
}

std::string_view InflatingStreamBuf::nextBlock()
{
    const std::string_view block = peek();
    gbump(int(block.size()));
    return block;
}

InflatingStreamBuf::int_type InflatingStreamBuf::underflow()
{
    if (gptr() < egptr())
        return traits_type::to_int_type(*gptr());
    if (!m_error.isEmpty())
        return traits_type::eof();

    if (!m_gzip) {
        if (m_zs.avail_in == 0 && !fillInput())
            return traits_type::eof();
        // Plain file: hand the input chunk to the parser as it is.
        char *begin = reinterpret_cast<char *>(m_zs.next_in);
        const std::size_t n = m_zs.avail_in;
        m_zs.avail_in = 0;
        m_produced += int64_t(n);
        setg(begin, begin, begin + n);
        return traits_type::to_int_type(*begin);
    }

    std::size_t produced = 0;
    while (produced == 0) {
        if (m_streamEnd) {
            // Concatenated gzip members are legal; anything else after the end is not ours to read.
            if (m_zs.avail_in == 0 && !fillInput())
                return traits_type::eof();
            if (inflateReset(&m_zs) != Z_OK)
                return traits_type::eof();
            m_streamEnd = false;
        }
        if (m_zs.avail_in == 0 && !fillInput()) {
            if (m_error.isEmpty())
                m_error = QCoreApplication::translate("InflatingStreamBuf",
                                                      "the gzip data is truncated (ends after %1 compressed "
                                                      "bytes, %2 bytes of text)")
                              .arg(m_fileRead)
                              .arg(m_produced);
            return traits_type::eof();
        }
        m_zs.next_out = reinterpret_cast<Bytef *>(m_out.data());
        m_zs.avail_out = uInt(m_out.size());
        const int rc = inflate(&m_zs, Z_NO_FLUSH);
        produced = m_out.size() - m_zs.avail_out;
        if (rc == Z_STREAM_END) {
            m_streamEnd = true;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            m_error = QCoreApplication::translate("InflatingStreamBuf",
                                                  "corrupt gzip data near compressed byte %1: %2")
                          .arg(m_fileRead - int64_t(m_zs.avail_in))
                          .arg(QString::fromUtf8(m_zs.msg ? m_zs.msg : "inflate failed"));
            if (produced == 0)
                return traits_type::eof();
            break;
        }
    }
    m_produced += int64_t(produced);
    setg(m_out.data(), m_out.data(), m_out.data() + produced);
    return traits_type::to_int_type(*gptr());
}

} // namespace scopeline
