// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/loadedrun.h"

#include "model/analysis/runsummaryfile.h"
#include "model/loading/summarycache.h"
#include "model/loading/traceloader.h"
#include "model/tracedata/devicetrace.h"
#include "model/tracedata/hugepages.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QThreadPool>
#include <QtConcurrent>

#include <map>
#include <vector>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace scopeline {

namespace {
// Qt's raster engine splits large fills into tasks on the global pool and waits for them: loads that
// filled it stalled the GUI thread's painting until they were done (seconds).
Q_GLOBAL_STATIC(QThreadPool, g_loadingPool)
} // namespace

QThreadPool *LoadedRun::loadingPool()
{
    return g_loadingPool();
}

namespace {

// A run made of a loaded trace: analysed and, with Scopes::Index, summarised (and let go with Events::Drop).
LoadedRun analysed(const TraceRun &run, std::shared_ptr<const TraceData> trace, LoadedRun::Scopes scopes,
                   LoadedRun::Events events)
{
    LoadedRun loaded;
    loaded.run = run;
    loaded.trace = std::move(trace);
    // A run let go once summarised needs only what its summary reads of the analysis.
    const bool summaryOnly = scopes == LoadedRun::Scopes::Index && events == LoadedRun::Events::Drop;
    loaded.analysis = std::make_shared<const TraceAnalysis>(
        *loaded.trace, summaryOnly ? TraceAnalysis::Depth::SummaryOnly : TraceAnalysis::Depth::Full);
    if (scopes == LoadedRun::Scopes::Index) {
        loaded.scopes = std::make_shared<const ScopeIndex>(*loaded.analysis);
        loaded.summary = std::make_shared<const RunSummary>(*loaded.analysis, loaded.scopes);
        if (events == LoadedRun::Events::Drop)
            return loaded.withoutEvents();
    }
    return loaded;
}

// What a load keeps of the args: a run summarised and let go, or only analysed (`info`), needs only
// those the figures read; a timeline's details show them all.
LoadOptions optionsFor(LoadedRun::Scopes scopes, LoadedRun::Events events)
{
    const bool figures = scopes == LoadedRun::Scopes::Skip || events == LoadedRun::Events::Drop;
    return {figures ? TraceDetail::Figures : TraceDetail::Full};
}

// The trace of a run: the file's, or one GPU of it.
std::shared_ptr<const TraceData> traceOf(const TraceRun &run, std::shared_ptr<const TraceData> trace)
{
    if (run.device < 0)
        return trace;
    return std::make_shared<const TraceData>(traceOfDevice(*trace, run.device));
}

LoadedRun failed(const TraceRun &run, const LoadResult &result)
{
    LoadedRun loaded;
    loaded.run = run;
    loaded.error = result.error;
    loaded.cancelled = result.cancelled;
    return loaded;
}

// A run of a summary alone: read from a summary file, or kept in the cache.
LoadedRun ofSummary(const TraceRun &run, std::shared_ptr<const RunSummary> summary,
                    const std::function<void(double)> &progress)
{
    LoadedRun loaded;
    loaded.run = run;
    loaded.scopes = summary->scopes();
    loaded.summary = std::move(summary);
    if (progress)
        progress(1.0);
    return loaded;
}

// Where a run only summarised keeps its summary (SummaryCache); empty for any other load.
QString cacheEntry(const TraceRun &run, LoadedRun::Scopes scopes, LoadedRun::Events events)
{
    return scopes == LoadedRun::Scopes::Index && events == LoadedRun::Events::Drop
               ? SummaryCache::entryOf(run.file, run.device)
               : QString();
}

LoadedRun loadOne(const TraceRun &run, const std::function<void(double)> &progress, const std::atomic<bool> *cancel,
                  LoadedRun::Scopes scopes, LoadedRun::Events events)
{
    if (RunSummaryFile::isSummaryFile(run.file)) {
        auto summary = std::make_shared<RunSummary>();
        if (const QString error = RunSummaryFile::read(run.file, *summary); !error.isEmpty()) {
            LoadedRun loaded;
            loaded.run = run;
            loaded.error = error;
            return loaded;
        }
        return ofSummary(run, std::move(summary), progress);
    }
    const QString entry = cacheEntry(run, scopes, events);
    if (auto kept = SummaryCache::find(entry))
        return ofSummary(run, std::move(kept), progress);
    const LoadResult result = TraceLoader::load(run.file, progress, cancel, optionsFor(scopes, events));
    if (!result.ok())
        return failed(run, result);
    LoadedRun loaded = analysed(run, traceOf(run, result.trace), scopes, events);
    if (!entry.isEmpty())
        SummaryCache::store(entry, *loaded.summary);
    return loaded;
}

// One GPU of a trace of several (devices, in order) as a rank: the world is the GPUs with events; their
// ordinals are the ranks, and a world of 0 … N-1 says so.
TraceRun rankOf(const TraceRun &run, int device, const std::vector<int> &devices)
{
    TraceRun rank = run;
    rank.device = rank.rank = device;
    const bool contiguous = devices.front() == 0 && devices.back() == int(devices.size()) - 1;
    rank.worldSize = contiguous ? int(devices.size()) : 0;
    return rank;
}

// The ranks of a trace of several GPUs from the cache (entry: the whole trace's); empty unless every
// GPU's summary is kept.
QList<LoadedRun> keptRanks(const TraceRun &run, const QString &entry)
{
    const std::vector<int> devices = SummaryCache::findDevices(entry);
    QList<LoadedRun> ranks;
    for (const int device : devices) {
        auto kept = SummaryCache::find(SummaryCache::entryOf(run.file, device));
        if (!kept)
            return {};
        ranks.append(ofSummary(rankOf(run, device, devices), std::move(kept), nullptr));
    }
    return ranks;
}

QList<LoadedRun> loadRanksOf(const TraceRun &run, const std::function<void(double)> &progress,
                             const std::atomic<bool> *cancel, LoadedRun::Scopes scopes, LoadedRun::Events events)
{
    if (run.rank >= 0 || RunSummaryFile::isSummaryFile(run.file))
        return {loadOne(run, progress, cancel, scopes, events)};
    // a trace of one GPU is kept whole in the cache; one of several a summary per GPU
    const QString entry = cacheEntry(run, scopes, events);
    if (auto kept = SummaryCache::find(entry))
        return {ofSummary(run, std::move(kept), progress)};
    if (QList<LoadedRun> ranks = keptRanks(run, entry); !ranks.isEmpty()) {
        if (progress)
            progress(1.0);
        return ranks;
    }
    const LoadResult result = TraceLoader::load(run.file, progress, cancel, optionsFor(scopes, events));
    if (!result.ok())
        return {failed(run, result)};
    const std::vector<int> devices = gpuDevices(*result.trace);
    if (devices.size() < 2) {
        LoadedRun loaded = analysed(run, result.trace, scopes, events);
        if (!entry.isEmpty())
            SummaryCache::store(entry, *loaded.summary);
        return {loaded};
    }
    // the GPUs' keys are taken after the load: kept only if the trace is still the one the load began on
    bool keep = !entry.isEmpty() && SummaryCache::entryOf(run.file, -1) == entry;
    QList<LoadedRun> ranks;
    for (const int device : devices) {
        const TraceRun rank = rankOf(run, device, devices);
        ranks.append(analysed(rank, traceOf(rank, result.trace), scopes, events));
        keep = keep && SummaryCache::store(SummaryCache::entryOf(run.file, device), *ranks.back().summary);
    }
    if (keep) // last: a list of GPUs names only summaries kept
        SummaryCache::storeDevices(entry, devices);
    return ranks;
}

// A load that runs out of memory fails with a message naming the file, as a bad file does, rather than
// ending the program (and the window's other work with it). A helper thread's failure comes wrapped.
template <typename Load> auto orOutOfMemory(const TraceRun &run, Load load) -> decltype(load())
{
    const auto outOfMemory = [&] {
        LoadedRun loaded;
        loaded.run = run;
        loaded.error =
            QCoreApplication::translate("LoadedRun", "%1: out of memory while loading it (a file of %2 MB); "
                                                     "close other programs or load fewer runs at once")
                .arg(QDir::toNativeSeparators(run.file))
                .arg(QFileInfo(run.file).size() / 1e6, 0, 'f', 1);
        if constexpr (std::is_same_v<decltype(load()), LoadedRun>)
            return loaded;
        else
            return decltype(load()){loaded};
    };
    try {
        return load();
    } catch (const std::bad_alloc &) {
        return outOfMemory();
    } catch (const QUnhandledException &wrapped) {
        try {
            std::rethrow_exception(wrapped.exception());
        } catch (const std::bad_alloc &) {
            return outOfMemory();
        }
    }
}

// orOutOfMemory, each run loaded carrying its file's stamp from before the load began.
template <typename Load> auto stampedLoad(const TraceRun &run, Load load) -> decltype(load())
{
    const FileStamp before = FileStamp::of(run.file);
    auto loaded = orOutOfMemory(run, load);
    if constexpr (std::is_same_v<decltype(load()), LoadedRun>)
        loaded.stamp = before;
    else
        for (LoadedRun &each : loaded)
            each.stamp = before;
    return loaded;
}

} // namespace

FileStamp FileStamp::of(const QString &path)
{
    const QFileInfo info(path);
    return info.exists() ? FileStamp{info.size(), info.lastModified()} : FileStamp{};
}

LoadedRun LoadedRun::load(const TraceRun &run, const std::function<void(double)> &progress,
                          const std::atomic<bool> *cancel, Scopes scopes, Events events)
{
    return stampedLoad(run, [&] { return loadOne(run, progress, cancel, scopes, events); });
}

QList<LoadedRun> LoadedRun::loadRanks(const TraceRun &run, const std::function<void(double)> &progress,
                                      const std::atomic<bool> *cancel, Scopes scopes, Events events)
{
    return stampedLoad(run, [&] { return loadRanksOf(run, progress, cancel, scopes, events); });
}

QList<LoadedRun> LoadedRun::loadAll(const std::vector<TraceRun> &runs, const std::atomic<bool> *cancel,
                                    Scopes scopes, Events events)
{
    return loadAll(runs, std::vector<Events>(runs.size(), events), {}, cancel, scopes);
}

QList<LoadedRun> LoadedRun::loadAll(const std::vector<TraceRun> &runs, const std::vector<Events> &events,
                                    const std::function<void(int, double)> &progress,
                                    const std::atomic<bool> *cancel, Scopes scopes)
{
    QList<LoadedRun> all;
    for (const QList<LoadedRun> &each : loadEach(runs, events, progress, cancel, scopes))
        all.append(each);
    return all;
}

QList<QList<LoadedRun>> LoadedRun::loadEach(const std::vector<TraceRun> &runs,
                                            const std::vector<Events> &events,
                                            const std::function<void(int, double)> &progress,
                                            const std::atomic<bool> *cancel, Scopes scopes,
                                            OnFailure onFailure)
{
    // One flag stops every run: the caller's cancel (looked at whenever a run reports progress) or
    // the first failure (OnFailure::Stop), so that a bad file does not wait for the other runs to load.
    std::atomic<bool> stop{cancel && cancel->load()};
    QList<int> indexes;
    for (int i = 0; i < int(runs.size()); ++i)
        indexes.append(i);
    // Each run is loaded, summarised and (Events::Drop) let go on its own thread, so memory holds at
    // most as many traces as there are threads, not a side's worth.
    QList<QList<LoadedRun>> loaded = QtConcurrent::blockingMapped(loadingPool(), indexes, [&](int i) -> QList<LoadedRun> {
        const TraceRun &run = runs[std::size_t(i)];
        if (cancel && cancel->load())
            stop = true;
        if (stop.load()) {
            LoadedRun stopped;
            stopped.run = run;
            stopped.cancelled = true;
            return {stopped};
        }
        auto onProgress = [&, i](double fraction) {
            if (cancel && cancel->load())
                stop = true;
            if (progress)
                progress(i, fraction);
        };
        const Events keep = std::size_t(i) < events.size() ? events[std::size_t(i)] : Events::Keep;
        const QList<LoadedRun> loaded =
            stampedLoad(run, [&] { return loadRanksOf(run, onProgress, &stop, scopes, keep); });
        const bool ok = std::all_of(loaded.begin(), loaded.end(), [](const LoadedRun &r) { return r.ok(); });
        if (!ok && !loaded.front().cancelled && onFailure == OnFailure::Stop)
            stop = true;
        else if (ok && progress)
            progress(i, 1.0);
        return loaded;
    });
#ifdef __GLIBC__
    // What the loads let go of on the loading threads stays resident in those threads' malloc arenas
    // (a quarter of a GB after a 12 GB trace) until trimmed. Up to what malloc keeps anyway is left:
    // trimming a few MB costs more than they weigh (3 ms of a 0.13 s load, in 14 calls to madvise).
    if (mallinfo2().fordblks > hugepages::kKeptFreeBytes)
        malloc_trim(0);
#endif
    return loaded;
}

bool LoadedRun::hasTrace() const
{
    return summary && !RunSummaryFile::isSummaryFile(run.file);
}

LoadedRun LoadedRun::withEvents(const std::function<void(double)> &progress,
                                const std::atomic<bool> *cancel) const
{
    if ((hasEvents() && trace->detail == TraceDetail::Full) || !hasTrace())
        return *this;
    const LoadResult result = TraceLoader::load(run.file, progress, cancel);
    LoadedRun loaded = *this;
    if (!result.ok()) {
        loaded.error = result.error;
        loaded.cancelled = result.cancelled;
        return loaded;
    }
    loaded.trace = traceOf(run, result.trace);
    loaded.analysis = std::make_shared<const TraceAnalysis>(*loaded.trace);
    return loaded;
}

LoadedRun LoadedRun::withoutEvents() const
{
    LoadedRun run = *this;
    if (run.summary) {
        run.analysis.reset(); // before the trace it refers to
        run.trace.reset();
    }
    return run;
}

bool hasRanks(const QList<LoadedRun> &runs)
{
    return std::any_of(runs.begin(), runs.end(), [](const LoadedRun &r) { return r.run.rank >= 0; });
}

QStringList leaveOutRunsWithoutKernels(QList<LoadedRun> &side)
{
    QSet<QString> withKernels, without;
    for (const LoadedRun &run : side)
        if (run.summary) // a run loaded without its summary cannot tell
            (run.summary->kernels().empty() ? without : withKernels) << run.run.name;
    without.subtract(withKernels); // a run of several GPUs with kernels on some
    QStringList lines;
    if (withKernels.isEmpty() || without.isEmpty())
        return lines;
    for (const LoadedRun &run : side)
        if (without.contains(run.run.name) && !lines.contains(run.run.file))
            lines << run.run.file;
    side.removeIf([&](const LoadedRun &run) { return without.contains(run.run.name); });
    for (QString &line : lines)
        line =
            QCoreApplication::translate("LoadedRun", "%1 holds no GPU kernels, where the other runs of its "
                                                     "side do: left out (was GPU activity recorded?)")
                .arg(line);
    return lines;
}

QString summaryBesideItsTrace(const QList<LoadedRun> &side)
{
    const auto folderAndName = [](const QString &file) {
        const QFileInfo info(file);
        return info.dir().dirName() + u'/' + info.fileName();
    };
    std::map<std::pair<QString, int64_t>, QString> traces; // folder/name and events -> the trace
    std::vector<const LoadedRun *> summaries;
    for (const LoadedRun &run : side) {
        if (!run.summary)
            continue;
        if (run.hasTrace())
            traces.emplace(std::pair(folderAndName(run.run.file), run.summary->events), run.run.file);
        else
            summaries.push_back(&run);
    }
    for (const LoadedRun *summary : summaries)
        if (const auto trace =
                traces.find({folderAndName(summary->summary->sourceFile), summary->summary->events});
            trace != traces.end())
            return QCoreApplication::translate(
                       "LoadedRun",
                       "%1 is a summary of %2, in the same side: the run would count twice. Keep "
                       "one of them in a side's folders (summarize into a folder outside the side)")
                .arg(QDir::toNativeSeparators(summary->run.file), QDir::toNativeSeparators(trace->second));
    return {};
}

QStringList runCaveats(const QList<LoadedRun> &runs)
{
    std::vector<std::pair<QString, QStringList>> files; // each caveat, in order, and the files it is of
    for (const LoadedRun &run : runs) {
        if (!run.summary)
            continue;
        QStringList caveats = run.summary->caveats;
        if (run.summary->kernels().empty())
            caveats << QCoreApplication::translate(
                "LoadedRun",
                "no GPU kernels in it: nothing of it can be compared (was GPU activity recorded?)");
        for (const QString &caveat : std::as_const(caveats)) {
            auto it =
                std::find_if(files.begin(), files.end(), [&](const auto &f) { return f.first == caveat; });
            if (it == files.end())
                it = files.insert(files.end(), {caveat, {}});
            if (!it->second.contains(run.run.file)) // the GPUs of one trace: one file
                it->second << run.run.file;
        }
    }
    QStringList lines;
    for (const auto &[caveat, of] : files)
        lines << (of.size() == 1 ? QStringLiteral("%1: %2").arg(of.front(), caveat)
                                 : QCoreApplication::translate("LoadedRun", "%1 and %n other file(s): %2",
                                                               nullptr, int(of.size() - 1))
                                       .arg(of.front(), caveat));
    // Runs of several profilers pooled in one side: each records (and names) kernels its own way.
    std::map<QString, QString> formats; // its name -> a file of it
    for (const LoadedRun &run : runs)
        if (run.summary && run.summary->format != TraceFormat::Unknown)
            formats.emplace(formatName(run.summary->format), run.run.file);
    if (formats.size() > 1) {
        QStringList each;
        for (const auto &[format, file] : formats)
            each << QStringLiteral("%1 (%2)").arg(format, file);
        lines << QCoreApplication::translate("LoadedRun",
                                             "runs of %n trace formats in one side, pooled: %1; each "
                                             "profiler records and names kernels its own way",
                                             nullptr, int(formats.size()))
                     .arg(each.join(QStringLiteral(", ")));
    }
    return lines;
}

bool sameRuns(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    const auto files = [](const QList<LoadedRun> &runs) {
        QStringList out;
        for (const LoadedRun &run : runs)
            out << QFileInfo(run.run.file).canonicalFilePath();
        return out;
    };
    return !a.isEmpty() && files(a) == files(b);
}

QStringList pairCaveats(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    const QStringList ofA = runCaveats(a), ofB = runCaveats(b);
    QStringList lines;
    if (sameRuns(a, b))
        lines << QCoreApplication::translate("LoadedRun",
                                             "A and B are the same runs (they read the same files): "
                                             "nothing is compared; give a second trace or folder as B");
    for (const QString &caveat : ofA)
        lines << (ofB.contains(caveat) ? QStringLiteral("A and B: ") : QStringLiteral("A: ")) + caveat;
    for (const QString &caveat : ofB)
        if (!ofA.contains(caveat))
            lines << QStringLiteral("B: ") + caveat;
    return lines;
}

std::vector<const ScopeIndex *> scopeIndexes(const QList<LoadedRun> &runs)
{
    std::vector<const ScopeIndex *> result;
    for (const LoadedRun &run : runs)
        if (run.scopes)
            result.push_back(run.scopes.get());
    return result;
}

} // namespace scopeline
