// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Turns parsed events into a TraceData: interns strings, pairs B/E, names tracks from metadata,
// then classifies tracks (CPU thread or GPU stream) and events (kernel, launch, ...) once at the end.
//
// The contract every reader writes to (Chrome trace events, as RawEvent):
// - ph 'X' (or 'B'/'E' pairs) is a slice, 'i'/'I' an instant, 'M' process_name / thread_name /
//   *_sort_index metadata (args.name, args.sort_index), 's'/'f' flow points; times in ns.
// - A track is one (pid, tid). It is a GPU stream when one of its events has a GPU category, or its
//   process is named "GPU <n>" or "/device:GPU:<n>" (JAX; <n> is the device, else the pid is).
// - GPU categories, and what an event on a GPU track is:
//     "kernel" / "Kernel"                 kernel
//     "gpu_memcpy" / "Memcpy"             memory copy
//     "gpu_memset" / "Memset"             memory set
//     "gpu_user_annotation"               GPU annotation (a scope)
//     any other category                  other GPU activity
//     no category: args.desc "KernelExecution" a kernel, any other desc other activity (rocmProfileData);
//                  without desc, a name starting memcpy / memset (any case) a copy / set, else a kernel.
// - CPU events, by name first (a trailing "_v<digits>" of Nsight Systems' API names ignored):
//     cudaGraphLaunch*, cuGraphLaunch*, hipGraphLaunch*         graph launch
//     cudaLaunchKernel, cuLaunchKernel, hipLaunchKernel, hipExtModuleLaunchKernel, ... (and their
//       _ptsz / _spt forms; the list is launchApis() in the .cpp) kernel launch
//     category "user_annotation", or a name "ProfilerStep#<n>"  CPU annotation (a scope)
//     no category and a name "PjitFunction(...)"                CPU annotation (JAX's jitted call)
//     "cuda_runtime", "cuda_driver", "Runtime", "hip_runtime"   runtime call
//     anything else                                              other
//   and a CPU event whose correlation id is a kernel's is that kernel's launch (JAX names it after it).
// - Launch and GPU work pair on RawEvent::correlation (args.correlation) or correlationId
//   (args.correlation_id), else through flow events. TraceData::format is Jax when a process is named
//   "/device:..." or
//   "/host:...", Kineto after setKinetoMarker(), else ChromeTrace; other readers set their own.

#include "model/formats/eventbatch.h"
#include "model/formats/eventsink.h"
#include "model/tracedata/tracedata.h"
#include "model/formats/rawevent.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace scopeline {

class TraceBuilder : public EventSink
{
public:
    explicit TraceBuilder(TraceData &data);

    // Reserves the columns for the events a text of this many bytes can hold at most: a growing
    // column copies itself and touches fresh pages each time it doubles; pages never touched cost
    // nothing.
    void reserveFor(int64_t textBytes);
    void add(RawEvent &event) override;
    // A chunk's events, in order, and its skips; textEnd: where its text ends in the document, which
    // with reserveFor's size tells how much of the trace is still to come.
    void addBatch(const EventBatch &batch, int64_t textEnd = -1);
    void skip(const QString &reason, int64_t count = 1) override;
    // Something the file does not hold, said once however often it is noted (TraceData::notes).
    void note(const QString &text);
    // A note that changes what the figures mean (TraceData::caveats).
    void caveat(const QString &text);
    // The note or caveat `text` is about these GPUs alone (TraceData::noteDevices).
    void noteAbout(const QString &text, const std::vector<int> &devices)
    {
        m_data.noteDevices[text] = devices;
    }
    void setKinetoMarker() override { m_kineto = true; }
    TraceDetail detail() const override { return m_data.detail; }
    // Classifies everything; call once after the last event.
    void finish();

private:
    // One event, its strings interned: names in the trace's table, ids (pid, tid, flow id) in m_ids.
    using Event = EventBatch::Event;
    struct Arg
    {
        uint32_t key; // in the trace's table
        std::string_view value;
    };
    // A B event waiting for its E, its arg values copied out of the text they came in.
    struct OpenEvent
    {
        Event event;
        std::vector<std::pair<uint32_t, uint32_t>> args; // key, end of its value in text
        std::string text;
    };

    // A column is reserved for the most events the text can hold; on 2 MB pages throughout, the page
    // it ends in would be cleared whole, most of it never used (1 MB a column on average, 15 MB in a
    // 700k-event trace). So each 2 MB page of its block is chosen as the column comes to it: a 2 MB
    // page where the column is predicted to fill it, else 4 KB pages, faulted in at once a batch ahead.
    struct ColumnTail
    {
        const char *base = nullptr; // the column's data when first seen; another means it was moved
        std::size_t blockEnd = 0;   // end of its block, on a 4 KB page boundary
        std::size_t decided = 0;    // end of the 2 MB pages chosen so far
        std::size_t populated = 0;  // end of the pages faulted in or on 2 MB pages
        bool unmanaged = false;
    };
    template <typename Column>
    void prepareTail(ColumnTail &tail, const Column &column, std::size_t adding, double scale);
    void prepareTails(const EventBatch &batch, int64_t textEnd);
    void addEvent(Event &event, const std::vector<Arg> &args);
    uint32_t trackFor(uint32_t pid, uint32_t tid);
    // Whether cat is one of gpuCategories(), decided once per category.
    bool isGpuCategory(uint32_t cat)
    {
        return cat < m_gpuCategory.size() && m_gpuCategory[cat] >= 0 ? m_gpuCategory[cat] == 1
                                                                       : decideGpuCategory(cat);
    }
    bool decideGpuCategory(uint32_t cat);
    void addSlice(const Event &event, uint32_t track, const std::vector<Arg> &args, int64_t duration);
    void addMetadata(const Event &event, const std::vector<Arg> &args);
    void pruneEmptyTracks();
    void classifyTracks();
    void classifyEvents();
    // GPU events named by a mangled symbol renamed by what it stands for (demangle.h).
    void demangleGpuNames();
    // GPU activity starting or ending farther from every CPU event than the trace's own span (a minute
    // at least): a clock glitch (a kernel 16 days before its launch, or lasting years) that would stretch
    // its step and the timeline over that time. Left out and counted as skipped.
    void leaveOutStrayGpuEvents();
    void sortTrackEvents();
    void deriveCorrelationFromFlows();
    void detectFormat();

    TraceData &m_data;
    bool m_kineto = false;
    bool m_correlationSeen = false; // an event with a correlation id was added
    // At Figures, once a correlation id is seen, flows are dropped (addEvent says why).
    bool dropsFlows() const { return m_data.detail == TraceDetail::Figures && m_correlationSeen; }
    int64_t m_expectedTextBytes = 0; // reserveFor's
    std::vector<ColumnTail> m_tails;
    StringTable m_ids;
    uint32_t m_zeroTid, m_nameKey, m_longNameKey, m_sortIndexKey;
    std::unordered_map<uint64_t, uint32_t> m_trackIndex; // pid << 32 | tid -> track
    std::vector<uint64_t> m_trackKeys;                   // per track
    uint64_t m_lastKey = 0;
    uint32_t m_lastTrack = UINT32_MAX;
    std::vector<int8_t> m_gpuCategory;          // per string id: 1 a GPU category, 0 not, -1 not known yet
    std::vector<bool> m_gpuCategorySeen;        // per track
    std::vector<bool> m_correlationFromId;      // per event
    std::vector<std::vector<OpenEvent>> m_open; // per track
    std::vector<Arg> m_args;                    // the current event's
    std::vector<uint32_t> m_batchNames, m_batchIds;       // per string of the batch being added, or unmapped
    std::unordered_map<uint32_t, QString> m_processNames; // pid -> name
    std::unordered_map<uint32_t, int> m_processSort;
    std::unordered_map<uint64_t, QString> m_threadNames; // track key -> name
    std::unordered_map<uint64_t, int> m_threadSort;
};

} // namespace scopeline
