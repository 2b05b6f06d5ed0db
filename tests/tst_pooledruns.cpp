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
