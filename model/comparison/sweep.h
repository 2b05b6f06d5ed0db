// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A sweep: variants ordered by a numeric parameter (labels `K=5`, `K=10`, …, or the scopes `bmm_K05`,
// `bmm_K10`, … of the same runs). Adjacent variants are compared (k − 1 step breakdowns, their step rows
// one Holm family, their parts another) to find where the step jumps, and at the jump the kernels that
// appear or vanish are named.

#include "model/comparison/stepbreakdown.h"
#include "model/comparison/variantsteps.h"

#include <QStringList>

#include <vector>

namespace scopeline {

struct SweepPoint
{
    double parameter = 0;
    QString label;
    std::vector<RunSteps> runs; // the variant's runs, their steps found
    QList<LoadedRun> loaded;    // its runs as loaded, for the kernels at a jump (empty for a scope sweep)
};

class Sweep
{
public:
    // The number each label names ("K=25", "25", "lr=1e-4": an optional NAME= and a number), or
    // nothing unless every label names one, of one name, each a different number (why says which not).
    static std::vector<double> parameters(const QStringList &labels, QString *why = nullptr);
    // What the number is called: "K" for labels "K=5", …; "parameter" for bare numbers.
    static QString parameterName(const QStringList &labels);
    // A parameter as text, whole: 1048576 and 1048577 stay apart, 0.1 is 0.1.
    static QString valueText(double parameter);
    // The order of `variants` in the tables: where they are a sweep (their `parameters`), the baseline
    // (the first) first, then the candidates by parameter; else as given.
    static std::vector<int> tableOrder(int variants, const std::vector<double> &parameters);
    // Points in any order; they are sorted by parameter.
    Sweep(std::vector<SweepPoint> points, const QString &stepScope, const StepBreakdownOptions &options = {});
    // Variants of one step scope, as loaded (each side's runs), labelled.
    static Sweep ofVariants(const std::vector<QList<LoadedRun>> &sides, const QStringList &labels,
                            const std::vector<double> &parameters, const StepBreakdownOptions &options = {});
    // The scopes of the same runs whose names match `pattern` (its first group the parameter), each a
    // variant whose steps are that scope's instances. Two scopes at one value make no sweep: none, and
    // `why` (when given) names them.
    static Sweep ofScopes(const QList<LoadedRun> &runs, const QString &pattern,
                          const StepBreakdownOptions &options = {}, QString *why = nullptr);

    const std::vector<SweepPoint> &points() const { return m_points; }
    // Point i + 1 against point i, judged together.
    const std::vector<StepBreakdown> &adjacent() const { return m_adjacent; }
    // Every adjacent pair's rows as the variants' table has them, labelled "5→10": the CSV's rows.
    std::vector<VariantStepRow> adjacentRows() const;
    // A point's mean step, as its comparisons with its neighbours have it.
    double stepNs(std::size_t point) const;
    // Of the adjacent pairs called faster or slower, the one whose step changed most for its change of
    // parameter (the local scaling exponent; the relative change when a parameter is ≤ 0); -1 for none.
    int jump() const { return m_jump; }
    // Why there is no jump: "no neighbours differ", or that some or all could not be tested (one run a
    // point), in words; empty when there is one.
    QString noJumpText() const;
    // Kernels that vanish at adjacent pair i (only in point i) and appear (only in i + 1), the larger first.
    QStringList vanished(int pair) const;
    QStringList appeared(int pair) const;
    // "K 25 → 30: step −66.0 % (B faster), gemv2T_kernel replaced by gemmSN_NN_kernel"; one per adjacent
    // pair.
    QString pairLine(int pair, const QString &name) const;

private:
    void compare();

    std::vector<SweepPoint> m_points;
    QString m_stepScope;
    StepBreakdownOptions m_options;
    std::vector<StepBreakdown> m_adjacent;
    std::vector<QStringList> m_vanished, m_appeared;
    int m_jump = -1;
};

// The variants' step CSV: each candidate against the baseline, then, where they are a sweep, its
// neighbours against each other.
QString variantStepsCsv(const VariantSteps &variants, const Sweep *sweep);

} // namespace scopeline
