// SPDX-License-Identifier: GPL-3.0-or-later
// The SQLite trace formats: rocprofv3's rocpd databases and Nsight Systems SQLite exports.
// `info --json` figures are checked against an independent Python reading of the same databases
// (tests/oracle/sqlite_summary.py, sqlite3 module): the real Nsight Systems exports of
// tests/data/public/pipit and public/Fuser (nsys 2022.2 to 2024.6, A100, H100, H200), and the databases
// tests/data/make_sqlite_fixtures.py converts from real traces (rocpd with its ids where ROCm's writer
// puts them). Bad databases (truncated, missing tables or columns, wrong column types, locked, an
// oversized BLOB, not SQLite at all, no kernel table) end with a message naming the file.

#include "model/analysis/runsummary.h"
#include "model/analysis/runsummaryfile.h"
#include "model/analysis/traceanalysis.h"
#include "model/comparison/replication.h"
#include "model/loading/loadedrun.h"
#include "model/loading/tracefolder.h"
#include "model/loading/traceloader.h"
#include "model/tracedata/tracedata.h"

#include "testdata.h"
#include "testprocess.h"

#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace scopeline;

namespace {

ProcessResult cli(const QStringList &arguments)
{
    return runProcess(QStringLiteral(SCOPELINE_CLI), arguments);
}

QString converted(const char *relative)
{
    return testdata::path(QStringLiteral("converted/%1").arg(QLatin1String(relative)));
}

QByteArray sha256(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

// Runs SQL on a database (created when absent); empty on success, else SQLite's message.
QString exec(const QString &path, const char *sql)
{
    sqlite3 *db = nullptr;
    QString error;
    if (sqlite3_open(path.toUtf8().constData(), &db) == SQLITE_OK) {
        char *message = nullptr;
        if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK)
            error = QString::fromUtf8(message ? message : "error");
        sqlite3_free(message);
    } else {
        error = QStringLiteral("cannot open");
    }
    sqlite3_close(db);
    return error;
}

int countKind(const TraceData &d, EventKind kind)
{
    return int(std::count(d.kind.begin(), d.kind.end(), kind));
}

QString publicExport(const char *relative)
{
    return testdata::path(QStringLiteral("public/%1").arg(QLatin1String(relative)));
}

const char *const kCloverleaf =
    "pipit/pipit__tests__data__cloverleaf-nsys__perlmutter-cloverleaf-cuda.sqlite";
const char *const kSaxpy = "pipit/pipit__tests__data__saxpy-mpi-cuda_nsys_perlmutter0.sqlite";
const char *const kFuserH200 = "Fuser/h200/f6ab0c3_report1.sqlite";

// The independent Python count of a database or rocpd run folder.
QJsonObject oracle(const QString &path)
{
    const ProcessResult r = runProcess(QStringLiteral(SCOPELINE_PYTHON),
                                       {QStringLiteral(SCOPELINE_ORACLE_DIR "/sqlite_summary.py"), path});
    if (r.exitCode != 0)
        qWarning("sqlite_summary.py: %s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

QJsonObject infoJson(const QString &path)
{
    const ProcessResult r = cli({QStringLiteral("info"), QStringLiteral("--json"), path});
    if (r.exitCode != 0)
        qWarning("scopeline-cli info: %s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

// Every figure of the oracle equals the CLI's; launches_paired is the count of launch delays,
// gap_memory_ns the streams' sum.
QString differences(const QJsonObject &expected, const QJsonObject &got)
{
    QStringList out;
    for (auto it = expected.begin(); it != expected.end(); ++it) {
        QJsonValue value = got[it.key()];
        if (it.key() == QLatin1String("launches_paired")) {
            value = got[QStringLiteral("launch_delay_ns")].toObject()[QStringLiteral("n")].toInt();
        } else if (it.key() == QLatin1String("gap_memory_ns")) {
            double sum = 0;
            for (const QJsonValue &stream : got[QStringLiteral("streams")].toArray())
                sum += stream[QStringLiteral("gap_memory_ns")].toDouble();
            value = sum;
        }
        if (value != it.value())
            out << QStringLiteral("%1: cli %2, oracle %3")
                       .arg(it.key(), value.toVariant().toString(), it.value().toVariant().toString());
    }
    return out.join(QStringLiteral("; "));
}

// The cells of one CSV line: quoted cells may hold commas and doubled quotes.
QStringList csvCells(const QString &line)
{
    QStringList cells{QString()};
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted && c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"'))
            cells.back() += line[++i];
        else if (c == QLatin1Char('"'))
            quoted = !quoted;
        else if (c == QLatin1Char(',') && !quoted)
            cells << QString();
        else
            cells.back() += c;
    }
    return cells;
}

// The suffix of a rocpd database's tables (rocpd_metadata's "uuid"): rows go into the tables, not
// the views of the plain names.
QString rocpdUuid(const QString &path)
{
    sqlite3 *db = nullptr;
    sqlite3_stmt *stmt = nullptr;
    QString uuid;
    if (sqlite3_open(path.toUtf8().constData(), &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT value FROM rocpd_metadata WHERE tag = 'uuid'", -1, &stmt, nullptr) ==
            SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
        uuid = QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0)));
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return uuid;
}

// A writable copy of a test database in dir.
QString writableCopy(const QString &source, const QTemporaryDir &dir, const QString &name)
{
    const QString path = dir.filePath(name);
    if (!QFile::copy(source, path))
        return {};
    QFile::setPermissions(path, QFile::permissions(path) | QFile::WriteOwner);
    return path;
}

} // namespace

class TstSqliteFormats : public QObject
{
    Q_OBJECT

private slots:
    void infoMatchesOracle_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("format");
        QTest::addColumn<int>("paired"); // launches paired with kernels, known from the recording
        // Real Nsight Systems exports: every kernel was launched by one call (cudaLaunchKernel_v7000,
        // cuLaunchKernel, cuLaunchKernelEx), so all of them pair.
        QTest::newRow("nsys 2024.5 A100 cloverleaf")
            << publicExport(kCloverleaf) << QStringLiteral("nsys") << 1312;
        QTest::newRow("nsys 2022.2 saxpy") << publicExport(kSaxpy) << QStringLiteral("nsys") << 5;
        for (const char *run : {"h200/f6ab0c3_report1", "h200/f6ab0c3_report2", "h200/f6ab0c3_report3",
                                "h100/df8f397_report1", "h100/df8f397_report2"})
            QTest::newRow(qPrintable(QStringLiteral("nsys 2024.6 Fuser %1").arg(QLatin1String(run))))
                << testdata::path(QStringLiteral("public/Fuser/%1.sqlite").arg(QLatin1String(run)))
                << QStringLiteral("nsys") << 19;
        QTest::newRow("nsys bert h100") << converted("nsys_bert_h100.sqlite") << QStringLiteral("nsys") << 60;
        // torch.compile reduce-overhead: 12 kernel launches and 12 CUDA graphs, traced node by node and
        // whole.
        QTest::newRow("nsys graphs by node")
            << converted("nsys_graphs/node.sqlite") << QStringLiteral("nsys") << 12;
        QTest::newRow("nsys graphs whole")
            << converted("nsys_graphs/graph.sqlite") << QStringLiteral("nsys") << 12;
        QTest::newRow("rocpd 908 dispatches")
            << converted("rocpd/908_results.db") << QStringLiteral("rocpd") << 0;
        // 52 kernel launches in the vLLM step (the other 361 kernels come from 25 graph launches).
        QTest::newRow("rocpd vllm graph")
            << converted("rocpd/19_results.db") << QStringLiteral("rocpd") << 52;
    }

    void infoMatchesOracle()
    {
        QFETCH(QString, path);
        QFETCH(QString, format);
        QFETCH(int, paired);
        REQUIRE_TEST_DATA(path);
        const QJsonObject expected = oracle(path);
        const ProcessResult info = cli({QStringLiteral("info"), QStringLiteral("--json"), path});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        const QJsonObject got = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(got[QStringLiteral("file")].toString(), QFileInfo(path).absoluteFilePath());
        QCOMPARE(got[QStringLiteral("format")].toString(), format);
        QCOMPARE(expected.size(), 12);
        QVERIFY(expected[QStringLiteral("kernels")].toInt() > 0);
        QCOMPARE(expected[QStringLiteral("launches_paired")].toInt(), paired);
        const QString problems = differences(expected, got);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        // Whatever the export lacks is said in words, never as "skipped 0".
        const QJsonObject skipped = got[QStringLiteral("skipped")].toObject();
        for (auto it = skipped.begin(); it != skipped.end(); ++it)
            QVERIFY2(it.value().toDouble() > 0, qPrintable(it.key()));
    }

    // The conversion keeps the recorded events: the same figures as the Kineto trace they came from.
    void convertedEqualsItsSourceTrace_data()
    {
        QTest::addColumn<QString>("database");
        QTest::addColumn<QString>("source");
        QTest::newRow("nsys")
            << converted("nsys_bert_h100.sqlite")
            << testdata::path(
                   "public/TraceLens/tests__traces__h100__gaunernst_bert-small-uncased__1016001.json.gz");
        QTest::newRow("rocpd")
            << converted("rocpd/19_results.db")
            << testdata::path(
                   "public/TraceLens/"
                   "tests__traces__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz");
        // the same rows as rocprofv3's JSON writes them (tests/data/make_rocprofv3_json.py): HIP calls
        // paired with dispatches on the internal correlation id, the roctx range, the copies
        QTest::newRow("rocprofv3 JSON")
            << converted("rocprofv3/19_results.json.gz")
            << testdata::path(
                   "public/TraceLens/"
                   "tests__traces__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz");
    }

    void convertedEqualsItsSourceTrace()
    {
        QFETCH(QString, database);
        QFETCH(QString, source);
        REQUIRE_TEST_DATA(database, source);
        const QJsonObject a =
            QJsonDocument::fromJson(cli({QStringLiteral("info"), QStringLiteral("--json"), database}).out)
                .object();
        const QJsonObject b =
            QJsonDocument::fromJson(cli({QStringLiteral("info"), QStringLiteral("--json"), source}).out)
                .object();
        for (const char *key : {"kernels", "kernel_launches", "graph_launches", "gpu_busy_ns", "gpu_span_ns",
                                "median_launch_delay_ns", "median_graph_launch_delay_ns"})
            QVERIFY2(a[QLatin1String(key)] == b[QLatin1String(key)], key);
    }

    // HIP's other launch calls (the writer's HIP_RUNTIME_API_EXT operations) launch too: the vLLM
    // database with its hipLaunchKernel calls renamed pairs as many kernels.
    void otherHipLaunchCalls()
    {
        const QString rocpd = converted("rocpd/19_results.db");
        REQUIRE_TEST_DATA(rocpd);
        const QJsonObject original = infoJson(rocpd);
        QVERIFY(original[QStringLiteral("kernel_launches")].toInt() > 0);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const char *name :
             {"hipDrvLaunchKernelEx", "hipLaunchByPtr", "hipLaunchCooperativeKernelMultiDevice",
              "hipModuleLaunchCooperativeKernelMultiDevice", "hipExtLaunchMultiKernelMultiDevice"}) {
            const QString path = dir.filePath(QStringLiteral("%1_results.db").arg(QLatin1String(name)));
            QVERIFY(QFile::copy(rocpd, path));
            QFile::setPermissions(path, QFile::permissions(path) | QFile::WriteOwner);
            const QString problem =
                exec(path, QStringLiteral("UPDATE rocpd_string_00000000_0000_0000_0000_000000000000 SET "
                                          "string = '%1' WHERE string = "
                                          "'hipLaunchKernel'")
                               .arg(QLatin1String(name))
                               .toUtf8()
                               .constData());
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            const QJsonObject info = infoJson(path);
            QCOMPARE(info[QStringLiteral("kernel_launches")], original[QStringLiteral("kernel_launches")]);
            QCOMPARE(info[QStringLiteral("launch_delay_ns")], original[QStringLiteral("launch_delay_ns")]);
            QVERIFY2(differences(oracle(path), info).isEmpty(), qPrintable(differences(oracle(path), info)));
        }
    }

    // info counts GPUs, not the streams or queues on them: one MI350X whose kernels ran on 5 queues (a
    // Python count of the dispatches' agents and queues) read "5 tracks (5 GPU)".
    void infoCountsGpusApartFromQueues()
    {
        const QString json = testdata::path("public/TraceLens/tests__rocprof__908_results.json.gz");
        REQUIRE_TEST_DATA(json);
        const ProcessResult oracle =
            runProcess(QStringLiteral(SCOPELINE_PYTHON),
                       {QStringLiteral("-c"),
                        QStringLiteral("import gzip, json, sys\n"
                                       "k = "
                                       "json.load(gzip.open(sys.argv[1]))['rocprofiler-sdk-tool'][0]['buffer_"
                                       "records']['kernel_dispatch']\n"
                                       "d = [(r['dispatch_info']['agent_id']['handle'], "
                                       "r['dispatch_info']['queue_id']['handle']) for r in k]\n"
                                       "print(len(set(d)), len({a for a, _ in d}))"),
                        json});
        QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
        const QList<QByteArray> counts = oracle.out.trimmed().split(' ');
        QCOMPARE(counts.size(), 2);
        QCOMPARE(counts[0], QByteArray("5"));
        const ProcessResult info = cli({QStringLiteral("info"), json});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        const QByteArray line = "(" + counts[0] + " GPU streams or queues on " + counts[1] + " GPU)";
        QVERIFY2(info.out.contains(line), info.out.left(300).constData());
    }

    // rocprofv3's JSON names a kernel as its own rocpd and Perfetto outputs do (formatted_kernel_name,
    // generateRocpd.cpp 912): the 908 dispatches in JSON and in the database converted from them have
    // the same names, and template instantiations stay apart (the truncated name merged 18 of them).
    void rocprofJsonNamesKernelsAsRocpd()
    {
        const QString json = testdata::path("public/TraceLens/tests__rocprof__908_results.json.gz"),
                      rocpd = converted("rocpd/908_results.db");
        REQUIRE_TEST_DATA(json, rocpd);
        const LoadResult a = TraceLoader::load(json), b = TraceLoader::load(rocpd);
        QVERIFY2(a.ok() && b.ok(), qPrintable(a.error + b.error));
        const auto names = [](const TraceData &t) {
            std::multiset<std::pair<int64_t, QString>> out;
            for (uint32_t e = 0; e < t.eventCount(); ++e)
                if (t.kind[e] == EventKind::Kernel)
                    out.emplace(t.start[e], t.qname(e));
            return out;
        };
        const auto inJson = names(*a.trace), inDatabase = names(*b.trace);
        QCOMPARE(inDatabase.size(), std::size_t(1500));
        QVERIFY(std::includes(inJson.begin(), inJson.end(), inDatabase.begin(), inDatabase.end()));
        std::set<QString> elementwise;
        for (const auto &[start, name] : inJson)
            if (name.contains(QLatin1String("at::native::vectorized_elementwise_kernel<")))
                elementwise.insert(name);
        QVERIFY2(elementwise.size() >= 2, "template instantiations merged into one name");
    }

    // A kernel's details show its launch as the profiler wrote it: grid and block (nsys), grid and
    // workgroup, LDS and scratch, registers (rocprofv3's JSON and rocpd), against a Python read of the
    // files; a load for the figures alone keeps none of them.
    void kernelDetailsShowTheLaunch_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QStringList>("keys");
        const QStringList nsys{QStringLiteral("grid"),
                               QStringLiteral("block"),
                               QStringLiteral("registers per thread"),
                               QStringLiteral("static shared memory"),
                               QStringLiteral("dynamic shared memory"),
                               QStringLiteral("local memory per thread")};
        const QStringList rocprof{
            QStringLiteral("grid_size"),          QStringLiteral("workgroup_size"),
            QStringLiteral("group_segment_size"), QStringLiteral("private_segment_size"),
            QStringLiteral("arch_vgpr_count"),    QStringLiteral("accum_vgpr_count"),
            QStringLiteral("sgpr_count")};
        QTest::newRow("nsys saxpy") << publicExport(kSaxpy) << nsys;
        QTest::newRow("nsys Fuser H200") << publicExport(kFuserH200) << nsys;
        QTest::newRow("rocprofv3 JSON")
            << testdata::path("public/TraceLens/tests__rocprof__908_results.json.gz") << rocprof;
        QTest::newRow("rocpd") << converted("rocpd/908_results.db") << rocprof;
    }

    void kernelDetailsShowTheLaunch()
    {
        QFETCH(QString, path);
        QFETCH(QStringList, keys);
        REQUIRE_TEST_DATA(path);
        const ProcessResult oracle = runProcess(
            QStringLiteral(SCOPELINE_PYTHON), {QStringLiteral(SCOPELINE_ORACLE_DIR "/launch_args.py"), path});
        QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
        QStringList expected;
        for (const QJsonValue &line : QJsonDocument::fromJson(oracle.out).array())
            expected << line.toString();
        QVERIFY(!expected.isEmpty());
        QVERIFY2(expected.front().contains(QLatin1Char('[')),
                 qPrintable(expected.front())); // a grid at least
        const LoadResult r = TraceLoader::load(path);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QStringList got;
        for (uint32_t e = 0; e < r.trace->eventCount(); ++e) {
            if (r.trace->kind[e] != EventKind::Kernel)
                continue;
            QStringList pairs;
            for (const QString &key : keys)
                if (const std::string_view value = r.trace->arg(e, key.toStdString()); !value.empty())
                    pairs << key + QLatin1Char('=') +
                                 QString::fromUtf8(value.data(), qsizetype(value.size()));
            got << pairs.join(QLatin1Char(';'));
        }
        got.sort();
        QCOMPARE(got.size(), expected.size());
        for (qsizetype i = 0; i < got.size(); ++i)
            QCOMPARE(got[i], expected[i]);
        LoadOptions figures;
        figures.detail = TraceDetail::Figures;
        const LoadResult lean = TraceLoader::load(path, {}, nullptr, figures);
        QVERIFY2(lean.ok(), qPrintable(lean.error));
        for (uint32_t e = 0; e < lean.trace->eventCount(); ++e)
            QVERIFY(lean.trace->kind[e] != EventKind::Kernel ||
                    lean.trace->arg(e, keys.front().toStdString()).empty());
    }

    void eventsAndTracks()
    {
        const QString nsys = converted("nsys_bert_h100.sqlite"), rocpd = converted("rocpd/19_results.db");
        REQUIRE_TEST_DATA(nsys, rocpd);
        const QByteArray before = sha256(nsys);
        LoadResult r = TraceLoader::load(nsys);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const TraceData &n = *r.trace;
        QCOMPARE(n.format, TraceFormat::NsysSqlite);
        QCOMPARE(countKind(n, EventKind::Kernel), 60);
        QCOMPARE(countKind(n, EventKind::Memcpy), 1);        // kept apart from kernels
        QCOMPARE(countKind(n, EventKind::CpuAnnotation), 1); // the NVTX push/pop range
        QCOMPARE(countKind(n, EventKind::KernelLaunch), 60); // cudaLaunchKernel[ExC] and cuLaunchKernel
        bool gpuNamed = false, threadNamed = false;
        for (const Track &t : n.tracks) {
            gpuNamed |= t.gpu && t.processName == QLatin1String("GPU 0") && t.device == 0;
            threadNamed |= !t.gpu && !t.threadName.isEmpty() && t.processName == QLatin1String("python3");
        }
        QVERIFY(gpuNamed);
        QVERIFY(threadNamed);
        QCOMPARE(sha256(nsys), before); // read-only: the file is untouched
        QVERIFY(!QFileInfo::exists(nsys + QStringLiteral("-journal")));

        r = TraceLoader::load(rocpd);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const TraceData &d = *r.trace;
        QCOMPARE(d.format, TraceFormat::Rocpd);
        QCOMPARE(countKind(d, EventKind::Kernel), 413);
        QCOMPARE(countKind(d, EventKind::GraphLaunch), 25);
        QCOMPARE(countKind(d, EventKind::Memcpy), 10);
        QCOMPARE(countKind(d, EventKind::CpuAnnotation), 1); // the roctx range
        QCOMPARE(countKind(d, EventKind::KernelLaunch), 52);
        QVERIFY(d.skipped.empty());
        // The range is named by its text (the event's extdata message), not by its API (roctxThreadRangeA).
        for (uint32_t e = 0; e < d.eventCount(); ++e)
            if (d.kind[e] == EventKind::CpuAnnotation)
                QVERIFY2(d.qname(e).startsWith(QLatin1String("execute_8192_context_9")),
                         qPrintable(d.qname(e)));
        // Copies have no queue id in rocpd (the writer fills stream_id only): a track of their stream.
        for (uint32_t e = 0; e < d.eventCount(); ++e)
            if (d.kind[e] == EventKind::Memcpy)
                QVERIFY2(d.tracks[d.track[e]].gpu &&
                             d.tracks[d.track[e]].tid.startsWith(QLatin1String("copies, stream ")),
                         qPrintable(d.tracks[d.track[e]].tid));
        // Calls pair with dispatches on stack_id: 52 kernels with their launch, 361 with their graph
        // launch; correlation_id (the external id, 0 throughout) would pair all 413 with one call.
        const TraceAnalysis analysis(d);
        int launched = 0, graphLaunched = 0;
        for (uint32_t k : analysis.kernels()) {
            const int64_t launch = analysis.launchOf(k);
            launched += launch >= 0 && d.kind[uint32_t(launch)] == EventKind::KernelLaunch;
            graphLaunched += launch >= 0 && d.kind[uint32_t(launch)] == EventKind::GraphLaunch;
        }
        QCOMPARE(launched, 52);
        QCOMPARE(graphLaunched, 361);
    }

    // The real exports hold what nsys recorded; what they lack is said once, in words.
    void realExportNotes()
    {
        const QString cloverleaf = publicExport(kCloverleaf), saxpy = publicExport(kSaxpy),
                      fuser = publicExport(kFuserH200);
        REQUIRE_TEST_DATA(cloverleaf, saxpy, fuser);
        const ProcessResult text = cli({QStringLiteral("info"), cloverleaf});
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY2(text.out.contains("  no NVTX ranges in this export\n") &&
                     text.out.contains("  no memory sets in this export\n") && !text.out.contains("skipped"),
                 text.out.constData());
        QVERIFY2(text.out.contains("kernels 1312, kernel launches 1312"), text.out.constData());
        // nsys 2022 writes each call twice, the second time as a "CUDA backtrace" record (eventClass 67).
        const QJsonArray notes = infoJson(saxpy)[QStringLiteral("notes")].toArray();
        QVERIFY2(
            notes.contains(QStringLiteral("38 CUDA backtrace records not shown: this export holds each API "
                                          "call twice, once with its backtrace (Nsight Systems 2022)")),
            qPrintable(QJsonDocument(notes).toJson()));
        QCOMPARE(infoJson(fuser)[QStringLiteral("notes")].toArray().size(), 0); // every table there
        // a database is no JSON: no json_bytes (it had been the file's size), as the text says no MB of JSON
        QVERIFY(infoJson(saxpy).contains(QStringLiteral("json_bytes")));
        QVERIFY(infoJson(saxpy)[QStringLiteral("json_bytes")].isNull());
        QVERIFY(!text.out.contains("of JSON"));
        LoadResult r = TraceLoader::load(fuser);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(countKind(*r.trace, EventKind::KernelLaunch), 19); // 17 cudaLaunchKernel_v7000, 2 driver
        QVERIFY(r.trace->skipped.empty());
    }

    // nsys's default --cuda-graph-trace=graph writes a graph launch as one GPU range, none of its kernels:
    // read, it is GPU work, so the span and the steps are those of the same run traced node by node (the
    // whole-graph busy time holds the gaps between its nodes). Unread, busy was 191.6 µs, not 4.171 ms.
    void wholeGraphsAreGpuWork()
    {
        const QString node = converted("nsys_graphs/node.sqlite"),
                      graph = converted("nsys_graphs/graph.sqlite");
        REQUIRE_TEST_DATA(node, graph);
        const QJsonObject byNode = infoJson(node), whole = infoJson(graph);
        QCOMPARE(whole[QStringLiteral("gpu_span_ns")], byNode[QStringLiteral("gpu_span_ns")]);
        QCOMPARE(whole[QStringLiteral("graph_launches")].toInt(), 12);
        QCOMPARE(whole[QStringLiteral("median_graph_launch_delay_ns")],
                 byNode[QStringLiteral("median_graph_launch_delay_ns")]);
        QVERIFY(whole[QStringLiteral("gpu_busy_ns")].toDouble() >
                byNode[QStringLiteral("gpu_busy_ns")].toDouble());
        const QJsonArray notes = whole[QStringLiteral("notes")].toArray();
        QVERIFY2(std::any_of(notes.begin(), notes.end(),
                             [](const QJsonValue &n) {
                                 return n.toString().contains(QLatin1String("--cuda-graph-trace=node"));
                             }),
                 qPrintable(QJsonDocument(notes).toJson()));
        LoadResult r = TraceLoader::load(graph);
        QVERIFY2(r.ok(), qPrintable(r.error));
        int graphs = 0;
        for (uint32_t e = 0; e < r.trace->eventCount(); ++e)
            graphs +=
                r.trace->kind[e] == EventKind::Kernel && r.trace->qname(e) == QLatin1String("CUDA graph 1");
        QCOMPARE(graphs, 12); // one graph, launched 12 times
        QCOMPARE(countKind(*r.trace, EventKind::Kernel), 24);
        const ProcessResult steps =
            cli({QStringLiteral("steps"), node, graph, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(steps.exitCode == 0, steps.err.constData());
        const QJsonObject step =
            QJsonDocument::fromJson(steps.out).object()[QStringLiteral("rows")].toArray().first().toObject();
        QCOMPARE(step[QStringLiteral("mean_a_ns")], step[QStringLiteral("mean_b_ns")]);
        QCOMPARE(step[QStringLiteral("steps_b")].toInt(), 4);
    }

    // What changes the figures' meaning (graphs recorded whole, kernels without their launch calls) is
    // said beside every comparison, not by `info` alone: it is kept in the run's summary (and its
    // file), warned by diff and steps, and headed by its side and file.
    void caveatsReachComparisons()
    {
        const QString node = converted("nsys_graphs/node.sqlite"),
                      graph = converted("nsys_graphs/graph.sqlite"),
                      rocpd = converted("rocpd/908_results.db");
        REQUIRE_TEST_DATA(node, graph, rocpd);
        auto caveatsOf = [](const QString &path) {
            const LoadedRun run = LoadedRun::load(TraceRun{QFileInfo(path).fileName(), path});
            return run.ok() ? run.summary->caveats : QStringList{QStringLiteral("failed: ") + run.error};
        };
        QCOMPARE(caveatsOf(node), QStringList());
        const QStringList graphCaveats = caveatsOf(graph);
        QCOMPARE(graphCaveats.size(), 1);
        QVERIFY2(graphCaveats.front().startsWith(QLatin1String("12 CUDA graph launches recorded whole")),
                 qPrintable(graphCaveats.front()));
        const QStringList rocpdCaveats = caveatsOf(rocpd);
        QCOMPARE(rocpdCaveats.size(), 1);
        QVERIFY2(rocpdCaveats.front().startsWith(QLatin1String("no HIP API calls in this database")),
                 qPrintable(rocpdCaveats.front()));
        // every caveat is a note too (what `info` says), the notes that change nothing are not caveats
        const QJsonArray notes = infoJson(graph)[QStringLiteral("notes")].toArray();
        QVERIFY(notes.contains(graphCaveats.front()) && notes.size() > 1);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const LoadedRun run = LoadedRun::load(TraceRun{QStringLiteral("graph"), graph});
        const QString file = dir.filePath(QStringLiteral("graph.slsum"));
        QCOMPARE(RunSummaryFile::write(*run.summary, file), QString());
        RunSummary read;
        QCOMPARE(RunSummaryFile::read(file, read), QString());
        QCOMPARE(read.caveats, graphCaveats);

        for (const QStringList &sides : {QStringList{node, graph}, QStringList{node, file}}) {
            const ProcessResult diff = cli(QStringList{QStringLiteral("diff")} + sides);
            QVERIFY2(diff.exitCode == 0, diff.err.constData());
            const QString warned =
                QStringLiteral("scopeline-cli: warning: B: %1: %2\n").arg(sides[1], graphCaveats.front());
            QVERIFY2(QString::fromUtf8(diff.err).contains(warned), diff.err.constData());
            QVERIFY2(!diff.err.contains("warning: A: "), diff.err.constData());
        }
        // a pull-request comment says it too: CI shows the comment, not stderr
        const ProcessResult markdown = cli(
            {QStringLiteral("diff"), node, graph, QStringLiteral("--format"), QStringLiteral("markdown")});
        QVERIFY2(markdown.exitCode == 0, markdown.err.constData());
        const QStringList items = QString::fromUtf8(markdown.out)
                                      .split(QLatin1Char('\n'))
                                      .filter(QRegularExpression(QStringLiteral("^- warning: B: ")));
        QCOMPARE(items.size(), 1);
        QVERIFY2(items.front().contains(QLatin1String(": 12 CUDA graph launches recorded whole")),
                 qPrintable(items.front()));
        const QList<LoadedRun> a{LoadedRun::load(TraceRun{QStringLiteral("node"), node})},
            b{run, run.withoutEvents()};
        QCOMPARE(pairCaveats(a, b),
                 QStringList{QStringLiteral("B: %1: %2").arg(graph, graphCaveats.front())});
    }

    // A graph launch CUPTI could not time (start = end = 0) is left out and counted, not GPU work at 0;
    // graphs of another process than the kernels' are a stream track of their own.
    void wholeGraphEdges()
    {
        const QString graph = converted("nsys_graphs/graph.sqlite");
        REQUIRE_TEST_DATA(graph);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString untimed = writableCopy(graph, dir, QStringLiteral("untimed.sqlite"));
        QString problem =
            exec(untimed, "UPDATE CUPTI_ACTIVITY_KIND_GRAPH_TRACE SET start = 0, end = 0 "
                          "WHERE rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE)");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QJsonObject whole = infoJson(graph), cut = infoJson(untimed);
        QCOMPARE(cut[QStringLiteral("kernels")].toInt(), whole[QStringLiteral("kernels")].toInt() - 1);
        QVERIFY(cut[QStringLiteral("gpu_span_ns")].toDouble() <=
                whole[QStringLiteral("gpu_span_ns")].toDouble());
        QCOMPARE(cut[QStringLiteral("skipped")].toObject().size(), 1);
        const QString other = writableCopy(graph, dir, QStringLiteral("other_process.sqlite"));
        problem = exec(other, "UPDATE CUPTI_ACTIVITY_KIND_GRAPH_TRACE SET globalPid = globalPid + 16777216");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        int streams = 0;
        for (const QJsonValue &t : infoJson(other)[QStringLiteral("tracks")].toArray())
            streams +=
                t.toObject()[QStringLiteral("name")].toString().contains(QLatin1String("stream 7 (pid"));
        QCOMPARE(streams, 2);

        // a graph whose first node runs on the host (CUPTI: device INT_MAX) runs on its stream's GPU
        const QString host = writableCopy(graph, dir, QStringLiteral("host_start.sqlite"));
        problem = exec(host, "UPDATE CUPTI_ACTIVITY_KIND_GRAPH_TRACE SET deviceId = 2147483647 "
                             "WHERE rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE)");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QJsonObject hostStart = infoJson(host);
        QCOMPARE(hostStart[QStringLiteral("kernels")], whole[QStringLiteral("kernels")]);
        QCOMPARE(hostStart[QStringLiteral("gpu_busy_ns")], whole[QStringLiteral("gpu_busy_ns")]);
        QCOMPARE(hostStart[QStringLiteral("tracks")], whole[QStringLiteral("tracks")]); // "GPU 0 / stream 7"
    }

    // The H200 runs of the Fuser program against its H100 runs: 3 v 2, kernel time per run as the
    // oracle counts it (one stream, kernels one after another: time per run = GPU busy).
    void fuserH200AgainstH100()
    {
        const QString h200 = testdata::path("public/Fuser/h200"), h100 = testdata::path("public/Fuser/h100");
        REQUIRE_TEST_DATA(h200, h100);
        QString error;
        QCOMPARE(int(TraceFolder::scan(h200, &error).size()), 3);
        QCOMPARE(int(TraceFolder::scan(h100, &error).size()), 2);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString csv = dir.filePath(QStringLiteral("diff.csv"));
        const ProcessResult r = cli({QStringLiteral("diff"), h200, h100, QStringLiteral("--csv"), csv});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("(3 runs in 3 processes)") && r.out.contains("(2 runs in 2 processes)"),
                 r.out.constData());
        auto meanBusy = [&](const QString &folder) {
            double sum = 0;
            const QStringList files = QDir(folder).entryList({QStringLiteral("*.sqlite")}, QDir::Files);
            for (const QString &f : files) {
                const QJsonObject o = oracle(QDir(folder).filePath(f));
                if (o[QStringLiteral("kernels")].toInt() != 19)
                    return -1.0;
                sum += o[QStringLiteral("gpu_busy_ns")].toDouble();
            }
            return files.isEmpty() ? -1.0 : sum / double(files.size());
        };
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        const QList<QByteArray> header = file.readLine().trimmed().split(',');
        const int callsA = int(header.indexOf("calls_a")), callsB = int(header.indexOf("calls_b")),
                  totalA = int(header.indexOf("total_a_ns")), totalB = int(header.indexOf("total_b_ns"));
        QVERIFY(callsA >= 0 && callsB >= 0 && totalA >= 0 && totalB >= 0);
        double calls[2] = {0, 0}, totals[2] = {0, 0};
        int rows = 0;
        while (!file.atEnd()) {
            const QStringList cells = csvCells(QString::fromUtf8(file.readLine()).trimmed());
            calls[0] += cells.value(callsA).toDouble();
            calls[1] += cells.value(callsB).toDouble();
            totals[0] += cells.value(totalA).toDouble();
            totals[1] += cells.value(totalB).toDouble();
            ++rows;
        }
        // each export a process of its own (the pid in its launch calls' globalTid): no one-process caveat
        const auto pidsOf = [](const QString &folder) {
            QStringList pids;
            for (const QString &f :
                 QDir(folder).entryList({QStringLiteral("*.sqlite")}, QDir::Files, QDir::Name)) {
                sqlite3 *db = nullptr;
                sqlite3_stmt *s = nullptr;
                sqlite3_open_v2(QDir(folder).filePath(f).toUtf8().constData(), &db, SQLITE_OPEN_READONLY,
                                nullptr);
                sqlite3_prepare_v2(
                    db, "SELECT DISTINCT (globalTid >> 24) & 16777215 FROM CUPTI_ACTIVITY_KIND_RUNTIME", -1,
                    &s, nullptr);
                while (sqlite3_step(s) == SQLITE_ROW)
                    pids << QStringLiteral("pid %1").arg(sqlite3_column_int64(s, 0));
                sqlite3_finalize(s);
                sqlite3_close(db);
            }
            return pids;
        };
        const QList<LoadedRun> runsA = LoadedRun::loadAll(TraceFolder::scan(h200)),
                               runsB = LoadedRun::loadAll(TraceFolder::scan(h100));
        const QStringList pidsA = pidsOf(h200);
        QCOMPARE(pidsA.size(), 3);
        QCOMPARE(QSet<QString>(pidsA.begin(), pidsA.end()).size(), 3);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(Replication::processOf(runsA[i]), pidsA[i]);
        const Replication replication = Replication::of(runsA, runsB);
        QCOMPARE(replication.processes(0), 3);
        QCOMPARE(replication.processes(1), pidsOf(h100).size());
        QVERIFY2(!r.out.contains(Replication::processCaveat().toUtf8()), r.out.constData());
        QCOMPARE(rows, 17); // 13 kernels on both sides, 2 only on each (different GEMM and nvFuser kernels)
        QCOMPARE(calls[0], 19.0);
        QCOMPARE(calls[1], 19.0);
        const double busyA = meanBusy(h200), busyB = meanBusy(h100);
        QVERIFY2(std::abs(totals[0] - busyA) < 0.01 && std::abs(totals[1] - busyB) < 0.01,
                 qPrintable(QStringLiteral("kernel time per run %1 / %2, oracle busy %3 / %4")
                                .arg(totals[0], 0, 'f', 2)
                                .arg(totals[1], 0, 'f', 2)
                                .arg(busyA, 0, 'f', 2)
                                .arg(busyB, 0, 'f', 2)));
    }

    // CUDA correlation ids are unique within a process only. A second process with the same ids, its
    // calls and kernels 1 ms earlier: each call still pairs with the kernels of its own process.
    void nsysPairsWithinProcess()
    {
        const QString fuser = publicExport(kFuserH200);
        REQUIRE_TEST_DATA(fuser);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = writableCopy(fuser, dir, QStringLiteral("two_processes.sqlite"));
        QVERIFY(!path.isEmpty());
        const QString problem = exec(
            path,
            "CREATE TEMP TABLE k AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;"
            "UPDATE k SET start = start - 1000000, end = end - 1000000, globalPid = globalPid + 16777216;"
            "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM k;"
            "CREATE TEMP TABLE r AS SELECT * FROM CUPTI_ACTIVITY_KIND_RUNTIME;"
            "UPDATE r SET start = start - 1000000, end = end - 1000000, globalTid = globalTid + 16777216;"
            "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT * FROM r;");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QJsonObject expected = oracle(path), got = infoJson(path), single = infoJson(fuser);
        const QString problems = differences(expected, got);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        QCOMPARE(expected[QStringLiteral("launches_paired")].toInt(), 38);
        // Each process's delays are the single process's: the median is unchanged.
        QCOMPARE(got[QStringLiteral("median_launch_delay_ns")],
                 single[QStringLiteral("median_launch_delay_ns")]);
        // The two processes' streams are two tracks.
        int streams = 0;
        for (const QJsonValue &t : got[QStringLiteral("tracks")].toArray())
            streams +=
                t.toObject()[QStringLiteral("name")].toString().contains(QLatin1String("stream 7 (pid"));
        QCOMPARE(streams, 2);
    }

    // Schema variants of real exports: the metadata table's two names, no TARGET_INFO_GPU, greenContextId.
    void nsysSchemaVariants()
    {
        const QString saxpy = publicExport(kSaxpy), fuser = publicExport(kFuserH200);
        REQUIRE_TEST_DATA(saxpy, fuser);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // Without TARGET_INFO_GPU (some exports have none) the figures are the same.
        const QString noTarget = writableCopy(fuser, dir, QStringLiteral("notarget.sqlite"));
        QVERIFY(exec(noTarget, "DROP TABLE TARGET_INFO_GPU").isEmpty());
        const QString problems = differences(oracle(fuser), infoJson(noTarget));
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        // A table without its times is a schema Scopeline does not know; the message says which export.
        const std::pair<const char *, const char *> exports[] = {
            {"saxpy.sqlite", "an export of Nsight Systems 2022.2.1.31, schema 2.9.1"},   // EXPORT_META_DATA
            {"fuser.sqlite", "an export of Nsight Systems 2024.6.2.25, schema 3.16.1"}}; // META_DATA_EXPORT
        for (const auto &[name, version] : exports) {
            const QString path =
                writableCopy(QLatin1String(name) == QLatin1String("saxpy.sqlite") ? saxpy : fuser, dir,
                             QLatin1String(name));
            QVERIFY(exec(path, "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME RENAME COLUMN \"end\" TO stop")
                        .isEmpty());
            const LoadResult r = TraceLoader::load(path);
            QVERIFY(!r.ok());
            QVERIFY2(
                r.error.startsWith(QDir::toNativeSeparators(path)) &&
                    r.error.contains(QLatin1String("CUPTI_ACTIVITY_KIND_RUNTIME has no column \"end\"")) &&
                    r.error.contains(QLatin1String(version)),
                qPrintable(r.error));
        }
    }

    // rocprofiler-sdk writes API calls of zero length to rocpd_sample, on a track named after their
    // category, and a roctx mark's text in the event's extdata: they are instants, the oracle counts
    // them as calls too, and nothing else changes.
    void rocpdSamples()
    {
        const QString rocpd = converted("rocpd/19_results.db");
        REQUIRE_TEST_DATA(rocpd);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = writableCopy(rocpd, dir, QStringLiteral("19_results.db"));
        const LoadResult before = TraceLoader::load(path);
        QVERIFY2(before.ok(), qPrintable(before.error));
        // The first hipPointerGetAttribute call as the writer stores one of zero length; and a roctx mark.
        const QString uuid = rocpdUuid(path);
        QVERIFY(!uuid.isEmpty());
        QString sql = QStringLiteral(
            "INSERT INTO rocpd_track (id, guid, nid, pid, tid, name_id) SELECT 1, R.guid, R.nid, R.pid, "
            "R.tid, "
            "E.category_id FROM rocpd_region R JOIN rocpd_event E ON E.id = R.event_id "
            "JOIN rocpd_string S ON S.id = R.name_id WHERE S.string = 'hipPointerGetAttribute' "
            "ORDER BY R.start LIMIT 1;"
            "INSERT INTO rocpd_sample (id, guid, track_id, timestamp, event_id) SELECT R.id, R.guid, 1, "
            "R.start, "
            "R.event_id FROM rocpd_region R JOIN rocpd_string S ON S.id = R.name_id "
            "WHERE S.string = 'hipPointerGetAttribute' ORDER BY R.start LIMIT 1;"
            "DELETE FROM rocpd_region WHERE id = (SELECT id FROM rocpd_sample);"
            "INSERT OR IGNORE INTO rocpd_string (guid, string) VALUES ('vllm-guid', 'MARKER_CORE_RANGE_API');"
            "INSERT INTO rocpd_track (id, guid, nid, pid, tid, name_id) SELECT 2, guid, nid, pid, tid, "
            "(SELECT id FROM rocpd_string WHERE string = 'MARKER_CORE_RANGE_API') FROM rocpd_track;"
            "INSERT INTO rocpd_event (guid, category_id, stack_id, parent_stack_id, correlation_id, extdata) "
            "SELECT 'vllm-guid', name_id, 1, 0, 0, '{\"message\": \"weights loaded\"}' FROM rocpd_track "
            "WHERE id = 2;"
            "INSERT INTO rocpd_sample (id, guid, track_id, timestamp, event_id) SELECT 1, 'vllm-guid', 2, "
            "(SELECT timestamp FROM rocpd_sample) + 5, max(id) FROM rocpd_event;");
        for (const char *table :
             {"rocpd_track", "rocpd_sample", "rocpd_region", "rocpd_string", "rocpd_event"})
            sql.replace(QStringLiteral("INTO %1 ").arg(QLatin1String(table)),
                        QStringLiteral("INTO %1%2 ").arg(QLatin1String(table), uuid))
                .replace(QStringLiteral("DELETE FROM %1 ").arg(QLatin1String(table)),
                         QStringLiteral("DELETE FROM %1%2 ").arg(QLatin1String(table), uuid));
        const QString problem = exec(path, sql.toUtf8().constData());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const LoadResult r = TraceLoader::load(path);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const TraceData &d = *r.trace, &b = *before.trace;
        QCOMPARE(d.eventCount(), b.eventCount() + 1);
        QCOMPARE(countKind(d, EventKind::Instant), 2);
        QCOMPARE(countKind(d, EventKind::Runtime), countKind(b, EventKind::Runtime) - 1);
        QStringList instants;
        for (uint32_t e = 0; e < d.eventCount(); ++e)
            if (d.kind[e] == EventKind::Instant) {
                instants << d.qname(e);
                QVERIFY(!d.onGpu(e));
                QCOMPARE(d.duration[e], int64_t(0));
            }
        instants.sort();
        QCOMPARE(instants,
                 (QStringList{QStringLiteral("HIP_RUNTIME_API"), QStringLiteral("weights loaded")}));
        const QString problems = differences(oracle(path), infoJson(path));
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    void scopesCompareAndDiff()
    {
        const QString nsys = converted("nsys_bert_h100.sqlite"), folder = converted("rocpd");
        REQUIRE_TEST_DATA(nsys, folder);
        ProcessResult r = cli({QStringLiteral("scopes"), nsys});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("60         1  ProfilerStep"), r.out.constData()); // NVTX range: a scope
        r = cli({QStringLiteral("scopes"), folder});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("413         1  execute_8192"),
                 r.out.constData()); // roctx range, graph kernels
        r = cli({QStringLiteral("compare"), nsys, nsys, QStringLiteral("--scope"),
                 QStringLiteral("ProfilerStep")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = cli({QStringLiteral("diff"), folder, converted("rocpd/19_results.db")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("only in A"), r.out.constData());
    }

    // The two per-process databases of one rocprofv3 run sit on two GPUs (agents 0 and 2): one run of
    // two ranks, each what its own database gives alone (which the oracle checks above), notes included.
    void rocpdProcessesOnTwoGpusAreRanks()
    {
        REQUIRE_TEST_DATA(converted("rocpd"));
        const ProcessResult folder = cli({QStringLiteral("info"), QStringLiteral("--json"), converted("rocpd")});
        QVERIFY2(folder.exitCode == 0, folder.err.constData());
        const QJsonArray ranks = QJsonDocument::fromJson(folder.out).object()[QStringLiteral("traces")].toArray();
        QCOMPARE(ranks.size(), 2);
        const QStringList databases = {QStringLiteral("908_results.db"), QStringLiteral("19_results.db")};
        for (qsizetype r = 0; r < 2; ++r) {
            QJsonObject rank = ranks[r].toObject();
            QCOMPARE(rank[QStringLiteral("run")].toString(), QStringLiteral("rocpd"));
            QCOMPARE(rank[QStringLiteral("rank")].toInt(), r == 0 ? 0 : 2);
            const ProcessResult alone =
                cli({QStringLiteral("info"), QStringLiteral("--json"),
                     testdata::path(QStringLiteral("converted/rocpd/") + databases[r])});
            QVERIFY2(alone.exitCode == 0, alone.err.constData());
            QJsonObject own = QJsonDocument::fromJson(alone.out).object();
            for (const QString &key : {QStringLiteral("events"), QStringLiteral("kernels"),
                                       QStringLiteral("kernel_launches"), QStringLiteral("graph_launches"),
                                       QStringLiteral("gpu_busy_ns"), QStringLiteral("gpu_span_ns"),
                                       QStringLiteral("median_launch_delay_ns"), QStringLiteral("devices")})
                QVERIFY2(rank[key] == own[key], qPrintable(databases[r] + QLatin1Char(' ') + key));
            // and its notes are its own database's, named: 908_results.db's "no HIP API calls" had stood
            // under rank 2 too, whose kernels are paired
            QJsonArray ownNotes;
            for (const QJsonValue &note : own[QStringLiteral("notes")].toArray())
                ownNotes << databases[r] + QStringLiteral(": ") + note.toString();
            QVERIFY2(rank[QStringLiteral("notes")] == ownNotes,
                     QJsonDocument(rank[QStringLiteral("notes")].toArray()).toJson().constData());
        }
    }

    void folderScanning()
    {
        REQUIRE_TEST_DATA(converted(""));
        QString error;
        const std::vector<TraceRun> runs = TraceFolder::scan(converted(""), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(int(runs.size()), 6);
        QCOMPARE(runs[0].name, QStringLiteral("nsys_bert_h100.sqlite"));
        QCOMPARE(runs[1].name, QStringLiteral("nsys_graphs/graph.sqlite")); // two exports: two runs
        QCOMPARE(runs[2].name, QStringLiteral("nsys_graphs/node.sqlite"));
        QCOMPARE(runs[3].name, QStringLiteral("rocpd")); // the per-process databases of one run
        QCOMPARE(runs[3].file, QFileInfo(converted("rocpd")).absoluteFilePath());
        QCOMPARE(runs[4].name, QStringLiteral("rocprofv3")); // a folder of one trace is that run
        QCOMPARE(runs[5].name, QStringLiteral("two_gpus_one_trace"));

        // rocprofv3 asked for JSON and rocpd writes a process twice: the database is the run, the JSON
        // beside it is left out and said, in the folder scanned or below it
        QTemporaryDir twice;
        QVERIFY(twice.isValid() && QDir().mkpath(twice.filePath(QStringLiteral("side"))));
        QVERIFY(QFile::copy(converted("rocpd/19_results.db"),
                            twice.filePath(QStringLiteral("side/19_results.db"))));
        QVERIFY(QFile::copy(converted("rocprofv3/19_results.json.gz"),
                            twice.filePath(QStringLiteral("side/19_results.json.gz"))));
        for (const QString &scanned : {twice.filePath(QStringLiteral("side")), twice.path()}) {
            QStringList notes;
            const std::vector<TraceRun> once = TraceFolder::scan(scanned, &error, &notes);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(int(once.size()), 1);
            QCOMPARE(once.front().name, QStringLiteral("side"));
            QCOMPARE(QFileInfo(once.front().file).fileName(), QStringLiteral("side"));
            QVERIFY2(notes.join(QLatin1Char('\n')).contains(QLatin1String("19_results.json.gz: left out")),
                     qPrintable(notes.join(QLatin1Char('\n'))));
        }

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile(dir.filePath(QStringLiteral("profile.nsys-rep"))).open(QIODevice::WriteOnly);
        QVERIFY(TraceFolder::scan(dir.path(), &error).empty());
        QVERIFY2(error.contains(QLatin1String("nsys export --type sqlite")), qPrintable(error));
        const LoadResult r = TraceLoader::load(dir.filePath(QStringLiteral("profile.nsys-rep")));
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(QLatin1String("profile.nsys-rep")) &&
                     r.error.contains(QLatin1String("nsys export --type sqlite")),
                 qPrintable(r.error));
    }

    // Robustness: every bad database ends with a message naming the file, never a crash.
    void badDatabases_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("sql");     // run on a copy of the nsys test database, or on a new one
        QTest::addColumn<bool>("copy");       // start from the nsys test database
        QTest::addColumn<QString>("message"); // part of the error
        QTest::newRow("not sqlite") << "not.sqlite" << QString() << false << "not a SQLite database";
        QTest::newRow("another sqlite")
            << "other.sqlite"
            << "CREATE TABLE t (x)" << false << "neither an Nsight Systems export";
        // rocmProfileData's rpd tracer (ROCm 5–6): its own rocpd_ tables (rocpd_python/rocpd/schema_data/
        // tableSchema.cmd), not rocprofv3's; it had been told to record with rocprofv3 "(no rocpd_* tables)".
        QTest::newRow("rocmProfileData rpd")
            << "trace.rpd"
            << "CREATE TABLE rocpd_string (id INTEGER PRIMARY KEY, string VARCHAR(4096));"
               "CREATE TABLE rocpd_op (id INTEGER PRIMARY KEY, gpuId INTEGER, queueId INTEGER, sequenceId "
               "INTEGER, completionSignal VARCHAR(18), start INTEGER, end INTEGER, description_id INTEGER, "
               "opType_id INTEGER);"
               "CREATE TABLE rocpd_api (id INTEGER PRIMARY KEY, pid INTEGER, tid INTEGER, start INTEGER, end "
               "INTEGER, apiName_id INTEGER, args_id INTEGER)"
            << false << "a rocmProfileData (rpd) database (rocpd_op and rocpd_api tables)";
        QTest::newRow("missing column")
            << "nocol.sqlite"
            << "CREATE TABLE StringIds (id INTEGER, value TEXT);"
               "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, deviceId INTEGER)"
            << false << "has no column \"end\"";
        QTest::newRow("no cuda tables")
            << "nocuda.sqlite"
            << "CREATE TABLE StringIds (id INTEGER, value TEXT)" << false
            << "no kernels recorded in nocuda.sqlite: was CUDA tracing on (`nsys profile --trace=cuda`)?";
        // nsys leaves out the tables of what it did not record.
        QTest::newRow("cuda tracing off") << "notrace.sqlite"
                                          << "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;"
                                             "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME;"
                                             "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY;"
                                             "DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET"
                                          << true
                                          << "no kernels recorded in notrace.sqlite: was CUDA tracing on "
                                             "(`nsys profile --trace=cuda`)?";
        QTest::newRow("all times text") << "types.sqlite"
                                        << "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'abc';"
                                           "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME;"
                                           "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY;"
                                           "DROP TABLE NVTX_EVENTS"
                                        << true << "no events";
        // Larger than the reader's 16 MB value limit: the same path a 1 GB BLOB takes, without writing 1 GB.
        QTest::newRow("oversized blob") << "blob.sqlite"
                                        << "UPDATE StringIds SET value = zeroblob(20000000) WHERE id = "
                                           "(SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1)"
                                        << true << "larger than 16 MB";
        QTest::newRow("truncated rocpd") << "cut_results.db" << QString() << false << "damaged or truncated";
    }

    // nsys writes no kernel table when it captured no kernel: with the API calls there, the export is a
    // run without kernels, as one with an empty table is, which a side leaves out and says so; it had
    // failed the whole comparison.
    void exportWithoutKernelTableIsARunWithoutKernels()
    {
        const QString nsys = converted("nsys_bert_h100.sqlite");
        REQUIRE_TEST_DATA(nsys);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("side")));
        const QString good = dir.filePath(QStringLiteral("side/a.sqlite")),
                      none = dir.filePath(QStringLiteral("side/b.sqlite"));
        for (const QString &path : {good, none}) {
            QVERIFY(QFile::copy(nsys, path));
            QFile::setPermissions(path, QFile::permissions(path) | QFile::WriteOwner);
        }
        QVERIFY(exec(none, "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL").isEmpty());
        const LoadResult r = TraceLoader::load(none);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(countKind(*r.trace, EventKind::Kernel), 0);
        QVERIFY(countKind(*r.trace, EventKind::KernelLaunch) > 0);
        QVERIFY2(r.trace->notes.join(QLatin1Char('\n'))
                     .contains(QLatin1String("no kernels recorded in this export, though it holds")),
                 qPrintable(r.trace->notes.join(QLatin1Char('\n'))));
        const ProcessResult diff = cli({QStringLiteral("diff"), dir.filePath(QStringLiteral("side")), good});
        QVERIFY2(diff.exitCode == 0, diff.err.constData());
        QVERIFY2(diff.err.contains("b.sqlite holds no GPU kernels") && diff.err.contains("left out"),
                 diff.err.constData());
    }

    void badDatabases()
    {
        QFETCH(QString, name);
        QFETCH(QString, sql);
        QFETCH(bool, copy);
        QFETCH(QString, message);
        const QString nsys = converted("nsys_bert_h100.sqlite"), rocpd = converted("rocpd/908_results.db");
        REQUIRE_TEST_DATA(nsys, rocpd);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(name);
        if (copy) {
            QVERIFY(QFile::copy(nsys, path));
            QFile::setPermissions(path, QFile::permissions(path) | QFile::WriteOwner);
        }
        if (name == QLatin1String("not.sqlite")) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("this is a text file\n");
        } else if (name.startsWith(QLatin1String("cut"))) {
            QFile in(rocpd), out(path);
            QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly));
            out.write(in.read(in.size() / 2));
        }
        if (!sql.isEmpty()) {
            const QString problem = exec(path, sql.toUtf8().constData());
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        const LoadResult r = TraceLoader::load(path);
        QString error = r.error;
        if (r.ok()) { // loaded, but with nothing in it: the CLI says so
            QCOMPARE(r.trace->eventCount(), std::size_t(0));
            QVERIFY(r.trace->skipped.size() > 0);
            error = QStringLiteral("no events");
        } else {
            QVERIFY2(error.startsWith(QDir::toNativeSeparators(path)), qPrintable(error));
        }
        QVERIFY2(error.contains(message), qPrintable(error));
        const ProcessResult info = cli({QStringLiteral("info"), path});
        QVERIFY2(info.exitCode == 0 || info.exitCode == 2, info.err.constData()); // never a crash
        if (!r.ok())
            QVERIFY2(info.err.contains(path.toUtf8()), info.err.constData());
    }

    // A damaged page of one table names that table (it had read "… while reading counting rows").
    void damagedTableIsNamed()
    {
        const QString nsys = converted("nsys_bert_h100.sqlite");
        REQUIRE_TEST_DATA(nsys);
        QTemporaryDir dir;
        const QString path = writableCopy(nsys, dir, QStringLiteral("damaged.sqlite"));
        QVERIFY(!path.isEmpty());
        int64_t root = 0, pageSize = 0;
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        sqlite3_stmt *s = nullptr;
        sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_master WHERE name = 'NVTX_EVENTS'", -1, &s,
                           nullptr);
        if (sqlite3_step(s) == SQLITE_ROW)
            root = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
        sqlite3_prepare_v2(db, "PRAGMA page_size", -1, &s, nullptr);
        if (sqlite3_step(s) == SQLITE_ROW)
            pageSize = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
        sqlite3_close(db);
        QVERIFY(root > 1 && pageSize > 0);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.seek((root - 1) * pageSize));
        file.write(QByteArray(int(pageSize), '\xff'));
        file.close();
        const LoadResult r = TraceLoader::load(path);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(QLatin1String("damaged or truncated")) &&
                     r.error.contains(QLatin1String("NVTX_EVENTS")),
                 qPrintable(r.error));
    }

    void wrongTypesAreSkippedAndCounted()
    {
        const QString nsys = converted("nsys_bert_h100.sqlite");
        REQUIRE_TEST_DATA(nsys);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("half.sqlite"));
        QVERIFY(QFile::copy(nsys, path));
        QFile::setPermissions(path, QFile::permissions(path) | QFile::WriteOwner);
        QVERIFY(
            exec(path, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'abc' WHERE rowid % 2 = 0").isEmpty());
        const LoadResult r = TraceLoader::load(path);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(countKind(*r.trace, EventKind::Kernel), 30);
        int64_t skipped = 0;
        for (const auto &[reason, n] : r.trace->skipped)
            if (reason.contains(QLatin1String("CUPTI_ACTIVITY_KIND_KERNEL")))
                skipped += n;
        QCOMPARE(skipped, int64_t(30));
    }

    void lockedDatabase()
    {
        const QString nsys = converted("nsys_bert_h100.sqlite");
        REQUIRE_TEST_DATA(nsys);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("busy.sqlite"));
        QVERIFY(QFile::copy(nsys, path));
        QFile::setPermissions(path, QFile::permissions(path) | QFile::WriteOwner);
        // Another connection in the middle of writing holds the exclusive lock.
        sqlite3 *writer = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &writer), SQLITE_OK);
        QCOMPARE(sqlite3_exec(writer, "BEGIN EXCLUSIVE; DELETE FROM StringIds", nullptr, nullptr, nullptr),
                 SQLITE_OK);
        const LoadResult r = TraceLoader::load(path);
        sqlite3_exec(writer, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(writer);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.startsWith(QDir::toNativeSeparators(path)) &&
                     r.error.contains(QLatin1String("locked")),
                 qPrintable(r.error));
        // Once the writer is gone, the same file reads.
        QVERIFY2(TraceLoader::load(path).ok(), qPrintable(TraceLoader::load(path).error));

        // A writer between commits (no exclusive lock yet) is refused too, not read as the run so far
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &writer), SQLITE_OK);
        QCOMPARE(sqlite3_exec(writer,
                              "BEGIN IMMEDIATE; DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 2 = 0",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        const LoadResult writing = TraceLoader::load(path);
        QVERIFY2(!writing.ok() && writing.error.contains(QLatin1String("still writing")),
                 qPrintable(writing.error));
        QCOMPARE(sqlite3_exec(writer, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(writer);
        const LoadResult committed = TraceLoader::load(path);
        QVERIFY2(committed.ok(), qPrintable(committed.error));
        QCOMPARE(countKind(*committed.trace, EventKind::Kernel), 30);

        // A write stopped half-way (the files as a killed writer leaves them: pages of the database
        // written, the hot journal beside them) is refused, not read half-changed
        const QString big = testdata::path(
            "public/pipit/pipit__tests__data__cloverleaf-nsys__perlmutter-cloverleaf-cuda.sqlite");
        REQUIRE_TEST_DATA(big);
        const QString live = dir.filePath(QStringLiteral("live.sqlite")),
                      stopped = dir.filePath(QStringLiteral("stopped.sqlite"));
        QVERIFY(QFile::copy(big, live));
        QFile::setPermissions(live, QFile::permissions(live) | QFile::WriteOwner);
        QCOMPARE(sqlite3_open(live.toUtf8().constData(), &writer), SQLITE_OK);
        // a one-page cache spills the changed pages into the database, the journal synced first
        QCOMPARE(sqlite3_exec(writer, "PRAGMA cache_size=1; BEGIN; DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        QVERIFY(QFile::copy(live, stopped));
        QVERIFY(QFile::copy(live + QStringLiteral("-journal"), stopped + QStringLiteral("-journal")));
        sqlite3_exec(writer, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(writer);
        const LoadResult half = TraceLoader::load(stopped);
        QVERIFY2(!half.ok() && half.error.contains(QLatin1String("stopped.sqlite-journal is beside it")),
                 qPrintable(half.error));
        // a journal kept after its commit (PERSIST mode: its header zeroed) is no write under way
        QVERIFY(exec(path, "PRAGMA journal_mode=persist; DELETE FROM StringIds WHERE 0").isEmpty());
        const LoadResult persisted = TraceLoader::load(path);
        QVERIFY2(persisted.ok(), qPrintable(persisted.error));
    }

    void readOnlyFileAndCancel()
    {
        const QString rocpd = converted("rocpd/908_results.db");
        REQUIRE_TEST_DATA(rocpd);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("1_results.db"));
        QVERIFY(QFile::copy(rocpd, path));
        QFile::setPermissions(path, QFileDevice::ReadOwner);
        std::vector<double> fractions;
        LoadResult r = TraceLoader::load(path, [&](double f) { fractions.push_back(f); });
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(!fractions.empty());
        QCOMPARE(fractions.back(), 1.0);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        std::atomic<bool> cancel{true};
        r = TraceLoader::load(path, {}, &cancel);
        QVERIFY(!r.ok());
        QVERIFY(r.cancelled);
    }
};

QTEST_GUILESS_MAIN(TstSqliteFormats)
#include "tst_sqliteformats.moc"
