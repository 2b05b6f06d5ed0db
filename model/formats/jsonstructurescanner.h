// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Finds the brackets and commas outside JSON strings, 64 bytes at a time, so that the event array
// can be cut into whole events without looking at every byte. AVX2 + PCLMUL where the CPU has them
// (the string mask comes from the unescaped quotes by a carry-less multiply), byte by byte otherwise;
// both give the same bits for any input, valid JSON or not.

#include <cstddef>
#include <cstdint>

namespace scopeline {

// Follows JSON text a byte at a time to tell string contents (quotes included) from the rest.
struct JsonStringTracker
{
    bool inString = false;
    bool escape = false; // inside a string, the next byte is escaped
    bool feed(char c);   // true when c belongs to a string
};

// The string state (inString, escape) is that after the bytes scanned so far.
class JsonStructureScanner : public JsonStringTracker
{
public:
    int opened = 0, closed = 0; // how many of next()'s last bits are { [ and } ] (popcounts: the
                                // SIMD path has the instruction, a baseline build does not)

    // Bit k set: p[k] is one of { } [ ] (and , when commas) outside strings. len <= 64; the state
    // moves on by len bytes.
    uint64_t next(const char *p, std::size_t len, bool commas);
    uint64_t nextScalar(const char *p, std::size_t len, bool commas);

    static bool simdAvailable();
    // Off: always byte by byte (tests compare the two); on by default where available.
    static void setSimdEnabled(bool on);

private:
    uint64_t nextSimd(const char *p, bool commas);
};

} // namespace scopeline
