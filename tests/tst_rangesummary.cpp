// SPDX-License-Identifier: GPL-3.0-or-later
// summariseRange on real traces: over the whole kernel span it gives TraceAnalysis's busy time and
// kernel count; over windows cut through the middle (kernels straddling the edges) it matches
// tests/oracle/timeline_oracle.py counting the raw JSON.

#include "testdata.h"
#include "testprocess.h"
#include "testruns.h"

#include "model/loading/loadedrun.h"
#include "model/timeline/rangesummary.h"
#include "model/loading/tracefolder.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>

using namespace scopeline;
using testruns::kGraphTrace;
using testruns::kJaxRun;
using testruns::loadFirst;

class TstRangeSummary : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { REQUIRE_TEST_DATA(kJaxRun, kGraphTrace); }

    void windows_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("fromTenths"); // of the kernel span
        QTest::addColumn<int>("toTenths");
        QTest::newRow("JAX, middle third") << kJaxRun << 3 << 6;
        QTest::newRow("JAX, a tenth") << kJaxRun << 5 << 6;
        QTest::newRow("vLLM graphs, middle third") << kGraphTrace << 3 << 6;
        QTest::newRow("vLLM graphs, before the kernels") << kGraphTrace << -4 << 1;
    }

    void windows()
    {
        QFETCH(QString, path);
        QFETCH(int, fromTenths);
        QFETCH(int, toTenths);
        const LoadedRun run = loadFirst(path);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const LaunchSummary &total = run.analysis->total();
        const int64_t first = run.trace->start[run.analysis->kernels().front()];
        const int64_t from = first + total.spanNs * fromTenths / 10,
                      to = first + total.spanNs * toTenths / 10;
        const RangeSummary s = summariseRange(*run.analysis, from, to);

        const ProcessResult r =
            runProcess(QStringLiteral(SCOPELINE_PYTHON),
                       {QStringLiteral(SCOPELINE_ORACLE_DIR "/timeline_oracle.py"), QStringLiteral("range"),
                        run.run.file, QString::number(from), QString::number(to)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject want = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(s.start, from);
        QCOMPARE(s.end, to);
        QCOMPARE(s.busyNs, want[QStringLiteral("busy_ns")].toInteger());
        QCOMPARE(s.kernels, want[QStringLiteral("kernels")].toInteger());
        QCOMPARE(s.kernelLaunches, want[QStringLiteral("kernel_launches")].toInteger());
        QCOMPARE(s.graphLaunches, want[QStringLiteral("graph_launches")].toInteger());
        QVERIFY(s.busyNs > 0 && s.busyNs < s.lengthNs());
        QCOMPARE(s.idleNs(), s.lengthNs() - s.busyNs);
    }

    void wholeSpanIsTheAnalysisTotal_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("JAX") << kJaxRun;
        QTest::newRow("vLLM graphs") << kGraphTrace;
    }

    void wholeSpanIsTheAnalysisTotal()
    {
        QFETCH(QString, path);
        const LoadedRun run = loadFirst(path);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const LaunchSummary &total = run.analysis->total();
        const int64_t first = run.trace->start[run.analysis->kernels().front()];
        const RangeSummary s = summariseRange(*run.analysis, first, first + total.spanNs);
        QCOMPARE(s.busyNs, total.busyNs);
        QCOMPARE(s.idleNs(), total.idleNs());
        QCOMPARE(s.kernels, total.kernels);
        QCOMPARE(QString::number(s.busyPercent(), 'f', 3),
                 QString::number(100.0 * double(total.busyNs) / double(total.spanNs), 'f', 3));
        // per stream: each stream's own busy time (what its timeline row draws), by track
        QCOMPARE(s.streams.size(), run.analysis->streams().size());
        int64_t sum = 0;
        for (std::size_t i = 0; i < s.streams.size(); ++i) {
            if (i > 0)
                QVERIFY(s.streams[i - 1].track < s.streams[i].track);
            const auto stream =
                std::find_if(run.analysis->streams().begin(), run.analysis->streams().end(),
                             [&](const StreamSummary &st) { return st.track == s.streams[i].track; });
            QVERIFY(stream != run.analysis->streams().end());
            QCOMPARE(s.streams[i].busyNs, stream->busyNs);
            sum += s.streams[i].busyNs;
        }
        QVERIFY(sum >= s.busyNs); // streams may overlap in time; the union counts once
    }

    void emptyRange()
    {
        const LoadedRun run = loadFirst(kJaxRun);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const RangeSummary s = summariseRange(*run.analysis, 100, 50);
        QCOMPARE(s.lengthNs(), int64_t(0));
        QCOMPARE(s.busyNs, int64_t(0));
        QCOMPARE(s.kernels + s.kernelLaunches + s.graphLaunches, int64_t(0));
        QCOMPARE(s.busyPercent(), 0.0);
    }
};

QTEST_GUILESS_MAIN(TstRangeSummary)
#include "tst_rangesummary.moc"
