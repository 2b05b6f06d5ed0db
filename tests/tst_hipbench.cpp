// SPDX-License-Identifier: GPL-3.0-or-later
// scopeline-hipbench without a GPU: its options (what --list shows and how `run` is checked), its
// trace writer, read back by Scopeline's own loader and analysis and by Python's json, its per-run
// table and summary.json entries made from real H100 traces, and `--processes N` with
// tests/fake_hipbench.sh as the child processes (their layout, summary, progress and failures). With a
// GPU: a real launch-chain pair, in one process and in several, whose analysis by Scopeline must agree
// with the program's own summary.

#include "childprocess.h"
#include "model/runner/hipbenchprotocol.h"
#include "model/comparison/scopecomparison.h"
#include "model/analysis/scopeindex.h"
#include "model/analysis/traceanalysis.h"
#include "model/loading/traceloader.h"
#include "runreport.h"
#include "testprocess.h"
#include "tracewriter.h"
#include "workloads.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

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

const QString kData = QStringLiteral(SCOPELINE_TEST_DATA);
// Stands in for the program's child processes: it answers `child-process` as main.cpp does.
const std::string kFake = QStringLiteral(SCOPELINE_TEST_DATA "/../fake_hipbench.sh").toStdString();

int64_t nanoseconds(const nlohmann::json &us)
{
    return std::llround(us.get<double>() * 1000);
}

// The records of a trace the program wrote, read back from its file (times relative to its base).
TraceRecords readBack(const QString &file)
{
    TraceRecords r;
    gzFile in = gzopen(file.toLocal8Bit().constData(), "rb");
    if (!in)
        return r;
    std::string text;
    char buffer[1 << 16];
    for (int n; (n = gzread(in, buffer, sizeof buffer)) > 0;)
        text.append(buffer, std::size_t(n));
    gzclose(in);
    const nlohmann::json trace = nlohmann::json::parse(text, nullptr, false);
    if (!trace.is_object())
        return r;
    r.deviceName = trace["deviceProperties"][0].value("name", "");
    for (const nlohmann::json &e : trace["traceEvents"]) {
        const std::string cat = e.value("cat", ""), name = e.value("name", "");
        if (e.value("ph", "") == "M" && name == "process_name" &&
            e["args"].value("name", "") == r.processName)
            r.pid = e["pid"];
        if (e.value("ph", "") != "X")
            continue;
        const uint64_t start = nanoseconds(e["ts"]), end = start + nanoseconds(e["dur"]);
        const nlohmann::json &args = e["args"];
        if (cat == "cuda_runtime")
            r.apis.push_back(
                {name, args.value("backend call", ""), e["tid"], start, end, args["correlation"]});
        else if (cat == "user_annotation")
            r.ranges.push_back({name, e["tid"], start, end});
        else if (cat == "kernel")
            r.kernels.push_back({name,
                                 e["pid"],
                                 e["tid"],
                                 start,
                                 end,
                                 args["correlation"],
                                 {1, 1, 1},
                                 {1, 1, 1},
                                 args.value("graph id", 0u)});
    }
    return r;
}

QList<QByteArray> lines(const std::string &text)
{
    return QByteArray::fromStdString(text).trimmed().split('\n');
}

// A run of launch-chain with --processes, into folder, through the fake's child processes.
struct ProcessesRun
{
    RunConfig config;
    std::ostringstream table, progress;
    int status = -1;
    nlohmann::json summary;

    ProcessesRun(const QString &folder, const char *behaviour)
    {
        std::string error;
        if (!parseRun({"launch-chain", "--processes", "2", "--repeat", "2", "--out", folder.toStdString()},
                      config, error))
            qFatal("%s", error.c_str());
        qputenv("FAKE_HIPBENCH", behaviour);
        RunReport report(config, folder.toStdString(), table, progress);
        status = report.finish(recordInProcesses(kFake, config, folder.toStdString(), report));
        qunsetenv("FAKE_HIPBENCH");
        QFile file(folder + QStringLiteral("/summary.json"));
        if (file.open(QIODevice::ReadOnly))
            summary = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
    }
};

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
            for (const char *common : {"iterations", "repeat", "processes", "warmup"})
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
        QCOMPARE(config.integer("processes"), 1L);
        QVERIFY(parse({"attention", "--processes", "4", "--out", "d"}, config, error));
        QCOMPARE(config.integer("processes"), 4L);
        // --NAME=VALUE, as most programs take it
        QVERIFY2(parse({"launch-chain", "--kernels=17", "--out=d=x"}, config, error), error.c_str());
        QCOMPARE(config.integer("kernels"), 17L);
        QCOMPARE(config.out, std::string("d=x"));
    }

    void runFolders()
    {
        // One process per variant: today's layout; more: the runs grouped by process, as Scopeline reads
        // them.
        QCOMPARE(runFolder("/o", "eager", 1, 0, 2), std::string("/o/eager/run_2"));
        QCOMPARE(runFolder("/o", "graph", 3, 1, 0), std::string("/o/graph/proc_1/run_0"));
    }

    void childArgumentsRunOneVariant()
    {
        // The child's command line is the run's own, with one variant chosen, and the program takes it.
        RunConfig config;
        std::string error;
        QVERIFY(
            parse({"launch-chain", "--kernels", "17", "--processes", "3", "--out", "rel"}, config, error));
        const std::vector<std::string> args = childArguments(config, "/abs/rel", "graph", 2);
        QCOMPARE(args[0], std::string(kChildCommand));
        QCOMPARE(args[1], std::string("2"));
        RunConfig child;
        QVERIFY2(parse({args.begin() + 2, args.end()}, child, error), error.c_str());
        QCOMPARE(child.out, std::string("/abs/rel"));
        QCOMPARE(child.variants(), std::vector<std::string>{"graph"});
        QCOMPARE(child.integer("processes"), 3L);
        child.values["mode"] = "both";
        QVERIFY(child.values == config.values);
    }

    void badRunOptions_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named"); // what the message must name
        QTest::newRow("no workload") << QStringList{QStringLiteral("--out"), QStringLiteral("d")}
                                     << "workload";
        QTest::newRow("unknown workload") << QStringList{QStringLiteral("gemm")} << "gemm";
        QTest::newRow("no out") << QStringList{QStringLiteral("attention")} << "--out";
        QTest::newRow("help") << QStringList{QStringLiteral("attention"), QStringLiteral("--help")}
                              << "--list";
        QTest::newRow("grid too tall")
            << QStringList{QStringLiteral("attention"), QStringLiteral("--batch"), QStringLiteral("256"),
                           QStringLiteral("--heads"),   QStringLiteral("256"),     QStringLiteral("--out"),
                           QStringLiteral("d")}
            << "65535";
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
        QTest::newRow("zero processes")
            << QStringList{QStringLiteral("attention"), QStringLiteral("--processes"), QStringLiteral("0"),
                           QStringLiteral("--out"), QStringLiteral("d")}
            << "--processes";
        QTest::newRow("missing value")
            << QStringList{QStringLiteral("attention"), QStringLiteral("--out")} << "--out";
        // the runner panel's validator refuses these too: the two took different command lines
        QTest::newRow("a blank before the digits")
            << QStringList{QStringLiteral("launch-chain"), QStringLiteral("--kernels"), QStringLiteral(" 5"),
                           QStringLiteral("--out"), QStringLiteral("d")}
            << "--kernels";
        QTest::newRow("a plus sign") << QStringList{QStringLiteral("batched-matmul"), QStringLiteral("--k"),
                                                    QStringLiteral("5,+6"), QStringLiteral("--out"),
                                                    QStringLiteral("d")}
                                     << "--k";
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
        // each median where there are launches of its kind, none (not 0) where there are none
        QCOMPARE(s.medianLaunchDelayNs.has_value(), !graph);
        QCOMPARE(s.medianGraphLaunchDelayNs.has_value(), graph);
        if (graph) {
            QVERIFY(std::isnan(total.medianLaunchDelay()));
            QCOMPARE(total.medianGraphLaunchDelay(), *s.medianGraphLaunchDelayNs);
        } else {
            QCOMPARE(total.medianLaunchDelay(), *s.medianLaunchDelayNs);
            QVERIFY(std::isnan(total.medianGraphLaunchDelay()));
        }
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

    // A kernel record that ends before it starts (a clock glitch) is written lasting 0 ns: its duration
    // had wrapped around to 2^64 ns, which readers skip as unreadable.
    void backwardRecordLastsZero()
    {
        TraceRecords records = chainRecords(false, 1, 3);
        TraceRecords::Kernel &bent = records.kernels[1];
        bent.end = bent.start - 5;
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("run.pt.trace.json.gz")).toStdString();
        std::string error;
        QVERIFY2(writeTrace(file, records, error), error.c_str());
        const ProcessResult py = runProcess(
            QStringLiteral(SCOPELINE_PYTHON),
            {QStringLiteral("-c"),
             QStringLiteral(
                 "import gzip,json,sys; d=json.load(gzip.open(sys.argv[1])); "
                 "print(' '.join(str(e['dur']) for e in d['traceEvents'] if e.get('cat')=='kernel'))"),
             QString::fromStdString(file)});
        QCOMPARE(py.exitCode, 0);
        QCOMPARE(py.out.trimmed(), QByteArray("1.207 0.0 1.207"));

        // the last kernel bent: the program's own summary spans what the written trace does (its span
        // had ended at the record's end, before its start)
        TraceRecords last = chainRecords(false, 1, 3);
        last.kernels.back().end = last.kernels.back().start - 5;
        QVERIFY2(writeTrace(file, last, error), error.c_str());
        const ProcessResult span = runProcess(
            QStringLiteral(SCOPELINE_PYTHON),
            {QStringLiteral("-c"),
             QStringLiteral("import gzip,json,sys; from decimal import Decimal as D; "
                            "k=[e for e in json.load(gzip.open(sys.argv[1]), parse_float=D)['traceEvents'] "
                            "if e.get('cat')=='kernel']; "
                            "print(int((max(e['ts']+e['dur'] for e in k)-min(e['ts'] for e in k))*1000))"),
             QString::fromStdString(file)});
        QCOMPARE(span.exitCode, 0);
        QCOMPARE(QByteArray::number(qulonglong(summarize(last).spanNs)), span.out.trimmed());
    }

    void unwritablePathSaysWhy()
    {
        std::string error;
        QVERIFY(!writeTrace("/nonexistent/folder/run.json.gz", chainRecords(false, 1, 2), error));
        QVERIFY2(error.find("/nonexistent/folder/run.json.gz") != std::string::npos, error.c_str());
        QVERIFY(!writeFileAtomically("/nonexistent/summary.json", "{}", error));
        QVERIFY2(error.find("/nonexistent/summary.json") != std::string::npos, error.c_str());
    }

    void tableAndSummaryOfRealRuns_data()
    {
        // H100 launch-chain runs (tests/data/h100_runs/hipbench): the eager run has 4000 kernel launches,
        // the graph run 20 graph launches and none of a kernel. `old` is the line the program printed
        // for them on the H100, when the table had no process and no graph column and said 0.000 for a
        // median of nothing.
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("old");
        QTest::addColumn<QString>("line");
        QTest::newRow("eager")
            << "eager"
            << "eager  0  4000  4000  0  4514.066  21529.499  17015.433  3999  6.006  4.764"
            << "eager  0  0  4000  4000  0  4514.066  21529.499  17015.433  3999  6.006  \u2013  "
               "4.764";
        QTest::newRow("graph")
            << "graph"
            << "graph  0  4000  0  20  4305.411  7615.867  3310.456  3999  0.000  143.553"
            << "graph  0  0  4000  0  20  4305.411  7615.867  3310.456  3999  \u2013  152.709  "
               "143.553";
    }

    // The program's table line and summary.json entry of a real run, from its trace read back: "–" and
    // null for a median of nothing, the graph launch delay in its own column, as Scopeline measures it.
    void tableAndSummaryOfRealRuns()
    {
        QFETCH(QString, variant);
        QFETCH(QString, old);
        QFETCH(QString, line);
        const QString file =
            kData + QStringLiteral("/h100_runs/hipbench/launch-chain/%1/run_0/hipbench.pt.trace.json.gz")
                        .arg(variant);
        QVERIFY2(QFileInfo::exists(file), qPrintable(QStringLiteral("missing test data: ") + file));
        const TraceRecords records = readBack(file);
        const RunSummary s = summarize(records);
        const nlohmann::json entry = runEntry(variant.toStdString(), 0, 0, file.toStdString(), s);
        const QString row = QString::fromStdString(tableRow(entry)).trimmed();
        QCOMPARE(row, line);
        // the same figures as on the H100, but for the medians
        QStringList was = old.split(QStringLiteral("  ")), is = row.split(QStringLiteral("  "));
        QCOMPARE(is.size(),
                 QString::fromStdString(tableHeader()).trimmed().split(QStringLiteral("  ")).size());
        is.removeAt(11);
        is.removeAt(10);
        is.removeAt(1);
        was.removeAt(9);
        QCOMPARE(is, was);

        const bool graph = variant == QLatin1String("graph");
        const LoadResult loaded = TraceLoader::load(file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const TraceAnalysis analysis(*loaded.trace);
        const LaunchSummary &total = analysis.total();
        QCOMPARE(int64_t(s.graphLaunches), total.graphLaunches);
        QCOMPARE(s.graphLaunches, graph ? std::size_t(20) : std::size_t(0));
        QCOMPARE(s.kernelLaunches, graph ? std::size_t(0) : std::size_t(4000));
        // summary.json, as a reader of it sees it
        const QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(entry.dump())).object();
        const QJsonValue kernelDelay = json[QStringLiteral("medianLaunchDelayNs")];
        const QJsonValue graphDelay = json[QStringLiteral("medianGraphLaunchDelayNs")];
        QCOMPARE(kernelDelay.isNull(), graph);
        QCOMPARE(graphDelay.isNull(), !graph);
        QCOMPARE(graph ? graphDelay.toDouble() : kernelDelay.toDouble(),
                 graph ? total.medianGraphLaunchDelay() : total.medianLaunchDelay());
        QCOMPARE(json[QStringLiteral("process")].toInteger(), 0);
        QCOMPARE(json[QStringLiteral("minLaunchToKernelNs")].toInteger(), graph ? 143553 : 4764);
    }

    // Every H100 run of the three workloads (tests/data/h100_runs/hipbench, recorded by the runner built
    // from 7bc8b8e): Scopeline's analysis of the trace against the runner's own summary.json entry, and
    // both against tests/oracle/hipbench_check.py, which counts the same figures from the raw events.
    void crossCheckH100Runs_data()
    {
        QTest::addColumn<QJsonObject>("summary"); // the runner's entry
        QTest::addColumn<QJsonObject>("raw");     // the oracle's count
        QTest::addColumn<QString>("file");
        int rows = 0;
        for (const char *workload : {"launch-chain", "batched-matmul", "attention"}) {
            const QString folder = kData + QStringLiteral("/h100_runs/hipbench/") + QLatin1String(workload);
            const ProcessResult oracle = runProcess(
                QStringLiteral(SCOPELINE_PYTHON), {QStringLiteral(SCOPELINE_ORACLE_DIR "/hipbench_check.py"), folder});
            if (oracle.exitCode != 0)
                qFatal("hipbench_check.py %s: %s", qPrintable(folder), oracle.err.constData());
            for (const QJsonValue &run : QJsonDocument::fromJson(oracle.out).array()) {
                const QJsonObject r = run.toObject();
                QTest::addRow("%s %s %d", workload, qPrintable(r[QStringLiteral("variant")].toString()),
                              r[QStringLiteral("run")].toInt())
                    << r[QStringLiteral("summary")].toObject() << r[QStringLiteral("raw")].toObject()
                    << r[QStringLiteral("file")].toString();
                ++rows;
            }
        }
        if (rows != 26) // 5 + 5 launch-chain, 3 + 3 batched-matmul, 5 + 5 attention
            qFatal("expected the 26 H100 runs, found %d", rows);
    }

    // All figures are equal, in ns (summary.json's are integers, as is the trace's exact decimal µs),
    // but one: for the graph runs, whose traces hold no kernel launch at all (20 hipGraphLaunch, 0
    // hipLaunchKernel, as the oracle counts), the runner at 7bc8b8e wrote medianLaunchDelayNs 0.0: a
    // median of nothing. Scopeline has none, which is right; the runner writes null since (the
    // tableAndSummaryOfRealRuns test). Its summary had no graph launch delay then: that one is checked
    // against the oracle only.
    void crossCheckH100Runs()
    {
        QFETCH(QJsonObject, summary);
        QFETCH(QJsonObject, raw);
        QFETCH(QString, file);
        const LoadResult loaded = TraceLoader::load(file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const TraceAnalysis analysis(*loaded.trace);
        const LaunchSummary &total = analysis.total();
        int64_t gaps = 0;
        for (const StreamSummary &stream : analysis.streams())
            gaps += int64_t(stream.gaps.size());
        std::vector<int64_t> delays = total.launchDelays;
        delays.insert(delays.end(), total.graphLaunchDelays.begin(), total.graphLaunchDelays.end());
        const std::map<QString, int64_t> scopeline = {
            {QStringLiteral("kernels"), total.kernels},
            {QStringLiteral("kernelLaunches"), total.kernelLaunches},
            {QStringLiteral("graphLaunches"), total.graphLaunches},
            {QStringLiteral("busyNs"), total.busyNs},
            {QStringLiteral("spanNs"), total.spanNs},
            {QStringLiteral("idleNs"), total.idleNs()},
            {QStringLiteral("idleGaps"), gaps},
            {QStringLiteral("minLaunchToKernelNs"), *std::min_element(delays.begin(), delays.end())}};
        for (const auto &[key, value] : scopeline) {
            QVERIFY2(summary[key].isDouble(), qPrintable(key));
            QCOMPARE(value, summary[key].toInteger());
            QCOMPARE(value, raw[key].toInteger());
        }
        QVERIFY(total.kernels > 0);

        const double median = total.medianLaunchDelay(); // NaN: none
        if (total.kernelLaunches == 0) {
            QVERIFY(std::isnan(median));
            QVERIFY(raw[QStringLiteral("medianLaunchDelayNs")].isNull());
            QCOMPARE(raw[QStringLiteral("kernelLaunches")].toInt(), 0);
            QCOMPARE(summary[QStringLiteral("medianLaunchDelayNs")].toDouble(-1), 0.0); // the runner's slip
        } else {
            QCOMPARE(median, summary[QStringLiteral("medianLaunchDelayNs")].toDouble());
            QCOMPARE(median, raw[QStringLiteral("medianLaunchDelayNs")].toDouble());
        }
        QVERIFY(!summary.contains(QStringLiteral("medianGraphLaunchDelayNs")));
        const double graphMedian = total.medianGraphLaunchDelay();
        if (total.graphLaunches == 0)
            QVERIFY(std::isnan(graphMedian) && raw[QStringLiteral("medianGraphLaunchDelayNs")].isNull());
        else
            QCOMPARE(graphMedian, raw[QStringLiteral("medianGraphLaunchDelayNs")].toDouble());
    }

    void emptyRunHasNoMedians()
    {
        // No launches at all: nothing is 0 that was not measured.
        TraceRecords records = chainRecords(false, 1, 3);
        records.apis.clear();
        const RunSummary s = summarize(records);
        QVERIFY(!s.medianLaunchDelayNs && !s.medianGraphLaunchDelayNs && !s.minLaunchToKernelNs);
        const nlohmann::json entry = runEntry("eager", 0, 0, "f", s);
        QVERIFY(entry["minLaunchToKernelNs"].is_null());
        QVERIFY(QString::fromStdString(tableRow(entry))
                    .trimmed()
                    .endsWith(QStringLiteral("\u2013  \u2013  \u2013")));
    }

    // A one-process run that fails after recording runs says its cause on the line that says where the
    // runs are: the last line, which the window shows.
    void lateFailureSaysWhy()
    {
        QTemporaryDir dir;
        RunConfig config;
        std::string error;
        QVERIFY(
            parseRun({"launch-chain", "--repeat", "2", "--out", dir.path().toStdString()}, config, error));
        std::ostringstream table, progress;
        RunReport report(config, dir.path().toStdString(), table, progress);
        QVERIFY(report.take({{"run", runEntry("eager", 0, 0, "f", summarize(chainRecords(false, 1, 3)))}}));
        {
            // written at once: a process killed now (a cancel past its grace) keeps the run
            QFile interim(dir.filePath(QStringLiteral("summary.json")));
            QVERIFY(interim.open(QIODevice::ReadOnly));
            const nlohmann::json so = nlohmann::json::parse(interim.readAll().toStdString(), nullptr, false);
            QVERIFY(so.is_object() && so["runs"].size() == 1 && so.contains("a") && !so.contains("b"));
        }
        QVERIFY(report.take({{"error", "cudaDeviceSynchronize: an illegal memory access was encountered"}}));
        QCOMPARE(report.finish(GpuError), int(GpuError));
        const QList<QByteArray> said = lines(progress.str());
        QVERIFY(!said.isEmpty());
        QVERIFY2(
            said.back().startsWith("scopeline-hipbench: cudaDeviceSynchronize: an illegal memory access was "
                                   "encountered; the 1 run recorded is in "),
            said.back().constData());
        // B has no run: the summary names A alone, which opens against itself
        QFile summary(dir.filePath(QStringLiteral("summary.json")));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        const nlohmann::json written = nlohmann::json::parse(summary.readAll().toStdString(), nullptr, false);
        QVERIFY(written.contains("a") && !written.contains("b"));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("eager")));
        SessionState state;
        QString why;
        QVERIFY2(hipbenchprotocol::readSummary(dir.path(), state, &why), qPrintable(why));
        QCOMPARE(state.pathB, state.pathA);
    }

    // A cancel (SIGTERM) is passed on to the child process running, which finishes its run: the runs
    // recorded until then are in summary.json, read back as they were said, and no other child starts.
    void cancelKeepsTheRunsRecorded()
    {
        QTemporaryDir dir;
        stopOnSignals();
        ProcessesRun run(dir.path(), "process-cancel");
        const bool stopped = stopRequested();
        stopOnSignals(); // clears the request for the tests after this one
        std::signal(SIGTERM, SIG_DFL);
        std::signal(SIGINT, SIG_DFL);
        QVERIFY(stopped);
        QCOMPARE(run.status, int(Cancelled));
        QVERIFY2(run.summary.is_object(), run.progress.str().c_str());
        QCOMPARE(run.summary["runs"].size(), std::size_t(6)); // process 0: 2 + 2; process 1 eager: 2
        QVERIFY(!run.summary.contains("failed"));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("graph/proc_1"))));
        QVERIFY2(run.progress.str().find("cancelled; the 6 runs recorded are in") != std::string::npos,
                 run.progress.str().c_str());
    }

    // --processes 2 through child processes (the fake stands in for the GPU part): runs grouped by
    // process, one table line and one summary.json entry each, with its process; progress lines that
    // Scopeline reads.
    void recordsInChildProcesses()
    {
        QTemporaryDir dir;
        ProcessesRun run(dir.path(), "ok");
        QVERIFY2(run.status == 0, run.progress.str().c_str());
        QVERIFY2(run.summary.is_object(), "no summary.json");
        QCOMPARE(run.summary["runs"].size(), std::size_t(8));
        QVERIFY(!run.summary.contains("failed"));
        std::set<std::pair<std::string, long>> processes;
        for (const nlohmann::json &r : run.summary["runs"]) {
            const std::string variant = r["variant"];
            const long process = r["process"], repeat = r["run"];
            processes.insert({variant, process});
            QCOMPARE(r["file"].get<std::string>(),
                     runFolder(dir.path().toStdString(), variant, 2, process, repeat) +
                         "/hipbench.pt.trace.json.gz");
            QVERIFY(QFileInfo(QString::fromStdString(
                                  runFolder(dir.path().toStdString(), variant, 2, process, repeat)))
                        .isDir());
            QCOMPARE(r["medianLaunchDelayNs"].is_null(), variant == "graph");
        }
        QCOMPARE(processes.size(), std::size_t(4));
        QCOMPARE(run.summary["scopes"], nlohmann::json::array({"chain"}));
        SessionState state;
        QString error;
        QVERIFY2(hipbenchprotocol::readSummary(dir.path(), state, &error), qPrintable(error));
        QCOMPARE(state.pathA, dir.filePath(QStringLiteral("eager")));
        QCOMPARE(state.pathB, dir.filePath(QStringLiteral("graph")));

        const QList<QByteArray> table = lines(run.table.str());
        QCOMPARE(table.size(), 11); // title, header, 8 runs, "wrote"
        QVERIFY(table[0].endsWith("2 runs in each of 2 processes per variant"));
        QCOMPARE(table[1] + '\n', QByteArray::fromStdString(tableHeader()));
        QCOMPARE(table[8], QByteArray("graph  1  0  4000  0  20  4500.000  7500.000  3000.000  3999  \u2013  "
                                      "140.000  4.700"));
        int done = -1;
        for (const QByteArray &line : lines(run.progress.str())) {
            HipbenchProgress progress;
            QVERIFY2(hipbenchprotocol::parseProgress(QString::fromUtf8(line), progress), line.constData());
            QVERIFY(progress.done >= done);
            QCOMPARE(progress.total, 8);
            done = progress.done;
        }
        QCOMPARE(done, 8);
        QVERIFY(run.progress.str().find("progress: 5/8 eager process 1 run 0 recorded") != std::string::npos);
        QVERIFY(run.progress.str().find("preparing graph in process 1") != std::string::npos);
    }

    void childFailureKeepsTheOtherRuns_data()
    {
        QTest::addColumn<QByteArray>("behaviour");
        QTest::addColumn<QString>("why");
        QTest::newRow("GPU error") << QByteArray("process-fails")
                                   << "cudaDeviceSynchronize: an illegal memory access was encountered; exit "
                                      "status 3 (no GPU or a GPU error)";
        QTest::newRow("crash") << QByteArray("process-crash") << "killed by signal 11 (Segmentation fault)";
    }

    // Process 1 of each variant fails after its first run: said naming the process and why, and the
    // runs of process 0 and the one of process 1 stay in summary.json.
    void childFailureKeepsTheOtherRuns()
    {
        QFETCH(QByteArray, behaviour);
        QFETCH(QString, why);
        QTemporaryDir dir;
        ProcessesRun run(dir.path(), behaviour.constData());
        QCOMPARE(run.status, 3);
        const QString progress = QString::fromStdString(run.progress.str());
        for (const char *variant : {"eager", "graph"})
            QVERIFY2(progress.contains(QStringLiteral("scopeline-hipbench: process 1 (%1) failed: %2\n")
                                           .arg(QLatin1String(variant), why)),
                     qPrintable(progress));
        const QString last = QString::fromUtf8(lines(run.progress.str()).last());
        QCOMPARE(last,
                 QStringLiteral("scopeline-hipbench: 2 of 4 processes failed (first: process 1 (eager): %1); "
                                "the 6 runs recorded are in %2/summary.json")
                     .arg(why, dir.path()));
        QVERIFY2(run.summary.is_object(), "no summary.json");
        QCOMPARE(run.summary["runs"].size(), std::size_t(6));
        QCOMPARE(run.summary["failed"].size(), std::size_t(2));
        QCOMPARE(run.summary["failed"][1]["variant"], "graph");
        QCOMPARE(run.summary["failed"][1]["process"], 1);
        QCOMPARE(QString::fromStdString(run.summary["failed"][1]["error"]), why);
        QCOMPARE(lines(run.table.str()).size(), 2 + 6); // title, header, the runs; no "wrote"
    }

    void childThatCannotStart()
    {
        // Nothing recorded: the first failure ends the run, naming the process.
        QTemporaryDir dir;
        RunConfig config;
        std::string error;
        QVERIFY(
            parse({"launch-chain", "--processes", "3", "--out", dir.path().toStdString()}, config, error));
        std::ostringstream table, progress;
        RunReport report(config, dir.path().toStdString(), table, progress);
        const std::string missing = dir.filePath(QStringLiteral("no-such-program")).toStdString();
        QCOMPARE(report.finish(recordInProcesses(missing, config, dir.path().toStdString(), report)), 3);
        QCOMPARE(report.failures(), std::size_t(1));
        const QList<QByteArray> said = lines(progress.str());
        QVERIFY2(
            said.last().startsWith("scopeline-hipbench: nothing was recorded (process 0 (eager): exit status "
                                   "127 (it could not be started: "),
            said.last().constData());
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("summary.json"))));
    }

    // The tracer's notes (where the GPU times come from) are written with the run's options.
    void traceSaysWhereItsTimesComeFrom()
    {
        TraceRecords records = chainRecords(false, 1, 2);
        records.metadata["gpu timestamps"] = "hipEvents: test";
        const nlohmann::json trace = nlohmann::json::parse(traceJson(records));
        QCOMPARE(trace["hipbench"]["gpu timestamps"].get<std::string>(), std::string("hipEvents: test"));
        QCOMPARE(trace["hipbench"]["workload"].get<std::string>(), std::string("launch-chain"));
    }

    // The AMD build (hipcc), wherever it is built: the same workloads and options as the library lists,
    // --help says where its GPU times come from, and without an AMD GPU a run refuses with exit 3.
    void rocmBuildListsTheWorkloads()
    {
        const QString program = QStringLiteral(SCOPELINE_HIPBENCH_ROCM);
        if (program.isEmpty())
            QFAIL("scopeline-hipbench-rocm is not built: hipcc or libamdhip64-dev is missing (packaging/setup.sh "
                  "installs both)");
        const ProcessResult text = runProcess(program, {QStringLiteral("--list")});
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(text.out.toStdString(), listText());
        const ProcessResult json = runProcess(program, {QStringLiteral("--list"), QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(json.out.toStdString(), listJson());
        const ProcessResult stray =
            runProcess(program, {QStringLiteral("--list"), QStringLiteral("attention")});
        QCOMPARE(stray.exitCode, 1);
        QVERIFY2(stray.err.contains("--list takes --json or nothing"), stray.err.constData());
        const ProcessResult help = runProcess(program, {QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains("GPU timestamps: hipEvents") && help.out.contains("1 us resolution"),
                 help.out.constData());
        // its usage names the program run, not the NVIDIA build
        QVERIFY2(help.out.startsWith("Usage: scopeline-hipbench-rocm --list"), help.out.constData());
    }

    void rocmBuildRefusesWithoutAnAmdGpu()
    {
        const QString program = QStringLiteral(SCOPELINE_HIPBENCH_ROCM);
        if (program.isEmpty())
            QFAIL("scopeline-hipbench-rocm is not built: hipcc or libamdhip64-dev is missing (packaging/setup.sh "
                  "installs both)");
        QTemporaryDir dir;
        qputenv("HIP_VISIBLE_DEVICES", "-1"); // hides an AMD GPU too, so every machine tests this path
        const ProcessResult run = runProcess(
            program, {QStringLiteral("run"), QStringLiteral("launch-chain"), QStringLiteral("--kernels"),
                      QStringLiteral("10"), QStringLiteral("--repeat"), QStringLiteral("1"),
                      QStringLiteral("--out"), dir.path()});
        qunsetenv("HIP_VISIBLE_DEVICES");
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("scopeline-hipbench: no AMD GPU found"), run.err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("summary.json"))));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("eager/run_0"))));
        QVERIFY(QFileInfo(dir.path()).isDir()); // the user's folder stays
        // the folders it made for nothing are removed; one that holds anything is refused before a GPU is
        // looked for, its files untouched
        const QString fresh = dir.filePath(QStringLiteral("fresh"));
        qputenv("HIP_VISIBLE_DEVICES", "-1");
        const ProcessResult none = // fresh/a/b: the parents it made too (they had stayed)
            runProcess(program, {QStringLiteral("run"), QStringLiteral("launch-chain"),
                                 QStringLiteral("--out"), fresh + QStringLiteral("/a/b")});
        qunsetenv("HIP_VISIBLE_DEVICES");
        QCOMPARE(none.exitCode, 3);
        QVERIFY(!QFileInfo::exists(fresh));
        QFile earlier(dir.filePath(QStringLiteral("earlier.txt")));
        QVERIFY(earlier.open(QIODevice::WriteOnly));
        earlier.write("an earlier recording\n");
        earlier.close();
        const ProcessResult refused =
            runProcess(program, {QStringLiteral("run"), QStringLiteral("launch-chain"),
                                 QStringLiteral("--out"), dir.path()});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("not an empty folder"), refused.err.constData());
        QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
                 QStringList{QStringLiteral("earlier.txt")});
    }

    // On an AMD GPU: a launch-chain pair timed by hipEvents, which Scopeline reads as the program
    // summarised it. Skipped, saying why, without one.
    void rocmBuildRecordsARealPair()
    {
        const QString program = QStringLiteral(SCOPELINE_HIPBENCH_ROCM);
        if (program.isEmpty())
            QFAIL("scopeline-hipbench-rocm is not built: hipcc or libamdhip64-dev is missing (packaging/setup.sh "
                  "installs both)");
        QTemporaryDir dir;
        const ProcessResult run = runProcess(
            program, {QStringLiteral("run"), QStringLiteral("launch-chain"), QStringLiteral("--kernels"),
                      QStringLiteral("50"), QStringLiteral("--iterations"), QStringLiteral("4"),
                      QStringLiteral("--repeat"), QStringLiteral("2"), QStringLiteral("--out"), dir.path()});
        if (run.exitCode == 3)
            QSKIP(qPrintable(QStringLiteral("no GPU: ") + QString::fromUtf8(run.err.trimmed())));
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QFile summaryFile(dir.filePath(QStringLiteral("summary.json")));
        QVERIFY(summaryFile.open(QIODevice::ReadOnly));
        const QJsonArray runs =
            QJsonDocument::fromJson(summaryFile.readAll()).object()[QStringLiteral("runs")].toArray();
        QCOMPARE(runs.size(), 4);
        for (const QJsonValue &r : runs) {
            const bool graph = r[QStringLiteral("variant")].toString() == QLatin1String("graph");
            const LoadResult loaded = TraceLoader::load(r[QStringLiteral("file")].toString());
            QVERIFY2(loaded.ok(), qPrintable(loaded.error));
            const TraceAnalysis analysis(*loaded.trace);
            const LaunchSummary &total = analysis.total();
            // hipEvents time a graph launch as one interval
            QCOMPARE(total.kernels, graph ? int64_t(4) : int64_t(200));
            QCOMPARE(total.kernels, r[QStringLiteral("kernels")].toInteger());
            QCOMPARE(total.graphLaunches, graph ? int64_t(4) : int64_t(0));
            QCOMPARE(total.busyNs, r[QStringLiteral("busyNs")].toInteger());
            QCOMPARE(total.idleNs(), r[QStringLiteral("idleNs")].toInteger());
        }
    }

    void recordsARealPair_data()
    {
        QTest::addColumn<int>("processes");
        QTest::newRow("one process") << 1;
        QTest::newRow("two processes") << 2;
    }

    // The real program on the GPU: skipped, with the reason, where there is none. With two processes,
    // each variant's runs come from two processes, in their own folders.
    void recordsARealPair()
    {
        QFETCH(int, processes);
        const QString program = QStringLiteral(SCOPELINE_HIPBENCH);
        if (program.isEmpty())
            QSKIP("no GPU: scopeline-hipbench is not built here (it needs nvcc with CUPTI)");
        QTemporaryDir dir;
        const ProcessResult run = runProcess(
            program, {QStringLiteral("run"), QStringLiteral("launch-chain"), QStringLiteral("--kernels"),
                      QStringLiteral("100"), QStringLiteral("--iterations"), QStringLiteral("5"),
                      QStringLiteral("--repeat"), QStringLiteral("2"), QStringLiteral("--processes"),
                      QString::number(processes), QStringLiteral("--out"), dir.path()});
        if (run.exitCode == 3)
            QSKIP(qPrintable(QStringLiteral("no GPU: ") + QString::fromUtf8(run.err.trimmed())));
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QFile summaryFile(dir.filePath(QStringLiteral("summary.json")));
        QVERIFY(summaryFile.open(QIODevice::ReadOnly));
        const QJsonObject summary = QJsonDocument::fromJson(summaryFile.readAll()).object();
        QCOMPARE(summary[QStringLiteral("a")][QStringLiteral("label")].toString(), QStringLiteral("eager"));
        QCOMPARE(summary[QStringLiteral("b")][QStringLiteral("label")].toString(), QStringLiteral("graph"));
        const QJsonArray runs = summary[QStringLiteral("runs")].toArray();
        QCOMPARE(runs.size(), 4 * processes);
        // the table: a line per run, "–" for a median of nothing
        const QList<QByteArray> table = run.out.trimmed().split('\n');
        QCOMPARE(table.size(), 3 + runs.size());
        for (const QByteArray &line : table.mid(2, runs.size()))
            QCOMPARE(line.split(' ').contains("\u2013"), true);
        double idleEager = 0, idleGraph = 0;
        std::map<long, uint32_t> pids; // process -> its pid
        for (const QJsonValue &r : runs) {
            const QString file = r[QStringLiteral("file")].toString();
            const QString variant = r[QStringLiteral("variant")].toString();
            const long process = long(r[QStringLiteral("process")].toInteger());
            QCOMPARE(file.toStdString(), runFolder(dir.path().toStdString(), variant.toStdString(), processes,
                                                   process, long(r[QStringLiteral("run")].toInteger())) +
                                             "/hipbench.pt.trace.json.gz");
            const LoadResult loaded = TraceLoader::load(file);
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
            const bool graph = variant == QLatin1String("graph");
            QCOMPARE(r[QStringLiteral("medianLaunchDelayNs")].isNull(), graph);
            QCOMPARE(r[QStringLiteral("medianGraphLaunchDelayNs")].toDouble(),
                     graph ? total.medianGraphLaunchDelay() : 0.0);
            (graph ? idleGraph : idleEager) += double(total.idleNs());
            // each process is its own: one pid for all its runs, another for the next process
            const uint32_t pid = readBack(file).pid;
            QVERIFY(pid != 0);
            if (variant == QLatin1String("eager") && !pids.emplace(process, pid).second)
                QCOMPARE(pids[process], pid);
        }
        QCOMPARE(pids.size(), std::size_t(processes));
        if (processes > 1)
            QVERIFY(pids[0] != pids[1]);
        QVERIFY2(idleGraph < idleEager / 2,
                 qPrintable(QStringLiteral("idle eager %1 ns, graph %2 ns").arg(idleEager).arg(idleGraph)));
    }
};

QTEST_GUILESS_MAIN(TstHipbench)
#include "tst_hipbench.moc"
