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

double timerStep(const std::vector<double> &durations)
{
    int64_t step = 0;
    for (double d : durations)
        if (std::isfinite(d))
            step = std::gcd(step, std::llabs(std::llround(d)));
    return double(std::max<int64_t>(step, 1));
}

double separatedSamplesP(std::size_t nA, std::size_t nB, bool equal)
{
    if (equal)
        return 1.0;
    // 2 / C(nA + nB, nA), as a product so that large counts do not overflow
    double p = 2;
    for (std::size_t i = 1; i <= nA; ++i)
        p *= double(i) / double(nB + i);
    return std::min(p, 1.0);
}

WelchTest welchTest(const MeanVariance &a, const MeanVariance &b, double confidence, double resolution)
{
    WelchTest result;
    if (a.n == 0 || b.n == 0)
        return result;
    result.delta = b.mean - a.mean;
    if (a.n < 2 || b.n < 2)
        return result;
    const double va = a.variance / double(a.n), vb = b.variance / double(b.n);
    const double se2 = va + vb;
    if (!(se2 > 0)) { // no spread on either side: scipy answers NaN; the values are known to a timer step
        result.tied = true;
        result.p = separatedSamplesP(a.n, b.n, result.delta == 0);
        result.ciLow = result.delta - resolution;
        result.ciHigh = result.delta + resolution;
        return result;
    }
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

} // namespace scopeline::stats
