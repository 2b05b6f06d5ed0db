// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/timelinegeometry.h"

#include "widgets/timeline/timelinetext.h"

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
        if (lane.end(i) < s.start) {
            ++i;
            continue;
        }
        const double x0 = s.toPixel(lane.start(i)), x1 = s.toPixel(lane.end(i));
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
        const std::size_t j = lane.firstStarting(next, i + 1, iEnd);
        if (lane.overlapping())
            i = lane.firstEndingAfter(i + 1, j, next);
        else
            i = (j > i + 1 && lane.end(j - 1) > next) ? j - 1 : j;
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
    for (std::vector<QRect> &v : gaps)
        v.clear();
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

// Columns [left, right) drawn for entry i of a lane, as tall as the share of each column that the
// lane covers (the entry itself covers the columns inside it: only the edge columns are measured), so
// that a column holding 0.3 µs of work in 2 µs is 15 % high, whatever the zoom. bottom: bars grow
// from the bottom (events), else from the top (idle hatching). A bar over 2 px wide that ends on a
// full column loses that column to leave a gap between neighbours.
void TimelineGeometry::addDensity(std::vector<QRect> &out, const TimelineLane &lane, std::size_t i, int left,
                                  int right, const TimeScale &scale, int y, int height, bool bottom,
                                  bool separate)
{
    const double nsPerPx = scale.nsPerPixel();
    const int64_t start = lane.start(i), end = lane.end(i);
    const double x0 = scale.toPixel(start), x1 = scale.toPixel(end);
    const int fullFrom = int(std::ceil(x0)), fullTo = int(std::floor(x1)); // columns inside the entry
    const bool marker = end <= start;                                      // an instant: drawn whole
    auto heightOf = [&](int column) {
        if (marker || (column >= fullFrom && column < fullTo))
            return height;
        const int64_t from = scale.start + int64_t(std::llround(double(column) * nsPerPx));
        const int64_t to = scale.start + int64_t(std::llround(double(column + 1) * nsPerPx));
        const double share = to > from ? double(lane.covered(from, to)) / double(to - from) : 1.0;
        const int h = int(std::lround(std::clamp(share, 0.0, 1.0) * height));
        return std::clamp(h, share > 0 ? 1 : 0, height);
    };
    const int plotLeft = viewport.plot.left();
    auto addBar = [&](int c0, int c1, int h) {
        if (h <= 0 || c1 <= c0)
            return;
        const int top = bottom ? y + height - h : y;
        const int x = plotLeft + c0;
        if (!out.empty()) {
            QRect &last = out.back();
            if (last.left() + last.width() == x && last.top() == top && last.height() == h) {
                last.setWidth(last.width() + c1 - c0); // the same bar continues: one rect
                return;
            }
        }
        out.emplace_back(x, top, c1 - c0, h);
    };
    const int lastColumn = right - 1;
    const int lastHeight = heightOf(lastColumn);
    const bool drop = separate && right - left >= 3 && lastHeight == height; // the separating gap
    int runStart = left, runHeight = -1;
    for (int c = left; c < right; ++c) {
        // the columns inside the entry are one run at full height: jump over them
        int h;
        int next = c + 1;
        if (c == lastColumn) {
            h = lastHeight;
        } else if (!marker && c >= fullFrom && c < fullTo) {
            h = height;
            next = std::min(fullTo, lastColumn);
        } else {
            h = heightOf(c);
        }
        if (h != runHeight) {
            addBar(runStart, c, runHeight);
            runStart = c;
            runHeight = h;
        }
        c = next - 1;
    }
    addBar(runStart, drop ? right - 1 : right, runHeight);
}

void TimelineGeometry::addTrackRow(const TimelineLayout &layout, const TimelineTrackRow &track, int y,
                                   int height, const TimeScale &scale, const QFontMetrics &fm,
                                   const std::vector<bool> &highlightedName)
{
    const TraceData &t = *layout.trace();
    const QRect &plot = viewport.plot;
    const int width = plot.width();
    const int lh = TimelineRows::laneHeight(track);
    // idle gaps behind the kernels, the whole row high where a column is all idle, less where not
    if (track.stream)
        sweep(track.gaps, scale, width, 0.0, [&](std::size_t i, int left, int right) {
            addDensity(gaps[track.gaps.style(i) % kGapCauses], track.gaps, i, left, right, scale, y + 1,
                       height - 2, false, false);
        });
    for (std::size_t l = 0; l < track.lanes.size(); ++l) {
        const TimelineLane &lane = track.lanes[l];
        const int ly = y + TimelineRows::laneOffset(track, int(l));
        if (ly + lh <= plot.top() || ly > plot.bottom())
            continue;
        // launches again, over the slices they merge with when zoomed out
        const TimelineLane &launches = track.launches[l];
        sweep(launches, scale, width, 0.0, [&](std::size_t i, int left, int right) {
            addDensity(rects[launches.style(i)], launches, i, left, right, scale, ly, lh - 2, true, true);
        });
        if (!highlightedName.empty() && track.stream)
            addHighlights(t, lane, scale, ly, lh - 2, highlightedName);
        sweep(lane, scale, width, 0.0, [&](std::size_t i, int left, int right) {
            const int w = right - left;
            addDensity(rects[lane.style(i)], lane, i, left, right, scale, ly, lh - 2, true, true);
            if (w > kMinTextWidth) {
                // the visible part of the event, for its name
                const QRect textRect = QRect(plot.left() + left, ly, w - 1, lh - 2).adjusted(3, 0, -2, 0);
                const QString text = elidedEventName(fm, t, lane.item(i), textRect.width());
                if (!text.isEmpty() && text != QStringLiteral("…"))
                    labels.push_back({textRect, text, lane.style(i)});
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
// zoomed out; kernels falling on the same pixel column as the previous one are skipped (their time
// counts in its rect). Each rect is as tall as the share of its columns that highlighted kernels fill,
// so that a 4 µs kernel seen at 10 µs per pixel is a short bar, not a solid column.
void TimelineGeometry::addHighlights(const TraceData &t, const TimelineLane &lane, const TimeScale &scale,
                                     int y, int height, const std::vector<bool> &highlightedName)
{
    const int left = viewport.plot.left();
    const double nsPerPx = scale.nsPerPixel();
    const auto [first, last] = lane.window(scale.start, scale.end);
    int lastRight = std::numeric_limits<int>::min();
    double busy = 0; // ns of highlighted kernels in the last rect's columns
    const std::size_t begin = highlights.size();
    auto finish = [&] {
        if (highlights.size() == begin)
            return;
        QRect &r = highlights.back();
        const double share = busy / (double(r.width()) * nsPerPx);
        const int h = std::clamp(int(std::lround(share * height)), 1, height);
        r = QRect(r.left(), y + height - h, r.width(), h);
    };
    for (std::size_t i = first; i < last; ++i) {
        const uint32_t e = lane.item(i);
        const int64_t start = lane.start(i), end = lane.end(i);
        if (end < scale.start || !highlightedName[t.name[e]])
            continue;
        const double inView = double(std::min(end, scale.end) - std::max(start, scale.start));
        const PixelSpan span = scale.toPixelSpan(start, end, 5);
        const int x0 = int(span.left);
        const int x1 = std::max(x0 + 2, int(span.right));
        if (x1 <= lastRight) {
            busy += std::max(0.0, inView);
            continue;
        }
        finish();
        busy = std::max(0.0, inView);
        highlights.emplace_back(left + std::max(x0, lastRight), y, x1 - std::max(x0, lastRight), height);
        lastRight = x1;
    }
    finish();
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
