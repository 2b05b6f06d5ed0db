// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A scope name the user picked, compiled for one match mode: exact `/`-component, substring or regex.

#include <QRegularExpression>
#include <QString>

#include <string_view>

namespace scopeline {

enum class MatchMode { Component, Substring, Regex };
enum class SampleMode { Kernel, Instance, Span };

bool parseMatchMode(const QString &text, MatchMode &mode);
bool parseSampleMode(const QString &text, SampleMode &mode);
QString matchModeName(MatchMode mode);
QString sampleModeName(SampleMode mode);

class ScopeMatcher
{
public:
    ScopeMatcher(const QString &pattern, MatchMode mode);

    bool isValid() const { return m_mode != MatchMode::Regex || m_regex.isValid(); }
    QString errorString() const { return m_regex.errorString(); }
    QString pattern() const { return m_pattern; }
    MatchMode mode() const { return m_mode; }
    // Whether a scope name (one path component or an annotation name) matches; in regex mode the
    // pattern also matches the name it spells (a listed name such as jit(<lambda>) picked as it is).
    bool matchesName(std::string_view name) const;
    // Whether a whole op path matches (substring and regex modes may span components).
    bool matchesPath(std::string_view path) const;

private:
    QString m_pattern;
    std::string m_utf8;
    MatchMode m_mode;
    QRegularExpression m_regex;
};

} // namespace scopeline
