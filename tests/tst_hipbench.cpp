// SPDX-License-Identifier: GPL-3.0-or-later
// scopeline-hipbench without a GPU: its options (what --list shows and how `run` is checked) and its
// trace writer, read back by Scopeline's own loader and analysis and by Python's json. With a GPU: a
// real launch-chain pair, whose analysis by Scopeline must agree with the program's own summary.

#include "model/scopecomparison.h"
#include "model/scopeindex.h"
#include "model/traceanalysis.h"
#include "model/traceloader.h"
#include "testprocess.h"
#include "tracewriter.h"
#include "workloads.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace hipbench;
using namespace scopeline;

namespace {

constexpr uint64_t kClock = 1732312345000000000ull; // an absolute CUPTI-like timestamp: ns since 1970

// A launch chain of `kernels` kernels per iteration as CUPTI records it: eager, one launch per kernel;
// graph, one graph launch whose kernels share its correlation id.
TraceRecords chainRecords(bool graph, int iterations, int kernels)
{
    TraceRecords r;
    r.pid = 4242;
    r.deviceName = "test device";
    r.metadata = {{"workload", "launch-chain"}, {"variant", graph ? "graph" : "eager"}};
    uint64_t t = kClock + 1000;
    uint32_t correlation = 1;
    for (int it = 0; it < iterations; ++it) {
        const uint64_t rangeStart = t;
        uint64_t gpuFree = t;
        if (graph) {
            r.apis.push_back({"hipGraphLaunch", "cudaGraphLaunch", 1, t, t + 7001, correlation});
            uint64_t k = t + 9003;
            for (int i = 0; i < kernels; ++i, k += 1311)
                r.kernels.push_back(
                    {"chainStep(float*, int)", 0, 13, k, k + 1207, correlation, {1, 1, 1}, {256, 1, 1}, 5});
            gpuFree = k;
            ++correlation;
            t += 7001;
        } else {
            for (int i = 0; i < kernels; ++i, ++correlation) {
                r.apis.push_back({"hipLaunchKernel", "cudaLaunchKernel", 1, t, t + 2503, correlation});
                const uint64_t start = std::max(t + 3100 + uint64_t(i % 3) * 17, gpuFree + 101);
                r.kernels.push_back({"chainStep(float*, int)",
                                     0,
                                     13,
                                     start,
                                     start + 1207,
                                     correlation,
                                     {1, 1, 1},
                                     {256, 1, 1},
                                     0});
                gpuFree = start + 1207;
                t += 2600;
            }
        }
        r.ranges.push_back({"chain", 1, rangeStart, t});
        r.apis.push_back({"hipStreamSynchronize", "cudaStreamSynchronize", 1, t + 10, gpuFree + 2000, 0});
        t = gpuFree + 5000;
    }
    return r;
}

bool parse(const std::vector<std::string> &args, RunConfig &config, std::string &error)
{
    return parseRun(args, config, error);
}

} // namespace

class TstHipbench : public QObject
{
    Q_OBJECT

private slots:
    void listsEveryWorkloadWithItsOptions()
    {
        const QJsonArray list = QJsonDocument::fromJson(QByteArray::fromStdString(listJson())).array();
        QCOMPARE(list.size(), 3);
        QStringList names;
        for (const QJsonValue &w : list) {
            names << w[QStringLiteral("name")].toString();
            QVERIFY(!w[QStringLiteral("description")].toString().isEmpty());
            QCOMPARE(w[QStringLiteral("variants")].toArray().size(), 2);
            QStringList options;
            for (const QJsonValue &o : w[QStringLiteral("options")].toArray())
                options << o[QStringLiteral("name")].toString();
            for (const char *common : {"iterations", "repeat", "warmup"})
                QVERIFY2(options.contains(QLatin1String(common)), common);
        }
        QCOMPARE(names, (QStringList{QStringLiteral("launch-chain"), QStringLiteral("batched-matmul"),
                                     QStringLiteral("attention")}));
        const std::string text = listText();
        QVERIFY(text.find("--k 5,10,15,20,25,30,35,40,45,50") != std::string::npos);
    }

    void runOptions()
    {
        RunConfig config;
        std::string error;
        QVERIFY(parse({"launch-chain", "--out", "/tmp/x"}, config, error));
        QCOMPARE(config.integer("kernels"), 200L);
        QCOMPARE(config.variants(), (std::vector<std::string>{"eager", "graph"}));
        QVERIFY(parse({"launch-chain", "--mode", "graph", "--kernels", "17", "--out", "d"}, config, error));
        QCOMPARE(config.variants(), std::vector<std::string>{"graph"});
        QCOMPARE(config.integer("kernels"), 17L);
        QVERIFY(parse({"batched-matmul", "--k", "25,30,35", "--dtype", "f64", "--out", "d"}, config, error));
        QCOMPARE(config.integers("k"), (std::vector<long>{25, 30, 35}));
        QCOMPARE(config.variants(), std::vector<std::string>{"f64"});
        QVERIFY(parse({"attention", "--out", "d"}, config, error));
        QCOMPARE(config.variants(), (std::vector<std::string>{"naive", "tiled"}));
    }

    void badRunOptions_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named"); // what the message must name
        QTest::newRow("no workload") << QStringList{QStringLiteral("--out"), QStringLiteral("d")}
                                     << "workload";
        QTest::newRow("unknown workload") << QStringList{QStringLiteral("gemm")} << "gemm";
        QTest::newRow("no out") << QStringList{QStringLiteral("attention")} << "--out";
        QTest::newRow("zero kernels")
            << QStringList{QStringLiteral("launch-chain"), QStringLiteral("--kernels"), QStringLiteral("0"),
                           QStringLiteral("--out"), QStringLiteral("d")}
            << "--kernels";
        QTest::newRow("a word") << QStringList{QStringLiteral("attention"), QStringLiteral("--seq"),
                                               QStringLiteral("many"), QStringLiteral("--out"),
                                               QStringLiteral("d")}
                                << "--seq";
        QTest::newRow("bad list") << QStringList{QStringLiteral("batched-matmul"), QStringLiteral("--k"),
                                                 QStringLiteral("5,,6"), QStringLiteral("--out"),
                                                 QStringLiteral("d")}
                                  << "--k";
        QTest::newRow("K too big") << QStringList{QStringLiteral("batched-matmul"), QStringLiteral("--k"),
                                                  QStringLiteral("5,600"), QStringLiteral("--out"),
                                                  QStringLiteral("d")}
                                   << "--k";
        QTest::newRow("bad choice") << QStringList{QStringLiteral("launch-chain"), QStringLiteral("--mode"),
                                                   QStringLiteral("lazy"), QStringLiteral("--out"),
                                                   QStringLiteral("d")}
                                    << "eager, graph, both";
        QTest::newRow("other workload's option")
            << QStringList{QStringLiteral("launch-chain"), QStringLiteral("--dtype"), QStringLiteral("f32"),
                           QStringLiteral("--out"), QStringLiteral("d")}
            << "--dtype";
        QTest::newRow("missing value")
            << QStringList{QStringLiteral("attention"), QStringLiteral("--out")} << "--out";
    }

    void badRunOptions()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        std::vector<std::string> words;
        for (const QString &a : args)
            words.push_back(a.toStdString());
        RunConfig config;
        std::string error;
        QVERIFY(!parse(words, config, error));
        QVERIFY2(QString::fromStdString(error).contains(named), error.c_str());
    }

    void writtenTraceReadsBack_data()
    {
        QTest::addColumn<bool>("graph");
        QTest::newRow("eager") << false;
        QTest::newRow("graph") << true;
    }

    // The program's summary and Scopeline's analysis of the file it wrote agree, to the ns.
    void writtenTraceReadsBack()
    {
        QFETCH(bool, graph);
        const int iterations = 4, kernels = 30;
        const TraceRecords records = chainRecords(graph, iterations, kernels);
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("run.pt.trace.json.gz")).toStdString();
        std::string error;
        QVERIFY2(writeTrace(file, records, error), error.c_str());
        QVERIFY(!QFileInfo::exists(QString::fromStdString(file + ".part")));

        const LoadResult loaded = TraceLoader::load(QString::fromStdString(file));
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const TraceData &t = *loaded.trace;
        const TraceAnalysis analysis(t);
        const RunSummary s = summarize(records);
        const LaunchSummary &total = analysis.total();
        QCOMPARE(s.kernels, std::size_t(iterations * kernels));
        QCOMPARE(total.kernels, int64_t(s.kernels));
        QCOMPARE(total.kernelLaunches, int64_t(s.kernelLaunches));
        QCOMPARE(total.graphLaunches, int64_t(s.graphLaunches));
        QCOMPARE(s.graphLaunches, graph ? std::size_t(iterations) : std::size_t(0));
        QCOMPARE(total.busyNs, int64_t(s.busyNs));
        QCOMPARE(total.spanNs, int64_t(s.spanNs));
        std::size_t gaps = 0;
        for (const StreamSummary &stream : analysis.streams())
            gaps += stream.gaps.size();
        QCOMPARE(gaps, s.idleGaps);
        if (graph)
            QVERIFY(std::isnan(total.medianLaunchDelay()));
        else
            QCOMPARE(total.medianLaunchDelay(), s.medianLaunchDelayNs);
        // every kernel joined to its launch, a graph launch to all of its kernels
        for (uint32_t k : analysis.kernels())
            QVERIFY(analysis.launchOf(k) >= 0);
        // the named range is the scope of the kernels launched inside it, one instance per iteration
        const ScopeIndex index(analysis);
        const ScopeMatcher chain(QStringLiteral("chain"), MatchMode::Component);
        QCOMPARE(index.samples(chain, SampleMode::Kernel).size(), std::size_t(iterations * kernels));
        QCOMPARE(index.samples(chain, SampleMode::Span).size(), std::size_t(iterations));
        // exact times: relative to the earliest record, which the file keeps as baseTimeNanoseconds
        QCOMPARE(t.start[analysis.kernels().front()],
                 int64_t(records.kernels.front().start - (kClock + 1000)));

        // An independent reader: Python's json, as Perfetto and chrome://tracing read it.
        const ProcessResult py =
            runProcess(QStringLiteral(SCOPELINE_PYTHON),
                       {QStringLiteral("-c"),
                        QStringLiteral("import gzip,json,sys; d=json.load(gzip.open(sys.argv[1])); "
                                       "k=[e for e in d['traceEvents'] if e.get('cat')=='kernel']; "
                                       "f=[e for e in d['traceEvents'] if e.get('cat')=='ac2g']; "
                                       "ok=all(x['ph']=='s' and y['ph']=='f' and x['id']==y['id'] "
                                       "for x,y in zip(f[::2],f[1::2])); "
                                       "print(d['baseTimeNanoseconds'], len(k), round(k[0]['ts']*1000), "
                                       "round(k[0]['dur']*1000), len(f)//2 if ok else -1)"),
                        QString::fromStdString(file)});
        QCOMPARE(py.exitCode, 0);
        const QList<QByteArray> fields = py.out.trimmed().split(' ');
        QCOMPARE(fields.size(), 5);
        // one flow arrow per launch (a graph launch's to its first kernel), each an s/f pair
        QCOMPARE(fields[4].toLongLong(), int64_t(s.kernelLaunches + s.graphLaunches));
        QCOMPARE(fields[0].toULongLong(), kClock + 1000);
        QCOMPARE(fields[1].toLongLong(), int64_t(s.kernels));
        QCOMPARE(fields[2].toLongLong(), int64_t(records.kernels.front().start - (kClock + 1000)));
        QCOMPARE(fields[3].toLongLong(), int64_t(1207));
    }

    void unwritablePathSaysWhy()
    {
        std::string error;
        QVERIFY(!writeTrace("/nonexistent/folder/run.json.gz", chainRecords(false, 1, 2), error));
        QVERIFY2(error.find("/nonexistent/folder/run.json.gz") != std::string::npos, error.c_str());
        QVERIFY(!writeFileAtomically("/nonexistent/summary.json", "{}", error));
        QVERIFY2(error.find("/nonexistent/summary.json") != std::string::npos, error.c_str());
    }

    // The real program on the GPU: skipped, with the reason, where there is none.
    void recordsARealPair()
    {
        const QString program = QStringLiteral(SCOPELINE_HIPBENCH);
        if (program.isEmpty())
            QSKIP("no GPU: scopeline-hipbench is not built here (it needs nvcc with CUPTI)");
        QTemporaryDir dir;
        const ProcessResult run = runProcess(
            program, {QStringLiteral("run"), QStringLiteral("launch-chain"), QStringLiteral("--kernels"),
                      QStringLiteral("100"), QStringLiteral("--iterations"), QStringLiteral("5"),
                      QStringLiteral("--repeat"), QStringLiteral("2"), QStringLiteral("--out"), dir.path()});
        if (run.exitCode == 3)
            QSKIP(qPrintable(QStringLiteral("no GPU: ") + QString::fromUtf8(run.err.trimmed())));
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QFile summaryFile(dir.filePath(QStringLiteral("summary.json")));
        QVERIFY(summaryFile.open(QIODevice::ReadOnly));
        const QJsonObject summary = QJsonDocument::fromJson(summaryFile.readAll()).object();
        QCOMPARE(summary[QStringLiteral("a")][QStringLiteral("label")].toString(), QStringLiteral("eager"));
        QCOMPARE(summary[QStringLiteral("b")][QStringLiteral("label")].toString(), QStringLiteral("graph"));
        const QJsonArray runs = summary[QStringLiteral("runs")].toArray();
        QCOMPARE(runs.size(), 4);
        double idleEager = 0, idleGraph = 0;
        for (const QJsonValue &r : runs) {
            const LoadResult loaded = TraceLoader::load(r[QStringLiteral("file")].toString());
            QVERIFY2(loaded.ok(), qPrintable(loaded.error));
            const TraceAnalysis analysis(*loaded.trace);
            const LaunchSummary &total = analysis.total();
            QCOMPARE(total.kernels, r[QStringLiteral("kernels")].toInteger());
            QCOMPARE(total.kernels, int64_t(500));
            QCOMPARE(total.kernelLaunches, r[QStringLiteral("kernelLaunches")].toInteger());
            QCOMPARE(total.graphLaunches, r[QStringLiteral("graphLaunches")].toInteger());
            QCOMPARE(total.busyNs, r[QStringLiteral("busyNs")].toInteger());
            QCOMPARE(total.idleNs(), r[QStringLiteral("idleNs")].toInteger());
            QVERIFY2(r[QStringLiteral("minLaunchToKernelNs")].toInteger() > 0,
                     "a kernel started before its launch call");
            (r[QStringLiteral("variant")].toString() == QLatin1String("eager") ? idleEager : idleGraph) +=
                double(total.idleNs());
        }
        QVERIFY2(idleGraph < idleEager / 2,
                 qPrintable(QStringLiteral("idle eager %1 ns, graph %2 ns").arg(idleEager).arg(idleGraph)));
    }
};

QTEST_GUILESS_MAIN(TstHipbench)
#include "tst_hipbench.moc"
