// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli steps`: the mean step time of A against B, split into GPU busy and idle by cause.
#include "app/cli/clicommands.h"

#include "model/comparison/stepbreakdown.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>

namespace scopeline::cli {

namespace {

QString unitsText(const StepBreakdown &steps);

void printSteps(const StepBreakdown &steps)
{
    out() << steps.stepLine() << "\n" << unitsText(steps) << "\n";
    out() << tableText(StepBreakdown::cliColumns(), steps.rows());
}

QString unitsText(const StepBreakdown &steps)
{
    const StepRow &step = steps.row(StepPart::Step);
    return QStringLiteral("units: %1 (A %2, B %3); Welch test on the per-%4 means, the step time alone, its "
                          "parts Holm among themselves, each interval at its row's level (alpha %5, "
                          "threshold %6% of A's step)")
        .arg(steps.byProcess() ? QStringLiteral("processes") : QStringLiteral("runs"))
        .arg(step.unitsA)
        .arg(step.unitsB)
        .arg(steps.byProcess() ? QStringLiteral("process") : QStringLiteral("run"))
        .arg(steps.options().alpha)
        .arg(100 * steps.options().threshold);
}

// The pull-request comment: the sides, the step line, the components as a table, the gate.
void printStepsMarkdown(const StepBreakdown &steps, const Gate &gate, const QString &pathA, const QString &pathB)
{
    out() << "### Scopeline steps\n\n"
          << "**A** `" << pathA << "` · **B** `" << pathB << "`\n\n"
          << "**" << markdownCell(steps.stepLine()) << "**\n\n"
          << markdownCell(unitsText(steps)) << "\n\n"
          << tableMarkdown(StepBreakdown::cliColumns(), steps.rows()) << gateMarkdown(gate);
}

void printStepsJson(const StepBreakdown &steps, const Gate &gate, const QString &pathA, const QString &pathB)
{
    const QJsonObject root{
        {QStringLiteral("command"), QStringLiteral("steps")},
        {QStringLiteral("a"), QJsonObject{{QStringLiteral("path"), pathA}}},
        {QStringLiteral("b"), QJsonObject{{QStringLiteral("path"), pathB}}},
        {QStringLiteral("step_scope"), steps.stepScope()},
        {QStringLiteral("unit"), steps.byProcess() ? QStringLiteral("process") : QStringLiteral("run")},
        {QStringLiteral("alpha"), steps.options().alpha},
        {QStringLiteral("threshold"), steps.options().threshold},
        {QStringLiteral("step_line"), steps.stepLine()},
        {QStringLiteral("rows"), tableJson(StepBreakdown::columns(), steps.rows())},
        {QStringLiteral("gate"), gateJson(gate)}};
    out() << QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}

} // namespace

int stepsCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const StepCommandOptions o;
    parser.addOptions(o.all());
    parser.addOptions(gateOptionList());
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return usageError(QStringLiteral("steps needs two paths, A and B"));
    StepBreakdownOptions options;
    int status = Success;
    if (!parseLevels(parser, o.alpha, o.threshold, options.alpha, options.threshold, status))
        return status;
    if (!parseStepScope(parser, o.step, options.stepScope, status))
        return status;
    GateOptions output;
    if (!parseGateOptions(parser, output, status))
        return status;

    QList<LoadedRun> a, b;
    if (!loadPaths({positional[0]}, a) || !loadPaths({positional[1]}, b))
        return Unreadable;
    const StepBreakdown steps(a, b, options);
    Gate gate(output.failOn, output.strict);
    gate.addStep(steps);
    if (output.format == OutputFormat::Markdown)
        printStepsMarkdown(steps, gate, positional[0], positional[1]);
    else if (output.format == OutputFormat::Json)
        printStepsJson(steps, gate, positional[0], positional[1]);
    else {
        out() << "A: " << positional[0] << "\nB: " << positional[1] << "\n";
        printSteps(steps);
    }
    out().flush();
    if (steps.row(StepPart::Step).stepsA == 0 || steps.row(StepPart::Step).stepsB == 0)
        err() << "scopeline-cli: warning: no step of " << steps.stepScope()
              << " with kernels on a side; --step SCOPE picks another (scopeline-cli scopes lists them)\n";
    if (parser.isSet(o.csv) && !writeTextFile(parser.value(o.csv), steps.toCsv()))
        return Unreadable;
    return gateStatus(gate);
}

} // namespace scopeline::cli
