// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/skippedevents.h"

#include <QCoreApplication>

#include <set>

namespace scopeline {

namespace {

// The summary keeps what loading skipped: the trace may be gone.
const std::map<QString, int64_t> *skippedOf(const LoadedRun &run)
{
    return run.summary ? &run.summary->skipped : run.trace ? &run.trace->skipped : nullptr;
}

} // namespace

QString SkippedEvents::brokenIn(const LoadedRun &run)
{
    QStringList reasons;
    if (const std::map<QString, int64_t> *skipped = skippedOf(run))
        for (const auto &[reason, n] : *skipped)
            if (!TraceData::isBenignSkip(reason))
                reasons << QCoreApplication::translate("SkippedEvents", "%1 × %2").arg(n).arg(reason);
    return reasons.join(QStringLiteral(", "));
}

SkippedEvents SkippedEvents::of(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    SkippedEvents skipped;
    const std::pair<QString, const QList<LoadedRun> *> sides[] = {{QStringLiteral("A"), &a},
                                                                  {QStringLiteral("B"), &b}};
    // A file counts once: the GPUs of one trace each carry its skipped events, and one trace may be
    // opened on both sides.
    std::set<QString> counted;
    for (const auto &[side, runs] : sides) {
        std::set<QString> listed;
        for (const LoadedRun &run : *runs) {
            const std::map<QString, int64_t> *counts = skippedOf(run);
            if (counts && counted.insert(run.run.file).second)
                for (const auto &entry : *counts)
                    skipped.total += entry.second;
            if (const QString broken = brokenIn(run); !broken.isEmpty() && listed.insert(run.run.file).second)
                skipped.brokenRuns << QStringLiteral("%1 %2: %3").arg(side, run.run.file, broken);
        }
    }
    return skipped;
}

} // namespace scopeline
