// SPDX-License-Identifier: GPL-3.0-or-later
// The "What changed" view on the bundled matmul/einsum pair (3 v 3 real JAX runs): its table is the
// kernel diff (same CSV as the model, checked against Python in tst_kerneldiff), selecting a kernel
// fills the boxplot with its per-run durations and highlights it in the timelines, the waterfall
// selects on click, folding and the threshold recompute; the main window opens on it and exports it.
// The verdict judges GPU time per run and a Per call column sits beside it, both as the model computed
// them; the one-process caveat shows as a banner exactly where the model has one (the JAX sample: one
// process a side), not for A and B interleaved in one process (H100 torch_compile) nor for 4 processes
// a side (H100 jax_processes), where "By op" gives one row per HLO op and no process-dependent row.

#include "namecheck.h"
#include "testdata.h"

#include "model/tables/durationformat.h"
#include "model/tables/tableformat.h"

#include "app/gui/mainwindow.h"
#include "model/loading/tracefolder.h"
#include "model/tables/kernelnames.h"
#include "widgets/charts/boxplotview.h"
#include "widgets/charts/contributionchart.h"
#include "widgets/panels/comparisonpanel.h"
#include "widgets/panels/kerneldiffview.h"
#include "widgets/tables/elidedelegate.h"
#include "widgets/tables/kerneldiffmodel.h"
#include "widgets/timeline/pairtimeline.h"

#include "widgets/panels/caveatbanner.h"
#include "widgets/tables/comparisontablemodel.h"
#include "widgets/charts/plottheme.h"
#include "widgets/charts/waterfallplot.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QFont>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

#include <qcustomplot.h>

#include <cmath>
#include <set>

using namespace scopeline;

namespace {

const QString kSamples = QStringLiteral(SCOPELINE_SAMPLES);
const QString kMatmul = kSamples + QStringLiteral("/jax_matmul_vs_einsum/matmul");
const QString kEinsum = kSamples + QStringLiteral("/jax_matmul_vs_einsum/einsum");
// H100 recordings: PyTorch eager vs reduce-overhead interleaved in one process (pid 505), and JAX
// matmul vs einsum in 4 processes × 4 runs a side.
const QString kEager = testdata::path("h100_runs/torch_compile/eager");
const QString kReduceOverhead = testdata::path("h100_runs/torch_compile/reduce_overhead");
const QString kProcMatmul = testdata::path("h100_runs/jax_processes/matmul");
const QString kProcEinsum = testdata::path("h100_runs/jax_processes/einsum");

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

// The Per call cell as the model's figures give it, written out independently of the view's code.
QString expectedPerCall(const KernelDiffRow &row)
{
    if (!row.perCall.valid())
        return QStringLiteral("–");
    return QString::asprintf("%+.2f %% [%+.2f, %+.2f], ", 100 * row.perCall.change, 100 * row.perCall.ciLow,
                             100 * row.perCall.ciHigh) +
           row.perCallVerdictText();
}

QString plainText(const QString &richText)
{
    QTextDocument document;
    document.setHtml(richText);
    return document.toPlainText();
}

} // namespace

class TstKernelDiffView : public QObject
{
    Q_OBJECT

    QList<LoadedRun> m_a, m_b;
    QList<LoadedRun> m_eager, m_reduceOverhead; // one process, A and B interleaved in it
    QList<LoadedRun> m_procA, m_procB;          // 4 processes a side

private slots:
    // A kernel whose name is 5 MB long (issue 31: opening such a trace took 15 s, Qt laying out the whole
    // name in the table): the table, its tooltip and the waterfall hand Qt a bounded text.
    void hugeKernelNameStaysBounded()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("huge.pt.trace.json"));
        const QByteArray name = "k" + QByteArray(5 << 20, 'x');
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(
            R"({"schemaVersion":1,"traceEvents":[)"
            R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":0,"dur":1,"args":{"correlation":1}},)"
            R"({"ph":"X","cat":"kernel","name":")" +
            name + R"(","pid":0,"tid":7,"ts":2,"dur":3,"args":{"correlation":1}}]})");
        out.close();
        const QList<LoadedRun> runs = load(file);
        QCOMPARE(runs.size(), 1);
        QVERIFY2(runs[0].ok(), qPrintable(runs[0].error));
        KernelDiffView view;
        view.resize(1200, 700);
        view.setSides(runs, runs, QStringLiteral("a"), QStringLiteral("b"));
        QCOMPARE(view.model()->rowCount(), 1);
        QCOMPARE(view.diff()->rows()[0].kernel.size(), name.size());
        const QModelIndex cell = view.model()->index(0, KernelDiffModel::column("kernel"));
        for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)}) {
            const QString text = cell.data(role).toString();
            QVERIFY2(text.size() <= 2 * 4096 + 1 && text.startsWith(QLatin1String("kxxx")),
                     qPrintable(QString::number(text.size())));
        }
        view.grab(); // paints the table and the waterfall with the bounded texts
    }

    // Elementwise kernels of PyTorch share long heads and tails: in the table and the waterfall no two
    // names read alike, each a shortening of its kernel's name, the full name one hover away. Narrow
    // widths included, where the cut keeps the part that differs.
    void namesTellKernelsApart()
    {
        KernelDiffView view;
        view.resize(1366, 700);
        view.setSides(m_eager, m_reduceOverhead, QStringLiteral("eager"), QStringLiteral("reduce_overhead"));
        const int kernel = KernelDiffModel::column("kernel");
        QSet<QString> seen;
        for (int r = 0; r < view.model()->rowCount(); ++r) {
            const QString shown = view.model()->index(r, kernel).data().toString();
            const QString full = view.diff()->rows()[std::size_t(r)].kernel;
            QVERIFY2(namecheck::shortens(shown, full), qPrintable(shown + QLatin1String(" / ") + full));
            QVERIFY2(!seen.contains(shown), qPrintable(shown));
            seen.insert(shown);
            QVERIFY(view.model()->index(r, kernel).data(Qt::ToolTipRole).toString().contains(full.left(200)));
        }
        QVERIFY2(seen.size() > 10, qPrintable(QString::number(seen.size())));
        QSet<QString> labels;
        for (const WaterfallBar &bar : view.chart()->bars()) {
            QVERIFY2(!labels.contains(bar.label), qPrintable(bar.label));
            labels.insert(bar.label);
        }
        QVERIFY(labels.size() > 3);
        // The same names cut short: still none alike, still each its kernel's.
        QStringList kernels;
        for (const KernelDiffRow &row : view.diff()->rows())
            kernels << row.kernel;
        for (int width : {24, 32, 40}) {
            const QStringList names = distinctKernelNames(kernels, width);
            QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), names.size());
            for (qsizetype i = 0; i < names.size(); ++i)
                QVERIFY2(namecheck::shortens(names[i], kernels[i]) && names[i].size() <= width + 4,
                         qPrintable(names[i] + QLatin1String(" / ") + kernels[i]));
        }
    }

    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        REQUIRE_TEST_DATA(kMatmul, kEinsum, kEager, kReduceOverhead, kProcMatmul, kProcEinsum);
        m_a = load(kMatmul);
        m_b = load(kEinsum);
        QCOMPARE(m_a.size(), 3);
        QCOMPARE(m_b.size(), 3);
        m_eager = load(kEager);
        m_reduceOverhead = load(kReduceOverhead);
        m_procA = load(kProcMatmul);
        m_procB = load(kProcEinsum);
        QCOMPARE(m_procA.size(), 16);
        QCOMPARE(m_procB.size(), 16);
    }

    // The banner says what the model's summary says: the caveat exactly when it has one.
    void caveatBannerFollowsTheModel_data()
    {
        QTest::addColumn<int>("pair");
        QTest::addColumn<bool>("caveat");
        QTest::addColumn<QString>("runs");
        QTest::newRow("JAX sample: one process a side") << 0 << true << QStringLiteral("3 v 3 runs ·");
        QTest::newRow("torch_compile: A and B in one process")
            << 1 << false << QStringLiteral("5 v 5 runs ·");
        QTest::newRow("jax_processes: 4 processes a side")
            << 2 << false << QStringLiteral("16 v 16 runs in 4 v 4 processes ·");
    }

    void caveatBannerFollowsTheModel()
    {
        QFETCH(int, pair);
        QFETCH(bool, caveat);
        QFETCH(QString, runs);
        const QList<LoadedRun> &a = pair == 0 ? m_a : pair == 1 ? m_eager : m_procA;
        const QList<LoadedRun> &b = pair == 0 ? m_b : pair == 1 ? m_reduceOverhead : m_procB;
        KernelDiffView view;
        QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(!view.caveatBanner()->isShown()); // nothing loaded, nothing to say
        view.setSides(a, b, QString(), QString());
        const KernelDiff reference(a, b);
        QCOMPARE(reference.summary().caveat.isEmpty(), !caveat);
        QCOMPARE(view.caveatBanner()->isShown(), caveat);
        QCOMPARE(view.caveatBanner()->caveat(), reference.summary().caveat);
        QVERIFY2(view.headerText().startsWith(runs), qPrintable(view.headerText()));
        if (caveat) {
            const QString text = view.caveatBanner()->text();
            // the model's caveat, then how to record several processes
            QVERIFY2(text.contains(reference.summary().caveat.mid(1)), qPrintable(text));
            QVERIFY2(text.contains(QLatin1String("side/<process>/<run>/")), qPrintable(text));
            QVERIFY2(text.contains(QLatin1String("scopeline-hipbench run --processes N")), qPrintable(text));
        } else {
            QCOMPARE(view.caveatBanner()->text(), QString());
        }
        // every tested row's verdict tooltip carries the row's caveat, and only then
        int tested = 0;
        for (int r = 0; r < view.model()->rowCount(); ++r) {
            const KernelDiffRow &row = reference.rows()[std::size_t(r)];
            if (!row.runLevel.valid())
                continue;
            ++tested;
            const QString tip =
                view.model()->index(r, KernelDiffModel::column("verdict")).data(Qt::ToolTipRole).toString();
            QCOMPARE(row.caveat.isEmpty(), !caveat);
            QCOMPARE(tip.contains(QLatin1String("Caveat: ")), caveat);
            QVERIFY2(tip.contains(pair == 2 ? QLatin1String("Welch on the per-process totals (")
                                            : QLatin1String("Welch on the per-run totals (")),
                     qPrintable(tip));
        }
        QVERIFY(tested > 0);
    }

    // A trace's own caveat (CUDA graphs recorded whole by nsys) shows in the banner, under its side and
    // file, with no replication caveat to go with it; gone with the next pair, a trace against itself,
    // which the banner says compares nothing.
    void traceCaveatsInTheBanner()
    {
        const QString node = testdata::path("converted/nsys_graphs/node.sqlite"),
                      graph = testdata::path("converted/nsys_graphs/graph.sqlite");
        REQUIRE_TEST_DATA(node, graph);
        const QList<LoadedRun> a{LoadedRun::load(TraceRun{QStringLiteral("node"), node})},
            b{LoadedRun::load(TraceRun{QStringLiteral("graph"), graph})};
        QVERIFY(a.front().ok() && b.front().ok());
        KernelDiffView view;
        view.setSides(a, b, QString(), QString());
        QVERIFY(view.caveatBanner()->isShown());
        QCOMPARE(view.caveatBanner()->text(), pairCaveats(a, b).join(QLatin1Char('\n')));
        QVERIFY2(view.caveatBanner()->text().startsWith(
                     QStringLiteral("B: %1: 12 CUDA graph launches").arg(graph)),
                 qPrintable(view.caveatBanner()->text()));
        // the next pair, a trace against itself: B's caveat gone, the sides said to be the same runs
        view.setSides(a, a, QString(), QString());
        QVERIFY(view.caveatBanner()->isShown());
        QVERIFY2(
            view.caveatBanner()->text() ==
                QStringLiteral("A and B are the same runs (they read the same files): nothing is compared; "
                               "give a second trace or folder as B"),
            qPrintable(view.caveatBanner()->text()));
    }

    // 4 processes a side: kernels that XLA's autotuner picks in some processes only are process-dependent
    // by kernel and set apart; by op they fall into their op's row.
    void processDependentRowsAndByOp()
    {
        KernelDiffView view;
        view.resize(1400, 700);
        QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setSides(m_procA, m_procB, QString(), QString());
        QVERIFY(!view.byOp());
        const KernelDiff byKernel(m_procA, m_procB);
        QCOMPARE(view.model()->rowCount(), int(byKernel.rows().size()));
        int dependent = 0;
        for (int r = 0; r < view.model()->rowCount(); ++r) {
            const KernelDiffRow &row = byKernel.rows()[std::size_t(r)];
            const QModelIndex kernel = view.model()->index(r, KernelDiffModel::column("kernel"));
            QCOMPARE(kernel.data(KernelDiffModel::ProcessDependentRole).toBool(), row.processDependent());
            QCOMPARE(kernel.data(Qt::FontRole).value<QFont>().italic(), row.processDependent());
            if (!row.processDependent())
                continue;
            ++dependent;
            QCOMPARE(view.model()
                         ->index(r, KernelDiffModel::column("delta_total_ns"))
                         .data(Qt::FontRole)
                         .value<QFont>()
                         .italic(),
                     true);
            const QString verdict =
                view.model()->index(r, KernelDiffModel::column("verdict")).data().toString();
            QCOMPARE(verdict, row.verdictText());
            QVERIFY2(
                verdict.contains(QStringLiteral("process-dependent: in %1 of 4 processes of A, %2 of 4 of B")
                                     .arg(row.a.unitsWithKernel)
                                     .arg(row.b.unitsWithKernel)),
                qPrintable(verdict));
            QVERIFY(view.model()
                        ->index(r, KernelDiffModel::column("verdict"))
                        .data(Qt::ToolTipRole)
                        .toString()
                        .contains(QLatin1String("Process-dependent")));
        }
        QVERIFY2(dependent > 0, "the autotuner's GEMM kernels differ between processes");
        QCOMPARE(dependent, byKernel.summary().processDependent);
        // a count across the others, said so: "37 kernels: …, 22 only in B, 2 process-dependent" had
        // read as 39 (the 2 were among the 22)
        QVERIFY2(view.headerText().contains(QStringLiteral("; %1 of the %2 process-dependent")
                                                .arg(dependent)
                                                .arg(byKernel.summary().kernels)),
                 qPrintable(view.headerText()));

        // By op: the model's rows by op, under an "Op" header; none process-dependent
        QSignalSpy reset(view.model(), &QAbstractItemModel::modelReset);
        QSignalSpy settings(&view, &KernelDiffView::settingsChanged);
        view.byOpCheck()->click();
        QVERIFY(view.byOp());
        QCOMPARE(reset.size(), 1);
        QCOMPARE(settings.size(), 1);
        KernelDiffOptions options;
        options.byOp = true;
        const KernelDiff byOp(m_procA, m_procB, options);
        QCOMPARE(view.model()->rowCount(), 62);
        QCOMPARE(int(byOp.rows().size()), 62);
        QCOMPARE(view.csv(), byOp.toCsv());
        QCOMPARE(view.model()->headerData(KernelDiffModel::column("kernel"), Qt::Horizontal).toString(),
                 QStringLiteral("Op"));
        for (int r = 0; r < view.model()->rowCount(); ++r) {
            const KernelDiffRow &row = byOp.rows()[std::size_t(r)];
            QVERIFY(namecheck::shortens(
                view.model()->index(r, KernelDiffModel::column("kernel")).data().toString(), row.kernel));
            QVERIFY2(!row.processDependent(), qPrintable(row.kernel));
            QVERIFY(!view.model()
                         ->index(r, KernelDiffModel::column("kernel"))
                         .data(KernelDiffModel::ProcessDependentRole)
                         .toBool());
            QCOMPARE(view.model()->index(r, KernelDiffModel::column("per_call_change")).data().toString(),
                     expectedPerCall(row));
        }
        QVERIFY(view.headerText().contains(QLatin1String("62 ops")));
        QVERIFY(!view.headerText().contains(QLatin1String("process-dependent")));
        // selecting an op highlights its kernels: the op's exact kernel names
        QSignalSpy selected(&view, &KernelDiffView::kernelSelected);
        int several = -1;
        for (std::size_t r = 0; r < byOp.rows().size() && several < 0; ++r)
            if (byOp.rows()[r].names.size() > 1)
                several = int(r);
        QVERIFY2(several >= 0, "an op runs several kernels (the autotuner's GEMM choices)");
        view.selectRow(several);
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.at(0).at(0).toStringList(), byOp.rows()[std::size_t(several)].names);
        // per process: all runs, then one pair of boxes per process
        const std::vector<BoxPlotView::Group> &groups = view.boxPlot()->groups();
        QCOMPARE(groups.size(), std::size_t(5));
        QCOMPARE(groups[1].label, QStringLiteral("proc_0"));
        QCOMPARE(groups[1].a.n + groups[2].a.n + groups[3].a.n + groups[4].a.n, groups[0].a.n);
        // and back
        view.setByOp(false);
        QCOMPARE(view.model()->rowCount(), int(byKernel.rows().size()));
        QCOMPARE(view.model()->headerData(KernelDiffModel::column("kernel"), Qt::Horizontal).toString(),
                 QStringLiteral("Kernel"));
    }

    // Where every unit of a side gave one value (timer ticks), the tooltip says why the p is what it is.
    // Totals on an axis that does not start at zero are cut, and the plot says so: a break mark on
    // each total and the axis label's start; from zero, neither.
    void waterfallTotalsAreHonest()
    {
        QCustomPlot plot;
        plot.resize(600, 240);
        const PlotTheme theme = PlotTheme::fromPalette(plot.palette());
        const auto countBreaks = [&plot] {
            int n = 0;
            for (int i = 0; i < plot.itemCount(); ++i)
                n += plot.item(i)->objectName() == QLatin1String("axisBreak");
            return n;
        };
        // 4.515 ms vs 4.302 ms: the small change shows, the totals are cut and marked
        std::vector<WaterfallBar> bars(3);
        bars[0] = {QStringLiteral("A"), QStringLiteral("4.515 ms"), 0, 4.515e6, Qt::gray, true};
        bars[1] = {QStringLiteral("k"), QStringLiteral("−213 µs"), 4.515e6, 4.302e6, Qt::green, false};
        bars[2] = {QStringLiteral("B"), QStringLiteral("4.302 ms"), 0, 4.302e6, Qt::gray, true};
        drawWaterfall(&plot, theme, bars, QStringLiteral("kernel time per run (%1)"));
        QVERIFY(plot.xAxis->range().lower > 0);
        QCOMPARE(countBreaks(), 4); // two slanted gaps on each total
        QVERIFY2(plot.xAxis->label().contains(QLatin1String(" from ")), qPrintable(plot.xAxis->label()));
        // 1 ms vs 3 ms: from zero, to scale, nothing to mark
        bars[0].to = bars[1].from = 1e6;
        bars[1].to = bars[2].to = 3e6;
        drawWaterfall(&plot, theme, bars, QStringLiteral("kernel time per run (%1)"));
        QCOMPARE(plot.xAxis->range().lower, 0.0);
        QCOMPARE(countBreaks(), 0);
        QVERIFY(!plot.xAxis->label().contains(QLatin1String(" from ")));
    }

    // A narrow chart whose axis does not start at zero (80.50 ms against 80.50 ms, as the contribution
    // chart beside the table draws it at 1366 px): the tick labels stand apart, not run together.
    void waterfallTickLabelsStandApart()
    {
        QCustomPlot plot;
        const PlotTheme theme = PlotTheme::fromPalette(plot.palette());
        std::vector<WaterfallBar> bars(3);
        bars[0] = {
            QStringLiteral("A: kernel time/run"), QStringLiteral("80.50 ms"), 0, 80.50e6, Qt::gray, true};
        bars[1] = {QStringLiteral("k"), QStringLiteral("0 ns"), 80.50e6, 80.50e6, Qt::green, false};
        bars[2] = {
            QStringLiteral("B: kernel time/run"), QStringLiteral("80.50 ms"), 0, 80.50e6, Qt::gray, true};
        plot.show(); // resized as shown: its axis rect follows
        for (int width : {330, 600}) {
            plot.resize(width, 160);
            QCoreApplication::processEvents();
            drawWaterfall(&plot, theme, bars, QStringLiteral("time/run (%1)"));
            plot.replot();
            const QVector<double> ticks = plot.xAxis->tickVector();
            const QVector<QString> labels = plot.xAxis->tickVectorLabels();
            QVERIFY(!ticks.isEmpty());
            const QFontMetrics metrics(plot.xAxis->tickLabelFont());
            for (qsizetype i = 1; i < ticks.size(); ++i) {
                const double apart =
                    plot.xAxis->coordToPixel(ticks[i]) - plot.xAxis->coordToPixel(ticks[i - 1]);
                const int needed =
                    (metrics.horizontalAdvance(labels[i - 1]) + metrics.horizontalAdvance(labels[i])) / 2 + 4;
                QVERIFY2(apart >= needed, qPrintable(QStringLiteral("%1 px: %2 and %3 %4 px apart")
                                                         .arg(width)
                                                         .arg(labels[i - 1], labels[i])
                                                         .arg(apart)));
            }
        }
    }

    // Emptied (a load that failed) the waterfall shows its hint and nothing else: the value axis'
    // line had stayed, a lone vertical stroke at the left.
    void emptyWaterfallShowsOnlyItsHint()
    {
        QCustomPlot plot;
        plot.resize(400, 200);
        const PlotTheme theme = applyPalette(&plot, plot.palette());
        std::vector<WaterfallBar> bars(1);
        bars[0] = {QStringLiteral("A: step time"), QStringLiteral("8.009 ms"), 0, 8.009e6, Qt::gray, true};
        drawWaterfall(&plot, theme, bars, QStringLiteral("time per step (%1)"));
        drawWaterfallHint(&plot, theme, QStringLiteral("Open a pair of traces"));
        plot.replot();
        const QImage image = plot.toPixmap().toImage();
        QCOMPARE(plot.itemCount(), 1);
        auto *text = qobject_cast<QCPItemText *>(plot.item(0));
        QVERIFY(text);
        const QRect hint = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition())
                               .toAlignedRect()
                               .adjusted(-2, -2, 2, 2);
        int marks = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                marks += !hint.contains(x, y) && image.pixel(x, y) != theme.background.rgb();
        QCOMPARE(marks, 0);
        drawWaterfall(&plot, theme, bars, QStringLiteral("time per step (%1)")); // and back
        QVERIFY(plot.xAxis->visible() && plot.yAxis->visible());
    }

    // The rest's value with its findings ("+465.8 µs · 14 finding(s)") ran past the chart's right edge
    // beside the table at 1366 px: where it would leave its bar under 40 px it is shown short, and every
    // value ends inside the plot; a wide chart shows it whole.
    void waterfallValuesStayInside()
    {
        QCustomPlot plot;
        const PlotTheme theme = PlotTheme::fromPalette(plot.palette());
        // eager against reduce_overhead (tests/data/h100_runs/torch_compile), as the chart draws them
        std::vector<WaterfallBar> bars(4);
        bars[0] = {
            QStringLiteral("A: kernel time/run"), QStringLiteral("3.944 ms"), 0, 3.944e6, Qt::gray, true};
        bars[1] = {QStringLiteral("sm90_xmm…x_cublas"), QStringLiteral("-592.8 µs"), 3.944e6, 3.351e6,
                   Qt::green};
        bars[2] = {QStringLiteral("15 other kernel(s)"), QStringLiteral("+465.8 µs · 14 finding(s)"), 3.351e6,
                   3.817e6, Qt::lightGray};
        bars[2].shortValue = QStringLiteral("+465.8 µs");
        bars[3] = {
            QStringLiteral("B: kernel time/run"), QStringLiteral("3.817 ms"), 0, 3.817e6, Qt::gray, true};
        plot.show();
        for (int width : {330, 700}) {
            plot.resize(width, 160);
            QCoreApplication::processEvents();
            drawWaterfall(&plot, theme, bars, QStringLiteral("time/run (%1)"));
            plot.replot();
            for (int i = 0; i < plot.itemCount(); ++i)
                if (auto *text = qobject_cast<QCPItemText *>(plot.item(i))) {
                    const double end = text->position->pixelPosition().x() + text->padding().left() +
                                       QFontMetrics(text->font()).horizontalAdvance(text->text());
                    QVERIFY2(
                        end <= plot.width(),
                        qPrintable(
                            QStringLiteral("%1 px: '%2' ends at %3").arg(width).arg(text->text()).arg(end)));
                    if (width == 700 && text->text().startsWith(QLatin1Char('+')))
                        QCOMPARE(text->text(), bars[2].value);
                }
        }
    }

    void tiedRowsSayWhy()
    {
        int tied = 0;
        for (int pair = 0; pair < 3; ++pair) {
            const QList<LoadedRun> &a = pair == 0 ? m_a : pair == 1 ? m_eager : m_procA;
            const QList<LoadedRun> &b = pair == 0 ? m_b : pair == 1 ? m_reduceOverhead : m_procB;
            KernelDiffView view;
            view.setSides(a, b, QString(), QString());
            for (int r = 0; r < view.model()->rowCount(); ++r) {
                const KernelDiffRow &row = view.model()->row(r);
                const QString unit = row.byProcess ? QStringLiteral("process") : QStringLiteral("run");
                const QString why =
                    QStringLiteral("Every %1 gave the same value on each side — timer resolution %2")
                        .arg(unit, formatDuration(row.timerStep));
                const QString verdictTip = view.model()
                                               ->index(r, KernelDiffModel::column("verdict"))
                                               .data(Qt::ToolTipRole)
                                               .toString();
                const QString perCallTip = view.model()
                                               ->index(r, KernelDiffModel::column("per_call_change"))
                                               .data(Qt::ToolTipRole)
                                               .toString();
                QCOMPARE(verdictTip.contains(why), row.runLevel.valid() && row.runLevel.tied);
                QCOMPARE(perCallTip.contains(why), row.perCall.valid() && row.perCall.tied);
                if (row.runLevel.valid() && row.runLevel.tied) {
                    ++tied;
                    QVERIFY(verdictTip.contains(QLatin1String("known to one timer step")));
                    QVERIFY(row.runLevel.p > 0);
                    QVERIFY(row.runLevel.ciLow < row.runLevel.ciHigh);
                }
                tied += row.perCall.valid() && row.perCall.tied;
                // never "< …" nor empty for a tested p
                if (row.runLevel.valid()) {
                    const QString p =
                        view.model()->index(r, KernelDiffModel::column("run_level_p")).data().toString();
                    QVERIFY2(p != QStringLiteral("–") && !p.startsWith(QLatin1Char('<')), qPrintable(p));
                }
            }
        }
        QVERIFY2(tied > 0, "the real pairs have kernels whose per-unit values tie on the timer's steps");
    }

    // The waterfall's kernel bars say what the rows' verdicts say (GPU time per run).
    void chartColoursFollowTheVerdict()
    {
        KernelDiffView view;
        view.resize(1400, 900);
        view.show();
        view.setSides(m_procA, m_procB, QString(), QString());
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const std::vector<WaterfallBar> &bars = view.chart()->bars();
        const std::vector<int> &shown = view.chart()->shownRows();
        QVERIFY(!shown.empty());
        QVERIFY(bars.size() >= shown.size() + 2);
        int unchanged = 0;
        for (std::size_t i = 0; i < shown.size(); ++i) {
            const KernelDiffRow &row = view.diff()->rows()[std::size_t(shown[i])];
            QColor expected = dataColour(DataColour::Unchanged);
            if (row.verdict == Verdict::Faster || row.verdict == Verdict::Slower ||
                row.verdict == Verdict::OnlyInA || row.verdict == Verdict::OnlyInB)
                expected = dataColour(row.deltaTotalNs < 0 ? DataColour::Less : DataColour::More);
            QCOMPARE(bars[i + 1].colour, expected);
            unchanged += expected == dataColour(DataColour::Unchanged);
        }
        QVERIFY2(unchanged > 0, "the largest Δ of the process pair is no finding: a grey bar");
        // Each tested bar carries the interval its verdict was decided from (the time per run's change
        // at its Holm level, in ns of A's time per run), and a coloured bar's interval excludes 0.
        int whiskers = 0;
        for (std::size_t i = 0; i < shown.size(); ++i) {
            const KernelDiffRow &row = view.diff()->rows()[std::size_t(shown[i])];
            const WaterfallBar &bar = bars[i + 1];
            if (!std::isfinite(row.runLevel.ciLow)) {
                QVERIFY(std::isnan(bar.ciLow) && std::isnan(bar.ciHigh));
                continue;
            }
            ++whiskers;
            QCOMPARE(bar.ciLow, row.runLevel.ciLow * row.a.totalPerRunNs);
            QCOMPARE(bar.ciHigh, row.runLevel.ciHigh * row.a.totalPerRunNs);
            if (bar.colour != dataColour(DataColour::Unchanged))
                QVERIFY(bar.ciHigh < 0 || bar.ciLow > 0);
        }
        QVERIFY2(whiskers > 0, "the process pair's largest rows are tested");
        // hovering a bar: the kernel's whole name (the axis elides it) and the interval its verdict was
        // decided from, as the table's Time/run change shows it
        for (std::size_t i = 0; i < shown.size(); ++i) {
            const KernelDiffRow &row = view.diff()->rows()[std::size_t(shown[i])];
            const QString tip = view.chart()->barToolTip(int(i) + 1);
            QVERIFY2(tip.startsWith(row.kernel + QLatin1Char('\n')), qPrintable(tip));
            QVERIFY2(tip.contains(row.verdictText()), qPrintable(tip));
            const QString change =
                view.model()->index(shown[i], KernelDiffModel::column("run_level_change")).data().toString();
            QCOMPARE(tip.contains(change), row.runLevel.valid());
        }
        QVERIFY(view.chart()->barToolTip(0).startsWith(QLatin1String("A: kernel time per run")));
        // The rest, lumped, untested itself: lighter green or red only where findings are among it and
        // every one goes its way (a rest of +14 µs was light red over a kernel 169 µs faster); its value
        // counts them.
        const std::vector<KernelDiffRow> &rows = view.diff()->rows();
        QCOMPARE(bars.size(), shown.size() + (rows.size() > shown.size() ? 3 : 2));
        if (rows.size() > shown.size()) {
            double rest = 0;
            int less = 0, more = 0;
            for (std::size_t i = shown.size(); i < rows.size(); ++i) {
                rest += rows[i].deltaTotalNs;
                if (isFinding(rows[i].verdict))
                    (rows[i].deltaTotalNs < 0 ? less : more)++;
            }
            const QColor expected =
                rest < 0 && less > 0 && more == 0   ? dataColour(DataColour::Less).lighter(140)
                : rest > 0 && more > 0 && less == 0 ? dataColour(DataColour::More).lighter(140)
                                                    : dataColour(DataColour::Unchanged);
            QCOMPARE(bars[bars.size() - 2].colour, expected);
            QCOMPARE(bars[bars.size() - 2].value.contains(QLatin1String("finding")), less + more > 0);
            QVERIFY(view.chart()
                        ->barToolTip(int(bars.size()) - 2)
                        .contains(QStringLiteral("Findings among them: %1 with less time in B, %2 with more")
                                      .arg(less)
                                      .arg(more)));
        }
        // torch.compile at the height the window gives the chart: two kernels shown, both only on one
        // side; among the rest a GEMM 169 µs faster, the rest's sum +14 µs: grey, "1 finding".
        view.setSides(m_eager, m_reduceOverhead, QString(), QString());
        view.resize(1400, 480);
        QTest::qWait(20);
        const std::vector<WaterfallBar> &compiled = view.chart()->bars();
        const WaterfallBar &rest = compiled[compiled.size() - 2];
        QVERIFY2(rest.label.contains(QLatin1String("other")), qPrintable(rest.label));
        QVERIFY2(rest.to > rest.from, "the rest adds time in B");
        QVERIFY2(rest.value.contains(QLatin1String("finding")), qPrintable(rest.value));
        QCOMPARE(rest.colour, dataColour(DataColour::Unchanged));
        // The table's Δ time/run is coloured where the chart's bar is: by its sign on a finding, else
        // not at all (it was green or red by its sign on every row).
        int plain = 0;
        for (int r = 0; r < view.model()->rowCount(); ++r) {
            const KernelDiffRow &row = view.diff()->rows()[std::size_t(r)];
            const QVariant colour =
                view.model()->index(r, KernelDiffModel::column("delta_total_ns")).data(Qt::ForegroundRole);
            const bool finding = row.verdict == Verdict::Faster || row.verdict == Verdict::Slower ||
                                 row.verdict == Verdict::OnlyInA || row.verdict == Verdict::OnlyInB;
            QCOMPARE(colour.isValid(), finding);
            plain += !colour.isValid();
        }
        QVERIFY(plain > 0);
    }

    // Each verdict has the interval it was decided from beside it, whole: the time/run change right
    // after the verdict, wide enough for a finding's change and interval (it was elided, far right).
    void verdictsIntervalBesideIt()
    {
        KernelDiffView view;
        view.resize(1366, 700);
        view.show();
        view.setSides(m_procA, m_procB, QString(), QString());
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QHeaderView *header = view.tableView()->horizontalHeader();
        const int verdict = KernelDiffModel::column("verdict"),
                  change = KernelDiffModel::column("run_level_change");
        QCOMPARE(header->visualIndex(change), header->visualIndex(verdict) + 1);
        const QFontMetrics metrics(view.tableView()->font());
        int findings = 0;
        for (int r = 0; r < view.model()->rowCount(); ++r) {
            const KernelDiffRow &row = view.diff()->rows()[std::size_t(r)];
            if (row.verdict != Verdict::Faster && row.verdict != Verdict::Slower)
                continue;
            ++findings;
            const QString text = view.model()->index(r, change).data().toString();
            QVERIFY2(text.contains(QLatin1Char('[')), qPrintable(text));
            QVERIFY2(metrics.horizontalAdvance(text) < view.tableView()->columnWidth(change),
                     qPrintable(text));
        }
        QVERIFY(findings > 0);
    }

    // The per-call cell's verdict is read whole at 1366 px: where the change, its interval and the verdict
    // do not fit, the interval (whole in the tooltip) goes first. It had been cut to "+4.50 % [+3.27, +5.…",
    // hiding a "B slower" opposite to the row's "B faster".
    void perCallVerdictIsNeverCut()
    {
        KernelDiffView view;
        view.resize(1366, 700);
        view.show();
        view.setSides(m_a, m_b, QString(), QString());
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const int perCall = KernelDiffModel::column("per_call_change");
        const QFontMetrics metrics(view.tableView()->font());
        const int room = view.tableView()->columnWidth(perCall) - 8;
        const auto *delegate =
            qobject_cast<ElideDelegate *>(view.tableView()->itemDelegateForColumn(perCall));
        QVERIFY(delegate && delegate->dropsIntervals());
        int verdicts = 0, shortened = 0;
        for (int r = 0; r < view.model()->rowCount(); ++r) {
            const KernelDiffRow &row = view.diff()->rows()[std::size_t(r)];
            if (!row.perCall.valid())
                continue;
            const QString text = view.model()->index(r, perCall).data().toString();
            const QString shown = ElideDelegate::withoutIntervalsToFit(text, metrics, room);
            QVERIFY2(metrics.horizontalAdvance(shown) <= room || !isFinding(row.perCallVerdict),
                     qPrintable(shown));
            QVERIFY2(shown.endsWith(row.perCallVerdictText()) || !isFinding(row.perCallVerdict),
                     qPrintable(shown));
            QVERIFY(view.model()
                        ->index(r, perCall)
                        .data(Qt::ToolTipRole)
                        .toString()
                        .contains(formatChange(row.perCall.ciLow)));
            verdicts += row.perCallVerdict == Verdict::Faster || row.perCallVerdict == Verdict::Slower;
            shortened += shown != text;
        }
        QVERIFY(verdicts > 0);
        QVERIFY(shortened > 0);
        // Given room, the interval is drawn.
        QCOMPARE(
            ElideDelegate::withoutIntervalsToFit(QStringLiteral("+1 % [+0, +2], B slower"), metrics, 10000),
            QStringLiteral("+1 % [+0, +2], B slower"));
        QCOMPARE(ElideDelegate::withoutIntervalsToFit(QStringLiteral("+1 % [+0, +2], B slower"), metrics, 1),
                 QStringLiteral("+1 %, B slower"));
    }

    // The kernel column's names are told apart within the width the view gives it, so the view does not
    // elide them again: torch.compile's three cutlass GEMMs had all read "cutlass::Ke…_tn_align4>".
    void kernelNamesFitTheirColumn()
    {
        KernelDiffView view;
        view.resize(1366, 700);
        view.show();
        view.setSides(m_eager, m_reduceOverhead, QString(), QString());
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const int kernel = KernelDiffModel::column("kernel");
        const int width = view.tableView()->columnWidth(kernel);
        const QFontMetrics metrics(view.tableView()->font());
        QSet<QString> shown;
        for (int r = 0; r < view.model()->rowCount(); ++r) {
            const QString text = view.model()->index(r, kernel).data().toString();
            QVERIFY2(metrics.horizontalAdvance(text) < width, qPrintable(text));
            QVERIFY2(!shown.contains(text), qPrintable(text));
            shown.insert(text);
        }
        QVERIFY(shown.size() > 10);
        // Given room, the names grow back (the spare width goes to the verdict and the per-call change
        // first).
        view.resize(3200, 700);
        QTRY_VERIFY(view.tableView()->columnWidth(kernel) > width);
        QTRY_VERIFY(metrics.horizontalAdvance(view.model()->index(0, kernel).data().toString()) >
                    metrics.horizontalAdvance(QStringLiteral("cutlass::Kernel…_tn_align4>")));
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
            QVERIFY(namecheck::shortens(
                view.model()->index(r, KernelDiffModel::column("kernel")).data().toString(), row.kernel));
            QCOMPARE(view.model()
                         ->index(r, KernelDiffModel::column("delta_total_ns"))
                         .data(KernelDiffModel::RawValueRole)
                         .toDouble(),
                     row.deltaTotalNs);
            QCOMPARE(view.model()->index(r, KernelDiffModel::column("verdict")).data().toString(),
                     row.verdictText());
            // the verdict and its colour are the model's (GPU time per run); per call beside it
            QCOMPARE(view.model()
                         ->index(r, KernelDiffModel::column("verdict"))
                         .data(Qt::ForegroundRole)
                         .value<QBrush>()
                         .color(),
                     ComparisonTableModel::verdictColor(row.verdict));
            const QModelIndex perCall = view.model()->index(r, KernelDiffModel::column("per_call_change"));
            QCOMPARE(perCall.data().toString(), expectedPerCall(row));
            const double perCallChange = perCall.data(KernelDiffModel::RawValueRole).toDouble();
            QVERIFY(perCallChange == row.perCall.change ||
                    (std::isnan(perCallChange) && std::isnan(row.perCall.change)));
            if (row.runLevel.valid()) {
                const QString tip = view.model()
                                        ->index(r, KernelDiffModel::column("verdict"))
                                        .data(Qt::ToolTipRole)
                                        .toString();
                QVERIFY2(tip.contains(QLatin1String("GPU time per run")) &&
                             tip.contains(QLatin1String("Welch on the per-run totals")) &&
                             tip.contains(QLatin1String("Holm")),
                         qPrintable(tip));
                QVERIFY2(tip.contains(formatPValue(row.runLevelHolm)), qPrintable(tip));
                QCOMPARE(view.model()->index(r, KernelDiffModel::column("run_level_p")).data().toString(),
                         formatPValue(row.runLevelHolm));
            }
            if (row.perCall.valid()) {
                const QString tip = perCall.data(Qt::ToolTipRole).toString();
                // both p's, Holm-adjusted and not, of both tests, and the units
                for (double p : {row.perCallHolm, row.perCall.p, row.runLevelHolm, row.runLevel.p})
                    QVERIFY2(tip.contains(formatPValue(p)), qPrintable(tip));
                QVERIFY2(tip.contains(
                             QStringLiteral("(%1 v %2 runs)").arg(row.perCall.runsA).arg(row.perCall.runsB)),
                         qPrintable(tip));
            }
        }
        QCOMPARE(view.model()->headerData(KernelDiffModel::column("kernel"), Qt::Horizontal).toString(),
                 QStringLiteral("Kernel"));
        QCOMPARE(
            view.model()->headerData(KernelDiffModel::column("per_call_change"), Qt::Horizontal).toString(),
            QStringLiteral("Per call"));
        // the columns sit together: kernel, verdict, what it was decided from, per call; the intervals'
        // levels at the end
        QCOMPARE(KernelDiffModel::column("verdict"), KernelDiffModel::column("kernel") + 1);
        QCOMPARE(KernelDiffModel::column("run_level_change"), KernelDiffModel::column("verdict") + 1);
        QCOMPARE(KernelDiffModel::column("per_call_change"), KernelDiffModel::column("run_level_change") + 1);
        QCOMPARE(KernelDiffModel::column("per_call_ci_level"), view.model()->columnCount() - 1);
        QVERIFY(view.headerText().startsWith(QLatin1String("3 v 3 runs")));
        QVERIFY(view.headerText().contains(QLatin1String("step time (PjitFunction(<lambda>)")));
        QVERIFY(!view.headerText().contains(QLatin1String("One run on a side")));
        // sorting by a number column uses the raw values
        view.tableView()->sortByColumn(KernelDiffModel::column("delta_total_ns"), Qt::AscendingOrder);
        const QAbstractItemModel *shown = view.tableView()->model();
        for (int r = 1; r < shown->rowCount(); ++r)
            QVERIFY(shown->index(r - 1, KernelDiffModel::column("delta_total_ns"))
                        .data(KernelDiffModel::RawValueRole)
                        .toDouble() <= shown->index(r, KernelDiffModel::column("delta_total_ns"))
                                           .data(KernelDiffModel::RawValueRole)
                                           .toDouble());
    }

    // A run pair's boxes are named by their runs where both sides name them alike (run_0 … run_4 of
    // torch.compile's modes, not "run 1" … "run 5"), else numbered from 1; the tooltip names both runs.
    void runPairsAreNamedByTheirRuns()
    {
        for (const auto &[a, b] : {std::pair{&m_eager, &m_reduceOverhead}, std::pair{&m_a, &m_b}}) {
            KernelDiffView view;
            view.setSides(*a, *b, QStringLiteral("A"), QStringLiteral("B"));
            view.selectRow(0);
            const std::vector<BoxPlotView::Group> &groups = view.boxPlot()->groups();
            QCOMPARE(groups.size(), std::size_t(a->size()) + 1);
            for (qsizetype i = 0; i < a->size(); ++i) {
                const QString nameA = (*a)[i].run.label(), nameB = (*b)[i].run.label();
                const BoxPlotView::Group &group = groups[std::size_t(i) + 1];
                QCOMPARE(group.label, nameA == nameB ? nameA : QStringLiteral("run %1").arg(i + 1));
                QVERIFY2(group.toolTip.endsWith(QStringLiteral("A's %1 against B's %2").arg(nameA, nameB)),
                         qPrintable(group.toolTip));
            }
            if (a == &m_eager)
                QCOMPARE(groups[1].label, QStringLiteral("run_0"));
        }
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
        // one line beside the filter: the name and verdict, elided to its width, and every figure in its
        // tooltip; its p's as text, not swallowed as markup
        QVERIFY(view.kernelStats()->text().contains(row.verdictText().toHtmlEscaped()));
        // its short name: no demangled return type or parameters taking the verdicts' room
        QVERIFY(plainText(view.kernelStats()->text()).startsWith(shortKernelName(row.kernel).left(8)));
        QVERIFY(view.kernelStats()->fontMetrics().horizontalAdvance(plainText(view.kernelStats()->text())) <=
                view.kernelStats()->width());
        QVERIFY(view.kernelStats()->toolTip().startsWith(row.kernel));
        const QString caption = view.kernelStats()->toolTip();
        QVERIFY(row.runLevel.valid());
        QVERIFY2(caption.contains(
                     QStringLiteral("p = %1 Holm").arg(formatPValue(row.runLevelHolm))),
                 qPrintable(caption));
        if (row.perCall.valid())
            QVERIFY2(caption.contains(QStringLiteral("per call: ")) &&
                         caption.contains(formatPValue(row.perCallHolm)) &&
                         caption.contains(row.perCallVerdictText()),
                     qPrintable(caption));
        // clearing the selection clears the highlight request
        view.selectRow(-1);
        QCOMPARE(view.currentRow(), -1);
        QCOMPARE(selected.last().at(0).toStringList(), QStringList());
        QVERIFY(view.boxPlot()->groups().empty());
        // the line says what it is for, elided to its width as the window narrows
        QVERIFY(plainText(view.kernelStats()->text()).startsWith(QLatin1String("Select a kernel")));
        for (int width : {1400, 1000}) {
            view.resize(width, 600);
            QTest::qWait(20);
            const QString shown = plainText(view.kernelStats()->text());
            QVERIFY2(view.kernelStats()->fontMetrics().horizontalAdvance(shown) <=
                         view.kernelStats()->width(),
                     qPrintable(QStringLiteral("%1 at %2 px").arg(shown).arg(view.kernelStats()->width())));
        }
    }

    void chartSelectsOnClick()
    {
        KernelDiffView view;
        view.resize(1400, 1000);
        view.show();
        view.setSides(m_a, m_b, QString(), QString());
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        ContributionChart *chart = view.chart();
        QVERIFY(chart->shownRows().size() >= 2);
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
        QVERIFY(window.diffView()->caveatBanner()->isShown()); // JAX: one process a side
        QVERIFY(window.panel()->caveatBanner()->isShown());
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
        // a pair opened with scopes has them selected in Scopes, and still opens on What changed
        SessionState state;
        state.scopes = {QStringLiteral("attn_q_k")};
        window.openPair(kMatmul, kEinsum, state);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.panel()->selectedScopes(), state.scopes);
        QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget *>(window.diffView()));
    }
};

QTEST_MAIN(TstKernelDiffView)
#include "tst_kerneldiffview.moc"
