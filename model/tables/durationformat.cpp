// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/tables/durationformat.h"

#include <cmath>

namespace scopeline {

QString formatDuration(double ns)
{
    if (std::isnan(ns))
        return QStringLiteral("–");
    const double magnitude = std::fabs(ns);
    if (magnitude < 1e3)
        return QStringLiteral("%1 ns").arg(ns, 0, 'f', std::trunc(ns) == ns ? 0 : 1);
    if (magnitude < 1e6)
        return QStringLiteral("%1 µs").arg(ns / 1e3, 0, 'f', magnitude < 1e4 ? 3 : magnitude < 1e5 ? 2 : 1);
    if (magnitude < 1e9)
        return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'f', magnitude < 1e7 ? 3 : magnitude < 1e8 ? 2 : 1);
    return QStringLiteral("%1 s").arg(ns / 1e9, 0, 'f', 3);
}

QString formatSignedDuration(double ns)
{
    return ns > 0 ? QLatin1Char('+') + formatDuration(ns) : formatDuration(ns);
}

} // namespace scopeline
