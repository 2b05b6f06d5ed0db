// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/gate.h"

#include "model/tables/tableformat.h"

#include <QCoreApplication>

#include <cmath>

namespace scopeline {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Gate", text);
}

// A row of one candidate of several: "reduce-overhead: step time (…)".
QString ofVariant(const QString &variant, const QString &name)
{
    return variant.isEmpty() ? name : variant + QStringLiteral(": ") + name;
}

} // namespace

bool parseGateMode(const QString &text, GateMode &mode)
{
    if (text == QLatin1String("slower"))
        mode = GateMode::Slower;
    else if (text == QLatin1String("change"))
        mode = GateMode::Change;
    else
        return false;
    return true;
}

QString Gate::optionText() const
{
    return m_mode == GateMode::Off ? QString()
                                   : QStringLiteral("--fail-on %1%2").arg(gateModeName(m_mode),
                                                                          m_strict ? QStringLiteral(" --strict")
                                                                                   : QString());
}

QString gateModeName(GateMode mode)
{
    switch (mode) {
    case GateMode::Off:
        return {};
    case GateMode::Slower:
        return QStringLiteral("slower");
    case GateMode::Change:
        return QStringLiteral("change");
    }
    return {};
}

QString GateRow::verdictWords() const
{
    return verdict == Verdict::NoSignificantChange && std::isnan(p) ? tr("not tested") : verdictText(verdict);
}

QString GateRow::text() const
{
    QString line = QStringLiteral("%1: %2").arg(name, verdictWords());
    if (!std::isnan(change))
        line += QStringLiteral(", ") + formatChange(change);
    if (!interval.isEmpty()) // the interval the verdict was decided from, beside it
        line += QLatin1Char(' ') + interval;
    if (!std::isnan(p))
        line += (holm ? tr(" (Holm p %1)") : tr(" (p %1)")).arg(formatPValue(p));
    if (!caveat.isEmpty())
        line += QStringLiteral("; ") + caveat;
    return line;
}

void Gate::add(GateRow row)
{
    const bool named = m_mode == GateMode::Slower ? row.verdict == Verdict::Slower
                       : m_mode == GateMode::Change
                           ? row.verdict == Verdict::Slower || row.verdict == Verdict::Faster
                           : false;
    if (!named)
        return;
    (row.caveat.isEmpty() || m_strict ? m_tripped : m_waived).push_back(std::move(row));
}

void Gate::addStep(const StepBreakdown &steps, const QString &variant)
{
    if (steps.sameRuns())
        return; // not judged once, as A against B (addSameRuns)
    const StepRow &s = steps.row(StepPart::Step);
    GateRow row;
    row.table = QStringLiteral("step");
    row.name = ofVariant(variant, tr("step time (%1)").arg(steps.stepScope().isEmpty() ? tr("the whole run")
                                                                                        : steps.stepScope()));
    row.verdict = s.stepsA == 0 || s.stepsB == 0 ? Verdict::NotFound : s.verdict;
    row.change = s.meanA > 0 ? s.delta / s.meanA : std::nan("");
    row.p = s.p;
    if (row.verdict == Verdict::NotFound || std::isnan(s.p)) { // no steps on a side, or too few runs
        row.caveat = s.reason;
        if (m_mode != GateMode::Off)
            m_unjudged.push_back(std::move(row));
        return;
    }
    row.holm = !variant.isEmpty(); // the candidates' steps are one Holm family
    row.interval = s.changeIntervalText();
    row.caveat = s.caveat;
    add(std::move(row));
}

void Gate::addSameRuns(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &variant)
{
    if (m_mode == GateMode::Off || !sameRuns(a, b))
        return;
    GateRow row;
    row.table = QStringLiteral("step");
    row.name = variant.isEmpty() ? tr("A against B") : ofVariant(variant, tr("against the baseline"));
    row.caveat = tr("the same runs on both sides (they read the same files): nothing is compared");
    m_unjudged.push_back(std::move(row));
}

void Gate::addRanks(const RankTable &ranks, const QString &variant)
{
    if (ranks.comparison().empty())
        return;
    const RankComparisonRow &mean = ranks.comparison().front();
    GateRow row;
    row.table = QStringLiteral("step");
    row.name = ofVariant(variant, tr("step time, mean over ranks (%1)").arg(ranks.stepScopeText()));
    row.verdict = mean.verdict;
    row.change = mean.meanA > 0 ? mean.delta / mean.meanA : std::nan("");
    row.p = mean.p;
    row.holm = !variant.isEmpty(); // the candidates' means are one Holm family
    if (!mean.reason.isEmpty()) { // no steps on a side, or too few runs (processes) to test
        row.caveat = mean.reason;
        if (m_mode != GateMode::Off)
            m_unjudged.push_back(std::move(row));
        return;
    }
    if (mean.meanA > 0)
        row.interval = formatChangeBounds(mean.ciLow / mean.meanA, mean.ciHigh / mean.meanA);
    row.caveat = ranks.caveat();
    add(std::move(row));
}

void Gate::addKernelDiff(const KernelDiff &diff, const QString &variant)
{
    for (const KernelDiffRow &r : diff.rows()) {
        GateRow row;
        row.table = diff.options().byOp ? QStringLiteral("op") : QStringLiteral("kernel");
        row.name = ofVariant(variant, r.kernel);
        row.verdict = r.verdict;
        row.change = r.runLevel.change;
        row.p = r.runLevelHolm;
        row.interval = formatChangeBounds(r.runLevel.ciLow, r.runLevel.ciHigh);
        row.caveat = r.caveat;
        if (r.verdict == Verdict::OnlyInA || r.verdict == Verdict::OnlyInB) {
            // a kernel of B alone adds time, one of A alone takes it away
            const bool named =
                m_mode == GateMode::Change || (m_mode == GateMode::Slower && r.verdict == Verdict::OnlyInB);
            if (named && r.runLevelHolm < diff.options().alpha)
                m_oneSideOnly.push_back(std::move(row));
            continue;
        }
        add(std::move(row));
    }
}

void Gate::addScopeComparison(const std::vector<ComparisonRow> &rows, double alpha, double threshold)
{
    for (const ComparisonRow &r : rows) {
        if (!r.verdictRow || r.sameRuns) // the same runs: not judged once, as A against B (addSameRuns)
            continue;
        GateRow row;
        row.table = QStringLiteral("scope");
        row.name = r.isPooled() ? tr("%1 (all runs)").arg(r.scope) : tr("%1 (run %2)").arg(r.scope, r.run);
        row.verdict = r.verdict(alpha, threshold);
        if (row.verdict == Verdict::NotFound || row.verdict == Verdict::OnlyInA ||
            row.verdict == Verdict::OnlyInB) { // a scope on one side is not compared: it gates nothing
            // why, where the verdict's words do not say it ("no scope names in B")
            const QString why = r.verdictText(alpha, threshold);
            row.caveat = row.verdict == Verdict::NotFound  ? tr("on neither side")
                         : why == verdictText(row.verdict) ? QString()
                                                           : why;
            if (m_mode != GateMode::Off)
                m_unjudged.push_back(std::move(row));
            continue;
        }
        if (!r.untested.isEmpty()) { // runs on a side, too few units on the other: nothing tested
            row.caveat = r.untested;
            if (m_mode != GateMode::Off)
                m_unjudged.push_back(std::move(row));
            continue;
        }
        if (r.hasRunLevel()) {
            row.change = r.runLevel.change;
            row.p = r.runLevelHolm;
            row.interval = formatChangeBounds(r.runLevel.ciLow, r.runLevel.ciHigh);
            row.caveat = r.caveat;
        } else {
            // Samples of one run share its conditions: the per-sample test may have found that run's luck.
            row.change = r.relativeChange;
            row.p = r.mannWhitneyHolm;
            if (const QString shift = r.shiftIntervalText(); !shift.isEmpty())
                row.interval = tr("shift %1").arg(shift);
            row.caveat = tr("one run a side: run-to-run variation not measured");
        }
        add(std::move(row));
    }
}

QString Gate::summary() const
{
    if (m_mode == GateMode::Off)
        return {};
    const QString what = m_mode == GateMode::Slower ? verdictText(Verdict::Slower) : tr("B faster or slower");
    const auto rows = [](std::size_t n) { return n == 1 ? tr("1 row") : tr("%1 rows").arg(n); };
    QStringList failures;
    if (!m_tripped.empty())
        failures << tr("%1 %2").arg(rows(m_tripped.size()), what);
    if (!m_unjudged.empty())
        failures << tr("%1 not judged").arg(rows(m_unjudged.size()));
    QString line =
        failures.isEmpty() ? tr("passed") : tr("failed, %1").arg(failures.join(QStringLiteral(", ")));
    if (!m_waived.empty())
        line += tr("; %1 %2 with a caveat, not counted (--strict counts them)").arg(rows(m_waived.size()), what);
    if (!m_oneSideOnly.empty())
        line +=
            tr("; %1 of one side only, not counted (new, gone or renamed: their time is in the step)")
                .arg(m_oneSideOnly.size() == 1 ? tr("1 kernel") : tr("%1 kernels").arg(m_oneSideOnly.size()));
    return line;
}

} // namespace scopeline
