// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinegeometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scopeline {

namespace {

constexpr int kMinTextWidth = 40; // px: rects at least this wide get their name

// Walks the visible entries of a lane column by column: draw(index, leftColumn, rightColumn) once per
// drawn rect, never twice over a column; entries starting in a column already drawn are skipped by
// binary search (the first one to start in a column gives its colour). minPx > 0 drops entries
// narrower than that.
template <typename Draw>
void sweep(const TimelineLane &lane, const TimeScale &s, int width, double minPx, Draw draw)
{
    auto [i, iEnd] = lane.window(s.start, s.end);
    int lastCol = -1;
    const double nsPerPx = s.nsPerPixel();
    while (i < iEnd) {
        if (lane.ends[i] < s.start) {
            ++i;
            continue;
        }
        const double x0 = s.toPixel(lane.starts[i]), x1 = s.toPixel(lane.ends[i]);
        const int c0 = x0 <= 0 ? 0 : int(x0);
        if (c0 >= width)
            break;
        int c1 = x1 >= width ? width : int(std::ceil(x1));
        c1 = std::max(c1, c0 + 1);
        int skipCol = std::max(lastCol, c0); // an entry too narrow to draw still uses up its column
        if (c1 - 1 > lastCol && x1 - x0 >= minPx) {
            const int left = std::max(c0, lastCol + 1);
            draw(i, left, c1);
            skipCol = lastCol = c1 - 1;
        }
        // Skip what starts in the columns used so far, unless it reaches beyond them.
        const int64_t next = s.start + int64_t(std::ceil(double(skipCol + 1) * nsPerPx));
        const std::size_t j = std::size_t(std::lower_bound(lane.starts.begin() + std::ptrdiff_t(i) + 1,
                                                           lane.starts.begin() + std::ptrdiff_t(iEnd), next) -
                                          lane.starts.begin());
        if (lane.overlapping)
            i = lane.firstEndingAfter(i + 1, j, next);
        else
            i = (j > i + 1 && lane.ends[j - 1] > next) ? j - 1 : j;
    }
}

} // namespace

void TimelineIntervals::set(std::vector<std::pair<int64_t, int64_t>> unsorted)
{
    ranges = std::move(unsorted);
    std::sort(ranges.begin(), ranges.end());
    reach.clear();
    for (const auto &range : ranges)
        reach.push_back(std::max(reach.empty() ? range.second : reach.back(), range.second));
}

void TimelineGeometry::build(const TimelineLayout &layout, const TimelineRows &rows, const TimeScale &scale,
                             const TimelineViewport &vp, int rowsVersion, const QFontMetrics &labelMetrics,
                             const std::vector<bool> &highlightedName, const TimelineIntervals &intervals)
{
    for (auto &v : rects)
        v.clear();
    gaps.clear();
    graphMarkers.clear();
    highlights.clear();
    bands.clear();
    labels.clear();
    valid = true;
    start = scale.start;
    end = scale.end;
    viewport = vp;
    version = rowsVersion;
    ticks = {};
    if (layout.isEmpty())
        return;
    ticks = axisTicks(scale, scale.lowerBound);
    for (AxisTick &tick : ticks.major)
        tick.x += vp.plot.left();
    for (int &x : ticks.minor)
        x += vp.plot.left();

    const std::vector<std::pair<int, int>> columns = intervalColumns(intervals, scale);
    for (const TimelineRow &row : rows.rows()) {
        const int y = vp.rowTop(row);
        if (row.header || y + row.height <= vp.plot.top() || y > vp.plot.bottom())
            continue;
        const TimelineTrackRow &track = layout.rows()[std::size_t(row.index)];
        addTrackRow(layout, track, y, row.height, scale, labelMetrics, highlightedName);
        if (track.stream)
            for (const auto &[left, right] : columns)
                bands.emplace_back(vp.plot.left() + left, y + 1, right - left, row.height - 2);
    }
}

// Every interval in view gets columns, at least 2 px wide so that a short one shows when zoomed out;
// intervals falling on columns already taken are skipped.
std::vector<std::pair<int, int>> TimelineGeometry::intervalColumns(const TimelineIntervals &intervals,
                                                                   const TimeScale &scale)
{
    std::vector<std::pair<int, int>> columns;
    const auto &ranges = intervals.ranges;
    int lastRight = std::numeric_limits<int>::min();
    for (auto i = std::size_t(std::lower_bound(intervals.reach.begin(), intervals.reach.end(), scale.start) -
                              intervals.reach.begin());
         i < ranges.size() && ranges[i].first <= scale.end; ++i) {
        if (ranges[i].second < scale.start)
            continue;
        const PixelSpan span = scale.toPixelSpan(ranges[i].first, ranges[i].second, 5);
        const int x0 = std::max(int(span.left), lastRight);
        const int x1 = std::max(int(span.left) + 2, int(std::ceil(span.right)));
        if (x1 <= x0)
            continue;
        if (x0 == lastRight)
            columns.back().second = x1; // touches the previous one: one band
        else
            columns.emplace_back(x0, x1);
        lastRight = x1;
    }
    return columns;
}

void TimelineGeometry::addTrackRow(const TimelineLayout &layout, const TimelineTrackRow &track, int y,
                                   int height, const TimeScale &scale, const QFontMetrics &fm,
                                   const std::vector<bool> &highlightedName)
{
    const TraceData &t = *layout.trace();
    const QRect &plot = viewport.plot;
    const int width = plot.width();
    const int lh = TimelineRows::laneHeight(track);
    // idle gaps behind the kernels, the whole row high
    if (track.stream)
        sweep(track.gaps, scale, width, 1.0, [&](std::size_t, int left, int right) {
            gaps.emplace_back(plot.left() + left, y + 1, right - left, height - 2);
        });
    for (std::size_t l = 0; l < track.lanes.size(); ++l) {
        const TimelineLane &lane = track.lanes[l];
        const int ly = y + TimelineRows::laneOffset(track, int(l));
        if (ly + lh <= plot.top() || ly > plot.bottom())
            continue;
        // launches again, over the slices they merge with when zoomed out
        sweep(track.launches[l], scale, width, 0.0, [&](std::size_t i, int left, int right) {
            const int w = right - left;
            rects[track.launches[l].styles[i]].emplace_back(plot.left() + left, ly, w >= 3 ? w - 1 : w,
                                                            lh - 2);
        });
        if (!highlightedName.empty() && track.stream)
            addHighlights(t, lane, scale, ly, lh - 2, highlightedName);
        sweep(lane, scale, width, 0.0, [&](std::size_t i, int left, int right) {
            const int w = right - left;
            const QRect r(plot.left() + left, ly, w >= 3 ? w - 1 : w, lh - 2);
            rects[lane.styles[i]].push_back(r);
            if (w > kMinTextWidth) {
                // the visible part of the event, for its name
                const QRect textRect = r.adjusted(3, 0, -2, 0);
                const QString text = fm.elidedText(t.qname(lane.items[i]), Qt::ElideRight, textRect.width());
                if (!text.isEmpty() && text != QStringLiteral("…"))
                    labels.push_back({textRect, text, lane.styles[i]});
            }
        });
    }
    // graph launches: a strong marker even when zoomed out
    for (auto it = std::lower_bound(track.graphLaunches.begin(), track.graphLaunches.end(), scale.start,
                                    [&t](uint32_t e, int64_t v) { return t.end(e) < v; });
         it != track.graphLaunches.end() && t.start[*it] <= scale.end; ++it) {
        if (t.end(*it) < scale.start)
            continue;
        const double x = std::max(0.0, scale.toPixel(t.start[*it]));
        const int ly = y + TimelineRows::laneOffset(track, layout.laneOf(*it));
        graphMarkers.emplace_back(plot.left() + int(x), ly, 2, lh - 2);
    }
}

// Every highlighted kernel in view gets a rect, at least 2 px wide so that a short kernel shows when
// zoomed out; kernels falling on the same pixel column as the previous one are skipped.
void TimelineGeometry::addHighlights(const TraceData &t, const TimelineLane &lane, const TimeScale &scale,
                                     int y, int height, const std::vector<bool> &highlightedName)
{
    const int left = viewport.plot.left();
    auto first = std::lower_bound(lane.reach.begin(), lane.reach.end(), scale.start);
    int lastRight = std::numeric_limits<int>::min();
    for (auto i = std::size_t(first - lane.reach.begin()); i < lane.size() && lane.starts[i] <= scale.end;
         ++i) {
        const uint32_t e = lane.items[i];
        if (lane.ends[i] < scale.start || !highlightedName[t.name[e]])
            continue;
        const PixelSpan span = scale.toPixelSpan(lane.starts[i], lane.ends[i], 5);
        const int x0 = int(span.left);
        const int x1 = std::max(x0 + 2, int(span.right));
        if (x1 <= lastRight)
            continue;
        highlights.emplace_back(left + std::max(x0, lastRight), y, x1 - std::max(x0, lastRight), height);
        lastRight = x1;
    }
}

QRect timelineEventRect(const TimelineLayout &layout, const TimelineRows &rows, const TimeScale &scale,
                        const TimelineViewport &vp, uint32_t e)
{
    const TraceData *t = layout.trace();
    if (!t || e >= t->eventCount())
        return {};
    const int trackRow = layout.rowOfTrack(t->track[e]);
    if (trackRow < 0)
        return {};
    const int r = rows.rowOfTrackRow(trackRow);
    if (r < 0)
        return {};
    const PixelSpan span = scale.toPixelSpan(t->start[e], t->end(e), 2000);
    const int left = int(std::floor(span.left));
    const int right = std::max(left + 1, int(std::ceil(span.right)));
    const TimelineTrackRow &track = layout.rows()[std::size_t(trackRow)];
    const int y = vp.rowTop(rows.rows()[std::size_t(r)]) + TimelineRows::laneOffset(track, layout.laneOf(e));
    return QRect(vp.plot.left() + left, y, right - left, TimelineRows::laneHeight(track) - 2);
}

} // namespace scopeline
