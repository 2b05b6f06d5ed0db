// SPDX-License-Identifier: GPL-3.0-or-later
// scopeline-cli info/scopes and exit statuses. `info --json` counts are checked against an
// independent Python reading of the same files (tests/oracle/trace_summary.py).

#include "testdata.h"
#include "testprocess.h"

#include <QtTest>

namespace {

ProcessResult cli(const QStringList &arguments)
{
    return runProcess(QStringLiteral(SCOPELINE_CLI), arguments);
}

} // namespace

class TstCli : public QObject
{
    Q_OBJECT

private slots:
    void infoMatchesOracle_data()
    {
        QTest::addColumn<QString>("path"); // what the CLI is given
        QTest::addColumn<QString>("file"); // the trace file the oracle reads
        // The public traces of tests/data/README.md (one missing fails its row, naming it), and any
        // other trace file found beside them.
        QStringList files;
        for (const QString &trace : testdata::publicTraces())
            files << testdata::path(QStringLiteral("public/") + trace);
        QDirIterator it(testdata::path("public"), {QStringLiteral("*.json"), QStringLiteral("*.json.gz")},
                        QDir::Files, QDirIterator::Subdirectories | QDirIterator::FollowSymlinks);
        while (it.hasNext())
            if (const QString file = it.next(); !files.contains(file))
                files << file;
        for (const QString &file : files)
            QTest::newRow(qPrintable(QFileInfo(file).fileName().left(60))) << file << file;
        // JAX run folders: the CLI picks the trace-viewer file of the run.
        for (const char *variant : {"jax_named_scopes", "jax_named_scopes_cublas", "jax_command_buffers"}) {
            const QString run =
                testdata::path(QStringLiteral("jax_h100/%1/trace_file_einsum_0").arg(QLatin1String(variant)));
            QTest::newRow(variant) << run << firstFile(run, QStringLiteral("*.trace.json.gz"));
        }
    }

    void infoMatchesOracle()
    {
        QFETCH(QString, path);
        QFETCH(QString, file);
        REQUIRE_TEST_DATA(path, file);
        const ProcessResult oracle =
            runProcess(QStringLiteral(SCOPELINE_PYTHON),
                       {QStringLiteral(SCOPELINE_ORACLE_DIR "/trace_summary.py"), file});
        QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
        const QJsonObject expected = QJsonDocument::fromJson(oracle.out).object();
        const ProcessResult info = cli({QStringLiteral("info"), QStringLiteral("--json"), path});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        QJsonObject got = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(got[QStringLiteral("file")].toString(), QFileInfo(file).absoluteFilePath());
        // The oracle counts gap causes over all streams; the CLI gives them per stream.
        QJsonObject gapCauses;
        for (const QJsonValue &stream : got[QStringLiteral("streams")].toArray()) {
            const QJsonObject causes = stream[QStringLiteral("gap_causes")].toObject();
            for (auto it = causes.begin(); it != causes.end(); ++it)
                gapCauses[it.key()] = gapCauses[it.key()].toDouble() + it.value().toDouble();
        }
        got[QStringLiteral("gap_causes")] = gapCauses;
        QVERIFY(expected.size() >= 9);
        const auto text = [](const QJsonValue &v) {
            return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact));
        };
        for (auto it = expected.begin(); it != expected.end(); ++it)
            QVERIFY2(got[it.key()] == it.value(),
                     qPrintable(QStringLiteral("%1: cli %2, oracle %3")
                                    .arg(it.key(), text(got[it.key()]), text(it.value()))));
    }

    void infoDelayDistributionsMatchOracle_data() { infoMatchesOracle_data(); }

    void infoDelayDistributionsMatchOracle()
    {
        // The whole launch-delay distribution objects (n, mean, min, q1, median, q3, max), not only the
        // median: numpy on the oracle's delays (tests/oracle/launch_analysis.py delays).
        QFETCH(QString, path);
        QFETCH(QString, file);
        REQUIRE_TEST_DATA(path, file);
        const ProcessResult oracle =
            runProcess(QStringLiteral(SCOPELINE_PYTHON),
                       {QStringLiteral(SCOPELINE_ORACLE_DIR "/launch_analysis.py"), QStringLiteral("delays"), file});
        QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
        const QJsonObject expected = QJsonDocument::fromJson(oracle.out).object();
        const ProcessResult info = cli({QStringLiteral("info"), QStringLiteral("--json"), path});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        const QJsonObject got = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(expected.size(), 2);
        for (auto it = expected.begin(); it != expected.end(); ++it) {
            const QJsonValue cliValue = got.value(it.key());
            if (it.value().isNull()) {
                QVERIFY2(cliValue.isNull(), qPrintable(it.key() + QStringLiteral(": the oracle has no delays")));
                continue;
            }
            QVERIFY2(cliValue.isObject(), qPrintable(it.key()));
            const QJsonObject want = it.value().toObject(), have = cliValue.toObject();
            QCOMPARE(have.keys(), want.keys());
            for (auto w = want.begin(); w != want.end(); ++w) {
                const double a = have.value(w.key()).toDouble(), b = w.value().toDouble();
                QVERIFY2(std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)),
                         qPrintable(QStringLiteral("%1.%2: cli %3, oracle %4")
                                        .arg(it.key(), w.key())
                                        .arg(a, 0, 'g', 17)
                                        .arg(b, 0, 'g', 17)));
            }
        }
    }

    void loadsNoGuiLibrary()
    {
        // Loading Qt Gui, Widgets and QCustomPlot cost a tenth of a large trace's `info`; only
        // scopeline-report (the report command) links them.
        const ProcessResult elf =
            runProcess(QStringLiteral("readelf"), {QStringLiteral("-d"), QStringLiteral(SCOPELINE_CLI)});
        QVERIFY2(elf.exitCode == 0, elf.err.constData());
        QVERIFY2(elf.out.contains("libQt6Core"), elf.out.constData());
        for (const char *library : {"libQt6Gui", "libQt6Widgets", "libQCustomPlot"})
            QVERIFY2(!elf.out.contains(library), library);
    }

    void jaxCountsFromTheBrief()
    {
        // tests/data/README: every kernel is its own launch with command buffers off.
        const QString run = testdata::path("jax_h100/jax_named_scopes_cublas/trace_file_einsum_0");
        REQUIRE_TEST_DATA(run);
        const ProcessResult info = cli({QStringLiteral("info"), QStringLiteral("--json"), run});
        QCOMPARE(info.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(o[QStringLiteral("format")].toString(), QStringLiteral("jax"));
        QCOMPARE(o[QStringLiteral("kernels")].toInt(), o[QStringLiteral("kernel_launches")].toInt());
        QCOMPARE(o[QStringLiteral("graph_launches")].toInt(), 0);
        // The delay distribution covers every launched kernel and agrees with the median.
        const QJsonObject delays = o[QStringLiteral("launch_delay_ns")].toObject();
        QCOMPARE(delays[QStringLiteral("n")].toInt(), o[QStringLiteral("kernels")].toInt());
        QCOMPARE(delays[QStringLiteral("median")].toDouble(),
                 o[QStringLiteral("median_launch_delay_ns")].toDouble());
        QVERIFY(delays[QStringLiteral("min")].toDouble() <= delays[QStringLiteral("q1")].toDouble());
        QVERIFY(delays[QStringLiteral("q3")].toDouble() <= delays[QStringLiteral("max")].toDouble());
        QVERIFY(o[QStringLiteral("gpu_busy_ns")].toDouble() + o[QStringLiteral("gpu_idle_ns")].toDouble() ==
                o[QStringLiteral("gpu_span_ns")].toDouble());
    }

    void scopesListsCounts()
    {
        const QString run = testdata::path("jax_h100/jax_named_scopes_cublas/trace_file_einsum_0");
        REQUIRE_TEST_DATA(run);
        const ProcessResult oracle =
            runProcess(QStringLiteral(SCOPELINE_PYTHON),
                       {QStringLiteral(SCOPELINE_ORACLE_DIR "/compare_oracle.py"), QStringLiteral("count"),
                        firstFile(run, QStringLiteral("*.trace.json.gz")), QStringLiteral("attn_q_k"),
                        QStringLiteral("attn_att_v"), QStringLiteral("mlp")});
        QVERIFY2(oracle.exitCode == 0,
                 qPrintable(QStringLiteral("the oracle failed (it needs python3 with numpy and scipy: "
                                           "packaging/setup.sh installs them): ") +
                            QString::fromUtf8(oracle.err)));
        const QJsonObject counts = QJsonDocument::fromJson(oracle.out).object();
        const ProcessResult scopes = cli({QStringLiteral("scopes"), run});
        QCOMPARE(scopes.exitCode, 0);
        for (auto it = counts.begin(); it != counts.end(); ++it) {
            const QRegularExpression line(QStringLiteral("^\\s*(\\d+)\\s+\\d+\\s+%1$").arg(it.key()),
                                          QRegularExpression::MultilineOption);
            const auto match = line.match(QString::fromUtf8(scopes.out));
            QVERIFY2(match.hasMatch(), qPrintable(it.key()));
            QCOMPARE(match.captured(1).toInt(), it.value().toInt());
        }
    }

    void exitStatuses_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrMentions");
        // Usage errors: the file is not read (and need not exist).
        const QString trace = testdata::path(
            "public/rocmProfileData/examples__rocm-profile-data__results__matmul_result.json.gz");
        QTest::newRow("no command") << QStringList{} << 1 << QString();
        QTest::newRow("unknown command")
            << QStringList{QStringLiteral("frobnicate")} << 1 << QStringLiteral("frobnicate");
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("info"), QStringLiteral("--bogus"), trace} << 1
            << QStringLiteral("bogus");
        QTest::newRow("compare without scope")
            << QStringList{QStringLiteral("compare"), trace, trace} << 1 << QStringLiteral("--scope");
        QTest::newRow("compare one path")
            << QStringList{QStringLiteral("compare"), trace, QStringLiteral("--scope"), QStringLiteral("x")}
            << 1 << QStringLiteral("two paths");
        QTest::newRow("bad regex") << QStringList{QStringLiteral("compare"),
                                                  trace,
                                                  trace,
                                                  QStringLiteral("--scope"),
                                                  QStringLiteral("("),
                                                  QStringLiteral("--match"),
                                                  QStringLiteral("regex")}
                                   << 1 << QStringLiteral("regular expression");
        QTest::newRow("bad match mode") << QStringList{QStringLiteral("compare"),
                                                       trace,
                                                       trace,
                                                       QStringLiteral("--scope"),
                                                       QStringLiteral("x"),
                                                       QStringLiteral("--match"),
                                                       QStringLiteral("fuzzy")}
                                        << 1 << QStringLiteral("--match");
        QTest::newRow("missing path")
            << QStringList{QStringLiteral("info"), QStringLiteral("/nonexistent/trace.json")} << 2
            << QStringLiteral("/nonexistent/trace.json");
        QTest::newRow("version") << QStringList{QStringLiteral("--version")} << 0 << QString();
        QTest::newRow("help") << QStringList{QStringLiteral("--help")} << 0 << QString();
    }

    void exitStatuses()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrMentions);
        const ProcessResult run = cli(arguments);
        QCOMPARE(run.exitCode, exitCode);
        if (!stderrMentions.isEmpty())
            QVERIFY2(run.err.contains(stderrMentions.toUtf8()), run.err.constData());
    }

    void unreadableFileNamesFileAndOffset()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cut.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"traceEvents": [{"ph": "X", "ts": 1, "dur": 2, "name": "k"}, {"ph": )");
        file.close();
        const ProcessResult run = cli({QStringLiteral("info"), path});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(path.toUtf8()) && run.err.contains("byte"), run.err.constData());
    }

    // Every program answers --version and --help (the packaging issue asks it of each).
    void everyProgramAnswersVersionAndHelp_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("name");
        QTest::newRow("scopeline-cli") << QStringLiteral(SCOPELINE_CLI) << QStringLiteral("scopeline-cli");
        QTest::newRow("scopeline") << QStringLiteral(SCOPELINE_GUI) << QStringLiteral("Scopeline");
        if (!QStringLiteral(SCOPELINE_HIPBENCH).isEmpty())
            QTest::newRow("scopeline-hipbench") << QStringLiteral(SCOPELINE_HIPBENCH) << QStringLiteral("scopeline-hipbench");
        if (!QStringLiteral(SCOPELINE_HIPBENCH_ROCM).isEmpty()) // the AMD build says the same name
            QTest::newRow("scopeline-hipbench-rocm")
                << QStringLiteral(SCOPELINE_HIPBENCH_ROCM) << QStringLiteral("scopeline-hipbench");
    }

    void everyProgramAnswersVersionAndHelp()
    {
        QFETCH(QString, program);
        QFETCH(QString, name);
        qputenv("QT_QPA_PLATFORM", "offscreen");
        const ProcessResult version = runProcess(program, {QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        QCOMPARE(QString::fromUtf8(version.out.trimmed()), name + QStringLiteral(" " SCOPELINE_VERSION));
        const ProcessResult help = runProcess(program, {QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains("Usage:"), help.out.constData());
    }
};

QTEST_GUILESS_MAIN(TstCli)
#include "tst_cli.moc"
