// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/runsummary.h"

#include "model/analysis/communication.h"

#include "model/tracedata/hugepages.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

namespace scopeline {

namespace {

// Bytes of one element of a PyTorch dtype as the profiler names it ("Float", "BFloat16"); 0 unknown.
int64_t dtypeBytes(std::string_view dtype)
{
    static const std::pair<std::string_view, int64_t> sizes[] = {
        {"Double", 8}, {"Long", 8},   {"ComplexFloat", 8}, {"Float", 4},          {"Int", 4},
        {"Half", 2},   {"BFloat16", 2}, {"Short", 2},       {"Byte", 1},           {"Char", 1},
        {"Bool", 1},   {"Float8_e4m3fn", 1}, {"Float8_e5m2", 1}, {"Float8_e4m3fnuz", 1}, {"Float8_e5m2fnuz", 1}};
    for (const auto &[name, bytes] : sizes)
        if (name == dtype)
            return bytes;
    return 0;
}

// Each kernel's op, by position in analysis.kernels(): JAX's hlo_op (with its graph node inside a
// command buffer, whose kernels all carry the buffer's name), else the innermost CPU op around the
// kernel's launch call; the kernel's name when neither is there. Each op's text is interned in `texts`
// once (thousands of kernels share a few hundred ops).
std::vector<uint32_t> kernelOps(const TraceAnalysis &analysis, StringTable &texts)
{
    const TraceData &t = analysis.trace();
    std::vector<std::pair<uint32_t, uint32_t>> opOfLaunch; // (launch event, its innermost CPU op), sorted below
    for (uint32_t track = 0; track < t.tracks.size(); ++track) {
        if (t.tracks[track].gpu)
            continue;
        std::vector<uint32_t> open;               // CPU ops holding the current event, outermost first
        for (uint32_t e : t.trackEvents[track]) { // by start, parents first
            while (!open.empty() && t.end(open.back()) <= t.start[e])
                open.pop_back();
            if ((t.kind[e] == EventKind::KernelLaunch || t.kind[e] == EventKind::GraphLaunch) &&
                !open.empty())
                opOfLaunch.emplace_back(e, open.back());
            else if (t.kind[e] == EventKind::Other && t.duration[e] > 0)
                open.push_back(e);
        }
    }
    std::sort(opOfLaunch.begin(), opOfLaunch.end());
    std::vector<uint32_t> textOf(t.strings.size(), UINT32_MAX); // trace string id -> id in texts
    std::vector<uint32_t> ops;
    ops.reserve(analysis.kernels().size());
    for (std::size_t p = 0; p < analysis.kernels().size(); ++p) {
        const uint32_t k = analysis.kernels()[p];
        const std::string_view hlo = t.arg(k, "hlo_op");
        if (!hlo.empty()) {
            const std::string_view node = t.arg(k, "cuda_graph_node_id");
            // the node id is the graph's id in the high 32 bits and the node's index in the low ones
            ops.push_back(texts.intern(
                node.empty() ? std::string(hlo)
                             : std::string(hlo) + " node " +
                                   std::to_string(std::strtoull(std::string(node).c_str(), nullptr, 10) &
                                                  0xffffffffu)));
            continue;
        }
        uint32_t opEvent = k; // what the op is named after: the CPU op around the launch, if any
        if (const int64_t launch = analysis.launchAt(p); launch >= 0) {
            const auto op = std::lower_bound(opOfLaunch.begin(), opOfLaunch.end(), std::pair(uint32_t(launch), 0u));
            if (op != opOfLaunch.end() && op->first == uint32_t(launch))
                opEvent = op->second;
        }
        const uint32_t name = t.name[opEvent];
        if (textOf[name] == UINT32_MAX)
            textOf[name] = texts.intern(t.strings.view(name));
        ops.push_back(textOf[name]);
    }
    return ops;
}

// A collective's message from its args (PyTorch's NCCL kernels): bytes 0 when they do not say.
RunSummary::Message messageOf(const TraceData &t, uint32_t k)
{
    RunSummary::Message m;
    const auto number = [&](const char *key) { return std::strtoll(std::string(t.arg(k, key)).c_str(), nullptr, 10); };
    const int64_t elements = std::max(number("In msg nelems"), number("Out msg nelems"));
    const int64_t size = dtypeBytes(t.arg(k, "dtype"));
    if (elements > 0 && size > 0)
        m.bytes = elements * size;
    m.groupSize = uint16_t(std::clamp<long long>(number("Group size"), 0, UINT16_MAX));
    return m;
}

// A collective's process group from its args (PyTorch's NCCL kernels): "<Process Group Name>
// <Process Group Ranks>", the same on every rank of the group (the name comes from a counter every rank
// steps, or a hash of the ranks); empty when they do not say.
std::string processGroupOf(const TraceData &t, uint32_t k)
{
    const std::string_view name = t.arg(k, "Process Group Name");
    std::string_view ranks = t.arg(k, "Process Group Ranks");
    if (ranks == "[]")
        ranks = {};
    if (name.empty() && ranks.empty())
        return {};
    return std::string(name) + ' ' + std::string(ranks);
}

} // namespace

RunSummary::RunSummary(const TraceAnalysis &analysis, std::shared_ptr<const ScopeIndex> scopes)
    : m_scopes(std::move(scopes))
{
    const TraceData &t = analysis.trace();
    sourceFile = t.sourceFile;
    format = t.format;
    events = t.eventsRead();
    skipped = t.skipped;
    caveats = t.caveats;

    // Processes by pid, numbered in track order over the CPU tracks (as the step breakdown did).
    std::map<QString, uint16_t> processIds;
    std::vector<uint16_t> processOf(t.tracks.size(), kNoProcess);
    for (uint32_t track = 0; track < t.tracks.size(); ++track)
        if (!t.tracks[track].gpu)
            processOf[track] = processIds.try_emplace(t.tracks[track].pid, uint16_t(processIds.size())).first->second;

    std::vector<uint32_t> idOf(t.strings.size(), UINT32_MAX); // trace string id -> m_strings id
    auto intern = [&](uint32_t text) {
        uint32_t &id = idOf[text];
        if (id == UINT32_MAX)
            id = m_strings.intern(t.strings.view(text));
        return id;
    };

    StringTable opTexts;
    const std::vector<uint32_t> ops = kernelOps(analysis, opTexts);
    std::vector<int8_t> namedCommunication(t.strings.size(), -1); // per trace string id
    std::vector<int8_t> collectiveOp(opTexts.size(), -1);        // per op: whether XLA names a collective
    std::vector<uint32_t> opId(opTexts.size(), UINT32_MAX);      // per op: its id in m_strings
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> collectiveOf; // (name, op) -> collectiveKind's id
    const std::vector<uint32_t> &kernels = analysis.kernels();
    hugepages::reserveExact(m_kernels, kernels.size()); // held as long as the run: no page part-used
    for (std::size_t p = 0; p < kernels.size(); ++p) {
        const uint32_t k = kernels[p];
        Kernel kernel;
        kernel.start = t.start[k];
        kernel.duration = t.duration[k];
        kernel.name = intern(t.name[k]);
        const std::string_view op = opTexts.view(ops[p]);
        if (opId[ops[p]] == UINT32_MAX)
            opId[ops[p]] = m_strings.intern(op);
        kernel.op = opId[ops[p]];
        // Communication is told apart from compute (by name once per name, by op once per op); By op
        // groups it by collective.
        const std::string_view collective = t.arg(k, "Collective name");
        int8_t &named = namedCommunication[t.name[k]];
        if (named < 0)
            named = isCommunicationKernel(t.nameOf(k));
        int8_t &collectiveByOp = collectiveOp[ops[p]];
        if (collectiveByOp < 0)
            collectiveByOp = isCommunicationKernel({}, op);
        if (named || collectiveByOp || !collective.empty()) {
            kernel.flags |= kCommunication;
            if (!collective.empty()) {
                kernel.op = m_strings.intern(collectiveKind({}, {}, collective)); // spelled as NCCL's
            } else {
                // without the arg, the collective follows from the name and the op: worked out once
                const auto [it, added] = collectiveOf.try_emplace({t.name[k], ops[p]}, 0);
                if (added)
                    it->second = m_strings.intern(collectiveKind(t.nameOf(k), op, {}));
                kernel.op = it->second;
            }
            Message m = messageOf(t, k);
            if (const std::string group = processGroupOf(t, k); m.bytes > 0 || !group.empty()) {
                m.group = m_strings.intern(group); // the empty string is id 0
                m.kernel = uint32_t(m_kernels.size());
                m_messages.push_back(m);
            }
        }
        kernel.stream = t.track[k];
        const int64_t launch = analysis.launchAt(p);
        if (launch >= 0) {
            kernel.launch = t.kind[launch] == EventKind::KernelLaunch ? Launch::Kernel : Launch::Graph;
            kernel.launchStart = t.start[launch];
            kernel.launchProcess = processOf[t.track[launch]];
        }
        m_kernels.push_back(kernel);
    }

    // The ranges a step scope can pick, decided once per name.
    std::vector<int8_t> keep(t.strings.size(), -1);
    auto kept = [&](uint32_t e) {
        int8_t &k = keep[t.name[e]];
        if (k < 0) {
            const std::string_view name = t.nameOf(e);
            const std::string_view base = ScopeIndex::stepBase(name);
            k = !base.empty() || ScopeIndex::isCallName(name) ||
                (m_scopes && (m_scopes->hasName(name) || (!base.empty() && m_scopes->hasName(base))));
        }
        return t.kind[e] == EventKind::CpuAnnotation || k == 1;
    };
    for (uint32_t track = 0; track < t.tracks.size(); ++track) {
        if (t.tracks[track].gpu)
            continue;
        for (uint32_t e : t.trackEvents[track])
            if (t.kind[e] != EventKind::Instant && kept(e)) {
                Range range;
                range.start = t.start[e];
                range.end = t.end(e);
                range.name = intern(t.name[e]);
                range.track = track;
                range.process = processOf[track];
                m_ranges.push_back(range);
            }
    }

    const LaunchSummary &total = analysis.total();
    m_busyNs = total.busyNs;
    m_spanNs = total.spanNs;
    m_kernelLaunches = total.kernelLaunches;
    m_graphLaunches = total.graphLaunches;
    m_graphLaunchDelays = total.graphLaunchDelays;

    launchOrigin = LaunchOrigin::of(t);
}

LaunchOrigin LaunchOrigin::of(const TraceData &t)
{
    LaunchOrigin origin;
    // The formats whose pid is the OS's (a JAX trace numbers its hosts and devices)
    if (t.format != TraceFormat::Kineto && t.format != TraceFormat::NsysSqlite &&
        t.format != TraceFormat::Rocpd && t.format != TraceFormat::RocprofV3)
        return origin;
    for (uint32_t e = 0; e < t.eventCount(); ++e)
        if (t.kind[e] == EventKind::KernelLaunch || t.kind[e] == EventKind::GraphLaunch) {
            if (origin.pid.isEmpty())
                origin.pid = QStringLiteral("pid ") + t.tracks[t.track[e]].pid;
            if (const int64_t id = t.correlation[e]; id != TraceData::kNoCorrelation) {
                origin.firstId = origin.firstId < 0 ? id : std::min(origin.firstId, id);
                origin.lastId = std::max(origin.lastId, id);
            }
        }
    return origin;
}

std::size_t RunSummary::heldBytes() const
{
    using hugepages::usedBytes;
    return m_strings.heldBytes() + usedBytes(m_kernels) + usedBytes(m_ranges) + usedBytes(m_messages) +
           usedBytes(m_graphLaunchDelays);
}

LaunchSummary RunSummary::total() const
{
    LaunchSummary total;
    total.kernels = int64_t(m_kernels.size());
    total.kernelLaunches = m_kernelLaunches;
    total.graphLaunches = m_graphLaunches;
    total.busyNs = m_busyNs;
    total.spanNs = m_spanNs;
    for (const Kernel &k : m_kernels)
        if (k.launch == Launch::Kernel)
            total.launchDelays.push_back(k.start - k.launchStart);
    total.graphLaunchDelays = m_graphLaunchDelays;
    return total;
}

} // namespace scopeline
