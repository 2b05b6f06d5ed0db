// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the scope boxplot shows of comparison rows: one group per selected scope (its pooled row when
// there is one), or per run pair, and the title that says which samples they are. Shared by the
// comparison panel and the report pictures drawn without it.

#include "widgets/charts/boxplotview.h"

#include "model/comparison/scopecomparison.h"

#include <QCoreApplication>
#include <QStringList>

#include <vector>

namespace scopeline {

class ScopeBoxPlot
{
    Q_DECLARE_TR_FUNCTIONS(ScopeBoxPlot)
public:
    static std::vector<BoxPlotView::Group> groups(const std::vector<ComparisonRow> &rows,
                                                  const QStringList &scopes, bool pooled);
    // Why no box is drawn, in the verdicts' words: "No samples", then a line a scope: "zzz: not found".
    static QString noSamplesHint(const std::vector<ComparisonRow> &rows, const QStringList &scopes);
    // What the samples are, in words: "kernel durations".
    static QString samplesTitle(SampleMode samples);
    static QString title(SampleMode samples, bool pooled);
    // A side's name in the legend: the last component of its path, `fallback` without one.
    static QString legendLabel(const QString &path, const QString &fallback);
};

} // namespace scopeline
