// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparisontablemodel.h"
#include "columntext.h"

#include "model/durationformat.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <cmath>

namespace scopeline {

namespace {

// Empty for a shift that could not be estimated (a side without samples).
QString signedDuration(double ns)
{
    return std::isnan(ns) ? QString() : formatSignedDuration(ns);
}

QString duration(double ns)
{
    return std::isnan(ns) ? QString() : formatDuration(ns);
}

bool isSideA(int column)
{
    using M = ComparisonTableModel;
    return column == M::NAColumn || column == M::MeanAColumn || column == M::StdAColumn ||
           column == M::MedianAColumn || column == M::IqrAColumn;
}

bool isSideB(int column)
{
    using M = ComparisonTableModel;
    return column == M::NBColumn || column == M::MeanBColumn || column == M::StdBColumn ||
           column == M::MedianBColumn || column == M::IqrBColumn;
}

} // namespace

ComparisonTableModel::ComparisonTableModel(QObject *parent) : QAbstractTableModel(parent) {}

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
    emit headerDataChanged(Qt::Horizontal, VerdictColumn, VerdictColumn); // its tooltip names the threshold
    if (m_rows.empty())
        return;
    // The verdict column and the VerdictRole of every cell.
    emit dataChanged(index(0, 0), index(rowCount() - 1, NUM_COLUMNS - 1));
}

void ComparisonTableModel::setCaveat(const QString &caveat)
{
    if (caveat == m_caveat)
        return;
    m_caveat = caveat;
    if (!m_rows.empty()) // the verdicts' tooltips say it
        emit dataChanged(index(0, VerdictColumn), index(rowCount() - 1, VerdictColumn), {Qt::ToolTipRole});
}

QString ComparisonTableModel::tiedExplanation(const QString &unit, double timerStepNs)
{
    // Welch has no spread to go on when every unit repeats one value: say why p is what it is.
    const QString resolution =
        timerStepNs > 0 ? tr(" — timer resolution %1").arg(formatDuration(timerStepNs)) : QString();
    return tr("Every %1 gave the same value on each side%2: the p is the exact permutation test, "
              "the interval ± one timer step.")
        .arg(unit, resolution);
}

Verdict ComparisonTableModel::verdict(int row) const
{
    return m_rows[std::size_t(row)].verdict(m_alpha, m_threshold);
}

QString ComparisonTableModel::formatPValue(double p)
{
    if (std::isnan(p))
        return QStringLiteral("–");
    // Only an underflowed erfc (a rank test on huge samples) still gives 0: below the smallest double.
    if (p == 0)
        return QStringLiteral("< 1e-323");
    if (p < 1e-3) {
        // three significant digits, trailing zeros of the mantissa dropped: 1.27e-111, 1e-300
        QString text = QString::number(p, 'e', 2);
        const qsizetype e = text.indexOf(QLatin1Char('e'));
        qsizetype end = e;
        while (end > 0 && text[end - 1] == QLatin1Char('0'))
            --end;
        if (end > 0 && text[end - 1] == QLatin1Char('.'))
            --end;
        return text.left(end) + text.mid(e);
    }
    return QString::number(p, 'g', 3);
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
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant ComparisonTableModel::raw(const ComparisonRow &r, int column) const
{
    switch (column) {
    case ScopeColumn:
        return r.scope;
    case RunColumn:
        return r.run;
    case NAColumn:
        return qint64(r.a.n);
    case NBColumn:
        return qint64(r.b.n);
    case MeanAColumn:
        return r.a.mean;
    case MeanBColumn:
        return r.b.mean;
    case StdAColumn:
        return r.a.std;
    case StdBColumn:
        return r.b.std;
    case MedianAColumn:
        return r.a.median;
    case MedianBColumn:
        return r.b.median;
    case IqrAColumn:
        return r.a.iqr;
    case IqrBColumn:
        return r.b.iqr;
    case RankSumZColumn:
        return r.rankSum.z;
    case RankSumPColumn:
        return r.rankSum.p;
    case MannWhitneyUColumn:
        return r.mannWhitney.u;
    case MannWhitneyPColumn:
        return r.mannWhitney.p;
    case MannWhitneyHolmColumn:
        return r.mannWhitneyHolm;
    case ShiftColumn:
        return r.shift.shift;
    case ShiftCiColumn:
        return r.shift.ciLow;
    case RelativeChangeColumn:
        return r.relativeChange;
    case CliffsDeltaColumn:
        return r.cliffsDelta;
    case RunLevelChangeColumn:
        return r.runLevel.change;
    case RunLevelPColumn:
        return r.runLevelHolm;
    case VerdictColumn:
        return int(r.verdict(m_alpha, m_threshold));
    }
    return {};
}

QString ComparisonTableModel::display(const ComparisonRow &r, int column) const
{
    switch (column) {
    case ScopeColumn:
        return r.scope;
    case RunColumn:
        return r.run;
    case NAColumn:
    case NBColumn:
        return QString::number(raw(r, column).toLongLong());
    case MeanAColumn:
    case MeanBColumn:
    case StdAColumn:
    case StdBColumn:
    case MedianAColumn:
    case MedianBColumn:
    case IqrAColumn:
    case IqrBColumn:
        return duration(raw(r, column).toDouble()); // the descriptive statistics, in ns
    case RankSumZColumn:
        return std::isnan(r.rankSum.z) ? QString() : QString::number(r.rankSum.z, 'f', 2);
    case RankSumPColumn:
        return std::isnan(r.rankSum.p) ? QString() : formatPValue(r.rankSum.p); // blank: not tested
    case MannWhitneyUColumn:
        return std::isnan(r.mannWhitney.u)
                   ? QString()
                   : QString::number(r.mannWhitney.u, 'f',
                                     r.mannWhitney.u == std::trunc(r.mannWhitney.u) ? 0 : 1);
    case MannWhitneyPColumn:
        return std::isnan(r.mannWhitney.p) ? QString() : formatPValue(r.mannWhitney.p);
    case MannWhitneyHolmColumn:
        return std::isnan(r.mannWhitneyHolm) ? QString() : formatPValue(r.mannWhitneyHolm);
    case ShiftColumn:
        return signedDuration(r.shift.shift);
    case ShiftCiColumn:
        if (std::isnan(r.shift.ciLow) || std::isnan(r.shift.ciHigh))
            return {};
        return QStringLiteral("[%1, %2]").arg(signedDuration(r.shift.ciLow), signedDuration(r.shift.ciHigh));
    case RelativeChangeColumn:
        return std::isnan(r.relativeChange) ? QString()
                                            : QString::asprintf("%+.2f %%", 100 * r.relativeChange);
    case CliffsDeltaColumn:
        return std::isnan(r.cliffsDelta) ? QString() : QString::asprintf("%+.3f", r.cliffsDelta);
    case RunLevelChangeColumn:
        if (!r.hasRunLevel())
            return {};
        return QString::asprintf("%+.2f %% [%+.2f, %+.2f]", 100 * r.runLevel.change, 100 * r.runLevel.ciLow,
                                 100 * r.runLevel.ciHigh);
    case RunLevelPColumn:
        return r.hasRunLevel() ? formatPValue(r.runLevelHolm) : QString();
    case VerdictColumn:
        return r.verdictText(m_alpha, m_threshold);
    }
    return {};
}

QString ComparisonTableModel::verdictToolTip(const ComparisonRow &r) const
{
    const Verdict v = r.verdict(m_alpha, m_threshold);
    const QString threshold = QStringLiteral("%1 %").arg(100 * m_threshold, 0, 'g', 3);
    if (r.hasRunLevel() && r.comparable()) {
        // Pooled rows with ≥ 2 runs a side: the verdict is the run-level test's (the run is the unit).
        QString tip =
            tr("%1: run-level test on the %2 v %3 run medians (Welch on logs): change %4 "
               "[%5, %6], Holm-adjusted p = %7 (α = %8, threshold %9).")
                .arg(verdictText(v))
                .arg(r.runsA)
                .arg(r.runsB)
                .arg(QString::asprintf("%+.2f %%", 100 * r.runLevel.change),
                     QString::asprintf("%+.2f %%", 100 * r.runLevel.ciLow),
                     QString::asprintf("%+.2f %%", 100 * r.runLevel.ciHigh), formatPValue(r.runLevelHolm))
                .arg(m_alpha)
                .arg(threshold);
        if (r.runLevel.tied)
            tip += QLatin1Char(' ') + tiedExplanation(tr("run"), 0);
        if (!m_caveat.isEmpty())
            tip += QLatin1Char(' ') + tr("Caveat: %1.").arg(m_caveat);
        return tip;
    }
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
            .arg(QString::asprintf("%+.2f %%", 100 * r.relativeChange), threshold);
    case Verdict::Faster:
    case Verdict::Slower:
        return tr("Significant (Holm-adjusted Mann–Whitney p = %1 < %2) and the median of B is %3 against A "
                  "(threshold %4); Hodges–Lehmann shift %5.")
            .arg(formatPValue(r.mannWhitneyHolm))
            .arg(m_alpha)
            .arg(QString::asprintf("%+.2f %%", 100 * r.relativeChange), threshold,
                 signedDuration(r.shift.shift));
    }
    return {};
}

QVariant ComparisonTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ComparisonRow &r = m_rows[std::size_t(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(r, column);
    case RawValueRole:
        return raw(r, column);
    case VerdictRole:
        return int(r.verdict(m_alpha, m_threshold));
    case CiLowRole:
        return r.shift.ciLow;
    case CiHighRole:
        return r.shift.ciHigh;
    case PooledRole:
        return r.run == QLatin1String("all");
    case Qt::TextAlignmentRole:
        if (column == ScopeColumn || column == VerdictColumn)
            return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column == VerdictColumn)
            return QBrush(verdictColor(r.verdict(m_alpha, m_threshold)));
        return {};
    case Qt::FontRole: {
        const Verdict v = r.verdict(m_alpha, m_threshold);
        const bool pooled = r.run == QLatin1String("all");
        const bool finding = column == VerdictColumn && (v == Verdict::Faster || v == Verdict::Slower);
        if (!pooled && !finding)
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::ToolTipRole:
        if (column == VerdictColumn)
            return verdictToolTip(r);
        if (column == RunColumn)
            return r.run == QLatin1String("all")
                       ? tr("All runs of each side pooled")
                       : tr("Run pair %1: the %1. run of A against the %1. run of B").arg(r.run);
        if ((isSideA(column) && r.a.n == 0) || (isSideB(column) && r.b.n == 0))
            return tr("“%1” has no samples on side %2")
                .arg(r.scope, isSideA(column) ? QStringLiteral("A") : QStringLiteral("B"));
        if (column == ShiftCiColumn && !std::isnan(r.shift.ciLow))
            return tr("95 % confidence interval of the Hodges–Lehmann shift of B vs A: %1 to %2")
                .arg(signedDuration(r.shift.ciLow), signedDuration(r.shift.ciHigh));
        if (!r.comparable() && column >= RankSumZColumn && column < VerdictColumn)
            return tr("Not computed: the scope has samples on one side only");
        return {};
    default:
        break;
    }
    return {};
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // Title and tooltip per column, in Column order.
    static const ColumnText kColumns[NUM_COLUMNS] = {
        {QT_TR_NOOP("Scope"), QT_TR_NOOP("The scope (or pattern) compared")},
        {QT_TR_NOOP("Run"),
         QT_TR_NOOP("The run pair (1, 2, …: the n-th run of A against the n-th run of B) or "
                    "“all”, every run of each side pooled")},
        {QT_TR_NOOP("n A"), QT_TR_NOOP("Number of samples (kernels or instances, after the sample mode)")},
        {QT_TR_NOOP("n B"), QT_TR_NOOP("Number of samples (kernels or instances, after the sample mode)")},
        {QT_TR_NOOP("Mean A"), QT_TR_NOOP("Mean duration")},
        {QT_TR_NOOP("Mean B"), QT_TR_NOOP("Mean duration")},
        {QT_TR_NOOP("Std A"), QT_TR_NOOP("Sample standard deviation (n − 1)")},
        {QT_TR_NOOP("Std B"), QT_TR_NOOP("Sample standard deviation (n − 1)")},
        {QT_TR_NOOP("Median A"), QT_TR_NOOP("Median duration (linear interpolation, as numpy)")},
        {QT_TR_NOOP("Median B"), QT_TR_NOOP("Median duration (linear interpolation, as numpy)")},
        {QT_TR_NOOP("IQR A"), QT_TR_NOOP("Interquartile range q3 − q1: the height of the box")},
        {QT_TR_NOOP("IQR B"), QT_TR_NOOP("Interquartile range q3 − q1: the height of the box")},
        {QT_TR_NOOP("Rank-sum z"),
         QT_TR_NOOP("Wilcoxon rank-sum statistic (scipy.stats.ranksums): negative when "
                    "B ranks lower (faster)")},
        {QT_TR_NOOP("Rank-sum p"), QT_TR_NOOP("Two-sided p-value of the Wilcoxon rank-sum test")},
        {QT_TR_NOOP("MWU U"), QT_TR_NOOP("Mann–Whitney U of A (U₁ = R₁ − n₁(n₁+1)/2)")},
        {QT_TR_NOOP("MWU p"),
         QT_TR_NOOP("Two-sided Mann–Whitney p-value (tie-corrected, continuity correction)")},
        {QT_TR_NOOP("MWU p (Holm)"), QT_TR_NOOP("Mann–Whitney p adjusted with Holm's method over the scopes "
                                                "compared together in this run pair; the verdict uses it")},
        {QT_TR_NOOP("HL shift"), QT_TR_NOOP("Hodges–Lehmann shift of B vs A: the median of all pairwise "
                                            "differences B − A")},
        {QT_TR_NOOP("HL CI"), QT_TR_NOOP("95 % confidence interval of the Hodges–Lehmann shift")},
        {QT_TR_NOOP("Relative change"),
         QT_TR_NOOP("(median B − median A) / median A: negative when B is faster")},
        {QT_TR_NOOP("Cliff's δ"),
         QT_TR_NOOP("Cliff's delta P(B > A) − P(B < A) over all pairs, from −1 (B always "
                    "faster) to +1 (B always slower)")},
        {QT_TR_NOOP("Run-level change"),
         QT_TR_NOOP("“all” rows with ≥ 2 runs a side: ratio of the geometric means of the per-run medians, "
                    "B/A − 1, with its 95 % confidence interval. The run is the unit: this is what the "
                    "verdict of the row judges")},
        {QT_TR_NOOP("Run-level p"),
         QT_TR_NOOP("Welch's t on the log per-run medians, Holm-adjusted over the scopes compared together")},
        {QT_TR_NOOP("Verdict"), nullptr}, // names the current alpha and threshold
    };
    if (orientation != Qt::Horizontal || section < 0 || section >= NUM_COLUMNS)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return tr(kColumns[section].title);
    if (role != Qt::ToolTipRole)
        return {};
    if (section == VerdictColumn)
        return tr("B faster / B slower: Holm-adjusted p < %1 and a change of at least the threshold (%2 %); "
                  "a "
                  "smaller significant change reads as “no meaningful change”. On “all” rows with ≥ 2 runs a "
                  "side the test is the run-level one (the change of the run medians), on the other rows the "
                  "per-sample Mann–Whitney test (the change of the medians).")
            .arg(m_alpha)
            .arg(100 * m_threshold, 0, 'g', 3);
    return tr(kColumns[section].tip);
}

} // namespace scopeline
