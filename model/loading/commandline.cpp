// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/commandline.h"

#include <QCommandLineParser>
#include <QRegularExpression>

namespace scopeline {

QString commandLineError(const QCommandLineParser &parser, const QStringList &arguments)
{
    // Qt's "Unknown option 'bogus'." without the dashes typed
    const QStringList unknown = parser.unknownOptionNames();
    if (unknown.isEmpty())
        return parser.errorText();
    const QString &name = unknown.front();
    if (name.size() > 1)
        return QStringLiteral("unknown option --%1").arg(name);
    // Qt reads -step as -s -t -e -p, the first unknown letter first: name what was typed, not that
    // letter, and where two dashes make an option, say so
    for (const QString &typed : arguments.mid(1)) {
        if (typed == QLatin1String("--"))
            break;
        if (typed.size() <= 2 || !typed.startsWith(u'-') || typed[1] != name.front())
            continue;
        static const QRegularExpression word(QStringLiteral("^[a-z][a-z-]*$"));
        const bool isLong = word.match(typed.mid(1)).hasMatch() &&
                            QRegularExpression(QStringLiteral("(^|[ ,])-%1( |=|$)").arg(typed),
                                               QRegularExpression::MultilineOption)
                                .match(parser.helpText())
                                .hasMatch();
        return isLong ? QStringLiteral("unknown option %1 (a long option takes two dashes: -%1?)").arg(typed)
                      : QStringLiteral("unknown option %1").arg(typed);
    }
    return QStringLiteral("unknown option -%1").arg(name);
}

} // namespace scopeline
