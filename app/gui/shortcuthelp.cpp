// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/shortcuthelp.h"

#include <QAction>
#include <QKeySequence>
#include <QRegularExpression>
#include <QSet>

namespace scopeline {

QString shortcutHelpHtml(const QList<QAction *> &actions)
{
    QString html = QStringLiteral("<table>");
    QSet<QString> listed;
    for (const QAction *action : actions) {
        QStringList keys;
        for (const QKeySequence &shortcut : action->shortcuts())
            keys << shortcut.toString(QKeySequence::NativeText);
        if (keys.isEmpty())
            continue;
        QString text = action->text();
        text.remove(QRegularExpression(QStringLiteral("&(?!&)"))); // the mnemonic marks; "&&" is a "&"
        if (text.endsWith(QStringLiteral("…")))
            text.chop(1);
        const QString row = QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                                .arg(keys.join(QStringLiteral(", ")).toHtmlEscaped(), text.toHtmlEscaped());
        if (!listed.contains(row)) {
            listed.insert(row);
            html += row;
        }
    }
    return html + QStringLiteral("</table>");
}

} // namespace scopeline
