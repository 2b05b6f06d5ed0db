// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli report`: the comparison's report, its charts drawn off screen by the widgets the
// window uses. Runs in scopeline-report so that the other commands need no GUI library.
#include "app/cli/clicommands.h"

#include "model/comparison/kerneldiff.h"
#include "model/comparison/ranktable.h"
#include "model/comparison/replication.h"
#include "model/comparison/scopecomparison.h"
#include "model/comparison/stepbreakdown.h"
#include "model/comparison/variantdiff.h"
#include "model/comparison/variantscopes.h"
#include "model/comparison/variantsteps.h"
#include "widgets/report/reportcharts.h"
#include "widgets/report/reportexporter.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <memory>
#include <optional>
#include <tuple>

namespace scopeline::cli {

int reportCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption outOption(
        QStringLiteral("out"), QStringLiteral("Folder to write the report into."), QStringLiteral("DIR"));
    const QCommandLineOption stepOption = StepCommandOptions().step;
    const KernelRowOptions rowOptions;
    ComparisonOptions options;
    int status = Success;
    if (!parseComparisonOptions(QStringLiteral("report"), arguments,
                                QList<QCommandLineOption>{outOption, stepOption} + rowOptions.all(), parser,
                                options, status))
        return status;
    KernelDiffOptions diffOptions;
    if (!rowOptions.read(parser, diffOptions, status))
        return status;
    if (parser.value(outOption).isEmpty())
        return usageError(QStringLiteral("report needs --out DIR"));
    // refused before the work of loading, not after it
    if (const QString refusal = ReportExporter::folderRefusal(parser.value(outOption)); !refusal.isEmpty()) {
        err() << "scopeline-cli: " << refusal << "\n";
        err().flush();
        return Unreadable;
    }
    StepBreakdownOptions stepOptions;
    stepOptions.threshold = options.threshold;
    stepOptions.alpha = options.alpha;
    if (!parseStepScope(parser, stepOption, stepOptions.stepScope, status))
        return status;
    if (!qobject_cast<QApplication *>(QCoreApplication::instance())) {
        err() << "scopeline-cli: report needs a QApplication\n";
        err().flush();
        return Unreadable;
    }

    // More than two variants: the pair is the baseline and the first candidate, the variants a section.
    QList<LoadedRun> a, b;
    LoadedVariants variants;
    QList<SideArgument> sides;
    if (options.sides.size() > 2) {
        for (const QString &argument : options.sides)
            sides.append(SideArgument::parse(argument));
        if (const int status = loadVariants(sides, variants); status != Success)
            return status;
        a = variants.baseline;
        b = variants.candidates.front();
    } else if (!loadSides(options, a, b)) {
        return Unreadable;
    }
    err().flush();
    const std::unique_ptr<VariantSteps> variantSteps =
        variants.candidates.empty()
            ? nullptr
            : std::make_unique<VariantSteps>(a, variants.candidates, variants.labels, stepOptions);
    diffOptions.threshold = options.threshold;
    diffOptions.alpha = options.alpha;
    const std::unique_ptr<VariantDiff> variantDiff =
        variants.candidates.empty()
            ? nullptr
            : std::make_unique<VariantDiff>(a, variants.candidates, variants.labels, diffOptions);
    const std::unique_ptr<VariantScopes> variantScopes =
        variants.candidates.empty() || options.scopes.isEmpty()
            ? nullptr
            : std::make_unique<VariantScopes>(a, variants.candidates, variants.labels, options.scopes,
                                              options.match, options.samples, options.alpha);

    // The report's data as the window would hold it, its pictures drawn off screen by the same charts.
    ReportExporter::Input input;
    input.labelA = options.shownA;
    input.labelB = options.shownB;
    input.runsA = a;
    input.runsB = b;
    // With variants, the pair (the baseline and the first candidate) is judged with every candidate,
    // as the variants' section and the other commands judge it: Holm over candidates × rows.
    if (!sides.isEmpty()) {
        input.labelA = sides[0].label;
        input.labelB = sides[1].label;
        for (qsizetype c = 2; c < sides.size(); ++c)
            input.moreCandidates.push_back({sides[c].label, variants.candidates[std::size_t(c - 1)]});
    }
    warnScopeSamples(options, scopeIndexes(a), scopeIndexes(b));
    err().flush();
    const Replication replication = Replication::of(a, b);
    const bool ranked = hasRanks(a) || hasRanks(b);
    if (variantScopes) {
        input.rows = variantScopes->rows().front();
    } else {
        ScopeComparison comparison(scopeIndexes(a), scopeIndexes(b));
        comparison.setReplication(&replication);
        comparison.setAlpha(options.alpha);
        input.rows = comparison.compare(options.scopes, options.match, options.samples);
    }
    input.scopes = options.scopes;
    input.match = options.match;
    input.samples = options.samples;
    input.threshold = options.threshold;
    input.alpha = options.alpha;
    std::optional<KernelDiff> pairDiff;
    if (!variantDiff)
        pairDiff.emplace(a, b, diffOptions);
    const KernelDiff &diff = variantDiff ? variantDiff->diffs().front() : *pairDiff;
    input.diff = &diff;
    // a chart's legend: a side's label where it was given, else its folder's or file's name (labelA may
    // be "label (path)")
    const auto chartName = [&options](int side, const QString &label) {
        const SideArgument given = SideArgument::parse(options.sides.value(side));
        return given.named ? given.label : QFileInfo(QDir::cleanPath(label)).fileName();
    };
    if (!input.rows.empty()) // without scopes: What changed and the steps, no empty boxplot
        input.boxplot =
            ReportCharts::boxplotImage(input.rows, input.scopes, input.samples, input.pooled,
                                       chartName(0, input.labelA), chartName(1, input.labelB), ranked);
    input.diffChart = ReportCharts::diffChartImage(diff);
    std::optional<StepBreakdown> pairSteps;
    if (!variantSteps)
        pairSteps.emplace(a, b, stepOptions);
    const StepBreakdown &steps = variantSteps ? variantSteps->comparisons().front() : *pairSteps;
    input.steps = &steps;
    if (variantSteps)
        for (std::size_t i = 0; i < variantSteps->comparisons().size(); ++i)
            warnStepsMissing(variantSteps->comparisons()[i], input.labelA, variants.labels[qsizetype(i)]);
    else
        warnStepsMissing(steps, input.labelA, input.labelB);
    // runs of several GPUs: their ranks (with variants, the pair judged with every candidate)
    const RankTable::Options rankOptions{stepOptions.stepScope, options.alpha, options.threshold};
    const RankTable ranks(ranked ? a : QList<LoadedRun>{}, ranked ? b : QList<LoadedRun>{}, rankOptions);
    const std::unique_ptr<VariantRanks> variantRanks =
        ranked && !variants.candidates.empty()
            ? std::make_unique<VariantRanks>(a, variants.candidates,
                                             QStringList{sides.front().label} + variants.labels, rankOptions)
            : nullptr;
    if (ranked) {
        input.ranks = variantRanks ? &variantRanks->tables().front() : &ranks;
        input.ranksChart = ReportCharts::ranksChartImage(*input.ranks);
    }
    input.variantRanks = variantRanks.get();
    input.variantSteps = variantSteps.get();
    input.variantDiff = variantDiff.get();
    if (variantSteps)
        input.variantsChart = ReportCharts::variantsChartImage(
            *variantSteps, variantDiff.get(), QStringList{sides.front().label} + variants.labels);
    input.variantScopes = variantScopes.get();
    // a sweep (three variants or more, each label a number of one parameter): its neighbours, as `steps`
    std::unique_ptr<Sweep> sweep;
    if (variantSteps) {
        const QStringList labels = QStringList{sides.front().label} + variants.labels;
        if (const std::vector<double> parameters = Sweep::parameters(labels); !parameters.empty()) {
            std::vector<QList<LoadedRun>> each{a};
            each.insert(each.end(), variants.candidates.begin(), variants.candidates.end());
            sweep = std::make_unique<Sweep>(Sweep::ofVariants(each, labels, parameters, stepOptions));
        }
    }
    input.variantSweep = sweep.get();
    input.variantBaseline =
        options.sides.isEmpty() ? QString() : SideArgument::parse(options.sides.front()).label;
    input.stepsChart =
        ReportCharts::stepsChartImage(steps, chartName(0, input.labelA), chartName(1, input.labelB));
    std::tie(input.timelineA, input.timelineB) = ReportCharts::gpuActivityTimelines(
        a.value(0).withEvents(), b.value(0).withEvents(), input.labelA, input.labelB);
    const QString folder = parser.value(outOption);
    QString error;
    QStringList written;
    input.notes = said();
    if (!ReportExporter::exportTo(folder, input, &error, &written)) {
        err() << "scopeline-cli: " << error << "\n";
        err().flush();
        return Unreadable;
    }
    for (const QString &file : written)
        out() << file << "\n";
    out().flush();
    return Success;
}

} // namespace scopeline::cli
