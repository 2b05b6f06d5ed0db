// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli steps`: the mean step time of A against B, split into GPU busy and idle by cause.
#include "app/cli/clicommands.h"

#include "model/comparison/stepbreakdown.h"
#include "model/comparison/variantsteps.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace scopeline::cli {

namespace {

QString unitsText(const StepBreakdown &steps, int candidates = 1);

void printSteps(const StepBreakdown &steps)
{
    out() << steps.stepLine() << "\n" << unitsText(steps) << "\n";
    out() << tableText(StepBreakdown::cliColumns(), steps.rows());
}

// candidates: how many comparisons against one baseline are judged together.
QString unitsText(const StepBreakdown &steps, int candidates)
{
    const StepRow &step = steps.row(StepPart::Step);
    const QString families = candidates > 1 ? QStringLiteral("the step rows of the %1 candidates one Holm family, "
                                                             "their parts another")
                                                  .arg(candidates)
                                            : QStringLiteral("the step time alone, its parts Holm among themselves");
    return QStringLiteral("units: %1 (A %2, B %3); Welch test on the per-%4 means, %7, each interval at its "
                          "row's level (alpha %5, threshold %6% of A's step)")
        .arg(steps.byProcess() ? QStringLiteral("processes") : QStringLiteral("runs"))
        .arg(step.unitsA)
        .arg(step.unitsB)
        .arg(steps.byProcess() ? QStringLiteral("process") : QStringLiteral("run"))
        .arg(steps.options().alpha)
        .arg(100 * steps.options().threshold)
        .arg(families);
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

// More than two sides: a lead line per candidate, then each candidate's table against the baseline.
void printVariantSteps(const VariantSteps &variants, const QList<SideArgument> &sides)
{
    out() << "baseline: " << sides[0].label << " (" << sides[0].path << ")\n";
    const StepBreakdown &first = variants.comparisons().front();
    out() << "step scope: " << (first.stepScope().isEmpty() ? QStringLiteral("the whole run") : first.stepScope())
          << "; each candidate against the baseline: the change of the step, in brackets its interval (Fieller's, "
             "of the ratio of the means) at the level the step row is judged\n";
    for (int i = 0; i < int(variants.comparisons().size()); ++i)
        out() << variants.leadLine(i) << "\n";
    for (int i = 0; i < int(variants.comparisons().size()); ++i) {
        const StepBreakdown &steps = variants.comparisons()[std::size_t(i)];
        out() << "\n" << variants.labels()[i] << " (" << sides[i + 1].path << ") against "
              << sides[0].label << "\n"
              << unitsText(steps, int(variants.comparisons().size())) << "\n"
              << tableText(StepBreakdown::cliColumns(), steps.rows());
    }
}

void printVariantStepsJson(const VariantSteps &variants, const Gate &gate, const QList<SideArgument> &sides)
{
    QJsonArray candidates;
    for (int i = 0; i < int(variants.comparisons().size()); ++i) {
        const StepBreakdown &steps = variants.comparisons()[std::size_t(i)];
        candidates.append(QJsonObject{{QStringLiteral("variant"), variants.labels()[i]},
                                      {QStringLiteral("path"), sides[i + 1].path},
                                      {QStringLiteral("unit"), steps.byProcess() ? QStringLiteral("process")
                                                                                 : QStringLiteral("run")},
                                      {QStringLiteral("lead_line"), variants.leadLine(i)},
                                      {QStringLiteral("rows"), tableJson(StepBreakdown::columns(), steps.rows())}});
    }
    const StepBreakdown &first = variants.comparisons().front();
    const QJsonObject root{
        {QStringLiteral("command"), QStringLiteral("steps")},
        {QStringLiteral("baseline"),
         QJsonObject{{QStringLiteral("variant"), sides[0].label}, {QStringLiteral("path"), sides[0].path}}},
        {QStringLiteral("step_scope"), first.stepScope()},
        {QStringLiteral("alpha"), first.options().alpha},
        {QStringLiteral("threshold"), first.options().threshold},
        {QStringLiteral("candidates"), candidates},
        {QStringLiteral("gate"), gateJson(gate)}};
    out() << QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}

void printVariantStepsMarkdown(const VariantSteps &variants, const Gate &gate, const QList<SideArgument> &sides)
{
    out() << "### Scopeline steps\n\n**baseline** `" << sides[0].path << "`\n\n";
    for (int i = 0; i < int(variants.comparisons().size()); ++i)
        out() << "- **" << markdownCell(variants.leadLine(i)) << "**\n";
    for (int i = 0; i < int(variants.comparisons().size()); ++i)
        out() << "\n#### " << markdownCell(variants.labels()[i]) << " `" << sides[i + 1].path << "`\n\n"
              << tableMarkdown(StepBreakdown::cliColumns(), variants.comparisons()[std::size_t(i)].rows());
    out() << gateMarkdown(gate);
}

int variantSteps(const QList<SideArgument> &sides, const StepBreakdownOptions &options, const GateOptions &output,
                 const QString &csv)
{
    LoadedVariants loaded;
    if (!loadVariants(sides, loaded))
        return Unreadable;
    const VariantSteps variants(loaded.baseline, loaded.candidates, loaded.labels, options);
    Gate gate(output.failOn, output.strict);
    for (int i = 0; i < int(variants.comparisons().size()); ++i)
        gate.addStep(variants.comparisons()[std::size_t(i)], loaded.labels[i]);
    if (output.format == OutputFormat::Markdown)
        printVariantStepsMarkdown(variants, gate, sides);
    else if (output.format == OutputFormat::Json)
        printVariantStepsJson(variants, gate, sides);
    else
        printVariantSteps(variants, sides);
    out().flush();
    if (!csv.isEmpty() && !writeTextFile(csv, variants.toCsv()))
        return Unreadable;
    return gateStatus(gate);
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
    QList<SideArgument> sides;
    for (const QString &argument : parser.positionalArguments())
        sides.append(SideArgument::parse(argument));
    if (sides.size() < 2)
        return usageError(QStringLiteral("steps needs two paths, A and B, or a baseline and candidates"));
    const QStringList positional = {sides[0].path, sides[1].path};
    StepBreakdownOptions options;
    int status = Success;
    if (!parseLevels(parser, o.alpha, o.threshold, options.alpha, options.threshold, status))
        return status;
    if (!parseStepScope(parser, o.step, options.stepScope, status))
        return status;
    GateOptions output;
    if (!parseGateOptions(parser, output, status))
        return status;

    if (sides.size() > 2)
        return variantSteps(sides, options, output, parser.isSet(o.csv) ? parser.value(o.csv) : QString());
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
