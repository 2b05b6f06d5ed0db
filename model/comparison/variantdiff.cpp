// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/variantdiff.h"

#include "model/tables/durationformat.h"
#include "model/tables/tableformat.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <map>

namespace scopeline {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("VariantDiff", text);
}

// A matrix cell's verdict, short: what a glance needs.
QString shortVerdict(const KernelDiffRow &row)
{
    switch (row.verdict) {
    case Verdict::Faster:
        return tr("faster");
    case Verdict::Slower:
        return tr("slower");
    case Verdict::OnlyInA:
        return tr("gone");
    case Verdict::OnlyInB:
        return tr("new");
    case Verdict::NoMeaningfulChange:
        return tr("~");
    default:
        // on one side only where that could not be tested (one process against several): said, not judged
        if (row.oneSide())
            return row.a.present() ? tr("gone, untested") : tr("new, untested");
        return {};
    }
}

} // namespace

VariantDiff::VariantDiff(const QList<LoadedRun> &baseline, const std::vector<QList<LoadedRun>> &candidates,
                         const QStringList &labels, const KernelDiffOptions &options)
    : m_labels(labels)
{
    m_diffs.reserve(candidates.size());
    for (const QList<LoadedRun> &candidate : candidates)
        m_diffs.emplace_back(baseline, candidate, options);
    KernelDiff::judgeTogether(m_diffs);

    std::map<QString, VariantKernelRow> byKernel;
    for (std::size_t c = 0; c < m_diffs.size(); ++c)
        for (const KernelDiffRow &row : m_diffs[c].rows()) {
            VariantKernelRow &matrix = byKernel[row.kernel];
            matrix.kernel = row.kernel;
            matrix.cells.resize(m_diffs.size(), nullptr);
            matrix.cells[c] = &row;
            matrix.baselinePerRunNs = row.a.totalPerRunNs;
            matrix.largestChangeNs = std::max(matrix.largestChangeNs, std::fabs(row.deltaTotalNs));
        }
    for (auto &[kernel, row] : byKernel)
        m_rows.push_back(std::move(row));
    std::stable_sort(m_rows.begin(), m_rows.end(), [](const VariantKernelRow &x, const VariantKernelRow &y) {
        return x.largestChangeNs > y.largestChangeNs;
    });
}

std::vector<TableColumn<VariantKernelRow>> VariantDiff::matrixColumns(const QString &baselineLabel) const
{
    using C = TableColumn<VariantKernelRow>;
    std::vector<C> columns = {C{QStringLiteral("kernel"),
                                m_diffs.empty() || !m_diffs.front().options().byOp ? tr("Kernel") : tr("Op"),
                                tr("The kernel (or op), on any side"),
                                [](const VariantKernelRow &r) { return QVariant(r.kernel); },
                                cell::text,
                                {},
                                -50},
                              C{QStringLiteral("baseline_per_run_ns"),
                                baselineLabel,
                                tr("The baseline's GPU time per run"),
                                [](const VariantKernelRow &r) { return QVariant(r.baselinePerRunNs); },
                                cell::duration,
                                {},
                                10}};
    for (std::size_t c = 0; c < m_diffs.size(); ++c)
        columns.push_back(
            C{m_labels.value(qsizetype(c)), m_labels.value(qsizetype(c)),
              tr("GPU time per run in this candidate, its change against the baseline and the "
                 "verdict (Holm over kernels × candidates) with the interval it was decided from"),
              [c](const VariantKernelRow &r) {
                  return r.cells[c] ? QVariant(r.cells[c]->b.totalPerRunNs) : QVariant(0.0);
              },
              cell::duration,
              [c](const VariantKernelRow &r) {
                  const KernelDiffRow *cell = r.cells[c];
                  if (!cell)
                      return QString();
                  if (!cell->b.present())
                      return shortVerdict(*cell);
                  QStringList parts{formatDuration(cell->b.totalPerRunNs)};
                  const stats::RunLevelTest &test = cell->runLevel;
                  if (cell->a.present() && std::isfinite(test.change)) { // as tested
                      // a verdict beside the interval it was decided from
                      const bool found = !shortVerdict(*cell).isEmpty();
                      parts << (found ? formatChangeInterval(test.change, test.ciLow, test.ciHigh, 1)
                                      : formatChange(test.change, 1));
                  }
                  parts << shortVerdict(*cell);
                  return parts.join(QLatin1Char(' ')).trimmed();
              },
              28});
    return columns;
}

QString VariantDiff::toCsv() const
{
    std::vector<const std::vector<KernelDiffRow> *> tables;
    for (const KernelDiff &diff : m_diffs)
        tables.push_back(&diff.rows());
    return variantTableCsv(
        KernelDiff::columns(m_diffs.empty() ? KernelDiffOptions{} : m_diffs.front().options()), m_labels,
        tables);
}

} // namespace scopeline
