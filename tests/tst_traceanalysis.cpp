// SPDX-License-Identifier: GPL-3.0-or-later
// TraceAnalysis on real traces: GPU busy time and span against tests/oracle/trace_summary.py, and the
// idle gaps of every stream with their causes (CPU launched late, GPU waiting, unknown) against
// tests/oracle/launch_analysis.py, which counts them from the raw events. A small written trace gives
// every cause, "unknown" included (no real trace here has a kernel without its launch).

#include "testdata.h"
#include "testprocess.h"

#include "model/loading/loadedrun.h"
#include "model/analysis/traceanalysis.h"
#include "model/loading/traceloader.h"
#include "model/tracedata/devicetrace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <limits>
#include <map>

using namespace scopeline;

namespace {

const QString kSamples = QStringLiteral(SCOPELINE_SAMPLES);

QJsonObject runOracle(const QString &script, const QStringList &arguments)
{
    const ProcessResult oracle = runProcess(
        QStringLiteral(SCOPELINE_PYTHON), QStringList{QStringLiteral(SCOPELINE_ORACLE_DIR "/") + script} + arguments);
    if (oracle.exitCode != 0)
        qWarning("%s: %s", qPrintable(script), oracle.err.constData());
    return QJsonDocument::fromJson(oracle.out).object();
}

LoadedRun loadFile(const QString &file)
{
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(file, &error);
    return runs.size() == 1 ? LoadedRun::load(runs.front()) : LoadedRun();
}

QString oracleCause(GapCause cause)
{
    switch (cause) {
    case GapCause::LaunchLate:
        return QStringLiteral("launch_late");
    case GapCause::GpuWaiting:
        return QStringLiteral("gpu_waiting");
    case GapCause::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

// The gaps of every stream by cause, in the oracle's JSON shape.
QJsonObject gapsByCause(const TraceAnalysis &analysis)
{
    std::map<QString, std::pair<qint64, qint64>> causes; // count, ns
    for (const GapCause cause : {GapCause::LaunchLate, GapCause::GpuWaiting, GapCause::Unknown})
        causes[oracleCause(cause)] = {0, 0};
    QList<qint64> idle;
    for (const StreamSummary &stream : analysis.streams()) {
        for (const IdleGap &gap : stream.gaps) {
            auto &[count, ns] = causes[oracleCause(gap.cause)];
            ++count;
            ns += gap.length();
        }
        idle.append(stream.idleNs());
    }
    std::sort(idle.begin(), idle.end());
    QJsonObject byCause;
    for (const auto &[name, figures] : causes)
        byCause[name] = QJsonObject{{QStringLiteral("count"), figures.first}, {QStringLiteral("ns"), figures.second}};
    QJsonArray idleArray;
    for (qint64 ns : idle)
        idleArray.append(ns);
    return QJsonObject{{QStringLiteral("streams"), qint64(analysis.streams().size())},
                       {QStringLiteral("causes"), byCause},
                       {QStringLiteral("stream_idle_ns"), idleArray}};
}

} // namespace

class TstTraceAnalysis : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // Kernels on one stream (pid 1, tid 7) and their launches on a CPU thread (pid 2, tid 3), times in
    // µs: a gap the CPU caused (launch after the GPU went idle), one where the GPU waited (launched long
    // before), and one before a kernel with no launch in the trace.
    QString writeSmallTrace()
    {
        const QString file = m_dir.filePath(QStringLiteral("causes.json"));
        QFile out(file);
        if (!out.open(QIODevice::WriteOnly))
            return {};
        out.write(R"({"traceEvents":[
{"ph":"X","cat":"kernel","name":"k1","pid":1,"tid":7,"ts":100,"dur":10,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","name":"k2","pid":1,"tid":7,"ts":130,"dur":10,"args":{"correlation":2}},
{"ph":"X","cat":"kernel","name":"k3","pid":1,"tid":7,"ts":150,"dur":10,"args":{"correlation":3}},
{"ph":"X","cat":"kernel","name":"k4","pid":1,"tid":7,"ts":200,"dur":5},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":2,"tid":3,"ts":95,"dur":2,"args":{"correlation":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":2,"tid":3,"ts":120,"dur":2,"args":{"correlation":2}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":2,"tid":3,"ts":98,"dur":2,"args":{"correlation":3}}
]})");
        return file;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(runProcess(QStringLiteral(SCOPELINE_PYTHON), {QStringLiteral("--version")}).exitCode == 0,
                 "no python3 at " SCOPELINE_PYTHON);
    }

    void everyCause()
    {
        const QString file = writeSmallTrace();
        const LoadedRun run = loadFile(file);
        QVERIFY2(run.ok(), qPrintable(run.error));
        QCOMPARE(run.analysis->streams().size(), std::size_t(1));
        const std::vector<IdleGap> &gaps = run.analysis->streams().front().gaps;
        QCOMPARE(gaps.size(), std::size_t(3));
        // k1 ends at 110; k2 launched at 120, after: the CPU was late
        QCOMPARE(gaps[0].start, int64_t(110000));
        QCOMPARE(gaps[0].end, int64_t(130000));
        QCOMPARE(gaps[0].cause, GapCause::LaunchLate);
        // k3 launched at 98, long before the gap from 140: the GPU waited
        QCOMPARE(gaps[1].cause, GapCause::GpuWaiting);
        QCOMPARE(gaps[1].length(), int64_t(10000));
        QCOMPARE(gaps[2].cause, GapCause::Unknown);
        QCOMPARE(gaps[2].length(), int64_t(40000));
        QCOMPARE(gapsByCause(*run.analysis), runOracle(QStringLiteral("launch_analysis.py"),
                                                       {QStringLiteral("gaps"), file}));
    }

    void launchesWithoutKernels()
    {
        // A kernel launch and a graph launch whose ids no kernel has count in the total alone, and the
        // graph launch gives no delay; each matched launch counts on its kernels' device too.
        const QString file = m_dir.filePath(QStringLiteral("unmatched.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(R"({"traceEvents":[
{"ph":"X","cat":"kernel","name":"k1","pid":1,"tid":7,"ts":100,"dur":10,"args":{"correlation":1,"device":1}},
{"ph":"X","cat":"kernel","name":"k2","pid":1,"tid":7,"ts":130,"dur":10,"args":{"correlation":2,"device":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":2,"tid":3,"ts":95,"dur":2,"args":{"correlation":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":2,"tid":3,"ts":97,"dur":2,"args":{"correlation":5}},
{"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":2,"tid":3,"ts":120,"dur":2,"args":{"correlation":2}},
{"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":2,"tid":3,"ts":125,"dur":2,"args":{"correlation":6}}
]})");
        out.close();
        const LoadedRun run = loadFile(file);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const TraceAnalysis &a = *run.analysis;
        QCOMPARE(a.total().kernelLaunches, int64_t(2));
        QCOMPARE(a.total().graphLaunches, int64_t(2));
        QCOMPARE(a.total().graphLaunchDelays, std::vector<int64_t>{10000}); // k2 at 130 µs, its launch at 120
        QCOMPARE(a.devices().size(), std::size_t(1));
        QCOMPARE(a.devices().front().kernelLaunches, int64_t(1));
        QCOMPARE(a.devices().front().graphLaunches, int64_t(1));
        // the one device's figures are not the total's (what `info` would otherwise print once)
        QVERIFY(!a.devices().front().sameFigures(a.total()));
    }

    void gapCauses_data()
    {
        QTest::addColumn<QString>("file");
        auto addFile = [](const char *name, const QString &file) { QTest::newRow(name) << file; };
        addFile("jax eager", firstFile(QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/eager"), QStringLiteral("*.trace.json.gz")));
        addFile("jax graph", firstFile(QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/graph"), QStringLiteral("*.trace.json.gz")));
        addFile("jax matmul", firstFile(kSamples + QStringLiteral("/jax_matmul_vs_einsum/matmul"),
                                        QStringLiteral("*.trace.json.gz")));
        const char *publicTraces[][2] = {
            {"kineto resnet50",
             "kineto/tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"},
            {"hta mi250", "HolisticTraceAnalysis/tests__data__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz"},
            {"tracelens bert h100", "TraceLens/tests__traces__h100__gaunernst_bert-small-uncased__1016001.json.gz"},
            {"tracelens sglang (2 streams)",
             "TraceLens/tests__traces__inference__sglang_decode__sglang_Qwen3-8B_decode.json.gz"},
            {"tracelens vllm graphs",
             "TraceLens/tests__traces__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz"},
            {"rpd matmul", "rocmProfileData/examples__rocm-profile-data__results__matmul_result.json.gz"},
        };
        for (const auto &[name, relative] : publicTraces)
            addFile(name, testdata::path(QStringLiteral("public/") + QLatin1String(relative)));
    }

    void gapCauses()
    {
        QFETCH(QString, file);
        REQUIRE_TEST_DATA(file);
        const LoadedRun run = loadFile(file);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const TraceAnalysis &analysis = *run.analysis;
        const TraceData &t = *run.trace;

        const QJsonObject expected = runOracle(QStringLiteral("launch_analysis.py"), {QStringLiteral("gaps"), file});
        QVERIFY2(!expected.isEmpty(), "launch_analysis.py gave nothing");
        const QJsonObject actual = gapsByCause(analysis);
        QVERIFY2(actual == expected, qPrintable(QStringLiteral("analysis %1\noracle   %2")
                                                    .arg(QString::fromUtf8(QJsonDocument(actual).toJson(QJsonDocument::Compact)),
                                                         QString::fromUtf8(QJsonDocument(expected).toJson(QJsonDocument::Compact)))));

        // Busy time, span and kernels of the whole trace against trace_summary.py.
        const QJsonObject summary = runOracle(QStringLiteral("trace_summary.py"), {file});
        QCOMPARE(qint64(analysis.total().kernels), summary.value(QStringLiteral("kernels")).toInteger());
        QCOMPARE(qint64(analysis.total().busyNs), summary.value(QStringLiteral("gpu_busy_ns")).toInteger());
        QCOMPARE(qint64(analysis.total().spanNs), summary.value(QStringLiteral("gpu_span_ns")).toInteger());
        QCOMPARE(qint64(analysis.total().idleNs()), summary.value(QStringLiteral("gpu_idle_ns")).toInteger());

        // Each stream's busy time and gaps tile it from its first kernel's start to its last end, and
        // each gap lies between the kernels it names.
        for (const StreamSummary &stream : analysis.streams()) {
            int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
            for (uint32_t k : analysis.kernels())
                if (t.track[k] == stream.track) {
                    first = std::min(first, t.start[k]);
                    last = std::max(last, t.end(k));
                }
            QCOMPARE(stream.busyNs + stream.idleNs(), last - first);
            for (const IdleGap &gap : stream.gaps) {
                QVERIFY(gap.length() > 0);
                QCOMPARE(t.end(gap.before), gap.start);
                QCOMPARE(t.start[gap.after], gap.end);
                QCOMPARE(gap.cause == GapCause::Unknown, analysis.launchOf(gap.after) < 0);
            }
        }

        // The searches done once: each position's launch is launchOf's, and the positions by track
        // hold each kernel once, by track and then by start (position) within one.
        const std::vector<uint32_t> &kernels = analysis.kernels();
        const std::vector<uint32_t> byTrack = analysis.kernelPositionsByTrack();
        QCOMPARE(byTrack.size(), kernels.size());
        std::vector<bool> seen(kernels.size());
        for (std::size_t i = 0; i < byTrack.size(); ++i) {
            const uint32_t p = byTrack[i];
            QVERIFY(p < kernels.size() && !seen[p]);
            seen[p] = true;
            QCOMPARE(analysis.launchAt(p), analysis.launchOf(kernels[p]));
            if (i > 0) {
                const uint32_t before = byTrack[i - 1];
                QVERIFY(std::make_pair(t.track[kernels[before]], before) <
                        std::make_pair(t.track[kernels[p]], p));
            }
        }
    }

    void gapCpuSlices_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString &trace : testdata::publicTraces())
            if (!trace.contains(QLatin1String("rocprof__"))) // rocprofv3's own JSON: no launch calls
                QTest::newRow(qPrintable(trace.section(QLatin1Char('/'), -1).left(60)))
                    << testdata::path(QStringLiteral("public/") + trace);
        QTest::newRow("jax eager") << firstFile(QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/eager"),
                                                QStringLiteral("*.trace.json.gz"));
        QTest::newRow("jax cublas") << firstFile(
            testdata::path("jax_h100/jax_named_scopes_cublas/trace_file_einsum_0"), QStringLiteral("*.trace.json.gz"));
    }

    // The CPU slice each gap is blamed on ("CPU in ..." in its tooltip), gap by gap, against
    // launch_analysis.py gapslices, which finds it from the raw events: the innermost slice open on the
    // launching thread at the gap's middle.
    void gapCpuSlices()
    {
        QFETCH(QString, file);
        REQUIRE_TEST_DATA(file);
        const LoadedRun run = loadFile(file);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const TraceData &t = *run.trace;
        const QJsonArray expected =
            runOracle(QStringLiteral("launch_analysis.py"), {QStringLiteral("gapslices"), file})
                .value(QStringLiteral("gaps"))
                .toArray();

        const auto trackKey = [&t](uint32_t track) { return t.tracks[track].pid + u'/' + t.tracks[track].tid; };
        QList<QJsonObject> actual;
        for (const StreamSummary &stream : run.analysis->streams())
            for (const IdleGap &gap : stream.gaps) {
                QJsonValue cpu(QJsonValue::Null);
                if (gap.cpuEvent >= 0) {
                    const auto e = uint32_t(gap.cpuEvent);
                    cpu = QJsonObject{{QStringLiteral("name"), t.qname(e)},
                                      {QStringLiteral("start"), qint64(t.start[e])},
                                      {QStringLiteral("dur"), qint64(t.duration[e])},
                                      {QStringLiteral("thread"), trackKey(t.track[e])}};
                }
                actual.append(QJsonObject{{QStringLiteral("stream"), trackKey(stream.track)},
                                          {QStringLiteral("start"), qint64(gap.start)},
                                          {QStringLiteral("end"), qint64(gap.end)},
                                          {QStringLiteral("cause"), oracleCause(gap.cause)},
                                          {QStringLiteral("cpu"), cpu}});
            }
        std::stable_sort(actual.begin(), actual.end(), [](const QJsonObject &a, const QJsonObject &b) {
            const QString sa = a[QStringLiteral("stream")].toString(), sb = b[QStringLiteral("stream")].toString();
            return sa != sb ? sa < sb : a[QStringLiteral("start")].toInteger() < b[QStringLiteral("start")].toInteger();
        });
        QCOMPARE(actual.size(), expected.size());
        int withSlice = 0, wrong = 0;
        QString first;
        for (qsizetype i = 0; i < actual.size(); ++i) {
            QJsonObject want = expected[i].toObject();
            if (want[QStringLiteral("cpu")].isObject()) { // a name that is not a string reads as ""
                QJsonObject cpu = want[QStringLiteral("cpu")].toObject();
                cpu[QStringLiteral("name")] = cpu[QStringLiteral("name")].toString();
                want[QStringLiteral("cpu")] = cpu;
                ++withSlice;
            }
            if (actual[i] != want && wrong++ == 0)
                first = QStringLiteral("gap %1 of %2:\nanalysis %3\noracle   %4")
                            .arg(i)
                            .arg(actual.size())
                            .arg(QString::fromUtf8(QJsonDocument(actual[i]).toJson(QJsonDocument::Compact)),
                                 QString::fromUtf8(QJsonDocument(want).toJson(QJsonDocument::Compact)));
        }
        QVERIFY2(wrong == 0, qPrintable(QStringLiteral("%1 gaps differ; the first, %2").arg(wrong).arg(first)));
        qInfo("%lld gaps, %d blamed on a CPU slice", qlonglong(actual.size()), withSlice);
    }

    // Loading for the launch analysis alone (scopeline-cli info) leaves out the scope index and
    // nothing else.
    void scopesSkipped()
    {
        const QString file = testdata::path(
            QStringLiteral("public/HolisticTraceAnalysis/"
                           "tests__data__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz"));
        REQUIRE_TEST_DATA(file);
        const std::vector<TraceRun> runs = TraceFolder::scan(file);
        QCOMPARE(runs.size(), std::size_t(1));
        const LoadedRun indexed = LoadedRun::load(runs.front());
        const LoadedRun skipped = LoadedRun::load(runs.front(), {}, nullptr, LoadedRun::Scopes::Skip);
        QVERIFY2(indexed.ok() && skipped.ok(), qPrintable(indexed.error + skipped.error));
        QVERIFY(indexed.scopes && !indexed.scopes->scopes().empty());
        QVERIFY(!skipped.scopes);
        QCOMPARE(skipped.trace->eventsRead(), int64_t(indexed.trace->eventCount()));
        QCOMPARE(gapsByCause(*skipped.analysis), gapsByCause(*indexed.analysis));
        QCOMPARE(skipped.analysis->total().kernels, indexed.analysis->total().kernels);
        QCOMPARE(skipped.analysis->total().busyNs, indexed.analysis->total().busyNs);
    }

    // A trace of two GPUs: each device's figures, worked out beside the total in one pass, are the
    // totals of that GPU's own trace (its GPU tracks and the process launching onto it, analysed
    // apart); the total's are those of the whole trace, the devices' counts adding up to it. A run
    // only summarised leaves out the devices and the gaps and keeps the total.
    void devicesAsTheirOwnTraces()
    {
        const QString file = testdata::path("converted/two_gpus_one_trace/dlrm_ranks_0_1.pt.trace.json.gz");
        REQUIRE_TEST_DATA(file);
        const LoadResult loaded = TraceLoader::load(file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const TraceAnalysis analysis(*loaded.trace);
        const std::vector<int> devices = gpuDevices(*loaded.trace);
        QCOMPARE(devices.size(), std::size_t(2));
        QCOMPARE(analysis.devices().size(), devices.size());
        int64_t kernels = 0, launches = 0;
        for (std::size_t i = 0; i < devices.size(); ++i) {
            const LaunchSummary &device = analysis.devices()[i];
            QCOMPARE(device.device, devices[i]);
            const TraceData own = traceOfDevice(*loaded.trace, devices[i]);
            const TraceAnalysis apart(own);
            const LaunchSummary &expected = apart.total();
            QVERIFY(device.kernels > 0);
            QCOMPARE(device.kernels, expected.kernels);
            QCOMPARE(device.kernelLaunches, expected.kernelLaunches);
            QCOMPARE(device.graphLaunches, expected.graphLaunches);
            QCOMPARE(device.busyNs, expected.busyNs);
            QCOMPARE(device.spanNs, expected.spanNs);
            QCOMPARE(device.launchDelays, expected.launchDelays);
            QCOMPARE(device.graphLaunchDelays, expected.graphLaunchDelays);
            QVERIFY(device.sameFigures(expected));
            QVERIFY(!device.sameFigures(analysis.total()));
            kernels += device.kernels;
            launches += device.kernelLaunches;
        }
        QCOMPARE(analysis.total().kernels, kernels);
        QCOMPARE(analysis.total().kernelLaunches, launches);

        const TraceAnalysis summaryOnly(*loaded.trace, TraceAnalysis::Depth::SummaryOnly);
        QVERIFY(summaryOnly.devices().empty() && summaryOnly.streams().empty());
        QCOMPARE(summaryOnly.total().kernels, analysis.total().kernels);
        QCOMPARE(summaryOnly.total().kernelLaunches, analysis.total().kernelLaunches);
        QCOMPARE(summaryOnly.total().busyNs, analysis.total().busyNs);
        QCOMPARE(summaryOnly.total().spanNs, analysis.total().spanNs);
        QCOMPARE(summaryOnly.total().launchDelays, analysis.total().launchDelays);
        QCOMPARE(summaryOnly.kernels(), analysis.kernels());
    }
};

QTEST_MAIN(TstTraceAnalysis)
#include "tst_traceanalysis.moc"
