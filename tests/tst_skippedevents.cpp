// SPDX-License-Identifier: GPL-3.0-or-later
// SkippedEvents on written traces: counters are skipped by design (counted, not broken), an event with
// an unreadable time is broken and named with its side, file and count; real traces skip nothing broken.

#include "testdata.h"

#include "model/loading/skippedevents.h"

#include <QtTest>

using namespace scopeline;

namespace {

const QByteArray kGood = R"({"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":5,"dur":2})";

QList<LoadedRun> load(const QString &path)
{
    QString error;
    return LoadedRun::loadAll(TraceFolder::scan(path, &error));
}

} // namespace

class TstSkippedEvents : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &events)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write("{\"traceEvents\":[" + events + "]}");
        return path;
    }

private slots:
    void benignAndBroken()
    {
        QVERIFY(m_dir.isValid());
        const QString counters =
            write(QStringLiteral("counters.json"),
                  R"({"ph":"C","name":"mem","pid":1,"ts":5,"args":{"v":1}},{"ph":"C","name":"mem","pid":1,"ts":6,"args":{"v":2}},)" + kGood);
        const QString broken = write(
            QStringLiteral("broken.json"),
            R"({"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":"soon","dur":2},)"
            R"({"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":"later","dur":2},)" + kGood);
        const QList<LoadedRun> a = load(counters), b = load(broken);
        QCOMPARE(a.size(), 1);
        QCOMPARE(b.size(), 1);

        // Counters only: counted, nothing broken; one file opened on both sides counts once.
        SkippedEvents skipped = SkippedEvents::of(a, a);
        QCOMPARE(skipped.total, int64_t(2));
        QVERIFY(!skipped.anyBroken());

        // The broken file on side B, its reason counted once per event.
        skipped = SkippedEvents::of(a, b);
        QCOMPARE(skipped.total, int64_t(4));
        QCOMPARE(skipped.brokenRuns.size(), 1);
        QVERIFY2(skipped.brokenRuns.front().startsWith(QLatin1String("B ") + b.front().run.file + QLatin1String(": ")),
                 qPrintable(skipped.brokenRuns.front()));
        QVERIFY2(skipped.brokenRuns.front().contains(QStringLiteral("2 × unreadable ts")),
                 qPrintable(skipped.brokenRuns.front()));

        // The same on side A; the total is the sum of every reason of every run.
        skipped = SkippedEvents::of(b, a);
        QVERIFY(skipped.brokenRuns.front().startsWith(QLatin1String("A ")));
        int64_t total = 0;
        for (const LoadedRun &run : a + b)
            for (const auto &reason : run.trace->skipped)
                total += reason.second;
        skipped = SkippedEvents::of(a + b, b);
        QCOMPARE(skipped.brokenRuns.size(), 2);
        QCOMPARE(skipped.total, total);
    }

    // The GPUs of one trace are ranks of one run, each carrying the trace's skipped events: the file's
    // events count once, and a broken file is listed once.
    void gpusOfOneTraceCountOnce()
    {
        QVERIFY(m_dir.isValid());
        const QByteArray gpus =
            R"({"ph":"M","name":"process_name","pid":10,"args":{"name":"GPU 0"}},)"
            R"({"ph":"M","name":"process_name","pid":11,"args":{"name":"GPU 1"}},)"
            R"({"ph":"X","name":"k","cat":"kernel","pid":10,"tid":7,"ts":5,"dur":2},)"
            R"({"ph":"X","name":"k","cat":"kernel","pid":11,"tid":7,"ts":5,"dur":2},)"
            R"({"ph":"C","name":"mem","pid":1,"ts":5,"args":{"v":1}},)"
            R"({"ph":"X","name":"k","cat":"kernel","pid":10,"tid":7,"ts":"soon","dur":2})";
        const QList<LoadedRun> ranks = load(write(QStringLiteral("two_gpus.json"), gpus));
        QCOMPARE(ranks.size(), 2);
        QCOMPARE(ranks[0].run.file, ranks[1].run.file);
        int64_t inFile = 0;
        for (const auto &reason : ranks[0].trace->skipped)
            inFile += reason.second;
        QCOMPARE(inFile, int64_t(2)); // the counter and the unreadable time
        const SkippedEvents skipped = SkippedEvents::of(ranks, {});
        QCOMPARE(skipped.total, inFile);
        QCOMPARE(skipped.brokenRuns.size(), 1);
    }

    void realPairHasNothingBroken()
    {
        const QString samples = QStringLiteral(SCOPELINE_SAMPLES);
        REQUIRE_TEST_DATA(samples + QStringLiteral("/jax_matmul_vs_einsum/matmul"));
        const SkippedEvents skipped = SkippedEvents::of(load(samples + QStringLiteral("/jax_matmul_vs_einsum/matmul")),
                                                        load(samples + QStringLiteral("/jax_matmul_vs_einsum/einsum")));
        QVERIFY2(!skipped.anyBroken(), qPrintable(skipped.brokenRuns.join(QLatin1Char('\n'))));
    }

    void failedRunsAreLeftOut()
    {
        LoadedRun failed;
        failed.error = QStringLiteral("x: cannot read");
        const SkippedEvents skipped = SkippedEvents::of({failed}, {});
        QCOMPARE(skipped.total, int64_t(0));
        QVERIFY(!skipped.anyBroken());
    }
};

QTEST_MAIN(TstSkippedEvents)
#include "tst_skippedevents.moc"
