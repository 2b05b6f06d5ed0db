// SPDX-License-Identifier: GPL-3.0-or-later
// Descriptive figures of one sample of durations (ns): the numbers behind a boxplot and a summary row.
// Definitions follow numpy (linear-interpolation quantiles, n−1 standard deviation) so they can be checked.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

namespace scopeline::stats {

// Default-constructed (and for empty input) every figure is NaN, so an unset row never reads as zeros.
struct Descriptive
{
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
    std::size_t n = 0;
    double mean = kUnset;
    double std = kUnset; // sample standard deviation (n−1); NaN if n < 2
    double min = kUnset;
    double q1 = kUnset;
    double median = kUnset;
    double q3 = kUnset;
    double max = kUnset;
    double iqr = kUnset;
    double whiskerLow = kUnset;   // smallest value >= q1 − 1.5·iqr
    double whiskerHigh = kUnset;  // largest value <= q3 + 1.5·iqr
    std::vector<double> outliers; // values beyond the whiskers, ascending
};

// NaN values are ignored (treated as missing); every figure is NaN when nothing is left.
Descriptive describe(std::vector<double> values);

// numpy's default ('linear') quantile of already sorted data, q in [0, 1]; NaN if empty.
double quantileSorted(const std::vector<double> &sorted, double q);

// Median (mean of the two middle values for even n); NaN values ignored, NaN if empty.
double median(std::vector<double> values);

// The values without NaNs, ascending: the common first step of the rank-based statistics.
std::vector<double> sortedWithoutNaN(std::vector<double> values);

} // namespace scopeline::stats
