// SPDX-License-Identifier: GPL-3.0-or-later
// The report's pictures drawn from data (ReportCharts) and the scope boxplot's groups (ScopeBoxPlot) on
// the cuBLAS matmul vs einsum pair: one group per scope pooled or per run pair, the same groups the
// panel shows, and pictures of the right size that show something, timelines over the same span.

#include "boxplotcheck.h"
#include "imagecheck.h"
#include "testdata.h"

#include "model/loading/loadedrun.h"
#include "widgets/charts/boxplotview.h"
#include "widgets/panels/comparisonpanel.h"
#include "widgets/report/reportcharts.h"
#include "widgets/charts/scopeboxplot.h"

#include <QtTest>
#include <QtWidgets>

#include <set>

using namespace scopeline;
using imagecheck::distinctColours;

namespace {

const QString kCublas = testdata::path("jax_h100/jax_named_scopes_cublas");
const QStringList kScopes = {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"), QStringLiteral("mlp")};

} // namespace

class TstReportCharts : public QObject
{
    Q_OBJECT

private:
    QList<LoadedRun> m_a, m_b;
    std::vector<ComparisonRow> m_rows;

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(kCublas);
        for (auto [pattern, runs] : {std::pair{QStringLiteral("/trace_file_matmul_*"), &m_a},
                                     std::pair{QStringLiteral("/trace_file_einsum_*"), &m_b}}) {
            QString error;
            const std::vector<TraceRun> found = TraceFolder::scan(kCublas + pattern, &error);
            QVERIFY2(found.size() == 3, qPrintable(error));
            *runs = LoadedRun::loadAll(found);
        }
        m_rows = ScopeComparison(scopeIndexes(m_a), scopeIndexes(m_b)).compare(kScopes, MatchMode::Component,
                                                                              SampleMode::Kernel);
        QCOMPARE(m_rows.size(), std::size_t(kScopes.size() * 4)); // 3 run pairs and "all" per scope
    }

    void groups()
    {
        // Pooled: one group per scope, from its "all" row.
        const std::vector<BoxPlotView::Group> pooled = ScopeBoxPlot::groups(m_rows, kScopes, true);
        QCOMPARE(pooled.size(), std::size_t(kScopes.size()));
        for (std::size_t g = 0; g < pooled.size(); ++g) {
            QCOMPARE(pooled[g].label, kScopes[int(g)]);
            QCOMPARE(pooled[g].cluster, int(g));
            const ComparisonRow &all = m_rows[g * 4 + 3];
            QCOMPARE(all.run, QStringLiteral("all"));
            QCOMPARE(pooled[g].a.n, all.a.n);
            QCOMPARE(pooled[g].b.median, all.b.median);
            QCOMPARE(pooled[g].runMediansA.size(), std::size_t(3));
        }
        // Per run pair: three groups per scope, clustered under it.
        const std::vector<BoxPlotView::Group> perRun = ScopeBoxPlot::groups(m_rows, kScopes, false);
        QCOMPARE(perRun.size(), std::size_t(kScopes.size() * 3));
        QCOMPARE(perRun[4].clusterLabel, kScopes[1]);
        QCOMPARE(perRun[4].label, QStringLiteral("run 2"));
        // A scope without rows has no group.
        QCOMPARE(ScopeBoxPlot::groups(m_rows, {QStringLiteral("absent")}, true).size(), std::size_t(0));
        QCOMPARE(ScopeBoxPlot::legendLabel(QStringLiteral("/x/matmul"), QStringLiteral("A")), QStringLiteral("matmul"));
        QCOMPARE(ScopeBoxPlot::legendLabel(QString(), QStringLiteral("A")), QStringLiteral("A"));

        // The panel shows the same groups.
        ComparisonPanel panel;
        panel.setSides(m_a, m_b, QStringLiteral("a"), QStringLiteral("b"));
        panel.setSelectedScopes(kScopes);
        QCOMPARE(panel.boxPlot()->groups().size(), pooled.size());
        QCOMPARE(panel.boxPlot()->title(), ScopeBoxPlot::title(SampleMode::Kernel, true));
    }

    void boxplotPictureShowsOracleBoxes_data()
    {
        QTest::addColumn<bool>("pooled");
        QTest::newRow("pooled") << true;
        QTest::newRow("per run pair") << false;
    }

    // The report's boxplot picture is the picture of a boxplot whose drawn boxes (read back from its
    // plot) are numpy's on the traces' own samples: that view is set up as the report does, checked
    // against boxplot_oracle.py, and its picture compared pixel for pixel with the report's.
    void boxplotPictureShowsOracleBoxes()
    {
        QFETCH(bool, pooled);
        QByteArray error;
        const QJsonArray oracle = boxplotcheck::oracleBoxes(m_a, m_b, kScopes, &error);
        QVERIFY2(!oracle.isEmpty(), error.constData());
        const QString labelA = QStringLiteral("/x/matmul"), labelB = QStringLiteral("/x/einsum");
        BoxPlotView view;
        view.setLabels(ScopeBoxPlot::legendLabel(labelA, QStringLiteral("A")),
                       ScopeBoxPlot::legendLabel(labelB, QStringLiteral("B")));
        view.setTitle(ScopeBoxPlot::title(SampleMode::Kernel, pooled));
        view.setHint(ScopeBoxPlot::tr("No samples for the selected scopes"));
        view.setGroups(ScopeBoxPlot::groups(m_rows, kScopes, pooled));
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.resize(ReportCharts::chartSize());
        view.show();
        QCoreApplication::processEvents();
        const QString wrong = boxplotcheck::mismatch(view, oracle, kScopes, pooled);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        const QImage picture =
            ReportCharts::boxplotImage(m_rows, kScopes, SampleMode::Kernel, pooled, labelA, labelB);
        QCOMPARE(picture.size(), ReportCharts::chartSize());
        QVERIFY(picture == ReportCharts::plotImage(view.plot()));
    }

    void pictures()
    {
        const QImage boxplot = ReportCharts::boxplotImage(m_rows, kScopes, SampleMode::Kernel, true,
                                                          QStringLiteral("/x/matmul"), QStringLiteral("/x/einsum"));
        QCOMPARE(boxplot.size(), ReportCharts::chartSize());
        QVERIFY(distinctColours(boxplot) > 4);
        const KernelDiff diff(m_a, m_b);
        const QImage chart = ReportCharts::diffChartImage(diff);
        QCOMPARE(chart.size(), ReportCharts::chartSize());
        QVERIFY(distinctColours(chart) > 4);

        const auto [a, b] = ReportCharts::gpuActivityTimelines(m_a.front(), m_b.front(), QStringLiteral("A"),
                                                               QStringLiteral("B"), QSize(1400, 900));
        for (const ReportExporter::Timeline *timeline : {&a, &b}) {
            QCOMPARE(timeline->image.width(), 1400);
            QVERIFY(timeline->image.height() > 200 && timeline->image.height() < 450);
            QVERIFY(distinctColours(timeline->image) > 4);
            QVERIFY(timeline->shownNs > 0);
        }
        QCOMPARE(a.run, QStringLiteral("trace_file_matmul_0"));
        QCOMPARE(b.run, QStringLiteral("trace_file_einsum_0"));
        QCOMPARE(a.shownNs, b.shownNs); // the same length of time on both sides
        // at least the longer GPU activity of the two
        QVERIFY(a.shownNs >= std::max(m_a.front().analysis->total().spanNs, m_b.front().analysis->total().spanNs));
    }
};

QTEST_MAIN(TstReportCharts)
#include "tst_reportcharts.moc"
