// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A horizontal waterfall drawn into a QCustomPlot, what the kernel and the step waterfalls share:
// bars top to bottom, totals from zero, changes from the running total, an optional confidence
// interval as an error bar at a change's end, and the value beside each bar.

#include "widgets/charts/plottheme.h"

#include <QColor>
#include <QString>

#include <limits>
#include <vector>

class QCustomPlot;
class QPoint;

namespace scopeline {

struct WaterfallBar
{
    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    QString label;           // on the axis
    QString value;           // beside the bar
    double from = 0, to = 0; // ns; a total runs from 0
    QColor colour;
    bool total = false;
    bool current = false;                 // outlined
    double ciLow = kNone, ciHigh = kNone; // of to − from, ns: drawn around `to`
    QString shortValue = {}; // beside the bar instead where `value` leaves it too little room (empty: none)
};

// Replaces the plot's items with the bars. The value axis spans the running totals, so that small
// changes on large totals show (the totals then run in from the left edge, with a break mark on
// each and the axis label saying where it starts), from zero when that is near; `axisLabel` takes the unit as
// %1 ("step time (%1)").
void drawWaterfall(QCustomPlot *plot, const PlotTheme &theme, const std::vector<WaterfallBar> &bars,
                   const QString &axisLabel);
// A hint in place of the bars.
void drawWaterfallHint(QCustomPlot *plot, const PlotTheme &theme, const QString &hint);
// The bar drawn at a point of the plot, -1 when none (of `count` bars).
int waterfallBarAt(const QCustomPlot *plot, const QPoint &pos, int count);

} // namespace scopeline
