// SPDX-License-Identifier: GPL-3.0-or-later
#include "stats/descriptive.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

namespace scopeline::stats {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void dropNaN(std::vector<double> &values)
{
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }),
                 values.end());
}

// Neumaier's compensated sum: durations of ~1e9 ns over 1e5 samples would otherwise lose digits.
struct CompensatedSum
{
    double sum = 0.0;
    double comp = 0.0;
    void add(double x)
    {
        const double t = sum + x;
        if (std::fabs(sum) >= std::fabs(x))
            comp += (sum - t) + x;
        else
            comp += (x - t) + sum;
        sum = t;
    }
    double value() const { return sum + comp; }
};

// Sorts values without NaN. A trace's tens of thousands of launch delays are sorted by their bits,
// 11 at a time, in a fifth of std::sort's time (integral values leave the low digits alike, which
// are passed over); the order is the same, as a double's bits order like its value once flipped.
void sortNumbers(std::vector<double> &values)
{
    constexpr std::size_t kFewest = 4096;
    if (values.size() < kFewest) {
        std::sort(values.begin(), values.end());
        return;
    }
    constexpr uint64_t kSign = uint64_t(1) << 63;
    constexpr int kBits = 11, kPasses = (64 + kBits - 1) / kBits;
    constexpr std::size_t kDigits = std::size_t(1) << kBits;
    // The keys are sorted in the values' own storage and one buffer more, read and written through
    // memcpy (fresh memory costs more to touch than the sort itself).
    const auto load = [](const double *at) {
        uint64_t bits = 0;
        std::memcpy(&bits, at, sizeof bits);
        return bits;
    };
    const auto store = [](double *at, uint64_t bits) { std::memcpy(at, &bits, sizeof bits); };
    const std::size_t n = values.size();
    std::vector<double> spareKeys(n);
    double *keys = values.data(), *spare = spareKeys.data();
    std::vector<std::array<std::size_t, kDigits>> counts(kPasses, std::array<std::size_t, kDigits>{});
    for (std::size_t i = 0; i < n; ++i) {
        const uint64_t bits = load(&keys[i]);
        const uint64_t key = bits & kSign ? ~bits : bits | kSign; // negatives reversed, below positives
        store(&keys[i], key);
        for (int pass = 0; pass < kPasses; ++pass)
            ++counts[std::size_t(pass)][(key >> (pass * kBits)) & (kDigits - 1)];
    }
    for (int pass = 0; pass < kPasses; ++pass) {
        auto &count = counts[std::size_t(pass)];
        const int shift = pass * kBits;
        if (count[(load(&keys[0]) >> shift) & (kDigits - 1)] == n)
            continue; // every key has this digit
        std::size_t next = 0;
        for (std::size_t &c : count)
            next += std::exchange(c, next);
        for (std::size_t i = 0; i < n; ++i) {
            const uint64_t key = load(&keys[i]);
            store(&spare[count[(key >> shift) & (kDigits - 1)]++], key);
        }
        std::swap(keys, spare);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const uint64_t key = load(&keys[i]);
        store(&values[i], key & kSign ? key & ~kSign : ~key);
    }
}

} // namespace

double quantileSorted(const std::vector<double> &sorted, double q)
{
    if (sorted.empty() || std::isnan(q))
        return kNaN;
    q = std::clamp(q, 0.0, 1.0);
    const double h = static_cast<double>(sorted.size() - 1) * q;
    const double lowIndex = std::floor(h);
    const auto lo = static_cast<std::size_t>(lowIndex);
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    const double t = h - lowIndex;
    const double a = sorted[lo];
    const double b = sorted[hi];
    // Same two-sided lerp as numpy, so results agree to the last bit in the common cases.
    const double diff = b - a;
    return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

double median(std::vector<double> values)
{
    dropNaN(values);
    if (values.empty())
        return kNaN;
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
    const double upper = values[mid];
    if (values.size() % 2 == 1)
        return upper;
    const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
    return (lower + upper) / 2.0;
}

std::vector<double> sortedWithoutNaN(std::vector<double> values)
{
    dropNaN(values);
    sortNumbers(values);
    return values;
}

Descriptive describe(std::vector<double> values)
{
    dropNaN(values);
    Descriptive d;
    d.n = values.size();
    if (values.empty())
        return d;

    sortNumbers(values);
    const auto n = static_cast<double>(values.size());

    // Two passes (mean, then squared deviations), both compensated, to match numpy's std to ~1e-15.
    CompensatedSum sum;
    for (double v : values)
        sum.add(v);
    double mean = sum.value() / n;
    CompensatedSum residual;
    for (double v : values)
        residual.add(v - mean);
    mean += residual.value() / n;
    d.mean = mean;
    if (values.size() >= 2) {
        CompensatedSum squares;
        for (double v : values) {
            const double dev = v - mean;
            squares.add(dev * dev);
        }
        d.std = std::sqrt(squares.value() / (n - 1.0));
    }

    d.min = values.front();
    d.max = values.back();
    d.q1 = quantileSorted(values, 0.25);
    d.median = quantileSorted(values, 0.5);
    d.q3 = quantileSorted(values, 0.75);
    d.iqr = d.q3 - d.q1;

    const double lowFence = d.q1 - 1.5 * d.iqr;
    const double highFence = d.q3 + 1.5 * d.iqr;
    const auto first = std::lower_bound(values.begin(), values.end(), lowFence);
    const auto last = std::upper_bound(values.begin(), values.end(), highFence);
    // q1 and q3 lie between data points inside the fences, so [first, last) is never empty.
    d.whiskerLow = *first;
    d.whiskerHigh = *(last - 1);
    d.outliers.assign(values.begin(), first);
    d.outliers.insert(d.outliers.end(), last, values.end());
    return d;
}

} // namespace scopeline::stats
