// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli steps`: the mean step time of A against B, split into GPU busy and idle by cause.
#include "clicommands.h"

#include "model/stepbreakdown.h"

#include <QCommandLineParser>

namespace scopeline::cli {

namespace {

void printSteps(const StepBreakdown &steps)
{
    out() << steps.stepLine() << "\n";
    const StepRow &step = steps.row(StepPart::Step);
    out() << "units: " << (steps.byProcess() ? "processes" : "runs") << " (A " << step.unitsA << ", B "
          << step.unitsB << "); Welch test on the per-" << (steps.byProcess() ? "process" : "run")
          << " means, Holm over the rows (alpha " << steps.options().alpha << ", threshold "
          << 100 * steps.options().threshold << "% of A's step)\n";
    out() << tableText(StepBreakdown::cliColumns(), steps.rows());
}

} // namespace

int stepsCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption stepOption(
        QStringLiteral("step"), QStringLiteral("The step scope (\"whole-run\": the run is one step)."),
        QStringLiteral("SCOPE"));
    const QCommandLineOption csvOption(QStringLiteral("csv"), QStringLiteral("Write the rows as CSV."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption alphaOption(QStringLiteral("alpha"), QStringLiteral("Significance level."),
                                         QStringLiteral("P"), QStringLiteral("0.05"));
    const QCommandLineOption thresholdOption(
        QStringLiteral("threshold"), QStringLiteral("Smallest change that counts, in % of A's step time."),
        QStringLiteral("PERCENT"), QStringLiteral("1"));
    parser.addOptions({stepOption, csvOption, alphaOption, thresholdOption});
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return usageError(QStringLiteral("steps needs two paths, A and B"));
    StepBreakdownOptions options;
    int status = Success;
    if (!parseLevels(parser, alphaOption, thresholdOption, options.alpha, options.threshold, status))
        return status;
    if (!parseStepScope(parser, stepOption, options.stepScope, status))
        return status;

    QList<LoadedRun> a, b;
    if (!loadPaths({positional[0]}, a) || !loadPaths({positional[1]}, b))
        return Unreadable;
    const StepBreakdown steps(a, b, options);
    out() << "A: " << positional[0] << "\nB: " << positional[1] << "\n";
    printSteps(steps);
    out().flush();
    if (steps.row(StepPart::Step).stepsA == 0 || steps.row(StepPart::Step).stepsB == 0)
        err() << "scopeline-cli: warning: no step of " << steps.stepScope()
              << " with kernels on a side; --step SCOPE picks another (scopeline-cli scopes lists them)\n";
    if (parser.isSet(csvOption) && !writeTextFile(parser.value(csvOption), steps.toCsv()))
        return Unreadable;
    return Success;
}

} // namespace scopeline::cli
