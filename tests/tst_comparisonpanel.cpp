// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison panel driven as a user would, on the real JAX H100 matmul vs einsum (cuBLAS) pair:
// selecting scopes programmatically and by clicking, filtering, patterns, the keyboard shortcuts, the
// threshold, CSV copy, and a screenshot of the whole panel. The one-process caveat shows as a banner
// (and in the run-level verdicts' tooltips) when the sides come from one process each, and only then.

#include "boxplotcheck.h"
#include "testdata.h"
#include "testprocess.h"

#include "model/comparison/replication.h"
#include "model/loading/loadedrun.h"
#include "model/loading/tracefolder.h"
#include "model/tables/durationformat.h"
#include "model/tables/tableformat.h"
#include "widgets/charts/boxplotview.h"
#include "widgets/panels/caveatbanner.h"
#include "widgets/panels/comparisonpanel.h"
#include "widgets/panels/scopepicker.h"
#include "widgets/panels/summarystrip.h"
#include "widgets/tables/comparisontablemodel.h"
#include "widgets/tables/scopelistmodel.h"
#include "widgets/tables/statisticstable.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolTip>
#include <QtTest>

using namespace scopeline;

namespace {

const QString kCublas = testdata::path("jax_h100/jax_named_scopes_cublas");
const QStringList kScopes = {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"), QStringLiteral("mlp")};

QList<LoadedRun> loadSide(const QString &pattern)
{
    return LoadedRun::loadAll(TraceFolder::scan(pattern));
}

// The proxy row of a scope in the picker's view.
int pickerRow(const ScopePicker *picker, const QString &name)
{
    for (int row = 0; row < picker->proxy()->rowCount(); ++row)
        if (picker->proxy()->index(row, 0).data(ScopeListModel::NameRole).toString() == name)
            return row;
    return -1;
}

void clickScope(ScopePicker *picker, const QString &name, Qt::KeyboardModifiers modifiers = {})
{
    const int row = pickerRow(picker, name);
    QVERIFY2(row >= 0, qPrintable(name));
    QTableView *view = picker->view();
    view->scrollTo(picker->proxy()->index(row, 0));
    const QRect rect = view->visualRect(picker->proxy()->index(row, ScopeListModel::ScopeColumn));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, modifiers, rect.center());
}

} // namespace

class TstComparisonPanel : public QObject
{
    Q_OBJECT

private:
    QList<LoadedRun> m_a, m_b;
    QString m_labelA, m_labelB;

    void open(ComparisonPanel &panel) { panel.setSides(m_a, m_b, m_labelA, m_labelB); }

    // WCAG's contrast ratio of two colours' relative luminances.
    static double contrast(const QColor &x, const QColor &y)
    {
        const auto luminance = [](const QColor &c) {
            const auto linear = [](double v) {
                return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
            };
            return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
        };
        const double lx = luminance(x), ly = luminance(y);
        return (std::max(lx, ly) + 0.05) / (std::min(lx, ly) + 0.05);
    }

    void showActive(ComparisonPanel &panel)
    {
        panel.resize(1400, 900);
        panel.show();
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
    }

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(kCublas);
        m_labelA = kCublas + QStringLiteral("/trace_file_matmul_*");
        m_labelB = kCublas + QStringLiteral("/trace_file_einsum_*");
        m_a = loadSide(m_labelA);
        m_b = loadSide(m_labelB);
        QCOMPARE(m_a.size(), 3);
        QCOMPARE(m_b.size(), 3);
    }

    void emptyPanelShowsHint()
    {
        ComparisonPanel panel;
        QVERIFY(panel.rows().empty());
        QVERIFY(panel.boxPlot()->groups().empty());
        open(panel);
        QVERIFY(panel.selectedScopes().isEmpty());
        QVERIFY(panel.rows().empty());
        QCOMPARE(panel.boxPlot()->hint(), QStringLiteral("Select scopes on the left to compare A and B"));
        QVERIFY(panel.csv().startsWith(QLatin1String("scope,run,n_a,n_b,mean_a_ns,")));
        QCOMPARE(panel.threshold(), 0.01);
        QVERIFY(panel.pooled());
        QVERIFY(!panel.logScale());
        QCOMPARE(panel.matchMode(), MatchMode::Component);
        QCOMPARE(panel.sampleMode(), SampleMode::Kernel);
        // The summary strip: counts summed over runs.
        qint64 kernels = 0;
        for (const LoadedRun &run : m_a)
            kernels += run.analysis->total().kernels;
        QCOMPARE(panel.summaryStrip()->comparison().a.kernels, kernels);
        QCOMPARE(panel.summaryStrip()->comparison().a.runs, 3);
        QVERIFY(!panel.summaryStrip()->text(PooledRuns::BusyTime, 2).isEmpty());
    }

    // Without scrolling: scope, run, the verdict, and beside it the interval it is decided from (an "all"
    // row's run-level change, a run pair's shift interval); the medians' change after them.
    void verdictBesideItsInterval()
    {
        ComparisonPanel panel;
        open(panel);
        const QHeaderView *header = panel.tableView()->horizontalHeader();
        QStringList order;
        for (int visual = 0; visual < 6; ++visual)
            order << ScopeComparison::tableKeys().at(header->logicalIndex(visual));
        QCOMPARE(order.join(QLatin1Char(' ')),
                 QStringLiteral("scope run verdict run_level_change hl_ci_low_ns rel_change_median"));
    }

    // A narrow screen hides columns from the header's menu (the first, the scope, always stays).
    void columnsCanBeHidden()
    {
        ComparisonPanel panel;
        open(panel);
        QTableView *table = panel.tableView();
        QCOMPARE(table->horizontalHeader()->contextMenuPolicy(), Qt::CustomContextMenu);
        std::unique_ptr<QMenu> menu(columnMenu(table, nullptr));
        QCOMPARE(menu->actions().size(), ScopeComparison::tableKeys().size() - 1);
        QAction *run = menu->actions().front();
        QCOMPARE(run->text(),
                 table->model()->headerData(ComparisonTableModel::column("run"), Qt::Horizontal).toString());
        QVERIFY(run->isChecked());
        run->toggle();
        QVERIFY(table->isColumnHidden(ComparisonTableModel::column("run")));
        run->toggle();
        QVERIFY(!table->isColumnHidden(ComparisonTableModel::column("run")));
    }

    // The strip speaks What changed's language: times and counts per run, busy in time (not %), the
    // two kinds of launch delay apart; a change in the text's colour only where its test finds one, with
    // the interval it was judged from beside it, and grey otherwise (never a verdict's red or green).
    void summaryStripPerRun()
    {
        ComparisonPanel panel;
        open(panel);
        const SummaryStrip *strip = panel.summaryStrip();
        qint64 kernels = 0, busy = 0, idle = 0;
        for (const LoadedRun &run : m_a) {
            kernels += run.analysis->total().kernels;
            busy += run.analysis->total().busyNs;
            idle += run.analysis->total().idleNs();
        }
        QCOMPARE(strip->unitText(), QStringLiteral("per run")); // runs of one GPU
        const double runs = double(m_a.size());
        QCOMPARE(strip->comparison().a.value(PooledRuns::Kernels), double(kernels) / runs);
        QCOMPARE(strip->comparison().a.value(PooledRuns::BusyTime), double(busy) / runs);
        QCOMPARE(strip->comparison().a.value(PooledRuns::IdleTime), double(idle) / runs);
        QCOMPARE(strip->text(PooledRuns::BusyTime, 0), formatDuration(double(busy) / runs));
        int findings = 0;
        for (int f = 0; f < SummaryStrip::NUM_FIGURES; ++f) {
            const auto figure = SummaryStrip::Figure(f);
            const QString name = SummaryStrip::figureName(figure);
            QVERIFY2(name.endsWith(QLatin1String("/run")) || name.contains(QLatin1String("delay")) ||
                         name.contains(QLatin1String("/launch")),
                     qPrintable(name));
            QVERIFY2(!strip->text(figure, 0).contains(QLatin1Char('%')), qPrintable(name));
            const QColor colour = strip->changeColor(figure);
            const PooledComparison::Figure &row = strip->comparison().figures[std::size_t(f)];
            const bool finding = row.test.valid() && isFinding(row.verdict);
            findings += finding;
            QCOMPARE(colour == strip->palette().color(QPalette::WindowText), finding);
            // dimmed, yet readable: WCAG's 3:1 for the interval beside it
            QVERIFY2(contrast(colour, strip->palette().color(QPalette::Window)) >= 3,
                     qPrintable(colour.name()));
            if (row.test.valid() && !std::isnan(row.test.ciLow)) // "▲ +5.0 % [+4.1, +5.8]"
                QVERIFY2(strip->text(figure, 2).endsWith(
                             formatChangeInterval(row.test.change, row.test.ciLow, row.test.ciHigh, 1)
                                 .replace(QLatin1Char('-'), QStringLiteral("−"))
                                 .section(QLatin1Char(' '), 2)),
                         qPrintable(strip->text(figure, 2)));
        }
        QVERIFY(findings > 0); // einsum (B) launches fewer kernels than matmul (A), in every run
        // busy and idle time are judged against 1 % of A's GPU span, and the tooltip says how much that is
        // of them (a busy change of −4.7 % [−5.5, −3.9] had read as under a threshold of 1 %)
        for (const auto figure : {PooledRuns::BusyTime, PooledRuns::IdleTime}) {
            const PooledComparison::Figure &row = strip->comparison().figures[std::size_t(figure)];
            QVERIFY(row.test.valid() && row.referenceA > row.meanA);
            QVERIFY2(strip->toolTip(figure, 2).contains(
                         QStringLiteral("threshold 1 % of A's GPU span: %1, %2 of A's ")
                             .arg(formatDuration(0.01 * row.referenceA),
                                  formatPercent(0.01 * row.referenceA / row.meanA))),
                     qPrintable(strip->toolTip(figure, 2)));
        }
        // the threshold re-judges: at 100 % no change is a finding
        panel.setThreshold(1.0);
        for (int f = 0; f < SummaryStrip::NUM_FIGURES; ++f)
            QVERIFY(strip->changeColor(SummaryStrip::Figure(f)) !=
                    strip->palette().color(QPalette::WindowText));
        QVERIFY(SummaryStrip::figureName(PooledRuns::KernelLaunchDelay) !=
                SummaryStrip::figureName(PooledRuns::GraphLaunchDelay));
        if (strip->comparison().a.graphLaunches == 0) // no graph launches: no graph delay to show
            QCOMPARE(strip->text(PooledRuns::GraphLaunchDelay, 0), QStringLiteral("–"));
    }

    // The scope comparison's runs come from one process a side (JAX: no OS pid): its run-level verdicts
    // say so; runs of 4 processes a side, or A and B interleaved in one process, carry no caveat.
    void caveatBannerWhenOneProcessASide()
    {
        ComparisonPanel panel;
        QVERIFY(!panel.caveatBanner()->isShown());
        open(panel);
        const QString caveat = Replication::of(m_a, m_b).caveat();
        QVERIFY(!caveat.isEmpty());
        QVERIFY(panel.caveatBanner()->isShown());
        QCOMPARE(panel.caveatBanner()->caveat(), caveat);
        QCOMPARE(panel.tableModel()->caveat(), caveat);
        QVERIFY(panel.caveatBanner()->text().contains(caveat.mid(1)));
        QVERIFY(panel.caveatBanner()->text().contains(QLatin1String("side/<process>/<run>/")));
        QVERIFY(panel.caveatBanner()->text().contains(QLatin1String("scopeline-hipbench run --processes N")));
        panel.setSelectedScopes(kScopes);
        int runLevel = 0;
        for (int r = 0; r < panel.tableModel()->rowCount(); ++r) {
            const QString tip = panel.tableModel()
                                    ->index(r, ComparisonTableModel::column("verdict"))
                                    .data(Qt::ToolTipRole)
                                    .toString();
            const bool tested = panel.tableModel()->row(r).hasRunLevel();
            runLevel += tested;
            QCOMPARE(tip.contains(QStringLiteral("Caveat: %1.").arg(caveat)), tested);
        }
        QVERIFY(runLevel > 0);

        const std::pair<QString, QString> others[] = {
            {testdata::path("h100_runs/torch_compile/eager"),
             testdata::path("h100_runs/torch_compile/reduce_overhead")},
            {testdata::path("h100_runs/jax_processes/matmul"),
             testdata::path("h100_runs/jax_processes/einsum")}};
        for (const auto &[pathA, pathB] : others) {
            REQUIRE_TEST_DATA(pathA, pathB);
            const QList<LoadedRun> a = loadSide(pathA), b = loadSide(pathB);
            QVERIFY(!a.isEmpty() && !b.isEmpty());
            QVERIFY(Replication::of(a, b).caveat().isEmpty());
            panel.setSides(a, b, QString(), QString());
            QVERIFY2(!panel.caveatBanner()->isShown(), qPrintable(pathA));
            QCOMPARE(panel.caveatBanner()->text(), QString());
            QCOMPARE(panel.tableModel()->caveat(), QString());
        }
        panel.setSides({}, {}, QString(), QString()); // nothing loaded: nothing to say
        QVERIFY(!panel.caveatBanner()->isShown());
    }

    void setSelectedScopesComputesRows()
    {
        ComparisonPanel panel;
        open(panel);
        QAbstractItemModelTester pickerTester(panel.picker()->proxy(),
                                              QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester tableTester(panel.tableProxy(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&panel, &ComparisonPanel::settingsChanged);
        panel.setSelectedScopes(kScopes);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(panel.selectedScopes(), kScopes); // in the order given
        QCOMPARE(panel.rows().size(), std::size_t(kScopes.size() * (3 + 1)));
        QCOMPARE(panel.tableProxy()->rowCount(), int(panel.rows().size()));
        QCOMPARE(panel.picker()->view()->selectionModel()->selectedRows().size(), kScopes.size());

        const QString csv = panel.csv();
        QVERIFY(csv.startsWith(
            QLatin1String("scope,run,n_a,n_b,mean_a_ns,mean_b_ns,std_a_ns,std_b_ns,median_a_ns,")));
        QCOMPARE(csv.count(QLatin1Char('\n')), 1 + int(panel.rows().size()));
        // the CLI's CSV, rows in its order (the table shows each scope's verdict row first; the export
        // had kept that order, so the window's and the CLI's CSV of one pair differed)
        QStringList args{QStringLiteral("compare"), m_labelA, m_labelB, QStringLiteral("--csv"),
                         QStringLiteral("-")};
        for (const QString &scope : kScopes)
            args << QStringLiteral("--scope") << scope;
        const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI), args);
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        QCOMPARE(csv, QString::fromUtf8(cli.out));
        QVERIFY(panel.rows().front().verdictRow && !panel.rowsAsCompared().front().verdictRow);

        // Boxes: one group per scope pooled, one per scope and run pair otherwise.
        QCOMPARE(panel.boxPlot()->groups().size(), std::size_t(3));
        QCOMPARE(panel.boxPlot()->unit(), QStringLiteral("µs"));
        QCOMPARE(panel.plot()->yAxis->label(), QStringLiteral("duration (µs)"));
        QCOMPARE(panel.plot()->legend->itemCount(), 3); // A, B and the run medians (diamonds)
        // each pooled box carries its side's three run medians, those of the pooled rows
        for (const BoxPlotView::Group &group : panel.boxPlot()->groups()) {
            QCOMPARE(group.runMediansA.size(), std::size_t(3));
            QCOMPARE(group.runMediansB.size(), std::size_t(3));
        }
        QCOMPARE(panel.plot()->graph(0)->dataCount(), 3 * 6);
        QCOMPARE(panel.plot()->plottable(0)->name(), QStringLiteral("A: trace_file_matmul_*"));
        QCOMPARE(panel.plot()->plottable(1)->name(), QStringLiteral("B: trace_file_einsum_*"));
        panel.setPooled(false);
        QCOMPARE(changed.size(), 2);
        QCOMPARE(panel.boxPlot()->groups().size(), std::size_t(9));
        QCOMPARE(panel.boxPlot()->groups()[4].label, QStringLiteral("run 2"));
        QCOMPARE(panel.boxPlot()->groups()[4].clusterLabel, QStringLiteral("attn_att_v"));
        QVERIFY(panel.plot()->xAxis2->visible());       // the scope names above the plot
        QCOMPARE(panel.plot()->legend->itemCount(), 2); // a run pair's box is one run: no run dots
        panel.setPooled(true);

        // Same scopes again: nothing changes, no signal.
        panel.setSelectedScopes(kScopes);
        QCOMPARE(changed.size(), 3);

        // Sample mode and match mode recompute.
        panel.setSampleMode(SampleMode::Instance);
        QCOMPARE(panel.sampleMode(), SampleMode::Instance);
        QCOMPARE(changed.size(), 4);
        QCOMPARE(panel.rows().size(), std::size_t(12));
        // each scope's verdict row (runs pooled) first, in the scopes' order, then the run pairs
        for (int i = 0; i < int(panel.rows().size()); ++i) {
            const ComparisonRow &row = panel.rows()[std::size_t(i)];
            QCOMPARE(row.isPooled(), i < kScopes.size());
            QCOMPARE(row.scope, kScopes[i < kScopes.size() ? i : (i - kScopes.size()) / 3]);
            QCOMPARE(row.a.n, std::size_t(row.isPooled() ? 120 : 40));
            // a run pair by its runs' names, as the run pickers name them (the table had said "1", "2", …
            // while the pickers said trace_file_matmul_0, …; "run 3" was run_2)
            const int n = row.run.toInt();
            QCOMPARE(panel.tableProxy()->index(i, ComparisonTableModel::column("run")).data().toString(),
                     row.isPooled()
                         ? QStringLiteral("all")
                         : QStringLiteral("trace_file_matmul_%1 · trace_file_einsum_%1").arg(n - 1));
        }

        // A name that is not listed becomes a pattern row, selected.
        panel.setMatchMode(MatchMode::Substring);
        panel.setSelectedScopes({QStringLiteral("attn_")});
        QCOMPARE(panel.selectedScopes(), QStringList{QStringLiteral("attn_")});
        QVERIFY(panel.picker()->model()->rowOf(QStringLiteral("attn_")) >= 0);
        QCOMPARE(panel.rows().size(), std::size_t(4));
        // an instance of the pattern is a run of the kernels it matches: attn_q_k's and attn_att_v's of one
        // attention, the Triton softmax between them (no op path) not ending it
        QCOMPARE(panel.rows().front().a.n, std::size_t(120));
        QCOMPARE(panel.rows().back().a.n, std::size_t(40));

        panel.setSelectedScopes({});
        QVERIFY(panel.rows().empty());
        QVERIFY(panel.boxPlot()->groups().empty());
    }

    // Scopes without a sample on either side draw no empty slot: the plot says why in the verdicts'
    // words, broken to its width, where it had drawn a bare 0–1 axis over the scope's name.
    void noSamplesSaysWhy()
    {
        ComparisonPanel panel;
        open(panel);
        panel.resize(1366, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setMatchMode(MatchMode::Regex);
        panel.setSelectedScopes({QStringLiteral("zzz"), QStringLiteral("(")});
        QVERIFY(panel.boxPlot()->groups().empty());
        const QString hint = panel.boxPlot()->hint();
        QVERIFY2(hint.contains(QStringLiteral("zzz: not found")), qPrintable(hint));
        QVERIFY2(hint.contains(QStringLiteral("(: invalid regular expression: missing closing parenthesis")),
                 qPrintable(hint));
        QCustomPlot *plot = panel.boxPlot()->plot();
        const QCPItemText *shown = nullptr;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (const auto *text = qobject_cast<QCPItemText *>(plot->item(i)); text && text->visible())
                shown = text;
        QVERIFY(shown);
        const QFontMetrics metrics(shown->font());
        for (const QString &line : shown->text().split(QLatin1Char('\n')))
            QVERIFY2(metrics.horizontalAdvance(line) <= plot->width(),
                     qPrintable(QStringLiteral("%1 px wide in %2")
                                    .arg(metrics.horizontalAdvance(line))
                                    .arg(plot->width())));

        // beside a scope with samples, the one without adds no empty slot
        panel.setSelectedScopes({QStringLiteral("zzz"), QStringLiteral("mlp")});
        QCOMPARE(panel.boxPlot()->groups().size(), std::size_t(1));
        QCOMPARE(panel.boxPlot()->groups().front().label, QStringLiteral("mlp"));
    }

    void boxesDrawnMatchOracle()
    {
        // What the boxplot draws, read back from its plot, box by box against numpy on the traces'
        // own samples: whiskers at the most extreme samples within 1.5·IQR, quartiles, median, outliers.
        QByteArray error;
        const QJsonArray oracle = boxplotcheck::oracleBoxes(m_a, m_b, kScopes, &error);
        QVERIFY2(!oracle.isEmpty(), error.constData());
        ComparisonPanel panel;
        open(panel);
        panel.setSelectedScopes(kScopes);
        QVERIFY(panel.pooled());
        QString wrong = boxplotcheck::mismatch(*panel.boxPlot(), oracle, kScopes, true);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        panel.setPooled(false);
        wrong = boxplotcheck::mismatch(*panel.boxPlot(), oracle, kScopes, false);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    }

    void clickingThePicker()
    {
        ComparisonPanel panel;
        open(panel);
        showActive(panel);
        ScopePicker *picker = panel.picker();
        clickScope(picker, QStringLiteral("attn_q_k"));
        QCOMPARE(panel.selectedScopes(), QStringList{QStringLiteral("attn_q_k")});
        QCOMPARE(panel.rows().size(), std::size_t(4));
        clickScope(picker, QStringLiteral("mlp"), Qt::ControlModifier);
        QCOMPARE(panel.selectedScopes(), (QStringList{QStringLiteral("attn_q_k"), QStringLiteral("mlp")}));
        QCOMPARE(panel.rows().size(), std::size_t(8));
        clickScope(picker, QStringLiteral("attn_q_k"), Qt::ControlModifier); // deselect
        QCOMPARE(panel.selectedScopes(), QStringList{QStringLiteral("mlp")});
        clickScope(picker, QStringLiteral("attn_att_v")); // plain click replaces
        QCOMPARE(panel.selectedScopes(), QStringList{QStringLiteral("attn_att_v")});

        // setSelectedScopes is reflected in the view.
        panel.setSelectedScopes(kScopes);
        QCOMPARE(picker->view()->selectionModel()->selectedRows().size(), 3);
    }

    void filterKeepsTheSelection()
    {
        ComparisonPanel panel;
        open(panel);
        showActive(panel);
        ScopePicker *picker = panel.picker();
        panel.setSelectedScopes(kScopes);
        const int all = picker->proxy()->rowCount();
        int expected = 0;
        for (const ScopeListModel::Entry &entry : picker->model()->entries())
            expected += entry.name.contains(QLatin1String("att"), Qt::CaseInsensitive) ? 1 : 0;
        QVERIFY(expected >= 2 && expected < all);

        // Ctrl+F from anywhere in the panel focuses the filter.
        panel.tableView()->setFocus();
        QTest::keyClick(panel.tableView(), Qt::Key_F, Qt::ControlModifier);
        QVERIFY(picker->filterEdit()->hasFocus());
        QTest::keyClicks(picker->filterEdit(), QStringLiteral("ATT"));
        QCOMPARE(picker->filterEdit()->text(), QStringLiteral("ATT"));
        QCOMPARE(picker->proxy()->rowCount(), expected);
        QCOMPARE(panel.selectedScopes(), kScopes); // mlp is hidden, not deselected
        QCOMPARE(picker->view()->selectionModel()->selectedRows().size(), 2);
        QVERIFY(!picker->addPatternButton()->isEnabled()); // component mode

        // In substring mode the filter text can be added as a pattern; the list shows what it matches,
        // case and all: nothing
        panel.setMatchMode(MatchMode::Substring);
        QCOMPARE(picker->proxy()->rowCount(), 0);
        QVERIFY(picker->addPatternButton()->isEnabled());
        QTest::mouseClick(picker->addPatternButton(), Qt::LeftButton);
        QCOMPARE(panel.selectedScopes(), kScopes + QStringList{QStringLiteral("ATT")});
        QCOMPARE(panel.rows().size(), std::size_t(16));
        const ComparisonRow &pattern = panel.rows().back();
        QCOMPARE(pattern.scope, QStringLiteral("ATT"));
        QCOMPARE(pattern.a.n, std::size_t(0)); // substring matching is case-sensitive: matches nothing
        QCOMPARE(pattern.verdict(), Verdict::NotFound);

        picker->filterEdit()->clear();
        QCOMPARE(picker->proxy()->rowCount(), all + 1); // the pattern row
        QCOMPARE(picker->view()->selectionModel()->selectedRows().size(), 4);

        // Regex filter, invalid regex filters nothing out but cannot be added.
        panel.setMatchMode(MatchMode::Regex);
        QTest::keyClicks(picker->filterEdit(), QStringLiteral("^attn_(q|att)"));
        QCOMPARE(picker->proxy()->rowCount(), 2 + 1);
        picker->filterEdit()->setText(QStringLiteral("attn_("));
        QVERIFY(!picker->addPatternButton()->isEnabled());
    }

    void shortcuts()
    {
        ComparisonPanel panel;
        open(panel);
        panel.setSelectedScopes(kScopes);
        showActive(panel);
        QSignalSpy changed(&panel, &ComparisonPanel::settingsChanged);
        QCOMPARE(panel.plot()->yAxis->scaleType(), QCPAxis::stLinear);
        panel.picker()->view()->setFocus();
        QTest::keyClick(&panel, Qt::Key_L, Qt::ControlModifier);
        QVERIFY(panel.logScale());
        QCOMPARE(panel.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(panel.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerLog>());
        QVERIFY(panel.plot()->yAxis->range().lower > 0);
        QCOMPARE(changed.size(), 1);
        QTest::keyClick(panel.tableView(), Qt::Key_L, Qt::ControlModifier);
        QVERIFY(!panel.logScale());
        QCOMPARE(panel.plot()->yAxis->scaleType(), QCPAxis::stLinear);

        QTest::keyClick(&panel, Qt::Key_P, Qt::ControlModifier);
        QVERIFY(!panel.pooled());
        QCOMPARE(panel.boxPlot()->groups().size(), std::size_t(9));
        QTest::keyClick(&panel, Qt::Key_P, Qt::ControlModifier);
        QVERIFY(panel.pooled());
        QCOMPARE(changed.size(), 4);

        // Ctrl+C on the table copies the CSV.
        panel.tableView()->setFocus();
        QGuiApplication::clipboard()->clear();
        QTest::keyClick(panel.tableView(), Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QGuiApplication::clipboard()->text(), panel.csv());
    }

    void thresholdChangesVerdicts()
    {
        ComparisonPanel panel;
        open(panel);
        panel.setSampleMode(SampleMode::Instance);
        panel.setSelectedScopes({QStringLiteral("mlp")});
        ComparisonTableModel *model = panel.tableModel();
        // Run pair 2 (per-sample test, one run a side): significant, +0.99 % on the medians.
        const int pair = 2;
        QCOMPARE(model->row(pair).run, QStringLiteral("2"));
        QCOMPARE(model->index(pair, ComparisonTableModel::column("run")).data().toString(),
                 QStringLiteral("trace_file_matmul_1 · trace_file_einsum_1"));
        const int pooled = 0;
        QCOMPARE(model->index(pooled, ComparisonTableModel::column("run")).data().toString(),
                 QStringLiteral("all"));
        QCOMPARE(model->verdict(pair), Verdict::NoMeaningfulChange);
        // mlp is the same code on both sides: the run-level verdict of the pooled row finds nothing.
        QCOMPARE(model->verdict(pooled), Verdict::NoSignificantChange);
        QSignalSpy changed(&panel, &ComparisonPanel::settingsChanged);
        panel.setThreshold(0.001);
        QCOMPARE(panel.threshold(), 0.001);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model->verdict(pair), Verdict::Slower);
        QCOMPARE(model->verdict(pooled), Verdict::NoSignificantChange);
        QCOMPARE(panel.rows().size(), std::size_t(4)); // not recomputed, only judged again
        panel.setThreshold(0.01);
        QCOMPARE(model->verdict(pair), Verdict::NoMeaningfulChange);
        // a stored 1.5 (meant as 1.5 %) judges at what the spin box shows, 100 %, not 150 %
        panel.setThreshold(1.5);
        QCOMPARE(panel.threshold(), 1.0);
        panel.setThreshold(0.01);
    }

    // rocprof's matmul (no annotations, no steps) against itself: no scope on either side, and the panel
    // says why where it had asked to select scopes from an empty list; a side with scopes says nothing.
    void noScopesSaysWhy()
    {
        const QList<LoadedRun> runs = loadSide(testdata::path(
            "public/rocmProfileData/examples__rocm-profile-data__results__matmul_result.json.gz"));
        QCOMPARE(runs.size(), 1);
        QVERIFY(runs.front().scopes && runs.front().scopes->scopes().empty() &&
                runs.front().scopes->kernelCount() > 0);
        ComparisonPanel panel;
        panel.setSides(runs, runs, QStringLiteral("a"), QStringLiteral("b"));
        QVERIFY2(panel.scopeNote().startsWith(QLatin1String("No scopes in A or B")),
                 qPrintable(panel.scopeNote()));
        QCOMPARE(panel.boxPlot()->hint(),
                 QStringLiteral("No scopes in A or B to compare (see the note above)"));
        const QList<LoadedRun> torch = loadSide(testdata::path("h100_runs/torch_compile/eager/run_0"));
        panel.setSides(runs, torch, QStringLiteral("a"), QStringLiteral("torch"));
        QVERIFY2(!panel.scopeNote().startsWith(QLatin1String("No scopes")), qPrintable(panel.scopeNote()));
        QCOMPARE(panel.boxPlot()->hint(), QStringLiteral("Select scopes on the left to compare A and B"));
    }

    // rocprofv3 without --hip-trace (A: 908_results.db) against a Kineto trace of an AMD GPU (B): A's
    // kernels have no launch calls, so no scope names; the note says that cause, the banner the trace's
    // own caveat under its side and file.
    void unnamedSideWithoutLaunchCalls()
    {
        const QString rocpd = testdata::path("converted/rocpd/908_results.db"),
                      kineto = testdata::path(
                          "public/HolisticTraceAnalysis/"
                          "tests__data__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz");
        const QList<LoadedRun> a = loadSide(rocpd), b = loadSide(kineto);
        QVERIFY(a.size() == 1 && b.size() == 1);
        ComparisonPanel panel;
        panel.setSides(a, b, QStringLiteral("rocpd"), QStringLiteral("kineto"));
        QVERIFY2(panel.scopeNote().startsWith(QLatin1String("A's kernels carry no scope names")),
                 qPrintable(panel.scopeNote()));
        QVERIFY2(panel.scopeNote().contains(
                     QLatin1String("without their launch calls (rocprofv3 without --hip-trace")),
                 qPrintable(panel.scopeNote()));
        QVERIFY(panel.caveatBanner()->isShown());
        QVERIFY2(panel.caveatBanner()->text().contains(
                     QStringLiteral("A: %1: no HIP API calls in this database").arg(a.front().run.file)),
                 qPrintable(panel.caveatBanner()->text()));
        // the trace against itself: said first, then its caveat once, for both sides
        QStringList once{QStringLiteral("A and B are the same runs (they read the same files): nothing is "
                                        "compared; give a second trace or folder as B")};
        for (const QString &caveat : runCaveats(a))
            once << QStringLiteral("A and B: ") + caveat;
        QVERIFY(once.size() > 1);
        QCOMPARE(pairCaveats(a, a), once);
        QCOMPARE(pairCaveats(a, b).filter(QStringLiteral("A and B: ")), QStringList());
    }

    // JAX with command buffers (A) against without (B): A's kernels carry no scope names, so its
    // scopes are not "only in B"; the panel and the verdicts say what is missing and how to record it.
    void unnamedSideIsSaid()
    {
        const QList<LoadedRun> buffers = loadSide(
                                   testdata::path("jax_h100/jax_command_buffers/trace_file_matmul_*")),
                               named =
                                   loadSide(testdata::path("jax_h100/jax_named_scopes/trace_file_matmul_*"));
        QVERIFY(buffers.size() == 3 && named.size() == 3);
        ComparisonPanel panel;
        panel.setSides(buffers, named, QStringLiteral("buffers"), QStringLiteral("named"));
        QVERIFY2(panel.scopeNote().startsWith(QLatin1String("A's kernels carry no scope names")),
                 qPrintable(panel.scopeNote()));
        QVERIFY(panel.scopeNote().contains(QLatin1String("--xla_gpu_enable_command_buffer=")));
        panel.setSelectedScopes({QStringLiteral("mlp")});
        QVERIFY(!panel.rows().empty());
        for (const ComparisonRow &row : panel.rows()) {
            QCOMPARE(row.verdict(), Verdict::OnlyInB);
            QCOMPARE(row.verdictText(), QStringLiteral("no scope names in A"));
        }
        panel.resize(1400, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.grab().save(QStringLiteral("/tmp/panel_unnamed_side.png")));
        // Both sides named: nothing to say.
        panel.setSides(named, named, QStringLiteral("named"), QStringLiteral("named"));
        QCOMPARE(panel.scopeNote(), QString());
    }

    void boxPlotUnitsAndOutliers()
    {
        BoxPlotView view;
        std::vector<double> a = {100, 110, 120, 130, 140, 900}; // 900 ns lies beyond the upper whisker
        std::vector<double> b = {90, 95, 100, 105, 110};
        view.setGroups({BoxPlotView::Group::fromSamples(QStringLiteral("small"), a, b)});
        QCOMPARE(view.unit(), QStringLiteral("ns"));
        QCOMPARE(view.plot()->yAxis->label(), QStringLiteral("duration (ns)"));
        QCOMPARE(view.groups().front().a.outliers, std::vector<double>{900});
        QCOMPARE(view.groups().front().a.whiskerHigh, 140.0);
        for (double &v : a)
            v *= 1e4;
        view.setGroups({BoxPlotView::Group::fromSamples(QStringLiteral("large"), a, b)});
        QCOMPARE(view.unit(), QStringLiteral("ms"));
        QCOMPARE(view.unitScale(), 1e6);
        view.setLogScale(true);
        QCOMPARE(view.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(view.plot()->yAxis->range().lower > 0);
        QVERIFY(view.plot()->yAxis->range().upper >= 9.0); // 9 ms, the outlier, in view

        // On a log axis within one decade, labelled ticks under the data (not only at powers of ten).
        view.setGroups({BoxPlotView::Group::fromSamples(
            QStringLiteral("narrow"), {120e3, 150e3, 250e3, 350e3}, {130e3, 140e3, 160e3, 200e3})});
        view.resize(400, 300); // log ticks as many as the axis' height holds apart
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        view.plot()->replot(); // the ticks follow the axis' height of the layout before
        const QVector<double> ticks = view.plot()->yAxis->tickVector();
        const QCPRange range = view.plot()->yAxis->range();
        QCOMPARE(view.unit(), QStringLiteral("µs"));
        for (double tick : ticks)
            QVERIFY(tick >= range.lower && tick <= range.upper);
        // 200 and 300 µs: QCPAxisTickerLog alone gave none between 100 µs and 1 ms
        QVERIFY2(std::count_if(ticks.begin(), ticks.end(), [](double t) { return t >= 120 && t <= 350; }) >=
                     2,
                 qPrintable(QString::number(ticks.size())));
        view.setGroups({});
        QCOMPARE(view.groups().size(), std::size_t(0));
    }

    // A log axis over 3–15 µs at the heights the Scopes tab has at 1366 x 768 and 1920 x 1080: its labels
    // stand apart (digits had put 8, 9 and 10 on top of each other) and one sits among the highest boxes
    // (nothing had been labelled over 10 µs, under mlp's 14.5).
    void logAxisLabelsApartAndOverTheData()
    {
        BoxPlotView view;
        view.setLogScale(true);
        view.setGroups(
            {BoxPlotView::Group::fromSamples(QStringLiteral("attn"), {3.4e3, 3.5e3, 3.6e3, 3.7e3},
                                             {3.0e3, 3.1e3, 3.2e3, 3.3e3}),
             BoxPlotView::Group::fromSamples(QStringLiteral("mlp"), {14.4e3, 14.5e3, 14.6e3, 14.7e3},
                                             {14.3e3, 14.4e3, 14.5e3, 14.6e3})});
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (const int height : {230, 330, 600}) {
            view.resize(400, height);
            view.plot()->replot();
            view.plot()->replot(); // the ticks follow the axis' height of the layout before
            const QCPAxis *axis = view.plot()->yAxis;
            const QCPRange range = axis->range();
            QVector<double> ticks;
            for (double tick : axis->tickVector())
                if (tick >= range.lower && tick <= range.upper)
                    ticks.append(tick);
            QStringList tickTexts;
            for (double tick : ticks)
                tickTexts << QString::number(tick);
            const QString shown = QStringLiteral("height %1: ticks %2 over [%3, %4]")
                                      .arg(height)
                                      .arg(tickTexts.join(QLatin1Char(' ')))
                                      .arg(range.lower)
                                      .arg(range.upper);
            QVERIFY2(ticks.size() >= 2, qPrintable(shown));
            const double labelHeight = QFontMetricsF(axis->tickLabelFont()).height();
            for (qsizetype i = 1; i < ticks.size(); ++i)
                QVERIFY2(axis->coordToPixel(ticks[i - 1]) - axis->coordToPixel(ticks[i]) >= labelHeight,
                         qPrintable(shown +
                                    QStringLiteral(": %1 and %2 overlap").arg(ticks[i - 1]).arg(ticks[i])));
            QVERIFY2(ticks.back() >= 0.8 * 14.5,
                     qPrintable(shown + QStringLiteral(", top %1").arg(ticks.back())));
        }
    }

    // Two long scope names at the plot's size in the Scopes tab at 1366 x 768: rotated, they leave the
    // boxes most of the height (they had taken all but 75 of 250 px), and the value labels stand apart.
    void longLabelsLeaveTheBoxesRoom()
    {
        BoxPlotView view;
        view.setGroups(
            {BoxPlotView::Group::fromSamples(QStringLiteral("KernelExecutor::runFusion"),
                                             {4e3, 64e3, 130e3, 135e3}, {4e3, 70e3, 135e3, 136e3}),
             BoxPlotView::Group::fromSamples(QStringLiteral("ExecutorRunFusion::cuLaunchKernel"),
                                             {125e3, 128e3, 132e3, 135e3}, {135e3, 136e3, 136e3})});
        view.resize(400, 250);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        view.plot()->replot();
        QCoreApplication::processEvents(); // the queued replot for the axis' new height
        const QCPAxis *axis = view.plot()->yAxis;
        QVERIFY(view.plot()->xAxis->tickLabelRotation() != 0);
        QVERIFY2(axis->axisRect()->height() >= view.plot()->height() / 2,
                 qPrintable(QStringLiteral("boxes %1 of %2 px")
                                .arg(axis->axisRect()->height())
                                .arg(view.plot()->height())));
        const QCPRange range = axis->range();
        QVector<double> ticks;
        for (double tick : axis->tickVector())
            if (tick >= range.lower && tick <= range.upper)
                ticks.append(tick);
        QVERIFY(ticks.size() >= 2);
        const double labelHeight = QFontMetricsF(axis->tickLabelFont()).height();
        for (qsizetype i = 1; i < ticks.size(); ++i)
            QVERIFY2(axis->coordToPixel(ticks[i - 1]) - axis->coordToPixel(ticks[i]) >= labelHeight,
                     qPrintable(QStringLiteral("%1 and %2 overlap").arg(ticks[i - 1]).arg(ticks[i])));
    }

    // At 1366 x 768 with a kernel selected the box plot is short: its value axis keeps its unit ("µs",
    // not a title cut to "duration") and two ticks at least (one lone "8" had been its only scale).
    void shortBoxPlotKeepsUnitAndScale()
    {
        BoxPlotView view;
        view.setGroups({BoxPlotView::Group::fromSamples(QStringLiteral("gemm"), {7.9e3, 8.1e3, 8.4e3, 8.2e3},
                                                        {7.5e3, 7.7e3, 7.6e3, 7.8e3})});
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.resize(360, 100); // the window's at 1366 x 768, as its layout sizes it once shown
        view.plot()->replot();
        QCOMPARE(view.plot()->yAxis->label(), QStringLiteral("µs"));
        const QCPRange range = view.plot()->yAxis->range();
        const QVector<double> ticks = view.plot()->yAxis->tickVector();
        QVERIFY2(
            std::count_if(ticks.begin(), ticks.end(),
                          [&](double t) { return t >= range.lower && t <= range.upper; }) >= 2,
            qPrintable(
                QStringLiteral("%1 ticks in [%2, %3]").arg(ticks.size()).arg(range.lower).arg(range.upper)));
        view.resize(360, 320);
        QCOMPARE(view.plot()->yAxis->label(), QStringLiteral("duration (µs)"));
    }

    // Short (a kernel's runs under the waterfall at 1366 x 768), crowded labels lie flat, cut to the room
    // between ticks: rotated, they took half of 75 px. A run keeps its number, "all runs" its start.
    void shortBoxPlotLabelsLieFlat()
    {
        BoxPlotView view;
        view.resize(300, 75);
        std::vector<BoxPlotView::Group> groups{
            BoxPlotView::Group::fromSamples(QStringLiteral("all runs"), {1, 2, 3}, {2, 3, 4})};
        for (int run = 0; run < 8; ++run)
            groups.push_back(
                BoxPlotView::Group::fromSamples(QStringLiteral("run_%1").arg(run), {1, 2, 3}, {2, 3, 4}, 1));
        view.setGroups(groups);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        QCOMPARE(view.plot()->xAxis->tickLabelRotation(), 0.0);
        const auto ticker = view.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        const QList<double> keys = ticker->ticks().keys();
        const QStringList labels = ticker->ticks().values();
        const QFontMetrics metrics(view.plot()->xAxis->tickLabelFont());
        // the labels shown do not overlap; those cut keep a run's number
        std::vector<std::pair<double, int>> shown; // centre and width, in pixels
        for (qsizetype i = 0; i < labels.size(); ++i)
            if (!labels[i].isEmpty()) {
                shown.emplace_back(view.plot()->xAxis->coordToPixel(keys[i]),
                                   metrics.horizontalAdvance(labels[i]));
                if (i > 0 && labels[i].contains(QStringLiteral("…")))
                    QVERIFY2(labels[i].startsWith(QStringLiteral("…")) && labels[i].back().isDigit(),
                             qPrintable(labels[i]));
            }
        QVERIFY(shown.size() >= 2);
        for (std::size_t i = 1; i < shown.size(); ++i)
            QVERIFY2(shown[i].first - shown[i - 1].first >= (shown[i].second + shown[i - 1].second) / 2.0,
                     qPrintable(labels.join(QLatin1Char(' '))));
        QVERIFY2(labels.front().startsWith(QStringLiteral("al")), qPrintable(labels.front()));
        QVERIFY2(std::any_of(labels.begin(), labels.end(),
                             [](const QString &l) { return l.contains(QStringLiteral("…")); }),
                 qPrintable(labels.join(QLatin1Char(' '))));
        // tall enough, the same labels rotate whole
        view.resize(300, 400);
        view.plot()->replot();
        QCOMPARE(view.plot()->xAxis->tickLabelRotation(), -30.0);
    }

    // Long scope names that differ in the middle (one layer each) keep apart as tick labels, and the
    // first rotated label starts inside the widget: they all read module.layers…ttention_flash, the
    // first cut off at the left edge.
    void boxPlotLabelsToldApart()
    {
        BoxPlotView view;
        view.resize(1000, 500);
        std::vector<BoxPlotView::Group> groups;
        for (int layer = 0; layer < 12; ++layer)
            groups.push_back(BoxPlotView::Group::fromSamples(
                QStringLiteral("module.layers.%1.self_attention.core_attention_flash").arg(layer), {1, 2, 3},
                {2, 3, 4}));
        view.setGroups(groups);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        const auto ticker = view.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        const QStringList labels = ticker->ticks().values();
        QCOMPARE(labels.size(), 12);
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), 12);
        QVERIFY(view.plot()->xAxis->tickLabelRotation() != 0);
        const int widest =
            QFontMetrics(view.plot()->xAxis->tickLabelFont()).horizontalAdvance(labels.front());
        const double firstTick = view.plot()->xAxis->coordToPixel(ticker->ticks().firstKey());
        QVERIFY2(
            firstTick - widest * std::cos(3.14159265358979 / 6) >= 0,
            qPrintable(QStringLiteral("first tick at %1 px, its label %2 px").arg(firstTick).arg(widest)));
    }

    void screenshot()
    {
        ComparisonPanel panel;
        open(panel);
        panel.setSelectedScopes(kScopes);
        panel.resize(1400, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTest::qWait(100);
        QVERIFY(panel.grab().save(QStringLiteral("/tmp/panel.png")));

        // Hovering a box tells its figures.
        const QCustomPlot *plot = panel.plot();
        const BoxPlotView::Group &group = panel.boxPlot()->groups().front();
        const QPoint pos(int(plot->xAxis->coordToPixel(panel.boxPlot()->key(0, true))),
                         int(plot->yAxis->coordToPixel(group.b.median / panel.boxPlot()->unitScale())));
        QHelpEvent help(QEvent::ToolTip, pos, panel.plot()->mapToGlobal(pos));
        QApplication::sendEvent(panel.plot(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QLatin1String("B: trace_file_einsum_*")),
                 qPrintable(QToolTip::text()));
        QVERIFY(QToolTip::text().contains(QStringLiteral("n = %1").arg(group.b.n)));
        QToolTip::hideText();
        panel.setPooled(false);
        panel.setLogScale(true);
        QTest::qWait(100);
        QVERIFY(panel.grab().save(QStringLiteral("/tmp/panel_per_run_log.png")));
        QStringList every;
        for (const ScopeListModel::Entry &entry : panel.picker()->model()->entries())
            every.append(entry.name);
        panel.setSelectedScopes(every);
        QTest::qWait(100);
        QVERIFY(panel.grab().save(QStringLiteral("/tmp/panel_all_scopes.png")));
        panel.setPooled(true);
        QTest::qWait(100);
        QVERIFY(panel.grab().save(QStringLiteral("/tmp/panel_all_scopes_pooled.png")));
        panel.setSelectedScopes({});
        QTest::qWait(100);
        QVERIFY(panel.grab().save(QStringLiteral("/tmp/panel_empty.png")));
    }
};

QTEST_MAIN(TstComparisonPanel)
#include "tst_comparisonpanel.moc"
