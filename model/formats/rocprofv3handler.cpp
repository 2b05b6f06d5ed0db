// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/rocprofv3handler.h"

#include "model/formats/rawevent.h"
#include "model/formats/tracebuilder.h"

#include "model/formats/jsonerror.h"

#include <QCoreApplication>
#include <QStringList>

#include <cstring>

namespace scopeline {

namespace {
const std::string kTool = "rocprofiler-sdk-tool";
const std::string kBufferRecords = kTool + ".buffer_records.";
const std::string kDispatches = kBufferRecords + "kernel_dispatch";
const std::string kSymbols = kTool + ".kernel_symbols";
const std::string kAgents = kTool + ".agents";
} // namespace

RocprofV3Handler::RocprofV3Handler(const std::atomic<bool> *cancel) : m_cancel(cancel) {}

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
                   : m_path == kSymbols                   ? Record::Symbol
                   : m_path == kAgents                    ? Record::Agent
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
            m_agentHandle = 0;
            m_agent = Agent();
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
            break;
        case Record::Agent:
            m_agents[m_agentHandle] = m_agent;
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
    if (m_record == Record::None)
        return;
    // Field path relative to the record, e.g. "dispatch_info.agent_id.handle".
    std::string field = m_path.substr(std::min(m_path.size(), m_recordPathLength + 1));
    if (!field.empty())
        field.push_back('.');
    field.append(m_key);
    switch (m_record) {
    case Record::Dispatch:
        if (text && *text == std::string_view(kOutOfRangeMark).substr(1, 3))
            m_dispatch.outOfRange = true;
        if (text)
            return;
        if (field == "start_timestamp")
            m_dispatch.start = int64_t(number);
        else if (field == "end_timestamp")
            m_dispatch.end = int64_t(number);
        else if (field == "correlation_id.internal")
            m_dispatch.correlation = int64_t(number);
        else if (field == "dispatch_info.agent_id.handle")
            m_dispatch.agent = number;
        else if (field == "dispatch_info.queue_id.handle")
            m_dispatch.queue = number;
        else if (field == "dispatch_info.kernel_id")
            m_dispatch.kernelId = number;
        else if (field == "dispatch_info.dispatch_id")
            m_dispatch.dispatchId = number;
        return;
    case Record::Symbol:
        if (field == "kernel_id" && !text)
            m_symbolId = number;
        else if (field == "formatted_kernel_name" && text)
            m_symbolName = *text; // what rocprofv3's own rocpd and Perfetto outputs name it by
        else if (field == "kernel_name" && text)
            m_symbolFallback = *text;
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
    case Record::Unread:
    case Record::None:
        return;
    }
}

void RocprofV3Handler::addKernelsTo(TraceBuilder &builder) const
{
    if (m_droppedOutOfRange)
        builder.skip(QCoreApplication::translate("TraceBuilder", "number out of range"), m_droppedOutOfRange);
    // This reader takes kernel dispatches alone: what else the file holds is said, not dropped silently.
    const auto tr = [](const char *text) { return QCoreApplication::translate("RocprofV3Handler", text); };
    if (m_dispatches.empty() && !m_droppedOutOfRange)
        builder.note(tr("no kernel dispatch records in this JSON (record with `rocprofv3 --kernel-trace`)"));
    QStringList unread;
    for (const auto &[kind, count] : m_unread)
        unread << QStringLiteral("%1 %2").arg(count).arg(QString::fromStdString(kind));
    if (!unread.isEmpty())
        builder.note(tr("%1 record(s) not read: this reader takes kernel dispatches from rocprofv3's JSON; "
                        "for launch calls, roctx scopes and copies record with `--output-format rocpd`")
                         .arg(unread.join(QStringLiteral(", "))));
    RawEvent event;
    std::map<uint64_t, bool> named;
    for (const Dispatch &d : m_dispatches) {
        const auto agent = m_agents.find(d.agent);
        const int device =
            agent != m_agents.end() && agent->second.index >= 0 ? agent->second.index : int(d.agent);
        const std::string pid = std::to_string(device);
        const std::string tid = "queue " + std::to_string(d.queue);
        if (!named[d.agent]) {
            // Metadata as Chrome traces carry it, so that tracks get GPU names and device numbers.
            named[d.agent] = true;
            event.clear();
            event.ph = 'M';
            event.fields = 1;
            event.name = "process_name";
            event.pid = pid;
            event.addArg("name") = "GPU " + pid;
            builder.add(event);
        }
        if (d.end < d.start) {
            builder.skip(QCoreApplication::translate("RocprofV3Handler", "dispatch ends before it starts"));
            continue;
        }
        event.clear();
        event.ph = 'X';
        event.fields = 1;
        event.cat = "kernel";
        const auto symbol = m_symbols.find(d.kernelId);
        event.name = symbol != m_symbols.end() && !symbol->second.empty()
                         ? symbol->second
                         : "kernel " + std::to_string(d.kernelId);
        event.pid = pid;
        event.tid = tid;
        event.ts = d.start;
        event.dur = d.end - d.start;
        event.tsState = event.durState = RawEvent::Field::Ok;
        event.correlation = d.correlation;
        event.addArg("kernel_id") = std::to_string(d.kernelId);
        event.addArg("dispatch_id") = std::to_string(d.dispatchId);
        event.addArg("correlation_id") = std::to_string(d.correlation);
        if (agent != m_agents.end())
            event.addArg("agent") = agent->second.name;
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
