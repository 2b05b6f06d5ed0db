// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The rows of one run's timeline, GUI-less: CPU processes then GPU devices as groups, one track row
// per (process, thread) with its slices sorted into nesting lanes, and every lane indexed so that the
// entries of a time window are found by binary search (what drawing and hit testing need).

#include "model/loading/loadedrun.h"

#include <QString>

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace scopeline {

// How an entry is drawn, by kind; kernels get one of a fixed set of styles by a hash of their name,
// so that one kernel has the same colour everywhere.
enum TimelineStyle : uint8_t {
    StyleCpuOther,
    StyleRuntime,
    StyleLaunch,
    StyleGraphLaunch,
    StyleCpuAnnotation,
    StyleGpuAnnotation,
    StyleMemcpy,
    StyleMemset,
    StyleGpuOther,
    StyleInstant,
    StyleCommunication, // communication kernels (the run summary's flag), in a colour of their own
    StyleKernelFirst,
};
constexpr int kTimelineKernelStyles = 12;
constexpr int kTimelineStyles = StyleKernelFirst + kTimelineKernelStyles;
static_assert(kTimelineStyles <= 32, "TimelineLane keeps a style in 5 bits");

// One nesting level of a track (or the idle gaps of a stream): entries sorted by start, found in a
// time window by binary search (what drawing and hit testing need). A lane of events reads their
// times from the trace's columns: an entry is an event index and a byte (its style and where its
// times come from), 5 bytes where a copy of the times took 29. The flattened last lane's pieces of
// events take the start of their event or the end of the piece before, and end where their event
// ends or the next piece starts; any other piece keeps its times aside (a child outliving its parent).
class TimelineLane
{
public:
    TimelineLane() = default; // entries with times of their own (idle gaps)
    explicit TimelineLane(const TraceData *events) : m_trace(events) {}

    std::size_t size() const { return m_items.size(); }
    bool empty() const { return m_items.empty(); }
    // Entries overlap (a slice outliving its parent by a clock's disagreement).
    bool overlapping() const { return m_overlapping; }
    int64_t start(std::size_t i) const;
    int64_t end(std::size_t i) const;
    // The running maximum of the ends, non-decreasing.
    int64_t reach(std::size_t i) const { return m_overlapping ? m_reach[i] : end(i); }
    uint32_t item(std::size_t i) const { return m_items[i]; } // event index (or gap index)
    uint8_t style(std::size_t i) const { return m_bits[i] & kStyleBits; } // TimelineStyle

    void reserve(std::size_t n);
    // Entries come in order of start; an event lane's items are event indices.
    void add(int64_t start, int64_t end, uint32_t item, uint8_t style);
    // Builds the index; call once after the last add().
    void finish();
    // First index in [l, r) whose start is at or beyond x (after x when `after`), or r.
    std::size_t firstStarting(int64_t x, std::size_t l, std::size_t r, bool after = false) const;
    // First index in [l, r) whose end is beyond x, or r.
    std::size_t firstEndingAfter(std::size_t l, std::size_t r, int64_t x) const;
    // Entries [first, last) that may intersect [from, to].
    std::pair<std::size_t, std::size_t> window(int64_t from, int64_t to) const;
    // Length of the union of the entries clipped to [from, to): two binary searches.
    int64_t covered(int64_t from, int64_t to) const;
    // Whether an entry reaches into [from, to].
    bool anyIn(int64_t from, int64_t to) const;

private:
    static constexpr uint8_t kStyleBits = 0x1f;
    static constexpr uint8_t kEventStart = 0x80; // starts where its event starts
    static constexpr uint8_t kEventEnd = 0x40;   // ends where its event ends
    static constexpr uint8_t kStored = 0x20;     // its times are in m_stored
    static constexpr std::size_t kBlock = 64;    // entries per covered-length checkpoint
    struct Stored
    {
        std::size_t index;
        int64_t start, end;
    };
    const Stored &stored(std::size_t i) const;
    void store(std::size_t i, int64_t start, int64_t end);
    int64_t coveredUntil(int64_t x) const;
    std::size_t descend(std::size_t node, std::size_t nl, std::size_t nr, std::size_t l, std::size_t r,
                        int64_t x) const;

    const TraceData *m_trace = nullptr; // null: the times are in m_starts and m_ends
    std::vector<uint32_t> m_items;
    std::vector<uint8_t> m_bits; // style | kEventStart | kEventEnd | kStored
    std::vector<int64_t> m_starts, m_ends; // lanes without a trace
    std::vector<Stored> m_stored;          // by index
    bool m_overlapping = false;
    int64_t m_maxEnd = std::numeric_limits<int64_t>::min(); // while entries are added
    int64_t m_lastEnd = 0;                                   // of the last entry added
    // Overlapping lanes only: the running maximum of the ends, a max-of-ends segment tree, and the
    // entries' union as disjoint intervals (what the covered length is measured over).
    std::vector<int64_t> m_reach, m_tree;
    std::size_t m_leaves = 0;
    std::vector<int64_t> m_unionStarts, m_unionEnds;
    std::vector<int64_t> m_blockStarts; // the start of every kBlock-th entry, searched first
    // The covered length before every kBlock-th disjoint interval (the entries themselves unless
    // they overlap); the rest is summed from there.
    std::vector<int64_t> m_coveredBefore;
};

struct TimelineTrackRow
{
    uint32_t track = 0; // into TraceData::tracks
    int group = 0;
    bool gpu = false;
    QString label;
    std::vector<TimelineLane> lanes;
    std::vector<TimelineLane> launches; // per lane: its kernel and graph launches, drawn over the rest
    TimelineLane gaps;                  // idle gaps of a GPU stream, each styled by its GapCause
    const StreamSummary *stream = nullptr;
    std::vector<uint32_t> graphLaunches; // by start
    // Only the profiler's own span and marks (Kineto's "PyTorch Profiler (0)", "Record Window End"),
    // nothing the program did.
    bool bookkeeping = false;

    // Whether any of its slices reaches into [from, to].
    bool hasEventsIn(int64_t from, int64_t to) const;
};

struct TimelineGroup
{
    QString title, detail;
    bool gpu = false;
    std::vector<int> rows; // into TimelineLayout::rows()
};

class TimelineLayout
{
public:
    static constexpr int kMaxLanes = 6; // deeper slices are flattened into the last lane

    TimelineLayout() = default;
    // Keeps the run's trace and analysis alive for as long as the layout.
    explicit TimelineLayout(const LoadedRun &run);

    bool isEmpty() const { return !m_trace; }
    const TraceData *trace() const { return m_trace.get(); }
    const std::vector<TimelineGroup> &groups() const { return m_groups; }
    const std::vector<TimelineTrackRow> &rows() const { return m_rows; }
    // The track row of a trace track, -1 when the track has no events.
    int rowOfTrack(uint32_t track) const;
    // The lane an event is drawn on.
    int laneOf(uint32_t event) const { return m_laneOf[event]; }
    // First event start to last event end; {0, 0} for an empty trace.
    std::pair<int64_t, int64_t> bounds() const { return m_bounds; }

private:
    void addProcess(bool gpu, const QString &pid, const std::vector<uint32_t> &tracks,
                    const std::vector<uint8_t> &launches);
    TimelineTrackRow buildRow(uint32_t track);
    uint8_t styleOf(uint32_t event);

    std::shared_ptr<const TraceData> m_trace;
    std::shared_ptr<const TraceAnalysis> m_analysis;
    std::vector<TimelineGroup> m_groups;
    std::vector<TimelineTrackRow> m_rows;
    std::vector<int32_t> m_rowOfTrack;
    std::vector<uint8_t> m_laneOf;
    std::vector<int8_t> m_kernelStyle; // per string id, -1 until hashed
    std::vector<bool> m_communication; // per event: a communication kernel (the run summary's flag)
    std::pair<int64_t, int64_t> m_bounds{0, 0};
};

// Where a trace's times are measured from in the timeline: its first event start (0 when empty).
int64_t timelineOrigin(const TraceData &trace);

} // namespace scopeline
