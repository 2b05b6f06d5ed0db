// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The scope comparison of more than two variants: each candidate against the baseline as a pair is
// compared (ScopeComparison), judged together (Holm over scopes × candidates), and per scope a
// Kruskal–Wallis test across every variant on its units' medians (runs, or processes when a
// variant's runs come from several), Holm over the scopes.

#include "model/comparison/replication.h"
#include "model/comparison/scopecomparison.h"

#include "stats/ranktests.h"

#include <QStringList>

#include <vector>

namespace scopeline {

struct ScopeAcrossVariants
{
    QString scope;
    std::vector<std::vector<double>> unitMedians; // per variant, the baseline's first
    bool byProcess = false; // the units are processes (each the mean of its runs' medians), else runs
    stats::KruskalWallis test{};
    double pHolm = 0; // over the scopes
    // Why there is no test (every variant one unit: H is then k − 1 whatever the data), else what
    // the test could not measure (one process a variant); empty when nothing.
    QString reason, caveat;
    // The largest variant's median of its units over the smallest's, − 1: what a "differ" is worth.
    double spread() const;
    // "H 8.83, permutation p 0.0055, Holm p 0.0164: the variants differ; one process a side: …" ("exact
    // p", "permutation p": how p was found; the Holm p over the scopes where it differs). They differ when
    // the Holm p is below alpha and the spread at least the threshold (a smaller one: "no meaningful
    // difference").
    QString text(double alpha, double threshold) const;
};

class VariantScopes
{
public:
    // candidates[i] is labelled labels[i].
    VariantScopes(const QList<LoadedRun> &baseline, const std::vector<QList<LoadedRun>> &candidates,
                  const QStringList &labels, const QStringList &scopes, MatchMode match, SampleMode samples,
                  double alpha = 0.05);

    const QStringList &labels() const { return m_labels; }
    // Per candidate, its rows against the baseline.
    const std::vector<std::vector<ComparisonRow>> &rows() const { return m_rows; }
    const std::vector<ScopeAcrossVariants> &acrossVariants() const { return m_across; }
    // The pair's CSV with a `variant` column first, each candidate's rows in the order given.
    QString toCsv(double alpha, double threshold) const;

private:
    QStringList m_labels;
    std::vector<Replication> m_replications;
    std::vector<std::vector<ComparisonRow>> m_rows;
    std::vector<ScopeAcrossVariants> m_across;
};

} // namespace scopeline
