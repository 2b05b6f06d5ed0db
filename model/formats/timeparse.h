// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Exact conversion of trace timestamps (microseconds as decimal text) to integer nanoseconds.

#include <cstdint>
#include <string_view>

namespace scopeline {

// Parses a decimal number of microseconds ("34.476999999999997", "1e3", " 12 ") and rounds it to
// the nearest nanosecond, halves away from zero. Doubles would lose nanoseconds on epoch-based
// timestamps, so the digits are read exactly. Returns false on malformed text or overflow.
bool microsTextToNs(std::string_view text, int64_t &ns);

// The usual forms only, "123456.789" (Kineto) and "123456": up to 18 integer and 3 fraction digits,
// no sign, blank or exponent, within int64 as ns. False for anything else; microsTextToNs reads those.
bool plainMicrosToNs(std::string_view text, int64_t &ns);

// Integer microseconds to nanoseconds; false on overflow.
bool microsIntToNs(int64_t micros, int64_t &ns);

} // namespace scopeline
