// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// nlohmann::json SAX handler for Chrome trace event JSON (JAX, PyTorch/Kineto, rocprof, Perfetto):
// reads the event array as it streams past and hands each event to an EventSink.

#include "model/formats/eventfields.h"
#include "model/formats/rawevent.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <atomic>
#include <string>
#include <vector>

namespace scopeline {

class EventSink;

class ChromeTraceHandler
{
public:
    using json = nlohmann::json;

    ChromeTraceHandler(EventSink &sink, const std::atomic<bool> *cancel);

    // Why parsing stopped early; empty after a successful parse.
    QString error() const { return m_error; }
    // nlohmann's exception id of the error (406: a number out of range, such as 1e400), 0 when none.
    int errorId() const { return m_errorId; }
    bool cancelled() const { return m_cancelled; }
    // True when the document held an event array at all.
    bool sawEvents() const { return m_eventsDepth > 0; }

    bool null();
    bool boolean(bool value);
    bool number_integer(json::number_integer_t value);
    bool number_unsigned(json::number_unsigned_t value);
    bool number_float(json::number_float_t value, const json::string_t &text);
    bool string(json::string_t &value);
    bool binary(json::binary_t &value);
    bool start_object(std::size_t elements);
    bool key(json::string_t &key);
    bool end_object();
    bool start_array(std::size_t elements);
    bool end_array();
    bool parse_error(std::size_t position, const std::string &lastToken,
                     const nlohmann::detail::exception &ex);

private:
    enum class Field : uint8_t { Ignored, Ph, Name, Cat, Pid, Tid, Id, Ts, Dur, Args };
    static const char *fieldName(Field field);
    bool scalar(const eventfields::Scalar &value);
    void eventField(const eventfields::Scalar &value);
    void argValue(const eventfields::Scalar &value);
    bool startContainer(char open);
    bool endContainer(char close);
    bool finishEvent();
    void appendNested(bool isString, std::string_view text);

    EventSink &m_sink;
    const std::atomic<bool> *m_cancel;
    RawEvent m_event;
    int m_depth = 0;
    int m_eventsDepth = 0; // depth inside the event array, 0 until it is found
    int m_skipDepth = 0;   // ignoring everything until depth drops below this, 0 when not skipping
    bool m_inArgs = false;
    bool m_topLevelObject = false;
    std::string m_topKey;
    Field m_field = Field::Ignored;
    std::string *m_nested = nullptr; // arg value being built from a nested object/array
    std::vector<bool> m_nestedFirst; // per nested level: no element written yet
    bool m_nestedAfterKey = false;
    std::string m_argKey;
    int64_t m_events = 0;
    bool m_cancelled = false;
    QString m_error;
    int m_errorId = 0;
    char m_number[32];
};

} // namespace scopeline
