// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What loading a pair left out: the count of every skipped event, and per run the events that could
// not be read (broken, as opposed to skipped by design like counters), by reason.

#include "model/loading/loadedrun.h"

#include <QList>
#include <QStringList>

#include <cstdint>

namespace scopeline {

struct SkippedEvents
{
    int64_t total = 0; // every event not loaded, the benign ones included; each file once
    // "A <file>: 2 × <reason>, 1 × <reason>", one per file of a side with broken events
    QStringList brokenRuns;

    bool anyBroken() const { return !brokenRuns.isEmpty(); }
    static SkippedEvents of(const QList<LoadedRun> &a, const QList<LoadedRun> &b);
    // One run's broken events, "2 × <reason>, 1 × <reason>"; empty when it has none.
    static QString brokenIn(const LoadedRun &run);
};

} // namespace scopeline
