// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The launch figures of one side of a comparison over all its runs: counts and times summed, the median
// launch delays (kernel and graph launches apart) over the delays of every run pooled. What the summary
// strip shows for a side.

#include "model/loading/loadedrun.h"

#include <QList>

#include <cstdint>

namespace scopeline {

struct PooledRuns
{
    int runs = 0; // runs with an analysis; the others are left out
    int64_t busyNs = 0, spanNs = 0, kernels = 0, kernelLaunches = 0, graphLaunches = 0;
    double medianLaunchDelayNs = 0;      // NaN without regular launches
    double medianGraphLaunchDelayNs = 0; // NaN without graph launches

    static PooledRuns of(const QList<LoadedRun> &runs);
};

} // namespace scopeline
