// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/sideargument.h"

#include <QDir>
#include <QFileInfo>

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

} // namespace

SideArgument SideArgument::parse(const QString &argument)
{
    const qsizetype equals = argument.indexOf(QLatin1Char('='));
    if (equals > 0 && !QFileInfo::exists(argument) && !hasWildcard(argument.left(equals)))
        return {argument.left(equals), argument.mid(equals + 1)};
    return {labelOf(argument), argument};
}

} // namespace scopeline
