// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/simdeventparser.h"

#include "model/formats/eventbatch.h"
#include "model/formats/eventfields.h"
#include "model/formats/timeparse.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace scopeline {

namespace {

using eventfields::Scalar;

constexpr int kMaxDepth = 128; // deeper text goes to nlohmann, whose SAX parse keeps no stack of calls
constexpr int64_t kCancelCheckInterval = 1024;
// A number longer than this, or with an exponent, may overflow a double, which nlohmann refuses.
constexpr std::size_t kSurelyFiniteDigits = 300;

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

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// 1 for a JSON integer without a sign, -1 with one, 0 for anything else.
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

// A number token (JSON's grammar) as nlohmann reports it: an integer that fits int64 is Integer (its
// text as to_chars writes it: "-0" reads "0"), anything else a double with its token text. False for a
// number no double holds (nlohmann refuses it, and the caller re-reads the text with nlohmann).
bool numberScalar(std::string_view token, Scalar &out)
{
    const bool negative = token.front() == '-';
    if (uint64_t magnitude = 0; smallUnsigned(token.substr(negative ? 1 : 0), magnitude)) {
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
    const auto [end, ec] = std::from_chars(first, last, real);
    if (ec != std::errc() || end != last || !std::isfinite(real))
        return false;
    out = {Scalar::Float, token, 0, real};
    return true;
}

// The first byte from p on that ends a string's plain run: '"', '\\', a control byte or one above
// 0x7f. The text is read 16 bytes at a time and must be readable that far past its end (the parse's
// padding); a NUL, which std::string puts after its text, stops it there.
const char *stringStop(const char *p)
{
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(' ');
    for (;; p += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        // A signed compare: below ' ' is a control byte or, negative, one above 0x7f.
        const __m128i stops =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)),
                         _mm_cmplt_epi8(bytes, space));
        if (const auto found = unsigned(_mm_movemask_epi8(stops)))
            return p + __builtin_ctz(found);
    }
#else
    while (*p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20 &&
           static_cast<unsigned char>(*p) < 0x80)
        ++p;
    return p;
#endif
}

// The first byte from p on that is not a digit, 16 bytes at a time (timestamps have 16 digits).
const char *pastDigits(const char *p)
{
#ifdef __SSE2__
    for (;; p += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        const __m128i digits = _mm_and_si128(_mm_cmpgt_epi8(bytes, _mm_set1_epi8('0' - 1)),
                                             _mm_cmplt_epi8(bytes, _mm_set1_epi8('9' + 1)));
        if (const auto other = ~unsigned(_mm_movemask_epi8(digits)) & 0xffff)
            return p + __builtin_ctz(other);
    }
#else
    while (isDigit(*p))
        ++p;
    return p;
#endif
}

// The length of the UTF-8 sequence at p, 0 when it is not one nlohmann accepts (RFC 3629: no
// overlong forms, surrogates or code points past U+10FFFF).
int utf8Length(const unsigned char *p)
{
    const auto continuation = [](unsigned char c) { return (c & 0xc0) == 0x80; };
    const unsigned char c = p[0];
    if (c >= 0xc2 && c <= 0xdf)
        return continuation(p[1]) ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        const unsigned char low = c == 0xe0 ? 0xa0 : 0x80, high = c == 0xed ? 0x9f : 0xbf;
        return p[1] >= low && p[1] <= high && continuation(p[2]) ? 3 : 0;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        const unsigned char low = c == 0xf0 ? 0x90 : 0x80, high = c == 0xf4 ? 0x8f : 0xbf;
        return p[1] >= low && p[1] <= high && continuation(p[2]) && continuation(p[3]) ? 4 : 0;
    }
    return 0;
}

// Four hex digits as a code unit, -1 if they are not.
int hexUnit(const char *p)
{
    int unit = 0;
    for (int i = 0; i < 4; ++i) {
        const char c = p[i];
        const int digit = isDigit(c)               ? c - '0'
                          : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                          : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                                   : -1;
        if (digit < 0)
            return -1;
        unit = unit * 16 + digit;
    }
    return unit;
}

void appendUtf8(std::string &out, uint32_t code)
{
    if (code < 0x80) {
        out.push_back(char(code));
    } else if (code < 0x800) {
        out.push_back(char(0xc0 | (code >> 6)));
        out.push_back(char(0x80 | (code & 0x3f)));
    } else if (code < 0x10000) {
        out.push_back(char(0xe0 | (code >> 12)));
        out.push_back(char(0x80 | ((code >> 6) & 0x3f)));
        out.push_back(char(0x80 | (code & 0x3f)));
    } else {
        out.push_back(char(0xf0 | (code >> 18)));
        out.push_back(char(0x80 | ((code >> 12) & 0x3f)));
        out.push_back(char(0x80 | ((code >> 6) & 0x3f)));
        out.push_back(char(0x80 | (code & 0x3f)));
    }
}

// What EventReader::numberToken saw of a number besides its digits.
struct NumberShape
{
    bool sign = false, fraction = false, exponent = false;
    bool integer() const { return !sign && !fraction && !exponent; } // digits alone, no leading zero
};

// Reads each event of the array into the batch, by hand: the events are flat objects of a few known
// keys, which a general parser's index of every structural byte does not pay for. Every value is
// checked as nlohmann would (skipped ones too), and whatever this parse leaves to nlohmann (a number
// no double holds, nesting deeper than 128, an element that is not an object) refuses the text.
class EventReader
{
public:
    EventReader(const std::string &text, EventBatch &batch, const std::atomic<bool> *cancel)
        : m_p(text.c_str()), m_end(text.c_str() + text.size()), m_batch(batch), m_cancel(cancel)
    {}

    EventRun run(std::size_t from, std::size_t cutAt)
    {
        const char *const begin = m_p;
        m_p += from;
        for (int64_t count = 1;; ++count) {
            const char *start = m_p;
            const EventBatch::Mark mark = m_batch.mark();
            blank();
            if (*m_p == '{') {
                ++m_p;
                if (event()) {
                    blank();
                    const auto at = std::size_t(m_p - begin);
                    if (*m_p == ']')
                        return {EventRun::End, at};
                    if (*m_p++ == ',') {
                        if (at >= cutAt)
                            return {EventRun::Cut, at};
                        if (count % kCancelCheckInterval == 0 && m_cancel &&
                            m_cancel->load(std::memory_order_relaxed))
                            return {EventRun::Cancelled, at + 1};
                        continue;
                    }
                }
            }
            m_batch.rollback(mark);
            return {EventRun::More, std::size_t(start - begin)};
        }
    }

    FastParse events()
    {
        if (!take('['))
            return FastParse::Refused;
        blank();
        if (*m_p == ']') {
            ++m_p;
        } else {
            for (int64_t count = 1;; ++count) {
                if (!take('{') || !event())
                    return FastParse::Refused;
                if (count % kCancelCheckInterval == 0 && m_cancel &&
                    m_cancel->load(std::memory_order_relaxed))
                    return FastParse::Cancelled;
                blank();
                if (*m_p == ']') {
                    ++m_p;
                    break;
                }
                if (*m_p++ != ',')
                    return FastParse::Refused;
            }
        }
        blank();
        return m_p == m_end ? FastParse::Done : FastParse::Refused;
    }

private:
    // Past blanks: mostly none or one (after ':' and ','), else a line break and indentation, 16
    // bytes at a time.
    void blank()
    {
        if (isJsonBlank(*m_p) && isJsonBlank(*++m_p))
            blankRun();
    }

    void blankRun()
    {
#ifdef __SSE2__
        for (;; m_p += 16) {
            const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(m_p));
            const __m128i blanks = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(' ')),
                                                             _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\n'))),
                                                _mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('\t')),
                                                             _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\r'))));
            if (const auto other = ~unsigned(_mm_movemask_epi8(blanks)) & 0xffff) {
                m_p += __builtin_ctz(other);
                return;
            }
        }
#else
        while (isJsonBlank(*m_p))
            ++m_p;
#endif
    }

    // Whether the text at the cursor starts with these bytes (the padding past its end is readable).
    template <std::size_t N>
    bool startsWith(const char (&bytes)[N]) const
    {
        return std::memcmp(m_p, bytes, N - 1) == 0;
    }

    bool take(char c)
    {
        blank();
        if (*m_p != c)
            return false;
        ++m_p;
        return true;
    }

    // After an object's '{': calls field(key) with the cursor at each field's value. A key with
    // escapes is unescaped into m_key, so it lasts until the next key is read.
    template <typename Field>
    bool fields(Field &&field)
    {
        blank();
        if (*m_p == '}') {
            ++m_p;
            return true;
        }
        for (;;) {
            std::string_view key;
            if (*m_p != '"' || !string(key, m_key))
                return false;
            if (startsWith(": ")) // the one blank json.dumps and Kineto write, checked at once
                m_p += 2;
            else if (!take(':'))
                return false;
            blank();
            if (!field(key))
                return false;
            if (startsWith(", \"")) { // the next key, as above
                m_p += 2;
                continue;
            }
            blank();
            if (*m_p == '}') {
                ++m_p;
                return true;
            }
            if (*m_p++ != ',')
                return false;
            blank();
        }
    }

    // After an array's '[': calls element() with the cursor at each element.
    template <typename Element>
    bool elements(Element &&element)
    {
        blank();
        if (*m_p == ']') {
            ++m_p;
            return true;
        }
        for (;;) {
            if (!element())
                return false;
            blank();
            if (*m_p == ']') {
                ++m_p;
                return true;
            }
            if (*m_p++ != ',')
                return false;
            blank();
        }
    }

    bool event()
    {
        EventBatch::Event &e = m_batch.beginEvent();
        const bool ok = fields([&](std::string_view key) {
            ++e.fields;
            const Key k = keyOf(key);
            return k == Key::Args ? args(e) : k == Key::Other ? skip(1) : eventField(k, e);
        });
        if (ok)
            m_batch.endEvent();
        return ok;
    }

    bool eventField(Key k, EventBatch::Event &e)
    {
        if (*m_p == '{' || *m_p == '[') {
            e.badField = keyName(k); // e.g. "pid": {...}
            return skip(1);
        }
        if (*m_p == '-' || isDigit(*m_p)) {
            std::string_view token;
            NumberShape shape;
            if (!numberToken(token, &shape))
                return false;
            if (plainNumberField(k, token, shape, e))
                return true;
            Scalar value; // made only here: the hot fields' numbers need none
            if (!numberScalar(token, value))
                return false;
            setField(k, value, e);
            return true;
        }
        Scalar value;
        if (!scalar(value))
            return false;
        setField(k, value, e);
        return true;
    }

    void setField(Key k, const Scalar &value, EventBatch::Event &e)
    {
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
    }

    static uint32_t &idField(Key k, EventBatch::Event &e)
    {
        return k == Key::Pid ? e.pid : k == Key::Tid ? e.tid : e.id;
    }

    // The usual numbers of the hot fields straight from their token: ts and dur in the forms
    // plainMicrosToNs reads, ids as unsigned integers of up to 18 digits, which surely fit int64 (their
    // text as idText writes it). Other numbers, and fields where this is false, go through numberScalar().
    bool plainNumberField(Key k, std::string_view token, NumberShape shape, EventBatch::Event &e)
    {
        switch (k) {
        case Key::Ts:
        case Key::Dur: {
            if (token.size() > 1 && token[0] == '0' && token[1] != '.')
                return false; // "0e3"
            int64_t &ns = k == Key::Ts ? e.ts : e.dur;
            if (!plainMicrosToNs(token, ns))
                return false;
            (k == Key::Ts ? e.tsState : e.durState) = RawEvent::Field::Ok;
            return true;
        }
        case Key::Pid:
        case Key::Tid:
        case Key::Id:
            if (!shape.integer() || token.size() > 18)
                return false;
            idField(k, e) = internRecent(k, token);
            return true;
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

    bool args(EventBatch::Event &e)
    {
        if (*m_p != '{')
            return skip(1);
        ++m_p;
        const TraceDetail detail = m_batch.detail();
        return fields([&](std::string_view key) {
            const bool kept = eventfields::keepsArg(detail, key);
            if (!kept && !eventfields::isCorrelationArg(key))
                return skip(2);
            if (*m_p == '{' || *m_p == '[') {
                std::string &out = m_batch.beginArg(m_batch.intern(key));
                const std::size_t base = out.size();
                out.push_back(*m_p);
                if (!nested(out, base, 3))
                    return false;
                m_batch.endArg();
                return true;
            }
            Scalar value;
            if (!scalar(value))
                return false;
            eventfields::correlationArg(key, value, e);
            if (kept) {
                m_batch.beginArg(m_batch.intern(key)).append(value.text);
                m_batch.endArg();
            }
            return true;
        });
    }

    // A nested arg value as compact JSON, as ChromeTraceHandler writes it: out[base] holds its opening
    // bracket, at the cursor; past kMaxNestedArgText bytes only separators are written.
    bool nested(std::string &out, std::size_t base, int depth)
    {
        if (depth > kMaxDepth)
            return false;
        const bool array = *m_p++ == '[';
        const auto room = [&] { return out.size() - base <= eventfields::kMaxNestedArgText; };
        bool first = true;
        const auto separate = [&] {
            if (!first)
                out.push_back(',');
            first = false;
        };
        const bool ok = array ? elements([&] {
            separate();
            return nestedElement(out, base, depth);
        })
                              : fields([&](std::string_view key) {
                                    separate();
                                    if (room()) {
                                        eventfields::appendJsonString(out, key);
                                        out.push_back(':');
                                    }
                                    return nestedElement(out, base, depth);
                                });
        if (ok && room())
            out.push_back(array ? ']' : '}');
        return ok;
    }

    bool nestedElement(std::string &out, std::size_t base, int depth)
    {
        const bool room = out.size() - base <= eventfields::kMaxNestedArgText;
        if (*m_p == '{' || *m_p == '[') {
            if (room)
                out.push_back(*m_p);
            return nested(out, base, depth + 1);
        }
        Scalar value;
        if (!scalar(value))
            return false;
        if (room) {
            if (value.type == Scalar::String)
                eventfields::appendJsonString(out, value.text);
            else
                out.append(value.text);
        }
        return true;
    }

    // Checks a value whose content is not kept: a scalar here, an object or array in skipNested(), a
    // call of its own so that checking a scalar saves no registers for it.
    __attribute__((noinline)) bool skip(int depth)
    {
        switch (*m_p) {
        case '{':
        case '[': return skipNested(depth);
        case '"': {
            std::string_view text;
            return string(text, m_value);
        }
        case 't':
        case 'f':
        case 'n': {
            Scalar value;
            return literal(value);
        }
        default: {
            std::string_view token;
            NumberShape shape;
            if (!numberToken(token, &shape))
                return false;
            if (!shape.exponent && token.size() < kSurelyFiniteDigits)
                return true;
            Scalar value;
            return numberScalar(token, value);
        }
        }
    }

    // Values deeper than kMaxDepth, scalars too, are left to nlohmann: skip() is never called past it.
    __attribute__((noinline)) bool skipNested(int depth)
    {
        const auto element = [&] { return depth < kMaxDepth && skip(depth + 1); };
        if (*m_p++ == '{')
            return fields([&](std::string_view) { return element(); });
        return elements(element);
    }

    // A scalar as nlohmann's SAX parser reports it (see eventfields::Scalar); false for a container.
    bool scalar(Scalar &out)
    {
        switch (*m_p) {
        case '"': out.type = Scalar::String; return string(out.text, m_value);
        case 't':
        case 'f':
        case 'n': return literal(out);
        default: {
            std::string_view token;
            return numberToken(token) && numberScalar(token, out);
        }
        }
    }

    bool literal(Scalar &out)
    {
        if (std::memcmp(m_p, "true", 4) == 0) {
            out = {Scalar::Bool, "true", 1, 1.0};
            m_p += 4;
        } else if (std::memcmp(m_p, "false", 5) == 0) {
            out = {Scalar::Bool, "false", 0, 0.0};
            m_p += 5;
        } else if (std::memcmp(m_p, "null", 4) == 0) {
            out = {Scalar::Null, "null"};
            m_p += 4;
        } else {
            return false;
        }
        return true;
    }

    // A number's token, where JSON's grammar allows one (what follows it is the caller's to check).
    bool numberToken(std::string_view &token, NumberShape *shape = nullptr)
    {
        const char *p = m_p;
        const auto digits = [&p] {
            if (!isDigit(*p))
                return false;
            p = pastDigits(p + 1);
            return true;
        };
        NumberShape seen;
        if (*p == '-') {
            seen.sign = true;
            ++p;
        }
        if (*p == '0')
            ++p;
        else if (!digits())
            return false;
        if (*p == '.') {
            seen.fraction = true;
            ++p;
            if (!digits())
                return false;
        }
        if (*p == 'e' || *p == 'E') {
            seen.exponent = true;
            ++p;
            if (*p == '+' || *p == '-')
                ++p;
            if (!digits())
                return false;
        }
        token = std::string_view(m_p, std::size_t(p - m_p));
        m_p = p;
        if (shape)
            *shape = seen;
        return true;
    }

    // The string at the cursor ('"'): its text as the document has it when it holds no escape or
    // byte past ASCII, else unescaped and checked into scratch (unescaped()). The plain case is inlined
    // where it is read: as a call, saving and restoring the registers the rare case uses cost more
    // than the scan itself.
    __attribute__((always_inline)) bool string(std::string_view &text, std::string &scratch)
    {
        const char *start = m_p + 1;
        const char *stop = stringStop(start);
        if (__builtin_expect(*stop == '"', 1)) {
            text = std::string_view(start, std::size_t(stop - start));
            m_p = stop + 1;
            return true;
        }
        return unescaped(start, stop, text, scratch);
    }

    // The rest of string(): start is past its '"', stop at its first escape, control byte or byte
    // past ASCII.
    __attribute__((noinline)) bool unescaped(const char *start, const char *stop, std::string_view &text,
                                             std::string &scratch)
    {
        scratch.assign(start, stop);
        for (const char *p = stop;;) {
            const auto c = static_cast<unsigned char>(*p);
            if (c == '"') {
                text = scratch;
                m_p = p + 1;
                return true;
            }
            if (c == '\\') {
                if (!escape(p, scratch))
                    return false;
            } else if (const int n = c >= 0x80 ? utf8Length(reinterpret_cast<const unsigned char *>(p)) : 0) {
                scratch.append(p, std::size_t(n));
                p += n;
            } else {
                return false; // a control byte, the text's end among them
            }
            stop = stringStop(p);
            scratch.append(p, stop);
            p = stop;
        }
    }

    // The escape at p ('\\') appended to out as UTF-8, p past it.
    static bool escape(const char *&p, std::string &out)
    {
        static constexpr char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        if (const char *simple = std::strchr(from, p[1]); simple && p[1] != '\0') {
            out.push_back(to[simple - from]);
            p += 2;
            return true;
        }
        if (p[1] != 'u')
            return false;
        const int unit = hexUnit(p + 2);
        if (unit < 0 || (unit >= 0xdc00 && unit <= 0xdfff))
            return false;
        uint32_t code = uint32_t(unit);
        p += 6;
        if (unit >= 0xd800 && unit <= 0xdbff) { // a high surrogate: a low one must follow
            const int low = p[0] == '\\' && p[1] == 'u' ? hexUnit(p + 2) : -1;
            if (low < 0xdc00 || low > 0xdfff)
                return false;
            code = 0x10000 + ((code - 0xd800) << 10) + uint32_t(low - 0xdc00);
            p += 6;
        }
        appendUtf8(out, code);
        return true;
    }

    const char *m_p;
    const char *const m_end;
    EventBatch &m_batch;
    const std::atomic<bool> *m_cancel;
    std::string m_key, m_value; // unescaped texts: the last key, the last string value
    char m_number[32];
    struct Recent
    {
        uint32_t ids[4] = {}; // the ids internRecent gave last
        uint32_t next = 0;    // the one to replace
    };
    Recent m_recent[std::size_t(Key::Args) + 1]; // by Key
};

} // namespace

namespace {

void pad(std::string &text)
{
    if (text.capacity() < text.size() + kFastParsePadding)
        text.reserve(text.size() + kFastParsePadding);
}

} // namespace

FastParse parseEventsFast(std::string &text, EventBatch &batch, const std::atomic<bool> *cancel)
{
    pad(text);
    return EventReader(text, batch, cancel).events();
}

EventRun parseEventRun(std::string &text, std::size_t from, std::size_t cutAt, EventBatch &batch,
                       const std::atomic<bool> *cancel)
{
    pad(text);
    return EventReader(text, batch, cancel).run(from, cutAt);
}

} // namespace scopeline
