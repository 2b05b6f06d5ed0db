// SPDX-License-Identifier: GPL-3.0-or-later
// A load that keeps only the args the figures read (TraceDetail::Figures: `info`, and every run
// summarised and let go, whose launch analysis also leaves out what a summary does not read) gives the
// same launch analysis and, byte for byte, the same run summary as a full load, on every trace in
// tests/data and the bundled samples.

#include "model/analysis/runsummaryfile.h"
#include "model/loading/loadedrun.h"
#include "model/loading/traceloader.h"
#include "testdata.h"
#include "testruns.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

using namespace scopeline;

namespace {

// Every trace file below tests/data/ and resources/samples/, as a folder scan would find them.
QStringList everyTrace()
{
    QStringList files;
    for (const QString &root : {QStringLiteral(SCOPELINE_TEST_DATA), QStringLiteral(SCOPELINE_SAMPLES)}) {
        QDirIterator it(root, TraceLoader::fileNamePatterns(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
    }
    files.sort();
    return files;
}

// What `info` prints of a trace's launch analysis, as text to compare.
QString analysisText(const LoadedRun &run)
{
    const TraceData &t = *run.trace;
    const TraceAnalysis &a = *run.analysis;
    QString text = QStringLiteral("events %1 tracks %2 format %3\n")
                       .arg(t.eventsRead())
                       .arg(t.tracks.size())
                       .arg(formatName(t.format));
    for (const auto &[reason, count] : t.skipped)
        text += QStringLiteral("skipped %1 %2\n").arg(reason).arg(count);
    const LaunchSummary total = a.total();
    text += QStringLiteral("kernels %1 launches %2 graphs %3 busy %4 span %5 delays %6\n")
                .arg(total.kernels)
                .arg(total.kernelLaunches)
                .arg(total.graphLaunches)
                .arg(total.busyNs)
                .arg(total.spanNs)
                .arg(total.launchDelays.size());
    for (const StreamSummary &stream : a.streams()) {
        text += QStringLiteral("stream %1 %2 %3\n").arg(stream.track).arg(stream.kernels).arg(stream.busyNs);
        for (const IdleGap &gap : stream.gaps)
            text += QStringLiteral("gap %1 %2 %3 %4\n")
                        .arg(gap.start)
                        .arg(gap.end)
                        .arg(int(gap.cause))
                        .arg(gap.cpuEvent >= 0 ? t.qname(uint32_t(gap.cpuEvent)) : QString());
    }
    return text;
}

} // namespace

class TstTraceDetail : public QObject
{
    Q_OBJECT

private slots:
    void sameFiguresAsFull_data()
    {
        QTest::addColumn<QString>("file");
        const QStringList files = everyTrace();
        for (const QString &relative : testdata::publicTraces())
            QVERIFY2(files.contains(testdata::path(QStringLiteral("public/") + relative)),
                     testdata::missingMessage(relative).constData());
        const QDir repository(QStringLiteral(SCOPELINE_TEST_DATA "/../.."));
        for (const QString &file : files)
            QTest::newRow(qPrintable(repository.relativeFilePath(file))) << file;
    }

    void sameFiguresAsFull()
    {
        QFETCH(QString, file);
        TraceRun run;
        run.name = QFileInfo(file).completeBaseName();
        run.file = file;
        const QList<LoadedRun> full = LoadedRun::loadRanks(run, {}, nullptr, LoadedRun::Scopes::Index,
                                                           LoadedRun::Events::Keep);
        const QList<LoadedRun> lean = LoadedRun::loadRanks(run, {}, nullptr, LoadedRun::Scopes::Index,
                                                           LoadedRun::Events::Drop);
        QCOMPARE(lean.size(), full.size());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (qsizetype r = 0; r < full.size(); ++r) {
            QCOMPARE(lean[r].error, full[r].error);
            if (!full[r].ok())
                continue;
            QVERIFY(full[r].trace && full[r].trace->detail == TraceDetail::Full);
            QVERIFY(lean[r].summary && !lean[r].trace);
            const QByteArray a =
                testruns::summaryBytes(*full[r].summary, dir.filePath(QStringLiteral("full.slsum")));
            const QByteArray b =
                testruns::summaryBytes(*lean[r].summary, dir.filePath(QStringLiteral("lean.slsum")));
            QVERIFY(!a.isEmpty());
            QVERIFY2(a == b, qPrintable(QStringLiteral("rank %1: the summaries differ").arg(r)));
        }

        // `info`: the launch analysis without the scope index, on the events with the figures' args.
        const LoadedRun info = LoadedRun::load(run, {}, nullptr, LoadedRun::Scopes::Skip);
        QCOMPARE(info.error, full.size() == 1 ? full.front().error : QString());
        if (!info.ok() || full.size() != 1)
            return;
        QCOMPARE(info.trace->detail, TraceDetail::Figures);
        QCOMPARE(analysisText(info), analysisText(full.front()));
        QVERIFY(info.trace->args.size() <= full.front().trace->args.size());
    }

    // Args left out are still read through, so a broken one fails the load, or skips its event, as a
    // full load does (1e400: out of a double's range; 01 and \q: not JSON).
    void brokenArgsReadAlike_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("events"); // kept by both; -1: both fail
        const QByteArray head = R"({"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2,"args":)";
        const QByteArray next = R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":2})";
        QTest::newRow("out of range") << head + R"({"Input Dims":[[1,2]],"x":1e400}},)" + next + "]}" << 1;
        QTest::newRow("leading zero") << head + R"({"Input Dims":[[1,2]],"x":01}},)" + next + "]}" << -1;
        QTest::newRow("bad escape") << head + R"({"Input Dims":[[1,2]],"x":"\q"}},)" + next + "]}" << -1;
        QTest::newRow("nested") << head + R"({"Input Dims":[[1,2],[3,01]]}},)" + next + "]}" << -1;
    }

    void brokenArgsReadAlike()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, events);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("broken.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(json) == json.size());
        out.close();
        const LoadResult full = TraceLoader::load(file);
        const LoadResult lean = TraceLoader::load(file, {}, nullptr, {TraceDetail::Figures});
        QCOMPARE(lean.error, full.error);
        QCOMPARE(full.ok(), events >= 0);
        if (full.ok()) {
            QCOMPARE(int(full.trace->eventCount()), events);
            QCOMPARE(lean.trace->eventsRead(), int64_t(events));
            QCOMPARE(lean.trace->skipped, full.trace->skipped);
        }
    }

    // PyTorch's shapes, types and call stacks are most of a heavy-args trace's args: none is kept, nor
    // is an instant.
    void figuresLeaveOutShapes()
    {
        const QString file = testdata::path("public/TraceLens/tests__traces__h100__gaunernst_bert-small-uncased__1016001.json.gz");
        REQUIRE_TEST_DATA(file);
        const LoadResult full = TraceLoader::load(file);
        const LoadResult lean = TraceLoader::load(file, {}, nullptr, {TraceDetail::Figures});
        QVERIFY(full.ok() && lean.ok());
        const auto has = [](const TraceData &t, const char *key) {
            const int64_t id = t.strings.find(key);
            return id >= 0 && std::any_of(t.args.begin(), t.args.end(),
                                          [id](const ArgEntry &a) { return a.key == uint32_t(id); });
        };
        QVERIFY(has(*full.trace, "Input Dims"));
        QVERIFY(!has(*lean.trace, "Input Dims"));
        QVERIFY(has(*full.trace, "correlation"));
        QVERIFY(!has(*lean.trace, "correlation"));
        // Correlation ids are read all the same; the instants are counted and left out.
        std::vector<int64_t> correlations;
        int64_t instants = 0;
        for (uint32_t e = 0; e < full.trace->eventCount(); ++e)
            if (full.trace->kind[e] != EventKind::Instant)
                correlations.push_back(full.trace->correlation[e]);
            else
                ++instants;
        QVERIFY(instants > 0);
        std::vector<int64_t> leanCorrelations;
        for (uint32_t e = 0; e < lean.trace->eventCount(); ++e)
            leanCorrelations.push_back(lean.trace->correlation[e]);
        QCOMPARE(leanCorrelations, correlations);
        QCOMPARE(lean.trace->eventsRead(), int64_t(full.trace->eventCount()));
        QVERIFY(lean.trace->args.size() * 10 < full.trace->args.size());
    }
};

QTEST_GUILESS_MAIN(TstTraceDetail)
#include "tst_tracedetail.moc"
