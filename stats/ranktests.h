// SPDX-License-Identifier: GPL-3.0-or-later
// Rank tests of "B differs from A" on two samples of durations, matching scipy 1.10 so figures can be
// checked. Both are O(n log n) and meant for samples of 10^5 values each.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

namespace scopeline::stats {

// Wilcoxon rank-sum (scipy.stats.ranksums): average ranks for ties, no tie correction,
// two-sided p = erfc(|z|/√2) so that p-values like 1e-150 keep their digits.
struct RankSum
{
    double z;
    double p;
};
RankSum rankSum(const std::vector<double> &a, const std::vector<double> &b);

// Mann–Whitney U (scipy.stats.mannwhitneyu, two-sided, method='auto'): u is U1 = R1 − n1(n1+1)/2 of a.
// exact: scipy's exact null distribution was used, which scipy 1.10 does when min(n1, n2) <= 8 and the
// pooled data has no ties; otherwise the normal approximation with tie-corrected variance and
// continuity correction 0.5. minP: the smallest p samples of these sizes and ties can give (the sides
// wholly apart); where it is not below alpha, the test cannot find a difference however large.
struct MannWhitney
{
    double u;
    double p;
    bool exact;
    double minP;
};
MannWhitney mannWhitneyU(const std::vector<double> &a, const std::vector<double> &b);
// The exact distribution needs one double per possible U value up to the observed tail; from this many
// (only when one sample has <= 8 values and the other millions) the normal approximation is used.
constexpr std::size_t kMannWhitneyExactStates = std::size_t{1} << 24;
// The normal approximation's two-sided p of mannWhitneyU for U1 = u1 of samples of m and n values whose
// tied groups give tieTerm = Σ (t³ − t): what mannWhitneyU returns when it does not use the exact test.
double mannWhitneyNormalP(double u1, std::size_t m, std::size_t n, double tieTerm);
// Σ (t³ − t) over the groups of t equal values of one sorted sample.
double tieTerm(const std::vector<double> &sorted);
// P(U ≤ k) for k = 0 … maxK under the null, for sample sizes m and n without ties: the exact
// distribution mannWhitneyU uses.
std::vector<double> mannWhitneyExactCdf(std::size_t m, std::size_t n, std::size_t maxK);

// Kruskal–Wallis H across several groups (scipy.stats.kruskal): average ranks over the pooled values,
// H corrected for ties. scipy's p, from the chi-squared distribution with groups − 1 degrees of
// freedom, overstates small groups (two of three wholly apart: 0.0495, where no split of the ranks
// gives less than 0.1), so p is exact (the share of every split of the ranks into groups of these
// sizes, each equally likely under the null, with an H at least the observed) where there are at most
// kKruskalExactSplits splits of at most kKruskalExactValues values; beyond that, while a group has
// fewer than kKruskalLargeGroup values (and there are at most kKruskalPermutedValues), the same share
// over kKruskalPermutations random splits and the observed one (a fixed seed: the same p every time);
// else chi-squared. NaN values are left out; groups left empty do not count. NaN p with fewer than
// two groups, or when every value is the same.
enum class KruskalMethod { ChiSquared, Exact, Permutation };
// "exact", "permutation" or "chi-squared": compare's JSON, and the word before a note's p.
const char *kruskalMethodName(KruskalMethod method);
struct KruskalWallis
{
    double h;
    double p;
    int groups; // that count
    KruskalMethod method = KruskalMethod::ChiSquared;
    // The exact test's smallest p for these group sizes and values (the splits farthest apart); where it
    // is not below alpha, no difference could be found. NaN for the other methods.
    double minP = std::numeric_limits<double>::quiet_NaN();
};
KruskalWallis kruskalWallis(const std::vector<std::vector<double>> &groups);
constexpr double kKruskalExactSplits = 1e6;
constexpr std::size_t kKruskalExactValues = 64;
constexpr std::size_t kKruskalLargeGroup = 5;
constexpr std::size_t kKruskalPermutations = 100000;
constexpr std::size_t kKruskalPermutedValues = 256;

// 1-based ranks of values in their original order, ties get the average of their ranks
// (scipy.stats.rankdata's default). NaN values get NaN ranks and do not count.
std::vector<double> averageRanks(const std::vector<double> &values);

} // namespace scopeline::stats
