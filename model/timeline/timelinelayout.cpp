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
template <typename StyleOf>
void addFlattened(TimelineLane &lane, const std::vector<uint32_t> &events, const TraceData &t,
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

void TimelineLane::reserve(std::size_t n)
{
    starts.reserve(n);
    ends.reserve(n);
    items.reserve(n);
    styles.reserve(n);
}

void TimelineLane::add(int64_t start, int64_t end, uint32_t item, uint8_t style)
{
    if (!starts.empty() && start < maxEnd)
        overlapping = true;
    maxEnd = std::max(maxEnd, end);
    starts.push_back(start);
    ends.push_back(end);
    items.push_back(item);
    styles.push_back(style);
}

void TimelineLane::finish()
{
    // the covered length before each disjoint interval
    const auto accumulate = [this](const std::vector<int64_t> &s, const std::vector<int64_t> &e) {
        coveredBefore.resize(s.size());
        int64_t sum = 0;
        for (std::size_t i = 0; i < s.size(); ++i) {
            coveredBefore[i] = sum;
            sum += std::max<int64_t>(0, e[i] - s[i]);
        }
    };
    if (!overlapping) {
        accumulate(starts, ends);
        return;
    }
    reach.resize(ends.size());
    for (std::size_t i = 0; i < ends.size(); ++i)
        reach[i] = i == 0 ? ends[i] : std::max(reach[i - 1], ends[i]);
    unionStarts.clear();
    unionEnds.clear();
    for (std::size_t i = 0; i < starts.size(); ++i) {
        if (!unionEnds.empty() && starts[i] <= unionEnds.back())
            unionEnds.back() = std::max(unionEnds.back(), ends[i]);
        else {
            unionStarts.push_back(starts[i]);
            unionEnds.push_back(ends[i]);
        }
    }
    accumulate(unionStarts, unionEnds);
    leaves = 1;
    while (leaves < ends.size())
        leaves *= 2;
    tree.assign(2 * leaves, std::numeric_limits<int64_t>::min());
    std::copy(ends.begin(), ends.end(), tree.begin() + std::ptrdiff_t(leaves));
    for (std::size_t i = leaves - 1; i >= 1; --i)
        tree[i] = std::max(tree[2 * i], tree[2 * i + 1]);
}

std::size_t TimelineLane::firstEndingAfter(std::size_t l, std::size_t r, int64_t x) const
{
    return l >= r ? r : descend(1, 0, leaves, l, r, x);
}

std::size_t TimelineLane::descend(std::size_t node, std::size_t nl, std::size_t nr, std::size_t l,
                                  std::size_t r, int64_t x) const
{
    if (nr <= l || r <= nl || tree[node] <= x)
        return r;
    if (nr - nl == 1)
        return nl;
    const std::size_t mid = (nl + nr) / 2;
    const std::size_t left = descend(2 * node, nl, mid, l, r, x);
    return left != r ? left : descend(2 * node + 1, mid, nr, l, r, x);
}

std::pair<std::size_t, std::size_t> TimelineLane::window(int64_t from, int64_t to) const
{
    const std::vector<int64_t> &r = reaches();
    const std::size_t first = std::size_t(std::lower_bound(r.begin(), r.end(), from) - r.begin());
    const std::size_t last = std::size_t(std::upper_bound(starts.begin(), starts.end(), to) - starts.begin());
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
    const std::vector<int64_t> &s = overlapping ? unionStarts : starts;
    const std::vector<int64_t> &e = overlapping ? unionEnds : ends;
    const std::size_t n = std::size_t(std::lower_bound(s.begin(), s.end(), x) - s.begin());
    if (n == 0 || coveredBefore.size() != s.size())
        return 0;
    const std::size_t i = n - 1; // the last interval starting before x; the earlier ones end before it
    return coveredBefore[i] + std::max<int64_t>(0, std::min(x, e[i]) - s[i]);
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
    if (!pid.isEmpty())
        g.detail = tr("pid %1 · %2").arg(pid, g.detail);
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
    row.label = !track.threadName.isEmpty() ? track.threadName
                : track.gpu                 ? tr("Stream %1").arg(track.tid)
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
    row.lanes.resize(std::size_t(maxLane) + 1);
    row.launches.resize(row.lanes.size());
    for (std::size_t lane = 0; lane < row.lanes.size(); ++lane) {
        // the flattened last lane holds up to two pieces per slice (before and after a child)
        row.lanes[lane].reserve(lane == std::size_t(kMaxLanes - 1) ? 2 * laneSize[lane] : laneSize[lane]);
        row.launches[lane].reserve(launchSize[lane]);
    }
    // Kineto writes its own span (category "Trace") on a track of its own.
    const int64_t profilerCategory = t.strings.find("Trace");
    row.bookkeeping = !track.gpu && profilerCategory >= 0 && !events.empty() &&
                      std::all_of(events.begin(), events.end(),
                                  [&](uint32_t e) { return int64_t(t.category[e]) == profilerCategory; });
    auto styleOf = [this](uint32_t e) { return this->styleOf(e); };
    std::vector<uint32_t> deepest; // the last lane, flattened below
    for (uint32_t e : events) {
        const EventKind kind = t.kind[e];
        if (m_laneOf[e] == kMaxLanes - 1)
            deepest.push_back(e);
        else
            row.lanes[m_laneOf[e]].add(t.start[e], t.end(e), e, styleOf(e));
        if (isLaunch(kind))
            row.launches[m_laneOf[e]].add(t.start[e], t.end(e), e, styleOf(e));
        if (kind == EventKind::GraphLaunch)
            row.graphLaunches.push_back(e);
    }
    if (!deepest.empty())
        addFlattened(row.lanes.back(), deepest, t, styleOf);
    for (auto &lane : row.lanes)
        lane.finish();
    for (auto &lane : row.launches)
        lane.finish();
    if (m_analysis)
        for (const StreamSummary &stream : m_analysis->streams())
            if (stream.track == trackIndex) {
                row.stream = &stream;
                for (std::size_t i = 0; i < stream.gaps.size(); ++i)
                    row.gaps.add(stream.gaps[i].start, stream.gaps[i].end, uint32_t(i), 0);
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
