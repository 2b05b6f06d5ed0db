// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/rocprofv3jsonreader.h"

#include "model/formats/inflatingstreambuf.h"
#include "model/formats/rocprofv3handler.h"
#include "model/formats/tracebuilder.h"

#include <algorithm>
#include <cctype>
#include <istream>
#include <memory>

namespace scopeline {

namespace {

// Reads another stream buffer with some byte ranges overwritten by RocprofV3Handler's mark for a
// number out of range (padded with blanks), so that a re-parse gets past them.
class PatchingStreamBuf : public std::streambuf
{
public:
    PatchingStreamBuf(std::streambuf &source, const std::vector<std::pair<int64_t, int64_t>> &patches)
        : m_source(source), m_patches(patches)
    {}

protected:
    int_type underflow() override
    {
        const std::streamsize n = m_source.sgetn(m_buffer, sizeof m_buffer);
        if (n <= 0)
            return traits_type::eof();
        const std::string_view mark = RocprofV3Handler::kOutOfRangeMark;
        for (const auto &[at, length] : m_patches)
            for (int64_t i = std::max(at, m_position); i < std::min(at + length, m_position + n); ++i)
                m_buffer[i - m_position] = i - at < int64_t(mark.size()) ? mark[std::size_t(i - at)] : ' ';
        m_position += n;
        setg(m_buffer, m_buffer, m_buffer + n);
        return traits_type::to_int_type(m_buffer[0]);
    }

private:
    std::streambuf &m_source;
    const std::vector<std::pair<int64_t, int64_t>> &m_patches;
    char m_buffer[1 << 16];
    int64_t m_position = 0;
};

constexpr int kMaxOutOfRangeNumbers = 64; // each one costs a re-read of the file

} // namespace

QString RocprofV3JsonReader::formatName() const
{
    return tr("rocprofv3 JSON");
}

QStringList RocprofV3JsonReader::fileNamePatterns() const
{
    return {QStringLiteral("*.json"), QStringLiteral("*.json.gz")};
}

QString RocprofV3JsonReader::lookedFor() const
{
    return QStringLiteral("results.json");
}

// The first key, after an optional byte-order mark and blanks.
TraceReader::Match RocprofV3JsonReader::match(const TraceProbe &probe) const
{
    const std::string_view head = probe.head;
    std::size_t i = head.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
    auto skipSpace = [&] {
        while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i])))
            ++i;
    };
    skipSpace();
    if (i >= head.size() || head[i] != '{')
        return Match::No;
    ++i;
    skipSpace();
    return head.substr(i, 22) == "\"rocprofiler-sdk-tool\"" ? Match::Yes : Match::No;
}

ReadResult RocprofV3JsonReader::read(const TraceProbe &probe, TraceBuilder &builder,
                                     const ReadContext &context) const
{
    ReadResult result;
    result.format = TraceFormat::RocprofV3;
    InflatingStreamBuf *input = probe.text; // the stream read last (a number out of range reads it again)
    std::unique_ptr<InflatingStreamBuf> reopened;
    // Parsed as one document: a number out of range stops it, so it is parsed again with that number
    // read as a mark that drops only its record.
    std::vector<std::pair<int64_t, int64_t>> patches;
    for (;;) {
        PatchingStreamBuf patched(*input, patches);
        std::istream in(&patched);
        RocprofV3Handler handler(context.cancel);
        nlohmann::json::sax_parse(in, &handler);
        result.error = handler.error();
        result.cancelled = handler.cancelled();
        const auto number = handler.outOfRangeNumber();
        const bool again = number.first >= 0 && int(patches.size()) < kMaxOutOfRangeNumbers &&
                           std::find(patches.begin(), patches.end(), number) == patches.end();
        if (!again) {
            if (result.error.isEmpty() && !result.cancelled)
                handler.addEventsTo(builder);
            break;
        }
        patches.push_back(number);
        reopened = std::make_unique<InflatingStreamBuf>();
        if (context.progress)
            reopened->setProgressCallback(context.progress);
        if (!reopened->open(probe.path)) {
            result.error = tr("cannot open: %1").arg(reopened->error());
            result.cancelled = false;
            return result;
        }
        input = reopened.get();
    }
    result.cancelled = result.cancelled || (context.cancel && context.cancel->load());
    // A gzip or read failure ends the text early; say that rather than the JSON error it causes.
    if (!input->error().isEmpty())
        result.error = input->error();
    result.bytesRead = input->bytesProduced();
    return result;
}

} // namespace scopeline
