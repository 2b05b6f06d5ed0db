// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Welch's t-test of a difference of means (unequal variances), with its Welch–Satterthwaite
// confidence interval: scipy.stats.ttest_ind(b, a, equal_var=False) and the interval that goes with it.

#include <cstddef>
#include <limits>
#include <vector>

namespace scopeline::stats {

// A sample as the test needs it: size, mean and variance (n − 1 denominator).
struct MeanVariance
{
    std::size_t n = 0;
    double mean = std::numeric_limits<double>::quiet_NaN();
    double variance = 0;
};
// The NaN-free values' size, mean and variance; deviations are taken from the first value, so that
// equal values give exactly zero variance.
MeanVariance meanVariance(const std::vector<double> &values);

struct WelchTest
{
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
    double delta = kUnset;                  // mean B − mean A
    double p = kUnset;                      // two-sided; NaN below 2 values a side or without spread
    double ciLow = kUnset, ciHigh = kUnset; // interval of delta at the asked confidence
    double df = kUnset;                     // Welch–Satterthwaite degrees of freedom
    bool valid() const { return p == p; }
};

WelchTest welchTest(const MeanVariance &a, const MeanVariance &b, double confidence = 0.95);

} // namespace scopeline::stats
