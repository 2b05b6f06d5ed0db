// SPDX-License-Identifier: GPL-3.0-or-later
#include "verdict.h"

#include <cmath>

namespace scopeline {

Verdict runLevelVerdict(double holmP, double change, double alpha, double threshold)
{
    if (!(holmP < alpha) || std::isnan(change)) // NaN p: no test, nothing to claim
        return Verdict::NoSignificantChange;
    if (std::fabs(change) < threshold)
        return Verdict::NoMeaningfulChange;
    return change < 0 ? Verdict::Faster : Verdict::Slower;
}

} // namespace scopeline
