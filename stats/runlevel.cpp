// SPDX-License-Identifier: GPL-3.0-or-later
#include "stats/runlevel.h"

#include "stats/ranktests.h"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>

namespace scopeline::stats {

namespace {

struct LogSample
{
    std::size_t n = 0;
    double mean = 0;
    double variance = 0; // n − 1 denominator
};

// The non-NaN summaries and the mean and variance of their logs. False when one of them is zero,
// negative or infinite: a ratio of such values means nothing, so no figure is given.
bool logSample(const std::vector<double> &summaries, std::vector<double> &kept, LogSample &out)
{
    bool usable = true;
    for (double value : summaries) {
        if (std::isnan(value))
            continue;
        usable = usable && value > 0 && std::isfinite(value);
        kept.push_back(value); // counted as a run either way
    }
    out.n = kept.size();
    if (!usable || out.n == 0)
        return usable;
    // Deviations from the first log, so that equal runs give exactly zero spread (a mean computed as
    // sum / n can miss the common value by an ulp and leave a spurious variance of 1e-32).
    const double origin = std::log(kept.front());
    double sum = 0;
    for (double value : kept)
        sum += std::log(value) - origin;
    const double shift = sum / double(out.n);
    out.mean = origin + shift;
    double squares = 0;
    for (double value : kept) {
        const double deviation = std::log(value) - origin - shift;
        squares += deviation * deviation;
    }
    out.variance = out.n > 1 ? squares / double(out.n - 1) : 0;
    return true;
}

} // namespace

RunLevelTest runLevelTest(const std::vector<double> &summariesA, const std::vector<double> &summariesB,
                          double confidence)
{
    RunLevelTest result;
    std::vector<double> a, b;
    LogSample la, lb;
    const bool usableA = logSample(summariesA, a, la);
    const bool usableB = logSample(summariesB, b, lb);
    result.runsA = a.size();
    result.runsB = b.size();
    if (!usableA || !usableB || la.n < 2 || lb.n < 2)
        return result;

    const double diff = lb.mean - la.mean;
    const double va = la.variance / double(la.n), vb = lb.variance / double(lb.n);
    const double se2 = va + vb;
    result.change = std::expm1(diff);
    result.rankP = mannWhitneyU(a, b).p;
    if (se2 == 0) {
        // Every run gave the same value on both sides: no spread to test against. Equal values
        // are no change (p = 1); different ones a certain change (p = 0). scipy answers NaN here.
        result.p = diff == 0 ? 1.0 : 0.0;
        result.ciLow = result.ciHigh = result.change;
        return result;
    }
    // Welch–Satterthwaite degrees of freedom.
    const double df = se2 * se2 / (va * va / double(la.n - 1) + vb * vb / double(lb.n - 1));
    const boost::math::students_t dist(df);
    const double t = diff / std::sqrt(se2);
    result.p = 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(t)));
    if (confidence > 0 && confidence < 1) {
        const double q = boost::math::quantile(boost::math::complement(dist, (1 - confidence) / 2));
        result.ciLow = std::expm1(diff - q * std::sqrt(se2));
        result.ciHigh = std::expm1(diff + q * std::sqrt(se2));
    }
    return result;
}

} // namespace scopeline::stats
