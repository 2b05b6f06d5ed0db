// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/variantscopes.h"

#include "model/tables/tableformat.h"

#include "stats/descriptive.h"
#include "stats/multipletesting.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace scopeline {

namespace {

// A variant's units' medians of a scope: each run's median of its samples (runs without any left
// out), averaged over each process when the units are processes: when any variant (`widest`, the one
// of most processes) has several, every variant's units are processes, one unit for a variant of one.
std::vector<double> unitMedians(const QList<LoadedRun> &runs, const QList<LoadedRun> &widest,
                                const ScopeMatcher &matcher, SampleMode samples)
{
    std::vector<double> perRun;
    for (const ScopeIndex *index : scopeIndexes(runs)) {
        const std::vector<double> values = index->samples(matcher, samples);
        perRun.push_back(values.empty() ? std::nan("") : stats::median(values));
    }
    std::vector<double> units;
    for (double v : Replication::of(runs, widest).unitValues(0, perRun))
        if (!std::isnan(v))
            units.push_back(v);
    return units;
}

} // namespace

VariantScopes::VariantScopes(const QList<LoadedRun> &baseline,
                             const std::vector<QList<LoadedRun>> &candidates, const QStringList &labels,
                             const QStringList &scopes, MatchMode match, SampleMode samples, double alpha)
    : m_labels(labels)
{
    m_replications.reserve(candidates.size()); // the comparisons keep pointers to them
    std::vector<std::vector<ComparisonRow> *> sets;
    std::vector<const Replication *> replications;
    m_rows.reserve(candidates.size());
    for (const QList<LoadedRun> &candidate : candidates) {
        m_replications.push_back(Replication::of(baseline, candidate));
        ScopeComparison comparison(scopeIndexes(baseline), scopeIndexes(candidate));
        comparison.setReplication(&m_replications.back());
        comparison.setAlpha(alpha);
        comparison.setJudgedAgain(true); // with the other candidates, below
        m_rows.push_back(comparison.compare(scopes, match, samples));
    }
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        sets.push_back(&m_rows[i]);
        replications.push_back(&m_replications[i]);
    }
    ScopeComparison::judgeTogether(sets, replications, alpha);

    // One unit for every variant: processes when any variant has several (Replication's rule).
    std::vector<QList<LoadedRun>> variants{baseline};
    variants.insert(variants.end(), candidates.begin(), candidates.end());
    std::vector<int> processes;
    for (const QList<LoadedRun> &runs : variants)
        processes.push_back(Replication::of(runs, {}).processes(0));
    const QList<LoadedRun> &widest =
        variants[std::size_t(std::max_element(processes.begin(), processes.end()) - processes.begin())];
    QStringList oneProcess; // variants of one process among variants of several: one unit each
    for (std::size_t v = 0; v < variants.size(); ++v)
        if (processes[v] == 1 && Replication::of(variants[v], widest).byProcess())
            oneProcess << (v == 0 ? QCoreApplication::translate("VariantScopes", "the baseline")
                                  : labels.value(qsizetype(v) - 1));
    std::vector<double> p;
    for (const QString &scope : scopes) {
        const ScopeMatcher matcher(scope, match);
        ScopeAcrossVariants across;
        across.scope = scope;
        for (const QList<LoadedRun> &runs : variants)
            across.unitMedians.push_back(unitMedians(runs, widest, matcher, samples));
        across.byProcess = processes[std::size_t(&widest - variants.data())] > 1;
        across.test = stats::kruskalWallis(across.unitMedians);
        if (std::all_of(across.unitMedians.begin(), across.unitMedians.end(),
                        [](const std::vector<double> &units) { return units.size() <= 1; })) {
            across.test.p = std::numeric_limits<double>::quiet_NaN();
            across.reason = QCoreApplication::translate("VariantScopes", "one unit a variant: not tested");
        } else if (std::isnan(across.test.p)) {
            across.reason =
                across.test.groups < 2
                    ? QCoreApplication::translate("VariantScopes", "fewer than 2 variants with samples")
                    : QCoreApplication::translate("VariantScopes", "every run median the same: not tested");
        } else {
            for (const Replication &replication : m_replications)
                if (across.caveat.isEmpty())
                    across.caveat = replication.caveat();
            if (across.caveat.isEmpty() && !oneProcess.isEmpty())
                across.caveat = QCoreApplication::translate("VariantScopes",
                                                            "units: processes; %1 of one process, one unit")
                                    .arg(oneProcess.join(QStringLiteral(", ")));
        }
        p.push_back(across.test.p);
        m_across.push_back(std::move(across));
    }
    const std::vector<double> holm = stats::holmAdjust(p);
    for (std::size_t i = 0; i < m_across.size(); ++i)
        m_across[i].pHolm = holm[i];
}

double ScopeAcrossVariants::spread() const
{
    double low = std::numeric_limits<double>::infinity(), high = 0;
    for (const std::vector<double> &units : unitMedians)
        if (!units.empty()) {
            const double median = stats::median(units);
            low = std::min(low, median);
            high = std::max(high, median);
        }
    return low > 0 && std::isfinite(low) ? high / low - 1 : std::nan("");
}

QString ScopeAcrossVariants::text(double alpha, double threshold) const
{
    if (!reason.isEmpty())
        return reason;
    // how p was found: with a few runs a variant the chi-squared one would be smaller than it can be
    const QString p = test.method == stats::KruskalMethod::ChiSquared
                          ? QStringLiteral("p")
                          : QString::fromLatin1(stats::kruskalMethodName(test.method)) + QStringLiteral(" p");
    // the test's own p, then what Holm over the scopes made of it where that differs
    QString line =
        QStringLiteral("H %1, %2 %3").arg(QString::number(test.h, 'g', 4), p, formatPValue(test.p));
    if (formatPValue(pHolm) != formatPValue(test.p))
        line += QCoreApplication::translate("VariantScopes", ", Holm p %1").arg(formatPValue(pHolm));
    if (test.minP >= alpha) // exact, and the medians wholly apart would not be a finding either
        line += QCoreApplication::translate("VariantScopes", " (so few runs give no p under %1)")
                    .arg(formatPValue(test.minP));
    if (pHolm < alpha)
        line += spread() >= threshold
                    ? QCoreApplication::translate("VariantScopes", ": the variants differ")
                    : QCoreApplication::translate(
                          "VariantScopes", ": no meaningful difference (their medians within %1 of each "
                                           "other, under the %2 threshold)")
                          .arg(formatPercent(spread()), formatPercent(threshold));
    return caveat.isEmpty() ? line : line + QStringLiteral("; ") + caveat;
}

QString VariantScopes::toCsv(double alpha, double threshold) const
{
    std::vector<const std::vector<ComparisonRow> *> tables;
    for (const std::vector<ComparisonRow> &rows : m_rows)
        tables.push_back(&rows);
    return variantTableCsv(ScopeComparison::columns(alpha, threshold), m_labels, tables);
}

} // namespace scopeline
