// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The run-level verdict rule, one function so that every table that tests runs (the kernel diff, the
// scope comparison's pooled rows) says "faster" under the same conditions.

#include "scopecomparison.h"

namespace scopeline {

// From a run-level test (stats/runlevel.h): "B faster"/"B slower" only when the Holm-adjusted
// run-level p is below alpha and the run-level change (ratio of geometric means − 1) is at least
// threshold in size; a significant smaller change is NoMeaningfulChange; anything else, an untested
// row (NaN p) included, NoSignificantChange.
Verdict runLevelVerdict(double holmP, double change, double alpha, double threshold);

} // namespace scopeline
