// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli compare`: scope durations of side A (baseline) against side B (candidate).
#include "app/cli/clicommands.h"

#include "model/comparison/gate.h"
#include "model/comparison/replication.h"
#include "model/comparison/scopecomparison.h"
#include "model/comparison/variantscopes.h"
#include "model/tables/tableformat.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <vector>

namespace scopeline::cli {

namespace {

// The caveat of the pooled rows (the same for each: said once), with what lifts it; empty when none.
QString caveatText(const std::vector<ComparisonRow> &rows)
{
    for (const ComparisonRow &r : rows)
        if (!r.caveat.isEmpty())
            return r.caveat + Replication::howToLift(r.caveat);
    return {};
}

// The rows' caveat, as text or as a Markdown quote; nothing when none.
void printCaveat(const std::vector<ComparisonRow> &rows, bool markdown)
{
    if (const QString caveat = caveatText(rows); !caveat.isEmpty())
        out() << (markdown ? "\n> caveat: " + markdownCell(caveat) : "caveat: " + caveat) << "\n";
}

// How the rows were judged, as `steps` and `diff` say it: the units, the tests, the families, alpha and
// the threshold (a table at --alpha 0.01 had shown only its intervals' levels change).
// family: what the run-level tests' Holm is over (a candidate of several: scopes × candidates)
QString verdictLegend(const Replication &replication, double alpha, double threshold,
                      const QString &family = QStringLiteral("the scopes"))
{
    const QString pairs =
        QStringLiteral("a run pair: Mann–Whitney on its samples, Holm over %1 of each pair").arg(family);
    const QString medians = replication.byProcess() ? QStringLiteral("each process's mean run median")
                                                    : QStringLiteral("the run medians");
    const QString pooled =
        replication.runs(0) > 1 || replication.runs(1) > 1
            ? QStringLiteral("all runs: Welch on the logs of %1 (A %2, B %3 %4), Holm over "
                             "%5; ")
                  .arg(medians)
                  .arg(replication.units(0).size())
                  .arg(replication.units(1).size())
                  .arg(replication.byProcess() ? QStringLiteral("processes") : QStringLiteral("runs"))
                  .arg(family)
            : QString();
    return QStringLiteral("verdicts: %1%2 (alpha %3, threshold %4%)")
        .arg(pooled, pairs)
        .arg(alpha)
        .arg(100 * threshold);
}

// replication: a pair's, whose legend goes first (a candidate's rows follow their own heading)
void printComparison(const std::vector<ComparisonRow> &rows, double alpha, double threshold,
                     const Replication *replication = nullptr)
{
    if (replication)
        out() << verdictLegend(*replication, alpha, threshold) << "\n";
    out() << tableText(ScopeComparison::cliColumns(alpha, threshold), rows);
    printCaveat(rows, false);
}

// The pull-request comment: the sides, the run pairs, the rows as a table, the caveat, the gate.
void printComparisonMarkdown(const std::vector<ComparisonRow> &rows, double alpha, double threshold,
                             const Gate &gate, const ComparisonOptions &options, const QString &runsA,
                             const QString &runsB, const QStringList &pairs, const Replication &replication)
{
    out() << "### Scopeline compare\n\n"
          << "**A** " << markdownCode(options.pathA) << " (" << runsA << ") · **B** "
          << markdownCode(options.pathB) << " (" << runsB << ")\n\n";
    if (!pairs.isEmpty())
        out() << markdownCell(pairs.join(QStringLiteral("; "))) << "\n\n";
    out() << verdictLegend(replication, alpha, threshold) << "\n\n"
          << tableMarkdown(ScopeComparison::cliColumns(alpha, threshold), rows);
    printCaveat(rows, true);
    out() << closingMarkdown(gate);
}

void printComparisonJson(const std::vector<ComparisonRow> &rows, double alpha, double threshold,
                         const Gate &gate, const ComparisonOptions &options, qsizetype runsA, qsizetype runsB)
{
    const QJsonObject root{
        {QStringLiteral("command"), QStringLiteral("compare")},
        {QStringLiteral("a"), QJsonObject{{QStringLiteral("path"), options.pathA}, {QStringLiteral("runs"), runsA}}},
        {QStringLiteral("b"), QJsonObject{{QStringLiteral("path"), options.pathB}, {QStringLiteral("runs"), runsB}}},
        {QStringLiteral("alpha"), alpha},
        {QStringLiteral("threshold"), threshold},
        {QStringLiteral("rows"), tableJson(ScopeComparison::columns(alpha, threshold), rows)},
        {QStringLiteral("gate"), gateJson(gate)}};
    printJson(root);
}

// More than two sides: per scope the Kruskal–Wallis test across every variant, then each candidate's
// rows against the baseline.
int variantCompare(const ComparisonOptions &options, double alpha, const GateOptions &output, const QString &csv)
{
    QList<SideArgument> sides;
    for (const QString &argument : options.sides)
        sides.append(SideArgument::parse(argument));
    LoadedVariants loaded;
    if (const int status = loadVariants(sides, loaded); status != Success)
        return status;
    const VariantScopes variants(loaded.baseline, loaded.candidates, loaded.labels, options.scopes, options.match,
                                 options.samples, alpha);
    Gate gate(output.failOn, output.strict);
    for (std::size_t c = 0; c < variants.rows().size(); ++c) {
        gate.addSameRuns(loaded.baseline, loaded.candidates[c], loaded.labels[qsizetype(c)]);
        std::vector<ComparisonRow> named = variants.rows()[c];
        for (ComparisonRow &row : named) // the gate names the candidate
            row.scope = loaded.labels[qsizetype(c)] + QStringLiteral(": ") + row.scope;
        gate.addScopeComparison(named, alpha, options.threshold);
    }
    if (output.format == OutputFormat::Json) {
        QJsonArray across, candidates;
        for (const ScopeAcrossVariants &s : variants.acrossVariants())
            across.append(QJsonObject{{QStringLiteral("scope"), s.scope},
                                      {QStringLiteral("variants"), s.test.groups},
                                      {QStringLiteral("kruskal_h"), jsonValue(s.test.h)},
                                      {QStringLiteral("kruskal_p_raw"), jsonValue(s.test.p)},
                                      {QStringLiteral("kruskal_p_method"),
                                       QString::fromLatin1(stats::kruskalMethodName(s.test.method))},
                                      {QStringLiteral("kruskal_p"), jsonValue(s.pHolm)},
                                      {QStringLiteral("reason"), s.reason},
                                      {QStringLiteral("caveat"), s.caveat}});
        for (std::size_t c = 0; c < variants.rows().size(); ++c)
            candidates.append(QJsonObject{
                {QStringLiteral("variant"), loaded.labels[qsizetype(c)]},
                {QStringLiteral("path"), sides[qsizetype(c) + 1].path},
                {QStringLiteral("rows"),
                 tableJson(ScopeComparison::columns(alpha, options.threshold), variants.rows()[c])}});
        printJson(
            QJsonObject{{QStringLiteral("command"), QStringLiteral("compare")},
                        {QStringLiteral("baseline"), QJsonObject{{QStringLiteral("variant"), sides[0].label},
                                                                 {QStringLiteral("path"), sides[0].path}}},
                        {QStringLiteral("alpha"), alpha},
                        {QStringLiteral("threshold"), options.threshold},
                        {QStringLiteral("across_variants"), across},
                        {QStringLiteral("candidates"), candidates},
                        {QStringLiteral("gate"), gateJson(gate)}});
    } else {
        // as text, or as the pull-request comment (then with the gate)
        const bool markdown = output.format == OutputFormat::Markdown;
        if (markdown)
            out() << "### Scopeline compare\n\n**baseline** " << markdownCell(sides[0].label) << " "
                  << pathText(sides[0].path, markdown) << " (" << runsText(loaded.baseline) << ")\n\n";
        else
            out() << "baseline (A): " << sides[0].label << " (" << sides[0].path << ", "
                  << runsText(loaded.baseline) << ")\n";
        out()
            << "across the " << sides.size()
            << " variants, per scope: Kruskal–Wallis on each variant's run (process) medians, Holm over the "
               "scopes\n"
            << (markdown ? "\n" : "");
        for (const ScopeAcrossVariants &s : variants.acrossVariants()) {
            const QString line = QStringLiteral("%1 (%2 variants with samples): %3")
                                     .arg(s.scope)
                                     .arg(s.test.groups)
                                     .arg(s.text(alpha, options.threshold));
            out() << (markdown ? "- " + markdownCell(line) : "  " + printable(line)) << "\n";
        }
        for (std::size_t c = 0; c < variants.rows().size(); ++c) {
            const QString label = loaded.labels[qsizetype(c)];
            const QString against = QStringLiteral(" (%1) against %2; Holm over scopes × candidates")
                                        .arg(runsText(loaded.candidates[c]), sides[0].label);
            // the unit and the test its verdicts come from, as a pair's legend says them
            const QString legend =
                verdictLegend(Replication::of(loaded.baseline, loaded.candidates[c]), alpha,
                              options.threshold, QStringLiteral("scopes × candidates"));
            if (markdown) {
                out() << "\n#### " << markdownCell(label) << " "
                      << pathText(sides[qsizetype(c) + 1].path, markdown) << markdownCell(against) << "\n\n"
                      << legend << "\n\n"
                      << tableMarkdown(ScopeComparison::cliColumns(alpha, options.threshold),
                                       variants.rows()[c]);
                printCaveat(variants.rows()[c], true);
            } else {
                out() << "\n"
                      << label << " (" << sides[qsizetype(c) + 1].path << ", "
                      << runsText(loaded.candidates[c]) << ") against " << sides[0].label
                      << "; Holm over scopes × candidates\n"
                      << legend << "\n";
                printComparison(variants.rows()[c], alpha, options.threshold);
            }
        }
        if (markdown)
            out() << closingMarkdown(gate);
    }
    out().flush();
    if (!csv.isEmpty() && !writeTextFile(csv, variants.toCsv(alpha, options.threshold)))
        return Unreadable;
    return gateStatus(gate);
}

} // namespace

int compareCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption csvOption(QStringLiteral("csv"), QStringLiteral("Write the table as CSV."),
                                       QStringLiteral("FILE"));
    ComparisonOptions options;
    int status = Success;
    if (!parseComparisonOptions(QStringLiteral("compare"), arguments,
                                QList<QCommandLineOption>{csvOption} + gateOptionList(), parser, options,
                                status))
        return status;
    GateOptions output;
    if (!parseGateOptions(parser, output, status))
        return status;
    const double alpha = options.alpha;
    if (options.sides.size() > 2)
        return variantCompare(options, alpha, output, parser.isSet(csvOption) ? parser.value(csvOption) : QString());
    QList<LoadedRun> a, b;
    if (!loadSides(options, a, b))
        return Unreadable;
    const std::vector<const ScopeIndex *> indexA = scopeIndexes(a), indexB = scopeIndexes(b);
    const Replication replication = Replication::of(a, b);
    ScopeComparison comparison(indexA, indexB);
    comparison.setReplication(&replication);
    comparison.setAlpha(alpha);
    const std::vector<ComparisonRow> rows =
        comparison.compare(options.scopes, options.match, options.samples);
    // why a scope asked for is on one side only; where each is on both, it would explain a miss that
    // did not happen
    const bool oneSided = std::any_of(rows.begin(), rows.end(), [](const ComparisonRow &row) {
        return !row.comparable() && (row.a.n > 0 || row.b.n > 0);
    });
    if (const QString text = comparison.unnamedSideNote(); oneSided && !text.isEmpty())
        note(text);

    warnScopeSamples(options, indexA, indexB);
    err().flush();

    Gate gate(output.failOn, output.strict);
    gate.addSameRuns(a, b);
    gate.addScopeComparison(rows, alpha, options.threshold);
    if (output.format == OutputFormat::Markdown)
        printComparisonMarkdown(rows, alpha, options.threshold, gate, options, runsText(a), runsText(b),
                                Replication::runPairs(a, b), replication);
    else if (output.format == OutputFormat::Json)
        printComparisonJson(rows, alpha, options.threshold, gate, options, Replication::of(a, {}).runs(0),
                            Replication::of(b, {}).runs(0));
    else {
        out() << "A: " << options.shownA << " (" << runsText(a) << ")\nB: " << options.shownB << " ("
              << runsText(b) << ")\n";
        for (const QString &pair : Replication::runPairs(a, b))
            out() << "  " << pair << "\n";
        printComparison(rows, alpha, options.threshold, &replication);
    }
    out().flush();

    if (parser.isSet(csvOption) &&
        !writeTextFile(parser.value(csvOption), ScopeComparison::toCsv(rows, alpha, options.threshold)))
        return Unreadable;
    return gateStatus(gate);
}

} // namespace scopeline::cli
