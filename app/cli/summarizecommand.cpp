// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli summarize PATH... -o DIR`: one run summary file per run (docs/summary-format.md), the
// map step of a set of runs larger than one machine; diff, compare, steps and report read them back
// in place of the traces.
#include "app/cli/clicommands.h"

#include "model/analysis/runsummaryfile.h"
#include "model/loading/tracefolder.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QtConcurrent>

#include <vector>

namespace scopeline::cli {

namespace {

// A rank of a multi-GPU run is <run>/rank_<N>_of_<world>. A run folder given itself
// (`side/proc_3/run_7`) scans as one run named after its trace file; its summary is named after the folder, as scanning the side folder names it, so that one job per run
// folder (a batch array) gives the names one call on the side would.
QString summaryName(const QString &path, const std::vector<TraceRun> &found, const TraceRun &run)
{
    const QFileInfo info(path);
    // the ranks of a run in a folder of their own, named so that scanning it makes them one run again
    if (run.rank >= 0)
        return run.name + QStringLiteral("/rank_%1").arg(run.rank) +
               (run.worldSize > 0 ? QStringLiteral("_of_%1").arg(run.worldSize) : QString());
    if (found.size() == 1 && info.isDir() && run.name == QFileInfo(run.file).fileName())
        return QFileInfo(QDir::cleanPath(info.absoluteFilePath())).fileName();
    return run.name;
}

} // namespace

int summarizeCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption outOption({QStringLiteral("o"), QStringLiteral("out")},
                                       QStringLiteral("Folder to write the summaries into."),
                                       QStringLiteral("DIR"));
    parser.addOption(outOption);
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    if (parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("summarize needs at least one PATH"));
    if (!parser.isSet(outOption) || parser.value(outOption).isEmpty())
        return usageError(QStringLiteral("summarize needs -o DIR"));
    const QDir outDir(parser.value(outOption));

    // Each run is written as DIR/<its run name>.slsum, so that scanning DIR names it as its trace
    // folder did (side/<process>/<run>/ keeps its process folder).
    struct Job
    {
        TraceRun run;
        QString file;
    };
    std::vector<Job> jobs;
    QHash<QString, QString> targets; // summary file -> the trace it comes from
    for (const QString &path : parser.positionalArguments()) {
        const std::vector<TraceRun> found = scanPath(path);
        if (found.empty())
            return Unreadable;
        for (const TraceRun &run : found) {
            const QString file = QDir::cleanPath(outDir.filePath(summaryName(path, found, run) +
                                                                 RunSummaryFile::suffix()));
            if (const auto twin = targets.constFind(file); twin != targets.cend()) {
                err() << "scopeline-cli: " << QDir::toNativeSeparators(twin.value()) << " and "
                      << QDir::toNativeSeparators(run.file) << " would both be summarised as "
                      << QDir::toNativeSeparators(file) << "; summarize them into separate folders\n";
                return BadUsage;
            }
            targets.insert(file, run.file);
            jobs.push_back({run, file});
        }
    }

    // Runs in parallel, each written and let go as soon as it is summarised: memory holds as many
    // traces as there are threads.
    const QList<Job> list(jobs.begin(), jobs.end());
    const QList<QString> errors = QtConcurrent::blockingMapped(list, [](const Job &job) -> QString {
        const LoadedRun loaded =
            LoadedRun::load(job.run, {}, nullptr, LoadedRun::Scopes::Index, LoadedRun::Events::Drop);
        if (!loaded.ok())
            return loaded.error;
        if (!QDir().mkpath(QFileInfo(job.file).absolutePath()))
            return QStringLiteral("%1: cannot create the folder").arg(QFileInfo(job.file).absolutePath());
        return RunSummaryFile::write(*loaded.summary, job.file);
    });
    int status = Success;
    for (qsizetype i = 0; i < errors.size(); ++i) {
        if (!errors[i].isEmpty()) {
            err() << "scopeline-cli: " << errors[i] << "\n";
            status = Unreadable;
        } else {
            out() << QDir::toNativeSeparators(list[i].file) << "\n";
        }
    }
    return status;
}

} // namespace scopeline::cli
