// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The launch figures of one side of a comparison over all its runs: counts and times summed, the median
// launch delays (kernel and graph launches apart) over the delays of every run pooled. What the summary
// strip shows for a side, and B against A on its per-run totals, tested as every table tests runs.

#include "model/comparison/verdict.h"
#include "model/loading/loadedrun.h"

#include <QList>

#include <array>
#include <cstdint>

namespace scopeline {

struct PooledRuns
{
    enum Figure {
        BusyTime,
        IdleTime,
        KernelLaunches,
        GraphLaunches,
        KernelLaunchDelay,
        GraphLaunchDelay,
        KernelsPerLaunch,
        Kernels,
        NUM_FIGURES
    };

    int runs = 0; // runs with an analysis; the others are left out
    int64_t busyNs = 0, spanNs = 0, kernels = 0, kernelLaunches = 0, graphLaunches = 0;
    double medianLaunchDelayNs = 0;      // NaN without regular launches
    double medianGraphLaunchDelayNs = 0; // NaN without graph launches

    static PooledRuns of(const QList<LoadedRun> &runs);
    // Counts and times per run (a run of several GPUs: per GPU); NaN where a figure is undefined (no
    // runs, no launches of the kind).
    double value(Figure figure) const;
    // A total each run has (busy and idle time, launches, kernels), which runs can be tested on; the
    // launch delays (medians of the pooled launches) and kernels per launch (a ratio of sums) are not.
    static bool isPerRunTotal(Figure figure);
};

// B against A on each per-run total: Welch on the units' means (runs, or processes where runs sit in
// side/<process>/<run>/; a run of several GPUs the mean of its GPUs), the change of the means, Holm over
// the figures tested, each interval at its figure's Holm level; the verdict as every table's
// (runLevelVerdict), busy and idle time meaningful from the threshold of A's GPU span on. Figures that are
// not per-run totals, and sides of fewer than 2 units, are untested.
struct PooledComparison
{
    struct Figure
    {
        stats::RunLevelTest test; // valid() when tested
        double holmP = stats::RunLevelTest::kUnset;
        Verdict verdict = Verdict::NoSignificantChange;
        double meanA = stats::RunLevelTest::kUnset, meanB = stats::RunLevelTest::kUnset; // the units' means
        // What the threshold is a fraction of: A's GPU span for busy and idle time (their whole, as the
        // step is its parts' in What changed), else A's mean itself.
        double referenceA = stats::RunLevelTest::kUnset;
    };

    PooledRuns a, b;
    std::array<Figure, PooledRuns::NUM_FIGURES> figures{};
    QString unit = QStringLiteral("run"); // or "process"
    double alpha = 0.05, threshold = 0.01;

    static PooledComparison of(const QList<LoadedRun> &a, const QList<LoadedRun> &b, double alpha,
                               double threshold);
    // The verdicts again at another threshold (a fraction of A).
    void setThreshold(double newThreshold);
    // The shown value of a side: a tested figure's units' mean (what its change is of), else the pooled one.
    double value(PooledRuns::Figure figure, int side) const;
};

} // namespace scopeline
