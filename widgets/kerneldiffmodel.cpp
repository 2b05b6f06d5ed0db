// SPDX-License-Identifier: GPL-3.0-or-later
#include "kerneldiffmodel.h"
#include "columntext.h"
#include "comparisontablemodel.h"

#include "model/durationformat.h"

#include <QBrush>
#include <QFont>

#include <cmath>

namespace scopeline {

namespace {

QString duration(double ns)
{
    return std::isnan(ns) ? QString() : formatDuration(ns);
}

QString signedDuration(double ns)
{
    if (std::isnan(ns))
        return {};
    return ns > 0 ? QLatin1Char('+') + formatDuration(ns) : formatDuration(ns);
}

QString percent(double fraction)
{
    return std::isnan(fraction) ? QString() : QString::asprintf("%+.2f %%", 100 * fraction);
}

QString calls(double perRun)
{
    return QString::number(perRun, 'f', perRun == std::trunc(perRun) ? 0 : 1);
}

} // namespace

KernelDiffModel::KernelDiffModel(QObject *parent) : QAbstractTableModel(parent) {}

void KernelDiffModel::setDiff(std::shared_ptr<const KernelDiff> diff)
{
    beginResetModel();
    m_diff = std::move(diff);
    endResetModel();
}

int KernelDiffModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_diff ? 0 : int(m_diff->rows().size());
}

int KernelDiffModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant KernelDiffModel::raw(const KernelDiffRow &r, int column) const
{
    switch (column) {
    case KernelColumn:
        return r.kernel;
    case VerdictColumn:
        return int(r.verdict);
    case DeltaColumn:
        return r.deltaTotalNs;
    case ShareColumn:
        return r.shareOfDelta;
    case TotalAColumn:
        return r.a.totalPerRunNs;
    case TotalBColumn:
        return r.b.totalPerRunNs;
    case CallsAColumn:
        return r.a.callsPerRun;
    case CallsBColumn:
        return r.b.callsPerRun;
    case MedianAColumn:
        return r.a.medianNs;
    case MedianBColumn:
        return r.b.medianNs;
    case MedianChangeColumn:
        return r.relChangeMedian;
    case RunLevelChangeColumn:
        return r.runLevel.change;
    case RunLevelPColumn:
        return r.runLevelHolm;
    }
    return {};
}

QString KernelDiffModel::display(const KernelDiffRow &r, int column) const
{
    switch (column) {
    case KernelColumn:
        return r.kernel;
    case VerdictColumn:
        return r.verdictText();
    case DeltaColumn:
        return signedDuration(r.deltaTotalNs);
    case ShareColumn:
        return std::isnan(r.shareOfDelta) ? QString() : QString::asprintf("%.1f %%", 100 * r.shareOfDelta);
    case TotalAColumn:
    case TotalBColumn:
    case MedianAColumn:
    case MedianBColumn:
        return duration(raw(r, column).toDouble());
    case CallsAColumn:
        return calls(r.a.callsPerRun);
    case CallsBColumn:
        return calls(r.b.callsPerRun);
    case MedianChangeColumn:
        return percent(r.relChangeMedian);
    case RunLevelChangeColumn:
        if (!r.runLevel.valid())
            return {};
        return QStringLiteral("%1 [%2, %3]")
            .arg(percent(r.runLevel.change), percent(r.runLevel.ciLow), percent(r.runLevel.ciHigh));
    case RunLevelPColumn:
        return ComparisonTableModel::formatPValue(r.runLevelHolm);
    }
    return {};
}

QString KernelDiffModel::toolTip(const KernelDiffRow &r, int column) const
{
    switch (column) {
    case KernelColumn:
        return r.names.size() > 1 ? tr("%1 names folded into this row:\n%2")
                                        .arg(r.names.size())
                                        .arg(r.names.mid(0, 20).join(QLatin1Char('\n')))
                                  : r.kernel;
    case VerdictColumn:
        if (r.verdict == Verdict::OnlyInA || r.verdict == Verdict::OnlyInB)
            return tr("The kernel runs on one side only: %1 calls per run in A, %2 in B")
                .arg(calls(r.a.callsPerRun), calls(r.b.callsPerRun));
        if (!r.runLevelMeasured())
            return tr("Fewer than 2 runs with this kernel on a side: run-to-run variation was not measured, "
                      "so no verdict is given on its duration. Record more runs of each variant.");
        return tr("Run-level test on the per-run medians (%1 v %2 runs, Welch on logs): change %3 "
                  "[%4, %5], Holm-adjusted p = %6 (unadjusted %7), rank-test p on the run medians %8.")
            .arg(r.runLevel.runsA)
            .arg(r.runLevel.runsB)
            .arg(percent(r.runLevel.change), percent(r.runLevel.ciLow), percent(r.runLevel.ciHigh),
                 ComparisonTableModel::formatPValue(r.runLevelHolm),
                 ComparisonTableModel::formatPValue(r.runLevel.p),
                 ComparisonTableModel::formatPValue(r.runLevel.rankP));
    default:
        return {};
    }
}

QVariant KernelDiffModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const KernelDiffRow &r = row(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(r, column);
    case RawValueRole:
        return raw(r, column);
    case VerdictRole:
        return int(r.verdict);
    case Qt::ToolTipRole:
        return toolTip(r, column);
    case Qt::TextAlignmentRole:
        if (column == KernelColumn || column == VerdictColumn)
            return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column == VerdictColumn)
            return QBrush(ComparisonTableModel::verdictColor(r.verdict));
        if (column == DeltaColumn && r.deltaTotalNs != 0)
            return QBrush(
                ComparisonTableModel::verdictColor(r.deltaTotalNs < 0 ? Verdict::Faster : Verdict::Slower));
        return {};
    case Qt::FontRole:
        if (column == VerdictColumn && (r.verdict == Verdict::Faster || r.verdict == Verdict::Slower)) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    default:
        return {};
    }
}

QVariant KernelDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static const ColumnText kColumns[NUM_COLUMNS] = {
        {QT_TR_NOOP("Kernel"), QT_TR_NOOP("Kernel name (with folding: the name without its trailing "
                                          "compiler number)")},
        {QT_TR_NOOP("Verdict"), QT_TR_NOOP("From the run-level test: B faster/slower only when the "
                                           "Holm-adjusted run-level p is below α and the change reaches "
                                           "the threshold")},
        {QT_TR_NOOP("Δ time/run"), QT_TR_NOOP("Total GPU time per run, B − A: what this kernel adds to "
                                              "(or removes from) the change")},
        {QT_TR_NOOP("Share"), QT_TR_NOOP("Δ time/run as a share of the total change in kernel time")},
        {QT_TR_NOOP("Time/run A"), QT_TR_NOOP("Total duration of the kernel per run of A (mean over runs)")},
        {QT_TR_NOOP("Time/run B"), QT_TR_NOOP("Total duration of the kernel per run of B (mean over runs)")},
        {QT_TR_NOOP("Calls/run A"), QT_TR_NOOP("Calls per run of A (mean over runs)")},
        {QT_TR_NOOP("Calls/run B"), QT_TR_NOOP("Calls per run of B (mean over runs)")},
        {QT_TR_NOOP("Median A"), QT_TR_NOOP("Median duration of one call, all runs of A pooled")},
        {QT_TR_NOOP("Median B"), QT_TR_NOOP("Median duration of one call, all runs of B pooled")},
        {QT_TR_NOOP("Median change"), QT_TR_NOOP("(median B − median A) / median A")},
        {QT_TR_NOOP("Run-level change"),
         QT_TR_NOOP("Ratio of the geometric means of the per-run medians, B/A − 1, with its 95 % "
                    "confidence interval (needs ≥ 2 runs a side)")},
        {QT_TR_NOOP("Run-level p"), QT_TR_NOOP("Welch's t on the log per-run medians, Holm-adjusted over "
                                               "the kernels")},
    };
    if (orientation != Qt::Horizontal || section < 0 || section >= NUM_COLUMNS)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return tr(kColumns[section].title);
    if (role == Qt::ToolTipRole)
        return tr(kColumns[section].tip);
    return {};
}

} // namespace scopeline
