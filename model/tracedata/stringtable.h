// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Interns strings (event names, categories, arg keys) so that columns hold 32-bit ids.

#include <QString>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace scopeline {

// Open addressing from a text's hash to its id (slot = id + 1, 0 free, at most half full), for the
// tables that keep their texts themselves: StringTable and EventBatch's.
class HashIndex
{
public:
    explicit HashIndex(std::size_t slotCount) : m_slots(slotCount, 0) {} // a power of two
    void clear();
    uint64_t hash(uint32_t id) const { return m_hashes[id]; }
    std::size_t heldBytes() const { return m_hashes.size() * 8 + m_slots.size() * 4; }
    // The id filed under `hash` for which same(id) holds; else calls add() and files the next id.
    template <typename Same, typename Add>
    uint32_t intern(uint64_t hash, Same same, Add add)
    {
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
            const uint32_t slot = m_slots[i];
            if (slot == 0) {
                const auto id = uint32_t(m_hashes.size());
                add();
                m_hashes.push_back(hash);
                m_slots[i] = id + 1;
                if (m_hashes.size() * 2 > m_slots.size())
                    grow();
                return id;
            }
            if (m_hashes[slot - 1] == hash && same(slot - 1))
                return slot - 1;
        }
    }
    // The id filed under `hash` for which same(id) holds, or -1.
    template <typename Same>
    int64_t find(uint64_t hash, Same same) const
    {
        const std::size_t mask = m_slots.size() - 1;
        for (std::size_t i = hash & mask; m_slots[i]; i = (i + 1) & mask)
            if (m_hashes[m_slots[i] - 1] == hash && same(m_slots[i] - 1))
                return m_slots[i] - 1;
        return -1;
    }

private:
    void grow();

    std::vector<uint64_t> m_hashes; // per id
    std::vector<uint32_t> m_slots;
};

class StringTable
{
public:
    StringTable();

    // The hash a text is filed under; EventBatch keeps its strings' so that adding a batch to the
    // trace's table hashes no text twice.
    static uint64_t hash(std::string_view text);
    // Id of the text, adding it on first sight. Id 0 is the empty string.
    uint32_t intern(std::string_view text) { return intern(text, hash(text)); }
    uint32_t intern(std::string_view text, uint64_t hash);
    // Id of the text, or -1 when it was never interned.
    int64_t find(std::string_view text) const;
    std::string_view view(uint32_t id) const { return m_strings[id]; }
    QString qstring(uint32_t id) const;
    std::size_t size() const { return m_strings.size(); }
    // The bytes it holds: texts, their views and the hash index.
    std::size_t heldBytes() const;

private:
    std::string_view store(std::string_view text);

    // The texts, back to back in blocks that never move (view() stays valid as strings are added):
    // one allocation per block rather than per string.
    std::vector<std::string_view> m_strings;
    std::vector<std::unique_ptr<char[]>> m_blocks;
    char *m_free = nullptr; // the rest of the last block
    std::size_t m_freeBytes = 0;
    std::size_t m_blockBytes = 0; // of all blocks
    HashIndex m_index;
};

// Whether n bytes at p and q (n from sizeof(Word) to twice that) are equal: their first and last
// words, which overlap where n is short of twice a word.
template <typename Word>
bool sameEnds(const char *p, const char *q, std::size_t n)
{
    Word p0, p1, q0, q1;
    std::memcpy(&p0, p, sizeof(Word));
    std::memcpy(&p1, p + n - sizeof(Word), sizeof(Word));
    std::memcpy(&q0, q, sizeof(Word));
    std::memcpy(&q1, q + n - sizeof(Word), sizeof(Word));
    return ((p0 ^ q0) | (p1 ^ q1)) == 0;
}

// Whether two texts are equal; those of up to 16 bytes (most categories, ids, arg keys and op names)
// compared inline, not by a call to memcmp.
inline bool sameText(std::string_view a, std::string_view b)
{
    const std::size_t n = a.size();
    if (n != b.size())
        return false;
    const char *p = a.data(), *q = b.data();
    if (n < 4)
        return n == 0 || (p[0] == q[0] && p[n / 2] == q[n / 2] && p[n - 1] == q[n - 1]);
    if (n < 8)
        return sameEnds<uint32_t>(p, q, n);
    if (n <= 16)
        return sameEnds<uint64_t>(p, q, n);
    return std::memcmp(p, q, n) == 0;
}

// Eight bytes at a time: names run to hundreds of bytes (C++ kernel signatures).
inline uint64_t StringTable::hash(std::string_view text)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ text.size();
    const char *p = text.data();
    std::size_t n = text.size();
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t word;
        std::memcpy(&word, p, 8);
        h = (h ^ word) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    // The last 0-7 bytes as two overlapping words, not byte by byte: a load of bytes just stored one
    // at a time stalls (store forwarding), and that was half of interning's time.
    uint64_t tail = 0;
    if (n >= 4) {
        uint32_t first, last;
        std::memcpy(&first, p, 4);
        std::memcpy(&last, p + n - 4, 4);
        tail = first | uint64_t(last) << 32;
    } else if (n > 0) {
        tail = uint64_t(uint8_t(p[0])) | uint64_t(uint8_t(p[n / 2])) << 8 | uint64_t(uint8_t(p[n - 1])) << 16;
    }
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
}

} // namespace scopeline
