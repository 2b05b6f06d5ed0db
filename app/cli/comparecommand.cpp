// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli compare`: scope durations of side A (baseline) against side B (candidate).
#include "app/cli/clicommands.h"

#include "model/comparison/gate.h"
#include "model/comparison/replication.h"
#include "model/comparison/scopecomparison.h"

#include <QCommandLineParser>
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
            return r.caveat +
                   QStringLiteral(" (record each side in several processes, side/<process>/<run>/, to measure them)");
    return {};
}

void printComparison(const std::vector<ComparisonRow> &rows, double alpha, double threshold)
{
    out() << tableText(ScopeComparison::cliColumns(alpha, threshold), rows);
    if (const QString caveat = caveatText(rows); !caveat.isEmpty())
        out() << "caveat: " << caveat << "\n";
}

// The pull-request comment: the sides, the rows as a table, the caveat, the gate.
void printComparisonMarkdown(const std::vector<ComparisonRow> &rows, double alpha, double threshold,
                             const Gate &gate, const ComparisonOptions &options, qsizetype runsA, qsizetype runsB)
{
    out() << "### Scopeline compare\n\n"
          << "**A** `" << options.pathA << "` (" << runsA << " runs) · **B** `" << options.pathB << "` ("
          << runsB << " runs)\n\n"
          << tableMarkdown(ScopeComparison::cliColumns(alpha, threshold), rows);
    if (const QString caveat = caveatText(rows); !caveat.isEmpty())
        out() << "\n> caveat: " << markdownCell(caveat) << "\n";
    out() << gateMarkdown(gate);
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
    out() << QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}

} // namespace

int compareCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption csvOption(QStringLiteral("csv"), QStringLiteral("Write the table as CSV."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption alphaOption(QStringLiteral("alpha"), QStringLiteral("Significance level."),
                                         QStringLiteral("P"), QStringLiteral("0.05"));
    ComparisonOptions options;
    int status = Success;
    if (!parseComparisonOptions(QStringLiteral("compare"), arguments,
                                QList<QCommandLineOption>{csvOption, alphaOption} + gateOptionList(), parser,
                                options, status))
        return status;
    GateOptions output;
    if (!parseGateOptions(parser, output, status))
        return status;
    bool alphaOk = false;
    const double alpha = parser.value(alphaOption).toDouble(&alphaOk);
    if (!alphaOk || !(alpha > 0 && alpha < 1))
        return usageError(QStringLiteral("--alpha needs a level in (0, 1)"));
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
    if (const QString note = comparison.unnamedSideNote(); !note.isEmpty())
        err() << "scopeline-cli: note: " << note << "\n";

    // A scope found on one side only still has its rows; say so plainly.
    for (const QString &scope : options.scopes) {
        std::size_t nA = 0, nB = 0;
        const ScopeMatcher matcher(scope, options.match);
        for (const ScopeIndex *index : indexA)
            nA += index->samples(matcher, options.samples).size();
        for (const ScopeIndex *index : indexB)
            nB += index->samples(matcher, options.samples).size();
        if (nA == 0 || nB == 0)
            err() << "scopeline-cli: warning: scope '" << scope << "' matches nothing in "
                  << (nA == 0 && nB == 0
                          ? QStringLiteral("A (%1) or B (%2)").arg(options.pathA, options.pathB)
                      : nA == 0 ? QStringLiteral("A (%1)").arg(options.pathA)
                                : QStringLiteral("B (%1)").arg(options.pathB))
                  << "\n";
    }
    err().flush();

    Gate gate(output.failOn, output.strict);
    gate.addScopeComparison(rows, alpha, options.threshold);
    if (output.format == OutputFormat::Markdown)
        printComparisonMarkdown(rows, alpha, options.threshold, gate, options, a.size(), b.size());
    else if (output.format == OutputFormat::Json)
        printComparisonJson(rows, alpha, options.threshold, gate, options, a.size(), b.size());
    else {
        out() << "A: " << options.pathA << " (" << a.size() << " runs)\nB: " << options.pathB << " ("
              << b.size() << " runs)\n";
        for (int i = 0; i < std::min(a.size(), b.size()); ++i)
            out() << "  run " << i + 1 << ": " << a[i].run.label() << " vs " << b[i].run.label() << "\n";
        printComparison(rows, alpha, options.threshold);
    }
    out().flush();

    if (parser.isSet(csvOption) &&
        !writeTextFile(parser.value(csvOption), ScopeComparison::toCsv(rows, alpha, options.threshold)))
        return Unreadable;
    return gateStatus(gate);
}

} // namespace scopeline::cli
