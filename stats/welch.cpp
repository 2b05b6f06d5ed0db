// SPDX-License-Identifier: GPL-3.0-or-later
#include "stats/welch.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>

namespace scopeline::stats {

MeanVariance meanVariance(const std::vector<double> &values)
{
    MeanVariance out;
    double origin = 0, sum = 0;
    for (double v : values)
        if (!std::isnan(v)) {
            if (out.n++ == 0)
                origin = v;
            sum += v - origin;
        }
    if (out.n == 0)
        return out;
    const double shift = sum / double(out.n);
    out.mean = origin + shift;
    double squares = 0;
    for (double v : values)
        if (!std::isnan(v))
            squares += (v - origin - shift) * (v - origin - shift);
    out.variance = out.n > 1 ? squares / double(out.n - 1) : 0;
    return out;
}

int64_t durationTick(const std::vector<double> &a, const std::vector<double> &b)
{
    int64_t step = 0;
    for (const std::vector<double> *durations : {&a, &b})
        for (double d : *durations) {
            if (!std::isfinite(d))
                continue;
            // Durations are whole ns mostly on one tick: a value on it costs a division, not a gcd.
            int64_t ns = std::fabs(d) < 0x1p62 ? int64_t(d) : 0;
            if (double(ns) != d) // not whole (or too large to be)
                ns = std::llround(d);
            ns = std::llabs(ns);
            if (step == 0 || ns % step != 0)
                step = std::gcd(step, ns);
            if (step == 1)
                return 1;
        }
    return step;
}

MeanVariance atResolution(MeanVariance sample, double resolution)
{
    sample.variance = std::max(sample.variance, resolution * resolution / 12);
    return sample;
}

WelchTest welchTest(const MeanVariance &measuredA, const MeanVariance &measuredB, double confidence,
                    double resolution)
{
    WelchTest result;
    const MeanVariance a = atResolution(measuredA, resolution), b = atResolution(measuredB, resolution);
    if (a.n == 0 || b.n == 0)
        return result;
    result.delta = b.mean - a.mean;
    if (a.n < 2 || b.n < 2)
        return result;
    const double va = a.variance / double(a.n), vb = b.variance / double(b.n);
    const double se2 = va + vb;
    result.tied = measuredA.variance == 0 && measuredB.variance == 0;
    if (!(se2 > 0)) // no spread and no resolution to stand for it: nothing to test
        return result;
    result.df = se2 * se2 / (va * va / double(a.n - 1) + vb * vb / double(b.n - 1));
    const boost::math::students_t dist(result.df);
    const double se = std::sqrt(se2);
    result.p = 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(result.delta) / se));
    if (confidence > 0 && confidence < 1) {
        const double q = boost::math::quantile(boost::math::complement(dist, (1 - confidence) / 2));
        result.ciLow = result.delta - q * se;
        result.ciHigh = result.delta + q * se;
    }
    return result;
}

RatioInterval fiellerInterval(const MeanVariance &measuredA, const MeanVariance &measuredB, double confidence,
                              double resolution)
{
    RatioInterval result;
    const MeanVariance a = atResolution(measuredA, resolution), b = atResolution(measuredB, resolution);
    if (a.n < 2 || b.n < 2 || !(a.mean != 0) || !(confidence > 0 && confidence < 1))
        return result;
    result.ratio = b.mean / a.mean;
    const double sa = a.variance / double(a.n), sb = b.variance / double(b.n); // variances of the means
    if (!(sa + sb > 0))
        return result;
    // Welch's degrees of freedom of B − A, as its test has them: then 1 is outside the interval
    // exactly where that test rejects at this confidence, and the ratio never contradicts the verdict.
    const double df = (sa + sb) * (sa + sb) / (sb * sb / double(b.n - 1) + sa * sa / double(a.n - 1));
    const double t = boost::math::quantile(boost::math::complement(boost::math::students_t(df), (1 - confidence) / 2));
    // (b − θa)² = t²(sb + θ²sa): θ²(a² − t²sa) − 2abθ + (b² − t²sb) = 0, bounded when a² > t²sa
    const double lead = a.mean * a.mean - t * t * sa;
    const double square = a.mean * a.mean * sb + b.mean * b.mean * sa - t * t * sa * sb;
    if (!(lead != 0) || !(square >= 0))
        return result; // every θ: the whole line
    const double root = std::sqrt(square);
    const double x = (a.mean * b.mean - t * root) / lead, y = (a.mean * b.mean + t * root) / lead;
    // lead > 0: the θ between the roots; lead < 0: those outside them, the roots' gap rejected
    (lead > 0 ? result.low : result.gapLow) = std::min(x, y);
    (lead > 0 ? result.high : result.gapHigh) = std::max(x, y);
    return result;
}

} // namespace scopeline::stats
