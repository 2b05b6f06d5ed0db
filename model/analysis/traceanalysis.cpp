// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/traceanalysis.h"

#include "model/tracedata/hugepages.h"
#include "model/tracedata/sparecore.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <tuple>

namespace scopeline {

namespace {

double medianOf(std::vector<int64_t> values)
{
    if (values.empty())
        return std::numeric_limits<double>::quiet_NaN();
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + mid, values.end());
    const double upper = double(values[mid]);
    if (values.size() % 2)
        return upper;
    const double lower = double(*std::max_element(values.begin(), values.begin() + mid));
    return (lower + upper) / 2; // numpy.median: mean of the two middle values
}

// Length of the union of intervals added by start, without keeping them.
class IntervalUnion
{
public:
    void add(int64_t start, int64_t end)
    {
        if (start > m_end) {
            if (m_end != kNone)
                m_length += m_end - m_start;
            m_start = start;
            m_end = end;
        } else {
            m_end = std::max(m_end, end);
        }
    }
    int64_t length() const { return m_end == kNone ? m_length : m_length + m_end - m_start; }

private:
    static constexpr int64_t kNone = std::numeric_limits<int64_t>::min();
    int64_t m_length = 0, m_start = 0, m_end = kNone;
};

// The time of the union of `intervals` that lies within the gaps (sorted, apart).
int64_t timeWithin(std::vector<std::pair<int64_t, int64_t>> &intervals, const std::vector<IdleGap> &gaps)
{
    std::sort(intervals.begin(), intervals.end());
    int64_t within = 0, covered = std::numeric_limits<int64_t>::min(); // the union's reach so far
    auto gap = gaps.begin();
    for (auto [start, end] : intervals) {
        start = std::max(start, covered); // counted once where intervals overlap
        covered = std::max(covered, end);
        while (gap != gaps.end() && gap->end <= start)
            ++gap;
        for (auto g = gap; g != gaps.end() && g->start < end; ++g)
            within += std::max<int64_t>(0, std::min(end, g->end) - std::max(start, g->start));
    }
    return within;
}

// Sorts [begin, end), merging its sorted runs when there are few: Kineto lists launches and kernels
// nearly in correlation order (a run per thread or part of the file), where a sort would compare each
// n log n times.
template <typename It>
void sortFewRuns(It begin, It end)
{
    constexpr std::size_t kMostRuns = 8;
    std::vector<It> runStarts;
    for (It i = begin; i != end && std::next(i) != end; ++i)
        if (*std::next(i) < *i) {
            if (runStarts.size() == kMostRuns) {
                std::sort(begin, end);
                return;
            }
            runStarts.push_back(std::next(i));
        }
    runStarts.push_back(end);
    for (std::size_t r = 0; r + 1 < runStarts.size(); ++r)
        std::inplace_merge(begin, runStarts[r], runStarts[r + 1]);
}

template <typename T>
void sortFewRuns(std::vector<T> &v)
{
    sortFewRuns(v.begin(), v.end());
}

// Items grouped by their track, in their order within one: a counting sort, as tracks are few.
template <typename T, typename TrackOf>
std::vector<T> groupedByTrack(const std::vector<T> &items, std::size_t tracks, TrackOf trackOf)
{
    std::vector<std::size_t> next(tracks + 1, 0);
    for (const T &item : items)
        ++next[trackOf(item) + 1];
    std::partial_sum(next.begin(), next.end(), next.begin());
    std::vector<T> grouped;
    hugepages::reserveExact(grouped, items.size());
    grouped.resize(items.size());
    for (const T &item : items)
        grouped[next[trackOf(item)]++] = item;
    return grouped;
}

// The events of a list sorted by correlation id that have this one; none for kNoCorrelation.
std::pair<std::vector<uint32_t>::const_iterator, std::vector<uint32_t>::const_iterator>
withCorrelation(const TraceData &t, const std::vector<uint32_t> &events, int64_t correlation)
{
    if (correlation == TraceData::kNoCorrelation)
        return {events.end(), events.end()};
    const auto &c = t.correlation;
    const auto from = std::lower_bound(events.begin(), events.end(), correlation,
                                       [&c](uint32_t e, int64_t value) { return c[e] < value; });
    const auto to = std::upper_bound(from, events.end(), correlation,
                                     [&c](int64_t value, uint32_t e) { return value < c[e]; });
    return {from, to};
}

// A gap's lookup of the innermost CPU slice at time ts on the launching thread.
struct SliceQuery
{
    uint32_t track;
    uint32_t stream, gap; // into TraceAnalysis::streams() and its gaps
    int64_t ts;

    bool operator<(const SliceQuery &other) const
    {
        return std::tie(track, ts) < std::tie(other.track, other.ts);
    }
};

// Answers the queries of one track, sorted by ts, in one sweep over its events. Events are sorted
// by start with parents first, so the latest-starting slice containing ts is the innermost; a slice
// that ends before ts is done for every later query too, so a stack of the open ones suffices.
void findCpuSlices(const TraceData &t, const SliceQuery *begin, const SliceQuery *end,
                   std::vector<StreamSummary> &streams)
{
    const auto &events = t.trackEvents[begin->track];
    std::vector<uint32_t> open;
    std::size_t next = 0;
    for (const SliceQuery *q = begin; q != end; ++q) {
        for (; next < events.size() && t.start[events[next]] <= q->ts; ++next) {
            const uint32_t e = events[next];
            if (t.kind[e] == EventKind::Instant)
                continue;
            while (!open.empty() && t.end(open.back()) < t.start[e])
                open.pop_back();
            open.push_back(e);
        }
        while (!open.empty() && t.end(open.back()) < q->ts)
            open.pop_back();
        streams[q->stream].gaps[q->gap].cpuEvent = open.empty() ? -1 : int64_t(open.back());
    }
}

} // namespace

int64_t unionLength(const std::vector<std::pair<int64_t, int64_t>> &intervals)
{
    IntervalUnion busy;
    for (const auto &[start, end] : intervals)
        busy.add(start, end);
    return busy.length();
}

QString gapCauseName(GapCause cause)
{
    switch (cause) {
    case GapCause::LaunchLate:
        return QCoreApplication::translate("TraceAnalysis", "CPU launched late");
    case GapCause::GpuWaiting:
        return QCoreApplication::translate("TraceAnalysis", "GPU waiting");
    case GapCause::Unknown:
        break;
    }
    return QCoreApplication::translate("TraceAnalysis", "unknown");
}

double LaunchSummary::medianLaunchDelay() const
{
    return medianOf(launchDelays);
}

double LaunchSummary::medianGraphLaunchDelay() const
{
    return medianOf(graphLaunchDelays);
}

bool LaunchSummary::sameFigures(const LaunchSummary &other) const
{
    return kernels == other.kernels && kernelLaunches == other.kernelLaunches &&
           graphLaunches == other.graphLaunches && busyNs == other.busyNs && spanNs == other.spanNs &&
           launchDelays == other.launchDelays && graphLaunchDelays == other.graphLaunchDelays;
}

int64_t StreamSummary::idleNs() const
{
    int64_t idle = 0;
    for (const IdleGap &gap : gaps)
        idle += gap.length();
    return idle;
}

TraceAnalysis::TraceAnalysis(const TraceData &trace, Depth depth) : m_trace(trace)
{
    for (uint32_t e = 0; e < trace.eventCount(); ++e)
        if (trace.kind[e] == EventKind::Kernel)
            m_kernels.push_back(e);
    // Joined once, while the kernels are by index: the summaries, the gaps and the scope index each
    // want every kernel's launch (m_launchAt, below), the summaries every launch's first kernel.
    std::vector<int64_t> launchByIndex;
    const std::vector<std::pair<uint32_t, uint32_t>> firstKernels =
        joinLaunches(launchByIndex, depth == Depth::Full);
    // By start, then index: a stream's kernels come in order, so the sort merges a run per stream.
    std::vector<std::pair<int64_t, uint32_t>> byStart;
    byStart.reserve(m_kernels.size());
    for (uint32_t p = 0; p < m_kernels.size(); ++p)
        byStart.emplace_back(trace.start[m_kernels[p]], p);
    sortFewRuns(byStart);
    std::vector<uint32_t> kernels(m_kernels.size());
    m_launchAt.resize(m_kernels.size());
    for (std::size_t i = 0; i < byStart.size(); ++i) {
        kernels[i] = m_kernels[byStart[i].second];
        m_launchAt[i] = launchByIndex[byStart[i].second];
    }
    m_kernels = std::move(kernels);

    if (depth == Depth::Full) // two parts apart: the gaps on a free core, if there is one
        runBeside([this] { findGaps(); }, [this, &firstKernels] { summarise(true, firstKernels); });
    else
        summarise(false, firstKernels);
}

std::vector<std::pair<uint32_t, uint32_t>> TraceAnalysis::joinLaunches(std::vector<int64_t> &launchByIndex,
                                                                       bool everyLaunch)
{
    const TraceData &t = m_trace;
    // Kernels (by position in m_kernels, which is by index) and launches by correlation id, then start,
    // then index: sorted with their keys beside them.
    std::vector<std::tuple<int64_t, int64_t, uint32_t>> kernels, launches;
    kernels.reserve(m_kernels.size());
    launches.reserve(m_kernels.size()); // about as many
    for (uint32_t p = 0; p < m_kernels.size(); ++p)
        if (const uint32_t k = m_kernels[p]; t.correlation[k] != TraceData::kNoCorrelation)
            kernels.emplace_back(t.correlation[k], t.start[k], p);
    sortFewRuns(kernels);
    for (const auto &keyed : kernels)
        m_kernelsByCorrelation.push_back(m_kernels[std::get<2>(keyed)]);
    for (uint32_t e = 0; e < t.eventCount(); ++e)
        if ((t.kind[e] == EventKind::KernelLaunch || t.kind[e] == EventKind::GraphLaunch) &&
            t.correlation[e] != TraceData::kNoCorrelation)
            launches.emplace_back(t.correlation[e], t.start[e], e);
    sortFewRuns(launches);

    // One walk of both by id: a kernel's launch is the earliest launch call of its id (the first in
    // the file on a tie), and a launch's first kernel the earliest kernel of its id.
    launchByIndex.assign(m_kernels.size(), -1);
    std::vector<std::pair<uint32_t, uint32_t>> firstKernels; // (launch, kernel) by launch index
    const auto runEnd = [](const auto &keyed, std::size_t from) {
        std::size_t to = from + 1;
        while (to < keyed.size() && std::get<0>(keyed[to]) == std::get<0>(keyed[from]))
            ++to;
        return to;
    };
    for (std::size_t k = 0, l = 0; k < kernels.size() && l < launches.size();) {
        const int64_t kernelId = std::get<0>(kernels[k]), launchId = std::get<0>(launches[l]);
        const std::size_t kernelsEnd = launchId < kernelId ? k : runEnd(kernels, k);
        const std::size_t launchesEnd = kernelId < launchId ? l : runEnd(launches, l);
        if (kernelsEnd > k && launchesEnd > l) {
            for (std::size_t i = k; i < kernelsEnd; ++i)
                launchByIndex[std::get<2>(kernels[i])] = std::get<2>(launches[l]);
            const uint32_t first = m_kernels[std::get<2>(kernels[k])];
            for (std::size_t i = l; i < launchesEnd; ++i)
                if (const uint32_t launch = std::get<2>(launches[i]);
                    everyLaunch || t.kind[launch] == EventKind::GraphLaunch)
                    firstKernels.emplace_back(launch, first);
        }
        k = kernelsEnd;
        l = launchesEnd;
    }
    sortFewRuns(firstKernels);
    for (uint32_t p = 0; p < m_kernels.size(); ++p) // by index, so m_launchOf comes sorted
        if (launchByIndex[p] >= 0)
            m_launchOf.emplace_back(m_kernels[p], uint32_t(launchByIndex[p]));
    return firstKernels;
}

std::vector<uint32_t> TraceAnalysis::kernelPositionsByTrack() const
{
    std::vector<uint32_t> positions(m_kernels.size());
    std::iota(positions.begin(), positions.end(), 0u);
    return groupedByTrack(positions, m_trace.tracks.size(),
                          [this](uint32_t p) { return m_trace.track[m_kernels[p]]; });
}

int64_t TraceAnalysis::launchOf(uint32_t kernel) const
{
    auto it = std::lower_bound(m_launchOf.begin(), m_launchOf.end(), kernel,
                               [](const auto &entry, uint32_t value) { return entry.first < value; });
    return it != m_launchOf.end() && it->first == kernel ? int64_t(it->second) : -1;
}

std::vector<uint32_t> TraceAnalysis::kernelsOf(uint32_t launch) const
{
    const auto [from, to] = withCorrelation(m_trace, m_kernelsByCorrelation, m_trace.correlation[launch]);
    return {from, to};
}

void TraceAnalysis::summarise(bool perDevice, const std::vector<std::pair<uint32_t, uint32_t>> &firstKernels)
{
    const TraceData &t = m_trace;
    if (perDevice) {
        std::set<int> devices;
        for (std::size_t i = 0; i < m_kernels.size(); ++i) // a stream's kernels come in runs
            if (const int device = deviceOf(m_kernels[i]); i == 0 || device != deviceOf(m_kernels[i - 1]))
                devices.insert(device);
        for (int device : devices) {
            m_devices.emplace_back();
            m_devices.back().device = device;
        }
    }
    // One pass for the total and every device: m_devices[i]'s figures at i + 1, the total's at 0.
    auto deviceIndex = [this](int device) {
        std::size_t i = 0;
        while (m_devices[i].device != device)
            ++i;
        return i + 1;
    };
    auto summary = [this](std::size_t i) -> LaunchSummary & { return i == 0 ? m_total : m_devices[i - 1]; };
    const std::size_t count = m_devices.size() + 1;
    std::vector<IntervalUnion> busy(count);
    std::vector<int64_t> firstStart(count, 0), lastEnd(count, std::numeric_limits<int64_t>::min());
    m_total.launchDelays.reserve(m_kernels.size());
    for (std::size_t position = 0; position < m_kernels.size(); ++position) {
        const uint32_t k = m_kernels[position];
        const int64_t launch = m_launchAt[position];
        auto addKernel = [&](std::size_t i) {
            LaunchSummary &s = summary(i);
            if (s.kernels++ == 0)
                firstStart[i] = t.start[k];
            busy[i].add(t.start[k], t.end(k));
            lastEnd[i] = std::max(lastEnd[i], t.end(k));
            if (launch >= 0 && t.kind[launch] == EventKind::KernelLaunch)
                s.launchDelays.push_back(t.start[k] - t.start[launch]);
        };
        addKernel(0);
        if (perDevice)
            addKernel(deviceIndex(deviceOf(k)));
    }
    for (std::size_t i = 0; i < count; ++i) {
        summary(i).busyNs = busy[i].length();
        if (summary(i).kernels)
            summary(i).spanNs = lastEnd[i] - firstStart[i];
    }

    auto firstKernel = firstKernels.begin();
    for (uint32_t e = 0; e < t.eventCount(); ++e) {
        const EventKind kind = t.kind[e];
        if (kind != EventKind::KernelLaunch && kind != EventKind::GraphLaunch)
            continue;
        const bool graph = kind == EventKind::GraphLaunch;
        // A launch belongs to the device its kernels ran on; unmatched ones count in the total only.
        while (firstKernel != firstKernels.end() && firstKernel->first < e)
            ++firstKernel;
        const int64_t first =
            firstKernel != firstKernels.end() && firstKernel->first == e ? int64_t(firstKernel->second) : -1;
        auto addLaunch = [&](LaunchSummary &s) {
            if (!graph) {
                ++s.kernelLaunches;
            } else {
                ++s.graphLaunches;
                if (first >= 0)
                    s.graphLaunchDelays.push_back(t.start[first] - t.start[e]);
            }
        };
        addLaunch(m_total);
        if (perDevice && first >= 0)
            addLaunch(summary(deviceIndex(deviceOf(uint32_t(first)))));
    }
}

void TraceAnalysis::findGaps()
{
    const TraceData &t = m_trace;
    // Memory copies and sets by track, where a stream's gaps may be them rather than idle
    std::vector<std::vector<std::pair<int64_t, int64_t>>> memoryOn(t.tracks.size());
    for (uint32_t e = 0; e < t.eventCount(); ++e) {
        const EventKind kind = t.kind[e];
        if (kind != EventKind::Memcpy && kind != EventKind::Memset)
            continue;
        (kind == EventKind::Memcpy ? m_memory.copies : m_memory.sets) += 1;
        (kind == EventKind::Memcpy ? m_memory.copyNs : m_memory.setNs) += t.duration[e];
        memoryOn[t.track[e]].emplace_back(t.start[e], t.end(e));
    }
    const std::vector<uint32_t> byTrack = kernelPositionsByTrack(); // by start within a track
    std::vector<SliceQuery> queries; // answered below, a track at a time, rather than one search per gap
    hugepages::reserve(queries, m_kernels.size());
    for (auto from = byTrack.begin(); from != byTrack.end();) {
        const uint32_t track = t.track[m_kernels[*from]];
        const auto to = std::find_if(
            from, byTrack.end(), [this, &t, track](uint32_t p) { return t.track[m_kernels[p]] != track; });
        StreamSummary stream;
        stream.track = track;
        stream.kernels = int64_t(to - from);
        hugepages::reserve(stream.gaps, std::size_t(to - from)); // one before each kernel at most
        IntervalUnion busy;
        uint32_t reachKernel = m_kernels[*from];
        int64_t reach = t.end(reachKernel); // latest end so far
        for (auto it = from; it != to; ++it) {
            const uint32_t k = m_kernels[*it];
            busy.add(t.start[k], t.end(k));
            if (t.start[k] > reach) {
                IdleGap gap;
                gap.start = reach;
                gap.end = t.start[k];
                gap.before = reachKernel;
                gap.after = k;
                const int64_t launch = m_launchAt[*it];
                if (launch >= 0) {
                    gap.cause = t.start[launch] >= gap.start ? GapCause::LaunchLate : GapCause::GpuWaiting;
                    queries.push_back(SliceQuery{t.track[launch], uint32_t(m_streams.size()),
                                                 uint32_t(stream.gaps.size()), gap.start + gap.length() / 2});
                }
                stream.gaps.push_back(gap);
            }
            if (t.end(k) >= reach) {
                reach = t.end(k);
                reachKernel = k;
            }
        }
        stream.busyNs = busy.length();
        stream.memoryNs = timeWithin(memoryOn[track], stream.gaps);
        m_streams.push_back(std::move(stream));
        from = to;
    }

    // By launching thread, then by ts: a thread's queries are a run by ts per stream it launched on.
    std::vector<SliceQuery> byThread =
        groupedByTrack(queries, t.tracks.size(), [](const SliceQuery &q) { return q.track; });
    for (auto from = byThread.begin(); from != byThread.end();) {
        const auto to =
            std::find_if(from, byThread.end(), [from](const SliceQuery &q) { return q.track != from->track; });
        sortFewRuns(from, to);
        findCpuSlices(t, &*from, &*from + (to - from), m_streams);
        from = to;
    }
}

} // namespace scopeline
