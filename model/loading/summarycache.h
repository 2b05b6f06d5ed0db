// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Run summaries of traces kept between loads, so that a trace summarised once (the baseline's runs
// compared against each new candidate, a pair opened again) is not read again: a summary file per
// trace in the user's cache folder, found by the trace's path, size, modification time and first
// and last bytes, and by the program that wrote it (a rebuilt loader summarises afresh).

#include "model/analysis/runsummary.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace scopeline {

class SummaryCache
{
public:
    // The folder: $SCOPELINE_SUMMARY_CACHE where set ("off" turns the cache off), else
    // ~/.cache/scopeline/summaries; empty when off.
    static QString folder();
    // Turns the cache off for the rest of the process: `summarize`, whose own files are the summaries,
    // keeps no second copy of each (on a cluster, in a shared home folder).
    static void turnOff();
    // Where a trace's summary is kept (device: a GPU of it, -1 for the whole trace); empty when the
    // cache is off or the trace cannot be read. Taken before the trace is loaded. A run that is a
    // folder (databases of one run) is known by every file in it, up to 64 of them.
    static QString entryOf(const QString &trace, int device);
    // The summary kept there, null when none is or it cannot be read (a damaged one is written again
    // by the load that follows).
    static std::shared_ptr<RunSummary> find(const QString &entry);
    // Keeps a summary there; a folder that cannot be written leaves the cache as it is (a load never
    // fails for it). The cache then keeps to kMaxBytes, the least recently used going first. True when
    // it was kept.
    static bool store(const QString &entry, const RunSummary &summary);
    // A trace of several GPUs keeps a summary per GPU (entryOf(trace, device)) and, at the whole trace's
    // entry, which GPUs it has; empty when none are kept or the list cannot be read.
    static std::vector<int> findDevices(const QString &entry);
    static void storeDevices(const QString &entry, const std::vector<int> &devices);
    // Removes every summary kept and the lists of GPUs (Tools › Clear Kept Summaries); how many
    // summaries, and the bytes of all.
    struct Cleared
    {
        int files = 0;
        int64_t bytes = 0;
    };
    static Cleared clear();
    // Removes the least recently used summaries of a folder until it holds at most maxBytes.
    static void trim(const QString &folder, int64_t maxBytes);
    static constexpr int64_t kMaxBytes = int64_t(2) << 30; // 2 GiB: ~2,000 runs of a 150 MB trace
};

} // namespace scopeline
