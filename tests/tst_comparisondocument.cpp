// SPDX-License-Identifier: GPL-3.0-or-later
// ComparisonDocument: loads a real pair from resources/samples, takes only the latest of two loads,
// keeps the document when a load is cancelled or fails, and a bad folder's error names the bad file.

#include "testdata.h"

#include "model/loading/comparisondocument.h"

#include <QSignalSpy>
#include <QThreadPool>
#include <QtTest>

using namespace scopeline;

namespace {

const QString kSamples = QStringLiteral(SCOPELINE_SAMPLES);
const QString kMatmul = kSamples + QStringLiteral("/jax_matmul_vs_einsum/matmul");
const QString kEinsum = kSamples + QStringLiteral("/jax_matmul_vs_einsum/einsum");
const QString kEager = QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/eager");
const QString kGraph = QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/graph");

using Outcome = ComparisonDocument::LoadOutcome;

// Waits for the load to end; the outcome and error it ended with, from the one signal it gave.
bool waitForEnd(ComparisonDocument &document, QSignalSpy &ended)
{
    return QTest::qWaitFor([&] { return !document.isLoading(); }, 60000) && ended.size() == 1;
}

Outcome outcomeOf(const QSignalSpy &ended)
{
    return ended.front().at(0).value<Outcome>();
}

} // namespace

class TstComparisonDocument : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qRegisterMetaType<scopeline::ComparisonDocument::LoadOutcome>();
        REQUIRE_TEST_DATA(kMatmul, kEinsum, kEager, kGraph);
    }

    void loadsARealPair()
    {
        ComparisonDocument document;
        QSignalSpy ended(&document, &ComparisonDocument::loadEnded);
        QSignalSpy progress(&document, &ComparisonDocument::progress);
        SessionState state;
        state.scopes = {QStringLiteral("mlp")};
        state.samples = SampleMode::Instance;
        // trailing slashes go: the sides are named by their folders (spaces stay: a name may hold them)
        QVERIFY(document.open(kMatmul + QStringLiteral("/"), kEinsum + QStringLiteral("//"), state));
        QVERIFY(document.isLoading());
        QCOMPARE(document.pending().pathA, kMatmul);
        QVERIFY(document.runsA().isEmpty()); // nothing shown until it has loaded
        QVERIFY(waitForEnd(document, ended));
        QCOMPARE(outcomeOf(ended), Outcome::Loaded);
        QCOMPARE(ended.front().at(1).toString(), QString());
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.back().at(0).toDouble(), 1.0);

        QCOMPARE(document.runsA().size(), 3);
        QCOMPARE(document.runsB().size(), 3);
        QCOMPARE(document.runsA().front().run.name, QStringLiteral("trace_file_matmul_0"));
        QCOMPARE(document.runsB().back().run.name, QStringLiteral("trace_file_einsum_2"));
        for (const LoadedRun &run : document.runsA() + document.runsB())
            QVERIFY(run.ok() && run.analysis && run.scopes);
        QCOMPARE(document.state().pathA, kMatmul);
        QCOMPARE(document.state().pathB, kEinsum);
        QCOMPARE(document.state().scopes, state.scopes);
        QCOMPARE(document.state().samples, SampleMode::Instance);
        QVERIFY(!document.skipped().anyBroken());
    }

    void emptyPathStartsNothing()
    {
        ComparisonDocument document;
        QVERIFY(!document.open(QString(), kEinsum));
        QVERIFY(!document.open(kEinsum, QString()));
        QVERIFY(!document.isLoading());
    }

    void latestLoadReplacesPending()
    {
        ComparisonDocument document;
        QSignalSpy ended(&document, &ComparisonDocument::loadEnded);
        QVERIFY(document.open(kMatmul, kEinsum));
        const int first = document.job();
        QVERIFY(document.open(kEager, kGraph)); // before the first has ended
        QVERIFY(document.job() != first);
        QVERIFY(waitForEnd(document, ended));
        QTest::qWait(200); // a late result of the first load would arrive now
        QCOMPARE(ended.size(), 1);
        QCOMPARE(outcomeOf(ended), Outcome::Loaded);
        QCOMPARE(document.state().pathA, kEager);
        QCOMPARE(document.runsA().size(), 1);
        QCOMPARE(document.runsB().front().run.file.contains(QLatin1String("/eager_vs_graph/graph/")), true);
    }

    void cancelKeepsTheDocument_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("workerEnded");
        QTest::newRow("while it loads")
            << testdata::path("public/TraceLens/"
                              "tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz")
            << false;
        // Esc pressed while "Loading" shows, though the worker has just finished and its result waits
        // in the event queue: the cancel still wins, as the user was promised.
        QTest::newRow("after the worker ended") << kEager << true;
    }

    void cancelKeepsTheDocument()
    {
        QFETCH(QString, path);
        QFETCH(bool, workerEnded);
        REQUIRE_TEST_DATA(path);
        ComparisonDocument document;
        QSignalSpy ended(&document, &ComparisonDocument::loadEnded);
        QVERIFY(document.open(kMatmul, kEinsum));
        QVERIFY(waitForEnd(document, ended));
        ended.clear();
        QVERIFY(document.open(path, path));
        if (workerEnded)
            QVERIFY(QThreadPool::globalInstance()->waitForDone(60000)); // no event delivered yet
        QVERIFY(document.isLoading());
        document.cancel();
        QVERIFY(waitForEnd(document, ended));
        QCOMPARE(outcomeOf(ended), Outcome::Cancelled);
        QCOMPARE(document.state().pathA, kMatmul);
        QCOMPARE(document.runsA().size(), 3);
    }

    void badFolderNamesTheFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString bad = dir.filePath(QStringLiteral("bad.pt.trace.json"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"traceEvents\": [ {\"ph\":\"X\", \"ts\": 1,");
        file.close();

        ComparisonDocument document;
        QSignalSpy ended(&document, &ComparisonDocument::loadEnded);
        QVERIFY(document.open(kEager, kGraph));
        QVERIFY(waitForEnd(document, ended));
        ended.clear();
        QVERIFY(document.open(kEager, dir.path()));
        QVERIFY(waitForEnd(document, ended));
        QCOMPARE(outcomeOf(ended), Outcome::Failed);
        const QString error = ended.front().at(1).toString();
        QVERIFY2(error.contains(bad), qPrintable(error));
        QCOMPARE(document.state().pathB, kGraph); // the document shown is unchanged
        QCOMPARE(document.runsB().size(), 1);

        // A folder that is not there names itself.
        ended.clear();
        const QString missing = dir.filePath(QStringLiteral("no-such-folder"));
        QVERIFY(document.open(missing, kGraph));
        QVERIFY(waitForEnd(document, ended));
        QCOMPARE(outcomeOf(ended), Outcome::Failed);
        QVERIFY2(ended.front().at(1).toString().contains(missing), qPrintable(ended.front().at(1).toString()));
    }
};

QTEST_MAIN(TstComparisonDocument)
#include "tst_comparisondocument.moc"
