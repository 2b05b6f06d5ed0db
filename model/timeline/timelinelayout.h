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

// One nesting level of a track (or the idle gaps of a stream): entries sorted by start, with the
// running maximum of their ends so that a window's first entry is found by binary search.
struct TimelineLane
{
    std::vector<int64_t> starts, ends;
    // The running maximum of the ends (reaches()): stored for overlapping lanes only, as in a
    // disjoint lane it is the ends themselves (8 bytes an entry of most lanes).
    std::vector<int64_t> reach;
    std::vector<uint32_t> items; // event indices (or gap indices)
    std::vector<uint8_t> styles; // TimelineStyle
    bool overlapping = false;    // entries overlap: deeper slices merged into the last lane
    std::vector<int64_t> tree;   // max-of-ends segment tree, overlapping lanes only
    std::size_t leaves = 0;
    // How much of the time is covered (what density drawing needs): the entries' union as disjoint
    // intervals (the entries themselves unless they overlap) with the covered length before each.
    std::vector<int64_t> unionStarts, unionEnds; // overlapping lanes only
    std::vector<int64_t> coveredBefore;          // per union interval (per entry when disjoint)
    int64_t maxEnd = std::numeric_limits<int64_t>::min(); // while entries are added

    std::size_t size() const { return starts.size(); }
    const std::vector<int64_t> &reaches() const { return overlapping ? reach : ends; }
    bool empty() const { return starts.empty(); }
    void reserve(std::size_t n);
    void add(int64_t start, int64_t end, uint32_t item, uint8_t style);
    // Builds the index; call once after the last add().
    void finish();
    // First index in [l, r) whose end is beyond x, or r.
    std::size_t firstEndingAfter(std::size_t l, std::size_t r, int64_t x) const;
    // Entries [first, last) that may intersect [from, to].
    std::pair<std::size_t, std::size_t> window(int64_t from, int64_t to) const;
    // Length of the union of the entries clipped to [from, to): two binary searches.
    int64_t covered(int64_t from, int64_t to) const;
    // Whether an entry reaches into [from, to].
    bool anyIn(int64_t from, int64_t to) const;

private:
    int64_t coveredUntil(int64_t x) const;
    std::size_t descend(std::size_t node, std::size_t nl, std::size_t nr, std::size_t l, std::size_t r,
                        int64_t x) const;
};

struct TimelineTrackRow
{
    uint32_t track = 0; // into TraceData::tracks
    int group = 0;
    bool gpu = false;
    QString label;
    std::vector<TimelineLane> lanes;
    std::vector<TimelineLane> launches; // per lane: its kernel and graph launches, drawn over the rest
    TimelineLane gaps;                  // idle gaps of a GPU stream
    const StreamSummary *stream = nullptr;
    std::vector<uint32_t> graphLaunches; // by start
    // Only the profiler's own span (Kineto's "PyTorch Profiler (0)"), nothing the program did.
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
