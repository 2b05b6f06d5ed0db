// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/eventarrayreader.h"

#include "model/formats/chrometracehandler.h"
#include "model/formats/eventbatch.h"
#include "model/formats/inflatingstreambuf.h"
#include "model/formats/jsonstructurescanner.h"
#include "model/tracedata/hugepages.h"
#include "model/tracedata/sparecore.h"
#include "model/formats/simdeventparser.h"
#include "model/formats/tracebuilder.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QThreadPool>
#include <QtConcurrent>

#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>

namespace scopeline {

namespace {

constexpr std::size_t kChunkBytes = 256 << 10; // small enough to stay in cache between cut and parse
constexpr std::size_t kChunkSlack = 16 << 10;  // room for the event the chunk ends with
constexpr std::size_t kDirectSliceBytes = 64 << 10; // text added at a time when parsing without the cut
constexpr int kMaxChunksInFlight = 6; // bounds memory: chunks parsed ahead of the builder
// Chunks waiting for a parser thread; past this the reading thread parses the next chunk itself,
// which beats sleeping until a parser thread is free (two cores: 10% of a plain load).
constexpr int kMaxChunksQueued = 2;
std::atomic<int> g_maxChunksQueued{kMaxChunksQueued};
// Readers in read(), of any file. While as many files load as there are cores, each reading thread
// parses its own chunks (handing them to parser threads would only share the cores); a file still
// loading when the others are done hands its chunks to the parser threads again.
std::atomic<int> g_reading{0};
std::atomic<int> g_parsesOwnChunks{-1}; // EventArrayReader::setParsesOwnChunks
std::atomic<bool> g_guessesCuts{true};  // EventArrayReader::setGuessesCuts
constexpr std::size_t kMaxSkeletonBytes = 64 << 20;
// Event text without a top-level comma beyond this is compacted (long blank runs dropped); one event
// longer than kMaxEventBytes after that is an error, not an allocation.
constexpr std::size_t kCompactAbove = 8 * kChunkBytes;
constexpr std::size_t kMaxEventBytes = 256 << 20;
constexpr std::size_t kLongBlankRun = 64;

constexpr int kNumberOutOfRange = 406; // nlohmann::json::out_of_range id for a number overflow

} // namespace

namespace {

// Calls element(from, to) for each top-level element of a chunk's text ('[' + elements + ']', the
// ']' missing when the document was cut short), while it returns true.
void forEachElement(const std::string &text, const std::function<bool(std::size_t, std::size_t)> &element)
{
    int depth = 0;
    JsonStringTracker strings;
    std::size_t from = 1;
    for (std::size_t i = 1; i < text.size(); ++i) {
        const char c = text[i];
        if (strings.feed(c))
            continue;
        if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        } else if ((c == ',' || c == ']') && depth == 0) {
            if (!element(from, i))
                return;
            if (c == ']')
                return;
            from = i + 1;
        }
    }
    if (from < text.size())
        element(from, text.size()); // cut short: the parser says where
}

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
    return error.replace(from, end - from,
                         QString::number(toDocument(error.mid(from, end - from).toLongLong())));
}

// A parse error at the text's very end: the file stops inside the document, which says more than what
// the parser expected next.
QString withCutShort(const QString &error, int64_t textBytes)
{
    int64_t at = -1;
    withDocumentOffset(error, [&at](int64_t p) { return at = p; });
    if (at <= textBytes) // the parser counts the end it met as a byte past the text
        return error;
    return error + QCoreApplication::translate(
                       "TraceLoader", "; the text ends there, after %1 bytes: the file was cut short "
                                      "(a profiler stopped while writing it?)")
                       .arg(textBytes);
}

} // namespace

// One chunk of the event array and, once parsed, its events; buffers are recycled between chunks.
struct EventChunk
{
    std::string text;   // '[' + events + ']'; the buffer goes back to the reader for the next chunk
    int64_t offset = 0; // document offset of the chunk's text (after the '[' put in front)
    int64_t sequence = 0; // its place in the file: chunks go into the builder in this order
    std::vector<std::pair<int64_t, int64_t>> removed; // blank runs taken out: (text position, bytes)
    EventBatch batch;
    QString error;
    bool cancelled = false;
    bool guessed = false;  // cut where the text looked like a boundary (cutByGuess)
    bool unproven = false; // guessed, and its parse did not end exactly where the cut would have

    explicit EventChunk(std::size_t textBytes) { batch.reserveFor(textBytes); }

    void parse(const std::atomic<bool> *cancel)
    {
        if (guessed) {
            // The cut is the cut's own when the events run, all taken by the fast path, to the ']' put
            // after them with no ',' past a chunk's worth before it. Anything else goes back to the cut.
            batch.clear();
            const EventRun run = parseEventRun(text, 1, kChunkBytes, batch, cancel);
            cancelled = run.stop == EventRun::Cancelled;
            unproven = !cancelled && !(run.stop == EventRun::End && run.next + 1 == text.size());
            return;
        }
        // The fast path first; where it refuses the text, nlohmann reads it again from the start and its
        // leniency (1e400 skips one event) and messages are what the user gets.
        batch.clear();
        if (const FastParse fast = parseEventsFast(text, batch, cancel); fast != FastParse::Refused) {
            cancelled = fast == FastParse::Cancelled;
            return;
        }
        batch.clear();
        ChromeTraceHandler handler(batch, cancel);
        nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &handler);
        cancelled = handler.cancelled();
        if (handler.errorId() == kNumberOutOfRange && !cancelled)
            return parseEventByEvent(cancel);
        if (!handler.error().isEmpty())
            error = documentError(handler.error(), 0);
    }

    // nlohmann stops at a number a double cannot hold (1e400); that spoils one event, not the file,
    // so the chunk is parsed again one event at a time and such events are skipped and counted.
    void parseEventByEvent(const std::atomic<bool> *cancel)
    {
        batch.clear();
        forEachElement(text, [&](std::size_t from, std::size_t to) {
            const std::string one = '[' + text.substr(from, to - from) + ']';
            ChromeTraceHandler handler(batch, cancel);
            nlohmann::json::sax_parse(one.data(), one.data() + one.size(), &handler);
            if (handler.errorId() == kNumberOutOfRange) {
                batch.skip(QCoreApplication::translate("TraceBuilder", "number out of range"), 1);
                return true;
            }
            cancelled = handler.cancelled();
            if (!handler.error().isEmpty())
                error = documentError(handler.error(), int64_t(from) - 1);
            return error.isEmpty() && !cancelled;
        });
    }

    // A parse error at position p of text (after `shift` bytes of it), as a document byte offset.
    QString documentError(const QString &message, int64_t shift) const
    {
        return withDocumentOffset(message, [this, shift](int64_t p) {
            p += shift;
            int64_t before = 0;
            for (const auto &[at, bytes] : removed)
                if (at < p)
                    before += bytes;
            return offset + p - 1 + before;
        });
    }
};

EventArrayReader::EventArrayReader(InflatingStreamBuf &input, TraceBuilder &builder,
                                   const std::atomic<bool> *cancel)
    : m_input(input), m_builder(builder), m_cancel(cancel)
{}

void EventArrayReader::setMaxChunksQueued(int chunks)
{
    g_maxChunksQueued = chunks < 0 ? kMaxChunksQueued : chunks;
}

EventArrayReader::~EventArrayReader()
{
    waitForParses();
}

void EventArrayReader::waitForParses()
{
    // Only waited for: a parse's exception (out of memory) is the load's already, or goes with it.
    for (auto &future : m_inFlight)
        try {
            future.waitForFinished();
        } catch (...) {
        }
}

bool EventArrayReader::read()
{
    g_reading.fetch_add(1, std::memory_order_relaxed);
    const auto done = qScopeGuard([] { g_reading.fetch_sub(1, std::memory_order_relaxed); });
    for (std::string_view block = m_input.nextBlock(); !block.empty(); block = m_input.nextBlock()) {
        if (m_cancel && m_cancel->load(std::memory_order_relaxed))
            break;
        consume(block);
        m_blockOffset += int64_t(block.size());
        if (m_notJson)
            break;
        if (m_skeleton.size() > kMaxSkeletonBytes) {
            m_error = m_phase == Phase::Before
                          ? QCoreApplication::translate("TraceLoader",
                                                        "no \"traceEvents\" array in the first %1 MB")
                                .arg(kMaxSkeletonBytes >> 20)
                          : QCoreApplication::translate("TraceLoader",
                                                        "more than %1 MB of text after the event array")
                                .arg(kMaxSkeletonBytes >> 20);
            break;
        }
        if (!m_error.isEmpty())
            break;
    }
    if (m_guessing && !(m_cancel && m_cancel->load()))
        stopGuessing(); // the rest, the array's end among it, goes through the cut
    if (m_direct && !(m_cancel && m_cancel->load()))
        leaveDirect(); // cut short, or an event left to nlohmann: the exact path says where
    if (m_phase == Phase::Events && m_error.isEmpty())
        submitChunk(false); // cut short: the parser says where
    while (!m_inFlight.empty() && consumeChunk()) {}

    m_cancelled = m_chunkCancelled || (m_cancel && m_cancel->load());
    if (m_cancelled || !m_input.error().isEmpty())
        return false;
    if (m_error.isEmpty())
        m_error = m_chunkError;
    const bool ok = m_error.isEmpty() && parseSkeleton();
    if (!ok)
        m_error = withCutShort(m_error, m_blockOffset);
    return ok;
}

void EventArrayReader::consume(std::string_view block)
{
    for (std::size_t i = 0; i < block.size();)
        i = m_phase == Phase::Events ? scanEvents(block, i) : scanOutside(block, i);
}

bool EventArrayReader::parsesOwnChunks() const
{
    const int forced = g_parsesOwnChunks.load(std::memory_order_relaxed);
    if (forced >= 0)
        return forced > 0;
    return g_reading.load(std::memory_order_relaxed) > helperThreads().maxThreadCount();
}

void EventArrayReader::setParsesOwnChunks(int parses)
{
    g_parsesOwnChunks = parses;
}

std::size_t EventArrayReader::parseDirect(std::string_view block, std::size_t from)
{
    // The chunks are the cut's, found by the parser as it takes their events: m_pending holds '[' and
    // the chunk's text so far, of which the first m_taken bytes are parsed into m_directChunk's batch.
    // The text is added a slice at a time, parsed while in cache.
    if (!m_direct) {
        m_direct = true;
        m_taken = 1;
    }
    while (from < block.size()) {
        const std::size_t take = std::min(block.size() - from, kDirectSliceBytes);
        m_pending.append(block.substr(from, take));
        from += take;
        for (;;) {
            if (!m_directChunk) {
                m_directChunk = takeChunk();
                m_directChunk->batch.clear();
            }
            const EventRun run =
                parseEventRun(m_pending, m_taken, kChunkBytes, m_directChunk->batch, m_cancel);
            if (run.stop == EventRun::More) {
                m_taken = run.next;
                break;
            }
            const int64_t textEnd = m_pendingOffset + int64_t(run.next) - 1;
            if (run.stop == EventRun::Cancelled) {
                m_directChunk->cancelled = true;
                submitDirect(textEnd);
                m_direct = false;
                startPending();
                return block.size();
            }
            if (run.stop == EventRun::End) {
                // The array's ']' and what follows go to the skeleton, as the cut hands them.
                m_eventsLength = textEnd - m_eventsStart;
                submitDirect(textEnd);
                m_phase = Phase::After;
                m_depth = m_eventsDepth - 1;
                m_inString = m_escape = false;
                m_direct = false;
                const std::string rest = m_pending.substr(run.next) + std::string(block.substr(from));
                startPending();
                consume(rest);
                return block.size();
            }
            // Cut: the chunk is '[' and the text before the ','; the next one starts after it.
            submitDirect(textEnd);
            m_pendingOffset += int64_t(run.next);
            m_pending.erase(1, run.next);
            m_taken = 1;
            if (!parsesOwnChunks()) { // the other loads are done: the parser threads take the chunks
                m_pending.append(block.substr(from));
                leaveDirect();
                return block.size();
            }
        }
        // An event this path leaves to nlohmann (the text grows without it being taken), or one longer
        // than the chunk's slack: the cut reads the chunk again from its start.
        if (m_pending.size() > kChunkBytes + kChunkSlack) {
            m_pending.append(block.substr(from));
            leaveDirect();
            return block.size();
        }
    }
    return block.size();
}

void EventArrayReader::submitDirect(int64_t textEnd)
{
    submitParsed(std::move(m_directChunk), textEnd);
    m_directChunk.reset();
}

void EventArrayReader::leaveDirect()
{
    // The chunk so far starts at a top-level boundary: the cut reads it as a block of the document at
    // its offset, without handing back to parseDirect, and its events are parsed again.
    m_direct = false;
    if (m_directChunk)
        m_spare.push_back(std::move(m_directChunk));
    refeed(m_pending.substr(1), m_pendingOffset);
}

void EventArrayReader::setGuessesCuts(bool guesses)
{
    g_guessesCuts = guesses;
}

namespace {

// Whether c can start a JSON value other than an object or array.
bool startsJsonValue(char c)
{
    return c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
}

// Whether c is the byte of a UTF-8 byte order mark at this document offset (nlohmann skips one).
bool isUtf8Bom(int64_t offset, char c)
{
    return offset < 3 && c == "\xEF\xBB\xBF"[offset];
}

// A ',' at q between two events, as far as the block shows: '}' before it and '{' after, blanks
// aside. Inside a string or an arg, it can fool; the chunk's parse then finds out.
bool looksLikeCut(std::string_view block, std::size_t q)
{
    std::size_t before = q, after = q + 1;
    while (before > 0 && isJsonBlank(block[before - 1]))
        --before;
    while (after < block.size() && isJsonBlank(block[after]))
        ++after;
    return before > 0 && block[before - 1] == '}' && after < block.size() && block[after] == '{';
}

} // namespace

std::size_t EventArrayReader::cutByGuess(std::string_view block, std::size_t from)
{
    // The reading thread does not scan the text: it cuts at the first ',' past a chunk's worth that
    // looks like one between events, and the chunk's parse proves it (EventChunk::parse). A chunk it
    // does not prove, and every chunk after it, goes back to the cut (rewind).
    for (;;) {
        if (m_unproven.load(std::memory_order_acquire)) {
            m_pending.append(block.substr(from));
            rewind();
            return block.size();
        }
        const std::size_t need = kChunkBytes > m_pending.size() ? kChunkBytes - m_pending.size() : 0;
        std::size_t q = from + need;
        for (; q < block.size(); ++q) {
            const void *comma = std::memchr(block.data() + q, ',', block.size() - q);
            if (!comma) {
                q = block.size();
                break;
            }
            q = std::size_t(static_cast<const char *>(comma) - block.data());
            if (looksLikeCut(block, q))
                break;
        }
        if (q >= block.size()) {
            m_pending.append(block.substr(from));
            if (m_pending.size() > kChunkBytes + kChunkSlack)
                stopGuessing(); // an event longer than the slack, or no ',' that looks like a cut
            return block.size();
        }
        m_pending.append(block.substr(from, q - from));
        submitChunk(true, true);
        from = q + 1;
    }
}

void EventArrayReader::stopGuessing()
{
    // Once every chunk handed out is proven, the text from the last cut goes through the cut.
    waitForParses();
    if (m_unproven.load(std::memory_order_acquire)) {
        rewind();
        return;
    }
    m_guessing = false;
    refeed(m_pending.substr(1), m_pendingOffset);
}

void EventArrayReader::rewind()
{
    // The text from the first chunk not built: its chunks, each after the ',' its cut took, then the
    // text after the last cut. All of it goes through the cut, as does the rest of the document.
    waitForParses();
    std::string text;
    int64_t offset = m_pendingOffset;
    {
        std::unique_lock<std::mutex> lock(m_buildMutex);
        const int64_t built = m_nextToBuild.load(std::memory_order_acquire);
        for (auto &future : m_inFlight) {
            const std::shared_ptr<EventChunk> chunk = future.result();
            if (chunk->sequence >= built) {
                if (text.empty())
                    offset = chunk->offset;
                text.append(chunk->text, 1, chunk->text.size() - 2).push_back(',');
            }
            recycle(chunk);
        }
        m_parsed.clear();
        m_submitted = built;
    }
    m_inFlight.clear();
    text.append(m_pending, 1, std::string::npos);
    m_unproven = false;
    m_guessing = false;
    refeed(text, offset);
}

void EventArrayReader::refeed(const std::string &text, int64_t offset)
{
    // text starts at a top-level boundary at this document offset: the cut reads it as a block.
    startPending();
    m_pendingOffset = offset;
    m_depth = m_eventsDepth;
    m_inString = m_escape = false;
    const int64_t blockOffset = m_blockOffset;
    m_blockOffset = offset;
    m_refeeding = true;
    consume(text);
    m_refeeding = false;
    m_blockOffset = blockOffset;
}

std::size_t EventArrayReader::scanOutside(std::string_view block, std::size_t from)
{
    // Before and after the event array, byte by byte: the text is short and goes to the skeleton.
    for (std::size_t i = from; i < block.size(); ++i) {
        const char c = block[i];
        if (m_inString) {
            if (m_escape)
                m_escape = false;
            else if (c == '\\')
                m_escape = true;
            else if (c == '"')
                m_inString = false;
            else if (m_depth == 1 && m_topString.size() < 64)
                m_topString.push_back(c);
            continue;
        }
        if (c == '"') {
            m_inString = true;
            m_topString.clear();
        } else if (c == '{' || c == '[') {
            const bool eventsOpen =
                m_phase == Phase::Before && c == '[' &&
                (m_depth == 0 || (m_depth == 1 && m_topObject && m_topString == "traceEvents"));
            m_topObject = m_topObject || (m_depth == 0 && c == '{');
            ++m_depth;
            if (eventsOpen) {
                m_skeleton.append(block.substr(from, i + 1 - from));
                m_skeletonCut = int64_t(m_skeleton.size());
                m_phase = Phase::Events;
                m_eventsDepth = m_depth;
                m_pendingOffset = m_eventsStart = m_blockOffset + int64_t(i) + 1;
                startPending();
                m_guessing = g_guessesCuts.load(std::memory_order_relaxed) && !parsesOwnChunks();
                return i + 1;
            }
        } else if (c == '}' || c == ']') {
            --m_depth;
        } else if (m_phase == Phase::Before && m_depth == 0 && !startsJsonValue(c) && !isJsonBlank(c) &&
                   !isUtf8Bom(m_blockOffset + int64_t(i), c)) {
            // Not JSON (a binary file, a CSV): said at its first byte, not at a '[' further on, nor after
            // 64 MB of skeleton.
            m_skeleton.append(block.substr(from, i + 1 - from));
            m_notJson = true;
            return block.size();
        }
    }
    m_skeleton.append(block.substr(from));
    return block.size();
}

std::size_t EventArrayReader::scanEvents(std::string_view block, std::size_t from)
{
    if (m_guessing)
        return cutByGuess(block, from);
    if (m_direct || (m_pending.size() == 1 && !m_refeeding && parsesOwnChunks()))
        return parseDirect(block, from);
    // The hot loop: 64 bytes at a time, the scanner gives the brackets (and, once the chunk is
    // nearly full, the commas) outside strings; only those bytes are looked at here.
    const std::size_t n = block.size();
    JsonStructureScanner scanner;
    scanner.inString = m_inString;
    scanner.escape = m_escape;
    for (std::size_t i = from; i < n; i += 64) {
        const std::size_t len = std::min<std::size_t>(64, n - i);
        const bool commas = m_pending.size() + (i + len - from) >= kChunkBytes;
        const uint64_t structure = scanner.next(block.data() + i, len, commas);
        if (!commas) {
            // Only a close taking the depth below the events' can matter then: where even all the
            // closes could not, the depth moves on by the count alone (most blocks inside events).
            if (m_depth - scanner.closed >= m_eventsDepth) {
                m_depth += scanner.opened - scanner.closed;
                continue;
            }
        }
        for (uint64_t bits = structure; bits; bits &= bits - 1) {
            const std::size_t at = i + std::size_t(__builtin_ctzll(bits));
            switch (block[at]) {
            case '{':
            case '[':
                ++m_depth;
                break;
            case '}':
            case ']':
                if (--m_depth < m_eventsDepth) {
                    // The array ends here; its closing bracket and the rest go to the skeleton.
                    m_pending.append(block.substr(from, at - from));
                    m_eventsLength = m_blockOffset + int64_t(at) - m_eventsStart;
                    m_phase = Phase::After;
                    m_inString = m_escape = false;
                    submitChunk(true);
                    return at;
                }
                break;
            default: // ','
                if (m_depth == m_eventsDepth && m_pending.size() + (at - from) >= kChunkBytes) {
                    m_pending.append(block.substr(from, at - from));
                    submitChunk(true);
                    from = at + 1;
                    if (!m_refeeding && parsesOwnChunks()) {
                        m_inString = m_escape = false; // at a top-level comma
                        return from;
                    }
                }
                break;
            }
        }
    }
    m_inString = scanner.inString;
    m_escape = scanner.escape;
    m_pending.append(block.substr(from, n - from));
    if (m_pending.size() > kCompactAbove)
        compactPending();
    return n;
}

void EventArrayReader::compactPending()
{
    // Drops blank runs longer than kLongBlankRun outside strings (one blank stays); only text added
    // since the last compaction is scanned, so this stays linear however long the run.
    std::size_t w = m_compactFrom, run = 0;
    auto endRun = [&] {
        if (run > kLongBlankRun) {
            m_removed.emplace_back(int64_t(w), int64_t(run - kLongBlankRun));
            m_removedTotal += int64_t(run - kLongBlankRun);
        }
        run = 0;
    };
    for (std::size_t r = m_compactFrom; r < m_pending.size(); ++r) {
        const char c = m_pending[r];
        const bool blank = !m_compactStrings.feed(c) && isJsonBlank(c);
        if (!blank)
            endRun();
        else if (++run > kLongBlankRun)
            continue; // dropped; counted when the run ends
        m_pending[w++] = c;
    }
    endRun();
    m_pending.resize(w);
    m_compactFrom = w;
    if (m_pending.size() > kMaxEventBytes)
        m_error = QCoreApplication::translate("TraceLoader", "an event of more than %1 MB at byte %2")
                      .arg(kMaxEventBytes >> 20)
                      .arg(m_pendingOffset);
}

void EventArrayReader::startPending()
{
    m_pending.assign(1, '[');
    // A chunk ends at the first event boundary past kChunkBytes: reserved, its buffer is written once
    // rather than grown (a grown buffer touches twice the fresh memory and copies what it holds).
    hugepages::reserve(m_pending, chunkBytes() + kFastParsePadding);
}

std::size_t EventArrayReader::chunkBytes() const
{
    // A small file's chunk needs no more than the file: the buffers are reserved and faulted in whole.
    return std::size_t(std::min<int64_t>(kChunkBytes + kChunkSlack, m_input.expectedTextBytes() + 2));
}

void EventArrayReader::submitChunk(bool complete, bool guessed)
{
    if (complete)
        m_pending.push_back(']');
    std::shared_ptr<EventChunk> chunk = takeChunk();
    chunk->guessed = guessed;
    chunk->text.swap(m_pending); // m_pending takes the chunk's old buffer, its capacity kept
    chunk->offset = m_pendingOffset;
    chunk->removed = std::move(m_removed);
    m_pendingOffset +=
        int64_t(chunk->text.size()) + m_removedTotal - 1 /* '[' */ - (complete ? 1 : 0) + 1 /* ',' */;
    m_removed.clear();
    m_removedTotal = 0;
    m_compactFrom = 1;
    m_compactStrings = JsonStringTracker();
    if (parsesOwnChunks() ||
        m_queued.load(std::memory_order_relaxed) >= g_maxChunksQueued.load(std::memory_order_relaxed)) {
        // Other files keep the other cores busy, or the parser threads are behind: this thread
        // parses the chunk rather than wait for them.
        chunk->parse(m_cancel);
        startPending();
        submitParsed(std::move(chunk), -1);
        return;
    }
    chunk->sequence = m_submitted++;
    m_queued.fetch_add(1, std::memory_order_relaxed);
    m_inFlight.push_back(QtConcurrent::run(&helperThreads(), [this, chunk] {
        m_queued.fetch_sub(1, std::memory_order_relaxed);
        chunk->parse(m_cancel);
        addInOrder(chunk);
        return chunk;
    }));
    startPending();
    settle();
}

std::shared_ptr<EventChunk> EventArrayReader::takeChunk()
{
    if (m_spare.empty()) {
        auto chunk = std::make_shared<EventChunk>(chunkBytes());
        chunk->batch.setDetail(m_builder.detail());
        return chunk;
    }
    std::shared_ptr<EventChunk> chunk = std::move(m_spare.back());
    m_spare.pop_back();
    return chunk;
}

void EventArrayReader::submitParsed(std::shared_ptr<EventChunk> chunk, int64_t textEnd)
{
    if (textEnd >= 0) { // parsed by parseDirect: the chunk holds no text
        chunk->text.clear();
        chunk->offset = textEnd;
    }
    chunk->sequence = m_submitted++;
    addInOrder(chunk);
    m_inFlight.push_back(QtFuture::makeReadyFuture(std::move(chunk)));
    settle();
}

void EventArrayReader::settle()
{
    while (!m_inFlight.empty() && (int(m_inFlight.size()) > kMaxChunksInFlight ||
                                   (m_inFlight.front().isFinished() && isBuilt(m_inFlight.front().result()))))
        if (!consumeChunk())
            return;
}

bool EventArrayReader::isBuilt(const std::shared_ptr<EventChunk> &chunk) const
{
    return m_nextToBuild.load(std::memory_order_acquire) > chunk->sequence;
}

bool EventArrayReader::consumeChunk()
{
    std::shared_ptr<EventChunk> chunk = m_inFlight.front().result();
    {
        std::unique_lock<std::mutex> lock(m_buildMutex);
        m_built.wait(lock, [&] { return isBuilt(chunk) || m_unproven.load(std::memory_order_acquire); });
        if (!isBuilt(chunk))
            return false; // it, or one before it, goes back to the cut
    }
    m_inFlight.pop_front();
    recycle(std::move(chunk));
    return true;
}

void EventArrayReader::recycle(std::shared_ptr<EventChunk> chunk)
{
    chunk->error.clear();
    chunk->cancelled = chunk->unproven = false;
    m_spare.push_back(std::move(chunk));
}

void EventArrayReader::addInOrder(const std::shared_ptr<EventChunk> &parsed)
{
    // Parser threads add the chunks to the builder themselves, so that the reading thread only
    // inflates and cuts. A chunk parsed before its predecessor is in is left for the thread adding
    // chunks, which takes it next: no parser thread waits for another.
    std::unique_lock<std::mutex> lock(m_buildMutex);
    m_parsed.emplace(parsed->sequence, parsed);
    if (m_building)
        return;
    m_building = true;
    for (auto next = m_parsed.find(m_nextToBuild); next != m_parsed.end();
         next = m_parsed.find(m_nextToBuild)) {
        if (next->second->unproven) {
            // Not built: the reading thread takes it and what follows back to the cut (rewind).
            m_unproven.store(true, std::memory_order_release);
            m_built.notify_all();
            break;
        }
        const std::shared_ptr<EventChunk> chunk = std::move(next->second);
        m_parsed.erase(next);
        lock.unlock(); // the builder is this thread's alone while m_building
        if (m_chunkError.isEmpty() && !m_chunkCancelled) {
            m_chunkError = chunk->error;
            m_chunkCancelled = chunk->cancelled;
        }
        if (m_chunkError.isEmpty() && !m_chunkCancelled)
            m_builder.addBatch(chunk->batch, chunk->offset + int64_t(chunk->text.size()));
        lock.lock();
        m_nextToBuild.fetch_add(1, std::memory_order_release);
        m_built.notify_all();
    }
    m_building = false;
}

bool EventArrayReader::parseSkeleton()
{
    // The skeleton holds the top-level keys (Kineto's marker) and must be valid JSON itself.
    ChromeTraceHandler handler(m_builder, m_cancel);
    nlohmann::json::sax_parse(m_skeleton.data(), m_skeleton.data() + m_skeleton.size(), &handler);
    if (!handler.error().isEmpty()) {
        const int64_t cut = m_skeletonCut, length = m_eventsLength;
        m_error = withDocumentOffset(
            handler.error(), [cut, length](int64_t p) { return cut >= 0 && p > cut ? p + length : p; });
        return false;
    }
    if (!handler.sawEvents()) {
        m_error = QCoreApplication::translate("TraceLoader",
                                              "no trace events: expected a JSON array of events, an "
                                              "object with a \"traceEvents\" array, or rocprofv3 JSON");
        return false;
    }
    return true;
}

} // namespace scopeline
