// SPDX-License-Identifier: GPL-3.0-or-later
#include "stringtable.h"

#include <algorithm>

namespace scopeline {

StringTable::StringTable() : m_index(64)
{
    intern({});
}

uint32_t StringTable::intern(std::string_view text, uint64_t hash)
{
    return m_index.intern(
        hash, [&](uint32_t id) { return m_strings[id] == text; }, [&] { m_strings.emplace_back(text); });
}

int64_t StringTable::find(std::string_view text) const
{
    return m_index.find(hash(text), [&](uint32_t id) { return m_strings[id] == text; });
}

void HashIndex::clear()
{
    std::fill(m_slots.begin(), m_slots.end(), 0);
    m_hashes.clear();
}

void HashIndex::grow()
{
    m_slots.assign(m_slots.size() * 2, 0);
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
