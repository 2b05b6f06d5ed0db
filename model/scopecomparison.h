#pragma once
// Compares scope durations between side A (baseline) and side B (candidate): one row per scope per
// run pair, plus pooled rows when a side holds several runs, with rank tests, effect sizes and
// Holm-adjusted p-values (the scopes compared together form one family per run pair).

#include "scopeindex.h"

#include "stats/descriptive.h"
#include "stats/effectsize.h"
#include "stats/ranktests.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace scopeline {

// What a row says, in the words a performance engineer would use.
enum class Verdict { OnlyInA, OnlyInB, NotFound, NoSignificantChange, NoMeaningfulChange, Faster, Slower };
QString verdictText(Verdict verdict);

struct ComparisonRow
{
    QString scope;
    QString run; // "1", "2", ... for run pairs, "all" for pooled runs
    stats::Descriptive a, b;
    stats::RankSum rankSum{};
    stats::MannWhitney mannWhitney{};
    stats::ShiftEstimate shift{}; // Hodges-Lehmann estimate of B - A
    double relativeChange = 0;    // (median B - median A) / median A
    double cliffsDelta = 0;
    double rankSumHolm = 0, mannWhitneyHolm = 0;
    bool comparable() const { return a.n > 0 && b.n > 0; }
    // Significant (Holm-adjusted Mann-Whitney p < alpha) and at least `threshold` relative change of
    // medians; a significant but smaller change is "no meaningful change", not a win.
    Verdict verdict(double alpha = 0.05, double threshold = 0.01) const;
};

class ScopeComparison
{
public:
    ScopeComparison(std::vector<const ScopeIndex *> sideA, std::vector<const ScopeIndex *> sideB);

    std::vector<ComparisonRow> compare(const QStringList &scopes, MatchMode match, SampleMode samples) const;

    static QStringList csvHeader();
    static QString toCsv(const std::vector<ComparisonRow> &rows);

private:
    std::vector<double> pooled(const std::vector<const ScopeIndex *> &side, const ScopeMatcher &matcher,
                               SampleMode mode) const;

    std::vector<const ScopeIndex *> m_a, m_b;
};

} // namespace scopeline
