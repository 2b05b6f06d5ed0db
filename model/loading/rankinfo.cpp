// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/rankinfo.h"

#include "model/formats/inflatingstreambuf.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace scopeline {

namespace {

// The value of an integer key inside distributedInfo's object text, -1 when absent.
int intKey(const QString &object, const QString &key)
{
    const QRegularExpression pattern(QStringLiteral("\"%1\"\\s*:\\s*(\\d{1,9})").arg(key));
    const QRegularExpressionMatch match = pattern.match(object);
    return match.hasMatch() ? match.captured(1).toInt() : -1;
}

// The text of the JSON object that opens at `open` without its nested objects and lists, so a key of
// distributedInfo is found wherever it stands (pg_config's list of objects may come first, as in a
// trace re-saved with sorted keys); the rest of the text when the object is not closed there.
QString topLevelText(const QString &text, qsizetype open)
{
    QString top;
    int depth = 0;
    bool inString = false;
    for (qsizetype i = open; i < text.size(); ++i) {
        const QChar c = text[i];
        if (inString) {
            if (c == QLatin1Char('\\'))
                ++i;
            else if (c == QLatin1Char('"'))
                inString = false;
        } else if (c == QLatin1Char('"')) {
            inString = true;
        } else if (c == QLatin1Char('{') || c == QLatin1Char('[')) {
            ++depth;
            continue;
        } else if (c == QLatin1Char('}') || c == QLatin1Char(']')) {
            if (--depth == 0)
                break;
            continue;
        }
        if (depth == 1)
            top += c;
    }
    return top;
}

} // namespace

RankInfo RankInfo::ofName(const QString &fileName)
{
    static const QRegularExpression pattern(
        QStringLiteral("(?:^|[^a-z])(?:rank[-_]?|worker)(\\d{1,6})(?!\\d)"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = pattern.match(fileName);
    RankInfo info;
    if (match.hasMatch()) {
        info.rank = match.captured(1).toInt();
        // `summarize` names a rank's summary rank_<N>_of_<world>
        static const QRegularExpression world(QStringLiteral("^_of_(\\d{1,6})(?!\\d)"));
        const QRegularExpressionMatch of = world.match(fileName.mid(match.capturedEnd(1)));
        if (of.hasMatch())
            info.worldSize = of.captured(1).toInt();
    }
    return info;
}

RankInfo RankInfo::of(const QString &file)
{
    if (QFileInfo(file).isFile()) {
        // Kineto writes distributedInfo among its first keys, before traceEvents: the first block of
        // text, of 64 KB (the load's 1 MB blocks would inflate 16 times as much).
        InflatingStreamBuf text(std::size_t(1) << 16);
        if (text.open(file)) {
            const std::string_view head = text.peek();
            const QString start = QString::fromUtf8(head.data(), qsizetype(head.size()));
            static const QRegularExpression object(QStringLiteral("\"distributedInfo\"\\s*:\\s*\\{"));
            const QRegularExpressionMatch match = object.match(start);
            if (match.hasMatch()) {
                const QString keys = topLevelText(start, match.capturedEnd() - 1);
                const int world = intKey(keys, QStringLiteral("world_size"));
                if (world == 1) // a single-GPU job: not one of several ranks
                    return {};
                if (const int rank = intKey(keys, QStringLiteral("rank")); rank >= 0)
                    return {rank, std::max(0, world)};
            }
        }
    }
    return ofName(QFileInfo(file).fileName());
}

} // namespace scopeline
