// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One frame of a timeline in pixels, built once per (visible range, plot, scroll, rows) and read by
// every paint pass: event rectangles batched by style (merged per pixel column), idle gaps, graph
// launch markers, highlighted kernels, names that fit inside their rectangles, and the axis ticks.
// Density at every zoom: a pixel column holding events narrower than itself is drawn as tall as the
// share of it that its lane covers (bars from the bottom), the idle hatching of a GPU stream as tall
// as its idle share (from the top), so that the picture's busy share is the range summary's.

#include "widgets/timeline/timelinehittest.h"

#include <QFontMetrics>
#include <QRect>
#include <QString>

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace scopeline {

struct TimelineLabel
{
    QRect rect;
    QString text;
    uint8_t style;
};

// Time ranges shaded across the GPU streams (the idle gaps of one cause): by start, with the latest
// end so far, so that the first one in view is a binary search away.
struct TimelineIntervals
{
    std::vector<std::pair<int64_t, int64_t>> ranges; // [start, end) in trace ns, by start
    std::vector<int64_t> reach;                      // reach[i]: the latest end of ranges[0..i]

    void set(std::vector<std::pair<int64_t, int64_t>> unsorted);
};

struct TimelineGeometry
{
    bool valid = false;
    int64_t start = 0, end = 0;
    TimelineViewport viewport;
    int version = 0; // of the rows it was built for

    std::array<std::vector<QRect>, kTimelineStyles> rects;
    std::array<std::vector<QRect>, kGapCauses> gaps; // by GapCause
    std::vector<QRect> graphMarkers;
    std::vector<QRect> highlights; // kernels of the highlighted names, one per pixel column at most
    std::vector<QRect> bands;      // highlighted intervals, per GPU stream row, one per pixel column at most
    std::vector<TimelineLabel> labels;
    AxisTicks ticks; // x in widget coordinates

    bool matches(const TimeScale &scale, const TimelineViewport &vp, int rowsVersion) const
    {
        return valid && start == scale.start && end == scale.end && viewport.plot == vp.plot &&
               viewport.scroll == vp.scroll && version == rowsVersion;
    }
    // highlightedName: per string id, kernels of that name are highlighted (empty: no highlight).
    void build(const TimelineLayout &layout, const TimelineRows &rows, const TimeScale &scale,
               const TimelineViewport &viewport, int rowsVersion, const QFontMetrics &labelMetrics,
               const std::vector<bool> &highlightedName, const TimelineIntervals &intervals = {});

private:
    void addTrackRow(const TimelineLayout &layout, const TimelineTrackRow &track, int y, int height,
                     const TimeScale &scale, const QFontMetrics &fm,
                     const std::vector<bool> &highlightedName);
    // The intervals in view as pixel columns [left, right) from the plot's left.
    static std::vector<std::pair<int, int>> intervalColumns(const TimelineIntervals &intervals,
                                                            const TimeScale &scale);
    void addDensity(std::vector<QRect> &out, const TimelineLane &lane, std::size_t i, int left, int right,
                    const TimeScale &scale, int y, int height, bool bottom, bool separate);
    void addHighlights(const TraceData &t, const TimelineLane &lane, const TimeScale &scale, int y,
                       int height, const std::vector<bool> &highlightedName);
};

// Where an event is drawn (x clipped to a little beyond the plot); empty when its track is not shown.
QRect timelineEventRect(const TimelineLayout &layout, const TimelineRows &rows, const TimeScale &scale,
                        const TimelineViewport &viewport, uint32_t event);

} // namespace scopeline
