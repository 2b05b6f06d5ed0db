// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What is under a point of a timeline: a group header, a track's label, or a track row with the event
// (the innermost one, within a couple of pixels) or the idle gap there. Pure functions of the layout,
// the rows, the time scale and where the plot is.

#include "widgets/timeline/timelinerows.h"
#include "widgets/timeline/timescale.h"

#include <QPoint>
#include <QRect>

#include <cstdint>

namespace scopeline {

// Where the rows are on screen: the plot rectangle (widget coordinates) and the vertical scroll.
struct TimelineViewport
{
    QRect plot;
    int scroll = 0;
    // Widget y of a row's top.
    int rowTop(const TimelineRow &row) const { return plot.top() + row.y - scroll; }
};

struct TimelineHit
{
    enum Type { None, Header, TrackLabel, Track } type = None;
    int row = -1; // into TimelineRows::rows()
    int lane = 0;
    int64_t event = -1;
    int64_t gap = -1; // index into the stream's gaps
};

constexpr int kTimelineHitSlop = 2; // px of tolerance around tiny events

TimelineHit hitTest(const TimelineLayout &layout, const TimelineRows &rows, const TimeScale &scale,
                    const TimelineViewport &viewport, QPoint pos);
// The event of a lane at px (from the plot's left): the latest-starting one containing that time (the
// innermost), else the nearest within slopPx; -1 when none.
int64_t eventAt(const TimelineLane &lane, const TimeScale &scale, double px, double slopPx);

} // namespace scopeline
