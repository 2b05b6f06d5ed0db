// SPDX-License-Identifier: GPL-3.0-or-later
// Run summaries: on the repository's real traces, every figure of the kernel diff, the step breakdown
// and the scope comparison (every CSV field) from summaries, in memory and read back from the files
// `summarize` writes, equals the figure from the traces; damaged summary files give an error naming
// the file, never a crash.

#include "testdata.h"
#include "testprocess.h"

#include "model/analysis/runsummaryfile.h"
#include "model/comparison/kerneldiff.h"
#include "model/comparison/pooledruns.h"
#include "model/comparison/replication.h"
#include "model/comparison/scopecomparison.h"
#include "model/comparison/stepbreakdown.h"
#include "model/loading/pairloader.h"
#include "model/loading/tracefolder.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace scopeline;

namespace {

struct Pair
{
    const char *name;
    QString a, b; // side paths (wildcards allowed)
};

std::vector<Pair> pairs()
{
    const QString data = QStringLiteral(SCOPELINE_TEST_DATA "/");
    const QString samples = QStringLiteral(SCOPELINE_SAMPLES "/");
    return {
        {"jax_named_scopes", data + "jax_h100/jax_named_scopes/trace_file_einsum_*",
         data + "jax_h100/jax_named_scopes/trace_file_matmul_*"},
        {"jax_command_buffers", data + "jax_h100/jax_command_buffers/trace_file_einsum_*",
         data + "jax_h100/jax_command_buffers/trace_file_matmul_*"},
        {"jax_processes", data + "h100_runs/jax_processes/einsum", data + "h100_runs/jax_processes/matmul"},
        {"torch_processes", data + "h100_runs/torch_processes/proc_[01]",
         data + "h100_runs/torch_processes/proc_[23]"},
        {"torch_compile", data + "h100_runs/torch_compile/eager", data + "h100_runs/torch_compile/reduce_overhead"},
        {"sample_launch_chain", samples + "hipbench_launch_chain/eager", samples + "hipbench_launch_chain/graph"},
        {"sample_jax", samples + "jax_matmul_vs_einsum/matmul", samples + "jax_matmul_vs_einsum/einsum"},
    };
}

QList<LoadedRun> loadSide(const QString &path, LoadedRun::Events events)
{
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(path, &error);
    if (runs.empty())
        qFatal("%s", qPrintable(error));
    QList<LoadedRun> loaded = LoadedRun::loadAll(runs, nullptr, LoadedRun::Scopes::Index, events);
    for (const LoadedRun &run : loaded)
        if (!run.ok())
            qFatal("%s", qPrintable(run.error));
    return loaded;
}

// Every figure the statistics give for the two sides, as text: the tables' CSVs and header lines.
QString results(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    QString text;
    for (const QList<LoadedRun> *side : {&a, &b})
        for (const LoadedRun &run : *side)
            text += run.run.name + QLatin1Char(' ') + Replication::processOf(run) + QLatin1Char('\n');
    for (const KernelDiffOptions &base : {KernelDiffOptions{}, KernelDiffOptions{true, false},
                                          KernelDiffOptions{false, true}}) {
        const KernelDiff diff(a, b, base);
        text += diff.headerText() + QLatin1Char('\n') + diff.toCsv();
    }
    // The detected step scope, the whole run, and every scope of the first run as a step scope.
    QStringList stepScopes{QString(), StepBreakdownOptions::wholeRun()};
    std::set<QString> names;
    for (const QList<LoadedRun> *side : {&a, &b})
        for (const LoadedRun &run : *side)
            for (const ScopeIndex::Scope &scope : run.scopes->scopes())
                names.insert(scope.name);
    for (const QString &name : names)
        stepScopes << name;
    for (const QString &scope : stepScopes) {
        StepBreakdownOptions options;
        options.stepScope = scope;
        const StepBreakdown steps(a, b, options);
        text += steps.stepLine() + QLatin1Char('\n') + steps.toCsv();
        for (const QList<LoadedRun> *runs : {&a, &b})
            for (const LoadedRun &run : *runs) {
                std::vector<StepGap> gaps;
                const RunSteps found = findRunSteps(*run.summary, steps.stepScope(), nullptr, &gaps);
                text += QStringLiteral("%1 %2 steps %3 gaps\n").arg(run.run.label()).arg(found.steps.size()).arg(gaps.size());
            }
    }
    const Replication replication = Replication::of(a, b);
    ScopeComparison comparison(scopeIndexes(a), scopeIndexes(b));
    comparison.setReplication(&replication);
    const QStringList scopes(names.begin(), names.end());
    for (SampleMode samples : {SampleMode::Kernel, SampleMode::Instance, SampleMode::Span})
        for (MatchMode match : {MatchMode::Component, MatchMode::Substring})
            text += ScopeComparison::toCsv(comparison.compare(scopes, match, samples));
    for (const QList<LoadedRun> *side : {&a, &b}) {
        const PooledRuns pooled = PooledRuns::of(*side);
        text += QStringLiteral("pooled %1 %2 %3 %4 %5 %6 %7\n")
                    .arg(pooled.runs)
                    .arg(pooled.busyNs)
                    .arg(pooled.spanNs)
                    .arg(pooled.kernels)
                    .arg(pooled.kernelLaunches)
                    .arg(pooled.graphLaunches)
                    .arg(pooled.medianLaunchDelayNs, 0, 'g', 17);
    }
    return text;
}

// Writes each run's summary as `summarize` does: DIR/<run name>.slsum.
void writeSummaries(const QList<LoadedRun> &runs, const QString &dir)
{
    for (const LoadedRun &run : runs) {
        const QString file = QDir(dir).filePath(run.run.name + RunSummaryFile::suffix());
        QVERIFY(QDir().mkpath(QFileInfo(file).absolutePath()));
        QCOMPARE(RunSummaryFile::write(*run.summary, file), QString());
    }
}

// The first difference of two texts, for a readable failure.
QByteArray firstDifference(const QString &x, const QString &y)
{
    const QStringList a = x.split(QLatin1Char('\n')), b = y.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i)
        if (a.value(i) != b.value(i))
            return QStringLiteral("line %1:\n  traces:    %2\n  summaries: %3").arg(i + 1).arg(a.value(i), b.value(i)).toUtf8();
    return {};
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

} // namespace

class TstRunSummary : public QObject
{
    Q_OBJECT
private slots:
    void summariesEqualTraces_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        for (const Pair &pair : pairs())
            QTest::newRow(pair.name) << pair.a << pair.b;
    }

    void summariesEqualTraces()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        const QList<LoadedRun> traceA = loadSide(a, LoadedRun::Events::Keep);
        const QList<LoadedRun> traceB = loadSide(b, LoadedRun::Events::Keep);
        for (const LoadedRun &run : traceA + traceB)
            QVERIFY(run.hasEvents() && run.summary);
        const QString expected = results(traceA, traceB);

        // In memory: the events dropped once summarised.
        const QList<LoadedRun> dropA = loadSide(a, LoadedRun::Events::Drop);
        const QList<LoadedRun> dropB = loadSide(b, LoadedRun::Events::Drop);
        for (const LoadedRun &run : dropA + dropB)
            QVERIFY(!run.trace && !run.analysis && run.summary && run.scopes);
        const QString inMemory = results(dropA, dropB);
        QVERIFY2(inMemory == expected, firstDifference(expected, inMemory).constData());

        // Written and read back from a folder scan, as `summarize` and then `diff DIR_A DIR_B` do.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeSummaries(dropA, dir.filePath(QStringLiteral("a")));
        writeSummaries(dropB, dir.filePath(QStringLiteral("b")));
        const QList<LoadedRun> fileA = loadSide(dir.filePath(QStringLiteral("a")), LoadedRun::Events::Drop);
        const QList<LoadedRun> fileB = loadSide(dir.filePath(QStringLiteral("b")), LoadedRun::Events::Drop);
        QCOMPARE(fileA.size(), traceA.size());
        QCOMPARE(fileB.size(), traceB.size());
        const QString fromFiles = results(fileA, fileB);
        QVERIFY2(fromFiles == expected, firstDifference(expected, fromFiles).constData());
    }

    // A communication kernel's process group, as its args name it, on the real traces that carry them
    // (PyTorch 2.x NCCL on A100, RCCL on MI300): per group, its kernels against a count of the raw
    // events; read back the same from a summary file.
    void processGroupsFromArgs_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::newRow("HTA NCCL") << testdata::path(
            "public/HolisticTraceAnalysis/tests__data__nccl_parser_config__nccl_data.json.gz");
        QTest::newRow("TraceLens RCCL")
            << testdata::path("public/TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz");
    }

    void processGroupsFromArgs()
    {
        QFETCH(QString, trace);
        REQUIRE_TEST_DATA(trace);
        const ProcessResult count = runProcess(
            QStringLiteral(SCOPELINE_PYTHON),
            {QStringLiteral("-c"),
             QStringLiteral("import collections, gzip, json, sys\n"
                            "c = collections.Counter()\n"
                            "for e in json.load(gzip.open(sys.argv[1]))['traceEvents']:\n"
                            "    a = e.get('args') or {}\n"
                            "    if e.get('cat') == 'kernel' and 'Process Group Name' in a:\n"
                            "        c[a['Process Group Name'] + ' ' + a['Process Group Ranks']] += 1\n"
                            "print(json.dumps(c))"),
             trace});
        QVERIFY2(count.exitCode == 0, count.err.constData());
        const QJsonObject expected = QJsonDocument::fromJson(count.out).object();
        QVERIFY(!expected.isEmpty());

        const QList<LoadedRun> runs = loadSide(trace, LoadedRun::Events::Drop);
        QTemporaryDir dir;
        writeSummaries(runs, dir.filePath(QStringLiteral("s")));
        const QList<LoadedRun> fromFile =
            loadSide(dir.filePath(QStringLiteral("s")), LoadedRun::Events::Drop);
        for (const QList<LoadedRun> &side : {runs, fromFile}) {
            QCOMPARE(side.size(), 1);
            const RunSummary &summary = *side.front().summary;
            QJsonObject groups;
            for (const RunSummary::Message &m : summary.messages()) {
                QVERIFY(summary.kernels()[m.kernel].communication());
                if (m.group == 0)
                    continue;
                const QString group = QString::fromStdString(std::string(summary.strings().view(m.group)));
                groups[group] = groups[group].toInt() + 1;
            }
            QCOMPARE(groups, expected);
        }
    }

    // scopeline-cli: `summarize` per side, then diff, steps and compare on the summaries print and
    // write what they do on the traces.
    void cliSummarizeRoundTrip()
    {
        const QString cli = QStringLiteral(SCOPELINE_CLI);
        const QString a = testdata::path("h100_runs/torch_processes");
        const QString b = testdata::path("h100_runs/torch_compile/eager");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString sa = dir.filePath(QStringLiteral("sa")), sb = dir.filePath(QStringLiteral("sb"));
        for (const auto &[side, out] : {std::pair{a, sa}, std::pair{b, sb}}) {
            const ProcessResult r = runProcess(cli, {QStringLiteral("summarize"), side, QStringLiteral("-o"), out});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY(r.out.contains(".slsum"));
        }
        QVERIFY(QFileInfo::exists(sa + QStringLiteral("/proc_0/run_0.slsum")));
        const QStringList commands[] = {
            {QStringLiteral("diff")},
            {QStringLiteral("diff"), QStringLiteral("--by"), QStringLiteral("op")},
            {QStringLiteral("steps")},
            {QStringLiteral("steps"), QStringLiteral("--step"), QStringLiteral("whole-run")},
            {QStringLiteral("compare"), QStringLiteral("--scope"), QStringLiteral("ProfilerStep")},
        };
        int i = 0;
        for (const QStringList &command : commands) {
            const QString csvT = dir.filePath(QStringLiteral("t%1.csv").arg(i));
            const QString csvS = dir.filePath(QStringLiteral("s%1.csv").arg(i++));
            const ProcessResult t = runProcess(cli, command + QStringList{a, b, QStringLiteral("--csv"), csvT});
            const ProcessResult s = runProcess(cli, command + QStringList{sa, sb, QStringLiteral("--csv"), csvS});
            QVERIFY2(t.exitCode == 0, t.err.constData());
            QCOMPARE(s.exitCode, t.exitCode);
            QVERIFY(!readAll(csvT).isEmpty());
            QCOMPARE(readAll(csvS), readAll(csvT));
            // The printed table names the sides by their paths; the rest is the same.
            QString textT = QString::fromUtf8(t.out), textS = QString::fromUtf8(s.out);
            textT.replace(a, QStringLiteral("A")).replace(b, QStringLiteral("B"));
            textS.replace(sa, QStringLiteral("A")).replace(sb, QStringLiteral("B"));
            QCOMPARE(textS, textT);
        }
        // A side summarised again into a folder that holds a summary of an earlier call (a run since
        // removed): it would still be read with the side. One run a call (a batch array) is not warned of.
        QVERIFY(QFile::copy(sa + QStringLiteral("/proc_0/run_0.slsum"), sb + QStringLiteral("/run_9.slsum")));
        for (const QString &side : {b, b + QStringLiteral("/run_1")}) {
            const ProcessResult again =
                runProcess(cli, {QStringLiteral("summarize"), side, QStringLiteral("-o"), sb});
            QVERIFY2(again.exitCode == 0, again.err.constData());
            QCOMPARE(again.err.contains(
                         QStringLiteral(
                             "warning: %1 also holds 1 summary this call did not write (%1/run_9.slsum)")
                             .arg(sb)
                             .toUtf8()),
                     side == b);
        }
        // info describes events, which a summary does not hold: said, not a crash.
        const ProcessResult info = runProcess(cli, {QStringLiteral("info"), sa + QStringLiteral("/proc_0/run_0.slsum")});
        QCOMPARE(info.exitCode, 2);
        QVERIFY(info.err.contains("run_0.slsum"));
    }

    // One job per run folder (a batch array) names each summary as one call on the side does, and two
    // runs that would share a summary's name are refused, naming both traces.
    void summarizeRunFolderNames()
    {
        const QString cli = QStringLiteral(SCOPELINE_CLI);
        const QString side = testdata::path("h100_runs/torch_processes");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString whole = dir.filePath(QStringLiteral("whole")), each = dir.filePath(QStringLiteral("each"));
        ProcessResult r = runProcess(cli, {QStringLiteral("summarize"), side, QStringLiteral("-o"), whole});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList runFolders = QDir(side).entryList({QStringLiteral("proc_*")}, QDir::Dirs, QDir::Name);
        QVERIFY(runFolders.size() >= 2);
        for (const QString &proc : runFolders)
            for (const QString &run : QDir(side + QLatin1Char('/') + proc).entryList({QStringLiteral("run_*")}, QDir::Dirs)) {
                r = runProcess(cli, {QStringLiteral("summarize"), side + QLatin1Char('/') + proc + QLatin1Char('/') + run,
                                     QStringLiteral("-o"), each + QLatin1Char('/') + proc});
                QVERIFY2(r.exitCode == 0, r.err.constData());
            }
        auto files = [](const QString &root) {
            QStringList names;
            QDirIterator it(root, {QStringLiteral("*.slsum")}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext())
                names << QDir(root).relativeFilePath(it.next());
            names.sort();
            return names;
        };
        QVERIFY(files(whole).contains(QStringLiteral("proc_0/run_0.slsum")));
        QCOMPARE(files(each), files(whole));
        for (const QString &name : files(whole))
            QCOMPARE(readAll(each + QLatin1Char('/') + name).size(), readAll(whole + QLatin1Char('/') + name).size());

        r = runProcess(cli, {QStringLiteral("summarize"), side + QStringLiteral("/proc_0/run_0"),
                             side + QStringLiteral("/proc_1/run_0"), QStringLiteral("-o"), dir.filePath(QStringLiteral("clash"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("proc_0/run_0/") && r.err.contains("proc_1/run_0/"), r.err.constData());
        // the same run given twice is summarised once, not refused as a clash with itself
        const QString twice = dir.filePath(QStringLiteral("twice"));
        r = runProcess(cli, {QStringLiteral("summarize"), side + QStringLiteral("/proc_0/run_0"),
                             side + QStringLiteral("/proc_0/run_0"), QStringLiteral("-o"), twice});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(files(twice), QStringList{QStringLiteral("run_0.slsum")});
        QCOMPARE(r.out.count('\n'), 1);
    }

    // `summarize side -o side/sums` puts each run's summary inside the side it summarises: scanned again,
    // each run would count twice (6 runs in 2 "processes" of a side of 3). Refused by the CLI and the
    // window alike, naming a summary and its trace; summaries kept apart compare as the traces do.
    void summaryInsideItsSide()
    {
        const QString cli = QStringLiteral(SCOPELINE_CLI);
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(dir.isValid());
        const QString side = dir.filePath(QStringLiteral("side"));
        const QString eager = testdata::path("h100_runs/torch_compile/eager");
        for (const QString &run : {QStringLiteral("run_0"), QStringLiteral("run_1")}) {
            QVERIFY(QDir().mkpath(side + u'/' + run));
            const QString trace = u'/' + run + QStringLiteral("/trace.pt.trace.json.gz");
            QVERIFY(testdata::anotherRun(eager + trace, side + trace));
        }
        // summarize refuses to write them there, named as given, through a link to the side too
        const QString link = dir.filePath(QStringLiteral("link"));
        QVERIFY(QFile::link(side, link));
        for (const QString &out : {side + QStringLiteral("/sums"), side, link + QStringLiteral("/sums")}) {
            const ProcessResult refused =
                runProcess(cli, {QStringLiteral("summarize"), side, QStringLiteral("-o"), out});
            QVERIFY2(refused.exitCode == 1 && refused.err.contains("a side it summarises"),
                     refused.err.constData());
            QVERIFY(!QFileInfo::exists(side + QStringLiteral("/sums")));
        }
        // put there by hand
        ProcessResult r = runProcess(cli, {QStringLiteral("summarize"), side, QStringLiteral("-o"),
                                           dir.filePath(QStringLiteral("apart"))});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(QDir().rename(dir.filePath(QStringLiteral("apart")), side + QStringLiteral("/sums")));
        r = runProcess(cli, {QStringLiteral("diff"), eager, side});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("side/sums/run_0.slsum is a summary of ") &&
                     r.err.contains("side/run_0/trace.pt.trace.json.gz, in the same side"),
                 r.err.constData());
        const PairLoadResult loaded = PairLoader::load(eager, side);
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.error.contains(QLatin1String("sums/run_0.slsum is a summary of")),
                 qPrintable(loaded.error));
        // moved out of the side, the summaries are the side's runs
        QVERIFY(QDir().rename(side + QStringLiteral("/sums"), dir.filePath(QStringLiteral("sums"))));
        r = runProcess(cli, {QStringLiteral("diff"), side, dir.filePath(QStringLiteral("sums")),
                             QStringLiteral("--csv"), QStringLiteral("-")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(PairLoader::load(eager, side).ok());
    }

    void badFiles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QList<LoadedRun> runs =
            loadSide(testdata::path("h100_runs/torch_compile/eager/run_0"), LoadedRun::Events::Drop);
        const QString good = dir.filePath(QStringLiteral("good.slsum"));
        QCOMPARE(RunSummaryFile::write(*runs.front().summary, good), QString());
        const QByteArray bytes = readAll(good);
        QVERIFY(bytes.startsWith("SCOPESUM"));

        auto errorOf = [&](const QString &name, const QByteArray &content) {
            const QString path = dir.filePath(name);
            writeAll(path, content);
            RunSummary summary;
            const QString error = RunSummaryFile::read(path, summary);
            // The loader says the same, naming the file.
            const LoadedRun loaded = LoadedRun::load(TraceRun{name, path});
            if (!loaded.ok() != !error.isEmpty() || (!error.isEmpty() && loaded.error != error))
                return QStringLiteral("loader disagrees: ") + loaded.error;
            return error;
        };
        const QString truncated = errorOf(QStringLiteral("truncated.slsum"), bytes.left(bytes.size() / 2));
        QVERIFY2(truncated.contains(QLatin1String("truncated.slsum")) && truncated.contains(QLatin1String("truncated")),
                 qPrintable(truncated));
        const QString header = errorOf(QStringLiteral("header.slsum"), bytes.left(12));
        QVERIFY2(header.contains(QLatin1String("header.slsum")) && header.contains(QLatin1String("truncated")),
                 qPrintable(header));
        QByteArray version = bytes;
        version[8] = char(99);
        const QString wrongVersion = errorOf(QStringLiteral("version.slsum"), version);
        QVERIFY2(wrongVersion.contains(QLatin1String("version.slsum")) && wrongVersion.contains(QLatin1String("version 99")),
                 qPrintable(wrongVersion));
        // A newer file asks for a newer build, an older one for the trace summarised again.
        QVERIFY2(wrongVersion.contains(QLatin1String("update Scopeline"))
                     && !wrongVersion.contains(QLatin1String("summarise the trace again")),
                 qPrintable(wrongVersion));
        QByteArray older = bytes;
        older[8] = char(1);
        const QString olderVersion = errorOf(QStringLiteral("older.slsum"), older);
        QVERIFY2(olderVersion.contains(QLatin1String("version 1;"))
                     && olderVersion.contains(QLatin1String("summarise the trace again")),
                 qPrintable(olderVersion));
        QByteArray magic = bytes;
        magic[0] = 'X';
        const QString wrongMagic = errorOf(QStringLiteral("magic.slsum"), magic);
        QVERIFY2(wrongMagic.contains(QLatin1String("magic.slsum")) && wrongMagic.contains(QLatin1String("not a Scopeline run summary")),
                 qPrintable(wrongMagic));
        QVERIFY(!errorOf(QStringLiteral("empty.slsum"), QByteArray()).isEmpty());
        QByteArray huge = bytes; // a compressed size past any file: not "truncated (… of 31 bytes)"
        for (int i = 24; i < 32; ++i)
            huge[i] = char(0xff);
        const QString sizes = errorOf(QStringLiteral("sizes.slsum"), huge);
        QVERIFY2(sizes.contains(QLatin1String("sizes.slsum")) && sizes.contains(QLatin1String("sizes disagree")),
                 qPrintable(sizes));
        // The file's own error is all that is said: no warning of Qt's (qUncompress) before it.
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".")));
        // Damaged data anywhere after the header, the last byte of the Adler-32 among it: an error
        // naming the file (its size, its zlib header, its deflate data or its checksum), never a crash
        // nor a summary read from what the checksum refuses. A few deflate bits do not change what is
        // inflated (a Huffman table's unused entries, the last byte's padding) and so are outside the
        // checksum: a file damaged there reads as the good one, the same summary.
        std::vector<qsizetype> places;
        for (qsizetype at = 32; at < bytes.size(); at += std::max<qsizetype>(1, bytes.size() / 200))
            places.push_back(at);
        places.push_back(bytes.size() - 1);
        int refused = 0;
        for (qsizetype at : places) {
            QByteArray damaged = bytes;
            damaged[at] = char(damaged[at] ^ 0x5a);
            const QString error = errorOf(QStringLiteral("damaged.slsum"), damaged);
            if (!error.isEmpty()) {
                QVERIFY2(error.contains(QLatin1String("damaged.slsum")),
                         qPrintable(QString::number(at) + error));
                ++refused;
                continue;
            }
            RunSummary summary;
            QCOMPARE(RunSummaryFile::read(dir.filePath(QStringLiteral("damaged.slsum")), summary), QString());
            const QString again = dir.filePath(QStringLiteral("again.slsum"));
            QCOMPARE(RunSummaryFile::write(summary, again), QString());
            QVERIFY2(readAll(again) == bytes, qPrintable(QString::number(at)));
        }
        QVERIFY2(refused > int(places.size()) * 9 / 10, qPrintable(QString::number(refused)));
        // Damage inside the compressed data (sizes, ids, counts), recompressed so that it reaches the
        // checks after inflating: caught there, never read out of bounds.
        const QByteArray payload = qUncompress(bytes.mid(32));
        QVERIFY(!payload.isEmpty());
        int caught = 0;
        for (qsizetype at = 0; at < payload.size(); at += std::max<qsizetype>(1, payload.size() / 400)) {
            for (char flip : {char(0x01), char(0x80), char(0xff)}) {
                QByteArray damaged = payload;
                damaged[at] = char(damaged[at] ^ flip);
                const QByteArray compressed = qCompress(damaged);
                QByteArray file = bytes.left(32);
                const quint64 size = quint64(compressed.size());
                for (int i = 0; i < 8; ++i)
                    file[24 + i] = char((size >> (8 * i)) & 0xff);
                const QString error = errorOf(QStringLiteral("inconsistent.slsum"), file + compressed);
                QVERIFY2(error.isEmpty() || error.contains(QLatin1String("inconsistent.slsum")), qPrintable(error));
                caught += !error.isEmpty();
            }
        }
        QVERIFY(caught > 0);
    }
};

QTEST_GUILESS_MAIN(TstRunSummary)
#include "tst_runsummary.moc"
