// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/simdeventparser.h"

#include "model/formats/eventbatch.h"
#include "model/formats/eventfields.h"
#include "model/formats/timeparse.h"

// The standard headers before the target region, so that what other files share with this one
// (inline and template code) is compiled for any x86-64.
#include <algorithm>
#include <atomic>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iostream>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

// simdjson's On-Demand API is compiled for one instruction set, chosen by the compiler flags; the
// package is built for any x86-64, so this file asks g++ for AVX2 (simdjson's "haswell") and the
// parse runs only where the CPU has it. Elsewhere (and with clang, for the fuzzer) nlohmann reads
// everything, or simdjson's portable fallback does.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define SCOPELINE_SIMDJSON_HASWELL 1
#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,pclmul,lzcnt,popcnt")
#define SIMDJSON_BUILTIN_IMPLEMENTATION haswell // the pragma does not set __AVX2__ for simdjson to see
// Plain inline, not always_inline: the standard templates (std::pair under ondemand::field) stay
// compiled for any x86-64 and may call simdjson's AVX2 code, which they may not inline.
#define simdjson_inline inline
#endif

#include <simdjson.h>

namespace scopeline {

namespace {

using namespace simdjson;
using eventfields::Scalar;
using Type = ondemand::json_type;

enum class Outcome { Ok, Stopped, Rejected };

constexpr int kMaxDepth = 128; // deeper text goes to nlohmann, whose SAX parse keeps no stack of calls
constexpr int64_t kCancelCheckInterval = 1024;

enum class Key : uint8_t { Other, Ph, Name, Cat, Pid, Tid, Id, Ts, Dur, Args };

Key keyOf(std::string_view k)
{
    switch (k.size()) {
    case 2: return k == "ph" ? Key::Ph : k == "ts" ? Key::Ts : k == "id" ? Key::Id : Key::Other;
    case 3:
        return k == "cat"   ? Key::Cat
               : k == "pid" ? Key::Pid
               : k == "tid" ? Key::Tid
               : k == "dur" ? Key::Dur
                            : Key::Other;
    case 4: return k == "name" ? Key::Name : k == "args" ? Key::Args : Key::Other;
    default: return Key::Other;
    }
}

// The key whose text starts at `raw` in the document, read without finding its end: the hot keys are
// 2-4 bytes, so a quote among the first five ends the text keyOf judges (an escaped quote leaves a
// backslash in it, which no hot key has). Key::Other for the rest, whose text keyText reads (the
// padded document can be read past any key).
Key knownKey(const char *raw)
{
    for (std::size_t n = 0; n <= 4; ++n)
        if (raw[n] == '"')
            return keyOf(std::string_view(raw, n));
    return Key::Other;
}

const char *keyName(Key key)
{
    switch (key) {
    case Key::Ph: return "ph";
    case Key::Name: return "name";
    case Key::Cat: return "cat";
    case Key::Pid: return "pid";
    case Key::Tid: return "tid";
    case Key::Id: return "id";
    case Key::Ts: return "ts";
    case Key::Dur: return "dur";
    case Key::Args:
    case Key::Other: break;
    }
    return "";
}

bool isContainer(Type type)
{
    return type == Type::array || type == Type::object;
}

// 1 for a JSON integer without a sign, -1 with one, 0 for anything else (fractions, exponents,
// leading zeros, stray characters: simdjson's number parser judges those).
bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

int plainInteger(std::string_view token)
{
    const bool negative = !token.empty() && token.front() == '-';
    const std::string_view digits = token.substr(negative ? 1 : 0);
    if (digits.empty() || (digits.front() == '0' && digits.size() > 1))
        return 0;
    return std::all_of(digits.begin(), digits.end(), isDigit) ? (negative ? -1 : 1) : 0;
}

// The value of a JSON integer without a sign of at most 18 digits, which surely fits int64, read in one
// pass; false for anything else (a sign, fraction, exponent, leading zero, more digits).
bool smallUnsigned(std::string_view token, uint64_t &value)
{
    if (token.empty() || token.size() > 18 || (token.front() == '0' && token.size() > 1))
        return false;
    value = 0;
    for (const char c : token) {
        if (!isDigit(c))
            return false;
        value = value * 10 + uint64_t(c - '0');
    }
    return true;
}

// An object's fields without ondemand::field: object_iterator hands out each field as a
// simdjson_result<field> assembled on the stack, and reading it back stalled store forwarding (a fifth
// of the load's CPU time). These are object_iterator's steps on the object's own value_iterator (public
// in simdjson; the object holds it as a protected member, reached here through a derived class).
struct ObjectIterator : ondemand::object
{
    using ondemand::object::iter;
};

struct ValueAt : ondemand::value
{
    explicit ValueAt(const ondemand::value_iterator &it) : ondemand::value(it) {}
};

// Reads each event of the array into the batch. Every value is visited, skipped ones too: On-Demand
// only checks what it is asked for, and nlohmann checks everything.
class EventReader
{
public:
    EventReader(EventBatch &batch, const std::atomic<bool> *cancel) : m_batch(batch), m_cancel(cancel)
    {}

    Outcome events(ondemand::array &items)
    {
        int64_t count = 0;
        for (auto item : items) {
            ondemand::object fields;
            if (item.get_object().get(fields))
                return Outcome::Rejected; // not an object: nlohmann's path counts the skip
            if (const Outcome o = event(fields); o != Outcome::Ok)
                return o;
            if (++count % kCancelCheckInterval == 0 && m_cancel && m_cancel->load(std::memory_order_relaxed))
                return Outcome::Stopped;
        }
        return Outcome::Ok;
    }

private:
    // Calls visit(raw, value) for each field, raw being its key as the document has it (keyText
    // reads it).
    template <typename Visit>
    Outcome forEachField(ondemand::object &object, Visit &&visit)
    {
        ondemand::value_iterator &it = object.*(&ObjectIterator::iter);
        while (it.is_open()) {
            ondemand::raw_json_string raw;
            if (it.error() || it.field_key().get(raw) || it.field_value())
                return Outcome::Rejected;
            ValueAt value(it.child());
            if (const Outcome o = visit(raw, static_cast<ondemand::value &>(value)); o != Outcome::Ok)
                return o;
            bool more = false;
            if (it.skip_child() || it.has_next_field().get(more))
                return Outcome::Rejected;
        }
        return Outcome::Ok;
    }

    // A key's text: without escapes, taken from the document as it is (stage 1 has checked its UTF-8);
    // with them (rare), unescaped by a field, which also rejects a bad escape as nlohmann does.
    static bool keyText(ondemand::raw_json_string raw, ondemand::value &value, std::string_view &key)
    {
        if (plainKey(raw.raw(), key))
            return true;
        ondemand::field escaped;
        escaped.first = raw;
        escaped.second = value;
        return !escaped.unescaped_key().get(key);
    }

    // forEachField on an object value, for a visit(key text, value).
    template <typename Visit>
    Outcome fieldsOf(ondemand::value &v, Visit &&visit)
    {
        ondemand::object fields;
        if (v.get_object().get(fields))
            return Outcome::Rejected;
        return forEachField(fields, [&](ondemand::raw_json_string raw, ondemand::value &value) {
            std::string_view key;
            return keyText(raw, value, key) ? visit(key, value) : Outcome::Rejected;
        });
    }

    // Calls visit(element) for each element of an array value.
    template <typename Visit>
    Outcome elementsOf(ondemand::value &v, Visit &&visit)
    {
        ondemand::array items;
        if (v.get_array().get(items))
            return Outcome::Rejected;
        for (auto item : items) {
            ondemand::value element;
            if (item.get(element))
                return Outcome::Rejected;
            if (const Outcome o = visit(element); o != Outcome::Ok)
                return o;
        }
        return Outcome::Ok;
    }

    Outcome event(ondemand::object &fields)
    {
        EventBatch::Event &e = m_batch.beginEvent();
        const Outcome o = forEachField(fields, [&](ondemand::raw_json_string raw, ondemand::value &v) {
            ++e.fields;
            Key k = knownKey(raw.raw());
            if (std::string_view key; k == Key::Other) { // perhaps one of them with escapes
                if (!keyText(raw, v, key))
                    return Outcome::Rejected;
                k = keyOf(key);
            }
            return k == Key::Args ? args(v, e) : k == Key::Other ? skip(v, 1) : eventField(k, v, e);
        });
        if (o == Outcome::Ok)
            m_batch.endEvent();
        return o;
    }

    Outcome eventField(Key k, ondemand::value &v, EventBatch::Event &e)
    {
        Type type;
        if (v.type().get(type))
            return Outcome::Rejected;
        if (type == Type::number && plainNumberField(k, v, e))
            return Outcome::Ok;
        if (isContainer(type)) {
            e.badField = keyName(k); // e.g. "pid": {...}
            return skip(v, 1);
        }
        Scalar value;
        if (!scalar(v, type, value))
            return Outcome::Rejected;
        switch (k) {
        case Key::Ph: e.ph = eventfields::phase(value); break;
        case Key::Name: e.name = m_batch.intern(value.text); break;
        case Key::Cat: e.cat = internRecent(k, value.text); break;
        case Key::Pid:
        case Key::Tid:
        case Key::Id: {
            std::string_view text;
            if (!eventfields::idText(value, m_number, text))
                e.badField = keyName(k);
            else
                idField(k, e) = internRecent(k, text);
            break;
        }
        case Key::Ts: e.tsState = eventfields::micros(value, e.ts); break;
        case Key::Dur: e.durState = eventfields::micros(value, e.dur); break;
        case Key::Args:
        case Key::Other: break;
        }
        return Outcome::Ok;
    }

    static uint32_t &idField(Key k, EventBatch::Event &e)
    {
        return k == Key::Pid ? e.pid : k == Key::Tid ? e.tid : e.id;
    }

    // The usual numbers of the hot fields straight from their token: ts and dur in the forms
    // plainMicrosToNs reads, ids as unsigned integers (their text as idText writes it). Other
    // numbers, and fields where this is false, go through scalar().
    bool plainNumberField(Key k, ondemand::value &v, EventBatch::Event &e)
    {
        const std::string_view token = trimmedToken(v);
        if (token.size() > 1 && token[0] == '0' && token[1] != '.')
            return false; // a leading zero: not JSON, which simdjson's parse of it reports
        switch (k) {
        case Key::Ts:
        case Key::Dur: {
            int64_t &ns = k == Key::Ts ? e.ts : e.dur;
            if (!plainMicrosToNs(token, ns))
                return false;
            (k == Key::Ts ? e.tsState : e.durState) = RawEvent::Field::Ok;
            return true;
        }
        case Key::Pid:
        case Key::Tid:
        case Key::Id: {
            uint64_t value = 0;
            if (!smallUnsigned(token, value))
                return false;
            idField(k, e) = internRecent(k, token);
            return true;
        }
        default: return false;
        }
    }

    // Cat, pid, tid and id take a few values, events of a few kinds interleaving (a CPU op, its launch
    // call, a flow, a kernel): the last ids of each are tried first.
    uint32_t internRecent(Key k, std::string_view text)
    {
        Recent &recent = m_recent[std::size_t(k)];
        for (const uint32_t id : recent.ids)
            if (sameText(m_batch.string(id), text))
                return id;
        const uint32_t id = m_batch.intern(text);
        recent.ids[recent.next++ % std::size(recent.ids)] = id;
        return id;
    }

    Outcome args(ondemand::value &v, EventBatch::Event &e)
    {
        Type type;
        if (v.type().get(type))
            return Outcome::Rejected;
        if (type != Type::object)
            return skip(v, 1);
        const TraceDetail detail = m_batch.detail();
        return fieldsOf(v, [&](std::string_view key, ondemand::value &argValue) {
            const bool kept = eventfields::keepsArg(detail, key);
            if (!kept && !eventfields::isCorrelationArg(key))
                return skip(argValue, 2);
            if (argValue.type().get(type))
                return Outcome::Rejected;
            if (isContainer(type)) {
                std::string &out = m_batch.beginArg(m_batch.intern(key));
                const std::size_t base = out.size();
                out.push_back(type == Type::array ? '[' : '{');
                if (nested(argValue, type, out, base, 3) != Outcome::Ok)
                    return Outcome::Rejected;
                m_batch.endArg();
                return Outcome::Ok;
            }
            Scalar value;
            if (!scalar(argValue, type, value))
                return Outcome::Rejected;
            eventfields::correlationArg(key, value, e);
            if (kept) {
                m_batch.beginArg(m_batch.intern(key)).append(value.text);
                m_batch.endArg();
            }
            return Outcome::Ok;
        });
    }

    // A nested arg value as compact JSON, as ChromeTraceHandler writes it: out[base] holds its opening
    // bracket; past kMaxNestedArgText bytes only separators are written.
    Outcome nested(ondemand::value &v, Type type, std::string &out, std::size_t base, int depth)
    {
        if (depth > kMaxDepth)
            return Outcome::Rejected;
        const auto room = [&] { return out.size() - base <= eventfields::kMaxNestedArgText; };
        bool first = true;
        const auto separate = [&] {
            if (!first)
                out.push_back(',');
            first = false;
        };
        const auto element = [&](ondemand::value &value) {
            separate();
            return nestedElement(value, out, base, depth);
        };
        const auto field = [&](std::string_view key, ondemand::value &value) {
            separate();
            if (room()) {
                eventfields::appendJsonString(out, key);
                out.push_back(':');
            }
            return nestedElement(value, out, base, depth);
        };
        if ((type == Type::array ? elementsOf(v, element) : fieldsOf(v, field)) != Outcome::Ok)
            return Outcome::Rejected;
        if (room())
            out.push_back(type == Type::array ? ']' : '}');
        return Outcome::Ok;
    }

    Outcome nestedElement(ondemand::value &v, std::string &out, std::size_t base, int depth)
    {
        const bool room = out.size() - base <= eventfields::kMaxNestedArgText;
        Type type;
        if (v.type().get(type))
            return Outcome::Rejected;
        if (isContainer(type)) {
            if (room)
                out.push_back(type == Type::array ? '[' : '{');
            return nested(v, type, out, base, depth + 1);
        }
        Scalar value;
        if (!scalar(v, type, value))
            return Outcome::Rejected;
        if (room) {
            if (value.type == Scalar::String)
                eventfields::appendJsonString(out, value.text);
            else
                out.append(value.text);
        }
        return Outcome::Ok;
    }

    // Checks a value whose content is not kept.
    Outcome skip(ondemand::value &v, int depth)
    {
        Type type;
        if (depth > kMaxDepth || v.type().get(type))
            return Outcome::Rejected;
        const auto element = [&](ondemand::value &value) { return skip(value, depth + 1); };
        if (type == Type::array)
            return elementsOf(v, element);
        if (type == Type::object)
            return fieldsOf(v, [&](std::string_view, ondemand::value &value) { return element(value); });
        Scalar value;
        return scalar(v, type, value) ? Outcome::Ok : Outcome::Rejected;
    }

    // The first '"' or '\\' from p on, in a string of the padded document (so reading past its end is
    // safe): 32 bytes at a time where simdjson runs on AVX2.
    static const char *quoteOrBackslash(const char *p)
    {
#ifdef SCOPELINE_SIMDJSON_HASWELL
        const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\');
        for (;; p += 32) {
            const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
            const auto found = uint32_t(_mm256_movemask_epi8(
                _mm256_or_si256(_mm256_cmpeq_epi8(bytes, quote), _mm256_cmpeq_epi8(bytes, backslash))));
            if (found)
                return p + __builtin_ctz(found);
        }
#else
        while (*p != '"' && *p != '\\')
            ++p;
        return p;
#endif
    }

    // The text of a string token (trimmedToken: its quotes included), when it holds no backslash:
    // then the first quote or backslash after the opening quote is the token's last byte.
    static bool plainString(std::string_view token, std::string_view &text)
    {
        if (token.size() < 2 || token.back() != '"')
            return false;
        text = token.substr(1, token.size() - 2);
        return quoteOrBackslash(token.data() + 1) == &token.back();
    }

    // A key from its first byte (past the opening quote) to its closing quote, when it holds no
    // backslash.
    static bool plainKey(const char *start, std::string_view &key)
    {
        const char *end = quoteOrBackslash(start);
        key = std::string_view(start, std::size_t(end - start));
        return *end == '"';
    }

    // A scalar as nlohmann's SAX parser reports it (see eventfields::Scalar). False where simdjson
    // rejects it, or might read it differently from nlohmann (a non-finite number).
    bool scalar(ondemand::value &v, Type type, Scalar &out)
    {
        switch (type) {
        case Type::string: {
            // The value is consumed either way: On-Demand skips an unread string followed by ':' as
            // if it were a key, and would accept {"a":"x":1}.
            out.type = Scalar::String;
            ondemand::raw_json_string raw;
            if (plainString(trimmedToken(v), out.text))
                return !v.get_raw_json_string().get(raw);
            return !v.get_string().get(out.text);
        }
        case Type::number: return number(v, out);
        case Type::boolean: {
            bool b = false;
            if (v.get_bool().get(b))
                return false;
            out = {Scalar::Bool, b ? "true" : "false", b, double(b)};
            return true;
        }
        case Type::null: {
            bool isNull = false;
            if (v.is_null().get(isNull) || !isNull)
                return false;
            out = {Scalar::Null, "null"};
            return true;
        }
        case Type::array:
        case Type::object: break;
        }
        return false;
    }

    // nlohmann's kinds of number: an integer token that fits int64 is Integer (its text as to_chars
    // writes it: "-0" reads "0"), anything else a double with its token text.
    bool number(ondemand::value &v, Scalar &out)
    {
        const std::string_view token = trimmedToken(v);
        const bool negative = !token.empty() && token.front() == '-';
        if (uint64_t magnitude = 0; smallUnsigned(token.substr(negative ? 1 : 0), magnitude)) {
            // most numbers; longer integers are judged by from_chars below
            const int64_t integer = negative ? -int64_t(magnitude) : int64_t(magnitude);
            out = {Scalar::Integer, integer == 0 ? std::string_view("0") : token, integer, double(integer)};
            return true;
        }
        const char *first = token.data(), *last = token.data() + token.size();
        if (const int kind = plainInteger(token); kind < 0) {
            int64_t integer = 0;
            if (std::from_chars(first, last, integer).ec == std::errc()) {
                const std::string_view text = integer == 0 ? std::string_view("0") : token;
                out = {Scalar::Integer, text, integer, double(integer)};
                return true;
            }
        } else if (kind > 0) {
            uint64_t integer = 0;
            if (std::from_chars(first, last, integer).ec == std::errc()) {
                if (integer <= uint64_t(INT64_MAX))
                    out = {Scalar::Integer, token, int64_t(integer), double(integer)};
                else
                    out = {Scalar::Float, token, 0, double(integer)};
                return true;
            }
        }
        double real = 0;
        if (v.get_double().get(real) || !std::isfinite(real))
            return false; // nlohmann's out-of-range handling decides
        out = {Scalar::Float, token, 0, real};
        return true;
    }

    static std::string_view trimmedToken(ondemand::value &v)
    {
        std::string_view token = v.raw_json_token();
        while (!token.empty() && isBlank(token.back()))
            token.remove_suffix(1);
        return token;
    }

    EventBatch &m_batch;
    const std::atomic<bool> *m_cancel;
    char m_number[32];
    struct Recent
    {
        uint32_t ids[4] = {}; // the ids internRecent gave last
        uint32_t next = 0;    // the one to replace
    };
    Recent m_recent[std::size_t(Key::Args) + 1]; // by Key
};

FastParse parseWithSimdjson(std::string &text, EventBatch &batch, const std::atomic<bool> *cancel)
{
    thread_local ondemand::parser parser; // one per parsing thread, its buffers reused
    // Room to spare, so that chunks a little longer than the last do not reallocate its buffers.
    if (text.size() > parser.capacity() && parser.allocate(text.size() + text.size() / 4))
        return FastParse::Refused;
    static_assert(kFastParsePadding == SIMDJSON_PADDING);
    if (text.capacity() < text.size() + kFastParsePadding)
        text.reserve(text.size() + kFastParsePadding);
    ondemand::document document;
    if (parser.iterate(padded_string_view(text.data(), text.size(), text.capacity())).get(document))
        return FastParse::Refused;
    ondemand::array events;
    if (document.get_array().get(events))
        return FastParse::Refused;
    EventReader reader(batch, cancel);
    const Outcome outcome = reader.events(events);
    if (outcome == Outcome::Stopped)
        return FastParse::Cancelled;
    const char *trailing = nullptr; // text after the array: an error, where nlohmann names it
    if (outcome == Outcome::Ok && document.current_location().get(trailing) != SUCCESS)
        return FastParse::Done;
    return FastParse::Refused;
}

} // namespace

} // namespace scopeline

#ifdef SCOPELINE_SIMDJSON_HASWELL
#pragma GCC pop_options
#endif

namespace scopeline {

bool fastEventParserAvailable()
{
#ifdef SCOPELINE_SIMDJSON_HASWELL
    static const bool haswell = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                                __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("pclmul") &&
                                __builtin_cpu_supports("popcnt");
    return haswell;
#else
    return true;
#endif
}

FastParse parseEventsFast(std::string &text, EventBatch &batch, const std::atomic<bool> *cancel)
{
    return fastEventParserAvailable() ? parseWithSimdjson(text, batch, cancel) : FastParse::Refused;
}

} // namespace scopeline
