// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run's GPU busy time over the whole run as segments of compute (a non-communication kernel runs)
// and of exposed communication (only communication kernels run): the Ranks overview's lanes.

#include "model/analysis/runsummary.h"

#include <cstdint>
#include <vector>

namespace scopeline {

struct BusySegment
{
    int64_t start, end;
    bool compute; // else exposed communication
};

// The run's busy time as disjoint segments by start, neighbours of one kind merged.
std::vector<BusySegment> busySegments(const RunSummary &summary);

struct BusyShares
{
    int64_t compute = 0, exposedComm = 0; // ns
};

// How much of [from, to) the segments (by start, as busySegments gives them) cover, by kind.
BusyShares busyShares(const std::vector<BusySegment> &segments, int64_t from, int64_t to);

} // namespace scopeline
