// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/rocprofv3handler.h"

#include "model/formats/rawevent.h"
#include "model/formats/tracebuilder.h"

#include "model/formats/jsonerror.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cstring>

namespace scopeline {

namespace {
const std::string kTool = "rocprofiler-sdk-tool";
const std::string kBufferRecords = kTool + ".buffer_records.";
const std::string kDispatches = kBufferRecords + "kernel_dispatch";
const std::string kCalls = kBufferRecords + "hip_api";
const std::string kMarkers = kBufferRecords + "marker_api";
const std::string kCopies = kBufferRecords + "memory_copy";
const std::string kSymbols = kTool + ".kernel_symbols";
const std::string kAgents = kTool + ".agents";
const std::string kNames = kTool + ".strings.buffer_records";
const std::string kMessages = kTool + ".strings.marker_api";
const std::string kMetadata = kTool + ".metadata";
} // namespace

namespace {

// What a number out of range was read as (RocprofV3Handler::kOutOfRangeMark, unquoted).
bool isOutOfRangeMark(const std::string *text)
{
    return text && *text == std::string_view(RocprofV3Handler::kOutOfRangeMark).substr(1, 3);
}

// Dispatch::launch's fields, in its order, and a kernel symbol's registers, in m_registers' order.
const char *const kLaunchFields[] = {
    "dispatch_info.grid_size.x",        "dispatch_info.grid_size.y",         "dispatch_info.grid_size.z",
    "dispatch_info.workgroup_size.x",   "dispatch_info.workgroup_size.y",    "dispatch_info.workgroup_size.z",
    "dispatch_info.group_segment_size", "dispatch_info.private_segment_size"};
const char *const kRegisterFields[] = {"arch_vgpr_count", "accum_vgpr_count", "sgpr_count"};

// The fields every timed record has (its start, end and internal correlation id); false for another.
bool readTimes(const std::string &field, uint64_t number, int64_t &start, int64_t &end, int64_t &correlation)
{
    int64_t *into = field == "start_timestamp"           ? &start
                    : field == "end_timestamp"           ? &end
                    : field == "correlation_id.internal" ? &correlation
                                                         : nullptr;
    if (into)
        *into = int64_t(number);
    return into != nullptr;
}

} // namespace

RocprofV3Handler::RocprofV3Handler(const std::atomic<bool> *cancel) : m_cancel(cancel) {}

// The args rocprofv3's rocpd output gives a dispatch (RocpdReader reads the same names there).
void RocprofV3Handler::addLaunchArgs(const Dispatch &d, RawEvent &event) const
{
    // each arg where all its values were given
    const auto add = [&](const char *name, int first, int count) {
        if (std::all_of(&d.launch[first], &d.launch[first + count], [](int64_t v) { return v >= 0; }))
            event.addIntegerArg(name, &d.launch[first], count);
    };
    add("grid_size", 0, 3);
    add("workgroup_size", 3, 3);
    add("group_segment_size", 6, 1);
    add("private_segment_size", 7, 1);
    if (const auto registers = m_registers.find(d.kernelId); registers != m_registers.end())
        for (std::size_t i = 0; i < registers->second.size(); ++i)
            if (registers->second[i] >= 0)
                event.addArg(kRegisterFields[i]) = std::to_string(registers->second[i]);
}

bool RocprofV3Handler::startContainer(bool array)
{
    const std::size_t before = m_path.size();
    if (!m_frames.empty() && !m_frames.back().array) {
        if (!m_path.empty())
            m_path.push_back('.');
        m_path.append(m_key);
    }
    m_frames.push_back(Frame{array, before});
    // A record is an object directly inside one of the arrays we read.
    if (!array && m_record == Record::None && m_frames.size() >= 2 && m_frames[m_frames.size() - 2].array) {
        m_record = m_path == kDispatches                  ? Record::Dispatch
                   : m_path == kCalls                     ? Record::Call
                   : m_path == kMarkers                   ? Record::Marker
                   : m_path == kCopies                    ? Record::Copy
                   : m_path == kSymbols                   ? Record::Symbol
                   : m_path == kAgents                    ? Record::Agent
                   : m_path == kNames                     ? Record::Names
                   : m_path == kMessages                  ? Record::Message
                   : m_path.rfind(kBufferRecords, 0) == 0 ? Record::Unread
                                                          : Record::None;
        if (m_record == Record::Unread) // counted, to be said
            ++m_unread[m_path.substr(kBufferRecords.size())];
        if (m_record != Record::None) {
            m_recordDepth = m_frames.size();
            m_recordPathLength = m_path.size();
            m_dispatch = Dispatch();
            m_symbolId = 0;
            m_symbolName.clear();
            m_symbolFallback.clear();
            m_symbolRegisters = {-1, -1, -1};
            m_agentHandle = 0;
            m_agent = Agent();
            m_activity = Activity{m_record};
            m_names = {};
            m_messageKey = -1;
            m_messageText.clear();
        }
    }
    return true;
}

bool RocprofV3Handler::endContainer()
{
    if (m_frames.empty())
        return true;
    if (m_record != Record::None && m_frames.size() == m_recordDepth) {
        switch (m_record) {
        case Record::Dispatch:
            if (m_dispatch.outOfRange)
                ++m_droppedOutOfRange;
            else
                m_dispatches.push_back(m_dispatch);
            break;
        case Record::Symbol:
            m_symbols[m_symbolId] = m_symbolName.empty() ? m_symbolFallback : m_symbolName;
            m_registers[m_symbolId] = m_symbolRegisters;
            break;
        case Record::Agent:
            m_agents[m_agentHandle] = m_agent;
            break;
        case Record::Call:
        case Record::Marker:
        case Record::Copy:
            if (m_activity.outOfRange)
                ++m_droppedOutOfRange;
            else
                m_activities.push_back(m_activity);
            break;
        case Record::Names:
            m_kindNames.push_back(std::move(m_names));
            break;
        case Record::Message:
            if (m_messageKey >= 0)
                m_messages[m_messageKey] = m_messageText;
            break;
        case Record::Unread:
        case Record::None:
            break;
        }
        m_record = Record::None;
        if (m_cancel && m_cancel->load(std::memory_order_relaxed) && m_dispatches.size() % 1024 == 0) {
            m_cancelled = true;
            return false;
        }
    }
    m_path.resize(m_frames.back().pathLength);
    m_frames.pop_back();
    return true;
}

bool RocprofV3Handler::start_object(std::size_t)
{
    return startContainer(false);
}
bool RocprofV3Handler::start_array(std::size_t)
{
    return startContainer(true);
}
bool RocprofV3Handler::end_object()
{
    return endContainer();
}
bool RocprofV3Handler::end_array()
{
    return endContainer();
}

bool RocprofV3Handler::key(json::string_t &key)
{
    m_key.swap(key);
    return true;
}

bool RocprofV3Handler::number_integer(json::number_integer_t number)
{
    value(uint64_t(number), nullptr);
    return true;
}

bool RocprofV3Handler::number_unsigned(json::number_unsigned_t number)
{
    value(number, nullptr);
    return true;
}

bool RocprofV3Handler::string(json::string_t &text)
{
    value(0, &text);
    return true;
}

void RocprofV3Handler::value(uint64_t number, const std::string *text)
{
    if (m_record == Record::None) {
        if (!text && m_key == "pid" && m_path == kMetadata)
            m_pid = int64_t(number);
        return;
    }
    // Field path relative to the record, e.g. "dispatch_info.agent_id.handle".
    std::string field = m_path.substr(std::min(m_path.size(), m_recordPathLength + 1));
    if (!field.empty())
        field.push_back('.');
    field.append(m_key);
    switch (m_record) {
    case Record::Dispatch:
        m_dispatch.outOfRange = m_dispatch.outOfRange || isOutOfRangeMark(text);
        if (text || readTimes(field, number, m_dispatch.start, m_dispatch.end, m_dispatch.correlation))
            return;
        if (field == "dispatch_info.agent_id.handle")
            m_dispatch.agent = number;
        else if (field == "dispatch_info.queue_id.handle")
            m_dispatch.queue = number;
        else if (field == "dispatch_info.kernel_id")
            m_dispatch.kernelId = number;
        else if (field == "dispatch_info.dispatch_id")
            m_dispatch.dispatchId = number;
        else if (const auto at = std::find(std::begin(kLaunchFields), std::end(kLaunchFields), field);
                 at != std::end(kLaunchFields))
            m_dispatch.launch[std::size_t(at - std::begin(kLaunchFields))] = int64_t(number);
        return;
    case Record::Symbol:
        if (field == "kernel_id" && !text)
            m_symbolId = number;
        else if (field == "formatted_kernel_name" && text)
            m_symbolName = *text; // what rocprofv3's own rocpd and Perfetto outputs name it by
        else if (field == "kernel_name" && text)
            m_symbolFallback = *text;
        else if (const auto at = std::find(std::begin(kRegisterFields), std::end(kRegisterFields), field);
                 at != std::end(kRegisterFields) && !text)
            m_symbolRegisters[std::size_t(at - std::begin(kRegisterFields))] = int64_t(number);
        return;
    case Record::Agent:
        if (field == "id.handle" && !text)
            m_agentHandle = number;
        else if (field == "type" && !text)
            m_agent.type = int(number);
        else if (field == "logical_node_type_id" && !text)
            m_agent.index = int(number);
        else if (field == "product_name" && text)
            m_agent.name = *text;
        return;
    case Record::Call:
    case Record::Marker:
    case Record::Copy: {
        Activity &a = m_activity;
        a.outOfRange = a.outOfRange || isOutOfRangeMark(text);
        if (text || readTimes(field, number, a.start, a.end, a.correlation))
            return;
        if (field == "kind")
            a.kind = number;
        else if (field == "operation")
            a.operation = number;
        else if (field == "thread_id")
            a.thread = number;
        else if (field == "dst_agent_id.handle")
            a.dst = number;
        else if (field == "src_agent_id.handle")
            a.src = number;
        else if (field == "stream_id.handle") {
            a.stream = number;
            a.hasStream = true;
        }
        return;
    }
    case Record::Names: // {"kind": "HIP_RUNTIME_API_EXT", "operations": ["hipApiName", …]}
        if (text && field == "kind")
            m_names.first = *text;
        else if (text && field.rfind("operations", 0) == 0)
            m_names.second.push_back(*text);
        return;
    case Record::Message: // {"key": correlation id, "value": the roctx text}
        if (!text && field == "key")
            m_messageKey = int64_t(number);
        else if (text && field == "value")
            m_messageText = *text;
        return;
    case Record::Unread:
    case Record::None:
        return;
    }
}

std::string RocprofV3Handler::operationName(const Activity &a) const
{
    if (a.kind < m_kindNames.size() && a.operation < m_kindNames[a.kind].second.size())
        return m_kindNames[a.kind].second[a.operation];
    return "operation " + std::to_string(a.operation) + " of kind " + std::to_string(a.kind);
}

void RocprofV3Handler::addEventsTo(TraceBuilder &builder) const
{
    if (m_droppedOutOfRange)
        builder.skip(QCoreApplication::translate("TraceBuilder", "number out of range"), m_droppedOutOfRange);
    const auto tr = [](const char *text) { return QCoreApplication::translate("RocprofV3Handler", text); };
    if (m_dispatches.empty() && !m_droppedOutOfRange)
        builder.note(tr("no kernel dispatch records in this JSON (record with `rocprofv3 --kernel-trace`)"));
    // What else the file holds (HSA or RCCL calls, counters, page migrations) is said, not dropped silently.
    QStringList unread;
    for (const auto &[kind, count] : m_unread)
        unread << QStringLiteral("%1 %2").arg(count).arg(QString::fromStdString(kind));
    if (!unread.isEmpty())
        builder.note(tr("%1 record(s) not read (this reader takes kernel dispatches, HIP API calls, roctx "
                        "ranges and memory copies)")
                         .arg(unread.join(QStringLiteral(", "))));
    if (!m_dispatches.empty() && std::none_of(m_activities.begin(), m_activities.end(),
                                              [](const Activity &a) { return a.record == Record::Call; }))
        builder.caveat(
            tr("no HIP API calls in this JSON: kernels are not paired with the calls that launched "
               "them (record with `rocprofv3 --hip-trace`)"));
    RawEvent event;
    // A GPU's process, named as Chrome traces name it, so that tracks get GPU names and device numbers.
    std::map<uint64_t, std::string> gpuPids;
    const auto gpuPid = [&](uint64_t handle) -> const std::string & {
        auto [it, added] = gpuPids.try_emplace(handle);
        if (added) {
            const auto agent = m_agents.find(handle);
            it->second = std::to_string(
                agent != m_agents.end() && agent->second.index >= 0 ? agent->second.index : int(handle));
            event.clear();
            event.ph = 'M';
            event.fields = 1;
            event.name = "process_name";
            event.pid = it->second;
            event.addArg("name") = "GPU " + it->second;
            builder.add(event);
        }
        return it->second;
    };
    // onCpu: a call or range, which of no length is an instant, as rocpd stores it
    const auto slice = [&](bool onCpu, std::string name, const char *cat, const std::string &pid,
                           std::string tid, int64_t start, int64_t end, int64_t correlation) {
        event.clear();
        event.ph = onCpu && end == start ? 'i' : 'X';
        event.fields = 1;
        event.cat = cat;
        event.name = std::move(name);
        event.pid = pid;
        event.tid = std::move(tid);
        event.ts = start;
        event.dur = end - start;
        event.tsState = event.durState = RawEvent::Field::Ok;
        event.correlation = correlation;
        if (correlation >= 0)
            event.addArg("correlation_id") = std::to_string(correlation);
    };
    for (const Dispatch &d : m_dispatches) {
        const std::string &pid = gpuPid(d.agent);
        if (d.end < d.start) {
            builder.skip(tr("dispatch ends before it starts"));
            continue;
        }
        const auto symbol = m_symbols.find(d.kernelId);
        slice(false,
              symbol != m_symbols.end() && !symbol->second.empty() ? symbol->second
                                                                   : "kernel " + std::to_string(d.kernelId),
              "kernel", pid, "queue " + std::to_string(d.queue), d.start, d.end, d.correlation);
        event.addArg("kernel_id") = std::to_string(d.kernelId);
        event.addArg("dispatch_id") = std::to_string(d.dispatchId);
        if (builder.detail() == TraceDetail::Full) // for the details only
            addLaunchArgs(d, event);
        if (const auto agent = m_agents.find(d.agent); agent != m_agents.end())
            event.addArg("agent") = agent->second.name;
        builder.add(event);
    }
    const std::string process = m_pid >= 0 ? std::to_string(m_pid) : std::string("rocprofv3");
    for (const Activity &a : m_activities) {
        if (a.end < a.start) {
            builder.skip(tr("record ends before it starts"));
            continue;
        }
        switch (a.record) {
        case Record::Call:
            slice(true, operationName(a), "hip_runtime", process, std::to_string(a.thread), a.start, a.end,
                  a.correlation);
            break;
        case Record::Marker: { // a roctx range, named by its text as ROCm's own exporters name it
            const auto text = m_messages.find(a.correlation);
            slice(true, text != m_messages.end() ? text->second : operationName(a), "user_annotation",
                  process, std::to_string(a.thread), a.start, a.end, -1);
            break;
        }
        default: { // a copy, on the GPU it went to (from, when it went to the host)
            const auto dst = m_agents.find(a.dst);
            const bool toGpu = dst != m_agents.end() && dst->second.type == 2;
            slice(false, operationName(a), "gpu_memcpy", gpuPid(toGpu ? a.dst : a.src),
                  a.hasStream ? "copies, stream " + std::to_string(a.stream) : std::string("copies"), a.start,
                  a.end, a.correlation);
            break;
        }
        }
        builder.add(event);
    }
}

bool RocprofV3Handler::parse_error(std::size_t position, const std::string &lastToken,
                                   const nlohmann::detail::exception &ex)
{
    m_error = jsonErrorMessage(position, ex);
    // nlohmann's position is just past the number; the mark must fit where the number stood
    if (ex.id == 406 && lastToken.size() >= std::strlen(kOutOfRangeMark) && position >= lastToken.size())
        m_outOfRange = {int64_t(position - lastToken.size()), int64_t(lastToken.size())};
    return false;
}

} // namespace scopeline
