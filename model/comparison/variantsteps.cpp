// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/variantsteps.h"

#include "model/tables/durationformat.h"
#include "model/tables/tablecolumn.h"
#include "model/tables/tableformat.h"

#include <QCoreApplication>

#include <cmath>
#include <limits>

namespace scopeline {

VariantSteps::VariantSteps(const QList<LoadedRun> &baseline, const std::vector<QList<LoadedRun>> &candidates,
                           const QStringList &labels, const StepBreakdownOptions &options)
    : m_labels(labels)
{
    // One step scope for every candidate, as the sweep over them has: else a baseline without steps
    // left each pair to pick its own.
    StepBreakdownOptions decided = options;
    decided.stepScope = variantsStepScope(options.stepScope, baseline, candidates);
    m_comparisons.reserve(candidates.size());
    for (const QList<LoadedRun> &candidate : candidates)
        m_comparisons.emplace_back(baseline, candidate, decided);
    StepBreakdown::judgeTogether(m_comparisons);
}

QString VariantSteps::toCsv() const
{
    return csv(rows());
}

QString VariantSteps::csv(const std::vector<VariantStepRow> &rows)
{
    // the variant, every column of the pair's CSV, then the ratio B / A and its interval
    using C = TableColumn<VariantStepRow>;
    static const std::vector<C> all = [] {
        std::vector<C> list = {columns().front()};
        for (C &c : liftColumns(StepBreakdown::columns(), &VariantStepRow::row))
            list.push_back(std::move(c));
        list.push_back(columns().back());
        const auto bound = [](double stats::RatioInterval::*end) {
            return [end](const VariantStepRow &r) { return QVariant(r.ratio.*end); };
        };
        list.push_back(C{QStringLiteral("ratio_ci_low"), QStringLiteral("ratio_ci_low"),
                         QStringLiteral("Fieller's interval of the ratio at the row's level: low"),
                         bound(&stats::RatioInterval::low), cell::text});
        list.push_back(C{QStringLiteral("ratio_ci_high"), QStringLiteral("ratio_ci_high"),
                         QStringLiteral("Fieller's interval of the ratio at the row's level: high"),
                         bound(&stats::RatioInterval::high), cell::text});
        return list;
    }();
    return tableCsv(all, rows);
}

namespace {

// Significant digits (3 or more) that keep apart what the verdict beside a ratio tells apart: the
// interval's ends, and each end from 1 ("×1.01 [1, 1.01]" beside "B slower" reads as holding 1).
int ratioDigits(const stats::RatioInterval &ratio)
{
    const auto apart = [](double x, double y, int digits) {
        return x == y || !std::isfinite(x) || !std::isfinite(y) ||
               QString::asprintf("%.*g", digits, x) != QString::asprintf("%.*g", digits, y);
    };
    int digits = 3;
    while (digits < 9 && !(apart(ratio.low, ratio.high, digits) && apart(ratio.low, 1, digits) &&
                           apart(ratio.high, 1, digits)))
        ++digits;
    return digits;
}

// Every candidate's step carries the same caveat (one process a side, on every side alike): said once.
bool sharedCaveat(const std::vector<StepBreakdown> &comparisons)
{
    if (comparisons.size() < 2 || comparisons.front().row(StepPart::Step).caveat.isEmpty())
        return false;
    return std::all_of(comparisons.begin(), comparisons.end(), [&](const StepBreakdown &c) {
        return c.row(StepPart::Step).caveat == comparisons.front().row(StepPart::Step).caveat;
    });
}

} // namespace

stats::RatioInterval VariantSteps::stepRatio(int candidate) const
{
    return m_comparisons[std::size_t(candidate)].row(StepPart::Step).ratio();
}

std::vector<VariantStepRow> VariantSteps::rows(int candidate) const
{
    std::vector<VariantStepRow> rows;
    for (std::size_t i = 0; i < m_comparisons.size(); ++i)
        if (candidate < 0 || std::size_t(candidate) == i)
            for (const StepRow &row : m_comparisons[i].rows())
                rows.push_back({m_labels.value(qsizetype(i)), row, row.ratio()});
    return rows;
}

const std::vector<TableColumn<VariantStepRow>> &VariantSteps::columns()
{
    using C = TableColumn<VariantStepRow>;
    static const std::vector<C> columns = [] {
        std::vector<C> list = {
            C{QStringLiteral("variant"),
              QCoreApplication::translate("VariantSteps", "Variant"),
              QCoreApplication::translate("VariantSteps", "The candidate, against the baseline"),
              [](const VariantStepRow &r) { return QVariant(r.variant); },
              cell::text,
              {},
              -12}};
        for (C &c : liftColumns(StepBreakdown::cliColumns(), &VariantStepRow::row))
            list.push_back(std::move(c));
        list.push_back(
            C{QStringLiteral("ratio"), QCoreApplication::translate("VariantSteps", "Ratio"),
              QCoreApplication::translate(
                  "VariantSteps",
                  "B / A per step, with Fieller's interval at the level the row is judged (Welch degrees "
                  "of freedom); unbounded when A's mean is not known to differ from 0, or only its lower "
                  "end (≥) where no larger ratio is excluded"),
              [](const VariantStepRow &r) { return QVariant(r.ratio.ratio); }, cell::text,
              [](const VariantStepRow &r) {
                  if (std::isnan(r.ratio.ratio))
                      return QString();
                  if (!r.row.ratioIntervalShown())
                      return QString::asprintf("×%.3g", r.ratio.ratio);
                  const int digits = r.ratio.bounded() ? ratioDigits(r.ratio) : 3;
                  const QString ratio = QString::asprintf("×%.*g", digits, r.ratio.ratio);
                  return !r.ratio.bounded()
                             ? ratio + QCoreApplication::translate("VariantSteps", " [unbounded]")
                         : std::isinf(r.ratio.high)
                             ? ratio + QString::asprintf(" [≥ %.*g]", digits, r.ratio.low)
                             : ratio + QString::asprintf(" [%.*g, %.*g]", digits, r.ratio.low, digits,
                                                         r.ratio.high);
              },
              18});
        return list;
    }();
    return columns;
}

QStringList VariantSteps::tableKeys()
{
    return QStringLiteral(
               "variant component verdict ratio delta_ns mean_a_ns mean_b_ns share_of_delta ci_low_ns "
               "ci_high_ns ci_level p steps_a steps_b caveat")
        .split(QLatin1Char(' '));
}

const std::vector<TableColumn<VariantStepRow>> &VariantSteps::tableColumns()
{
    static const std::vector<TableColumn<VariantStepRow>> table = selectColumns(columns(), tableKeys());
    return table; // the window's model holds a reference
}

QString stepChangeText(const StepRow &step, bool withCaveat)
{
    // a call the data could not back (one process a side) says so here, as the pair's step line does
    const QString verdict = step.caveat.isEmpty() || !withCaveat
                                ? step.verdictText()
                                : step.verdictText() + QStringLiteral("; ") + step.caveat;
    if (std::isnan(step.delta) || !(step.meanA > 0))
        return verdict;
    QString text =
        QCoreApplication::translate("VariantSteps", "step %1").arg(formatChange(step.delta / step.meanA, 1));
    if (const QString interval = step.changeIntervalText(); !interval.isEmpty())
        text += QLatin1Char(' ') + interval;
    return text + QStringLiteral(" (%1)").arg(verdict);
}

QString VariantSteps::briefLine(int candidate) const
{
    const StepRow &step = m_comparisons[std::size_t(candidate)].row(StepPart::Step);
    return m_labels.value(candidate) + QStringLiteral(": ") +
           stepChangeText(step, !sharedCaveat(m_comparisons));
}

QString VariantSteps::summaryLine() const
{
    QStringList slower, faster, untested;
    int same = 0;
    for (std::size_t c = 0; c < m_comparisons.size(); ++c) {
        const StepRow &step = m_comparisons[c].row(StepPart::Step);
        if (std::isnan(step.pRaw))
            untested << m_labels.value(qsizetype(c));
        else if (step.verdict == Verdict::Slower)
            slower << m_labels.value(qsizetype(c));
        else if (step.verdict == Verdict::Faster)
            faster << m_labels.value(qsizetype(c));
        else
            ++same;
    }
    const auto tr = [](const char *text) { return QCoreApplication::translate("VariantSteps", text); };
    const int tested = int(m_comparisons.size()) - int(untested.size());
    QStringList parts;
    if (!slower.isEmpty())
        parts << tr("%1 B slower (%2)").arg(slower.size()).arg(slower.join(QStringLiteral(", ")));
    if (!faster.isEmpty())
        parts << tr("%1 B faster (%2)").arg(faster.size()).arg(faster.join(QStringLiteral(", ")));
    if (same > 0)
        parts << (same == tested ? tr("none differs from the baseline") : tr("%1 no change shown").arg(same));
    if (!untested.isEmpty())
        parts << tr("%1 not tested (%2)").arg(untested.size()).arg(untested.join(QStringLiteral(", ")));
    QString line = tr("Step time of %1 candidate(s), Holm over the %2 tested: %3")
                       .arg(m_comparisons.size())
                       .arg(tested)
                       .arg(parts.join(QStringLiteral("; ")));
    if (sharedCaveat(m_comparisons))
        line += QStringLiteral(" (%1)").arg(m_comparisons.front().row(StepPart::Step).caveat);
    return line;
}

QString VariantSteps::leadLine(int candidate) const
{
    const StepBreakdown &steps = m_comparisons[std::size_t(candidate)];
    QString line =
        m_labels.value(candidate) + QStringLiteral(": ") + stepChangeText(steps.row(StepPart::Step));
    if (std::isnan(steps.row(StepPart::Step).delta) || !(steps.row(StepPart::Step).meanA > 0))
        return line;
    // the leaf of the breakdown that moved most: compute and exposed communication when either side
    // communicates, else busy; the idle causes
    const std::vector<StepPart> leaves =
        steps.hasCommunication()
            ? std::vector<StepPart>{StepPart::Compute, StepPart::ExposedComm, StepPart::LaunchLate,
                                    StepPart::GpuWaiting, StepPart::Unknown}
            : std::vector<StepPart>{StepPart::Busy, StepPart::LaunchLate, StepPart::GpuWaiting,
                                    StepPart::Unknown};
    // The part that moved most, with its verdict where it is not judged a change; and then the largest
    // part judged one, if another: naming only the judged part read as where the time went when a
    // part ten times larger had moved without a verdict.
    const auto largest = [&](bool judgedOnly) {
        const StepRow *most = nullptr;
        for (const StepPart part : leaves) {
            const StepRow &row = steps.row(part);
            const bool judged = row.verdict == Verdict::Faster || row.verdict == Verdict::Slower;
            if (!std::isnan(row.delta) && row.delta != 0 && (judged || !judgedOnly) &&
                (!most || std::fabs(row.delta) > std::fabs(most->delta)))
                most = &row;
        }
        return most;
    };
    // a part's change with the interval its verdict was decided from
    const auto named = [](const StepRow &row) {
        QString text = stepPartTitle(row.part) + QLatin1Char(' ') + formatSignedDuration(row.delta);
        if (!std::isnan(row.ciLow) && !std::isnan(row.ciHigh))
            text += QStringLiteral(" [%1, %2]")
                        .arg(formatSignedDuration(row.ciLow), formatSignedDuration(row.ciHigh));
        return row.reason.isEmpty() ? text + QStringLiteral(" (%1)").arg(verdictText(row.verdict)) : text;
    };
    const StepRow *most = largest(false), *judged = largest(true);
    if (most)
        line += QCoreApplication::translate("VariantSteps", ", of which %1").arg(named(*most));
    if (judged && judged != most)
        line += QStringLiteral(", ") + named(*judged);
    // how often steps start, as a pair's step line says it: the span alone had read as throughput
    if (const QString period = steps.periodText(); !period.isEmpty())
        line += QStringLiteral("; ") + period;
    return line;
}

} // namespace scopeline
