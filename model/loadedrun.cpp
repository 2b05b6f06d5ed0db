#include "loadedrun.h"

#include "traceloader.h"

#include <QtConcurrent>

namespace scopeline {

QList<LoadedRun> LoadedRun::loadAll(const std::vector<TraceRun> &runs, const std::atomic<bool> *cancel)
{
    const QList<TraceRun> list(runs.begin(), runs.end());
    return QtConcurrent::blockingMapped(list, [cancel](const TraceRun &run) {
        LoadedRun loaded;
        loaded.run = run;
        const LoadResult result = TraceLoader::load(run.file, {}, cancel);
        if (!result.ok()) {
            loaded.error = result.error;
            return loaded;
        }
        loaded.trace = result.trace;
        loaded.analysis = std::make_shared<const TraceAnalysis>(*loaded.trace);
        loaded.scopes = std::make_shared<const ScopeIndex>(*loaded.analysis);
        return loaded;
    });
}

} // namespace scopeline
