// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a trace event's fields are read from JSON scalars, shared by the two event parsers (nlohmann's
// SAX handler and the fast event reader) so that both give the same events.

#include "model/formats/rawevent.h"
#include "model/tracedata/tracedata.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace scopeline::eventfields {

// Nested arg values (shapes, lists) are for display only: their text stops growing past this.
constexpr std::size_t kMaxNestedArgText = 4096;

// A JSON scalar as nlohmann reports it: integers that fit int64 are Integer; other numbers Float,
// with their text as written; `text` of a Bool or Null is its literal.
struct Scalar
{
    enum Type : uint8_t { Integer, Float, String, Bool, Null } type;
    std::string_view text;
    int64_t integer = 0;
    double real = 0;
};

// "ph": one character, '?' for anything else.
char phase(const Scalar &value);
// "pid", "tid", "id": 6, 6.0, "6" and " 6 " all read "6"; other strings trimmed. False for a Bool or
// Null. The text may point into buffer.
bool idText(const Scalar &value, char (&buffer)[32], std::string_view &text);
// "ts", "dur": microseconds to ns.
RawEvent::Field micros(const Scalar &value, int64_t &ns);
// PyTorch's per-event bookkeeping ids: on nearly every CPU event, telling a performance engineer
// nothing, and most of the args table of a large trace. Scalar values of these are not kept.
bool isBookkeepingArg(std::string_view key);
// Whether a parse at this detail keeps an arg: Full all but the bookkeeping ones, Figures only those
// a figure reads (metadata names and sort indexes, JAX op paths and hlo_op, rocmProfileData's desc,
// a collective's name, message size and group). Correlation ids are read into their field either way.
bool keepsArg(TraceDetail detail, std::string_view key);
// Whether a key is one of the two that correlationArg reads.
inline bool isCorrelationArg(std::string_view key) { return key == "correlation" || key == "correlation_id"; }
// args.correlation / args.correlation_id: a non-negative integer, however written.
bool correlation(const Scalar &value, int64_t &id);
// An arg of an event (RawEvent or EventBatch::Event): correlation and correlation_id set their field,
// and correlation_id is noted as seen; other keys change nothing.
template <typename Event>
void correlationArg(std::string_view key, const Scalar &value, Event &e)
{
    const bool isCorrelation = key == "correlation", isCorrelationId = key == "correlation_id";
    if (!isCorrelation && !isCorrelationId)
        return;
    e.hasCorrelationIdKey |= isCorrelationId;
    correlation(value, isCorrelation ? e.correlation : e.correlationId);
}
// Text as a JSON string: quotes and backslashes escaped, control bytes as blanks.
void appendJsonString(std::string &out, std::string_view text);

} // namespace scopeline::eventfields
