// SPDX-License-Identifier: GPL-3.0-or-later
#include "stats/runlevel.h"

#include "stats/ranktests.h"
#include "stats/welch.h"

#include <cmath>

namespace scopeline::stats {

namespace {

// The non-NaN summaries (kept) and their logs. False when one of them is zero, negative or infinite:
// a ratio of such values means nothing, so no figure is given.
bool logsOf(const std::vector<double> &summaries, std::vector<double> &kept, std::vector<double> &logs)
{
    bool usable = true;
    for (double value : summaries) {
        if (std::isnan(value))
            continue;
        usable = usable && value > 0 && std::isfinite(value);
        kept.push_back(value); // counted as a run either way
        logs.push_back(std::log(value));
    }
    return usable;
}

} // namespace

RunLevelTest runLevelTest(const std::vector<double> &summariesA, const std::vector<double> &summariesB,
                          double confidence)
{
    RunLevelTest result;
    std::vector<double> a, b, logA, logB;
    const bool usableA = logsOf(summariesA, a, logA);
    const bool usableB = logsOf(summariesB, b, logB);
    result.runsA = a.size();
    result.runsB = b.size();
    if (!usableA || !usableB || a.size() < 2 || b.size() < 2)
        return result;

    const WelchTest welch = welchTest(meanVariance(logA), meanVariance(logB), confidence);
    result.change = std::expm1(welch.delta);
    result.rankP = mannWhitneyU(a, b).p;
    if (!welch.valid()) {
        // Every run gave the same value on both sides: no spread to test against. Equal values
        // are no change (p = 1); different ones a certain change (p = 0). scipy answers NaN here.
        result.p = welch.delta == 0 ? 1.0 : 0.0;
        result.ciLow = result.ciHigh = result.change;
        return result;
    }
    result.p = welch.p;
    result.ciLow = std::expm1(welch.ciLow);
    result.ciHigh = std::expm1(welch.ciHigh);
    return result;
}

} // namespace scopeline::stats
