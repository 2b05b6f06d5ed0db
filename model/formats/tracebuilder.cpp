// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/tracebuilder.h"

#include "model/formats/demangle.h"
#include "model/formats/eventbatch.h"
#include "model/tracedata/hugepages.h"
#include "model/tracedata/sortbyruns.h"
#include "model/tracedata/sparecore.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <limits>
#include <new>
#include <unordered_set>

#include <sys/mman.h>

namespace scopeline {

namespace {

// Small events are ~50 bytes ({"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}), real ones 150-300;
// a column reserved short of the count grows once or twice, as it would have anyway.
constexpr int64_t kEventBytesReserved = 96;
constexpr int64_t kMostEventsReserved = int64_t(1) << 26;
const std::unordered_set<std::string_view> &gpuCategories()
{
    static const std::unordered_set<std::string_view> cats = {
        "kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation", "Kernel", "Memcpy", "Memset"};
    return cats;
}

const std::unordered_set<std::string> &launchApis()
{
    static const std::unordered_set<std::string> apis = [] {
        const char *bases[] = {"cudaLaunchKernel",
                               "cudaLaunchKernelExC",
                               "cudaLaunchCooperativeKernel",
                               "cudaLaunchCooperativeKernelMultiDevice",
                               "cuLaunchKernel",
                               "cuLaunchKernelEx",
                               "cuLaunchCooperativeKernel",
                               "hipLaunchKernel",
                               "hipLaunchKernelExC",
                               "hipExtLaunchKernel",
                               "hipExtModuleLaunchKernel",
                               "hipModuleLaunchKernel",
                               "hipHccModuleLaunchKernel",
                               "hipLaunchCooperativeKernel",
                               "hipModuleLaunchCooperativeKernel",
                               "hipDrvLaunchKernelEx",
                               "hipLaunchByPtr",
                               "hipLaunchCooperativeKernelMultiDevice",
                               "hipModuleLaunchCooperativeKernelMultiDevice",
                               "hipExtLaunchMultiKernelMultiDevice"};
        std::unordered_set<std::string> set;
        for (const char *base : bases)
            for (const char *suffix : {"", "_ptsz", "_spt"})
                set.insert(std::string(base) + suffix);
        return set;
    }();
    return apis;
}

// Nsight Systems names API calls with the CUDA version that introduced them: cudaLaunchKernel_v7000,
// cudaLaunchKernelExC_v11060, cudaGetDeviceProperties_v2_v12000. The last "_v<digits>" goes; the
// name before it is the API's (a driver name's own _v2, as in cuMemcpyHtoD_v2, is not a launch either way).
std::string_view withoutVersion(std::string_view name)
{
    std::size_t digits = 0;
    while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[name.size() - 1 - digits])))
        ++digits;
    if (digits == 0 || name.size() < digits + 2 || name[name.size() - digits - 1] != 'v' ||
        name[name.size() - digits - 2] != '_')
        return name;
    return name.substr(0, name.size() - digits - 2);
}

bool isGraphLaunch(std::string_view name)
{
    for (std::string_view prefix : {"cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch"})
        if (name.substr(0, prefix.size()) == prefix)
            return true;
    return false;
}

bool startsWithNoCase(std::string_view text, std::string_view prefix)
{
    if (text.size() < prefix.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i])
            return false;
    return true;
}

EventKind gpuKind(std::string_view cat, std::string_view name, std::string_view desc, bool hasDesc)
{
    if (cat == "kernel" || cat == "Kernel")
        return EventKind::Kernel;
    if (!cat.empty()) {
        if (cat == "gpu_memcpy" || cat == "Memcpy")
            return EventKind::Memcpy;
        if (cat == "gpu_memset" || cat == "Memset")
            return EventKind::Memset;
        if (cat == "gpu_user_annotation")
            return EventKind::GpuAnnotation;
        return EventKind::GpuOther;
    }
    // rocmProfileData writes no category; its args.desc tells kernels from copies.
    if (hasDesc)
        return desc == "KernelExecution" ? EventKind::Kernel : EventKind::GpuOther;
    if (startsWithNoCase(name, "memcpy"))
        return EventKind::Memcpy;
    if (startsWithNoCase(name, "memset"))
        return EventKind::Memset;
    return EventKind::Kernel;
}

EventKind cpuKind(std::string_view cat, std::string_view name)
{
    const std::string_view api = withoutVersion(name);
    if (isGraphLaunch(api))
        return EventKind::GraphLaunch;
    if (launchApis().count(std::string(api)))
        return EventKind::KernelLaunch;
    // Kineto's 2021 schema files ProfilerStep#N under "Operator"; it is the step annotation all the same.
    if (cat == "user_annotation" || name.substr(0, 13) == "ProfilerStep#")
        return EventKind::CpuAnnotation;
    // JAX: the call of a jitted Python function f; its kernels, with command buffers (CUDA graphs) the
    // only scope they keep, and its span is the step time that eager vs graph comparisons want.
    if (cat.empty() && name.size() > 14 && name.substr(0, 13) == "PjitFunction(" && name.back() == ')')
        return EventKind::CpuAnnotation;
    if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "Runtime" || cat == "hip_runtime")
        return EventKind::Runtime;
    // Without a category (rocmProfileData's HIP calls, JAX's cuLaunchHostFunc) an API call is told by
    // its name: hipMemcpyWithStream, cudaStreamSynchronize, cuLaunchHostFunc.
    if (cat.empty()) {
        for (std::string_view prefix : {"hip", "cuda", "cu"})
            if (name.size() > prefix.size() && name.substr(0, prefix.size()) == prefix &&
                std::isupper(static_cast<unsigned char>(name[prefix.size()])))
                return EventKind::Runtime;
    }
    return EventKind::Other;
}

uint64_t trackKey(uint32_t pid, uint32_t tid)
{
    return uint64_t(pid) << 32 | tid;
}

constexpr uint32_t kUnmapped = UINT32_MAX;

bool toInt(const QString &text, int &value)
{
    bool ok = false;
    value = text.toInt(&ok);
    return ok;
}

} // namespace

TraceBuilder::TraceBuilder(TraceData &data)
    : m_data(data), m_zeroTid(m_ids.intern("0")), m_nameKey(data.strings.intern("name")),
      m_longNameKey(data.strings.intern("long_name")), m_sortIndexKey(data.strings.intern("sort_index"))
{
    hugepages::keepFreedMemory(); // before the load allocates: what it frees is kept for what follows
}

void TraceBuilder::skip(const QString &reason, int64_t count)
{
    m_data.skipped[reason] += count;
}

void TraceBuilder::note(const QString &text)
{
    if (!m_data.notes.contains(text))
        m_data.notes << text;
}

void TraceBuilder::caveat(const QString &text)
{
    note(text);
    if (!m_data.caveats.contains(text))
        m_data.caveats << text;
}

uint32_t TraceBuilder::trackFor(uint32_t pid, uint32_t tid)
{
    // Consecutive events mostly share a track.
    const uint64_t key = trackKey(pid, tid);
    if (m_lastTrack != UINT32_MAX && key == m_lastKey)
        return m_lastTrack;
    m_lastKey = key;
    const auto [it, added] = m_trackIndex.try_emplace(key, uint32_t(m_data.tracks.size()));
    m_lastTrack = it->second;
    if (added) {
        Track track;
        const std::string_view p = m_ids.view(pid), t = m_ids.view(tid);
        track.pid = QString::fromUtf8(p.data(), qsizetype(p.size()));
        track.tid = QString::fromUtf8(t.data(), qsizetype(t.size()));
        m_data.tracks.push_back(track);
        m_trackKeys.push_back(key);
        m_gpuCategorySeen.push_back(false);
        m_open.emplace_back();
    }
    return m_lastTrack;
}

bool TraceBuilder::decideGpuCategory(uint32_t cat)
{
    if (cat >= m_gpuCategory.size())
        m_gpuCategory.resize(std::max<std::size_t>(cat + 1, m_gpuCategory.size() * 2), -1);
    m_gpuCategory[cat] = gpuCategories().count(m_data.strings.view(cat)) ? 1 : 0;
    return m_gpuCategory[cat] == 1;
}

void TraceBuilder::reserveFor(int64_t textBytes)
{
    TraceData &d = m_data;
    m_expectedTextBytes = textBytes;
    const auto events =
        std::size_t(std::clamp<int64_t>(textBytes / kEventBytesReserved, 0, kMostEventsReserved));
    try {
        // Their pages are chosen as the batches come (prepareTails), 2 MB or 4 KB.
        hugepages::reserveUnadvised(d.start, events);
        for (auto *column : {&d.duration.shortNs(), &d.correlation.low(), &d.name, &d.category, &d.track, &d.opPath, &d.argsBegin})
            hugepages::reserveUnadvised(*column, events + 1);
        hugepages::reserveUnadvised(d.kind, events);
        hugepages::reserveUnadvised(d.args, events * 4);
        hugepages::reserveUnadvised(d.argText, events * 32);
        hugepages::reserveUnadvised(d.flows, events / 2); // Kineto: a flow per launch and per kernel, up to 40 %
        m_correlationFromId.reserve(events);
    } catch (const std::bad_alloc &) {
        // Only a hint: the columns grow as they fill.
    }
}

void TraceBuilder::add(RawEvent &raw)
{
    StringTable &strings = m_data.strings;
    Event e;
    e.setFields(raw);
    e.name = strings.intern(raw.name);
    e.cat = strings.intern(raw.cat);
    e.pid = m_ids.intern(raw.pid);
    e.tid = m_ids.intern(raw.tid);
    e.id = m_ids.intern(raw.id);
    m_args.clear();
    for (std::size_t i = 0; i < raw.argCount; ++i)
        m_args.push_back(Arg{strings.intern(raw.argKeys[i]), raw.argValues[i]});
    addEvent(e, m_args);
}

template <typename Column>
void TraceBuilder::prepareTail(ColumnTail &tail, const Column &column, std::size_t adding, double scale)
{
    constexpr std::size_t size = sizeof(*column.data());
    constexpr std::size_t kPage = hugepages::kPageBytes;
    const auto base = reinterpret_cast<const char *>(column.data());
    if (tail.unmanaged)
        return;
    if (!tail.base) {
        if (column.capacity() * size < hugepages::kSmallestBytes) { // on 4 KB pages, faulted in already
            tail.unmanaged = true;
            return;
        }
        tail.base = base;
        tail.blockEnd = (reinterpret_cast<std::size_t>(base) + column.capacity() * size + 4095) & ~std::size_t(4095);
        tail.decided = tail.populated = reinterpret_cast<std::size_t>(base) & ~(kPage - 1);
    } else if (tail.base != base) { // grown past its reservation: a block of malloc's, left as it is
        tail.unmanaged = true;
        return;
    }
    const auto at = reinterpret_cast<std::size_t>(base);
    const std::size_t next = at + (column.size() + adding) * size;
    const double predicted = double(at) + double((column.size() + adding) * size) * scale * 1.02;
    // Each 2 MB page of the block, as the column comes to it: a 2 MB page where it is predicted to fill
    // it, else 4 KB pages from there on (until a later prediction says a page will be filled).
    for (; next > tail.decided && tail.decided < tail.blockEnd; tail.decided += kPage) {
        const std::size_t page = tail.decided;
        if (predicted >= double(page + kPage) && page + kPage <= tail.blockEnd) {
            madvise(reinterpret_cast<void *>(page), kPage, MADV_HUGEPAGE);
            if (page < at) // glibc's header write has made the block's first page of 4 KB pages
                madvise(reinterpret_cast<void *>(page), kPage, hugepages::kCollapse);
            tail.populated = page + kPage;
        } else {
            madvise(reinterpret_cast<void *>(page), std::min(kPage, tail.blockEnd - page), MADV_NOHUGEPAGE);
        }
    }
    if (next > tail.populated) {
        // A batch's worth and 256 kB ahead: a call per few batches, each 4 KB page faulted in once.
        const std::size_t to = std::min({tail.decided, tail.blockEnd,
                                          (next + (std::size_t(256) << 10) + 4095) & ~std::size_t(4095)});
        if (to > tail.populated)
            hugepages::populate(reinterpret_cast<const void *>(tail.populated), to - tail.populated);
        tail.populated = std::max(tail.populated, to);
    }
}

void TraceBuilder::prepareTails(const EventBatch &batch, int64_t textEnd)
{
    // Predicted final size of each column: what it will hold with this batch, scaled by the text read so
    // far to all of it. A column's first page is chosen at the first batch, its last late (a 4-byte
    // column's second at 520k events), with most of the trace behind the guess; a wrong guess costs a
    // little time (4 KB pages where a 2 MB one would do) or memory (a 2 MB page part-filled).
    if (textEnd <= 0 || m_expectedTextBytes <= 0)
        return;
    const double scale = double(std::max<int64_t>(m_expectedTextBytes, textEnd)) / double(textEnd);
    TraceData &d = m_data;
    const std::size_t events = batch.events().size();
    if (m_tails.empty())
        m_tails.resize(12);
    std::size_t i = 0;
    prepareTail(m_tails[i++], d.start, events, scale);
    for (auto *column : {&d.duration.shortNs(), &d.correlation.low(), &d.name, &d.category, &d.track, &d.opPath, &d.argsBegin}) {
        ColumnTail &tail = m_tails[i++];
        if (!column->empty()) // the op paths and args' index stay empty until an event has one
            prepareTail(tail, *column, events, scale);
    }
    prepareTail(m_tails[i++], d.kind, events, scale);
    prepareTail(m_tails[i++], d.args, batch.args().size(), scale);
    const std::size_t argBytes =
        batch.args().empty() ? 0 : std::size_t(batch.args().back().offset) + batch.args().back().length;
    prepareTail(m_tails[i++], d.argText, argBytes, scale);
    prepareTail(m_tails[i++], d.flows, events, scale);
}

void TraceBuilder::addBatch(const EventBatch &batch, int64_t textEnd)
{
    prepareTails(batch, textEnd);
    // Each distinct string of the batch is interned once, on first use.
    m_batchNames.assign(batch.stringCount(), kUnmapped);
    m_batchIds.assign(batch.stringCount(), kUnmapped);
    const auto name = [&](uint32_t local) {
        uint32_t &id = m_batchNames[local];
        if (id == kUnmapped)
            id = m_data.strings.intern(batch.string(local), batch.stringHash(local));
        return id;
    };
    const auto id = [&](uint32_t local) {
        uint32_t &mapped = m_batchIds[local];
        if (mapped == kUnmapped)
            mapped = m_ids.intern(batch.string(local), batch.stringHash(local));
        return mapped;
    };
    const std::vector<EventBatch::Arg> &args = batch.args();
    for (const EventBatch::Event &b : batch.events()) {
        Event e = b;
        e.name = name(b.name);
        e.cat = name(b.cat);
        e.pid = id(b.pid);
        e.tid = id(b.tid);
        // Only a flow that is kept reads its id (addEvent): others keep the batch's, 0 for none as in
        // m_ids, so that the ids of dropped flows (one per launch) are not interned.
        e.id = (b.ph == 's' || b.ph == 'f') && !dropsFlows() ? id(b.id) : b.id;
        m_args.clear();
        for (uint32_t a = b.argsBegin; a < b.argsEnd; ++a)
            m_args.push_back(Arg{name(args[a].key), batch.argValue(args[a])});
        addEvent(e, m_args);
    }
    for (const auto &[reason, n] : batch.skipped())
        skip(reason, n);
}

void TraceBuilder::addEvent(Event &event, const std::vector<Arg> &args)
{
    if (event.fields == 0)
        return; // `{}` placeholders (rocmProfileData's first event, JAX's last) carry nothing
    if (event.badField) {
        skip(QCoreApplication::translate("TraceBuilder", "unreadable %1").arg(QLatin1String(event.badField)));
        return;
    }
    if (event.tid == 0) // the empty string
        event.tid = m_zeroTid;

    switch (event.ph) {
    case 'M':
        addMetadata(event, args);
        return;
    case 'X':
    case 'B':
    case 'E':
    case 'i':
    case 'I':
    case 's':
    case 'f':
        break;
    case 't':
        return; // flow steps add nothing to launch -> kernel links
    case 'C':
        skip(QCoreApplication::translate("TraceBuilder", "counter (ph C)"));
        return;
    case 0:
        skip(QCoreApplication::translate("TraceBuilder", "no ph"));
        return;
    default:
        skip(QCoreApplication::translate("TraceBuilder", "unsupported ph '%1'").arg(QLatin1Char(event.ph)));
        return;
    }

    const uint32_t track = trackFor(event.pid, event.tid);
    if (isGpuCategory(event.cat))
        m_gpuCategorySeen[track] = true;
    if (event.tsState != RawEvent::Field::Ok) {
        skip(event.tsState == RawEvent::Field::Missing
                 ? QCoreApplication::translate("TraceBuilder", "no ts")
                 : QCoreApplication::translate("TraceBuilder", "unreadable ts"));
        return;
    }

    switch (event.ph) {
    case 'X':
        // A complete event without its dur is skipped, counted, as one without its ts: taken as 0 ns, a
        // kernel would add a call of no time, lowering its time per run and median unsaid.
        if (event.durState != RawEvent::Field::Ok) {
            skip(event.durState == RawEvent::Field::Missing
                     ? QCoreApplication::translate("TraceBuilder", "no dur")
                     : QCoreApplication::translate("TraceBuilder", "unreadable dur"));
        } else if (event.dur < 0) {
            skip(QCoreApplication::translate("TraceBuilder", "negative dur"));
        } else {
            addSlice(event, track, args, event.dur);
        }
        return;
    case 'B': {
        OpenEvent &open = m_open[track].emplace_back();
        open.event = event;
        for (const Arg &arg : args) {
            open.text.append(arg.value);
            open.args.emplace_back(arg.key, uint32_t(open.text.size()));
        }
        return;
    }
    case 'E': {
        auto &open = m_open[track];
        if (open.empty()) {
            skip(QCoreApplication::translate("TraceBuilder", "E without B"));
            return;
        }
        const OpenEvent begin = std::move(open.back());
        open.pop_back();
        if (event.ts < begin.event.ts) {
            skip(QCoreApplication::translate("TraceBuilder", "E before its B"));
            return;
        }
        std::vector<Arg> beginArgs;
        uint32_t from = 0;
        for (const auto &[key, end] : begin.args) {
            beginArgs.push_back(Arg{key, std::string_view(begin.text).substr(from, end - from)});
            from = end;
        }
        addSlice(begin.event, track, beginArgs, event.ts - begin.event.ts); // B's track: m_open[track]
        return;
    }
    case 'i':
    case 'I':
        if (m_data.detail == TraceDetail::Figures) { // counted, and its track kept, but not stored
            if (m_data.instantsLeftOut.size() <= track)
                m_data.instantsLeftOut.resize(track + 1, 0);
            ++m_data.instantsLeftOut[track];
            return;
        }
        addSlice(event, track, args, 0);
        m_data.kind.back() = EventKind::Instant;
        return;
    default: { // 's', 'f'
        if (event.id == 0) {
            skip(QCoreApplication::translate("TraceBuilder", "flow without id"));
            return;
        }
        // Flows give a figure only the links of a trace without correlation ids (rocmProfileData):
        // once one is seen, the figures need no flow, and the timeline's arrows load at Full.
        if (dropsFlows()) {
            m_data.flows.clear();
            return;
        }
        std::string key(m_data.strings.view(event.cat));
        key += '\x1f';
        key += m_ids.view(event.id);
        m_data.flows.push_back(FlowPoint{m_data.strings.intern(key), track, event.ts, event.ph == 's'});
        return;
    }
    }
}

void TraceBuilder::addSlice(const Event &event, uint32_t track, const std::vector<Arg> &args,
                            int64_t duration)
{
    TraceData &d = m_data;
    d.start.push_back(event.ts);
    d.duration.push_back(duration);
    d.name.push_back(event.name);
    d.category.push_back(event.cat);
    d.track.push_back(track);
    d.kind.push_back(EventKind::Other);
    const int64_t correlation = event.correlation >= 0 ? event.correlation : event.correlationId;
    d.correlation.push_back(correlation);
    m_correlationSeen |= correlation != TraceData::kNoCorrelation;
    m_correlationFromId.push_back(event.hasCorrelationIdKey);

    // The op paths and the args' index begin at the first event that has one: until then every
    // event's is empty, as TraceData::opPathOf and argRange read an empty column.
    if (!args.empty() && d.argsBegin.empty())
        d.argsBegin.assign(d.start.size(), 0);
    uint32_t opPath = 0;
    for (const Arg &arg : args) {
        if (arg.key == m_nameKey || (arg.key == m_longNameKey && opPath == 0))
            opPath = d.strings.intern(arg.value);
        d.args.push_back(ArgEntry{arg.key, uint32_t(d.argText.size())});
        d.argText.append(arg.value);
    }
    if (opPath != 0 || !d.opPath.empty()) {
        d.opPath.resize(d.start.size() - 1, 0); // the events before the first that has one: none
        d.opPath.push_back(opPath);
    }
    if (!d.argsBegin.empty())
        d.argsBegin.push_back(uint32_t(d.args.size()));
}

void TraceBuilder::addMetadata(const Event &event, const std::vector<Arg> &args)
{
    const std::string_view name = m_data.strings.view(event.name);
    const uint32_t wanted = name.rfind("_sort_index") != std::string_view::npos ? m_sortIndexKey : m_nameKey;
    const auto arg = std::find_if(args.begin(), args.end(), [wanted](const Arg &a) { return a.key == wanted; });
    if (arg == args.end())
        return;
    const QString text = QString::fromUtf8(arg->value.data(), qsizetype(arg->value.size())).trimmed();
    int number = 0;
    if (name == "process_name")
        m_processNames[event.pid] = text;
    else if (name == "thread_name")
        m_threadNames[trackKey(event.pid, event.tid)] = text;
    else if (name == "process_sort_index" && toInt(text, number))
        m_processSort[event.pid] = number;
    else if (name == "thread_sort_index" && toInt(text, number))
        m_threadSort[trackKey(event.pid, event.tid)] = number;
}

void TraceBuilder::finish()
{
    for (std::size_t t = 0; t < m_open.size(); ++t)
        if (!m_open[t].empty())
            skip(QCoreApplication::translate("TraceBuilder", "B without E"), int64_t(m_open[t].size()));
    m_open.clear();
    pruneEmptyTracks();
    classifyTracks();
    if (m_data.correlation.anyId()) { // else the flows give the ids, which need the tracks' events
        runBeside([this] { sortTrackEvents(); },
                  [this] {
                      classifyEvents();
                      demangleGpuNames(); // beside the sort, which reads no name
                  });
    } else {
        sortTrackEvents();
        deriveCorrelationFromFlows();
        classifyEvents();
        demangleGpuNames();
    }
    detectFormat();
    if (m_data.format != TraceFormat::Jax) // only JAX writes op paths into args.name
        std::vector<uint32_t>().swap(m_data.opPath);
    leaveOutStrayGpuEvents();
}

void TraceBuilder::leaveOutStrayGpuEvents()
{
    TraceData &d = m_data;
    constexpr int64_t kMost = std::numeric_limits<int64_t>::max(),
                      kLeast = std::numeric_limits<int64_t>::min();
    // saturating: a damaged row near int64's ends must not wrap the window around
    const auto plus = [](int64_t a, int64_t b) {
        int64_t sum = 0;
        return __builtin_add_overflow(a, b, &sum) ? (b > 0 ? kMost : kLeast) : sum;
    };
    const auto minus = [](int64_t a, int64_t b) {
        int64_t difference = 0;
        return __builtin_sub_overflow(a, b, &difference) ? (a > b ? kMost : kLeast) : difference;
    };
    // The CPU's time, instants aside (a load at TraceDetail::Figures keeps none: both loads must agree):
    // first its tracks' first and last starts (each track's events by start), and where that window
    // leaves a GPU event out, the latest CPU end (a minute-long synchronize or graph launch).
    int64_t first = kMost, last = kLeast;
    const auto isInstant = [&d](uint32_t e) { return d.kind[e] == EventKind::Instant; };
    for (std::size_t t = 0; t < d.tracks.size(); ++t) {
        const std::vector<uint32_t> &events = d.trackEvents[t];
        if (d.tracks[t].gpu)
            continue;
        if (const auto e = std::find_if_not(events.begin(), events.end(), isInstant); e != events.end())
            first = std::min(first, d.start[*e]);
        if (const auto e = std::find_if_not(events.rbegin(), events.rend(), isInstant); e != events.rend())
            last = std::max(last, d.start[*e]);
    }
    if (first > last)
        return; // no CPU event to tell the time by
    constexpr int64_t kMinuteNs = 60'000'000'000;
    std::vector<bool> keep;
    std::vector<int64_t> newTrack(d.tracks.size());
    const auto leaveOut = [&]() {
        const int64_t margin = std::max(minus(last, first), kMinuteNs), from = minus(first, margin),
                      to = plus(last, margin);
        keep.clear(); // allocated at the first stray event: most traces have none
        const auto leaveOutEvent = [&](uint32_t e) {
            if (keep.empty())
                keep.assign(d.eventCount(), true);
            keep[e] = false;
        };
        int64_t stray = 0, tracksKept = 0;
        for (std::size_t t = 0; t < d.tracks.size(); ++t) {
            const std::vector<uint32_t> &events = d.trackEvents[t];
            std::size_t left = 0;
            if (d.tracks[t].gpu) // a stray start, or a sane one with a glitched duration
                for (const uint32_t e : events)
                    if (d.start[e] < from || plus(d.start[e], d.duration[e]) > to) {
                        leaveOutEvent(e);
                        ++left;
                    }
            stray += int64_t(left);
            // a stream left without events goes, as one that never had any
            const bool emptied = left == events.size() && !events.empty() &&
                                 (t >= d.instantsLeftOut.size() || d.instantsLeftOut[t] == 0);
            newTrack[t] = emptied ? -1 : tracksKept++;
        }
        return stray;
    };
    if (leaveOut() == 0)
        return;
    for (uint32_t e = 0; e < d.eventCount(); ++e)
        if (!d.onGpu(e) && !isInstant(e))
            last = std::max(last, plus(d.start[e], d.duration[e]));
    const int64_t stray = leaveOut();
    if (stray == 0)
        return;
    d = d.subset(newTrack, keep);
    skip(QCoreApplication::translate(
             "TraceBuilder", "GPU activity stamped far outside the trace's CPU time (a clock glitch)"),
         stray);
}

void TraceBuilder::pruneEmptyTracks()
{
    // Tracks that only held flows, metadata or skipped events would show up empty.
    TraceData &d = m_data;
    std::vector<char> used(d.tracks.size(), false);
    for (uint32_t t : d.track)
        used[t] = true;
    for (std::size_t t = 0; t < d.instantsLeftOut.size(); ++t)
        used[t] = used[t] || d.instantsLeftOut[t] > 0;
    if (!d.instantsLeftOut.empty())
        d.instantsLeftOut.resize(d.tracks.size(), 0);
    if (std::find(used.begin(), used.end(), false) == used.end())
        return; // every track stays where it is
    std::vector<uint32_t> newIndex(d.tracks.size(), UINT32_MAX);
    uint32_t next = 0;
    for (std::size_t t = 0; t < d.tracks.size(); ++t) {
        if (!used[t])
            continue;
        newIndex[t] = next;
        d.tracks[next] = std::move(d.tracks[t]);
        m_trackKeys[next] = m_trackKeys[t];
        m_gpuCategorySeen[next] = m_gpuCategorySeen[t];
        if (!d.instantsLeftOut.empty())
            d.instantsLeftOut[next] = d.instantsLeftOut[t];
        ++next;
    }
    d.tracks.resize(next);
    if (!d.instantsLeftOut.empty())
        d.instantsLeftOut.resize(next);
    m_trackKeys.resize(next);
    m_gpuCategorySeen.resize(next);
    for (uint32_t &t : d.track)
        t = newIndex[t];
    auto gone = std::remove_if(d.flows.begin(), d.flows.end(),
                               [&newIndex](const FlowPoint &f) { return newIndex[f.track] == UINT32_MAX; });
    d.flows.erase(gone, d.flows.end());
    for (FlowPoint &f : d.flows)
        f.track = newIndex[f.track];
    m_trackIndex.clear();
    m_lastTrack = UINT32_MAX;
}

void TraceBuilder::classifyTracks()
{
    static const QRegularExpression gpuProcess(QStringLiteral("^GPU\\s*(\\d+)$"));
    static const QRegularExpression jaxDevice(QStringLiteral("^/device:GPU:(\\d+)"));
    for (std::size_t t = 0; t < m_data.tracks.size(); ++t) {
        Track &track = m_data.tracks[t];
        const uint64_t key = m_trackKeys[t];
        const auto pid = uint32_t(key >> 32);
        track.processName = m_processNames.count(pid) ? m_processNames[pid] : QString();
        track.threadName = m_threadNames.count(key) ? m_threadNames[key] : QString();
        // process first, then thread: both are any int, so the process's takes the upper 32 bits
        const int64_t processSort = m_processSort.count(pid) ? m_processSort[pid] : 0;
        track.sortIndex = processSort * (int64_t(1) << 32) + (m_threadSort.count(key) ? m_threadSort[key] : 0);

        const auto gpuName = gpuProcess.match(track.processName);
        const auto jaxName = jaxDevice.match(track.processName);
        track.gpu = m_gpuCategorySeen[t] || gpuName.hasMatch() ||
                    track.processName.startsWith(QLatin1String("/device:GPU"));
        if (!track.gpu)
            continue;
        int device = -1;
        if (jaxName.hasMatch())
            device = jaxName.captured(1).toInt();
        else if (gpuName.hasMatch())
            device = gpuName.captured(1).toInt();
        else if (!toInt(track.pid, device))
            device = -1;
        track.device = device;
    }
}

void TraceBuilder::sortTrackEvents()
{
    TraceData &d = m_data;
    std::vector<std::size_t> counts(d.tracks.size(), 0);
    for (uint32_t t : d.track)
        ++counts[t];
    d.trackEvents.assign(d.tracks.size(), {});
    for (std::size_t t = 0; t < d.tracks.size(); ++t)
        hugepages::reserveExact(d.trackEvents[t], counts[t]);
    for (uint32_t e = 0; e < d.eventCount(); ++e)
        d.trackEvents[d.track[e]].push_back(e);
    // Parents before children: by start, then longer first. Tracks often come in that order already.
    const auto before = [&d](uint32_t a, uint32_t b) {
        return d.start[a] != d.start[b] ? d.start[a] < d.start[b] : d.duration[a] > d.duration[b];
    };
    for (auto &events : d.trackEvents)
        sortByRuns(events, before);
}

void TraceBuilder::deriveCorrelationFromFlows()
{
    // rocmProfileData links an API call to its GPU op only by an s/f flow pair; each end binds to
    // the innermost slice on its track that contains the flow's timestamp.
    TraceData &d = m_data;
    struct TrackIndex
    {
        std::vector<uint32_t> slices; // by start, longer first
        std::vector<int64_t> maxEnd;  // running maximum of ends
    };
    std::vector<TrackIndex> index(d.tracks.size());
    for (std::size_t t = 0; t < d.tracks.size(); ++t) {
        int64_t maxEnd = std::numeric_limits<int64_t>::min();
        for (uint32_t e : d.trackEvents[t]) {
            if (d.kind[e] == EventKind::Instant)
                continue;
            maxEnd = std::max(maxEnd, d.end(e));
            index[t].slices.push_back(e);
            index[t].maxEnd.push_back(maxEnd);
        }
    }
    auto bind = [&](const FlowPoint &flow) -> int64_t {
        const TrackIndex &ti = index[flow.track];
        auto it = std::upper_bound(ti.slices.begin(), ti.slices.end(), flow.ts,
                                   [&d](int64_t ts, uint32_t e) { return ts < d.start[e]; });
        for (auto i = it - ti.slices.begin() - 1; i >= 0 && ti.maxEnd[i] >= flow.ts; --i)
            if (d.end(ti.slices[i]) >= flow.ts)
                return ti.slices[i];
        return -1;
    };

    struct Pair
    {
        const FlowPoint *start = nullptr, *finish = nullptr;
    };
    std::vector<uint32_t> order; // flow keys in order of first appearance
    std::unordered_map<uint32_t, Pair> pairs;
    for (const FlowPoint &flow : d.flows) {
        auto [it, inserted] = pairs.try_emplace(flow.key);
        if (inserted)
            order.push_back(flow.key);
        const FlowPoint *&end = flow.start ? it->second.start : it->second.finish;
        if (!end)
            end = &flow;
    }
    int64_t fresh = 0;
    for (uint32_t key : order) {
        const Pair &pair = pairs[key];
        if (!pair.start || !pair.finish)
            continue;
        const int64_t a = bind(*pair.start), b = bind(*pair.finish);
        if (a >= 0 && b >= 0) {
            ++fresh;
            d.correlation.set(std::size_t(a), fresh);
            d.correlation.set(std::size_t(b), fresh);
        }
    }
}

void TraceBuilder::classifyEvents()
{
    TraceData &d = m_data;
    const int64_t descKey = d.strings.find("desc");
    std::vector<int64_t> kernelCorrelations; // sorted when first searched
    for (uint32_t e = 0; e < d.eventCount(); ++e) {
        if (d.kind[e] == EventKind::Instant || !d.onGpu(e))
            continue;
        std::string_view desc;
        bool hasDesc = false;
        if (d.category[e] == 0 && descKey >= 0) { // args.desc matters only without a category
            const auto [first, last] = d.argRange(e);
            for (uint32_t a = first; a < last && !hasDesc; ++a)
                if (d.args[a].key == uint32_t(descKey)) {
                    hasDesc = true;
                    desc = d.argValue(a);
                }
        }
        d.kind[e] = gpuKind(d.strings.view(d.category[e]), d.nameOf(e), desc, hasDesc);
        if (d.kind[e] == EventKind::Kernel && d.correlation[e] != TraceData::kNoCorrelation)
            kernelCorrelations.push_back(d.correlation[e]);
    }
    // A CPU event's kind follows from its name and category: decided once per name, and again where
    // the name comes with another category than last time. Names are few (a few thousand in a
    // 700k-event trace), so a table by name id beats a hash lookup per event.
    std::vector<uint32_t> lastCategory(d.strings.size(), kUnmapped);
    std::vector<EventKind> kindByName(d.strings.size());
    bool correlationsSorted = false;
    for (uint32_t e = 0; e < d.eventCount(); ++e) {
        if (d.kind[e] == EventKind::Instant || d.onGpu(e))
            continue;
        const uint32_t name = d.name[e], category = d.category[e];
        if (lastCategory[name] != category) {
            lastCategory[name] = category;
            kindByName[name] = cpuKind(d.strings.view(category), d.strings.view(name));
        }
        EventKind kind = kindByName[name];
        // JAX names the host launch event after the kernel; its correlation_id finds the kernel.
        if (kind != EventKind::GraphLaunch && kind != EventKind::KernelLaunch && m_correlationFromId[e] &&
            d.correlation[e] != TraceData::kNoCorrelation) {
            if (!correlationsSorted) {
                std::sort(kernelCorrelations.begin(), kernelCorrelations.end());
                correlationsSorted = true;
            }
            if (std::binary_search(kernelCorrelations.begin(), kernelCorrelations.end(), d.correlation[e]))
                kind = EventKind::KernelLaunch;
        }
        d.kind[e] = kind;
    }
}

void TraceBuilder::demangleGpuNames()
{
    TraceData &d = m_data;
    std::vector<uint32_t> renamed(d.strings.size(), kUnmapped); // by name id, decided once per name
    for (uint32_t e = 0; e < d.eventCount(); ++e) {
        if (!d.onGpu(e) || d.nameOf(e).substr(0, 2) != "_Z")
            continue;
        uint32_t &to = renamed[d.name[e]];
        if (to == kUnmapped) {
            const std::string readable = demangledName(d.nameOf(e));
            to = readable.empty() ? d.name[e] : d.strings.intern(readable);
        }
        d.name[e] = to;
    }
}

void TraceBuilder::detectFormat()
{
    for (const auto &entry : m_processNames) {
        if (entry.second.startsWith(QLatin1String("/device:")) ||
            entry.second.startsWith(QLatin1String("/host:"))) {
            m_data.format = TraceFormat::Jax;
            return;
        }
    }
    m_data.format = m_kineto ? TraceFormat::Kineto : TraceFormat::ChromeTrace;
}

} // namespace scopeline
