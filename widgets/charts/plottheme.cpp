// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/plottheme.h"

#include "widgets/timeline/timelinetheme.h"

#include <qcustomplot.h>

#include <algorithm>

namespace scopeline {

namespace {

QPen withColour(QPen pen, const QColor &colour)
{
    pen.setColor(colour);
    return pen;
}

QColor withAlpha(QColor colour, int alpha)
{
    colour.setAlpha(alpha);
    return colour;
}

} // namespace

PlotTheme PlotTheme::fromPalette(const QPalette &palette)
{
    PlotTheme th;
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    // the timeline's notion of dark, so that charts and timeline agree
    th.dark = TimelineTheme::fromPalette(palette).dark;
    // ink(k): k/255 of the way from the background to the text; on white with black text that is the
    // grey 255 - k, so the light look (and the reports drawn with it) keeps its greys exactly
    auto ink = [&](int k) { return TimelineTheme::mix(base, text, k / 255.0); };

    th.background = base;
    th.text = text;
    th.strongText = ink(195);
    th.axisLine = ink(165);
    th.dimText = ink(135);
    // translucent, so that lines stay faint over the background and over data
    th.grid = withAlpha(text, th.dark ? 40 : 28);
    th.zeroLine = ink(55);
    th.separator = withAlpha(text, th.dark ? 56 : 40);
    th.markerOutline = QColor(40, 40, 40);
    th.markerFill = Qt::white;
    return th;
}

QColor PlotTheme::edge(const QColor &fill, int factor) const
{
    return dark ? fill.lighter(factor) : fill.darker(factor);
}

PlotTheme applyPalette(QCustomPlot *plot, const QPalette &palette)
{
    const PlotTheme theme = PlotTheme::fromPalette(palette);
    plot->setBackground(theme.background);
    const auto themeAxis = [&theme](QCPAxis *axis) {
        axis->setBasePen(withColour(axis->basePen(), theme.text));
        axis->setTickPen(withColour(axis->tickPen(), theme.text));
        axis->setSubTickPen(withColour(axis->subTickPen(), theme.text));
        axis->setTickLabelColor(theme.text);
        axis->setLabelColor(theme.text);
        QCPGrid *grid = axis->grid();
        grid->setPen(withColour(grid->pen(), theme.grid));
        grid->setSubGridPen(withColour(grid->subGridPen(), theme.grid));
        grid->setZeroLinePen(withColour(grid->zeroLinePen(), theme.zeroLine));
    };
    for (QCPAxisRect *rect : plot->axisRects())
        for (QCPAxis *axis : rect->axes())
            themeAxis(axis);
    // Legends, titles and colour scales wherever the layout holds them (a legend may have left its axis
    // rect's inset).
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true)) {
        if (auto *scale = qobject_cast<QCPColorScale *>(element))
            themeAxis(scale->axis());
        else if (auto *legend = qobject_cast<QCPLegend *>(element)) {
            legend->setTextColor(theme.text); // for entries added later
            legend->setBorderPen(withColour(legend->borderPen(), theme.text));
            QBrush brush = legend->brush();
            brush.setColor(theme.background);
            legend->setBrush(brush);
        } else if (auto *item = qobject_cast<QCPAbstractLegendItem *>(element)) {
            item->setTextColor(theme.text); // an entry copies its legend's colour when made
        } else if (auto *title = qobject_cast<QCPTextElement *>(element)) {
            title->setTextColor(theme.strongText);
        }
    }
    return theme;
}

int valueTicksThatFit(int axisPixels)
{
    constexpr int kTickPixels = 24; // a tick label's height and a gap
    return std::clamp(axisPixels / kTickPixels, 1, 5);
}

int labelStep(int labels, double axisPixels, double lineHeight)
{
    const double perRow = axisPixels / std::max(1, labels);
    int every = 1;
    while (every < labels && perRow * every < 0.75 * lineHeight)
        every *= 2;
    return every;
}

QSharedPointer<QCPAxisTickerText> categoryTicker(const QStringList &labels, const QFont &font, int axisPixels)
{
    const int share = axisPixels / std::max<int>(1, int(labels.size()));
    const QFontMetrics metrics(font);
    const bool staggered =
        labels.size() > 1 && std::any_of(labels.begin(), labels.end(), [&](const QString &label) {
            return metrics.horizontalAdvance(label) > share - 8;
        });
    const int width = std::max(0, (staggered ? 2 * share : share) - 8);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < labels.size(); ++i) {
        // "…" where nothing fits (an axis not laid out yet): QCustomPlot draws an empty label into an
        // empty pixmap, which Qt warns of
        const QString elided = metrics.elidedText(labels[i], Qt::ElideMiddle, width);
        ticker->addTick(double(i), (staggered && i % 2 ? QStringLiteral("\n") : QString()) +
                                       (elided.isEmpty() ? QStringLiteral("…") : elided));
    }
    return ticker;
}

QColor dataColour(DataColour colour)
{
    switch (colour) {
    case DataColour::SideA:
        return {31, 119, 180};
    case DataColour::SideB:
        return {236, 112, 20};
    case DataColour::Total:
        return {150, 156, 166};
    case DataColour::Less:
        return {46, 160, 67};
    case DataColour::More:
        return {214, 69, 65};
    case DataColour::Unchanged:
        break;
    }
    return {196, 200, 207};
}

int charsThatFit(const std::function<QStringList(int)> &namesAt, const QFontMetrics &metrics, int room)
{
    const auto fits = [&](int chars) {
        const QStringList names = namesAt(chars);
        return std::all_of(names.begin(), names.end(),
                           [&](const QString &name) { return metrics.horizontalAdvance(name) <= room; });
    };
    int lo = 16, hi = 60; // by bisection: 16 at the least (short, and told apart)
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (fits(mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

} // namespace scopeline
