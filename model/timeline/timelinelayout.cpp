// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/timeline/timelinelayout.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>
#include <map>

namespace scopeline {

namespace {

QString tr(const char *text, int n = -1)
{
    return QCoreApplication::translate("TimelineLayout", text, nullptr, n);
}

uint32_t fnv1a(std::string_view text)
{
    uint32_t h = 2166136261u;
    for (unsigned char c : text)
        h = (h ^ c) * 16777619u;
    return h;
}

// Natural order of pid/tid strings: numbers by value, else text.
bool idLess(const QString &a, const QString &b)
{
    bool okA = false, okB = false;
    const qlonglong na = a.toLongLong(&okA), nb = b.toLongLong(&okB);
    if (okA && okB)
        return na < nb;
    if (okA != okB)
        return okA;
    return a < b;
}

bool isLaunch(EventKind kind)
{
    return kind == EventKind::KernelLaunch || kind == EventKind::GraphLaunch;
}

std::pair<int64_t, int64_t> traceBounds(const TraceData &t)
{
    int64_t hi = std::numeric_limits<int64_t>::min();
    for (uint32_t e = 0; e < t.eventCount(); ++e)
        hi = std::max(hi, t.end(e));
    const int64_t lo = timelineOrigin(t);
    if (t.eventCount() == 0 || lo > hi)
        return {0, 0};
    return {lo, hi};
}

// The last lane holds every slice from its depth down, nested: it is cut into disjoint pieces, each
// showing the innermost slice there, so that the deepest calls (the launches) stay visible.
template <typename InLane, typename StyleOf>
void addFlattened(TimelineLane &lane, const std::vector<uint32_t> &events, InLane inLane, const TraceData &t,
                  StyleOf styleOf)
{
    struct Open
    {
        uint32_t e;
        int64_t end;
    };
    std::vector<Open> stack;
    int64_t cursor = std::numeric_limits<int64_t>::min();
    auto close = [&](const Open &o) {
        if (o.end > cursor) {
            lane.add(cursor, o.end, o.e, styleOf(o.e));
            cursor = o.end;
        }
    };
    for (uint32_t e : events) {
        if (!inLane(e))
            continue;
        const int64_t s = t.start[e];
        while (!stack.empty() && stack.back().end <= s) {
            close(stack.back());
            stack.pop_back();
        }
        if (!stack.empty() && s > cursor)
            lane.add(cursor, s, stack.back().e, styleOf(stack.back().e));
        cursor = std::max(cursor, s);
        if (t.duration[e] == 0) {
            lane.add(s, s, e, styleOf(e));
            continue;
        }
        const int64_t end = stack.empty() ? t.end(e) : std::min(t.end(e), stack.back().end);
        if (end > s)
            stack.push_back({e, end});
    }
    while (!stack.empty()) {
        close(stack.back());
        stack.pop_back();
    }
}

} // namespace

// ---- TimelineLane -------------------------------------------------------------------------------

namespace {

// First index in [l, r) for which below(i) is false, below being true up to some index and false after.
template <typename Below>
std::size_t firstNotBelow(std::size_t l, std::size_t r, Below below)
{
    while (l < r) {
        const std::size_t mid = l + (r - l) / 2;
        if (below(mid))
            l = mid + 1;
        else
            r = mid;
    }
    return l;
}

} // namespace

const TimelineLane::Stored &TimelineLane::stored(std::size_t i) const
{
    return *std::lower_bound(m_stored.begin(), m_stored.end(), i,
                             [](const Stored &s, std::size_t index) { return s.index < index; });
}

void TimelineLane::store(std::size_t i, int64_t start, int64_t end)
{
    m_stored.push_back({i, start, end});
    m_bits[i] |= kStored;
}

int64_t TimelineLane::start(std::size_t i) const
{
    if (!m_trace)
        return m_starts[i];
    const uint8_t bits = m_bits[i];
    if (bits & kStored)
        return stored(i).start;
    if (bits & kEventStart)
        return m_trace->start[m_items[i]];
    // where the entry before ends: add() saw to it that that end is its event's or stored
    return m_bits[i - 1] & kStored ? stored(i - 1).end : m_trace->end(m_items[i - 1]);
}

int64_t TimelineLane::end(std::size_t i) const
{
    if (!m_trace)
        return m_ends[i];
    const uint8_t bits = m_bits[i];
    if (bits & kStored)
        return stored(i).end;
    if (bits & kEventEnd)
        return m_trace->end(m_items[i]);
    // where the next entry starts: add() saw to it that that start is its event's or stored
    return m_bits[i + 1] & kStored ? stored(i + 1).start : m_trace->start[m_items[i + 1]];
}

void TimelineLane::reserve(std::size_t n)
{
    m_items.reserve(n);
    m_bits.reserve(n);
    if (!m_trace) {
        m_starts.reserve(n);
        m_ends.reserve(n);
    }
}

void TimelineLane::add(int64_t start, int64_t end, uint32_t item, uint8_t style)
{
    if (!m_items.empty() && start < m_maxEnd)
        m_overlapping = true;
    m_maxEnd = std::max(m_maxEnd, end);
    const int64_t prevEnd = m_lastEnd; // of the entry before
    m_lastEnd = end;
    m_items.push_back(item);
    m_bits.push_back(style & kStyleBits);
    if (!m_trace) {
        m_starts.push_back(start);
        m_ends.push_back(end);
        return;
    }
    const std::size_t i = m_items.size() - 1;
    uint8_t &bits = m_bits.back();
    if (start == m_trace->start[item])
        bits |= kEventStart;
    if (end == m_trace->end(item))
        bits |= kEventEnd;
    // The entry before, when its end is neither its event's nor stored, ends where this one starts,
    // which must then be this one's event's start.
    if (i > 0 && !(m_bits[i - 1] & (kEventEnd | kStored)) && (start != prevEnd || !(bits & kEventStart)))
        store(i - 1, this->start(i - 1), prevEnd);
    // Not starting where its event does, it starts where the entry before ends (whose end is then its
    // event's or stored), or keeps its times aside.
    if (!(bits & kEventStart) && (i == 0 || start != prevEnd))
        store(i, start, end);
}

void TimelineLane::finish()
{
    if (m_trace && !m_items.empty() && !(m_bits.back() & (kEventEnd | kStored)))
        store(m_items.size() - 1, start(m_items.size() - 1), m_lastEnd);
    m_blockStarts.clear();
    for (std::size_t i = 0; i < size(); i += kBlock)
        m_blockStarts.push_back(start(i));
    // the covered length before every kBlock-th disjoint interval
    const auto checkpoint = [this](std::size_t n, auto startOf, auto endOf) {
        m_coveredBefore.clear();
        m_coveredBefore.reserve(n / kBlock + 1);
        int64_t sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (i % kBlock == 0)
                m_coveredBefore.push_back(sum);
            sum += std::max<int64_t>(0, endOf(i) - startOf(i));
        }
    };
    if (!m_overlapping) {
        checkpoint(size(), [this](std::size_t i) { return start(i); }, [this](std::size_t i) { return end(i); });
        return;
    }
    m_reach.resize(size());
    for (std::size_t i = 0; i < size(); ++i)
        m_reach[i] = i == 0 ? end(i) : std::max(m_reach[i - 1], end(i));
    m_unionStarts.clear();
    m_unionEnds.clear();
    for (std::size_t i = 0; i < size(); ++i) {
        if (!m_unionEnds.empty() && start(i) <= m_unionEnds.back())
            m_unionEnds.back() = std::max(m_unionEnds.back(), end(i));
        else {
            m_unionStarts.push_back(start(i));
            m_unionEnds.push_back(end(i));
        }
    }
    checkpoint(
        m_unionStarts.size(), [this](std::size_t i) { return m_unionStarts[i]; },
        [this](std::size_t i) { return m_unionEnds[i]; });
    m_leaves = 1;
    while (m_leaves < size())
        m_leaves *= 2;
    m_tree.assign(2 * m_leaves, std::numeric_limits<int64_t>::min());
    for (std::size_t i = 0; i < size(); ++i)
        m_tree[m_leaves + i] = end(i);
    for (std::size_t i = m_leaves - 1; i >= 1; --i)
        m_tree[i] = std::max(m_tree[2 * i], m_tree[2 * i + 1]);
}

std::size_t TimelineLane::firstStarting(int64_t x, std::size_t l, std::size_t r, bool after) const
{
    const auto below = [&](int64_t s) { return after ? s <= x : s < x; };
    // Among the checkpoints first (every kBlock-th start, side by side in memory), then in one block:
    // a lane of events reads each start through its event.
    if (r - l > kBlock && !m_blockStarts.empty()) {
        const std::size_t b = firstNotBelow(l / kBlock + 1, (r - 1) / kBlock + 1,
                                            [&](std::size_t block) { return below(m_blockStarts[block]); });
        r = std::min(r, b * kBlock);
        l = std::max(l, (b - 1) * kBlock);
    }
    return firstNotBelow(l, r, [&](std::size_t i) { return below(start(i)); });
}

std::size_t TimelineLane::firstEndingAfter(std::size_t l, std::size_t r, int64_t x) const
{
    if (m_overlapping)
        return l >= r ? r : descend(1, 0, m_leaves, l, r, x);
    // disjoint: what starts after x ends after it, and of the rest only the last one may
    const std::size_t j = firstStarting(x, l, r, true);
    return j > l && end(j - 1) > x ? j - 1 : j;
}

std::size_t TimelineLane::descend(std::size_t node, std::size_t nl, std::size_t nr, std::size_t l,
                                  std::size_t r, int64_t x) const
{
    if (nr <= l || r <= nl || m_tree[node] <= x)
        return r;
    if (nr - nl == 1)
        return nl;
    const std::size_t mid = (nl + nr) / 2;
    const std::size_t left = descend(2 * node, nl, mid, l, r, x);
    return left != r ? left : descend(2 * node + 1, mid, nr, l, r, x);
}

std::pair<std::size_t, std::size_t> TimelineLane::window(int64_t from, int64_t to) const
{
    const std::size_t first = m_overlapping ? firstNotBelow(0, size(), [&](std::size_t i) { return m_reach[i] < from; })
                              : from == std::numeric_limits<int64_t>::min() ? 0
                                                                            : firstEndingAfter(0, size(), from - 1);
    const std::size_t last = firstStarting(to, 0, size(), true);
    return {first, std::max(first, last)};
}

bool TimelineLane::anyIn(int64_t from, int64_t to) const
{
    // the window's first entry ends at or after `from` (its reach is the first to) and starts by `to`
    const auto [first, last] = window(from, to);
    return first < last;
}

bool TimelineTrackRow::hasEventsIn(int64_t from, int64_t to) const
{
    return std::any_of(lanes.begin(), lanes.end(), [&](const TimelineLane &l) { return l.anyIn(from, to); });
}

int64_t TimelineLane::coveredUntil(int64_t x) const
{
    // over the disjoint intervals: the last one starting before x (of `count`), the earlier ones
    // ending before it
    const auto measure = [&](std::size_t count, auto startOf, auto endOf) -> int64_t {
        const std::size_t last = count - 1;
        if (count == 0 || last / kBlock >= m_coveredBefore.size()) // none, or not finished
            return 0;
        int64_t sum = m_coveredBefore[last / kBlock];
        for (std::size_t i = last / kBlock * kBlock; i < last; ++i)
            sum += std::max<int64_t>(0, endOf(i) - startOf(i));
        return sum + std::max<int64_t>(0, std::min(x, endOf(last)) - startOf(last));
    };
    if (m_overlapping)
        return measure(
            std::size_t(std::lower_bound(m_unionStarts.begin(), m_unionStarts.end(), x) - m_unionStarts.begin()),
            [this](std::size_t i) { return m_unionStarts[i]; }, [this](std::size_t i) { return m_unionEnds[i]; });
    return measure(
        firstStarting(x, 0, size()), [this](std::size_t i) { return start(i); },
        [this](std::size_t i) { return end(i); });
}

int64_t TimelineLane::covered(int64_t from, int64_t to) const
{
    return to > from ? coveredUntil(to) - coveredUntil(from) : 0;
}

// ---- TimelineLayout -----------------------------------------------------------------------------

int64_t timelineOrigin(const TraceData &t)
{
    int64_t lo = std::numeric_limits<int64_t>::max();
    for (const auto &events : t.trackEvents)
        if (!events.empty())
            lo = std::min(lo, t.start[events.front()]);
    return lo == std::numeric_limits<int64_t>::max() ? 0 : lo;
}

TimelineLayout::TimelineLayout(const LoadedRun &run) : m_trace(run.trace), m_analysis(run.analysis)
{
    if (!m_trace)
        return;
    const TraceData &t = *m_trace;
    m_laneOf.assign(t.eventCount(), 0);
    m_rowOfTrack.assign(t.tracks.size(), -1);
    m_kernelStyle.assign(t.strings.size(), -1);
    // communication kernels as the run summary classed them (in the analysis' kernel order)
    m_communication.assign(t.eventCount(), false);
    if (run.summary && m_analysis && run.summary->kernels().size() == m_analysis->kernels().size())
        for (std::size_t p = 0; p < m_analysis->kernels().size(); ++p)
            m_communication[m_analysis->kernels()[p]] = run.summary->kernels()[p].communication();

    // Groups: one per (CPU/GPU, pid); CPU processes first, by sort index then pid.
    struct Key
    {
        bool gpu;
        QString pid;
        bool operator<(const Key &o) const { return gpu != o.gpu ? !gpu : idLess(pid, o.pid); }
    };
    std::map<Key, std::vector<uint32_t>> byProcess;
    for (uint32_t track = 0; track < t.tracks.size(); ++track)
        if (!t.trackEvents[track].empty())
            byProcess[{t.tracks[track].gpu, t.tracks[track].pid}].push_back(track);
    std::vector<std::pair<Key, std::vector<uint32_t>>> ordered(byProcess.begin(), byProcess.end());
    auto minSort = [&t](const std::vector<uint32_t> &list) {
        int64_t m = std::numeric_limits<int64_t>::max();
        for (uint32_t track : list)
            m = std::min(m, t.tracks[track].sortIndex);
        return m;
    };
    std::stable_sort(ordered.begin(), ordered.end(), [&](const auto &a, const auto &b) {
        if (a.first.gpu != b.first.gpu)
            return !a.first.gpu;
        const int64_t sa = minSort(a.second), sb = minSort(b.second);
        if (sa != sb)
            return sa < sb;
        return idLess(a.first.pid, b.first.pid);
    });

    // Threads that launch kernels go last in their process, next to the GPU rows their arrows reach.
    std::vector<uint8_t> launches(t.tracks.size(), 0);
    for (uint32_t track = 0; track < t.tracks.size(); ++track)
        launches[track] = std::any_of(t.trackEvents[track].begin(), t.trackEvents[track].end(),
                                      [&t](uint32_t e) { return isLaunch(t.kind[e]); });
    for (const auto &[key, list] : ordered)
        addProcess(key.gpu, key.pid, list, launches);
    m_bounds = traceBounds(t);
}

void TimelineLayout::addProcess(bool gpu, const QString &pid, const std::vector<uint32_t> &tracks,
                                const std::vector<uint8_t> &launches)
{
    const TraceData &t = *m_trace;
    std::vector<uint32_t> list = tracks;
    std::stable_sort(list.begin(), list.end(), [&t, &launches](uint32_t a, uint32_t b) {
        if (launches[a] != launches[b])
            return launches[a] < launches[b];
        if (t.tracks[a].sortIndex != t.tracks[b].sortIndex)
            return t.tracks[a].sortIndex < t.tracks[b].sortIndex;
        return idLess(t.tracks[a].tid, t.tracks[b].tid);
    });
    TimelineGroup g;
    g.gpu = gpu;
    const Track &first = t.tracks[list.front()];
    if (!first.processName.isEmpty())
        g.title = first.processName;
    else if (gpu)
        g.title = first.device >= 0 ? tr("GPU %1").arg(first.device) : tr("GPU");
    else
        g.title = tr("Process %1").arg(pid);
    if (gpu && first.device >= 0 && !first.processName.isEmpty() &&
        !first.processName.contains(QLatin1String("GPU"), Qt::CaseInsensitive))
        g.title += tr(" · GPU %1").arg(first.device);
    g.detail = gpu ? tr("%n stream(s)", int(list.size())) : tr("%n thread(s)", int(list.size()));
    // a number is an OS pid; Nsight's GPU rows have a name ("GPU 0"), said once, in the title
    bool numeric = false;
    pid.toLongLong(&numeric);
    if (numeric)
        g.detail = tr("pid %1 · %2").arg(pid, g.detail);
    else if (!pid.isEmpty() && pid != g.title)
        g.detail = tr("%1 · %2").arg(pid, g.detail);
    const int groupIndex = int(m_groups.size());
    for (uint32_t track : list) {
        TimelineTrackRow row = buildRow(track);
        row.group = groupIndex;
        m_rowOfTrack[track] = int32_t(m_rows.size());
        g.rows.push_back(int(m_rows.size()));
        m_rows.push_back(std::move(row));
    }
    m_groups.push_back(std::move(g));
}

TimelineTrackRow TimelineLayout::buildRow(uint32_t trackIndex)
{
    const TraceData &t = *m_trace;
    const Track &track = t.tracks[trackIndex];
    TimelineTrackRow row;
    row.track = trackIndex;
    row.gpu = track.gpu;
    // a tid that names its stream already (Nsight's, older Kineto's "stream 7", rocprofv3's "queue 16
    // (pid 908)", "copies, stream 0") is not prefixed again: the label column would elide the number
    // that tells them apart
    const auto namesStream = [&track](const char *word) {
        return track.tid.startsWith(QLatin1String(word), Qt::CaseInsensitive);
    };
    row.label = !track.threadName.isEmpty() ? track.threadName
                : track.gpu && (namesStream("stream") || namesStream("queue") || namesStream("copies"))
                    ? track.tid
                : track.gpu ? tr("Stream %1").arg(track.tid)
                            : tr("Thread %1").arg(track.tid);
    // Depth of each slice by a stack sweep of ends (parents come first).
    const auto &events = t.trackEvents[trackIndex];
    std::vector<int64_t> stack;
    int maxLane = 0;
    std::vector<std::size_t> laneSize(kMaxLanes), launchSize(kMaxLanes); // to reserve the lanes
    for (uint32_t e : events) {
        const int64_t s = t.start[e];
        while (!stack.empty() && stack.back() <= s)
            stack.pop_back();
        const int lane = std::min<int>(int(stack.size()), kMaxLanes - 1);
        m_laneOf[e] = uint8_t(lane);
        maxLane = std::max(maxLane, lane);
        ++laneSize[std::size_t(lane)];
        launchSize[std::size_t(lane)] += isLaunch(t.kind[e]) ? 1 : 0;
        // a child that outlives its parent (clocks disagree by a ns) ends with it here, so that no
        // ended slice stays on the stack and deepens what follows
        stack.push_back(stack.empty() ? t.end(e) : std::min(t.end(e), stack.back()));
    }
    row.lanes.assign(std::size_t(maxLane) + 1, TimelineLane(&t));
    row.launches.assign(row.lanes.size(), TimelineLane(&t));
    for (std::size_t lane = 0; lane < row.lanes.size(); ++lane) {
        // the flattened last lane holds up to two pieces per slice (before and after a child)
        row.lanes[lane].reserve(lane == std::size_t(kMaxLanes - 1) ? 2 * laneSize[lane] : laneSize[lane]);
        row.launches[lane].reserve(launchSize[lane]);
    }
    // Kineto writes its own span (category "Trace") and marks ("Iteration Start: PyTorch Profiler" on
    // process "Traces", "Record Window End" on a process without a name) on tracks of their own.
    const int64_t profilerCategory = t.strings.find("Trace");
    const auto profilers = [&](uint32_t e) {
        const std::string_view name = t.nameOf(e);
        return int64_t(t.category[e]) == profilerCategory || name == "Record Window End" ||
               name.substr(0, 17) == "Iteration Start: ";
    };
    row.bookkeeping = !track.gpu && !events.empty() && std::all_of(events.begin(), events.end(), profilers);
    auto styleOf = [this](uint32_t e) { return this->styleOf(e); };
    for (uint32_t e : events) {
        const EventKind kind = t.kind[e];
        if (m_laneOf[e] < kMaxLanes - 1) // the last lane is flattened below
            row.lanes[m_laneOf[e]].add(t.start[e], t.end(e), e, styleOf(e));
        if (isLaunch(kind))
            row.launches[m_laneOf[e]].add(t.start[e], t.end(e), e, styleOf(e));
        if (kind == EventKind::GraphLaunch)
            row.graphLaunches.push_back(e);
    }
    if (row.lanes.size() == std::size_t(kMaxLanes))
        addFlattened(
            row.lanes.back(), events, [this](uint32_t e) { return m_laneOf[e] == kMaxLanes - 1; }, t, styleOf);
    for (auto &lane : row.lanes)
        lane.finish();
    for (auto &lane : row.launches)
        lane.finish();
    if (m_analysis)
        for (const StreamSummary &stream : m_analysis->streams())
            if (stream.track == trackIndex) {
                row.stream = &stream;
                for (std::size_t i = 0; i < stream.gaps.size(); ++i)
                    row.gaps.add(stream.gaps[i].start, stream.gaps[i].end, uint32_t(i),
                                 uint8_t(stream.gaps[i].cause));
                row.gaps.finish();
                break;
            }
    return row;
}

uint8_t TimelineLayout::styleOf(uint32_t e)
{
    const TraceData &t = *m_trace;
    switch (t.kind[e]) {
    case EventKind::Kernel: {
        if (m_communication[e])
            return StyleCommunication;
        int8_t &s = m_kernelStyle[t.name[e]];
        if (s < 0)
            s = int8_t(StyleKernelFirst + fnv1a(t.nameOf(e)) % kTimelineKernelStyles);
        return uint8_t(s);
    }
    case EventKind::Memcpy:
        return StyleMemcpy;
    case EventKind::Memset:
        return StyleMemset;
    case EventKind::GpuOther:
        return StyleGpuOther;
    case EventKind::GpuAnnotation:
        return StyleGpuAnnotation;
    case EventKind::CpuAnnotation:
        return StyleCpuAnnotation;
    case EventKind::Runtime:
        return StyleRuntime;
    case EventKind::KernelLaunch:
        return StyleLaunch;
    case EventKind::GraphLaunch:
        return StyleGraphLaunch;
    case EventKind::Instant:
        return StyleInstant;
    case EventKind::Other:
        break;
    }
    return t.onGpu(e) ? StyleGpuOther : StyleCpuOther;
}

int TimelineLayout::rowOfTrack(uint32_t track) const
{
    return track < m_rowOfTrack.size() ? m_rowOfTrack[track] : -1;
}

} // namespace scopeline
