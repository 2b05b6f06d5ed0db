// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Writes a comparison report into a folder from data: the boxplot PNG, a timeline PNG for A and for B,
// the statistics CSV, the step breakdown and the kernel diff (chart and CSV each) and an HTML page showing
// them with the run details. The pictures come rendered (ReportCharts draws them from a window's views or off
// screen). Every file is written atomically (temporary file, then rename); a failure says which file and why.

#include "model/comparison/kerneldiff.h"
#include "model/comparison/ranktable.h"
#include "model/comparison/scopecomparison.h"
#include "model/comparison/stepbreakdown.h"
#include "model/comparison/sweep.h"
#include "model/comparison/variantdiff.h"
#include "model/comparison/variantranks.h"
#include "model/comparison/variantscopes.h"
#include "model/comparison/variantsteps.h"
#include "model/loading/loadedrun.h"

#include <QCoreApplication>
#include <QImage>
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace scopeline {

class ReportExporter
{
    Q_DECLARE_TR_FUNCTIONS(ReportExporter)
public:
    // A timeline picture and what its caption tells: the run shown and the length of time in view.
    struct Timeline
    {
        QImage image;
        QString run;
        int64_t shownNs = 0; // 0: nothing shown
        // Why the run has no timeline (a run summary, a trace without events): said in the page,
        // with no picture.
        QString missing;
    };

    struct Input
    {
        QString labelA, labelB; // the sides as the window names them: their labels where given, else paths
        QList<LoadedRun> runsA, runsB;
        // More than two variants: the candidates past B, labelled, with their runs.
        std::vector<std::pair<QString, QList<LoadedRun>>> moreCandidates;
        // The scope comparison: its rows and the options they were computed with.
        std::vector<ComparisonRow> rows;
        QStringList scopes;
        MatchMode match = MatchMode::Component;
        SampleMode samples = SampleMode::Kernel;
        double threshold = 0.01;              // fraction
        double alpha = 0.05;                  // the scopes' level (the diff, steps and ranks keep theirs)
        bool pooled = true;                   // boxplots of all runs pooled, else per run pair
        const KernelDiff *diff = nullptr;     // optional: the "what changed" section; not owned
        const StepBreakdown *steps = nullptr; // optional: the step section; not owned
        const RankTable *ranks = nullptr;     // optional: runs of several GPUs; not owned
        // optional: more than two variants (the pair above is two of them); not owned
        const VariantSteps *variantSteps = nullptr;
        const VariantDiff *variantDiff = nullptr;
        const VariantScopes *variantScopes = nullptr; // with scopes
        const VariantRanks *variantRanks = nullptr;   // with runs of several GPUs
        const Sweep *variantSweep = nullptr;          // where the variants are a sweep: its neighbours
        QString variantBaseline;
        QImage boxplot;
        QImage diffChart;  // needed with a diff
        QImage stepsChart; // needed with steps: the step waterfall over the step times
        QImage ranksChart; // needed with ranks: ReportCharts::ranksChartImage
        QImage variantsChart; // needed with variants: ReportCharts::variantsChartImage
        Timeline timelineA, timelineB;
        QStringList notes; // what loading and comparing the sides warned of (ranks alone, runs paired)
    };
    // Files written: boxplot.png, timeline_a.png, timeline_b.png, stats.csv, index.html; with a diff,
    // diff.png (its contribution chart) and diff.csv (every kernel row); with steps, steps.png (the
    // waterfall and the step times) and steps.csv (StepBreakdown::toCsv()); with ranks, ranks.png and
    // ranks.csv (RankTable::toCsv()); with variants, variants.png, variants_steps.csv and variants_diff.csv
    // (their toCsv()), with scopes variants_scopes.csv and with ranks variants_ranks_comparison.csv; with
    // ranks of two sides ranks_comparison.csv,
    // with collectives ranks_collectives.csv. `written`, when given, gets the paths of the files written.
    static bool exportTo(const QString &folder, const Input &input, QString *error,
                         QStringList *written = nullptr);
    // Why a report cannot go into this folder (a file, or a folder of other files); empty when it can.
    // exportTo refuses the same; a command checks it before the work of loading.
    static QString folderRefusal(const QString &folder);
};

} // namespace scopeline
