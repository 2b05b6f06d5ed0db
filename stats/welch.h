// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Welch's t-test of a difference of means (unequal variances), with its Welch–Satterthwaite
// confidence interval: scipy.stats.ttest_ind(b, a, equal_var=False) and the interval that goes with it.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace scopeline::stats {

// A sample as the test needs it: size, mean and variance (n − 1 denominator).
struct MeanVariance
{
    std::size_t n = 0;
    double mean = std::numeric_limits<double>::quiet_NaN();
    double variance = 0;
};
// The NaN-free values' size, mean and variance; deviations are taken from the first value, so that
// equal values give exactly zero variance.
MeanVariance meanVariance(const std::vector<double> &values);

// The smallest step of two sets of durations together (their greatest common divisor, in ns; 0 when every
// value is zero): GPU timers tick in steps (32 ns in JAX's H100 traces), which is how closely a value is
// known. One set of equal values gives the value itself, not the timer's tick, so callers take the
// divisor of all the durations a comparison has (std::gcd of these).
int64_t durationTick(const std::vector<double> &a, const std::vector<double> &b = {});

// Where durations were rounded to whole ns after the timer ticked (JAX's H100 traces: a 32 ns tick, 1 ns
// either way, so their GCD is 1), the tick: the largest step of kMinRoundedTick ns or more that every
// duration added lies within 1 ns of a multiple of, read from kMinRoundedTick durations or more of at
// least that length (fewer could fit a step by chance); 0 when there is none.
class RoundedTick
{
public:
    static constexpr int64_t kMinRoundedTick = 16;
    void add(int64_t ns); // a duration in whole ns
    int64_t tick() const;

private:
    std::vector<int64_t> m_steps; // the steps every duration so far fits, once seeded
    bool m_seeded = false, m_none = false;
    std::size_t m_telling = 0; // durations of kMinRoundedTick ns or more
};

// A value is known only to the timer's step (resolution, ns): a side's variance is never taken below
// that of rounding to it, resolution² / 12. Units that all repeat one value (timer ticks make this
// common) are then judged as units with that least spread, as a tiny measured spread would be: a tie
// never reads as less certain than a near-tie.
MeanVariance atResolution(MeanVariance sample, double resolution);

struct WelchTest
{
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
    double delta = kUnset;                  // mean B − mean A
    double p = kUnset;                      // two-sided; NaN below 2 values a side
    double ciLow = kUnset, ciHigh = kUnset; // interval of delta at the asked confidence
    double df = kUnset;                     // Welch–Satterthwaite degrees of freedom
    // Each side's values were all equal: the spread tested is the resolution's (atResolution).
    bool tied = false;
    bool valid() const { return p == p; }
};

// resolution: how closely a value is known (a timer step), applied to each side by atResolution.
WelchTest welchTest(const MeanVariance &a, const MeanVariance &b, double confidence = 0.95,
                    double resolution = 1);

// Fieller's interval of the ratio mean B / mean A of two independent samples: the θ whose
// b − θ·a is not rejected by a t-test, with the degrees of freedom of Welch's test of b − a, so that
// the interval holds 1 exactly where that test does not reject. Bounded only when A's mean is
// itself known to differ from 0 at that confidence; else unbounded (low and high NaN): the whole line,
// or the line less one gap (gapLow, gapHigh), the θ rejected. Variances at `resolution` as Welch's.
struct RatioInterval
{
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
    double ratio = kUnset; // mean B / mean A
    double low = kUnset, high = kUnset;
    double gapLow = kUnset, gapHigh = kUnset; // unbounded: (-inf, gapLow] ∪ [gapHigh, inf), when set
    bool bounded() const { return low == low && high == high; }
};
RatioInterval fiellerInterval(const MeanVariance &a, const MeanVariance &b, double confidence = 0.95,
                              double resolution = 1);

} // namespace scopeline::stats
