// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli ranks`: each GPU of a multi-GPU run, its step split into compute, exposed
// communication and idle, how long it waited at collectives, which rank held the step back; with B,
// A against B for the mean over ranks, the slowest rank and each rank.
#include "app/cli/clicommands.h"

#include "model/comparison/ranktable.h"
#include "model/comparison/stepbreakdown.h"
#include "model/comparison/variantranks.h"
#include "model/loading/sideargument.h"
#include "model/tables/tableformat.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace scopeline::cli {

namespace {

void printRanks(const RankTable &ranks, const QStringList &positional)
{
    out() << "A: " << positional[0] << "\n";
    if (positional.size() == 2)
        out() << "B: " << positional[1] << "\n";
    out() << "step scope: " << printable(ranks.stepScopeText())
          << "; figures per step, a run's ranks each a row\n";
    out() << tableText(RankTable::columns(), ranks.rows());
    for (const QString &note : ranks.notes())
        out() << note << "\n";
    if (!ranks.collectiveKinds().empty()) {
        out()
            << "\nCollectives, per kind over the ranks of every run (bandwidths where the args give message "
               "sizes):\n";
        out() << tableText(RankTable::collectiveColumns(), ranks.collectiveKinds());
    }
    if (!ranks.comparison().empty()) {
        out() << "\nA against B, runs (processes when a side has several) as the unit (Welch; the mean over "
                 "ranks alone, the slowest rank and each "
                 "rank Holm among themselves, each interval at its row's level):\n";
        out() << tableText(RankTable::comparisonColumns(), ranks.comparison());
        if (!ranks.caveat().isEmpty())
            out() << "caveat: " << ranks.caveat() << "\n";
    }
}

// The pull-request comment: the sides, A against B (the question the gate asks), the notes, each
// rank's figures folded away, the gate.
void printRanksMarkdown(const RankTable &ranks, const Gate &gate, const QStringList &shown)
{
    out() << "### Scopeline ranks\n\n**A** " << markdownCode(shown[0]);
    if (shown.size() == 2)
        out() << " · **B** " << markdownCode(shown[1]);
    out() << "\n\nstep scope: " << markdownCell(ranks.stepScopeText()) << "; figures per step\n\n";
    if (!ranks.comparison().empty()) {
        out() << "**A against B**, runs (processes when a side has several) as the unit: the mean over ranks "
                 "tested alone, the slowest rank and each rank Holm among themselves\n\n"
              << tableMarkdown(RankTable::comparisonColumns(), ranks.comparison());
        if (!ranks.caveat().isEmpty())
            out() << "\ncaveat: " << markdownCell(ranks.caveat()) << "\n";
        out() << "\n";
    }
    for (const QString &note : ranks.notes())
        out() << "- " << markdownCell(note) << "\n";
    // a blank line after <summary> for the table to be read as Markdown
    out() << "\n<details><summary>Per rank (" << ranks.rows().size() << " rows)</summary>\n\n"
          << tableMarkdown(RankTable::columns(), ranks.rows()) << "\n</details>\n";
    if (!ranks.collectiveKinds().empty())
        out() << "\n<details><summary>Per collective (" << ranks.collectiveKinds().size()
              << " rows)</summary>\n\n"
              << tableMarkdown(RankTable::collectiveColumns(), ranks.collectiveKinds()) << "\n</details>\n";
    out() << closingMarkdown(gate);
}

void printRanksJson(const RankTable &ranks, const Gate &gate, const QStringList &positional,
                    const RankTable::Options &options)
{
    QJsonObject root{
        {QStringLiteral("command"), QStringLiteral("ranks")},
        {QStringLiteral("a"), positional[0]},
        {QStringLiteral("step_scope"), ranks.stepScope()},
        {QStringLiteral("alpha"), options.alpha},
        {QStringLiteral("threshold"), options.threshold},
        {QStringLiteral("rows"), tableJson(RankTable::columns(), ranks.rows())},
        {QStringLiteral("collectives"), tableJson(RankTable::collectiveColumns(), ranks.collectiveKinds())},
        {QStringLiteral("comparison"), tableJson(RankTable::comparisonColumns(), ranks.comparison())},
        {QStringLiteral("notes"), QJsonArray::fromStringList(ranks.notes())},
        {QStringLiteral("caveat"), ranks.caveat()},
        {QStringLiteral("gate"), gateJson(gate)}};
    if (positional.size() == 2)
        root.insert(QStringLiteral("b"), positional[1]);
    printJson(root);
}

// `ranks A B C …`: each candidate's ranks against the baseline's, judged together.
int variantRanks(const QList<SideArgument> &sides, const RankTable::Options &options,
                 const GateOptions &output, const QCommandLineParser &parser,
                 const QCommandLineOption *csvs[3])
{
    LoadedVariants loaded;
    if (const int status = loadVariants(sides, loaded); status != Success)
        return status;
    const QStringList labels = QStringList{sides[0].label} + loaded.labels;
    const VariantRanks variants(loaded.baseline, loaded.candidates, labels, options);
    const QString scope = variants.tables().front().stepScopeText();
    Gate gate(output.failOn, output.strict);
    for (std::size_t i = 0; i < variants.tables().size(); ++i) {
        gate.addSameRuns(loaded.baseline, loaded.candidates[i], loaded.labels[qsizetype(i)]);
        gate.addRanks(variants.tables()[i], loaded.labels[qsizetype(i)]);
    }
    const std::vector<VariantRankRow> rows = variants.rows();
    for (qsizetype v = 0; v < labels.size(); ++v) // said before the figures, as a pair's
        if (std::none_of(rows.begin(), rows.end(),
                         [&](const VariantRankRow &r) { return r.variant == labels[v] && r.row.steps > 0; }))
            warning(QStringLiteral("no step of %1 with kernels in %2; --step SCOPE picks another "
                                   "(scopeline-cli scopes lists them)")
                        .arg(scope, labels[v]));
    err().flush();
    const QString family = QStringLiteral(
        "runs (processes when a side has several) as the unit; the candidates' means over ranks one Holm "
        "family, their slowest ranks and ranks another");
    if (output.format == OutputFormat::Json) {
        QJsonArray candidates;
        for (qsizetype i = 0; i < loaded.labels.size(); ++i)
            candidates.append(
                QJsonObject{{QStringLiteral("label"), loaded.labels[i]},
                            {QStringLiteral("path"), sides[i + 1].path},
                            {QStringLiteral("caveat"), variants.tables()[std::size_t(i)].caveat()}});
        const QJsonObject root{
            {QStringLiteral("command"), QStringLiteral("ranks")},
            {QStringLiteral("baseline"),
             QJsonObject{{QStringLiteral("label"), labels[0]}, {QStringLiteral("path"), sides[0].path}}},
            {QStringLiteral("candidates"), candidates},
            {QStringLiteral("step_scope"), variants.tables().front().stepScope()},
            {QStringLiteral("alpha"), options.alpha},
            {QStringLiteral("threshold"), options.threshold},
            {QStringLiteral("rows"), tableJson(VariantRanks::columns(), rows)},
            {QStringLiteral("collectives"),
             tableJson(VariantRanks::collectiveColumns(), variants.collectiveKinds())},
            {QStringLiteral("comparison"),
             tableJson(VariantRanks::comparisonColumns(), variants.comparison())},
            {QStringLiteral("notes"), QJsonArray::fromStringList(variants.notes())},
            {QStringLiteral("gate"), gateJson(gate)}};
        printJson(root);
    } else if (output.format == OutputFormat::Markdown) {
        out() << "### Scopeline ranks\n\n**baseline** " << markdownCell(labels[0]) << " "
              << markdownCode(sides[0].path) << "\n\nstep scope: " << markdownCell(scope)
              << "; figures per step\n\n**Each candidate against the baseline**, " << family << "\n\n"
              << tableMarkdown(VariantRanks::comparisonColumns(), variants.comparison()) << "\n";
        for (std::size_t i = 0; i < variants.tables().size(); ++i)
            if (!variants.tables()[i].caveat().isEmpty())
                out() << "caveat (" << markdownCell(loaded.labels[qsizetype(i)])
                      << "): " << markdownCell(variants.tables()[i].caveat()) << "\n\n";
        for (const QString &note : variants.notes())
            out() << "- " << markdownCell(note) << "\n";
        out() << "\n<details><summary>Per rank (" << rows.size() << " rows)</summary>\n\n"
              << tableMarkdown(VariantRanks::columns(), rows) << "\n</details>\n"
              << closingMarkdown(gate);
    } else {
        out() << "baseline (A): " << sides[0].shown() << "\n";
        for (qsizetype i = 1; i < sides.size(); ++i)
            out() << labels[i] << ": " << sides[i].path << "\n";
        out() << "step scope: " << printable(scope) << "; figures per step, a run's ranks each a row\n";
        out() << tableText(VariantRanks::columns(), rows);
        for (const QString &note : variants.notes())
            out() << note << "\n";
        if (!variants.collectiveKinds().empty())
            out() << "\nCollectives, per kind over the ranks of every run:\n"
                  << tableText(VariantRanks::collectiveColumns(), variants.collectiveKinds());
        out() << "\nEach candidate against the baseline, " << family
              << ", each interval at its row's level:\n"
              << tableText(VariantRanks::comparisonColumns(), variants.comparison());
        for (std::size_t i = 0; i < variants.tables().size(); ++i)
            if (!variants.tables()[i].caveat().isEmpty())
                out() << "caveat (" << loaded.labels[qsizetype(i)] << "): " << variants.tables()[i].caveat()
                      << "\n";
    }
    out().flush();
    const QString tables[3] = {tableCsv(VariantRanks::columns(), rows),
                               tableCsv(VariantRanks::comparisonColumns(), variants.comparison()),
                               tableCsv(VariantRanks::collectiveColumns(), variants.collectiveKinds())};
    for (int i = 0; i < 3; ++i)
        if (parser.isSet(*csvs[i]) && !writeTextFile(parser.value(*csvs[i]), tables[i]))
            return Unreadable;
    return gateStatus(gate);
}

} // namespace

int ranksCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const StepCommandOptions o;
    parser.addOptions(o.all());
    const QCommandLineOption comparisonCsv(QStringLiteral("comparison-csv"),
                                           QStringLiteral("Write A against B (mean over ranks, slowest rank, "
                                                          "each rank) as CSV; - for standard output."),
                                           QStringLiteral("FILE"));
    const QCommandLineOption collectivesCsv(
        QStringLiteral("collectives-csv"),
        QStringLiteral("Write the kinds of collective as CSV; - for standard output."),
        QStringLiteral("FILE"));
    parser.addOptions({comparisonCsv, collectivesCsv});
    parser.addOptions(gateOptionList());
    if (const QString error = parseOptions(parser, arguments); !error.isEmpty())
        return usageError(error);
    int status = Success;
    GateOptions gateOptions;
    if (!parseGateOptions(parser, gateOptions, status))
        return status;
    const bool json = gateOptions.format == OutputFormat::Json,
               markdown = gateOptions.format == OutputFormat::Markdown;
    int toStandardOutput = 0;
    for (const QCommandLineOption *csv : {&o.csv, &comparisonCsv, &collectivesCsv})
        if (parser.isSet(*csv) && parser.value(*csv) == QLatin1String("-")) {
            if (json || markdown)
                return usageError(
                    QStringLiteral("--%1 - writes the CSV to standard output: it cannot go with "
                                   "--format %2")
                        .arg(csv->names().constFirst(), parser.value(QStringLiteral("format"))));
            if (++toStandardOutput > 1)
                return usageError(
                    QStringLiteral("one CSV at most to standard output (-); give the others files"));
        }
    QStringList positional = parser.positionalArguments();
    if (!expandRecordedPair(positional, nullptr, status))
        return status;
    if (positional.isEmpty())
        return usageError(
            QStringLiteral("ranks needs one path, two (A and B), or more (a baseline and candidates)"));
    if (gateOptions.failOn != GateMode::Off && positional.size() < 2)
        return usageError(QStringLiteral("ranks --fail-on gates A against B: give two paths or more"));
    // [LABEL=]PATH as the other commands take them: loaded by the path, named by the label and path
    QList<SideArgument> sides;
    QStringList shown;
    for (QString &argument : positional) {
        sides.append(SideArgument::parse(argument));
        argument = sides.back().path;
        shown << sides.back().shown();
    }
    RankTable::Options options;
    if (!parseLevels(parser, o.alpha, o.threshold, options.alpha, options.threshold, status))
        return status;
    if (!parseStepScope(parser, o.step, options.stepScope, status))
        return status;
    if (sides.size() > 2) {
        const QCommandLineOption *csvs[3] = {&o.csv, &comparisonCsv, &collectivesCsv};
        return variantRanks(sides, options, gateOptions, parser, csvs);
    }

    QList<LoadedRun> a, b;
    if (positional.size() == 2 ? !loadPair(positional[0], positional[1], a, b) : !loadPaths(positional, a))
        return Unreadable;
    const RankTable ranks(a, b, options);
    Gate gate(gateOptions.failOn, gateOptions.strict);
    gate.addSameRuns(a, b);
    gate.addRanks(ranks);
    // said before the figures, so that a pull-request comment carries it too
    for (int side = 0; side < (b.isEmpty() ? 1 : 2); ++side)
        if (std::none_of(ranks.rows().begin(), ranks.rows().end(),
                         [side](const RankRow &row) { return row.side == side && row.steps > 0; }))
            warning(QStringLiteral("no step of %1 with kernels in %2; --step SCOPE picks another "
                                   "(scopeline-cli scopes lists them)")
                        .arg(ranks.stepScopeText(), side == 0 ? QStringLiteral("A") : QStringLiteral("B")));
    err().flush();
    if (json)
        printRanksJson(ranks, gate, positional, options);
    else if (markdown)
        printRanksMarkdown(ranks, gate, shown);
    else
        printRanks(ranks, shown);
    out().flush();
    if (parser.isSet(o.csv) && !writeTextFile(parser.value(o.csv), ranks.toCsv()))
        return Unreadable;
    if (parser.isSet(comparisonCsv) && !writeTextFile(parser.value(comparisonCsv), ranks.comparisonCsv()))
        return Unreadable;
    if (parser.isSet(collectivesCsv) && !writeTextFile(parser.value(collectivesCsv), ranks.collectivesCsv()))
        return Unreadable;
    return gateStatus(gate);
}

} // namespace scopeline::cli
