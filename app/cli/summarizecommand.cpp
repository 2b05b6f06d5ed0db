// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli summarize PATH... -o DIR`: one run summary file per run (docs/summary-format.md), the
// map step of a set of runs larger than one machine; diff, compare, steps and report read them back
// in place of the traces.
#include "app/cli/clicommands.h"

#include "model/analysis/runsummaryfile.h"
#include "model/files/atomicfile.h"
#include "model/loading/summarycache.h"
#include "model/loading/tracefolder.h"

#include <QCommandLineParser>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QtConcurrent>

#include <vector>

namespace scopeline::cli {

namespace {

// A run's summary is named as scanning the summaries names the run. A rank of a multi-GPU run (a
// rank file, or a GPU of a trace of several) is <run>/rank_<N>_of_<world>. A run folder given itself
// (`side/proc_3/run_7`) scans as one run named after its trace file; its summary is named after the
// folder, as scanning the side folder names it, so that one job per run folder (a batch array) gives
// the names one call on the side would.
QString rankSuffix(const TraceRun &run)
{
    if (run.rank < 0)
        return {};
    return QStringLiteral("/rank_%1").arg(run.rank) +
           (run.worldSize > 0 ? QStringLiteral("_of_%1").arg(run.worldSize) : QString());
}

QString summaryName(const QString &path, const std::vector<TraceRun> &found, const TraceRun &run)
{
    const QFileInfo info(path);
    const QString name = found.size() == 1 && info.isDir() && run.name == QFileInfo(run.file).fileName()
                             ? QFileInfo(QDir::cleanPath(info.absoluteFilePath())).fileName()
                             : run.name;
    return name + rankSuffix(run);
}

// A path with its links resolved as far as it exists, the rest as given (a folder not made yet).
QString realPath(const QString &path)
{
    QString rest, at = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    while (!QFileInfo::exists(at) && at != QDir::rootPath()) {
        rest = QLatin1Char('/') + QFileInfo(at).fileName() + rest;
        at = QFileInfo(at).path();
    }
    return QDir::cleanPath(QFileInfo(at).canonicalFilePath() + rest);
}

} // namespace

int summarizeCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption outOption({QStringLiteral("o"), QStringLiteral("out")},
                                       QStringLiteral("Folder to write the summaries into."),
                                       QStringLiteral("DIR"));
    parser.addOption(outOption);
    if (const QString error = parseOptions(parser, arguments); !error.isEmpty())
        return usageError(error);
    if (parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("summarize needs at least one PATH"));
    if (!parser.isSet(outOption) || parser.value(outOption).isEmpty())
        return usageError(QStringLiteral("summarize needs -o DIR"));
    const QDir outDir(parser.value(outOption));
    // Summaries inside a side they summarise make its every run count twice when it is next read.
    const QString target = realPath(outDir.path());
    for (const QString &path : parser.positionalArguments())
        for (const QString &side : {QFileInfo(path).absoluteFilePath(), QFileInfo(path).canonicalFilePath()})
            if (QFileInfo(path).isDir() && !side.isEmpty() &&
                (target == QDir::cleanPath(side) ||
                 target.startsWith(QDir::cleanPath(side) + QLatin1Char('/'))))
                return usageError(
                    QStringLiteral("-o %1 is inside %2, a side it summarises: read again, each "
                                   "run would count twice; summarize into a folder outside it")
                        .arg(QDir::toNativeSeparators(outDir.path()), QDir::toNativeSeparators(path)));
    if (const QString why = makeFolder(outDir.path()); !why.isEmpty()) { // once, not once a run
        err() << "scopeline-cli: cannot create the folder " << QDir::toNativeSeparators(outDir.path()) << ": "
              << why << "\n";
        return Unreadable;
    }

    // Each run is written as DIR/<its run name>.slsum, so that scanning DIR names it as its trace
    // folder did (side/<process>/<run>/ keeps its process folder).
    struct Job
    {
        TraceRun run;
        QString file;
        qsizetype path; // in the positional arguments
    };
    std::vector<Job> jobs;
    QHash<QString, QString> targets; // summary file -> the trace it comes from
    bool wholeSide = false;          // a PATH of several runs
    const QStringList paths = parser.positionalArguments();
    for (qsizetype p = 0; p < paths.size(); ++p) {
        const QString &path = paths[p];
        const std::vector<TraceRun> found = scanPath(path);
        if (found.empty())
            return Unreadable;
        wholeSide = wholeSide || TraceFolder::runCount(found) > 1;
        for (const TraceRun &run : found) {
            const QString file = QDir::cleanPath(outDir.filePath(summaryName(path, found, run) +
                                                                 RunSummaryFile::suffix()));
            if (const auto twin = targets.constFind(file); twin != targets.cend()) {
                if (twin.value() == run.file) // the same run named twice: summarised once
                    continue;
                err() << "scopeline-cli: " << QDir::toNativeSeparators(twin.value()) << " and "
                      << QDir::toNativeSeparators(run.file) << " would both be summarised as "
                      << QDir::toNativeSeparators(file) << "; summarize them into separate folders\n";
                return BadUsage;
            }
            targets.insert(file, run.file);
            jobs.push_back({run, file, p});
        }
    }

    // Runs in parallel, each written and let go as soon as it is summarised: memory holds as many
    // traces as there are threads. A trace of several GPUs is written as its ranks: <run>/rank_<N>_of_<W>.
    struct Written
    {
        QString error;
        QStringList files;
        bool unreadable = false; // the error is the trace's, not the summary's
    };
    const QList<Job> list(jobs.begin(), jobs.end());
    SummaryCache::turnOff(); // what it writes are the summaries: no second copy of each in the cache
    const QList<Written> results = QtConcurrent::blockingMapped(list, [](const Job &job) -> Written {
        const QList<LoadedRun> loaded = LoadedRun::loadRanks(job.run, {}, nullptr, LoadedRun::Scopes::Index,
                                                             LoadedRun::Events::Drop);
        Written written;
        for (const LoadedRun &run : loaded) {
            if (!run.ok())
                return {run.error, {}, true};
            const QString stem = job.file.left(job.file.size() - RunSummaryFile::suffix().size());
            const QString file = run.run.rank >= 0 && job.run.rank < 0
                                     ? stem + rankSuffix(run.run) + RunSummaryFile::suffix()
                                     : job.file;
            const QString folder = QFileInfo(file).absolutePath();
            if (const QString why = makeFolder(folder); !why.isEmpty())
                return {QStringLiteral("cannot create the folder %1: %2")
                            .arg(QDir::toNativeSeparators(folder), why),
                        {}};
            written.error = RunSummaryFile::write(*run.summary, file);
            if (!written.error.isEmpty())
                return written;
            written.files << file;
        }
        return written;
    });
    int status = Success;
    QSet<QString> writtenFiles;
    // --skip-unreadable: a run with a trace that cannot be read is left out whole, the summaries of its
    // other ranks taken back. A run whose summary could not be written keeps no path.
    UnreadableRuns unreadable(paths);
    for (std::size_t i = 0; i < jobs.size(); ++i)
        if (const Written &written = results[qsizetype(i)]; written.unreadable || !written.files.isEmpty())
            unreadable.add(jobs[i].path, jobs[i].run.name, !written.unreadable);
    const bool leaveOut = unreadable.leaveOut();
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const Written &written = results[qsizetype(i)];
        if (leaveOut && unreadable.contains(jobs[i].path, jobs[i].run.name)) {
            if (written.unreadable)
                UnreadableRuns::say(written.error, true);
            for (const QString &file : written.files) { // a rank of a run left out, and its run's folder
                QFile::remove(file);
                if (const QString folder = QFileInfo(file).absolutePath();
                    folder != QDir(outDir).absolutePath())
                    QDir().rmdir(folder); // once empty
            }
            continue;
        }
        if (!written.error.isEmpty()) {
            err() << "scopeline-cli: " << written.error << "\n";
            status = Unreadable;
        }
        for (const QString &file : written.files) {
            out() << QDir::toNativeSeparators(file) << "\n";
            writtenFiles.insert(QFileInfo(file).absoluteFilePath());
        }
    }
    unreadable.sayWhyNotLeftOut();
    // A side summarised into DIR again: summaries of an earlier call (runs since deleted or renamed)
    // would be read with these as one side. (One run a call, as a batch array writes, is not a side.)
    if (!wholeSide)
        return status;
    QStringList earlier;
    QDirIterator it(outDir.path(), {RunSummaryFile::fileNamePattern()}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        if (const QString file = QFileInfo(it.next()).absoluteFilePath(); !writtenFiles.contains(file))
            earlier << QDir::toNativeSeparators(file);
    if (!earlier.isEmpty()) {
        earlier.sort();
        err() << "scopeline-cli: warning: " << QDir::toNativeSeparators(outDir.path()) << " also holds "
              << earlier.size() << (earlier.size() == 1 ? " summary" : " summaries")
              << " this call did not write (" << earlier.front() << (earlier.size() > 1 ? ", …" : "")
              << "); a side read from it counts them as runs\n";
    }
    return status;
}

} // namespace scopeline::cli
