#include "timeparse.h"

#include <limits>

namespace scopeline {

namespace {
constexpr int kMaxDigits = 18; // fits in int64 with room for one more decimal step

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
} // namespace

bool microsIntToNs(int64_t micros, int64_t &ns)
{
    constexpr int64_t limit = std::numeric_limits<int64_t>::max() / 1000;
    if (micros > limit || micros < -limit)
        return false;
    ns = micros * 1000;
    return true;
}

bool microsTextToNs(std::string_view text, int64_t &ns)
{
    std::size_t i = 0, n = text.size();
    while (i < n && isSpace(text[i]))
        ++i;
    while (n > i && isSpace(text[n - 1]))
        --n;
    bool negative = false;
    if (i < n && (text[i] == '-' || text[i] == '+'))
        negative = text[i++] == '-';

    // value = mantissa * 10^exponent microseconds
    int64_t mantissa = 0;
    int exponent = 0;
    int digits = 0;
    bool sawDigit = false, sawPoint = false;
    for (; i < n; ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            sawDigit = true;
            if (digits < kMaxDigits) {
                if (mantissa != 0 || c != '0')
                    ++digits;
                mantissa = mantissa * 10 + (c - '0');
                if (sawPoint)
                    --exponent;
            } else if (!sawPoint) {
                ++exponent; // integer digit beyond precision: scale instead of storing
            }
        } else if (c == '.' && !sawPoint) {
            sawPoint = true;
        } else {
            break;
        }
    }
    if (!sawDigit)
        return false;
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool expNegative = false;
        if (i < n && (text[i] == '-' || text[i] == '+'))
            expNegative = text[i++] == '-';
        int e = 0;
        bool expDigit = false;
        for (; i < n && text[i] >= '0' && text[i] <= '9'; ++i) {
            expDigit = true;
            if (e < 10000)
                e = e * 10 + (text[i] - '0');
        }
        if (!expDigit)
            return false;
        exponent += expNegative ? -e : e;
    }
    if (i != n)
        return false;

    int scale = exponent + 3; // microseconds -> nanoseconds
    int64_t value = mantissa;
    if (value == 0) {
        ns = 0;
        return true;
    }
    if (scale >= 0) {
        for (; scale > 0; --scale) {
            if (value > std::numeric_limits<int64_t>::max() / 10)
                return false;
            value *= 10;
        }
    } else {
        if (scale < -kMaxDigits) {
            ns = 0;
            return true;
        }
        int64_t divisor = 1;
        for (; scale < 0; ++scale)
            divisor *= 10;
        const int64_t q = value / divisor;
        const int64_t r = value % divisor;
        value = q + (2 * r >= divisor ? 1 : 0);
    }
    ns = negative ? -value : value;
    return true;
}

} // namespace scopeline
