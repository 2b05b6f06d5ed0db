// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadedrun.h"

#include "runsummaryfile.h"
#include "traceloader.h"

#include <QtConcurrent>

namespace scopeline {

LoadedRun LoadedRun::load(const TraceRun &run, const std::function<void(double)> &progress,
                          const std::atomic<bool> *cancel, Scopes scopes, Events events)
{
    LoadedRun loaded;
    loaded.run = run;
    if (RunSummaryFile::isSummaryFile(run.file)) {
        auto summary = std::make_shared<RunSummary>();
        loaded.error = RunSummaryFile::read(run.file, *summary);
        if (!loaded.error.isEmpty())
            return loaded;
        loaded.summary = summary;
        loaded.scopes = summary->scopes();
        if (progress)
            progress(1.0);
        return loaded;
    }
    const LoadResult result = TraceLoader::load(run.file, progress, cancel);
    if (!result.ok()) {
        loaded.error = result.error;
        loaded.cancelled = result.cancelled;
        return loaded;
    }
    loaded.trace = result.trace;
    loaded.analysis = std::make_shared<const TraceAnalysis>(*loaded.trace);
    if (scopes == Scopes::Index) {
        loaded.scopes = std::make_shared<const ScopeIndex>(*loaded.analysis);
        loaded.summary = std::make_shared<const RunSummary>(*loaded.analysis, loaded.scopes);
        if (events == Events::Drop)
            return loaded.withoutEvents();
    }
    return loaded;
}

QList<LoadedRun> LoadedRun::loadAll(const std::vector<TraceRun> &runs, const std::atomic<bool> *cancel,
                                    Scopes scopes, Events events)
{
    const QList<TraceRun> list(runs.begin(), runs.end());
    return QtConcurrent::blockingMapped(list, [cancel, scopes, events](const TraceRun &run) {
        return load(run, {}, cancel, scopes, events);
    });
}

LoadedRun LoadedRun::withEvents(const std::function<void(double)> &progress,
                                const std::atomic<bool> *cancel) const
{
    if (hasEvents() || !summary || RunSummaryFile::isSummaryFile(run.file))
        return *this;
    const LoadResult result = TraceLoader::load(run.file, progress, cancel);
    LoadedRun loaded = *this;
    if (!result.ok()) {
        loaded.error = result.error;
        loaded.cancelled = result.cancelled;
        return loaded;
    }
    loaded.trace = result.trace;
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

std::vector<const ScopeIndex *> scopeIndexes(const QList<LoadedRun> &runs)
{
    std::vector<const ScopeIndex *> result;
    for (const LoadedRun &run : runs)
        if (run.scopes)
            result.push_back(run.scopes.get());
    return result;
}

} // namespace scopeline
