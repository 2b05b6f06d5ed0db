// SPDX-License-Identifier: GPL-3.0-or-later
// The summary cache: a run only summarised is summarised from its trace once and then read from the
// cache, with the same figures byte for byte; a changed trace, a damaged entry or an unwritable folder
// is read from the trace again, and the folder keeps to its size.
#include "testdata.h"
#include "testprocess.h"
#include "testruns.h"

#include "model/analysis/runsummaryfile.h"
#include "model/comparison/ranktable.h"
#include "model/comparison/stepbreakdown.h"
#include "model/loading/loadedrun.h"
#include "model/loading/summarycache.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/time.h>

using namespace scopeline;

namespace {

// A PyTorch trace with shapes and memory records (47 MB of JSON): its load reports progress often.
const QString kHeavy = testdata::path(
    "public/HolisticTraceAnalysis/tests__data__df_index_resolver__df_index_resolver.json.gz");

struct Summarised
{
    LoadedRun run;
    int progressCalls = 0; // one (1.0) for a summary read from the cache, many for a trace read
};

Summarised summarise(const QString &trace)
{
    Summarised s;
    TraceRun run;
    run.file = trace;
    run.name = QFileInfo(trace).fileName();
    s.run = LoadedRun::load(
        run, [&s](double) { ++s.progressCalls; }, nullptr, LoadedRun::Scopes::Index, LoadedRun::Events::Drop);
    return s;
}

QStringList entries(const QString &folder)
{
    return QDir(folder).entryList({QStringLiteral("*.slsum")}, QDir::Files);
}

// 0 when there is no such file.
ino_t inodeOf(const QString &path)
{
    struct stat st;
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_ino : 0;
}

// The ranks of a run of several GPUs, summarised; read: whether its trace was read. A small trace reports
// its progress once, as the cache does: what tells a read from a kept summary is that a read writes
// each GPU's summary anew (another file, another inode), here that of `device`.
QList<LoadedRun> summariseRanks(const TraceRun &run, int device, bool &read)
{
    const ino_t before = inodeOf(SummaryCache::entryOf(run.file, device));
    const QList<LoadedRun> ranks =
        LoadedRun::loadRanks(run, {}, nullptr, LoadedRun::Scopes::Index, LoadedRun::Events::Drop);
    read = before == 0 || inodeOf(SummaryCache::entryOf(run.file, device)) != before;
    return ranks;
}

void setModified(const QString &path, const QDateTime &time)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.setFileTime(time, QFileDevice::FileModificationTime));
}

} // namespace

class TstSummaryCache : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_cache, m_trace;

private slots:
    void init()
    {
        REQUIRE_TEST_DATA(kHeavy);
        QVERIFY(m_dir.isValid());
        m_cache = m_dir.filePath(QStringLiteral("cache"));
        QDir(m_cache).removeRecursively();
        qputenv("SCOPELINE_SUMMARY_CACHE", QFile::encodeName(m_cache));
        m_trace = m_dir.filePath(QStringLiteral("run_0.json.gz"));
        QFile::remove(m_trace);
        QVERIFY(QFile::copy(kHeavy, m_trace));
    }

    // Summarised once from the trace, then read from the cache: the same summary, byte for byte, and
    // the same step figures; a run loaded with its events neither reads nor fills the cache.
    void secondLoadIsTheSummaryKept()
    {
        QCOMPARE(SummaryCache::folder(), m_cache);
        const Summarised first = summarise(m_trace);
        QVERIFY2(first.run.ok(), qPrintable(first.run.error));
        QVERIFY(first.progressCalls > 1);
        QCOMPARE(entries(m_cache).size(), 1);
        const Summarised second = summarise(m_trace);
        QVERIFY2(second.run.ok(), qPrintable(second.run.error));
        QCOMPARE(second.progressCalls, 1);
        QVERIFY(!second.run.hasEvents());
        QVERIFY(second.run.hasTrace()); // its events can be read again from the trace
        QCOMPARE(second.run.run.file, m_trace);
        const QByteArray cold =
            testruns::summaryBytes(*first.run.summary, m_dir.filePath(QStringLiteral("cold.slsum")));
        QVERIFY(!cold.isEmpty());
        QCOMPARE(testruns::summaryBytes(*second.run.summary, m_dir.filePath(QStringLiteral("warm.slsum"))),
                 cold);
        QCOMPARE(StepBreakdown({second.run}, {second.run}).toCsv(), StepBreakdown({first.run}, {first.run}).toCsv());

        TraceRun run;
        run.file = m_trace;
        const LoadedRun full = LoadedRun::load(run);
        QVERIFY(full.hasEvents());
        QCOMPARE(testruns::summaryBytes(*full.summary, m_dir.filePath(QStringLiteral("full.slsum"))), cold);
        QCOMPARE(entries(m_cache).size(), 1);
    }

    // Another trace at the path (its first bytes changed, size and time as before), a trace touched,
    // or another path to the same file: each is summarised from the trace.
    void changedTraceIsReadAgain()
    {
        // to the second: the time is the same to the nanosecond after it is set again
        const QDateTime modified = QDateTime::fromSecsSinceEpoch(QDateTime::currentSecsSinceEpoch() - 3600);
        setModified(m_trace, modified);
        QVERIFY(summarise(m_trace).progressCalls > 1);
        QCOMPARE(summarise(m_trace).progressCalls, 1);
        {
            QFile file(m_trace);
            QVERIFY(file.open(QIODevice::ReadWrite));
            QVERIFY(file.seek(4)); // the gzip header's time field: the trace still reads
            QVERIFY(file.write("\x01\x02\x03\x04", 4) == 4);
        }
        setModified(m_trace, modified);
        QCOMPARE(QFileInfo(m_trace).lastModified(), modified);
        Summarised again = summarise(m_trace);
        QVERIFY2(again.run.ok(), qPrintable(again.run.error));
        QVERIFY(again.progressCalls > 1);
        QCOMPARE(summarise(m_trace).progressCalls, 1);

        setModified(m_trace, modified.addSecs(60));
        QVERIFY(summarise(m_trace).progressCalls > 1);

        const QString link = m_dir.filePath(QStringLiteral("run_1.json.gz"));
        QFile::remove(link);
        QVERIFY(testdata::anotherRun(m_trace, link)); // a run of its own, named by its path
        QVERIFY(summarise(link).progressCalls > 1);
        QCOMPARE(entries(m_cache).size(), 4);
    }

    // A damaged entry is read as none and written again; a folder that cannot be written, or the
    // cache turned off, leaves the load as it is.
    void damagedOrUnwritableCacheIsPassedOver()
    {
        QVERIFY(summarise(m_trace).progressCalls > 1);
        const QString entry = m_cache + QLatin1Char('/') + entries(m_cache).value(0);
        {
            QFile file(entry);
            QVERIFY(file.open(QIODevice::ReadWrite));
            QVERIFY(file.seek(file.size() / 2));
            QVERIFY(file.write("damaged", 7) == 7);
        }
        const Summarised damaged = summarise(m_trace);
        QVERIFY2(damaged.run.ok(), qPrintable(damaged.run.error));
        QVERIFY(damaged.progressCalls > 1);
        RunSummary reread;
        QCOMPARE(RunSummaryFile::read(entry, reread), QString());
        QCOMPARE(summarise(m_trace).progressCalls, 1);

        const QString blocked = m_dir.filePath(QStringLiteral("a file"));
        QFile file(blocked);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        qputenv("SCOPELINE_SUMMARY_CACHE", QFile::encodeName(blocked + QStringLiteral("/cache")));
        for (int i = 0; i < 2; ++i) {
            const Summarised s = summarise(m_trace);
            QVERIFY2(s.run.ok(), qPrintable(s.run.error));
            QVERIFY(s.progressCalls > 1);
        }
        qputenv("SCOPELINE_SUMMARY_CACHE", "off");
        QCOMPARE(SummaryCache::folder(), QString());
        QCOMPARE(SummaryCache::entryOf(m_trace, -1), QString());
        QVERIFY(summarise(m_trace).progressCalls > 1);
        QVERIFY(summarise(m_trace).progressCalls > 1);
    }

    // The folder keeps to its size, the least recently used going first.
    void trimKeepsTheRecent()
    {
        QVERIFY(QDir().mkpath(m_cache));
        const QDateTime now = QDateTime::currentDateTime();
        for (int i = 0; i < 5; ++i) {
            const QString path = m_cache + QStringLiteral("/%1.slsum").arg(i);
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QVERIFY(file.write(QByteArray(1000, 'x')) == 1000);
            file.close();
            setModified(path, now.addSecs(-100 + 10 * i)); // 4 the most recent
        }
        SummaryCache::trim(m_cache, 3000);
        QCOMPARE(entries(m_cache), (QStringList{QStringLiteral("2.slsum"), QStringLiteral("3.slsum"),
                                                 QStringLiteral("4.slsum")}));
        // one found is used: kept the longest
        QVERIFY(summarise(m_trace).run.ok());
        const QString entry = SummaryCache::entryOf(m_trace, -1);
        setModified(entry, now.addSecs(-1000));
        QVERIFY(SummaryCache::find(entry) != nullptr);
        SummaryCache::trim(m_cache, QFileInfo(entry).size());
        QCOMPARE(entries(m_cache), QStringList{QFileInfo(entry).fileName()});
    }

    // Clearing removes every summary kept, and says how many.
    void clearRemovesThemAll()
    {
        QVERIFY(summarise(m_trace).run.ok());
        const QString link = m_dir.filePath(QStringLiteral("run_1.json.gz"));
        QFile::remove(link);
        QVERIFY(testdata::anotherRun(m_trace, link));
        QVERIFY(summarise(link).run.ok());
        int64_t bytes = 0;
        for (const QString &entry : entries(m_cache))
            bytes += QFileInfo(m_cache + QLatin1Char('/') + entry).size();
        const SummaryCache::Cleared cleared = SummaryCache::clear();
        QCOMPARE(cleared.files, 2);
        QCOMPARE(cleared.bytes, bytes);
        QVERIFY(entries(m_cache).isEmpty());
        QVERIFY(summarise(m_trace).progressCalls > 1);
        qputenv("SCOPELINE_SUMMARY_CACHE", "off");
        QCOMPARE(SummaryCache::clear().files, 0);
    }

    // A trace of two GPUs keeps a summary per GPU and the list of its GPUs: read again, its ranks come
    // from the cache with the figures of the trace; a rank's summary or the list gone or damaged, the
    // trace is read again and kept again; clearing removes the list too.
    void traceOfSeveralGpusKeepsEachRank()
    {
        const QString source = testdata::path("converted/two_gpus_one_trace/dlrm_ranks_0_1.pt.trace.json.gz");
        REQUIRE_TEST_DATA(source);
        const QString trace = m_dir.filePath(QStringLiteral("two_gpus.pt.trace.json.gz"));
        QFile::remove(trace);
        QVERIFY(QFile::copy(source, trace));
        TraceRun run;
        run.file = trace;
        run.name = QStringLiteral("two_gpus");
        bool read = false;
        const auto load = [&] { return summariseRanks(run, 0, read); };
        const QList<LoadedRun> first = load();
        QVERIFY(read);
        QCOMPARE(first.size(), 2);
        QCOMPARE(entries(m_cache).size(), 2);
        const QString devices = SummaryCache::entryOf(trace, -1).chopped(RunSummaryFile::suffix().size()) +
                                QStringLiteral(".devices");
        QVERIFY(QFileInfo::exists(devices));
        QCOMPARE(SummaryCache::findDevices(SummaryCache::entryOf(trace, -1)), (std::vector<int>{0, 1}));
        const auto sameRanks = [&](const QList<LoadedRun> &kept) {
            QCOMPARE(kept.size(), first.size());
            for (qsizetype r = 0; r < kept.size(); ++r) {
                QVERIFY2(kept[r].ok(), qPrintable(kept[r].error));
                QCOMPARE(kept[r].run.rank, first[r].run.rank);
                QCOMPARE(kept[r].run.device, first[r].run.device);
                QCOMPARE(kept[r].run.worldSize, first[r].run.worldSize);
                QCOMPARE(kept[r].run.label(), first[r].run.label());
                QCOMPARE(
                    testruns::summaryBytes(*kept[r].summary, m_dir.filePath(QStringLiteral("kept.slsum"))),
                    testruns::summaryBytes(*first[r].summary, m_dir.filePath(QStringLiteral("read.slsum"))));
            }
            QCOMPARE(RankTable(kept, {}, {}).toCsv(), RankTable(first, {}, {}).toCsv());
        };
        sameRanks(load());
        QVERIFY(!read);

        QVERIFY(QFile::remove(SummaryCache::entryOf(trace, 1)));
        sameRanks(load());
        QVERIFY(read);
        QCOMPARE(entries(m_cache).size(), 2);
        for (const QByteArray &damaged : {QByteArray("0 x"), QByteArray("1 0"), QByteArray("0")}) {
            QFile file(devices);
            QVERIFY(file.open(QIODevice::WriteOnly));
            QVERIFY(file.write(damaged) == damaged.size());
            file.close();
            sameRanks(load());
            QVERIFY(read);
            sameRanks(load());
            QVERIFY(!read);
        }
        QCOMPARE(SummaryCache::clear().files, 2); // the summaries; the list goes with them
        QVERIFY(QDir(m_cache).isEmpty());
        QVERIFY(!QFileInfo::exists(devices));
    }

    // A run that is a folder (rocpd's database per process, GPUs 0 and 2) is kept by every file in it:
    // read once, then from the cache with the same figures; a database touched, it is read again.
    void runFolderIsKept()
    {
        const QString source = testdata::path("converted/rocpd");
        REQUIRE_TEST_DATA(source);
        const QString folder = m_dir.filePath(QStringLiteral("rocpd"));
        QDir(folder).removeRecursively();
        QVERIFY(QDir().mkpath(folder));
        for (const QString &name : QDir(source).entryList(QDir::Files))
            QVERIFY(QFile::copy(QDir(source).filePath(name), QDir(folder).filePath(name)));
        TraceRun run;
        run.file = folder;
        run.name = QStringLiteral("rocpd");
        bool read = false;
        const QList<LoadedRun> first = summariseRanks(run, 0, read);
        QVERIFY(read);
        QCOMPARE(first.size(), 2);
        QCOMPARE(first[1].run.rank, 2);
        QCOMPARE(SummaryCache::findDevices(SummaryCache::entryOf(folder, -1)), (std::vector<int>{0, 2}));
        const QList<LoadedRun> kept = summariseRanks(run, 0, read);
        QVERIFY(!read);
        QCOMPARE(RankTable(kept, {}, {}).toCsv(), RankTable(first, {}, {}).toCsv());
        QCOMPARE(StepBreakdown({kept}, {kept}).toCsv(), StepBreakdown({first}, {first}).toCsv());
        const QString database = QDir(folder).filePath(QDir(folder).entryList(QDir::Files).constFirst());
        setModified(database, QDateTime::currentDateTime().addSecs(-60));
        QCOMPARE(RankTable(summariseRanks(run, 0, read), {}, {}).toCsv(), RankTable(first, {}, {}).toCsv());
        QVERIFY(read);
    }

    // A database in WAL mode keeps its commits in the -wal file until a checkpoint, the database file
    // untouched (size and time): a commit there is read, not the summary kept from before it.
    void databaseCommitInItsLogIsReadAgain()
    {
        const QString source = testdata::path(
            "public/pipit/pipit__tests__data__cloverleaf-nsys__perlmutter-cloverleaf-cuda.sqlite");
        REQUIRE_TEST_DATA(source);
        const QString db = m_dir.filePath(QStringLiteral("cloverleaf.sqlite"));
        QFile::remove(db);
        QVERIFY(QFile::copy(source, db));
        QVERIFY(QFile::setPermissions(db, QFile::ReadOwner | QFile::WriteOwner));
        sqlite3 *writer = nullptr;
        QCOMPARE(sqlite3_open(QFile::encodeName(db).constData(), &writer), SQLITE_OK);
        const auto exec = [writer](const char *sql) {
            return sqlite3_exec(writer, sql, nullptr, nullptr, nullptr);
        };
        QCOMPARE(exec("PRAGMA journal_mode=wal; PRAGMA wal_autocheckpoint=0"), SQLITE_OK);
        const Summarised before = summarise(db);
        QVERIFY2(before.run.ok(), qPrintable(before.run.error));
        const std::size_t kernels = before.run.summary->kernels().size();
        QCOMPARE(kernels, std::size_t(1312));
        const QFileInfo file(db);
        QCOMPARE(exec("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 3 = 0"), SQLITE_OK);
        QVERIFY(QFileInfo::exists(db + QStringLiteral("-wal")));
        QCOMPARE(QFileInfo(db).size(), file.size());
        QCOMPARE(QFileInfo(db).lastModified(), file.lastModified());
        const Summarised after = summarise(db);
        QVERIFY2(after.run.ok(), qPrintable(after.run.error));
        sqlite3_stmt *count = nullptr;
        QCOMPARE(sqlite3_prepare_v2(writer, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL", -1, &count,
                                    nullptr),
                 SQLITE_OK);
        QCOMPARE(sqlite3_step(count), SQLITE_ROW);
        const auto left = std::size_t(sqlite3_column_int64(count, 0));
        sqlite3_finalize(count);
        QVERIFY(left < kernels);
        QCOMPARE(after.run.summary->kernels().size(), left);
        sqlite3_close(writer);
    }

    // The CLI's figures with the cache filled are those without it, byte for byte.
    void cliFiguresAreTheSame()
    {
        const QString a = testdata::path("h100_runs/torch_compile/eager"),
                      b = testdata::path("h100_runs/torch_compile/reduce_overhead");
        REQUIRE_TEST_DATA(a, b);
        qputenv("SCOPELINE_SUMMARY_CACHE", "off");
        const QStringList diff{QStringLiteral("diff"), a, b, QStringLiteral("--format"), QStringLiteral("json")},
            steps{QStringLiteral("steps"), a, b, QStringLiteral("--format"), QStringLiteral("json")};
        const ProcessResult diffOff = runProcess(QStringLiteral(SCOPELINE_CLI), diff),
                            stepsOff = runProcess(QStringLiteral(SCOPELINE_CLI), steps);
        QCOMPARE(diffOff.exitCode, 0);
        QCOMPARE(stepsOff.exitCode, 0);
        qputenv("SCOPELINE_SUMMARY_CACHE", QFile::encodeName(m_cache));
        for (int pass = 0; pass < 2; ++pass) { // filling it, then read from it
            QCOMPARE(runProcess(QStringLiteral(SCOPELINE_CLI), diff).out, diffOff.out);
            QCOMPARE(runProcess(QStringLiteral(SCOPELINE_CLI), steps).out, stepsOff.out);
            QCOMPARE(entries(m_cache).size(), 10);
        }
        // summarize writes the summaries itself: none kept in the cache besides
        QDir(m_cache).removeRecursively();
        QCOMPARE(
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("summarize"), a, QStringLiteral("-o"),
                                                       m_dir.filePath(QStringLiteral("sums"))})
                .exitCode,
            0);
        QCOMPARE(QDir(m_dir.filePath(QStringLiteral("sums")))
                     .entryList({QStringLiteral("*.slsum")}, QDir::Files)
                     .size(),
                 5);
        QVERIFY(entries(m_cache).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstSummaryCache)
#include "tst_summarycache.moc"
