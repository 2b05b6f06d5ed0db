// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reads a Chrome trace JSON document with its event array cut into chunks at top-level commas; the
// chunks are parsed in parallel by the fast event reader into EventBatches (nlohmann re-reads a chunk
// it refuses), by parser threads and, when they fall behind, the reading thread, and each thread adds
// its chunk to the builder in file order. The cuts are guessed where the text looks like a boundary
// between events and proven by each chunk's parse; from a chunk not proven on, a scan of the text
// outside strings cuts. While other files being read keep the cores busy, the reading thread parses
// the events itself as it reads them, without a cut, and hands what the fast reader refuses back to
// the scan. Everything outside the event array (the "skeleton") is parsed too, so errors anywhere
// are found.

#include "model/formats/jsonstructurescanner.h"

#include <QFuture>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace scopeline {

class InflatingStreamBuf;

class TraceBuilder;
struct EventChunk;

class EventArrayReader
{
public:
    EventArrayReader(InflatingStreamBuf &input, TraceBuilder &builder, const std::atomic<bool> *cancel);
    ~EventArrayReader();

    // Reads to the end; returns false with error() or cancelled() set on failure.
    bool read();
    // For tests: how many chunks may wait for a parser thread before the reading thread parses the
    // next one itself (0: it parses them all); a negative value restores the default.
    static void setMaxChunksQueued(int chunks);
    // For tests: 1, every reading thread parses its own chunks (parseDirect); 0, none does; -1, as
    // many as there are files being read beyond the parser threads (the default).
    static void setParsesOwnChunks(int parses);
    // For tests: off, a file read by parser threads is cut by the scan rather than by guesses.
    static void setGuessesCuts(bool guesses);
    QString error() const { return m_error; }
    bool cancelled() const { return m_cancelled; }

private:
    enum class Phase { Before, Events, After };

    void consume(std::string_view block);
    bool parsesOwnChunks() const;
    std::size_t parseDirect(std::string_view block, std::size_t from);
    void leaveDirect();
    std::size_t cutByGuess(std::string_view block, std::size_t from);
    void stopGuessing();
    void rewind();
    void refeed(const std::string &text, int64_t offset);
    void submitDirect(int64_t textEnd);
    std::size_t scanOutside(std::string_view block, std::size_t from);
    std::size_t scanEvents(std::string_view block, std::size_t from);
    void compactPending();
    std::size_t chunkBytes() const;
    void startPending();
    void submitChunk(bool complete, bool guessed = false);
    std::shared_ptr<EventChunk> takeChunk();
    // A chunk this thread has parsed, into the builder in order; textEnd >= 0 when its text was
    // parsed by parseDirect (the chunk holds no text): the document offset where it ends.
    void submitParsed(std::shared_ptr<EventChunk> chunk, int64_t textEnd);
    void settle(); // recycles the chunks built
    bool consumeChunk(); // false when the chunk goes back to the cut instead
    void recycle(std::shared_ptr<EventChunk> chunk); // into m_spare, its parse's outcome cleared
    void waitForParses(); // of every chunk in flight

    bool isBuilt(const std::shared_ptr<EventChunk> &chunk) const;
    void addInOrder(const std::shared_ptr<EventChunk> &parsed);
    bool parseSkeleton();

    InflatingStreamBuf &m_input;
    TraceBuilder &m_builder;
    const std::atomic<bool> *m_cancel;
    QString m_error;
    bool m_cancelled = false;

    Phase m_phase = Phase::Before;
    std::string m_skeleton;     // the document without the event array's contents
    int64_t m_skeletonCut = -1; // skeleton position where the contents were taken out
    int64_t m_eventsStart = 0;  // document offset and length of the contents
    int64_t m_eventsLength = 0;
    std::string m_pending;       // '[' + event text not yet handed out as a chunk
    int64_t m_pendingOffset = 0; // document offset of the text after the '['
    int64_t m_blockOffset = 0;   // document offset of the current block
    int m_depth = 0;
    int m_eventsDepth = 0; // nesting depth of the array's elements
    bool m_inString = false, m_escape = false, m_topObject = false;
    bool m_notJson = false; // a byte no JSON document starts with: the skeleton's parse says so
    // Parsing whole events straight from the text rather than cutting it into chunks (parseDirect):
    // the chunk's batch, and how much of m_pending it holds; m_refeeding while refeed hands text
    // back to the scan.
    bool m_direct = false, m_refeeding = false;
    std::shared_ptr<EventChunk> m_directChunk;
    std::size_t m_taken = 1;
    // Cutting by guesses (cutByGuess); set by addInOrder when a guessed chunk is not proven.
    bool m_guessing = false;
    std::atomic<bool> m_unproven{false};
    std::string m_topString; // the last string at depth 1: the key before '['
    // Long whitespace runs taken out of m_pending (a gzip of gigabytes of blanks must not fill memory):
    // where in m_pending, and how many bytes; parse errors map back through them.
    std::vector<std::pair<int64_t, int64_t>> m_removed;
    int64_t m_removedTotal = 0;
    std::size_t m_compactFrom = 1; // m_pending before this is compacted already
    JsonStringTracker m_compactStrings;

    std::deque<QFuture<std::shared_ptr<EventChunk>>> m_inFlight;
    std::vector<std::shared_ptr<EventChunk>> m_spare; // parsed chunks whose buffers are reused
    int64_t m_submitted = 0;
    std::atomic<int> m_queued{0}; // chunks handed to parser threads and not yet started
    // Chunks go into the builder in file order, from whichever thread parsed them (addInOrder): parsed
    // ones wait in m_parsed until the one thread adding chunks (m_building) reaches them.
    std::mutex m_buildMutex;
    std::condition_variable m_built; // m_nextToBuild moved: the reading thread may recycle a chunk
    std::map<int64_t, std::shared_ptr<EventChunk>> m_parsed;
    bool m_building = false;
    std::atomic<int64_t> m_nextToBuild{0};
    QString m_chunkError; // the first chunk's error, set by the thread adding chunks
    bool m_chunkCancelled = false;
};

} // namespace scopeline
