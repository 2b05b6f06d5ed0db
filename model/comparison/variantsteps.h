// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The step breakdown of more than two variants: a baseline against each candidate, as a pair compares
// them, with the Holm families grown by the candidates (every candidate's step row one family, all
// their parts another), so that adding a candidate adds no false calls.

#include "model/comparison/stepbreakdown.h"
#include "stats/welch.h"

#include <QStringList>

#include <vector>

namespace scopeline {

// A candidate's step row with its variant and its ratio to the baseline: the variants' step table.
struct VariantStepRow
{
    QString variant;
    StepRow row;
    stats::RatioInterval ratio; // B / A with Fieller's interval at the row's level
};

// "step +48.8 % [+20.1, +77.5] (B slower)": a step row's change of the mean, Fieller's interval of
// the ratio at the level the row is judged, its verdict and caveat (the variants' and sweeps' lines).
QString stepChangeText(const StepRow &step, bool withCaveat = true);

class VariantSteps
{
public:
    // candidates[i] is labelled labels[i]; the baseline is every comparison's A.
    VariantSteps(const QList<LoadedRun> &baseline, const std::vector<QList<LoadedRun>> &candidates,
                 const QStringList &labels, const StepBreakdownOptions &options = {});

    const QStringList &labels() const { return m_labels; }
    // Candidate i against the baseline, judged with the others.
    const std::vector<StepBreakdown> &comparisons() const { return m_comparisons; }

    // The step time's ratio to the baseline (B / A) with Fieller's interval at the step row's level.
    stats::RatioInterval stepRatio(int candidate) const;

    // Every candidate's rows (or one candidate's), labelled, with their ratios; and the table's
    // columns: the variant, what `steps` prints of a pair, and the ratio with its interval.
    std::vector<VariantStepRow> rows(int candidate = -1) const;
    static const std::vector<TableColumn<VariantStepRow>> &columns();
    // The window's: the verdict and the ratio beside the component, where a narrow table shows them;
    // its columns by key, in order.
    static QStringList tableKeys();
    static const std::vector<TableColumn<VariantStepRow>> &tableColumns();

    // The pair's CSV with a `variant` column first and the ratio with its interval last (ratio,
    // ratio_ci_low, ratio_ci_high): each candidate's rows in the order given.
    QString toCsv() const;
    // Those columns over any such rows (a sweep's neighbours too).
    static QString csv(const std::vector<VariantStepRow> &rows);
    // "reduce-overhead: step −78.0 % [−99.0, −58.0] (B faster), of which Idle: CPU launched late
    // −6.40 ms": the change of the mean step as a ratio with Fieller's interval at the step row's level,
    // and the part of the step that changed most.
    QString leadLine(int candidate) const;
    // The same at a glance: "reduce-overhead: step −78.0 % [−99.0, −58.0] (B faster)", the caveat left to
    // summaryLine where every candidate shares it.
    QString briefLine(int candidate) const;
    // The answer over every candidate: "Step time of 9 candidate(s), Holm over the 9 tested: 2 B slower
    // (a, b); 7 no change shown", with the caveat they share; an A/A set reads "none differs from the
    // baseline".
    QString summaryLine() const;

private:
    QStringList m_labels;
    std::vector<StepBreakdown> m_comparisons;
};

} // namespace scopeline
