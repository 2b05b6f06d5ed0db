// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The kernel diff of more than two variants: a baseline against each candidate, as a pair is diffed,
// with one Holm family over kernels × candidates (KernelDiff::judgeTogether), and the kernel ×
// variant matrix: each kernel's time per run in the baseline and in each candidate, with the
// candidate's change and verdict against the baseline.

#include "model/comparison/kerneldiff.h"

#include <QStringList>

#include <vector>

namespace scopeline {

// One kernel (or op) of the matrix.
struct VariantKernelRow
{
    QString kernel;
    double baselinePerRunNs = 0; // GPU time per run in the baseline (0 where it does not run)
    // Per candidate, its row of that candidate's diff; null when neither side of the pair runs it.
    std::vector<const KernelDiffRow *> cells;
    double largestChangeNs = 0; // the largest |Δ time per run| over the candidates
};

class VariantDiff
{
public:
    // candidates[i] is labelled labels[i]; the baseline is every diff's A.
    VariantDiff(const QList<LoadedRun> &baseline, const std::vector<QList<LoadedRun>> &candidates,
                const QStringList &labels, const KernelDiffOptions &options = {});

    const QStringList &labels() const { return m_labels; }
    const std::vector<KernelDiff> &diffs() const { return m_diffs; }
    // Sorted by the largest change in any candidate, then by name.
    const std::vector<VariantKernelRow> &rows() const { return m_rows; }

    // The matrix as the CLI prints it: the kernel, the baseline's time per run, and per candidate its
    // time per run with the change and verdict ("1.23 ms +12.3 % slower").
    std::vector<TableColumn<VariantKernelRow>> matrixColumns(const QString &baselineLabel) const;
    // The pair's CSV with a `variant` column first: one line per kernel and candidate, each
    // candidate's rows in the order given.
    QString toCsv() const;

private:
    QStringList m_labels;
    std::vector<KernelDiff> m_diffs;
    std::vector<VariantKernelRow> m_rows;
};

} // namespace scopeline
