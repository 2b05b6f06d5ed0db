// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A read-only std::streambuf over a trace file that inflates gzip (or zlib) data on the fly and
// passes plain files through, so that the JSON parser streams and no whole file sits in memory.
// gzip goes through ISA-L's inflate (6-8x zlib) where it is built in; on any ISA-L error the
// file is inflated again by zlib from the start, so errors and their messages are zlib's.

#include <QFile>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory>
#include <streambuf>
#include <string_view>

#include <zlib.h>

struct inflate_state; // ISA-L

namespace scopeline {

class InflatingStreamBuf : public std::streambuf
{
public:
    // blockBytes: the size of the blocks read and handed out, 0 for the default (a reader of only a
    // file's first bytes takes small ones: the first block is inflated whole).
    explicit InflatingStreamBuf(std::size_t blockBytes = 0);
    ~InflatingStreamBuf() override;
    InflatingStreamBuf(const InflatingStreamBuf &) = delete;
    InflatingStreamBuf &operator=(const InflatingStreamBuf &) = delete;

    // Opens the file; on failure returns false and error() says why.
    bool open(const QString &path);
    // The first bytes of the decompressed text, without consuming them.
    std::string_view peek();
    // The next block of decompressed text, consumed; empty at the end or after an error.
    std::string_view nextBlock();

    int64_t bytesProduced() const { return m_produced; }
    // About how many bytes of text the file holds, known at open: its size, or for gzip the size
    // its trailer gives (modulo 4 GB, and of the last member only: a hint, not a promise).
    int64_t expectedTextBytes() const { return m_expectedText; }
    // Non-empty after a read or inflate failure (the stream then ends early).
    QString error() const { return m_error; }
    // Called with the fraction of the file read so far, once per input chunk.
    void setProgressCallback(std::function<void(double)> callback) { m_progress = std::move(callback); }
    // For tests: the size of the blocks read and handed out (0: the defaults); applies to buffers
    // made afterwards. Format detection reads the first block, so keep it above a few hundred bytes
    // for rocprofv3 files.
    static void setBlockBytes(std::size_t bytes);

protected:
    int_type underflow() override;

private:
    bool fillInput();
    // After a gzip member: true when nothing follows but NUL bytes (a copy padded to a block size, which
    // gzip and Python read); the padding is consumed.
    bool atPaddedEnd();
    int_type underflowZlib();
    int_type underflowIsal();
    bool startZlib();
    void setTruncated();

    QFile m_file;
    z_stream m_zs{};
    bool m_gzip = false;
    bool m_zInit = false;
    bool m_inputEof = false;
    bool m_streamEnd = false;
    std::unique_ptr<inflate_state> m_isal; // null: zlib inflates
    bool m_isalMore = false;               // ISA-L filled the output block: it may hold more
    int64_t m_zlibSkip = 0;                 // text zlib re-inflates after ISA-L failed, not handed out
    int64_t m_fileSize = 0;
    int64_t m_expectedText = 0;
    int64_t m_fileRead = 0;
    int64_t m_produced = 0;
    // Left unwritten until used: a plain file never touches m_out, and a fresh page's first touch is
    // what a buffer costs.
    struct Buffer
    {
        explicit Buffer(std::size_t n) : bytes(new char[n]), length(n) {}
        char *data() { return bytes.get(); }
        std::size_t size() const { return length; }
        std::unique_ptr<char[]> bytes;
        std::size_t length;
    };
    Buffer m_in;
    Buffer m_out;
    QString m_error;
    std::function<void(double)> m_progress;
};

} // namespace scopeline
