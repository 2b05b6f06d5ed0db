// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Interns strings (event names, categories, arg keys) so that columns hold 32-bit ids.

#include <QString>

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace scopeline {

class StringTable
{
public:
    StringTable();

    // Id of the text, adding it on first sight. Id 0 is the empty string.
    uint32_t intern(std::string_view text);
    // Id of the text, or -1 when it was never interned.
    int64_t find(std::string_view text) const;
    std::string_view view(uint32_t id) const { return m_strings[id]; }
    QString qstring(uint32_t id) const;
    std::size_t size() const { return m_strings.size(); }

private:
    std::deque<std::string> m_strings; // deque: stable addresses for the string_view keys
    std::unordered_map<std::string_view, uint32_t> m_index;
};

} // namespace scopeline
