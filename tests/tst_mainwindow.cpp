// SPDX-License-Identifier: GPL-3.0-or-later
// The main window driven as a user would: open the bundled pair, fail a load without losing the
// document, cancel, save and reopen a session, swap A and B, export a report, and look at it. The
// Samples menu is the table of sample pairs; the shortcut help lists every action with a shortcut.
// The one-process caveat shows in both tabs for the JAX sample and in neither for runs of 4 processes
// a side, where What changed's "By op" box regroups the kernels by op.

#include "testdata.h"
#include "testprocess.h"

#include "app/gui/mainwindow.h"
#include "app/gui/runevents.h"
#include "app/gui/samplepairs.h"
#include "model/analysis/runsummaryfile.h"
#include "model/comparison/ranktable.h"
#include "model/loading/tracefolder.h"
#include "model/loading/traceloader.h"
#include "model/tables/durationformat.h"
#include "model/tables/kernelnames.h"
#include "model/tables/tableformat.h"
#include "widgets/charts/boxplotview.h"
#include "widgets/charts/kernelmatrix.h"
#include "widgets/charts/rankbars.h"
#include "widgets/charts/rankoverview.h"
#include "widgets/charts/scopeboxplot.h"
#include "widgets/charts/steptimechart.h"
#include "widgets/charts/variantbars.h"
#include "widgets/charts/waitheatmap.h"
#include "widgets/panels/caveatbanner.h"
#include "widgets/panels/comparisonpanel.h"
#include "widgets/panels/kerneldiffview.h"
#include "widgets/panels/ranksview.h"
#include "widgets/panels/runpicker.h"
#include "widgets/panels/scopepicker.h"
#include "widgets/panels/stepbreakdownview.h"
#include "widgets/panels/summarystrip.h"
#include "widgets/panels/variantsview.h"
#include "widgets/report/reportcharts.h"
#include "widgets/tables/comparisontablemodel.h"
#include "widgets/tables/kerneldiffmodel.h"
#include "widgets/timeline/pairtimeline.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/timeline/timelineviewstate.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>

#include <QClipboard>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QStyleOptionComboBox>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTimer>
#include <QtTest>

#include <unistd.h>

#include <array>

#include <qcustomplot.h>

using namespace scopeline;

namespace {

// The three XLA flag sets of one JAX program (command buffers on, off, off without Triton GEMM), its
// matmul runs, each after its prefix ("LABEL=", "K=5=") as variants are given.
QStringList xlaFlagSets(const QStringList &prefixes)
{
    const QString jax = testdata::path("jax_h100");
    const QStringList folders = {QStringLiteral("jax_command_buffers"), QStringLiteral("jax_named_scopes"),
                                 QStringLiteral("jax_named_scopes_cublas")};
    QStringList arguments;
    for (int i = 0; i < 3; ++i)
        arguments << prefixes.value(i) + jax + QLatin1Char('/') + folders[i] +
                         QStringLiteral("/trace_file_matmul_*");
    return arguments;
}

// The three XLA flag sets as variants named buffers, no_buffers and no_triton, loaded at 1366 x 768.
bool openNamedFlagSets(MainWindow &window)
{
    window.resize(1366, 768);
    window.show();
    window.openVariants(xlaFlagSets(
        {QStringLiteral("buffers="), QStringLiteral("no_buffers="), QStringLiteral("no_triton=")}));
    return QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000);
}

const QString kSamples = QStringLiteral(SCOPELINE_SAMPLES);
const QString kMatmul = kSamples + QStringLiteral("/jax_matmul_vs_einsum/matmul");
const QString kEinsum = kSamples + QStringLiteral("/jax_matmul_vs_einsum/einsum");
const QStringList kScopes = {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"), QStringLiteral("mlp")};

// A real trace cut short, as a profiler killed while writing leaves it: eager run_0's first 20,000 bytes
// of gzip, in `folder`. Empty on failure.
QString truncatedTrace(const QString &folder)
{
    QFile whole(testdata::path("h100_runs/torch_compile/eager/run_0/trace.pt.trace.json.gz"));
    QFile out(QDir(folder).filePath(QStringLiteral("cut.pt.trace.json.gz")));
    if (!whole.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly) ||
        out.write(whole.read(20000)) != 20000)
        return {};
    return out.fileName();
}

bool openAndWait(MainWindow &window, const QString &a, const QString &b, const SessionState &state = {})
{
    window.openPair(a, b, state);
    return QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000);
}

// The menu of the menu bar with this title (its '&' left out).
QMenu *menuTitled(MainWindow &window, const QString &title)
{
    for (QMenu *menu : window.menuBar()->findChildren<QMenu *>())
        if (menu->title().remove(QLatin1Char('&')) == title)
            return menu;
    return nullptr;
}

// A recent menu's entries: its actions before the separator of Clear Menu.
QList<QAction *> recentEntries(QMenu *menu)
{
    QList<QAction *> entries;
    for (QAction *action : menu->actions()) {
        if (action->isSeparator())
            break;
        entries << action;
    }
    return entries;
}

// Saves a session of folders that are not there (beside it: no_such_a, no_such_b) as `file`, opens it
// and waits for its load to fail.
bool openSessionOfMissingPair(MainWindow &window, const QString &file)
{
    SessionState missing;
    missing.pathA = QFileInfo(file).dir().filePath(QStringLiteral("no_such_a"));
    missing.pathB = QFileInfo(file).dir().filePath(QStringLiteral("no_such_b"));
    return SessionFile::save(missing, file, nullptr) && window.openSession(file) &&
           QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000);
}

// torch.compile's eager mode against reduce-overhead on an H100, 5 runs each with ProfilerSteps.
const QString kEager = testdata::path("h100_runs/torch_compile/eager");
const QString kReduceOverhead = testdata::path("h100_runs/torch_compile/reduce_overhead");

// That pair in a window of a laptop's size.
bool openTorchPair(MainWindow &window)
{
    window.resize(1366, 768);
    window.show();
    return openAndWait(window, kEager, kReduceOverhead);
}

bool nonUniform(const QImage &image)
{
    const QRgb first = image.pixel(0, 0);
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            if (image.pixel(x, y) != first)
                return true;
    return false;
}

// Runs the posted layout and resize events until no widget of the window moves or resizes over three
// turns of the event loop in a row: a fixed wait was too short for the sanitizer build beside other
// tests (a kernel's box plot 49 px tall after 50 ms, 81 px once settled), and so, once, was a single
// turn without a change.
void settle(const QWidget &window)
{
    const auto geometries = [&window] {
        QList<QRect> all;
        for (const QWidget *widget : window.findChildren<QWidget *>())
            all.append(widget->geometry());
        return all;
    };
    QList<QRect> before = geometries();
    QElapsedTimer clock;
    clock.start();
    int unchanged = 0;
    while (clock.elapsed() < 10000 && unchanged < 3) {
        QCoreApplication::sendPostedEvents();
        QTest::qWait(20);
        QList<QRect> now = geometries();
        unchanged = now == before ? unchanged + 1 : 0;
        before = std::move(now);
    }
}

// The text a widget shows fits in it (no clipped text): its width against the font's measure.
bool textFits(const QWidget *widget, const QString &text, int padding = 0)
{
    return widget->fontMetrics().horizontalAdvance(text) + padding <= widget->width();
}

// The QTableView the user sees (not the frozen overlay), its visible rows.
// A plot's value labels and bar labels (the left axis) drawn at least a line apart, empty when so.
QString labelsOverlap(QCustomPlot *plot)
{
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QCPAxis *axis = plot->yAxis;
    if (!axis->visible() || !axis->tickLabels())
        return {};
    const QVector<double> ticks = axis->tickVector();
    const int line = QFontMetrics(axis->tickLabelFont()).height();
    for (int i = 1; i < ticks.size(); ++i) {
        const double apart = std::abs(axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1]));
        if (apart < line)
            return QStringLiteral("%1: labels %2 px apart, a line is %3 px (plot %4 px tall)")
                .arg(axis->label().isEmpty() ? QString::number(i) : axis->label())
                .arg(apart)
                .arg(line)
                .arg(plot->height());
    }
    return {};
}

int visibleRows(const QTableView *table)
{
    return table->viewport()->height() / std::max(1, table->verticalHeader()->defaultSectionSize());
}

// Whether a column lies in the table's viewport, whole, without scrolling, and is wide enough for
// its title (with room for the sort arrow).
QString columnProblem(const QTableView *table, int column)
{
    const QString title = table->model()->headerData(column, Qt::Horizontal).toString();
    const int x = table->columnViewportPosition(column), w = table->columnWidth(column);
    if (table->isColumnHidden(column))
        return QStringLiteral("%1 hidden").arg(title);
    if (x < 0 || x + w > table->viewport()->width())
        return QStringLiteral("%1 at %2..%3 beyond the viewport's %4 px")
            .arg(title)
            .arg(x)
            .arg(x + w)
            .arg(table->viewport()->width());
    const QFontMetrics metrics = table->horizontalHeader()->fontMetrics();
    if (metrics.horizontalAdvance(title) + 8 > w)
        return QStringLiteral("%1's title clipped (%2 px for %3)")
            .arg(title)
            .arg(w)
            .arg(metrics.horizontalAdvance(title));
    return {};
}

// Closes every dialog and window a shortcut opened (modal ones from inside their event loop).
void closeOthers(QWidget *keep)
{
    if (QWidget *modal = QApplication::activeModalWidget())
        if (auto *dialog = qobject_cast<QDialog *>(modal))
            dialog->reject();
    for (QWidget *top : QApplication::topLevelWidgets())
        if (top != keep && top->isVisible() && !qobject_cast<QMenu *>(top))
            top->close();
}

// The Variants tab's sub-tabs (Steps, Kernels, Scopes, Ranks).
QTabWidget *figureTabs(VariantsView *variants)
{
    return qobject_cast<QTabWidget *>(variants->rankTable()->parentWidget()->parentWidget());
}

} // namespace

class TstMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent pairs and geometry go to a test location
        QSettings().clear();
        REQUIRE_TEST_DATA(kMatmul, kEinsum);
    }

    void opensThePairWithScopes()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        SessionState state;
        state.scopes = kScopes;
        QVERIFY(openAndWait(window, kMatmul, kEinsum, state));
        QCOMPARE(window.runsA().size(), 3);
        QCOMPARE(window.runsB().size(), 3);
        QCOMPARE(window.bannerText(), QString());
        QCOMPARE(window.panel()->selectedScopes(), kScopes);
        QCOMPARE(window.panel()->rows().size(), std::size_t(kScopes.size() * 4)); // 3 run pairs + pooled
        QVERIFY(window.windowTitle().contains(QLatin1String("matmul vs einsum")));
        QVERIFY(window.timeline()->viewA()->run().trace);
        QVERIFY(window.timeline()->viewB()->run().trace);
        QTest::qWait(200);
        const QImage shot = window.grab().toImage();
        QVERIFY(nonUniform(shot));
        QVERIFY(shot.save(QDir::temp().filePath(QStringLiteral("scopeline_mainwindow.png"))));
    }

    void processesAndTheCaveat()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        QVERIFY(window.diffView()->caveatBanner()->isShown());
        QVERIFY(window.panel()->caveatBanner()->isShown());
        QCOMPARE(window.diffView()->caveatBanner()->caveat(), window.diffView()->diff()->summary().caveat);

        const QString procA = testdata::path("h100_runs/jax_processes/matmul");
        const QString procB = testdata::path("h100_runs/jax_processes/einsum");
        REQUIRE_TEST_DATA(procA, procB);
        QVERIFY(openAndWait(window, procA, procB));
        QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget *>(window.diffView()));
        QVERIFY(!window.diffView()->caveatBanner()->isShown());
        QVERIFY(!window.panel()->caveatBanner()->isShown());
        QVERIFY(window.diffView()->headerText().startsWith(QLatin1String("16 v 16 runs in 4 v 4 processes")));
        const int byKernel = window.diffView()->model()->rowCount();
        window.diffView()->byOpCheck()->click();
        QCOMPARE(window.diffView()->model()->rowCount(), 62);
        QCOMPARE(window.diffView()
                     ->model()
                     ->headerData(KernelDiffModel::column("kernel"), Qt::Horizontal)
                     .toString(),
                 QStringLiteral("Op"));
        // an op's kernels are highlighted in both timelines
        window.diffView()->selectRow(0);
        QVERIFY(window.timeline()->viewA()->hasHighlight());
        QVERIFY(window.timeline()->viewB()->hasHighlight());
        QTest::qWait(200);
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_processes_by_op.png"))));
        window.diffView()->byOpCheck()->click();
        QCOMPARE(window.diffView()->model()->rowCount(), byKernel);
    }

    void eagerVsGraphSample()
    {
        qApp->setProperty("samplesFolder", kSamples); // as main() sets it; the Samples menu reads it
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QAction *sample = nullptr;
        for (QAction *action : window.findChildren<QAction *>())
            if (action->text().startsWith(QLatin1String("Eager launches vs CUDA graphs (scopeline-hipbench")))
                sample = action;
        QVERIFY(sample && sample->isEnabled());
        sample->trigger();
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.bannerText(), QString());
        // the runner's `chain` range on both sides: one GPU span per iteration, 20 a run, 5 runs a side
        QCOMPARE(window.panel()->selectedScopes(), QStringList{QStringLiteral("chain")});
        const std::vector<ComparisonRow> &rows = window.panel()->rows();
        QVERIFY(!rows.empty());
        QCOMPARE(rows.front().a.n, std::size_t(100)); // the verdict row first
        QCOMPARE(rows.front().b.n, std::size_t(100));
        QCOMPARE(rows.front().verdict(0.05, 0.01), Verdict::Faster); // graph replay shortens every chain
        // the status bar says what is shown and how to open one's own pair; the user's own says not
        QVERIFY2(
            window.statusText().startsWith(
                QStringLiteral("Sample: %1 — File › Open Pair (Ctrl+O) to open yours").arg(sample->text())),
            qPrintable(window.statusText()));
        QTest::qWait(200);
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_eager_vs_graph.png"))));
        window.openPair(kMatmul, kEinsum);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QVERIFY2(window.statusText().startsWith(QLatin1String("A: 3 run(s)")),
                 qPrintable(window.statusText()));
    }

    // A new pair starts clean: the sample's scope, the kernel filter and the zoom of the pair before do
    // not carry over (they read as "not found" rows and a blank timeline); the threshold does.
    void newPairStartsClean()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        const SamplePair chain = samplePairs(kSamples).front();
        window.openSample(chain.title, chain.state);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.panel()->selectedScopes(), QStringList{QStringLiteral("chain")});
        QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget *>(window.diffView()));
        window.diffView()->filterEdit()->setText(QStringLiteral("hip"));
        window.panel()->setThreshold(0.05);
        TimelineView *b = window.timeline()->viewB();
        b->setVisibleRange(b->visibleStart() + 1000, b->visibleStart() + 2000); // far past the JAX run's end

        window.openNewPair(kMatmul, kEinsum);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        // not the sample's `chain` (a "not found" row here) but this pair's own step scope
        QCOMPARE(window.panel()->selectedScopes(), QStringList{QStringLiteral("PjitFunction(<lambda>)")});
        QVERIFY(!window.panel()->rows().empty());
        QCOMPARE(window.diffView()->filterEdit()->text(), QString());
        QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget *>(window.diffView()));
        QCOMPARE(window.panel()->threshold(), 0.05);
        // Both timelines as a window that never showed another pair opens them.
        const auto ranges = [](const MainWindow &w) {
            return QList<int64_t>{w.timeline()->viewA()->visibleStart(), w.timeline()->viewA()->visibleEnd(),
                                  w.timeline()->viewB()->visibleStart(), w.timeline()->viewB()->visibleEnd()};
        };
        MainWindow fresh;
        fresh.resize(1600, 1000);
        fresh.show();
        QVERIFY(openAndWait(fresh, kMatmul, kEinsum));
        QCOMPARE(ranges(window), ranges(fresh));
        // A reload is the same pair: its filter stays.
        window.diffView()->filterEdit()->setText(QStringLiteral("fusion"));
        for (QAction *action : window.findChildren<QAction *>())
            if (action->text() == QLatin1String("&Reload"))
                action->trigger();
        QVERIFY(window.isLoading());
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.diffView()->filterEdit()->text(), QStringLiteral("fusion"));
    }

    // Runs of several GPUs: the Ranks tab appears with a bar and a row per rank, the run picker names
    // ranks, a double-click on a rank shows it in its timeline; a pair of one GPU hides the tab.
    // Four of the job's eight ranks: the status bar says of how many.
    void partialWorldIsCounted()
    {
        QTemporaryDir dir(testdata::scratchDir());
        const QDir job(testdata::dlrmRun());
        const QStringList files = job.entryList({QStringLiteral("*.json.gz")}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 8);
        for (int r = 0; r < 4; ++r)
            QVERIFY(testdata::anotherRun(job.filePath(files[r]), dir.filePath(files[r])));
        MainWindow window;
        window.show();
        QVERIFY(openAndWait(window, dir.path(), dir.path()));
        QVERIFY2(window.statusText().contains(QLatin1String("A: 1 run(s) of 4 of 8 ranks")),
                 qPrintable(window.statusText()));
    }

    void ranksTab()
    {
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(testdata::rankRuns(dir.filePath(QStringLiteral("A")), 2) &&
                testdata::rankRuns(dir.filePath(QStringLiteral("B")), 2));
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(openAndWait(window, dir.filePath(QStringLiteral("A")), dir.filePath(QStringLiteral("B"))));
        QVERIFY(window.tabs()->isTabVisible(2));
        // the strip's figures are a run's mean over its GPUs: it says so beside "per run"
        QCOMPARE(window.findChild<SummaryStrip *>()->unitText(), QStringLiteral("per run, per GPU"));
        // the boxes' dots are each rank file's median, and say so
        for (BoxPlotView *box : {window.diffView()->boxPlot(), window.panel()->boxPlot()})
            QCOMPARE(box->plot()->graph(0)->name(), QStringLiteral("rank medians"));
        RanksView *ranks = window.ranksView();
        QCOMPARE(ranks->rankTableView()->model()->rowCount(), 32);
        QCOMPARE(ranks->bars()->labels().size(), 8); // the ranks of the run picked: A run_0
        QCOMPARE(ranks->bars()->labels().front(), QStringLiteral("rank 0"));
        // hovering a bar: its rank's step and parts as the Per rank table has them (rows 0-7: A run_0)
        int compared = 0;
        for (int row = 0; row < 8; ++row) {
            const QString tip = ranks->bars()->rankToolTip(row);
            QVERIFY2(tip.startsWith(QStringLiteral("rank %1 of run_0").arg(row)), qPrintable(tip));
            QVERIFY2(tip.contains(QLatin1String(" a step at collectives (8 matched over its steps)")),
                     qPrintable(tip)); // the wait per step, as the bars
            const QAbstractItemModel *table = ranks->rankTableView()->model();
            for (const char *column : {"Step", "Compute", "Exposed comm", "Idle", "Wait"})
                for (int c = 0; c < table->columnCount(); ++c)
                    if (table->headerData(c, Qt::Horizontal).toString() == QLatin1String(column) &&
                        ++compared)
                        QVERIFY2(tip.contains(table->index(row, c).data().toString()),
                                 qPrintable(tip + QStringLiteral(" lacks ") +
                                            table->index(row, c).data().toString()));
        }
        QCOMPARE(compared, 8 * 5);
        QVERIFY(ranks->bars()->rankToolTip(8).isEmpty());
        QCOMPARE(ranks->comparisonView()->model()->rowCount(), 10);
        QCOMPARE(ranks->collectivesView()->model()->rowCount(), 4); // AllReduce and SendRecv a side
        QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(window.tabs()->currentWidget(), ranks);
        // at 1366x768 the verdicts come first, A against B and the Per rank table each in five rows (two or
        // three, stacked)
        settle(window);
        QTabWidget *tables = ranks->tableTabs();
        QCOMPARE(tables->currentWidget(), ranks->comparisonView());
        for (QTableView *view : {ranks->comparisonView(), ranks->rankTableView()}) {
            tables->setCurrentWidget(view);
            settle(window);
            QVERIFY2(view->viewport()->height() >= 5 * view->verticalHeader()->defaultSectionSize(),
                     qPrintable(QString::number(view->viewport()->height())));
        }
        // the overview: a lane per rank of A's first run; over the whole run each lane's compute is the
        // union of its non-communication kernels, its exposed communication the rest of its busy time
        const RankOverview *overview = ranks->overview();
        QCOMPARE(ranks->overviewPicker()->count(), 4); // A run_0, A run_1, B run_0, B run_1
        QCOMPARE(overview->laneCount(), 8);
        const auto unionOf = [](const RunSummary &summary, bool all) {
            std::vector<std::pair<int64_t, int64_t>> spans;
            for (const RunSummary::Kernel &k : summary.kernels())
                if (all || !k.communication())
                    spans.push_back({k.start, k.end()});
            std::sort(spans.begin(), spans.end());
            int64_t total = 0, from = 0, reach = std::numeric_limits<int64_t>::min();
            for (const auto &[start, end] : spans) {
                if (start > reach) {
                    total += reach > from ? reach - from : 0;
                    from = start;
                }
                reach = std::max(reach, end);
            }
            return total + (reach > from ? reach - from : 0);
        };
        for (int lane = 0; lane < 8; ++lane) {
            const RunSummary &summary = *window.runsA()[lane].summary;
            const BusyShares shares = overview->shares(lane, overview->start(), overview->end());
            QCOMPARE(shares.compute, unionOf(summary, false));
            QCOMPARE(shares.compute + shares.exposedComm, unionOf(summary, true));
            QVERIFY(shares.exposedComm > 0);
        }
        // the waits: a collective × rank map of A's first run; rank 7 arrived last (waited 0) at 5 of 8
        QCPColorMapData *waits = ranks->waits()->map()->data();
        QCOMPARE(waits->keySize(), 8);
        QCOMPARE(waits->valueSize(), 8);
        int last = 0;
        for (int c = 0; c < 8; ++c)
            last += waits->cell(c, 7) == 0;
        QCOMPARE(last, 5);
        const RankRow &rank7 = ranks->table()->rows()[7];
        QCOMPARE(rank7.arrivedLastShare, 5.0 / 8);
        auto *views = qobject_cast<QTabWidget *>(ranks->waits()->parentWidget()->parentWidget());
        QVERIFY(views);
        views->setCurrentWidget(ranks->waits());
        QTest::qWait(50);
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_ranks_waits.png"))));
        views->setCurrentIndex(0);
        QCOMPARE(window.timeline()->viewA()->run().run.label(), QStringLiteral("run_0 · rank 0"));
        // The timeline's picker: a side's runs, and the ranks of the run shown beside them. A rank
        // picked stays picked when another run is.
        RunPicker *pickerA = nullptr;
        for (RunPicker *picker : window.findChildren<RunPicker *>())
            if (picker->runBox()->toolTip().startsWith(QLatin1String("Run of side A")))
                pickerA = picker;
        QVERIFY(pickerA);
        QCOMPARE(pickerA->runBox()->count(), 2);
        QVERIFY(pickerA->rankBox()->isVisible());
        QCOMPARE(pickerA->rankBox()->count(), 8);
        QCOMPARE(pickerA->rankBox()->itemText(3), QStringLiteral("3 of 8"));
        pickerA->rankBox()->setCurrentIndex(3);
        emit pickerA->rankBox()->activated(3);
        const auto shownA = [&window] { return window.timeline()->viewA()->run().run.label(); };
        QVERIFY2(QTest::qWaitFor([&] { return shownA() == QStringLiteral("run_0 · rank 3"); }, 20000),
                 qPrintable(shownA()));
        pickerA->runBox()->setCurrentIndex(1);
        emit pickerA->runBox()->activated(1);
        QCOMPARE(pickerA->rankBox()->currentText(), QStringLiteral("3 of 8"));
        QVERIFY2(QTest::qWaitFor([&] { return shownA() == QStringLiteral("run_1 · rank 3"); }, 20000),
                 qPrintable(shownA()));
        pickerA->setCurrentIndex(0);
        emit pickerA->activated(0);
        QVERIFY(QTest::qWaitFor([&] { return shownA() == QStringLiteral("run_0 · rank 0"); }, 20000));
        // Selecting A's run_1 rank 7 (row 15; a click, the arrow keys) shows it in A's timeline, and so
        // do Enter and a double-click
        QTableView *table = ranks->rankTableView();
        table->scrollTo(table->model()->index(15, 0));
        QSignalSpy activated(ranks, &RanksView::rankActivated);
        table->setFocus(); // may make the first row current, and show it
        activated.clear();
        table->setCurrentIndex(table->model()->index(15, 0));
        QCOMPARE(activated.size(), 1);
        QTest::keyClick(table, Qt::Key_Return);
        QCOMPARE(activated.size(), 2);
        QCOMPARE(activated.front().at(2).toInt(), 7);
        QCOMPARE(activated.back().at(2).toInt(), 7);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QVERIFY2(QTest::qWaitFor(
                     [&window] {
                         return window.timeline()->viewA()->run().run.label() == QStringLiteral("run_1 · rank 7");
                     },
                     20000),
                 qPrintable(window.timeline()->viewA()->run().run.label() + QLatin1Char(' ') +
                            QString::number(window.runsA().size())));
        QCOMPARE(pickerA->runBox()->currentText(), QStringLiteral("run_1"));
        QCOMPARE(pickerA->rankBox()->currentText(), QStringLiteral("7 of 8"));
        QVERIFY(window.statusText().contains(QLatin1String("2 run(s) of 8 ranks")));
        QTest::qWait(100);
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_ranks.png"))));
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        QVERIFY(!window.tabs()->isTabVisible(2));
        // Ctrl+3 with no run of several GPUs: the tab stays hidden, and the status bar says why
        QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
        QVERIFY2(window.statusText().startsWith(QLatin1String("No run of several GPUs is open")),
                 qPrintable(window.statusText()));
        QTest::keyClick(&window, Qt::Key_4, Qt::ControlModifier);
        QVERIFY2(window.statusText().startsWith(QLatin1String("No variants are open")),
                 qPrintable(window.statusText()));
        QVERIFY(!pickerA->rankBox()->isVisible()); // runs of one GPU: no rank to pick
        QCOMPARE(pickerA->runBox()->count(), window.runsA().size());
    }

    // One run of 8 ranks a side at 1366×768: nothing to test A against B with, so no table of verdicts
    // that all say so, but a line of the notes; the rank table has the room, and the bars label only as
    // many ranks as have a line of text each.
    void ranksTabOneRunASide()
    {
        REQUIRE_TEST_DATA(testdata::dlrmRun());
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        // the job opened alone, against itself: its ranks once, nothing compared
        QVERIFY(openAndWait(window, testdata::dlrmRun(), testdata::dlrmRun()));
        RanksView *ranks = window.ranksView();
        QCOMPARE(ranks->rankTableView()->model()->rowCount(), 8);
        QVERIFY2(!ranks->notes().contains(QLatin1String("A against B")), qPrintable(ranks->notes()));
        // one run a side, named as jobs are (long names: the run column gives way to the figures)
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(testdata::rankRuns(dir.filePath(QStringLiteral("A")), 1) &&
                testdata::rankRuns(dir.filePath(QStringLiteral("B")), 1));
        const QString runA = dir.filePath(QStringLiteral("llama_fsdp_baseline_8xV100")),
                      runB = dir.filePath(QStringLiteral("llama_fsdp_candidate_8xV100"));
        QVERIFY(QDir().rename(dir.filePath(QStringLiteral("A/run_0")), runA) &&
                QDir().rename(dir.filePath(QStringLiteral("B/run_0")), runB));
        QVERIFY(openAndWait(window, runA, runB));
        QCOMPARE(ranks->rankTableView()->model()->rowCount(), 16);
        window.tabs()->setCurrentWidget(ranks);
        QTest::qWait(50);
        QVERIFY(!ranks->tableTabs()->isTabVisible(ranks->tableTabs()->indexOf(ranks->comparisonView())));
        QCOMPARE(ranks->tableTabs()->currentWidget(), ranks->rankTableView());
        QVERIFY2(ranks->notes().contains(QLatin1String("A against B not tested: one run on a side")),
                 qPrintable(ranks->notes()));
        QTableView *table = ranks->rankTableView();
        QVERIFY2(table->viewport()->height() >= 4 * table->verticalHeader()->defaultSectionSize(),
                 qPrintable(QString::number(table->viewport()->height())));
        // the run's name whole where the figures leave it room (it had been cut to 18 characters)
        int others = 0;
        for (int c = 0; c < table->model()->columnCount(); ++c)
            others += c == 1 ? 0 : table->columnWidth(c);
        const int name = table->fontMetrics().horizontalAdvance(QFileInfo(runA).fileName());
        QCOMPARE(table->model()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("Run"));
        QCOMPARE(table->columnWidth(1) > name, table->viewport()->width() - others > name);
        window.resize(1920, 1080); // room for it
        settle(window);
        QVERIFY2(table->viewport()->width() - others > name && table->columnWidth(1) > name,
                 qPrintable(QStringLiteral("%1 px for a name of %2").arg(table->columnWidth(1)).arg(name)));
        window.resize(1366, 768);
        settle(window);
        // every column in view, Wait and Arrived last (who holds the step back) the last of them
        const int last = table->model()->columnCount() - 1;
        QVERIFY2(table->columnViewportPosition(last) + table->columnWidth(last) <= table->viewport()->width(),
                 qPrintable(QStringLiteral("%1 + %2 > %3")
                                .arg(table->columnViewportPosition(last))
                                .arg(table->columnWidth(last))
                                .arg(table->viewport()->width())));
        QCustomPlot *plot = ranks->bars()->plot();
        plot->replot();
        const auto ticker = plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker && !ticker->ticks().isEmpty());
        QVERIFY2(double(ticker->ticks().size()) * 0.75 *
                         QFontMetricsF(plot->yAxis->tickLabelFont()).height() <=
                     plot->axisRect()->height() + 1,
                 qPrintable(QStringLiteral("%1 labels in %2 px")
                                .arg(ticker->ticks().size())
                                .arg(plot->axisRect()->height())));
        // the lanes over time: as many ranks labelled as have a line of text each
        const RankOverview *overview = ranks->overview();
        QVERIFY(overview->labelledEvery() >= 1);
        QVERIFY2(overview->labelledEvery() * overview->laneHeight() >=
                     0.75 * overview->fontMetrics().height(),
                 qPrintable(QStringLiteral("every %1 lane(s) of %2 px")
                                .arg(overview->labelledEvery())
                                .arg(overview->laneHeight())));
        // the waits: each collective named on the axis by its number and kind, each cell's wait on hover
        WaitHeatmap *waits = ranks->waits();
        for (QWidget *w = waits; w; w = w->parentWidget())
            if (auto *tabs = qobject_cast<QTabWidget *>(w); tabs && tabs->indexOf(waits) >= 0)
                tabs->setCurrentWidget(waits);
        QTest::qWait(50);
        const RunCollectives &run = ranks->table()->collectives().front();
        QCOMPARE(run.waitsNs.size(), std::size_t(8));
        const auto names = waits->plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(names && names->ticks().size() >= 4);
        QVERIFY2(names->ticks().first().startsWith(QLatin1String("1 ")), qPrintable(names->ticks().first()));
        QCOMPARE(waits->cellText(7, 3), QStringLiteral("rank %1 at collective 8 of 8, %2:\nwaited %3")
                                            .arg(run.ranksInOrder[3])
                                            .arg(run.collectiveNames[7], formatDuration(run.waitsNs[7][3])));
        QVERIFY(waits->cellText(8, 0).isEmpty());
        QVERIFY(ranks->grab().save(QDir::temp().filePath(QStringLiteral("scopeline_waits.png"))));
    }

    // More than two variants: XLA's three flag sets of one JAX GPT. The Variants tab opens on them with
    // the baseline against the first candidate in the pair views; its bars, table and heatmap show the
    // model's figures; any two variants open in the pair views; a pair opened otherwise hides the tab.
    void variantsTab()
    {
        const QString jax = testdata::path("jax_h100");
        const QStringList arguments = {
            QStringLiteral("buffers=") + jax + QStringLiteral("/jax_command_buffers/trace_file_matmul_*"),
            QStringLiteral("no_buffers=") + jax + QStringLiteral("/jax_named_scopes/trace_file_matmul_*"),
            QStringLiteral("no_triton=") + jax + QStringLiteral("/jax_named_scopes_cublas/trace_file_matmul_*")};
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        window.openVariants(arguments);
        QVERIFY(window.isLoading());
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        VariantsView *variants = window.variantsView();
        QVERIFY(window.tabs()->isTabVisible(3));
        QCOMPARE(window.tabs()->currentWidget(), variants);
        QCOMPARE(variants->labels(), (QStringList{QStringLiteral("buffers"), QStringLiteral("no_buffers"),
                                                  QStringLiteral("no_triton")}));
        QCOMPARE(window.document()->state().pathB, jax + QStringLiteral("/jax_named_scopes/trace_file_matmul_*"));
        // the pair shown is named by the variants' labels (their folders share a name), its timelines
        // locked as a pair's are, and the status bar says why its intervals differ from the tab's
        QStringList labels;
        for (const QLabel *label : window.findChildren<QLabel *>())
            labels << label->text();
        QVERIFY2(labels.contains(QLatin1String("A: buffers")) &&
                     labels.contains(QLatin1String("B: no_buffers")),
                 qPrintable(labels.join(u'|')));
        QVERIFY(window.timeline()->zoomLocked());
        QVERIFY2(window.statusText().contains(QLatin1String("two of the variants, judged as a pair")),
                 qPrintable(window.statusText()));
        // the bars: each variant's mean step per part, the baseline's from A, the candidates' from B
        const VariantSteps *steps = variants->steps();
        QVERIFY(steps);
        for (const StepPart part : variants->bars()->parts()) {
            const std::vector<double> values = variants->bars()->values(part);
            QCOMPARE(values.size(), std::size_t(3));
            QCOMPARE(values[0], steps->comparisons()[0].row(part).meanA);
            QCOMPARE(values[2], steps->comparisons()[1].row(part).meanB);
        }
        QCOMPARE(variants->bars()->parts().front(), StepPart::Busy); // no communication
        // the lead: the answer over the candidates first, then a short line each, whole in the tooltip
        const QStringList leadLines = variants->leadText().split(QLatin1Char('\n'));
        QCOMPARE(leadLines.size(), 4);
        QCOMPARE(leadLines[1], steps->summaryLine());
        QVERIFY2(
            leadLines[1].startsWith(QStringLiteral("Step time of 2 candidate(s), Holm over the 2 tested: 2 B "
                                                   "slower (no_buffers, no_triton)")),
            qPrintable(leadLines[1]));
        for (int c = 0; c < 2; ++c) {
            QCOMPARE(leadLines[2 + c], steps->briefLine(c));
            QVERIFY(steps->leadLine(c).startsWith(steps->briefLine(c).section(QLatin1String(" ("), 0, 0)));
            QVERIFY(variants->leadArea()->widget()->toolTip().contains(steps->leadLine(c)));
        }
        QVERIFY(!variants->ranks());                                 // one GPU a run: no Ranks sub-tab
        QVERIFY(!figureTabs(variants)->isTabVisible(figureTabs(variants)->indexOf(variants->rankTable())));
        // a tooltip per bar, found under the pointer: the variant's step and parts, a candidate's change
        // with the interval and verdict of the step table's row
        const VariantBars *bars = variants->bars();
        for (int v = 0; v < 3; ++v) {
            const QCPAxis *x = bars->plot()->xAxis, *y = bars->plot()->yAxis;
            const QPoint onBar(int(x->coordToPixel(v)), int(y->coordToPixel(0.5 * y->range().upper)));
            QCOMPARE(bars->variantAt(onBar), v);
            const QString tip = bars->variantToolTip(v);
            QVERIFY2(tip.startsWith(variants->labels()[v]), qPrintable(tip));
            const std::vector<double> step = bars->values(StepPart::Step);
            QVERIFY2(tip.contains(formatDuration(step[std::size_t(v)])), qPrintable(tip));
            for (const StepPart part : bars->parts())
                QVERIFY2(tip.contains(stepPartTitle(part) + QStringLiteral(": ") +
                                      formatDuration(bars->values(part)[std::size_t(v)])),
                         qPrintable(tip));
            if (v > 0) {
                const QString change =
                    stepChangeText(steps->comparisons()[std::size_t(v - 1)].row(StepPart::Step));
                QVERIFY2(tip.contains(QStringLiteral("against buffers: ") + change + QLatin1Char('\n')),
                         qPrintable(tip));
                // its whisker's level, which differs between candidates (Holm)
                QVERIFY2(
                    tip.endsWith(
                        QStringLiteral(
                            "the whisker: that interval, at %1 % (the level its verdict is judged)")
                            .arg(100 * steps->comparisons()[std::size_t(v - 1)].row(StepPart::Step).ciLevel)),
                    qPrintable(tip));
            }
        }
        // between the bars, at a height where they are
        const int middle = int(bars->plot()->yAxis->coordToPixel(0.5 * bars->plot()->yAxis->range().upper));
        QCOMPARE(bars->variantAt(QPoint(int(bars->plot()->xAxis->coordToPixel(0.5)), middle)), -1);
        QVERIFY(bars->variantToolTip(3).isEmpty());
        QCOMPARE(variants->bars()->plot()->plottableCount(), 4 + 1 + 1); // parts, the whisker anchor, whiskers
        QCOMPARE(variants->stepTable()->model()->rowCount(), 2 * kStepParts);
        // a verdict of three words is read whole, its cell's margins counted (it had read "no meaningful …")
        const QTableView *stepTable = variants->stepTable();
        const int verdictColumn = int(VariantSteps::tableKeys().indexOf(QStringLiteral("verdict")));
        QVERIFY(stepTable->columnWidth(verdictColumn) >=
                stepTable->fontMetrics().horizontalAdvance(QStringLiteral("no significant change")) +
                    stepTable->fontMetrics().height());
        // the heatmap: a cell per kernel and candidate, grey (NaN) where there is no verdict
        const VariantDiff *diff = variants->diff();
        QCPColorMapData *cells = variants->matrix()->map()->data();
        QCOMPARE(cells->keySize(), 2);
        QCOMPARE(cells->valueSize(), std::min(24, int(diff->rows().size())));
        // The scale spans the largest significant change, new and gone kernels at its ends and lettered, as
        // is a kernel on neither side: a +3 % call is not drawn as pale as no change beside new kernels.
        int coloured = 0, grey = 0, lettered = 0;
        double largest = 0;
        for (int r = 0; r < cells->valueSize(); ++r)
            for (int c = 0; c < 2; ++c) {
                const KernelDiffRow *row = diff->rows()[std::size_t(r)].cells[std::size_t(c)];
                if (row && (row->verdict == Verdict::Faster || row->verdict == Verdict::Slower))
                    largest = std::max(largest, 100 * std::fabs(KernelMatrix::cellValue(row)));
            }
        QVERIFY(largest > 0);
        QCOMPARE(variants->matrix()->map()->dataRange().upper, std::max(1.0, largest));
        for (int r = 0; r < cells->valueSize(); ++r)
            for (int c = 0; c < 2; ++c) {
                const KernelDiffRow *row = diff->rows()[std::size_t(r)].cells[std::size_t(c)];
                const double shown = cells->cell(c, r);
                const bool oneSide =
                    row && (row->verdict == Verdict::OnlyInA || row->verdict == Verdict::OnlyInB);
                const bool verdict =
                    row && (row->verdict == Verdict::Faster || row->verdict == Verdict::Slower || oneSide);
                QCOMPARE(std::isnan(shown), !verdict);
                if (verdict) {
                    QVERIFY(std::fabs(shown) <= std::max(1.0, largest));
                    QCOMPARE(shown > 0, row->verdict == Verdict::Slower || row->verdict == Verdict::OnlyInB);
                }
                if (oneSide)
                    QCOMPARE(std::fabs(shown), std::max(1.0, largest));
                lettered += verdict || !row;
                (verdict ? coloured : grey) += 1;
            }
        QVERIFY(coloured > 0 && grey > 0);
        QCOMPARE(variants->matrix()->plot()->itemCount(), lettered);
        QTest::qWait(100);
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_variants.png"))));
        auto *figures = qobject_cast<QTabWidget *>(variants->matrix()->parentWidget()->parentWidget());
        QVERIFY(figures);
        figures->setCurrentWidget(variants->matrix());
        QTest::qWait(100);
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_variants_kernels.png"))));

        // a scope's samples: the baseline beside each candidate, and Kruskal–Wallis across the three
        QVERIFY(variants->scopeBox()->count() > 0);
        const int mlp = variants->scopeBox()->findText(QStringLiteral("mlp"));
        QVERIFY(mlp >= 0);
        variants->scopeBox()->setCurrentIndex(mlp);
        QVERIFY(variants->scopes());
        QCOMPARE(variants->boxes()->groups().size(), std::size_t(2));
        for (std::size_t c = 0; c < 2; ++c)
            for (const ComparisonRow &row : variants->scopes()->rows()[c])
                if (row.verdictRow) {
                    QCOMPARE(variants->boxes()->groups()[c].b.median, row.b.median);
                    QCOMPARE(variants->boxes()->groups()[c].a.median, row.a.median);
                }
        // two variants of three runs with samples, wholly apart: the exact p is 0.1, the least 3 v 3 runs
        // give, and no "differ" (the chi-squared p, 0.0495, had said they differ)
        QVERIFY2(
            variants->scopeNote().contains(QLatin1String("exact p 0.1 (so few runs give no p under 0.1);")) &&
                !variants->scopeNote().contains(QLatin1String("the variants differ")),
            qPrintable(variants->scopeNote()));
        figures->setCurrentIndex(2);
        QTest::qWait(100);
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_variants_scopes.png"))));

        // What changed's step scope and the threshold are the tab's too, and the scope and pair
        // picked stay
        variants->pairA()->setCurrentIndex(1);
        window.diffView()->stepView()->setStepScope(StepBreakdownOptions::wholeRun());
        window.panel()->setThreshold(0.5);
        for (const StepBreakdown &candidate : variants->steps()->comparisons()) {
            QCOMPARE(candidate.options().stepScope, StepBreakdownOptions::wholeRun());
            QCOMPARE(candidate.options().threshold, 0.5);
        }
        for (const KernelDiff &candidate : variants->diff()->diffs())
            QCOMPARE(candidate.options().threshold, 0.5);
        QCOMPARE(variants->scopeBox()->currentText(), QStringLiteral("mlp"));
        QCOMPARE(variants->pairA()->currentIndex(), 1);
        window.panel()->setThreshold(0.01);

        // any two variants in the pair views: the two candidates
        variants->pairB()->setCurrentIndex(2);
        QPushButton *open = nullptr;
        for (QPushButton *button : variants->findChildren<QPushButton *>())
            if (button->text().contains(QLatin1String("Compare")))
                open = button;
        QVERIFY(open);
        open->click();
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.document()->state().pathA, variants->paths()[1]);
        QCOMPARE(window.document()->state().pathB, variants->paths()[2]);
        QVERIFY(window.tabs()->isTabVisible(3)); // the variants stay
        // a report and a session carry them
        QTemporaryDir dir;
        QVERIFY(window.exportReport(dir.filePath(QStringLiteral("report"))));
        QFile csv(dir.filePath(QStringLiteral("report/variants_steps.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(csv.readAll()), variants->steps()->toCsv());
        QCOMPARE(QImage(dir.filePath(QStringLiteral("report/variants.png"))).size(),
                 ReportCharts::chartSize());
        // the pair is named by its labels, and said to be judged as a pair, as the status bar says
        QFile index(dir.filePath(QStringLiteral("report/index.html")));
        QVERIFY(index.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(index.readAll());
        const QString pair = QStringLiteral("%1 vs %2").arg(variants->labels()[1], variants->labels()[2]);
        QVERIFY2(html.contains(pair) && html.contains(QLatin1String("as a pair")),
                 qPrintable(html.left(3000)));
        const QString session = dir.filePath(QStringLiteral("variants.scopeline.json"));
        QVERIFY(window.saveSession(session));
        // a pair of its own replaces the variants once it has loaded; one that fails takes nothing
        window.openNewPair(QStringLiteral("/nonexistent/traces"), kEinsum);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QVERIFY(!window.bannerText().isEmpty());
        QVERIFY(window.tabs()->isTabVisible(3));
        QCOMPARE(variants->labels().size(), 3);
        window.openNewPair(kMatmul, kEinsum);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QVERIFY(!window.tabs()->isTabVisible(3));
        QVERIFY(window.openSession(session));
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QVERIFY(window.tabs()->isTabVisible(3));
        QCOMPARE(variants->labels().size(), 3);
        QCOMPARE(window.document()->state().pathA, variants->paths()[1]); // the pair shown when saved
        QCOMPARE(window.document()->state().pathB, variants->paths()[2]);
    }

    // Long variant names under the bars at 1366×768: each fitted to its bar's width (they ran into
    // one another), shortened in the middle so that both ends still tell them apart.
    // Jobs of several GPUs as variants: the Variants tab's Ranks sub-tab has each candidate's ranks
    // against the baseline's, judged together, as `ranks A B C` has them (its CSV, from another
    // process, is the window's report's byte for byte), and the Ranks tab's pair.
    void variantRanksTab()
    {
        QTemporaryDir dir(testdata::scratchDir());
        QStringList arguments, paths;
        for (const char *side : {"A", "B", "C"}) {
            paths << dir.filePath(QLatin1String(side));
            QVERIFY(testdata::rankRuns(paths.back(), 2));
            arguments << QLatin1String(side) + QLatin1Char('=') + paths.back();
        }
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        window.openVariants(arguments);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 120000));
        VariantsView *variants = window.variantsView();
        QVERIFY(variants->ranks());
        QTabWidget *figures = figureTabs(variants);
        QVERIFY(figures->isTabVisible(figures->indexOf(variants->rankTable())));
        const QAbstractItemModel *model = variants->rankTable()->model();
        QCOMPARE(model->rowCount(), 2 * 10); // B and C: the mean over ranks, the slowest rank, 8 ranks
        QCOMPARE(model->index(0, 0).data().toString(), QStringLiteral("B"));
        QCOMPARE(model->index(10, 0).data().toString(), QStringLiteral("C"));
        QCOMPARE(model->index(10, 1).data().toString(), QStringLiteral("mean over ranks"));
        figures->setCurrentWidget(variants->rankTable());
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_variant_ranks.png"))));

        const QString csv = dir.filePath(QStringLiteral("comparison.csv"));
        const ProcessResult cli =
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("ranks"), paths[0], paths[1], paths[2],
                                                       QStringLiteral("--comparison-csv"), csv});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        const QString report = dir.filePath(QStringLiteral("report"));
        QVERIFY(window.exportReport(report));
        const auto read = [](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QByteArray expected = read(csv);
        QVERIFY(expected.count('\n') == 1 + 2 * 10);
        QCOMPARE(read(QDir(report).filePath(QStringLiteral("variants_ranks_comparison.csv"))), expected);
    }

    void variantNamesFitUnderTheirBars()
    {
        const QString jax = testdata::path("jax_h100");
        const QStringList labels = {QStringLiteral("baseline_xla_default_flags_on_h100"),
                                    QStringLiteral("candidate_with_xla_gpu_enable_triton_gemm"),
                                    QStringLiteral("candidate_with_latency_hiding_scheduler")};
        const QStringList folders = {QStringLiteral("/jax_command_buffers/trace_file_matmul_*"),
                                     QStringLiteral("/jax_named_scopes/trace_file_matmul_*"),
                                     QStringLiteral("/jax_named_scopes_cublas/trace_file_matmul_*")};
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        window.openVariants({labels[0] + u'=' + jax + folders[0], labels[1] + u'=' + jax + folders[1],
                             labels[2] + u'=' + jax + folders[2]});
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QTest::qWait(100); // laid out
        QCustomPlot *plot = window.variantsView()->bars()->plot();
        const auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().size(), 3);
        const QFontMetrics metrics(plot->xAxis->tickLabelFont());
        // too long for their slots, the names take two lines, each twice a slot: no two run together
        const int slot = plot->axisRect()->width() / 3;
        for (int i = 0; i < 3; ++i) {
            QString shown = ticker->ticks().value(double(i));
            QCOMPARE(shown.startsWith(QLatin1Char('\n')), i % 2 == 1);
            shown = shown.trimmed();
            QVERIFY2(metrics.horizontalAdvance(shown) < 2 * slot, qPrintable(shown));
            QVERIFY2(shown == labels[i] || shown.contains(QChar(0x2026)),
                     qPrintable(shown)); // whole or shortened
            QVERIFY2(labels[i].startsWith(shown.section(QChar(0x2026), 0, 0)) &&
                         labels[i].endsWith(shown.section(QChar(0x2026), 1)),
                     qPrintable(shown));
        }
        // the kernel matrix beside them: as many kernels as have room for their names, and the
        // candidates' names fitted to their columns
        KernelMatrix *matrix = window.variantsView()->matrix();
        qobject_cast<QTabWidget *>(matrix->parentWidget()->parentWidget())->setCurrentWidget(matrix);
        QTest::qWait(200);
        const int rows = matrix->map()->data()->valueSize();
        const int lineHeight = QFontMetrics(matrix->plot()->yAxis->tickLabelFont()).height();
        QVERIFY2(rows >= 8 && rows * lineHeight <= matrix->plot()->axisRect()->height(),
                 qPrintable(QString::number(rows)));
        QCOMPARE(matrix->plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks().size(), rows);
        const auto columns = matrix->plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QCOMPARE(columns->ticks().size(), 2);
        for (int c = 0; c < 2; ++c)
            QVERIFY(QFontMetrics(matrix->plot()->xAxis->tickLabelFont())
                        .horizontalAdvance(columns->ticks().value(c).trimmed()) <
                    matrix->plot()->axisRect()->width());

        // wide enough, a name is shown whole
        window.resize(3200, 1000);
        QTest::qWait(200);
        QCOMPARE(ticker.data() == plot->xAxis->ticker().data(), false);
        QCOMPARE(plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks().value(0.0), labels[0]);
    }

    // Variants whose labels are numbers are a sweep: the step and its parts drawn as lines over the
    // parameter, each point the model's mean, the candidates' whiskers at their intervals, in whatever
    // order the variants were given.
    // The Scopes figure's verdicts take the threshold as the other views do: mlp of einsum against
    // matmul changes by about +0.8 %, no meaningful change at 1 % and B slower at 0.5 %.
    void variantScopesTakeTheThreshold()
    {
        const QString jax = testdata::path("jax_h100/jax_named_scopes");
        const QString cublas = testdata::path("jax_h100/jax_named_scopes_cublas");
        REQUIRE_TEST_DATA(jax, cublas);
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        window.openVariants({QStringLiteral("mm=") + jax + QStringLiteral("/trace_file_matmul_*"),
                             QStringLiteral("es=") + jax + QStringLiteral("/trace_file_einsum_*"),
                             QStringLiteral("cub=") + cublas + QStringLiteral("/trace_file_matmul_*")});
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        VariantsView *variants = window.variantsView();
        window.panel()->setSampleMode(SampleMode::Kernel); // not the spans the step scope opened on
        variants->scopeBox()->setCurrentIndex(variants->scopeBox()->findText(QStringLiteral("mlp")));
        QVERIFY(variants->scopes());
        window.panel()->setThreshold(0.005);
        int differs = 0;
        for (const std::vector<ComparisonRow> &rows : variants->scopes()->rows())
            for (const ComparisonRow &row : rows)
                if (row.verdictRow) {
                    differs += row.verdictText(0.05, 0.005) != row.verdictText(0.05, 0.01);
                    QVERIFY2(variants->scopeNote().contains(row.verdictText(0.05, 0.005)),
                             qPrintable(variants->scopeNote()));
                    // beside it, the interval it was decided from, at its Holm level, and what it could
                    // not measure
                    QVERIFY(row.hasRunLevel() && !row.caveat.isEmpty());
                    QVERIFY2(variants->scopeNote().contains(
                                 formatChangeInterval(row.runLevel.change, row.runLevel.ciLow,
                                                      row.runLevel.ciHigh) +
                                 QStringLiteral(" (%1 % interval); ")
                                     .arg(QString::number(100 * row.runLevel.confidence, 'g', 4)) +
                                 row.caveat),
                             qPrintable(variants->scopeNote()));
                }
        QVERIFY(differs > 0); // the threshold decides a verdict here
    }

    // Five variants at 1366×768 (a line each, wrapped to two): their lines scroll past a quarter of the
    // tab, where they had taken eight lines and left the chart 90 px.
    void variantLinesLeaveTheChartRoom()
    {
        const QString runs = testdata::path("jax_h100/repeated_runs/trace_file_matmul_");
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QStringList sides;
        for (int i = 0; i < 5; ++i)
            sides << QStringLiteral("%1=%2[%3%4]").arg(64 << i).arg(runs).arg(2 * i).arg(2 * i + 1);
        window.openVariants(sides);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        window.tabs()->setCurrentWidget(window.variantsView());
        settle(window);
        const VariantsView *view = window.variantsView();
        const QScrollArea *lead = view->leadArea();
        QVERIFY2(lead->height() <= view->height() / 4 && lead->verticalScrollBar()->maximum() > 0,
                 qPrintable(QStringLiteral("%1 px of %2").arg(lead->height()).arg(view->height())));
        const QCustomPlot *plot = view->bars()->plot();
        QVERIFY2(plot->height() >= view->height() / 3,
                 qPrintable(QStringLiteral("chart %1 px of %2").arg(plot->height()).arg(view->height())));
    }

    // Two ranks whose kernels never overlap on one clock (HTA's rank 0 of 2 and rank 1 of 2, recorded
    // apart): each lane from its own first kernel, where both had been slivers of a 1.6e9 s axis; each
    // lane's shares over the axis are its whole busy time, as on a shared clock.
    void rankLanesOnTheirOwnClocks()
    {
        QTemporaryDir dir;
        const QString job = dir.filePath(QStringLiteral("job"));
        QVERIFY(QDir().mkpath(job));
        for (const char *file : {"tests__data__nccl_parser_config__nccl_data.json.gz",
                                 "tests__data__df_index_resolver__df_index_resolver.json.gz"})
            QVERIFY(QFile::copy(
                testdata::path(QStringLiteral("public/HolisticTraceAnalysis/") + QLatin1String(file)),
                QDir(job).filePath(QLatin1String(file))));
        const QList<LoadedRun> ranks = LoadedRun::loadAll(TraceFolder::scan(job));
        QCOMPARE(ranks.size(), 2);
        QCOMPARE(ranks[0].run.name, ranks[1].run.name); // one run of two ranks
        RankOverview overview;
        overview.setRanks({ranks[0].summary.get(), ranks[1].summary.get()},
                          {QStringLiteral("rank 0"), QStringLiteral("rank 1")});
        QVERIFY(overview.ownClocks());
        int64_t longest = 0;
        for (int lane = 0; lane < 2; ++lane) {
            const RunSummary &summary = *ranks[lane].summary;
            longest = std::max(longest, summary.spanNs());
            const BusyShares shares = overview.shares(lane, overview.start(), overview.end());
            QCOMPARE(shares.compute + shares.exposedComm, summary.busyNs());
        }
        QCOMPARE(overview.end() - overview.start(), longest);
        // ranks of one host share a clock: not their own
        const QList<LoadedRun> dlrm = LoadedRun::loadAll(TraceFolder::scan(testdata::dlrmRun()));
        overview.setRanks({dlrm[0].summary.get(), dlrm[1].summary.get()},
                          {QStringLiteral("0"), QStringLiteral("1")});
        QVERIFY(!overview.ownClocks());
    }

    // A sweep over decades is drawn on a log axis, and a point without steps (rocprof's matmul has no
    // ProfilerStep, asked for: by default it makes the whole run the step) leaves a gap in every line:
    // its parts were drawn at 0.
    void variantSweepOverDecades()
    {
        const QString rocm = testdata::path(
            "public/rocmProfileData/examples__rocm-profile-data__results__matmul_result.json.gz");
        const QString torch = testdata::path("h100_runs/torch_processes");
        REQUIRE_TEST_DATA(rocm, torch);
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        window.openVariants({QStringLiteral("K=1=") + rocm,
                             QStringLiteral("K=10=") + torch + QStringLiteral("/proc_0"),
                             QStringLiteral("K=100=") + torch + QStringLiteral("/proc_1")});
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.variantsView()->steps()->comparisons().front().stepScope(), QString());
        window.variantsView()->setSettings(QStringLiteral("ProfilerStep"), 0.01, MatchMode::Component,
                                           SampleMode::Kernel);
        const VariantBars *bars = window.variantsView()->bars();
        QCustomPlot *plot = bars->plot();
        QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(plot->xAxis->range().lower > 0);
        for (int part = 0; part <= int(bars->parts().size()); ++part) { // the parts, then the step
            QCPGraph *line = plot->graph(part);
            QCOMPARE(line->data()->at(0)->key, 1.0);
            QVERIFY2(std::isnan(line->data()->at(0)->value), qPrintable(line->name()));
            QVERIFY(line->data()->at(1)->value > 0 || part < int(bars->parts().size()));
        }
        // on a laptop's screen the legend gives the lines room: it had taken two thirds of the plot
        window.tabs()->setCurrentWidget(window.variantsView());
        settle(window);
        plot->replot();
        qInfo("sweep plot %d px, its lines %d px", plot->height(), plot->axisRect()->height());
        QVERIFY2(
            plot->axisRect()->height() >= plot->height() / 2,
            qPrintable(QStringLiteral("%1 of %2 px").arg(plot->axisRect()->height()).arg(plot->height())));
    }

    // A sweep given out of order: its tables and the pair shown beside them follow the parameter, the
    // baseline first (the pair had been the first candidate given while its picker named another).
    void sweepInTheParametersOrder()
    {
        const QString torch = testdata::path("h100_runs/torch_processes");
        REQUIRE_TEST_DATA(torch);
        MainWindow window;
        window.openVariants({QStringLiteral("bs=128=") + torch + QStringLiteral("/proc_0"),
                             QStringLiteral("bs=1024=") + torch + QStringLiteral("/proc_3"),
                             QStringLiteral("bs=8=") + torch + QStringLiteral("/proc_1")});
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.variantsView()->labels(),
                 (QStringList{QStringLiteral("bs=128"), QStringLiteral("bs=8"), QStringLiteral("bs=1024")}));
        QVERIFY2(window.runsB().front().run.file.contains(QLatin1String("/proc_1/")),
                 qPrintable(window.runsB().front().run.file));
    }

    // Each candidate's step interval is one whisker from its low end to its high end, over the bars: its
    // anchor draws no symbol, and QCustomPlot's gap around a symbol (10 px) had cut it in two where it
    // crossed the top of the stack (no_triton's [250, 650] µs read as 250–430 and 470–650).
    void variantWhiskersAreWhole()
    {
        MainWindow window;
        QVERIFY(openNamedFlagSets(window));
        window.tabs()->setCurrentWidget(window.variantsView());
        QCustomPlot *plot = window.variantsView()->bars()->plot();
        plot->replot();
        QCPErrorBars *errors = nullptr;
        for (int i = 0; i < plot->plottableCount(); ++i)
            if (auto *e = qobject_cast<QCPErrorBars *>(plot->plottable(i)))
                errors = e;
        QVERIFY(errors);
        const QImage image = plot->grab().toImage();
        auto *anchor = qobject_cast<QCPGraph *>(errors->dataPlottable());
        QVERIFY(anchor);
        int drawn = 0;
        for (int i = 0; i < anchor->dataCount(); ++i) {
            const QCPErrorBarsData bar = errors->data()->at(i);
            if (std::isnan(bar.errorMinus))
                continue; // the baseline
            const double key = anchor->data()->at(i)->key, value = anchor->data()->at(i)->value;
            const int x = qRound(plot->xAxis->coordToPixel(key));
            const int top = qRound(plot->yAxis->coordToPixel(value + bar.errorPlus));
            const int bottom = qRound(plot->yAxis->coordToPixel(value - bar.errorMinus));
            QVERIFY2(bottom - top > 30, qPrintable(QString::number(bottom - top)));
            // A whisker row: darker than the same row 6 px aside (background or the same bar); a bar's
            // edge may hide it for a row or two.
            int missing = 0;
            for (int y = top + 3; y <= bottom - 3; ++y) {
                int darkest = 255;
                for (int dx = -1; dx <= 1; ++dx)
                    darkest = std::min(darkest, qGray(image.pixel(x + dx, y)));
                missing += darkest > qGray(image.pixel(x - 6, y)) - 30;
            }
            QVERIFY2(missing <= 2,
                     qPrintable(QStringLiteral("variant %1: %2 of the whisker's %3 px not drawn")
                                    .arg(i)
                                    .arg(missing)
                                    .arg(bottom - top)));
            ++drawn;
        }
        QCOMPARE(drawn, 2);
    }

    // With busy split into compute and exposed communication (runs of 8 GPUs) the bars' legend has five
    // entries: at 1366 x 768 as many a row as show whole ("Busy: exposed communicatic" was cut, three a row).
    void variantLegendNamesAreWhole()
    {
        QTemporaryDir dir(testdata::scratchDir());
        QStringList variants;
        for (const QString &name : {QStringLiteral("base"), QStringLiteral("slow"), QStringLiteral("same")}) {
            QVERIFY(testdata::rankRuns(dir.filePath(name), 1));
            variants << name + u'=' + dir.filePath(name);
        }
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        window.openVariants(variants);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        window.tabs()->setCurrentWidget(window.variantsView());
        QCustomPlot *plot = window.variantsView()->bars()->plot();
        plot->replot();
        plot->replot(); // the legend's columns are fitted to the width the first laid out
        QCPLegend *legend = plot->legend;
        QStringList names;
        for (int i = 0; i < legend->itemCount(); ++i) {
            auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
            if (!item)
                continue; // a row's empty cell
            names << item->plottable()->name();
            const int needed = static_cast<QCPLayoutElement *>(item)->minimumOuterSizeHint().width();
            QVERIFY2(item->outerRect().width() >= needed, qPrintable(QStringLiteral("%1: %2 of %3 px")
                                                                         .arg(item->plottable()->name())
                                                                         .arg(item->outerRect().width())
                                                                         .arg(needed)));
        }
        QVERIFY2(names.contains(QStringLiteral("Busy: exposed communication")), qPrintable(names.join(u',')));
    }

    // The pair of variants the timelines show is named by the variants' labels, as the Variants tab and
    // the pair pickers name them (the titles had read the paths: "A — …/jax_command_buffers/trace_…_*").
    void variantPairTimelinesNamedByLabels()
    {
        MainWindow window;
        QVERIFY(openNamedFlagSets(window));
        QStringList titles;
        for (const QLabel *label : window.timeline()->findChildren<QLabel *>())
            if (label->text().startsWith(u"A — ") || label->text().startsWith(u"B — "))
                titles << label->text();
        titles.sort();
        QCOMPARE(titles, (QStringList{QStringLiteral("A — buffers"), QStringLiteral("B — no_buffers")}));
    }

    // A pair given as LABEL=PATH is named by its labels wherever the window names its sides (timelines,
    // legends, the report), swapped with them and kept in a session: they had been dropped for the
    // paths.
    void pairNamedByItsLabels()
    {
        const auto titles = [](const MainWindow &window) {
            QStringList titles;
            for (const QLabel *label : window.timeline()->findChildren<QLabel *>())
                if (label->text().startsWith(u"A — ") || label->text().startsWith(u"B — "))
                    titles << label->text();
            titles.sort();
            return titles;
        };
        const auto legendNames = [](const MainWindow &window) {
            QStringList names;
            for (const QCustomPlot *plot : window.findChildren<QCustomPlot *>())
                for (int i = 0; plot->legend && i < plot->legend->itemCount(); ++i)
                    if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot->legend->item(i)))
                        names << item->plottable()->name();
            return names;
        };
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("named.scopeline.json"));
        {
            MainWindow window;
            window.resize(1400, 900);
            window.show();
            window.openVariants({QStringLiteral("mm=") + kMatmul, QStringLiteral("es=") + kEinsum});
            QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
            QCOMPARE(window.runsA().size(), 3);
            QCOMPARE(titles(window), (QStringList{QStringLiteral("A — mm"), QStringLiteral("B — es")}));
            window.tabs()->setCurrentWidget(window.panel());
            QVERIFY2(legendNames(window).contains(QStringLiteral("B: es")),
                     qPrintable(legendNames(window).join(u", ")));
            QTest::keyClick(&window, Qt::Key_X, Qt::ControlModifier | Qt::ShiftModifier);
            QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
            QCOMPARE(titles(window), (QStringList{QStringLiteral("A — es"), QStringLiteral("B — mm")}));
            QVERIFY(window.exportReport(dir.filePath(QStringLiteral("report"))));
            QFile index(dir.filePath(QStringLiteral("report/index.html")));
            QVERIFY(index.open(QIODevice::ReadOnly));
            QVERIFY(QString::fromUtf8(index.readAll())
                        .contains(QStringLiteral("(baseline): es (%1)</p>").arg(kEinsum)));
            QVERIFY(window.saveSession(session));
        }
        MainWindow reopened;
        QVERIFY(reopened.openSession(session));
        QVERIFY(QTest::qWaitFor([&reopened] { return !reopened.isLoading(); }, 60000));
        QCOMPARE(titles(reopened), (QStringList{QStringLiteral("A — es"), QStringLiteral("B — mm")}));
        // a pair opened by its paths is named by them again
        QVERIFY(openAndWait(reopened, kMatmul, kEinsum));
        QVERIFY(!titles(reopened).contains(QStringLiteral("A — es")));
    }

    // Tools › Clear Kept Summaries empties the summary cache and says what it removed.
    void clearKeptSummaries()
    {
        QTemporaryDir cache;
        for (const char *name : {"a.slsum", "b.slsum"}) {
            QFile file(cache.filePath(QLatin1String(name)));
            QVERIFY(file.open(QIODevice::WriteOnly));
            QVERIFY(file.write(QByteArray(500000, 'x')) == 500000);
        }
        const QByteArray before = qgetenv("SCOPELINE_SUMMARY_CACHE");
        qputenv("SCOPELINE_SUMMARY_CACHE", QFile::encodeName(cache.path()));
        const auto restore = qScopeGuard([before] { qputenv("SCOPELINE_SUMMARY_CACHE", before); });
        MainWindow window;
        QAction *clear = nullptr;
        for (QAction *action : window.findChildren<QAction *>())
            if (action->text() == QLatin1String("&Clear Kept Summaries"))
                clear = action;
        QVERIFY(clear);
        QVERIFY(clear->toolTip().contains(cache.path()));
        clear->trigger();
        QVERIFY2(window.statusText().contains(QLatin1String(": 2 (1.0 MB)")),
                 qPrintable(window.statusText()));
        QVERIFY(QDir(cache.path()).entryList(QDir::Files).isEmpty());
        qputenv("SCOPELINE_SUMMARY_CACHE", "off");
        clear->trigger();
        QVERIFY2(window.statusText().contains(QLatin1String("SCOPELINE_SUMMARY_CACHE=off")),
                 qPrintable(window.statusText()));
    }

    void variantSweepDrawsLines_data()
    {
        QTest::addColumn<QList<int>>("parameters");
        QTest::newRow("ascending") << QList<int>{5, 10, 15};
        QTest::newRow("baseline last, then out of order") << QList<int>{15, 5, 10};
    }

    // A sweep by a constant factor (1, 2, 4: batch or block sizes) on a log axis ticked at its points,
    // where they spread evenly (on a linear axis 1 and 2 sat together at the left).
    void sweepByAFactorIsLogarithmic()
    {
        const QStringList arguments =
            xlaFlagSets({QStringLiteral("1="), QStringLiteral("2="), QStringLiteral("4=")});
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        window.openVariants(arguments);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCustomPlot *plot = window.variantsView()->bars()->plot();
        QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
        auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().keys(), QList<double>({1, 2, 4}));
        QCOMPARE(ticker->ticks().values(),
                 QStringList({QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("4")}));
        QVERIFY(plot->xAxis->range().contains(1) && plot->xAxis->range().contains(4));
    }

    void variantSweepDrawsLines()
    {
        QFETCH(QList<int>, parameters);
        QStringList labels;
        for (int i = 0; i < 3; ++i)
            labels << QStringLiteral("K=%1=").arg(parameters[i]);
        const QStringList arguments = xlaFlagSets(labels);
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        window.openVariants(arguments);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        const VariantBars *bars = window.variantsView()->bars();
        QCustomPlot *plot = bars->plot();
        // the parts, the step, and the top 3 kernels on the right axis
        QCOMPARE(plot->graphCount(), int(bars->parts().size()) + 1 + 3);
        QCPGraph *step = plot->graph(int(bars->parts().size()));
        QCOMPARE(bars->kernels().size(), 3);
        const VariantDiff *diff = window.variantsView()->diff();
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(bars->kernels()[k], diff->rows()[std::size_t(k)].kernel);
            const std::vector<double> times = bars->kernelValues(k);
            QCOMPARE(times.front(), diff->rows()[std::size_t(k)].baselinePerRunNs);
            QCPGraph *line = plot->graph(int(bars->parts().size()) + 1 + k);
            QCOMPARE(line->valueAxis(), plot->yAxis2);
            QCOMPARE(line->dataCount(), 3);
            // its name in the legend whole in its column (two a row, three on a short plot), no shorter
            // than it needs to be: cut only where a few more characters would not fit
            auto *item = qobject_cast<QCPPlottableLegendItem *>(plot->legend->itemWithPlottable(line));
            QVERIFY(item);
            const QFontMetrics metrics(plot->legend->font());
            const int column = plot->width() / plot->legend->wrap() - 24 - plot->legend->iconSize().width();
            QVERIFY(plot->legend->wrap() == 2 || plot->legend->wrap() == 3);
            QVERIFY2(metrics.horizontalAdvance(line->name()) <= column, qPrintable(line->name()));
            QVERIFY2(line->name() == shortKernelName(bars->kernels()[k]) ||
                         metrics.horizontalAdvance(line->name()) + 4 * metrics.averageCharWidth() > column,
                     qPrintable(line->name()));
        }
        QCOMPARE(step->dataCount(), 3);
        QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLinear); // 5, 10, 15: evenly apart as they are
        // ticked at the points themselves, not at 7.5 and 12.5 between them
        const auto ticks = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticks);
        QCOMPARE(ticks->ticks().keys(), (QList<double>{5, 10, 15}));
        QCOMPARE(ticks->ticks().values(),
                 (QStringList{QStringLiteral("5"), QStringLiteral("10"), QStringLiteral("15")}));
        const std::vector<double> means = bars->values(StepPart::Step);
        QCPErrorBars *whiskers = nullptr;
        for (int p = 0; p < plot->plottableCount(); ++p)
            if (auto *errors = qobject_cast<QCPErrorBars *>(plot->plottable(p));
                errors && errors->dataPlottable() == step)
                whiskers = errors;
        QVERIFY(whiskers);
        QCOMPARE(whiskers->dataCount(), 3);
        const std::vector<StepBreakdown> &candidates = window.variantsView()->steps()->comparisons();
        for (int point = 0; point < 3; ++point) {                   // the plot's points by K: 5, 10, 15
            const int i = int(parameters.indexOf(5 * (point + 1))); // the variant drawn there
            QCOMPARE(step->data()->at(point)->key, 5.0 * (point + 1));
            QVERIFY(std::fabs(step->data()->at(point)->value - means[std::size_t(i)] / 1e3) < 1e-6); // in µs
            // the baseline has no whisker; a candidate's spans the interval printed beside its verdict,
            // Fieller's of its ratio to the baseline, on the baseline's mean
            const double plus = whiskers->data()->at(point).errorPlus,
                         minus = whiskers->data()->at(point).errorMinus;
            if (i == 0) {
                QVERIFY(std::isnan(plus));
            } else {
                const double baseline = candidates[std::size_t(i - 1)].row(StepPart::Step).meanA;
                const stats::RatioInterval ratio = window.variantsView()->steps()->stepRatio(i - 1);
                QVERIFY(ratio.bounded());
                QVERIFY2(std::fabs(plus - (ratio.high * baseline - means[std::size_t(i)]) / 1e3) < 1e-6,
                         qPrintable(QString::number(plus)));
                QVERIFY2(std::fabs(minus - (means[std::size_t(i)] - std::max(0.0, ratio.low) * baseline) /
                                               1e3) < 1e-6,
                         qPrintable(QString::number(minus)));
            }
        }
        QVERIFY(plot->xAxis->range().lower < 5 && plot->xAxis->range().upper > 15);
        QCOMPARE(plot->xAxis->label(), QStringLiteral("K"));
        // neighbours compared: the jump said above the figures
        const Sweep *sweep = window.variantsView()->sweep();
        QVERIFY(sweep);
        if (parameters.front() == 5) {
            QCOMPARE(sweep->jump(), 0);
            QVERIFY(
                window.variantsView()->leadText().contains(QStringLiteral("the jump is K 5 → 10: step +")));
        }
        // A setting changed builds new comparisons: the lines are drawn from the new kernel diff, never
        // from the one it replaced (read after it was freed, before both were set at once)
        window.panel()->setThreshold(window.panel()->threshold() * 2);
        QVERIFY(window.variantsView()->diff() != diff);
        for (int k = 0; k < 3; ++k)
            QCOMPARE(bars->kernelValues(k).front(),
                     window.variantsView()->diff()->rows()[std::size_t(k)].baselinePerRunNs);
        QTest::qWait(100);
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_variants_sweep.png"))));
    }

    // On a small screen one pane can take the window: the figures, or the timelines; again restores both.
    void panesMaximise()
    {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        QAction *figures = nullptr, *timelines = nullptr;
        for (QAction *action : window.findChildren<QAction *>()) {
            if (action->text() == QLatin1String("Maximise &Figures"))
                figures = action;
            if (action->text() == QLatin1String("Maximise &Timelines"))
                timelines = action;
        }
        QVERIFY(figures && timelines);
        QCOMPARE(figures->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
        const int tabsHeight = window.tabs()->height();
        figures->trigger();
        QApplication::processEvents();
        QVERIFY(!window.timeline()->isVisible() && window.tabs()->isVisible());
        QVERIFY2(window.tabs()->height() > tabsHeight + 100,
                 qPrintable(QString::number(window.tabs()->height())));
        QTest::qWait(100);
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_maximised_figures.png"))));
        timelines->trigger(); // the other pane instead, not none
        QApplication::processEvents();
        QVERIFY(window.timeline()->isVisible() && !window.tabs()->isVisible());
        QVERIFY(!figures->isChecked());
        timelines->trigger();
        QApplication::processEvents();
        QVERIFY(window.timeline()->isVisible() && window.tabs()->isVisible());

        // a double-click on a pane's title does the same: a tab for the figures, a side's title bar
        // for the timelines
        QTabBar *tabBar = window.tabs()->tabBar();
        QTest::mouseDClick(tabBar, Qt::LeftButton, Qt::NoModifier, tabBar->tabRect(0).center());
        QApplication::processEvents();
        QVERIFY(!window.timeline()->isVisible() && figures->isChecked());
        QTest::mouseDClick(tabBar, Qt::LeftButton, Qt::NoModifier, tabBar->tabRect(1).center());
        QApplication::processEvents();
        QVERIFY(window.timeline()->isVisible() && window.tabs()->isVisible());
        QWidget *titleBar = window.timeline()->findChild<QWidget *>(QStringLiteral("titleBar"));
        QVERIFY(titleBar);
        QTest::mouseDClick(titleBar, Qt::LeftButton, Qt::NoModifier, QPoint(10, titleBar->height() / 2));
        QApplication::processEvents();
        QVERIFY(window.timeline()->isVisible() && !window.tabs()->isVisible() && timelines->isChecked());
        QTest::mouseDClick(titleBar, Qt::LeftButton, Qt::NoModifier, QPoint(10, titleBar->height() / 2));
        QApplication::processEvents();
        QVERIFY(window.timeline()->isVisible() && window.tabs()->isVisible());
    }

    // One menu entry per sample pair of the table, each pair there on disk, the first the quick start.
    void samplesMenuIsTheTable()
    {
        qApp->setProperty("samplesFolder", kSamples);
        MainWindow window;
        const QList<SamplePair> pairs = samplePairs(kSamples);
        QVERIFY(pairs.size() >= 2);
        // the quick start: the launch-chain pair, 5 runs a side, whose comparison has a verdict
        QCOMPARE(pairs.front().state.pathA, kSamples + QStringLiteral("/hipbench_launch_chain/eager"));
        QCOMPARE(pairs.front().state.scopes, QStringList{QStringLiteral("chain")});
        QCOMPARE(pairs.back().state.pathA, kMatmul);
        QCOMPARE(pairs.back().state.scopes, kScopes);
        QMenu *menu = nullptr;
        for (QMenu *candidate : window.findChildren<QMenu *>())
            if (candidate->title() == QLatin1String("&Samples"))
                menu = candidate;
        QVERIFY(menu && menu->isEnabled());
        QCOMPARE(menu->actions().size(), pairs.size());
        for (int i = 0; i < pairs.size(); ++i) {
            QCOMPARE(menu->actions()[i]->text(), pairs[i].title);
            REQUIRE_TEST_DATA(pairs[i].state.pathA, pairs[i].state.pathB);
        }
        qApp->setProperty("samplesFolder", QString());
        MainWindow without; // no samples folder: the menu is there, disabled
        for (QMenu *candidate : without.findChildren<QMenu *>())
            if (candidate->title() == QLatin1String("&Samples"))
                QVERIFY(!candidate->isEnabled());
    }

    // The help is made from the actions: each one with a shortcut is in it, with its text.
    void shortcutHelpListsEveryAction()
    {
        MainWindow window;
        const QString help = window.shortcutHelp();
        int withShortcut = 0;
        for (const QAction *action : window.findChildren<QAction *>()) {
            if (action->shortcut().isEmpty())
                continue;
            ++withShortcut;
            const QString keys = action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped();
            QString text = action->text();
            text.remove(QLatin1Char('&'));
            text.remove(QStringLiteral("…"));
            QVERIFY2(help.contains(QStringLiteral("<b>%1").arg(keys)), qPrintable(keys));
            QVERIFY2(help.contains(QStringLiteral("</td><td>%1</td>").arg(text.toHtmlEscaped())),
                     qPrintable(text));
        }
        QVERIFY(withShortcut >= 15); // the menus, the panel's and the views' own
        for (const char *expected : {"Ctrl+O", "Ctrl+Shift+X", "Esc", "Ctrl+K", "Ctrl+F", "Ctrl+L", "Ctrl+P"})
            QVERIFY2(help.contains(QLatin1String(expected)), expected);
        QVERIFY(help.contains(QLatin1String("Swap A and B")));
        // the help box shows it
        QString shown;
        QTimer poll;
        poll.setInterval(10);
        connect(&poll, &QTimer::timeout, &window, [&shown, &poll] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                shown = box->text();
                poll.stop();
                box->accept();
            }
        });
        poll.start();
        for (QAction *action : window.findChildren<QAction *>())
            if (action->text() == QLatin1String("&Keyboard Shortcuts"))
                action->trigger();
        QCOMPARE(shown, help);
    }

    void trailingSlashesNameTheSides()
    {
        MainWindow window;
        QVERIFY(openAndWait(window, QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/eager/"),
                            QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/graph//")));
        QVERIFY2(window.windowTitle().startsWith(QLatin1String("eager vs graph")),
                 qPrintable(window.windowTitle()));
    }

    // Ctrl+2 opens Scopes with the focus in it, so that its own shortcuts work from the keyboard alone
    // (Ctrl+L had done nothing until a click in the panel); the menus show their actions' tooltips.
    void tabShortcutsTakeTheFocus()
    {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        window.timeline()->viewA()->setFocus(); // outside the tabs, as after a click on a timeline
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(window.timeline()->viewA()));
        const bool log = window.panel()->logScale();
        QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget *>(window.panel()));
        QWidget *focus = QApplication::focusWidget();
        QVERIFY(focus && (focus == window.panel() || window.panel()->isAncestorOf(focus)));
        QTest::keyClick(focus, Qt::Key_L, Qt::ControlModifier);
        QCOMPARE(window.panel()->logScale(), !log);
        const QList<QAction *> menus = window.menuBar()->actions();
        QVERIFY(menus.size() >= 5);
        for (const QAction *menu : menus)
            QVERIFY2(menu->menu() && menu->menu()->toolTipsVisible(), qPrintable(menu->text()));
    }

    void skippedEventsAreSaidInTheBanner()
    {
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.json")),
                      counters = dir.filePath(QStringLiteral("counters.json"));
        const QByteArray good = R"({"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":5,"dur":2})";
        for (const auto &[path, extra] :
             {std::pair{
                  broken,
                  QByteArray(R"({"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":"soon","dur":2})")},
              std::pair{counters, QByteArray(R"({"ph":"C","name":"mem","pid":1,"ts":5,"args":{"v":1}})")}}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("{\"traceEvents\":[" + extra + "," + good + "]}");
        }
        MainWindow window;
        QVERIFY(openAndWait(window, counters, counters));
        QCOMPARE(window.bannerText(), QString()); // counters are skipped by design, not broken
        QVERIFY(openAndWait(window, counters, broken));
        QVERIFY2(window.bannerText().contains(QLatin1String("B ") + broken) &&
                     window.bannerText().contains(QStringLiteral("1 × unreadable ts")),
                 qPrintable(window.bannerText()));
        QCOMPARE(window.runsB().size(), 1); // the rest is shown
        QCOMPARE(qint64(window.runsB().front().trace->eventCount()), qint64(1));
    }

    // What the folder scan noticed reaches the window, as the CLI prints it: a run folder without a
    // trace is named, not dropped unsaid. A run without GPU kernels is said beside the figures.
    void scanNotesAndRunsWithoutKernelsAreSaid()
    {
        QTemporaryDir dir;
        const QString side = dir.filePath(QStringLiteral("side"));
        for (int i = 0; i < 2; ++i)
            QVERIFY(QDir().mkpath(QStringLiteral("%1/run_%2").arg(side).arg(i)));
        QVERIFY(testdata::anotherRun(kEager + QStringLiteral("/run_0/trace.pt.trace.json.gz"),
                                     side + QStringLiteral("/run_0/trace.pt.trace.json.gz")));
        MainWindow window;
        QVERIFY(openAndWait(window, kEager, side));
        QCOMPARE(window.runsB().size(), 1);
        QVERIFY2(
            window.bannerText().contains(QStringLiteral("Found while looking for runs:\n%1: no trace "
                                                        "files in it, left out of the side")
                                             .arg(QDir::toNativeSeparators(side + QStringLiteral("/run_1")))),
            qPrintable(window.bannerText()));

        const QString cpuOnly = dir.filePath(QStringLiteral("cpu_only.json"));
        QFile out(cpuOnly);
        QVERIFY(out.open(QIODevice::WriteOnly) &&
                out.write(R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":2,)"
                          R"("ts":10,"dur":5}]})") > 0);
        out.close();
        QVERIFY(openAndWait(window, kEager, cpuOnly));
        QCOMPARE(window.bannerText(), QString());
        QVERIFY2(window.diffView()->caveatBanner()->text().contains(
                     QStringLiteral("B: %1: no GPU kernels in it").arg(cpuOnly)),
                 qPrintable(window.diffView()->caveatBanner()->text()));
    }

    void settingsPersist()
    {
        QList<int> sizes;
        {
            MainWindow window;
            window.resize(1400, 900);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.panel()->setThreshold(0.035);
            auto *splitter = window.findChild<QSplitter *>(QStringLiteral("mainSplitter"));
            QVERIFY(splitter);
            splitter->setSizes({300, 500});
            sizes = splitter->sizes();
            window.close();
        }
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.size(), QSize(1400, 900));
        QCOMPARE(again.panel()->threshold(), 0.035);
        QCOMPARE(again.findChild<QSplitter *>(QStringLiteral("mainSplitter"))->sizes(), sizes);
        again.close();
        QSettings().clear(); // the other tests start from the defaults
    }

    // A first pair whose B cannot be read: A is shown against itself under B's error, rather than an
    // empty window; Retry opens the pair. Where A is what failed, the window stays empty.
    void firstOpenShowsAWhereBFails()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString trace = testdata::path("h100_runs/torch_compile/eager/run_0/trace.pt.trace.json.gz");
        const QString cut = truncatedTrace(dir.path());
        QVERIFY(!cut.isEmpty());
        {
            MainWindow window;
            QVERIFY(openAndWait(window, kEager, cut));
            QVERIFY2(
                window.bannerText().contains(QStringLiteral("%1: the gzip data is truncated").arg(cut)) &&
                    window.bannerText().contains(QLatin1String("A is shown against itself")),
                qPrintable(window.bannerText()));
            QCOMPARE(window.runsA().size(), 5);
            QCOMPARE(window.runsB().size(), 5);
            QCOMPARE(window.runsB().front().run.file, window.runsA().front().run.file);
            QPushButton *retry = nullptr;
            for (QPushButton *button : window.findChildren<QPushButton *>())
                if (button->text() == QLatin1String("Retry"))
                    retry = button;
            QVERIFY(retry && retry->isVisibleTo(&window));
            QVERIFY(QFile::remove(cut) && QFile::copy(trace, cut));
            retry->click();
            QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
            QCOMPARE(window.bannerText(), QString());
            QCOMPARE(window.runsB().size(), 1);
            QCOMPARE(window.runsB().front().run.file, QFileInfo(cut).absoluteFilePath());
        }
        MainWindow window;
        const QString missing = dir.filePath(QStringLiteral("missing"));
        QVERIFY(openAndWait(window, missing, kEager));
        QVERIFY2(window.bannerText().contains(missing) &&
                     !window.bannerText().contains(QLatin1String("itself")),
                 qPrintable(window.bannerText()));
        QVERIFY(window.runsA().isEmpty());
    }

    void failedLoadKeepsTheDocument()
    {
        MainWindow window;
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        const QString shownStatus = window.statusText();
        QVERIFY(shownStatus.contains(QLatin1String("A: 3 run(s)")));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString missing = dir.filePath(QStringLiteral("being_written"));
        QVERIFY(openAndWait(window, missing, kEinsum));
        QVERIFY2(window.bannerText().contains(missing), qPrintable(window.bannerText()));
        QCOMPARE(window.runsA().size(), 3);
        QCOMPARE(window.runsA().front().run.name, QStringLiteral("trace_file_matmul_0"));
        // the status bar still speaks of the pair shown, and the banner offers the failed open again:
        // once the trace is there, Retry opens it
        QCOMPARE(window.statusText(), shownStatus);
        QPushButton *retry = nullptr;
        for (QPushButton *button : window.findChildren<QPushButton *>())
            if (button->text() == QLatin1String("Retry"))
                retry = button;
        QVERIFY(retry && retry->isVisibleTo(&window));
        const QString trace = window.runsA().front().run.file;
        QVERIFY(QDir().mkpath(missing));
        QVERIFY(QFile::copy(trace, QDir(missing).filePath(QFileInfo(trace).fileName())));
        retry->click();
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.bannerText(), QString());
        QCOMPARE(window.runsA().size(), 1);
        QVERIFY(!retry->isVisibleTo(&window));
        // another hard link to a trace shown changes its attributes, not the trace: no banner (a test
        // linking the job's files under ctest -j2 had put one over other tests' windows)
        const QString copied = window.runsA().front().run.file;
        QVERIFY(::link(QFile::encodeName(copied).constData(),
                       QFile::encodeName(copied + QStringLiteral(".linked")).constData()) == 0);
        QTest::qWait(300);
        QVERIFY2(window.bannerText().isEmpty(), qPrintable(window.bannerText()));
        // a trace rewritten on disk: the banner names it
        QFile rewritten(copied);
        QVERIFY(rewritten.open(QIODevice::Append));
        rewritten.write("\n");
        rewritten.close();
        QVERIFY2(QTest::qWaitFor(
                     [&] { return window.bannerText().contains(QDir::toNativeSeparators(copied)); }, 10000),
                 qPrintable(window.bannerText()));
    }

    // A trace that changes on disk while it loads is said to have changed once the pair is shown (its
    // stamp is taken as its load begins), as one that changes later is.
    void traceChangedWhileLoadingIsSaid()
    {
        const QString heavy = testdata::path(
            "public/HolisticTraceAnalysis/tests__data__df_index_resolver__df_index_resolver.json.gz");
        REQUIRE_TEST_DATA(heavy);
        QTemporaryDir dir(testdata::scratchDir());
        QStringList files;
        for (int r = 0; r < 4; ++r) {
            files << dir.filePath(QStringLiteral("run_%1.json.gz").arg(r));
            QVERIFY(QFile::copy(heavy, files.back()));
        }
        MainWindow window;
        auto *progress = window.findChild<QProgressBar *>();
        QVERIFY(progress);
        window.openPair(dir.path(), kEinsum);
        QVERIFY(QTest::qWaitFor([&] { return progress->value() > 0 || !window.isLoading(); }, 60000));
        QVERIFY2(window.isLoading(), "the load ended before the trace could be changed during it");
        QFile changed(files.front());
        QVERIFY(changed.open(QIODevice::ReadWrite));
        QVERIFY(changed.setFileTime(QDateTime::currentDateTime().addSecs(-3600),
                                    QFileDevice::FileModificationTime));
        changed.close();
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.runsA().size(), 4);
        QVERIFY2(window.bannerText().contains(QDir::toNativeSeparators(files.front()) +
                                              QStringLiteral(" changed on disk")),
                 qPrintable(window.bannerText()));
    }

    // What the scan found and did (a partial world opened) is a note, not an error: nothing was lost.
    void partialWorldIsANote()
    {
        QTemporaryDir dir(testdata::scratchDir());
        const QString partial = dir.filePath(QStringLiteral("ranks_4_7"));
        QVERIFY(QDir().mkpath(partial));
        for (const QString &file : QDir(testdata::dlrmRun()).entryList({QStringLiteral("worker[4-7]_*")}))
            QVERIFY(QFile::copy(QDir(testdata::dlrmRun()).filePath(file), QDir(partial).filePath(file)));
        QCOMPARE(QDir(partial).entryList(QDir::Files).size(), 4);
        MainWindow window;
        QVERIFY(openAndWait(window, partial, partial));
        QVERIFY2(window.bannerText().contains(QLatin1String("4 of 8 ranks of the job (a partial world)")),
                 qPrintable(window.bannerText()));
        QVERIFY(window.bannerIsNote());
    }

    // A run that cannot be read is left out and named; the other runs are compared.
    void unreadableRunIsLeftOut()
    {
        const QString eager = kSamples + QStringLiteral("/hipbench_launch_chain/eager"),
                      graph = kSamples + QStringLiteral("/hipbench_launch_chain/graph");
        REQUIRE_TEST_DATA(eager, graph);
        QTemporaryDir dir(testdata::scratchDir());
        const QString b = dir.filePath(QStringLiteral("graph"));
        for (int r = 0; r < 5; ++r) {
            const QString run = QStringLiteral("run_%1").arg(r);
            QVERIFY(QDir().mkpath(QDir(b).filePath(run)));
            const QDir source(QDir(graph).filePath(run));
            const QString file = source.entryList(QDir::Files).value(0);
            QFile copy(QDir(b).filePath(run + QLatin1Char('/') + file));
            QFile original(source.filePath(file));
            QVERIFY(original.open(QIODevice::ReadOnly) && copy.open(QIODevice::WriteOnly));
            const QByteArray bytes = original.readAll();
            copy.write(r == 3 ? bytes.left(bytes.size() / 2) : bytes); // run_3 cut short
        }
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(openAndWait(window, eager, b));
        QCOMPARE(window.runsA().size(), 5);
        QCOMPARE(window.runsB().size(), 4);
        QVERIFY2(window.bannerText().contains(QLatin1String("1 run(s) left out")) &&
                     window.bannerText().contains(
                         QDir::toNativeSeparators(QDir(b).filePath(QStringLiteral("run_3")))),
                 qPrintable(window.bannerText()));
        QVERIFY(!window.bannerIsNote()); // a run lost is no note
        QVERIFY2(window.statusText().contains(QLatin1String("B: 4 run(s)")), qPrintable(window.statusText()));
        QVERIFY(window.diffView()->diff() && window.diffView()->diff()->summary().runsB == 4);
        // the report says it too: it is the only report of such a side (the CLI refuses it)
        QTemporaryDir out;
        QVERIFY(window.exportReport(out.filePath(QStringLiteral("report"))));
        QFile index(out.filePath(QStringLiteral("report/index.html")));
        QVERIFY(index.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(index.readAll());
        QVERIFY2(html.contains(QLatin1String("1 run(s) left out")) &&
                     html.contains(QDir::toNativeSeparators(QDir(b).filePath(QStringLiteral("run_3")))),
                 qPrintable(html.left(4000)));

        // among variants, said with the pair shown, whichever variant the run is of
        window.openVariants(
            {QStringLiteral("e=") + eager, QStringLiteral("g=") + graph, QStringLiteral("cut=") + b});
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.runsB().size(), 5); // the pair shown: eager against graph
        QVERIFY2(
            window.bannerText().contains(QDir::toNativeSeparators(QDir(b).filePath(QStringLiteral("run_3")))),
            qPrintable(window.bannerText()));
    }

    void cancelKeepsTheDocument()
    {
        const QString large =
            testdata::path("public/TraceLens/"
                           "tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz");
        REQUIRE_TEST_DATA(large);
        MainWindow window;
        window.show();
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        // at any moment of the load: before inflating starts, while parsing, near the end
        for (const int after : {0, 20, 80, 200, 400}) {
            window.openPair(large, large);
            QVERIFY(window.isLoading());
            QTest::qWait(after);
            if (!window.isLoading()) { // a fast machine finished first: nothing left to cancel
                QVERIFY(openAndWait(window, kMatmul, kEinsum));
                continue;
            }
            QElapsedTimer cancelled;
            cancelled.start();
            QTest::keyClick(&window, Qt::Key_Escape);
            QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 30000));
            QVERIFY2(cancelled.elapsed() < 2000,
                     qPrintable(QStringLiteral("cancel took %1 ms").arg(cancelled.elapsed())));
            QCOMPARE(window.runsA().front().run.name, QStringLiteral("trace_file_matmul_0"));
            QCOMPARE(window.bannerText(), QString());
        }
    }

    // Opening several runs a side loads them off the GUI thread: the event loop keeps turning (a 20 ms
    // timer's largest gap stays short; loading on the GUI thread would stop it for the whole load), the
    // progress says the runs done per side, and a run picked in a timeline's run picker whose events
    // were dropped after summarising loads them in the background.
    void staysResponsiveWhileLoadingRuns()
    {
        const QString xdit =
            testdata::path("public/TraceLens/"
                           "tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz");
        REQUIRE_TEST_DATA(xdit, kMatmul, kEinsum);
        constexpr int kRuns = 6;
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(dir.isValid());
        for (const QString &side : {QStringLiteral("a"), QStringLiteral("b")}) {
            QVERIFY(QDir(dir.path()).mkpath(side));
            for (int i = 0; i < kRuns; ++i)
                QVERIFY(testdata::anotherRun(
                    xdit, dir.filePath(QStringLiteral("%1/run_%2.json.gz").arg(side).arg(i))));
        }
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        // The first document's queued replots and paints (~100 ms here, 2-4 times as long under the
        // sanitizer) end before the clock starts, so that the gaps measured are the load's own.
        QElapsedTimer tick;
        for (int i = 0; i < 100; ++i) {
            tick.start();
            QTest::qWait(20);
            if (tick.elapsed() < 30)
                break;
        }

        QStringList said;
        std::vector<double> fractions;
        connect(window.document(), &ComparisonDocument::progress, this,
                [&](double fraction, const QString &what) {
                    fractions.push_back(fraction);
                    said.append(what);
                });
        // The largest gap between the ticks while loading, from the open on (a load on the GUI thread
        // would delay the first tick), up to the last tick before the document is shown (showing it is
        // GUI work, timed apart).
        QElapsedTimer clock;
        clock.start();
        qint64 lastTick = 0, largestGap = 0, ticks = 0, shownAfter = 0;
        bool loading = true;
        QTimer timer;
        timer.setInterval(20);
        connect(&timer, &QTimer::timeout, this, [&] {
            const qint64 now = clock.elapsed();
            if (loading && (ticks == 0 || window.isLoading())) {
                largestGap = std::max(largestGap, now - lastTick);
                ++ticks;
            } else if (loading) {
                shownAfter = now - lastTick; // the load's end and showing the document
            }
            loading = loading && window.isLoading();
            lastTick = now;
        });
        timer.start();
        window.openPair(dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("b")));
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        const qint64 loaded = clock.elapsed();
        QTest::qWait(60);
        timer.stop();
        // A load on the GUI thread would stand it still for one run's load at least, timed here alone
        // on this thread; the GUI's own work meanwhile (the progress) ticks on time: 20-25 ms between
        // 20 ms ticks here, up to 120 ms under the sanitizer (where one run alone takes 0.85 s) while
        // the loading threads allocate.
        QElapsedTimer oneRun;
        oneRun.start();
        QVERIFY(TraceLoader::load(dir.filePath(QStringLiteral("a/run_0.json.gz"))).ok());
        const qint64 oneRunMs = oneRun.elapsed(), still = std::max<qint64>(100, oneRunMs / 2);
        qInfo("%d v %d runs loaded in %lld ms; largest event-loop gap while loading %lld ms (%lld ticks); "
              "showing the document %lld ms; one run alone on this thread %lld ms",
              kRuns, kRuns, loaded, largestGap, ticks, shownAfter, oneRunMs);
        QCOMPARE(window.bannerText(), QString());
        QCOMPARE(window.runsA().size(), kRuns);
        QCOMPARE(window.runsB().size(), kRuns);
        QVERIFY2(largestGap < still,
                 qPrintable(QStringLiteral("the event loop stood still for %1 ms of %2 allowed")
                                .arg(largestGap)
                                .arg(still)));

        QVERIFY(!fractions.empty());
        for (std::size_t i = 1; i < fractions.size(); ++i)
            QVERIFY(fractions[i] >= fractions[i - 1]);
        QVERIFY2(said.join(QLatin1Char('\n')).contains(QStringLiteral("A 0 of %1").arg(kRuns)),
                 qPrintable(said.join(QLatin1Char('\n'))));

        // The first runs of a side keep their events (the side's files add up to little so far), the
        // rest are summaries alone.
        QVERIFY(window.runsA().front().hasEvents());
        QVERIFY(!window.runsA().back().hasEvents());
        QVERIFY(window.runsA().back().summary);

        // Picking a summarised run: the timeline shows it once its events are in, loaded in the
        // background with progress in the status bar; the document keeps the summary alone.
        QComboBox *picker = nullptr;
        for (QComboBox *box : window.findChildren<QComboBox *>())
            if (box->toolTip().startsWith(QLatin1String("Run of side A")))
                picker = box;
        QVERIFY(picker);
        QCOMPARE(picker->count(), kRuns);
        for (const int pick : {kRuns - 1, kRuns - 2, kRuns - 3}) {
            picker->setCurrentIndex(pick);
            emit picker->activated(pick);
            QStringList shown;
            for (QLabel *label : window.statusBar()->findChildren<QLabel *>())
                shown.append(label->text());
            QVERIFY2(shown.join(QLatin1Char('\n')).contains(QStringLiteral("Loading the events of %1")
                                                                 .arg(window.runsA()[pick].run.name)),
                     qPrintable(shown.join(QLatin1Char('\n'))));
            QVERIFY(QTest::qWaitFor([&] { return window.timeline()->viewA()->run().trace != nullptr; }, 20000));
            QCOMPARE(window.timeline()->viewA()->run().run.file, window.runsA()[pick].run.file);
            QVERIFY(!window.runsA()[pick].hasEvents());
        }
    }

    // A run picked on one side leaves the other side's view and selection as they were; F5 and Swap
    // keep the run each side shows, with its view (they went back to run 0, with run 3's range on it).
    void pickedRunsAndViewsAreKept()
    {
        REQUIRE_TEST_DATA(kEager, kReduceOverhead);
        MainWindow window;
        QVERIFY(openTorchPair(window));
        auto *events = window.findChild<RunEvents *>();
        QVERIFY(events);
        RunPicker *pickers[2] = {};
        for (RunPicker *picker : window.findChildren<RunPicker *>())
            pickers[picker->runBox()->toolTip().startsWith(QLatin1String("Run of side A")) ? 0 : 1] = picker;
        QVERIFY(pickers[0] && pickers[1]);
        const auto pick = [&](int side, int index) {
            pickers[side]->setCurrentIndex(index);
            emit pickers[side]->activated(index);
            const QString want = (side == 0 ? window.runsA() : window.runsB())[index].run.file;
            TimelineView *view = side == 0 ? window.timeline()->viewA() : window.timeline()->viewB();
            return QTest::qWaitFor([&] { return !events->isLoading() && view->run().run.file == want; },
                                   30000);
        };
        TimelineView *a = window.timeline()->viewA(), *b = window.timeline()->viewB();

        window.timeline()->setZoomLocked(false);
        QVERIFY(pick(0, 3));
        const int64_t start = a->timeScale().lowerBound + a->timeScale().boundsSpan() / 3;
        a->setVisibleRange(start, start + 4500);
        const int64_t kernel = int64_t(a->run().analysis->kernels()[5]);
        a->selectEvent(kernel);
        const std::pair<int64_t, int64_t> viewA{a->visibleStart(), a->visibleEnd()};
        QVERIFY(pick(1, 2));
        QCOMPARE((std::pair<int64_t, int64_t>{a->visibleStart(), a->visibleEnd()}), viewA);
        QCOMPARE(a->selectedEvent(), kernel);
        // under Lock, the run picked follows the side kept
        window.timeline()->setZoomLocked(true);
        QVERIFY(pick(1, 1));
        QCOMPARE((std::pair<int64_t, int64_t>{a->visibleStart(), a->visibleEnd()}), viewA);
        QCOMPARE(b->visibleEnd() - b->visibleStart(), viewA.second - viewA.first);

        const QString fileA = a->run().run.file, fileB = b->run().run.file;
        const auto trigger = [&window](const QKeySequence &keys) {
            for (QAction *action : window.findChildren<QAction *>())
                if (action->shortcut() == keys)
                    action->trigger();
        };
        trigger(QKeySequence(Qt::Key_F5));
        QVERIFY(QTest::qWaitFor([&] { return !window.isLoading() && !events->isLoading(); }, 60000));
        QCOMPARE(pickers[0]->currentIndex(), 3);
        QCOMPARE(a->run().run.file, fileA);
        QCOMPARE(b->run().run.file, fileB);
        QCOMPARE((std::pair<int64_t, int64_t>{a->visibleStart(), a->visibleEnd()}), viewA);
        // Swap: A's run and view are B's now
        trigger(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X));
        QVERIFY(QTest::qWaitFor([&] { return !window.isLoading() && !events->isLoading(); }, 60000));
        QCOMPARE(b->run().run.file, fileA);
        QCOMPARE(a->run().run.file, fileB);
        QCOMPARE((std::pair<int64_t, int64_t>{b->visibleStart(), b->visibleEnd()}), viewA);

        // Lock zoom aligns on the step scope What changed shows: the whole run has no steps
        QVERIFY(window.timeline()->zoomLocked());
        window.timeline()->fitBoth();
        QCOMPARE(window.timeline()->alignment(), QStringLiteral("step 0"));
        window.diffView()->stepView()->setStepScope(StepBreakdownOptions::wholeRun());
        QCOMPARE(window.timeline()->alignment(), QStringLiteral("first kernel"));
        window.diffView()->stepView()->setStepScope(QString());
        QCOMPARE(window.timeline()->alignment(), QStringLiteral("step 0"));
    }

    // A run whose events were let go after summarising (beyond a side's first few MB of traces) keeps
    // its view over F5 too: the view waits for the events, which load again in the background.
    void reloadKeepsTheViewOfARunLoadedLater()
    {
        const QString xdit =
            testdata::path("public/TraceLens/"
                           "tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz");
        REQUIRE_TEST_DATA(xdit);
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(dir.isValid());
        for (const char *side : {"a", "b"}) {
            QVERIFY(QDir(dir.path()).mkpath(QLatin1String(side)));
            for (int i = 0; i < 3; ++i) // 3 × 3.9 MB: the third is past the 8 MB kept
                QVERIFY(testdata::anotherRun(
                    xdit, dir.filePath(
                              QStringLiteral("%1/run_%2.pt.trace.json.gz").arg(QLatin1String(side)).arg(i))));
        }
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(openAndWait(window, dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("b"))));
        QVERIFY(!window.runsA()[2].hasEvents());
        auto *events = window.findChild<RunEvents *>();
        RunPicker *pickerA = nullptr;
        for (RunPicker *picker : window.findChildren<RunPicker *>())
            if (picker->runBox()->toolTip().startsWith(QLatin1String("Run of side A")))
                pickerA = picker;
        QVERIFY(events && pickerA);
        TimelineView *a = window.timeline()->viewA();
        const QString third = window.runsA()[2].run.file;
        const auto shown = [&] {
            return !window.isLoading() && !events->isLoading() && a->run().run.file == third &&
                   a->run().hasEvents();
        };
        window.timeline()->setZoomLocked(false); // A's own view, not one aligned to B's
        pickerA->setCurrentIndex(2);
        emit pickerA->activated(2);
        QVERIFY(QTest::qWaitFor(shown, 60000));
        const int64_t start = a->timeScale().lowerBound + 1000000;
        a->setVisibleRange(start, start + 2000000);
        const std::pair<int64_t, int64_t> before{a->visibleStart(), a->visibleEnd()};
        for (QAction *action : window.findChildren<QAction *>())
            if (action->shortcut() == QKeySequence(Qt::Key_F5))
                action->trigger();
        QVERIFY(window.isLoading());
        QVERIFY(QTest::qWaitFor([&] { return !window.isLoading(); }, 60000));
        QCOMPARE(pickerA->currentIndex(), 2);
        QVERIFY(QTest::qWaitFor(shown, 60000));
        QCOMPARE((std::pair<int64_t, int64_t>{a->visibleStart(), a->visibleEnd()}), before);
    }

    // A kernel picked in What changed with no call in view: its first call is brought into view, in
    // each timeline (unlocked).
    void selectedKernelIsBroughtIntoView()
    {
        REQUIRE_TEST_DATA(kEager, kReduceOverhead);
        MainWindow window;
        QVERIFY(openTorchPair(window));
        window.timeline()->setZoomLocked(false);
        const KernelDiff *diff = window.diffView()->diff();
        QVERIFY(diff && !diff->rows().empty());
        const QString kernel = diff->rows().front().kernel;
        const auto calls = [&kernel](const TimelineView *view, bool inView) {
            const TraceData &t = *view->run().trace;
            int count = 0;
            for (uint32_t k : view->run().analysis->kernels())
                if (QString::fromUtf8(t.nameOf(k).data(), qsizetype(t.nameOf(k).size())) == kernel &&
                    (!inView ||
                     (t.start[k] < view->visibleEnd() && t.start[k] + t.duration[k] > view->visibleStart())))
                    ++count;
            return count;
        };
        const auto callsInView = [&calls](const TimelineView *view) { return calls(view, true); };
        for (TimelineView *view : {window.timeline()->viewA(), window.timeline()->viewB()}) {
            const int64_t origin = view->timeScale().lowerBound;
            view->setVisibleRange(origin, origin + 1000); // before the first kernel
            QCOMPARE(callsInView(view), 0);
        }
        window.diffView()->selectRow(0);
        int sides = 0;
        for (const TimelineView *view : {window.timeline()->viewA(), window.timeline()->viewB()}) {
            if (calls(view, false) == 0)
                continue; // a kernel of the other side only
            ++sides;
            QVERIFY2(callsInView(view) > 0, qPrintable(kernel));
        }
        QVERIFY(sides > 0);
    }

    // The first click opens the Details dock, whose width comes off the timelines: the clicked kernel
    // stays where it was, at the scale it was shown (it moved from under the mouse), the other side
    // following under Lock zoom; one near the right edge stays in view.
    void firstClickKeepsTheScale_data()
    {
        QTest::addColumn<double>("where"); // of the plot's width
        QTest::newRow("left half") << 0.3;
        QTest::newRow("right edge") << 0.97;
    }

    void firstClickKeepsTheScale()
    {
        QFETCH(double, where);
        REQUIRE_TEST_DATA(kEager, kReduceOverhead);
        MainWindow window;
        QVERIFY(openTorchPair(window));
        QVERIFY(window.timeline()->zoomLocked());
        QDockWidget *dock = window.findChild<QDockWidget *>(QStringLiteral("details"));
        QVERIFY(dock && !dock->isVisible());
        TimelineView *view = window.timeline()->viewA();
        // a kernel of the middle of the run, brought to `where` across the plot
        const std::vector<uint32_t> &kernels = view->run().analysis->kernels();
        const uint32_t kernel = kernels[kernels.size() / 2];
        const TraceData &t = *view->run().trace;
        const int64_t span = (view->visibleEnd() - view->visibleStart()) / 4;
        const int64_t start = t.start[kernel] + t.duration[kernel] / 2 - int64_t(where * double(span));
        view->setVisibleRange(start, start + span);
        const QRect before = view->eventRect(kernel);
        const double scale = double(view->visibleEnd() - view->visibleStart()) / view->plotRect().width();
        QTest::mouseClick(view, Qt::LeftButton, {}, before.center());
        QCOMPARE(view->selectedEvent(), int64_t(kernel));
        QVERIFY(dock->isVisible());
        const QRect after = view->eventRect(kernel);
        QVERIFY2(view->plotRect().width() < window.width() - dock->width(), "the dock took its width");
        const double scaleAfter =
            double(view->visibleEnd() - view->visibleStart()) / view->plotRect().width();
        QVERIFY2(std::fabs(scaleAfter / scale - 1) < 0.01,
                 qPrintable(QStringLiteral("%1 -> %2").arg(scale).arg(scaleAfter)));
        QVERIFY(after.left() >= view->plotRect().left() && after.right() <= view->plotRect().right());
        if (before.center().x() < view->plotRect().right() - 32)
            QVERIFY2(std::abs(after.center().x() - before.center().x()) <= 2,
                     qPrintable(QStringLiteral("%1 -> %2").arg(before.center().x()).arg(after.center().x())));
        const TimelineView *other = window.timeline()->viewB();
        QCOMPARE(other->visibleEnd() - other->visibleStart(), view->visibleEnd() - view->visibleStart());
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_first_click.png"))));
    }

    // A timeline at fit stays at fit when the first click opens the Details dock: it had not been
    // zoomed, and keeping the scale cut the last 3.7 ms of the eager run off at the right edge.
    void firstClickAtFitKeepsTheRun()
    {
        REQUIRE_TEST_DATA(kEager, kReduceOverhead);
        MainWindow window;
        QVERIFY(openTorchPair(window));
        QDockWidget *dock = window.findChild<QDockWidget *>(QStringLiteral("details"));
        QVERIFY(dock && !dock->isVisible());
        TimelineView *view = window.timeline()->viewA();
        const TimeScale &scale = view->timeScale();
        QVERIFY(scale.start <= scale.lowerBound && scale.end >= scale.upperBound); // opened at fit
        const std::vector<uint32_t> &kernels = view->run().analysis->kernels();
        QTest::mouseClick(view, Qt::LeftButton, {}, view->eventRect(kernels[kernels.size() / 2]).center());
        QVERIFY(dock->isVisible());
        for (const TimelineView *side : {window.timeline()->viewA(), window.timeline()->viewB()})
            QVERIFY2(side->timeScale().start <= side->timeScale().lowerBound &&
                         side->timeScale().end >= side->timeScale().upperBound,
                     qPrintable(QStringLiteral("%1..%2 of %3..%4")
                                    .arg(side->timeScale().start)
                                    .arg(side->timeScale().end)
                                    .arg(side->timeScale().lowerBound)
                                    .arg(side->timeScale().upperBound)));
    }

    // A point clicked in the Per step chart: that run in its side's timeline, zoomed to that step, the
    // other side following under Lock zoom.
    void clickedStepIsShown()
    {
        REQUIRE_TEST_DATA(kEager, kReduceOverhead);
        MainWindow window;
        QVERIFY(openTorchPair(window));
        const StepBreakdown *breakdown = window.diffView()->stepView()->breakdown();
        QVERIFY(breakdown && breakdown->runsB().size() >= 3 && breakdown->runsB()[2].steps.size() >= 2);
        const StepInstance &pointed = breakdown->runsB()[2].steps[1];
        StepTimeChart *chart = window.diffView()->stepView()->stepChart();
        QCustomPlot *plot = chart->plot();
        plot->replot();
        QCPGraph *graph = plot->graph(int(breakdown->runsA().size()) + 2);
        const QPoint point(int(graph->keyAxis()->coordToPixel(1)),
                           int(graph->valueAxis()->coordToPixel(double(pointed.parts[0]) / chart->unitNs())));
        QSignalSpy clicked(chart, &StepTimeChart::stepClicked);
        QTest::mouseClick(plot, Qt::LeftButton, {}, point);
        QCOMPARE(clicked.count(), 1);
        // the point under the mouse: run_2's, or another B run's drawn on it
        QCOMPARE(clicked.first().at(0).toInt(), 1);
        const QString run = clicked.first().at(1).toString();
        const int64_t start = clicked.first().at(2).toLongLong(), end = clicked.first().at(3).toLongLong();
        QVERIFY(end > start);
        // its tooltip names the side as the legend does, whole, and the figures of the step clicked
        const QString tip = chart->stepToolTip(point);
        const auto clickedRun = std::find_if(breakdown->runsB().begin(), breakdown->runsB().end(),
                                             [&run](const RunSteps &r) { return r.run == run; });
        QVERIFY(clickedRun != breakdown->runsB().end());
        QVERIFY2(tip.startsWith(QStringLiteral("B: reduce_overhead — ") + run + QStringLiteral(", step 1: ") +
                                formatDuration(double(clickedRun->steps[1].parts[0]))),
                 qPrintable(tip));
        QVERIFY(chart->stepToolTip(QPoint(2, 2)).isEmpty());
        auto *events = window.findChild<RunEvents *>();
        TimelineView *b = window.timeline()->viewB();
        QVERIFY(QTest::qWaitFor([&] { return !events->isLoading() && b->run().run.label() == run; }, 30000));
        QVERIFY2(b->visibleStart() <= start && b->visibleEnd() >= end &&
                     b->visibleEnd() - b->visibleStart() < 2 * (end - start),
                 qPrintable(QStringLiteral("%1..%2 for %3..%4")
                                .arg(b->visibleStart())
                                .arg(b->visibleEnd())
                                .arg(start)
                                .arg(end)));
        const TimelineView *a = window.timeline()->viewA();
        QVERIFY(window.timeline()->zoomLocked());
        QCOMPARE(a->visibleEnd() - a->visibleStart(), b->visibleEnd() - b->visibleStart());
    }

    // A long kernel name wraps in the details at zero-width break hints, which a copy leaves out: the
    // name pasted into the filter or grep matches the trace.
    void copiedDetailsMatchTheTrace()
    {
        REQUIRE_TEST_DATA(kEager);
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(openAndWait(window, kEager, kEager));
        TimelineView *a = window.timeline()->viewA();
        const QChar hint(0x200B);
        for (uint32_t kernel : a->run().analysis->kernels()) {
            a->selectEvent(int64_t(kernel));
            if (window.details()->toPlainText().contains(hint))
                break;
        }
        QVERIFY2(window.details()->toPlainText().contains(hint), "no kernel name long enough to wrap");
        window.details()->selectAll();
        window.details()->copy();
        const QString copied = QApplication::clipboard()->text();
        QVERIFY(copied.size() > 80);
        QVERIFY(!copied.contains(hint));
        QCOMPARE(copied, window.details()->toPlainText().remove(hint));
    }

    // At most two picked runs a side keep their events: the least recently picked is let go.
    void runEventsKeepsTwoPerSide()
    {
        const QString xdit =
            testdata::path("public/TraceLens/"
                           "tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz");
        REQUIRE_TEST_DATA(xdit);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::vector<TraceRun> runs;
        for (int i = 0; i < 3; ++i) {
            const QString link = dir.filePath(QStringLiteral("run_%1.json.gz").arg(i));
            QVERIFY(QFile::link(xdit, link));
            runs.push_back({QStringLiteral("run_%1").arg(i), link});
        }
        const QList<LoadedRun> summaries = LoadedRun::loadAll(runs, nullptr, LoadedRun::Scopes::Index,
                                                              LoadedRun::Events::Drop);
        RunEvents events;
        QSignalSpy progress(&events, &RunEvents::progress);
        QSignalSpy loaded(&events, &RunEvents::loaded);
        for (const LoadedRun &run : summaries) {
            QVERIFY(!run.hasEvents());
            QVERIFY(!events.get(0, run).hasEvents());
            QVERIFY(events.isLoading());
            QVERIFY(loaded.wait(20000));
            QCOMPARE(loaded.last().at(2).toString(), QString());
            QVERIFY(events.get(0, run).hasEvents());
        }
        QVERIFY(progress.count() >= 3); // one as each load starts at least
        QVERIFY(events.get(0, summaries[1]).hasEvents());
        QVERIFY(events.get(0, summaries[2]).hasEvents());
        QVERIFY(!events.get(0, summaries[0]).hasEvents()); // let go; loads again
        QVERIFY(events.isLoading());
        events.clear();
    }

    // Runs read from summary files have no events to load: picking them starts no load, and a window
    // showing them sits idle rather than asking for their events again and again.
    void summaryFilesLoadNoEvents()
    {
        REQUIRE_TEST_DATA(kMatmul, kEinsum, kEager, kReduceOverhead);
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(dir.isValid());
        for (const QString &side : {kMatmul, kEinsum, kReduceOverhead}) {
            const QString out = dir.filePath(QFileInfo(side).fileName());
            QVERIFY(QDir().mkpath(out));
            const std::vector<TraceRun> runs = TraceFolder::scan(side);
            QVERIFY(!runs.empty());
            for (const LoadedRun &run : LoadedRun::loadAll(runs, nullptr, LoadedRun::Scopes::Index,
                                                           LoadedRun::Events::Drop)) {
                QVERIFY2(run.summary, qPrintable(run.error));
                QCOMPARE(RunSummaryFile::write(*run.summary, QDir(out).filePath(run.run.name + RunSummaryFile::suffix())),
                         QString());
            }
        }
        const QString a = dir.filePath(QFileInfo(kMatmul).fileName()), b = dir.filePath(QFileInfo(kEinsum).fileName());

        RunEvents events;
        QSignalSpy progress(&events, &RunEvents::progress);
        const QList<LoadedRun> summaries =
            LoadedRun::loadAll({{QStringLiteral("run"), QDir(a).entryInfoList(QDir::Files).front().filePath()}});
        QCOMPARE(summaries.size(), 1);
        QVERIFY(summaries.front().summary && !summaries.front().hasEvents());
        QVERIFY(!events.get(0, summaries.front()).hasEvents());
        QVERIFY(!events.isLoading());
        QCOMPARE(progress.count(), 0);

        MainWindow window;
        QVERIFY(openAndWait(window, a, b));
        QCOMPARE(window.bannerText(), QString());
        QVERIFY(!window.runsA().isEmpty() && !window.runsA().front().hasEvents());
        auto *windowEvents = window.findChild<RunEvents *>();
        QVERIFY(windowEvents);
        QSignalSpy asked(windowEvents, &RunEvents::progress);
        QTest::qWait(300);
        QCOMPARE(asked.count(), 0);
        QVERIFY(!windowEvents->isLoading());

        // No events, no timelines: the figures take the window, and the status bar says why. A pair
        // with a trace on one side shows them.
        auto *timeline = window.findChild<PairTimeline *>();
        QVERIFY(timeline);
        QVERIFY(!timeline->isVisibleTo(&window));
        QVERIFY2(window.statusText().contains(QLatin1String("without timelines")),
                 qPrintable(window.statusText()));
        QVERIFY(openAndWait(window, a, kEinsum));
        QVERIFY(timeline->isVisibleTo(&window));
        QVERIFY2(!window.statusText().contains(QLatin1String("without timelines")),
                 qPrintable(window.statusText()));
        // Lock zoom has nothing to align the trace with: it shows its own run whole (the step of a
        // side without events, against that side's empty extent, once stretched it over days), by the
        // Fit button and Ctrl+0 alike.
        window.resize(1366, 768);
        window.show();
        QVERIFY(openAndWait(window, kEager, dir.filePath(QFileInfo(kReduceOverhead).fileName())));
        QVERIFY(timeline->zoomLocked());
        const TimelineView *traced = timeline->viewA();
        const auto shownWhole = [traced] {
            return traced->timeScale().boundsSpan() > 0 &&
                   traced->visibleEnd() - traced->visibleStart() == traced->timeScale().boundsSpan();
        };
        QVERIFY2(shownWhole(), qPrintable(QString::number(traced->visibleEnd() - traced->visibleStart())));
        timeline->viewA()->zoomBy(2);
        QVERIFY2(traced->visibleEnd() - traced->visibleStart() < traced->timeScale().boundsSpan(),
                 qPrintable(QString::number(traced->visibleEnd() - traced->visibleStart())));
        QCOMPARE(timeline->alignment(), QString());
        timeline->viewA()->setVisibleRange(traced->visibleStart(), traced->visibleStart() + 1000);
        QVERIFY(!shownWhole());
        for (QAction *action : window.findChildren<QAction *>())
            if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_0))
                action->trigger();
        QVERIFY(shownWhole());
    }

    void sessionRoundTrip()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("pair.scopeline.json"));
        QString filter;
        {
            MainWindow window;
            SessionState state;
            state.scopes = {QStringLiteral("attn_q_k")};
            state.samples = SampleMode::Instance;
            QVERIFY(openAndWait(window, kMatmul, kEinsum, state));
            // What changed by op, folded, filtered, a row selected, and the Scopes tab in front
            window.diffView()->setByOp(true);
            window.diffView()->setFoldNumbers(true);
            QVERIFY(window.diffView()->diff() && window.diffView()->diff()->rows().size() > 1);
            filter = window.diffView()->diff()->rows()[1].kernel.left(3); // row 1 stays shown
            window.diffView()->filterEdit()->setText(filter);
            window.diffView()->selectRow(1);
            window.tabs()->setCurrentWidget(window.panel());
            QVERIFY(window.saveSession(file));
        }
        MainWindow reopened;
        QVERIFY(reopened.openSession(file));
        QVERIFY(QTest::qWaitFor([&reopened] { return !reopened.isLoading(); }, 60000));
        QCOMPARE(reopened.panel()->selectedScopes(), QStringList{QStringLiteral("attn_q_k")});
        QCOMPARE(reopened.panel()->sampleMode(), SampleMode::Instance);
        QCOMPARE(reopened.runsA().size(), 3);
        QVERIFY(reopened.diffView()->byOp());
        QVERIFY(reopened.diffView()->foldNumbers());
        QCOMPARE(reopened.diffView()->filterEdit()->text(), filter);
        QCOMPARE(reopened.diffView()->currentRow(), 1);
        QCOMPARE(reopened.tabs()->currentWidget(), reopened.panel());

        // A corrupt session is reported and nothing of it applied.
        const QString corrupt = dir.filePath(QStringLiteral("corrupt.scopeline.json"));
        QFile out(corrupt);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("{ not json");
        out.close();
        QVERIFY(!reopened.openSession(corrupt));
        QVERIFY(reopened.bannerText().contains(QLatin1String("corrupt.scopeline.json")));
        QCOMPARE(reopened.panel()->selectedScopes(), QStringList{QStringLiteral("attn_q_k")});
    }

    // File > Recent Sessions lists the sessions saved or opened, newest first, each once, and reopens
    // one; a session that could not be opened is not listed.
    void recentSessionsReopen()
    {
        QSettings().clear();
        QTemporaryDir dir;
        const QString first = dir.filePath(QStringLiteral("first&more.scopeline.json")),
                      second = dir.filePath(QStringLiteral("second.scopeline.json")),
                      gone = dir.filePath(QStringLiteral("gone.scopeline.json"));
        MainWindow window;
        QMenu *recent = menuTitled(window, QStringLiteral("Recent Sessions"));
        QVERIFY(recent);
        QVERIFY(!recent->isEnabled());
        QVERIFY(openAndWait(window, kEager, kReduceOverhead));
        QVERIFY(window.saveSession(first) && window.saveSession(second) && window.saveSession(first));
        QVERIFY(openSessionOfMissingPair(window, gone));
        QStringList listed;
        for (const QAction *action : recentEntries(recent))
            listed << action->text();
        // a '&' doubled, as a menu item's text shows one
        QCOMPARE(listed,
                 (QStringList{QDir::toNativeSeparators(first).replace(QLatin1Char('&'), QLatin1String("&&")),
                              QDir::toNativeSeparators(second)}));
        QVERIFY(recent->isEnabled());

        QVERIFY(openAndWait(window, kMatmul, kEinsum)); // a pair of no session
        QVERIFY(window.sessionFile().isEmpty());
        recentEntries(recent).at(1)->trigger();
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.sessionFile(), second);
        QCOMPARE(window.runsA().front().run.file.startsWith(kEager), true);
        QCOMPARE(recentEntries(recent).at(0)->text(), QDir::toNativeSeparators(second));
        QSettings().clear(); // the other tests start from the defaults
    }

    // A recent pair or session whose files are gone is greyed as its menu opens, its tooltip naming the
    // one gone, and is back once that is there again (a pair opened by a wildcard is there while the
    // wildcard matches); Clear Menu empties a menu.
    void recentEntriesGoneAndCleared()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("kept.scopeline.json")),
                      goneSession = dir.filePath(QStringLiteral("gone.scopeline.json")),
                      goneFolder = dir.filePath(QStringLiteral("gone_b")),
                      matmulRuns = kMatmul + QStringLiteral("/trace_file_matmul_*"),
                      noMatch = dir.filePath(QStringLiteral("none_*"));
        QFile kept(session);
        QVERIFY(kept.open(QIODevice::WriteOnly));
        kept.close();
        const auto pair = [](const QString &a, const QString &b) { return a + QLatin1Char('\n') + b; };
        QSettings().clear();
        QSettings().setValue(QStringLiteral("recentPairs"),
                             QStringList{pair(kMatmul, kEinsum), pair(kMatmul, goneFolder),
                                         pair(matmulRuns, kEinsum), pair(kMatmul, noMatch)});
        QSettings().setValue(QStringLiteral("recentSessions"), QStringList{session, goneSession});
        MainWindow window;
        QMenu *pairs = menuTitled(window, QStringLiteral("Recent Pairs")),
              *sessions = menuTitled(window, QStringLiteral("Recent Sessions"));
        QVERIFY(pairs && sessions);
        QVERIFY(pairs->toolTipsVisible() && sessions->toolTipsVisible()); // else no one reads why
        const auto greyed = [](QMenu *menu) {
            emit menu->aboutToShow();
            QStringList tips;
            for (const QAction *entry : recentEntries(menu))
                if (!entry->isEnabled())
                    tips << entry->toolTip();
            return tips;
        };
        const auto goneText = [](const QString &path) {
            return QDir::toNativeSeparators(path) + QStringLiteral(" is no longer there");
        };
        QCOMPARE(recentEntries(pairs).size(), 4);
        QCOMPARE(greyed(pairs), (QStringList{goneText(goneFolder), goneText(noMatch)}));
        QCOMPARE(greyed(sessions), QStringList{goneText(goneSession)});
        QVERIFY(recentEntries(sessions).at(0)->isEnabled()); // its tooltip its text, as by default
        QVERIFY(QDir().mkpath(goneFolder)); // back (a share mounted again)
        QCOMPARE(greyed(pairs), QStringList{goneText(noMatch)});

        QAction *clear = pairs->actions().constLast();
        QCOMPARE(clear->text(), QStringLiteral("&Clear Menu"));
        clear->trigger();
        QTRY_VERIFY(recentEntries(pairs).isEmpty()); // queued: the menu clicked is not cleared under it
        QVERIFY(!pairs->isEnabled());
        QVERIFY(!QSettings().contains(QStringLiteral("recentPairs")));
        QCOMPARE(recentEntries(sessions).size(), 2); // the other menu keeps its entries
        QSettings().clear();
    }

    // A session becomes Save Session's target only once its pair has loaded: one whose folders are
    // gone was adopted, and Ctrl+S then wrote the pair shown over it. Another pair opened is of no
    // session, and starts with its own detected step, not the step picked for the last pair.
    void sessionAdoptedOnceLoaded()
    {
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("pair.scopeline.json")),
                      gone = dir.filePath(QStringLiteral("gone.scopeline.json"));
        MainWindow window;
        QVERIFY(openAndWait(window, kEager, kReduceOverhead));
        window.diffView()->stepView()->setStepScope(QStringLiteral("attention"));
        QVERIFY(window.saveSession(saved));
        QCOMPARE(window.sessionFile(), saved);
        QVERIFY(window.saveSession(saved)); // a session replaces a session
        // never a trace, though a *.json one is listed beside the sessions
        const QString trace = dir.filePath(QStringLiteral("trace.json"));
        QVERIFY(QFile::copy(
            kSamples + QStringLiteral("/hipbench_launch_chain/eager/run_0/hipbench.pt.trace.json.gz"),
            trace));
        const qint64 traceBytes = QFileInfo(trace).size();
        QVERIFY(!window.saveSession(trace));
        QVERIFY2(window.bannerText().contains(
                     QLatin1String("it is a trace or a run summary, which it would replace")),
                 qPrintable(window.bannerText()));
        QCOMPARE(QFileInfo(trace).size(), traceBytes);
        QCOMPARE(window.sessionFile(), saved);
        QVERIFY(openSessionOfMissingPair(window, gone));
        SessionState missing;
        QString error;
        QVERIFY(window.bannerText().contains(QLatin1String("no_such_a")));
        QVERIFY2(window.bannerText().startsWith(
                     QStringLiteral("Session %1 could not be opened").arg(QDir::toNativeSeparators(gone))),
                 qPrintable(window.bannerText()));
        QCOMPARE(window.sessionFile(), saved); // the pair shown is still that session's

        // opened by relative paths, kept in Recent Pairs as absolute ones
        QVERIFY(openAndWait(window, QDir::current().relativeFilePath(kMatmul),
                            QDir::current().relativeFilePath(kEinsum)));
        QCOMPARE(QSettings().value(QStringLiteral("recentPairs")).toStringList().value(0),
                 QFileInfo(kMatmul).absoluteFilePath() + QLatin1Char('\n') +
                     QFileInfo(kEinsum).absoluteFilePath());
        QVERIFY(window.sessionFile().isEmpty());
        QVERIFY(window.diffView()->stepView()->stepScope().isEmpty()); // detected: PjitFunction

        // and a session that names no pair is refused
        QFile empty(dir.filePath(QStringLiteral("empty.scopeline.json")));
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.write(R"({"format": "scopeline-session", "version": 1, "paths": {"a": "", "b": ""}})");
        empty.close();
        QVERIFY(!SessionFile::load(empty.fileName(), missing, &error));
        QVERIFY2(error.contains(QLatin1String("names no pair")), qPrintable(error));
    }

    // A folder scopeline-hipbench recorded into opens as its pair: the variants' folders beside its
    // summary.json, which names them as the program was given them (relative to where it ran).
    void recordedPairOpens()
    {
        const QString recorded = testdata::path("h100_runs/hipbench/attention");
        MainWindow window;
        // it replaces the variants shown, as any pair of its own does
        window.openVariants({QStringLiteral("n=") + recorded + QStringLiteral("/naive"),
                             QStringLiteral("t=") + recorded + QStringLiteral("/tiled"),
                             QStringLiteral("n2=") + recorded + QStringLiteral("/naive")});
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QVERIFY(window.tabs()->isTabVisible(3));
        QVERIFY(window.openRecording(recorded, {}, std::nullopt, SampleMode::Span)); // --samples span
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QVERIFY(!window.tabs()->isTabVisible(3));
        QCOMPARE(window.panel()->sampleMode(), SampleMode::Span);
        QCOMPARE(window.document()->state().pathA, recorded + QStringLiteral("/naive"));
        QCOMPARE(window.document()->state().pathB, recorded + QStringLiteral("/tiled"));
        QCOMPARE(window.runsA().size(), 5);
        QCOMPARE(window.runsB().size(), 5);
        QVERIFY(window.bannerText().isEmpty());
        // as one side of a pair its variants would be pooled as processes: refused, the pair shown stays
        window.openNewPair(recorded, recorded + QStringLiteral("/tiled"));
        QVERIFY(!window.isLoading());
        QVERIFY2(window.bannerText().contains(QLatin1String("is a pair scopeline-hipbench recorded")),
                 qPrintable(window.bannerText()));
        QCOMPARE(window.document()->state().pathA, recorded + QStringLiteral("/naive"));

        // A summary that names no pair is reported, naming the file; the pair shown stays.
        QTemporaryDir dir;
        QFile summary(dir.filePath(QStringLiteral("summary.json")));
        QVERIFY(summary.open(QIODevice::WriteOnly));
        summary.write(R"({"a":{"label":"eager","path":"out/eager"}})");
        summary.close();
        QVERIFY(!window.openRecording(dir.path()));
        QVERIFY(window.bannerText().contains(summary.fileName()));
        QCOMPARE(window.runsA().size(), 5);
    }

    // The Ranks tab's figures are per step of What changed's step scope, and follow it.
    void ranksFollowTheStepScope()
    {
        MainWindow window;
        QVERIFY(openAndWait(window, testdata::dlrmRun(), testdata::dlrmRun()));
        QVERIFY(window.ranksView()->table());
        QCOMPARE(window.ranksView()->table()->stepScope(), QStringLiteral("ProfilerStep"));
        window.diffView()->stepView()->setStepScope(QStringLiteral("## backward ##"));
        QCOMPARE(window.ranksView()->table()->stepScope(), QStringLiteral("## backward ##"));
        const double backward = window.ranksView()->table()->rows().front().stepNs;
        QVERIFY(backward > 0 && backward < 6e6); // 5.113 ms on rank 0, against 12.54 ms a ProfilerStep
    }

    // A candidate that cannot be read (no runs, a truncated trace) is left out and named, in the banner
    // and under the tab's lines, while the others are compared; a baseline that cannot be read fails the
    // open, said in the banner, and the status bar stops saying it loads.
    void variantsThatCannotLoadSaySo()
    {
        QTemporaryDir empty;
        MainWindow window;
        const QString cut = truncatedTrace(empty.path());
        QVERIFY(!cut.isEmpty());
        const QString nothing = QDir(empty.path()).filePath(QStringLiteral("nothing"));
        QVERIFY(QDir().mkpath(nothing));
        window.openVariants(
            {QStringLiteral("A=") + nothing, QStringLiteral("B=") + kEinsum, QStringLiteral("C=") + cut});
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QVERIFY2(window.bannerText().contains(nothing), qPrintable(window.bannerText()));
        QVERIFY2(window.statusText().contains(QLatin1String("could not be opened")),
                 qPrintable(window.statusText()));
        QVERIFY(!window.tabs()->isTabVisible(3));
        window.openVariants(
            {QStringLiteral("A=") + kMatmul, QStringLiteral("B=") + cut, QStringLiteral("C=") + nothing});
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QVERIFY2(window.bannerText().contains(cut) && window.bannerText().contains(nothing),
                 qPrintable(window.bannerText()));
        QVERIFY(!window.tabs()->isTabVisible(3));
        // two variants of one label would be told apart nowhere: refused before anything loads
        window.openVariants({QStringLiteral("X=") + kMatmul, QStringLiteral("X=") + kEinsum, kMatmul});
        QVERIFY(!window.isLoading());
        QVERIFY2(window.bannerText().contains(QLatin1String("two variants are labelled 'X'")),
                 qPrintable(window.bannerText()));
        QVERIFY(!window.tabs()->isTabVisible(3));
        // a path given twice is compared (as the CLI does) and said beside the lines it changes
        window.openVariants(
            {QStringLiteral("X=") + kMatmul, QStringLiteral("Y=") + kEinsum, QStringLiteral("Z=") + kMatmul});
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QVERIFY(window.tabs()->isTabVisible(3));
        const QString lead = window.variantsView()->leadText();
        QVERIFY2(lead.contains(QLatin1String("Note: X and Z are the same runs")) &&
                     lead.contains(QLatin1String("a candidate against the baseline itself")),
                 qPrintable(lead));
        // a candidate of several that cannot be read is left out and named, the others compared
        window.openVariants({QStringLiteral("M=") + kMatmul, QStringLiteral("E=") + kEinsum,
                             QStringLiteral("C=") + cut, QStringLiteral("N=") + nothing});
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.variantsView()->labels(), (QStringList{QStringLiteral("M"), QStringLiteral("E")}));
        QVERIFY2(
            window.bannerText().contains(QStringLiteral("2 variant(s) could not be read and are left out")) &&
                window.bannerText().contains(
                    QStringLiteral("C left out: %1: the gzip data is truncated").arg(cut)) &&
                window.bannerText().contains(QStringLiteral("N left out: ") + nothing),
            qPrintable(window.bannerText()));
        QVERIFY2(window.variantsView()->leadText().contains(QStringLiteral("Note: C left out: ") + cut),
                 qPrintable(window.variantsView()->leadText()));
        // a variant that lost a run says so under the tab's lines too, not only in the banner
        const QString mixed = QDir(empty.path()).filePath(QStringLiteral("mixed"));
        QVERIFY(QDir().mkpath(mixed + QStringLiteral("/run_0")) &&
                QDir().mkpath(mixed + QStringLiteral("/run_1")));
        const QString lost = truncatedTrace(mixed + QStringLiteral("/run_0"));
        QVERIFY(!lost.isEmpty());
        QVERIFY(QFile::copy(kEager + QStringLiteral("/run_1/trace.pt.trace.json.gz"),
                            mixed + QStringLiteral("/run_1/trace.pt.trace.json.gz")));
        window.openVariants({QStringLiteral("E=") + kEager, QStringLiteral("R=") + kReduceOverhead,
                             QStringLiteral("L=") + mixed});
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.variantsView()->labels(),
                 (QStringList{QStringLiteral("E"), QStringLiteral("R"), QStringLiteral("L")}));
        QVERIFY2(window.variantsView()->leadText().contains(
                     QStringLiteral("Note: a run left out, the others of its variant compared: %1: the gzip "
                                    "data is truncated")
                         .arg(lost)),
                 qPrintable(window.variantsView()->leadText()));
    }

    void swapAndExport()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        SessionState state;
        state.scopes = kScopes;
        QVERIFY(openAndWait(window, kMatmul, kEinsum, state));
        QTest::keyClick(&window, Qt::Key_X, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.runsA().front().run.name, QStringLiteral("trace_file_einsum_0"));
        QCOMPARE(window.panel()->selectedScopes(), kScopes);

        QTemporaryDir dir;
        QVERIFY(window.exportReport(dir.path()));
        for (const char *name :
             {"boxplot.png", "timeline_a.png", "timeline_b.png", "stats.csv", "index.html"})
            QVERIFY2(QFileInfo(QDir(dir.path()).filePath(QLatin1String(name))).size() > 0, name);
    }

    // The default layout fits a 1600×1000 and a 1366×768 screen: a usable boxplot, legends and combo
    // boxes whole, ≥ 8 rows of statistics with Scope and Run frozen, What changed's key columns
    // without scrolling sideways, the summary strip's figures whole.
    // Long folder names too: the boxplot's legend held the plot wide enough to squeeze the statistics.
    void fitsTheScreen_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("longNames");
        QTest::newRow("1600x1000") << QSize(1600, 1000) << false;
        QTest::newRow("1366x768") << QSize(1366, 768) << false;
        QTest::newRow("1366x768, long folder names") << QSize(1366, 768) << true;
    }

    void fitsTheScreen()
    {
        QFETCH(QSize, size);
        QFETCH(bool, longNames);
        REQUIRE_TEST_DATA(kEager, kReduceOverhead);
        QTemporaryDir links(testdata::scratchDir());
        QString a = kEager, b = kReduceOverhead;
        if (longNames) {
            a = links.filePath(QStringLiteral("eager_baseline_with_default_inductor_flags_and_a_long_name"));
            b = links.filePath(
                QStringLiteral("reduce_overhead_candidate_with_cudagraph_trees_and_a_long_name"));
            QVERIFY(QFile::link(kEager, a) && QFile::link(kReduceOverhead, b));
        }
        QSettings().clear(); // the default layout, not one saved by an earlier test
        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        SessionState state;
        state.scopes = {QStringLiteral("ProfilerStep"), QStringLiteral("attention"), QStringLiteral("mlp")};
        QVERIFY(openAndWait(window, a, b, state));
        settle(window);
        // the window is not forced taller or wider than the screen by its parts' minimum sizes
        QVERIFY2(window.minimumSizeHint().height() <= size.height() &&
                     window.minimumSizeHint().width() <= size.width(),
                 qPrintable(QStringLiteral("%1x%2")
                                .arg(window.minimumSizeHint().width())
                                .arg(window.minimumSizeHint().height())));
        QCOMPARE(window.size(), size);

        // each timeline shows, at first sight, a CPU launch call above the GPU streams
        for (TimelineView *view : {window.timeline()->viewA(), window.timeline()->viewB()}) {
            const TraceData &trace = *view->run().trace;
            const QRect plot = view->plotRect();
            bool launchInView = false;
            for (uint32_t e = 0; e < trace.eventCount() && !launchInView; ++e)
                if (trace.kind[e] == EventKind::KernelLaunch) {
                    const QRect r = view->eventRect(e);
                    launchInView = !r.isEmpty() && r.top() >= plot.top() && r.bottom() <= plot.bottom() &&
                                   r.intersects(plot);
                }
            QVERIFY2(launchInView,
                     qPrintable(QStringLiteral("no launch call in view at %1 px high").arg(plot.height())));
        }

        // What changed: the key columns in view, titles whole
        window.tabs()->setCurrentWidget(window.diffView());
        settle(window);
        const QTableView *diff = window.diffView()->tableView();
        for (int column :
             {KernelDiffModel::column("kernel"), KernelDiffModel::column("verdict"),
              KernelDiffModel::column("per_call_change"), KernelDiffModel::column("delta_total_ns"),
              KernelDiffModel::column("share_of_delta"), KernelDiffModel::column("total_a_ns"),
              KernelDiffModel::column("total_b_ns"), KernelDiffModel::column("run_level_change")}) {
            const QString problem = columnProblem(diff, column);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        QVERIFY2(visibleRows(diff) >= 5, qPrintable(QString::number(visibleRows(diff))));
        // the step waterfall, the per-step chart, the kernel waterfall and a kernel's boxplot: labels apart
        const int timelinesBefore = window.timeline()->height();
        window.diffView()->selectRow(0);
        settle(window);
        // a selected kernel still fits: nothing clipped, its boxplot readable, its caption whole, and
        // the timelines give up at most a few rows' height for it
        QVERIFY2(window.minimumSizeHint().height() <= size.height(),
                 qPrintable(QString::number(window.minimumSizeHint().height())));
        QVERIFY2(window.diffView()->boxPlot()->height() >= 78,
                 qPrintable(QString::number(window.diffView()->boxPlot()->height())));
        const QLabel *caption = window.diffView()->kernelStats();
        QVERIFY2(
            caption->height() >= caption->sizeHint().height(),
            qPrintable(QStringLiteral("%1 < %2").arg(caption->height()).arg(caption->sizeHint().height())));
        QVERIFY2(
            window.timeline()->height() >= timelinesBefore - 40,
            qPrintable(QStringLiteral("%1 -> %2").arg(timelinesBefore).arg(window.timeline()->height())));
        const QList<QCustomPlot *> diffPlots = window.diffView()->findChildren<QCustomPlot *>();
        QVERIFY(diffPlots.size() >= 4);
        for (QCustomPlot *plot : diffPlots) {
            const QString overlap = plot->isVisible() ? labelsOverlap(plot) : QString();
            QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        }
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_fit_%1x%2%3_changed.png")
                                                             .arg(size.width())
                                                             .arg(size.height())
                                                             .arg(longNames ? "_long" : ""))));

        // Scopes: boxplot, legend, statistics rows, frozen columns, combo boxes, summary strip
        window.tabs()->setCurrentWidget(window.panel());
        settle(window);
        const BoxPlotView *box = window.panel()->boxPlot();
        QVERIFY2(box->plot()->height() >= 220 && box->plot()->width() >= 360,
                 qPrintable(QStringLiteral("%1x%2").arg(box->plot()->width()).arg(box->plot()->height())));
        QCPLegend *legend = box->plot()->legend;
        QVERIFY(box->plot()->rect().contains(legend->outerRect()));
        QVERIFY2(labelsOverlap(box->plot()).isEmpty(), qPrintable(labelsOverlap(box->plot())));
        for (int i = 0; i < legend->itemCount(); ++i)
            if (const QCPAbstractLegendItem *item = legend->item(i)) // none in a wrapped row's empty cells
                QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width(),
                         qPrintable(QStringLiteral("%1: %2 < %3")
                                        .arg(i)
                                        .arg(item->outerRect().width())
                                        .arg(item->minimumOuterSizeHint().width())));
        const QTableView *stats = window.panel()->tableView();
        QVERIFY2(visibleRows(stats) >= 8, qPrintable(QString::number(visibleRows(stats))));
        for (int column : {ComparisonTableModel::column("scope"), ComparisonTableModel::column("run"),
                           ComparisonTableModel::column("verdict")}) {
            const QString problem = columnProblem(stats, column);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        // scrolled to the right, Scope and Run stay in view
        auto *frozen = stats->findChild<QTableView *>(QStringLiteral("frozenColumns"));
        QVERIFY(frozen);
        stats->horizontalScrollBar()->setValue(stats->horizontalScrollBar()->maximum());
        QTest::qWait(20);
        if (stats->horizontalScrollBar()->maximum() > 0) {
            QVERIFY(frozen->isVisible());
            QVERIFY(!frozen->isColumnHidden(ComparisonTableModel::column("scope")));
            QVERIFY(!frozen->isColumnHidden(ComparisonTableModel::column("run")));
            QVERIFY(frozen->isColumnHidden(ComparisonTableModel::column("verdict")));
            QCOMPARE(frozen->width(), stats->columnWidth(ComparisonTableModel::column("scope")) +
                                          stats->columnWidth(ComparisonTableModel::column("run")) + 1);
        }
        stats->horizontalScrollBar()->setValue(0);
        for (QComboBox *combo : window.panel()->picker()->findChildren<QComboBox *>()) {
            QVERIFY2(textFits(combo, combo->currentText(), 30), qPrintable(combo->currentText()));
            for (int i = 0; i < combo->count(); ++i)
                QVERIFY2(combo->view()->minimumWidth() >=
                             combo->fontMetrics().horizontalAdvance(combo->itemText(i)),
                         qPrintable(combo->itemText(i)));
        }
        for (const QLabel *label : window.panel()->summaryStrip()->findChildren<QLabel *>())
            QVERIFY2(label->width() >= label->sizeHint().width() || label->text().contains(QLatin1Char(':')),
                     qPrintable(label->text()));
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_fit_%1x%2%3_scopes.png")
                                                             .arg(size.width())
                                                             .arg(size.height())
                                                             .arg(longNames ? "_long" : ""))));
    }

    // A run named by a long file (nsys exports: pipit__tests__data__…-cuda.sqlite) shows in its box
    // elided in the middle, both its ends in view; the style had cut its end off at the box's edge.
    void longRunNamesElideInTheMiddle()
    {
        const QString name =
            QStringLiteral("pipit__tests__data__cloverleaf-nsys__perlmutter-cloverleaf-cuda.sqlite");
        RunPicker picker(QStringLiteral("A"));
        picker.setRuns({TraceRun{name, QStringLiteral("/traces/") + name}});
        picker.show();
        QVERIFY(QTest::qWaitForWindowExposed(&picker));
        auto *box = static_cast<ElidingComboBox *>(picker.runBox());
        QCOMPARE(box->currentText(), name);
        const QString shown = box->shownText();
        QVERIFY2(shown.contains(QChar(0x2026)) && shown.startsWith(QLatin1String("pipit__")) &&
                     shown.endsWith(QLatin1String(".sqlite")),
                 qPrintable(shown));
        QStyleOptionComboBox option;
        option.initFrom(box);
        option.editable = false;
        const QRect field =
            box->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, box);
        QVERIFY2(box->fontMetrics().horizontalAdvance(shown) <= field.width(),
                 qPrintable(QStringLiteral("%1 px in %2")
                                .arg(box->fontMetrics().horizontalAdvance(shown))
                                .arg(field.width())));
    }

    // The bundled JAX pair at 1366×768 opens Scopes on its step scope's GPU spans: the boxplot's long
    // title held the plot 550 px wide and the verdicts beside it out of view; elided, they are in view.
    void scopesVerdictsInViewAtFirstSight()
    {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        window.tabs()->setCurrentWidget(window.panel());
        settle(window);
        QCOMPARE(window.panel()->sampleMode(), SampleMode::Span);
        const QTableView *stats = window.panel()->tableView();
        for (const char *column : {"scope", "run", "verdict"}) {
            const QString problem = columnProblem(stats, ComparisonTableModel::column(column));
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        QCOMPARE(window.panel()->boxPlot()->title(), ScopeBoxPlot::title(SampleMode::Span, true));
        // the plot is too narrow here for the whole title: what was pooled comes before the definition,
        // which the elision cuts (it had cut "all runs pooled")
        QVERIFY2(window.panel()->boxPlot()->title().startsWith(
                     QStringLiteral("Scope instance GPU spans — all runs pooled (first kernel start")),
                 qPrintable(window.panel()->boxPlot()->title()));
    }

    // A JAX pair at 1366×768: its python3 row nests five lanes, the launch calls in the deepest, right
    // above the GPU; on a view too short for the row and the streams, that lane stays in view rather
    // than snapped out of it (nothing of the launches was shown, a blank below the stream instead).
    void launchLaneAboveTheGpuAtFirstSight()
    {
        const QString runs = testdata::path("jax_h100/repeated_runs");
        QSettings().clear(); // the default layout
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(openAndWait(window, runs + QStringLiteral("/trace_file_matmul_[0-3]"),
                            runs + QStringLiteral("/trace_file_einsum_[0-3]")));
        QTest::qWait(100);
        for (TimelineView *view : {window.timeline()->viewA(), window.timeline()->viewB()}) {
            const TraceData &trace = *view->run().trace;
            const QRect plot = view->plotRect();
            int launches = 0, shown = 0; // in the visible time window; shown: at least half in view
            for (uint32_t e = 0; e < trace.eventCount(); ++e)
                if (trace.kind[e] == EventKind::GraphLaunch || trace.kind[e] == EventKind::KernelLaunch) {
                    const QRect r = view->eventRect(e);
                    if (r.isEmpty() || r.right() < plot.left() || r.left() > plot.right())
                        continue;
                    ++launches;
                    shown += 2 * r.intersected(plot).height() >= r.height();
                }
            QVERIFY(launches > 0);
            QVERIFY2(shown == launches,
                     qPrintable(QStringLiteral("%1 of %2 launches in view, plot %3 px high")
                                    .arg(shown)
                                    .arg(launches)
                                    .arg(plot.height())));
        }
    }

    // Each documented shortcut does what F1 says, pressed where a user would (a timeline has the
    // focus after start; the panel's keys in the panel; Ctrl+C in a table).
    void keysAsDocumented()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        SessionState state;
        state.scopes = kScopes;
        QVERIFY(openAndWait(window, kMatmul, kEinsum, state));
        TimelineView *view = window.timeline()->viewA();
        const auto focusTimeline = [&window, view] {
            closeOthers(&window);
            window.activateWindow();
            QApplication::setActiveWindow(&window);
            QVERIFY(QTest::qWaitForWindowActive(&window));
            view->setFocus();
            QCoreApplication::processEvents();
        };
        // modal dialogs the keys open are closed from inside their loops
        QTimer poll;
        poll.setInterval(20);
        connect(&poll, &QTimer::timeout, &window, [&window] {
            if (QApplication::activeModalWidget())
                closeOthers(&window);
        });
        poll.start();

        // Esc: the range first, then the selection
        focusTimeline();
        TimelineViewState &st = view->viewState();
        const int64_t t0 = view->visibleStart() + (view->visibleEnd() - view->visibleStart()) / 4;
        const int64_t t1 = view->visibleStart() + (view->visibleEnd() - view->visibleStart()) / 2;
        st.press(QPoint(300, 60), TimelineViewState::Drag::Select, t0);
        st.moveTo(QPoint(420, 60));
        st.extendRange(t1);
        TimelineViewState::Drag ended;
        st.release(t1, &ended);
        QVERIFY(st.hasRange());
        view->selectEvent(int64_t(window.runsA().front().analysis->kernels().front()));
        QVERIFY(!window.details()->toPlainText().isEmpty());
        QTest::keyClick(view, Qt::Key_Escape);
        QVERIFY(!st.hasRange());
        QVERIFY(view->selectedEvent() >= 0);
        QTest::keyClick(view, Qt::Key_Escape);
        QCOMPARE(view->selectedEvent(), int64_t(-1));
        QVERIFY2(window.details()->toPlainText().isEmpty(), qPrintable(window.details()->toPlainText()));

        // Ctrl+0 is the Fit button: under Lock zoom, both runs whole and aligned (it fitted each alone,
        // and then B's span dragged A along)
        QVERIFY(window.timeline()->zoomLocked());
        const auto visible = [&window] {
            const TimelineView *a = window.timeline()->viewA(), *b = window.timeline()->viewB();
            return std::array<int64_t, 4>{a->visibleStart(), a->visibleEnd(), b->visibleStart(),
                                          b->visibleEnd()};
        };
        window.timeline()->fitBoth();
        const std::array<int64_t, 4> fitted = visible();
        view->setVisibleRange(t0, t1);
        QVERIFY(visible() != fitted);
        focusTimeline();
        QTest::keyClick(view, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(visible(), fitted);

        // Ctrl+F from the timeline: the filter of the tab shown
        window.tabs()->setCurrentWidget(window.diffView());
        focusTimeline();
        QTest::keyClick(view, Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(window.diffView()->filterEdit()));
        window.tabs()->setCurrentWidget(window.panel());
        focusTimeline();
        QTest::keyClick(view, Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(window.panel()->picker()->filterEdit()));

        // F fits, Z zooms to the range (the timeline's own keys)
        focusTimeline();
        view->zoomBy(8);
        const int64_t zoomed = view->visibleEnd() - view->visibleStart();
        QTest::keyClick(view, Qt::Key_F);
        QVERIFY(view->visibleEnd() - view->visibleStart() > zoomed);

        // Every action with a shortcut: pressed where it applies, it triggers. Quit last.
        QList<QAction *> actions;
        QAction *quit = nullptr;
        for (QAction *action : window.findChildren<QAction *>()) {
            if (action->shortcut().isEmpty())
                continue;
            if (action->text() == QLatin1String("&Quit"))
                quit = action;
            else
                actions.append(action);
        }
        QVERIFY(actions.size() >= 15);
        const QString help = window.shortcutHelp();
        for (const char *documented :
             {"Ctrl+O", "Ctrl+Shift+O", "Ctrl+S", "Ctrl+Shift+S", "Ctrl+E", "Ctrl+R", "F5", "Ctrl+Shift+X",
              "Esc", "Ctrl+0", "Ctrl+K", "Ctrl+1", "Ctrl+2", "Ctrl+F", "Ctrl+P", "Ctrl+L", "Ctrl+C", "F1"})
            QVERIFY2(help.contains(QStringLiteral("<b>%1").arg(QLatin1String(documented))) ||
                         help.contains(QStringLiteral(", %1").arg(QLatin1String(documented))),
                     documented);
        for (QAction *action : actions) {
            QWidget *target = view;
            if (action->shortcutContext() != Qt::WindowShortcut &&
                action->shortcutContext() != Qt::ApplicationShortcut) {
                const QList<QObject *> owners = action->associatedObjects();
                target = owners.isEmpty() ? nullptr : qobject_cast<QWidget *>(owners.front());
                QVERIFY2(target, qPrintable(action->text()));
            }
            const bool inPanel = window.panel()->isAncestorOf(target) || target == window.panel();
            if (inPanel)
                window.tabs()->setCurrentWidget(window.panel());
            else if (window.diffView()->isAncestorOf(target))
                window.tabs()->setCurrentWidget(window.diffView());
            focusTimeline();
            target->setFocus();
            QCoreApplication::processEvents();
            QSignalSpy triggered(action, &QAction::triggered);
            const QKeyCombination key = action->shortcut()[0];
            QTest::keyClick(target, key.key(), key.keyboardModifiers());
            QVERIFY2(triggered.count() == 1,
                     qPrintable(action->text() + QLatin1Char(' ') +
                                action->shortcut().toString(QKeySequence::NativeText)));
            QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000)); // F5, swap
        }
        QVERIFY(quit);
        QCOMPARE(quit->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Q));
        focusTimeline();
        QTest::keyClick(view, quit->shortcut()[0].key(), quit->shortcut()[0].keyboardModifiers());
        QVERIFY(!window.isVisible());
    }

    // Export Report: a folder typed into the dialog that does not exist yet is created and used;
    // without scopes the report holds What changed and the steps, no boxplot and no statistics.
    void reportIntoATypedNewFolder()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        window.panel()->setSelectedScopes({}); // the step scope it opened on, cleared
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("new-one"));
        QTimer poll;
        poll.setInterval(20);
        bool typed = false;
        connect(&poll, &QTimer::timeout, &window, [&] {
            auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget());
            if (!dialog || typed)
                return;
            typed = true;
            dialog->setDirectory(dir.path()); // the user goes to a folder and types a new name
            dialog->selectFile(QStringLiteral("new-one"));
            static_cast<QDialog *>(dialog)->accept(); // QFileDialog's own is protected; virtual
        });
        poll.start();
        for (QAction *action : window.findChildren<QAction *>())
            if (action->text() == QStringLiteral("&Export Report…"))
                action->trigger();
        QVERIFY(typed);
        QVERIFY2(window.bannerText().isEmpty(), qPrintable(window.bannerText()));
        const QDir out(folder);
        for (const char *name : {"index.html", "diff.png", "diff.csv", "steps.png", "steps.csv",
                                 "timeline_a.png", "timeline_b.png"})
            QVERIFY2(out.exists(QLatin1String(name)), name);
        QVERIFY(!out.exists(QStringLiteral("boxplot.png")));
        QVERIFY(!out.exists(QStringLiteral("stats.csv")));
        // the timelines whole: as tall as their rows, no scroll bar painted in
        const QImage timeline(out.filePath(QStringLiteral("timeline_a.png")));
        QVERIFY(timeline.height() > window.timeline()->viewA()->height());
    }

    // Save Session As with a name typed without a suffix saves NAME.scopeline.json; where that file is
    // there, it asks first (the dialog asked of NAME alone), and No keeps it.
    void sessionNameWithoutSuffixAsksBeforeReplacing()
    {
        MainWindow window;
        window.show();
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("mine.scopeline.json"));
        QString asked;
        QTimer poll;
        poll.setInterval(20);
        connect(&poll, &QTimer::timeout, &window, [&] {
            if (auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget())) {
                dialog->setDirectory(dir.path());
                dialog->selectFile(QStringLiteral("mine"));
                static_cast<QDialog *>(dialog)->accept();
            } else if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                asked = box->text();
                box->button(QMessageBox::No)->click();
            }
        });
        poll.start();
        const auto saveAs = [&window] {
            for (QAction *action : window.findChildren<QAction *>())
                if (action->text() == QStringLiteral("Save Session &As…"))
                    action->trigger();
        };
        saveAs();
        QCOMPARE(window.sessionFile(), session);
        QVERIFY(asked.isEmpty());
        QFile kept(session);
        QVERIFY(kept.open(QIODevice::WriteOnly) && kept.write("mine") == 4);
        kept.close();
        saveAs();
        QVERIFY2(asked.contains(QDir::toNativeSeparators(session) + QStringLiteral(" already exists")),
                 qPrintable(asked));
        QCOMPARE(QFileInfo(session).size(), qint64(4)); // No: not replaced
    }

    // A session whose path is 10 MB of text ends at once, with a message naming the file.
    void absurdSessionFailsFast()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("absurd.scopeline.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("{\"format\": \"scopeline-session\", \"version\": 1, \"paths\": {\"a\": \"");
        out.write(QByteArray(10 * 1024 * 1024, 'x'));
        out.write("\", \"b\": \"/b\"}}");
        out.close();
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QElapsedTimer timer;
        timer.start();
        QVERIFY(!window.openSession(file));
        QTest::qWait(50);
        QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY2(window.bannerText().contains(QLatin1String("absurd.scopeline.json")),
                 qPrintable(window.bannerText().left(300)));
        QVERIFY(window.bannerText().contains(QLatin1String("paths.a")));
        QVERIFY2(window.minimumSizeHint().height() <= 768,
                 "the banner pushes the window off a 768 px screen");
        QVERIFY(!window.grab().isNull());
    }

    // Without a display (over SSH, in CI: no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM), where Qt had
    // aborted at the window system before reading an option: --screenshot draws offscreen, a mistyped
    // option is named as typed, and a window that cannot open says why.
    void startsWithoutDisplay()
    {
        const QString gui = QStringLiteral(SCOPELINE_GUI);
        QProcessEnvironment noDisplay = QProcessEnvironment::systemEnvironment();
        for (const QString &variable : {QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("DISPLAY"),
                                        QStringLiteral("WAYLAND_DISPLAY")})
            noDisplay.remove(variable);
        const auto headless = [&](const QStringList &arguments) {
            return runProcess(gui, arguments, {}, noDisplay);
        };
        QTemporaryDir dir;
        const QString shot = dir.filePath(QStringLiteral("headless.png"));
        ProcessResult result = headless({kMatmul, kEinsum, QStringLiteral("--screenshot"), shot});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QVERIFY(QImage(shot).width() > 0);
        result = headless({kMatmul, kEinsum});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("scopeline: no display to open the window on"), result.err.constData());
        const std::pair<QStringList, const char *> mistyped[] = {
            {{QStringLiteral("-step"), QStringLiteral("x"), kMatmul, kEinsum},
             "scopeline: unknown option -step (a long option takes two dashes: --step?)\n"},
            {{QStringLiteral("--bogus"), kMatmul}, "scopeline: unknown option --bogus\n"},
            {{QStringLiteral("-bogus"), kMatmul}, "scopeline: unknown option -bogus\n"}};
        for (const auto &[arguments, said] : mistyped) {
            result = headless(arguments + QStringList{QStringLiteral("--screenshot"), shot});
            QCOMPARE(result.exitCode, 1);
            QVERIFY2(result.err.contains(said), result.err.constData());
        }
        // beside --help, which would print it: the option is said all the same
        result = headless({QStringLiteral("--help"), QStringLiteral("-step")});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("scopeline: unknown option -step"), result.err.constData());
        // with a platform chosen, a mistyped option is said the same
        QProcessEnvironment offscreen = noDisplay;
        offscreen.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        result = runProcess(gui, {QStringLiteral("-step"), QStringLiteral("x"), kMatmul}, {}, offscreen);
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(mistyped[0].second), result.err.constData());
        // -vh, which the check for --help before the window system does not tell, prints the version
        result = runProcess(gui, {QStringLiteral("-vh")}, {}, offscreen);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.startsWith("Scopeline "), result.out.constData());
    }

    // --screenshot says and exits 1 when it cannot do what was asked: a path it cannot write, a
    // --kernel that matches nothing.
    void screenshotExitCodes()
    {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QTemporaryDir dir;
        const QString gui = QStringLiteral(SCOPELINE_GUI);
        const QString good = dir.filePath(QStringLiteral("ok.png"));
        ProcessResult result = runProcess(gui, {kMatmul, kEinsum, QStringLiteral("--screenshot"), good});
        QCOMPARE(result.exitCode, 0);
        QVERIFY(QFileInfo(good).size() > 0);
        // sides named LABEL=PATH, as the CLI takes them: the paths open (the pattern had been read whole)
        const QString labelled = dir.filePath(QStringLiteral("labelled.png"));
        result = runProcess(gui, {QStringLiteral("m=") + kMatmul, QStringLiteral("e=") + kEinsum,
                                  QStringLiteral("--screenshot"), labelled});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QVERIFY(QFileInfo(labelled).size() > 0);
        const QString unwritable = dir.filePath(QStringLiteral("no/such/folder/shot.png"));
        result = runProcess(gui, {kMatmul, kEinsum, QStringLiteral("--screenshot"), unwritable});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("not writing the screenshot") && result.err.contains("no folder"),
                 result.err.constData());
        // a trace there, the one shown too, is not replaced by the picture (a name without a suffix is
        // written as PNG; an image's suffix alike)
        const QString einsum =
            kEinsum +
            QStringLiteral("/trace_file_einsum_0/plugins/profile/2026_11_22_13_41_39/vm.trace.json.gz");
        for (const QString &name : {QStringLiteral("trace"), QStringLiteral("trace.png")}) {
            const QString trace = dir.filePath(name);
            QVERIFY(QFile::copy(einsum, trace));
            result = runProcess(gui, {kMatmul, trace, QStringLiteral("--screenshot"), trace});
            QCOMPARE(result.exitCode, 1);
            QVERIFY2(result.err.contains("it is a trace or a run summary, which it would replace"),
                     result.err.constData());
            QCOMPARE(QFileInfo(trace).size(), QFileInfo(einsum).size());
            QVERIFY(!QFile::exists(trace + QStringLiteral(".png")));
        }
        result = runProcess(gui, {kMatmul, kEinsum, QStringLiteral("--kernel"),
                                  QStringLiteral("no_kernel_is_named_this"), QStringLiteral("--screenshot"),
                                  dir.filePath(QStringLiteral("k.png"))});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("no kernel name contains no_kernel_is_named_this"),
                 result.err.constData());
        // --tab: the Ranks tab of a job's ranks; of one GPU's runs there is none, and a wrong name is said
        const QString ranks = dir.filePath(QStringLiteral("ranks.png"));
        result = runProcess(gui, {testdata::dlrmRun(), testdata::dlrmRun(), QStringLiteral("--tab"),
                                  QStringLiteral("ranks"), QStringLiteral("--screenshot"), ranks});
        QVERIFY2(result.exitCode == 0, result.err.constData()); // once 1 under ctest -j2, not again in 9 runs
        QVERIFY(QFileInfo(ranks).size() > 0);
        // a partial world opens: its note said, the picture taken (a banner of notes had failed it); a B
        // that cannot be read fails it, though A is shown against itself
        // (copies: another test linking the job's files under ctest -j2 changes them on disk, said instead)
        const QString whole = dir.filePath(QStringLiteral("ranks_0_7")),
                      partial = dir.filePath(QStringLiteral("ranks_4_7"));
        QVERIFY(QDir().mkpath(whole) && QDir().mkpath(partial));
        for (const QString &file : QDir(testdata::dlrmRun()).entryList({QStringLiteral("worker*")})) {
            const QString from = QDir(testdata::dlrmRun()).filePath(file);
            QVERIFY(QFile::copy(from, QDir(whole).filePath(file)));
            if (QRegularExpression(QStringLiteral("^worker[4-7]_")).match(file).hasMatch())
                QVERIFY(QFile::copy(from, QDir(partial).filePath(file)));
        }
        QCOMPARE(QDir(partial).entryList(QDir::Files).size(), 4);
        result = runProcess(gui, {whole, partial, QStringLiteral("--screenshot"),
                                  dir.filePath(QStringLiteral("partial.png"))});
        QVERIFY2(result.exitCode == 0 && result.err.contains("4 of 8 ranks of the job (a partial world)"),
                 result.err.constData());
        // an empty path (an unset variable, or LABEL= alone) is said and fails; a name beginning or ending
        // in a space is a name (not trimmed)
        for (const QString &empty : {QString(), QStringLiteral("x=")}) {
            result = runProcess(gui, {kMatmul, empty, QStringLiteral("--screenshot"),
                                      dir.filePath(QStringLiteral("empty.png"))});
            QVERIFY2(result.exitCode == 1 &&
                         result.err.contains("B: an empty path: give a trace file or folder"),
                     result.err.constData());
        }
        const QString spaced = dir.filePath(QStringLiteral(" spaced "));
        QVERIFY(QDir().mkpath(spaced) && QFile::copy(einsum, spaced + QStringLiteral("/ b.trace.json.gz")));
        result =
            runProcess(gui, {spaced, spaced + QStringLiteral("/ b.trace.json.gz"),
                             QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("spaced.png"))});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        const QString cut = truncatedTrace(dir.path());
        QVERIFY(!cut.isEmpty());
        result = runProcess(
            gui, {kMatmul, cut, QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("cut.png"))});
        QVERIFY2(result.exitCode == 1 && result.err.contains("the gzip data is truncated"),
                 result.err.constData());
        // a --step that is not there, a session that cannot be read, variants refused: not what was asked for
        result = runProcess(gui, {kMatmul, kEinsum, QStringLiteral("--step"), QStringLiteral("NoSuchStep"),
                                  QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("step.png"))});
        QVERIFY2(result.exitCode == 1 && result.err.contains("--step NoSuchStep: no step of NoSuchStep"),
                 result.err.constData());
        const QString corrupt = dir.filePath(QStringLiteral("corrupt.scopeline.json"));
        QFile corruptFile(corrupt);
        QVERIFY(corruptFile.open(QIODevice::WriteOnly) && corruptFile.write("{\"scopeline-session\": ") > 0);
        corruptFile.close();
        result =
            runProcess(gui, {corrupt, QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("s.png"))});
        QVERIFY2(result.exitCode == 1 && result.err.contains("not a valid session file"),
                 result.err.constData());
        result = runProcess(gui, {kMatmul, kMatmul, kMatmul, QStringLiteral("--screenshot"),
                                  dir.filePath(QStringLiteral("v.png"))});
        QVERIFY2(result.exitCode == 1 && result.err.contains("two variants are labelled"),
                 result.err.constData());
        result = runProcess(gui, {kMatmul, kEinsum, QStringLiteral("--tab"), QStringLiteral("ranks"),
                                  QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("none.png"))});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("--tab ranks: this pair has no such tab"), result.err.constData());
        // a bad option value is bad usage, exit 1, as every other the window refuses (and as the CLI's)
        for (const QStringList &bad : {QStringList{QStringLiteral("--size"), QStringLiteral("big")},
                                       QStringList{QStringLiteral("--size"), QStringLiteral("20000x20000")},
                                       QStringList{QStringLiteral("--palette"), QStringLiteral("pink")},
                                       QStringList{QStringLiteral("--range"), QStringLiteral("5:1")},
                                       QStringList{QStringLiteral("--match"), QStringLiteral("fuzzy")}}) {
            result = runProcess(gui, QStringList{kMatmul, kEinsum} + bad);
            QVERIFY2(result.exitCode == 1 && result.err.contains(bad.front().toUtf8()),
                     qPrintable(bad.join(' ')));
        }
        result = runProcess(gui, {kMatmul, kEinsum, QStringLiteral("--tab"), QStringLiteral("bogus")});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("--tab takes changed, scopes, ranks or variants"), result.err.constData());
        // --range past the end of the trace: said, not a picture of the whole run
        result = runProcess(gui, {kMatmul, kEinsum, QStringLiteral("--range"),
                                  QStringLiteral("500000000000:600000000000"), QStringLiteral("--screenshot"),
                                  dir.filePath(QStringLiteral("r.png"))});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("--range starts after the end of A's timeline"), result.err.constData());
        // ending past it: cut at its end and said (it had slid back, or showed the whole run)
        result =
            runProcess(gui, {kMatmul, kEinsum, QStringLiteral("--range"), QStringLiteral("1000:600000000000"),
                             QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("r2.png"))});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.err.contains("--range ends after the end of A's timeline"), result.err.constData());
        // a folder without traces opened alone: the load's message (not a session's), and exit 1
        QTemporaryDir empty;
        result = runProcess(
            gui, {empty.path(), QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("e.png"))});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("no trace files found"), result.err.constData());
        // --help and --version need no window system
        QProcessEnvironment headless = QProcessEnvironment::systemEnvironment();
        headless.remove(QStringLiteral("QT_QPA_PLATFORM"));
        headless.remove(QStringLiteral("DISPLAY"));
        headless.remove(QStringLiteral("WAYLAND_DISPLAY"));
        for (const QString &flag : {QStringLiteral("--help"), QStringLiteral("--version")}) {
            QProcess process;
            process.setProcessEnvironment(headless);
            process.start(gui, {flag});
            QVERIFY(process.waitForFinished(30000));
            QCOMPARE(process.exitCode(), 0);
            QVERIFY(process.readAllStandardOutput().contains("Scopeline") || flag == QLatin1String("--help"));
        }
    }

    // Help > About names the license (GPL-3.0-or-later, because QCustomPlot is GPL-3.0).
    void aboutNamesTheLicense()
    {
        MainWindow window;
        window.show();
        QAction *about = nullptr;
        for (QAction *action : window.findChildren<QAction *>())
            if (action->text() == QLatin1String("&About Scopeline"))
                about = action;
        QVERIFY(about);
        QString text;
        QTimer poll; // runs inside the message box's own event loop
        poll.setInterval(10);
        connect(&poll, &QTimer::timeout, &window, [&text, &poll] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                text = box->text();
                poll.stop();
                box->accept();
            }
        });
        poll.start();
        about->trigger(); // modal: returns once the timer has read and closed the box
        QVERIFY2(text.contains(QLatin1String("GPL-3.0-or-later")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("QCustomPlot, which it links, is GPL-3.0")), qPrintable(text));
    }
};

QTEST_MAIN(TstMainWindow)
#include "tst_mainwindow.moc"
