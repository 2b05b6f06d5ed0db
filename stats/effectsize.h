// SPDX-License-Identifier: GPL-3.0-or-later
// Effect sizes of B vs A: with thousands of samples a 0.3 % shift is "significant", so reports say how
// large a difference is, not only whether it exists. All O((n1 + n2) log) — fine for 10^5 × 10^5.
#pragma once

#include <vector>

namespace scopeline::stats {

// Hodges–Lehmann shift: median of all pairwise differences b_j − a_i, with the distribution-free (Moses)
// confidence interval [D_(k+1), D_(n1·n2−k)], k = floor(n1·n2/2 − z_{1−α/2}·√(n1·n2·(n1+n2+1)/12)); with
// a sample of ≤ 8, k from the exact Mann-Whitney distribution, as its test. Fields are NaN for an empty
// sample; the interval is NaN for a confidence outside (0, 1) or one no interval of such samples has.
struct ShiftEstimate
{
    double shift;
    double ciLow;
    double ciHigh;
};
ShiftEstimate hodgesLehmann(const std::vector<double> &a, const std::vector<double> &b,
                            double confidence = 0.95);

// (median(b) − median(a)) / median(a); NaN if a sample is empty or median(a) == 0.
double relativeMedianChange(const std::vector<double> &a, const std::vector<double> &b);

// Cliff's delta P(b > a) − P(b < a) over all pairs, in [−1, 1]; NaN if a sample is empty.
double cliffsDelta(const std::vector<double> &a, const std::vector<double> &b);

} // namespace scopeline::stats
