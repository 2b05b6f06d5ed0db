// SPDX-License-Identifier: GPL-3.0-or-later
// Several GPUs of one job on the real 8-rank DLRM step: the rank files are one run (and the scan
// refuses what cannot be one), every column of `ranks` against tests/oracle/ranks.py (raw events),
// the collective waits, the CLI's CSV, and A against B with runs as the unit.

#include "gunzip.h"
#include "testdata.h"
#include "testprocess.h"

#include "model/analysis/busysegments.h"
#include "model/analysis/runsummaryfile.h"
#include "model/comparison/kerneldiff.h"
#include "model/comparison/ranktable.h"
#include "model/comparison/replication.h"
#include "model/comparison/scopecomparison.h"
#include "model/comparison/stepbreakdown.h"
#include "model/comparison/variantranks.h"
#include "model/comparison/variantsteps.h"
#include "model/loading/rankinfo.h"
#include "model/loading/tracefolder.h"
#include "model/tables/durationformat.h"
#include "model/tracedata/devicetrace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <cmath>
#include <set>

using namespace scopeline;

namespace {

QList<LoadedRun> load(const QString &path)
{
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(path, &error);
    if (!error.isEmpty())
        qWarning("%s", qPrintable(error));
    return LoadedRun::loadAll(runs);
}

QJsonObject oracle(const QStringList &sides, const QStringList &step = {QStringLiteral("--step"),
                                                                      QStringLiteral("ProfilerStep")})
{
    const ProcessResult result =
        runProcess(QStringLiteral(SCOPELINE_PYTHON),
                   QStringList{QStringLiteral(SCOPELINE_ORACLE_DIR "/ranks.py")} + step + sides);
    if (result.exitCode != 0)
        qWarning("ranks.py: %s", result.err.constData());
    return QJsonDocument::fromJson(result.out).object();
}

QJsonArray oracleRows(const QStringList &sides)
{
    return oracle(sides)[QStringLiteral("rows")].toArray();
}

// Every column of the collective kinds against the oracle's; how many kinds there are.
int compareKinds(const RankTable &table, const QJsonObject &expected)
{
    const QJsonArray kinds = expected[QStringLiteral("collectives")].toArray();
    if (qsizetype(table.collectiveKinds().size()) != kinds.size()) {
        qWarning("%zu kinds, the oracle %lld", table.collectiveKinds().size(), qlonglong(kinds.size()));
        return -1;
    }
    for (std::size_t k = 0; k < table.collectiveKinds().size(); ++k) {
        const QJsonObject o = kinds[qsizetype(k)].toObject();
        for (const TableColumn<CollectiveRow> &c : RankTable::collectiveColumns()) {
            const QVariant value = c.value(table.collectiveKinds()[k]);
            const QJsonValue want = o[c.csvKey];
            const bool same =
                c.csvKey == QLatin1String("side") || c.csvKey == QLatin1String("collective") ||
                        c.csvKey == QLatin1String("process_group") || c.csvKey == QLatin1String("longest_on")
                    ? value.toString() == want.toString()
                : want.isNull()
                    ? !value.isValid() || std::isnan(value.toDouble())
                    : std::fabs(value.toDouble() - want.toDouble()) <= 1e-9 * std::fabs(want.toDouble());
            if (!same) {
                qWarning("kind %zu %s: %s, oracle %s", k, qPrintable(c.csvKey), qPrintable(value.toString()),
                         QJsonDocument(QJsonArray{want}).toJson(QJsonDocument::Compact).constData());
                return -1;
            }
        }
    }
    return int(kinds.size());
}

// Every column of every rank against the oracle's (null: unset); how many rows there are.
int compareRows(const RankTable &table, const QJsonArray &expected)
{
    if (qsizetype(table.rows().size()) != expected.size()) {
        qWarning("%zu rows, the oracle %lld", table.rows().size(), qlonglong(expected.size()));
        return -1;
    }
    for (std::size_t r = 0; r < table.rows().size(); ++r) {
        const QJsonObject o = expected[qsizetype(r)].toObject();
        for (const TableColumn<RankRow> &c : RankTable::columns()) {
            const QVariant value = c.value(table.rows()[r]);
            const QJsonValue want = o[c.csvKey];
            const bool same = c.csvKey == QLatin1String("side") || c.csvKey == QLatin1String("run")
                                  ? value.toString() == want.toString()
                              : want.isNull() ? std::isnan(value.toDouble())
                                              : std::fabs(value.toDouble() - want.toDouble()) <=
                                                    1e-9 * std::fabs(want.toDouble());
            if (!same) {
                qWarning("rank %zu %s: %s, oracle %s", r, qPrintable(c.csvKey), qPrintable(value.toString()),
                         QJsonDocument(QJsonArray{want}).toJson(QJsonDocument::Compact).constData());
                return -1;
            }
        }
    }
    return int(expected.size());
}

// A copy of a real rank file with its communication kernels dropped ("nocomm"), their process groups
// named in their args as PyTorch names them ("groups": AllReduce within ranks 0-3 and 4-7), every timestamp
// a second later ("later": another host's clock), another rank's number ("rank0": a twin) or its
// process under another pid and its times stretched ("job SHIFT FACTOR": the job launched again).
bool alteredRank(const QString &file, const QString &out, const QString &how)
{
    const char *script = R"(
import gzip, json, sys
src, dst, how = sys.argv[1:4]
with gzip.open(src, "rt") as f:
    d = json.load(f)
if how == "nocomm":
    d["traceEvents"] = [e for e in d["traceEvents"]
                        if not (e.get("cat") == "kernel" and "nccl" in e.get("name", "").lower())]
elif how == "rank0":
    d["distributedInfo"]["rank"] = 0
elif how == "nokernels":  # the profile lost the GPU's activity
    d["traceEvents"] = [e for e in d["traceEvents"] if e.get("cat") != "kernel"]
elif how == "next_step":  # the profile's step is the next one (ProfilerStep#12 -> #13)
    for e in d["traceEvents"]:
        if e.get("name", "").startswith("ProfilerStep#"):
            e["name"] = "ProfilerStep#" + str(int(e["name"][len("ProfilerStep#"):]) + 1)
elif how.startswith("job "):  # the job launched again (its processes under other pids), slower
    shift, factor = int(how.split()[1]), float(how.split()[2])
    start = min(e["ts"] for e in d["traceEvents"] if "ts" in e)
    for e in d["traceEvents"]:
        if isinstance(e.get("pid"), int) and e["pid"] > 1000:  # the OS pid, not a device's
            e["pid"] += shift
        if "ts" in e:
            e["ts"] = start + (e["ts"] - start) * factor
        if "dur" in e:
            e["dur"] *= factor
elif how.startswith("groups"):  # an all-to-all over every rank, all-reduces within halves (4 + 4 data parallel)
    rank = d["distributedInfo"]["rank"]
    half = [r for r in range(8) if r // 4 == rank // 4]
    for e in d["traceEvents"]:
        if e.get("cat") == "kernel" and "nccl" in e.get("name", "").lower():
            reduce = "AllReduce" in e["name"]
            e["args"]["Process Group Name"] = str(1 + rank // 4) if reduce else "0"
            e["args"]["Process Group Ranks"] = str(half if reduce else list(range(8)))
            e["args"]["Group size"] = 4 if reduce else 8
    if how == "groups_lost_allreduce":  # and the profile lost the rank's AllReduce kernels
        d["traceEvents"] = [e for e in d["traceEvents"]
                            if not (e.get("cat") == "kernel" and "AllReduce" in e.get("name", ""))]
elif how == "lose_one":  # the profile lost the rank's first AllReduce kernel
    first = next(i for i, e in enumerate(d["traceEvents"])
                 if e.get("cat") == "kernel" and "AllReduce" in e.get("name", ""))
    del d["traceEvents"][first]
else:
    for e in d["traceEvents"]:
        if "ts" in e:
            e["ts"] += 1000000
with gzip.open(dst, "wt") as f:
    json.dump(d, f)
)";
    const ProcessResult result =
        runProcess(QStringLiteral(SCOPELINE_PYTHON),
                   {QStringLiteral("-c"), QString::fromLatin1(script), file, out, how});
    if (result.exitCode != 0)
        qWarning("%s", result.err.constData());
    return result.exitCode == 0;
}

// The job's files under other names in a folder of their own (hard links).
bool linkRanks(const QString &folder, const QStringList &files, const QStringList &names = {})
{
    const QDir job(testdata::dlrmRun());
    QDir().mkpath(folder);
    for (qsizetype i = 0; i < files.size(); ++i)
        if (!testdata::anotherRun(job.filePath(files[i]),
                                  QDir(folder).filePath(names.isEmpty() ? files[i] : names[i])))
            return false;
    return true;
}

} // namespace

class TstRanks : public QObject
{
    Q_OBJECT
    QStringList m_files;

    // Sides A, B, … in `dir`, two runs each: the DLRM job launched again per run (its processes under
    // pids of their own), its times stretched by the run's factor.
    bool relaunchedJobs(const QString &dir, const std::vector<std::array<double, 2>> &factors) const
    {
        const QDir job(testdata::dlrmRun());
        for (std::size_t s = 0; s < factors.size(); ++s)
            for (std::size_t r = 0; r < 2; ++r) {
                const QString run =
                    QDir(dir).filePath(QStringLiteral("%1/run_%2").arg(QChar(u'A' + int(s))).arg(r));
                if (!QDir().mkpath(run))
                    return false;
                for (const QString &file : m_files)
                    if (!alteredRank(
                            job.filePath(file), QDir(run).filePath(file),
                            QStringLiteral("job %1 %2").arg(10000 * (1 + 2 * s + r)).arg(factors[s][r])))
                        return false;
            }
        return true;
    }

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(testdata::dlrmRun());
        m_files = QDir(testdata::dlrmRun()).entryList({QStringLiteral("*.json.gz")}, QDir::Files, QDir::Name);
        QCOMPARE(m_files.size(), 8);
    }

    // The 8 rank files are one run of 8 ranks; two such folders two runs; the statistics count runs.
    void rankFilesAreOneRun()
    {
        QString error;
        const std::vector<TraceRun> runs = TraceFolder::scan(testdata::dlrmRun(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(runs.size(), std::size_t(8));
        for (int r = 0; r < 8; ++r) {
            QCOMPARE(runs[std::size_t(r)].name, QStringLiteral("dlrm_kineto"));
            QCOMPARE(runs[std::size_t(r)].rank, r);
            QCOMPARE(runs[std::size_t(r)].worldSize, 8);
            QCOMPARE(runs[std::size_t(r)].label(), QStringLiteral("dlrm_kineto · rank %1").arg(r));
        }
        // the rank files named by a wildcard are that run too, not 8 runs of one rank each
        const std::vector<TraceRun> matched =
            TraceFolder::scan(testdata::dlrmRun() + QStringLiteral("/worker*"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(matched.size(), runs.size());
        for (std::size_t r = 0; r < runs.size(); ++r) {
            QCOMPARE(matched[r].label(), runs[r].label());
            QCOMPARE(matched[r].file, runs[r].file);
        }
        QTemporaryDir side(testdata::scratchDir());
        QVERIFY(testdata::rankRuns(side.path(), 2));
        // and a wildcard over the rank files of jobs in folders of one name (a/traces, b/traces): a
        // run each, named by its path from the wildcard's root
        QTemporaryDir jobs(testdata::scratchDir());
        for (const char *job : {"a", "b"})
            QVERIFY(
                linkRanks(jobs.filePath(QLatin1String(job) + QStringLiteral("/traces")), m_files.mid(0, 2)));
        const std::vector<TraceRun> eachJob =
            TraceFolder::scan(jobs.path() + QStringLiteral("/*/traces/*.json.gz"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(eachJob.size(), std::size_t(4));
        QCOMPARE(TraceFolder::runCount(eachJob), 2);
        QCOMPARE(eachJob.front().name, QStringLiteral("a/traces"));
        QCOMPARE(eachJob.back().name, QStringLiteral("b/traces"));
        const QList<LoadedRun> two = load(side.path());
        QCOMPARE(two.size(), 16);
        const KernelDiff diff(two, two);
        QCOMPARE(diff.summary().runsA, 2);
        for (const KernelDiffRow &row : diff.rows()) // each kernel in both runs, whatever its ranks
            QCOMPARE(row.a.runsWithKernel, 2);
        QVERIFY(!diff.summary().byProcess); // the same job twice (one set of pids): one process
        // the CLI counts runs, not rank files
        const ProcessResult scopes =
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("scopes"), side.path()});
        QVERIFY2(scopes.out.contains(" scopes in 2 runs of 8 ranks\n"), scopes.out.constData());
        const ProcessResult compare = runProcess(
            QStringLiteral(SCOPELINE_CLI), {QStringLiteral("compare"), side.path(), side.path(),
                                            QStringLiteral("--scope"), QStringLiteral("## forward ##")});
        QVERIFY2(compare.out.contains("(2 runs of 8 ranks)\n") && compare.out.contains("  run 2: ") &&
                     !compare.out.contains("  run 3: "),
                 compare.out.constData());
        const ProcessResult uneven = runProcess(QStringLiteral(SCOPELINE_CLI),
                                                {QStringLiteral("compare"), side.path(), testdata::dlrmRun(),
                                                 QStringLiteral("--scope"), QStringLiteral("## forward ##")});
        QVERIFY2(uneven.err.contains(
                     "A has 2 runs of 8 ranks and B 1 run of 8 ranks; per-run rows pair the first 1"),
                 uneven.err.constData());
        // and its run pairs pool a run's rank files: run 1 of A against run 1 of B, not rank 1 against rank 1
        std::size_t rankSamples[2] = {0, 0};
        const ScopeMatcher forward(QStringLiteral("## forward ##"), MatchMode::Component);
        for (const LoadedRun &rank : two)
            rankSamples[rank.run.name == two.front().run.name ? 0 : 1] +=
                rank.scopes->samples(forward, SampleMode::Kernel).size();
        const std::vector<const ScopeIndex *> indexes = scopeIndexes(two);
        const Replication replication = Replication::of(two, two);
        ScopeComparison comparison(indexes, indexes);
        comparison.setReplication(&replication);
        const std::vector<ComparisonRow> rows =
            comparison.compare({QStringLiteral("## forward ##")}, MatchMode::Component, SampleMode::Kernel);
        QCOMPARE(rows.size(), std::size_t(3));
        QCOMPARE(rows[0].run, QStringLiteral("1"));
        QCOMPARE(rows[0].a.n, rankSamples[0]);
        QCOMPARE(rows[1].b.n, rankSamples[1]);
        QVERIFY(rankSamples[0] > 0 && rankSamples[1] > 0);
        QVERIFY(rows[2].isPooled());
        QCOMPARE(rows[2].runsA, std::size_t(2));
        QCOMPARE(rows[2].a.n, rankSamples[0] + rankSamples[1]);
        const StepBreakdown steps(two, two);
        QCOMPARE(steps.row(StepPart::Step).unitsA, 2);
        QCOMPARE(steps.row(StepPart::Step).runsA, 2);
        QCOMPARE(steps.row(StepPart::Step).stepsA, int64_t(2));
    }

    // One trace of two GPUs (ranks 0 and 1 of the DLRM job, written as one file by
    // tests/data/make_two_gpu_trace.py) is one run of two ranks: each GPU with the CPU process that
    // launches onto it, every figure equal to its own rank file's; summaries and the timeline's reload
    // of a summarised rank keep the split.
    void oneTraceOfSeveralGpus()
    {
        const QString trace = testdata::path("converted/two_gpus_one_trace/dlrm_ranks_0_1.pt.trace.json.gz");
        REQUIRE_TEST_DATA(trace);
        const QList<LoadedRun> split = load(trace);
        QCOMPARE(split.size(), 2);
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(linkRanks(dir.filePath(QStringLiteral("dlrm")), m_files.mid(0, 2)));
        const QList<LoadedRun> files = load(dir.filePath(QStringLiteral("dlrm")));
        QCOMPARE(files.size(), 2);
        for (int r = 0; r < 2; ++r) {
            const LoadedRun &rank = split[r];
            QCOMPARE(rank.run.rank, r);
            QCOMPARE(rank.run.device, r);
            QCOMPARE(rank.run.worldSize, 2);
            QCOMPARE(rank.run.label(), QStringLiteral("dlrm_ranks_0_1.pt.trace.json.gz · rank %1").arg(r));
            // the rank's own process and GPU: 59811 launches onto GPU 0, 59812 onto GPU 1
            std::set<QString> pids;
            for (std::size_t t = 0; t < rank.trace->tracks.size(); ++t)
                if (!rank.trace->trackEvents[t].empty())
                    pids.insert(rank.trace->tracks[t].pid);
            QVERIFY(pids.count(QString::number(r)) && pids.count(QString::number(59811 + r)));
            QVERIFY(!pids.count(QString::number(1 - r)) && !pids.count(QString::number(59812 - r)));
            const LoadedRun &own = files[r];
            QCOMPARE(rank.summary->kernels().size(), own.summary->kernels().size());
            for (std::size_t k = 0; k < own.summary->kernels().size(); ++k) {
                QCOMPARE(rank.summary->kernels()[k].start, own.summary->kernels()[k].start);
                QCOMPARE(rank.summary->kernels()[k].duration, own.summary->kernels()[k].duration);
                QCOMPARE(rank.summary->kernels()[k].communication(), own.summary->kernels()[k].communication());
            }
            // the launch analysis too: launches, delays, and each idle gap's cause
            const LaunchSummary &mine = rank.analysis->total(), &theirs = own.analysis->total();
            QCOMPARE(mine.kernels, theirs.kernels);
            QCOMPARE(mine.kernelLaunches, theirs.kernelLaunches);
            QCOMPARE(mine.busyNs, theirs.busyNs);
            QCOMPARE(mine.launchDelays, theirs.launchDelays);
            QCOMPARE(rank.analysis->streams().size(), own.analysis->streams().size());
            for (std::size_t t = 0; t < own.analysis->streams().size(); ++t) {
                const std::vector<IdleGap> &a = rank.analysis->streams()[t].gaps, &b = own.analysis->streams()[t].gaps;
                QCOMPARE(a.size(), b.size());
                for (std::size_t g = 0; g < b.size(); ++g)
                    QVERIFY(a[g].start == b[g].start && a[g].end == b[g].end && a[g].cause == b[g].cause);
            }
            // a summarised rank reloaded for a timeline is that GPU again
            const LoadedRun reloaded = rank.withoutEvents().withEvents();
            QCOMPARE(reloaded.trace->eventCount(), rank.trace->eventCount());
        }
        // One process launching onto both GPUs (as JAX does; the script moves rank 1's CPU events into
        // rank 0's process): each GPU's launches are its own, not both GPUs' (491 each).
        const QString oneProcess = dir.filePath(QStringLiteral("one_process.pt.trace.json.gz"));
        const ProcessResult moved = runProcess(
            QStringLiteral(SCOPELINE_PYTHON),
            {testdata::path("make_two_gpu_trace.py"), QStringLiteral("--one-process"), trace, oneProcess});
        QVERIFY2(moved.exitCode == 0, moved.err.constData());
        const QList<LoadedRun> shared = load(oneProcess);
        QCOMPARE(shared.size(), 2);
        for (int r = 0; r < 2; ++r) {
            const LaunchSummary &mine = shared[r].analysis->total(), &theirs = files[r].analysis->total();
            QCOMPARE(mine.kernels, theirs.kernels);
            QCOMPARE(mine.kernelLaunches, theirs.kernelLaunches);
            QCOMPARE(mine.launchDelays, theirs.launchDelays);
        }
        // the ranks table: every column but the run's name equal to the rank files'
        const auto csvBody = [](const QList<LoadedRun> &runs) {
            QStringList lines = RankTable(runs, {}, {}).toCsv().split(QLatin1Char('\n'));
            for (QString &line : lines)
                line.replace(QRegularExpression(QStringLiteral("^A,[^,]*,")), QStringLiteral("A,run,"));
            return lines;
        };
        QCOMPARE(csvBody(split), csvBody(files));
        // Both ranks' AllReduce medians are 601 µs: both are named as the ones it runs longest on, and the
        // oracle agrees on every kind's column.
        const RankTable two(files, {}, {});
        QCOMPARE(compareKinds(two, oracle({dir.filePath(QStringLiteral("dlrm"))})), 2);
        const auto allReduce = std::find_if(
            two.collectiveKinds().begin(), two.collectiveKinds().end(),
            [](const CollectiveRow &k) { return k.collective.contains(QLatin1String("AllReduce")); });
        QVERIFY(allReduce != two.collectiveKinds().end());
        QCOMPARE(allReduce->rankMedianMinNs, allReduce->rankMedianMaxNs);
        QCOMPARE(allReduce->longestOn, (std::vector<int>{0, 1}));
        // one process driving both GPUs: each GPU's steps are its own threads' (rank 1 had had two steps of
        // 8.95 ms for its one of 17.98 ms, its kernels split over both GPUs' step ranges)
        QCOMPARE(csvBody(shared), csvBody(files));
        const StepBreakdown steps(split, files);
        QCOMPARE(steps.row(StepPart::Step).unitsA, 1);
        QCOMPARE(steps.row(StepPart::Step).meanA, steps.row(StepPart::Step).meanB);
        QCOMPARE(steps.row(StepPart::ExposedComm).meanA, steps.row(StepPart::ExposedComm).meanB);
        // summarize writes a summary per GPU, which read back as the same run
        const QString summaries = dir.filePath(QStringLiteral("summaries"));
        const ProcessResult summarize = runProcess(
            QStringLiteral(SCOPELINE_CLI), {QStringLiteral("summarize"), trace, QStringLiteral("-o"), summaries});
        QVERIFY2(summarize.exitCode == 0, summarize.err.constData());
        const QString rank1 = QStringLiteral("dlrm_ranks_0_1.pt.trace.json.gz/rank_1_of_2.slsum");
        QVERIFY2(QFileInfo::exists(QDir(summaries).filePath(rank1)), summarize.out.constData());
        QCOMPARE(RankTable(load(summaries), {}, {}).toCsv(), RankTable(split, {}, {}).toCsv());
    }

    // A GPU named without events (XProf names every GPU it can see) is not a rank: a real one-GPU JAX
    // trace with an empty `/device:GPU:1` process is one run, as it was.
    // Ranks tied for arriving last, or for the longest step, are named together: the DLRM job twice
    // over as 16 ranks (rank r + 8 a copy of rank r) ties rank 7 with 15, and rank 1 with 9.
    void tiesNameEveryRank()
    {
        REQUIRE_TEST_DATA(testdata::dlrmRun());
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(dir.isValid());
        const QString job = dir.filePath(QStringLiteral("job16"));
        QVERIFY(QDir().mkpath(job));
        for (const QString &file : m_files) {
            const QByteArray text = testdata::gunzip(QDir(testdata::dlrmRun()).filePath(file));
            const QRegularExpressionMatch rank =
                QRegularExpression(QStringLiteral("\"rank\": (\\d+), \"world_size\": 8"))
                    .match(QString::fromUtf8(text.left(1 << 16)));
            QVERIFY2(rank.hasMatch(), qPrintable(file));
            const int r = rank.captured(1).toInt();
            for (int copy : {r, r + 8}) {
                QByteArray out = text;
                out.replace(rank.captured(0).toUtf8(),
                            QStringLiteral("\"rank\": %1, \"world_size\": 16").arg(copy).toUtf8());
                QFile f(QStringLiteral("%1/worker%2.pt.trace.json").arg(job).arg(copy));
                QVERIFY(f.open(QIODevice::WriteOnly) && f.write(out) == out.size());
            }
        }
        const QList<LoadedRun> runs = load(job);
        QCOMPARE(runs.size(), 16);
        const RankTable table(runs, {}, {});
        const QString notes = table.notes().join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(
                     QLatin1String("arrived last most often (the others wait for it): ranks 7, 15, tied")) &&
                     notes.contains(QLatin1String("longest step: ranks 1, 9, tied (")),
                 qPrintable(notes));
    }

    // distributedInfo's keys in any order: the real rank-0 file re-saved with sorted keys, pg_config's
    // list of objects before rank and world_size, keeps its rank
    void rankOfKeysInAnyOrder()
    {
        const QString file =
            testdata::path("public/HolisticTraceAnalysis/tests__data__nccl_parser_config__nccl_data.json.gz");
        const QJsonDocument trace = QJsonDocument::fromJson(testdata::gunzip(file));
        QVERIFY(trace.isObject());
        QTemporaryDir dir(testdata::scratchDir());
        const QString sorted = dir.filePath(QStringLiteral("sorted.json")); // QJsonObject sorts its keys
        const QByteArray text = trace.toJson(QJsonDocument::Compact);
        QFile out(sorted);
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(text) == text.size());
        out.close();
        const qsizetype info = text.indexOf("\"distributedInfo\"");
        QVERIFY(info >= 0 && text.indexOf("\"pg_config\"", info) < text.indexOf("\"rank\"", info));
        for (const QString &path : {file, sorted}) {
            const RankInfo rank = RankInfo::of(path);
            QCOMPARE(rank.rank, 0);
            QCOMPARE(rank.worldSize, 2);
        }
    }

    void emptyDeviceIsNotARank()
    {
        const QString sample = QStringLiteral(SCOPELINE_SAMPLES "/jax_matmul_vs_einsum/matmul");
        const std::vector<TraceRun> runs = TraceFolder::scan(sample);
        QVERIFY(!runs.empty());
        const ProcessResult unpacked = runProcess(QStringLiteral("gzip"), {QStringLiteral("-dc"), runs.front().file});
        QCOMPARE(unpacked.exitCode, 0);
        QByteArray json = unpacked.out;
        const QByteArray head = "\"traceEvents\":[";
        QVERIFY(json.contains(head));
        json.replace(head, head + R"({"ph":"M","pid":2,"name":"process_name","args":{"name":"/device:GPU:1"}},)");
        QTemporaryDir dir(testdata::scratchDir());
        QFile out(dir.filePath(QStringLiteral("two_devices_named.trace.json")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(json);
        out.close();
        const QList<LoadedRun> loaded = load(out.fileName());
        QCOMPARE(loaded.size(), 1);
        QCOMPARE(loaded.front().run.rank, -1);
        QCOMPARE(gpuDevices(*loaded.front().trace), std::vector<int>{0});
    }

    // What cannot be one run says so, naming the files; a partial world is one run with a note.
    void scanRefusesWhatIsNotOneJob()
    {
        QTemporaryDir dir(testdata::scratchDir());
        QString error;
        QStringList notes;
        // two files of rank 0 (worker9's name, rank 0 in its distributedInfo) beside rank 1
        const QString twice = dir.filePath(QStringLiteral("twice"));
        QVERIFY(linkRanks(twice, {m_files[0], m_files[1], m_files[0]},
                          {m_files[0], m_files[1], QStringLiteral("worker9_again.pt.trace.json.gz")}));
        QVERIFY(TraceFolder::scan(twice, &error).empty());
        QVERIFY2(error.contains(QLatin1String("rank 0 twice")) && error.contains(m_files[0]) &&
                     error.contains(QLatin1String("worker9_again")),
                 qPrintable(error));
        // a trace without a rank among the ranks
        const QString among = dir.filePath(QStringLiteral("among"));
        QVERIFY(linkRanks(among, {m_files[0], m_files[1]}));
        QVERIFY(
            testdata::anotherRun(testdata::path("h100_runs/torch_compile/eager/run_0/trace.pt.trace.json.gz"),
                                 QDir(among).filePath(QStringLiteral("single.pt.trace.json.gz"))));
        QVERIFY(TraceFolder::scan(among, &error).empty());
        QVERIFY2(error.contains(QLatin1String("single.pt.trace.json.gz has no rank")), qPrintable(error));
        // rank 0 of a world of 2 beside rank 1 of 8
        const QString worlds = dir.filePath(QStringLiteral("worlds"));
        QVERIFY(linkRanks(worlds, {m_files[1]}));
        QVERIFY(testdata::anotherRun(
            testdata::path("public/HolisticTraceAnalysis/tests__data__nccl_parser_config__nccl_data.json.gz"),
            QDir(worlds).filePath(QStringLiteral("nccl_data.pt.trace.json.gz"))));
        QVERIFY(TraceFolder::scan(worlds, &error).empty());
        QVERIFY2(error.contains(QLatin1String("world sizes differ")), qPrintable(error));
        // the same where the file first by name states no world size (its rank from its name alone):
        // the world sizes the others state still differ
        const QString unstated = dir.filePath(QStringLiteral("unstated"));
        QVERIFY(linkRanks(unstated, {m_files[1]}));
        QVERIFY(testdata::anotherRun(
            testdata::path("public/HolisticTraceAnalysis/tests__data__nccl_parser_config__nccl_data.json.gz"),
            QDir(unstated).filePath(QStringLiteral("nccl_data.pt.trace.json.gz"))));
        {
            QByteArray text = testdata::gunzip(QDir(testdata::dlrmRun()).filePath(m_files[5]));
            QVERIFY(text.left(1 << 16).contains("\"rank\": 5, \"world_size\": 8"));
            text.replace("\"rank\": 5, \"world_size\": 8", "\"rank\": 5");
            QFile f(QDir(unstated).filePath(QStringLiteral("a_rank5.pt.trace.json")));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text) == text.size());
        }
        QVERIFY(TraceFolder::scan(unstated, &error).empty());
        QVERIFY2(
            error.contains(QStringLiteral("world sizes differ (2 in nccl_data.pt.trace.json.gz, 8 in %1)")
                               .arg(m_files[1])),
            qPrintable(error));
        // HolisticTraceAnalysis' test traces, five files of different jobs in one folder: every reason
        // is named at once (it had named only the first file without a rank, as if the rest were one job)
        const QString hta = testdata::path("public/HolisticTraceAnalysis");
        QVERIFY(TraceFolder::scan(hta, &error).empty());
        for (const char *reason :
             {"mi250_minitoy_train_ROCm6_2_kineto.json.gz and tests__data__ns_resolution_trace__rank-0",
              "have no rank",
              "rank 0 twice (tests__data__nccl_parser_config__nccl_data.json.gz and "
              "tests__data__negative_queue_length_values_check__rank0.json.gz)",
              "world sizes differ (2 in tests__data__df_index_resolver__df_index_resolver.json.gz, 16 in",
              "these are not the ranks of one job"})
            QVERIFY2(error.contains(QLatin1String(reason)), qPrintable(error));
        // one GPU of each of two jobs (rank 0 of 8, rank 0 of 2): not repeated runs of one job
        const QString lones = dir.filePath(QStringLiteral("lones"));
        QVERIFY(linkRanks(lones, {m_files[0]}));
        QVERIFY(testdata::anotherRun(
            testdata::path("public/HolisticTraceAnalysis/tests__data__nccl_parser_config__nccl_data.json.gz"),
            QDir(lones).filePath(QStringLiteral("nccl_data.pt.trace.json.gz"))));
        QVERIFY(TraceFolder::scan(lones, &error).empty());
        QVERIFY2(
            error.contains(QStringLiteral("world sizes differ (2 in nccl_data.pt.trace.json.gz, 8 in %1)")
                               .arg(m_files[0])) &&
                error.contains(QLatin1String("these are not runs of one job")),
            qPrintable(error));
        // one GPU of a job beside a one-GPU trace without a rank
        const QString beside = dir.filePath(QStringLiteral("beside"));
        QVERIFY(linkRanks(beside, {m_files[0]}));
        QVERIFY(
            testdata::anotherRun(testdata::path("h100_runs/torch_compile/eager/run_0/trace.pt.trace.json.gz"),
                                 QDir(beside).filePath(QStringLiteral("single.pt.trace.json.gz"))));
        QVERIFY(TraceFolder::scan(beside, &error).empty());
        QVERIFY2(
            error.contains(QStringLiteral("single.pt.trace.json.gz has no rank, beside %1, rank 0 of a job "
                                          "of 8 GPUs")
                               .arg(m_files[0])),
            qPrintable(error));
        // 2 of 8 ranks: one run, said to be a partial world
        const QString partial = dir.filePath(QStringLiteral("partial"));
        QVERIFY(linkRanks(partial, {m_files[2], m_files[5]}));
        error.clear();
        const std::vector<TraceRun> runs = TraceFolder::scan(partial, &error, &notes);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[0].rank, 2);
        QCOMPARE(runs[1].rank, 5);
        QCOMPARE(runs[0].name, runs[1].name);
        QVERIFY2(notes.join(QLatin1Char('\n')).contains(QLatin1String("2 of 8 ranks")),
                 qPrintable(notes.join(QLatin1Char('\n'))));
        // a name that says another rank than the trace's distributedInfo: the trace's word, and a note
        const QString renamed = dir.filePath(QStringLiteral("renamed"));
        QVERIFY(
            linkRanks(renamed, {m_files[2], m_files[5]},
                      {QStringLiteral("rank2.pt.trace.json.gz"), QStringLiteral("rank6.pt.trace.json.gz")}));
        notes.clear();
        const std::vector<TraceRun> renamedRuns = TraceFolder::scan(renamed, &error, &notes);
        QCOMPARE(renamedRuns.size(), std::size_t(2));
        QCOMPARE(renamedRuns[1].rank, 5);
        QCOMPARE(
            notes
                .filter(QLatin1String("rank6.pt.trace.json.gz: its distributedInfo says rank 5, its name "
                                      "rank 6: read as rank 5"))
                .size(),
            1);
        QVERIFY(notes.filter(QLatin1String("rank2.pt.trace.json.gz: its")).isEmpty());
        // copies of one rank file are repeated runs, not ranks
        const QString copies = dir.filePath(QStringLiteral("copies"));
        QVERIFY(linkRanks(copies, {m_files[3], m_files[3]},
                          {QStringLiteral("a.pt.trace.json.gz"), QStringLiteral("b.pt.trace.json.gz")}));
        notes.clear();
        const std::vector<TraceRun> repeated = TraceFolder::scan(copies, &error, &notes);
        QCOMPARE(repeated.size(), std::size_t(2));
        QVERIFY(repeated[0].rank == 3 && repeated[1].rank == 3 && repeated[0].name != repeated[1].name);
        // each said to be one GPU of a job, as one such file alone is
        QCOMPARE(notes.filter(QLatin1String("rank 3 of a job of 8 GPUs, alone here")).size(), 2);
        // one rank of 8 alone (its distributedInfo says so): a run, said to be one GPU of a job
        const QString alone = dir.filePath(QStringLiteral("alone"));
        QVERIFY(linkRanks(alone, {m_files[3]}));
        notes.clear();
        QCOMPARE(TraceFolder::scan(alone, &error, &notes).size(), std::size_t(1));
        QVERIFY2(
            notes.join(QLatin1Char('\n')).contains(QLatin1String("rank 3 of a job of 8 GPUs, alone here")),
            qPrintable(notes.join(QLatin1Char('\n'))));
        notes.clear();
        TraceFolder::scan(testdata::path("h100_runs/hipbench/launch-chain/eager"), &error, &notes);
        QVERIFY2(notes.isEmpty(), qPrintable(notes.join(QLatin1Char('\n')))); // one GPU's runs say nothing
    }

    // Every column of every rank equals the oracle's, from the raw events; the waits and who
    // arrived last as the research on this job found (rank 7 last at 5 of 8 collectives).
    void againstOracle()
    {
        const RankTable table(load(testdata::dlrmRun()), {}, {});
        QCOMPARE(table.stepScope(), QStringLiteral("ProfilerStep"));
        const QJsonArray expected = oracleRows({testdata::dlrmRun()});
        QCOMPARE(compareRows(table, expected), 8);
        QCOMPARE(table.rows()[7].arrivedLastShare, 5.0 / 8);
        // ranks 1 and 3 lost the launch calls of 64 kernels each, which ran in their steps: said, not summed
        for (std::size_t r = 0; r < 8; ++r)
            QCOMPARE(table.rows()[r].unlaunchedNs,
                     expected[qsizetype(r)].toObject()[QStringLiteral("unlaunched_ns")].toDouble());
        QVERIFY(table.rows()[1].unlaunchedNs > 0 && table.rows()[3].unlaunchedNs > 0);
        const double most = std::max(expected[1].toObject()[QStringLiteral("unlaunched_ns")].toDouble(),
                                     expected[3].toObject()[QStringLiteral("unlaunched_ns")].toDouble());
        QVERIFY2(table.notes()
                     .join(QLatin1Char('\n'))
                     .contains(
                         QStringLiteral(
                             "rank 1, 3: kernels without a launch call in the trace ran during the steps and "
                             "count in none (a mean of up to %1")
                             .arg(formatDuration(most))),
                 qPrintable(table.notes().join(QLatin1Char('\n'))));
        // each kind of collective: how many a step, how long, the rank it runs longest on
        QCOMPARE(compareKinds(table, oracle({testdata::dlrmRun()})), 2); // AllReduce and SendRecv
        QCOMPARE(table.collectives().size(), std::size_t(1));
        const RunCollectives &c = table.collectives().front();
        QCOMPARE(c.matched, 8); // collectives: 5 SendRecv and 3 AllReduce, on every rank
        QCOMPARE(c.unmatched, 0);
        QVERIFY(c.maxEndSpreadNs <= 7000); // one host: the collectives end together
        QVERIFY2(c.note.startsWith(QLatin1String("rank 1, 3: kernels without a launch call")) &&
                     !c.note.contains(QLatin1Char(';')),
                 qPrintable(c.note)); // that note alone
        // rank 7 holds the others back; rank 1's step is the longest because it waits the most
        const QString notes = table.notes().join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(QLatin1String("arrived last most often (the others wait for it): rank 7")) &&
                     notes.contains(QStringLiteral("longest step: rank 1 (%1, of it %2 waiting")
                                        .arg(formatDuration(table.rows()[1].stepNs),
                                             formatDuration(table.rows()[1].collectiveWaitNs))),
                 qPrintable(notes));
    }

    // The overview's segments of each rank over the whole run: their compute and exposed communication
    // are the oracle's for the run as one step; any window's shares add up to the whole's.
    void busySegmentsAgainstOracle()
    {
        const QList<LoadedRun> ranks = load(testdata::dlrmRun());
        const QJsonArray expected =
            oracle({testdata::dlrmRun()}, {QStringLiteral("--whole-run")})[QStringLiteral("rows")].toArray();
        QCOMPARE(ranks.size(), 8);
        QCOMPARE(expected.size(), 8);
        for (qsizetype r = 0; r < 8; ++r) {
            const std::vector<BusySegment> segments = busySegments(*ranks[r].summary);
            QVERIFY(!segments.empty());
            for (std::size_t i = 1; i < segments.size(); ++i) {
                QVERIFY(segments[i - 1].end <= segments[i].start); // disjoint, by start
                QVERIFY(segments[i - 1].end < segments[i].start ||
                        segments[i - 1].compute != segments[i].compute);
            }
            const int64_t from = segments.front().start, to = segments.back().end,
                          middle = from + (to - from) / 3;
            const BusyShares whole = busyShares(segments, from, to);
            const QJsonObject o = expected[r].toObject();
            QCOMPARE(double(whole.compute), o[QStringLiteral("compute_ns")].toDouble());
            QCOMPARE(double(whole.exposedComm), o[QStringLiteral("exposed_comm_ns")].toDouble());
            QVERIFY(whole.exposedComm > 0);
            const BusyShares left = busyShares(segments, from, middle),
                             right = busyShares(segments, middle, to);
            QCOMPARE(left.compute + right.compute, whole.compute);
            QCOMPARE(left.exposedComm + right.exposedComm, whole.exposedComm);
            QVERIFY(left.compute + left.exposedComm <= middle - from);
        }
    }

    // A job whose files lost something: a rank without communication kernels is left out of the
    // matching (the others still match, and it is named); ranks of a clock a second apart have no
    // waits (they would measure the clocks); a partial world names its missing ranks; and sides of
    // different rank counts say so. Every column against the oracle, which has the same rules.
    void damagedJobs()
    {
        QTemporaryDir dir(testdata::scratchDir());
        const QDir job(testdata::dlrmRun());
        const QString nocomm = dir.filePath(QStringLiteral("nocomm")),
                      later = dir.filePath(QStringLiteral("later"));
        QVERIFY(linkRanks(nocomm, m_files.mid(0, 3) + m_files.mid(4)) && linkRanks(later, m_files.mid(0, 4)));
        QVERIFY(alteredRank(job.filePath(m_files[3]), QDir(nocomm).filePath(m_files[3]),
                            QStringLiteral("nocomm")));
        for (int r = 4; r < 8; ++r)
            QVERIFY(alteredRank(job.filePath(m_files[r]), QDir(later).filePath(m_files[r]),
                                QStringLiteral("later")));

        const RankTable lost(load(nocomm), {}, {});
        QCOMPARE(compareRows(lost, oracleRows({nocomm})), 8);
        QVERIFY(std::isnan(lost.rows()[3].collectiveWaitNs));
        QCOMPARE(lost.rows()[7].arrivedLastShare, 5.0 / 8); // rank 7 still arrives last
        QCOMPARE(lost.collectives().front().matched, 8);
        QCOMPARE(lost.collectives().front().ranksInOrder.size(), std::size_t(7));
        QVERIFY2(
            lost.collectives().front().note.contains(QLatin1String("rank 3 without communication kernels")),
            qPrintable(lost.collectives().front().note));

        const RankTable skewed(load(later), {}, {});
        QCOMPARE(compareRows(skewed, oracleRows({later})), 8);
        for (const RankRow &row : skewed.rows())
            QVERIFY(std::isnan(row.collectiveWaitNs) && std::isnan(row.arrivedLastShare));
        QVERIFY(skewed.collectives().front().waitsNs.empty());
        QVERIFY2(skewed.collectives().front().note.contains(QLatin1String("waits not measured")) &&
                     skewed.collectives().front().note.contains(QLatin1String("do not overlap in time")),
                 qPrintable(skewed.collectives().front().note));
        QVERIFY(!skewed.notes().join(QLatin1Char('\n')).contains(QLatin1String("arrived last")));

        // rank 2 lost its first AllReduce: the step's AllReduces are not matched (each later one would
        // pair with another's earlier one), the SendRecvs still are
        const QString lost1 = dir.filePath(QStringLiteral("lost1"));
        QVERIFY(linkRanks(lost1, m_files.mid(0, 2) + m_files.mid(3)));
        QVERIFY(alteredRank(job.filePath(m_files[2]), QDir(lost1).filePath(m_files[2]),
                            QStringLiteral("lose_one")));
        const RankTable lostOne(load(lost1), {}, {});
        QCOMPARE(compareRows(lostOne, oracleRows({lost1})), 8);
        const RankTable whole(load(testdata::dlrmRun()), {}, {});
        QCOMPARE(lostOne.collectives().front().matched, whole.collectives().front().matched - 3);
        QCOMPARE(lostOne.collectives().front().unmatched, 8 * 3 - 1);
        QVERIFY(lostOne.collectives().front().note.contains(
            QLatin1String("counts of a name in a step, or outside the steps, differ")));

        // rank 0's profile holds the next step: its collectives are not the others' (paired by position,
        // they were: 8 matched with waits across two steps)
        const QString nextStep = dir.filePath(QStringLiteral("next_step"));
        QVERIFY(linkRanks(nextStep, m_files.mid(1)));
        QVERIFY(alteredRank(job.filePath(m_files[0]), QDir(nextStep).filePath(m_files[0]),
                            QStringLiteral("next_step")));
        const RankTable otherStep(load(nextStep), {}, {});
        QCOMPARE(compareRows(otherStep, oracleRows({nextStep})), 8);
        QCOMPARE(otherStep.collectives().front().matched, 0);
        QCOMPARE(otherStep.collectives().front().unmatched, 8 * 8);
        for (const RankRow &row : otherStep.rows())
            QVERIFY(std::isnan(row.collectiveWaitNs));

        // rank 5 lost its kernels: named, not silently left out of the mean over ranks
        const QString nokernels = dir.filePath(QStringLiteral("nokernels"));
        QVERIFY(linkRanks(nokernels, m_files.mid(0, 5) + m_files.mid(6)));
        QVERIFY(alteredRank(job.filePath(m_files[5]), QDir(nokernels).filePath(m_files[5]),
                            QStringLiteral("nokernels")));
        const RankTable withoutKernels(load(nokernels), {}, {});
        QCOMPARE(compareRows(withoutKernels, oracleRows({nokernels})), 8);
        QCOMPARE(withoutKernels.rows()[5].steps, int64_t(0));
        const QString lostNote = withoutKernels.collectives().front().note;
        QVERIFY2(lostNote.contains(QLatin1String("rank 5 without communication kernels")) &&
                     lostNote.contains(QLatin1String("rank 5 without a step with kernels")),
                 qPrintable(lostNote));

        // rank 7 and its twin start every collective together: each arrived last at half of them
        const QString twins = dir.filePath(QStringLiteral("twins"));
        QVERIFY(linkRanks(twins, {m_files[7]}));
        QVERIFY(
            alteredRank(job.filePath(m_files[7]), QDir(twins).filePath(m_files[0]), QStringLiteral("rank0")));
        const RankTable tied(load(twins), {}, {});
        QCOMPARE(compareRows(tied, oracleRows({twins})), 2);
        QCOMPARE(tied.rows()[0].arrivedLastShare, 0.5);
        QCOMPARE(tied.rows()[1].arrivedLastShare, 0.5);

        const QString partial = dir.filePath(QStringLiteral("partial"));
        QVERIFY(linkRanks(partial, {m_files[2], m_files[5]}));
        const QList<LoadedRun> partialRuns = load(partial), wholeRuns = load(testdata::dlrmRun());
        const RankTable two(partialRuns, wholeRuns, {});
        const QString notes = two.notes().join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(QLatin1String("rank 0, 1, 3, 4, 6, 7 missing")), qPrintable(notes));
        // the same job's ranks 2 and 5 against all 8: compared on the two, no caveat
        const QString differentSets = QStringLiteral("A's runs have 2 rank(s), B's 8");
        QVERIFY2(two.caveat().isEmpty(), qPrintable(two.caveat()));
        QVERIFY2(notes.contains(QLatin1String("compared on ranks 2, 5")), qPrintable(notes));
        QVERIFY(!RankTable(wholeRuns, wholeRuns, {})
                     .notes()
                     .join(QLatin1Char('\n'))
                     .contains(QLatin1String("different sets")));
        // and the step time and the kernels, as the ranks: the same files, no change
        QVERIFY(StepBreakdown(partialRuns, wholeRuns).row(StepPart::Step).caveat.isEmpty());
        QVERIFY(
            StepBreakdown(partialRuns, wholeRuns).note().contains(QLatin1String("compared on ranks 2, 5")));
        const KernelDiff sameRanks(partialRuns, wholeRuns);
        QVERIFY(sameRanks.summary().caveat.isEmpty());
        QCOMPARE(sameRanks.summary().kernelTimePerRunA, sameRanks.summary().kernelTimePerRunB);
        QVERIFY2(sameRanks.headerText().contains(QLatin1String("compared on ranks 2, 5")),
                 qPrintable(sameRanks.headerText()));
        QVERIFY(StepBreakdown(wholeRuns, wholeRuns).row(StepPart::Step).caveat.isEmpty());
        // more processes do not lift it: no such advice follows it
        QVERIFY(Replication::howToLift(differentSets).isEmpty());
        QVERIFY(!Replication::howToLift(Replication::processCaveat()).isEmpty());
        QVERIFY(KernelDiff(wholeRuns, wholeRuns).summary().caveat.isEmpty());
        // a run's figures are means over its GPUs (13.8 calls per run is no count): said beside them,
        // and not for runs of one GPU
        const KernelDiff perGpu(partialRuns, wholeRuns);
        QCOMPARE(perGpu.summary().mostRanks, 2); // the two ranks both hold
        QVERIFY2(perGpu.headerText().contains(QLatin1String("a run's mean over its GPUs")),
                 qPrintable(perGpu.headerText()));
        const ProcessResult cli =
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("diff"), partial, testdata::dlrmRun()});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        QVERIFY2(cli.out.contains("\nkernel time per run (a run's mean over its GPUs): A "),
                 cli.out.constData());
        const QList<LoadedRun> oneGpu = load(QDir(partial).filePath(m_files[2]));
        const KernelDiff perRun(oneGpu, oneGpu);
        QCOMPARE(perRun.summary().mostRanks, 1);
        QVERIFY(!perRun.headerText().contains(QLatin1String("GPUs")));
    }

    // A kind's figures are of its kernels in the steps, as its count per step is: MI300's five warm-up
    // all-reduces outside the steps (ncclDevKernel_Generic, without the arg) had made a kind of "0 a step,
    // 6.584 ms", and negative_queue's 5 SendRecv outside its steps had moved the median. A lone rank says
    // what its profile lost, as a job's ranks do (it had said nothing).
    void kindsAreOfTheStepsKernels()
    {
        for (const char *file : {"public/TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz",
                                 "public/HolisticTraceAnalysis/"
                                 "tests__data__negative_queue_length_values_check__rank0.json.gz"}) {
            const QString trace = testdata::path(file);
            const RankTable table(load(trace), {}, {});
            QVERIFY(!table.collectiveKinds().empty());
            QCOMPARE(compareKinds(table, oracle({trace})), int(table.collectiveKinds().size()));
            for (const CollectiveRow &kind : table.collectiveKinds())
                QVERIFY2(kind.perStep > 0, qPrintable(kind.collective));
            const QJsonArray rows = oracleRows({trace});
            QCOMPARE(rows.size(), 1);
            const double lost = rows[0].toObject()[QStringLiteral("unlaunched_ns")].toDouble();
            QVERIFY(lost > 0);
            const QString notes = table.notes().join(QLatin1Char('\n'));
            QVERIFY2(
                notes.contains(QStringLiteral(": kernels without a launch call in the trace ran during the "
                                              "steps and count in none (a mean of %1 of GPU time a step)")
                                   .arg(formatDuration(lost))),
                qPrintable(notes));
        }
    }

    // One collective, one kind: DLRM's kernels name theirs (ncclKernel_AllReduce_…), the HTA trace's
    // args ("Collective name": "allreduce"); A against B had listed "AllReduce" and "allreduce" apart.
    void collectiveKindsSharedAcrossSchemas()
    {
        const QString args =
            testdata::path("public/HolisticTraceAnalysis/tests__data__nccl_parser_config__nccl_data.json.gz");
        const RankTable table(load(testdata::dlrmRun()), load(args), {});
        std::set<QString> a, b;
        for (const CollectiveRow &row : table.collectiveKinds())
            (row.side == 0 ? a : b).insert(row.collective);
        QVERIFY(a.count(QStringLiteral("AllReduce")));
        QVERIFY2(b.count(QStringLiteral("AllReduce")) && !b.count(QStringLiteral("allreduce")),
                 qPrintable(QStringList(b.begin(), b.end()).join(u',')));
        QCOMPARE(compareKinds(table, oracle({testdata::dlrmRun(), args})),
                 int(table.collectiveKinds().size()));
    }

    // Message sizes from the args give bandwidths: RCCL on MI300 (8 ranks' group, BFloat16) and NCCL
    // on A100 (a group of 2): every column of every kind against the oracle, the whole run as the step.
    void collectiveBandwidths_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<int>("kinds");
        QTest::addColumn<QString>("allReduceName"); // PyTorch's coalesced variant in place of allreduce
        const QString mi300 =
            testdata::path("public/TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz");
        QTest::newRow("MI300 RCCL") << mi300 << 3 << QStringLiteral("allreduce");
        QTest::newRow("MI300 RCCL, allreduce_coalesced")
            << mi300 << 3 << QStringLiteral("allreduce_coalesced");
        QTest::newRow("HTA NCCL, rank 0 of 2")
            << testdata::path(
                   "public/HolisticTraceAnalysis/tests__data__nccl_parser_config__nccl_data.json.gz")
            << 2 << QStringLiteral("allreduce");
    }

    void collectiveBandwidths()
    {
        QFETCH(QString, trace);
        QFETCH(int, kinds);
        QFETCH(QString, allReduceName);
        REQUIRE_TEST_DATA(trace);
        QTemporaryDir renamed;
        if (allReduceName != QLatin1String("allreduce")) {
            const QString copy = renamed.filePath(QStringLiteral("renamed.json"));
            const ProcessResult result = runProcess(
                QStringLiteral(SCOPELINE_PYTHON),
                {QStringLiteral("-c"),
                 QStringLiteral(
                     "import gzip, sys; t = gzip.open(sys.argv[1], 'rt').read(); "
                     "open(sys.argv[2], 'w').write(t.replace('\"Collective name\": \"allreduce\"', "
                     "'\"Collective name\": \"' + sys.argv[3] + '\"'))"),
                 trace, copy, allReduceName});
            QVERIFY2(result.exitCode == 0, result.err.constData());
            trace = copy;
        }
        RankTable::Options options;
        options.stepScope = StepBreakdownOptions::wholeRun();
        const RankTable table(load(trace), {}, options);
        QCOMPARE(compareKinds(table, oracle({trace}, {QStringLiteral("--whole-run")})), kinds);
        const auto allReduce = std::find_if(
            table.collectiveKinds().begin(), table.collectiveKinds().end(), [&](const CollectiveRow &r) {
                // the arg's allreduce as NCCL's kernels name it; PyTorch's coalesced one as it is
                return r.collective == (allReduceName == QLatin1String("allreduce")
                                            ? QStringLiteral("AllReduce")
                                            : allReduceName);
            });
        QVERIFY(allReduce != table.collectiveKinds().end());
        QVERIFY(allReduce->algbwGBps > 0 && allReduce->busbwGBps >= allReduce->algbwGBps);
        if (trace.contains(QLatin1String("renamed"))) // 8 ranks: nccl-tests' 2(n-1)/n
            QCOMPARE(allReduce->busbwGBps / allReduce->algbwGBps, 1.75);
        // the summary file keeps the messages: the same figures from it (named as `summarize` names a
        // rank's, which keeps the rank of this file alone)
        QTemporaryDir dir;
        const LoadedRun loaded = load(trace).front();
        const QString file =
            dir.filePath(QStringLiteral("rank_%1_of_%2").arg(loaded.run.rank).arg(loaded.run.worldSize) +
                         RunSummaryFile::suffix());
        QCOMPARE(RunSummaryFile::write(*loaded.summary, file), QString());
        const RankTable fromFile(load(file), {}, options);
        QCOMPARE(compareKinds(fromFile, oracle({trace}, {QStringLiteral("--whole-run")})), kinds);
    }

    // Where the args name each collective's process group (AllReduce within ranks 0-3 and within 4-7,
    // SendRecv over all 8), a collective is the k-th of its name on the ranks of its group: a rank
    // waits for its own group's last, not for the other half's; each column against the oracle, the
    // summaries keep the groups.
    void collectivesMatchWithinProcessGroups()
    {
        QTemporaryDir dir(testdata::scratchDir());
        const QDir job(testdata::dlrmRun());
        const QString groups = dir.filePath(QStringLiteral("groups"));
        QVERIFY(QDir().mkpath(groups));
        for (const QString &file : m_files)
            QVERIFY(alteredRank(job.filePath(file), QDir(groups).filePath(file), QStringLiteral("groups")));
        const RankTable grouped(load(groups), {}, {}), whole(load(testdata::dlrmRun()), {}, {});
        QCOMPARE(compareRows(grouped, oracleRows({groups})), 8);
        const RunCollectives &c = grouped.collectives().front();
        QCOMPARE(whole.collectives().front().matched, 8);
        QCOMPARE(c.matched, 5 + 3 + 3); // the SendRecvs of all 8, the AllReduces of each half
        QCOMPARE(c.unmatched, 0);
        QCOMPARE(c.alone, 0);
        QCOMPARE(c.processGroups, 3);
        QVERIFY(!c.note.contains(QLatin1String("may cross groups"))); // the groups are named
        QVERIFY2(grouped.notes()
                     .join(QLatin1Char('\n'))
                     .contains(QLatin1String("11 collectives matched in 3 process groups")),
                 qPrintable(grouped.notes().join(QLatin1Char('\n'))));
        QCOMPARE(c.waitsNs.size(), std::size_t(11));
        for (std::size_t k = 0; k < c.waitsNs.size(); ++k) {
            const auto outside = std::count_if(c.waitsNs[k].begin(), c.waitsNs[k].end(),
                                               [](double w) { return std::isnan(w); });
            QCOMPARE(outside, c.collectiveKinds[k] == QLatin1String("AllReduce") ? 4 : 0);
            QCOMPARE(c.collectiveGroups[k], QLatin1String(outside == 0 ? "0 [0, 1, 2, 3, 4, 5, 6, 7]"
                                                          : !std::isnan(c.waitsNs[k][0]) ? "1 [0, 1, 2, 3]"
                                                                                         : "2 [4, 5, 6, 7]"));
        }
        // rank 7 arrived last at 5 of the 8 collectives of all 8 ranks; ranks 0-3 waited for it at the
        // AllReduces, which are now their own half's
        double waitedLess = 0;
        for (int r = 0; r < 8; ++r) {
            QVERIFY(grouped.rows()[r].collectiveWaitNs <= whole.rows()[r].collectiveWaitNs);
            waitedLess += whole.rows()[r].collectiveWaitNs - grouped.rows()[r].collectiveWaitNs;
        }
        QVERIFY2(waitedLess > 1e3, qPrintable(QString::number(waitedLess)));
        // ranks 0-3 never arrived last among all 8; one of them did at each of their half's 3 AllReduces
        double lastOfHalf = 0, lastBefore = 0;
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(grouped.rows()[r].collectives, 8);
            lastOfHalf += grouped.rows()[r].arrivedLastShare * grouped.rows()[r].collectives;
            lastBefore += whole.rows()[r].arrivedLastShare * whole.rows()[r].collectives;
        }
        QCOMPARE(lastBefore, 0.0);
        QVERIFY2(std::abs(lastOfHalf - 3) < 1e-9, qPrintable(QString::number(lastOfHalf)));

        // AllReduce is a kind in each half's group, SendRecv one of all 8: every column against the oracle
        QCOMPARE(compareKinds(grouped, oracle({groups})), 3);
        QCOMPARE(grouped.collectiveKinds()[0].processGroup, QStringLiteral("1 [0, 1, 2, 3]"));
        QCOMPARE(grouped.collectiveKinds()[0].longestOn.front() / 4, 0);
        QCOMPARE(grouped.collectiveKinds()[1].processGroup, QStringLiteral("2 [4, 5, 6, 7]"));
        QCOMPARE(grouped.collectiveKinds()[1].longestOn.front() / 4, 1);

        // ranks 0 and 4 alone: their SendRecvs match, each one's AllReduces have no other rank of their group
        const QString pair = dir.filePath(QStringLiteral("pair"));
        QVERIFY(QDir().mkpath(pair));
        for (const int r : {0, 4})
            QVERIFY(QFile::copy(QDir(groups).filePath(m_files[r]), QDir(pair).filePath(m_files[r])));
        const RankTable two(load(pair), {}, {});
        QCOMPARE(compareRows(two, oracleRows({pair})), 2);
        QCOMPARE(two.collectives().front().matched, 5);
        QCOMPARE(two.collectives().front().alone, 2 * 3);
        QVERIFY2(two.collectives().front().note.contains(QLatin1String(
                     "6 communication kernel(s) of process groups with one rank to match them on")),
                 qPrintable(two.collectives().front().note));

        // rank 2's profile lost its AllReduces: its half's are not matched among ranks 0, 1 and 3 (as if
        // rank 2 were not of their group), since the args list it
        const QString lost = dir.filePath(QStringLiteral("lost"));
        QVERIFY(QDir().mkpath(lost));
        for (int r = 0; r < 8; ++r)
            QVERIFY(r == 2 ? alteredRank(job.filePath(m_files[r]), QDir(lost).filePath(m_files[r]),
                                         QStringLiteral("groups_lost_allreduce"))
                           : QFile::copy(QDir(groups).filePath(m_files[r]), QDir(lost).filePath(m_files[r])));
        const RankTable lostGroup(load(lost), {}, {});
        QCOMPARE(compareRows(lostGroup, oracleRows({lost})), 8);
        QCOMPARE(lostGroup.collectives().front().matched, 5 + 3);
        QCOMPARE(lostGroup.collectives().front().unmatched, 3 * 3);

        // the same figures from the run summaries, which keep each kernel's group
        const QString summaries = dir.filePath(QStringLiteral("summaries")),
                      fromTraces = dir.filePath(QStringLiteral("traces.csv")),
                      fromSummaries = dir.filePath(QStringLiteral("summaries.csv"));
        for (const QStringList &args :
             {QStringList{QStringLiteral("summarize"), groups, QStringLiteral("-o"), summaries},
              QStringList{QStringLiteral("ranks"), groups, QStringLiteral("--csv"), fromTraces},
              QStringList{QStringLiteral("ranks"), summaries, QStringLiteral("--csv"), fromSummaries}}) {
            const ProcessResult result = runProcess(QStringLiteral(SCOPELINE_CLI), args);
            QVERIFY2(result.exitCode == 0, result.err.constData());
        }
        QFile a(fromTraces), b(fromSummaries);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray traceCsv = a.readAll();
        QByteArray summaryCsv = b.readAll();
        QCOMPARE(summaryCsv.replace("summaries", "groups"), traceCsv);
        QCOMPARE(traceCsv, grouped.toCsv().toUtf8());
    }

    // NCCL >= 2.19 names every collective's kernel ncclDevKernel_Generic: the matched collectives (the
    // heatmap's columns) are named by the kind the Per collective table gives them, from the Collective
    // name arg. The MI300 rank file beside a copy of itself as rank 1.
    void matchedCollectivesAreNamedByKind()
    {
        const QString mi300 =
            testdata::path("public/TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz");
        REQUIRE_TEST_DATA(mi300);
        QTemporaryDir dir(testdata::scratchDir());
        const QByteArray text = testdata::gunzip(mi300), rank0 = "\"backend\": \"nccl\", \"rank\": 0,";
        QVERIFY(text.contains(rank0));
        for (int rank : {0, 1}) {
            const QByteArray copy =
                QByteArray(text).replace(rank0, QByteArray(rank0).replace('0', char('0' + rank)));
            QFile f(dir.filePath(QStringLiteral("rank%1.pt.trace.json").arg(rank)));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(copy) == copy.size());
        }
        RankTable::Options options;
        options.stepScope = StepBreakdownOptions::wholeRun();
        const RankTable table(load(dir.path()), {}, options);
        QCOMPARE(table.collectives().size(), std::size_t(1));
        const RunCollectives &run = table.collectives().front();
        QCOMPARE(run.collectiveKinds.size(), run.collectiveNames.size());
        QVERIFY(run.collectiveNames.size() > 10);
        std::set<QString> kinds(run.collectiveKinds.begin(), run.collectiveKinds.end()), inTable;
        for (const CollectiveRow &row : table.collectiveKinds())
            inTable.insert(row.collective);
        QCOMPARE(kinds, inTable); // AllReduce, Broadcast and the five Generic kernels without the arg
        QVERIFY(kinds.count(QStringLiteral("AllReduce")) && kinds.count(QStringLiteral("Broadcast")));
        QVERIFY(std::all_of(run.collectiveNames.begin(), run.collectiveNames.end(), [](const QString &name) {
            return name.startsWith(QLatin1String("ncclDevKernel_Generic"));
        }));
    }

    // The unit follows Replication as steps' does: with 4 processes a side (one GPU each) the mean over
    // ranks is the steps table's step row, tested on the 4 processes, not the 12 runs.
    void processesAreTheUnit()
    {
        const QString a = testdata::path("h100_runs/jax_processes/matmul"),
                      b = testdata::path("h100_runs/jax_processes/einsum");
        REQUIRE_TEST_DATA(a, b);
        const QList<LoadedRun> runsA = load(a), runsB = load(b);
        const StepBreakdown steps(runsA, runsB);
        QVERIFY(steps.byProcess());
        const RankTable ranks(runsA, runsB, {});
        const RankComparisonRow &mean = ranks.comparison().front();
        const StepRow &step = steps.row(StepPart::Step);
        QCOMPARE(mean.unitsA, 4);
        QCOMPARE(mean.unitsA, step.unitsA);
        QCOMPARE(mean.unitsB, step.unitsB);
        QVERIFY(std::fabs(mean.delta - step.delta) <= 1e-9 * std::fabs(step.delta));
        QVERIFY(std::fabs(mean.pRaw - step.pRaw) <= 1e-9 * step.pRaw);
        QCOMPARE(mean.verdict, step.verdict);
    }

    // Runs of a job launched again are processes of their own (its ranks under other pids; the
    // runs' rank files hard links of one job, one set of pids, keep the one-process caveat, as
    // cliAndComparison checks): 2 such runs a side are 2 processes, no caveat, and a B 5 % slower
    // trips the gate, which a caveat would have waived: steps', and ranks' on the mean over ranks
    // (B slower one way, faster the other; untested with one run a side; refused without B).
    void relaunchedJobsAreProcesses()
    {
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(relaunchedJobs(dir.path(), {{1.0, 1.002}, {1.05, 1.052}}));
        const QList<LoadedRun> a = load(dir.filePath(QStringLiteral("A"))),
                               b = load(dir.filePath(QStringLiteral("B")));
        QCOMPARE(a.size(), 16);
        const Replication replication = Replication::of(a, b);
        QVERIFY(replication.byProcess());
        QCOMPARE(replication.processes(0), 2);
        QCOMPARE(replication.runs(1), 2);
        QCOMPARE(replication.units(0),
                 (std::vector<std::vector<int>>{{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}}));
        QCOMPARE(replication.caveat(), QString());
        // each rank's own process, as the report's runs table shows it
        QCOMPARE(Replication::processOf(a[1]), QStringLiteral("pid %1").arg(59812 + 10000));
        const StepBreakdown steps(a, b);
        const StepRow &step = steps.row(StepPart::Step);
        QCOMPARE(step.unitsA, 2);
        QCOMPARE(step.verdict, Verdict::Slower);
        QVERIFY2(!steps.stepLine().contains(Replication::processCaveat()), qPrintable(steps.stepLine()));
        const ProcessResult gate = runProcess(QStringLiteral(SCOPELINE_CLI),
                                              {QStringLiteral("steps"), dir.filePath(QStringLiteral("A")),
                                               dir.filePath(QStringLiteral("B")), QStringLiteral("--fail-on"),
                                               QStringLiteral("slower")});
        QVERIFY2(gate.exitCode == 3, gate.err.constData());

        const QString sideA = dir.filePath(QStringLiteral("A")), sideB = dir.filePath(QStringLiteral("B"));
        const auto ranksGate = [](const QStringList &arguments) {
            return runProcess(QStringLiteral(SCOPELINE_CLI),
                              QStringList{QStringLiteral("ranks")} + arguments);
        };
        const RankTable ranks(a, b, {});
        QCOMPARE(ranks.comparison().front().verdict, Verdict::Slower);
        const ProcessResult slower =
            ranksGate({sideA, sideB, QStringLiteral("--fail-on"), QStringLiteral("slower"),
                       QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(slower.exitCode == 3, slower.err.constData());
        const QJsonArray tripped = QJsonDocument::fromJson(slower.out)
                                       .object()[QStringLiteral("gate")]
                                       .toObject()[QStringLiteral("tripped")]
                                       .toArray();
        QCOMPARE(tripped.size(), 1);
        QCOMPARE(tripped[0][QStringLiteral("name")].toString(),
                 QStringLiteral("step time, mean over ranks (ProfilerStep)"));
        QCOMPARE(tripped[0][QStringLiteral("p")].toDouble(), ranks.comparison().front().p);
        // the pull-request comment: A against B as a table, each rank folded away, the gate's outcome
        const ProcessResult comment =
            ranksGate({sideA, sideB, QStringLiteral("--fail-on"), QStringLiteral("slower"),
                       QStringLiteral("--format"), QStringLiteral("markdown")});
        QVERIFY2(comment.exitCode == 3, comment.err.constData());
        QVERIFY2(
            comment.out.startsWith("### Scopeline ranks\n") &&
                comment.out.contains("\n| mean over ranks | 2 | 2 |") &&
                comment.out.contains("<details><summary>Per rank (32 rows)</summary>") &&
                comment.out.contains(QStringLiteral("<details><summary>Per collective (%1 rows)</summary>")
                                         .arg(ranks.collectiveKinds().size())
                                         .toUtf8()) &&
                comment.out.contains("| Longest on |") && !ranks.collectiveKinds().empty() &&
                comment.out.contains("**Gate `--fail-on slower`**: failed, 1 row B slower") &&
                comment.out.contains("fails: step time, mean over ranks (ProfilerStep): B slower"),
            comment.out.constData());
        // the per-rank table's Side and Run, text, aligned left as the CLI's table aligns them
        QVERIFY2(comment.out.contains("| Side | Run | Rank |") &&
                     comment.out.contains("| :--- | :--- | ---: |"),
                 comment.out.constData());
        const ProcessResult faster =
            ranksGate({sideB, sideA, QStringLiteral("--fail-on"), QStringLiteral("slower")});
        QVERIFY2(faster.exitCode == 0 && faster.err.contains("gate --fail-on slower: passed"),
                 faster.err.constData());
        const ProcessResult change =
            ranksGate({sideB, sideA, QStringLiteral("--fail-on"), QStringLiteral("change")});
        QVERIFY2(change.exitCode == 3 && change.err.contains("fails: step time, mean over ranks"),
                 change.err.constData());
        const ProcessResult oneRun =
            ranksGate({sideA + QStringLiteral("/run_0"), sideB + QStringLiteral("/run_0"),
                       QStringLiteral("--fail-on"), QStringLiteral("slower")});
        QVERIFY2(oneRun.exitCode == 4 && oneRun.err.contains("not judged: step time, mean over ranks"),
                 oneRun.err.constData());
        QCOMPARE(ranksGate({sideA, QStringLiteral("--fail-on"), QStringLiteral("slower")}).exitCode, 1);
    }

    // Sides holding different ranks of jobs of 8 GPUs: A two launches of the whole job, B the same two
    // launches' ranks 4–7 alone (a partial world). Each side's mean over its own ranks had compared
    // other GPUs, and the rank-to-rank spread read as a change; the mean over ranks, the slowest rank and
    // the step time are now of ranks 4–7 on both sides, the same files: no change, said in a note. A lone
    // rank file keeps its rank, and is compared with that rank of the whole job.
    void differentRanksCompareTheRanksBothHold()
    {
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(relaunchedJobs(dir.path(), {{1.0, 1.03}, {1.0, 1.03}}));
        const QString sideA = dir.filePath(QStringLiteral("A")), sideB = dir.filePath(QStringLiteral("B"));
        for (int run = 0; run < 2; ++run)
            for (int rank = 0; rank < 4; ++rank)
                QVERIFY(QFile::remove(QStringLiteral("%1/run_%2/%3").arg(sideB).arg(run).arg(m_files[rank])));
        const QList<LoadedRun> a = load(sideA), b = load(sideB);
        QCOMPARE(b.size(), 8);
        const RankTable ranks(a, b, {});
        // the mean over ranks 4–7 of each run of A, from its rank rows, then over the runs
        double mean = 0, slowest = 0;
        for (int run = 0; run < 2; ++run) {
            double sum = 0, most = 0;
            for (const RankRow &row : ranks.rows())
                if (row.side == 0 && row.rank >= 4 && row.run == QStringLiteral("run_%1").arg(run)) {
                    sum += row.stepNs;
                    most = std::max(most, row.stepNs);
                }
            mean += sum / 4 / 2;
            slowest += most / 2;
        }
        const RankComparisonRow &meanRow = ranks.comparison()[0], &slowestRow = ranks.comparison()[1];
        QCOMPARE(meanRow.what, QStringLiteral("mean over ranks"));
        for (const RankComparisonRow *row : {&meanRow, &slowestRow}) {
            const double expected = row == &meanRow ? mean : slowest;
            QVERIFY2(std::fabs(row->meanA - expected) <= 1e-9 * expected && row->meanB == row->meanA,
                     qPrintable(QStringLiteral("%1: %2 against %3, oracle %4")
                                    .arg(row->what)
                                    .arg(row->meanA)
                                    .arg(row->meanB)
                                    .arg(expected)));
            QCOMPARE(row->verdict, Verdict::NoSignificantChange);
        }
        const QString compared = QStringLiteral("A's runs hold ranks 0–7, B's ranks 4–7, of jobs of 8 GPUs: "
                                                "compared on ranks 4–7");
        QVERIFY2(ranks.notes().join(QLatin1Char('\n')).contains(compared),
                 qPrintable(ranks.notes().join(u'\n')));
        QVERIFY2(!ranks.caveat().contains(QLatin1String("different sets")), qPrintable(ranks.caveat()));
        // the kinds of collective of those ranks too: each of A's rows is B's (A's AllReduce over all 8
        // ranks had read 387.5 µs against B's 95.5 µs, the same GPUs' kernels)
        std::map<QString, const CollectiveRow *> kindsOfB;
        for (const CollectiveRow &row : ranks.collectiveKinds())
            if (row.side == 1)
                kindsOfB[row.collective + row.processGroup] = &row;
        int kindsCompared = 0;
        for (const CollectiveRow &row : ranks.collectiveKinds()) {
            if (row.side != 0)
                continue;
            const CollectiveRow *inB = kindsOfB[row.collective + row.processGroup];
            QVERIFY2(inB, qPrintable(row.collective));
            QCOMPARE(row.medianNs, inB->medianNs);
            QCOMPARE(row.perStep, inB->perStep);
            QCOMPARE(row.rankMedianMinNs, inB->rankMedianMinNs);
            QCOMPARE(row.rankMedianMaxNs, inB->rankMedianMaxNs);
            QCOMPARE(row.longestOn, inB->longestOn);
            ++kindsCompared;
        }
        QCOMPARE(kindsCompared, 2); // AllReduce and SendRecv
        const StepBreakdown steps(a, b);
        QCOMPARE(steps.row(StepPart::Step).delta, 0.0);
        QVERIFY2(std::fabs(steps.row(StepPart::Step).meanA - mean) <= 1e-9 * mean,
                 qPrintable(steps.stepLine()));
        QVERIFY2(steps.note().contains(compared), qPrintable(steps.note()));
        const ProcessResult gate =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("ranks"), sideA, sideB, QStringLiteral("--fail-on"),
                        QStringLiteral("change"), QStringLiteral("--strict")});
        QVERIFY2(gate.exitCode == 0 && gate.out.contains(compared.toUtf8()), gate.out.constData());
        // diff and steps say it before their figures, in every output
        for (const char *command : {"diff", "steps"})
            for (const char *format : {"text", "markdown", "json"}) {
                const ProcessResult said = runProcess(QStringLiteral(SCOPELINE_CLI),
                                                      {QLatin1String(command), sideA, sideB,
                                                       QStringLiteral("--format"), QLatin1String(format)});
                const QString text = QString::fromUtf8(said.out);
                const qsizetype at = text.indexOf(compared);
                QVERIFY2(said.exitCode == 0 && at >= 0, qPrintable(command + (u' ' + text)));
                if (QLatin1String(format) != QLatin1String("json"))
                    QVERIFY2(at < text.indexOf(QLatin1String("Step time")) ||
                                 at < text.indexOf(QLatin1String("Kernel")),
                             qPrintable(command + (u' ' + text)));
            }
        // a lone rank file: its rank, compared with that rank of the whole job
        const QString lone = QDir(testdata::dlrmRun()).filePath(m_files[3]);
        const QList<LoadedRun> oneRank = load(lone), job = load(testdata::dlrmRun());
        QCOMPARE(oneRank.size(), 1);
        QCOMPARE(oneRank.front().run.rank, 3);
        QCOMPARE(oneRank.front().run.worldSize, 8);
        const RankTable lonely(oneRank, job, {});
        const auto row = [&lonely](const QString &what) {
            return *std::find_if(lonely.comparison().begin(), lonely.comparison().end(),
                                 [&what](const RankComparisonRow &r) { return r.what == what; });
        };
        QCOMPARE(row(QStringLiteral("rank 3")).unitsA, 1);
        QCOMPARE(row(QStringLiteral("rank 3")).meanA, row(QStringLiteral("rank 3")).meanB);
        QCOMPARE(row(QStringLiteral("mean over ranks")).delta, 0.0);
        QCOMPARE(StepBreakdown(oneRank, job).row(StepPart::Step).delta, 0.0);
        // the Ranks tab says what a lone rank is (it had been left blank): alone, and what its profile
        // lost, rank 3's launch calls; a run of the whole job has none of it
        const RankTable alone(oneRank, {}, {});
        const RankRow &rank3 = alone.rows().front();
        const QString said = alone.aloneNote(0, rank3.run);
        QVERIFY2(said.startsWith(QLatin1String("Rank 3 of a job of 8 GPUs, alone here: no other rank to wait "
                                               "for at its collectives")),
                 qPrintable(said));
        QVERIFY(rank3.unlaunchedNs > 0);
        QVERIFY2(
            said.contains(QStringLiteral("(a mean of %1 of GPU time a step): the profiler lost their calls")
                              .arg(formatDuration(rank3.unlaunchedNs))),
            qPrintable(said));
        const RankTable whole(job, {}, {});
        QVERIFY(whole.aloneNote(0, whole.rows().front().run).isEmpty());
        // two lone ranks of one job, no GPU in common: each side whole, with the caveat
        const QList<LoadedRun> otherRank = load(QDir(testdata::dlrmRun()).filePath(m_files[4]));
        QVERIFY(ComparedRanks::of(oneRank, otherRank).all);
        const ProcessResult info = runProcess(QStringLiteral(SCOPELINE_CLI),
                                              {QStringLiteral("info"), QStringLiteral("--json"), lone});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        const QJsonObject run = QJsonDocument::fromJson(info.out).object(); // one trace: its object
        QCOMPARE(run[QStringLiteral("rank")].toInt(-1), 3);
        QCOMPARE(run[QStringLiteral("world_size")].toInt(-1), 8);
    }

    // ranks A B C: each candidate against the baseline, judged together. Three launches of the DLRM
    // job, two runs (processes) each: B 5 % slower, C as A. The means over ranks are the steps' step
    // rows as VariantSteps judges them (one Holm family over the candidates, each interval at its
    // level); the gate trips on B alone; the CLI's tables carry a variant column.
    void variantsJudgedTogether()
    {
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(relaunchedJobs(dir.path(), {{1.0, 1.002}, {1.05, 1.052}, {1.001, 1.003}}));
        const QString paths[3] = {dir.filePath(QStringLiteral("A")), dir.filePath(QStringLiteral("B")),
                                  dir.filePath(QStringLiteral("C"))};
        const QList<LoadedRun> a = load(paths[0]), b = load(paths[1]), c = load(paths[2]);
        const QStringList labels{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")};
        const VariantRanks ranks(a, {b, c}, labels);
        const VariantSteps steps(a, {b, c}, labels.mid(1));
        QCOMPARE(ranks.tables().size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i) {
            const RankComparisonRow &mean = ranks.tables()[i].comparison().front();
            const StepRow &step = steps.comparisons()[i].row(StepPart::Step);
            QCOMPARE(mean.unitsA, 2);
            QVERIFY(std::fabs(mean.p - step.p) <= 1e-9 * step.p);
            QCOMPARE(mean.verdict, step.verdict);
            QVERIFY(std::fabs(mean.ciLevel - step.ciLevel) <= 1e-12);
            QVERIFY(std::fabs(mean.ciLow - step.ciLow) <= 1e-6 * std::fabs(step.ciLow));
        }
        QCOMPARE(ranks.tables()[0].comparison().front().verdict, Verdict::Slower);
        QCOMPARE(ranks.tables()[1].comparison().front().verdict, Verdict::NoSignificantChange);
        // judged together: B's mean at a Holm level below alpha, where alone it is at alpha
        QVERIFY(ranks.tables()[0].comparison().front().ciLevel > 0.95 + 1e-9);
        QVERIFY(std::fabs(RankTable(a, b, {}).comparison().front().ciLevel - 0.95) < 1e-12);
        // the per-rank rows: the baseline's ranks once, then each candidate's, named by variant
        const std::vector<VariantRankRow> rows = ranks.rows();
        QCOMPARE(rows.size(), std::size_t(3 * 16));
        QCOMPARE(rows.front().variant, QStringLiteral("A"));
        QCOMPARE(rows[16].variant, QStringLiteral("B"));
        QCOMPARE(rows.back().variant, QStringLiteral("C"));
        QVERIFY(ranks.notes().front().startsWith(QLatin1String("A run_0: 8 ranks")));

        const QString csv = dir.filePath(QStringLiteral("comparison.csv"));
        const ProcessResult cli =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("ranks"), paths[0], paths[1], paths[2], QStringLiteral("--fail-on"),
                        QStringLiteral("slower"), QStringLiteral("--comparison-csv"), csv,
                        QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(cli.exitCode == 3, cli.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(cli.out).object();
        const QJsonArray tripped = root[QStringLiteral("gate")][QStringLiteral("tripped")].toArray();
        QCOMPARE(tripped.size(), 1);
        QCOMPARE(tripped[0][QStringLiteral("name")].toString(),
                 QStringLiteral("B: step time, mean over ranks (ProfilerStep)"));
        QCOMPARE(root[QStringLiteral("comparison")].toArray().size(), 2 * 10);
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 1 + 2 * 10);
        QVERIFY2(lines[0].startsWith(QLatin1String("variant,what,")), qPrintable(lines[0]));
        QVERIFY2(lines[11].startsWith(QLatin1String("C,mean over ranks,2,2,")), qPrintable(lines[11]));
        // the report: the pair's ranks judged with every candidate, and the candidates' table as the CLI's
        const QString report = dir.filePath(QStringLiteral("report"));
        const ProcessResult written =
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("report"), paths[0], paths[1], paths[2],
                                                       QStringLiteral("--out"), report});
        QVERIFY2(written.exitCode == 0, written.err.constData());
        const auto read = [](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
        };
        QCOMPARE(read(QDir(report).filePath(QStringLiteral("variants_ranks_comparison.csv"))),
                 lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
        QCOMPARE(read(QDir(report).filePath(QStringLiteral("ranks_comparison.csv"))),
                 ranks.tables().front().comparisonCsv());
        QVERIFY(read(QDir(report).filePath(QStringLiteral("index.html")))
                    .contains(QLatin1String("Ranks across the variants")));
    }

    // ranks A B: the CSV header as documented, the rows of both sides, A against B on runs.
    void cliAndComparison()
    {
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(testdata::rankRuns(dir.filePath(QStringLiteral("A")), 2) &&
                testdata::rankRuns(dir.filePath(QStringLiteral("B")), 2));
        const QString csv = dir.filePath(QStringLiteral("ranks.csv"));
        const ProcessResult result = runProcess(
            QStringLiteral(SCOPELINE_CLI), {QStringLiteral("ranks"), dir.filePath(QStringLiteral("A")),
                                            dir.filePath(QStringLiteral("B")), QStringLiteral("--csv"), csv});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.front(),
                 QStringLiteral("side,run,rank,steps,step_ns,busy_ns,compute_ns,exposed_comm_ns,"
                                "overlapped_comm_ns,idle_ns,comm_kernels,collective_wait_ns,"
                                "arrived_last_share"));
        QCOMPARE(lines.size(), 1 + 32);
        const RankTable table(load(dir.filePath(QStringLiteral("A"))),
                              load(dir.filePath(QStringLiteral("B"))), {});
        QCOMPARE(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'), table.toCsv());
        // --format json: every table, the notes
        const ProcessResult json = runProcess(QStringLiteral(SCOPELINE_CLI),
                                              {QStringLiteral("ranks"), dir.filePath(QStringLiteral("A")),
                                               dir.filePath(QStringLiteral("B")), QStringLiteral("--format"),
                                               QStringLiteral("json")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(root[QStringLiteral("rows")].toArray().size(), 32);
        QCOMPARE(root[QStringLiteral("rows")].toArray()[5].toObject()[QStringLiteral("step_ns")].toDouble(),
                 table.rows()[5].stepNs);
        QCOMPARE(root[QStringLiteral("comparison")].toArray().size(), qsizetype(table.comparison().size()));
        QCOMPARE(root[QStringLiteral("collectives")].toArray().size(),
                 qsizetype(table.collectiveKinds().size()));
        // ranks that tie for the longest are each named, as the table names them
        bool tie = false;
        for (std::size_t k = 0; k < table.collectiveKinds().size(); ++k) {
            const QJsonValue slowest = root[QStringLiteral("collectives")]
                                           .toArray()[qsizetype(k)]
                                           .toObject()[QStringLiteral("longest_on")];
            const std::vector<int> &longestOn = table.collectiveKinds()[k].longestOn;
            QVERIFY(!longestOn.empty());
            tie = tie || longestOn.size() > 1;
            QCOMPARE(slowest.toString().split(QStringLiteral(", ")).size(), qsizetype(longestOn.size()));
            QCOMPARE(slowest.toString().split(QStringLiteral(", ")).front().toInt(), longestOn.front());
        }
        QVERIFY(tie);
        QCOMPARE(root[QStringLiteral("notes")].toArray().size(), table.notes().size());
        // 2 runs a side, all of one process: what A against B does not measure, as steps says it
        const StepBreakdown steps(load(dir.filePath(QStringLiteral("A"))),
                                  load(dir.filePath(QStringLiteral("B"))));
        QVERIFY(!steps.byProcess() && steps.row(StepPart::Step).unitsA == 2);
        QVERIFY2(steps.stepLine().contains(Replication::processCaveat()), qPrintable(steps.stepLine()));
        QCOMPARE(table.caveat(), Replication::processCaveat());
        QCOMPARE(root[QStringLiteral("caveat")].toString(), table.caveat());
        // said once: beside A against B, not again among the notes
        QVERIFY(!root[QStringLiteral("notes")].toArray().contains(QJsonValue(table.caveat())));
        QCOMPARE(result.out.count(table.caveat().toUtf8()), 1);
        QVERIFY2(result.out.contains("\ncaveat: " + table.caveat().toUtf8() + "\n"), result.out.constData());
        // the oracle's rows for both sides, in the CLI's order
        const QJsonArray expected =
            oracleRows({dir.filePath(QStringLiteral("A")), dir.filePath(QStringLiteral("B"))});
        QCOMPARE(expected.size(), 32);
        for (qsizetype r = 0; r < expected.size(); ++r) {
            const QStringList cells = lines[r + 1].split(QLatin1Char(','));
            const QJsonObject o = expected[r].toObject();
            QCOMPARE(cells[0], o[QStringLiteral("side")].toString());
            QCOMPARE(cells[1], o[QStringLiteral("run")].toString());
            QCOMPARE(cells[2].toInt(), o[QStringLiteral("rank")].toInt());
            QCOMPARE(cells[4].toDouble(), o[QStringLiteral("step_ns")].toDouble());
        }
        // A/A with identical runs: every row a tie, none a finding; the slowest rank is rank 1's
        const std::vector<RankComparisonRow> &rows = table.comparison();
        QCOMPARE(rows.size(), std::size_t(2 + 8));
        QCOMPARE(rows[0].what, QStringLiteral("mean over ranks"));
        QCOMPARE(rows[1].meanA, table.rows()[1].stepNs);
        for (const RankComparisonRow &row : rows) {
            QCOMPARE(row.unitsA, 2);
            QCOMPARE(row.verdict, Verdict::NoSignificantChange);
            QCOMPARE(row.delta, 0.0);
        }
        QVERIFY(QString::fromUtf8(result.out).contains(QLatin1String("slowest rank")));
        // summaries of the ranks (rank_<N>_of_8 in a folder per run) give the same bytes
        const QString summaries = dir.filePath(QStringLiteral("summaries"));
        const ProcessResult summarize = runProcess(
            QStringLiteral(SCOPELINE_CLI), {QStringLiteral("summarize"), dir.filePath(QStringLiteral("A")),
                                            QStringLiteral("-o"), summaries});
        QVERIFY2(summarize.exitCode == 0, summarize.err.constData());
        QVERIFY(QFileInfo::exists(QDir(summaries).filePath(QStringLiteral("run_1/rank_7_of_8.slsum"))));
        const QString fromSummaries = dir.filePath(QStringLiteral("summaries.csv"));
        QCOMPARE(runProcess(QStringLiteral(SCOPELINE_CLI),
                            {QStringLiteral("ranks"), summaries, dir.filePath(QStringLiteral("B")),
                             QStringLiteral("--csv"), fromSummaries})
                     .exitCode,
                 0);
        QFile summaryCsv(fromSummaries);
        QVERIFY(summaryCsv.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(summaryCsv.readAll()), table.toCsv());
        // the report carries the ranks: ranks.csv and a section of the page
        const QString report = dir.filePath(QStringLiteral("report"));
        const ProcessResult written =
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("report"), dir.filePath(QStringLiteral("A")),
                                                       dir.filePath(QStringLiteral("B")), QStringLiteral("--out"), report});
        QVERIFY2(written.exitCode == 0, written.err.constData());
        QFile page(QDir(report).filePath(QStringLiteral("index.html")));
        QVERIFY(page.open(QIODevice::ReadOnly));
        const QByteArray html = page.readAll();
        // a rank's process is its GPU's, never "unknown"
        for (int rank = 0; rank < 8; ++rank)
            QCOMPARE(html.count(QStringLiteral("<td>pid %1</td>").arg(59811 + rank).toUtf8()), 4);
        QVERIFY(!html.contains("<td>unknown</td>"));
        QFile reportCsv(QDir(report).filePath(QStringLiteral("ranks.csv")));
        QVERIFY(reportCsv.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(reportCsv.readAll()), table.toCsv());
        // A against B and the collectives as CSV too, from the CLI and in the report, the JSON's rows
        const QString comparisonCsv = dir.filePath(QStringLiteral("comparison.csv")),
                      collectivesCsv = dir.filePath(QStringLiteral("collectives.csv"));
        const ProcessResult tables =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("ranks"), dir.filePath(QStringLiteral("A")),
                        dir.filePath(QStringLiteral("B")), QStringLiteral("--comparison-csv"), comparisonCsv,
                        QStringLiteral("--collectives-csv"), collectivesCsv});
        QVERIFY2(tables.exitCode == 0, tables.err.constData());
        const auto csvLines = [](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly)
                       ? QString::fromUtf8(f.readAll()).trimmed().split(QLatin1Char('\n'))
                       : QStringList();
        };
        const QStringList comparison = csvLines(comparisonCsv), collectives = csvLines(collectivesCsv);
        const QJsonArray comparisonJson = root[QStringLiteral("comparison")].toArray(),
                         collectivesJson = root[QStringLiteral("collectives")].toArray();
        QCOMPARE(comparison.size(), 1 + comparisonJson.size());
        QCOMPARE(collectives.size(), 1 + collectivesJson.size());
        QVERIFY(collectivesJson.size() > 0);
        // each row says how many units it was tested on (the runs of a side of one process)
        const QStringList header = comparison[0].split(QLatin1Char(','));
        const qsizetype meanA = header.indexOf(QStringLiteral("mean_a_ns")),
                        nA = header.indexOf(QStringLiteral("n_a")),
                        nB = header.indexOf(QStringLiteral("n_b"));
        QVERIFY(meanA > 0 && nA > 0 && nB > 0);
        for (qsizetype r = 0; r < comparisonJson.size(); ++r) {
            const QStringList cells = comparison[r + 1].split(QLatin1Char(','));
            const QJsonObject row = comparisonJson[r].toObject();
            QCOMPARE(cells[0], row[QStringLiteral("what")].toString());
            QCOMPARE(cells[meanA].toDouble(), row[QStringLiteral("mean_a_ns")].toDouble());
            QCOMPARE(cells[nA].toInt(), table.comparison()[std::size_t(r)].unitsA);
            QCOMPARE(cells[nB].toInt(), table.comparison()[std::size_t(r)].unitsB);
            QCOMPARE(row[QStringLiteral("n_a")].toInt(), 2);
        }
        const qsizetype median =
            collectives.front().split(QLatin1Char(',')).indexOf(QStringLiteral("median_ns"));
        QVERIFY(median > 0);
        for (qsizetype r = 0; r < collectivesJson.size(); ++r) {
            const QStringList cells = collectives[r + 1].split(QLatin1Char(','));
            QCOMPARE(cells[1], collectivesJson[r].toObject()[QStringLiteral("collective")].toString());
            QCOMPARE(cells[median].toDouble(),
                     collectivesJson[r].toObject()[QStringLiteral("median_ns")].toDouble());
        }
        QCOMPARE(csvLines(QDir(report).filePath(QStringLiteral("ranks_comparison.csv"))), comparison);
        QCOMPARE(csvLines(QDir(report).filePath(QStringLiteral("ranks_collectives.csv"))), collectives);
        QVERIFY(html.contains("arrived last most often (the others wait for it): rank 7"));
        // one side alone: no comparison
        QCOMPARE(runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("ranks"), testdata::dlrmRun()})
                     .exitCode,
                 0);
    }
};

QTEST_GUILESS_MAIN(TstRanks)
#include "tst_ranks.moc"
