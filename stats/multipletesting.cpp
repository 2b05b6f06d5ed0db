// SPDX-License-Identifier: GPL-3.0-or-later
#include "stats/multipletesting.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace scopeline::stats {

std::vector<double> holmAdjust(const std::vector<double> &p)
{
    std::vector<double> adjusted(p.size());
    std::vector<std::size_t> order;
    order.reserve(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (std::isnan(p[i]))
            adjusted[i] = p[i];
        else
            order.push_back(i);
    }
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return p[x] < p[y]; });
    const std::size_t m = order.size();
    // The j-th smallest (0-based) is multiplied by m − j; the running maximum keeps the order of the
    // raw p-values (and makes tied p-values get the same result whatever their order).
    double runningMax = 0.0;
    for (std::size_t j = 0; j < m; ++j) {
        const double scaled = std::min(1.0, static_cast<double>(m - j) * p[order[j]]);
        runningMax = std::max(runningMax, scaled);
        adjusted[order[j]] = runningMax;
    }
    return adjusted;
}

std::vector<double> holmLevels(const std::vector<double> &p, double alpha)
{
    std::vector<double> levels(p.size(), std::numeric_limits<double>::quiet_NaN());
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < p.size(); ++i)
        if (!std::isnan(p[i]))
            order.push_back(i);
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return p[x] < p[y]; });
    const std::size_t m = order.size();
    bool stopped = false;
    double level = alpha;
    for (std::size_t j = 0; j < m; ++j) {
        // Tied p-values share the level of the first of them, so that which of two equal tests is
        // sorted first does not decide how wide each one's interval is.
        const bool tied = j > 0 && p[order[j]] == p[order[j - 1]];
        if (!stopped && !tied) {
            level = alpha / static_cast<double>(m - j);
            stopped = !(p[order[j]] < level);
        }
        levels[order[j]] = level;
    }
    return levels;
}

} // namespace scopeline::stats
