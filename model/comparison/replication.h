// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the runs of two sides replicate, and so what a test's unit is. Runs of one process share its
// compilation, autotuning and memory placement, so with ≥ 2 processes on a side the unit is the process
// (its runs averaged); otherwise the run, and then process-to-process variation was not measured —
// unless A and B ran interleaved in one process, where it cancels. The rank files of one multi-GPU
// run are one run: their values averaged (DESIGN.md section 8). DESIGN.md, Statistics.

#include "model/loading/loadedrun.h"

#include <QList>
#include <QString>

#include <set>
#include <vector>

namespace scopeline {

// Where a run came from, as far as its trace tells: what Replication groups runs by.
struct RunOrigin
{
    QString process;   // Replication::processOf; "" when unknown
    QString rankedRun; // Replication::rankedRunOf; "" for a run alone
    // The smallest and largest correlation id of its launch calls (-1: none). CUPTI and roctracer
    // number a process's calls in one sequence, so runs of one process never overlap here, while a new
    // process under a reused pid (a container's) starts again from the same ids.
    int64_t firstLaunchId = -1, lastLaunchId = -1;
    QString file; // the run's file: B may be A's very runs (two scopes of each, a scope sweep)
    int rank = -1, worldSize = 0; // the GPU of a job it is (TraceRun), -1 and 0 when not one
};

// The GPUs A and B are compared on. Where every entry of both sides is a rank of jobs of one stated
// size and the runs hold different ranks (a partial world, a lone rank file against its whole job),
// a side's mean over its own ranks would compare other GPUs, and rank-to-rank differences would read
// as a change: only the ranks every run holds are compared. With none held by every run, all count.
struct ComparedRanks
{
    bool all = true;
    std::set<int> ranks; // with all unset: the ranks every run of both sides holds
    QString held[2];     // "ranks 0–7", what a side's runs hold, for the note
    int worldSize = 0;

    static ComparedRanks of(const std::vector<RunOrigin> &a, const std::vector<RunOrigin> &b);
    static ComparedRanks of(const QList<LoadedRun> &a, const QList<LoadedRun> &b); // the summarised runs
    bool counts(int rank) const { return all || ranks.count(rank) > 0; }
    // "A's runs hold ranks 0–7, B's rank 3 of jobs of 8 GPUs: compared on rank 3, which every run
    // holds"; empty when all count.
    QString note() const;
};

class Replication
{
public:
    // Each side's runs in run order: their processes and, for the rank files of multi-GPU runs, the run
    // each belongs to.
    Replication(const std::vector<RunOrigin> &ranksA, const std::vector<RunOrigin> &ranksB);
    // Of the loaded runs (those that failed to load are left out, as the tables leave them out).
    static Replication of(const QList<LoadedRun> &a, const QList<LoadedRun> &b);
    static RunOrigin originOf(const LoadedRun &run);

    // A run's process: its folder in `side/<process>/<run>/` ("proc_0"), else the OS process id a
    // PyTorch (Kineto) trace records ("pid 2907"); "" when the trace does not tell (JAX's pids are not
    // the OS's). A rank file's is its GPU's process; its run's are all its ranks' together.
    static QString processOf(const LoadedRun &run);
    // The run a rank file belongs to (its name, which its ranks share); "" when it is a run alone.
    static QString rankedRunOf(const LoadedRun &run);
    // The names of a side's loaded runs in run order (a multi-GPU run's once, by its name; a run alone
    // by its label): the n-th is what a table's run pair n is of.
    static QStringList runNames(const QList<LoadedRun> &runs);
    // The run pairs a table numbers, in order: "run 1: trace_file_matmul_0 vs trace_file_einsum_0".
    static QStringList runPairs(const QList<LoadedRun> &a, const QList<LoadedRun> &b);

    bool byProcess() const { return m_byProcess; }
    // B reads A's very files (a trace opened alone, or against a link to it): nothing to test.
    bool sameRuns() const { return m_sameRuns; }
    // A and B ran in one process (interleaved): the process effect cancels, runs are the unit. One pid
    // on both sides is not enough: their runs' launch ids must not overlap (a pid reused by another
    // process would).
    bool sharedProcess() const { return m_shared; }
    // Processes per side (a side of unknown processes counts as one).
    int processes(int side) const { return m_processes[side]; }
    // Runs per side, a multi-GPU run's ranks counted once.
    int runs(int side) const { return m_runs[side]; }
    // The most ranks a run of either side has: above 1, a per-run figure is a mean over a run's ranks.
    int mostRanks() const;
    // The run (0 … runs − 1) an entry of a side belongs to: its own, or its ranks' shared one.
    int runOf(int side, int entry) const { return m_runOf[side][std::size_t(entry)]; }
    // The units of a side: the indices of their runs.
    const std::vector<std::vector<int>> &units(int side) const { return m_units[side]; }
    // One value per unit: the mean of its runs' values (NaN ones left out; NaN when all are).
    std::vector<double> unitValues(int side, const std::vector<double> &perRun) const;
    // A side's mean per run as its tests weigh the runs: by process, the mean of the processes' means
    // (each process counts once, however many runs it has); else the mean over the runs. NaN-free values.
    double perRunMean(int side, const std::vector<double> &perRun) const;
    // "process" or "run".
    QString unitName() const;
    // What every run-level call must say: one process a side, so differences between processes were
    // not measured (empty when they were, byProcess, or cancel, sharedProcess, and with one run on a
    // side: no run-level call, its "one run" says more); and rankCaveat, unless ranksMatched (the
    // values compared are of the same GPUs, ComparedRanks).
    QString caveat(bool ranksMatched = false) const;
    // Runs of different numbers of ranks (8 GPUs against 4): A against B compares different sets of
    // GPUs, whatever the runs; empty when every run has as many.
    QString rankCaveat() const;
    // The one-process caveat, as caveat() words it.
    static QString processCaveat();
    // What to print after a caveat that holds the one-process caveat: how to measure processes;
    // else empty (different sets of GPUs are not lifted by more processes).
    static QString howToLift(const QString &caveat);

private:
    // Whether every run of both sides has launch ids and no two runs' ids overlap, B's runs being
    // other runs than A's; or B's runs are A's very files (two scopes of each run, interleaved in it).
    static bool oneSequenceOfLaunches(const std::vector<RunOrigin> &a, const std::vector<RunOrigin> &b);

    bool m_byProcess = false, m_shared = false, m_sameRuns = false;
    int m_processes[2] = {0, 0};
    int m_runs[2] = {0, 0};
    std::set<int> m_ranksPerRun[2];
    std::vector<int> m_runOf[2];
    std::vector<std::vector<int>> m_units[2];
};

} // namespace scopeline
