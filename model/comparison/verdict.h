// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a row says, and the run-level verdict rule: one function so that every table that tests runs
// (the kernel diff, the scope comparison's pooled rows, the step breakdown) says "faster" under the
// same conditions.

#include "stats/runlevel.h"

#include <QString>

#include <vector>

namespace scopeline {

// What a row says, in the words a performance engineer would use.
enum class Verdict { OnlyInA, OnlyInB, NotFound, NoSignificantChange, NoMeaningfulChange, Faster, Slower };
QString verdictText(Verdict verdict);
// B faster or slower, or on one side only: a difference the data shows, which charts and tables may
// colour by its sign; the others are within the noise (or not there).
bool isFinding(Verdict verdict);
// The way a finding goes: −1 B less (faster, or only in A), +1 B more; 0 for no finding. change (B − A)
// tells the way of a row on one side only.
int findingSign(Verdict verdict, double change);

// From a run-level test (stats/runlevel.h): "B faster"/"B slower" only when the Holm-adjusted
// run-level p is below alpha and the run-level change (ratio of geometric means − 1) is at least
// threshold in size; a significant smaller change is NoMeaningfulChange; anything else, an untested
// row (NaN p) included, NoSignificantChange.
Verdict runLevelVerdict(double holmP, double change, double alpha, double threshold);

// Whether a row's interval says what its test does: it excludes 0 exactly when p < level, the level
// the row is judged at (alpha, or its Holm level: stats::holmLevels). An interval from the test at
// confidence 1 − level always does; a tie's (± one timer step, not from the test) may not, and is
// then not shown.
bool intervalAgrees(double p, double level, double ciLow, double ciHigh);

// A row's run-level test takes the interval of the same test at its level (`atLevel`, computed at
// confidence 1 − level), where it agrees; and that confidence.
void setIntervalAtLevel(stats::RunLevelTest &test, double level, const stats::RunLevelTest &atLevel);

// Welch's interval of the difference of two sets of unit values at confidence 1 − level, where it
// agrees with p (intervalAgrees); NaN ends where it does not.
struct Interval
{
    double low, high;
};
Interval welchIntervalAtLevel(const std::vector<double> &a, const std::vector<double> &b, double p,
                              double level);

} // namespace scopeline
