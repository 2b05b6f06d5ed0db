// SPDX-License-Identifier: GPL-3.0-or-later
#include "scopecomparison.h"

#include "csvfield.h"
#include "replication.h"

#include "verdict.h"

#include "stats/multipletesting.h"
#include "stats/welch.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <map>

namespace scopeline {

namespace {

ComparisonRow makeRow(const QString &scope, const QString &run, const std::vector<double> &a,
                      const std::vector<double> &b)
{
    ComparisonRow row;
    row.scope = scope;
    row.run = run;
    row.runsA = a.empty() ? 0 : 1;
    row.runsB = b.empty() ? 0 : 1;
    row.a = stats::describe(a);
    row.b = stats::describe(b);
    const double nan = std::nan("");
    if (!row.comparable()) {
        row.rankSum = {nan, nan};
        row.mannWhitney = {nan, nan, false};
        row.shift = {nan, nan, nan};
        row.relativeChange = row.cliffsDelta = row.rankSumHolm = row.mannWhitneyHolm = nan;
        return row;
    }
    row.rankSum = stats::rankSum(a, b);
    row.mannWhitney = stats::mannWhitneyU(a, b);
    row.shift = stats::hodgesLehmann(a, b);
    row.relativeChange = stats::relativeMedianChange(a, b);
    row.cliffsDelta = stats::cliffsDelta(a, b);
    return row;
}

// The pooled row: every sample of every run, plus the run-level test on the run medians.
ComparisonRow makePooledRow(const QString &scope, const std::vector<std::vector<double>> &a,
                            const std::vector<std::vector<double>> &b, const Replication *replication)
{
    auto concatenated = [](const std::vector<std::vector<double>> &runs) {
        std::vector<double> all;
        for (const std::vector<double> &samples : runs)
            all.insert(all.end(), samples.begin(), samples.end());
        return all;
    };
    auto medians = [](const std::vector<std::vector<double>> &runs) {
        std::vector<double> out;
        for (const std::vector<double> &samples : runs)
            out.push_back(stats::median(samples)); // NaN without samples: that run does not count
        return out;
    };
    std::vector<double> all = concatenated(a);
    const std::vector<double> allB = concatenated(b);
    ComparisonRow row = makeRow(scope, QStringLiteral("all"), all, allB);
    row.runMediansA = medians(a);
    row.runMediansB = medians(b);
    all.insert(all.end(), allB.begin(), allB.end());
    const double step = stats::timerStep(all); // how closely a tie of run medians is known
    // The units: processes when the runs' processes are known and a side has ≥ 2, else the runs.
    row.runLevel = stats::runLevelTest(
        replication ? replication->unitValues(0, row.runMediansA) : row.runMediansA,
        replication ? replication->unitValues(1, row.runMediansB) : row.runMediansB, 0.95, step);
    if (replication && row.runLevel.valid())
        row.caveat = replication->caveat();
    row.runsA = std::size_t(std::count_if(row.runMediansA.begin(), row.runMediansA.end(),
                                          [](double m) { return !std::isnan(m); }));
    row.runsB = std::size_t(std::count_if(row.runMediansB.begin(), row.runMediansB.end(),
                                          [](double m) { return !std::isnan(m); }));
    return row;
}

} // namespace

Verdict ComparisonRow::verdict(double alpha, double threshold) const
{
    if (!comparable())
        return a.n == 0 && b.n == 0 ? Verdict::NotFound : a.n == 0 ? Verdict::OnlyInB : Verdict::OnlyInA;
    // The run is the unit of replication: when runs were repeated, their spread is the noise, and the
    // rule is the one the kernel diff uses. Otherwise the per-sample test of the seed's analysis.
    if (hasRunLevel())
        return runLevelVerdict(runLevelHolm, runLevel.change, alpha, threshold);
    if (!(mannWhitneyHolm < alpha))
        return Verdict::NoSignificantChange;
    if (std::fabs(relativeChange) < threshold)
        return Verdict::NoMeaningfulChange;
    return relativeChange < 0 ? Verdict::Faster : Verdict::Slower;
}

QString ComparisonRow::verdictText(double alpha, double threshold) const
{
    const Verdict v = verdict(alpha, threshold);
    const QString text = scopeline::verdictText(v);
    const bool found = v == Verdict::Faster || v == Verdict::Slower || v == Verdict::NoMeaningfulChange;
    if (!found || hasRunLevel() || !verdictRow)
        return text;
    // A per-sample finding: samples of one run share its conditions, so it may be that run's luck.
    if (std::min(runsA, runsB) < 2)
        return QCoreApplication::translate("ScopeComparison", "%1 (1 run: run-to-run variation not measured)")
            .arg(text);
    return QCoreApplication::translate("ScopeComparison", "%1 (run-to-run variation not measured)").arg(text);
}

ScopeComparison::ScopeComparison(std::vector<const ScopeIndex *> sideA, std::vector<const ScopeIndex *> sideB)
    : m_a(std::move(sideA)), m_b(std::move(sideB))
{}

std::vector<ComparisonRow> ScopeComparison::compare(const QStringList &scopes, MatchMode match,
                                                    SampleMode samples) const
{
    std::vector<ComparisonRow> rows;
    const std::size_t pairs = std::min(m_a.size(), m_b.size());
    const bool pool = m_a.size() > 1 || m_b.size() > 1;
    for (const QString &scope : scopes) {
        const ScopeMatcher matcher(scope, match);
        auto perRun = [&](const std::vector<const ScopeIndex *> &side) {
            std::vector<std::vector<double>> out;
            for (const ScopeIndex *run : side)
                out.push_back(run->samples(matcher, samples));
            return out;
        };
        const std::vector<std::vector<double>> a = perRun(m_a), b = perRun(m_b);
        for (std::size_t i = 0; i < pairs; ++i) {
            rows.push_back(makeRow(scope, QString::number(i + 1), a[i], b[i]));
            rows.back().verdictRow = !pool;
        }
        if (pool) {
            rows.push_back(makePooledRow(scope, a, b, m_replication));
            rows.back().verdictRow = true;
        }
    }

    // Holm within each run pair: the scopes tested together are one family.
    std::map<QString, std::vector<std::size_t>> families;
    for (std::size_t r = 0; r < rows.size(); ++r)
        families[rows[r].run].push_back(r);
    for (const auto &family : families) {
        std::vector<double> rankSumP, mannWhitneyP;
        for (std::size_t r : family.second) {
            rankSumP.push_back(rows[r].rankSum.p);
            mannWhitneyP.push_back(rows[r].mannWhitney.p);
        }
        const std::vector<double> rankSumAdjusted = stats::holmAdjust(rankSumP);
        const std::vector<double> mannWhitneyAdjusted = stats::holmAdjust(mannWhitneyP);
        for (std::size_t i = 0; i < family.second.size(); ++i) {
            rows[family.second[i]].rankSumHolm = rankSumAdjusted[i];
            rows[family.second[i]].mannWhitneyHolm = mannWhitneyAdjusted[i];
        }
    }
    // The run-level tests of the pooled rows are one family too (NaN, not counted, where invalid).
    std::vector<std::size_t> pooledRows;
    std::vector<double> runLevelP;
    for (std::size_t r = 0; r < rows.size(); ++r)
        if (rows[r].isPooled()) {
            pooledRows.push_back(r);
            runLevelP.push_back(rows[r].runLevel.p);
        }
    const std::vector<double> runLevelAdjusted = stats::holmAdjust(runLevelP);
    for (std::size_t i = 0; i < pooledRows.size(); ++i)
        rows[pooledRows[i]].runLevelHolm = runLevelAdjusted[i];
    return rows;
}

QStringList ScopeComparison::csvHeader()
{
    return {QStringLiteral("scope"), QStringLiteral("run"), QStringLiteral("n_a"), QStringLiteral("n_b"),
            QStringLiteral("mean_a_ns"), QStringLiteral("mean_b_ns"), QStringLiteral("std_a_ns"),
            QStringLiteral("std_b_ns"), QStringLiteral("median_a_ns"), QStringLiteral("median_b_ns"),
            QStringLiteral("ranksum_z"), QStringLiteral("ranksum_p"), QStringLiteral("mwu_u"),
            QStringLiteral("mwu_p"), QStringLiteral("hl_shift_ns"), QStringLiteral("hl_ci_low_ns"),
            QStringLiteral("hl_ci_high_ns"), QStringLiteral("rel_change_median"),
            QStringLiteral("cliffs_delta"), QStringLiteral("ranksum_p_holm"), QStringLiteral("mwu_p_holm"),
            QStringLiteral("iqr_a_ns"), QStringLiteral("iqr_b_ns"),
            // Run-level columns (issue 12): empty except on the pooled row; run_level_p is Holm-adjusted
            // over the pooled rows, run_level_p_raw before adjustment; change and CI as fractions.
            QStringLiteral("runs_a"), QStringLiteral("runs_b"), QStringLiteral("run_level_p"),
            QStringLiteral("run_level_change"), QStringLiteral("run_level_ci_low"),
            QStringLiteral("run_level_ci_high"), QStringLiteral("verdict"), QStringLiteral("run_level_p_raw"),
            QStringLiteral("run_level_rank_p"), QStringLiteral("caveat")};
}

QString ScopeComparison::toCsv(const std::vector<ComparisonRow> &rows, double alpha, double threshold)
{
    QString csv = csvHeader().join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const ComparisonRow &r : rows) {
        const QStringList fields = {csvText(r.scope),
                                    r.run,
                                    QString::number(r.a.n),
                                    QString::number(r.b.n),
                                    csvNumber(r.a.mean),
                                    csvNumber(r.b.mean),
                                    csvNumber(r.a.std),
                                    csvNumber(r.b.std),
                                    csvNumber(r.a.median),
                                    csvNumber(r.b.median),
                                    csvNumber(r.rankSum.z),
                                    csvNumber(r.rankSum.p),
                                    csvNumber(r.mannWhitney.u),
                                    csvNumber(r.mannWhitney.p),
                                    csvNumber(r.shift.shift),
                                    csvNumber(r.shift.ciLow),
                                    csvNumber(r.shift.ciHigh),
                                    csvNumber(r.relativeChange),
                                    csvNumber(r.cliffsDelta),
                                    csvNumber(r.rankSumHolm),
                                    csvNumber(r.mannWhitneyHolm),
                                    csvNumber(r.a.iqr),
                                    csvNumber(r.b.iqr),
                                    QString::number(r.runsA),
                                    QString::number(r.runsB),
                                    csvNumber(r.runLevelHolm),
                                    csvNumber(r.runLevel.change),
                                    csvNumber(r.runLevel.ciLow),
                                    csvNumber(r.runLevel.ciHigh),
                                    csvText(r.verdictText(alpha, threshold)),
                                    csvNumber(r.runLevel.p),
                                    csvNumber(r.runLevel.rankP),
                                    csvText(r.caveat)};
        csv += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

} // namespace scopeline
