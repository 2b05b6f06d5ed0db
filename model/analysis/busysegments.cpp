// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/busysegments.h"

#include <algorithm>

namespace scopeline {

std::vector<BusySegment> busySegments(const RunSummary &summary)
{
    // Sweep the kernels' starts and ends, counting the compute and the communication kernels running.
    struct Edge
    {
        int64_t at;
        int delta;
        bool comm;
    };
    std::vector<Edge> edges;
    for (const RunSummary::Kernel &k : summary.kernels())
        if (k.duration > 0) {
            edges.push_back({k.start, +1, k.communication()});
            edges.push_back({k.end(), -1, k.communication()});
        }
    std::sort(edges.begin(), edges.end(), [](const Edge &a, const Edge &b) { return a.at < b.at; });
    std::vector<BusySegment> out;
    int compute = 0, comm = 0;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        (edges[i].comm ? comm : compute) += edges[i].delta;
        const int64_t next = i + 1 < edges.size() ? edges[i + 1].at : edges[i].at;
        if (next > edges[i].at && (compute > 0 || comm > 0)) {
            if (!out.empty() && out.back().end == edges[i].at && out.back().compute == (compute > 0))
                out.back().end = next;
            else
                out.push_back({edges[i].at, next, compute > 0});
        }
    }
    return out;
}

BusyShares busyShares(const std::vector<BusySegment> &segments, int64_t from, int64_t to)
{
    BusyShares s;
    auto it = std::lower_bound(segments.begin(), segments.end(), from,
                               [](const BusySegment &seg, int64_t t) { return seg.end <= t; });
    for (; it != segments.end() && it->start < to; ++it) {
        const int64_t overlap = std::min(it->end, to) - std::max(it->start, from);
        (it->compute ? s.compute : s.exposedComm) += std::max<int64_t>(0, overlap);
    }
    return s;
}

} // namespace scopeline
