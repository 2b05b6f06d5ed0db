// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A stable sort that is linear on what traces mostly hold: a few ascending runs (a trace's threads and
// streams are written in order, one after another).

#include <algorithm>
#include <cstddef>
#include <vector>

namespace scopeline {

// Merges neighbouring runs pairwise; many short runs are left to std::stable_sort.
template <typename T, typename Before>
void sortByRuns(std::vector<T> &v, Before before)
{
    std::vector<std::size_t> runs{0};
    for (std::size_t i = 1; i < v.size(); ++i)
        if (before(v[i], v[i - 1]))
            runs.push_back(i);
    if (runs.size() == 1)
        return;
    if (runs.size() > v.size() / 16) {
        std::stable_sort(v.begin(), v.end(), before);
        return;
    }
    runs.push_back(v.size());
    while (runs.size() > 2) {
        std::size_t kept = 1;
        for (std::size_t r = 0; r + 2 < runs.size(); r += 2) {
            std::inplace_merge(v.begin() + runs[r], v.begin() + runs[r + 1], v.begin() + runs[r + 2], before);
            runs[kept++] = runs[r + 2];
        }
        if (runs.size() % 2 == 0) // an odd run count: the last run waits for the next round
            runs[kept++] = runs.back();
        runs.resize(kept);
    }
}

} // namespace scopeline
