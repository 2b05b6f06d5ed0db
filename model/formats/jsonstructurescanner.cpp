// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/jsonstructurescanner.h"

#include <atomic>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SCOPELINE_SCANNER_AVX2 1
#include <immintrin.h>
#endif

namespace scopeline {

namespace {

std::atomic<bool> g_simdEnabled{JsonStructureScanner::simdAvailable()};

} // namespace

bool JsonStructureScanner::simdAvailable()
{
#ifdef SCOPELINE_SCANNER_AVX2
    static const bool available = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("pclmul") &&
                                  __builtin_cpu_supports("popcnt");
    return available;
#else
    return false;
#endif
}

void JsonStructureScanner::setSimdEnabled(bool on)
{
    g_simdEnabled.store(on && simdAvailable(), std::memory_order_relaxed);
}

bool JsonStringTracker::feed(char c)
{
    if (inString) {
        if (escape)
            escape = false;
        else if (c == '\\')
            escape = true;
        else if (c == '"')
            inString = false;
        return true;
    }
    inString = c == '"';
    return inString;
}

uint64_t JsonStructureScanner::next(const char *p, std::size_t len, bool commas)
{
    if (len == 64 && g_simdEnabled.load(std::memory_order_relaxed))
        return nextSimd(p, commas);
    return nextScalar(p, len, commas);
}

uint64_t JsonStructureScanner::nextScalar(const char *p, std::size_t len, bool commas)
{
    uint64_t bits = 0;
    opened = closed = 0;
    for (std::size_t k = 0; k < len; ++k) {
        const char c = p[k];
        if (feed(c))
            continue;
        if (c == '}' || c == ']')
            ++closed;
        else if (c == '{' || c == '[')
            ++opened;
        if (c == '{' || c == '}' || c == '[' || c == ']' || (commas && c == ','))
            bits |= uint64_t(1) << k;
    }
    return bits;
}

#ifdef SCOPELINE_SCANNER_AVX2

namespace {

__attribute__((target("avx2"))) inline uint64_t equalMask(__m256i lo, __m256i hi, char c)
{
    const __m256i v = _mm256_set1_epi8(c);
    const uint32_t l = uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, v)));
    const uint32_t h = uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, v)));
    return uint64_t(l) | (uint64_t(h) << 32);
}

// Bit k: an odd number of quotes at or before k (the bits from an opening quote up to, not
// including, its closing one).
__attribute__((target("pclmul,sse2"))) inline uint64_t prefixXor(uint64_t quotes)
{
    const __m128i all = _mm_set1_epi8(char(0xFF));
    const __m128i product = _mm_clmulepi64_si128(_mm_set_epi64x(0, int64_t(quotes)), all, 0);
    return uint64_t(_mm_cvtsi128_si64(product));
}

} // namespace

__attribute__((target("avx2,pclmul,popcnt"))) uint64_t JsonStructureScanner::nextSimd(const char *p,
                                                                                      bool commas)
{
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p + 32));
    uint64_t backslash = equalMask(lo, hi, '\\');
    const uint64_t quote = equalMask(lo, hi, '"');

    // Escaped bytes: those after an odd run of backslashes (simdjson's branchless method).
    uint64_t escaped = 0, carry = escape ? 1 : 0;
    if (backslash | carry) {
        backslash &= ~carry; // a backslash escaped from the previous block escapes nothing
        const uint64_t followsEscape = (backslash << 1) | carry;
        constexpr uint64_t kEven = 0x5555555555555555ULL;
        const uint64_t oddStarts = backslash & ~kEven & ~followsEscape;
        uint64_t evenStarts;
        carry = __builtin_add_overflow(oddStarts, backslash, &evenStarts) ? 1 : 0;
        escaped = (kEven ^ (evenStarts << 1)) & followsEscape;
    }
    const uint64_t realQuotes = quote & ~escaped;
    const uint64_t strings = prefixXor(realQuotes) ^ (inString ? ~uint64_t(0) : 0);

    // A backslash outside strings is not JSON; the byte-by-byte rules (it escapes nothing there)
    // decide such a block, so both paths agree on any input.
    if (backslash & ~strings) {
        return nextScalar(p, 64, commas);
    }
    // '[' and '{' differ in bit 0x20 alone, as do ']' and '}', and no other byte turns into either
    // with it set: one compare finds both brackets of a kind.
    const __m256i lower = _mm256_set1_epi8(0x20);
    const __m256i lo20 = _mm256_or_si256(lo, lower), hi20 = _mm256_or_si256(hi, lower);
    const uint64_t opening = equalMask(lo20, hi20, '{') & ~strings;
    const uint64_t closing = equalMask(lo20, hi20, '}') & ~strings;
    opened = int(_mm_popcnt_u64(opening));
    closed = int(_mm_popcnt_u64(closing));
    inString = (strings >> 63) != 0;
    escape = carry != 0;
    return opening | closing | (commas ? equalMask(lo, hi, ',') & ~strings : 0);
}

#else

uint64_t JsonStructureScanner::nextSimd(const char *p, bool commas)
{
    return nextScalar(p, 64, commas);
}

#endif

} // namespace scopeline
