// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One run of a trace folder after loading: its summary (what the statistics read), and while a
// timeline may show it, the trace with its launch analysis. A summary file loads as a summary alone.

#include "model/analysis/runsummary.h"
#include "model/analysis/scopeindex.h"
#include "model/analysis/traceanalysis.h"
#include "model/loading/tracefolder.h"

#include <QDateTime>
#include <QList>

class QThreadPool;

#include <atomic>
#include <functional>
#include <memory>

namespace scopeline {

// A file's size and time of its last change, as read at one moment; -1 and null where it was not there.
struct FileStamp
{
    qint64 size = -1;
    QDateTime modified;
    static FileStamp of(const QString &path);
    bool operator==(const FileStamp &other) const { return size == other.size && modified == other.modified; }
    bool operator!=(const FileStamp &other) const { return !(*this == other); }
};

struct LoadedRun
{
    TraceRun run;
    FileStamp stamp; // run.file's before its load began: a change while it loaded is a change too
    std::shared_ptr<const TraceData> trace;       // null once dropped, and for a summary file
    std::shared_ptr<const TraceAnalysis> analysis; // with the trace
    std::shared_ptr<const ScopeIndex> scopes;     // the summary's; null when loaded with Scopes::Skip
    std::shared_ptr<const RunSummary> summary;    // null only when loaded with Scopes::Skip
    QString error; // names the file and the problem when loading failed
    bool cancelled = false;
    bool ok() const { return trace != nullptr || summary != nullptr; }
    // Whether the events are here (a timeline can show the run).
    bool hasEvents() const { return trace != nullptr && analysis != nullptr; }

    // Whether loading summarises the run (with its scope index) too; what shows the launch analysis
    // alone (`info`) skips it, and reads only the args a figure reads (TraceDetail::Figures).
    enum class Scopes : bool { Skip, Index };
    // Whether the events stay once the run is summarised: statistics alone need only the summary,
    // and memory then does not grow with the number of runs; such a load reads only the args the
    // summary reads. Skip keeps them (nothing else is left).
    enum class Events : bool { Drop, Keep };

    // Loads and analyses one run (a trace, or a summary file: RunSummaryFile); error tells a failure,
    // cancelled one included. A run of one device of a trace (TraceRun::device) reads that GPU alone.
    static LoadedRun load(const TraceRun &run, const std::function<void(double)> &progress = {},
                          const std::atomic<bool> *cancel = nullptr, Scopes scopes = Scopes::Index,
                          Events events = Events::Keep);
    // The same, except that a trace with events on several GPUs (not a rank file already) comes back
    // as one entry per GPU: the ranks of one run (traceOfDevice), rank = the GPU's index.
    static QList<LoadedRun> loadRanks(const TraceRun &run, const std::function<void(double)> &progress = {},
                                      const std::atomic<bool> *cancel = nullptr, Scopes scopes = Scopes::Index,
                                      Events events = Events::Keep);
    // Loads and analyses each run, several files in parallel (as many as the thread pool has threads);
    // a trace of several GPUs gives its ranks (loadRanks).
    static QList<LoadedRun> loadAll(const std::vector<TraceRun> &runs, const std::atomic<bool> *cancel = nullptr,
                                    Scopes scopes = Scopes::Index, Events events = Events::Keep);
    // The same with events kept or dropped per run (events[i] for runs[i]: each run drops them as soon
    // as it is summarised), and progress per run (its index and the fraction of its file read; called
    // from the loading threads). The first failure stops the runs still loading: they come back
    // cancelled, and the failed one with its error.
    static QList<LoadedRun> loadAll(const std::vector<TraceRun> &runs, const std::vector<Events> &events,
                                    const std::function<void(int run, double fraction)> &progress,
                                    const std::atomic<bool> *cancel = nullptr, Scopes scopes = Scopes::Index);
    // The same, an entry per run given: the run, or its ranks. Continue: a failure stops no other run
    // (the window compares the runs that load).
    enum class OnFailure : bool { Stop, Continue };
    static QList<QList<LoadedRun>> loadEach(const std::vector<TraceRun> &runs,
                                            const std::vector<Events> &events,
                                            const std::function<void(int run, double fraction)> &progress,
                                            const std::atomic<bool> *cancel = nullptr,
                                            Scopes scopes = Scopes::Index,
                                            OnFailure onFailure = OnFailure::Stop);
    // The threads that load runs (loadAll, PairLoader): apart from QThreadPool::globalInstance(),
    // which Qt's own painting uses as well, so that loading on every core leaves the GUI thread painting.
    static QThreadPool *loadingPool();
    // Whether its trace can be read again for its events: a summarised run, not a summary file's.
    bool hasTrace() const;
    // The same run with its events and all their args again (a summary-only run reloaded from its
    // trace), or as it is when they are here or cannot be (a summary file); error tells a failure.
    LoadedRun withEvents(const std::function<void(double)> &progress = {},
                         const std::atomic<bool> *cancel = nullptr) const;
    // The same run without its events: the summary alone.
    LoadedRun withoutEvents() const;
};

// The scope indexes of the loaded runs, in order (what ScopeComparison takes for a side).
std::vector<const ScopeIndex *> scopeIndexes(const QList<LoadedRun> &runs);
// Whether some run is a rank of a run of several GPUs.
bool hasRanks(const QList<LoadedRun> &runs);
// Leaves out of a side, where some of its runs hold GPU kernels, the runs that hold none (GPU activity
// not recorded, or every kernel unreadable): as runs of no GPU time they would pull the side's per-run
// figures down. A run's ranks go together. Returns a line naming each file left out.
QStringList leaveOutRunsWithoutKernels(QList<LoadedRun> &side);
// Where a side holds a run twice, as its trace and as a summary of it (`summarize DIR -o DIR/sums`),
// an error naming both files, else empty: its figures would count twice. A summary is of a trace when
// it was made from a file of the same folder and file name with as many events (the trace may have
// been summarised on another machine).
QString summaryBesideItsTrace(const QList<LoadedRun> &side);
// The caveats of the runs' traces (RunSummary::caveats, and a run without GPU kernels), each once:
// "<file>: <caveat>", or "<file> and 4 other files: <caveat>" where several files share it.
QStringList runCaveats(const QList<LoadedRun> &runs);
// Whether A and B read the same files: one path twice, or two paths to them (a run folder and its
// trace, a link), as when a trace is opened alone and shown against itself.
bool sameRuns(const QList<LoadedRun> &a, const QList<LoadedRun> &b);
// Those of two sides, each line headed by its side: "A: …", "B: …", and "A and B: …" once for one
// both have (a trace against itself, the same files on both sides); first, where both sides read the
// same files, a line that says so.
QStringList pairCaveats(const QList<LoadedRun> &a, const QList<LoadedRun> &b);

} // namespace scopeline
