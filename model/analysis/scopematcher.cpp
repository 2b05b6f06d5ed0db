// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/scopematcher.h"

namespace scopeline {

bool parseMatchMode(const QString &text, MatchMode &mode)
{
    for (MatchMode m : {MatchMode::Component, MatchMode::Substring, MatchMode::Regex})
        if (text == matchModeName(m)) {
            mode = m;
            return true;
        }
    return false;
}

bool parseSampleMode(const QString &text, SampleMode &mode)
{
    for (SampleMode m : {SampleMode::Kernel, SampleMode::Instance, SampleMode::Span})
        if (text == sampleModeName(m)) {
            mode = m;
            return true;
        }
    return false;
}

QString matchModeName(MatchMode mode)
{
    switch (mode) {
    case MatchMode::Substring:
        return QStringLiteral("substring");
    case MatchMode::Regex:
        return QStringLiteral("regex");
    case MatchMode::Component:
        break;
    }
    return QStringLiteral("component");
}

QString sampleModeName(SampleMode mode)
{
    switch (mode) {
    case SampleMode::Instance:
        return QStringLiteral("instance");
    case SampleMode::Span:
        return QStringLiteral("span");
    case SampleMode::Kernel:
        break;
    }
    return QStringLiteral("kernel");
}

ScopeMatcher::ScopeMatcher(const QString &pattern, MatchMode mode)
    : m_pattern(pattern), m_utf8(pattern.toStdString()), m_mode(mode)
{
    if (mode == MatchMode::Regex)
        m_regex.setPattern(pattern);
}

bool ScopeMatcher::matchesName(std::string_view name) const
{
    switch (m_mode) {
    case MatchMode::Component:
        return name == m_utf8;
    case MatchMode::Substring:
        return name.find(m_utf8) != std::string_view::npos;
    case MatchMode::Regex:
        // a name picked from the list matches itself, whatever its parentheses say as a regex
        return name == m_utf8 ||
               (m_regex.isValid() &&
                m_regex.match(QString::fromUtf8(name.data(), qsizetype(name.size()))).hasMatch());
    }
    return false;
}

bool ScopeMatcher::matchesPath(std::string_view path) const
{
    if (m_mode == MatchMode::Component)
        return false; // components are matched one by one
    return matchesName(path);
}

} // namespace scopeline
