// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadedrun.h"

#include "traceloader.h"

#include <QtConcurrent>

namespace scopeline {

LoadedRun LoadedRun::load(const TraceRun &run, const std::function<void(double)> &progress,
                          const std::atomic<bool> *cancel, Scopes scopes)
{
    LoadedRun loaded;
    loaded.run = run;
    const LoadResult result = TraceLoader::load(run.file, progress, cancel);
    if (!result.ok()) {
        loaded.error = result.error;
        loaded.cancelled = result.cancelled;
        return loaded;
    }
    loaded.trace = result.trace;
    loaded.analysis = std::make_shared<const TraceAnalysis>(*loaded.trace);
    if (scopes == Scopes::Index)
        loaded.scopes = std::make_shared<const ScopeIndex>(*loaded.analysis);
    return loaded;
}

QList<LoadedRun> LoadedRun::loadAll(const std::vector<TraceRun> &runs, const std::atomic<bool> *cancel,
                                    Scopes scopes)
{
    const QList<TraceRun> list(runs.begin(), runs.end());
    return QtConcurrent::blockingMapped(
        list, [cancel, scopes](const TraceRun &run) { return load(run, {}, cancel, scopes); });
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
