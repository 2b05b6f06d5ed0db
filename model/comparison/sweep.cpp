// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/sweep.h"

#include "model/comparison/kerneldiff.h"
#include "model/comparison/variantsteps.h"
#include "model/tables/tableformat.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace scopeline {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Sweep", text);
}

// The runs' steps of one scope, as the step breakdown counts them.
std::vector<RunSteps> stepsOf(const QList<LoadedRun> &runs, const QString &scope)
{
    std::vector<RunSteps> out;
    for (const LoadedRun &run : runs)
        if (run.summary)
            out.push_back(runStepsOf(run, scope));
    return out;
}

} // namespace

std::vector<double> Sweep::parameters(const QStringList &labels, QString *why)
{
    // NAME=VALUE or VALUE; a value in any form a number is written in (5, 0.5, .5, 1e-4)
    static const QRegularExpression rule(
        QStringLiteral("^(?:([A-Za-z_][\\w.]*)=)?(-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?)$"));
    const auto fail = [why](const QString &reason) {
        if (why)
            *why = reason;
        return std::vector<double>();
    };
    std::vector<double> values;
    QString name;
    for (const QString &label : labels) {
        const QRegularExpressionMatch match = rule.match(label);
        bool ok = false;
        const double value = match.hasMatch() ? match.captured(2).toDouble(&ok) : 0;
        if (!ok || !std::isfinite(value))
            return fail(tr("'%1' is not a number, nor NAME=number").arg(label));
        if (values.empty())
            name = match.captured(1);
        else if (match.captured(1) != name)
            return fail(tr("'%1' and '%2' name different parameters").arg(labels.front(), label));
        if (const auto same = std::find(values.begin(), values.end(), value); same != values.end())
            return fail(
                tr("two variants at one value (%1 and %2)").arg(labels[same - values.begin()], label));
        values.push_back(value);
    }
    // 2.4, 2.10, 2.11 are versions, not numbers (2.10 would sort before 2.4): a fraction written with
    // a trailing zero beside a shorter fraction is read as one
    const auto fraction = [](const QString &label) {
        const QString value = label.section(QLatin1Char('='), -1);
        const qsizetype point = value.indexOf(QLatin1Char('.'));
        return point < 0 || value.contains(QLatin1Char('e'), Qt::CaseInsensitive) ? QString()
                                                                                  : value.mid(point + 1);
    };
    for (const QString &label : labels)
        if (const QString digits = fraction(label); digits.endsWith(QLatin1Char('0')))
            for (const QString &other : labels)
                if (const QString shorter = fraction(other);
                    !shorter.isEmpty() && shorter.size() < digits.size())
                    return fail(tr("'%1' beside '%2' reads as a version, not a number").arg(label, other));
    return values;
}

QString Sweep::parameterName(const QStringList &labels)
{
    return labels.value(0).contains(QLatin1Char('=')) ? labels.front().section(QLatin1Char('='), 0, 0)
                                                      : tr("parameter");
}

QString Sweep::valueText(double parameter)
{
    return QString::number(parameter, 'g', QLocale::FloatingPointShortest);
}

std::vector<int> Sweep::tableOrder(int variants, const std::vector<double> &parameters)
{
    std::vector<int> order(std::size_t(std::max(0, variants)));
    std::iota(order.begin(), order.end(), 0);
    if (order.size() > 2 && parameters.size() == order.size())
        std::stable_sort(order.begin() + 1, order.end(), [&](int a, int b) {
            return parameters[std::size_t(a)] < parameters[std::size_t(b)];
        });
    return order;
}

Sweep::Sweep(std::vector<SweepPoint> points, const QString &stepScope, const StepBreakdownOptions &options)
    : m_points(std::move(points)), m_stepScope(stepScope), m_options(options)
{
    std::stable_sort(m_points.begin(), m_points.end(),
                     [](const SweepPoint &a, const SweepPoint &b) { return a.parameter < b.parameter; });
    compare();
}

Sweep Sweep::ofVariants(const std::vector<QList<LoadedRun>> &sides, const QStringList &labels,
                        const std::vector<double> &parameters, const StepBreakdownOptions &options)
{
    const QString scope = stepScopeFor(options.stepScope, sides);
    std::vector<SweepPoint> points;
    for (std::size_t i = 0; i < sides.size() && i < parameters.size(); ++i)
        points.push_back({parameters[i], labels.value(qsizetype(i)), stepsOf(sides[i], scope), sides[i]});
    return Sweep(std::move(points), scope, options);
}

Sweep Sweep::ofScopes(const QList<LoadedRun> &runs, const QString &pattern,
                      const StepBreakdownOptions &options, QString *why)
{
    std::set<QString> names;
    for (const LoadedRun &run : runs)
        if (run.scopes)
            for (const ScopeIndex::Scope &scope : run.scopes->scopes())
                names.insert(scope.name);
    const QRegularExpression rule(QStringLiteral("^(?:%1)$").arg(pattern));
    std::vector<SweepPoint> points;
    for (const QString &name : names) {
        const QRegularExpressionMatch match = rule.match(name);
        bool ok = false;
        const double value = match.hasMatch() ? match.captured(1).toDouble(&ok) : 0;
        if (!ok)
            continue;
        if (const auto same = std::find_if(points.begin(), points.end(),
                                           [value](const SweepPoint &p) { return p.parameter == value; });
            same != points.end()) {
            if (why)
                *why = tr("two scopes at one value (%1 and %2)").arg(same->label, name);
            return Sweep({}, QString(), options);
        }
        points.push_back({value, name, stepsOf(runs, name), {}});
    }
    return Sweep(std::move(points), QString(), options);
}

void Sweep::compare()
{
    m_adjacent.clear();
    for (std::size_t i = 0; i + 1 < m_points.size(); ++i)
        m_adjacent.emplace_back(m_points[i].runs, m_points[i + 1].runs, m_stepScope, m_options);
    StepBreakdown::judgeTogether(m_adjacent);

    // The jump: of the neighbours called faster or slower, the one whose step changes most for its
    // change of parameter (|Δ log step / Δ log parameter|, the local scaling exponent, so that a step
    // growing as K² does not jump at every K); with a parameter ≤ 0, the largest relative change.
    const bool positive =
        std::all_of(m_points.begin(), m_points.end(), [](const SweepPoint &p) { return p.parameter > 0; });
    m_jump = -1;
    double largest = 0;
    for (int i = 0; i < int(m_adjacent.size()); ++i) {
        const StepRow &step = m_adjacent[std::size_t(i)].row(StepPart::Step);
        const double from = m_points[std::size_t(i)].parameter, to = m_points[std::size_t(i) + 1].parameter;
        const double ratio = step.meanA > 0 ? (step.meanA + step.delta) / step.meanA : 0;
        const double change = !(ratio > 0)            ? 0
                              : positive && to > from ? std::fabs(std::log(ratio) / std::log(to / from))
                                                      : std::fabs(ratio - 1);
        if ((step.verdict == Verdict::Faster || step.verdict == Verdict::Slower) && change > largest) {
            largest = change;
            m_jump = i;
        }
    }
    // the kernels on one side of each adjacent pair only, by their time per run
    m_vanished.assign(m_adjacent.size(), {});
    m_appeared.assign(m_adjacent.size(), {});
    for (std::size_t i = 0; i < m_adjacent.size(); ++i) {
        if (m_points[i].loaded.isEmpty() || m_points[i + 1].loaded.isEmpty())
            continue;
        const KernelDiff diff(m_points[i].loaded, m_points[i + 1].loaded);
        for (const KernelDiffRow &row : diff.rows()) { // by |Δ time per run|, the larger first
            if (row.oneSide())                         // where it ran, tested or not
                (row.a.present() ? m_vanished[i] : m_appeared[i]) << row.kernel;
        }
    }
}

QString Sweep::noJumpText() const
{
    if (m_jump >= 0)
        return {};
    QString reason;
    int untested = 0;
    for (const StepBreakdown &pair : m_adjacent)
        if (const StepRow &step = pair.row(StepPart::Step); std::isnan(step.p)) {
            ++untested;
            reason = step.verdictText();
        }
    if (untested == 0)
        return tr("no neighbours differ");
    if (untested == int(m_adjacent.size()))
        return tr("no neighbours could be tested (%1)").arg(reason);
    return tr("no neighbours differ of those tested; %1 of %2 could not be (%3)")
        .arg(untested)
        .arg(m_adjacent.size())
        .arg(reason);
}

double Sweep::stepNs(std::size_t point) const
{
    return point == 0 ? m_adjacent.front().row(StepPart::Step).meanA
                      : m_adjacent[point - 1].row(StepPart::Step).meanB;
}

QStringList Sweep::vanished(int pair) const
{
    return m_vanished.at(std::size_t(pair));
}

QStringList Sweep::appeared(int pair) const
{
    return m_appeared.at(std::size_t(pair));
}

std::vector<VariantStepRow> Sweep::adjacentRows() const
{
    std::vector<VariantStepRow> rows;
    for (std::size_t i = 0; i < m_adjacent.size(); ++i) {
        const QString label = QStringLiteral("%1→%2").arg(valueText(m_points[i].parameter),
                                                          valueText(m_points[i + 1].parameter));
        for (const StepRow &row : m_adjacent[i].rows())
            rows.push_back({label, row, row.ratio()});
    }
    return rows;
}

QString Sweep::pairLine(int pair, const QString &name) const
{
    const SweepPoint &from = m_points[std::size_t(pair)], &to = m_points[std::size_t(pair) + 1];
    const StepRow &step = m_adjacent[std::size_t(pair)].row(StepPart::Step);
    QString line =
        QStringLiteral("%1 %2 → %3: ").arg(name, valueText(from.parameter), valueText(to.parameter));
    line += stepChangeText(step);
    const QStringList gone = vanished(pair), come = appeared(pair);
    if (!gone.isEmpty() && !come.isEmpty())
        line += tr(", %1 replaced by %2").arg(gone.front(), come.front());
    else if (!come.isEmpty())
        line += tr(", %1 appears").arg(come.front());
    else if (!gone.isEmpty())
        line += tr(", %1 vanishes").arg(gone.front());
    return line;
}

QString variantStepsCsv(const VariantSteps &variants, const Sweep *sweep)
{
    std::vector<VariantStepRow> rows = variants.rows();
    if (sweep)
        for (VariantStepRow &row : sweep->adjacentRows())
            rows.push_back(std::move(row));
    return VariantSteps::csv(rows);
}

} // namespace scopeline
