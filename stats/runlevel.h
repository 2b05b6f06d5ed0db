// SPDX-License-Identifier: GPL-3.0-or-later
// Run-level comparison: the unit of replication is the run (one profiled process), so each run
// contributes one summary (its median duration) and runs, not samples, are compared. Pooling samples
// of several runs into one rank test turns run-to-run noise into "significance".
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

namespace scopeline::stats {

// Welch's t-test on the logarithms of the per-run summaries (scipy.stats.ttest_ind(equal_var=False)
// on np.log): a two-sided p and a confidence interval of the ratio of geometric means B/A, reported as
// a relative change (ratio − 1). Beside it, the Mann–Whitney p on the same summaries (exact without
// ties), which cannot go below 0.1 for 3 vs 3 runs: shown for reference, the verdict uses Welch.
// Every figure is NaN when a side has fewer than 2 runs or a summary is not positive and finite.
struct RunLevelTest
{
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
    std::size_t runsA = 0, runsB = 0;       // runs that have a summary (runs without samples do not count)
    double p = kUnset;                      // Welch two-sided p on log summaries
    double change = kUnset;                 // exp(mean log B − mean log A) − 1, e.g. −0.017
    double ciLow = kUnset, ciHigh = kUnset; // confidence interval of change
    double confidence = kUnset;             // its level, as asked
    double rankP = kUnset;                  // Mann–Whitney two-sided p on the summaries
    // Every run gave the same value on each side (timer ticks): the spread tested is the timer
    // step's (stats/welch.h, atResolution), not a measured one.
    bool tied = false;
    bool valid() const { return runsA >= 2 && runsB >= 2 && p == p; }
};

// summariesA/B: one value per run (NaN entries, runs without samples, are left out). resolution: how
// closely a summary is known (the timer step, ns): no side's spread is taken as less than its.
RunLevelTest runLevelTest(const std::vector<double> &summariesA, const std::vector<double> &summariesB,
                          double confidence = 0.95, double resolution = 1);

// The same figures for values that may be zero (a kernel's GPU time per run, 0 in a run without it):
// Welch on the values themselves, change = (mean B − mean A) / mean A and its interval likewise
// (+inf, without an interval, when every value of A is 0 and B's mean is not), bounded as the time is: never
// below −100 %, and none at all when every value of B is 0 (the change is then exactly −100 %); ties as
// above.
RunLevelTest meanChangeTest(const std::vector<double> &valuesA, const std::vector<double> &valuesB,
                            double confidence = 0.95, double resolution = 1);

} // namespace scopeline::stats
