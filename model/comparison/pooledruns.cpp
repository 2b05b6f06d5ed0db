// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/pooledruns.h"

#include "stats/descriptive.h"

#include <vector>

namespace scopeline {

PooledRuns PooledRuns::of(const QList<LoadedRun> &runs)
{
    PooledRuns pooled;
    std::vector<double> delays, graphDelays;
    for (const LoadedRun &run : runs) {
        if (!run.summary && !run.analysis)
            continue;
        const LaunchSummary total = run.summary ? run.summary->total() : run.analysis->total();
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

} // namespace scopeline
