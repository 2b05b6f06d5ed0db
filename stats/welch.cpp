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

void RoundedTick::add(int64_t ns)
{
    ns = std::llabs(ns);
    if (m_none || ns <= 1) // 0 and 1 ns lie within 1 ns of a multiple of any step
        return;
    if (!m_seeded) {
        if (ns < kMinRoundedTick - 1) { // 2 to 14 ns: within 1 ns of no multiple of a step of 16 or more
            m_none = true;
            return;
        }
        // A step that every duration fits divides ns - 1, ns or ns + 1: the candidates.
        for (int64_t v = ns - 1; v <= ns + 1; ++v)
            for (int64_t k = 1; k * k <= v; ++k)
                if (v % k == 0)
                    for (const int64_t step : {k, v / k})
                        if (step >= kMinRoundedTick)
                            m_steps.push_back(step);
        std::sort(m_steps.begin(), m_steps.end());
        m_steps.erase(std::unique(m_steps.begin(), m_steps.end()), m_steps.end());
        m_seeded = true;
    }
    m_telling += ns >= kMinRoundedTick;
    m_steps.erase(std::remove_if(m_steps.begin(), m_steps.end(),
                                 [ns](int64_t step) {
                                     const int64_t r = ns % step;
                                     return r > 1 && r < step - 1;
                                 }),
                  m_steps.end());
    m_none = m_steps.empty();
}

int64_t RoundedTick::tick() const
{
    return !m_none && m_seeded && m_telling >= std::size_t(kMinRoundedTick) ? m_steps.back() : 0;
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
