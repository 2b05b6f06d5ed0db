// SPDX-License-Identifier: GPL-3.0-or-later
// ReportExporter and `scopeline-cli report` on the cuBLAS matmul vs einsum pair: the nine files, PNGs
// of the right size that show something, the CSVs of the panel and the step breakdown, an HTML page with
// every scope and its verdict and the step table, escaping, atomic replacement, and failures that name
// the file and keep the old report. The exporter takes data: from the views as the window shows them,
// or computed without any view.

#include "imagecheck.h"
#include "reporthtml.h"
#include "testdata.h"
#include "testprocess.h"

#include "model/comparison/replication.h"
#include "model/comparison/scopecomparison.h"
#include "model/comparison/stepbreakdown.h"
#include "model/loading/loadedrun.h"
#include "model/loading/tracefolder.h"
#include "model/tables/durationformat.h"
#include "model/tables/tableformat.h"
#include "widgets/charts/plottheme.h"
#include "widgets/charts/rankbars.h"
#include "widgets/charts/variantbars.h"
#include "widgets/panels/caveatbanner.h"
#include "widgets/panels/comparisonpanel.h"
#include "widgets/panels/kerneldiffview.h"
#include "widgets/report/reportcharts.h"
#include "widgets/report/reportexporter.h"
#include "widgets/tables/comparisontablemodel.h"
#include "widgets/timeline/pairtimeline.h"

#include <QtTest>
#include <QtWidgets>
#include <qcustomplot.h>

#include <unistd.h>

#include <memory>
#include <set>
#include <tuple>

using namespace scopeline;
using imagecheck::distinctColours;

namespace {

const QString kCublas = testdata::path("jax_h100/jax_named_scopes_cublas");
const QString kPairA = kCublas + QStringLiteral("/trace_file_matmul_*");
const QString kPairB = kCublas + QStringLiteral("/trace_file_einsum_*");
const QStringList kScopes = {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"), QStringLiteral("mlp")};
// The per-call cell as the model's figures give it, written out independently of the report's code.
QString expectedPerCall(const scopeline::KernelDiffRow &row)
{
    if (!row.perCall.valid())
        return QStringLiteral("–");
    return QString::asprintf("%+.2f %% [%+.2f, %+.2f], ", 100 * row.perCall.change, 100 * row.perCall.ciLow,
                             100 * row.perCall.ciHigh) +
           row.perCallVerdictText();
}

// A cell of the report: the column's text, "–" when empty.
template <typename Row> QString cellText(const scopeline::TableColumn<Row> &column, const Row &row)
{
    const QString text = column.display(row);
    return text.isEmpty() ? QStringLiteral("–") : text;
}

const QStringList kFiles = {
    QStringLiteral("boxplot.png"), QStringLiteral("diff.csv"),       QStringLiteral("diff.png"),
    QStringLiteral("index.html"),  QStringLiteral("stats.csv"),      QStringLiteral("steps.csv"),
    QStringLiteral("steps.png"),   QStringLiteral("timeline_a.png"), QStringLiteral("timeline_b.png")};

QByteArray readAll(const QString &file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList filesIn(const QString &folder)
{
    QStringList names = QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    names.sort();
    return names;
}

// The widgets behind a report, as the main window would hold them, and the report's data taken from them.
struct Report
{
    std::unique_ptr<ComparisonPanel> panel;
    std::unique_ptr<PairTimeline> timelines;
    std::unique_ptr<KernelDiffView> diffView;
    QString labelA, labelB;
    QList<LoadedRun> runsA, runsB;
    ReportExporter::Input input;

    // Takes the data and pictures from the views as they are now (as MainWindow::exportReport does).
    void capture()
    {
        input = ReportCharts::fromViews(*panel, diffView.get(), *timelines->viewA(), *timelines->viewB());
        input.labelA = labelA;
        input.labelB = labelB;
        input.runsA = runsA;
        input.runsB = runsB;
    }
};

} // namespace

class TstReportExporter : public QObject
{
    Q_OBJECT

private:
    QList<LoadedRun> m_a, m_b;

    std::unique_ptr<Report> makeReport(const QStringList &scopes, const QString &labelA = kPairA,
                                       const QString &labelB = kPairB)
    {
        auto report = std::make_unique<Report>();
        report->panel = std::make_unique<ComparisonPanel>();
        report->panel->resize(1400, 900);
        report->panel->show();
        report->timelines = std::make_unique<PairTimeline>();
        report->timelines->resize(1400, 900);
        report->timelines->show();
        if (!QTest::qWaitForWindowExposed(report->panel.get()) ||
            !QTest::qWaitForWindowExposed(report->timelines.get()))
            return nullptr;
        report->panel->setSides(m_a, m_b, labelA, labelB);
        report->panel->setMatchMode(MatchMode::Component);
        report->panel->setSampleMode(SampleMode::Kernel);
        report->panel->setThreshold(0.01);
        report->panel->setSelectedScopes(scopes);
        report->timelines->setZoomLocked(true);
        report->timelines->setRuns(m_a.value(0), m_b.value(0), labelA, labelB);
        report->diffView = std::make_unique<KernelDiffView>();
        report->diffView->resize(1400, 600);
        report->diffView->setSides(m_a, m_b, labelA, labelB);
        QCoreApplication::processEvents();
        report->labelA = labelA;
        report->labelB = labelB;
        report->runsA = m_a;
        report->runsB = m_b;
        report->capture();
        return report;
    }

    // The five files are there, nothing else is, and each holds what it should.
    void checkReport(const QString &folder, const Report *report)
    {
        QCOMPARE(filesIn(folder), kFiles); // no temporary files left behind
        const QImage boxplot(folder + QStringLiteral("/boxplot.png"));
        QVERIFY(!boxplot.isNull());
        QCOMPARE(boxplot.size(), QSize(1400, 800));
        QVERIFY2(distinctColours(boxplot) > 4, "boxplot.png looks blank");
        for (const QString &name : {QStringLiteral("timeline_a.png"), QStringLiteral("timeline_b.png")}) {
            const QImage image(folder + QLatin1Char('/') + name);
            QVERIFY2(!image.isNull(), qPrintable(name));
            if (report) {
                const TimelineView *view = name.endsWith(QLatin1String("a.png")) ? report->timelines->viewA()
                                                                                 : report->timelines->viewB();
                QCOMPARE(image.size(), view->size() * view->devicePixelRatioF());
            } else {
                QVERIFY2(image.width() >= 1000 && image.height() >= 200, qPrintable(name));
            }
            QVERIFY2(distinctColours(image) > 4, qPrintable(name + QStringLiteral(" looks blank")));
        }
        const QString html = QString::fromUtf8(readAll(folder + QStringLiteral("/index.html")));
        QVERIFY(html.startsWith(QLatin1String("<!DOCTYPE html>")));
        for (const QString &name : {QStringLiteral("boxplot.png"), QStringLiteral("timeline_a.png"),
                                    QStringLiteral("timeline_b.png")})
            QVERIFY2(html.contains(QStringLiteral("src='%1'").arg(name)), qPrintable(name));
        QVERIFY(html.contains(QLatin1String("Holm")));
        QVERIFY(html.contains(QLatin1String("Cliff")));
        // timelines of one length of time say so, where a shorter run's looked empty; others do not
        if (report)
            QCOMPARE(html.contains(QLatin1String("Both show the same length of time")),
                     report->timelines->viewA()->visibleEnd() - report->timelines->viewA()->visibleStart() ==
                         report->timelines->viewB()->visibleEnd() -
                             report->timelines->viewB()->visibleStart());
        QVERIFY(html.contains(QLatin1String("trace_file_matmul_0")));
        QVERIFY(html.contains(QLatin1String("trace_file_einsum_2")));
        // the statistics table's run pairs, by their runs' names
        QVERIFY(html.contains(QLatin1String("<p>run 1: trace_file_matmul_0 vs trace_file_einsum_0; run 2: ")));
        // a run's GPU busy as a time, as `info` and the window's strip give it, with its share of the span
        const LaunchSummary first = m_a.front().summary->total();
        QVERIFY2(html.contains(QStringLiteral("%1 (%2)").arg(
                     formatDuration(double(first.busyNs)),
                     formatPercent(double(first.busyNs) / double(first.spanNs)))),
                 qPrintable(formatDuration(double(first.busyNs))));
        // What changed: the kernel diff of the same runs, as the model computes it (the model's figures
        // are checked against Python in tst_kerneldiff), its chart and its largest rows in the page.
        const KernelDiff diff(m_a, m_b);
        QCOMPARE(QString::fromUtf8(readAll(folder + QStringLiteral("/diff.csv"))), diff.toCsv());
        const QImage chart(folder + QStringLiteral("/diff.png"));
        QCOMPARE(chart.size(), QSize(1400, 800));
        QVERIFY2(distinctColours(chart) > 4, "diff.png looks blank");
        QVERIFY(html.contains(QLatin1String("src='diff.png'")));
        QVERIFY(html.contains(QLatin1String("What changed")));
        QVERIFY(html.contains(htmlText(diff.rows().front().kernel)));
        // its table: the window's columns (KernelDiff::tableColumns), the verdict on the GPU time per
        // run beside the change and interval it was decided from, then the per-call change and verdict
        const std::vector<TableColumn<KernelDiffRow>> columns = KernelDiff::tableColumns();
        QVERIFY(html.contains(htmlHeader(columns)));
        const auto changeColumn = std::find_if(columns.begin(), columns.end(), [](const auto &c) {
            return c.csvKey == QLatin1String("run_level_change");
        });
        QVERIFY(changeColumn != columns.end());
        for (std::size_t i = 0; i < std::min<std::size_t>(25, diff.rows().size()); ++i) {
            const KernelDiffRow &row = diff.rows()[i];
            QVERIFY2(html.contains(
                         QStringLiteral(">%1</td><td class='num'>%2</td><td class='percall ")
                             .arg(htmlText(row.verdictText()), changeColumn->display(row).isEmpty()
                                                                   ? QStringLiteral("–")
                                                                   : htmlText(changeColumn->display(row)))),
                     qPrintable(row.kernel));
            QVERIFY2(html.contains(
                         QStringLiteral("'>%1</td><td class='num'>").arg(htmlText(expectedPerCall(row)))),
                     qPrintable(row.kernel));
            if (row.runLevel.valid())
                QVERIFY(html.contains(QStringLiteral("<td class='num'>%1</td>")
                                          .arg(formatPValue(row.runLevelHolm))));
        }
        // JAX traces do not tell their process: one process a side, said on the diff, the sides, the step
        const QString caveat = diff.summary().caveat;
        QVERIFY(!caveat.isEmpty());
        QCOMPARE(caveat, Replication::of(m_a, m_b).caveat());
        QVERIFY(html.contains(QStringLiteral("<p class='caveat'>Caveat on every verdict below: %1.</p>")
                                  .arg(htmlText(caveat))));
        QVERIFY(html.contains(
            QStringLiteral("<p class='caveat'>%1</p>").arg(htmlText(CaveatBanner::message(caveat)))));
        QVERIFY(html.contains(QLatin1String("scopeline-hipbench run --processes N")));
        QVERIFY(html.contains(QLatin1String("<td>unknown</td>"))); // the runs' process
        // The step: the breakdown of the same runs (its step scope detected, as the window and the CLI
        // do), its picture, and its table drawn from the breakdown's one column description.
        const StepBreakdown steps(m_a, m_b);
        QVERIFY(!steps.stepScope().isEmpty());
        QCOMPARE(QString::fromUtf8(readAll(folder + QStringLiteral("/steps.csv"))), steps.toCsv());
        const QImage stepsChart(folder + QStringLiteral("/steps.png"));
        QCOMPARE(stepsChart.size(), QSize(1400, 800));
        QVERIFY2(distinctColours(stepsChart) > 4, "steps.png looks blank");
        QVERIFY2(distinctColours(stepsChart.copy(0, 0, 1400, 300)) > 4, "the waterfall looks blank");
        QVERIFY2(distinctColours(stepsChart.copy(0, 400, 1400, 400)) > 4, "the step times look blank");
        QVERIFY(html.contains(QLatin1String("src='steps.png'")));
        QVERIFY(html.contains(htmlText(steps.stepLine())));
        QVERIFY2(steps.stepLine().contains(caveat), qPrintable(steps.stepLine())); // the step says it too
        // the caveat every tested row shares, once above the table rather than in a cell of each
        QVERIFY(html.contains(QStringLiteral("<p class='caveat'>Caveat on every tested row below: %1.</p>")
                                  .arg(htmlText(steps.row(StepPart::Step).caveat))));
        for (const TableColumn<StepRow> &column : StepBreakdown::columns()) {
            const QString header = QStringLiteral("<th title='%1'>%2</th>")
                                       .arg(htmlText(column.tooltip), htmlText(column.title));
            QCOMPARE(html.contains(header), column.csvKey != QLatin1String("caveat"));
            if (column.csvKey == QLatin1String("caveat"))
                continue;
            for (const StepRow &row : steps.rows())
                QVERIFY2(html.contains(QStringLiteral(">%1</td>").arg(htmlText(cellText(column, row)))),
                         qPrintable(column.csvKey + QLatin1Char(' ') + stepPartKey(row.part)));
        }
        QVERIFY(html.indexOf(QLatin1String("src='steps.png'")) <
                html.indexOf(QLatin1String("src='diff.png'")));
    }

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(kCublas);
        for (auto [pattern, runs] : {std::pair{kPairA, &m_a}, std::pair{kPairB, &m_b}}) {
            QString error;
            const std::vector<TraceRun> found = TraceFolder::scan(pattern, &error);
            QVERIFY2(found.size() == 3, qPrintable(error));
            *runs = LoadedRun::loadAll(found);
            for (const LoadedRun &run : *runs)
                QVERIFY2(run.ok(), qPrintable(run.error));
        }
    }

    void exportWritesAllFiles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("new/report")); // created on export
        const std::unique_ptr<Report> report = makeReport(kScopes);
        QVERIFY(report);
        QCOMPARE(report->panel->selectedScopes(), kScopes);
        QVERIFY(!report->panel->rows().empty());

        QString error;
        QVERIFY2(ReportExporter::exportTo(folder, report->input, &error), qPrintable(error));
        checkReport(folder, report.get());
        if (QTest::currentTestFailed())
            return;

        QCOMPARE(QString::fromUtf8(readAll(folder + QStringLiteral("/stats.csv"))), report->panel->csv());

        const QString html = QString::fromUtf8(readAll(folder + QStringLiteral("/index.html")));
        for (const QString &scope : kScopes)
            QVERIFY2(html.contains(QStringLiteral("<td>%1</td>").arg(scope)), qPrintable(scope));
        // One table row per statistics row, each with the verdict the panel's row gives.
        QCOMPARE(int(html.count(QLatin1String("<td class='verdict"))), int(report->panel->rows().size()));
        int wins = 0;
        for (const ComparisonRow &row : report->panel->rows()) {
            const Verdict verdict = row.verdict(0.05, report->panel->threshold());
            wins += verdict == Verdict::Faster || verdict == Verdict::Slower;
            QVERIFY2(html.contains(QStringLiteral("'>%1</td></tr>").arg(verdictText(verdict))),
                     qPrintable(row.scope));
        }
        // matmul vs einsum differ for real: the report says so in rows, not only in the explanation.
        QVERIFY(wins > 0);
        QVERIFY(html.contains(QLatin1String("'verdict faster'>B faster</td>")) ||
                html.contains(QLatin1String("'verdict slower'>B slower</td>")));
        // Run details of both sides.
        for (const LoadedRun &run : m_a + m_b) {
            QVERIFY(html.contains(htmlText(run.run.file)));
            QVERIFY(html.contains(QStringLiteral("<td class='num'>%1</td>").arg(run.trace->eventCount())));
        }
        QVERIFY(html.contains(QLatin1String(">jax<")));
        QVERIFY(html.contains(QLatin1String("component")));
        QVERIFY(html.contains(QLatin1String("kernel")));
    }

    void textIsEscaped()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::unique_ptr<Report> report =
            makeReport(kScopes, QStringLiteral("A <script>alert(1)</script> & co"),
                       QStringLiteral("B \"quoted\" <i> 'x' onload='y'"));
        QVERIFY(report);
        QString error;
        QVERIFY2(ReportExporter::exportTo(dir.path(), report->input, &error), qPrintable(error));
        const QString html = QString::fromUtf8(readAll(dir.filePath(QStringLiteral("index.html"))));
        QVERIFY(!html.contains(QLatin1String("<script>")));
        QVERIFY(!html.contains(QLatin1String("<i>")));
        QVERIFY(html.contains(QLatin1String("A &lt;script&gt;alert(1)&lt;/script&gt; &amp; co")));
        QVERIFY(
            html.contains(QLatin1String("B &quot;quoted&quot; &lt;i&gt; &#39;x&#39; onload=&#39;y&#39;")));
        QVERIFY(!html.contains(QLatin1String("onload='"))); // no attribute of its own in a single-quoted one
    }

    void secondExportReplaces()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        {
            const std::unique_ptr<Report> first = makeReport(kScopes);
            QVERIFY(first);
            QVERIFY2(ReportExporter::exportTo(dir.path(), first->input, &error), qPrintable(error));
        }
        const QByteArray firstCsv = readAll(dir.filePath(QStringLiteral("stats.csv")));
        const QByteArray firstHtml = readAll(dir.filePath(QStringLiteral("index.html")));

        const std::unique_ptr<Report> second = makeReport({QStringLiteral("mlp")});
        QVERIFY(second);
        second->timelines->viewA()->zoomBy(4); // another view
        second->capture();
        QVERIFY2(ReportExporter::exportTo(dir.path(), second->input, &error), qPrintable(error));
        checkReport(dir.path(), second.get());
        const QByteArray secondCsv = readAll(dir.filePath(QStringLiteral("stats.csv")));
        QCOMPARE(QString::fromUtf8(secondCsv), second->panel->csv());
        QVERIFY(secondCsv != firstCsv);
        const QString html = QString::fromUtf8(readAll(dir.filePath(QStringLiteral("index.html"))));
        QVERIFY(html.toUtf8() != firstHtml);
        QVERIFY(!html.contains(QLatin1String("<td>attn_q_k</td>")));
        QVERIFY(html.contains(QLatin1String("<td>mlp</td>")));
    }

    void unwritableFolderFails()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::unique_ptr<Report> report = makeReport(kScopes);
        QVERIFY(report);
        QString error;

        // A folder that cannot be created (a file is in the way).
        QFile blocker(dir.filePath(QStringLiteral("blocker")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const QString under = dir.filePath(QStringLiteral("blocker/report"));
        QVERIFY(!ReportExporter::exportTo(under, report->input, &error));
        QVERIFY2(error.contains(QDir::toNativeSeparators(under)), qPrintable(error));

        // A read-only folder (root writes anyway: then the case says nothing and is left out).
        const QString locked = dir.filePath(QStringLiteral("locked"));
        QVERIFY(QDir().mkpath(locked));
        QVERIFY(QFile::setPermissions(locked, QFile::ReadOwner | QFile::ExeOwner));
        QFile probe(locked + QStringLiteral("/probe"));
        const bool rootWrites = probe.open(QIODevice::WriteOnly);
        if (rootWrites)
            probe.remove();
        else {
            error.clear();
            QVERIFY(!ReportExporter::exportTo(locked, report->input, &error));
            QVERIFY2(error.startsWith(QDir::toNativeSeparators(locked + QStringLiteral("/"))),
                     qPrintable(error));
            QVERIFY2(error.contains(QLatin1String(".png: ")) || error.contains(QLatin1String(".csv: ")) ||
                         error.contains(QLatin1String(".html: ")),
                     qPrintable(error));
        }
        QFile::setPermissions(locked, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QCOMPARE(filesIn(locked), QStringList());
    }

    void failedExportKeepsOldReport()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        const std::unique_ptr<Report> report = makeReport(kScopes);
        QVERIFY(report);
        QVERIFY2(ReportExporter::exportTo(dir.path(), report->input, &error), qPrintable(error));
        QMap<QString, QByteArray> before;
        for (const QString &name : kFiles)
            before[name] = readAll(dir.filePath(name));

        // stats.csv cannot be replaced: a folder now stands in its place.
        const QString csv = dir.filePath(QStringLiteral("stats.csv"));
        QVERIFY(QFile::remove(csv));
        QVERIFY(QDir().mkdir(csv));
        before.remove(QStringLiteral("stats.csv"));
        report->panel->setSelectedScopes({QStringLiteral("mlp")}); // the new report would differ
        report->timelines->viewB()->zoomBy(3);
        QCoreApplication::processEvents();
        report->capture();
        error.clear();
        QVERIFY(!ReportExporter::exportTo(dir.path(), report->input, &error));
        QVERIFY2(error.startsWith(QDir::toNativeSeparators(csv) + QStringLiteral(": ")), qPrintable(error));
        QVERIFY2(error.size() > csv.size() + 4, qPrintable(error));
        // Nothing was replaced, nothing left behind.
        for (auto it = before.begin(); it != before.end(); ++it)
            QVERIFY2(readAll(dir.filePath(it.key())) == it.value(), qPrintable(it.key()));
        QCOMPARE(filesIn(dir.path()), kFiles);
    }

    // A folder of someone else's files (no Scopeline report in it): the export would replace its
    // stats.csv and remove its boxplot.png, so it is refused and every file is left as it was.
    void folderOfOtherFilesIsRefused()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QMap<QString, QByteArray> mine{{QStringLiteral("stats.csv"), "mine\n"},
                                             {QStringLiteral("boxplot.png"), "x"},
                                             {QStringLiteral("ranks.csv"), "keep\n"}};
        for (auto it = mine.begin(); it != mine.end(); ++it) {
            QFile f(dir.filePath(it.key()));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(it.value()) == it.value().size());
        }
        const std::unique_ptr<Report> report = makeReport({QStringLiteral("mlp")});
        QVERIFY(report);
        QString error;
        QVERIFY(!ReportExporter::exportTo(dir.path(), report->input, &error));
        QVERIFY2(error.startsWith(QDir::toNativeSeparators(dir.path())) &&
                     error.contains(QLatin1String("other files")),
                 qPrintable(error));
        QCOMPARE(filesIn(dir.path()), QStringList(mine.keys()));
        for (auto it = mine.begin(); it != mine.end(); ++it)
            QCOMPARE(readAll(dir.filePath(it.key())), it.value());
        // an empty folder, and then the report's own, take it
        QTemporaryDir empty;
        QVERIFY2(ReportExporter::exportTo(empty.path(), report->input, &error), qPrintable(error));
        QVERIFY2(ReportExporter::exportTo(empty.path(), report->input, &error), qPrintable(error));
        // a file is no folder: said so, and by the CLI before it loads anything (what a missing trace
        // would fail on after it)
        const QString file = dir.filePath(QStringLiteral("stats.csv"));
        QVERIFY(!ReportExporter::exportTo(file, report->input, &error));
        QCOMPARE(error, ReportExporter::folderRefusal(file));
        QVERIFY2(error.contains(QLatin1String("a file, not a folder")), qPrintable(error));
        const ProcessResult cli =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("report"), kPairA, dir.filePath(QStringLiteral("nothing")),
                        QStringLiteral("--out"), file});
        QCOMPARE(cli.exitCode, 2);
        QCOMPARE(QString::fromUtf8(cli.err), QStringLiteral("scopeline-cli: %1\n").arg(error));
        QCOMPARE(readAll(file), mine.value(QStringLiteral("stats.csv")));
    }

    void missingInputFails()
    {
        QTemporaryDir dir;
        QString error;
        ReportExporter::Input input;
        QVERIFY(!ReportExporter::exportTo(dir.path(), input, &error));
        QVERIFY2(error.contains(QLatin1String(".png: ")), qPrintable(error));
        QCOMPARE(filesIn(dir.path()), QStringList());
    }

    // The same report from data alone, no view: what scopeline-cli report does in its own process.
    void exportFromDataAlone()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ReportExporter::Input input;
        input.labelA = kPairA;
        input.labelB = kPairB;
        input.runsA = m_a;
        input.runsB = m_b;
        input.scopes = kScopes;
        input.rows = ScopeComparison(scopeIndexes(m_a), scopeIndexes(m_b))
                         .compare(kScopes, MatchMode::Component, SampleMode::Kernel);
        const KernelDiff diff(m_a, m_b);
        input.diff = &diff;
        input.boxplot =
            ReportCharts::boxplotImage(input.rows, kScopes, SampleMode::Kernel, true, kPairA, kPairB);
        input.diffChart = ReportCharts::diffChartImage(diff);
        const StepBreakdown steps(m_a, m_b);
        input.steps = &steps;
        input.stepsChart =
            ReportCharts::stepsChartImage(steps, QStringLiteral("matmul"), QStringLiteral("einsum"));
        std::tie(input.timelineA, input.timelineB) =
            ReportCharts::gpuActivityTimelines(m_a.front(), m_b.front(), kPairA, kPairB);
        QString error;
        QVERIFY2(ReportExporter::exportTo(dir.path(), input, &error), qPrintable(error));
        checkReport(dir.path(), nullptr);
        QCOMPARE(QString::fromUtf8(readAll(dir.filePath(QStringLiteral("stats.csv")))),
                 ScopeComparison::toCsv(input.rows, 0.05, input.threshold));
        const QString html = QString::fromUtf8(readAll(dir.filePath(QStringLiteral("index.html"))));
        QCOMPARE(int(html.count(QLatin1String("<td class='verdict"))), int(input.rows.size()));
        QVERIFY(html.contains(QStringLiteral("Timeline of A — %1").arg(m_a.front().run.name)));

        // A diff without its chart is refused, naming the chart; nothing is written.
        QTemporaryDir empty;
        input.diffChart = QImage();
        QVERIFY(!ReportExporter::exportTo(empty.path(), input, &error));
        QVERIFY2(error.startsWith(QDir::toNativeSeparators(empty.filePath(QStringLiteral("diff.png")))),
                 qPrintable(error));
        QCOMPARE(filesIn(empty.path()), QStringList());
    }

    // 4 processes a side: no caveat anywhere, the processes named; by op, one row per HLO op and
    // none process-dependent, where by kernel the autotuner's kernels are (in italics).
    void processesAndOps()
    {
        const QString pathA = testdata::path("h100_runs/jax_processes/matmul");
        const QString pathB = testdata::path("h100_runs/jax_processes/einsum");
        REQUIRE_TEST_DATA(pathA, pathB);
        ReportExporter::Input input;
        input.labelA = pathA;
        input.labelB = pathB;
        input.runsA = LoadedRun::loadAll(TraceFolder::scan(pathA));
        input.runsB = LoadedRun::loadAll(TraceFolder::scan(pathB));
        QCOMPARE(input.runsA.size(), 16);
        input.boxplot = ReportCharts::boxplotImage({}, {}, SampleMode::Kernel, true, pathA, pathB);
        std::tie(input.timelineA, input.timelineB) =
            ReportCharts::gpuActivityTimelines(input.runsA.front(), input.runsB.front(), pathA, pathB);
        for (const bool byOp : {false, true}) {
            KernelDiffOptions options;
            options.byOp = byOp;
            const KernelDiff diff(input.runsA, input.runsB, options);
            input.diff = &diff;
            input.diffChart = ReportCharts::diffChartImage(diff);
            QTemporaryDir dir;
            QString error;
            QVERIFY2(ReportExporter::exportTo(dir.path(), input, &error), qPrintable(error));
            const QString html = QString::fromUtf8(readAll(dir.filePath(QStringLiteral("index.html"))));
            QVERIFY(!html.contains(QLatin1String("class='caveat'")));
            QVERIFY(html.contains(QStringLiteral("<p>16 v 16 runs in 4 v 4 processes · ")));
            QVERIFY(html.contains(QLatin1String("<td>proc_3</td>")));
            QVERIFY(html.contains(byOp ? QLatin1String("<h2>What changed: ops</h2>")
                                       : QLatin1String("<h2>What changed: kernels</h2>")));
            QVERIFY(html.contains(QStringLiteral("<tr><th title='%1'>%2</th>")
                                      .arg(htmlText(KernelDiff::columns(options).front().tooltip),
                                           byOp ? QStringLiteral("Op") : QStringLiteral("Kernel"))));
            QVERIFY(html.contains(htmlText(QStringLiteral("Welch's t on the per-process totals"))));
            int dependent = 0;
            for (std::size_t i = 0; i < std::min<std::size_t>(25, diff.rows().size()); ++i)
                dependent += diff.rows()[i].processDependent();
            QCOMPARE(int(html.count(QLatin1String("<tr class='dependent'>"))), dependent);
            QCOMPARE(dependent > 0, !byOp);
        }
    }

    void cliReport()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("cli-report"));
        QStringList arguments = {QStringLiteral("report"), kPairA, kPairB};
        for (const QString &scope : kScopes)
            arguments << QStringLiteral("--scope") << scope;
        arguments << QStringLiteral("--threshold") << QStringLiteral("1") << QStringLiteral("--out")
                  << folder;
        // Headless by design: no display, whatever the environment says.
        const ProcessResult result = runProcess(QStringLiteral(SCOPELINE_CLI), arguments);
        QVERIFY2(result.exitCode == 0, result.err.constData());
        checkReport(folder, nullptr);
        for (const QString &name : kFiles)
            QVERIFY2(result.out.contains(QDir::toNativeSeparators(QDir(folder).filePath(name)).toUtf8()),
                     result.out.constData());
        const QString html = QString::fromUtf8(readAll(folder + QStringLiteral("/index.html")));
        for (const QString &scope : kScopes)
            QVERIFY2(html.contains(QStringLiteral("<td>%1</td>").arg(scope)), qPrintable(scope));
        QVERIFY(html.contains(QLatin1String(">B faster<")) || html.contains(QLatin1String(">B slower<")));
        // the traces lie outside the folder the report was made in: their files in full
        QVERIFY(html.contains(QStringLiteral("<td class='file'>%1/")
                                  .arg(QDir(QStringLiteral(SCOPELINE_TEST_DATA)).absolutePath())));
        // what the verdicts were judged with, as the options gave it
        QVERIFY2(html.contains(QLatin1String("alpha 0.05; threshold 1.0 %")) &&
                     html.contains(QLatin1String("scopes matched by component, samples per kernel")),
                 qPrintable(html.section(QLatin1String("Judged with"), 1).left(300)));

        // The CSV is the one `compare --csv` writes for the same pair and options.
        const QString compareCsv = dir.filePath(QStringLiteral("compare.csv"));
        QStringList compare = {QStringLiteral("compare"), kPairA, kPairB};
        for (const QString &scope : kScopes)
            compare << QStringLiteral("--scope") << scope;
        compare << QStringLiteral("--csv") << compareCsv;
        const ProcessResult compared = runProcess(QStringLiteral(SCOPELINE_CLI), compare);
        QVERIFY2(compared.exitCode == 0, compared.err.constData());
        QCOMPARE(QString::fromUtf8(readAll(folder + QStringLiteral("/stats.csv"))),
                 QString::fromUtf8(readAll(compareCsv)));

        // --alpha judges every section at that level, as compare, diff and steps judge with it
        const QStringList alpha{QStringLiteral("--alpha"), QStringLiteral("0.3")};
        const QString loose = dir.filePath(QStringLiteral("alpha-report"));
        QStringList again = arguments;
        again.replace(again.indexOf(folder), loose);
        const ProcessResult looser = runProcess(QStringLiteral(SCOPELINE_CLI), again + alpha);
        QVERIFY2(looser.exitCode == 0, looser.err.constData());
        QVERIFY(QString::fromUtf8(readAll(loose + QStringLiteral("/index.html")))
                    .contains(QLatin1String("alpha 0.3;")));
        const std::pair<QString, QStringList> commands[] = {
            {QStringLiteral("stats.csv"), compare.mid(0, compare.size() - 2)},
            {QStringLiteral("diff.csv"), {QStringLiteral("diff"), kPairA, kPairB}},
            {QStringLiteral("steps.csv"), {QStringLiteral("steps"), kPairA, kPairB}}};
        int changed = 0;
        for (const auto &[file, command] : commands) {
            const QString csv = dir.filePath(QStringLiteral("alpha-") + file);
            const ProcessResult written = runProcess(
                QStringLiteral(SCOPELINE_CLI), command + alpha + QStringList{QStringLiteral("--csv"), csv});
            QVERIFY2(written.exitCode == 0, written.err.constData());
            const QByteArray got = readAll(loose + QLatin1Char('/') + file);
            QVERIFY2(got == readAll(csv), qPrintable(file));
            changed += got != readAll(folder + QLatin1Char('/') + file);
        }
        QCOMPARE(changed, 3); // the level shows in every table: its intervals
    }

    // A run's file is named as from the folder the report was made in, not by this machine's full path
    // (a report is shared); a file outside that folder in full.
    void cliReportNamesFilesFromItsFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("report"));
        const QString data = QStringLiteral(SCOPELINE_TEST_DATA);
        const QByteArray here = QFile::encodeName(data);
        const ProcessResult result = runProcess(
            QStringLiteral(SCOPELINE_CLI),
            {QStringLiteral("report"), QStringLiteral("h100_runs/torch_compile/eager"),
             QStringLiteral("h100_runs/torch_compile/reduce_overhead"), QStringLiteral("--out"), folder},
            [&here] {
                if (chdir(here.constData()) != 0)
                    _exit(127);
            });
        QVERIFY2(result.exitCode == 0, result.err.constData());
        const QString html = QString::fromUtf8(readAll(folder + QStringLiteral("/index.html")));
        QVERIFY2(html.contains(QLatin1String("<td class='file'>h100_runs/torch_compile/eager/run_0/")),
                 qPrintable(html));
        QVERIFY2(!html.contains(QDir(data).absolutePath()), qPrintable(html));
    }

    // More than two variants: the pair's sections (A and the first candidate) are judged with every
    // candidate, as the variants' CSV judges them, and every candidate is named with its runs.
    void cliReportOfVariants()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("variants"));
        const QString root = testdata::path("jax_h100");
        const ProcessResult result =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("report"),
                        QStringLiteral("buffers=%1/jax_command_buffers/trace_file_matmul_*").arg(root),
                        QStringLiteral("scopes=%1/jax_named_scopes/trace_file_matmul_*").arg(root),
                        QStringLiteral("cublas=%1/jax_named_scopes_cublas/trace_file_matmul_*").arg(root),
                        QStringLiteral("--scope"), QStringLiteral("mlp"), QStringLiteral("--out"), folder});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        // every candidate's scope rows, as `compare` of the same variants writes them, not the first's alone
        const QString compareCsv = dir.filePath(QStringLiteral("compare.csv"));
        const ProcessResult compared = runProcess(
            QStringLiteral(SCOPELINE_CLI),
            {QStringLiteral("compare"),
             QStringLiteral("buffers=%1/jax_command_buffers/trace_file_matmul_*").arg(root),
             QStringLiteral("scopes=%1/jax_named_scopes/trace_file_matmul_*").arg(root),
             QStringLiteral("cublas=%1/jax_named_scopes_cublas/trace_file_matmul_*").arg(root),
             QStringLiteral("--scope"), QStringLiteral("mlp"), QStringLiteral("--csv"), compareCsv});
        QVERIFY2(compared.exitCode == 0 || compared.exitCode == 3, compared.err.constData());
        const QString scopesCsv = QString::fromUtf8(readAll(folder + QStringLiteral("/variants_scopes.csv")));
        QCOMPARE(scopesCsv, QString::fromUtf8(readAll(compareCsv)));
        QVERIFY2(scopesCsv.contains(QLatin1String("\ncublas,")), qPrintable(scopesCsv));
        const QStringList pair =
            QString::fromUtf8(readAll(folder + QStringLiteral("/diff.csv"))).split(u'\n');
        const QString variants = QString::fromUtf8(readAll(folder + QStringLiteral("/variants_diff.csv")));
        QVERIFY(pair.size() > 10);
        for (qsizetype line = 1; line < pair.size(); ++line)
            if (!pair[line].isEmpty())
                QVERIFY2(variants.contains(QStringLiteral("\nscopes,") + pair[line] + u'\n'),
                         qPrintable(pair[line]));
        const QString html = QString::fromUtf8(readAll(folder + QStringLiteral("/index.html")));
        QVERIFY2(html.contains(QLatin1String("<title>Scopeline report: buffers vs scopes, cublas</title>")),
                 qPrintable(html.left(400)));
        QVERIFY(html.contains(QLatin1String("jax_named_scopes_cublas/trace_file_matmul_2/")));
        QVERIFY(html.contains(QLatin1String("judged with all 2 candidates")));
        QVERIFY(html.contains(QLatin1String("<a href='variants_diff.csv'>variants_diff.csv</a>")));
        QVERIFY(html.contains(QLatin1String("<h3>Scopes: cublas</h3>")));
        QVERIFY(!html.contains(QLatin1String("Sweep over"))); // named variants are no sweep
        // the kernel × variant matrix under a heading of its own, not under the last candidate's steps
        const qsizetype matrix = html.indexOf(QLatin1String("<h3>Kernels across the variants</h3>"));
        QVERIFY(html.indexOf(QLatin1String("<h3>cublas</h3>")) > 0);
        QVERIFY(matrix > html.indexOf(QLatin1String("<h3>cublas</h3>")));
        QVERIFY(html.indexOf(QLatin1String("<th title='The kernel (or op), on any side'>"), matrix) > matrix);
        // the variants' bars: a GPU busy bar in each third of the picture, one per variant
        QVERIFY(html.contains(QLatin1String("<img src='variants.png'")));
        const QImage chart(folder + QStringLiteral("/variants.png"));
        QCOMPARE(chart.size(), ReportCharts::chartSize());
        const QRgb busy = VariantBars::partColour(StepPart::Busy).rgb();
        for (int third = 0; third < 3; ++third) {
            int busyPixels = 0;
            for (int y = 0; y < chart.height(); y += 2)
                for (int x = third * chart.width() / 3; x < (third + 1) * chart.width() / 3; x += 2)
                    busyPixels += chart.pixel(x, y) == busy;
            QVERIFY2(busyPixels > 100, qPrintable(QString::number(third)));
        }
        // a pair's report into the same folder: the variants' files go with the report they were of
        const ProcessResult pairReport =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("report"), kPairA, kPairB, QStringLiteral("--out"), folder});
        QVERIFY2(pairReport.exitCode == 0, pairReport.err.constData());
        const QStringList files = filesIn(folder);
        QVERIFY2(!files.contains(QStringLiteral("variants_diff.csv")) &&
                     !files.contains(QStringLiteral("variants.png")) &&
                     !files.contains(QStringLiteral("variants_scopes.csv")) &&
                     !files.contains(QStringLiteral("variants_steps.csv")) &&
                     files.contains(QStringLiteral("diff.csv")),
                 qPrintable(files.join(u' ')));
        QVERIFY(!QString::fromUtf8(readAll(folder + QStringLiteral("/index.html")))
                     .contains(QLatin1String("variants_")));
    }

    // A sweep's report carries its result beside its chart: the neighbours compared and the jump, as
    // `steps` prints them (the report had drawn the sweep and left out what it found).
    void cliReportOfASweep()
    {
        const QString torch = testdata::path("h100_runs/torch_processes");
        REQUIRE_TEST_DATA(torch);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QStringList sides = {QStringLiteral("bs=128=") + torch + QStringLiteral("/proc_0"),
                                   QStringLiteral("bs=8=") + torch + QStringLiteral("/proc_1"),
                                   QStringLiteral("bs=16=") + torch + QStringLiteral("/proc_2")};
        const QString folder = dir.filePath(QStringLiteral("sweep"));
        const ProcessResult report =
            runProcess(QStringLiteral(SCOPELINE_CLI), QStringList{QStringLiteral("report")} + sides +
                                                          QStringList{QStringLiteral("--out"), folder});
        QVERIFY2(report.exitCode == 0, report.err.constData());
        const ProcessResult steps =
            runProcess(QStringLiteral(SCOPELINE_CLI), QStringList{QStringLiteral("steps")} + sides);
        QVERIFY2(steps.exitCode == 0, steps.err.constData());
        const QString html = QString::fromUtf8(readAll(folder + QStringLiteral("/index.html")));
        QVERIFY2(html.contains(QLatin1String("Sweep over bs: neighbours compared")),
                 qPrintable(html.left(400)));
        int lines = 0;
        for (const QString &line : QString::fromUtf8(steps.out).split(u'\n'))
            if (line.startsWith(QLatin1String("bs ")) || line.startsWith(QLatin1String("jump: "))) {
                QVERIFY2(
                    html.contains(QStringLiteral("<li>") + line.toHtmlEscaped() + QStringLiteral("</li>")),
                    qPrintable(line));
                ++lines;
            }
        QCOMPARE(lines, 3); // two neighbours and the jump
    }

    // A report from run summaries has no timelines to draw: the page says why, no placeholder picture
    // is written, and the trace report's pictures in the same folder go. Its figures are the traces'.
    void cliReportFromSummariesHasNoTimelinePictures()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("report"));
        const ProcessResult fromTraces =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("report"), kPairA, kPairB, QStringLiteral("--out"), folder});
        QVERIFY2(fromTraces.exitCode == 0, fromTraces.err.constData());
        QVERIFY(filesIn(folder).contains(QStringLiteral("timeline_a.png")));
        const QByteArray diffFromTraces = readAll(folder + QStringLiteral("/diff.csv"));
        QStringList summaries;
        for (const QString &side : {kPairA, kPairB}) {
            summaries << dir.filePath(side == kPairA ? QStringLiteral("A") : QStringLiteral("B"));
            const ProcessResult summarized =
                runProcess(QStringLiteral(SCOPELINE_CLI),
                           {QStringLiteral("summarize"), side, QStringLiteral("-o"), summaries.back()});
            QVERIFY2(summarized.exitCode == 0, summarized.err.constData());
        }
        const ProcessResult fromSummaries =
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("report"), summaries[0], summaries[1],
                                                       QStringLiteral("--out"), folder});
        QVERIFY2(fromSummaries.exitCode == 0, fromSummaries.err.constData());
        const QStringList files = filesIn(folder);
        QVERIFY2(!files.contains(QStringLiteral("timeline_a.png")) &&
                     !files.contains(QStringLiteral("timeline_b.png")) &&
                     files.contains(QStringLiteral("diff.png")),
                 qPrintable(files.join(u' ')));
        QVERIFY(!fromSummaries.out.contains("timeline_"));
        const QString html = QString::fromUtf8(readAll(folder + QStringLiteral("/index.html")));
        QVERIFY(!html.contains(QLatin1String("src='timeline_")));
        QCOMPARE(
            int(html.count(QLatin1String(".slsum is a run summary: it holds the figures, not the events"))),
            2);
        QCOMPARE(readAll(folder + QStringLiteral("/diff.csv")), diffFromTraces);
    }

    void cliReportWithoutScopes()
    {
        // No --scope: What changed and the step breakdown, no empty boxplot, no header-only CSV;
        // the folder (two levels of it) is created.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString folder = dir.filePath(QStringLiteral("new/no-scopes"));
        const ProcessResult result =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("report"), kPairA, kPairB, QStringLiteral("--out"), folder});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        const QStringList files = filesIn(folder);
        for (const char *name : {"index.html", "diff.png", "diff.csv", "steps.png", "steps.csv",
                                 "timeline_a.png", "timeline_b.png"})
            QVERIFY2(files.contains(QLatin1String(name)), name);
        QVERIFY(!files.contains(QStringLiteral("boxplot.png")));
        QVERIFY(!files.contains(QStringLiteral("stats.csv")));
        QVERIFY2(!result.out.contains("boxplot.png"), result.out.constData());
        const QString html = QString::fromUtf8(readAll(folder + QStringLiteral("/index.html")));
        QVERIFY(html.contains(QLatin1String("src='diff.png'")));
        QVERIFY(html.contains(QLatin1String("src='steps.png'")));
        QVERIFY(!html.contains(QLatin1String("src='boxplot.png'")));
        QVERIFY(!files.contains(QStringLiteral("ranks.png"))); // one GPU a run
        QVERIFY(html.contains(QLatin1String("No scopes were selected")));
        // compare still needs a scope
        QCOMPARE(
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("compare"), kPairA, kPairB}).exitCode,
            1);
    }

    // What the CLI warned of while loading and comparing reaches the page: 3 runs against 2 (which
    // pair), and a rank alone of its job, said once though the file is both sides.
    // --by and --fold-numbers group the report's kernel rows as they group diff's: its diff.csv is the
    // one `diff --csv` writes with the same option, and not the ungrouped one.
    void cliReportGroupsKernelRowsAsDiff()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString cli = QStringLiteral(SCOPELINE_CLI);
        const auto diffCsv = [&](const QString &folder) {
            return QString::fromUtf8(readAll(folder + QStringLiteral("/diff.csv")));
        };
        const QString plain = dir.filePath(QStringLiteral("plain"));
        ProcessResult result =
            runProcess(cli, {QStringLiteral("report"), kPairA, kPairB, QStringLiteral("--out"), plain});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        const QStringList groupings[] = {{QStringLiteral("--fold-numbers")},
                                         {QStringLiteral("--by"), QStringLiteral("op")}};
        for (const QStringList &grouping : groupings) {
            const QString folder = dir.filePath(grouping.join(QString()));
            result = runProcess(cli, QStringList{QStringLiteral("report"), kPairA, kPairB} + grouping +
                                         QStringList{QStringLiteral("--out"), folder});
            QVERIFY2(result.exitCode == 0, result.err.constData());
            const QString csv = dir.filePath(grouping.join(QString()) + QStringLiteral(".csv"));
            result = runProcess(cli, QStringList{QStringLiteral("diff"), kPairA, kPairB} + grouping +
                                         QStringList{QStringLiteral("--csv"), csv});
            QVERIFY2(result.exitCode == 0, result.err.constData());
            QCOMPARE(diffCsv(folder), QString::fromUtf8(readAll(csv)));
            QVERIFY2(diffCsv(folder) != diffCsv(plain), qPrintable(grouping.join(u' ')));
        }
        QVERIFY(QString::fromUtf8(readAll(dir.filePath(QStringLiteral("--byop/index.html"))))
                    .contains(QLatin1String("<h2>What changed: ops</h2>")));
        const QString bad = dir.filePath(QStringLiteral("bad"));
        result = runProcess(cli, {QStringLiteral("report"), kPairA, kPairB, QStringLiteral("--by"),
                                  QStringLiteral("name"), QStringLiteral("--out"), bad});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("--by must be kernel or op"), result.err.constData());
        QVERIFY(!QFileInfo::exists(bad));
    }

    void cliReportCarriesItsWarnings()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("unequal"));
        const ProcessResult unequal =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("report"), kPairA, kCublas + QStringLiteral("/trace_file_einsum_[12]"),
                        QStringLiteral("--out"), folder});
        QVERIFY2(unequal.exitCode == 0, unequal.err.constData());
        QVERIFY(unequal.err.contains("per-run rows pair the first 2"));
        QVERIFY(readAll(folder + QStringLiteral("/index.html"))
                    .contains("per-run rows pair the first 2 by sorted name"));

        const QString rank =
            testdata::path("public/TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz");
        const QString alone = dir.filePath(QStringLiteral("alone"));
        const ProcessResult result =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("report"), rank, rank, QStringLiteral("--out"), alone});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(result.err.count("alone here"), 1);
        QCOMPARE(readAll(alone + QStringLiteral("/index.html")).count("alone here"), 1);
    }

    // Runs of several GPUs: the ranks' bars, each side's first run on one scale (DLRM's 8 ranks
    // against 2 of them), and the page shows them; a one-GPU report has none (cliReportWithoutScopes).
    void cliReportOfRanks()
    {
        REQUIRE_TEST_DATA(testdata::dlrmRun());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QDir job(testdata::dlrmRun());
        const QStringList ranks = job.entryList({QStringLiteral("*.json.gz")}, QDir::Files, QDir::Name);
        const QString two = dir.filePath(QStringLiteral("two"));
        QVERIFY(QDir().mkpath(two));
        for (const QString &file : ranks.mid(0, 2))
            QVERIFY(testdata::anotherRun(job.filePath(file), QDir(two).filePath(file)));
        const QString folder = dir.filePath(QStringLiteral("report"));
        const ProcessResult result =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("report"), testdata::dlrmRun(), two, QStringLiteral("--out"), folder});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        const QImage chart(folder + QStringLiteral("/ranks.png"));
        QCOMPARE(chart.size(), ReportCharts::chartSize());
        // A's half and B's half each draw bars: compute, exposed communication, idle
        const int half = chart.width() / 2;
        QVERIFY(imagecheck::distinctColours(chart.copy(0, 0, half, chart.height())) > 4);
        QVERIFY(imagecheck::distinctColours(chart.copy(half, 0, half, chart.height())) > 4);
        const QString html = QString::fromUtf8(readAll(folder + QStringLiteral("/index.html")));
        QVERIFY(html.contains(QLatin1String("src='ranks.png'")));
        // all 8 ranks of the job against 2 of them: compared on those 2, said once among the notes, no caveat
        const qsizetype from = html.indexOf(QLatin1String("<h2>Ranks")),
                        to = html.indexOf(QLatin1String("<h2>"), from + 1);
        QVERIFY(from >= 0);
        const QString section = html.mid(from, to < 0 ? -1 : to - from);
        QCOMPARE(section.count(QStringLiteral("of jobs of 8 GPUs: compared on ranks 0–1")), 1);
        QCOMPARE(section.count(QLatin1String("Caveat on A against B below: ")), 0);
        // side by side on one scale and unit: a 0.9 ms step beside an 18 ms one is drawn in ms to 18
        RankRow small, large;
        small.stepNs = small.computeNs = 0.9e6;
        large.stepNs = large.computeNs = 18e6;
        RankBars wide, narrow;
        wide.setRows({large});
        narrow.setScale(large.stepNs);
        narrow.setRows({small});
        QCOMPARE(narrow.plot()->xAxis->range().upper, wide.plot()->xAxis->range().upper);
        QCOMPARE(narrow.plot()->xAxis->label(), wide.plot()->xAxis->label());
    }

    void cliReportErrors()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString cli = QStringLiteral(SCOPELINE_CLI);
        const QString scope = QStringLiteral("--scope=mlp");
        // Usage: no --out, one side only, bad mode (no scope is fine: cliReportWithoutScopes).
        QCOMPARE(runProcess(cli, {QStringLiteral("report"), kPairA, kPairB, scope}).exitCode, 1);
        QCOMPARE(
            runProcess(cli, {QStringLiteral("report"), kPairA, scope, QStringLiteral("--out"), dir.path()})
                .exitCode,
            1);
        QCOMPARE(runProcess(cli, {QStringLiteral("report"), kPairA, kPairB, scope,
                                  QStringLiteral("--match=fuzzy"), QStringLiteral("--out"), dir.path()})
                     .exitCode,
                 1);
        QCOMPARE(filesIn(dir.path()), QStringList());
        // Unreadable input names the path.
        const QString missing = dir.filePath(QStringLiteral("no-such-trace"));
        ProcessResult result =
            runProcess(cli, {QStringLiteral("report"), missing, kPairB, scope, QStringLiteral("--out"),
                             dir.filePath(QStringLiteral("out"))});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(missing.toUtf8()), result.err.constData());
        // An unwritable report folder names it.
        QFile blocker(dir.filePath(QStringLiteral("blocker")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const QString under = dir.filePath(QStringLiteral("blocker/report"));
        result = runProcess(
            cli, {QStringLiteral("report"), kPairA, kPairB, scope, QStringLiteral("--out"), under});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(under.toUtf8()), result.err.constData());
        // scopeline-cli hands report to scopeline-report; without it, it names the file it could not run.
        const QString lone = dir.filePath(QStringLiteral("scopeline-cli"));
        QVERIFY(QFile::copy(cli, lone));
        result = runProcess(lone, {QStringLiteral("report"), kPairA, kPairB, scope, QStringLiteral("--out"),
                                   dir.filePath(QStringLiteral("out"))});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("cannot run") && result.err.contains("scopeline-report"),
                 result.err.constData());
        // The usage text lists the command.
        result = runProcess(cli, {QStringLiteral("--help")});
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.out.contains("report A B"));
    }
};

QTEST_MAIN(TstReportExporter)
#include "tst_reportexporter.moc"
