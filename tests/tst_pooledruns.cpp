// SPDX-License-Identifier: GPL-3.0-or-later
// PooledRuns: the launch figures of a side's runs summed, and the medians of all their launch delays
// (kernel and graph launches apart) pooled, against tests/oracle/launch_analysis.py counting the raw events
// of the same files.

#include "testdata.h"
#include "testprocess.h"

#include "model/comparison/pooledruns.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <map>

using namespace scopeline;

class TstPooledRuns : public QObject
{
    Q_OBJECT

private slots:
    void againstRawEvents_data()
    {
        QTest::addColumn<QString>("folder");
        const QString samples = QStringLiteral(SCOPELINE_SAMPLES);
        QTest::newRow("matmul, 3 runs") << samples + QStringLiteral("/jax_matmul_vs_einsum/matmul");
        QTest::newRow("einsum, 3 runs") << samples + QStringLiteral("/jax_matmul_vs_einsum/einsum");
        QTest::newRow("graph launches, 1 run") << QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/graph");
    }

    void againstRawEvents()
    {
        QFETCH(QString, folder);
        REQUIRE_TEST_DATA(folder);
        QString error;
        const std::vector<TraceRun> found = TraceFolder::scan(folder, &error);
        QVERIFY2(!found.empty(), qPrintable(error));
        const QList<LoadedRun> runs = LoadedRun::loadAll(found);
        QStringList files;
        for (const LoadedRun &run : runs) {
            QVERIFY2(run.ok(), qPrintable(run.error));
            files << run.run.file;
        }
        const ProcessResult oracle =
            runProcess(QStringLiteral(SCOPELINE_PYTHON),
                       QStringList{QStringLiteral(SCOPELINE_ORACLE_DIR "/launch_analysis.py"), QStringLiteral("pool")} +
                           files);
        QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
        const QJsonObject expected = QJsonDocument::fromJson(oracle.out).object();

        const PooledRuns pooled = PooledRuns::of(runs);
        QCOMPARE(pooled.runs, expected.value(QStringLiteral("runs")).toInt());
        QCOMPARE(qint64(pooled.kernels), expected.value(QStringLiteral("kernels")).toInteger());
        QCOMPARE(qint64(pooled.kernelLaunches), expected.value(QStringLiteral("kernel_launches")).toInteger());
        QCOMPARE(qint64(pooled.graphLaunches), expected.value(QStringLiteral("graph_launches")).toInteger());
        QCOMPARE(qint64(pooled.busyNs), expected.value(QStringLiteral("gpu_busy_ns")).toInteger());
        QCOMPARE(qint64(pooled.spanNs), expected.value(QStringLiteral("gpu_span_ns")).toInteger());
        for (const auto &[key, value] :
             {std::pair{"median_launch_delay_ns", pooled.medianLaunchDelayNs},
              std::pair{"median_graph_launch_delay_ns", pooled.medianGraphLaunchDelayNs}}) {
            const QJsonValue median = expected.value(QLatin1String(key));
            QVERIFY2(median.isNull() || median.isDouble(), key);
            if (median.isNull())
                QVERIFY2(std::isnan(value), key);
            else
                QCOMPARE(value, median.toDouble());
        }
        QCOMPARE(std::isnan(pooled.medianGraphLaunchDelayNs), pooled.graphLaunches == 0);
    }

    // B against A on each per-run total, as the oracle tests the runs' raw events with scipy: Welch on the
    // runs' values, Holm over the five totals, each interval at its Holm level, the verdict.
    void comparisonAgainstOracle_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        const QString samples = QStringLiteral(SCOPELINE_SAMPLES);
        QTest::newRow("einsum v matmul, 3 v 3") << samples + QStringLiteral("/jax_matmul_vs_einsum/einsum")
                                                << samples + QStringLiteral("/jax_matmul_vs_einsum/matmul");
        QTest::newRow("eager v graph, 5 v 5") << samples + QStringLiteral("/hipbench_launch_chain/eager")
                                              << samples + QStringLiteral("/hipbench_launch_chain/graph");
    }

    void comparisonAgainstOracle()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        REQUIRE_TEST_DATA(a, b);
        QList<LoadedRun> sides[2];
        QStringList arguments{QStringLiteral(SCOPELINE_ORACLE_DIR "/launch_analysis.py"),
                              QStringLiteral("compare"), QStringLiteral("0.05"), QStringLiteral("0.01")};
        for (int side = 0; side < 2; ++side) {
            QString error;
            const std::vector<TraceRun> found = TraceFolder::scan(side == 0 ? a : b, &error);
            QVERIFY2(found.size() >= 3, qPrintable(error));
            sides[side] = LoadedRun::loadAll(found);
            for (const LoadedRun &run : sides[side]) {
                QVERIFY2(run.ok(), qPrintable(run.error));
                arguments << run.run.file;
            }
            if (side == 0)
                arguments << QStringLiteral("--");
        }
        const ProcessResult oracle = runProcess(QStringLiteral(SCOPELINE_PYTHON), arguments);
        QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
        const QJsonObject expected = QJsonDocument::fromJson(oracle.out).object();

        const PooledComparison c = PooledComparison::of(sides[0], sides[1], 0.05, 0.01);
        QCOMPARE(c.unit, QStringLiteral("run"));
        const std::map<PooledRuns::Figure, const char *> keys{{PooledRuns::BusyTime, "gpu_busy_ns"},
                                                              {PooledRuns::IdleTime, "gpu_idle_ns"},
                                                              {PooledRuns::KernelLaunches, "kernel_launches"},
                                                              {PooledRuns::GraphLaunches, "graph_launches"},
                                                              {PooledRuns::Kernels, "kernels"}};
        int findings = 0;
        for (int f = 0; f < PooledRuns::NUM_FIGURES; ++f) {
            const auto figure = PooledRuns::Figure(f);
            const PooledComparison::Figure &row = c.figures[std::size_t(f)];
            const auto key = keys.find(figure);
            QCOMPARE(key != keys.end(), PooledRuns::isPerRunTotal(figure));
            if (key == keys.end()) { // a median or a ratio of pooled launches: shown, not tested
                QVERIFY(!row.test.valid());
                QCOMPARE(c.value(figure, 0), c.a.value(figure));
                continue;
            }
            const QJsonObject o = expected.value(QLatin1String(key->second)).toObject();
            QVERIFY2(!o.isEmpty(), key->second);
            const auto same = [&](double value, const char *field) {
                const QJsonValue v = o.value(QLatin1String(field));
                const bool ok =
                    v.isNull() ? std::isnan(value)
                               : std::fabs(value - v.toDouble()) <= 1e-9 * std::max(1.0, std::fabs(value));
                return ok ? QByteArray()
                          : QByteArray(key->second) + ' ' + field + ": " +
                                QByteArray::number(value, 'g', 17) + " against " +
                                QByteArray::number(v.toDouble(), 'g', 17);
            };
            QVERIFY(row.test.valid());
            for (const QByteArray &mismatch :
                 {same(row.test.p, "p_raw"), same(row.holmP, "holm_p"), same(row.test.ciLow, "ci_low"),
                  same(row.test.ciHigh, "ci_high"), same(row.test.confidence, "ci_level"),
                  same(c.value(figure, 0), "mean_a"), same(c.value(figure, 1), "mean_b")})
                QVERIFY2(mismatch.isEmpty(), mismatch.constData());
            const QJsonValue change = o.value(QStringLiteral("change"));
            if (change.isString())
                QVERIFY(std::isinf(row.test.change) && row.test.change > 0);
            if (change.isNull()) // no change to speak of: both sides all 0
                QVERIFY(std::isnan(row.test.change));
            else if (change.isString()) // none in A: new in B
                QCOMPARE(change.toString(), QStringLiteral("inf"));
            else
                QCOMPARE(row.test.change, change.toDouble());
            QCOMPARE(verdictText(row.verdict), o.value(QStringLiteral("verdict")).toString());
            findings += isFinding(row.verdict);
            // the interval shown beside the verdict says what it does
            if (!std::isnan(row.test.ciLow))
                QCOMPARE(row.test.ciLow > 0 || row.test.ciHigh < 0, row.holmP < 0.05);
        }
        QVERIFY(findings > 0); // each pair has a real difference the strip must show
    }

    void nothingLoaded()
    {
        LoadedRun failed; // a run that did not load has no analysis and is left out
        const PooledRuns pooled = PooledRuns::of({failed});
        QCOMPARE(pooled.runs, 0);
        QCOMPARE(qint64(pooled.kernels), qint64(0));
        QVERIFY(std::isnan(pooled.medianLaunchDelayNs));
        QVERIFY(std::isnan(pooled.medianGraphLaunchDelayNs));
    }
};

QTEST_MAIN(TstPooledRuns)
#include "tst_pooledruns.moc"
