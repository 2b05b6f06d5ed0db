// SPDX-License-Identifier: GPL-3.0-or-later
// The main window driven as a user would: open the bundled pair, fail a load without losing the
// document, cancel, save and reopen a session, swap A and B, export a report, and look at it. The
// Samples menu is the table of sample pairs; the shortcut help lists every action with a shortcut.
// The one-process caveat shows in both tabs for the JAX sample and in neither for runs of 4 processes
// a side, where What changed's "By op" box regroups the kernels by op.

#include "testdata.h"

#include "mainwindow.h"
#include "samplepairs.h"
#include "widgets/caveatbanner.h"
#include "widgets/comparisonpanel.h"
#include "widgets/kerneldiffmodel.h"
#include "widgets/kerneldiffview.h"
#include "widgets/pairtimeline.h"

#include <QCheckBox>
#include <QTabWidget>

#include <QMenu>
#include <QMessageBox>
#include <QSplitter>
#include <QtTest>

using namespace scopeline;

namespace {

const QString kSamples = QStringLiteral(SCOPELINE_SAMPLES);
const QString kMatmul = kSamples + QStringLiteral("/jax_matmul_vs_einsum/matmul");
const QString kEinsum = kSamples + QStringLiteral("/jax_matmul_vs_einsum/einsum");
const QStringList kScopes = {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"), QStringLiteral("mlp")};

bool openAndWait(MainWindow &window, const QString &a, const QString &b, const SessionState &state = {})
{
    window.openPair(a, b, state);
    return QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000);
}

bool nonUniform(const QImage &image)
{
    const QRgb first = image.pixel(0, 0);
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            if (image.pixel(x, y) != first)
                return true;
    return false;
}

} // namespace

class TstMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent pairs and geometry go to a test location
        QSettings().clear();
        REQUIRE_TEST_DATA(kMatmul, kEinsum);
    }

    void opensThePairWithScopes()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        SessionState state;
        state.scopes = kScopes;
        QVERIFY(openAndWait(window, kMatmul, kEinsum, state));
        QCOMPARE(window.runsA().size(), 3);
        QCOMPARE(window.runsB().size(), 3);
        QCOMPARE(window.bannerText(), QString());
        QCOMPARE(window.panel()->selectedScopes(), kScopes);
        QCOMPARE(window.panel()->rows().size(), std::size_t(kScopes.size() * 4)); // 3 run pairs + pooled
        QVERIFY(window.windowTitle().contains(QLatin1String("matmul vs einsum")));
        QVERIFY(window.timeline()->viewA()->run().trace);
        QVERIFY(window.timeline()->viewB()->run().trace);
        QTest::qWait(200);
        const QImage shot = window.grab().toImage();
        QVERIFY(nonUniform(shot));
        QVERIFY(shot.save(QDir::temp().filePath(QStringLiteral("scopeline_mainwindow.png"))));
    }

    void processesAndTheCaveat()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        QVERIFY(window.diffView()->caveatBanner()->isShown());
        QVERIFY(window.panel()->caveatBanner()->isShown());
        QCOMPARE(window.diffView()->caveatBanner()->caveat(), window.diffView()->diff()->summary().caveat);

        const QString procA = testdata::path("h100_runs/jax_processes/matmul");
        const QString procB = testdata::path("h100_runs/jax_processes/einsum");
        REQUIRE_TEST_DATA(procA, procB);
        QVERIFY(openAndWait(window, procA, procB));
        QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget *>(window.diffView()));
        QVERIFY(!window.diffView()->caveatBanner()->isShown());
        QVERIFY(!window.panel()->caveatBanner()->isShown());
        QVERIFY(window.diffView()->headerText().startsWith(QLatin1String("16 v 16 runs in 4 v 4 processes")));
        const int byKernel = window.diffView()->model()->rowCount();
        window.diffView()->byOpCheck()->click();
        QCOMPARE(window.diffView()->model()->rowCount(), 62);
        QCOMPARE(
            window.diffView()->model()->headerData(KernelDiffModel::KernelColumn, Qt::Horizontal).toString(),
            QStringLiteral("Op"));
        // an op's kernels are highlighted in both timelines
        window.diffView()->selectRow(0);
        QVERIFY(window.timeline()->viewA()->hasHighlight());
        QVERIFY(window.timeline()->viewB()->hasHighlight());
        QTest::qWait(200);
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_processes_by_op.png"))));
        window.diffView()->byOpCheck()->click();
        QCOMPARE(window.diffView()->model()->rowCount(), byKernel);
    }

    void eagerVsGraphSample()
    {
        qApp->setProperty("samplesFolder", kSamples); // as main() sets it; the Samples menu reads it
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QAction *sample = nullptr;
        for (QAction *action : window.findChildren<QAction *>())
            if (action->text().startsWith(QLatin1String("Eager launches vs CUDA graphs")))
                sample = action;
        QVERIFY(sample && sample->isEnabled());
        sample->trigger();
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.bannerText(), QString());
        // the call of the jitted function is found on both sides: one wall span per forward call
        QCOMPARE(window.panel()->selectedScopes(), QStringList{QStringLiteral("PjitFunction(<lambda>)")});
        const std::vector<ComparisonRow> &rows = window.panel()->rows();
        QVERIFY(!rows.empty());
        QCOMPARE(rows.back().a.n, std::size_t(20));
        QCOMPARE(rows.back().b.n, std::size_t(20));
        QCOMPARE(rows.back().verdict(0.05, 0.01), Verdict::Faster); // graph replay shortens every call
        QTest::qWait(200);
        QVERIFY(window.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_eager_vs_graph.png"))));
    }

    // One menu entry per sample pair of the table, each pair there on disk, the first the quick start.
    void samplesMenuIsTheTable()
    {
        qApp->setProperty("samplesFolder", kSamples);
        MainWindow window;
        const QList<SamplePair> pairs = samplePairs(kSamples);
        QVERIFY(pairs.size() >= 2);
        QCOMPARE(pairs.front().state.pathA, kMatmul);
        QCOMPARE(pairs.front().state.scopes, kScopes);
        QMenu *menu = nullptr;
        for (QMenu *candidate : window.findChildren<QMenu *>())
            if (candidate->title() == QLatin1String("&Samples"))
                menu = candidate;
        QVERIFY(menu && menu->isEnabled());
        QCOMPARE(menu->actions().size(), pairs.size());
        for (int i = 0; i < pairs.size(); ++i) {
            QCOMPARE(menu->actions()[i]->text(), pairs[i].title);
            REQUIRE_TEST_DATA(pairs[i].state.pathA, pairs[i].state.pathB);
        }
        qApp->setProperty("samplesFolder", QString());
        MainWindow without; // no samples folder: the menu is there, disabled
        for (QMenu *candidate : without.findChildren<QMenu *>())
            if (candidate->title() == QLatin1String("&Samples"))
                QVERIFY(!candidate->isEnabled());
    }

    // The help is made from the actions: each one with a shortcut is in it, with its text.
    void shortcutHelpListsEveryAction()
    {
        MainWindow window;
        const QString help = window.shortcutHelp();
        int withShortcut = 0;
        for (const QAction *action : window.findChildren<QAction *>()) {
            if (action->shortcut().isEmpty())
                continue;
            ++withShortcut;
            const QString keys = action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped();
            QString text = action->text();
            text.remove(QLatin1Char('&'));
            text.remove(QStringLiteral("…"));
            QVERIFY2(help.contains(QStringLiteral("<b>%1").arg(keys)), qPrintable(keys));
            QVERIFY2(help.contains(QStringLiteral("</td><td>%1</td>").arg(text.toHtmlEscaped())),
                     qPrintable(text));
        }
        QVERIFY(withShortcut >= 15); // the menus, the panel's and the views' own
        for (const char *expected : {"Ctrl+O", "Ctrl+Shift+X", "Esc", "Ctrl+K", "Ctrl+F", "Ctrl+L", "Ctrl+P"})
            QVERIFY2(help.contains(QLatin1String(expected)), expected);
        QVERIFY(help.contains(QLatin1String("Swap A and B")));
        // the help box shows it
        QString shown;
        QTimer poll;
        poll.setInterval(10);
        connect(&poll, &QTimer::timeout, &window, [&shown, &poll] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                shown = box->text();
                poll.stop();
                box->accept();
            }
        });
        poll.start();
        for (QAction *action : window.findChildren<QAction *>())
            if (action->text() == QLatin1String("&Keyboard Shortcuts"))
                action->trigger();
        QCOMPARE(shown, help);
    }

    void trailingSlashesNameTheSides()
    {
        MainWindow window;
        QVERIFY(openAndWait(window, kSamples + QStringLiteral("/eager_vs_graph/eager/"),
                            kSamples + QStringLiteral("/eager_vs_graph/graph//")));
        QVERIFY2(window.windowTitle().startsWith(QLatin1String("eager vs graph")),
                 qPrintable(window.windowTitle()));
    }

    void skippedEventsAreSaidInTheBanner()
    {
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.json")),
                      counters = dir.filePath(QStringLiteral("counters.json"));
        const QByteArray good = R"({"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":5,"dur":2})";
        for (const auto &[path, extra] :
             {std::pair{
                  broken,
                  QByteArray(R"({"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":"soon","dur":2})")},
              std::pair{counters, QByteArray(R"({"ph":"C","name":"mem","pid":1,"ts":5,"args":{"v":1}})")}}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("{\"traceEvents\":[" + extra + "," + good + "]}");
        }
        MainWindow window;
        QVERIFY(openAndWait(window, counters, counters));
        QCOMPARE(window.bannerText(), QString()); // counters are skipped by design, not broken
        QVERIFY(openAndWait(window, counters, broken));
        QVERIFY2(window.bannerText().contains(QLatin1String("B ") + broken) &&
                     window.bannerText().contains(QStringLiteral("1 × unreadable ts")),
                 qPrintable(window.bannerText()));
        QCOMPARE(window.runsB().size(), 1); // the rest is shown
        QCOMPARE(qint64(window.runsB().front().trace->eventCount()), qint64(1));
    }

    void settingsPersist()
    {
        QList<int> sizes;
        {
            MainWindow window;
            window.resize(1400, 900);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.panel()->setThreshold(0.035);
            auto *splitter = window.findChild<QSplitter *>(QStringLiteral("mainSplitter"));
            QVERIFY(splitter);
            splitter->setSizes({300, 500});
            sizes = splitter->sizes();
            window.close();
        }
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.size(), QSize(1400, 900));
        QCOMPARE(again.panel()->threshold(), 0.035);
        QCOMPARE(again.findChild<QSplitter *>(QStringLiteral("mainSplitter"))->sizes(), sizes);
        again.close();
        QSettings().clear(); // the other tests start from the defaults
    }

    void failedLoadKeepsTheDocument()
    {
        MainWindow window;
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        const QString missing = QStringLiteral("/nonexistent/traces");
        QVERIFY(openAndWait(window, missing, kEinsum));
        QVERIFY2(window.bannerText().contains(missing), qPrintable(window.bannerText()));
        QCOMPARE(window.runsA().size(), 3);
        QCOMPARE(window.runsA().front().run.name, QStringLiteral("trace_file_matmul_0"));
    }

    void cancelKeepsTheDocument()
    {
        const QString large =
            testdata::path("public/TraceLens/"
                           "tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz");
        REQUIRE_TEST_DATA(large);
        MainWindow window;
        window.show();
        QVERIFY(openAndWait(window, kMatmul, kEinsum));
        // at any moment of the load: before inflating starts, while parsing, near the end
        for (const int after : {0, 20, 80, 200, 400}) {
            window.openPair(large, large);
            QVERIFY(window.isLoading());
            QTest::qWait(after);
            if (!window.isLoading()) { // a fast machine finished first: nothing left to cancel
                QVERIFY(openAndWait(window, kMatmul, kEinsum));
                continue;
            }
            QElapsedTimer cancelled;
            cancelled.start();
            QTest::keyClick(&window, Qt::Key_Escape);
            QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 30000));
            QVERIFY2(cancelled.elapsed() < 2000,
                     qPrintable(QStringLiteral("cancel took %1 ms").arg(cancelled.elapsed())));
            QCOMPARE(window.runsA().front().run.name, QStringLiteral("trace_file_matmul_0"));
            QCOMPARE(window.bannerText(), QString());
        }
    }

    void sessionRoundTrip()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("pair.scopeline.json"));
        {
            MainWindow window;
            SessionState state;
            state.scopes = {QStringLiteral("attn_q_k")};
            state.samples = SampleMode::Instance;
            QVERIFY(openAndWait(window, kMatmul, kEinsum, state));
            QVERIFY(window.saveSession(file));
        }
        MainWindow reopened;
        QVERIFY(reopened.openSession(file));
        QVERIFY(QTest::qWaitFor([&reopened] { return !reopened.isLoading(); }, 60000));
        QCOMPARE(reopened.panel()->selectedScopes(), QStringList{QStringLiteral("attn_q_k")});
        QCOMPARE(reopened.panel()->sampleMode(), SampleMode::Instance);
        QCOMPARE(reopened.runsA().size(), 3);

        // A corrupt session is reported and nothing of it applied.
        const QString corrupt = dir.filePath(QStringLiteral("corrupt.scopeline.json"));
        QFile out(corrupt);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("{ not json");
        out.close();
        QVERIFY(!reopened.openSession(corrupt));
        QVERIFY(reopened.bannerText().contains(QLatin1String("corrupt.scopeline.json")));
        QCOMPARE(reopened.panel()->selectedScopes(), QStringList{QStringLiteral("attn_q_k")});
    }

    void swapAndExport()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        SessionState state;
        state.scopes = kScopes;
        QVERIFY(openAndWait(window, kMatmul, kEinsum, state));
        QTest::keyClick(&window, Qt::Key_X, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(QTest::qWaitFor([&window] { return !window.isLoading(); }, 60000));
        QCOMPARE(window.runsA().front().run.name, QStringLiteral("trace_file_einsum_0"));
        QCOMPARE(window.panel()->selectedScopes(), kScopes);

        QTemporaryDir dir;
        QVERIFY(window.exportReport(dir.path()));
        for (const char *name :
             {"boxplot.png", "timeline_a.png", "timeline_b.png", "stats.csv", "index.html"})
            QVERIFY2(QFileInfo(QDir(dir.path()).filePath(QLatin1String(name))).size() > 0, name);
    }

    // Help > About names the license (GPL-3.0-or-later, because QCustomPlot is GPL-3.0).
    void aboutNamesTheLicense()
    {
        MainWindow window;
        window.show();
        QAction *about = nullptr;
        for (QAction *action : window.findChildren<QAction *>())
            if (action->text() == QLatin1String("&About Scopeline"))
                about = action;
        QVERIFY(about);
        QString text;
        QTimer poll; // runs inside the message box's own event loop
        poll.setInterval(10);
        connect(&poll, &QTimer::timeout, &window, [&text, &poll] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                text = box->text();
                poll.stop();
                box->accept();
            }
        });
        poll.start();
        about->trigger(); // modal: returns once the timer has read and closed the box
        QVERIFY2(text.contains(QLatin1String("GPL-3.0-or-later")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("QCustomPlot, which it links, is GPL-3.0")), qPrintable(text));
    }
};

QTEST_MAIN(TstMainWindow)
#include "tst_mainwindow.moc"
