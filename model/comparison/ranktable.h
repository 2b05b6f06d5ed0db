// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Several GPUs of one job: each rank's step figures (busy split into compute and exposed
// communication, idle) and how long it waited at collectives, and which rank arrived last; with a
// second side, A against B for the mean over ranks, the slowest rank and each rank, runs (processes
// when a side has ≥ 2) as the unit.
// DESIGN.md section 8.

#include "model/comparison/replication.h"
#include "model/comparison/verdict.h"
#include "model/loading/loadedrun.h"
#include "model/tables/tablecolumn.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <limits>
#include <vector>

namespace scopeline {

// One GPU of one run (a run of one GPU is a row of rank −1); figures per step, means over its steps.
struct RankRow
{
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
    int side = 0; // 0 A, 1 B
    QString run;
    RunOrigin origin; // its process (the unit of A against B when a side has ≥ 2) and run (Replication)
    int rank = -1;
    int64_t steps = 0;
    double stepNs = kUnset, busyNs = kUnset, computeNs = kUnset, exposedCommNs = kUnset,
           overlappedCommNs = kUnset, idleNs = kUnset;
    double commKernels = kUnset;      // communication kernels per step
    double collectiveWaitNs = kUnset; // per step: the sum of its waits at matched collectives
    double arrivedLastShare = kUnset; // of its matched collectives, where it arrived last
    int collectives = 0;              // its matched collectives in steps
    double unlaunchedNs = 0;          // per step: kernels without a launch call in no step (RunSteps)
};

// How the collectives of one run matched across its ranks.
struct RunCollectives
{
    int side = 0;
    QString run;
    int ranks = 0;
    int matched = 0; // collectives: the k-th communication kernel of a name and group in a step on its ranks
    int unmatched = 0; // kernels of a name in a step (or outside the steps) whose counts differ by rank
    int alone = 0;     // kernels of a process group of which only one rank is loaded
    double medianEndSpreadNs = RankRow::kUnset, maxEndSpreadNs = RankRow::kUnset; // latest − earliest end
    QString note; // what to beware of, empty when nothing
    // Each matched collective in the order it ran (on the first of its ranks): its kernel's name and its kind
    // (CollectiveRow::collective: "allreduce" of a Collective name arg, where NCCL >= 2.19 names every
    // kernel ncclDevKernel_Generic), and per rank
    // (in ranksInOrder: those with communication kernels) how long it waited there (NaN: a rank outside
    // its process group); none where the waits are not measured (the ranks' clocks disagree).
    std::vector<QString> collectiveNames, collectiveKinds;
    std::vector<QString> collectiveGroups; // its process group as the args name it ("1 [0, 1]"), "" unknown
    int processGroups = 0;                 // the process groups the args name among the matched
    std::vector<std::vector<double>> waitsNs; // [collective][rank]
    std::vector<int> ranksInOrder;
};

// One kind of collective on one side (AllReduce, SendRecv, all-gather: the communication kernels' op).
struct CollectiveRow
{
    int side = 0;
    QString collective;
    QString processGroup;                      // as its kernels' args name it ("1 [0, 1]"), empty unknown
    double perStep = RankRow::kUnset;          // kernels of this kind per step and rank
    double medianNs = RankRow::kUnset;         // median duration over every rank's kernels of it
    double rankMedianMinNs = RankRow::kUnset;  // the shortest median duration of a rank
    double rankMedianMaxNs = RankRow::kUnset;  // the longest
    std::vector<int> longestOn; // the ranks whose median is the longest (they waited, not the straggler)
    // Where the args give message sizes: the algorithm and bus bandwidth (GB/s) of its kernels, bytes
    // over time summed over them, nccl-tests' convention (bus = algorithm × 2(n−1)/n for all-reduce,
    // (n−1)/n for all-gather, reduce-scatter and all-to-all, × 1 otherwise; n the group's size).
    double algbwGBps = RankRow::kUnset, busbwGBps = RankRow::kUnset;
};

// A against B for one figure of the step time: the mean over ranks, the slowest rank, or one rank.
struct RankComparisonRow
{
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
    QString what;               // "mean over ranks", "slowest rank", "rank 3"
    int unitsA = 0, unitsB = 0; // runs
    double meanA = kUnset, meanB = kUnset, delta = kUnset;
    double ciLow = kUnset, ciHigh = kUnset, ciLevel = kUnset; // at the level the verdict is judged
    double pRaw = kUnset, p = kUnset;
    Verdict verdict = Verdict::NoSignificantChange;
    QString reason; // why there is no test
    std::vector<double> valuesA, valuesB; // each unit's value, what the test and its interval read
    QString verdictText() const { return reason.isEmpty() ? scopeline::verdictText(verdict) : reason; }
};

class RankTable
{
public:
    struct Options
    {
        QString stepScope; // empty: the detected step scope, else the whole run
        double alpha = 0.05;
        double threshold = 0.01; // of A's mean step time
    };
    // b may be empty: one side's ranks alone.
    RankTable(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const Options &options);

    const QString &stepScope() const { return m_stepScope; }
    // The step scope as said: its name, or "the whole run".
    QString stepScopeText() const;
    const std::vector<RankRow> &rows() const { return m_rows; }
    const std::vector<RunCollectives> &collectives() const { return m_collectives; }
    // Empty without a second side.
    const std::vector<RankComparisonRow> &comparison() const { return m_comparison; }
    // Several candidates against one baseline (a table each), judged together: their means over ranks
    // one Holm family, their slowest ranks and ranks another, as VariantSteps judges steps and parts.
    static void judgeTogether(const std::vector<RankTable *> &tables);
    // Per side and kind of collective, over the ranks of every run; with B, over the ranks compared
    // (ComparedRanks), as A against B is.
    const std::vector<CollectiveRow> &collectiveKinds() const { return m_kinds; }

    static const std::vector<TableColumn<RankRow>> &columns();
    static const std::vector<TableColumn<RankComparisonRow>> &comparisonColumns();
    static const std::vector<TableColumn<CollectiveRow>> &collectiveColumns();
    QString toCsv() const;          // the per-rank rows
    QString comparisonCsv() const;  // A against B; a header alone without B
    QString collectivesCsv() const; // the kinds of collective
    // The slowest rank of each run and how the collectives matched, a line each (note() of each run),
    // what a run of one GPU lost (launch calls), then which ranks A against B compares where the sides
    // hold different ones (ComparedRanks).
    QStringList notes() const;
    // sideName: how the run's side is named ("A", "B" when empty; a variant's label).
    QString note(const RunCollectives &run, const QString &sideName = {}) const;
    // What holds for a run of one rank of a job (a lone rank file): no collective to match, its exposed
    // communication waiting for ranks not here, what its profile lost; empty for other runs.
    QString aloneNote(int side, const QString &run) const;
    // What A against B does not measure (Replication::caveat: runs of different numbers of ranks, one
    // process a side), as steps says it; else empty. Not among notes(): it is said with A against B.
    const QString &caveat() const { return m_caveat; }

private:
    static QString lostLaunchesText(double nsPerStep);
    void addSide(int side, const QList<LoadedRun> &runs);
    void compare();

    Options m_options;
    QString m_stepScope;
    std::vector<RankRow> m_rows;
    std::vector<RunCollectives> m_collectives;
    std::vector<RankComparisonRow> m_comparison;
    std::vector<CollectiveRow> m_kinds;
    QString m_caveat;       // Replication::caveat
    ComparedRanks m_compared; // the GPUs A and B are compared on (all without B)
    QStringList m_loneNotes; // what the profiles of runs of one GPU lost
};

} // namespace scopeline
