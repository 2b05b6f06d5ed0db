// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What scopeline-hipbench records in one run (launch API calls, kernels, named ranges, all in ns on one
// clock) and how it is written: Chrome trace JSON of the Kineto shape, gzip, atomically. Also the
// program's own summary of a run, computed from the same records.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hipbench {

struct TraceRecords
{
    struct Api // a runtime call on a host thread; launches carry the correlation id of their kernels
    {
        std::string name;        // the HIP name the program called, e.g. hipLaunchKernel, hipGraphLaunch
        std::string backendName; // what ran underneath, e.g. cudaLaunchKernel (empty: the same)
        uint32_t thread = 0;
        uint64_t start = 0, end = 0;
        uint32_t correlation = 0;
    };
    struct Kernel
    {
        std::string name;
        uint32_t device = 0, stream = 0;
        uint64_t start = 0, end = 0;
        uint32_t correlation = 0;
        int grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
        uint32_t graphId = 0; // 0: launched on its own
    };
    struct Range // a named scope around launches, on the host thread that launched
    {
        std::string name;
        uint32_t thread = 0;
        uint64_t start = 0, end = 0;
    };

    std::string processName = "scopeline-hipbench";
    uint32_t pid = 0;
    std::string deviceName;
    std::vector<Api> apis;
    std::vector<Kernel> kernels;
    std::vector<Range> ranges;
    std::map<std::string, std::string> metadata; // workload, variant, options; written as "hipbench"
};

// The program's own figures for a run, by the definitions Scopeline uses: busy is the union of kernel
// intervals, span first kernel start to last kernel end, idle = span - busy.
struct RunSummary
{
    std::size_t kernels = 0, kernelLaunches = 0, graphLaunches = 0, idleGaps = 0;
    uint64_t busyNs = 0, spanNs = 0, idleNs = 0;
    // Medians and the minimum are missing (not 0) when there is nothing to take them of.
    std::optional<double> medianLaunchDelayNs;      // kernel start - its launch call's start, kernel launches
    std::optional<double> medianGraphLaunchDelayNs; // first kernel start - graph launch start, graph launches
    // smallest kernel start - launch start, either kind: < 0 would mean the clocks disagree
    std::optional<int64_t> minLaunchToKernelNs;
};

RunSummary summarize(const TraceRecords &records);

bool isKernelLaunch(const std::string &apiName);
bool isGraphLaunch(const std::string &apiName);

// The JSON text; timestamps are relative to the earliest record (its absolute ns is "baseTimeNanoseconds").
std::string traceJson(const TraceRecords &records);
// Writes traceJson gzip-compressed to path (through path.part, renamed when complete).
bool writeTrace(const std::string &path, const TraceRecords &records, std::string &error);
// Writes text to path through path.part, renamed when complete.
bool writeFileAtomically(const std::string &path, const std::string &text, std::string &error);

} // namespace hipbench
