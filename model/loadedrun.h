// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One run of a trace folder after loading: the trace with its launch analysis and scope index.

#include "scopeindex.h"
#include "traceanalysis.h"
#include "tracefolder.h"

#include <QList>

#include <atomic>
#include <functional>
#include <memory>

namespace scopeline {

struct LoadedRun
{
    TraceRun run;
    std::shared_ptr<const TraceData> trace;
    std::shared_ptr<const TraceAnalysis> analysis;
    std::shared_ptr<const ScopeIndex> scopes; // null when loaded with Scopes::Skip
    QString error; // names the file and the problem when loading failed
    bool cancelled = false;
    bool ok() const { return trace != nullptr; }

    // Whether loading indexes the scopes too; what shows the launch analysis alone skips it.
    enum class Scopes : bool { Skip, Index };

    // Loads and analyses one run; error() tells a failure, cancelled one included.
    static LoadedRun load(const TraceRun &run, const std::function<void(double)> &progress = {},
                          const std::atomic<bool> *cancel = nullptr, Scopes scopes = Scopes::Index);
    // Loads and analyses each run, several files in parallel.
    static QList<LoadedRun> loadAll(const std::vector<TraceRun> &runs,
                                    const std::atomic<bool> *cancel = nullptr, Scopes scopes = Scopes::Index);
};

// The scope indexes of the loaded runs, in order (what ScopeComparison takes for a side).
std::vector<const ScopeIndex *> scopeIndexes(const QList<LoadedRun> &runs);

} // namespace scopeline
