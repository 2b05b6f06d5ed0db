// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/scopeboxplot.h"

#include <QFileInfo>

#include <algorithm>

namespace scopeline {

std::vector<BoxPlotView::Group> ScopeBoxPlot::groups(const std::vector<ComparisonRow> &rows,
                                                     const QStringList &scopes, bool pooled)
{
    std::vector<BoxPlotView::Group> groups;
    for (int s = 0; s < scopes.size(); ++s) {
        const QString &scope = scopes[s];
        std::vector<const ComparisonRow *> own;
        for (const ComparisonRow &row : rows)
            if (row.scope == scope && (row.a.n > 0 || row.b.n > 0)) // an empty slot drew nothing
                own.push_back(&row);
        if (own.empty())
            continue;
        auto add = [&](const ComparisonRow &row, const QString &label, const QString &toolTip) {
            BoxPlotView::Group group;
            group.label = label;
            group.toolTip = toolTip;
            group.cluster = s;
            group.clusterLabel = pooled ? QString() : scope;
            group.a = row.a;
            group.b = row.b;
            group.runMediansA = row.runMediansA; // pooled rows only
            group.runMediansB = row.runMediansB;
            groups.push_back(std::move(group));
        };
        if (pooled) {
            // The pooled row when a side has several runs, else the single run pair.
            auto pooledRow = std::find_if(own.begin(), own.end(), [](const ComparisonRow *row) {
                return row->run == QLatin1String("all");
            });
            const ComparisonRow &row = pooledRow != own.end() ? **pooledRow : *own.front();
            add(row, scope, pooledRow != own.end() ? tr("%1 — all runs pooled").arg(scope) : scope);
        } else {
            for (const ComparisonRow *row : own)
                if (row->run != QLatin1String("all"))
                    add(*row, tr("run %1").arg(row->run), tr("%1 — run pair %2").arg(scope, row->run));
        }
    }
    return groups;
}

QString ScopeBoxPlot::noSamplesHint(const std::vector<ComparisonRow> &rows, const QStringList &scopes)
{
    QStringList why;
    for (const QString &scope : scopes) {
        const auto row = std::find_if(rows.begin(), rows.end(), [&](const ComparisonRow &r) {
            return r.scope == scope && r.verdictRow && !r.comparable();
        });
        if (row != rows.end())
            why << tr("%1: %2").arg(scope, row->verdictText());
    }
    return why.isEmpty() ? tr("No samples for the selected scopes")
                         : tr("No samples\n%1").arg(why.join(QLatin1Char('\n')));
}

QString ScopeBoxPlot::samplesTitle(SampleMode samples)
{
    switch (samples) {
    case SampleMode::Kernel:
        return tr("kernel durations");
    case SampleMode::Instance:
        return tr("scope instance durations (sum of kernels)");
    case SampleMode::Span:
        return tr("scope instance GPU spans (first kernel start to last kernel end)");
    }
    return {};
}

QString ScopeBoxPlot::title(SampleMode samples, bool pooled)
{
    QString what = samplesTitle(samples);
    what[0] = what[0].toUpper();
    // what the samples are defined as goes last: where the plot is narrow, the title is elided there,
    // not in "all runs pooled"
    const qsizetype definition = what.indexOf(QLatin1String(" ("));
    const QString defined = definition < 0 ? QString() : what.mid(definition);
    what.truncate(definition < 0 ? what.size() : definition);
    return (pooled ? tr("%1 — all runs pooled%2") : tr("%1 — per run pair%2")).arg(what, defined);
}

QString ScopeBoxPlot::legendLabel(const QString &path, const QString &fallback)
{
    if (path.isEmpty())
        return fallback;
    const QString name = QFileInfo(path).fileName();
    return name.isEmpty() ? path : name;
}

} // namespace scopeline
