// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The unit of a chart's duration axis: ns, µs or ms, whichever keeps the largest value readable.

#include <QString>

namespace scopeline {

struct DurationUnit
{
    double ns = 1; // one unit in ns
    QString name;

    static DurationUnit fitting(double largestNs)
    {
        if (largestNs >= 1e6)
            return {1e6, QStringLiteral("ms")};
        if (largestNs >= 1e3)
            return {1e3, QStringLiteral("µs")};
        return {1, QStringLiteral("ns")};
    }
};

} // namespace scopeline
