// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/waterfallplot.h"

#include "widgets/charts/durationunit.h"

#include "model/tables/durationformat.h"

#include <QCoreApplication>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace scopeline {

namespace {
constexpr double kBarHalf = 0.36;
struct WaterfallPlotText
{
    Q_DECLARE_TR_FUNCTIONS(WaterfallPlot)
};
} // namespace

void drawWaterfall(QCustomPlot *plot, const PlotTheme &theme, const std::vector<WaterfallBar> &bars,
                   const QString &axisLabel)
{
    plot->clearItems();
    plot->xAxis->setVisible(true);
    plot->yAxis->setVisible(true);
    // where each bar's value label starts: right of the bar and of its error bar
    auto labelAt = [](const WaterfallBar &b) {
        double at = std::max(b.from, b.to);
        for (double end : {b.from + b.ciLow, b.from + b.ciHigh})
            if (!std::isnan(end))
                at = std::max(at, end);
        return at;
    };
    double low = HUGE_VAL, high = -HUGE_VAL;
    for (const WaterfallBar &b : bars)
        for (double end : {b.total ? b.to : b.from, b.to, b.from + b.ciLow, b.from + b.ciHigh})
            if (!std::isnan(end)) {
                low = std::min(low, end);
                high = std::max(high, end);
            }
    if (!(low <= high))
        low = high = 0;
    const double pad = std::max(0.1 * (high - low), 1e-3 * std::max(1.0, high));
    double left = std::max(0.0, low - pad);
    if (left < 0.5 * high || high == low)
        left = 0; // zero is near, or nothing moved (a pad of 0.1 % framed 14 ms as 13.97–13.99): to scale
    // The right end leaves room for the widest value label, in pixels of the plot as it is now sized
    // (less the tick labels and margins).
    const QFontMetrics metrics(plot->font());
    int tickLabels = 0;
    for (const WaterfallBar &b : bars)
        tickLabels = std::max(tickLabels, metrics.horizontalAdvance(b.label));
    const double axisPixels = std::max(160, plot->width() - tickLabels - 40);
    // a bar keeps at least 40 px; a value that would leave it less is shown short where it has a short form
    const auto valueOf = [&](const WaterfallBar &b) {
        return !b.shortValue.isEmpty() && axisPixels - metrics.horizontalAdvance(b.value) - 12 < 40
                   ? b.shortValue
                   : b.value;
    };
    double perPixel = (high + pad - left) / axisPixels;
    for (const WaterfallBar &b : bars)
        perPixel =
            std::max(perPixel, (labelAt(b) - left) /
                                   std::max(40.0, axisPixels - metrics.horizontalAdvance(valueOf(b)) - 12));
    const double right = left + perPixel * axisPixels;
    const DurationUnit unit = DurationUnit::fitting(std::max(std::fabs(low), std::fabs(high)));

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const WaterfallBar &b = bars[i];
        const double y = double(i);
        auto *rect = new QCPItemRect(plot);
        rect->topLeft->setCoords(std::min(b.from, b.to) / unit.ns, y - kBarHalf);
        rect->bottomRight->setCoords(std::max(b.from, b.to) / unit.ns, y + kBarHalf);
        rect->setBrush(b.colour);
        rect->setPen(b.current ? QPen(theme.text, 2) : QPen(theme.edge(b.colour, 130)));
        rect->setSelectable(false);
        if (b.total && left > 0 && std::min(b.from, b.to) < left) {
            // The axis does not start at zero: the total is cut, and says so with a break mark
            // (two slanted gaps) near the axis, so that its length is not read as the whole.
            for (int k = 0; k < 2; ++k) {
                const double x = (left + (8 + 5 * k) * perPixel) / unit.ns;
                auto *mark = new QCPItemLine(plot);
                mark->start->setCoords(x - 3 * perPixel / unit.ns, y + kBarHalf + 0.12);
                mark->end->setCoords(x + 3 * perPixel / unit.ns, y - kBarHalf - 0.12);
                mark->setPen(QPen(theme.background, 2.5));
                mark->setSelectable(false);
                mark->setObjectName(QStringLiteral("axisBreak"));
            }
        }
        if (!std::isnan(b.ciLow) && !std::isnan(b.ciHigh)) {
            // An interval reaching below the axis's start (0, or a cut axis's start) is cut there, its
            // end an arrow that says it goes on, not a cap read as its end.
            const double from = b.from + b.ciLow, to = b.from + b.ciHigh;
            auto *ci = new QCPItemLine(plot);
            ci->start->setCoords(std::max(from, left) / unit.ns, y);
            ci->end->setCoords(to / unit.ns, y);
            ci->setPen(QPen(theme.strongText, 1.3));
            ci->setHead(QCPLineEnding(QCPLineEnding::esBar, 10));
            ci->setTail(from < left ? QCPLineEnding(QCPLineEnding::esFlatArrow, 8, 8)
                                    : QCPLineEnding(QCPLineEnding::esBar, 10));
            ci->setSelectable(false);
            ci->setObjectName(from < left ? QStringLiteral("intervalCut") : QString());
        }
        auto *text = new QCPItemText(plot);
        text->position->setCoords(labelAt(b) / unit.ns, y);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        text->setPadding(QMargins(4, 0, 0, 0));
        text->setText(valueOf(b));
        text->setColor(theme.strongText);
        text->setSelectable(false);
        ticker->addTick(y, b.label);
    }
    plot->yAxis->setTicker(ticker);
    plot->yAxis->setRange(-0.6, double(bars.size()) - 0.4);
    // the value axis tight under the bars, which need the height more
    plot->xAxis->setTickLabelPadding(2);
    plot->xAxis->setLabelPadding(1);
    plot->xAxis->setRange(left / unit.ns, right / unit.ns);
    // Value ticks apart on a narrow chart: each label as wide as the axis's longest number and an em.
    const QFontMetrics tickMetrics(plot->xAxis->tickLabelFont());
    const int tickPixels =
        tickMetrics.horizontalAdvance(QString::number(-right / unit.ns, 'g', 5)) + tickMetrics.height();
    plot->xAxis->ticker()->setTickCount(std::clamp(int(axisPixels) / std::max(1, tickPixels), 2, 5));
    plot->xAxis->setLabel(left > 0 ? WaterfallPlotText::tr("%1 from %2 //")
                                         .arg(axisLabel.arg(unit.name), formatDuration(left))
                                   : axisLabel.arg(unit.name));
    plot->replot(QCustomPlot::rpQueuedReplot);
}

void drawWaterfallHint(QCustomPlot *plot, const PlotTheme &theme, const QString &hint)
{
    plot->clearItems();
    plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot->xAxis->setVisible(false);
    plot->yAxis->setVisible(false); // its line alone, a stroke at the left
    auto *text = new QCPItemText(plot);
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(0.5, 0.5);
    text->setText(hint);
    text->setColor(theme.dimText);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

int waterfallBarAt(const QCustomPlot *plot, const QPoint &pos, int count)
{
    const long bar = std::lround(plot->yAxis->pixelToCoord(pos.y()));
    return bar >= 0 && bar < count ? int(bar) : -1;
}

} // namespace scopeline
