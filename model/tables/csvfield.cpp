// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/tables/csvfield.h"

#include <QLocale>

#include <cmath>

namespace scopeline {

QString csvText(QString text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')))
        return text;
    return QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

QString csvNumber(double value)
{
    // the fewest digits that read back as the same double: 0.975, not 0.97499999999999998
    return std::isnan(value) ? QString() : QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QString csvValue(const QVariant &value)
{
    switch (value.typeId()) {
    case QMetaType::Double:
    case QMetaType::Float:
        return csvNumber(value.toDouble());
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::UInt:
    case QMetaType::ULongLong:
        return QString::number(value.toLongLong());
    default:
        return csvText(value.toString());
    }
}

} // namespace scopeline
