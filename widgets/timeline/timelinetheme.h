// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The timeline's colours, derived from a QPalette (base, window, text, highlight) so that light and
// dark palettes both read; event fills keep a fixed hue set whose text colour follows each fill.

#include "model/timeline/timelinelayout.h"

#include <QColor>
#include <QPalette>
#include <QString>

#include <array>

namespace scopeline {

struct TimelineTheme
{
    struct Swatch
    {
        QColor fill;
        QColor text; // for names drawn on the fill
    };

    static TimelineTheme fromPalette(const QPalette &palette);
    // The colour key of the timeline as rich text: each kind of event's fill, the graph launch's
    // marker and each idle cause's hatch, in these colours.
    QString keyHtml() const;
    // a mixed t of the way from a to b (alpha too)
    static QColor mix(const QColor &a, const QColor &b, double t);

    std::array<Swatch, kTimelineStyles> swatches;
    bool dark = false;
    // plot
    QColor background, streamBackground, grid, rowLine, placeholderText;
    // headers of process groups (in the label column and across the plot)
    QColor cpuHeader, gpuHeader, headerLine, headerTitle, headerDetail, disclosure;
    // label column and axis
    QColor labelColumn, labelText, columnLine, axisBackground, minorTick, majorTick, axisText;
    // idle gaps, by GapCause: translucent fill and hatch (CPU launched late red, GPU waiting blue,
    // unknown grey); the hovered gap's outline
    std::array<QColor, kGapCauses> gapFill, gapHatch;
    QColor gapOutline;
    // overlays
    QColor graphMarker, graphBracket, fade, highlightFill, highlightOutline;
    QColor bandFill; // highlighted intervals (the gaps of an idle cause): the highlight, translucent
    QColor arrow, arrowStrong, hoverOutline, selectionOutline;
    QColor rangeFill, rangeLine, rangeLabelText;
    // PairTimeline's title bars for side A (0) and B (1), and its hint line
    std::array<QColor, 2> sideBackground, sideText;
    QColor hintText;
};

} // namespace scopeline
