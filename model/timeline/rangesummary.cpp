// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/timeline/rangesummary.h"

#include <algorithm>
#include <map>

namespace scopeline {

RangeSummary summariseRange(const TraceAnalysis &analysis, int64_t start, int64_t end)
{
    RangeSummary summary;
    summary.start = start;
    summary.end = std::max(start, end);
    if (end <= start)
        return summary;
    const TraceData &t = analysis.trace();
    const std::vector<uint32_t> &kernels = analysis.kernels(); // by start
    auto byStart = [&t](uint32_t e, int64_t v) { return t.start[e] < v; };

    // Clipping to the range keeps the intervals sorted by start, as unionLength wants.
    std::vector<std::pair<int64_t, int64_t>> clipped;
    std::map<uint32_t, std::vector<std::pair<int64_t, int64_t>>> byStream;
    for (uint32_t k : kernels) {
        if (t.start[k] >= end)
            break;
        const int64_t s = std::max(t.start[k], start), e = std::min(t.end(k), end);
        if (e > s) {
            clipped.emplace_back(s, e);
            byStream[t.track[k]].emplace_back(s, e);
        }
    }
    summary.busyNs = unionLength(clipped);
    for (const auto &[track, intervals] : byStream)
        summary.streams.push_back({track, unionLength(intervals)});
    summary.kernels = std::lower_bound(kernels.begin(), kernels.end(), end, byStart) -
                      std::lower_bound(kernels.begin(), kernels.end(), start, byStart);
    for (std::size_t track = 0; track < t.tracks.size(); ++track) {
        if (t.tracks[track].gpu)
            continue;
        const auto &events = t.trackEvents[track];
        for (auto it = std::lower_bound(events.begin(), events.end(), start, byStart);
             it != events.end() && t.start[*it] < end; ++it) {
            summary.kernelLaunches += t.kind[*it] == EventKind::KernelLaunch;
            summary.graphLaunches += t.kind[*it] == EventKind::GraphLaunch;
        }
    }
    return summary;
}

} // namespace scopeline
