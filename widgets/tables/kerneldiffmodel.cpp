// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/tables/kerneldiffmodel.h"
#include "widgets/tables/comparisontablemodel.h"
#include "widgets/timeline/timelinetext.h"

#include "model/tables/kernelnames.h"
#include "model/tables/tableformat.h"

#include <QBrush>
#include <QFont>

#include <algorithm>
#include <cmath>

namespace scopeline {

namespace {

// The kernel column's texts: enough for the widest column the view gives them; the view elides the
// middle further where narrower, keeping the head and the differing end.
constexpr int kKernelNameChars = 60;

QString percent(double fraction)
{
    return formatChange(fraction);
}

QString unitName(const KernelDiffRow &r)
{
    return r.byProcess ? KernelDiffModel::tr("process") : KernelDiffModel::tr("run");
}

QString unitsName(const KernelDiffRow &r)
{
    return r.byProcess ? KernelDiffModel::tr("processes") : KernelDiffModel::tr("runs");
}

QString p(double value)
{
    return formatPValue(value);
}

} // namespace

QString KernelDiffModel::verdictToolTip(const KernelDiffRow &r)
{
    QStringList parts;
    const bool oneSide = r.oneSide();
    if (oneSide)
        parts << tr("The kernel runs on one side only: %1 calls per run in A, %2 in B.")
                     .arg(formatCount(r.a.callsPerRun), formatCount(r.b.callsPerRun));
    if (oneSide && !r.runLevelMeasured()) {
        // nothing more to say: no test without 2 units a side
    } else if (!r.runLevelMeasured()) {
        parts << tr("Fewer than 2 %1 with this kernel on a side: the variation between %1 was not measured, "
                    "so no verdict is given on its GPU time. Record more runs of each variant.")
                     .arg(unitsName(r));
    } else {
        parts << tr("Tests the GPU time per run (what Δ time/run explains): Welch on the per-%1 totals "
                    "(%2 v %3 %4), Holm over the rows. Change %5 of A's mean, Holm-adjusted p = %6 "
                    "(unadjusted %7), rank-test p on the totals %8.")
                     .arg(unitName(r))
                     .arg(r.runLevel.runsA)
                     .arg(r.runLevel.runsB)
                     .arg(unitsName(r),
                          formatChangeInterval(r.runLevel.change, r.runLevel.ciLow, r.runLevel.ciHigh),
                          p(r.runLevelHolm), p(r.runLevel.p), p(r.runLevel.rankP));
        if (r.runLevel.tied)
            parts << ComparisonTableModel::tiedExplanation(unitName(r), r.timerStep);
    }
    if (r.processDependent())
        parts << tr("Process-dependent: it ran in %1 of %2 processes of A and %3 of %4 of B (an autotuner "
                    "picks kernels per process); “By op” keeps such kernels in their op's row.")
                     .arg(r.a.unitsWithKernel)
                     .arg(r.processesA)
                     .arg(r.b.unitsWithKernel)
                     .arg(r.processesB);
    if (r.perCallVerdict != r.verdict &&
        (r.perCallVerdict == Verdict::Faster || r.perCallVerdict == Verdict::Slower))
        parts << tr("Its calls changed (per call: %1).").arg(r.perCallText());
    if (!r.caveat.isEmpty())
        parts << tr("Caveat: %1.").arg(r.caveat);
    return parts.join(QLatin1Char('\n'));
}

QString KernelDiffModel::perCallToolTip(const KernelDiffRow &r)
{
    if (!r.perCall.valid())
        return tr("Fewer than 2 %1 with this kernel on a side: no per-call test.").arg(unitsName(r));
    QStringList parts;
    parts << tr("Duration of one call: Welch on the logs of the per-%1 medians (%2 v %3 %4), Holm over the "
                "rows. Change of their geometric mean %5 [%6, %7], Holm-adjusted p = %8 (unadjusted %9), "
                "rank-test p on the medians %10: %11.")
                 .arg(unitName(r))
                 .arg(r.perCall.runsA)
                 .arg(r.perCall.runsB)
                 .arg(unitsName(r), percent(r.perCall.change), percent(r.perCall.ciLow),
                      percent(r.perCall.ciHigh), p(r.perCallHolm), p(r.perCall.p), p(r.perCall.rankP),
                      r.perCallVerdictText());
    if (r.perCall.tied)
        parts << ComparisonTableModel::tiedExplanation(unitName(r), r.timerStep);
    parts << tr("GPU time per run (the verdict): Holm-adjusted p = %1 (unadjusted %2), %3.")
                 .arg(p(r.runLevelHolm), p(r.runLevel.p), r.verdictText());
    return parts.join(QLatin1Char('\n'));
}

KernelDiffModel::KernelDiffModel(QObject *parent)
    : QAbstractTableModel(parent), m_columns(KernelDiff::tableColumns()), m_nameWidth(kKernelNameChars)
{}

QStringList KernelDiffModel::namesAt(int chars) const
{
    return distinctKernelNames(m_kernels, std::clamp(chars, 16, kKernelNameChars));
}

void KernelDiffModel::setNameWidth(int chars)
{
    chars = std::clamp(chars, 16, kKernelNameChars);
    if (chars == m_nameWidth)
        return;
    m_nameWidth = chars;
    m_names = namesAt(chars);
    if (rowCount() > 0)
        emit dataChanged(index(0, column("kernel")), index(rowCount() - 1, column("kernel")));
}

void KernelDiffModel::setDiff(std::shared_ptr<const KernelDiff> diff)
{
    beginResetModel();
    m_diff = std::move(diff);
    m_columns = KernelDiff::tableColumns(m_diff ? m_diff->options() : KernelDiffOptions{}); // "Op" by op
    m_kernels.clear();
    if (m_diff)
        for (const KernelDiffRow &row : m_diff->rows())
            m_kernels << boundedText(row.kernel);
    m_names = namesAt(m_nameWidth);
    endResetModel();
}

int KernelDiffModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_diff ? 0 : int(m_diff->rows().size());
}

int KernelDiffModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QString KernelDiffModel::kernelToolTip(const KernelDiffRow &r) const
{
    if (r.names.size() > 1)
        return (m_diff->options().byOp ? tr("%1 kernels of this op:\n%2")
                                       : tr("%1 names folded into this row:\n%2"))
            .arg(r.names.size())
            .arg(boundedText(r.names.mid(0, 20).join(QLatin1Char('\n'))));
    if (m_diff->options().byOp && r.names.size() == 1 && r.names.first() != r.kernel)
        return tr("%1\nits kernel: %2").arg(boundedText(r.kernel), boundedText(r.names.first()));
    return boundedText(r.kernel);
}

QString KernelDiffModel::toolTip(const KernelDiffRow &r, const QString &key) const
{
    if (key == QLatin1String("kernel") && r.communication)
        return kernelToolTip(r) + tr("\nCommunication: its time is mostly waiting for the other GPUs (Ranks "
                                     "tab), not work");
    if (key == QLatin1String("kernel"))
        return kernelToolTip(r);
    if (key == QLatin1String("verdict"))
        return verdictToolTip(r);
    if (key == QLatin1String("per_call_change"))
        return perCallToolTip(r);
    if (key == QLatin1String("run_level_change") || key == QLatin1String("run_level_p"))
        return r.runLevel.tied ? ComparisonTableModel::tiedExplanation(unitName(r), r.timerStep) : QString();
    return {};
}

QVariant KernelDiffModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const KernelDiffRow &r = row(index.row());
    const TableColumn<KernelDiffRow> &column = m_columns[std::size_t(index.column())];
    const QString &key = column.csvKey;
    const bool isVerdict = key == QLatin1String("verdict");
    switch (role) {
    case Qt::DisplayRole:
        return key == QLatin1String("kernel") ? m_names[index.row()] : column.shown(r);
    case RawValueRole: // the verdict sorts by what it says, not by its words
        return isVerdict ? QVariant(int(r.verdict)) : column.value(r);
    case VerdictRole:
        return int(r.verdict);
    case ProcessDependentRole:
        return r.processDependent();
    case Qt::ToolTipRole:
        return toolTip(r, key);
    case Qt::TextAlignmentRole:
        if (key == QLatin1String("kernel") || isVerdict || key == QLatin1String("per_call_change"))
            return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (isVerdict)
            return QBrush(ComparisonTableModel::verdictColor(r.verdict));
        if (key == QLatin1String("per_call_change"))
            return QBrush(ComparisonTableModel::verdictColor(r.perCallVerdict));
        if (key == QLatin1String("kernel") && r.communication) // as the timeline draws them
            return QBrush(QColor(0xc2, 0x18, 0x8b));
        // The change coloured where the row's verdict is a finding, as the waterfall colours its bar;
        // else not: a green or red figure reads as one, and an insignificant change's sign is noise.
        if (key == QLatin1String("delta_total_ns"))
            if (const int sign = findingSign(r.verdict, r.deltaTotalNs))
                return QBrush(
                    ComparisonTableModel::verdictColor(sign < 0 ? Verdict::Faster : Verdict::Slower));
        return {};
    case Qt::FontRole: {
        // a process-dependent row in italics: its kernel is an autotuner's choice, not the code's
        const bool bold = isVerdict && (r.verdict == Verdict::Faster || r.verdict == Verdict::Slower);
        if (!bold && !r.processDependent())
            return {};
        QFont font;
        font.setBold(bold);
        font.setItalic(r.processDependent());
        return font;
    }
    default:
        return {};
    }
}

QVariant KernelDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return m_columns[std::size_t(section)].title;
    if (role == Qt::ToolTipRole)
        return m_columns[std::size_t(section)].tooltip;
    return {};
}

} // namespace scopeline
