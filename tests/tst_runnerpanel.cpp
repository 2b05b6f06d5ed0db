// SPDX-License-Identifier: GPL-3.0-or-later
// The microbenchmark runner's form against the real scopeline-hipbench: a missing program says so and
// offers no Run; workloads and their options come from --list --json; a run without a GPU ends with the
// program's own exit-3 message in the error banner while the GUI keeps running; with a GPU the recorded
// pair is opened. Against tests/fake_hipbench.sh, everywhere: a failure's banner and its details, and
// Esc cancelling a run.

#include "app/gui/mainwindow.h"
#include "app/gui/runnerpanel.h"
#include "widgets/panels/errorbanner.h"

#include "testdata.h"
#include "testprocess.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace scopeline;

namespace {

const QString kHipbench = QStringLiteral(SCOPELINE_HIPBENCH); // empty when it is not built here
const QString kHipbenchRocm = QStringLiteral(SCOPELINE_HIPBENCH_ROCM); // the AMD build; empty likewise
const QString kSamples = QStringLiteral(SCOPELINE_SAMPLES);
const QString kFake = QStringLiteral(SCOPELINE_FAKE_HIPBENCH);
const char *kNotBuilt = "no GPU: scopeline-hipbench is not built here (it needs nvcc and CUPTI)";

QPushButton *button(const RunnerPanel &panel, const char *name)
{
    return panel.findChild<QPushButton *>(QLatin1String(name));
}

template <typename Field> Field *field(const RunnerPanel &panel, const QString &option)
{
    return panel.findChild<Field *>(option);
}

// Points the panel at `program` for the life of the guard.
struct ProgramGuard
{
    explicit ProgramGuard(const QString &program) { qputenv("SCOPELINE_HIPBENCH", program.toLocal8Bit()); }
    ~ProgramGuard() { qunsetenv("SCOPELINE_HIPBENCH"); }
};

// Hides the GPUs from the programs started for the life of the guard (CUDA and HIP read these), so
// that the no-GPU path is tested on a machine with a GPU too.
struct HideGpus
{
    HideGpus()
    {
        qputenv("CUDA_VISIBLE_DEVICES", "-1");
        qputenv("HIP_VISIBLE_DEVICES", "-1");
    }
    ~HideGpus()
    {
        qunsetenv("CUDA_VISIBLE_DEVICES");
        qunsetenv("HIP_VISIBLE_DEVICES");
    }
};

bool waitForListing(const RunnerPanel &panel)
{
    return QTest::qWaitFor([&panel] { return !panel.isListing(); }, 20000);
}

// The smallest launch-chain pair: quick on a GPU, and the same exit-3 path without one.
void chooseSmallChain(RunnerPanel &panel, const QString &folder)
{
    panel.setWorkload(QStringLiteral("launch-chain"));
    QVERIFY(panel.setOptionValue(QStringLiteral("kernels"), QStringLiteral("16")));
    QVERIFY(panel.setOptionValue(QStringLiteral("iterations"), QStringLiteral("2")));
    QVERIFY(panel.setOptionValue(QStringLiteral("repeat"), QStringLiteral("1")));
    QVERIFY(panel.setOptionValue(QStringLiteral("warmup"), QStringLiteral("1")));
    panel.setOutputFolder(folder);
}

// Shows the panel and starts the small chain into folder; whether it runs.
bool startSmallChain(RunnerPanel &panel, const QString &folder)
{
    panel.show();
    if (!waitForListing(panel))
        return false;
    chooseSmallChain(panel, folder);
    panel.startRun();
    return panel.isRunning();
}

// Clicks Run and waits for the end, measuring the longest stretch the event loop was kept from a 10 ms
// timer (the GUI's responsiveness). Returns the runDone argument.
bool runAndWait(RunnerPanel &panel, qint64 &longestStall)
{
    QSignalSpy done(&panel, &RunnerPanel::runDone);
    QElapsedTimer sinceTick;
    longestStall = 0;
    QTimer ticker;
    ticker.setInterval(10);
    QObject::connect(&ticker, &QTimer::timeout,
                     [&] { longestStall = std::max(longestStall, sinceTick.restart()); });
    QElapsedTimer click;
    click.start();
    QTest::mouseClick(button(panel, "run"), Qt::LeftButton);
    if (click.elapsed() > 1000)
        longestStall = click.elapsed();
    sinceTick.start();
    ticker.start();
    if (done.isEmpty() && !done.wait(120000))
        return false;
    return done.first().first().toBool();
}

} // namespace

class TstRunnerPanel : public QObject
{
    Q_OBJECT

    // The rows of a test that runs either build, and why a row is skipped: the NVIDIA build needs the
    // CUDA toolkit, no Debian package; the AMD one needs hipcc, which setup.sh installs, so it must be
    // there (an empty reason: its absence fails).
    static void programs()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("notBuilt");
        QTest::newRow("scopeline-hipbench") << kHipbench << QString::fromLatin1(kNotBuilt);
        QTest::newRow("scopeline-hipbench-rocm") << kHipbenchRocm << QString();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // default output folders under a test location
        qRegisterMetaType<scopeline::SessionState>();
    }

    void missingProgramSaysSo()
    {
        const QString missing = QDir::temp().filePath(QStringLiteral("no_such_dir/scopeline-hipbench"));
        ProgramGuard guard(missing);
        RunnerPanel panel;
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(!panel.isListing());
        QCOMPARE(panel.program(), QString());
        QVERIFY2(panel.statusText().contains(missing), qPrintable(panel.statusText()));
        QVERIFY(panel.statusText().contains(QLatin1String("not an executable file")));
        QCOMPARE(panel.errorText(), panel.statusText()); // in the error banner
        QVERIFY(panel.findChild<ErrorBanner *>()->isVisible());
        QVERIFY(panel.workloads().isEmpty());
        QVERIFY(!button(panel, "run")->isEnabled());
        QVERIFY(!button(panel, "cancel")->isEnabled());
        panel.startRun(); // e.g. a stray Enter: nothing starts, nothing crashes
        QVERIFY(!panel.isRunning());
        QTest::keyClick(&panel, Qt::Key_Escape);
        QVERIFY(!panel.isVisible());
        // installed meanwhile: shown again, the panel finds it (it stayed empty until a restart)
        ProgramGuard installed(kFake);
        panel.show();
        QVERIFY(waitForListing(panel));
        QVERIFY2(!panel.workloads().isEmpty(), qPrintable(panel.statusText()));
        QCOMPARE(panel.errorText(), QString());
    }

    // Either build: the NVIDIA one first, the AMD one first where AMD's GPU driver is (/dev/kfd).
    void foundInTheBuildTree()
    {
        const bool amd = QFileInfo::exists(QStringLiteral("/dev/kfd"));
        QCOMPARE(HipbenchRunner::programNames(),
                 amd ? QStringList({QStringLiteral("scopeline-hipbench-rocm"), QStringLiteral("scopeline-hipbench")})
                     : QStringList({QStringLiteral("scopeline-hipbench"), QStringLiteral("scopeline-hipbench-rocm")}));
        const QString expected = amd ? (kHipbenchRocm.isEmpty() ? kHipbench : kHipbenchRocm)
                                     : (kHipbench.isEmpty() ? kHipbenchRocm : kHipbench);
        QVERIFY2(!expected.isEmpty(), "neither scopeline-hipbench nor scopeline-hipbench-rocm is built "
                                      "(packaging/setup.sh installs hipcc for the AMD build)");
        qunsetenv("SCOPELINE_HIPBENCH");
        // build/tests/tst_runnerpanel finds build/app/hipbench/scopeline-hipbench(-rocm)
        QCOMPARE(QFileInfo(HipbenchRunner::findProgram()).canonicalFilePath(),
                 QFileInfo(expected).canonicalFilePath());
    }

    // Both builds, where built: the NVIDIA one (nvcc) and the AMD one (hipcc) list the same way.
    void listsWorkloadsAndOptions_data() { programs(); }
    void listsWorkloadsAndOptions()
    {
        QFETCH(QString, program);
        QFETCH(QString, notBuilt);
        if (program.isEmpty()) {
            QVERIFY2(!notBuilt.isEmpty(), "scopeline-hipbench-rocm is not built: hipcc or libamdhip64-dev is "
                                          "missing (packaging/setup.sh installs both)");
            QSKIP(qPrintable(notBuilt));
        }
        const ProcessResult list =
            runProcess(program, {QStringLiteral("--list"), QStringLiteral("--json")});
        QCOMPARE(list.exitCode, 0);
        const QJsonArray expected = QJsonDocument::fromJson(list.out).array();
        QVERIFY(expected.size() >= 3);

        ProgramGuard guard(program);
        RunnerPanel panel;
        panel.show();
        QVERIFY(waitForListing(panel));
        QCOMPARE(panel.program(), QFileInfo(program).absoluteFilePath());
        QVERIFY(panel.workloads().contains(QLatin1String("launch-chain")));
        QVERIFY(panel.workloads().contains(QLatin1String("batched-matmul")));
        QVERIFY(panel.workloads().contains(QLatin1String("attention")));
        QCOMPARE(panel.workloads().size(), expected.size());
        QVERIFY(button(panel, "run")->isEnabled());
        QVERIFY(panel.outputFolder().contains(QLatin1String("/runs/")));

        // Every workload's form shows its options with their defaults and help; choices are combo boxes.
        for (const QJsonValue &value : expected) {
            const QJsonObject workload = value.toObject();
            panel.setWorkload(workload.value(QStringLiteral("name")).toString());
            QCOMPARE(panel.workload(), workload.value(QStringLiteral("name")).toString());
            const QJsonArray options = workload.value(QStringLiteral("options")).toArray();
            QCOMPARE(panel.optionValues().size(), options.size());
            for (const QJsonValue &optionValue : options) {
                const QJsonObject option = optionValue.toObject();
                const QString name = option.value(QStringLiteral("name")).toString();
                const QString def = option.value(QStringLiteral("default")).toString();
                QCOMPARE(panel.optionValues().value(name), def);
                QWidget *widget = field<QWidget>(panel, name);
                QVERIFY2(widget, qPrintable(name));
                QVERIFY(widget->toolTip().contains(option.value(QStringLiteral("help")).toString()));
                if (option.contains(QStringLiteral("choices"))) {
                    auto *combo = qobject_cast<QComboBox *>(widget);
                    QVERIFY2(combo, qPrintable(name));
                    QCOMPARE(combo->count(), option.value(QStringLiteral("choices")).toArray().size());
                    QCOMPARE(combo->currentText(), def);
                } else {
                    QVERIFY2(qobject_cast<QLineEdit *>(widget), qPrintable(name));
                }
            }
            QVERIFY(panel.outputFolder().contains(panel.workload()));
        }

        // Whole-number options take only digits; an empty one disables Run until it is filled in.
        panel.setWorkload(QStringLiteral("launch-chain"));
        auto *kernels = field<QLineEdit>(panel, QStringLiteral("kernels"));
        QVERIFY(kernels);
        kernels->selectAll();
        QTest::keyClicks(kernels, QStringLiteral("12x3"));
        QCOMPARE(kernels->text(), QStringLiteral("123"));
        kernels->clear();
        QVERIFY(!button(panel, "run")->isEnabled());
        QTest::keyClicks(kernels, QStringLiteral("50"));
        QVERIFY(button(panel, "run")->isEnabled());
        auto *ks = field<QLineEdit>(panel, QStringLiteral("k"));
        QVERIFY(!ks); // batched-matmul's option, not shown for launch-chain
    }

    void runWithoutGpuSaysWhy_data() { programs(); }
    void runWithoutGpuSaysWhy()
    {
        QFETCH(QString, program);
        QFETCH(QString, notBuilt);
        if (program.isEmpty()) {
            QVERIFY2(!notBuilt.isEmpty(), "scopeline-hipbench-rocm is not built: hipcc or libamdhip64-dev is "
                                          "missing (packaging/setup.sh installs both)");
            QSKIP(qPrintable(notBuilt));
        }
        ProgramGuard guard(program);
        const HideGpus noGpu; // a machine with a GPU runs this test too
        QTemporaryDir dir;
        RunnerPanel panel;
        panel.show();
        QVERIFY(waitForListing(panel));
        // before a run, where no GPU driver is loaded, the status says a run will fail (it had said "Ready")
        const bool driver = QFileInfo::exists(QStringLiteral("/dev/nvidiactl")) ||
                            QFileInfo::exists(QStringLiteral("/dev/dxg")) ||
                            QFileInfo::exists(QStringLiteral("/dev/kfd"));
        QVERIFY2(panel.statusText().contains(QLatin1String("no GPU driver is loaded")) != driver,
                 qPrintable(panel.statusText()));
        QSignalSpy pairs(&panel, &RunnerPanel::pairReady);
        chooseSmallChain(panel, dir.filePath(QStringLiteral("chain")));
        QElapsedTimer elapsed;
        elapsed.start();
        qint64 stall = 0;
        QVERIFY2(!runAndWait(panel, stall), "the run succeeded with CUDA_VISIBLE_DEVICES=-1 and "
                                            "HIP_VISIBLE_DEVICES=-1: the GPU was not hidden");
        QVERIFY2(elapsed.elapsed() < 10000, "the exit-3 message took more than a few seconds");
        QVERIFY2(stall < 500, qPrintable(QStringLiteral("GUI blocked for %1 ms").arg(stall)));
        QVERIFY(!panel.isRunning());
        const QString status = panel.statusText();
        // names the program, the exit status and its meaning, and the program's own last words
        QVERIFY2(status.contains(panel.program()), qPrintable(status));
        QVERIFY2(status.contains(QLatin1String("exit status 3")), qPrintable(status));
        QVERIFY2(status.contains(QLatin1String("no GPU or a GPU error")), qPrintable(status));
        QVERIFY2(status.contains(QLatin1String("scopeline-hipbench: ")), qPrintable(status));
        QVERIFY(panel.logText().contains(QLatin1String("$ ")));
        QVERIFY(panel.logText().contains(QLatin1String("--kernels 16")));
        QCOMPARE(pairs.count(), 0);
        // ready for another try; the progress bar does not spin on
        QVERIFY(button(panel, "run")->isEnabled());
        QVERIFY(!button(panel, "cancel")->isEnabled());
        QVERIFY(panel.findChild<QProgressBar *>()->maximum() > 0);
    }

    void recordsAPairOnGpu()
    {
        if (kHipbench.isEmpty())
            QSKIP(kNotBuilt);
        ProgramGuard guard(kHipbench);
        QTemporaryDir dir;
        RunnerPanel panel;
        panel.show();
        QVERIFY(waitForListing(panel));
        QSignalSpy pairs(&panel, &RunnerPanel::pairReady);
        chooseSmallChain(panel, dir.filePath(QStringLiteral("chain")));
        qint64 stall = 0;
        if (!runAndWait(panel, stall)) {
            if (panel.statusText().contains(QLatin1String("exit status 3")))
                QSKIP("no GPU: scopeline-hipbench exited with status 3, and the success path needs one");
            QFAIL(qPrintable(panel.statusText()));
        }
        QVERIFY2(stall < 500, qPrintable(QStringLiteral("GUI blocked for %1 ms").arg(stall)));
        QCOMPARE(pairs.count(), 1);
        const QString a = pairs.first().at(0).toString(), b = pairs.first().at(1).toString();
        QCOMPARE(QFileInfo(a).fileName(), QStringLiteral("eager"));
        QCOMPARE(QFileInfo(b).fileName(), QStringLiteral("graph"));
        QVERIFY(QFileInfo(a + QStringLiteral("/run_0/hipbench.pt.trace.json.gz")).isFile());
        const SessionState state = pairs.first().at(2).value<SessionState>();
        QCOMPARE(state.scopes, QStringList{QStringLiteral("chain")});
        QCOMPARE(state.samples, SampleMode::Span);
        QCOMPARE(panel.findChild<QProgressBar *>()->value(), panel.findChild<QProgressBar *>()->maximum());
        // the next run goes to a new folder, never over this one
        panel.setWorkload(QStringLiteral("attention"));
        QVERIFY(panel.outputFolder() != dir.filePath(QStringLiteral("chain")));
    }

    void escCancelsARunOnGpu()
    {
        if (kHipbench.isEmpty())
            QSKIP(kNotBuilt);
        ProgramGuard guard(kHipbench);
        QTemporaryDir dir;
        RunnerPanel panel;
        panel.show();
        QVERIFY(waitForListing(panel));
        panel.setWorkload(QStringLiteral("launch-chain"));
        QVERIFY(panel.setOptionValue(QStringLiteral("kernels"), QStringLiteral("100000")));
        QVERIFY(panel.setOptionValue(QStringLiteral("iterations"), QStringLiteral("1000")));
        panel.setOutputFolder(dir.filePath(QStringLiteral("long")));
        QSignalSpy done(&panel, &RunnerPanel::runDone);
        panel.startRun();
        QVERIFY(panel.isRunning());
        QTest::qWait(1000);
        if (!done.isEmpty())
            QSKIP("no GPU: the run ended at once, so there is nothing to cancel");
        QTest::keyClick(&panel, Qt::Key_Escape); // the first Esc stops the run, the dialog stays
        QVERIFY(done.wait(5000));                // terminate, or kill after 3 s
        QCOMPARE(done.first().first().toBool(), false);
        QVERIFY(panel.isVisible());
        QVERIFY2(panel.statusText().startsWith(QLatin1String("Cancelled")), qPrintable(panel.statusText()));
        QVERIFY(button(panel, "run")->isEnabled());
    }

    // A folder that holds anything is refused before the program starts (its runs would be read with
    // the new ones); ~ and a relative folder are read as a shell reads them.
    void folderIsNewOrEmpty()
    {
        ProgramGuard guard(kFake);
        QTemporaryDir dir;
        RunnerPanel panel;
        panel.show();
        QVERIFY(waitForListing(panel));
        chooseSmallChain(panel, dir.path());
        QFile earlier(dir.filePath(QStringLiteral("earlier.txt")));
        QVERIFY(earlier.open(QIODevice::WriteOnly));
        earlier.close();
        panel.startRun();
        QVERIFY(!panel.isRunning());
        QVERIFY2(panel.errorText().contains(QLatin1String("is not empty")), qPrintable(panel.errorText()));
        QVERIFY(button(panel, "run")->isEnabled());
        // an option out of its range disables Run, saying which and why
        QVERIFY(panel.setOptionValue(QStringLiteral("kernels"), QStringLiteral("0")));
        QVERIFY(!button(panel, "run")->isEnabled());
        auto *problem = panel.findChild<QLabel *>(QStringLiteral("optionsProblem"));
        QVERIFY(problem && problem->isVisible());
        QCOMPARE(problem->text(), QStringLiteral("kernels: a whole number from 1 to 100000"));
        QVERIFY(panel.setOptionValue(QStringLiteral("kernels"), QStringLiteral("16")));
        QVERIFY(!problem->isVisible());
        panel.setOutputFolder(QStringLiteral("~/scopeline-runs/chain"));
        QCOMPARE(panel.outputFolder(), QDir::homePath() + QStringLiteral("/scopeline-runs/chain"));
        panel.setOutputFolder(QStringLiteral("runs/chain"));
        QCOMPARE(panel.outputFolder(), QDir::current().absoluteFilePath(QStringLiteral("runs/chain")));
        // Browse… on a folder with files in it: a new folder in it, which Run takes; an empty one: itself
        panel.chooseOutputFolder(dir.path());
        QCOMPARE(QFileInfo(panel.outputFolder()).dir().absolutePath(),
                 QFileInfo(dir.path()).absoluteFilePath());
        QVERIFY2(!QFileInfo::exists(panel.outputFolder()), qPrintable(panel.outputFolder()));
        QVERIFY(button(panel, "run")->isEnabled());
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("empty")));
        panel.chooseOutputFolder(dir.filePath(QStringLiteral("empty")));
        QCOMPARE(panel.outputFolder(), QFileInfo(dir.filePath(QStringLiteral("empty"))).absoluteFilePath());
    }

    // A run that fails after recording runs says why, and offers them as the pair they make.
    void recordedRunsOfAFailedRunOpen()
    {
        ProgramGuard guard(kFake);
        qputenv("FAKE_HIPBENCH", "fails-late");
        QTemporaryDir dir;
        RunnerPanel panel;
        panel.show();
        QVERIFY(waitForListing(panel));
        QPushButton *open = panel.findChild<QPushButton *>(QStringLiteral("openRecorded"));
        QVERIFY(open && !open->isVisible());
        chooseSmallChain(panel, dir.filePath(QStringLiteral("chain")));
        qint64 stall = 0;
        const bool succeeded = runAndWait(panel, stall);
        qunsetenv("FAKE_HIPBENCH");
        QVERIFY(!succeeded);
        QVERIFY2(panel.errorText().contains(QLatin1String("illegal memory access")),
                 qPrintable(panel.errorText()));
        QVERIFY(open->isVisible());
        QSignalSpy pairs(&panel, &RunnerPanel::pairReady);
        QTest::mouseClick(open, Qt::LeftButton);
        QCOMPARE(pairs.count(), 1);
        QCOMPARE(pairs.first().at(0).toString(), dir.filePath(QStringLiteral("chain/eager")));
        QCOMPARE(pairs.first().at(1).toString(), dir.filePath(QStringLiteral("chain/graph")));
    }

    void failureShowsTheBannerWithDetails()
    {
        ProgramGuard guard(kFake);
        qputenv("FAKE_HIPBENCH", "no-gpu");
        QTemporaryDir dir;
        RunnerPanel panel;
        panel.show();
        QVERIFY(waitForListing(panel));
        QVERIFY2(panel.errorText().isEmpty(), qPrintable(panel.errorText()));
        chooseSmallChain(panel, dir.filePath(QStringLiteral("chain")));
        qint64 stall = 0;
        const bool succeeded = runAndWait(panel, stall);
        qunsetenv("FAKE_HIPBENCH");
        QVERIFY(!succeeded);
        auto *banner = panel.findChild<ErrorBanner *>();
        QVERIFY(banner->isVisible());
        QCOMPARE(panel.statusText(), panel.errorText());
        QVERIFY2(panel.errorText().contains(QLatin1String("exit status 3 (no GPU or a GPU error): "
                                                          "scopeline-hipbench: no CUDA-capable device")),
                 qPrintable(panel.errorText()));
        // the details: the command line, then what the program said
        QVERIFY2(panel.errorDetails().startsWith(kFake + QStringLiteral(" run launch-chain --out")),
                 qPrintable(panel.errorDetails()));
        QVERIFY(panel.errorDetails().endsWith(QLatin1String("no CUDA-capable device is detected")));
        QVERIFY(panel.logText().contains(QLatin1String("--kernels 16")));
        QVERIFY(button(panel, "run")->isEnabled());
        QVERIFY(!button(panel, "cancel")->isEnabled());

        // `SCOPELINE_TEST_SCREENSHOTS=DIR` keeps pictures of the panel, its details closed and open.
        const QString shots = qEnvironmentVariable("SCOPELINE_TEST_SCREENSHOTS");
        if (!shots.isEmpty())
            QVERIFY(panel.grab().save(shots + QStringLiteral("/runnerpanel_error.png")));
        QTest::mouseClick(banner->findChild<QToolButton *>(QStringLiteral("errorDetailsToggle")),
                          Qt::LeftButton);
        QVERIFY(banner->detailsExpanded());
        if (!shots.isEmpty())
            QVERIFY(panel.grab().save(shots + QStringLiteral("/runnerpanel_error_details.png")));

        // the next run starts without the old error
        qputenv("FAKE_HIPBENCH", "ok");
        const bool again = runAndWait(panel, stall);
        qunsetenv("FAKE_HIPBENCH");
        QVERIFY2(again, qPrintable(panel.statusText()));
        QVERIFY(!banner->isVisible());
        QVERIFY2(panel.statusText().startsWith(QLatin1String("Recorded eager (A) vs graph (B)")),
                 qPrintable(panel.statusText()));
    }

    void escCancelsARun()
    {
        ProgramGuard guard(kFake);
        qputenv("FAKE_HIPBENCH", "hang");
        QTemporaryDir dir;
        RunnerPanel panel;
        QSignalSpy done(&panel, &RunnerPanel::runDone);
        QVERIFY(startSmallChain(panel, dir.filePath(QStringLiteral("long"))));
        auto *progress = panel.findChild<QProgressBar *>();
        QVERIFY(QTest::qWaitFor([progress] { return progress->maximum() == 2; }, 5000)); // "progress: 0/2"
        QVERIFY(progress->text().contains(QLatin1String("preparing eager")));
        QTest::keyClick(&panel, Qt::Key_Escape); // the first Esc stops the run, the dialog stays
        QVERIFY(!button(panel, "cancel")->isEnabled());
        QVERIFY(done.wait(5000));
        qunsetenv("FAKE_HIPBENCH");
        QCOMPARE(done.first().first().toBool(), false);
        QVERIFY(panel.isVisible());
        QVERIFY2(panel.statusText().startsWith(QLatin1String("Cancelled")), qPrintable(panel.statusText()));
        QVERIFY(panel.errorText().isEmpty()); // a cancel is not an error
        QVERIFY(button(panel, "run")->isEnabled());
        QTest::keyClick(&panel, Qt::Key_Escape); // the second closes it
        QVERIFY(!panel.isVisible());
    }

    // Closing the panel while a run goes on hides it, and the run goes on: what it records opens in the
    // main window; a failure brings the panel back to say why.
    void closingKeepsTheRunGoing()
    {
        ProgramGuard guard(kFake);
        qputenv("FAKE_HIPBENCH", "fails-late");
        QTemporaryDir dir;
        RunnerPanel panel;
        QSignalSpy done(&panel, &RunnerPanel::runDone);
        QVERIFY(startSmallChain(panel, dir.filePath(QStringLiteral("closed"))));
        panel.close();
        QVERIFY(!panel.isVisible());
        QVERIFY(panel.isRunning());
        QVERIFY(done.wait(10000));
        qunsetenv("FAKE_HIPBENCH");
        QCOMPARE(done.first().first().toBool(), false);
        QVERIFY(panel.isVisible());
        QVERIFY(!panel.errorText().isEmpty());
    }

    void mainWindowOpensTheRunnerAndItsPair()
    {
        // Ctrl+R opens the runner; the pair it records is opened with its scopes and sample mode.
        const QString eager = QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/eager");
        const QString graph = QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/graph");
        REQUIRE_TEST_DATA(eager, graph);
        ProgramGuard guard(kHipbench.isEmpty() ? QStringLiteral("/nonexistent/scopeline-hipbench")
                                               : kHipbench);
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.findChild<RunnerPanel *>());
        QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier);
        auto *panel = window.findChild<RunnerPanel *>();
        QVERIFY(panel);
        QVERIFY(panel->isVisible());
        QCOMPARE(panel->windowTitle(), QStringLiteral("Run Microbenchmark"));
        panel->close();
        QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier);
        QCOMPARE(window.findChildren<RunnerPanel *>().size(), 1); // the same dialog, with its folder and log
        QVERIFY(panel->isVisible());

        SessionState state;
        state.scopes = {QStringLiteral("PjitFunction(<lambda>)")};
        state.samples = SampleMode::Span;
        emit panel->pairReady(eager, graph, state); // what a successful run sends
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.bannerText(), QString());
        QVERIFY(!window.runsA().isEmpty());
        QVERIFY(!window.runsB().isEmpty());
        QVERIFY(window.windowTitle().contains(QLatin1String("eager vs graph")));
    }
};

QTEST_MAIN(TstRunnerPanel)
#include "tst_runnerpanel.moc"
