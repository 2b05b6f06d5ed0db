// SPDX-License-Identifier: GPL-3.0-or-later
// The open dialog driven by keys: typing a path lists its runs (scanned off the GUI thread once typing
// stops), a wrong path says why and keeps Open disabled, a path typed through "/" never blocks.

#include "testdata.h"

#include "app/gui/opendialog.h"
#include "app/gui/variantsdialog.h"
#include "model/analysis/runsummaryfile.h"
#include "model/loading/loadedrun.h"
#include "model/loading/tracefolder.h"
#include "model/loading/traceloader.h"

#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace scopeline;

namespace {

const QString kSamples = QStringLiteral(SCOPELINE_SAMPLES);

QPushButton *openButton(const OpenDialog &dialog)
{
    return dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Open);
}

QLineEdit *pathEdit(const OpenDialog &dialog, int side)
{
    const QList<QLineEdit *> edits = dialog.findChildren<QLineEdit *>();
    return edits.size() == 2 ? edits[side] : nullptr;
}

bool waitForScans(const OpenDialog &dialog)
{
    return QTest::qWaitFor([&dialog] { return !dialog.isScanning(); }, 20000);
}

} // namespace

class TstOpenDialog : public QObject
{
    Q_OBJECT

private slots:
    // Open Variants: a line per variant, the baseline first, reordered, removed; Open needs two.
    void variantsDialog()
    {
        VariantsDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QPushButton *open = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Open);
        QVERIFY(!open->isEnabled());
        dialog.setArguments({QStringLiteral("base=/a"), QStringLiteral("/b")});
        QVERIFY(open->isEnabled());
        dialog.addVariant(QStringLiteral("K=5=/c"));
        QVERIFY(dialog.grab().save(QDir::temp().filePath(QStringLiteral("scopeline_variants_dialog.png"))));
        dialog.list()->setCurrentRow(2);
        dialog.moveSelected(-1);
        dialog.moveSelected(-1);
        dialog.moveSelected(-1); // at the top already
        QCOMPARE(dialog.arguments(), (QStringList{QStringLiteral("K=5=/c"), QStringLiteral("base=/a"),
                                                  QStringLiteral("/b")}));
        dialog.list()->item(1)->setText(QStringLiteral("  "));
        QCOMPARE(dialog.arguments().size(), 2); // an emptied line is no variant
        dialog.list()->setCurrentRow(0);
        QTest::keyClick(dialog.list(), Qt::Key_Delete);
        QCOMPARE(dialog.arguments(), QStringList{QStringLiteral("/b")});
        QVERIFY(!open->isEnabled());
    }

    void typedPathsListRuns()
    {
        OpenDialog dialog({});
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(waitForScans(dialog));
        QVERIFY(!openButton(dialog)->isEnabled());
        const QString a = kSamples + QStringLiteral("/jax_matmul_vs_einsum/matmul");
        const QString b = kSamples + QStringLiteral("/jax_matmul_vs_einsum/einsum");
        for (int side = 0; side < 2; ++side) {
            QLineEdit *edit = pathEdit(dialog, side);
            QVERIFY(edit);
            edit->setFocus();
            // key by key, through "/" and every parent folder on the way
            QElapsedTimer typing;
            typing.start();
            QTest::keyClicks(edit, side == 0 ? a : b);
            QVERIFY2(typing.elapsed() < 5000, "typing blocked on folder scans");
            QVERIFY(dialog.isScanning());
            QVERIFY(!openButton(dialog)->isEnabled()); // not before the runs are known
        }
        QVERIFY(waitForScans(dialog));
        QCOMPARE(dialog.runsListed(0),
                 (QStringList{QStringLiteral("trace_file_matmul_0"), QStringLiteral("trace_file_matmul_1"),
                              QStringLiteral("trace_file_matmul_2")}));
        QCOMPARE(dialog.runsListed(1).size(), 3);
        QVERIFY(openButton(dialog)->isEnabled());
        QCOMPARE(dialog.pathA(), a);
        QCOMPARE(dialog.pathB(), b);
        QTest::keyClick(pathEdit(dialog, 1), Qt::Key_Return);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

    void wrongPathSaysWhy()
    {
        OpenDialog dialog({});
        const QString missing = kSamples + QStringLiteral("/no_such_folder");
        dialog.setPaths(missing, QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/graph"));
        QVERIFY(waitForScans(dialog));
        QVERIFY(dialog.runsListed(0).isEmpty());
        QCOMPARE(dialog.runsListed(1), QStringList{QStringLiteral("trace_file_einsum_0")});
        bool named = false;
        for (const QLabel *label : dialog.findChildren<QLabel *>())
            named = named || (label->text().contains(QLatin1String("no_such_folder")) &&
                              label->text().contains(QLatin1String("no such file or folder")));
        QVERIFY(named);
        QVERIFY(!openButton(dialog)->isEnabled());
    }

    // A file that is not a trace is listed with why, before Open (which stays disabled when a side
    // has no trace at all); a gzip trace and a JSON file without the usual name look like traces.
    void notATraceIsSaid()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString passwd = dir.filePath(QStringLiteral("passwd"));
        QFile text(passwd);
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n");
        text.close();
        QVERIFY(!TraceLoader::notATrace(passwd).isEmpty());
        QVERIFY(!TraceLoader::notATrace(dir.filePath(QStringLiteral("missing.json"))).isEmpty());
        const QString gz = dir.filePath(QStringLiteral("t.json.gz"));
        QFile packed(gz);
        QVERIFY(packed.open(QIODevice::WriteOnly));
        // gzip of "{}\n"
        packed.write(QByteArray::fromHex("1f8b08000000000002ffabaee5020006b0a1dd03000000"));
        packed.close();
        QVERIFY2(TraceLoader::notATrace(gz).isEmpty(), qPrintable(TraceLoader::notATrace(gz)));
        // A gzip archive cut short is said; every format's real file is taken.
        const QString broken = dir.filePath(QStringLiteral("broken.json.gz"));
        QFile cut(broken);
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(QByteArray::fromHex("1f8b0800000000000003ffffffff"));
        cut.close();
        QVERIFY(!TraceLoader::notATrace(broken).isEmpty());
        for (const char *real : {"/public/TraceLens/tests__rocprof__908_results.json.gz",
                                 "/converted/rocpd/908_results.db",
                                 "/public/pipit/pipit__tests__data__saxpy-mpi-cuda_nsys_perlmutter0.sqlite",
                                 "/public/TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz"}) {
            const QString file = QStringLiteral(SCOPELINE_TEST_DATA) + QLatin1String(real);
            QVERIFY2(QFileInfo::exists(file), qPrintable(QStringLiteral("missing test data: ") + file));
            QVERIFY2(TraceLoader::notATrace(file).isEmpty(), qPrintable(file + TraceLoader::notATrace(file)));
        }
        const QString graph = QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/graph");

        OpenDialog dialog({});
        dialog.setPaths(passwd, graph);
        QVERIFY(waitForScans(dialog));
        QCOMPARE(dialog.runsListed(0), QStringList{QStringLiteral("passwd")});
        QVERIFY2(dialog.statusText(0).contains(QLatin1String("passwd: not a trace")),
                 qPrintable(dialog.statusText(0)));
        QVERIFY(!openButton(dialog)->isEnabled());
        QCOMPARE(dialog.pairingNote(), QString());
    }

    // Summary files (scopeline-cli summarize) open wherever traces do, so the dialog lists them as runs.
    void summaryFilesAreRuns()
    {
        const QString graph = QStringLiteral(SCOPELINE_TEST_DATA "/h100_runs/hipbench/launch-chain/graph");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<TraceRun> runs = TraceFolder::scan(graph);
        QVERIFY(runs.size() >= 2);
        for (const LoadedRun &run :
             LoadedRun::loadAll(runs, nullptr, LoadedRun::Scopes::Index, LoadedRun::Events::Drop)) {
            QVERIFY2(run.summary, qPrintable(run.error));
            const QString file = dir.filePath(run.run.name + RunSummaryFile::suffix());
            QCOMPARE(RunSummaryFile::write(*run.summary, file), QString());
            QVERIFY2(TraceLoader::notATrace(file).isEmpty(), qPrintable(TraceLoader::notATrace(file)));
        }
        OpenDialog dialog({});
        dialog.setPaths(dir.path(), graph);
        QVERIFY(waitForScans(dialog));
        QCOMPARE(dialog.runsListed(0).size(), qsizetype(runs.size()));
        QVERIFY2(dialog.statusText(0).contains(QStringLiteral("%1 run(s) found").arg(runs.size())),
                 qPrintable(dialog.statusText(0)));
        QVERIFY(openButton(dialog)->isEnabled());
    }

    // 6 runs with 5: the dialog says that one run of A has no partner.
    void unevenRunsAreNoted()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const auto &[side, count] :
             {std::pair{QStringLiteral("a"), 6}, std::pair{QStringLiteral("b"), 5}}) {
            QVERIFY(QDir(dir.path()).mkpath(side));
            for (int i = 0; i < count; ++i) {
                QFile file(dir.filePath(QStringLiteral("%1/run_%2.pt.trace.json").arg(side).arg(i)));
                QVERIFY(file.open(QIODevice::WriteOnly));
                file.write("{\"traceEvents\": []}\n");
            }
        }
        OpenDialog dialog({});
        dialog.setPaths(dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("b")));
        QVERIFY(waitForScans(dialog));
        QCOMPARE(dialog.runsListed(0).size(), 6);
        QCOMPARE(dialog.runsListed(1).size(), 5);
        QVERIFY2(dialog.pairingNote().contains(QLatin1String("A has 6 runs and B 5")),
                 qPrintable(dialog.pairingNote()));
        QVERIFY(openButton(dialog)->isEnabled());
    }

    // Rank files of one job: listed by rank, counted as runs (2 of 16 files), a partial world said;
    // the pairing note counts runs.
    void rankFilesCountAsRuns()
    {
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(testdata::rankRuns(dir.filePath(QStringLiteral("a")), 2));
        const QDir job(testdata::dlrmRun());
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("b"))));
        for (const QString &file : job.entryList({QStringLiteral("worker[23]_*")}, QDir::Files))
            QVERIFY(testdata::anotherRun(job.filePath(file), dir.filePath(QStringLiteral("b/") + file)));
        OpenDialog dialog({});
        dialog.setPaths(dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("b")));
        QVERIFY(waitForScans(dialog));
        QCOMPARE(dialog.runsListed(0).size(), 16);
        QCOMPARE(dialog.runsListed(0).front(), QStringLiteral("run_0 · rank 0"));
        QVERIFY2(dialog.statusText(0).contains(QLatin1String("2 run(s) of 16 rank files found")),
                 qPrintable(dialog.statusText(0)));
        QVERIFY2(dialog.statusText(1).contains(QLatin1String("1 run(s) of 2 rank files found")) &&
                     dialog.statusText(1).contains(QLatin1String("2 of 8 ranks of the job (a partial world)")),
                 qPrintable(dialog.statusText(1)));
        QVERIFY2(dialog.pairingNote().contains(QLatin1String("A has 2 runs and B 1")), qPrintable(dialog.pairingNote()));
    }

    // A "latest" link to a run listed already: the dialog lists and counts it once, as the load does.
    void linkedRunCountsOnce()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const char *run : {"a/run_0", "a/run_1", "b/run_0"}) {
            QVERIFY(QDir(dir.path()).mkpath(QLatin1String(run)));
            QFile file(dir.filePath(QStringLiteral("%1/x.pt.trace.json").arg(QLatin1String(run))));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("{\"traceEvents\": []}\n");
        }
        QVERIFY(QFile::link(QStringLiteral("run_1"), dir.filePath(QStringLiteral("a/latest"))));
        OpenDialog dialog({});
        dialog.setPaths(dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("b")));
        QVERIFY(waitForScans(dialog));
        QCOMPARE(dialog.runsListed(0), (QStringList{QStringLiteral("run_0"), QStringLiteral("run_1")}));
        QVERIFY2(
            dialog.statusText(0).contains(QLatin1String("2 run(s) found")) &&
                dialog.statusText(0).contains(QLatin1String("1 link(s) to runs already listed counted once")),
            qPrintable(dialog.statusText(0)));
    }

    void staleScanIsDropped()
    {
        // "/" is scanned (and refused: too many folders) while the real path is already typed
        OpenDialog dialog({});
        dialog.setPaths(QStringLiteral("/"), QStringLiteral("/"));
        QTest::qWait(300); // the "/" scans start
        const QString b = QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/eager");
        dialog.setPaths(QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/graph"), b);
        QVERIFY(waitForScans(dialog));
        QCOMPARE(dialog.runsListed(0), QStringList{QStringLiteral("trace_file_einsum_0")});
        QCOMPARE(dialog.runsListed(1), QStringList{QStringLiteral("trace_file_einsum_0")});
        QVERIFY(openButton(dialog)->isEnabled());
    }
};

QTEST_MAIN(TstOpenDialog)
#include "tst_opendialog.moc"
