// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli steps`: the mean step time of A against B, split into GPU busy and idle by cause.
#include "app/cli/clicommands.h"

#include "model/comparison/stepbreakdown.h"
#include "model/comparison/sweep.h"
#include "model/comparison/variantsteps.h"
#include "model/runner/hipbenchprotocol.h"
#include "model/tables/durationformat.h"
#include "model/tables/tableformat.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <optional>

namespace scopeline::cli {

namespace {

QString unitsText(const StepBreakdown &steps, int candidates = 1);

void printSteps(const StepBreakdown &steps)
{
    out() << printable(steps.stepLine()) << "\n" << unitsText(steps) << "\n";
    if (const QString note = steps.note(); !note.isEmpty()) // before the table, as markdown has it
        for (const QString &line : note.split(QLatin1Char('\n')))
            out() << printable(line) << "\n"; // run names from the trace, its control bytes shown
    out() << tableText(StepBreakdown::cliColumns(), steps.rows());
}

// candidates: how many comparisons against one baseline are judged together.
QString unitsText(const StepBreakdown &steps, int candidates)
{
    const StepRow &step = steps.row(StepPart::Step);
    const QString families =
        candidates > 1 ? QStringLiteral("the step rows of the %1 candidates tested one Holm family, "
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
void printStepsMarkdown(const StepBreakdown &steps, const Gate &gate, const QString &pathA,
                        const QString &pathB)
{
    const QString note = steps.note();
    out() << "### Scopeline steps\n\n"
          << "**A** " << markdownCode(pathA) << " · **B** " << markdownCode(pathB) << "\n\n"
          << "**" << markdownCell(steps.stepLine()) << "**\n\n"
          << markdownCell(unitsText(steps)) << "\n\n"
          << (note.isEmpty() ? QString() : markdownCell(note) + QStringLiteral("\n\n"))
          << tableMarkdown(StepBreakdown::cliColumns(), steps.rows()) << closingMarkdown(gate);
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
        {QStringLiteral("note"), steps.note()},
        {QStringLiteral("rows"), tableJson(StepBreakdown::columns(), steps.rows())},
        {QStringLiteral("gate"), gateJson(gate)}};
    printJson(root);
}

// More than two sides: a lead line per candidate, then each candidate's table against the baseline.
// A candidate's table: the variants' columns but the variant, which its heading names.
std::vector<TableColumn<VariantStepRow>> candidateColumns()
{
    return {VariantSteps::columns().begin() + 1, VariantSteps::columns().end()};
}

void printVariantSteps(const VariantSteps &variants, const QList<SideArgument> &sides)
{
    out() << "baseline (A): " << sides[0].label << " (" << sides[0].path << ")\n";
    const StepBreakdown &first = variants.comparisons().front();
    out() << "step scope: "
          << (first.stepScope().isEmpty() ? QStringLiteral("the whole run") : printable(first.stepScope()))
          << "; each candidate (B) against the baseline: the change of the step, in brackets its interval "
             "(Fieller's, "
             "of the ratio of the means) at the level the step row is judged\n";
    for (int i = 0; i < int(variants.comparisons().size()); ++i)
        out() << printable(variants.leadLine(i)) << "\n";
    if (variants.comparisons().size() > 1) // the answer over them all (an A/A set: none differs)
        out() << variants.summaryLine() << "\n";
    // the family is the candidates whose step has a p (one run on a side has none)
    const auto tested =
        std::count_if(variants.comparisons().begin(), variants.comparisons().end(),
                      [](const StepBreakdown &c) { return !std::isnan(c.row(StepPart::Step).pRaw); });
    for (int i = 0; i < int(variants.comparisons().size()); ++i) {
        const StepBreakdown &steps = variants.comparisons()[std::size_t(i)];
        out() << "\n"
              << variants.labels()[i] << " (" << sides[i + 1].path << ") against " << sides[0].label << "\n"
              << unitsText(steps, int(tested)) << "\n"
              << tableText(candidateColumns(), variants.rows(i));
    }
}

// A sweep's points, its neighbours compared (each one's line and rows) and the jump, for --format json.
QJsonObject sweepJson(const Sweep &sweep, const QString &name)
{
    QJsonArray points, neighbours;
    for (std::size_t i = 0; i < sweep.points().size(); ++i)
        points.append(QJsonObject{{QStringLiteral("parameter"), sweep.points()[i].parameter},
                                  {QStringLiteral("label"), sweep.points()[i].label},
                                  {QStringLiteral("step_ns"), jsonValue(sweep.stepNs(i))}});
    for (int i = 0; i < int(sweep.adjacent().size()); ++i)
        neighbours.append(
            QJsonObject{{QStringLiteral("from"), sweep.points()[std::size_t(i)].parameter},
                        {QStringLiteral("to"), sweep.points()[std::size_t(i) + 1].parameter},
                        {QStringLiteral("line"), sweep.pairLine(i, name)},
                        {QStringLiteral("rows"),
                         tableJson(StepBreakdown::columns(), sweep.adjacent()[std::size_t(i)].rows())}});
    return {{QStringLiteral("parameter"), name},
            {QStringLiteral("points"), points},
            {QStringLiteral("neighbours"), neighbours},
            {QStringLiteral("jump"),
             sweep.jump() >= 0 ? QJsonValue(sweep.pairLine(sweep.jump(), name)) : QJsonValue()}};
}

void printSweepMarkdown(const Sweep &sweep, const QString &name)
{
    out() << "\n#### Sweep over " << markdownCell(name) << ": neighbours compared\n\n";
    for (int i = 0; i < int(sweep.adjacent().size()); ++i)
        out() << "- " << (i == sweep.jump() ? QStringLiteral("**jump:** ") : QString())
              << markdownCell(sweep.pairLine(i, name)) << "\n";
}

void printVariantStepsJson(const VariantSteps &variants, const Gate &gate, const QList<SideArgument> &sides,
                           const QJsonObject &sweep)
{
    QJsonArray candidates;
    for (int i = 0; i < int(variants.comparisons().size()); ++i) {
        const StepBreakdown &steps = variants.comparisons()[std::size_t(i)];
        const stats::RatioInterval ratio = variants.stepRatio(i);
        candidates.append(QJsonObject{
            {QStringLiteral("variant"), variants.labels()[i]},
            {QStringLiteral("path"), sides[i + 1].path},
            {QStringLiteral("unit"), steps.byProcess() ? QStringLiteral("process") : QStringLiteral("run")},
            {QStringLiteral("lead_line"), variants.leadLine(i)},
            {QStringLiteral("step_ratio"), QJsonObject{{QStringLiteral("ratio"), jsonValue(ratio.ratio)},
                                                       {QStringLiteral("ci_low"), jsonValue(ratio.low)},
                                                       {QStringLiteral("ci_high"), jsonValue(ratio.high)}}},
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
        {QStringLiteral("summary"), variants.summaryLine()},
        {QStringLiteral("sweep"), sweep.isEmpty() ? QJsonValue() : QJsonValue(sweep)},
        {QStringLiteral("gate"), gateJson(gate)}};
    printJson(root);
}

void printVariantStepsMarkdown(const VariantSteps &variants, const Gate &gate,
                               const QList<SideArgument> &sides)
{
    out() << "### Scopeline steps\n\n**baseline** " << markdownCode(sides[0].path) << "\n\n";
    for (int i = 0; i < int(variants.comparisons().size()); ++i)
        out() << "- **" << markdownCell(variants.leadLine(i)) << "**\n";
    if (variants.comparisons().size() > 1)
        out() << "\n" << markdownCell(variants.summaryLine()) << "\n";
    for (int i = 0; i < int(variants.comparisons().size()); ++i)
        out() << "\n#### " << markdownCell(variants.labels()[i]) << " " << markdownCode(sides[i + 1].path)
              << "\n\n"
              << tableMarkdown(candidateColumns(), variants.rows(i));
    out() << closingMarkdown(gate);
}

void printSweepText(const Sweep &sweep, const QString &name)
{
    out() << "sweep over " << name << ": " << sweep.points().size() << " points; neighbours compared ("
          << sweep.adjacent().size() << (sweep.adjacent().size() == 1 ? " test" : " tests")
          << ", their step rows one Holm family, their parts another)\n";
    for (std::size_t i = 0; i < sweep.points().size(); ++i)
        out() << "  " << name << " " << Sweep::valueText(sweep.points()[i].parameter) << ": step "
              << formatDuration(sweep.stepNs(i)) << " (" << sweep.points()[i].label << ")\n";
    for (int i = 0; i < int(sweep.adjacent().size()); ++i)
        out() << sweep.pairLine(i, name) << "\n";
    out() << (sweep.jump() >= 0 ? QStringLiteral("jump: ") + sweep.pairLine(sweep.jump(), name)
                                : QStringLiteral("no jump: ") + sweep.noJumpText())
          << "\n";
}

// A sweep: each point's step, the neighbours compared (k − 1 tests, Holm), and where it jumps.
int printSweep(const Sweep &sweep, const QString &name, const QString &csv, OutputFormat format)
{
    if (sweep.points().size() < 2) {
        err() << "scopeline-cli: a sweep needs two points or more; " << sweep.points().size() << " found\n";
        return Unreadable;
    }
    if (format == OutputFormat::Json)
        printJson(QJsonObject{{QStringLiteral("command"), QStringLiteral("steps")},
                              {QStringLiteral("sweep"), sweepJson(sweep, name)}});
    else if (format == OutputFormat::Markdown)
        printSweepMarkdown(sweep, name);
    else
        printSweepText(sweep, name);
    if (!csv.isEmpty() && !writeTextFile(csv, VariantSteps::csv(sweep.adjacentRows())))
        return Unreadable;
    return Success;
}

// sweep: the parameter's name when the labels are numbers (then the neighbours are compared too).
int variantSteps(const QList<SideArgument> &sides, const StepBreakdownOptions &options,
                 const GateOptions &output, const QString &csv, const QString &sweep = {})
{
    LoadedVariants loaded;
    if (const int status = loadVariants(sides, loaded); status != Success)
        return status;
    const VariantSteps variants(loaded.baseline, loaded.candidates, loaded.labels, options);
    Gate gate(output.failOn, output.strict);
    for (int i = 0; i < int(variants.comparisons().size()); ++i) {
        gate.addSameRuns(loaded.baseline, loaded.candidates[std::size_t(i)], loaded.labels[i]);
        gate.addStep(variants.comparisons()[std::size_t(i)], loaded.labels[i]);
    }
    std::optional<Sweep> swept;
    if (!sweep.isEmpty()) {
        std::vector<QList<LoadedRun>> all{loaded.baseline};
        all.insert(all.end(), loaded.candidates.begin(), loaded.candidates.end());
        QStringList labels{sides[0].label};
        labels << loaded.labels;
        swept.emplace(Sweep::ofVariants(all, labels, Sweep::parameters(labels), options));
    }
    if (output.format == OutputFormat::Markdown) {
        printVariantStepsMarkdown(variants, gate, sides);
        if (swept)
            printSweepMarkdown(*swept, sweep);
    } else if (output.format == OutputFormat::Json) {
        printVariantStepsJson(variants, gate, sides, swept ? sweepJson(*swept, sweep) : QJsonObject());
    } else {
        printVariantSteps(variants, sides);
        if (swept) {
            out() << "\n";
            printSweepText(*swept, sweep);
        }
    }
    out().flush();
    for (std::size_t i = 0; i < variants.comparisons().size(); ++i)
        warnStepsMissing(variants.comparisons()[i], sides[0].label, loaded.labels[qsizetype(i)]);
    if (!csv.isEmpty() && !writeTextFile(csv, variantStepsCsv(variants, swept ? &*swept : nullptr)))
        return Unreadable;
    return gateStatus(gate);
}

} // namespace

int stepsCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const StepCommandOptions o;
    const QCommandLineOption sweepOption(
        QStringLiteral("sweep"),
        QStringLiteral(
            "Order the variants by the number in each label and compare neighbours; NAME names it."),
        QStringLiteral("NAME"));
    const QCommandLineOption sweepScopeOption(
        QStringLiteral("sweep-scope"),
        QStringLiteral("One path: its scopes matching PATTERN (a regular expression whose first group is the "
                       "number, e.g. 'bmm_K(\\d+)') are the variants."),
        QStringLiteral("PATTERN"));
    parser.addOptions(o.all());
    parser.addOptions({sweepOption, sweepScopeOption});
    parser.addOptions(gateOptionList());
    if (const QString error = parseOptions(parser, arguments); !error.isEmpty())
        return usageError(error);
    int status = Success;
    QStringList paths = parser.positionalArguments();
    if (!parser.isSet(sweepScopeOption) && !expandRecordedPair(paths, nullptr, status))
        return status;
    QList<SideArgument> sides;
    for (const QString &argument : paths)
        sides.append(SideArgument::parse(argument));
    if (parser.isSet(sweepScopeOption)) {
        if (sides.size() != 1)
            return usageError(QStringLiteral("--sweep-scope takes one path"));
        if (const QString problem = hipbenchprotocol::recordingAsSide(sides[0].path); !problem.isEmpty()) {
            err() << "scopeline-cli: " << problem << "\n"; // the sweep would pool its variants' runs
            return Unreadable;
        }
        if (!QRegularExpression(parser.value(sweepScopeOption)).isValid() ||
            QRegularExpression(parser.value(sweepScopeOption)).captureCount() < 1)
            return usageError(
                QStringLiteral("--sweep-scope needs a regular expression with a group for the number"));
    } else if (sides.size() < 2) {
        return usageError(QStringLiteral("steps needs two paths, A and B, or a baseline and candidates"));
    }
    StepBreakdownOptions options;
    if (!parseLevels(parser, o.alpha, o.threshold, options.alpha, options.threshold, status))
        return status;
    if (!parseStepScope(parser, o.step, options.stepScope, status))
        return status;
    GateOptions output;
    if (!parseGateOptions(parser, output, status))
        return status;

    const QString csv = parser.isSet(o.csv) ? parser.value(o.csv) : QString();
    if (parser.isSet(sweepScopeOption)) {
        QList<LoadedRun> runs;
        if (!loadPaths({sides[0].path}, runs))
            return Unreadable;
        QString notASweep;
        const Sweep swept = Sweep::ofScopes(runs, parser.value(sweepScopeOption), options, &notASweep);
        if (!notASweep.isEmpty())
            return usageError(QStringLiteral("--sweep-scope needs one scope a value: %1").arg(notASweep));
        return printSweep(swept,
                          parser.isSet(sweepOption) ? parser.value(sweepOption) : QStringLiteral("scope"),
                          csv, output.format);
    }
    if (sides.size() > 2 || parser.isSet(sweepOption)) {
        QStringList labels;
        for (const SideArgument &side : sides)
            labels << side.label;
        QString notASweep;
        const std::vector<double> parameters = Sweep::parameters(labels, &notASweep);
        if (parser.isSet(sweepOption) && parameters.empty())
            return usageError(
                QStringLiteral("--sweep needs a different number of one parameter in every label "
                               "(K=5 or 5): %1")
                    .arg(notASweep));
        const QString sweep = parameters.empty()          ? QString()
                              : parser.isSet(sweepOption) ? parser.value(sweepOption)
                                                          : Sweep::parameterName(labels);
        QList<SideArgument> ordered; // a sweep's candidates by their parameter, as its points are
        for (const int i : Sweep::tableOrder(int(sides.size()), parameters))
            ordered << sides[i];
        return variantSteps(ordered, options, output, csv, sweep);
    }
    const QStringList positional = {sides[0].path, sides[1].path};
    QList<LoadedRun> a, b;
    if (!loadPair(positional[0], positional[1], a, b))
        return Unreadable;
    const StepBreakdown steps(a, b, options);
    Gate gate(output.failOn, output.strict);
    gate.addSameRuns(a, b);
    gate.addStep(steps);
    if (output.format == OutputFormat::Markdown)
        printStepsMarkdown(steps, gate, sides[0].shown(), sides[1].shown());
    else if (output.format == OutputFormat::Json)
        printStepsJson(steps, gate, positional[0], positional[1]);
    else {
        out() << "A: " << sides[0].shown() << "\nB: " << sides[1].shown() << "\n";
        printSteps(steps);
    }
    out().flush();
    warnStepsMissing(steps, positional[0], positional[1]);
    if (parser.isSet(o.csv) && !writeTextFile(parser.value(o.csv), steps.toCsv()))
        return Unreadable;
    return gateStatus(gate);
}

} // namespace scopeline::cli
