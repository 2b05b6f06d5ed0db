// SPDX-License-Identifier: GPL-3.0-or-later
// Multiple-testing correction for comparing many scopes at once, so that one of hundreds of
// tests being "significant" by chance is not reported as a finding.
#pragma once

#include <vector>

namespace scopeline::stats {

// Holm's step-down adjusted p-values, in input order: monotone in the raw p-values and capped at 1.
// NaN p-values (tests that could not run) stay NaN and do not count towards the number of tests m.
std::vector<double> holmAdjust(const std::vector<double> &p);

// The significance level each test is judged at by Holm's step-down procedure at `alpha`, in input
// order: the k-th smallest of m p-values at alpha / (m − k + 1) while every smaller one was rejected;
// from the first that was not, the rest at that step's level. Tied p-values are judged at the level of
// the first of them (k counts only the smaller ones), so equal tests get equal intervals. So p < level
// exactly when holmAdjust(p) < alpha, and a (1 − level) confidence interval of the same test excludes the
// null value exactly when the row is significant. NaN p-values get a NaN level and do not count in m.
std::vector<double> holmLevels(const std::vector<double> &p, double alpha);

} // namespace scopeline::stats
