// SPDX-License-Identifier: GPL-3.0-or-later
// Effect sizes of B vs A: with thousands of samples a 0.3 % shift is "significant", so reports say how
// large a difference is, not only whether it exists. All O((n1 + n2) log) — fine for 10^5 × 10^5.
#pragma once

#include <vector>

namespace scopeline::stats {

// Hodges–Lehmann shift: median of all pairwise differences b_j − a_i, with the interval of the test it
// goes with: the shifts d for which mannWhitneyU(a, b − d) keeps the null at `level` (its exact test or
// its tie-corrected normal approximation, as the test chooses), [D_(k), D_(n1·n2−k+1)] for the smallest k
// the test keeps. The level itself, not 1 − a confidence: p may equal it exactly. At d = 0 the test may
// also meet ties across the samples, which no other shift has (durations on one timer tick): a row that
// shows both checks they agree. Fields are NaN for an empty sample; the interval is NaN for a level
// outside (0, 1) or where the test keeps every shift (no interval of such samples has the confidence).
struct ShiftEstimate
{
    double shift;
    double ciLow;
    double ciHigh;
};
ShiftEstimate hodgesLehmann(const std::vector<double> &a, const std::vector<double> &b, double level = 0.05);

// (median(b) − median(a)) / median(a); NaN if a sample is empty or median(a) == 0.
double relativeMedianChange(const std::vector<double> &a, const std::vector<double> &b);

// Cliff's delta P(b > a) − P(b < a) over all pairs, in [−1, 1]; NaN if a sample is empty.
double cliffsDelta(const std::vector<double> &a, const std::vector<double> &b);

} // namespace scopeline::stats
