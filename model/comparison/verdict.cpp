// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/verdict.h"

#include "stats/welch.h"

#include <QCoreApplication>

#include <cmath>

namespace scopeline {

bool isFinding(Verdict verdict)
{
    return verdict == Verdict::Faster || verdict == Verdict::Slower || verdict == Verdict::OnlyInA ||
           verdict == Verdict::OnlyInB;
}

int findingSign(Verdict verdict, double change)
{
    if (!isFinding(verdict))
        return 0;
    if (verdict == Verdict::Faster || verdict == Verdict::Slower)
        return verdict == Verdict::Faster ? -1 : 1;
    return change < 0 ? -1 : 1;
}

QString verdictText(Verdict verdict)
{
    switch (verdict) {
    case Verdict::OnlyInA:
        return QCoreApplication::translate("Verdict", "only in A");
    case Verdict::OnlyInB:
        return QCoreApplication::translate("Verdict", "only in B");
    case Verdict::NotFound:
        return QCoreApplication::translate("Verdict", "not found");
    case Verdict::NoSignificantChange:
        return QCoreApplication::translate("Verdict", "no significant change");
    case Verdict::NoMeaningfulChange:
        return QCoreApplication::translate("Verdict", "no meaningful change");
    case Verdict::Faster:
        return QCoreApplication::translate("Verdict", "B faster");
    case Verdict::Slower:
        return QCoreApplication::translate("Verdict", "B slower");
    }
    return {};
}

Verdict runLevelVerdict(double holmP, double change, double alpha, double threshold)
{
    if (!(holmP < alpha) || std::isnan(change)) // NaN p: no test, nothing to claim
        return Verdict::NoSignificantChange;
    if (std::fabs(change) < threshold)
        return Verdict::NoMeaningfulChange;
    return change < 0 ? Verdict::Faster : Verdict::Slower;
}

bool intervalAgrees(double p, double level, double ciLow, double ciHigh)
{
    return (p < level) == (ciLow > 0 || ciHigh < 0);
}

Interval welchIntervalAtLevel(const std::vector<double> &a, const std::vector<double> &b, double p,
                              double level)
{
    const stats::WelchTest welch =
        stats::welchTest(stats::meanVariance(a), stats::meanVariance(b), 1 - level);
    if (!intervalAgrees(p, level, welch.ciLow, welch.ciHigh))
        return {std::nan(""), std::nan("")};
    return {welch.ciLow, welch.ciHigh};
}

void setIntervalAtLevel(stats::RunLevelTest &test, double level, const stats::RunLevelTest &atLevel)
{
    const bool agrees = intervalAgrees(test.p, level, atLevel.ciLow, atLevel.ciHigh);
    test.ciLow = agrees ? atLevel.ciLow : stats::RunLevelTest::kUnset;
    test.ciHigh = agrees ? atLevel.ciHigh : stats::RunLevelTest::kUnset;
    test.confidence = 1 - level;
}

} // namespace scopeline
