// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/report/reportcharts.h"

#include "model/comparison/sweep.h"
#include "widgets/charts/boxplotview.h"
#include "widgets/charts/contributionchart.h"
#include "widgets/charts/rankbars.h"
#include "widgets/charts/scopeboxplot.h"
#include "widgets/charts/steptimechart.h"
#include "widgets/charts/stepwaterfall.h"
#include "widgets/charts/variantbars.h"
#include "widgets/panels/comparisonpanel.h"
#include "widgets/panels/kerneldiffview.h"
#include "widgets/panels/stepbreakdownview.h"
#include "widgets/timeline/pairtimeline.h"
#include "widgets/timeline/timelinepainter.h"
#include "widgets/timeline/timelinerows.h"
#include "widgets/timeline/timelineview.h"

#include <QCoreApplication>
#include <QPainter>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace scopeline::ReportCharts {

namespace {

// Lays a widget out at `size` without putting it on a screen, so that it paints as it would shown.
void layOut(QWidget &widget, QSize size)
{
    widget.setAttribute(Qt::WA_DontShowOnScreen);
    widget.resize(size);
    widget.show();
    QCoreApplication::processEvents();
}

// The window of a run's GPU activity, first kernel start to last kernel end; {0, 0} without kernels.
std::pair<int64_t, int64_t> kernelWindow(const LoadedRun &run)
{
    if (!run.analysis || run.analysis->kernels().empty())
        return {0, 0};
    const int64_t start = run.trace->start[run.analysis->kernels().front()];
    return {start, start + run.analysis->total().spanNs};
}

// The waterfall's share of the steps picture's height: six bars need less than the step times.
constexpr double kWaterfallShare = 0.4;

QSize waterfallSize()
{
    return {chartSize().width(), int(chartSize().height() * kWaterfallShare)};
}

QSize stepTimesSize()
{
    return {chartSize().width(), chartSize().height() - waterfallSize().height()};
}

} // namespace

QSize chartSize()
{
    return {1400, 800};
}

QImage plotImage(QCustomPlot *plot)
{
    return plot ? plot->toPixmap(chartSize().width(), chartSize().height()).toImage() : QImage();
}

ReportExporter::Timeline timelineImage(TimelineView &view)
{
    ReportExporter::Timeline timeline;
    timeline.run = view.run().run.label();
    timeline.missing = timelinePlaceholder(view.run());
    if (!timeline.missing.isEmpty())
        return timeline;
    if (view.width() > 0 && view.height() > 0) {
        // Every row, none behind a scroll bar: the view is grabbed at the height its rows need (up to
        // a tall page), then given back its size.
        TimelineRows rows;
        rows.reset(view.layout());
        constexpr int kMaxTimelineHeight = 1800;
        const int full =
            std::min(kMaxTimelineHeight, timelinemetrics::kAxisHeight + rows.contentHeight() + 2);
        const QSize shown = view.size();
        const int scroll = view.verticalScroll();
        if (full > shown.height())
            view.resize(shown.width(), full);
        timeline.image = view.grab().toImage();
        if (view.size() != shown) {
            view.resize(shown);
            if (view.verticalScroll() != scroll)
                view.setVerticalScroll(scroll);
        }
    }
    if (view.run().trace)
        timeline.shownNs = std::max<int64_t>(0, view.visibleEnd() - view.visibleStart());
    return timeline;
}

ReportExporter::Input fromViews(const ComparisonPanel &panel, const KernelDiffView *diffView,
                                TimelineView &timelineA, TimelineView &timelineB)
{
    ReportExporter::Input input;
    input.rows = panel.rowsAsCompared(); // as the CLI's report writes them
    input.scopes = panel.selectedScopes();
    input.match = panel.matchMode();
    input.samples = panel.sampleMode();
    input.threshold = panel.threshold();
    input.pooled = panel.pooled();
    input.boxplot = plotImage(panel.plot());
    if (diffView && diffView->diff()) {
        input.diff = diffView->diff();
        input.diffChart = plotImage(diffView->chart()->plot());
    }
    if (diffView && diffView->stepView()->breakdown()) {
        const StepBreakdownView *steps = diffView->stepView();
        input.steps = steps->breakdown();
        input.stepsChart = stepsImage(steps->waterfall()->plot(), steps->stepChart()->plot());
    }
    input.timelineA = timelineImage(timelineA);
    input.timelineB = timelineImage(timelineB);
    return input;
}

QImage boxplotImage(const std::vector<ComparisonRow> &rows, const QStringList &scopes, SampleMode samples,
                    bool pooled, const QString &labelA, const QString &labelB, bool ranked)
{
    BoxPlotView view;
    view.setRanked(ranked);
    view.setLabels(ScopeBoxPlot::legendLabel(labelA, QStringLiteral("A")),
                   ScopeBoxPlot::legendLabel(labelB, QStringLiteral("B")));
    view.setTitle(ScopeBoxPlot::title(samples, pooled));
    view.setHint(ScopeBoxPlot::noSamplesHint(rows, scopes));
    view.setGroups(ScopeBoxPlot::groups(rows, scopes, pooled));
    layOut(view, chartSize());
    return plotImage(view.plot());
}

QImage diffChartImage(const KernelDiff &diff)
{
    ContributionChart chart;
    layOut(chart, chartSize()); // the bars that fit depend on the height
    chart.setDiff(&diff);
    QCoreApplication::processEvents();
    return plotImage(chart.plot());
}

QImage stepsImage(QCustomPlot *waterfall, QCustomPlot *stepTimes)
{
    if (!waterfall || !stepTimes)
        return {};
    QImage image(chartSize(), QImage::Format_RGB32);
    image.fill(Qt::white); // covered by the two plots
    QPainter painter(&image);
    painter.drawPixmap(0, 0, waterfall->toPixmap(waterfallSize().width(), waterfallSize().height()));
    painter.drawPixmap(0, waterfallSize().height(),
                       stepTimes->toPixmap(stepTimesSize().width(), stepTimesSize().height()));
    return image;
}

QImage stepsChartImage(const StepBreakdown &steps, const QString &labelA, const QString &labelB)
{
    StepWaterfall waterfall;
    StepTimeChart stepTimes;
    layOut(waterfall, waterfallSize()); // the room for the value labels depends on the width
    layOut(stepTimes, stepTimesSize());
    waterfall.setBreakdown(&steps);
    stepTimes.setLabels(labelA, labelB);
    stepTimes.setBreakdown(&steps);
    QCoreApplication::processEvents();
    return stepsImage(waterfall.plot(), stepTimes.plot());
}

QImage ranksChartImage(const RankTable &ranks)
{
    std::vector<std::pair<QString, std::vector<RankRow>>> runs; // a side's first run with ranks, titled
    for (int side = 0; side < 2; ++side) {
        std::vector<RankRow> rows;
        for (const RankRow &row : ranks.rows())
            if (row.side == side && row.rank >= 0 && (rows.empty() || row.run == rows.front().run))
                rows.push_back(row);
        if (!rows.empty())
            runs.emplace_back(QStringLiteral("%1 %2").arg(
                                  side == 0 ? QStringLiteral("A") : QStringLiteral("B"), rows.front().run),
                              std::move(rows));
    }
    if (runs.empty())
        return {};
    constexpr int kTitleHeight = 28;
    QImage image(chartSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    const int width = chartSize().width() / int(runs.size()), height = chartSize().height() - kTitleHeight;
    double longest = 0; // one scale, one unit, for both sides
    for (const auto &run : runs)
        for (const RankRow &row : run.second)
            if (!std::isnan(row.stepNs))
                longest = std::max(longest, row.stepNs);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        RankBars bars;
        layOut(bars, QSize(width, height));
        bars.setScale(longest);
        bars.setRows(runs[i].second);
        painter.drawText(QRect(int(i) * width, 0, width, kTitleHeight), Qt::AlignCenter, runs[i].first);
        painter.drawPixmap(int(i) * width, kTitleHeight, bars.plot()->toPixmap(width, height));
    }
    return image;
}

QImage variantsChartImage(const VariantSteps &steps, const VariantDiff *diff, const QStringList &labels)
{
    VariantBars bars;
    layOut(bars, chartSize());
    // a sweep as the Variants tab draws one: every label a number, three or more
    bars.setVariants(&steps, diff, labels,
                     labels.size() >= 3 ? Sweep::parameters(labels) : std::vector<double>{});
    QCoreApplication::processEvents(); // the names under the bars fitted to them
    return plotImage(bars.plot());
}

std::pair<ReportExporter::Timeline, ReportExporter::Timeline>
gpuActivityTimelines(const LoadedRun &a, const LoadedRun &b, const QString &labelA, const QString &labelB,
                     QSize size)
{
    PairTimeline timelines;
    layOut(timelines, size);
    timelines.setZoomLocked(true);
    timelines.setRuns(a, b, labelA, labelB);
    // The GPU activity rather than the whole capture (profiler start/stop around it).
    const auto windowA = kernelWindow(a), windowB = kernelWindow(b);
    const int64_t span = std::max(windowA.second - windowA.first, windowB.second - windowB.first);
    if (span > 0) {
        const int64_t margin = std::max<int64_t>(span / 50, 1);
        const std::pair<TimelineView *, int64_t> views[] = {{timelines.viewA(), windowA.first},
                                                            {timelines.viewB(), windowB.first}};
        for (const auto &[view, start] : views)
            if (view->run().ok())
                view->setVisibleRange(start - margin, start + span + margin);
    }
    QCoreApplication::processEvents();
    return {timelineImage(*timelines.viewA()), timelineImage(*timelines.viewB())};
}

} // namespace scopeline::ReportCharts
