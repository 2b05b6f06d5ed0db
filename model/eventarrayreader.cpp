#include "eventarrayreader.h"

#include "chrometracehandler.h"
#include "eventsink.h"
#include "inflatingstreambuf.h"
#include "rawevent.h"
#include "tracebuilder.h"

#include <QCoreApplication>
#include <QFuture>
#include <QRegularExpression>
#include <QThreadPool>
#include <QtConcurrent>

#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace scopeline {

namespace {

constexpr std::size_t kChunkBytes = 1 << 20;
constexpr int kMaxChunksInFlight = 2; // bounds memory: at most this many chunks are parsed ahead
constexpr std::size_t kMaxSkeletonBytes = 64 << 20;

// Parser threads of their own: loads themselves run on the global pool and wait for these.
QThreadPool &parserPool()
{
    static QThreadPool pool;
    return pool;
}

// The events of one chunk, in order, with RawEvent buffers recycled between chunks.
struct Chunk : public EventSink
{
    int64_t offset = 0; // of the chunk's first byte in the decompressed document
    std::vector<RawEvent> events;
    std::size_t count = 0;
    std::map<QString, int64_t> skipped;
    QString error;
    bool cancelled = false;

    void add(RawEvent &event) override
    {
        if (count == events.size())
            events.emplace_back();
        std::swap(events[count++], event);
    }
    void skip(const QString &reason, int64_t n) override { skipped[reason] += n; }
};

using ChunkPtr = std::shared_ptr<Chunk>;

// Rewrites "at byte N" in a parse error from a position in the text parsed to one in the document.
QString withDocumentOffset(QString error, const std::function<int64_t(int64_t)> &toDocument)
{
    // Lines and columns would count within the part parsed; the byte offset is what locates it.
    static const QRegularExpression lineColumn(QStringLiteral(" at line \\d+, column \\d+"));
    error.remove(lineColumn);
    const QString marker = QStringLiteral("at byte ");
    const int at = error.indexOf(marker);
    if (at < 0)
        return error;
    const int from = at + int(marker.size());
    int end = from;
    while (end < error.size() && error[end].isDigit())
        ++end;
    return error.replace(from, end - from, QString::number(toDocument(error.mid(from, end - from).toLongLong())));
}

ChunkPtr parseChunk(ChunkPtr chunk, std::string text, const std::atomic<bool> *cancel)
{
    // The chunk holds whole events separated by commas: parse it as an array of its own.
    ChromeTraceHandler handler(*chunk, cancel);
    nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &handler);
    chunk->cancelled = handler.cancelled();
    const int64_t offset = chunk->offset;
    if (!handler.error().isEmpty()) // positions count from the '[' put in front
        chunk->error = withDocumentOffset(handler.error(), [offset](int64_t p) { return offset + p - 1; });
    return chunk;
}

} // namespace

EventArrayReader::EventArrayReader(InflatingStreamBuf &input, TraceBuilder &builder, const std::atomic<bool> *cancel)
    : m_input(input), m_builder(builder), m_cancel(cancel)
{
}

bool EventArrayReader::read()
{
    enum class Phase { Before, Events, After } phase = Phase::Before;
    std::string skeleton;           // the document without the event array's contents
    int64_t skeletonCut = -1;       // skeleton position where the array contents were removed
    int64_t eventsStart = 0, removed = 0; // document offset and length of the array contents
    std::string pending;            // event text not yet handed out as a chunk
    int64_t pendingOffset = 0;      // document offset of pending[0]
    int64_t documentOffset = 0;     // of the current block
    int depth = 0, eventsDepth = 0; // eventsDepth: depth of the array's elements' container
    bool inString = false, escape = false, topObject = false;
    std::string topString;          // the last string at depth 1: the key before '['

    std::deque<QFuture<ChunkPtr>> inFlight;
    std::vector<ChunkPtr> spare;
    std::mutex spareMutex;
    QString chunkError;
    bool chunkCancelled = false;

    auto consume = [&](QFuture<ChunkPtr> &future) {
        ChunkPtr chunk = future.result();
        if (chunkError.isEmpty() && !chunkCancelled) {
            if (!chunk->error.isEmpty())
                chunkError = chunk->error;
            else if (chunk->cancelled)
                chunkCancelled = true;
        }
        if (chunkError.isEmpty() && !chunkCancelled) {
            for (std::size_t i = 0; i < chunk->count; ++i)
                m_builder.add(chunk->events[i]);
            for (const auto &[reason, n] : chunk->skipped)
                m_builder.skip(reason, n);
        }
        chunk->count = 0;
        chunk->skipped.clear();
        std::lock_guard<std::mutex> lock(spareMutex);
        spare.push_back(std::move(chunk));
    };
    auto submit = [&](std::size_t length, bool complete) {
        std::string text;
        text.reserve(length + 2);
        text.push_back('[');
        text.append(pending, 0, length);
        if (complete)
            text.push_back(']');
        ChunkPtr chunk;
        {
            std::lock_guard<std::mutex> lock(spareMutex);
            if (!spare.empty()) {
                chunk = std::move(spare.back());
                spare.pop_back();
            }
        }
        if (!chunk)
            chunk = std::make_shared<Chunk>();
        chunk->offset = pendingOffset;
        const std::atomic<bool> *cancel = m_cancel;
        inFlight.push_back(QtConcurrent::run(&parserPool(), [chunk, cancel, t = std::move(text)]() mutable {
            return parseChunk(std::move(chunk), std::move(t), cancel);
        }));
        while (int(inFlight.size()) > kMaxChunksInFlight || (!inFlight.empty() && inFlight.front().isFinished())) {
            consume(inFlight.front());
            inFlight.pop_front();
        }
    };

    for (std::string_view block = m_input.nextBlock(); !block.empty(); block = m_input.nextBlock()) {
        if (m_cancel && m_cancel->load(std::memory_order_relaxed))
            break;
        std::size_t copiedFrom = 0; // block bytes before this belong to the skeleton or pending already
        for (std::size_t i = 0; i < block.size(); ++i) {
            const char c = block[i];
            if (inString) {
                if (escape)
                    escape = false;
                else if (c == '\\')
                    escape = true;
                else if (c == '"')
                    inString = false;
                else if (phase == Phase::Before && depth == 1 && topString.size() < 64)
                    topString.push_back(c);
                continue;
            }
            switch (c) {
            case '"':
                inString = true;
                if (phase == Phase::Before && depth == 1)
                    topString.clear();
                break;
            case '{':
            case '[':
                if (phase == Phase::Before &&
                    ((depth == 0 && c == '[') || (depth == 1 && topObject && c == '[' && topString == "traceEvents"))) {
                    skeleton.append(block.substr(copiedFrom, i + 1 - copiedFrom));
                    copiedFrom = i + 1;
                    phase = Phase::Events;
                    eventsDepth = depth + 1;
                    skeletonCut = int64_t(skeleton.size());
                    pendingOffset = eventsStart = documentOffset + int64_t(i) + 1;
                } else if (depth == 0) {
                    topObject = true;
                }
                ++depth;
                break;
            case '}':
            case ']':
                --depth;
                if (phase == Phase::Events && depth < eventsDepth) {
                    pending.append(block.substr(copiedFrom, i - copiedFrom));
                    copiedFrom = i; // the closing bracket goes to the skeleton
                    removed = documentOffset + int64_t(i) - eventsStart;
                    phase = Phase::After;
                    submit(pending.size(), true);
                    pending.clear();
                }
                break;
            case ',':
                if (phase == Phase::Events && depth == eventsDepth &&
                    pending.size() + (i - copiedFrom) >= kChunkBytes) {
                    pending.append(block.substr(copiedFrom, i - copiedFrom));
                    copiedFrom = i + 1;
                    submit(pending.size(), true);
                    pendingOffset += int64_t(pending.size()) + 1;
                    pending.clear();
                }
                break;
            default:
                break;
            }
        }
        (phase == Phase::Events ? pending : skeleton).append(block.substr(copiedFrom));
        documentOffset += int64_t(block.size());
        if (skeleton.size() > kMaxSkeletonBytes) {
            m_error = QCoreApplication::translate("TraceLoader", "no \"traceEvents\" array in the first %1 MB")
                          .arg(kMaxSkeletonBytes >> 20);
            break;
        }
    }
    if (phase == Phase::Events && m_error.isEmpty()) // cut short: let the parser say where
        submit(pending.size(), false);
    for (auto &future : inFlight)
        consume(future);
    inFlight.clear();

    m_cancelled = chunkCancelled || (m_cancel && m_cancel->load());
    if (m_cancelled || !m_error.isEmpty() || !m_input.error().isEmpty())
        return false;
    if (!chunkError.isEmpty()) {
        m_error = chunkError;
        return false;
    }

    // The skeleton holds the top-level keys (Kineto's marker) and must be valid JSON itself.
    ChromeTraceHandler handler(m_builder, m_cancel);
    nlohmann::json::sax_parse(skeleton.data(), skeleton.data() + skeleton.size(), &handler);
    if (!handler.error().isEmpty()) {
        m_error = withDocumentOffset(handler.error(), [skeletonCut, removed](int64_t p) {
            return skeletonCut >= 0 && p > skeletonCut ? p + removed : p;
        });
        return false;
    }
    if (!handler.sawEvents()) {
        m_error = QCoreApplication::translate("TraceLoader", "no trace events: expected a JSON array of events, an "
                                                             "object with a \"traceEvents\" array, or rocprofv3 JSON");
        return false;
    }
    return true;
}

} // namespace scopeline
