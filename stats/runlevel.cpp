// SPDX-License-Identifier: GPL-3.0-or-later
#include "stats/runlevel.h"

#include "stats/ranktests.h"
#include "stats/welch.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
                          double confidence, double resolution)
{
    RunLevelTest result;
    std::vector<double> a, b, logA, logB;
    const bool usableA = logsOf(summariesA, a, logA);
    const bool usableB = logsOf(summariesB, b, logB);
    result.runsA = a.size();
    result.runsB = b.size();
    if (!usableA || !usableB || a.size() < 2 || b.size() < 2)
        return result;

    // A summary v known to the timer's step r has its log known to r / v: each side's log variance
    // at least that step's (atResolution), at the side's own level.
    const MeanVariance measuredA = meanVariance(logA), measuredB = meanVariance(logB);
    const auto atLogResolution = [resolution](const MeanVariance &m) {
        return atResolution(m, resolution / std::exp(m.mean));
    };
    const WelchTest welch = welchTest(atLogResolution(measuredA), atLogResolution(measuredB), confidence, 0);
    result.change = std::expm1(welch.delta);
    result.confidence = confidence;
    result.rankP = mannWhitneyU(a, b).p;
    result.p = welch.p;
    result.tied = measuredA.variance == 0 && measuredB.variance == 0;
    result.ciLow = std::expm1(welch.ciLow);
    result.ciHigh = std::expm1(welch.ciHigh);
    return result;
}

RunLevelTest meanChangeTest(const std::vector<double> &valuesA, const std::vector<double> &valuesB,
                            double confidence, double resolution)
{
    RunLevelTest result;
    std::vector<double> a, b;
    for (double v : valuesA)
        if (!std::isnan(v))
            a.push_back(v);
    for (double v : valuesB)
        if (!std::isnan(v))
            b.push_back(v);
    result.runsA = a.size();
    result.runsB = b.size();
    if (a.size() < 2 || b.size() < 2)
        return result;
    const MeanVariance ma = meanVariance(a);
    const WelchTest welch = welchTest(ma, meanVariance(b), confidence, resolution);
    result.p = welch.p;
    result.tied = welch.tied;
    result.rankP = mannWhitneyU(a, b).p;
    if (ma.mean == 0 && welch.delta > 0) {
        result.change = std::numeric_limits<double>::infinity(); // time where A's units had none: new in B
    } else if (ma.mean > 0) {
        result.change = welch.delta / ma.mean;
        result.confidence = confidence;
        if (std::any_of(b.begin(), b.end(), [](double v) { return v != 0; })) {
            result.ciLow = std::max(-1.0, welch.ciLow / ma.mean); // a time is never below zero
            result.ciHigh = welch.ciHigh / ma.mean;
        }
    }
    return result;
}

} // namespace scopeline::stats
