// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Paints one frame of a timeline from its geometry, pass by pass: row backgrounds and headers, idle
// gaps, events batched by colour, names, the highlight fade (highlighted kernels, interval bands),
// hover/selection overlays with launch arrows, the time axis and the label column.

#include "model/loading/loadedrun.h"
#include "widgets/timeline/timelinegeometry.h"
#include "widgets/timeline/timelinetheme.h"
#include "widgets/timeline/timelineviewstate.h"

#include <QFont>

class QPainter;

namespace scopeline {

struct TimelineFrame
{
    const LoadedRun &run;
    const TimelineLayout &layout;
    const TimelineRows &rows;
    const TimelineViewState &state;
    const TimelineGeometry &geometry; // built for the current state
    const TimelineTheme &theme;
    QRect widget; // the whole widget
    QFont font;
    bool highlight = false; // kernels or intervals are highlighted: fade the rest
};

class TimelinePainter
{
public:
    TimelinePainter(QPainter &painter, const TimelineFrame &frame);
    void paint();

private:
    void paintRows();
    void paintGaps();
    void paintEvents();
    void paintHighlight();
    void paintOverlays();
    void paintRange();
    void paintAxis();
    void paintLabelColumn();
    void paintHeaderLabel(const TimelineRow &row, int y);
    void paintLinks(int64_t event, bool strong);
    void paintArrow(const QRect &from, const QRect &to, const QColor &colour);
    void paintGraphBracket(uint32_t launch, bool strong);
    QRect eventRect(uint32_t event) const;

    QPainter &p;
    const TimelineFrame &f;
    const QRect plot;
    const QFont small;
};

// What a timeline shows in place of events (an error, a summary, loading, an empty trace); empty when
// there are events to draw.
QString timelinePlaceholder(const LoadedRun &run);

// The timeline's smaller font, for names in events and the axis.
QFont timelineSmallFont(QFont font);

} // namespace scopeline
