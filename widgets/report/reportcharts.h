// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The pictures of a report (ReportExporter::Input): taken from the views a window shows, or drawn off
// screen from data by the same chart classes, for a report made without a window (scopeline-cli).

#include "widgets/report/reportexporter.h"

#include <QImage>
#include <QSize>

#include <utility>

class QCustomPlot;

namespace scopeline {

class ComparisonPanel;
class KernelDiffView;
class TimelineView;

namespace ReportCharts {

// The size of the boxplot and diff chart pictures.
QSize chartSize();

// From a window's views, as they are shown.
QImage plotImage(QCustomPlot *plot);
ReportExporter::Timeline timelineImage(TimelineView &view);
// The comparison, the kernel diff and the step breakdown (optional) and the timelines as the views show
// them; the caller adds the sides' labels and runs. The diff and the breakdown stay the view's: export
// before they change.
ReportExporter::Input fromViews(const ComparisonPanel &panel, const KernelDiffView *diffView,
                                TimelineView &timelineA, TimelineView &timelineB);

// Drawn off screen (needs a QApplication).
// ranked: the runs span GPUs (BoxPlotView::setRanked).
QImage boxplotImage(const std::vector<ComparisonRow> &rows, const QStringList &scopes, SampleMode samples,
                    bool pooled, const QString &labelA, const QString &labelB, bool ranked = false);
QImage diffChartImage(const KernelDiff &diff);
// The step waterfall over the step times, chartSize() in all; from the views or drawn off screen.
QImage stepsImage(QCustomPlot *waterfall, QCustomPlot *stepTimes);
QImage stepsChartImage(const StepBreakdown &steps, const QString &labelA, const QString &labelB);
// Runs of several GPUs: the first run of each side, its ranks' bars (RankBars), A's beside B's.
QImage ranksChartImage(const RankTable &ranks);
// More than two variants: each one's mean step (VariantBars; a sweep's lines when every label is a
// number), labels the baseline's first.
QImage variantsChartImage(const VariantSteps &steps, const VariantDiff *diff, const QStringList &labels);
// A's and B's timelines, stacked in `size` as the window shows them, each from its first kernel over
// the same length of time (the longer GPU activity of the two, with a small margin).
std::pair<ReportExporter::Timeline, ReportExporter::Timeline>
gpuActivityTimelines(const LoadedRun &a, const LoadedRun &b, const QString &labelA, const QString &labelB,
                     QSize size = QSize(1400, 900));

} // namespace ReportCharts

} // namespace scopeline
