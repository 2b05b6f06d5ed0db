// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a row says, and the run-level verdict rule: one function so that every table that tests runs
// (the kernel diff, the scope comparison's pooled rows, the step breakdown) says "faster" under the
// same conditions.

#include <QString>

namespace scopeline {

// What a row says, in the words a performance engineer would use.
enum class Verdict { OnlyInA, OnlyInB, NotFound, NoSignificantChange, NoMeaningfulChange, Faster, Slower };
QString verdictText(Verdict verdict);

// From a run-level test (stats/runlevel.h): "B faster"/"B slower" only when the Holm-adjusted
// run-level p is below alpha and the run-level change (ratio of geometric means − 1) is at least
// threshold in size; a significant smaller change is NoMeaningfulChange; anything else, an untested
// row (NaN p) included, NoSignificantChange.
Verdict runLevelVerdict(double holmP, double change, double alpha, double threshold);

} // namespace scopeline
