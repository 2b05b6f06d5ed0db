// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/inflatingstreambuf.h"

#include "model/tracedata/hugepages.h"

#include <QCoreApplication>

#include <algorithm>
#include <atomic>

#ifdef SCOPELINE_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#else
struct inflate_state
{};
#endif

namespace scopeline {

namespace {
constexpr std::size_t kInputChunk = 1 << 18;
constexpr std::size_t kOutputChunk = 1 << 20;
std::atomic<std::size_t> g_blockBytes{0};

// A buffer's size: the one asked for, else the tests' (setBlockBytes), else the default.
std::size_t bufferBytes(std::size_t asked, std::size_t byDefault)
{
    return asked ? asked : g_blockBytes ? g_blockBytes.load() : byDefault;
}
} // namespace

void InflatingStreamBuf::setBlockBytes(std::size_t bytes)
{
    g_blockBytes = bytes;
}

InflatingStreamBuf::InflatingStreamBuf(std::size_t blockBytes)
    : m_in(bufferBytes(blockBytes, kInputChunk)), m_out(bufferBytes(blockBytes, kOutputChunk))
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
    hugepages::populate(m_in.data(), std::size_t(std::min<int64_t>(int64_t(m_in.size()), m_fileSize)));
    const QByteArray magic = m_file.peek(2); // the first read may be shorter (tests' tiny blocks)
    if (!fillInput() && !m_error.isEmpty())
        return false;
    m_gzip = magic.size() == 2 && uchar(magic[0]) == 0x1f && uchar(magic[1]) == 0x8b;
    m_expectedText = m_fileSize;
    if (!m_gzip)
        return true;
    QFile trailer(path);
    if (m_fileSize >= 18 && trailer.open(QIODevice::ReadOnly) && trailer.seek(m_fileSize - 4)) {
        const QByteArray isize = trailer.read(4);
        int64_t size = 0;
        for (int i = isize.size() - 1; i >= 0; --i)
            size = size << 8 | uchar(isize[i]);
        // Below the file size: wrapped at 4 GB. Capped at 32x, well above what traces compress by,
        // since the trailer is only as true as the file.
        m_expectedText = std::min(size >= m_fileSize ? size : m_fileSize * 8, m_fileSize * 32);
    }
    // Once the text's size is known: a small file's text needs little of the output block.
    hugepages::populate(m_out.data(), std::size_t(std::min<int64_t>(int64_t(m_out.size()), m_expectedText)));
#ifdef SCOPELINE_HAVE_ISAL
    if (!qEnvironmentVariableIsSet("SCOPELINE_NO_ISAL")) { // the variable: zlib only, to compare
        m_isal = std::make_unique<inflate_state>();
        isal_inflate_init(m_isal.get());
        m_isal->crc_flag = ISAL_GZIP;
        return true;
    }
#endif
    return startZlib();
}

bool InflatingStreamBuf::startZlib()
{
    if (m_isal) {
        // ISA-L gave up: zlib inflates the file again from the start and has the last word.
        m_isal.reset();
        m_zlibSkip = m_produced;
        if (!m_file.seek(0)) {
            m_error = QCoreApplication::translate("InflatingStreamBuf", "read error at byte 0: %1")
                          .arg(m_file.errorString());
            return false;
        }
        m_fileRead = 0;
        m_inputEof = false;
        m_zs.avail_in = 0;
        if (!fillInput())
            return false;
    }
    if (inflateInit2(&m_zs, 15 + 16) != Z_OK) {
        m_error = QCoreApplication::translate("InflatingStreamBuf", "cannot initialise zlib");
        return false;
    }
    m_zInit = true;
    return true;
}

void InflatingStreamBuf::setTruncated()
{
    if (m_error.isEmpty())
        m_error = QCoreApplication::translate("InflatingStreamBuf",
                                              "the gzip data is truncated (ends after %1 compressed "
                                              "bytes, %2 bytes of text)")
                      .arg(m_fileRead)
                      .arg(m_produced);
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
    return m_isal ? underflowIsal() : underflowZlib();
}

bool InflatingStreamBuf::atPaddedEnd()
{
    for (;;) {
        const Bytef *in = m_zs.next_in;
        if (std::any_of(in, in + m_zs.avail_in, [](Bytef b) { return b != 0; }))
            return false;
        m_zs.avail_in = 0;
        if (!fillInput())
            return m_error.isEmpty();
    }
}

InflatingStreamBuf::int_type InflatingStreamBuf::underflowIsal()
{
#ifdef SCOPELINE_HAVE_ISAL
    inflate_state &state = *m_isal;
    for (;;) {
        if (state.block_state == ISAL_BLOCK_FINISH) {
            // Concatenated gzip members are legal; what follows is checked as the next member's header.
            if (atPaddedEnd())
                return traits_type::eof();
            isal_inflate_reset(&state);
            state.crc_flag = ISAL_GZIP;
        }
        // A full output block may leave text inside ISA-L: call again before asking for input.
        if (m_zs.avail_in == 0 && !m_isalMore && !fillInput()) {
            if (!m_error.isEmpty() || !startZlib())
                return traits_type::eof();
            return underflowZlib(); // zlib says whether the end is truncated or a bad header
        }
        state.next_in = m_zs.next_in;
        state.avail_in = m_zs.avail_in;
        state.next_out = reinterpret_cast<uint8_t *>(m_out.data());
        state.avail_out = uint32_t(m_out.size());
        const int rc = isal_inflate(&state);
        m_zs.next_in = state.next_in;
        m_zs.avail_in = state.avail_in;
        const std::size_t produced = m_out.size() - state.avail_out;
        m_isalMore = state.avail_out == 0;
        if (rc != ISAL_DECOMP_OK && rc != ISAL_END_INPUT && rc != ISAL_OUT_OVERFLOW) {
            if (!startZlib())
                return traits_type::eof();
            return underflowZlib();
        }
        if (produced > 0) {
            m_produced += int64_t(produced);
            setg(m_out.data(), m_out.data(), m_out.data() + produced);
            return traits_type::to_int_type(*gptr());
        }
    }
#else
    return traits_type::eof();
#endif
}

InflatingStreamBuf::int_type InflatingStreamBuf::underflowZlib()
{
    std::size_t produced = 0, skipped = 0;
    while (produced == 0) {
        if (m_streamEnd) {
            // Concatenated gzip members are legal; anything else after the end is not ours to read.
            if (atPaddedEnd())
                return traits_type::eof();
            if (inflateReset(&m_zs) != Z_OK)
                return traits_type::eof();
            m_streamEnd = false;
        }
        if (m_zs.avail_in == 0 && !fillInput()) {
            setTruncated();
            return traits_type::eof();
        }
        m_zs.next_out = reinterpret_cast<Bytef *>(m_out.data());
        m_zs.avail_out = uInt(m_out.size());
        const int rc = inflate(&m_zs, Z_NO_FLUSH);
        produced = m_out.size() - m_zs.avail_out;
        // After an ISA-L failure: the text handed out already is inflated again and dropped.
        skipped = std::size_t(std::min<int64_t>(m_zlibSkip, int64_t(produced)));
        m_zlibSkip -= int64_t(skipped);
        produced -= skipped;
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
    setg(m_out.data() + skipped, m_out.data() + skipped, m_out.data() + skipped + produced);
    return traits_type::to_int_type(*gptr());
}

} // namespace scopeline
