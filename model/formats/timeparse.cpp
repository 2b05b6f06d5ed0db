// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/timeparse.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace scopeline {

namespace {
constexpr int kInt64Digits = 19; // an int64 holds at most 19 decimal digits

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Whether the 4 bytes at p are all digits, and their value: the usual SWAR steps (a digit is 0x30-0x39,
// and adding 6 keeps its high nibble 3), then pairs and the two halves combined by multiplies.
bool fourDigits(const char *p, uint32_t &value)
{
    uint32_t v;
    std::memcpy(&v, p, 4);
    if (((v & 0xF0F0F0F0) | (((v + 0x06060606) & 0xF0F0F0F0) >> 4)) != 0x33333333)
        return false;
    v = (v & 0x0F0F0F0F) * 2561 >> 8;
    value = (v & 0x00FF00FF) * 6553601 >> 16;
    return true;
}

} // namespace

// Exactly and without the general routine: up to 18 integer digits (an int64 holds them all) and 3
// fraction digits (whole ns); where ns would overflow, false for the general routine to decide.
bool plainMicrosToNs(std::string_view text, int64_t &ns)
{
    const std::size_t n = text.size();
    std::size_t i = 0;
    int64_t value = 0;
    const std::size_t swarEnd = std::min<std::size_t>(n, 16); // whole blocks of the first 16 digits
    for (uint32_t block = 0; i + 4 <= swarEnd && fourDigits(text.data() + i, block); i += 4)
        value = value * 10000 + block;
    for (; i < n && i < 18 && isDigit(text[i]); ++i)
        value = value * 10 + (text[i] - '0');
    if (i == 0)
        return false;
    int64_t fraction = 0;
    int fractionDigits = 0;
    if (i < n && text[i] == '.') {
        for (++i; i < n && fractionDigits < 3 && isDigit(text[i]); ++i, ++fractionDigits)
            fraction = fraction * 10 + (text[i] - '0');
        if (fractionDigits == 0)
            return false;
    }
    if (i != n)
        return false;
    constexpr int64_t scale[] = {1000, 100, 10, 1};
    int64_t result = 0;
    if (__builtin_mul_overflow(value, 1000, &result) ||
        __builtin_add_overflow(result, fraction * scale[fractionDigits], &result))
        return false;
    ns = result;
    return true;
}

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
    if (plainMicrosToNs(text, ns))
        return true;
    std::size_t i = 0, n = text.size();
    while (i < n && isSpace(text[i]))
        ++i;
    while (n > i && isSpace(text[n - 1]))
        --n;
    bool negative = false;
    if (i < n && (text[i] == '-' || text[i] == '+'))
        negative = text[i++] == '-';

    // Significant digits and where the decimal point sits among them: value = 0.d1d2... * 10^point.
    char digits[kInt64Digits + 1];
    int count = 0;  // digits kept: up to 19 for the integer part of an int64, one more for rounding
    long point = 0; // digits before the decimal point
    bool sawDigit = false, sawPoint = false;
    for (; i < n; ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            sawDigit = true;
            if (count == 0 && c == '0') {
                if (sawPoint)
                    --point; // leading zero after the point: 0.00123
                continue;
            }
            if (count < kInt64Digits + 1)
                digits[count++] = c;
            if (!sawPoint)
                ++point;
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
        long e = 0;
        bool expDigit = false;
        for (; i < n && text[i] >= '0' && text[i] <= '9'; ++i) {
            expDigit = true;
            if (e < 100000)
                e = e * 10 + (text[i] - '0');
        }
        if (!expDigit)
            return false;
        point += expNegative ? -e : e;
    }
    if (i != n)
        return false;
    if (count == 0) {
        ns = 0;
        return true;
    }

    point += 3; // microseconds -> nanoseconds
    if (point > kInt64Digits)
        return false;
    // Integer part: the first `point` digits (zeros past the kept ones); the next digit rounds,
    // halves away from zero.
    int64_t value = 0;
    for (long d = 0; d < point; ++d) {
        const int digit = d < count ? digits[d] - '0' : 0;
        if (value > (std::numeric_limits<int64_t>::max() - digit) / 10)
            return false;
        value = value * 10 + digit;
    }
    if (point >= 0 && point < count && digits[point] >= '5') {
        if (value == std::numeric_limits<int64_t>::max())
            return false;
        ++value;
    }
    ns = negative ? -value : value;
    return true;
}

} // namespace scopeline
