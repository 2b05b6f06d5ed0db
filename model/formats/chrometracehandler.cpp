// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/chrometracehandler.h"

#include "model/formats/eventfields.h"
#include "model/formats/eventsink.h"
#include "model/formats/jsonerror.h"

#include <QCoreApplication>

#include <charconv>

namespace scopeline {

namespace {

using eventfields::Scalar;

constexpr int64_t kCancelCheckInterval = 1024;

} // namespace

ChromeTraceHandler::ChromeTraceHandler(EventSink &sink, const std::atomic<bool> *cancel)
    : m_sink(sink), m_cancel(cancel)
{}

bool ChromeTraceHandler::null()
{
    return scalar({Scalar::Null, "null"});
}

bool ChromeTraceHandler::boolean(bool value)
{
    return scalar({Scalar::Bool, value ? "true" : "false", value, double(value)});
}

bool ChromeTraceHandler::number_integer(json::number_integer_t value)
{
    if (m_skipDepth)
        return true;
    const auto [end, ec] = std::to_chars(m_number, m_number + sizeof(m_number), value);
    return scalar({Scalar::Integer, std::string_view(m_number, std::size_t(end - m_number)), value, double(value)});
}

bool ChromeTraceHandler::number_unsigned(json::number_unsigned_t value)
{
    if (m_skipDepth)
        return true;
    const auto [end, ec] = std::to_chars(m_number, m_number + sizeof(m_number), value);
    const std::string_view text(m_number, std::size_t(end - m_number));
    if (value <= uint64_t(INT64_MAX))
        return scalar({Scalar::Integer, text, int64_t(value), double(value)});
    return scalar({Scalar::Float, text, 0, double(value)});
}

bool ChromeTraceHandler::number_float(json::number_float_t value, const json::string_t &text)
{
    return scalar({Scalar::Float, text, 0, value});
}

bool ChromeTraceHandler::string(json::string_t &value)
{
    return scalar({Scalar::String, value});
}

bool ChromeTraceHandler::binary(json::binary_t &)
{
    return true;
}

bool ChromeTraceHandler::scalar(const Scalar &value)
{
    if (m_skipDepth)
        return true;
    if (m_nested) {
        appendNested(value.type == Scalar::String, value.text);
    } else if (m_inArgs && m_depth == m_eventsDepth + 2) {
        argValue(value);
    } else if (m_eventsDepth && m_depth == m_eventsDepth + 1) {
        eventField(value);
    } else if (m_eventsDepth && m_depth == m_eventsDepth) {
        m_sink.skip(QCoreApplication::translate("ChromeTraceHandler", "event is not an object"));
    }
    return true;
}

void ChromeTraceHandler::eventField(const Scalar &value)
{
    RawEvent &e = m_event;
    switch (m_field) {
    case Field::Ignored:
    case Field::Args:
        return;
    case Field::Ph:
        e.ph = eventfields::phase(value);
        return;
    case Field::Name:
        e.name.assign(value.text);
        return;
    case Field::Cat:
        e.cat.assign(value.text);
        return;
    case Field::Pid:
    case Field::Tid:
    case Field::Id: {
        std::string_view text;
        if (!eventfields::idText(value, m_number, text)) {
            e.badField = fieldName(m_field);
            return;
        }
        (m_field == Field::Pid ? e.pid : m_field == Field::Tid ? e.tid : e.id).assign(text);
        return;
    }
    case Field::Ts:
        e.tsState = eventfields::micros(value, e.ts);
        return;
    case Field::Dur:
        e.durState = eventfields::micros(value, e.dur);
        return;
    }
}

void ChromeTraceHandler::argValue(const Scalar &value)
{
    eventfields::correlationArg(m_argKey, value, m_event);
    if (eventfields::keepsArg(m_sink.detail(), m_argKey))
        m_event.addArg(m_argKey).assign(value.text);
}

void ChromeTraceHandler::appendNested(bool isString, std::string_view text)
{
    if (m_nestedAfterKey) {
        m_nestedAfterKey = false;
    } else {
        if (!m_nestedFirst.back())
            m_nested->push_back(',');
        m_nestedFirst.back() = false;
    }
    if (m_nested->size() > eventfields::kMaxNestedArgText)
        return;
    if (isString)
        eventfields::appendJsonString(*m_nested, text);
    else
        m_nested->append(text);
}

bool ChromeTraceHandler::start_object(std::size_t)
{
    return startContainer('{');
}

bool ChromeTraceHandler::start_array(std::size_t)
{
    return startContainer('[');
}

bool ChromeTraceHandler::startContainer(char open)
{
    const int depth = m_depth++;
    if (m_skipDepth)
        return true;
    if (depth == 0) {
        if (open == '[')
            m_eventsDepth = 1; // a bare array of events
        else
            m_topLevelObject = true;
        return true;
    }
    if (depth == 1 && m_topLevelObject) {
        if (open == '[' && m_topKey == "traceEvents" && m_eventsDepth == 0)
            m_eventsDepth = 2;
        else
            m_skipDepth = m_depth;
        return true;
    }
    if (m_eventsDepth && depth == m_eventsDepth) {
        if (open == '{') {
            m_event.clear();
            m_field = Field::Ignored;
        } else {
            m_sink.skip(QCoreApplication::translate("ChromeTraceHandler", "event is not an object"));
            m_skipDepth = m_depth;
        }
        return true;
    }
    if (m_eventsDepth && depth == m_eventsDepth + 1) {
        if (m_field == Field::Args && open == '{')
            m_inArgs = true;
        else
            m_skipDepth = m_depth; // stacks, sub-objects of other fields
        if (m_field != Field::Args && m_field != Field::Ignored)
            m_event.badField = fieldName(m_field); // e.g. "pid": {...}
        return true;
    }
    if (m_inArgs && depth == m_eventsDepth + 2) {
        if (!eventfields::keepsArg(m_sink.detail(), m_argKey)) {
            m_skipDepth = m_depth;
            return true;
        }
        m_nested = &m_event.addArg(m_argKey);
        m_nested->push_back(open);
        m_nestedFirst.assign(1, true);
        m_nestedAfterKey = false;
        return true;
    }
    if (m_nested) {
        appendNested(false, std::string_view(&open, 1));
        m_nestedFirst.push_back(true);
        return true;
    }
    m_skipDepth = m_depth;
    return true;
}

bool ChromeTraceHandler::key(json::string_t &key)
{
    if (m_skipDepth)
        return true;
    if (m_nested) {
        if (!m_nestedFirst.back())
            m_nested->push_back(',');
        m_nestedFirst.back() = false;
        if (m_nested->size() <= eventfields::kMaxNestedArgText) {
            eventfields::appendJsonString(*m_nested, key);
            m_nested->push_back(':');
        }
        m_nestedAfterKey = true;
    } else if (m_inArgs && m_depth == m_eventsDepth + 2) {
        m_argKey.swap(key);
    } else if (m_eventsDepth && m_depth == m_eventsDepth + 1) {
        ++m_event.fields;
        const std::string_view k = key;
        m_field = k == "ph"     ? Field::Ph
                  : k == "name" ? Field::Name
                  : k == "cat"  ? Field::Cat
                  : k == "pid"  ? Field::Pid
                  : k == "tid"  ? Field::Tid
                  : k == "ts"   ? Field::Ts
                  : k == "dur"  ? Field::Dur
                  : k == "args" ? Field::Args
                  : k == "id"   ? Field::Id
                                : Field::Ignored;
    } else if (m_depth == 1 && m_topLevelObject) {
        m_topKey.swap(key);
        if (m_topKey == "schemaVersion" || m_topKey == "deviceProperties")
            m_sink.setKinetoMarker();
    }
    return true;
}

bool ChromeTraceHandler::end_object()
{
    return endContainer('}');
}

bool ChromeTraceHandler::end_array()
{
    return endContainer(']');
}

bool ChromeTraceHandler::endContainer(char close)
{
    const int depth = --m_depth;
    if (m_skipDepth) {
        if (m_depth < m_skipDepth)
            m_skipDepth = 0;
        return true;
    }
    if (m_nested) {
        if (m_nested->size() <= eventfields::kMaxNestedArgText)
            m_nested->push_back(close);
        m_nestedFirst.pop_back();
        if (m_nestedFirst.empty())
            m_nested = nullptr;
        return true;
    }
    if (m_inArgs && depth == m_eventsDepth + 1) {
        m_inArgs = false;
        return true;
    }
    if (m_eventsDepth && depth == m_eventsDepth && close == '}')
        return finishEvent();
    return true;
}

bool ChromeTraceHandler::finishEvent()
{
    m_sink.add(m_event);
    if (++m_events % kCancelCheckInterval == 0 && m_cancel && m_cancel->load(std::memory_order_relaxed)) {
        m_cancelled = true;
        return false;
    }
    return true;
}

const char *ChromeTraceHandler::fieldName(Field field)
{
    switch (field) {
    case Field::Ph: return "ph";
    case Field::Name: return "name";
    case Field::Cat: return "cat";
    case Field::Pid: return "pid";
    case Field::Tid: return "tid";
    case Field::Id: return "id";
    case Field::Ts: return "ts";
    case Field::Dur: return "dur";
    case Field::Args:
    case Field::Ignored: break;
    }
    return "";
}

bool ChromeTraceHandler::parse_error(std::size_t position, const std::string &,
                                     const nlohmann::detail::exception &ex)
{
    m_error = jsonErrorMessage(position, ex);
    m_errorId = ex.id;
    return false;
}

} // namespace scopeline
