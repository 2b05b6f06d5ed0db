// SPDX-License-Identifier: GPL-3.0-or-later
#include "stats/welch.h"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>

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

WelchTest welchTest(const MeanVariance &a, const MeanVariance &b, double confidence)
{
    WelchTest result;
    if (a.n == 0 || b.n == 0)
        return result;
    result.delta = b.mean - a.mean;
    if (a.n < 2 || b.n < 2)
        return result;
    const double va = a.variance / double(a.n), vb = b.variance / double(b.n);
    const double se2 = va + vb;
    if (!(se2 > 0)) // no spread on either side: nothing to test against (scipy answers NaN too)
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

} // namespace scopeline::stats
