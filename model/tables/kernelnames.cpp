// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/tables/kernelnames.h"

#include <algorithm>
#include <map>

namespace scopeline {

namespace {

QString elideMiddle(const QString &name, int width)
{
    if (name.size() <= width)
        return name;
    const int head = (width - 1) / 2;
    return name.left(head) + QStringLiteral("…") + name.right(width - 1 - head);
}

qsizetype commonPrefix(const QString &a, const QString &b)
{
    const qsizetype n = std::min(a.size(), b.size());
    qsizetype i = 0;
    while (i < n && a[i] == b[i])
        ++i;
    return i;
}

// members[k]'s head, "…", and a window that ends a little after where it first differs from the others.
QString differingPart(const QStringList &members, qsizetype k, int width)
{
    const QString &name = members[k];
    qsizetype differs = 0;
    for (qsizetype other = 0; other < members.size(); ++other)
        if (other != k)
            differs = std::max(differs, commonPrefix(name, members[other]));
    // Narrow, the head gives way to the window, which keeps what differs inside it.
    const int kHead = std::min(12, width / 3), kWindow = width - kHead - 1,
              kAfter = std::min(12, kWindow / 2);
    const qsizetype end = std::min(name.size(), differs + kAfter);
    const qsizetype start = std::max<qsizetype>(kHead, end - kWindow);
    if (start <= kHead) // the difference is near enough to the start: the name's beginning shows it
        return name.left(width);
    return name.left(kHead) + QStringLiteral("…") + name.mid(start, end - start);
}

} // namespace

QString shortKernelName(QString name)
{
    if (name.startsWith(QLatin1String("void ")))
        name.remove(0, 5);
    if (name.endsWith(QLatin1Char(')'))) {
        int depth = 0;
        for (qsizetype i = name.size() - 1; i > 0; --i) {
            if (name[i] == QLatin1Char(')'))
                ++depth;
            else if (name[i] == QLatin1Char('(') && --depth == 0) {
                name.truncate(i);
                break;
            }
        }
    }
    return name;
}

QStringList distinctKernelNames(const QStringList &names, int width)
{
    QStringList shortNames;
    for (const QString &name : names)
        shortNames << shortKernelName(name);
    return distinctNames(shortNames, width);
}

QStringList distinctNames(const QStringList &shortNames, int width)
{
    width = std::max(width, 16);
    QStringList shown;
    std::map<QString, QList<qsizetype>> byShown; // shown text -> the names that read as it
    for (const QString &name : shortNames) {
        shown << elideMiddle(name, width);
        byShown[shown.back()].append(shown.size() - 1);
    }
    for (const auto &[text, group] : byShown) {
        if (group.size() < 2)
            continue;
        QStringList members;
        for (qsizetype i : group)
            members << shortNames[i];
        for (qsizetype k = 0; k < group.size(); ++k)
            shown[group[k]] = differingPart(members, k, width);
    }
    // What still reads alike (the same short name: only the parameters differ) is numbered.
    std::map<QString, int> seen;
    for (QString &text : shown)
        if (const int n = ++seen[text]; n > 1)
            text += QStringLiteral(" #%1").arg(n);
    return shown;
}

} // namespace scopeline
