// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/skippedevents.h"

#include <QCoreApplication>

namespace scopeline {

SkippedEvents SkippedEvents::of(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    SkippedEvents skipped;
    const std::pair<QString, const QList<LoadedRun> *> sides[] = {{QStringLiteral("A"), &a},
                                                                  {QStringLiteral("B"), &b}};
    for (const auto &[side, runs] : sides)
        for (const LoadedRun &run : *runs) {
            // The summary keeps what loading skipped: the trace may be gone.
            const std::map<QString, int64_t> *skippedOf =
                run.summary ? &run.summary->skipped : run.trace ? &run.trace->skipped : nullptr;
            if (!skippedOf)
                continue;
            QStringList reasons;
            for (const auto &[reason, n] : *skippedOf) {
                skipped.total += n;
                if (!TraceData::isBenignSkip(reason))
                    reasons << QCoreApplication::translate("SkippedEvents", "%1 × %2").arg(n).arg(reason);
            }
            if (!reasons.isEmpty())
                skipped.brokenRuns << QStringLiteral("%1 %2: %3")
                                          .arg(side, run.run.file, reasons.join(QStringLiteral(", ")));
        }
    return skipped;
}

} // namespace scopeline
