// SPDX-License-Identifier: GPL-3.0-or-later
// The step in "What changed" on the real H100 torch.compile pair (eager vs reduce-overhead, 5 runs a
// side, step scope ProfilerStep): the waterfall's bars are the breakdown's means and changes and close
// on B's step time, the per-step chart has every run's step times, the picker lists the step scopes and
// the whole run and recomputes on a pick or a typed scope, a click on an idle cause selects exactly that
// cause's gaps and the main window shades them in both timelines, and the header is the step line.
// The expected figures come from the model (checked against Python in tst_stepbreakdown), computed
// here on their own.

#include "testdata.h"

#include "app/gui/mainwindow.h"
#include "model/loading/sessionfile.h"
#include "model/loading/tracefolder.h"
#include "widgets/tables/columntablemodel.h"
#include "widgets/panels/kerneldiffview.h"
#include "widgets/timeline/pairtimeline.h"
#include "widgets/charts/plottheme.h"
#include "widgets/panels/stepbreakdownview.h"
#include "widgets/charts/steptimechart.h"
#include "widgets/charts/stepwaterfall.h"
#include "widgets/timeline/timelineview.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>

#include <QtTest>
#include <set>

#include <qcustomplot.h>

#include <cmath>

using namespace scopeline;

namespace {

const QString kEager = testdata::path("h100_runs/torch_compile/eager");
const QString kReduce = testdata::path("h100_runs/torch_compile/reduce_overhead");
const QString kProfilerStep = QStringLiteral("ProfilerStep");
using Intervals = std::vector<std::pair<int64_t, int64_t>>;

QList<LoadedRun> load(const QString &path)
{
    QString error;
    return LoadedRun::loadAll(TraceFolder::scan(path, &error));
}

// The gaps of one cause in a run's steps, found by the model on its own.
Intervals gapsOf(const LoadedRun &run, const QString &stepScope, StepPart cause)
{
    Intervals gaps;
    std::vector<StepGap> all;
    findRunSteps(*run.analysis, stepScope, &all);
    for (const StepGap &gap : all)
        if (stepPartOf(gap.cause) == cause)
            gaps.emplace_back(gap.start, gap.end);
    return gaps;
}

QColor expectedColour(const StepRow &row)
{
    if (!row.reason.isEmpty() || (row.verdict != Verdict::Faster && row.verdict != Verdict::Slower))
        return dataColour(DataColour::Unchanged);
    return dataColour(row.verdict == Verdict::Faster ? DataColour::Less : DataColour::More);
}

// Clicks bar `bar` of the waterfall (0: A's step, 2: launch late, ...).
void clickBar(StepWaterfall *waterfall, int bar)
{
    QCustomPlot *plot = waterfall->plot();
    plot->replot();
    const QPoint at(plot->axisRect()->rect().center().x(), int(plot->yAxis->coordToPixel(bar)));
    QTest::mouseClick(plot, Qt::LeftButton, {}, at);
}

} // namespace

class TstStepBreakdownView : public QObject
{
    Q_OBJECT

    QList<LoadedRun> m_a, m_b;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        REQUIRE_TEST_DATA(kEager, kReduce);
        m_a = load(kEager);
        m_b = load(kReduce);
        QCOMPARE(m_a.size(), 5);
        QCOMPARE(m_b.size(), 5);
        for (const LoadedRun &run : m_a + m_b)
            QVERIFY2(run.ok(), qPrintable(run.error));
    }

    void waterfallIsTheBreakdown()
    {
        StepBreakdownView view;
        view.resize(1400, 300);
        view.setSides(m_a, m_b, QStringLiteral("eager"), QStringLiteral("reduce_overhead"));
        const StepBreakdown reference(m_a, m_b);
        QCOMPARE(reference.stepScope(), kProfilerStep);
        QVERIFY(view.breakdown());
        QCOMPARE(view.breakdown()->stepScope(), kProfilerStep);
        QCOMPARE(view.breakdown()->toCsv(), reference.toCsv());
        // the header is the breakdown's line, verdict and CI included, and its notes below (B's step of
        // 13 ms among steps of 1.1 ms)
        QVERIFY(reference.note().contains(QLatin1String("B: one step far longer than the others")));
        QCOMPARE(view.lineLabel()->text(), reference.stepLine() + QLatin1Char('\n') + reference.note());
        QVERIFY(reference.stepLine().contains(QLatin1String("95.0 % CI"))); // the step time alone at 0.05

        // A's step, the changes of busy and of each idle cause from the running total, B's step
        const StepRow &step = reference.row(StepPart::Step);
        const std::vector<WaterfallBar> &bars = view.waterfall()->bars();
        QCOMPARE(bars.size(), std::size_t(6));
        QCOMPARE(bars[0].from, 0.0);
        QCOMPARE(bars[0].to, step.meanA);
        QCOMPARE(bars[5].from, 0.0);
        QCOMPARE(bars[5].to, step.meanB);
        const StepPart changes[] = {StepPart::Busy, StepPart::LaunchLate, StepPart::GpuWaiting,
                                    StepPart::Unknown};
        double running = step.meanA;
        int findings = 0;
        for (int i = 1; i <= 4; ++i) {
            const StepRow &row = reference.row(changes[i - 1]);
            QVERIFY(!std::isnan(row.delta));
            QCOMPARE(bars[std::size_t(i)].from, running);
            QVERIFY2(std::fabs(bars[std::size_t(i)].to - bars[std::size_t(i)].from - row.delta) < 1e-6,
                     qPrintable(stepPartKey(row.part)));
            QCOMPARE(bars[std::size_t(i)].ciLow, row.ciLow);
            QCOMPARE(bars[std::size_t(i)].ciHigh, row.ciHigh);
            QCOMPARE(bars[std::size_t(i)].colour, expectedColour(row));
            findings += row.verdict == Verdict::Faster || row.verdict == Verdict::Slower;
            running += row.delta;
        }
        QVERIFY2(findings > 0, "eager vs reduce-overhead differ for real: some part is a finding");
        // the means add up, so the waterfall closes on B's step time
        QVERIFY2(std::fabs(running - step.meanB) < 1e-6, qPrintable(QString::number(running - step.meanB)));
        QVERIFY(std::fabs(bars[4].to - bars[5].to) < 1e-6);
        QVERIFY(step.meanB < step.meanA); // graphs launch faster: the bars run down

        // Late launches' interval reaches below 0 (reduce_overhead's run_2 is slow): cut at the axis's
        // start, at 0, with an arrow, not a cap that reads as its end; the others end in caps.
        const WaterfallBar &late = bars[2];
        QVERIFY2(late.from + late.ciLow < 0, qPrintable(QString::number(late.from + late.ciLow)));
        QCustomPlot *plot = view.waterfall()->plot();
        QCOMPARE(plot->xAxis->range().lower, 0.0);
        int cut = 0, capped = 0;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *line = qobject_cast<QCPItemLine *>(plot->item(i));
                line && line->objectName() != QLatin1String("axisBreak")) {
                const bool isCut = line->objectName() == QLatin1String("intervalCut");
                QCOMPARE(line->tail().style(), isCut ? QCPLineEnding::esFlatArrow : QCPLineEnding::esBar);
                if (isCut)
                    QCOMPARE(line->start->coords().x(), 0.0);
                cut += isCut;
                capped += !isCut;
            }
        QCOMPARE(cut, 1);
        QVERIFY(capped >= 3);
    }

    // A run against itself: nothing moved, so no cut axis zooming into the bars' common end (it framed a
    // 14 ms step as 13.97..13.99 ms); the steps drawn in full from 0.
    void unchangedStepIsDrawnToScale()
    {
        StepBreakdownView view;
        view.resize(1400, 300);
        view.setSides(m_a.mid(0, 1), m_a.mid(0, 1), QStringLiteral("A"), QStringLiteral("A again"));
        const std::vector<WaterfallBar> &bars = view.waterfall()->bars();
        QCOMPARE(bars.size(), std::size_t(6));
        QVERIFY(bars[0].to > 0);
        QCOMPARE(bars[5].to, bars[0].to);
        for (std::size_t i = 1; i <= 4; ++i)
            QCOMPARE(bars[i].to, bars[i].from);
        QCOMPARE(view.waterfall()->plot()->xAxis->range().lower, 0.0);
        QVERIFY(view.waterfall()->plot()->xAxis->range().upper > 0);
    }

    // The line says what it could not measure: nothing for eager vs reduce-overhead (one process, A and B
    // interleaved in it); the one-process caveat for the JAX sample (JAX does not tell its process).
    void lineCarriesTheCaveat()
    {
        StepBreakdownView view;
        view.setSides(m_a, m_b, QString(), QString());
        QVERIFY(view.breakdown()->row(StepPart::Step).caveat.isEmpty());
        QVERIFY(!view.lineLabel()->text().contains(QLatin1String("one process a side")));
        QVERIFY(!view.lineLabel()->toolTip().contains(QLatin1String("Caveat")));
        QVERIFY(view.lineLabel()->toolTip().contains(QLatin1String("per-run means")));

        const QString samples = QStringLiteral(SCOPELINE_SAMPLES "/jax_matmul_vs_einsum/");
        REQUIRE_TEST_DATA(samples + QStringLiteral("matmul"), samples + QStringLiteral("einsum"));
        view.setSides(load(samples + QStringLiteral("matmul")), load(samples + QStringLiteral("einsum")),
                      QString(), QString());
        const StepRow &step = view.breakdown()->row(StepPart::Step);
        QVERIFY(!step.caveat.isEmpty());
        QCOMPARE(view.lineLabel()->text(), view.breakdown()->stepLine());
        QVERIFY(view.lineLabel()->text().contains(step.caveat));
        QVERIFY(view.lineLabel()->toolTip().contains(QStringLiteral("Caveat: %1.").arg(step.caveat)));
        QCOMPARE(view.lineLabel()->toolTip().contains(QLatin1String("known to one timer step")), step.tied);
    }

    // The table tab reads StepBreakdown::columns(): the CSV's keys' titles, the CLI's texts, the raw values.
    void tableIsTheColumns()
    {
        StepBreakdownView view;
        ColumnTableModel<StepRow> *model = view.tableModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setSides(m_a, m_b, QStringLiteral("eager"), QStringLiteral("reduce_overhead"));
        const StepBreakdown reference(m_a, m_b);
        const auto &columns = StepBreakdown::columns();
        QCOMPARE(model->rowCount(), kStepParts);
        QCOMPARE(model->columnCount(), int(columns.size()));
        const QStringList csv = reference.toCsv().split(QLatin1Char('\n'));
        for (int c = 0; c < model->columnCount(); ++c) {
            QCOMPARE(model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString(),
                     columns[std::size_t(c)].title);
            QCOMPARE(model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString(),
                     columns[std::size_t(c)].tooltip);
            QCOMPARE(csv[0].split(QLatin1Char(','))[c], columns[std::size_t(c)].csvKey);
            for (int r = 0; r < kStepParts; ++r) {
                const StepRow &row = reference.rows()[std::size_t(r)];
                QCOMPARE(model->index(r, c).data().toString(), columns[std::size_t(c)].shown(row));
                QCOMPARE(csvValue(model->index(r, c).data(ColumnTableModel<StepRow>::RawValueRole)),
                         csv[r + 1].split(QLatin1Char(','))[c]);
            }
        }
        QCOMPARE(model->index(0, 0).data().toString(), stepPartTitle(StepPart::Step));
        QCOMPARE(model->index(0, 14).data().toString(), QStringLiteral("B faster"));
    }

    // A short per-step chart (1366 x 768) keeps its value ticks apart: as many as its height holds, and
    // two at least (it had shown a lone "0").
    void shortStepChartKeepsTicksApart()
    {
        const QString chain = testdata::path("h100_runs/hipbench/launch-chain");
        REQUIRE_TEST_DATA(chain);
        const StepBreakdown torch(m_a, m_b),
            launchChain(load(chain + QStringLiteral("/eager")), load(chain + QStringLiteral("/graph")));
        for (const StepBreakdown *breakdown : {&torch, &launchChain}) {
            StepTimeChart chart;
            chart.setBreakdown(breakdown);
            for (int height = 80; height <= 400; height += height < 200 ? 2 : 100) {
                chart.resize(600, height);
                chart.show();
                QVERIFY(QTest::qWaitForWindowExposed(&chart));
                chart.plot()->replot();
                QVector<double> ticks;
                for (double tick : chart.plot()->yAxis->tickVector())
                    if (chart.plot()->yAxis->range().contains(tick))
                        ticks << tick;
                QVERIFY2(ticks.size() >= 2,
                         qPrintable(QStringLiteral("height %1: a lone tick gives no scale").arg(height)));
                const int labelPixels = QFontMetrics(chart.plot()->yAxis->tickLabelFont()).height();
                for (qsizetype i = 1; i < ticks.size(); ++i)
                    QVERIFY2(std::fabs(chart.plot()->yAxis->coordToPixel(ticks[i]) -
                                       chart.plot()->yAxis->coordToPixel(ticks[i - 1])) >= labelPixels,
                             qPrintable(QStringLiteral("height %1: ticks %2 and %3")
                                            .arg(height)
                                            .arg(ticks[i - 1])
                                            .arg(ticks[i])));
            }
        }
    }

    // At 1366 x 768 the chart is about 140 px tall: its lines keep the larger part of it, the value axis
    // titled by its unit alone and the step axis by its ticks (the titles and a margin for a hidden top
    // axis had left the lines 40 px); a tall chart titles both in full.
    void shortStepChartKeepsItsHeightForTheLines()
    {
        const StepBreakdown breakdown(m_a, m_b);
        StepTimeChart chart;
        chart.setBreakdown(&breakdown);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.resize(680, 140);
        QVERIFY(QTest::qWaitFor([&] { return chart.plot()->height() == 140; }));
        chart.plot()->replot();
        QVERIFY2(chart.plot()->axisRect()->height() >= 0.55 * 140,
                 qPrintable(QString::number(chart.plot()->axisRect()->height())));
        QCOMPARE(chart.plot()->yAxis->label(), QStringLiteral("ms"));
        QCOMPARE(chart.plot()->xAxis->label(), QString());
        // untitled, each tick says what it counts
        const auto tickLabels = [&] {
            QVector<double> ticks;
            QVector<QString> labels;
            chart.plot()->xAxis->ticker()->generate(chart.plot()->xAxis->range(), QLocale(), QLatin1Char('g'),
                                                    3, ticks, nullptr, &labels);
            return QStringList(labels.begin(), labels.end());
        };
        QVERIFY2(tickLabels().contains(QStringLiteral("step 1")),
                 qPrintable(tickLabels().join(QLatin1Char(','))));
        chart.resize(680, 300);
        QVERIFY(QTest::qWaitFor([&] { return chart.plot()->height() == 300; }));
        QCOMPARE(chart.plot()->yAxis->label(), QStringLiteral("step time (ms)"));
        QCOMPARE(chart.plot()->xAxis->label(), QStringLiteral("step index (in run order)"));
        QVERIFY2(tickLabels().contains(QStringLiteral("1")), qPrintable(tickLabels().join(QLatin1Char(','))));
    }

    // Runs of one step each (scopeline-hipbench's attention pair, the whole run a step) sit at x = 0, 1,
    // ...: the grid's solid zero line at the first run looked like a line joining A's point to B's.
    void noZeroLineAtTheFirstStep()
    {
        const QString pair = testdata::path("h100_runs/hipbench/attention");
        REQUIRE_TEST_DATA(pair);
        const StepBreakdown breakdown(load(pair + QStringLiteral("/naive")),
                                      load(pair + QStringLiteral("/tiled")));
        StepTimeChart chart;
        chart.setBreakdown(&breakdown);
        chart.resize(600, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.plot();
        plot->replot();
        const QImage image = plot->toPixmap().toImage();
        const int x = int(std::lround(plot->xAxis->coordToPixel(0)));
        const double a =
            breakdown.runsA().front().steps.front().parts[std::size_t(StepPart::Step)] / chart.unitNs();
        const double b =
            breakdown.runsB().front().steps.front().parts[std::size_t(StepPart::Step)] / chart.unitNs();
        const int top = int(plot->yAxis->coordToPixel(std::max(a, b))) + 8,
                  bottom = int(plot->yAxis->coordToPixel(std::min(a, b))) - 8;
        QVERIFY2(bottom - top > 40, qPrintable(QStringLiteral("%1..%2").arg(top).arg(bottom)));
        const int zeroLine = qGray(PlotTheme::fromPalette(chart.palette()).zeroLine.rgb());
        for (int y = top; y < bottom; ++y)
            QVERIFY2(
                qGray(image.pixel(x, y)) > zeroLine + 12,
                qPrintable(QStringLiteral("(%1, %2): grey %3").arg(x).arg(y).arg(qGray(image.pixel(x, y)))));
    }

    // With nothing to draw the chart says so across its width (an empty legend held the plot to a
    // corner); with a pair its legend is back above the plot.
    void emptyStepChartSaysSo()
    {
        StepTimeChart chart;
        chart.resize(600, 200);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->replot();
        QVERIFY2(chart.plot()->axisRect()->rect().width() > 500,
                 qPrintable(QString::number(chart.plot()->axisRect()->rect().width())));
        QCOMPARE(chart.plot()->itemCount(), 1);
        QCOMPARE(static_cast<QCPItemText *>(chart.plot()->item(0))->text(),
                 QStringLiteral("Open a pair of traces to see each step's time"));
        const StepBreakdown breakdown(m_a, m_b);
        chart.setBreakdown(&breakdown);
        chart.plot()->replot();
        QCOMPARE(chart.plot()->itemCount(), 0);
        QVERIFY(chart.plot()->legend->visible() &&
                chart.plot()->legend->layout() == chart.plot()->plotLayout());
        QVERIFY(chart.plot()->axisRect()->rect().width() > 450);
    }

    // Runs of several GPUs, one step each, are placed by run: a run's ranks in its column (two runs of
    // eight ranks: columns 0 and 1, not 16 runs).
    void rankedRunsArePlacedByRun()
    {
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(testdata::rankRuns(dir.path(), 2));
        const QList<LoadedRun> runs = LoadedRun::loadAll(TraceFolder::scan(dir.path()));
        QCOMPARE(runs.size(), 16);
        StepTimeChart chart;
        const StepBreakdown breakdown(runs, runs);
        chart.setBreakdown(&breakdown);
        QCOMPARE(chart.plot()->graphCount(), 32);
        QCOMPARE(chart.plot()->xAxis->label(),
                 QStringLiteral("run (in order; one step each, each rank a point)"));
        QCOMPARE(chart.plot()->xAxis->range().upper, 1.5);
        std::set<double> columns;
        for (int g = 0; g < chart.plot()->graphCount(); ++g)
            for (const QCPGraphData &point : *chart.plot()->graph(g)->data())
                columns.insert(point.key);
        QCOMPARE(columns, (std::set<double>{0, 1}));
    }

    void stepChartHasEveryRun()
    {
        StepBreakdownView view;
        view.setSides(m_a, m_b, QStringLiteral("eager"), QStringLiteral("reduce_overhead"));
        QCustomPlot *plot = view.stepChart()->plot();
        QCOMPARE(plot->graphCount(), 10);
        const double unit = view.stepChart()->unitNs();
        QCOMPARE(unit, 1e6); // steps of milliseconds
        QCOMPARE(plot->yAxis->label(), QStringLiteral("step time (ms)"));
        QCOMPARE(plot->xAxis->label(), QStringLiteral("step index (in run order)"));
        int graph = 0;
        for (int side = 0; side < 2; ++side)
            for (const LoadedRun &run : side == 0 ? m_a : m_b) {
                const RunSteps steps = findRunSteps(*run.analysis, kProfilerStep);
                QVERIFY(steps.steps.size() >= 3);
                const QSharedPointer<QCPGraphDataContainer> data = plot->graph(graph)->data();
                QCOMPARE(data->size(), int(steps.steps.size()));
                for (int i = 0; i < data->size(); ++i) {
                    QCOMPARE(data->at(i)->key, double(i));
                    const double ns = double(steps.steps[std::size_t(i)].parts[std::size_t(StepPart::Step)]);
                    QVERIFY(std::fabs(data->at(i)->value * unit - ns) <= 1e-9 * ns);
                }
                QCOMPARE(plot->graph(graph)->pen().color().rgb(),
                         dataColour(side == 0 ? DataColour::SideA : DataColour::SideB).rgb());
                ++graph;
            }
        // one legend entry a side
        QCOMPARE(plot->legend->itemCount(), 2);
    }

    void pickerRecomputes()
    {
        StepBreakdownView view;
        view.setSides(m_a, m_b, QString(), QString());
        QComboBox *picker = view.picker();
        QVERIFY(picker->findText(kProfilerStep) >= 0);
        QCOMPARE(picker->itemText(picker->count() - 1), StepBreakdownOptions::wholeRun());
        QCOMPARE(picker->currentText(), kProfilerStep);
        const QString stepLine = view.stepLine();

        // picking the whole run from the list
        const int whole = picker->findText(StepBreakdownOptions::wholeRun());
        picker->setCurrentIndex(whole);
        emit picker->activated(whole);
        StepBreakdownOptions options;
        options.stepScope = StepBreakdownOptions::wholeRun();
        const StepBreakdown wholeRun(m_a, m_b, options);
        QVERIFY(view.breakdown()->stepScope().isEmpty());
        QCOMPARE(view.stepLine(), wholeRun.stepLine());
        QCOMPARE(view.lineLabel()->text(), wholeRun.stepLine());
        QVERIFY(view.stepLine() != stepLine);
        QVERIFY(view.stepLine().contains(QLatin1String("the whole run")));
        QCOMPARE(view.waterfall()->bars().front().to, wholeRun.row(StepPart::Step).meanA);
        QCOMPARE(view.waterfall()->bars().back().to, wholeRun.row(StepPart::Step).meanB);
        // each run is one step, placed by run among its side's (not all at step 0)
        QCustomPlot *plot = view.stepChart()->plot();
        QVERIFY(plot->xAxis->label().startsWith(QLatin1String("run")));
        for (int g = 0; g < plot->graphCount(); ++g) {
            QCOMPARE(plot->graph(g)->data()->size(), 1);
            QCOMPARE(plot->graph(g)->data()->at(0)->key,
                     double(g < int(m_a.size()) ? g : g - int(m_a.size())));
        }

        // a typed scope, confirmed with Return
        picker->lineEdit()->clear();
        QTest::keyClicks(picker->lineEdit(), kProfilerStep);
        QTest::keyClick(picker->lineEdit(), Qt::Key_Return);
        QCOMPARE(view.breakdown()->stepScope(), kProfilerStep);
        QCOMPARE(view.stepLine(), stepLine);

        // a scope picked stays across new sides that have it; the threshold recomputes the verdicts
        view.setStepScope(StepBreakdownOptions::wholeRun());
        view.setSides(m_a, m_b, QString(), QString());
        QCOMPARE(view.stepLine(), wholeRun.stepLine());
        view.setThreshold(0.99);
        QCOMPARE(view.breakdown()->options().threshold, 0.99);
        for (const StepRow &row : view.breakdown()->rows())
            QVERIFY(row.verdict != Verdict::Faster && row.verdict != Verdict::Slower);
    }

    void clickingAnIdleCauseSelectsItsGaps()
    {
        StepBreakdownView view;
        view.resize(1400, 320);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSides(m_a, m_b, QString(), QString());
        QSignalSpy changed(&view, &StepBreakdownView::selectedGapsChanged);
        StepWaterfall *waterfall = view.waterfall();
        QCOMPARE(StepWaterfall::kBarParts[2], StepPart::LaunchLate);
        clickBar(waterfall, 2);
        QCOMPARE(waterfall->selectedCause(), int(StepPart::LaunchLate));
        QCOMPARE(changed.size(), 1);
        QVERIFY(waterfall->bars()[2].current);
        const Intervals lateA = gapsOf(m_a[0], kProfilerStep, StepPart::LaunchLate);
        const Intervals lateB = gapsOf(m_b[0], kProfilerStep, StepPart::LaunchLate);
        QVERIFY(!lateA.empty());
        QCOMPARE(view.selectedGaps(0, m_a[0].run.name).value(), lateA);
        QCOMPARE(view.selectedGaps(1, m_b[0].run.name).value(), lateB);
        QCOMPARE(view.selectedGaps(0, m_a[1].run.name).value(),
                 gapsOf(m_a[1], kProfilerStep, StepPart::LaunchLate));
        QVERIFY(view.selectedGaps(0, QStringLiteral("no such run")).value().empty());

        // another cause replaces it
        clickBar(waterfall, 3);
        QCOMPARE(waterfall->selectedCause(), int(StepPart::GpuWaiting));
        QCOMPARE(view.selectedGaps(0, m_a[0].run.name).value(),
                 gapsOf(m_a[0], kProfilerStep, StepPart::GpuWaiting));
        QVERIFY(view.selectedGaps(0, m_a[0].run.name).value() != lateA);
        // the same bar again clears; so does a bar that is no idle cause
        clickBar(waterfall, 3);
        QCOMPARE(waterfall->selectedCause(), -1);
        QVERIFY(!view.selectedGaps(0, m_a[0].run.name));
        clickBar(waterfall, 4);
        QCOMPARE(waterfall->selectedCause(), int(StepPart::Unknown));
        clickBar(waterfall, 0);
        QCOMPARE(waterfall->selectedCause(), -1);
        QCOMPARE(changed.size(), 5);
        // a new breakdown selects no cause
        clickBar(waterfall, 2);
        view.setStepScope(StepBreakdownOptions::wholeRun());
        QCOMPARE(waterfall->selectedCause(), -1);
        QVERIFY(!view.selectedGaps(0, m_a[0].run.name));
    }

    void mainWindowShadesTheGapsInBothTimelines()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openPair(kEager, kReduce);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 120000));
        QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget *>(window.diffView()));
        StepBreakdownView *steps = window.diffView()->stepView();
        const StepBreakdown reference(m_a, m_b);
        QCOMPARE(steps->lineLabel()->text(), reference.stepLine() + QLatin1Char('\n') + reference.note());
        QCOMPARE(steps->picker()->currentText(), kProfilerStep);
        QVERIFY(window.diffView()->headerText().endsWith(reference.stepLine()));
        // the scope the user picks goes into a saved session, and opening it brings it back
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("steps.scopeline.json"));
        steps->setStepScope(StepBreakdownOptions::wholeRun());
        QVERIFY(window.saveSession(session));
        SessionState saved;
        QVERIFY(SessionFile::load(session, saved, nullptr));
        QCOMPARE(saved.stepScope, StepBreakdownOptions::wholeRun());
        steps->setStepScope(kProfilerStep);
        QVERIFY(window.openSession(session));
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 120000));
        QVERIFY(steps->breakdown()->stepScope().isEmpty()); // the whole run
        steps->setStepScope(kProfilerStep);
        QCOMPARE(steps->breakdown()->stepScope(), kProfilerStep);

        TimelineView *views[2] = {window.timeline()->viewA(), window.timeline()->viewB()};
        QCOMPARE(views[0]->run().run.name, m_a[0].run.name);
        QCOMPARE(views[1]->run().run.name, m_b[0].run.name);
        clickBar(steps->waterfall(), 2);
        const Intervals expected[2] = {gapsOf(m_a[0], kProfilerStep, StepPart::LaunchLate),
                                       gapsOf(m_b[0], kProfilerStep, StepPart::LaunchLate)};
        for (int side = 0; side < 2; ++side) {
            // a side without such gaps is faded all over: "none here"
            QVERIFY(views[side]->hasIntervalHighlight());
            QCOMPARE(views[side]->highlightedIntervals(), expected[side]);
            views[side]->grab();
            if (!expected[side].empty())
                QVERIFY(views[side]->intervalBandCount() > 0);
        }
        // zoomed in on A's first gaps, each one is a band of its own on the one GPU stream
        const auto &gaps = expected[0];
        QVERIFY(gaps.size() >= 3);
        const int64_t from = gaps[0].first - 1000, to = gaps[2].second + 1000;
        views[0]->setVisibleRange(from, to);
        views[0]->grab();
        int inView = 0;
        for (const auto &[start, end] : gaps)
            inView += end >= views[0]->visibleStart() && start <= views[0]->visibleEnd();
        QCOMPARE(views[0]->intervalBandCount(), inView);

        // another run of A shows that run's gaps
        QComboBox *runA = nullptr;
        for (QComboBox *box : window.findChildren<QComboBox *>())
            if (box->toolTip() == QLatin1String("Run of side A shown in the timeline"))
                runA = box;
        QVERIFY(runA);
        runA->setCurrentIndex(1);
        emit runA->activated(1);
        QCOMPARE(views[0]->run().run.name, m_a[1].run.name);
        QCOMPARE(views[0]->highlightedIntervals(), gapsOf(m_a[1], kProfilerStep, StepPart::LaunchLate));

        // clicking the bar again clears both timelines
        clickBar(steps->waterfall(), 2);
        for (TimelineView *view : views) {
            QVERIFY(!view->hasIntervalHighlight());
            QVERIFY(view->highlightedIntervals().empty());
            view->grab();
            QCOMPARE(view->intervalBandCount(), 0);
        }
    }
};

QTEST_MAIN(TstStepBreakdownView)
#include "tst_stepbreakdownview.moc"
