// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/report/reportexporter.h"

#include "widgets/panels/caveatbanner.h"

#include "model/tables/durationformat.h"
#include "model/comparison/replication.h"
#include "model/tables/tableformat.h"
#include "model/comparison/stepbreakdown.h"
#include "model/analysis/scopematcher.h"

#include "model/files/atomicfile.h"
#include <QBuffer>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>

#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <tuple>
#include <vector>

namespace scopeline {

namespace {

const QString kBoxplot = QStringLiteral("boxplot.png");
const QString kTimelineA = QStringLiteral("timeline_a.png");
const QString kTimelineB = QStringLiteral("timeline_b.png");
const QString kStats = QStringLiteral("stats.csv");
const QString kIndex = QStringLiteral("index.html");
const QString kDiffChart = QStringLiteral("diff.png");
const QString kDiffCsv = QStringLiteral("diff.csv");
const QString kStepsChart = QStringLiteral("steps.png");
const QString kStepsCsv = QStringLiteral("steps.csv");
const QString kRanksCsv = QStringLiteral("ranks.csv");
const QString kRanksComparisonCsv = QStringLiteral("ranks_comparison.csv");
const QString kRanksCollectivesCsv = QStringLiteral("ranks_collectives.csv");
const QString kVariantScopesCsv = QStringLiteral("variants_scopes.csv");
const QString kRanksChart = QStringLiteral("ranks.png");
const QString kVariantsChart = QStringLiteral("variants.png");
const QString kVariantStepsCsv = QStringLiteral("variants_steps.csv");
const QString kVariantDiffCsv = QStringLiteral("variants_diff.csv");
const QString kVariantRanksCsv = QStringLiteral("variants_ranks_comparison.csv");
constexpr int kDiffRowsShown = 25;

// Whether the scopes compared have samples: without, no boxplot, no statistics (a mistyped --scope).
bool hasScopeSamples(const ReportExporter::Input &input)
{
    return std::any_of(input.rows.begin(), input.rows.end(),
                       [](const ComparisonRow &r) { return r.a.n + r.b.n > 0; });
}

// The tables a report writes as CSV, each with how it is written (only when it is: the HTML links
// them by name).
std::vector<std::pair<QString, std::function<QString()>>> csvFiles(const ReportExporter::Input &input)
{
    std::vector<std::pair<QString, std::function<QString()>>> files;
    if (hasScopeSamples(input))
        files.emplace_back(
            kStats, [&input] { return ScopeComparison::toCsv(input.rows, input.alpha, input.threshold); });
    if (input.diff)
        files.emplace_back(kDiffCsv, [&input] { return input.diff->toCsv(); });
    if (input.steps)
        files.emplace_back(kStepsCsv, [&input] { return input.steps->toCsv(); });
    if (input.ranks) {
        files.emplace_back(kRanksCsv, [&input] { return input.ranks->toCsv(); });
        if (!input.ranks->comparison().empty())
            files.emplace_back(kRanksComparisonCsv, [&input] { return input.ranks->comparisonCsv(); });
        if (!input.ranks->collectiveKinds().empty())
            files.emplace_back(kRanksCollectivesCsv, [&input] { return input.ranks->collectivesCsv(); });
    }
    if (input.variantSteps)
        files.emplace_back(kVariantStepsCsv,
                           [&input] { return variantStepsCsv(*input.variantSteps, input.variantSweep); });
    if (input.variantDiff)
        files.emplace_back(kVariantDiffCsv, [&input] { return input.variantDiff->toCsv(); });
    if (input.variantScopes)
        files.emplace_back(kVariantScopesCsv,
                           [&input] { return input.variantScopes->toCsv(input.alpha, input.threshold); });
    if (input.variantRanks)
        files.emplace_back(kVariantRanksCsv, [&input] {
            return tableCsv(VariantRanks::comparisonColumns(), input.variantRanks->comparison());
        });
    return files;
}

// Text for HTML, attribute values in single quotes too.
QString esc(const QString &text)
{
    return text.toHtmlEscaped().replace(QLatin1Char('\''), QLatin1String("&#39;"));
}

// A caveat or note, set apart as the stylesheet's .caveat.
QString caveatParagraph(const QString &text)
{
    return QStringLiteral("<p class='caveat'>%1</p>\n").arg(esc(text));
}

// PNG bytes of an image; empty when it is null or cannot be encoded.
QByteArray pngBytes(const QImage &image)
{
    QByteArray bytes;
    if (image.isNull())
        return bytes;
    QBuffer buffer(&bytes);
    if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG"))
        return QByteArray();
    return bytes;
}

// The one-process caveat of the sides' runs, empty when a side has none loaded or it does not apply.
QString caveatOf(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    const auto loaded = [](const QList<LoadedRun> &runs) {
        return std::any_of(runs.begin(), runs.end(), [](const LoadedRun &run) { return run.ok(); });
    };
    return loaded(a) && loaded(b) ? Replication::of(a, b).caveat() : QString();
}

QString verdictClass(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Faster:
        return QStringLiteral("faster");
    case Verdict::Slower:
        return QStringLiteral("slower");
    case Verdict::OnlyInA:
    case Verdict::OnlyInB:
    case Verdict::NotFound:
        return QStringLiteral("missing");
    case Verdict::NoSignificantChange:
    case Verdict::NoMeaningfulChange:
        break;
    }
    return QStringLiteral("same");
}

// A result table from its column description (tablecolumn.h), as the window shows it: the titles with
// their tooltips, then one line per row, "–" in an empty cell. `rowClass` and `cellClass` give the CSS
// classes (verdict colours, italics) of a row and of a cell; a cell without one is 'num' unless its
// value is a text.
template <typename Row>
QString resultTable(
    const std::vector<TableColumn<Row>> &columns, const std::vector<Row> &rows, std::size_t count,
    const std::function<QString(const Row &)> &rowClass,
    const std::function<QString(const TableColumn<Row> &, const Row &)> &cellClass)
{
    QString html = QStringLiteral("<table class='stats'>\n<tr>");
    for (const TableColumn<Row> &column : columns)
        html += QStringLiteral("<th title='%1'>%2</th>").arg(esc(column.tooltip), esc(column.title));
    html += QStringLiteral("</tr>\n");
    for (std::size_t r = 0; r < rows.size() && r < count; ++r) {
        const Row &row = rows[r];
        const QString trClass = rowClass ? rowClass(row) : QString();
        html += trClass.isEmpty() ? QStringLiteral("<tr>") : QStringLiteral("<tr class='%1'>").arg(trClass);
        for (const TableColumn<Row> &column : columns) {
            QString cssClass = cellClass ? cellClass(column, row) : QString();
            if (cssClass.isEmpty() && column.value(row).typeId() != QMetaType::QString)
                cssClass = QStringLiteral("num");
            html += (cssClass.isEmpty() ? QStringLiteral("<td>")
                                        : QStringLiteral("<td class='%1'>").arg(cssClass)) +
                    esc(column.shown(row)) + QStringLiteral("</td>");
        }
        html += QStringLiteral("</tr>\n");
    }
    return html + QStringLiteral("</table>\n");
}

// A run's file as the user would type it here: under the working folder, relative to it, so that a
// report to share does not give this machine's folders (a home's user name); elsewhere in full.
QString fileShown(const QString &file)
{
    const QString relative = QDir::current().relativeFilePath(file);
    return relative.startsWith(QLatin1String("..")) || QDir::isAbsolutePath(relative) ? file : relative;
}

QString runsTable(const QList<LoadedRun> &runs)
{
    if (runs.isEmpty())
        return QStringLiteral("<p class='note'>%1</p>\n").arg(esc(ReportExporter::tr("No runs.")));
    QString html = QStringLiteral("<table class='runs'>\n<tr>");
    for (const char *header :
         {QT_TRANSLATE_NOOP("ReportExporter", "run"), QT_TRANSLATE_NOOP("ReportExporter", "file"),
          QT_TRANSLATE_NOOP("ReportExporter", "process"), QT_TRANSLATE_NOOP("ReportExporter", "format"),
          QT_TRANSLATE_NOOP("ReportExporter", "events"), QT_TRANSLATE_NOOP("ReportExporter", "kernels"),
          QT_TRANSLATE_NOOP("ReportExporter", "kernel launches"),
          QT_TRANSLATE_NOOP("ReportExporter", "graph launches"),
          QT_TRANSLATE_NOOP("ReportExporter", "GPU busy (of the span)"),
          QT_TRANSLATE_NOOP("ReportExporter", "median launch delay")})
        html += QStringLiteral("<th>%1</th>").arg(esc(ReportExporter::tr(header)));
    html += QStringLiteral("</tr>\n");
    for (const LoadedRun &run : runs) {
        html += QStringLiteral("<tr><td>%1</td><td class='file'>%2</td>")
                    .arg(esc(run.run.label()), esc(QDir::toNativeSeparators(fileShown(run.run.file))));
        if (!run.ok() || (!run.summary && !run.analysis)) {
            html += QStringLiteral("<td colspan='8' class='missing'>%1</td></tr>\n")
                        .arg(esc(run.error.isEmpty() ? ReportExporter::tr("not loaded") : run.error));
            continue;
        }
        const LaunchSummary s = run.summary ? run.summary->total() : run.analysis->total();
        const TraceFormat format = run.summary ? run.summary->format : run.trace->format;
        const int64_t events = run.summary ? run.summary->events : int64_t(run.trace->eventCount());
        const QString process = Replication::processOf(run);
        // a rank's is its GPU's process (its run's are its ranks' together)
        html += QStringLiteral("<td>%1</td>")
                    .arg(esc(process.isEmpty() ? ReportExporter::tr("unknown") : process));
        html +=
            QStringLiteral("<td>%1</td><td class='num'>%2</td><td class='num'>%3</td><td class='num'>%4</td>"
                           "<td class='num'>%5</td><td class='num'>%6</td><td class='num'>%7</td></tr>\n")
                .arg(esc(formatName(format)), QString::number(events), QString::number(s.kernels),
                     QString::number(s.kernelLaunches), QString::number(s.graphLaunches),
                     // a time, as the window's strip and `info` give it, with its share of the span
                     esc(s.spanNs > 0 ? QStringLiteral("%1 (%2)").arg(
                                            formatDuration(double(s.busyNs)),
                                            formatPercent(double(s.busyNs) / double(s.spanNs)))
                                      : QStringLiteral("–")),
                     esc(formatDuration(s.medianLaunchDelay())));
    }
    return html + QStringLiteral("</table>\n");
}

QString statsTable(const std::vector<ComparisonRow> &rows, double alpha, double threshold)
{
    if (rows.empty())
        return QStringLiteral("<p class='note'>%1</p>\n").arg(esc(ReportExporter::tr("No scopes compared.")));
    const std::function<QString(const TableColumn<ComparisonRow> &, const ComparisonRow &)> cellClass =
        [alpha, threshold](const TableColumn<ComparisonRow> &column, const ComparisonRow &row) {
            return column.csvKey == QLatin1String("verdict")
                       ? QStringLiteral("verdict ") + verdictClass(row.shownVerdict(alpha, threshold))
                       : QString();
        };
    return resultTable(ScopeComparison::tableColumns(alpha, threshold), rows, rows.size(), {}, cellClass);
}

QString diffSection(const KernelDiff &diff)
{
    const bool byOp = diff.options().byOp;
    QString html = QStringLiteral("<h2>%1</h2>\n")
                       .arg(esc(byOp ? ReportExporter::tr("What changed: ops")
                                     : ReportExporter::tr("What changed: kernels")));
    for (const QString &line : diff.headerText().split(QLatin1Char('\n')))
        html += QStringLiteral("<p>%1</p>\n").arg(esc(line));
    if (!diff.summary().caveat.isEmpty())
        html += caveatParagraph(
            ReportExporter::tr("Caveat on every verdict below: %1.").arg(diff.summary().caveat));
    html += QStringLiteral("<figure><img src='%1' alt='%2'><figcaption>%2</figcaption></figure>\n")
                .arg(kDiffChart,
                     esc(ReportExporter::tr("Kernel time per run from A to B: the largest contributions")));
    // a process-dependent row in italics, verdicts in their colours, as in the window
    const std::function<QString(const KernelDiffRow &)> rowClass = [](const KernelDiffRow &row) {
        return row.processDependent() ? QStringLiteral("dependent") : QString();
    };
    const std::function<QString(const TableColumn<KernelDiffRow> &, const KernelDiffRow &)> cellClass =
        [](const TableColumn<KernelDiffRow> &column, const KernelDiffRow &row) {
            if (column.csvKey == QLatin1String("verdict"))
                return verdictClass(row.verdict);
            if (column.csvKey == QLatin1String("per_call_change"))
                return QStringLiteral("percall ") + verdictClass(row.perCallVerdict);
            return column.csvKey == QLatin1String("kernel") ? QStringLiteral("file") : QString();
        };
    const std::vector<KernelDiffRow> &rows = diff.rows();
    html += resultTable(KernelDiff::tableColumns(diff.options()), rows, std::size_t(kDiffRowsShown), rowClass,
                        cellClass);
    if (rows.size() > std::size_t(kDiffRowsShown))
        html += QStringLiteral("<p class='note'>%1</p>\n")
                    .arg(esc((byOp ? ReportExporter::tr("%1 more ops in %2.")
                                   : ReportExporter::tr("%1 more kernels in %2."))
                                 .arg(rows.size() - kDiffRowsShown)
                                 .arg(kDiffCsv)));
    html +=
        QStringLiteral("<p class='note'>%1</p>\n")
            .arg(esc(
                ReportExporter::tr(
                    "How to read this: a row's verdict judges its GPU time per run, what its Δ explains: "
                    "Welch's t on the per-%1 totals (a %1 without the kernel counts 0), Holm-adjusted over "
                    "the rows, \"B faster\" or \"B slower\" only below α = %2 and with a change of at "
                    "least the threshold. \"Per call\" tests the duration of one call on its own (Welch on "
                    "the logarithms of the per-%1 medians, its own Holm): a kernel can get faster per call "
                    "and still cost more per run. Rows in italics are process-dependent: the kernel ran in "
                    "only some processes of a side.")
                    .arg(diff.summary().byProcess ? ReportExporter::tr("process") : ReportExporter::tr("run"))
                    .arg(diff.options().alpha)));
    return html;
}

// The step breakdown: its line, its picture, and its table from the one column description.
QString stepsSection(const StepBreakdown &steps)
{
    QString html = QStringLiteral("<h2>%1</h2>\n<p>%2</p>\n")
                       .arg(esc(ReportExporter::tr("What changed: the step")), esc(steps.stepLine()));
    if (const QString note = steps.note(); !note.isEmpty())
        html += caveatParagraph(note);
    html += QStringLiteral("<figure><img src='%1' alt='%2'><figcaption>%2</figcaption></figure>\n")
                .arg(kStepsChart,
                     esc(ReportExporter::tr(
                         "Mean step time from A to B through GPU busy and the idle "
                         "causes, each with its interval at the level its verdict is judged, and every "
                         "run's step times")));
    const std::function<QString(const TableColumn<StepRow> &, const StepRow &)> cellClass =
        [](const TableColumn<StepRow> &column, const StepRow &row) {
            return column.csvKey == QLatin1String("verdict") ? verdictClass(row.verdict) : QString();
        };
    // one caveat on every tested row (one process a side) is said once above the table, not in a cell
    // of ten lines on each
    std::vector<TableColumn<StepRow>> columns = StepBreakdown::columns();
    QStringList caveats;
    for (const StepRow &row : steps.rows())
        if (!row.caveat.isEmpty() && !caveats.contains(row.caveat))
            caveats << row.caveat;
    if (caveats.size() == 1) {
        html +=
            caveatParagraph(ReportExporter::tr("Caveat on every tested row below: %1.").arg(caveats.front()));
        columns.erase(
            std::remove_if(columns.begin(), columns.end(),
                           [](const TableColumn<StepRow> &c) { return c.csvKey == QLatin1String("caveat"); }),
            columns.end());
    }
    return html + resultTable(columns, steps.rows(), steps.rows().size(), {}, cellClass);
}

// Runs of several GPUs: who waited, who arrived last, and each rank's step.
QString ranksSection(const RankTable &ranks)
{
    QString html = QStringLiteral("<h2>%1</h2>\n").arg(esc(ReportExporter::tr("Ranks: several GPUs of one job")));
    for (const QString &note : ranks.notes())
        html += QStringLiteral("<p>%1</p>\n").arg(esc(note));
    html +=
        QStringLiteral("<figure><img src='%1' alt='%2'><figcaption>%2</figcaption></figure>\n")
            .arg(kRanksChart, esc(ReportExporter::tr("Each rank's step, mean per step, as compute, exposed "
                                                     "communication and idle: the first run of each side")));
    html += resultTable(RankTable::columns(), ranks.rows(), ranks.rows().size(), {}, {});
    html += resultTable(RankTable::collectiveColumns(), ranks.collectiveKinds(), ranks.collectiveKinds().size(), {},
                        {});
    if (ranks.comparison().empty())
        return html;
    if (!ranks.caveat().isEmpty())
        html += caveatParagraph(ReportExporter::tr("Caveat on A against B below: %1.").arg(ranks.caveat()));
    return html +
           resultTable(RankTable::comparisonColumns(), ranks.comparison(), ranks.comparison().size(), {}, {});
}

// More than two variants: a line per candidate, each candidate's step table, the kernel × variant matrix.
QString variantsSection(const VariantSteps &steps, const VariantDiff *diff, const QString &baseline)
{
    QString html = QStringLiteral("<h2>%1</h2>\n<p>%2</p>\n<ul>\n")
                       .arg(esc(ReportExporter::tr("Variants: each candidate against %1").arg(baseline)),
                            esc(ReportExporter::tr("Each candidate against the baseline as a pair; the step rows of "
                                                   "all candidates are one Holm family, their parts another, the "
                                                   "kernels × candidates another.")));
    for (int i = 0; i < int(steps.comparisons().size()); ++i)
        html += QStringLiteral("<li>%1</li>\n").arg(esc(steps.leadLine(i)));
    html += QStringLiteral("</ul>\n");
    html += QStringLiteral("<figure><img src='%1' alt='%2'><figcaption>%2</figcaption></figure>\n")
                .arg(kVariantsChart,
                     esc(ReportExporter::tr("Each variant's mean step, GPU busy and idle by cause; on each "
                                            "candidate the interval of its step beside its verdict")));
    for (int i = 0; i < int(steps.comparisons().size()); ++i) {
        html += QStringLiteral("<h3>%1</h3>\n").arg(esc(steps.labels().value(i)));
        html += resultTable(StepBreakdown::columns(), steps.comparisons()[std::size_t(i)].rows(),
                            steps.comparisons()[std::size_t(i)].rows().size(), {}, {});
    }
    if (diff) {
        const std::size_t shown = std::min<std::size_t>(40, diff->rows().size());
        html +=
            QStringLiteral("<h3>%1</h3>\n<p>%2</p>\n")
                .arg(esc(ReportExporter::tr("Kernels across the variants")),
                     esc(ReportExporter::tr("Each cell: the candidate's GPU time per run, its change against "
                                            "%1 and the verdict with the interval it was decided from (~: a "
                                            "change under the threshold; a change without a verdict: no "
                                            "significant change; Holm "
                                            "over kernels × candidates).")
                             .arg(baseline) +
                         (shown < diff->rows().size()
                              ? ReportExporter::tr(" The %1 largest changes of %2; %3 has every row.")
                                    .arg(shown)
                                    .arg(diff->rows().size())
                                    .arg(kVariantDiffCsv)
                              : QString())));
        html += resultTable(diff->matrixColumns(baseline), diff->rows(), shown, {}, {});
    }
    return html;
}

// A sweep's neighbours compared, each with the interval its verdict was decided from, and its jump, as
// `steps` and the Variants tab say them.
QString sweepSection(const Sweep &sweep, const QString &name)
{
    QString html =
        QStringLiteral("<h3>%1</h3>\n<ul>\n")
            .arg(esc(
                ReportExporter::tr("Sweep over %1: neighbours compared (%n test(s), their step rows one Holm "
                                   "family)",
                                   nullptr, int(sweep.adjacent().size()))
                    .arg(name)));
    for (int i = 0; i < int(sweep.adjacent().size()); ++i)
        html += QStringLiteral("<li>%1</li>\n").arg(esc(sweep.pairLine(i, name)));
    html += QStringLiteral("<li>%1</li>\n</ul>\n")
                .arg(esc(sweep.jump() >= 0
                             ? ReportExporter::tr("jump: %1").arg(sweep.pairLine(sweep.jump(), name))
                             : ReportExporter::tr("no jump: %1").arg(sweep.noJumpText())));
    return html;
}

// Jobs of several GPUs in every candidate: each one's mean over ranks, slowest rank and ranks against the
// baseline's, judged together.
QString variantRanksSection(const VariantRanks &ranks)
{
    QString html =
        QStringLiteral("<h3>%1</h3>\n<p>%2</p>\n")
            .arg(esc(ReportExporter::tr("Ranks across the variants")),
                 esc(ReportExporter::tr("Each candidate's step against the baseline's, runs (processes "
                                        "when a side has several) as the unit: the candidates' means "
                                        "over ranks one Holm family, their slowest ranks and ranks "
                                        "another.")));
    for (std::size_t i = 0; i < ranks.tables().size(); ++i)
        if (!ranks.tables()[i].caveat().isEmpty())
            html +=
                caveatParagraph(ReportExporter::tr("Caveat on %1: %2.")
                                    .arg(ranks.labels().value(qsizetype(i) + 1), ranks.tables()[i].caveat()));
    const std::vector<VariantRankComparisonRow> rows = ranks.comparison();
    return html + resultTable(VariantRanks::comparisonColumns(), rows, rows.size(), {}, {});
}

// The scopes of every candidate against the baseline (the Statistics section has the first's alone), and
// each scope across all variants.
QString variantScopesSection(const VariantScopes &scopes, double alpha, double threshold)
{
    QString html =
        QStringLiteral("<h3>%1</h3>\n<ul>\n").arg(esc(ReportExporter::tr("Scopes across the variants")));
    for (const ScopeAcrossVariants &across : scopes.acrossVariants())
        html += QStringLiteral("<li><code>%1</code>: %2</li>\n")
                    .arg(esc(across.scope), esc(across.text(alpha, threshold)));
    html += QStringLiteral("</ul>\n");
    for (std::size_t i = 0; i < scopes.rows().size(); ++i) {
        html += QStringLiteral("<h3>%1</h3>\n")
                    .arg(esc(ReportExporter::tr("Scopes: %1").arg(scopes.labels().value(qsizetype(i)))));
        html += statsTable(scopes.rows()[i], alpha, threshold);
    }
    return html;
}

QString timelineCaption(const ReportExporter::Timeline &timeline, const QString &side)
{
    QString caption = ReportExporter::tr("Timeline of %1").arg(side);
    if (!timeline.run.isEmpty())
        caption += QStringLiteral(" — ") + timeline.run;
    if (timeline.shownNs > 0)
        caption += QStringLiteral(" (") +
                   ReportExporter::tr("%1 shown").arg(formatDuration(double(timeline.shownNs))) +
                   QStringLiteral(")");
    return caption;
}

// The scopes compared: their options, the statistics table with how to read it, and the boxplots.
QString scopesSection(const ReportExporter::Input &input, const QString &caveat)
{
    QString html;
    html += QStringLiteral("<h2>%1</h2>\n<ul>\n").arg(esc(ReportExporter::tr("Scopes")));
    for (const QString &scope : input.scopes)
        html += QStringLiteral("<li><code>%1</code></li>\n").arg(esc(scope));
    if (input.scopes.isEmpty())
        html += QStringLiteral("<li>%1</li>\n").arg(esc(ReportExporter::tr("none selected")));
    html +=
        QStringLiteral("</ul>\n<p>%1</p>\n")
            .arg(esc(ReportExporter::tr(
                         "Match mode: %1 · samples: %2 · threshold: %3 % change of medians · boxplots: %4")
                         .arg(matchModeName(input.match), sampleModeName(input.samples),
                              QString::number(100.0 * input.threshold, 'g', 4),
                              input.pooled ? ReportExporter::tr("all runs pooled")
                                           : ReportExporter::tr("per run pair"))));

    html += QStringLiteral("<h2>%1</h2>\n").arg(esc(ReportExporter::tr("Statistics")));
    // the run pairs the table numbers, by their runs' names
    if (const QStringList pairs = Replication::runPairs(input.runsA, input.runsB); !pairs.isEmpty())
        html += QStringLiteral("<p>%1</p>\n").arg(esc(pairs.join(QStringLiteral("; "))));
    html += statsTable(input.rows, input.alpha, input.threshold);
    html +=
        QStringLiteral("<p class='note'>%1</p>\n")
            .arg(esc(
                ReportExporter::tr(
                    "How to read this: each row compares the durations of the kernels attributed to a scope "
                    "(per run pair, and \"all\" for the runs pooled). The run is the unit of replication: "
                    "samples of one run share its conditions, so on an \"all\" row with at least 2 runs a "
                    "side the verdict comes from a run-level test, Welch's t on the logarithms of the "
                    "per-run "
                    "medians, with the change of the run medians, Holm-adjusted over the scopes compared "
                    "together; its interval is at the row's Holm level, so it excludes 0 exactly when the "
                    "change is significant. A row says \"B faster\" or \"B "
                    "slower\" "
                    "only when that adjusted p is below %2 and the change is at least the threshold (%1 "
                    "%); a "
                    "significant but smaller change reads \"no meaningful change\". Rows of one run pair, "
                    "and "
                    "sides with a single run, use the per-sample Mann–Whitney U test and say that run-to-run "
                    "variation was not measured. With thousands of samples a p-value alone says little, so "
                    "the Hodges–Lehmann shift (the typical difference B − A, with the Mann–Whitney test's "
                    "interval at the level its p is judged) and Cliff's δ "
                    "(from −1 to 1; negative: B mostly faster) tell how large a difference is.")
                    .arg(QString::number(100.0 * input.threshold, 'g', 4))
                    .arg(input.alpha)));

    if (!caveat.isEmpty() && std::any_of(input.rows.begin(), input.rows.end(),
                                         [](const ComparisonRow &r) { return r.hasRunLevel(); }))
        html += caveatParagraph(ReportExporter::tr("Caveat on the run-level verdicts: %1.").arg(caveat));
    html +=
        QStringLiteral("<h2>%1</h2>\n<figure><img src='%2' alt='%3'><figcaption>%3</figcaption></figure>\n")
            .arg(esc(ReportExporter::tr("Boxplots")), kBoxplot,
                 esc(ReportExporter::tr("Boxplots of the scope durations, A vs B")));
    return html;
}

// What the verdicts were judged with, since the same data reads otherwise at another threshold.
QString settingsLine(const ReportExporter::Input &input)
{
    QStringList parts;
    if (input.steps) {
        parts << ReportExporter::tr("step scope %1")
                     .arg(input.steps->stepScope().isEmpty() ? ReportExporter::tr("(the whole run)")
                                                             : input.steps->stepScope());
        parts << ReportExporter::tr("alpha %1").arg(input.steps->options().alpha);
    }
    parts << ReportExporter::tr("threshold %1 (a smaller change is no meaningful change)")
                 .arg(formatPercent(input.threshold));
    if (!input.scopes.isEmpty())
        parts << ReportExporter::tr("scopes matched by %1, samples per %2")
                     .arg(matchModeName(input.match), sampleModeName(input.samples));
    return ReportExporter::tr("Judged with: %1").arg(parts.join(QStringLiteral("; ")));
}

// What marks an index.html as a Scopeline report's, so that a later report may replace its files.
constexpr char kGeneratorMeta[] = "<meta name='generator' content='Scopeline'>";

// Whether the folder holds files other than a Scopeline report's: someone else's, which an export must
// neither replace nor remove. A report is known by its index.html (reports before the generator mark
// by their title).
bool holdsOtherFiles(const QDir &dir)
{
    if (dir.isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System))
        return false;
    QFile index(dir.filePath(kIndex));
    if (!index.open(QIODevice::ReadOnly))
        return true;
    const QByteArray head = index.read(4096);
    return !head.contains(kGeneratorMeta) && !head.contains("<title>Scopeline report");
}

QString indexHtml(const ReportExporter::Input &input)
{
    QStringList candidates{input.labelB};
    for (const auto &candidate : input.moreCandidates)
        candidates << candidate.first;
    const QString title = ReportExporter::tr("Scopeline report: %1 vs %2")
                              .arg(input.labelA, candidates.join(QStringLiteral(", ")));
    QString html;
    html += QStringLiteral(
                "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n%1\n<title>%2</title>\n")
                .arg(QLatin1String(kGeneratorMeta), esc(title));
    html += QStringLiteral(
        "<style>\n"
        "body { font-family: sans-serif; margin: 2em; color: #1d232b; max-width: 1500px; }\n"
        "h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; }\n"
        "table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.92em; }\n"
        "th, td { border: 1px solid #c9ced6; padding: 3px 7px; text-align: left; vertical-align: top; }\n"
        "th { background: #eef1f5; }\n"
        "td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }\n"
        "td.file { font-family: monospace; font-size: 0.9em; word-break: break-all; min-width: 28ch; }\n"
        ".faster { color: #116329; font-weight: bold; } .slower { color: #a40e26; font-weight: bold; }\n"
        ".missing { color: #8a6100; } .note, .meta { color: #59606b; }\n"
        ".caveat { background: #fff6dc; border: 1px solid #ecd48a; color: #5c4300; padding: 4px 8px; }\n"
        "tr.dependent td { font-style: italic; } td.percall.same { color: #59606b; }\n"
        "img { max-width: 100%; border: 1px solid #c9ced6; }\n"
        "figure { margin: 1em 0; } figcaption { color: #59606b; font-size: 0.9em; }\n"
        "</style>\n</head>\n<body>\n");
    html += QStringLiteral("<h1>%1</h1>\n").arg(esc(title));
    const QString written = QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss t"));
    const QString version = QCoreApplication::applicationVersion();
    html += QStringLiteral("<p class='meta'>%1</p>\n")
                .arg(esc(version.isEmpty()
                             ? ReportExporter::tr("Written %1 by Scopeline").arg(written)
                             : ReportExporter::tr("Written %1 by Scopeline %2").arg(written, version)));
    html += QStringLiteral("<p class='meta'>%1</p>\n").arg(esc(settingsLine(input)));

    html +=
        QStringLiteral("<h2>%1</h2>\n<p><b>A</b> (%2): %3</p>\n")
            .arg(esc(ReportExporter::tr("Sides")), esc(ReportExporter::tr("baseline")), esc(input.labelA));
    html += runsTable(input.runsA);
    html += QStringLiteral("<p><b>B</b> (%1): %2</p>\n")
                .arg(esc(ReportExporter::tr("candidate")), esc(input.labelB));
    html += runsTable(input.runsB);
    for (std::size_t c = 0; c < input.moreCandidates.size(); ++c) {
        html += QStringLiteral("<p><b>%1</b> (%2): %3</p>\n")
                    .arg(c < 24 ? QString(QChar(char16_t(u'C' + c))) : QString::number(c + 3),
                         esc(ReportExporter::tr("candidate")), esc(input.moreCandidates[c].first));
        html += runsTable(input.moreCandidates[c].second);
    }
    if (!input.moreCandidates.empty())
        html +=
            QStringLiteral("<p class='note'>%1</p>\n")
                .arg(esc(
                    ReportExporter::tr(
                        "The sections below compare A with B, the first candidate; every verdict is judged "
                        "with all %1 candidates, Holm over candidates × rows, as in the Variants section.")
                        .arg(input.moreCandidates.size() + 1)));
    const QString caveat = caveatOf(input.runsA, input.runsB);
    if (!caveat.isEmpty())
        html += caveatParagraph(CaveatBanner::message(caveat));
    if (!input.notes.isEmpty()) {
        html += caveatParagraph(ReportExporter::tr("What the loading and the comparison said:")) +
                QStringLiteral("<ul class='caveat'>\n");
        for (const QString &note : input.notes)
            html += QStringLiteral("<li>%1</li>\n").arg(esc(note));
        html += QStringLiteral("</ul>\n");
    }

    if (input.steps)
        html += stepsSection(*input.steps);
    if (input.ranks)
        html += ranksSection(*input.ranks);
    if (input.variantSteps)
        html += variantsSection(*input.variantSteps, input.variantDiff, input.variantBaseline);
    if (input.variantSweep)
        html += sweepSection(*input.variantSweep, Sweep::parameterName({input.variantBaseline}));
    if (input.variantScopes)
        html += variantScopesSection(*input.variantScopes, input.alpha, input.threshold);
    if (input.variantRanks)
        html += variantRanksSection(*input.variantRanks);
    if (input.diff)
        html += diffSection(*input.diff);
    if (!hasScopeSamples(input)) {
        html += QStringLiteral("<h2>%1</h2>\n<p class='note'>%2</p>\n")
                    .arg(esc(ReportExporter::tr("Scopes")),
                         esc(input.scopes.isEmpty()
                                 ? ReportExporter::tr(
                                       "No scopes were selected, so this report holds what changed "
                                       "and the step breakdown. Pick scopes (in the Scopes tab, "
                                       "or --scope) to add their boxplots and statistics.")
                                 : ReportExporter::tr("No samples for the selected scopes (%1): no boxplots "
                                                      "or statistics.")
                                       .arg(input.scopes.join(QStringLiteral(", ")))));
    } else {
        html += scopesSection(input, caveat);
    }
    QStringList links;
    for (const auto &file : csvFiles(input))
        links << QStringLiteral("<a href='%1'>%1</a>").arg(file.first);
    html +=
        QStringLiteral("<h2>%1</h2>\n<p>%2 %3</p>\n")
            .arg(esc(ReportExporter::tr("Data")), esc(ReportExporter::tr("Every row of the tables, as CSV:")),
                 links.join(QStringLiteral(" · ")));
    html += QStringLiteral("<h2>%1</h2>\n").arg(esc(ReportExporter::tr("Timelines")));
    if (input.timelineA.missing.isEmpty() && input.timelineB.missing.isEmpty() &&
        input.timelineA.shownNs > 0 && input.timelineA.shownNs == input.timelineB.shownNs)
        html += QStringLiteral("<p class='note'>%1</p>\n")
                    .arg(esc(ReportExporter::tr("Both show the same length of time, to compare at a glance: "
                                                "a shorter run fills less of the width.")));
    for (const auto &[file, timeline, side] :
         {std::tuple(&kTimelineA, &input.timelineA, QStringLiteral("A")),
          std::tuple(&kTimelineB, &input.timelineB, QStringLiteral("B"))})
        html += timeline->missing.isEmpty()
                    ? QStringLiteral("<figure><img src='%1' alt='%2'><figcaption>%2</figcaption></figure>\n")
                          .arg(*file, esc(timelineCaption(*timeline, side)))
                    : QStringLiteral("<p>%1: %2.</p>\n")
                          .arg(esc(timelineCaption(*timeline, side)), esc(timeline->missing));
    html += QStringLiteral("</body>\n</html>\n");
    return html;
}

} // namespace

QString ReportExporter::folderRefusal(const QString &folder)
{
    const QString shown = QDir::toNativeSeparators(folder);
    if (const QFileInfo info(folder); info.exists() && !info.isDir())
        return tr("%1: a file, not a folder: give a new folder, or an earlier report's").arg(shown);
    if (const QDir dir(folder); dir.exists() && holdsOtherFiles(dir))
        return tr("%1: holds other files and no Scopeline report, which the report would replace or remove: "
                  "choose a new or empty folder, or an earlier report's")
            .arg(shown);
    return {};
}

bool ReportExporter::exportTo(const QString &folder, const Input &input, QString *error, QStringList *written)
{
    const QDir dir(folder);
    const auto pathOf = [&dir](const QString &name) { return QDir::toNativeSeparators(dir.filePath(name)); };
    const auto fail = [error](const QString &file, const QString &reason) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(file, reason);
        return false;
    };
    if (folder.isEmpty())
        return fail(tr("report"), tr("no folder given"));
    // Every picture is encoded before anything is written, so a failure leaves the old report as it was.
    struct Output
    {
        QString name;
        QByteArray bytes;
    };
    std::vector<Output> outputs;
    // Without compared scopes there is no boxplot and no statistics table: no empty picture, no
    // header-only CSV (an older report's are removed once the new one is in place).
    const bool scopes = hasScopeSamples(input);
    const std::pair<const QString *, const QImage *> pictures[] = {
        {&kBoxplot, scopes ? &input.boxplot : nullptr},
        {&kTimelineA, input.timelineA.missing.isEmpty() ? &input.timelineA.image : nullptr},
        {&kTimelineB, input.timelineB.missing.isEmpty() ? &input.timelineB.image : nullptr},
        {&kDiffChart, input.diff ? &input.diffChart : nullptr},
        {&kStepsChart, input.steps ? &input.stepsChart : nullptr},
        {&kRanksChart, input.ranks ? &input.ranksChart : nullptr},
        {&kVariantsChart, input.variantSteps ? &input.variantsChart : nullptr}};
    for (const auto &[name, image] : pictures) {
        if (!image)
            continue;
        if (image->isNull())
            return fail(pathOf(*name), tr("no picture to export"));
        const QByteArray png = pngBytes(*image);
        if (png.isEmpty())
            return fail(pathOf(*name), tr("cannot encode the picture as PNG"));
        outputs.push_back({*name, png});
    }
    if (const QString refusal = folderRefusal(folder); !refusal.isEmpty()) {
        if (error)
            *error = refusal;
        return false;
    }
    if (const QString why = makeFolder(dir.absolutePath()); !why.isEmpty())
        return fail(QDir::toNativeSeparators(folder), tr("cannot create the folder (%1)").arg(why));
    for (const auto &[name, write] : csvFiles(input))
        outputs.push_back({name, write().toUtf8()});
    outputs.push_back({kIndex, indexHtml(input).toUtf8()}); // last: it refers to the others

    // Write every file to its temporary name first; only when all are written, put them in place.
    std::vector<std::unique_ptr<QSaveFile>> files;
    for (const Output &output : outputs) {
        auto file = std::make_unique<QSaveFile>(dir.filePath(output.name));
        if (!writeAll(*file, output.bytes))
            return fail(pathOf(output.name), tr("cannot write: %1").arg(file->errorString()));
        files.push_back(std::move(file)); // an early return discards the temporary files
    }
    for (std::size_t i = 0; i < files.size(); ++i)
        if (!files[i]->commit())
            return fail(pathOf(outputs[i].name), tr("cannot save: %1").arg(files[i]->errorString()));
    // An earlier report's files that this one has not (its scopes, ranks or variants) go: they would
    // be read as this report's.
    for (const QString &name :
         {kBoxplot, kStats, kTimelineA, kTimelineB, kDiffChart, kDiffCsv, kStepsChart, kStepsCsv, kRanksChart,
          kRanksCsv, kRanksComparisonCsv, kRanksCollectivesCsv, kVariantsChart, kVariantStepsCsv,
          kVariantDiffCsv, kVariantScopesCsv, kVariantRanksCsv})
        if (std::none_of(outputs.begin(), outputs.end(), [&name](const Output &o) { return o.name == name; }))
            QFile::remove(dir.filePath(name));
    if (written)
        for (const Output &output : outputs)
            *written << pathOf(output.name);
    return true;
}

} // namespace scopeline
