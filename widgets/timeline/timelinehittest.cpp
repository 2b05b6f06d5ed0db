// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/timelinehittest.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scopeline {

int64_t eventAt(const TimelineLane &lane, const TimeScale &scale, double px, double slopPx)
{
    const int64_t t = scale.start + int64_t(std::llround(px * scale.nsPerPixel()));
    const int64_t slop = std::max<int64_t>(0, std::llround(slopPx * scale.nsPerPixel()));
    const std::size_t after = lane.firstStarting(t + slop, 0, lane.size(), true);
    int64_t best = -1;
    int64_t bestDistance = std::numeric_limits<int64_t>::max();
    int budget = 100000; // a pathological pile-up is cut short rather than stall the hover
    for (auto i = std::ptrdiff_t(after) - 1; i >= 0 && lane.reach(std::size_t(i)) >= t - slop && budget-- > 0; --i) {
        const int64_t s = lane.start(std::size_t(i)), e = lane.end(std::size_t(i));
        const int64_t distance = t < s ? s - t : t > e ? t - e : 0;
        if (distance > slop)
            continue;
        if (distance == 0) // the latest-starting one containing t: the innermost
            return lane.item(std::size_t(i));
        if (distance < bestDistance) {
            bestDistance = distance;
            best = lane.item(std::size_t(i));
        }
    }
    return best;
}

TimelineHit hitTest(const TimelineLayout &layout, const TimelineRows &rows, const TimeScale &scale,
                    const TimelineViewport &viewport, QPoint pos)
{
    TimelineHit hit;
    if (pos.y() < viewport.plot.top())
        return hit;
    const int r = rows.rowAt(pos.y() - viewport.plot.top() + viewport.scroll);
    if (r < 0)
        return hit;
    hit.row = r;
    const TimelineRow &row = rows.rows()[std::size_t(r)];
    if (row.header) {
        hit.type = TimelineHit::Header;
        return hit;
    }
    if (pos.x() < viewport.plot.left()) {
        hit.type = TimelineHit::TrackLabel;
        return hit;
    }
    hit.type = TimelineHit::Track;
    const TimelineTrackRow &track = layout.rows()[std::size_t(row.index)];
    const int laneHeight = TimelineRows::laneHeight(track);
    const int inRow = pos.y() - viewport.rowTop(row) - TimelineRows::laneOffset(track, 0);
    hit.lane = std::clamp(inRow / laneHeight, 0, int(track.lanes.size()) - 1);
    const double px = pos.x() - viewport.plot.left();
    if (inRow >= 0 && inRow < int(track.lanes.size()) * laneHeight)
        hit.event = eventAt(track.lanes[std::size_t(hit.lane)], scale, px, kTimelineHitSlop);
    if (hit.event < 0 && track.stream && !track.stream->gaps.empty()) {
        const int64_t t = scale.toTime(px);
        const auto &gaps = track.stream->gaps;
        auto it = std::upper_bound(gaps.begin(), gaps.end(), t,
                                   [](int64_t v, const IdleGap &gap) { return v < gap.start; });
        if (it != gaps.begin() && t <= (it - 1)->end)
            hit.gap = int64_t(it - gaps.begin()) - 1;
    }
    return hit;
}

} // namespace scopeline
