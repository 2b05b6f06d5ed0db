// SPDX-License-Identifier: GPL-3.0-or-later
#include "traceanalysis.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

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

} // namespace

int64_t unionLength(const std::vector<std::pair<int64_t, int64_t>> &intervals)
{
    int64_t busy = 0;
    int64_t curStart = 0, curEnd = std::numeric_limits<int64_t>::min();
    for (const auto &[start, end] : intervals) {
        if (start > curEnd) {
            if (curEnd != std::numeric_limits<int64_t>::min())
                busy += curEnd - curStart;
            curStart = start;
            curEnd = end;
        } else {
            curEnd = std::max(curEnd, end);
        }
    }
    if (curEnd != std::numeric_limits<int64_t>::min())
        busy += curEnd - curStart;
    return busy;
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

int64_t StreamSummary::idleNs() const
{
    int64_t idle = 0;
    for (const IdleGap &gap : gaps)
        idle += gap.length();
    return idle;
}

TraceAnalysis::TraceAnalysis(const TraceData &trace) : m_trace(trace)
{
    for (uint32_t e = 0; e < trace.eventCount(); ++e)
        if (trace.kind[e] == EventKind::Kernel)
            m_kernels.push_back(e);
    std::stable_sort(m_kernels.begin(), m_kernels.end(),
                     [&trace](uint32_t a, uint32_t b) { return trace.start[a] < trace.start[b]; });
    joinLaunches();

    std::set<int> devices;
    for (uint32_t k : m_kernels)
        devices.insert(deviceOf(k));
    summarise(m_total, -1);
    for (int device : devices) {
        m_devices.emplace_back();
        summarise(m_devices.back(), device);
    }
    findGaps();
}

void TraceAnalysis::joinLaunches()
{
    const TraceData &t = m_trace;
    for (uint32_t k : m_kernels)
        if (t.correlation[k] != TraceData::kNoCorrelation)
            m_kernelsByCorrelation[t.correlation[k]].push_back(k);

    // The earliest launch call of each correlation id.
    std::unordered_map<int64_t, uint32_t> launchByCorrelation;
    for (uint32_t e = 0; e < t.eventCount(); ++e) {
        if ((t.kind[e] != EventKind::KernelLaunch && t.kind[e] != EventKind::GraphLaunch) ||
            t.correlation[e] == TraceData::kNoCorrelation)
            continue;
        auto [it, inserted] = launchByCorrelation.try_emplace(t.correlation[e], e);
        if (!inserted && t.start[e] < t.start[it->second])
            it->second = e;
    }
    m_launchOf.assign(t.eventCount(), -1);
    for (uint32_t k : m_kernels) {
        auto it = launchByCorrelation.find(t.correlation[k]);
        if (t.correlation[k] != TraceData::kNoCorrelation && it != launchByCorrelation.end())
            m_launchOf[k] = int32_t(it->second);
    }
}

int64_t TraceAnalysis::launchOf(uint32_t kernel) const
{
    return kernel < m_launchOf.size() ? m_launchOf[kernel] : -1;
}

std::vector<uint32_t> TraceAnalysis::kernelsOf(uint32_t launch) const
{
    const int64_t correlation = m_trace.correlation[launch];
    auto it = m_kernelsByCorrelation.find(correlation);
    if (correlation == TraceData::kNoCorrelation || it == m_kernelsByCorrelation.end())
        return {};
    return it->second;
}

void TraceAnalysis::summarise(LaunchSummary &summary, int device) const
{
    const TraceData &t = m_trace;
    const bool all = device == -1;
    summary.device = device;

    std::vector<std::pair<int64_t, int64_t>> intervals;
    for (uint32_t k : m_kernels) {
        if (!all && deviceOf(k) != device)
            continue;
        intervals.emplace_back(t.start[k], t.end(k));
        const int64_t launch = m_launchOf[k];
        if (launch >= 0 && t.kind[launch] == EventKind::KernelLaunch)
            summary.launchDelays.push_back(t.start[k] - t.start[launch]);
    }
    summary.kernels = int64_t(intervals.size());
    summary.busyNs = unionLength(intervals);
    if (!intervals.empty()) {
        int64_t lastEnd = std::numeric_limits<int64_t>::min();
        for (const auto &interval : intervals)
            lastEnd = std::max(lastEnd, interval.second);
        summary.spanNs = lastEnd - intervals.front().first;
    }

    for (uint32_t e = 0; e < t.eventCount(); ++e) {
        const EventKind kind = t.kind[e];
        if (kind != EventKind::KernelLaunch && kind != EventKind::GraphLaunch)
            continue;
        const std::vector<uint32_t> kernels = kernelsOf(e);
        // A launch belongs to the device its kernels ran on; unmatched ones count in the total only.
        if (!all && (kernels.empty() || deviceOf(kernels.front()) != device))
            continue;
        if (kind == EventKind::KernelLaunch) {
            ++summary.kernelLaunches;
        } else {
            ++summary.graphLaunches;
            if (!kernels.empty())
                summary.graphLaunchDelays.push_back(t.start[kernels.front()] - t.start[e]);
        }
    }
}

void TraceAnalysis::findGaps()
{
    const TraceData &t = m_trace;
    m_reach.assign(t.tracks.size(), {});
    std::vector<std::vector<uint32_t>> byTrack(t.tracks.size());
    for (uint32_t k : m_kernels)
        byTrack[t.track[k]].push_back(k);
    for (uint32_t track = 0; track < byTrack.size(); ++track) {
        const auto &kernels = byTrack[track];
        if (kernels.empty())
            continue;
        StreamSummary stream;
        stream.track = track;
        stream.kernels = int64_t(kernels.size());
        std::vector<std::pair<int64_t, int64_t>> intervals;
        int64_t reach = t.end(kernels.front()); // latest end so far
        uint32_t reachKernel = kernels.front();
        for (uint32_t k : kernels) {
            intervals.emplace_back(t.start[k], t.end(k));
            if (t.start[k] > reach) {
                IdleGap gap;
                gap.start = reach;
                gap.end = t.start[k];
                gap.before = reachKernel;
                gap.after = k;
                const int64_t launch = m_launchOf[k];
                if (launch >= 0) {
                    gap.cause = t.start[launch] >= gap.start ? GapCause::LaunchLate : GapCause::GpuWaiting;
                    gap.cpuEvent = innermostCpuSlice(t.track[launch], gap.start + gap.length() / 2);
                }
                stream.gaps.push_back(gap);
            }
            if (t.end(k) >= reach) {
                reach = t.end(k);
                reachKernel = k;
            }
        }
        stream.busyNs = unionLength(intervals);
        m_streams.push_back(std::move(stream));
    }
}

int64_t TraceAnalysis::innermostCpuSlice(uint32_t track, int64_t ts)
{
    // Events are sorted by start with parents first, so the latest-starting one containing ts is
    // the innermost; the running maximum of ends says when no earlier event can reach ts.
    const TraceData &t = m_trace;
    const auto &events = t.trackEvents[track];
    auto &reach = m_reach[track];
    if (reach.empty()) {
        int64_t maxEnd = std::numeric_limits<int64_t>::min();
        for (uint32_t e : events)
            reach.push_back(maxEnd = std::max(maxEnd, t.end(e)));
    }
    const auto it = std::upper_bound(events.begin(), events.end(), ts,
                                     [&t](int64_t value, uint32_t e) { return value < t.start[e]; });
    for (auto i = it - events.begin() - 1; i >= 0 && reach[i] >= ts; --i)
        if (t.kind[events[i]] != EventKind::Instant && t.end(events[i]) >= ts)
            return events[i];
    return -1;
}

} // namespace scopeline
