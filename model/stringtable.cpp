// SPDX-License-Identifier: GPL-3.0-or-later
#include "stringtable.h"

namespace scopeline {

StringTable::StringTable()
{
    intern({});
}

uint32_t StringTable::intern(std::string_view text)
{
    const auto it = m_index.find(text);
    if (it != m_index.end())
        return it->second;
    const auto id = static_cast<uint32_t>(m_strings.size());
    m_strings.emplace_back(text);
    m_index.emplace(m_strings.back(), id);
    return id;
}

int64_t StringTable::find(std::string_view text) const
{
    const auto it = m_index.find(text);
    return it == m_index.end() ? -1 : int64_t(it->second);
}

QString StringTable::qstring(uint32_t id) const
{
    const std::string_view v = m_strings[id];
    return QString::fromUtf8(v.data(), qsizetype(v.size()));
}

} // namespace scopeline
