// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Launch and kernel analysis of one loaded trace: kernels, launches joined by correlation id, GPU
// busy/span/idle per device and in total, idle gaps per stream with their likely cause, launch delays.

#include "model/tracedata/tracedata.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace scopeline {

// Why a GPU stream sat idle between two kernels, as far as the trace tells.
enum class GapCause : uint8_t {
    Unknown,    // the next kernel has no launch call in the trace
    LaunchLate, // the CPU had not launched the next kernel yet
    GpuWaiting, // the launch was issued before the gap: the GPU waited on something else
};
constexpr int kGapCauses = 3;
QString gapCauseName(GapCause cause);

// Length of the union of [start, end) intervals sorted by start: GPU busy time.
int64_t unionLength(const std::vector<std::pair<int64_t, int64_t>> &intervals);

struct IdleGap
{
    int64_t start = 0, end = 0;
    uint32_t before = 0, after = 0; // kernels around the gap
    GapCause cause = GapCause::Unknown;
    int64_t cpuEvent = -1; // innermost CPU slice on the launching thread during the gap
    int64_t length() const { return end - start; }
};

struct LaunchSummary
{
    int device = -1; // -1: all devices together
    int64_t kernels = 0;
    int64_t kernelLaunches = 0;
    int64_t graphLaunches = 0;
    int64_t busyNs = 0; // union of kernel intervals
    int64_t spanNs = 0; // first kernel start -> last kernel end
    int64_t idleNs() const { return spanNs - busyNs; }
    std::vector<int64_t> launchDelays;      // kernel start - launch start, regular launches
    std::vector<int64_t> graphLaunchDelays; // first kernel start - graph launch start
    double medianLaunchDelay() const;       // NaN when there are none
    double medianGraphLaunchDelay() const;
    // Whether every figure but the device is other's.
    bool sameFigures(const LaunchSummary &other) const;
};

struct StreamSummary
{
    uint32_t track = 0;
    int64_t kernels = 0;
    int64_t busyNs = 0;
    std::vector<IdleGap> gaps;
    int64_t memoryNs = 0; // of the gaps, the time memory copies and sets on this stream ran
    int64_t idleNs() const;
};

// GPU memory copies and sets: not kernels, yet the stream's work between them.
struct MemorySummary
{
    int64_t copies = 0, copyNs = 0;
    int64_t sets = 0, setNs = 0;
};

class TraceAnalysis
{
public:
    // What is worked out: everything, or what a run summary reads of it (the kernels, their launches
    // and the total), without the per-device figures and the idle gaps.
    enum class Depth { Full, SummaryOnly };
    explicit TraceAnalysis(const TraceData &trace, Depth depth = Depth::Full);

    const TraceData &trace() const { return m_trace; }
    const LaunchSummary &total() const { return m_total; }
    const std::vector<LaunchSummary> &devices() const { return m_devices; }
    const std::vector<StreamSummary> &streams() const { return m_streams; }
    const MemorySummary &memory() const { return m_memory; } // Depth::Full only
    // Kernel event indices by start time.
    const std::vector<uint32_t> &kernels() const { return m_kernels; }
    // The launch (kernel or graph launch) event of a kernel, -1 when the trace has none.
    int64_t launchOf(uint32_t kernel) const;
    // launchOf(kernels()[position]) without a search.
    int64_t launchAt(std::size_t position) const { return m_launchAt[position]; }
    // Positions in kernels() grouped by stream (track), by start within one.
    std::vector<uint32_t> kernelPositionsByTrack() const;
    // Kernels started by a launch event (many for a graph launch), by start time.
    std::vector<uint32_t> kernelsOf(uint32_t launch) const;

private:
    // Fills m_launchOf, m_kernelsByCorrelation and each kernel's launch (of m_kernels by index);
    // returns (launch, the first kernel by start of its correlation id) by launch index, for every
    // launch or for graph launches alone.
    std::vector<std::pair<uint32_t, uint32_t>> joinLaunches(std::vector<int64_t> &launchByIndex, bool everyLaunch);
    void summarise(bool perDevice, const std::vector<std::pair<uint32_t, uint32_t>> &firstKernels);
    int deviceOf(uint32_t event) const { return m_trace.tracks[m_trace.track[event]].device; }
    void findGaps();

    const TraceData &m_trace;
    std::vector<uint32_t> m_kernels;
    // Sorted vectors rather than per-event columns or hash maps: kernels are few next to all events.
    std::vector<std::pair<uint32_t, uint32_t>> m_launchOf; // (kernel, its launch) by kernel index
    std::vector<uint32_t> m_kernelsByCorrelation;          // by correlation id, then start
    std::vector<int64_t> m_launchAt;                       // launchOf each of m_kernels
    LaunchSummary m_total;
    std::vector<LaunchSummary> m_devices;
    std::vector<StreamSummary> m_streams;
    MemorySummary m_memory;
};

} // namespace scopeline
