// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A loaded trace: columnar event storage (ns times, interned names), tracks and load diagnostics.
// Immutable once loaded; everything else refers to events and tracks by index.

#include "model/tracedata/stringtable.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace scopeline {

enum class TraceFormat : uint8_t { Unknown, ChromeTrace, Kineto, Jax, RocprofV3, Rocpd, NsysSqlite };
QString formatName(TraceFormat format);

// What an event is, decided once after loading from its category, track and name.
enum class EventKind : uint8_t {
    Other,         // any other CPU slice (operators, python functions, runtime helpers)
    Kernel,        // GPU kernel execution
    Memcpy,        // GPU memory copy
    Memset,        // GPU memory set
    GpuOther,      // other activity on a GPU stream
    GpuAnnotation, // range annotation on a GPU stream (PyTorch gpu_user_annotation)
    CpuAnnotation, // user range annotation on a CPU thread (PyTorch user_annotation)
    Runtime,       // CUDA/HIP runtime or driver call that is not a launch
    KernelLaunch,  // runtime call that launches one kernel
    GraphLaunch,   // runtime call that launches a CUDA/HIP graph (many kernels)
    Instant,       // zero-length marker
};

// How much of a trace a load keeps. Full: every arg, for a timeline's details panel. Figures: only
// the args a figure reads (eventfields::keepsArg), so that the launch analysis, the scope index and
// the run summary are the same as Full's at a fraction of the memory and time on traces with heavy
// args (PyTorch's shapes and memory records).
enum class TraceDetail : uint8_t { Full, Figures };

struct Track
{
    QString pid; // as written in the trace (normalised)
    QString tid;
    QString processName; // from metadata, may be empty
    QString threadName;
    bool gpu = false;
    int device = -1; // GPU index for GPU tracks
    int64_t sortIndex = 0; // from metadata: the process's sort index, then the thread's
    QString displayName() const;
};

struct FlowPoint
{
    uint32_t key; // interned "cat/id"
    uint32_t track;
    int64_t ts;
    bool start; // 's' (start) or 'f' (finish)
};

struct ArgEntry
{
    uint32_t key;    // interned arg name
    uint32_t offset; // value text in TraceData::argText (values are mostly unique: not interned), up to
                     // the next arg's (TraceData::argValue)
};

// Event durations in ns, one per event: 4 bytes an event, the few of 2^32 ns (4.3 s) or longer kept
// aside.
class DurationColumn
{
public:
    int64_t operator[](std::size_t e) const
    {
        const uint32_t ns = m_short[e];
        return ns != kLong ? int64_t(ns) : longOf(e);
    }
    void push_back(int64_t ns);
    std::size_t size() const { return m_short.size(); }
    // The durations under 2^32 - 1 ns (or a marker): what a loader reserves pages for.
    std::vector<uint32_t> &shortNs() { return m_short; }

private:
    static constexpr uint32_t kLong = 0xffffffffu;
    int64_t longOf(std::size_t e) const;

    std::vector<uint32_t> m_short;
    std::vector<std::pair<std::size_t, int64_t>> m_long; // by event
};

// Launch <-> GPU activity join keys, one per event, TraceData::kNoCorrelation where none: 4 bytes an
// event where 8 took twice the memory. An id's high 32 bits change only between runs of events (rocpd
// offsets each database's ids), so they are kept per run; the rare id that fits neither way is kept
// aside.
class CorrelationColumn
{
public:
    int64_t operator[](std::size_t e) const
    {
        const uint32_t low = m_low[e];
        return low < kAside && m_high.empty() ? int64_t(low) : at(e); // the usual: a small id
    }
    void push_back(int64_t id);
    void set(std::size_t e, int64_t id);
    std::size_t size() const { return m_low.size(); }
    bool anyId() const; // whether an event has one
    // The low 32 bits (or a marker) of each id: what a loader reserves pages for.
    std::vector<uint32_t> &low() { return m_low; }

private:
    static constexpr uint32_t kNone = 0xffffffffu, kAside = 0xfffffffeu;
    struct HighBits
    {
        std::size_t first; // the high bits of the ids from this event on
        uint32_t high;
    };
    uint32_t highAt(std::size_t e) const;
    int64_t at(std::size_t e) const;

    std::vector<uint32_t> m_low;
    std::vector<HighBits> m_high; // by first; none: every id's high bits are 0
    std::vector<std::pair<std::size_t, int64_t>> m_aside; // by event
};

class TraceData
{
public:
    static constexpr int64_t kNoCorrelation = -1;

    // Columns, one entry per event, in file order.
    std::vector<int64_t> start;     // ns
    DurationColumn duration;        // ns, >= 0
    std::vector<uint32_t> name;     // StringTable id
    std::vector<uint32_t> category; // StringTable id
    std::vector<uint32_t> track;    // index into tracks
    std::vector<EventKind> kind;
    CorrelationColumn correlation; // launch <-> GPU activity join key, kNoCorrelation if none
    // JAX op path (args.name / long_name), 0 if none; empty when no event has one (outside JAX).
    std::vector<uint32_t> opPath;
    // Into args, size = events + 1; empty when no event has an arg (TraceDetail::Figures, mostly).
    std::vector<uint32_t> argsBegin;
    std::vector<ArgEntry> args;
    std::string argText;

    std::vector<Track> tracks;
    std::vector<std::vector<uint32_t>> trackEvents; // per track, event indices sorted by start
    std::vector<FlowPoint> flows;
    StringTable strings;
    // Per track, the instants read but not kept (TraceDetail::Figures: no figure reads one); empty
    // at Full.
    std::vector<int64_t> instantsLeftOut;

    TraceFormat format = TraceFormat::Unknown;
    TraceDetail detail = TraceDetail::Full;
    QString sourceFile;
    int64_t bytesRead = 0;              // decompressed JSON bytes
    std::map<QString, int64_t> skipped; // reason -> count of events not loaded
    // What the file does not hold, said once each in words ("no NVTX ranges in this export"): an
    // absent optional table is not a skipped event.
    QStringList notes;
    // The notes that change what the figures mean (kernels not paired with their launch calls, CUDA
    // graphs recorded whole): said beside every comparison of the run, not by `info` alone.
    QStringList caveats;
    // A note or caveat of one database of several (a folder of rocpd databases): the GPUs that database
    // recorded, whose own traces alone keep it (traceOfDevice).
    std::map<QString, std::vector<int>> noteDevices;
    // Skipped by design (counters, event kinds not shown) rather than because the event was broken.
    static bool isBenignSkip(const QString &reason);

    std::size_t eventCount() const { return start.size(); } // kept
    // The events of the file: those kept and the instants left out.
    int64_t eventsRead() const;
    int64_t end(uint32_t e) const { return start[e] + duration[e]; }
    std::string_view nameOf(uint32_t e) const { return strings.view(name[e]); }
    QString qname(uint32_t e) const { return strings.qstring(name[e]); }
    bool onGpu(uint32_t e) const { return tracks[track[e]].gpu; }
    uint32_t opPathOf(uint32_t e) const { return opPath.empty() ? 0 : opPath[e]; }
    // Event e's args: [first, second) into args.
    std::pair<uint32_t, uint32_t> argRange(uint32_t e) const
    {
        return argsBegin.empty() ? std::pair<uint32_t, uint32_t>(0, 0) : std::pair(argsBegin[e], argsBegin[e + 1]);
    }
    // The value of args[i]: the values follow one another in argText, in the order of args.
    std::string_view argValue(uint32_t i) const
    {
        const std::size_t end = i + 1 < args.size() ? args[i + 1].offset : argText.size();
        return std::string_view(argText).substr(args[i].offset, end - args[i].offset);
    }
    // Value of an arg of event e, empty when absent.
    std::string_view arg(uint32_t e, std::string_view key) const;
    // The events kept (keepEvent[e]) of the tracks kept (newTrack[t] >= 0: its index in the result, the
    // tracks kept numbered 0, 1, ... in their order), in file order with their args; the string table,
    // the format and the load's notes as they are.
    TraceData subset(const std::vector<int64_t> &newTrack, const std::vector<bool> &keepEvent) const;
};

} // namespace scopeline
