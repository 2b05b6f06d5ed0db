// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/tracedata/stringtable.h"

#include "model/tracedata/hugepages.h"

#include <algorithm>

namespace scopeline {

StringTable::StringTable() : m_index(64)
{
    intern({});
}

uint32_t StringTable::intern(std::string_view text, uint64_t hash)
{
    return m_index.intern(
        hash, [&](uint32_t id) { return sameText(m_strings[id], text); },
        [&] {
            if (m_strings.size() == m_strings.capacity()) // grown as a vector grows, faulted in at once
                hugepages::reserve(m_strings, 2 * m_strings.size());
            m_strings.push_back(store(text));
        });
}

std::string_view StringTable::store(std::string_view text)
{
    constexpr std::size_t kBlockBytes = 64 << 10;
    if (text.empty())
        return {};
    const auto newBlock = [this](std::size_t bytes) {
        m_blocks.emplace_back(new char[bytes]); // left unwritten: populate() faults its pages in at once
        m_blockBytes += bytes;
        hugepages::populate(m_blocks.back().get(), bytes);
        return m_blocks.back().get();
    };
    char *to;
    if (text.size() > kBlockBytes / 4) { // one of its own, so that little of a block goes unused
        to = newBlock(text.size());
    } else {
        if (text.size() > m_freeBytes) {
            m_free = newBlock(kBlockBytes);
            m_freeBytes = kBlockBytes;
        }
        to = m_free;
        m_free += text.size();
        m_freeBytes -= text.size();
    }
    std::memcpy(to, text.data(), text.size());
    return std::string_view(to, text.size());
}

std::size_t StringTable::heldBytes() const
{
    return hugepages::usedBytes(m_strings) + hugepages::usedBytes(m_blocks) + m_blockBytes +
           m_index.heldBytes();
}

int64_t StringTable::find(std::string_view text) const
{
    return m_index.find(hash(text), [&](uint32_t id) { return sameText(m_strings[id], text); });
}

void HashIndex::clear()
{
    std::fill(m_slots.begin(), m_slots.end(), 0);
    m_hashes.clear();
}

void HashIndex::grow()
{
    // Both reserved at their next size, so that their pages are faulted in at once, not one by one.
    hugepages::reserve(m_hashes, m_slots.size());
    std::vector<uint32_t> wider;
    hugepages::reserve(wider, m_slots.size() * 2);
    wider.assign(m_slots.size() * 2, 0);
    m_slots.swap(wider);
    const std::size_t mask = m_slots.size() - 1;
    for (uint32_t id = 0; id < m_hashes.size(); ++id) {
        std::size_t i = m_hashes[id] & mask;
        while (m_slots[i])
            i = (i + 1) & mask;
        m_slots[i] = id + 1;
    }
}

QString StringTable::qstring(uint32_t id) const
{
    const std::string_view v = m_strings[id];
    return QString::fromUtf8(v.data(), qsizetype(v.size()));
}

} // namespace scopeline
