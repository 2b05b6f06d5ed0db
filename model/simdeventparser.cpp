// SPDX-License-Identifier: GPL-3.0-or-later
#include "simdeventparser.h"

#include "chrometracehandler.h"

// The standard headers before the target region, so that what other files share with this one
// (inline and template code) is compiled for any x86-64.
#include <algorithm>
#include <atomic>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iostream>
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

enum class Outcome { Ok, Stopped, Rejected };

// Walks every value (skipped ones too: On-Demand only checks what it is asked for, and nlohmann
// checks everything) and calls the handler as nlohmann's SAX parser does.
class Walker
{
public:
    explicit Walker(ChromeTraceHandler &handler) : m_handler(handler) {}

    Outcome value(ondemand::value v)
    {
        ondemand::json_type type;
        if (v.type().get(type))
            return Outcome::Rejected;
        switch (type) {
        case ondemand::json_type::array: return array(v);
        case ondemand::json_type::object: return object(v);
        case ondemand::json_type::number: return number(v);
        case ondemand::json_type::string: {
            std::string_view text;
            if (v.get_string().get(text))
                return Outcome::Rejected;
            m_text.assign(text);
            return go(m_handler.string(m_text));
        }
        case ondemand::json_type::boolean: {
            bool b = false;
            if (v.get_bool().get(b))
                return Outcome::Rejected;
            return go(m_handler.boolean(b));
        }
        case ondemand::json_type::null: {
            bool isNull = false;
            if (v.is_null().get(isNull) || !isNull)
                return Outcome::Rejected;
            return go(m_handler.null());
        }
        }
        return Outcome::Rejected;
    }

    Outcome array(ondemand::value v)
    {
        const Nesting nesting(m_depth);
        ondemand::array items;
        if (m_depth > kMaxDepth)
            return Outcome::Rejected;
        if (v.get_array().get(items))
            return Outcome::Rejected;
        return elements(items);
    }

    Outcome elements(ondemand::array &items)
    {
        if (!m_handler.start_array(std::size_t(-1)))
            return Outcome::Stopped;
        for (auto item : items) {
            ondemand::value element;
            if (std::move(item).get(element))
                return Outcome::Rejected;
            if (const Outcome o = value(element); o != Outcome::Ok)
                return o;
        }
        return go(m_handler.end_array());
    }

private:
    // Deeper text goes to nlohmann, whose SAX parse keeps no stack of calls.
    static constexpr int kMaxDepth = 128;
    struct Nesting
    {
        int &depth;
        explicit Nesting(int &d) : depth(++d) {}
        ~Nesting() { --depth; }
    };

    static Outcome go(bool handlerContinues) { return handlerContinues ? Outcome::Ok : Outcome::Stopped; }

    Outcome object(ondemand::value v)
    {
        const Nesting nesting(m_depth);
        ondemand::object fields;
        if (m_depth > kMaxDepth)
            return Outcome::Rejected;
        if (v.get_object().get(fields))
            return Outcome::Rejected;
        if (!m_handler.start_object(std::size_t(-1)))
            return Outcome::Stopped;
        for (auto field : fields) {
            std::string_view key;
            ondemand::value fieldValue;
            if (field.unescaped_key().get(key) || field.value().get(fieldValue))
                return Outcome::Rejected;
            m_text.assign(key);
            if (!m_handler.key(m_text))
                return Outcome::Stopped;
            if (const Outcome o = value(fieldValue); o != Outcome::Ok)
                return o;
        }
        return go(m_handler.end_object());
    }

    // nlohmann's kinds of number: a non-negative integer token that fits 64 bits is unsigned, a
    // negative one signed, anything else a double with its token text.
    Outcome number(ondemand::value v)
    {
        std::string_view token = v.raw_json_token();
        while (!token.empty() && (token.back() == ' ' || token.back() == '\t' || token.back() == '\n' ||
                                  token.back() == '\r'))
            token.remove_suffix(1);
        if (const int kind = plainInteger(token)) {
            const char *first = token.data(), *last = token.data() + token.size();
            if (kind < 0) {
                int64_t integer = 0;
                if (const auto r = std::from_chars(first, last, integer); r.ec == std::errc())
                    return go(m_handler.number_integer(integer));
            } else {
                uint64_t integer = 0;
                if (const auto r = std::from_chars(first, last, integer); r.ec == std::errc())
                    return go(m_handler.number_unsigned(integer));
            }
        }
        double real = 0;
        if (v.get_double().get(real) || !std::isfinite(real))
            return Outcome::Rejected; // nlohmann's out-of-range handling decides
        m_text.assign(token);
        return go(m_handler.number_float(real, m_text));
    }

    // 1 for a JSON integer without a sign, -1 with one, 0 for anything else (fractions, exponents,
    // leading zeros, stray characters: simdjson's number parser judges those).
    static int plainInteger(std::string_view token)
    {
        const bool negative = !token.empty() && token.front() == '-';
        const std::string_view digits = token.substr(negative ? 1 : 0);
        if (digits.empty() || (digits.front() == '0' && digits.size() > 1))
            return 0;
        for (const char c : digits)
            if (c < '0' || c > '9')
                return 0;
        return negative ? -1 : 1;
    }

    ChromeTraceHandler &m_handler;
    std::string m_text; // the current string, key or number text; the handler may swap it away
    int m_depth = 0;
};

bool parseWithSimdjson(std::string &text, ChromeTraceHandler &handler)
{
    thread_local ondemand::parser parser; // one per parsing thread, its buffers reused
    // Room to spare, so that chunks a little longer than the last do not reallocate its buffers.
    if (text.size() > parser.capacity() && parser.allocate(text.size() + text.size() / 4))
        return false;
    if (text.capacity() < text.size() + SIMDJSON_PADDING)
        text.reserve(text.size() + SIMDJSON_PADDING);
    ondemand::document document;
    if (parser.iterate(padded_string_view(text.data(), text.size(), text.capacity())).get(document))
        return false;
    ondemand::array events;
    if (document.get_array().get(events))
        return false;
    Walker walker(handler);
    const Outcome outcome = walker.elements(events);
    const char *trailing = nullptr; // text after the array: an error, where nlohmann names it
    return outcome == Outcome::Stopped ||
           (outcome == Outcome::Ok && document.current_location().get(trailing) != SUCCESS);
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

bool parseEventsFast(std::string &text, ChromeTraceHandler &handler)
{
    return fastEventParserAvailable() && parseWithSimdjson(text, handler);
}

} // namespace scopeline
