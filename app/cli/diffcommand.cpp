// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli diff`: which kernels (or ops) account for the difference between A and B.
#include "app/cli/clicommands.h"

#include "model/comparison/gate.h"
#include "model/comparison/kerneldiff.h"
#include "model/comparison/replication.h"
#include "model/comparison/stepbreakdown.h"
#include "model/comparison/variantdiff.h"
#include "model/comparison/variantsteps.h"
#include "model/tables/durationformat.h"
#include "model/tables/kernelnames.h"
#include "model/tables/tableformat.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace scopeline::cli {

namespace {

// "+3.2 %" for b against a; "–" when there is nothing to compare.
QString relativeText(double a, double b)
{
    return a > 0 && !std::isnan(b) ? formatChange((b - a) / a, 1) : QStringLiteral("–");
}

// The CLI's columns, the kernel's name shortened to fit (and told apart when two read alike).
std::vector<TableColumn<KernelDiffRow>> shownColumns(const KernelDiff &diff, bool wide)
{
    const std::vector<KernelDiffRow> &rows = diff.rows();
    QStringList kernels;
    for (const KernelDiffRow &r : rows)
        kernels << r.kernel;
    const QStringList names = wide ? kernels : distinctKernelNames(kernels, 50);
    std::vector<TableColumn<KernelDiffRow>> columns = KernelDiff::cliColumns(diff.options());
    columns.front().text = [&rows, names](const KernelDiffRow &r) { return names[qsizetype(&r - rows.data())]; };
    return columns;
}

// "16 runs in 4 processes"
QString sideText(const KernelDiffSummary &s, int runs, int processes)
{
    return QStringLiteral("%1 %2").arg(runs).arg(runs == 1 ? QStringLiteral("run") : QStringLiteral("runs")) +
           (!s.byProcess     ? QString()
            : processes == 1 ? QStringLiteral(" in 1 process")
                             : QStringLiteral(" in %1 processes").arg(processes));
}

void printDiff(const KernelDiff &diff, const StepBreakdown &steps, const QString &pathA, const QString &pathB,
               int top, bool wide)
{
    const KernelDiffSummary &s = diff.summary();
    auto side = [&s](int runs, int processes) { return sideText(s, runs, processes); };
    out() << "A: " << pathA << " (" << side(s.runsA, s.processesA) << ")\nB: " << pathB << " ("
          << side(s.runsB, s.processesB) << ")\n";
    if (!s.comparedRanks.isEmpty()) // every figure below is of those ranks
        out() << s.comparedRanks << "\n";
    out() << printable(steps.stepLine()) << "\n";
    out() << "GPU busy" << s.perRunText() << ": A " << formatDuration(s.busyPerRunA) << ", B "
          << formatDuration(s.busyPerRunB) << " (" << relativeText(s.busyPerRunA, s.busyPerRunB) << ")\n";
    out() << "kernel time" << s.perRunText() << ": A " << formatDuration(s.kernelTimePerRunA) << ", B "
          << formatDuration(s.kernelTimePerRunB) << ", difference " << formatDuration(s.deltaTotalNs) << " ("
          << relativeText(s.kernelTimePerRunA, s.kernelTimePerRunB) << ")\n";
    out() << s.kernels << (diff.options().byOp && s.opsFound ? " op" : " kernel")
          << (s.kernels == 1 ? ": " : "s: ") << s.kernels - s.onlyInA - s.onlyInB << " on both sides, "
          << s.onlyInA << " only in A, " << s.onlyInB << " only in B";
    if (s.processDependent) // across the others: such a kernel is also on both sides or on one
        out() << "; " << s.processDependent << " of the " << s.kernels << " process-dependent";
    const QString unit = s.byProcess ? QStringLiteral("process") : QStringLiteral("run");
    if ((s.byProcess ? std::min(s.processesA, s.processesB) : std::min(s.runsA, s.runsB)) < 2)
        out() << "; one " << unit << " on a side: " << unit << "-to-" << unit << " variation not measured\n";
    else
        out() << "; verdict: GPU time per run, per call: the median duration; Welch on the per-" << unit
              << " figures, Holm over the rows (alpha " << diff.options().alpha << ", threshold "
              << 100 * diff.options().threshold << "%)\n";
    if (!s.caveat.isEmpty())
        out() << "caveat: " << s.caveat << Replication::howToLift(s.caveat) << "\n";

    const std::vector<KernelDiffRow> &rows = diff.rows();
    const std::size_t shown = top > 0 ? std::min<std::size_t>(std::size_t(top), rows.size()) : rows.size();
    out() << tableText(shownColumns(diff, wide), rows, shown, wide);
    if (shown < diff.rows().size())
        out() << "(top " << shown << " of " << diff.rows().size()
              << " rows by |Δ total|; --top N for more, --csv FILE for all)\n";
}

// The pull-request comment: the sides, the step line, the top rows as a table, the caveat, the gate.
void printDiffMarkdown(const KernelDiff &diff, const StepBreakdown &steps, const Gate &gate,
                       const QString &pathA, const QString &pathB, int top, bool wide)
{
    const KernelDiffSummary &s = diff.summary();
    out() << "### Scopeline diff\n\n"
          << "**A** " << markdownCode(pathA) << " (" << sideText(s, s.runsA, s.processesA) << ") · **B** "
          << markdownCode(pathB) << " (" << sideText(s, s.runsB, s.processesB) << ")\n\n"
          << (s.comparedRanks.isEmpty() ? QString() : markdownCell(s.comparedRanks) + QStringLiteral("\n\n"))
          << "**" << markdownCell(steps.stepLine()) << "**\n\n"
          << "GPU busy" << s.perRunText() << ": A " << formatDuration(s.busyPerRunA) << ", B "
          << formatDuration(s.busyPerRunB) << " (" << relativeText(s.busyPerRunA, s.busyPerRunB)
          << "); kernel time" << s.perRunText() << ": A " << formatDuration(s.kernelTimePerRunA) << ", B "
          << formatDuration(s.kernelTimePerRunB) << ", difference " << formatDuration(s.deltaTotalNs) << " ("
          << relativeText(s.kernelTimePerRunA, s.kernelTimePerRunB) << ")\n\n";
    const std::vector<KernelDiffRow> &rows = diff.rows();
    const std::size_t shown = top > 0 ? std::min<std::size_t>(std::size_t(top), rows.size()) : rows.size();
    out() << tableMarkdown(shownColumns(diff, wide), rows, shown);
    if (shown < rows.size())
        out() << "\n_Top " << shown << " of " << rows.size()
              << " rows by \\|Δ time/run\\|; `--format json` or `--csv` gives every row._\n";
    if (!s.caveat.isEmpty())
        out() << "\n> caveat: " << markdownCell(s.caveat + Replication::howToLift(s.caveat)) << "\n";
    out() << closingMarkdown(gate);
}

void printDiffJson(const KernelDiff &diff, const StepBreakdown &steps, const Gate &gate, const QString &pathA,
                   const QString &pathB)
{
    const KernelDiffSummary &s = diff.summary();
    const auto side = [&s](const QString &path, int runs, int processes) {
        return QJsonObject{{QStringLiteral("path"), path},
                           {QStringLiteral("runs"), runs},
                           {QStringLiteral("processes"), processes}};
    };
    const QJsonObject summary{
        {QStringLiteral("busy_per_run_a_ns"), jsonValue(s.busyPerRunA)},
        {QStringLiteral("busy_per_run_b_ns"), jsonValue(s.busyPerRunB)},
        {QStringLiteral("kernel_time_per_run_a_ns"), jsonValue(s.kernelTimePerRunA)},
        {QStringLiteral("kernel_time_per_run_b_ns"), jsonValue(s.kernelTimePerRunB)},
        {QStringLiteral("delta_total_ns"), jsonValue(s.deltaTotalNs)},
        {QStringLiteral("rows"), s.kernels},
        {QStringLiteral("only_in_a"), s.onlyInA},
        {QStringLiteral("only_in_b"), s.onlyInB},
        {QStringLiteral("process_dependent"), s.processDependent},
        {QStringLiteral("unit"), s.byProcess ? QStringLiteral("process") : QStringLiteral("run")},
        {QStringLiteral("caveat"), s.caveat},
        {QStringLiteral("compared_ranks"), s.comparedRanks}};
    const QJsonObject root{
        {QStringLiteral("command"), QStringLiteral("diff")},
        {QStringLiteral("a"), side(pathA, s.runsA, s.processesA)},
        {QStringLiteral("b"), side(pathB, s.runsB, s.processesB)},
        {QStringLiteral("by"), diff.options().byOp ? QStringLiteral("op") : QStringLiteral("kernel")},
        {QStringLiteral("alpha"), diff.options().alpha},
        {QStringLiteral("threshold"), diff.options().threshold},
        {QStringLiteral("summary"), summary},
        {QStringLiteral("step_line"), steps.stepLine()},
        {QStringLiteral("steps"), tableJson(StepBreakdown::columns(), steps.rows())},
        {QStringLiteral("rows"), tableJson(KernelDiff::columns(diff.options()), diff.rows())},
        {QStringLiteral("gate"), gateJson(gate)}};
    printJson(root);
}

// More than two sides: the step's lead line and the kernel figures of each candidate, then the kernel ×
// variant matrix; as text, or as the pull-request comment (then with the gate).
void printVariantDiff(const VariantDiff &diff, const VariantSteps &steps, const QList<SideArgument> &sides,
                      int top, bool wide, const Gate *markdownGate)
{
    const bool markdown = markdownGate != nullptr;
    const KernelDiffSummary &base = diff.diffs().front().summary();
    if (markdown)
        out() << "### Scopeline diff\n\n**baseline** " << markdownCell(sides[0].label) << " "
              << pathText(sides[0].path, markdown) << " (" << sideText(base, base.runsA, base.processesA)
              << ")\n\n";
    else
        out() << "baseline (A): " << sides[0].label << " (" << sides[0].path << ", "
              << sideText(base, base.runsA, base.processesA) << ")\n";
    for (std::size_t c = 0; c < diff.diffs().size(); ++c) {
        const KernelDiffSummary &s = diff.diffs()[c].summary();
        const QString lead = steps.leadLine(int(c));
        out() << (markdown ? "- **" + markdownCell(lead) + "**\n  " : printable(lead) + "\n  ")
              << pathText(sides[qsizetype(c) + 1].path, markdown) << " ("
              << sideText(s, s.runsB, s.processesB) << "); kernel time" << s.perRunText() << " "
              << formatDuration(s.kernelTimePerRunB) << " ("
              << relativeText(s.kernelTimePerRunA, s.kernelTimePerRunB) << "); " << s.onlyInA
              << " only in the baseline, " << s.onlyInB << " only here\n";
    }
    out() << (markdown ? "\n" : "")
          << "each cell: GPU time per run, its change against the baseline and the verdict with the interval "
             "it was decided from (~: a change under the threshold; a change without a verdict: no "
             "significant change); "
             "Holm over "
             "kernels × candidates (alpha "
          << diff.diffs().front().options().alpha << ", threshold "
          << 100 * diff.diffs().front().options().threshold << "%)\n"
          << (markdown ? "\n" : "");
    const std::vector<VariantKernelRow> &rows = diff.rows();
    std::vector<TableColumn<VariantKernelRow>> columns = diff.matrixColumns(sides[0].label);
    if (!wide) {
        QStringList kernels;
        for (const VariantKernelRow &r : rows)
            kernels << r.kernel;
        const QStringList names = distinctKernelNames(kernels, 50);
        columns.front().text = [&rows, names](const VariantKernelRow &r) {
            return names[qsizetype(&r - rows.data())];
        };
    }
    const std::size_t shown = top > 0 ? std::min<std::size_t>(std::size_t(top), rows.size()) : rows.size();
    out() << (markdown ? tableMarkdown(columns, rows, shown) : tableText(columns, rows, shown, wide));
    if (shown < rows.size()) {
        const QString more =
            QStringLiteral("(top %1 of %2 rows by the largest |Δ total| in any candidate; --top N "
                           "for more, --csv FILE for all)")
                .arg(shown)
                .arg(rows.size());
        out() << (markdown ? "\n" + markdownCell(more) : more) << "\n";
    }
    if (markdown)
        out() << closingMarkdown(*markdownGate);
}

int variantDiff(const QList<SideArgument> &sides, const KernelDiffOptions &options,
                const StepBreakdownOptions &stepOptions, const GateOptions &output, int top, bool wide,
                const QString &csv)
{
    LoadedVariants loaded;
    if (const int status = loadVariants(sides, loaded); status != Success)
        return status;
    const VariantDiff diff(loaded.baseline, loaded.candidates, loaded.labels, options);
    const VariantSteps steps(loaded.baseline, loaded.candidates, loaded.labels, stepOptions);
    for (std::size_t c = 0; c < steps.comparisons().size(); ++c)
        warnStepsMissing(steps.comparisons()[c], sides[0].label, loaded.labels[qsizetype(c)]);
    Gate gate(output.failOn, output.strict);
    for (std::size_t c = 0; c < diff.diffs().size(); ++c) {
        gate.addSameRuns(loaded.baseline, loaded.candidates[c], loaded.labels[qsizetype(c)]);
        gate.addStep(steps.comparisons()[c], loaded.labels[qsizetype(c)]);
        gate.addKernelDiff(diff.diffs()[c], loaded.labels[qsizetype(c)]);
    }
    if (output.format == OutputFormat::Json) {
        QJsonArray candidates;
        for (std::size_t c = 0; c < diff.diffs().size(); ++c)
            candidates.append(QJsonObject{
                {QStringLiteral("variant"), loaded.labels[qsizetype(c)]},
                {QStringLiteral("path"), sides[qsizetype(c) + 1].path},
                {QStringLiteral("lead_line"), steps.leadLine(int(c))},
                {QStringLiteral("rows"), tableJson(KernelDiff::columns(options), diff.diffs()[c].rows())}});
        printJson(QJsonObject{
            {QStringLiteral("command"), QStringLiteral("diff")},
            {QStringLiteral("baseline"), QJsonObject{{QStringLiteral("variant"), sides[0].label},
                                                     {QStringLiteral("path"), sides[0].path}}},
            {QStringLiteral("by"), options.byOp ? QStringLiteral("op") : QStringLiteral("kernel")},
            {QStringLiteral("alpha"), options.alpha},
            {QStringLiteral("threshold"), options.threshold},
            {QStringLiteral("candidates"), candidates},
            {QStringLiteral("gate"), gateJson(gate)}});
    } else {
        printVariantDiff(diff, steps, sides, top, wide,
                         output.format == OutputFormat::Markdown ? &gate : nullptr);
    }
    out().flush();
    if (!csv.isEmpty() && !writeTextFile(csv, diff.toCsv()))
        return Unreadable;
    return gateStatus(gate);
}

} // namespace

int diffCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption csvOption(QStringLiteral("csv"), QStringLiteral("Write every row as CSV."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption topOption(QStringLiteral("top"), QStringLiteral("Rows to print (0: all)."),
                                       QStringLiteral("N"), QStringLiteral("20"));
    const QCommandLineOption alphaOption(QStringLiteral("alpha"), QStringLiteral("Significance level."),
                                         QStringLiteral("P"), QStringLiteral("0.05"));
    const QCommandLineOption thresholdOption(QStringLiteral("threshold"),
                                             QStringLiteral("Smallest relative change that counts, in %."),
                                             QStringLiteral("PERCENT"), QStringLiteral("1"));
    const KernelRowOptions rowOptions;
    const QCommandLineOption wideOption(QStringLiteral("wide"), QStringLiteral("Full kernel names."));
    // the step line, which the gate judges too
    const QCommandLineOption stepOption = StepCommandOptions().step;
    parser.addOptions({csvOption, topOption, alphaOption, thresholdOption, wideOption, stepOption});
    parser.addOptions(rowOptions.all());
    parser.addOptions(gateOptionList());
    if (const QString error = parseOptions(parser, arguments); !error.isEmpty())
        return usageError(error);
    int status = Success;
    QStringList paths = parser.positionalArguments();
    if (!expandRecordedPair(paths, nullptr, status))
        return status;
    QList<SideArgument> sides;
    for (const QString &argument : paths)
        sides.append(SideArgument::parse(argument));
    if (sides.size() < 2)
        return usageError(QStringLiteral("diff needs two paths, A and B, or a baseline and candidates"));
    const QStringList positional = {sides[0].path, sides[1].path};
    KernelDiffOptions options;
    if (!rowOptions.read(parser, options, status))
        return status;
    if (!parseLevels(parser, alphaOption, thresholdOption, options.alpha, options.threshold, status))
        return status;
    bool ok = false;
    const int top = parser.value(topOption).toInt(&ok);
    if (!ok || top < 0)
        return usageError(QStringLiteral("--top needs a number of rows >= 0"));
    GateOptions output;
    if (!parseGateOptions(parser, output, status))
        return status;
    StepBreakdownOptions stepOptions{QString(), options.alpha, options.threshold};
    if (!parseStepScope(parser, stepOption, stepOptions.stepScope, status))
        return status;

    if (sides.size() > 2)
        return variantDiff(sides, options, stepOptions, output, top, parser.isSet(wideOption),
                           parser.isSet(csvOption) ? parser.value(csvOption) : QString());
    QList<LoadedRun> a, b;
    if (!loadPair(positional[0], positional[1], a, b))
        return Unreadable;
    const KernelDiff diff(a, b, options);
    const StepBreakdown steps(a, b, stepOptions);
    warnStepsMissing(steps, positional[0], positional[1]);
    if (options.byOp && !diff.summary().opsFound)
        note(QStringLiteral("--by op: no kernel of A or B has an op (a CPU op around its launch call, JAX's "
                            "hlo_op, a collective), so each row is a kernel; the PyTorch profiler records "
                            "ops with its CPU activity"));
    // The gate: the step line's verdict and every kernel row's, each after its own Holm.
    Gate gate(output.failOn, output.strict);
    gate.addSameRuns(a, b);
    gate.addStep(steps);
    gate.addKernelDiff(diff);
    if (output.format == OutputFormat::Markdown)
        printDiffMarkdown(diff, steps, gate, sides[0].shown(), sides[1].shown(), top,
                          parser.isSet(wideOption));
    else if (output.format == OutputFormat::Json)
        printDiffJson(diff, steps, gate, positional[0], positional[1]);
    else
        printDiff(diff, steps, sides[0].shown(), sides[1].shown(), top, parser.isSet(wideOption));
    out().flush();
    if (parser.isSet(csvOption) && !writeTextFile(parser.value(csvOption), diff.toCsv()))
        return Unreadable;
    return gateStatus(gate);
}

} // namespace scopeline::cli
