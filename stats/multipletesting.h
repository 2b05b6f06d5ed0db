// SPDX-License-Identifier: GPL-3.0-or-later
// Multiple-testing correction for comparing many scopes at once, so that one of hundreds of
// tests being "significant" by chance is not reported as a finding.
#pragma once

#include <vector>

namespace scopeline::stats {

// Holm's step-down adjusted p-values, in input order: monotone in the raw p-values and capped at 1.
// NaN p-values (tests that could not run) stay NaN and do not count towards the number of tests m.
std::vector<double> holmAdjust(const std::vector<double> &p);

} // namespace scopeline::stats
