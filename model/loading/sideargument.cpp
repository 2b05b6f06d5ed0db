// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/sideargument.h"

#include <QCoreApplication>
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
    const bool asWritten = QFileInfo::exists(path); // "exp[1]" there: its name, brackets and all
    for (qsizetype i = parts.size() - 1; i >= 0; --i)
        if ((asWritten || !hasWildcard(parts[i])) && parts[i] != QLatin1String(".."))
            return parts[i] == QLatin1String(".") ? QFileInfo(QDir::currentPath()).fileName() : parts[i];
    return path;
}

// Whether a text names something there: a path, or a pattern whose first wildcard part matches an
// entry of the folder before it ("runs/k5_*/plugins": something in runs/ matches k5_*).
bool isThere(const QString &text)
{
    if (QFileInfo::exists(text))
        return true;
    if (!hasWildcard(text))
        return false;
    const qsizetype wildcard = text.indexOf(QRegularExpression(QStringLiteral("[*?\\[]")));
    const qsizetype slash = text.lastIndexOf(QLatin1Char('/'), wildcard);
    const qsizetype end = text.indexOf(QLatin1Char('/'), wildcard);
    const QString folder = slash < 0 ? QStringLiteral(".") : text.left(std::max<qsizetype>(slash, 1));
    const QString part = text.mid(slash + 1, end < 0 ? -1 : end - slash - 1);
    return !QDir(folder).entryList({part}, QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty();
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
            return {argument.left(equals), argument.mid(equals + 1), true};
    }
    if (first > 0)
        return {argument.left(first), argument.mid(first + 1), true};
    return {labelOf(argument), argument};
}

QString SideArgument::shown() const
{
    return named ? QStringLiteral("%1 (%2)").arg(label, path) : path;
}

QString SideArgument::problem(const QList<SideArgument> &sides)
{
    for (qsizetype i = 0; i < sides.size(); ++i) {
        if (sides[i].path.isEmpty())
            return QCoreApplication::translate("SideArgument", "%1=: no path after the label")
                .arg(sides[i].label);
        for (qsizetype j = i + 1; j < sides.size(); ++j)
            if (sides[i].label == sides[j].label)
                return QCoreApplication::translate(
                           "SideArgument", "two variants are labelled '%1' (%2, %3): give each its own, "
                                           "LABEL=PATH")
                    .arg(sides[i].label, sides[i].path, sides[j].path);
    }
    return {};
}

QStringList SideArgument::sameRuns(const QList<SideArgument> &sides)
{
    QStringList lines;
    for (qsizetype i = 0; i < sides.size(); ++i)
        for (qsizetype j = i + 1; j < sides.size(); ++j) {
            const QString a = QFileInfo(sides[i].path).canonicalFilePath(),
                          b = QFileInfo(sides[j].path).canonicalFilePath();
            if (sides[i].path == sides[j].path || (!a.isEmpty() && a == b))
                lines << QCoreApplication::translate("SideArgument", "%1 and %2 are the same runs (%3)%4")
                             .arg(sides[i].label, sides[j].label, sides[j].path,
                                  i == 0 ? QCoreApplication::translate(
                                               "SideArgument", ": a candidate against the baseline itself")
                                         : QString());
        }
    return lines;
}

} // namespace scopeline
