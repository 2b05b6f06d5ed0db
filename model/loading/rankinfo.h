// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which GPU of a distributed job a trace file is: Kineto's top-level `distributedInfo` {rank,
// world_size} near the start of the file, else `rank[-_]N` or `workerN` in its name. DESIGN.md
// section 8: the rank files of one job are one run.

#include <QString>

namespace scopeline {

struct RankInfo
{
    int rank = -1;     // -1: not a rank file
    int worldSize = 0; // 0: unknown
    bool known() const { return rank >= 0; }

    // Reads the rank of a trace file (its first block of text, inflated) or of its name; a job of
    // world size 1 has no ranks.
    static RankInfo of(const QString &file);
    // The rank a file name carries ("worker3_step_12.json.gz": 3; "rank_3_of_8.slsum": 3 of 8).
    static RankInfo ofName(const QString &fileName);
};

} // namespace scopeline
