// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/sideargument.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace scopeline {

namespace {

bool hasWildcard(const QString &text)
{
    return text.contains(QLatin1Char('*')) || text.contains(QLatin1Char('?')) ||
           text.contains(QLatin1Char('['));
}

// The name of the folder a path names: its last part, or for a pattern the last part without one
// ("flags_on/run_*": flags_on).
QString labelOf(const QString &path)
{
    const QStringList parts =
        QDir::cleanPath(QDir::fromNativeSeparators(path)).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (qsizetype i = parts.size() - 1; i >= 0; --i)
        if (!hasWildcard(parts[i]) && parts[i] != QLatin1String(".."))
            return parts[i] == QLatin1String(".") ? QFileInfo(QDir::currentPath()).fileName() : parts[i];
    return path;
}

// Whether a text names something there: a path, or a pattern whose folder (before the first wildcard) is.
bool isThere(const QString &text)
{
    if (QFileInfo::exists(text))
        return true;
    if (!hasWildcard(text))
        return false;
    const QString plain = text.left(text.indexOf(QRegularExpression(QStringLiteral("[*?\\[]"))));
    const qsizetype slash = plain.lastIndexOf(QLatin1Char('/'));
    return QFileInfo::exists(slash < 0 ? QStringLiteral(".") : plain.left(std::max<qsizetype>(slash, 1)));
}

} // namespace

SideArgument SideArgument::parse(const QString &argument)
{
    if (isThere(argument))
        return {labelOf(argument), argument};
    // LABEL=PATH, the label itself perhaps holding `=` (`K=5=runs/k5`): the first split whose path is there,
    // else the first `=` (the path then says what is missing)
    qsizetype first = -1;
    for (qsizetype equals = argument.indexOf(QLatin1Char('=')); equals > 0;
         equals = argument.indexOf(QLatin1Char('='), equals + 1)) {
        if (first < 0)
            first = equals;
        if (isThere(argument.mid(equals + 1)))
            return {argument.left(equals), argument.mid(equals + 1)};
    }
    if (first > 0)
        return {argument.left(first), argument.mid(first + 1)};
    return {labelOf(argument), argument};
}

} // namespace scopeline
