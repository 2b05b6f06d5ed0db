// SPDX-License-Identifier: GPL-3.0-or-later
// The SQLite trace formats: rocprofv3's rocpd databases and Nsight Systems SQLite exports.
// `info --json` figures are checked against an independent Python reading of the same databases
// (tests/oracle/sqlite_summary.py, sqlite3 module); the test databases are converted from real traces
// by tests/data/make_sqlite_fixtures.py. Bad databases (truncated, missing tables or columns, wrong
// column types, locked, an oversized BLOB, not SQLite at all) end with a message naming the file.

#include "model/sqlitetracereader.h"
#include "model/tracedata.h"
#include "model/tracefolder.h"
#include "model/traceloader.h"

#include "testdata.h"
#include "testprocess.h"

#include <QCryptographicHash>
#include <QtTest>

#include <sqlite3.h>

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

} // namespace

class TstSqliteFormats : public QObject
{
    Q_OBJECT

private slots:
    void infoMatchesOracle_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("format");
        QTest::newRow("nsys bert h100") << converted("nsys_bert_h100.sqlite") << QStringLiteral("nsys");
        QTest::newRow("rocpd 908 dispatches") << converted("rocpd/908_results.db") << QStringLiteral("rocpd");
        QTest::newRow("rocpd vllm graph") << converted("rocpd/19_results.db") << QStringLiteral("rocpd");
        QTest::newRow("rocpd run folder") << converted("rocpd") << QStringLiteral("rocpd");
    }

    void infoMatchesOracle()
    {
        QFETCH(QString, path);
        QFETCH(QString, format);
        REQUIRE_TEST_DATA(path);
        const ProcessResult oracle =
            runProcess(QStringLiteral(SCOPELINE_PYTHON),
                       {QStringLiteral(SCOPELINE_ORACLE_DIR "/sqlite_summary.py"), path});
        QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
        const QJsonObject expected = QJsonDocument::fromJson(oracle.out).object();
        const ProcessResult info = cli({QStringLiteral("info"), QStringLiteral("--json"), path});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        const QJsonObject got = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(got[QStringLiteral("file")].toString(), QFileInfo(path).absoluteFilePath());
        QCOMPARE(got[QStringLiteral("format")].toString(), format);
        QCOMPARE(expected.size(), 9);
        QVERIFY(expected[QStringLiteral("kernels")].toInt() > 0);
        for (auto it = expected.begin(); it != expected.end(); ++it)
            QVERIFY2(got[it.key()] == it.value(),
                     qPrintable(QStringLiteral("%1: cli %2, oracle %3")
                                    .arg(it.key(), got[it.key()].toVariant().toString(),
                                         it.value().toVariant().toString())));
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
        QVERIFY(d.skipped.empty());
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

    void folderScanning()
    {
        REQUIRE_TEST_DATA(converted(""));
        QString error;
        const std::vector<TraceRun> runs = TraceFolder::scan(converted(""), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(int(runs.size()), 2);
        QCOMPARE(runs[0].name, QStringLiteral("nsys_bert_h100.sqlite"));
        QCOMPARE(runs[1].name, QStringLiteral("rocpd")); // the per-process databases of one run
        QCOMPARE(runs[1].file, QFileInfo(converted("rocpd")).absoluteFilePath());

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
        QTest::newRow("missing column")
            << "nocol.sqlite"
            << "CREATE TABLE StringIds (id INTEGER, value TEXT);"
               "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, deviceId INTEGER)"
            << false << "has no column \"end\"";
        QTest::newRow("no cuda tables")
            << "nocuda.sqlite"
            << "CREATE TABLE StringIds (id INTEGER, value TEXT)" << false << "without CUDA or NVTX data";
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
