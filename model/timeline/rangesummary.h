// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What happened in a time range of one run: GPU busy time (the union of kernel intervals clipped to
// the range), idle time, and the kernels and launches that start inside it.

#include "model/analysis/traceanalysis.h"

#include <cstdint>
#include <vector>

namespace scopeline {

struct RangeSummary
{
    int64_t start = 0, end = 0; // [start, end), ns
    int64_t busyNs = 0;
    int64_t kernels = 0;        // starting in the range
    int64_t kernelLaunches = 0; // CPU launch calls starting in the range
    int64_t graphLaunches = 0;
    struct Stream
    {
        uint32_t track = 0; // a GPU stream with kernels in the range
        int64_t busyNs = 0; // the union of its kernels, clipped
    };
    std::vector<Stream> streams; // by track
    int64_t lengthNs() const { return end - start; }
    int64_t idleNs() const { return lengthNs() - busyNs; }
    double busyPercent() const { return lengthNs() > 0 ? 100.0 * double(busyNs) / double(lengthNs()) : 0; }
};

// The summary of [start, end), in total and per GPU stream; an empty range gives an empty summary.
RangeSummary summariseRange(const TraceAnalysis &analysis, int64_t start, int64_t end);

} // namespace scopeline
