// SPDX-License-Identifier: GPL-3.0-or-later
// A write that fails is an error, never a short file: every file the CLI and the app write (CSVs,
// run summaries, report folders, screenshots, sessions), written where the disk cannot take it all (a
// file-size limit, RLIMIT_FSIZE, with SIGXFSZ ignored so that write() fails with EFBIG as on a full
// disk), ends in a failing exit status and a message naming the path and the system's reason, and
// leaves nothing behind: no short file, no temporary file, an earlier file as it was. A CSV asked into
// a FIFO is written into it, not put in its place.

#include "testdata.h"
#include "testprocess.h"

#include "model/loading/sessionfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace scopeline;

namespace {

const QString kMatmul = QStringLiteral(SCOPELINE_SAMPLES "/jax_matmul_vs_einsum/matmul");
const QString kEinsum = QStringLiteral(SCOPELINE_SAMPLES "/jax_matmul_vs_einsum/einsum");
const QString kEager = QStringLiteral(SCOPELINE_SAMPLES "/torch_compile/eager");
const QString kGraphs = QStringLiteral(SCOPELINE_SAMPLES "/torch_compile/reduce_overhead");
const QByteArray kEarlier = "an earlier file, to be left as it was\n";
const rlim_t kLimit = 1024; // bytes: less than any of the files below

// Files may not grow past `bytes`; a write past it fails with EFBIG instead of killing the process.
void limitFiles(rlim_t bytes)
{
    const rlimit limit{bytes, RLIM_INFINITY};
    setrlimit(RLIMIT_FSIZE, &limit);
    std::signal(SIGXFSZ, SIG_IGN);
}

QStringList entries(const QString &folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
}

} // namespace

class TestWriteFailures : public QObject
{
    Q_OBJECT

private slots:
    void failedWriteLeavesNothing_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("arguments"); // OUT stands for the file or folder written
        QTest::addColumn<QString>("written");       // what is written, relative to the temporary folder
        QTest::addColumn<bool>("earlier");          // whether an earlier file at that path must survive
        const QString cli = QStringLiteral(SCOPELINE_CLI), out = QStringLiteral("OUT");
        QTest::newRow("diff --csv") << cli
                                    << QStringList{QStringLiteral("diff"), kMatmul, kEinsum,
                                                   QStringLiteral("--csv"), out}
                                    << QStringLiteral("out.csv") << true;
        QTest::newRow("steps --csv") << cli
                                     << QStringList{QStringLiteral("steps"), kEager, kGraphs,
                                                    QStringLiteral("--csv"), out}
                                     << QStringLiteral("out.csv") << true;
        QTest::newRow("compare --csv") << cli
                                       << QStringList{QStringLiteral("compare"),
                                                      kMatmul,
                                                      kEinsum,
                                                      QStringLiteral("--scope"),
                                                      QStringLiteral("mlp"),
                                                      QStringLiteral("--scope"),
                                                      QStringLiteral("attn_q_k"),
                                                      QStringLiteral("--csv"),
                                                      out}
                                       << QStringLiteral("out.csv") << true;
        QTest::newRow("summarize") << cli
                                   << QStringList{QStringLiteral("summarize"), kMatmul, QStringLiteral("-o"),
                                                  out}
                                   << QStringLiteral("summaries") << false;
        QTest::newRow("report") << cli
                                << QStringList{QStringLiteral("report"), kMatmul, kEinsum,
                                               QStringLiteral("--out"), out}
                                << QStringLiteral("report") << false;
        QTest::newRow("screenshot") << QStringLiteral(SCOPELINE_GUI)
                                    << QStringList{kMatmul, kEinsum, QStringLiteral("--screenshot"), out}
                                    << QStringLiteral("shot.png") << true;
    }

    void failedWriteLeavesNothing()
    {
        QFETCH(QString, program);
        QFETCH(QStringList, arguments);
        QFETCH(QString, written);
        QFETCH(bool, earlier);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(written);
        if (earlier) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly) && file.write(kEarlier) == kEarlier.size());
        }
        arguments.replace(arguments.indexOf(QStringLiteral("OUT")), path);

        const ProcessResult result = runProcess(program, arguments, [] { limitFiles(kLimit); });
        QVERIFY2(result.exitCode > 0, result.err.constData()); // failed, and said so (not a crash)
        QVERIFY2(result.err.contains("File too large"), result.err.constData());
        QVERIFY2(result.err.contains(QDir::toNativeSeparators(dir.path()).toUtf8()), result.err.constData());
        if (program == QLatin1String(SCOPELINE_CLI))
            QCOMPARE(result.exitCode, 2);
        if (earlier) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll(), kEarlier);
            QCOMPARE(entries(dir.path()), QStringList{written}); // no temporary file beside it
        } else {
            // A summaries or report folder may be made; nothing is left in it.
            QVERIFY2(entries(path).isEmpty(), qPrintable(entries(path).join(QLatin1Char(' '))));
        }

        // Without the limit the same command writes the file: the limit, not the command, failed.
        const ProcessResult unlimited = runProcess(program, arguments);
        QVERIFY2(unlimited.exitCode == 0, unlimited.err.constData());
        QVERIFY(earlier ? QFileInfo(path).size() > qint64(kLimit) : !entries(path).isEmpty());
    }

    // `--csv` into a FIFO (as `--csv >(…)` and /dev/stdout in a pipe are): the reader gets the CSV the
    // same command writes into a file, and the FIFO is still one; replacing it, as a file is replaced
    // whole, left a regular file at its path and the reader with nothing.
    // A CSV named after a trace or a run summary, an input among them, leaves it as it was and says so:
    // `diff side ... --csv side/run_0/trace.json.gz` had replaced the trace (exit 0). Another CSV is
    // written over.
    void csvNeverReplacesATrace()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString side = dir.filePath(QStringLiteral("side"));
        QVERIFY(QDir().mkpath(side + QStringLiteral("/run_0")));
        const QStringList runs = QDir(kEager).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY(!runs.isEmpty());
        const QString source =
            QDir(kEager + QLatin1Char('/') + runs.front())
                .filePath(QDir(kEager + QLatin1Char('/') + runs.front()).entryList(QDir::Files).value(0));
        const QString trace = side + QStringLiteral("/run_0/") + QFileInfo(source).fileName();
        QVERIFY(QFile::copy(source, trace));
        const QString cli = QStringLiteral(SCOPELINE_CLI), summary = dir.filePath(QStringLiteral("sum"));
        QVERIFY(
            runProcess(cli, {QStringLiteral("summarize"), side, QStringLiteral("-o"), summary}).exitCode ==
            0);
        const QString summaryFile = summary + QStringLiteral("/run_0.slsum");
        QVERIFY(QFileInfo::exists(summaryFile));
        const auto bytesOf = [](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        for (const QString &target : {trace, summaryFile}) {
            const QByteArray before = bytesOf(target);
            QVERIFY(!before.isEmpty());
            for (const QString &command : {QStringLiteral("diff"), QStringLiteral("steps")}) {
                const ProcessResult result =
                    runProcess(cli, {command, side, kGraphs, QStringLiteral("--csv"), target});
                QVERIFY2(result.exitCode != 0, qPrintable(command + QLatin1Char(' ') + target));
                QVERIFY2(result.err.contains(QFile::encodeName(target) + ": it is a trace or a run summary"),
                         result.err.constData());
                QCOMPARE(bytesOf(target), before);
            }
        }
        const QString csv = dir.filePath(QStringLiteral("rows.csv"));
        for (int time = 0; time < 2; ++time) // a CSV already there is replaced
            QVERIFY(runProcess(cli, {QStringLiteral("diff"), side, kGraphs, QStringLiteral("--csv"), csv})
                        .exitCode == 0);
        QVERIFY(bytesOf(csv).startsWith("kernel,"));
    }

    void csvIntoFifo()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("rows.csv")),
                      fifo = dir.filePath(QStringLiteral("fifo"));
        QVERIFY(mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const QString cli = QStringLiteral(SCOPELINE_CLI), diff = QStringLiteral("diff"),
                      csv = QStringLiteral("--csv");
        const ProcessResult toFile = runProcess(cli, {diff, kEager, kGraphs, csv, file});
        QVERIFY2(toFile.exitCode == 0, toFile.err.constData());
        QFile written(file);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray expected = written.readAll();
        QVERIFY(expected.startsWith("kernel,"));

        // Opened for reading first, without waiting for a writer; the CSV is less than a pipe holds.
        const int in = open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
        QVERIFY(in >= 0);
        const ProcessResult toFifo = runProcess(cli, {diff, kEager, kGraphs, csv, fifo});
        QByteArray got;
        char buffer[4096];
        for (ssize_t n; (n = read(in, buffer, sizeof buffer)) > 0;)
            got.append(buffer, n);
        close(in);
        QVERIFY2(toFifo.exitCode == 0, toFifo.err.constData());
        QCOMPARE(got, expected);
        struct stat st
        {
        };
        QVERIFY(stat(QFile::encodeName(fifo).constData(), &st) == 0 && S_ISFIFO(st.st_mode));
    }

    // "--csv -" (and "--csv=-") puts the CSV on standard output, alone, and makes no file named "-".
    void csvToStandardOutput_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QByteArray>("header");
        QTest::newRow("diff") << QStringList{QStringLiteral("diff"), kEager, kGraphs}
                              << QByteArray("kernel,");
        QTest::newRow("steps gated") << QStringList{QStringLiteral("steps"), kEager, kGraphs,
                                                    QStringLiteral("--fail-on"), QStringLiteral("slower")}
                                     << QByteArray("component,");
    }

    void csvToStandardOutput()
    {
        QFETCH(QStringList, command);
        QFETCH(QByteArray, header);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString cli = QStringLiteral(SCOPELINE_CLI), file = dir.filePath(QStringLiteral("rows.csv"));
        const ProcessResult toFile = runProcess(cli, command + QStringList{QStringLiteral("--csv"), file});
        QVERIFY2(toFile.exitCode == 0, toFile.err.constData());
        QVERIFY(!toFile.out.isEmpty()); // the report, which "-" leaves out
        QFile written(file);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray expected = written.readAll();
        QVERIFY(expected.startsWith(header));

        const QByteArray folder = QFile::encodeName(dir.path());
        const auto inFolder = [&folder] { (void)chdir(folder.constData()); };
        for (const QStringList &csv : {QStringList{QStringLiteral("--csv"), QStringLiteral("-")},
                                       QStringList{QStringLiteral("--csv=-")}}) {
            const ProcessResult toStdout = runProcess(cli, command + csv, inFolder);
            QVERIFY2(toStdout.exitCode == 0, toStdout.err.constData());
            QCOMPARE(toStdout.out, expected);
        }
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("-"))));
    }

    // A report sent to standard output that cannot take it (`> comment.md` on a full disk): exit 2 and
    // the reason, never 0 with a short report.
    void reportToAFullStandardOutput_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::newRow("diff markdown") << QStringList{QStringLiteral("diff"), kEager, kGraphs,
                                                      QStringLiteral("--format"), QStringLiteral("markdown")};
        QTest::newRow("steps json, gated") << QStringList{QStringLiteral("steps"),
                                                          kEager,
                                                          kGraphs,
                                                          QStringLiteral("--format"),
                                                          QStringLiteral("json"),
                                                          QStringLiteral("--fail-on"),
                                                          QStringLiteral("slower")};
        QTest::newRow("info json") << QStringList{QStringLiteral("info"), QStringLiteral("--json"), kEager};
    }

    void reportToAFullStandardOutput()
    {
        QFETCH(QStringList, command);
        const auto toFullDevice = [] {
            const int full = open("/dev/full", O_WRONLY);
            if (full >= 0)
                dup2(full, STDOUT_FILENO);
        };
        const ProcessResult run = runProcess(QStringLiteral(SCOPELINE_CLI), command, toFullDevice);
        QVERIFY2(run.exitCode == 2, run.err.constData());
        QVERIFY2(run.err.contains("cannot write to standard output: No space left on device"),
                 run.err.constData());
    }

    // An output folder that cannot be made (under a file): one line naming it and the system's reason,
    // not a line per run without one.
    void outputFolderUnderAFile_data()
    {
        QTest::addColumn<QStringList>("arguments"); // OUT stands for the folder
        QTest::newRow("summarize") << QStringList{QStringLiteral("summarize"), kMatmul, QStringLiteral("-o"),
                                                  QStringLiteral("OUT")};
        QTest::newRow("report") << QStringList{QStringLiteral("report"), kEager, kGraphs,
                                               QStringLiteral("--out"), QStringLiteral("OUT")};
    }

    void outputFolderUnderAFile()
    {
        QFETCH(QStringList, arguments);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("file"));
        QFile plain(file);
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        const QString folder = file + QStringLiteral("/folder");
        arguments.replace(arguments.indexOf(QStringLiteral("OUT")), folder);
        const ProcessResult result = runProcess(QStringLiteral(SCOPELINE_CLI), arguments);
        QCOMPARE(result.exitCode, 2);
        QCOMPARE(result.err.count('\n'), 1);
        QVERIFY2(result.err.contains(QDir::toNativeSeparators(folder).toUtf8()) &&
                     result.err.contains("Not a directory"),
                 result.err.constData());
    }

    // The session file, written by the window: in this process, the limit set and lifted around it.
    void failedSessionSaveLeavesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("pair.scopeline.json"));
        QFile earlier(path);
        QVERIFY(earlier.open(QIODevice::WriteOnly) && earlier.write(kEarlier) == kEarlier.size());
        earlier.close();
        SessionState state;
        state.pathA = kMatmul;
        state.pathB = kEinsum;
        for (int i = 0; i < 40; ++i) // a session longer than the limit
            state.scopes << QStringLiteral("scope_%1").arg(i);
        rlimit before{};
        getrlimit(RLIMIT_FSIZE, &before);
        limitFiles(256);
        QString error;
        const bool saved = SessionFile::save(state, path, &error);
        setrlimit(RLIMIT_FSIZE, &before);
        QVERIFY(!saved);
        QVERIFY2(error.contains(QLatin1String("File too large")) &&
                     error.contains(QLatin1String("pair.scopeline.json")),
                 qPrintable(error));
        QVERIFY(earlier.open(QIODevice::ReadOnly));
        QCOMPARE(earlier.readAll(), kEarlier);
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("pair.scopeline.json")});
        QVERIFY2(SessionFile::save(state, path, &error), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestWriteFailures)
#include "tst_writefailures.moc"
