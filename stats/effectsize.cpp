// SPDX-License-Identifier: GPL-3.0-or-later
#include "stats/effectsize.h"

#include "stats/descriptive.h"
#include "stats/ranktests.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>

namespace scopeline::stats {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Maps doubles onto unsigned integers in the same order, so bisection over the keys walks through
// every representable double between two bounds and ends exactly on one.
std::uint64_t orderedKey(double x)
{
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    constexpr std::uint64_t sign = std::uint64_t{1} << 63;
    return (bits & sign) ? ~bits : (bits | sign);
}

double fromOrderedKey(std::uint64_t key)
{
    constexpr std::uint64_t sign = std::uint64_t{1} << 63;
    const std::uint64_t bits = (key & sign) ? (key & ~sign) : ~key;
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

// The sorted samples and the order statistics of their n1·n2 pairwise differences b_j − a_i, which are
// never materialised: 10^5 × 10^5 samples have 10^10 of them.
class PairwiseDifferences
{
public:
    PairwiseDifferences(std::vector<double> sortedA, std::vector<double> sortedB)
        : a_(std::move(sortedA)), b_(std::move(sortedB))
    {}

    std::uint64_t count() const { return std::uint64_t{a_.size()} * b_.size(); }

    // Number of differences <= t, in O(n1 + n2). Rounding is monotone, so fl(b_j − a_i) grows with j and
    // shrinks as a_i grows: the qualifying prefix of b only gets longer as i walks a upwards.
    std::uint64_t countAtMost(double t) const
    {
        std::uint64_t total = 0;
        std::size_t j = 0;
        for (std::size_t i = 0; i < a_.size(); ++i) {
            while (j < b_.size() && b_[j] - a_[i] <= t)
                ++j;
            total += j;
        }
        return total;
    }

    // The rank-th smallest difference (1-based): the smallest double t with countAtMost(t) >= rank.
    // Each bisection step halves a range of at most 2^64 keys, so this takes <= 64 counting passes and
    // lands on a value that is itself a difference.
    double select(std::uint64_t rank) const
    {
        std::uint64_t lo = orderedKey(b_.front() - a_.back());
        std::uint64_t hi = orderedKey(b_.back() - a_.front());
        while (lo < hi) {
            const std::uint64_t mid = lo + (hi - lo) / 2;
            if (countAtMost(fromOrderedKey(mid)) >= rank)
                hi = mid;
            else
                lo = mid + 1;
        }
        return fromOrderedKey(lo);
    }

private:
    std::vector<double> a_;
    std::vector<double> b_;
};

} // namespace

ShiftEstimate hodgesLehmann(const std::vector<double> &a, const std::vector<double> &b, double level)
{
    std::vector<double> sa = sortedWithoutNaN(a);
    std::vector<double> sb = sortedWithoutNaN(b);
    if (sa.empty() || sb.empty())
        return {kNaN, kNaN, kNaN};
    const std::size_t m = sa.size(), n = sb.size();
    const double ties = tieTerm(sa) + tieTerm(sb);
    const PairwiseDifferences diffs(std::move(sa), std::move(sb));
    const std::uint64_t total = diffs.count();

    ShiftEstimate out{kNaN, kNaN, kNaN};
    if (total % 2 == 1) {
        out.shift = diffs.select(total / 2 + 1);
    } else {
        const double lower = diffs.select(total / 2);
        // The next order statistic often equals the lower one (ties); one count avoids a second bisection.
        const double upper = diffs.countAtMost(lower) > total / 2 ? lower : diffs.select(total / 2 + 1);
        out.shift = (lower + upper) / 2.0;
    }

    if (!(level > 0.0 && level < 1.0))
        return out;
    // The interval is the set of shifts d that mannWhitneyU(a, b − d) does not reject at `level`.
    // Between two neighbouring differences no a_i equals a b_j − d: U1 is the count k of differences
    // below d, and the only ties are those within each sample, which a shift keeps. So the shifts of a
    // gap are kept when the test's p of U1 = k is at least `level`, and since that p grows
    // towards k = mn/2, the kept gaps run from kmin to mn − kmin: the interval is [D(kmin), D(mn−kmin+1)]
    // (1-based order statistics). When even k = 0 is kept, no interval bounds the shift: NaN.
    const std::uint64_t half = total / 2;
    // As the test: scipy's exact distribution for small samples without ties, where U1 = k is below the
    // states it computes, P(U ≤ k) for k = 0 … cdf.size() − 1; the normal approximation past them.
    std::vector<double> cdf;
    if ((m <= 8 || n <= 8) && ties == 0.0)
        cdf = mannWhitneyExactCdf(m, n,
                                  std::size_t(std::min<std::uint64_t>(half, kMannWhitneyExactStates - 1)));
    const auto kept = [&](std::uint64_t k) {
        if (k < cdf.size())
            return std::min(2.0 * cdf[std::size_t(k)], 1.0) >= level;
        return mannWhitneyNormalP(double(k), m, n, ties) >= level;
    };
    std::uint64_t lo = 0, hi = half; // kept(half): U1 at the middle has p 1
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (kept(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    if (lo == 0)
        return out;
    out.ciLow = diffs.select(lo);
    out.ciHigh = diffs.select(total - lo + 1);
    return out;
}

double relativeMedianChange(const std::vector<double> &a, const std::vector<double> &b)
{
    const double ma = median(a);
    const double mb = median(b);
    if (std::isnan(ma) || std::isnan(mb) || ma == 0.0)
        return kNaN;
    return (mb - ma) / ma;
}

double cliffsDelta(const std::vector<double> &a, const std::vector<double> &b)
{
    const std::vector<double> sa = sortedWithoutNaN(a);
    const std::vector<double> sb = sortedWithoutNaN(b);
    if (sa.empty() || sb.empty())
        return kNaN;
    // For each b_j (ascending) count a below and above it with two monotone pointers.
    std::uint64_t greater = 0; // pairs with b_j > a_i
    std::uint64_t less = 0;    // pairs with b_j < a_i
    std::size_t below = 0, atMost = 0;
    for (double v : sb) {
        while (below < sa.size() && sa[below] < v)
            ++below;
        while (atMost < sa.size() && sa[atMost] <= v)
            ++atMost;
        greater += below;
        less += sa.size() - atMost;
    }
    const double pairs = static_cast<double>(sa.size()) * static_cast<double>(sb.size());
    return (static_cast<double>(greater) - static_cast<double>(less)) / pairs;
}

} // namespace scopeline::stats
