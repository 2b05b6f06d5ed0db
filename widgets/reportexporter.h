// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Writes a comparison report into a folder: boxplot PNG, a timeline PNG for A and for B (their current
// views), the statistics CSV, the kernel diff (chart and CSV) and an HTML page showing them with the
// run details. Every file is written
// atomically (temporary file, then rename); a failure says which file and why.

#include "model/loadedrun.h"

#include <QList>
#include <QString>

namespace scopeline {

class ComparisonPanel;
class KernelDiffView;
class TimelineView;

class ReportExporter
{
public:
    struct Input
    {
        const ComparisonPanel *panel = nullptr;
        const KernelDiffView *diffView = nullptr; // optional: the "what changed" section
        TimelineView *timelineA = nullptr;
        TimelineView *timelineB = nullptr;
        QString labelA, labelB; // the paths of the two sides
        QList<LoadedRun> runsA, runsB;
    };
    // Files written: boxplot.png, timeline_a.png, timeline_b.png, stats.csv, index.html, and with a
    // diff view, diff.png (its contribution chart) and diff.csv (every kernel row).
    static bool exportTo(const QString &folder, const Input &input, QString *error);
};

} // namespace scopeline
