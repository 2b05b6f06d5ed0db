// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli scopes`: every scope found, with kernel and instance counts.
#include "app/cli/clicommands.h"
#include "model/tables/tableformat.h"

#include <QCommandLineParser>
#include <QMap>
#include <QSet>

#include <utility>

namespace scopeline::cli {

int scopesCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const QString error = parseOptions(parser, arguments); !error.isEmpty())
        return usageError(error);
    if (parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("scopes needs at least one PATH"));
    QList<LoadedRun> runs;
    if (!loadPaths(parser.positionalArguments(), runs))
        return Unreadable;
    QMap<QString, std::pair<int64_t, int64_t>> totals; // name -> kernels, instances
    QSet<QString> steps;                               // step scopes, listed first
    for (const LoadedRun &run : runs)
        for (const ScopeIndex::Scope &scope : run.scopes->scopes()) {
            totals[scope.name].first += scope.kernels;
            totals[scope.name].second += scope.instances;
            if (scope.step)
                steps.insert(scope.name);
        }
    out() << QStringLiteral("%1 %2  %3\n")
                 .arg(QStringLiteral("kernels"), 8)
                 .arg(QStringLiteral("instances"), 9)
                 .arg(QStringLiteral("scope"));
    for (const bool step : {true, false})
        for (auto it = totals.begin(); it != totals.end(); ++it)
            if (steps.contains(it.key()) == step)
                out() << QStringLiteral("%1 %2  %3\n")
                             .arg(it.value().first, 8)
                             .arg(it.value().second, 9)
                             .arg(printable(it.key()));
    out() << totals.size() << " scopes in " << runsText(runs) << "\n";
    if (!steps.isEmpty()) {
        QStringList names = steps.values();
        names.sort();
        out() << "step scopes (listed first, one instance per iteration): "
              << printable(names.join(QStringLiteral(", "))) << "\n";
    }
    return Success;
}

} // namespace scopeline::cli
