// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whether a shown kernel name is a shortening of the full one (model/tables/kernelnames.h): its
// pieces between "…" appear in the full name in order, a " #N" that tells same-named rows apart aside.

#include <QRegularExpression>
#include <QString>

namespace namecheck {

inline bool shortens(QString shown, const QString &full)
{
    shown.remove(QRegularExpression(QStringLiteral(" #\\d+$")));
    qsizetype from = 0;
    for (const QString &piece : shown.split(QStringLiteral("…"))) {
        const qsizetype at = full.indexOf(piece, from);
        if (at < 0)
            return false;
        from = at + piece.size();
    }
    return true;
}

} // namespace namecheck
