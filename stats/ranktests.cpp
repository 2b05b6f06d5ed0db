// SPDX-License-Identifier: GPL-3.0-or-later
#include "stats/ranktests.h"

#include <boost/math/distributions/chi_squared.hpp>

#include "stats/descriptive.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <limits>
#include <random>

namespace scopeline::stats {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kSqrt2 = 1.41421356237309504880;

// Rank figures of a within the pooled sample, from a merge of the two sorted samples.
struct Pooled
{
    double r1 = 0.0;      // sum of a's average ranks
    double tieTerm = 0.0; // Σ (t³ − t) over groups of tied values
    bool ties = false;
};

Pooled poolRanks(const std::vector<double> &a, const std::vector<double> &b)
{
    Pooled out;
    std::size_t i = 0, j = 0;
    double below = 0.0; // values already ranked
    while (i < a.size() || j < b.size()) {
        double v;
        if (j == b.size())
            v = a[i];
        else if (i == a.size())
            v = b[j];
        else
            v = std::min(a[i], b[j]);
        std::size_t ca = 0, cb = 0;
        while (i < a.size() && a[i] == v)
            ++i, ++ca;
        while (j < b.size() && b[j] == v)
            ++j, ++cb;
        const auto t = static_cast<double>(ca + cb);
        const double averageRank = below + (t + 1.0) / 2.0;
        out.r1 += static_cast<double>(ca) * averageRank;
        if (ca + cb > 1) {
            out.ties = true;
            out.tieTerm += t * t * t - t;
        }
        below += t;
    }
    return out;
}

// The ways to deal n values to groups of these sizes (the multinomial coefficient), counted up to
// `cap`: anything above it returns a value above it.
double splits(const std::vector<std::size_t> &sizes, double cap)
{
    double ways = 1;
    std::size_t dealt = 0;
    for (const std::size_t size : sizes)
        for (std::size_t i = 1; i <= size; ++i) {
            ways = ways * double(++dealt) / double(i); // C(dealt, i) grows; each step stays an integer
            if (ways > cap)
                return ways;
        }
    return ways;
}

// Σ R²/n over groups of these sizes, their ranks laid out one group after another: H up to its constants.
double rankSumSquares(const std::vector<double> &ranks, const std::vector<std::size_t> &sizes)
{
    double squares = 0;
    std::size_t from = 0;
    for (const std::size_t size : sizes) {
        double sum = 0;
        for (std::size_t i = from; i < from + size; ++i)
            sum += ranks[i];
        squares += sum * sum / double(size);
        from += size;
    }
    return squares;
}

// The exact Kruskal–Wallis p: the share of every assignment of `ranks` to groups of `sizes` whose
// rankSumSquares is at least `least`; *smallest, the share that reach the largest (the least p there is).
double kruskalWallisExactP(const std::vector<double> &ranks, const std::vector<std::size_t> &sizes,
                           double least, double *smallest)
{
    std::vector<std::size_t> left = sizes;
    std::vector<double> sums(sizes.size(), 0.0);
    double at = 0, all = 0, most = 0, atMost = 0; // the largest sum, and the splits that reach it
    // each value into each group with room left, depth first
    const auto deal = [&](const auto &self, std::size_t i) -> void {
        if (i == ranks.size()) {
            double s = 0;
            for (std::size_t g = 0; g < sizes.size(); ++g)
                s += sums[g] * sums[g] / double(sizes[g]);
            at += s >= least;
            ++all;
            if (s > most * (1 + 1e-12)) {
                most = s;
                atMost = 0;
            }
            atMost += s >= most * (1 - 1e-12);
            return;
        }
        for (std::size_t g = 0; g < sizes.size(); ++g)
            if (left[g] > 0) {
                --left[g];
                sums[g] += ranks[i];
                self(self, i + 1);
                sums[g] -= ranks[i];
                ++left[g];
            }
    };
    deal(deal, 0);
    *smallest = atMost / all;
    return at / all;
}

// The permutation p: the share of kKruskalPermutations random splits (and the observed one) whose
// rankSumSquares is at least `least`. Fisher–Yates on a fixed-seed generator, so that a figure never moves.
double kruskalWallisPermutationP(std::vector<double> ranks, const std::vector<std::size_t> &sizes,
                                 double least)
{
    std::mt19937_64 random(0x5c09e11e);
    std::size_t at = 1;
    for (std::size_t draw = 0; draw < kKruskalPermutations; ++draw) {
        for (std::size_t i = ranks.size() - 1; i > 0; --i)
            std::swap(ranks[i], ranks[random() % (i + 1)]);
        at += rankSumSquares(ranks, sizes) >= least;
    }
    return double(at) / double(kKruskalPermutations + 1);
}

} // namespace

std::vector<double> mannWhitneyExactCdf(std::size_t m, std::size_t n, std::size_t maxK)
{
    // The generating function of U is the Gaussian binomial [m+n choose m]_q = Π_{i=1..s} (1 − q^{l+i}) /
    // (1 − q^i) with s = min(m, n), l = max(m, n), so the counts up to k take O(s·k) steps instead of
    // scipy's O(m·n·k) recursion.
    const std::size_t s = std::min(m, n);
    const std::size_t l = std::max(m, n);
    std::vector<double> c(maxK + 1, 0.0);
    c[0] = 1.0;
    for (std::size_t i = 1; i <= s; ++i) {
        for (std::size_t x = i; x <= maxK; ++x) // divide by (1 − q^i)
            c[x] += c[x - i];
        for (std::size_t x = maxK; x >= l + i; --x) // multiply by (1 − q^{l+i})
            c[x] -= c[x - l - i];
    }
    double total = 1.0; // binom(m + n, s)
    for (std::size_t i = 1; i <= s; ++i)
        total = total * static_cast<double>(l + i) / static_cast<double>(i);
    double cumulative = 0.0;
    for (double &count : c) {
        cumulative += count;
        count = cumulative / total;
    }
    return c;
}

RankSum rankSum(const std::vector<double> &a, const std::vector<double> &b)
{
    const std::vector<double> sa = sortedWithoutNaN(a);
    const std::vector<double> sb = sortedWithoutNaN(b);
    if (sa.empty() || sb.empty())
        return {kNaN, kNaN};
    const auto n1 = static_cast<double>(sa.size());
    const auto n2 = static_cast<double>(sb.size());
    const Pooled pooled = poolRanks(sa, sb);
    const double expected = n1 * (n1 + n2 + 1.0) / 2.0;
    const double z = (pooled.r1 - expected) / std::sqrt(n1 * n2 * (n1 + n2 + 1.0) / 12.0);
    // erfc keeps relative precision in the far tail, where 1 − Φ(|z|) would round to 0.
    return {z, std::erfc(std::fabs(z) / kSqrt2)};
}

MannWhitney mannWhitneyU(const std::vector<double> &a, const std::vector<double> &b)
{
    const std::vector<double> sa = sortedWithoutNaN(a);
    const std::vector<double> sb = sortedWithoutNaN(b);
    if (sa.empty() || sb.empty())
        return {kNaN, kNaN, false, kNaN};
    const std::size_t m = sa.size();
    const std::size_t n = sb.size();
    const auto n1 = static_cast<double>(m);
    const auto n2 = static_cast<double>(n);
    const Pooled pooled = poolRanks(sa, sb);
    const double u1 = pooled.r1 - n1 * (n1 + 1.0) / 2.0;
    const double u2 = n1 * n2 - u1;
    const double u = std::max(u1, u2); // two-sided: survival function of the larger U, doubled

    // scipy 1.10 'auto': exact unless both samples have more than 8 values or there is any tie.
    const bool wantExact = (m <= 8 || n <= 8) && !pooled.ties;
    if (wantExact) {
        // Without ties U is an integer; P(U >= u) = P(U <= m·n − u) by symmetry.
        const auto tail = static_cast<std::size_t>(n1 * n2 - u);
        if (tail < kMannWhitneyExactStates) {
            const std::vector<double> cdf = mannWhitneyExactCdf(m, n, tail);
            return {u1, std::min(2.0 * cdf.back(), 1.0), true, std::min(2.0 * cdf.front(), 1.0)};
        }
    }

    return {u1, mannWhitneyNormalP(u1, m, n, pooled.tieTerm), false,
            mannWhitneyNormalP(0, m, n, pooled.tieTerm)};
}

double mannWhitneyNormalP(double u1, std::size_t m, std::size_t n, double tieTerm)
{
    const auto n1 = static_cast<double>(m);
    const auto n2 = static_cast<double>(n);
    const double u = std::max(u1, n1 * n2 - u1); // two-sided: survival function of the larger U, doubled
    const double total = n1 + n2;
    const double sigma = std::sqrt(n1 * n2 / 12.0 * ((total + 1.0) - tieTerm / (total * (total - 1.0))));
    // Continuity correction towards the mean. z is signed on purpose: when u is within 0.5 of the mean
    // z < 0 and erfc gives > 1, clipped to 1 like scipy.
    const double z = (u - n1 * n2 / 2.0 - 0.5) / sigma;
    return std::min(std::erfc(z / kSqrt2), 1.0);
}

double tieTerm(const std::vector<double> &sorted)
{
    double term = 0.0;
    for (std::size_t first = 0; first < sorted.size();) {
        std::size_t last = first + 1;
        while (last < sorted.size() && sorted[last] == sorted[first])
            ++last;
        const auto t = static_cast<double>(last - first);
        term += t * t * t - t;
        first = last;
    }
    return term;
}

std::vector<double> averageRanks(const std::vector<double> &values)
{
    std::vector<double> ranks(values.size(), kNaN);
    std::vector<std::size_t> order;
    order.reserve(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!std::isnan(values[i]))
            order.push_back(i);
    std::sort(order.begin(), order.end(),
              [&](std::size_t x, std::size_t y) { return values[x] < values[y]; });
    std::size_t first = 0;
    while (first < order.size()) {
        std::size_t last = first + 1;
        while (last < order.size() && values[order[last]] == values[order[first]])
            ++last;
        // Positions first..last-1 hold equal values: ranks first+1..last, average (first+1+last)/2.
        const double rank = (static_cast<double>(first + 1) + static_cast<double>(last)) / 2.0;
        for (std::size_t x = first; x < last; ++x)
            ranks[order[x]] = rank;
        first = last;
    }
    return ranks;
}

const char *kruskalMethodName(KruskalMethod method)
{
    switch (method) {
    case KruskalMethod::Exact:
        return "exact";
    case KruskalMethod::Permutation:
        return "permutation";
    case KruskalMethod::ChiSquared:
        break;
    }
    return "chi-squared";
}

KruskalWallis kruskalWallis(const std::vector<std::vector<double>> &groups)
{
    std::vector<double> pooled;
    std::vector<std::size_t> sizes;
    for (const std::vector<double> &group : groups) {
        std::size_t n = 0;
        for (double v : group)
            if (!std::isnan(v)) {
                pooled.push_back(v);
                ++n;
            }
        if (n > 0)
            sizes.push_back(n);
    }
    KruskalWallis result{kNaN, kNaN, int(sizes.size())};
    if (sizes.size() < 2)
        return result;
    const std::vector<double> ranks = averageRanks(pooled);
    const double n = double(pooled.size());
    const double squares = rankSumSquares(ranks, sizes);
    const double h = 12.0 / (n * (n + 1)) * squares - 3 * (n + 1);
    // the tie correction: 1 − Σ(t³ − t) / (n³ − n) over groups of equal values
    std::vector<double> sorted = pooled;
    std::sort(sorted.begin(), sorted.end());
    const double ties = tieTerm(sorted);
    const double correction = 1 - ties / (n * n * n - n);
    if (!(correction > 0))
        return result;
    result.h = h / correction;
    const double least = squares * (1 - 1e-12); // the observed split's own sum, rounded otherwise
    // dealt value by value: at most as many steps as values per split
    const bool few =
        pooled.size() <= kKruskalExactValues && splits(sizes, kKruskalExactSplits) <= kKruskalExactSplits;
    const bool small = *std::min_element(sizes.begin(), sizes.end()) < kKruskalLargeGroup &&
                       pooled.size() <= kKruskalPermutedValues;
    result.method = few     ? KruskalMethod::Exact
                    : small ? KruskalMethod::Permutation
                            : KruskalMethod::ChiSquared;
    switch (result.method) {
    case KruskalMethod::Exact:
        result.p = kruskalWallisExactP(ranks, sizes, least, &result.minP);
        break;
    case KruskalMethod::Permutation:
        result.p = kruskalWallisPermutationP(ranks, sizes, least);
        break;
    case KruskalMethod::ChiSquared:
        result.p = boost::math::cdf(boost::math::complement(
            boost::math::chi_squared(double(sizes.size() - 1)), std::max(0.0, result.h)));
        break;
    }
    return result;
}

} // namespace scopeline::stats
