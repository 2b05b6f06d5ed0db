// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/pooledruns.h"

#include "model/comparison/replication.h"
#include "stats/descriptive.h"
#include "stats/multipletesting.h"
#include "stats/welch.h"

#include <cmath>
#include <vector>

namespace scopeline {

namespace {

LaunchSummary totalOf(const LoadedRun &run)
{
    return run.summary ? run.summary->total() : run.analysis->total();
}

// A per-run total of one run (isPerRunTotal figures only).
double totalValue(const LaunchSummary &total, PooledRuns::Figure figure)
{
    switch (figure) {
    case PooledRuns::BusyTime:
        return double(total.busyNs);
    case PooledRuns::IdleTime:
        return double(total.spanNs - total.busyNs);
    case PooledRuns::KernelLaunches:
        return double(total.kernelLaunches);
    case PooledRuns::GraphLaunches:
        return double(total.graphLaunches);
    case PooledRuns::Kernels:
        return double(total.kernels);
    default:
        return std::nan("");
    }
}

double meanOf(const std::vector<double> &values)
{
    return stats::meanVariance(values).mean;
}

} // namespace

PooledRuns PooledRuns::of(const QList<LoadedRun> &runs)
{
    PooledRuns pooled;
    std::vector<double> delays, graphDelays;
    for (const LoadedRun &run : runs) {
        if (!run.summary && !run.analysis)
            continue;
        const LaunchSummary total = totalOf(run);
        ++pooled.runs;
        pooled.busyNs += total.busyNs;
        pooled.spanNs += total.spanNs;
        pooled.kernels += total.kernels;
        pooled.kernelLaunches += total.kernelLaunches;
        pooled.graphLaunches += total.graphLaunches;
        // the median of all delays, not a median of run medians: every launch weighs the same
        delays.insert(delays.end(), total.launchDelays.begin(), total.launchDelays.end());
        graphDelays.insert(graphDelays.end(), total.graphLaunchDelays.begin(), total.graphLaunchDelays.end());
    }
    pooled.medianLaunchDelayNs = stats::median(std::move(delays));
    pooled.medianGraphLaunchDelayNs = stats::median(std::move(graphDelays));
    return pooled;
}

double PooledRuns::value(Figure figure) const
{
    const double nan = std::nan("");
    if (runs == 0)
        return nan;
    const double perRun = 1.0 / double(runs);
    switch (figure) {
    case BusyTime:
        return double(busyNs) * perRun;
    case IdleTime:
        return double(spanNs - busyNs) * perRun;
    case KernelLaunches:
        return double(kernelLaunches) * perRun;
    case GraphLaunches:
        return double(graphLaunches) * perRun;
    case KernelLaunchDelay:
        return kernelLaunches > 0 ? medianLaunchDelayNs : nan;
    case GraphLaunchDelay:
        return graphLaunches > 0 ? medianGraphLaunchDelayNs : nan;
    case KernelsPerLaunch:
        return kernelLaunches + graphLaunches > 0 ? double(kernels) / double(kernelLaunches + graphLaunches)
                                                  : nan;
    case Kernels:
        return double(kernels) * perRun;
    case NUM_FIGURES:
        break;
    }
    return nan;
}

bool PooledRuns::isPerRunTotal(Figure figure)
{
    return figure == BusyTime || figure == IdleTime || figure == KernelLaunches || figure == GraphLaunches ||
           figure == Kernels;
}

PooledComparison PooledComparison::of(const QList<LoadedRun> &a, const QList<LoadedRun> &b, double alpha,
                                      double threshold)
{
    PooledComparison c;
    c.alpha = alpha;
    c.a = PooledRuns::of(a);
    c.b = PooledRuns::of(b);
    const Replication replication = Replication::of(a, b);
    c.unit = replication.unitName();
    // a side's units' values of a run's figure (the loaded runs, in Replication's order)
    const auto unitsOf = [&](int side, const auto &valueOf) {
        std::vector<double> perRun;
        for (const LoadedRun &run : side == 0 ? a : b)
            if (run.ok())
                perRun.push_back(valueOf(totalOf(run)));
        return replication.unitValues(side, perRun);
    };
    // Busy and idle time are parts of the GPU span, as the step's parts are of the step in What changed:
    // a change of either is meaningful from the threshold of A's span on.
    const double spanA = meanOf(unitsOf(0, [](const LaunchSummary &t) { return double(t.spanNs); }));
    std::vector<std::size_t> tested;
    std::vector<double> p;
    std::vector<double> units[PooledRuns::NUM_FIGURES][2];
    for (int f = 0; f < PooledRuns::NUM_FIGURES; ++f) {
        const auto figure = PooledRuns::Figure(f);
        if (!PooledRuns::isPerRunTotal(figure))
            continue;
        for (int side = 0; side < 2; ++side)
            units[f][side] =
                unitsOf(side, [figure](const LaunchSummary &t) { return totalValue(t, figure); });
        Figure &row = c.figures[std::size_t(f)];
        row.meanA = meanOf(units[f][0]);
        row.meanB = meanOf(units[f][1]);
        row.referenceA = figure == PooledRuns::BusyTime || figure == PooledRuns::IdleTime ? spanA : row.meanA;
        // ns and counts alike are whole numbers: the resolution of one
        row.test = stats::meanChangeTest(units[f][0], units[f][1]);
        if (row.test.valid()) {
            tested.push_back(std::size_t(f));
            p.push_back(row.test.p);
        }
    }
    const std::vector<double> holm = stats::holmAdjust(p), levels = stats::holmLevels(p, alpha);
    for (std::size_t i = 0; i < tested.size(); ++i) {
        const std::size_t f = tested[i];
        Figure &row = c.figures[f];
        row.holmP = holm[i];
        if (!std::isnan(levels[i]))
            setIntervalAtLevel(row.test, levels[i],
                               stats::meanChangeTest(units[f][0], units[f][1], 1 - levels[i]));
    }
    c.setThreshold(threshold);
    return c;
}

void PooledComparison::setThreshold(double newThreshold)
{
    threshold = newThreshold;
    for (Figure &row : figures) // the threshold is of the reference; the change, of A's own mean
        row.verdict = runLevelVerdict(row.holmP, row.test.change, alpha,
                                      row.meanA > 0 ? threshold * row.referenceA / row.meanA : threshold);
}

double PooledComparison::value(PooledRuns::Figure figure, int side) const
{
    const Figure &row = figures[std::size_t(figure)];
    if (row.test.valid())
        return side == 0 ? row.meanA : row.meanB;
    return (side == 0 ? a : b).value(figure);
}

} // namespace scopeline
