// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The colours of the QCustomPlot charts, derived from a QPalette so that they follow a light or dark
// widget palette; applyPalette() themes a plot's background, axes, grids, legend and title.

#include <QColor>
#include <QFontMetrics>
#include <QPalette>
#include <QSharedPointer>
#include <QStringList>

#include <functional>

class QCPAxisTickerText;
class QCustomPlot;
class QFont;

namespace scopeline {

struct PlotTheme
{
    static PlotTheme fromPalette(const QPalette &palette);

    bool dark = false;
    QColor background;    // Base
    QColor text;          // tick labels, axis labels, ticks, legend text, a selection outline
    QColor strongText;    // titles and value labels: a little softer than text
    QColor axisLine;      // a softer axis line (the boxplot's)
    QColor dimText;       // hints shown in place of data
    QColor grid;          // translucent text: faint on either background
    QColor zeroLine;      // the grid line at zero
    QColor separator;     // lines between groups of data
    QColor markerOutline; // outline of white markers (run medians), dark on either background
    QColor markerFill;

    // An edge of a data-coloured shape: darker on a light background, lighter on a dark one, so that
    // it stands out from the fill and the background alike. factor as for QColor::darker().
    QColor edge(const QColor &fill, int factor) const;
};

// Themes `plot` from `palette` and returns the theme, for the items and outlines the caller draws.
// Pen and brush styles are kept (a hidden border stays hidden); only their colours change. Call it again
// on QEvent::PaletteChange.
PlotTheme applyPalette(QCustomPlot *plot, const QPalette &palette);

// Data colours, the same under any palette: mid tones that read on a light and a dark background.
enum class DataColour {
    SideA,     // A's boxes and lines
    SideB,     // B's
    Total,     // a waterfall's totals
    Less,      // a change to less time in B (B faster)
    More,      // a change to more time in B (B slower)
    Unchanged, // a change that is no finding
};
QColor dataColour(DataColour colour);

// How many value ticks an axis of this many pixels holds with their labels apart (1 to 5).
int valueTicksThatFit(int axisPixels);

// Of `labels` rows over `axisPixels`, label every 1st, 2nd, 4th, … so that each label has three
// quarters of a line of text (lineHeight pixels, leading included): labels set solid still read.
int labelStep(int labels, double axisPixels, double lineHeight);

// The most characters (16 to 60) that names may keep, as namesAt(chars) shortens them, for every one to
// fit in room px of this font: kernel names as long as a column or a legend entry has room for.
int charsThatFit(const std::function<QStringList(int)> &namesAt, const QFontMetrics &metrics, int room);

// Categories 0, 1, … along an axis of `axisPixels`, named by `labels` in `font`, each shortened in the
// middle to its share of the axis less a gap: long names ran into their neighbours'. Where a name does
// not fit its share, every other one goes a line lower, so that each has twice the room (ten variants
// at 1366 px had read "c…m" for both cb_einsum and cublas_einsum).
QSharedPointer<QCPAxisTickerText> categoryTicker(const QStringList &labels, const QFont &font,
                                                 int axisPixels);

} // namespace scopeline
