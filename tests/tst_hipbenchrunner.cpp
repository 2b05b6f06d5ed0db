// SPDX-License-Identifier: GPL-3.0-or-later
// HipbenchRunner against tests/fake_hipbench.sh, which stands in for scopeline-hipbench where no GPU
// runs it (its list is checked against the real one here): listing and its failures, a run's progress,
// output and recorded pair (also with --processes), a GPU error, a crash, a missing summary, and
// cancelling a run that stops on terminate and one that must be killed.

#include "model/runner/hipbenchrunner.h"
#include "workloads.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace scopeline;

namespace {

const QString kFake = QStringLiteral(SCOPELINE_FAKE_HIPBENCH);

// Runs the fake, doing `behaviour` (see the script), as scopeline-hipbench for the life of the guard.
struct FakeProgram
{
    explicit FakeProgram(const char *behaviour = "ok")
    {
        qputenv("SCOPELINE_HIPBENCH", kFake.toLocal8Bit());
        qputenv("FAKE_HIPBENCH", behaviour);
    }
    ~FakeProgram()
    {
        qunsetenv("SCOPELINE_HIPBENCH");
        qunsetenv("FAKE_HIPBENCH");
    }
};

bool list(HipbenchRunner &runner)
{
    QSignalSpy done(&runner, &HipbenchRunner::listingFinished);
    runner.startListing();
    if (done.isEmpty() && !done.wait(10000))
        return false;
    return done.first().first().toBool();
}

// Runs launch-chain into `folder` and waits for the end; the outcome and message are in `finished`.
void run(HipbenchRunner &runner, const QString &folder, QSignalSpy &finished, int timeoutMs = 10000)
{
    runner.startRun(QStringLiteral("launch-chain"), {{QStringLiteral("kernels"), QStringLiteral("16")}},
                    folder);
    QVERIFY(finished.wait(timeoutMs));
    QCOMPARE(finished.size(), 1);
}

HipbenchRunner::Outcome outcome(const QSignalSpy &finished)
{
    return finished.first().at(0).value<HipbenchRunner::Outcome>();
}

QString message(const QSignalSpy &finished)
{
    return finished.first().at(1).toString();
}

} // namespace

class TstHipbenchRunner : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qRegisterMetaType<scopeline::SessionState>();
        QVERIFY2(QFileInfo(kFake).isExecutable(), qPrintable(kFake + QStringLiteral(" is not executable")));
    }

    void theFakeListsWhatTheRealProgramDoes()
    {
        // The fake's one workload is the real launch-chain entry, so that the fake stays honest.
        FakeProgram fake;
        HipbenchRunner runner;
        QVERIFY2(list(runner), qPrintable(runner.errorText()));
        QCOMPARE(runner.program(), kFake);
        const QJsonArray real =
            QJsonDocument::fromJson(QByteArray::fromStdString(hipbench::listJson())).array();
        QCOMPARE(runner.workloads().size(), 1);
        const HipbenchWorkload &w = runner.workloads().first();
        const QJsonObject entry = real.first().toObject();
        QCOMPARE(w.name, entry[QStringLiteral("name")].toString());
        QCOMPARE(w.description, entry[QStringLiteral("description")].toString());
        const QJsonArray options = entry[QStringLiteral("options")].toArray();
        QCOMPARE(w.options.size(), options.size());
        for (qsizetype i = 0; i < options.size(); ++i) {
            QCOMPARE(w.options[i].name, options[i][QStringLiteral("name")].toString());
            QCOMPARE(w.options[i].defaultValue, options[i][QStringLiteral("default")].toString());
            QCOMPARE(w.options[i].help, options[i][QStringLiteral("help")].toString());
            QCOMPARE(w.options[i].minimum, options[i][QStringLiteral("minimum")].toInteger());
            QCOMPARE(w.options[i].maximum, options[i][QStringLiteral("maximum")].toInteger());
            QCOMPARE(w.options[i].list, options[i][QStringLiteral("list")].toBool());
        }
        QVERIFY(runner.workload(QStringLiteral("launch-chain")));
        QVERIFY(!runner.workload(QStringLiteral("attention")));
        QVERIFY(runner.errorText().isEmpty());
    }

    void listingFailures_data()
    {
        QTest::addColumn<QByteArray>("behaviour");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("details");
        QTest::newRow("not JSON") << QByteArray("list-garbage") << QStringLiteral("its output is not JSON")
                                  << QStringLiteral("launch-chain  N small");
        QTest::newRow("exit 1") << QByteArray("list-fail")
                                << QStringLiteral(
                                       "exit status 1 (bad usage): scopeline-hipbench: cannot list")
                                << QStringLiteral("out of memory");
        QTest::newRow("no CUDA runtime") << QByteArray("list-no-library")
                                         << QStringLiteral("exit status 127 (a library it needs is missing")
                                         << QStringLiteral("libcudart.so.13");
    }

    void listingFailures()
    {
        QFETCH(QByteArray, behaviour);
        QFETCH(QString, error);
        QFETCH(QString, details);
        FakeProgram fake(behaviour.constData());
        HipbenchRunner runner;
        QVERIFY(!list(runner));
        QVERIFY(runner.workloads().isEmpty());
        QVERIFY2(runner.errorText().contains(kFake + QStringLiteral(" --list --json failed: ")),
                 qPrintable(runner.errorText()));
        QVERIFY2(runner.errorText().contains(error), qPrintable(runner.errorText()));
        QVERIFY2(runner.errorDetails().contains(details), qPrintable(runner.errorDetails()));
    }

    void missingProgram()
    {
        const QString missing = QDir::temp().filePath(QStringLiteral("no_such_dir/scopeline-hipbench"));
        qputenv("SCOPELINE_HIPBENCH", missing.toLocal8Bit());
        HipbenchRunner runner;
        QSignalSpy done(&runner, &HipbenchRunner::listingFinished);
        runner.startListing();
        qunsetenv("SCOPELINE_HIPBENCH");
        QCOMPARE(done.size(), 1); // at once: there is nothing to wait for
        QCOMPARE(done.first().first().toBool(), false);
        QVERIFY(runner.program().isEmpty());
        QVERIFY2(runner.errorText().contains(missing + QStringLiteral(", which is not an executable file")),
                 qPrintable(runner.errorText()));
        QSignalSpy started(&runner, &HipbenchRunner::runStarted);
        runner.startRun(QStringLiteral("launch-chain"), {}, QDir::tempPath());
        QVERIFY(!runner.isRunning());
        QCOMPARE(started.size(), 0);
    }

    void recordsAPair()
    {
        FakeProgram fake;
        QTemporaryDir dir;
        HipbenchRunner runner;
        QVERIFY(list(runner));
        QSignalSpy started(&runner, &HipbenchRunner::runStarted);
        QSignalSpy progress(&runner, &HipbenchRunner::progressChanged);
        QSignalSpy lines(&runner, &HipbenchRunner::outputLine);
        QSignalSpy pairs(&runner, &HipbenchRunner::pairRecorded);
        QSignalSpy finished(&runner, &HipbenchRunner::runFinished);
        const QString folder = dir.filePath(QStringLiteral("a run"));
        run(runner, folder, finished);
        QCOMPARE(outcome(finished), HipbenchRunner::Outcome::Succeeded);
        QVERIFY2(message(finished).contains(QLatin1String("Recorded eager (A) vs graph (B)")),
                 qPrintable(message(finished)));
        QCOMPARE(started.size(), 1);
        QCOMPARE(started.first().first().toString(),
                 kFake + QStringLiteral(" run launch-chain --out '%1' --kernels 16").arg(folder));
        QCOMPARE(progress.size(), 4);
        QCOMPARE(progress.last(), (QList<QVariant>{2, 2, QStringLiteral("graph run 0 recorded")}));
        QStringList said;
        for (const QList<QVariant> &line : lines)
            said << line.first().toString();
        QVERIFY(!said.join(QLatin1Char('\n')).contains(QLatin1String("progress:"))); // progress is not output
        // the last line has no newline: it is flushed when the program ends
        QCOMPARE(said.last(), QStringLiteral("wrote %1/summary.json").arg(folder));
        QCOMPARE(pairs.size(), 1);
        const SessionState state = pairs.first().first().value<SessionState>();
        QCOMPARE(state.pathA, folder + QStringLiteral("/eager"));
        QCOMPARE(state.pathB, folder + QStringLiteral("/graph"));
        QCOMPARE(state.scopes, QStringList{QStringLiteral("chain")});
        QCOMPARE(state.samples, SampleMode::Span);
        QCOMPARE(runner.runFolder(), folder);
        QVERIFY(runner.errorText().isEmpty());
        QVERIFY(!runner.isRunning());
    }

    void recordsInSeveralProcesses()
    {
        // --processes 2: progress names the process, the runs are grouped by process under each side,
        // and the pair is still the two variant folders.
        FakeProgram fake;
        QTemporaryDir dir;
        HipbenchRunner runner;
        QVERIFY(list(runner));
        QVERIFY(runner.workload(QStringLiteral("launch-chain")));
        QSignalSpy progress(&runner, &HipbenchRunner::progressChanged);
        QSignalSpy pairs(&runner, &HipbenchRunner::pairRecorded);
        QSignalSpy finished(&runner, &HipbenchRunner::runFinished);
        runner.startRun(QStringLiteral("launch-chain"),
                        {{QStringLiteral("processes"), QStringLiteral("2")},
                         {QStringLiteral("repeat"), QStringLiteral("1")}},
                        dir.path());
        QVERIFY(finished.wait(10000));
        QCOMPARE(outcome(finished), HipbenchRunner::Outcome::Succeeded);
        QCOMPARE(progress.size(), 8);
        QCOMPARE(progress.at(4), (QList<QVariant>{2, 4, QStringLiteral("preparing eager in process 1")}));
        QCOMPARE(progress.last(), (QList<QVariant>{4, 4, QStringLiteral("graph process 1 run 0 recorded")}));
        for (const char *run :
             {"eager/proc_0/run_0", "eager/proc_1/run_0", "graph/proc_0/run_0", "graph/proc_1/run_0"})
            QVERIFY2(QFileInfo(dir.filePath(QLatin1String(run))).isDir(), run);
        QCOMPARE(pairs.size(), 1);
        QCOMPARE(pairs.first().first().value<SessionState>().pathA, dir.filePath(QStringLiteral("eager")));
    }

    void failures_data()
    {
        QTest::addColumn<QByteArray>("behaviour");
        QTest::addColumn<QString>("error");
        QTest::newRow("no GPU") << QByteArray("no-gpu")
                                << QStringLiteral("failed with exit status 3 (no GPU or a GPU error): "
                                                  "scopeline-hipbench: no CUDA-capable device is detected");
        QTest::newRow("crash") << QByteArray("crash")
                               << QStringLiteral("crashed: scopeline-hipbench: about to crash");
        QTest::newRow("no summary") << QByteArray("no-summary")
                                    << QStringLiteral("The run ended without error, but ");
    }

    void failures()
    {
        QFETCH(QByteArray, behaviour);
        QFETCH(QString, error);
        QTemporaryDir dir;
        FakeProgram fake(behaviour.constData());
        HipbenchRunner runner;
        QVERIFY(list(runner));
        QSignalSpy pairs(&runner, &HipbenchRunner::pairRecorded);
        QSignalSpy finished(&runner, &HipbenchRunner::runFinished);
        run(runner, dir.path(), finished);
        QCOMPARE(outcome(finished), HipbenchRunner::Outcome::Failed);
        QVERIFY2(message(finished).contains(error), qPrintable(message(finished)));
        QCOMPARE(runner.errorText(), message(finished));
        QVERIFY2(runner.errorDetails().startsWith(kFake + QStringLiteral(" run launch-chain")),
                 qPrintable(runner.errorDetails()));
        QCOMPARE(pairs.size(), 0);
        if (behaviour == "no-summary")
            QVERIFY(message(finished).contains(dir.filePath(QStringLiteral("summary.json")) +
                                               QStringLiteral(" cannot be read")));
    }

    void cancels_data()
    {
        // With a grace of 1 s: terminate() ends the first and third before it; the second only a kill
        // ends. What was kept is said: nothing by the first two, which record nothing before they hang;
        // the third answers as the program does, stopping after its run with summary.json.
        QTest::addColumn<QByteArray>("behaviour");
        QTest::addColumn<int>("atLeastMs");
        QTest::addColumn<int>("underMs");
        QTest::addColumn<QString>("said"); // the message, whole, or its start when it ends in "…"
        const QString nothing = QStringLiteral("Cancelled. No run was kept…");
        QTest::newRow("stops on terminate") << QByteArray("hang") << 0 << 1000 << nothing;
        QTest::newRow("killed after the grace") << QByteArray("ignore-term") << 1000 << 3000 << nothing;
        QTest::newRow("keeps what was recorded")
            << QByteArray("stop-on-term") << 0 << 1000
            << QStringLiteral("Cancelled. The runs recorded before are in %1");
    }

    void cancels()
    {
        QFETCH(QByteArray, behaviour);
        QFETCH(int, atLeastMs);
        QFETCH(int, underMs);
        QFETCH(QString, said);
        QTemporaryDir dir;
        FakeProgram fake(behaviour.constData());
        HipbenchRunner runner;
        runner.setKillGraceMs(1000);
        QVERIFY(list(runner));
        QSignalSpy progress(&runner, &HipbenchRunner::progressChanged);
        QSignalSpy finished(&runner, &HipbenchRunner::runFinished);
        runner.startRun(QStringLiteral("launch-chain"), {}, dir.path());
        QVERIFY(progress.wait(5000)); // it is running and has said so
        QVERIFY(runner.isRunning());
        QElapsedTimer elapsed;
        elapsed.start();
        runner.cancelRun();
        QVERIFY(runner.isCancelling());
        runner.cancelRun(); // a second cancel does nothing more
        QVERIFY(finished.wait(5000));
        QVERIFY2(elapsed.elapsed() >= atLeastMs, qPrintable(QString::number(elapsed.elapsed())));
        QVERIFY2(elapsed.elapsed() < underMs, qPrintable(QString::number(elapsed.elapsed())));
        QCOMPARE(outcome(finished), HipbenchRunner::Outcome::Cancelled);
        if (said.endsWith(QChar(0x2026)))
            QVERIFY2(message(finished).startsWith(said.chopped(1)), qPrintable(message(finished)));
        else
            QCOMPARE(message(finished), said.arg(dir.path()));
        QVERIFY(!runner.isRunning());
        QVERIFY(!runner.isCancelling());
        QVERIFY(runner.errorText().isEmpty());
    }

    void destroyingStopsARun()
    {
        // A runner destroyed mid-run leaves no benchmark running, even one that ignores terminate.
        QTemporaryDir dir;
        FakeProgram fake("ignore-term");
        {
            HipbenchRunner runner;
            QVERIFY(list(runner));
            QSignalSpy progress(&runner, &HipbenchRunner::progressChanged);
            runner.startRun(QStringLiteral("launch-chain"), {}, dir.path());
            QVERIFY(progress.wait(5000));
        }
        QFile pidFile(dir.filePath(QStringLiteral("fake.pid")));
        QVERIFY(pidFile.open(QIODevice::ReadOnly));
        const QByteArray pid = pidFile.readAll().trimmed();
        QVERIFY(!pid.isEmpty());
        QVERIFY2(!QFileInfo::exists(QStringLiteral("/proc/") + QString::fromLatin1(pid)),
                 "the fake benchmark outlived its runner");
    }
};

QTEST_GUILESS_MAIN(TstHipbenchRunner)
#include "tst_hipbenchrunner.moc"
