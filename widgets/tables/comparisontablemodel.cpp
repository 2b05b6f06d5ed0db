// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/tables/comparisontablemodel.h"

#include "model/tables/durationformat.h"
#include "model/tables/tableformat.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <cmath>

namespace scopeline {

namespace {

// A side's own figures are keyed "<figure>_a…" or "<figure>_b…" ("n_a", "median_b_ns").
bool isSide(const QString &key, QLatin1String side)
{
    return key.section(QLatin1Char('_'), 1, 1) == side;
}

} // namespace

ComparisonTableModel::ComparisonTableModel(QObject *parent)
    : QAbstractTableModel(parent), m_columns(ScopeComparison::tableColumns(m_alpha, m_threshold))
{}

void ComparisonTableModel::setRows(std::vector<ComparisonRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

void ComparisonTableModel::setThreshold(double threshold)
{
    if (threshold == m_threshold)
        return;
    m_threshold = threshold;
    verdictsChanged();
}

void ComparisonTableModel::setAlpha(double alpha)
{
    if (alpha == m_alpha)
        return;
    m_alpha = alpha;
    verdictsChanged();
}

void ComparisonTableModel::verdictsChanged()
{
    m_columns = ScopeComparison::tableColumns(m_alpha, m_threshold);
    // its tooltip names the threshold
    emit headerDataChanged(Qt::Horizontal, m_verdictColumn, m_verdictColumn);
    if (m_rows.empty())
        return;
    // The verdict column and the VerdictRole of every cell.
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

void ComparisonTableModel::setCaveat(const QString &caveat)
{
    if (caveat == m_caveat)
        return;
    m_caveat = caveat;
    if (!m_rows.empty()) // the verdicts' tooltips say it
        emit dataChanged(index(0, m_verdictColumn), index(rowCount() - 1, m_verdictColumn),
                         {Qt::ToolTipRole});
}

QString ComparisonTableModel::tiedExplanation(const QString &unit, double timerStepNs)
{
    // Welch has no spread to go on when every unit repeats one value: say which spread it was given.
    const QString resolution =
        timerStepNs > 0 ? tr(" — timer resolution %1").arg(formatDuration(timerStepNs)) : QString();
    return tr("Every %1 gave the same value on each side%2: tested as values known to one timer step "
              "(a spread of step/√12), not a measured spread.")
        .arg(unit, resolution);
}

Verdict ComparisonTableModel::verdict(int row) const
{
    return m_rows[std::size_t(row)].verdict(m_alpha, m_threshold);
}

QColor ComparisonTableModel::verdictColor(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Faster:
        return QColor(0x1a, 0x8a, 0x3a);
    case Verdict::Slower:
        return QColor(0xc6, 0x28, 0x28);
    case Verdict::OnlyInA:
    case Verdict::OnlyInB:
        return QColor(0xd9, 0x70, 0x00);
    case Verdict::NotFound:
    case Verdict::NoSignificantChange:
    case Verdict::NoMeaningfulChange:
        break;
    }
    return QColor(0x80, 0x80, 0x80);
}

int ComparisonTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ComparisonTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QString ComparisonTableModel::verdictToolTip(const ComparisonRow &r) const
{
    const Verdict v = r.verdict(m_alpha, m_threshold);
    const QString threshold = QStringLiteral("%1 %").arg(100 * m_threshold, 0, 'g', 3);
    if (r.hasRunLevel() && r.comparable()) {
        // Pooled rows with ≥ 2 runs a side: the verdict is the run-level test's (the run is the unit).
        // the test's units: the runs, or the processes whose runs it averaged
        const QString units = r.runLevel.runsA == r.runsA && r.runLevel.runsB == r.runsB
                                  ? tr("run medians")
                                  : tr("processes (each the mean of its runs' medians)");
        QString tip =
            tr("%1: run-level test on the %2 v %3 %4 (Welch on logs): change %5 [%6, %7] at %8 confidence, "
               "Holm-adjusted p = %9")
                .arg(verdictText(v))
                .arg(r.runLevel.runsA)
                .arg(r.runLevel.runsB)
                .arg(units, formatChange(r.runLevel.change), formatChange(r.runLevel.ciLow),
                     formatChange(r.runLevel.ciHigh), formatPercent(r.runLevel.confidence),
                     formatPValue(r.runLevelHolm)) +
            tr(" (α = %1, threshold %2).").arg(m_alpha).arg(threshold);
        if (r.runLevel.tied)
            tip += QLatin1Char(' ') + tiedExplanation(tr("run"), 0);
        if (!m_caveat.isEmpty())
            tip += QLatin1Char(' ') + tr("Caveat: %1.").arg(m_caveat);
        if (!r.kernelMix.isEmpty())
            tip += QLatin1Char(' ') + r.kernelMix + QLatin1Char('.');
        return tip;
    }
    if (r.isPooled() && r.comparable()) // no run-level test: no verdict either
        return tr("%1: the calls of several runs pooled would test the runs' own conditions as much as A "
                  "against B, so this row has no verdict without a run-level test.")
            .arg(r.verdictText(m_alpha, m_threshold));
    QString tip = perSampleToolTip(r, v, threshold);
    if (!r.kernelMix.isEmpty())
        tip += QLatin1Char(' ') + r.kernelMix + QLatin1Char('.');
    return r.withinRunPair() && !tip.isEmpty()
               ? tip + QLatin1Char(' ') +
                     tr("This run pair only: these two runs' own conditions are part of it. The “all” row's "
                        "run-level test is the verdict.")
               : tip;
}

QString ComparisonTableModel::perSampleToolTip(const ComparisonRow &r, Verdict v,
                                               const QString &threshold) const
{
    switch (v) {
    case Verdict::OnlyInA:
        return tr("“%1” has %2 samples in A and none in B: nothing to compare.").arg(r.scope).arg(r.a.n);
    case Verdict::OnlyInB:
        return tr("“%1” has %2 samples in B and none in A: nothing to compare.").arg(r.scope).arg(r.b.n);
    case Verdict::NotFound:
        return tr("“%1” matches no kernel on either side.").arg(r.scope);
    case Verdict::NoSignificantChange:
        return tr("Holm-adjusted Mann–Whitney p = %1 is not below α = %2: the difference between A and B is "
                  "within the noise.")
            .arg(formatPValue(r.mannWhitneyHolm))
            .arg(m_alpha);
    case Verdict::NoMeaningfulChange:
        return tr("Significant (Holm-adjusted Mann–Whitney p = %1 < %2) but the medians differ by only %3, "
                  "less "
                  "than the %4 threshold: no meaningful change.")
            .arg(formatPValue(r.mannWhitneyHolm))
            .arg(m_alpha)
            .arg(formatChange(r.relativeChange), threshold);
    case Verdict::Faster:
    case Verdict::Slower:
        return tr("Significant (Holm-adjusted Mann–Whitney p = %1 < %2) and the median of B is %3 against A "
                  "(threshold %4); Hodges–Lehmann shift %5.")
            .arg(formatPValue(r.mannWhitneyHolm))
            .arg(m_alpha)
            .arg(formatChange(r.relativeChange), threshold,
                 formatSignedDuration(r.shift.shift));
    }
    return {};
}

QVariant ComparisonTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ComparisonRow &r = m_rows[std::size_t(index.row())];
    const int column = index.column();
    const bool isVerdict = column == m_verdictColumn;
    switch (role) {
    case Qt::DisplayRole:
        if (column == m_runColumn)
            return runText(r);
        return m_columns[std::size_t(column)].shown(r);
    case RawValueRole: // the verdict sorts by what it says, not by its words; run pairs by number, "all" last
        if (isVerdict)
            return int(r.verdict(m_alpha, m_threshold));
        if (column == m_runColumn)
            return r.isPooled() ? std::numeric_limits<int>::max() : r.run.toInt();
        return m_columns[std::size_t(column)].value(r);
    case VerdictRole:
        return int(r.verdict(m_alpha, m_threshold));
    case CiLowRole:
        return r.shift.ciLow;
    case CiHighRole:
        return r.shift.ciHigh;
    case PooledRole:
        return r.run == QLatin1String("all");
    case Qt::TextAlignmentRole:
        if (m_columns[std::size_t(column)].csvKey == QLatin1String("scope") || isVerdict)
            return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (isVerdict)
            return QBrush(verdictColor(r.shownVerdict(m_alpha, m_threshold)));
        return {};
    case Qt::FontRole: {
        const Verdict v = r.shownVerdict(m_alpha, m_threshold);
        const bool pooled = r.run == QLatin1String("all");
        const bool finding = isVerdict && (v == Verdict::Faster || v == Verdict::Slower);
        if (!pooled && !finding)
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::ToolTipRole:
        return toolTip(r, column);
    default:
        break;
    }
    return {};
}

void ComparisonTableModel::setRunNames(const QStringList &a, const QStringList &b)
{
    m_runNames[0] = a;
    m_runNames[1] = b;
    if (!m_rows.empty())
        emit dataChanged(index(0, m_runColumn), index(rowCount() - 1, m_runColumn));
}

QStringList ComparisonTableModel::pairNames(const ComparisonRow &r) const
{
    const int i = r.run.toInt() - 1; // "all": -1
    if (r.isPooled() || i < 0 || i >= m_runNames[0].size() || i >= m_runNames[1].size())
        return {};
    return {m_runNames[0][i], m_runNames[1][i]};
}

QString ComparisonTableModel::runText(const ComparisonRow &r) const
{
    const QStringList names = pairNames(r);
    if (names.isEmpty())
        return r.run;
    return names[0] == names[1] ? names[0] : names.join(QStringLiteral(" · "));
}

QString ComparisonTableModel::toolTip(const ComparisonRow &r, int column) const
{
    const QString &key = m_columns[std::size_t(column)].csvKey;
    if (column == m_verdictColumn)
        return verdictToolTip(r);
    if (key == QLatin1String("run")) {
        if (r.isPooled())
            return tr("All runs of each side pooled");
        if (const QStringList names = pairNames(r); !names.isEmpty())
            return tr("Run pair %1: %2 of A against %3 of B (the runs paired in order)")
                .arg(r.run, names[0], names[1]);
        return tr("Run pair %1: the %1. run of A against the %1. run of B").arg(r.run);
    }
    const bool sideA = isSide(key, QLatin1String("a"));
    if ((sideA && r.a.n == 0) || (isSide(key, QLatin1String("b")) && r.b.n == 0))
        return tr("“%1” has no samples on side %2")
            .arg(r.scope, sideA ? QStringLiteral("A") : QStringLiteral("B"));
    if (key == QLatin1String("hl_ci_low_ns") && !std::isnan(r.shift.ciLow)) {
        const QString interval =
            tr("%1 confidence interval of the Hodges–Lehmann shift of B vs A: %2 to %3 (the level the "
               "Mann–Whitney p is judged at, after Holm)")
                .arg(formatPercent(r.shiftConfidence), formatSignedDuration(r.shift.ciLow),
                     formatSignedDuration(r.shift.ciHigh));
        if (!r.shiftOpenAtZero)
            return interval;
        return interval + tr(". 0 itself is outside it: durations tied across A and B (timer ticks) count as "
                             "half at a shift of exactly 0, and there the test rejects it");
    }
    if (key == QLatin1String("hl_ci_low_ns") && r.shiftHidden)
        return tr("No interval at %1: at a shift of 0 durations tied across A and B (timer ticks) count as "
                  "half, which no other shift has, and no interval of the shift agrees with the test there")
            .arg(formatPercent(r.shiftConfidence));
    if (key == QLatin1String("hl_ci_low_ns") && r.comparable() && !std::isnan(r.shiftConfidence))
        return tr("No interval at %1: samples this few bound no shift at that confidence")
            .arg(formatPercent(r.shiftConfidence));
    // the tests, from the rank sum to the run-level p: nothing to test with one side
    if (!r.comparable() && column >= this->column("ranksum_z") && column < m_verdictColumn)
        return tr("Not computed: the scope has samples on one side only");
    return {};
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return m_columns[std::size_t(section)].title;
    if (role == Qt::ToolTipRole) // the verdict's names the current alpha and threshold
        return m_columns[std::size_t(section)].tooltip;
    return {};
}

} // namespace scopeline
