#include "scopecomparison.h"

#include "stats/multipletesting.h"

#include <QCoreApplication>

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

QString number(double value)
{
    if (std::isnan(value))
        return {};
    return QString::number(value, 'g', 17);
}

} // namespace

QString verdictText(Verdict verdict)
{
    switch (verdict) {
    case Verdict::OnlyInA:
        return QCoreApplication::translate("ScopeComparison", "only in A");
    case Verdict::OnlyInB:
        return QCoreApplication::translate("ScopeComparison", "only in B");
    case Verdict::NotFound:
        return QCoreApplication::translate("ScopeComparison", "not found");
    case Verdict::NoSignificantChange:
        return QCoreApplication::translate("ScopeComparison", "no significant change");
    case Verdict::NoMeaningfulChange:
        return QCoreApplication::translate("ScopeComparison", "no meaningful change");
    case Verdict::Faster:
        return QCoreApplication::translate("ScopeComparison", "B faster");
    case Verdict::Slower:
        return QCoreApplication::translate("ScopeComparison", "B slower");
    }
    return {};
}

Verdict ComparisonRow::verdict(double alpha, double threshold) const
{
    if (!comparable())
        return a.n == 0 && b.n == 0 ? Verdict::NotFound : a.n == 0 ? Verdict::OnlyInB : Verdict::OnlyInA;
    if (!(mannWhitneyHolm < alpha))
        return Verdict::NoSignificantChange;
    if (std::fabs(relativeChange) < threshold)
        return Verdict::NoMeaningfulChange;
    return relativeChange < 0 ? Verdict::Faster : Verdict::Slower;
}

ScopeComparison::ScopeComparison(std::vector<const ScopeIndex *> sideA, std::vector<const ScopeIndex *> sideB)
    : m_a(std::move(sideA)), m_b(std::move(sideB))
{}

std::vector<double> ScopeComparison::pooled(const std::vector<const ScopeIndex *> &side,
                                            const ScopeMatcher &matcher, SampleMode mode) const
{
    std::vector<double> all;
    for (const ScopeIndex *run : side) {
        const std::vector<double> samples = run->samples(matcher, mode);
        all.insert(all.end(), samples.begin(), samples.end());
    }
    return all;
}

std::vector<ComparisonRow> ScopeComparison::compare(const QStringList &scopes, MatchMode match,
                                                    SampleMode samples) const
{
    std::vector<ComparisonRow> rows;
    const std::size_t pairs = std::min(m_a.size(), m_b.size());
    const bool pool = m_a.size() > 1 || m_b.size() > 1;
    for (const QString &scope : scopes) {
        const ScopeMatcher matcher(scope, match);
        for (std::size_t i = 0; i < pairs; ++i)
            rows.push_back(makeRow(scope, QString::number(i + 1), m_a[i]->samples(matcher, samples),
                                   m_b[i]->samples(matcher, samples)));
        if (pool)
            rows.push_back(makeRow(scope, QStringLiteral("all"), pooled(m_a, matcher, samples),
                                   pooled(m_b, matcher, samples)));
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
    return rows;
}

QStringList ScopeComparison::csvHeader()
{
    return {QStringLiteral("scope"),         QStringLiteral("run"),
            QStringLiteral("n_a"),           QStringLiteral("n_b"),
            QStringLiteral("mean_a_ns"),     QStringLiteral("mean_b_ns"),
            QStringLiteral("std_a_ns"),      QStringLiteral("std_b_ns"),
            QStringLiteral("median_a_ns"),   QStringLiteral("median_b_ns"),
            QStringLiteral("ranksum_z"),     QStringLiteral("ranksum_p"),
            QStringLiteral("mwu_u"),         QStringLiteral("mwu_p"),
            QStringLiteral("hl_shift_ns"),   QStringLiteral("hl_ci_low_ns"),
            QStringLiteral("hl_ci_high_ns"), QStringLiteral("rel_change_median"),
            QStringLiteral("cliffs_delta"),  QStringLiteral("ranksum_p_holm"),
            QStringLiteral("mwu_p_holm"),    QStringLiteral("iqr_a_ns"),
            QStringLiteral("iqr_b_ns")};
}

QString ScopeComparison::toCsv(const std::vector<ComparisonRow> &rows)
{
    auto quoted = [](QString text) {
        if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) ||
            text.contains(QLatin1Char('\n')))
            return QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) +
                   QLatin1Char('"');
        return text;
    };
    QString csv = csvHeader().join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const ComparisonRow &r : rows) {
        const QStringList fields = {quoted(r.scope),
                                    r.run,
                                    QString::number(r.a.n),
                                    QString::number(r.b.n),
                                    number(r.a.mean),
                                    number(r.b.mean),
                                    number(r.a.std),
                                    number(r.b.std),
                                    number(r.a.median),
                                    number(r.b.median),
                                    number(r.rankSum.z),
                                    number(r.rankSum.p),
                                    number(r.mannWhitney.u),
                                    number(r.mannWhitney.p),
                                    number(r.shift.shift),
                                    number(r.shift.ciLow),
                                    number(r.shift.ciHigh),
                                    number(r.relativeChange),
                                    number(r.cliffsDelta),
                                    number(r.rankSumHolm),
                                    number(r.mannWhitneyHolm),
                                    number(r.a.iqr),
                                    number(r.b.iqr)};
        csv += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

} // namespace scopeline
