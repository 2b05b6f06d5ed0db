// SPDX-License-Identifier: GPL-3.0-or-later
// The "What changed" view on the bundled matmul/einsum pair (3 v 3 real JAX runs): its table is the
// kernel diff (same CSV as the model, checked against Python in tst_kerneldiff), selecting a kernel
// fills the boxplot with its per-run durations and highlights it in the timelines, the waterfall
// selects on click, folding and the threshold recompute; the main window opens on it and exports it.

#include "testdata.h"

#include "mainwindow.h"
#include "model/tracefolder.h"
#include "widgets/boxplotview.h"
#include "widgets/comparisonpanel.h"
#include "widgets/contributionchart.h"
#include "widgets/kerneldiffmodel.h"
#include "widgets/kerneldiffview.h"
#include "widgets/pairtimeline.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

#include <cmath>
#include <set>

using namespace scopeline;

namespace {

const QString kSamples = QStringLiteral(SCOPELINE_SAMPLES);
const QString kMatmul = kSamples + QStringLiteral("/jax_matmul_vs_einsum/matmul");
const QString kEinsum = kSamples + QStringLiteral("/jax_matmul_vs_einsum/einsum");

QList<LoadedRun> load(const QString &path)
{
    QString error;
    return LoadedRun::loadAll(TraceFolder::scan(path, &error));
}

// Kernels with this name in a run, counted from the trace's own columns.
int kernelsNamed(const LoadedRun &run, const QString &name)
{
    const TraceData &t = *run.trace;
    int n = 0;
    for (uint32_t e = 0; e < t.eventCount(); ++e)
        n += t.kind[e] == EventKind::Kernel && t.qname(e) == name;
    return n;
}

} // namespace

class TstKernelDiffView : public QObject
{
    Q_OBJECT

    QList<LoadedRun> m_a, m_b;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        REQUIRE_TEST_DATA(kMatmul, kEinsum);
        m_a = load(kMatmul);
        m_b = load(kEinsum);
        QCOMPARE(m_a.size(), 3);
        QCOMPARE(m_b.size(), 3);
    }

    void tableIsTheDiff()
    {
        KernelDiffView view;
        QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(view.model()->rowCount(), 0);
        view.setSides(m_a, m_b, QStringLiteral("matmul"), QStringLiteral("einsum"));
        const KernelDiff reference(m_a, m_b);
        QVERIFY(view.diff());
        QCOMPARE(view.model()->rowCount(), int(reference.rows().size()));
        QCOMPARE(view.csv(), reference.toCsv());
        for (int r = 0; r < view.model()->rowCount(); ++r) {
            const KernelDiffRow &row = reference.rows()[std::size_t(r)];
            QCOMPARE(view.model()->index(r, KernelDiffModel::KernelColumn).data().toString(), row.kernel);
            QCOMPARE(view.model()
                         ->index(r, KernelDiffModel::DeltaColumn)
                         .data(KernelDiffModel::RawValueRole)
                         .toDouble(),
                     row.deltaTotalNs);
            QCOMPARE(view.model()->index(r, KernelDiffModel::VerdictColumn).data().toString(),
                     row.verdictText());
        }
        QVERIFY(view.headerText().startsWith(QLatin1String("3 v 3 runs")));
        QVERIFY(view.headerText().contains(QLatin1String("step time (PjitFunction(<lambda>)")));
        QVERIFY(!view.headerText().contains(QLatin1String("One run on a side")));
        // sorting by a number column uses the raw values
        view.tableView()->sortByColumn(KernelDiffModel::DeltaColumn, Qt::AscendingOrder);
        const QAbstractItemModel *shown = view.tableView()->model();
        for (int r = 1; r < shown->rowCount(); ++r)
            QVERIFY(
                shown->index(r - 1, KernelDiffModel::DeltaColumn)
                    .data(KernelDiffModel::RawValueRole)
                    .toDouble() <=
                shown->index(r, KernelDiffModel::DeltaColumn).data(KernelDiffModel::RawValueRole).toDouble());
    }

    void selectingAKernelShowsItsDurations()
    {
        KernelDiffView view;
        view.resize(1400, 600);
        view.show();
        view.setSides(m_a, m_b, QStringLiteral("matmul"), QStringLiteral("einsum"));
        QSignalSpy selected(&view, &KernelDiffView::kernelSelected);
        view.selectRow(0);
        QCOMPARE(view.currentRow(), 0);
        const KernelDiffRow &row = view.diff()->rows()[0];
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.at(0).at(0).toStringList(), row.names);
        // all runs pooled, then the three run pairs; each run's median as a dot on the pooled group
        const std::vector<BoxPlotView::Group> &groups = view.boxPlot()->groups();
        QCOMPARE(groups.size(), std::size_t(4));
        QCOMPARE(groups[0].a.n, std::size_t(row.a.calls));
        QCOMPARE(groups[0].b.n, std::size_t(row.b.calls));
        QCOMPARE(groups[0].runMediansA.size(), std::size_t(3));
        for (std::size_t run = 0; run < 3; ++run) {
            QCOMPARE(groups[run + 1].a.n, std::size_t(row.a.runCalls[run]));
            QCOMPARE(groups[run + 1].b.n, std::size_t(row.b.runCalls[run]));
            QCOMPARE(groups[run + 1].a.median, row.a.runMedianNs[run]);
            QCOMPARE(int(row.a.runCalls[run]), kernelsNamed(m_a[int(run)], row.names.first()));
        }
        QVERIFY(view.kernelStats()->text().contains(row.verdictText().toHtmlEscaped()));
        // clearing the selection clears the highlight request
        view.selectRow(-1);
        QCOMPARE(view.currentRow(), -1);
        QCOMPARE(selected.last().at(0).toStringList(), QStringList());
        QVERIFY(view.boxPlot()->groups().empty());
    }

    void chartSelectsOnClick()
    {
        KernelDiffView view;
        view.resize(1400, 700);
        view.show();
        view.setSides(m_a, m_b, QString(), QString());
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        ContributionChart *chart = view.chart();
        QVERIFY(!chart->shownRows().empty());
        QCOMPARE(chart->shownRows().front(), 0);
        QCustomPlot *plot = chart->plot();
        plot->replot();
        // bar 0 is A's total; bar 2 is the second kernel row
        const QPoint at(plot->axisRect()->rect().center().x(), int(plot->yAxis->coordToPixel(2)));
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
        QCOMPARE(view.currentRow(), 1);
    }

    void foldingAndThresholdRecompute()
    {
        KernelDiffView view;
        view.setSides(m_a, m_b, QString(), QString());
        const int exact = view.model()->rowCount();
        view.setFoldNumbers(true);
        QVERIFY(view.foldNumbers());
        QVERIFY2(view.model()->rowCount() < exact, "the pair has numbered fusions that fold");
        for (const KernelDiffRow &row : view.diff()->rows()) {
            std::set<std::string> bases;
            for (const QString &name : row.names)
                bases.insert(KernelDiff::foldBase(name.toStdString()));
            QCOMPARE(bases.size(), std::size_t(1));
        }
        view.setFoldNumbers(false);
        QCOMPARE(view.model()->rowCount(), exact);
        // a verdict that is a finding at 1 % is no meaningful change at a 50 % threshold
        int findings = 0;
        for (const KernelDiffRow &row : view.diff()->rows())
            findings += row.verdict == Verdict::Faster || row.verdict == Verdict::Slower;
        QVERIFY(findings > 0);
        view.setThreshold(0.5);
        for (const KernelDiffRow &row : view.diff()->rows())
            QVERIFY(row.verdict != Verdict::Faster && row.verdict != Verdict::Slower);
    }

    void timelineHighlightsTheKernel()
    {
        TimelineView timeline;
        timeline.resize(1400, 500);
        timeline.show();
        timeline.setRun(m_a[0]);
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        const KernelDiff diff(m_a, m_b);
        const QString name = diff.rows()[0].names.first();
        const int calls = kernelsNamed(m_a[0], name);
        QVERIFY(calls > 0);
        // zoomed in on the kernels, each highlighted kernel gets its own rectangle
        timeline.setHighlightedKernels({name});
        QVERIFY(timeline.hasHighlight());
        const TraceData &t = *m_a[0].trace;
        int64_t first = INT64_MAX, last = INT64_MIN;
        for (uint32_t e = 0; e < t.eventCount(); ++e)
            if (t.kind[e] == EventKind::Kernel && t.qname(e) == name) {
                first = std::min(first, t.start[e]);
                last = std::max(last, t.end(e));
            }
        timeline.setVisibleRange(first, first + (last - first) / 20);
        timeline.grab();
        const int inWindow = timeline.highlightCount();
        QVERIFY(inWindow > 0);
        int expected = 0;
        for (uint32_t e = 0; e < t.eventCount(); ++e)
            expected += t.kind[e] == EventKind::Kernel && t.qname(e) == name && t.end(e) >= first &&
                        t.start[e] <= first + (last - first) / 20;
        QCOMPARE(inWindow, expected);
        // a name this run lacks fades everything and highlights nothing
        timeline.setHighlightedKernels({QStringLiteral("no such kernel")});
        timeline.grab();
        QVERIFY(timeline.hasHighlight());
        QCOMPARE(timeline.highlightCount(), 0);
        timeline.setHighlightedKernels({});
        QVERIFY(!timeline.hasHighlight());
    }

    void mainWindowOpensOnWhatChangedAndExportsIt()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        window.openPair(kMatmul, kEinsum);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget *>(window.diffView()));
        window.diffView()->selectRow(0);
        QVERIFY(window.timeline()->viewA()->hasHighlight());
        QVERIFY(window.timeline()->viewB()->hasHighlight());
        // another run keeps the highlight
        window.diffView()->selectRow(1);
        QTemporaryDir dir;
        QVERIFY(window.exportReport(dir.path()));
        QFile csv(dir.filePath(QStringLiteral("diff.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(csv.readAll()), window.diffView()->csv());
        QVERIFY(QImage(dir.filePath(QStringLiteral("diff.png"))).width() > 0);
        QFile html(dir.filePath(QStringLiteral("index.html")));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QString page = QString::fromUtf8(html.readAll());
        QVERIFY(page.contains(QLatin1String("What changed")));
        QVERIFY(page.contains(QLatin1String("diff.png")));
        QVERIFY(page.contains(window.diffView()->diff()->rows()[0].kernel.toHtmlEscaped()));
        // a pair opened for its scopes shows them
        SessionState state;
        state.scopes = {QStringLiteral("attn_q_k")};
        window.openPair(kMatmul, kEinsum, state);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget *>(window.panel()));
    }
};

QTEST_MAIN(TstKernelDiffView)
#include "tst_kerneldiffview.moc"
