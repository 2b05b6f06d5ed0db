// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the statistics read of one run, without its events: every kernel (name, op, start, duration,
// stream, its launch call's start and process, whether it is communication), the CPU ranges a step scope can be, the launch
// totals of the summary strip and the scope index. Built from a loaded trace or read from a summary
// file (RunSummaryFile); the kernel diff, the step breakdown and the scope comparison read only this,
// so results from a summary equal those from its trace exactly. DESIGN.md section 8.

#include "model/analysis/scopeindex.h"
#include "model/tracedata/stringtable.h"
#include "model/analysis/traceanalysis.h"
#include "model/tracedata/tracedata.h"

#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace scopeline {

// Which process launched a PyTorch (Kineto) trace's kernels: "pid <n>" of its first launch call, and
// the smallest and largest correlation id of its launch calls; else empty and -1 (Replication).
struct LaunchOrigin
{
    QString pid;
    int64_t firstId = -1, lastId = -1;
    static LaunchOrigin of(const TraceData &t);
};

class RunSummary
{
public:
    static constexpr uint16_t kNoProcess = UINT16_MAX;
    enum class Launch : uint8_t { None, Kernel, Graph }; // the call that launched a kernel
    static constexpr uint8_t kCommunication = 1;         // Kernel::flags

    // One kernel, in TraceAnalysis::kernels() order (by start).
    struct Kernel
    {
        int64_t start = 0, duration = 0;
        int64_t launchStart = 0;              // its launch call's start (launch != None)
        uint32_t name = 0, op = 0;            // in strings(); op: KernelDiffOptions::byOp's key
        uint32_t stream = 0;                  // the trace's track index
        uint16_t launchProcess = kNoProcess;  // the launching thread's process (index of its pid)
        Launch launch = Launch::None;
        uint8_t flags = 0; // kCommunication
        int64_t end() const { return start + duration; }
        // A communication kernel (isCommunicationKernel); its op is then its collective.
        bool communication() const { return flags & kCommunication; }
    };
    // A CPU range that may be an instance of a step scope: CPU annotations, `<name>#N` and
    // `PjitFunction(...)` ranges and ranges named like a scope of the index. Grouped by track, by
    // start within one (parents first), as the trace's tracks list them.
    struct Range
    {
        int64_t start = 0, end = 0;
        uint32_t name = 0; // in strings()
        uint32_t track = 0;
        uint16_t process = 0;
        uint16_t reserved[3] = {0, 0, 0};
    };

    // A communication kernel whose args give its message or its process group: its size, the ranks
    // taking part and the group they form.
    struct Message
    {
        uint32_t kernel = 0; // into kernels()
        uint32_t group = 0;  // in strings(): its process group ("<name> <ranks>" of its args), 0 unknown
        int64_t bytes = 0;   // the larger of its input and output (`In`/`Out msg nelems` × `dtype`'s size)
        uint16_t groupSize = 0; // ranks in the collective (the `Group size` arg), 0 when unknown
        uint16_t reserved[3] = {0, 0, 0};
    };

    // Summarises an analysed trace and its scope index (which it shares).
    RunSummary(const TraceAnalysis &analysis, std::shared_ptr<const ScopeIndex> scopes);
    RunSummary() = default; // empty: what RunSummaryFile::read fills

    const std::vector<Kernel> &kernels() const { return m_kernels; }
    const std::vector<Range> &ranges() const { return m_ranges; }
    const std::vector<Message> &messages() const { return m_messages; } // by kernel
    const StringTable &strings() const { return m_strings; }
    std::string_view nameOf(const Kernel &k) const { return m_strings.view(k.name); }
    const std::shared_ptr<const ScopeIndex> &scopes() const { return m_scopes; }
    // The bytes it holds, its scope index apart (bench_loadonly --summaries).
    std::size_t heldBytes() const;
    // TraceAnalysis::total() as it was: its launch delays are worked out from the kernels.
    LaunchSummary total() const;
    const std::vector<int64_t> &graphLaunchDelays() const { return m_graphLaunchDelays; }
    int64_t busyNs() const { return m_busyNs; } // union of kernel intervals
    int64_t spanNs() const { return m_spanNs; } // first kernel start -> last kernel end

    // Of the trace: its file, format, event count and what loading skipped.
    QString sourceFile;
    TraceFormat format = TraceFormat::Unknown;
    int64_t events = 0;
    std::map<QString, int64_t> skipped;
    QStringList caveats; // TraceData::caveats: said beside every comparison of the run
    LaunchOrigin launchOrigin;

private:
    friend class RunSummaryFile;

    StringTable m_strings;
    std::vector<Kernel> m_kernels;
    std::vector<Range> m_ranges;
    std::vector<Message> m_messages;
    int64_t m_busyNs = 0, m_spanNs = 0, m_kernelLaunches = 0, m_graphLaunches = 0;
    std::vector<int64_t> m_graphLaunchDelays;
    std::shared_ptr<const ScopeIndex> m_scopes;
};

} // namespace scopeline
