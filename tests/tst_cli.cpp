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

// The fields of a CSV (RFC 4180: quoted fields may hold commas, quotes and line breaks), line by line.
QList<QStringList> parseCsv(const QString &text)
{
    QList<QStringList> lines;
    QStringList line;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"'))
                field += text[++i];
            else if (c == QLatin1Char('"'))
                quoted = false;
            else
                field += c;
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            line << field;
            field.clear();
        } else if (c == QLatin1Char('\n')) {
            line << field;
            lines << line;
            line.clear();
            field.clear();
        } else {
            field += c;
        }
    }
    return lines;
}

// The cells of a Markdown table row ("| a | b \\| c |"): split at unescaped bars, escapes undone.
QStringList markdownCells(const QString &row)
{
    QStringList cells;
    QString cell;
    for (qsizetype i = 1; i < row.size(); ++i) { // past the leading '|'
        if (row[i] == QLatin1Char('\\') && i + 1 < row.size()) {
            cell += row[++i];
        } else if (row[i] == QLatin1Char('|')) {
            cells << cell.trimmed();
            cell.clear();
        } else {
            cell += row[i];
        }
    }
    return cells;
}

// The Markdown table of a document: its header's cells, then each row's.
QList<QStringList> markdownTableCells(const QString &document)
{
    QList<QStringList> table;
    bool rule = false;
    for (const QString &line : document.split(QLatin1Char('\n'))) {
        if (!line.startsWith(QLatin1Char('|')))
            continue;
        if (!rule && !table.isEmpty()) { // the alignment row under the titles
            rule = true;
            continue;
        }
        table << markdownCells(line);
    }
    return table;
}

const QString kLaunchEager = QStringLiteral(SCOPELINE_SAMPLES "/hipbench_launch_chain/eager");
const QString kLaunchGraph = QStringLiteral(SCOPELINE_SAMPLES "/hipbench_launch_chain/graph");
const QString kTorchEager = QStringLiteral(SCOPELINE_SAMPLES "/torch_compile/eager");
const QString kTorchCompiled = QStringLiteral(SCOPELINE_SAMPLES "/torch_compile/reduce_overhead");

// A trace of one CPU op and no GPU kernels (GPU activity not recorded).
bool writeCpuOnlyTrace(const QString &path)
{
    QFile out(path);
    return out.open(QIODevice::WriteOnly) &&
           out.write(
               R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":2,"ts":10,"dur":5}]})") >
               0;
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

    // The text's track count agrees in number with its streams ("1 GPU stream or queue", not "1 GPU
    // streams").
    void infoTextCountsStreams()
    {
        const QString one = testdata::path("h100_runs/hipbench/launch-chain/eager/run_0"),
                      several = testdata::path("public/TraceLens/tests__rocprof__908_results.json.gz");
        REQUIRE_TEST_DATA(one, several);
        for (const QString &path : {one, several}) {
            const ProcessResult json = cli({QStringLiteral("info"), QStringLiteral("--json"), path});
            QVERIFY2(json.exitCode == 0, json.err.constData());
            const qsizetype streams =
                QJsonDocument::fromJson(json.out).object()[QStringLiteral("streams")].toArray().size();
            QVERIFY(streams > 0);
            const ProcessResult text = cli({QStringLiteral("info"), path});
            const QByteArray said =
                QByteArray::number(streams) +
                (streams == 1 ? " GPU stream or queue on " : " GPU streams or queues on ");
            QVERIFY2(text.out.contains(said), text.out.left(300).constData());
        }
    }

    // info's stream and gap lines print a trace's names as the tables do: what a terminal would act on
    // (a right-to-left override, an escape sequence) as \uXXXX. They had reached the terminal raw.
    void infoTextEscapesNames()
    {
        const QString source = kTorchEager + QStringLiteral("/run_0/trace.pt.trace.json.gz");
        REQUIRE_TEST_DATA(source);
        QTemporaryDir tmp(testdata::scratchDir());
        QVERIFY(tmp.isValid());
        const QString evil = tmp.filePath(QStringLiteral("evil.json"));
        // every event's name and the GPU stream's thread name prefixed, by Python on the real trace
        const ProcessResult written = runProcess(
            QStringLiteral(SCOPELINE_PYTHON),
            {QStringLiteral("-c"),
             QStringLiteral(
                 "import gzip, json, sys\n"
                 "t = json.load(gzip.open(sys.argv[1]))\n"
                 "for e in t['traceEvents']:\n"
                 "    if 'name' in e and e.get('ph') != 'M': e['name'] = '\\u202e\\x1b[31m' + e['name']\n"
                 "    if e.get('ph') == 'M' and e.get('name') == 'thread_name':\n"
                 "        e['args']['name'] = '\\u202e' + str(e['args'].get('name'))\n"
                 "json.dump(t, open(sys.argv[2], 'w'))\n"),
             source, evil});
        QVERIFY2(written.exitCode == 0, written.err.constData());
        const ProcessResult info = cli({QStringLiteral("info"), evil});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        const QString text = QString::fromUtf8(info.out);
        const QStringList gaps = text.split(QLatin1Char('\n')).filter(QStringLiteral("    gap "));
        QVERIFY2(!gaps.isEmpty(), info.out.constData());
        QVERIFY2(gaps.front().contains(QLatin1String(" before \\u202e\\u001b[31m")),
                 qPrintable(gaps.front()));
        // scopes lists the scope names, steps and diff name the step scope (one of them, picked)
        const QString scope = QStringLiteral("\u202e\u001b[31mattention");
        const ProcessResult scopes = cli({QStringLiteral("scopes"), evil}),
                            steps =
                                cli({QStringLiteral("steps"), evil, evil, QStringLiteral("--step"), scope}),
                            diff = cli({QStringLiteral("diff"), evil, evil, QStringLiteral("--step"), scope});
        QVERIFY2(scopes.exitCode == 0 && steps.exitCode == 0 && diff.exitCode == 0,
                 (scopes.err + steps.err + diff.err).constData());
        QVERIFY2(scopes.out.contains("  \\u202e\\u001b[31mattention\n"), scopes.out.constData());
        QVERIFY2(steps.out.contains("step time (\\u202e\\u001b[31mattention, "), steps.out.constData());
        QVERIFY2(diff.out.contains("step time (\\u202e\\u001b[31mattention, "), diff.out.constData());
        for (const QByteArray &printed :
             {info.out, scopes.out, steps.out, diff.out, info.err, steps.err, diff.err}) {
            const QString output = QString::fromUtf8(printed);
            for (const QChar c : output)
                QVERIFY2(c == QLatin1Char('\n') ||
                             (c.category() != QChar::Other_Control && c != QChar(0x202e)),
                         qPrintable(QStringLiteral("U+%1 in\n%2").arg(int(c.unicode()), 4, 16).arg(output)));
        }
    }

    // A pair given as LABEL=PATH is named by its labels, the path beside each, in text and markdown;
    // JSON keeps the paths. They had been dropped for the paths alone.
    void pairLabelsNameTheSides()
    {
        const QString a = QStringLiteral("eager=") + kTorchEager,
                      b = QStringLiteral("graphs=") + kTorchCompiled;
        const QString named = QStringLiteral("A: eager (%1)").arg(kTorchEager),
                      namedB = QStringLiteral("B: graphs (%1)").arg(kTorchCompiled);
        for (const char *command : {"steps", "diff"}) {
            const ProcessResult text =
                runProcess(QStringLiteral(SCOPELINE_CLI), {QLatin1String(command), a, b});
            QCOMPARE(text.exitCode, 0);
            QVERIFY2(text.out.startsWith(named.toUtf8()) && text.out.contains(namedB.toUtf8()),
                     text.out.constData());
            const ProcessResult markdown = runProcess(
                QStringLiteral(SCOPELINE_CLI),
                {QLatin1String(command), a, b, QStringLiteral("--format"), QStringLiteral("markdown")});
            QVERIFY2(markdown.out.contains(QStringLiteral("`eager (%1)`").arg(kTorchEager).toUtf8()),
                     markdown.out.constData());
            const ProcessResult json = runProcess(
                QStringLiteral(SCOPELINE_CLI),
                {QLatin1String(command), a, b, QStringLiteral("--format"), QStringLiteral("json")});
            QVERIFY(!json.out.contains("eager ("));
        }
        const ProcessResult compare = runProcess(
            QStringLiteral(SCOPELINE_CLI),
            {QStringLiteral("compare"), a, b, QStringLiteral("--scope"), QStringLiteral("ProfilerStep")});
        QVERIFY2(compare.out.startsWith(named.toUtf8()), compare.out.constData());
        // the report's sides, and the step chart's legend by the label alone
        QTemporaryDir dir;
        const QString report = dir.filePath(QStringLiteral("report"));
        QCOMPARE(runProcess(QStringLiteral(SCOPELINE_CLI),
                            {QStringLiteral("report"), a, b, QStringLiteral("--out"), report})
                     .exitCode,
                 0);
        QFile index(report + QStringLiteral("/index.html"));
        QVERIFY(index.open(QIODevice::ReadOnly));
        QVERIFY(
            index.readAll().contains(QStringLiteral("(baseline): eager (%1)</p>").arg(kTorchEager).toUtf8()));
        // ranks takes them too (it had read "eager=…" as a path)
        const ProcessResult ranks =
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("ranks"), a, b});
        QCOMPARE(ranks.exitCode, 0);
        QVERIFY2(ranks.out.startsWith(named.toUtf8()) && ranks.out.contains(namedB.toUtf8()),
                 ranks.out.constData());
        // unnamed, a side is its path
        const ProcessResult plain =
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("steps"), kTorchEager, kTorchCompiled});
        QVERIFY2(plain.out.startsWith(QStringLiteral("A: %1\n").arg(kTorchEager).toUtf8()),
                 plain.out.constData());
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
        QTest::newRow("no command") << QStringList{} << 1 << QStringLiteral("Usage: scopeline-cli");
        QTest::newRow("unknown command")
            << QStringList{QStringLiteral("frobnicate")} << 1 << QStringLiteral("frobnicate");
        QTest::newRow("unknown command asking for help")
            << QStringList{QStringLiteral("frobnicate"), QStringLiteral("--help")} << 1
            << QStringLiteral("frobnicate");
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
        // an option given twice is refused (its last value had been taken), but --scope, which names several
        for (const char *command : {"diff", "steps", "ranks", "compare", "report"})
            QTest::newRow(qPrintable(QStringLiteral("%1 --alpha twice").arg(QLatin1String(command))))
                << QStringList{QLatin1String(command),
                               trace,
                               trace,
                               QStringLiteral("--alpha"),
                               QStringLiteral("0.05"),
                               QStringLiteral("--alpha"),
                               QStringLiteral("0.01")}
                << 1 << QStringLiteral("--alpha is given twice");
        QTest::newRow("diff --csv twice") << QStringList{QStringLiteral("diff"),
                                                         trace,
                                                         trace,
                                                         QStringLiteral("--csv"),
                                                         QStringLiteral("a.csv"),
                                                         QStringLiteral("--csv"),
                                                         QStringLiteral("b.csv")}
                                          << 1 << QStringLiteral("--csv is given twice");
        QTest::newRow("summarize -o twice") << QStringList{QStringLiteral("summarize"), trace,
                                                           QStringLiteral("-o"),        QStringLiteral("x"),
                                                           QStringLiteral("-o"),        QStringLiteral("y")}
                                            << 1 << QStringLiteral("-o is given twice");
        // an option no command has is named as typed, lower case like the other errors (Qt's text had
        // been "Unknown option 'bogus'.")
        QTest::newRow("steps --bogus")
            << QStringList{QStringLiteral("steps"), trace, trace, QStringLiteral("--bogus")} << 1
            << QStringLiteral("scopeline-cli: unknown option --bogus\n");
        QTest::newRow("diff -q") << QStringList{QStringLiteral("diff"), trace, trace, QStringLiteral("-q")}
                                 << 1 << QStringLiteral("scopeline-cli: unknown option -q\n");
        // Qt reads -step as the short options -s -t -e -p; the message names what was typed
        QTest::newRow("diff -step") << QStringList{QStringLiteral("diff"), trace, trace,
                                                   QStringLiteral("-step")}
                                    << 1
                                    << QStringLiteral("scopeline-cli: unknown option -step (a long option "
                                                      "takes two dashes: --step?)\n");
        // no hint where two dashes make no option either; an option's value that starts with '-' is not
        // taken for the typo
        QTest::newRow("diff -bogus") << QStringList{QStringLiteral("diff"), trace, trace,
                                                    QStringLiteral("-bogus")}
                                     << 1 << QStringLiteral("scopeline-cli: unknown option -bogus\n");
        QTest::newRow("diff --step=-wrong -wide")
            << QStringList{QStringLiteral("diff"), trace, trace, QStringLiteral("--step=-wrong"),
                           QStringLiteral("-wide")}
            << 1
            << QStringLiteral(
                   "scopeline-cli: unknown option -wide (a long option takes two dashes: --wide?)\n");
        QTest::newRow("info --json twice")
            << QStringList{QStringLiteral("info"), trace, QStringLiteral("--json"), QStringLiteral("--json")}
            << 0 << QString();
        QTest::newRow("compare --scope twice, one scope missing") << QStringList{QStringLiteral("compare"),
                                                                                 trace,
                                                                                 trace,
                                                                                 QStringLiteral("--scope"),
                                                                                 QStringLiteral("nosuch"),
                                                                                 QStringLiteral("--scope"),
                                                                                 QStringLiteral("nosuch2"),
                                                                                 QStringLiteral("--fail-on"),
                                                                                 QStringLiteral("slower")}
                                                                  << 4 << QStringLiteral("nosuch2");
        // --csv - and --format json or markdown would both write to standard output, one after the other
        for (const char *command : {"diff", "steps", "ranks"})
            QTest::newRow(qPrintable(QStringLiteral("%1 --csv - --format json").arg(QLatin1String(command))))
                << QStringList{QLatin1String(command),
                               trace,
                               trace,
                               QStringLiteral("--csv"),
                               QStringLiteral("-"),
                               QStringLiteral("--format"),
                               QStringLiteral("json")}
                << 1 << QStringLiteral("cannot go with --format json");
        QTest::newRow("compare --csv - --format markdown")
            << QStringList{QStringLiteral("compare"),
                           trace,
                           trace,
                           QStringLiteral("--scope"),
                           QStringLiteral("x"),
                           QStringLiteral("--csv"),
                           QStringLiteral("-"),
                           QStringLiteral("--format"),
                           QStringLiteral("markdown")}
            << 1 << QStringLiteral("cannot go with --format markdown");
        QTest::newRow("missing path")
            << QStringList{QStringLiteral("info"), QStringLiteral("/nonexistent/trace.json")} << 2
            << QStringLiteral("/nonexistent/trace.json");
        // every side without a run is said, the second too (the first is said either way)
        QTest::newRow("two missing sides")
            << QStringList{QStringLiteral("diff"), QStringLiteral("/nonexistent/a"),
                           QStringLiteral("/nonexistent/b")}
            << 2 << QStringLiteral("/nonexistent/b: no such file or folder");
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

    // One path without a run given as both sides (diff X X) is said once, not once a side.
    void samePathWithoutRunsSaidOnce()
    {
        const QString missing = QStringLiteral("/nonexistent/same");
        const ProcessResult run = cli({QStringLiteral("diff"), missing, missing});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.count(missing.toUtf8()), 1);
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

    // Both sides unreadable: each is named, a line each, as the window names them (naming the first
    // alone would only show the other's next); a run of a side's several is named too.
    void everyUnreadableRunIsNamed()
    {
        const QString source = kLaunchEager + QStringLiteral("/run_0/hipbench.pt.trace.json.gz");
        REQUIRE_TEST_DATA(source);
        QFile trace(source);
        QVERIFY(trace.open(QIODevice::ReadOnly));
        const QByteArray half = trace.read(trace.size() / 2);
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(dir.isValid());
        const QString a = dir.filePath(QStringLiteral("a/cut.json.gz")),
                      b = dir.filePath(QStringLiteral("b/cut.json.gz"));
        for (const QString &path : {a, b}) {
            QVERIFY(QDir().mkpath(QFileInfo(path).path()));
            QFile cut(path);
            QVERIFY(cut.open(QIODevice::WriteOnly) && cut.write(half) == half.size());
        }
        const ProcessResult pair = cli({QStringLiteral("diff"), a, b});
        QCOMPARE(pair.exitCode, 2);
        const QList<QByteArray> lines = pair.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[0].startsWith("scopeline-cli: " + a.toUtf8() + ": ") &&
                     lines[1].startsWith("scopeline-cli: " + b.toUtf8() + ": "),
                 pair.err.constData());
        // a readable run beside the cut one in B: the cut one is named all the same
        QVERIFY(testdata::anotherRun(source, dir.filePath(QStringLiteral("b/whole.json.gz"))));
        const ProcessResult side =
            cli({QStringLiteral("steps"), kLaunchEager, dir.filePath(QStringLiteral("b"))});
        QCOMPARE(side.exitCode, 2);
        QVERIFY2(side.err.startsWith("scopeline-cli: " + b.toUtf8() + ": ") && side.err.count('\n') == 1,
                 side.err.constData());
    }

    // --skip-unreadable leaves out a run that cannot be read, its ranks with it, naming it in a warning,
    // where its path keeps another run; a path left without one fails as without it.
    void skipUnreadableLeavesRunsOut()
    {
        const QString source = kLaunchEager + QStringLiteral("/run_0/hipbench.pt.trace.json.gz");
        REQUIRE_TEST_DATA(source);
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(dir.isValid());
        // a side of a whole run and a cut one (half of the same file)
        const QString side = dir.filePath(QStringLiteral("side")),
                      cut = side + QStringLiteral("/cut/trace.json.gz");
        QVERIFY(QDir().mkpath(side + QStringLiteral("/whole")) &&
                testdata::anotherRun(source, side + QStringLiteral("/whole/trace.json.gz")));
        const auto cutCopy = [](const QString &from, const QString &to) {
            QFile in(from), out(to);
            return QDir().mkpath(QFileInfo(to).path()) && in.open(QIODevice::ReadOnly) &&
                   out.open(QIODevice::WriteOnly) && out.write(in.read(in.size() / 2)) > 0;
        };
        QVERIFY(cutCopy(source, cut));
        const QByteArray leftOut = "scopeline-cli: warning: " + cut.toUtf8() + ": the gzip data is truncated";
        ProcessResult result = cli({QStringLiteral("diff"), kLaunchEager, side});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.startsWith("scopeline-cli: " + cut.toUtf8() + ": "), result.err.constData());
        result = cli({QStringLiteral("diff"), QStringLiteral("--skip-unreadable"), kLaunchEager, side});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QVERIFY2(result.err.startsWith(leftOut) && result.err.contains("left out (--skip-unreadable)\n"),
                 result.err.constData());
        QVERIFY2(result.out.contains("B: " + side.toUtf8() + " (1 run)"), result.out.constData());
        // summarize writes the others' summaries either way, and says the cut run as a warning with it
        const QString summaries = dir.filePath(QStringLiteral("summaries")),
                      skipping = dir.filePath(QStringLiteral("skipping"));
        QCOMPARE(cli({QStringLiteral("summarize"), side, QStringLiteral("-o"), summaries}).exitCode, 2);
        result = cli({QStringLiteral("summarize"), QStringLiteral("--skip-unreadable"), side,
                      QStringLiteral("-o"), skipping});
        QVERIFY2(result.exitCode == 0 && result.err.startsWith(leftOut), result.err.constData());
        QCOMPARE(QDir(skipping).entryList(QDir::Files), QStringList{QStringLiteral("whole.slsum")});
        // beside a path whose every run is cut, which would keep none, nothing is left out: each is
        // named, and why the option did not apply
        for (const QString &command : {QStringLiteral("diff"), QStringLiteral("summarize")}) {
            QStringList arguments{command, QStringLiteral("--skip-unreadable"), kLaunchEager,
                                  QFileInfo(cut).path()};
            if (command == QLatin1String("summarize"))
                arguments << QStringLiteral("-o") << dir.filePath(QStringLiteral("refused"));
            result = cli(arguments);
            QCOMPARE(result.exitCode, 2);
            QVERIFY2(result.err.contains("scopeline-cli: " + cut.toUtf8() + ": ") &&
                         result.err.contains("scopeline-cli: --skip-unreadable leaves out no run here: " +
                                             QFileInfo(cut).path().toUtf8() + " would keep none\n"),
                     result.err.constData());
        }
        // a path whose every run is cut keeps none: named as an error, as without the option
        result = cli({QStringLiteral("info"), QStringLiteral("--skip-unreadable"), QFileInfo(cut).path()});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.startsWith("scopeline-cli: " + cut.toUtf8() + ": "), result.err.constData());

        // two runs of a job of 8 GPUs, one rank file of the second cut: that run goes, its 7 readable
        // ranks with it
        const QString job = dir.filePath(QStringLiteral("job"));
        QVERIFY(testdata::rankRuns(job, 2));
        const QString rank3 =
            QDir(job + QStringLiteral("/run_1")).entryList({QStringLiteral("worker3_*")}).value(0);
        QVERIFY(!rank3.isEmpty());
        const QString cutRank = job + QStringLiteral("/run_1/") + rank3;
        // a hard link to the test data: unlinked first, so that the cut copy does not cut the original
        QVERIFY(QFile::remove(cutRank) && cutCopy(QDir(testdata::dlrmRun()).filePath(rank3), cutRank));
        QCOMPARE(cli({QStringLiteral("ranks"), job}).exitCode, 2);
        result = cli({QStringLiteral("ranks"), QStringLiteral("--skip-unreadable"), QStringLiteral("--csv"),
                      QStringLiteral("-"), job});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QVERIFY2(result.err.contains("/run_1/worker3_") &&
                     result.err.contains("left out (--skip-unreadable)"),
                 result.err.constData());
        QVERIFY2(result.out.contains(",run_0,") && !result.out.contains(",run_1,"), result.out.constData());
        QCOMPARE(result.out.count("\nA,run_0,"), 8); // a row a rank
        // summarize too: none of run_1's ranks is written (its 7 readable ones would read as a partial world)
        const QString jobSummaries = dir.filePath(QStringLiteral("job_summaries"));
        result = cli({QStringLiteral("summarize"), QStringLiteral("--skip-unreadable"), job,
                      QStringLiteral("-o"), jobSummaries});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(QDir(jobSummaries).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("run_0")});
        QCOMPARE(QDir(jobSummaries + QStringLiteral("/run_0")).entryList(QDir::Files).size(), 8);
        QVERIFY2(!result.out.contains("run_1"), result.out.constData());
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

    // scopeline-report run by hand, without the command scopeline-cli hands it: bad usage, pointing to
    // scopeline-cli, rather than Qt's raw note about an empty argument list and exit 0.
    void reportHelperRunByHand()
    {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        for (const QStringList &arguments : {QStringList(), QStringList{kLaunchEager, kLaunchGraph}}) {
            const ProcessResult run = runProcess(QStringLiteral(SCOPELINE_REPORT), arguments);
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains("scopeline-cli report A B --out DIR") &&
                         !run.err.contains("QCommandLineParser"),
                     run.err.constData());
        }
    }

    // No program looks for its libraries in the folder it is started in: the loader reads an empty or
    // relative RUNPATH entry against the working directory, so a trace folder holding a libz.so.1
    // would be run. (CMake padded the build tree's RUNPATH with empty entries for Qt's install RPATH.)
    void noProgramSearchesTheWorkingDirectory_data()
    {
        everyProgramAnswersVersionAndHelp_data();
        QTest::newRow("scopeline-report") << QStringLiteral(SCOPELINE_REPORT) << QString();
    }

    void noProgramSearchesTheWorkingDirectory()
    {
        QFETCH(QString, program);
        const ProcessResult elf = runProcess(QStringLiteral("readelf"), {QStringLiteral("-d"), program});
        QVERIFY2(elf.exitCode == 0, elf.err.constData());
        QVERIFY2(elf.out.contains("(NEEDED)"), elf.out.constData());
        static const QRegularExpression searchPath(
            QStringLiteral(R"(\((?:RUNPATH|RPATH)\)[^\[]*\[([^\]]*)\])"));
        for (auto match = searchPath.globalMatch(QString::fromUtf8(elf.out)); match.hasNext();) {
            const QString paths = match.next().captured(1);
            for (const QString &entry : paths.split(QLatin1Char(':')))
                QVERIFY2(entry.startsWith(QLatin1Char('/')) || entry.startsWith(QLatin1String("$ORIGIN")),
                         qPrintable(QStringLiteral("%1: search path [%2]").arg(program, paths)));
        }
    }
    // The CI gate (--fail-on, --format, --strict) on diff, steps and compare: 1 for bad usage before any
    // file is read, and for a step or scope on neither side (a gate with nothing to judge passed), 2 for
    // an unreadable side or an unwritable CSV, 3 when a real difference (the H100 launch chain: CUDA
    // graphs make the whole run 59 % faster) has the verdict the gate names, 0 when not; the same in
    // every format.
    void gateExitStatuses_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrMentions");
        const QStringList commands[] = {
            {QStringLiteral("diff")},
            {QStringLiteral("steps")},
            {QStringLiteral("compare"), QStringLiteral("--scope"), QStringLiteral("chain"), QStringLiteral("--samples"),
             QStringLiteral("span")}};
        const QString missing = QStringLiteral("/nonexistent/side");
        for (const QStringList &command : commands) {
            const QByteArray name = command.front().toUtf8();
            const QStringList eagerGraph = command + QStringList{kLaunchEager, kLaunchGraph};
            const QStringList graphEager = command + QStringList{kLaunchGraph, kLaunchEager};
            QTest::addRow("%s --fail-on foo", name.constData())
                << command + QStringList{missing, missing, QStringLiteral("--fail-on"), QStringLiteral("foo")} << 1
                << QStringLiteral("--fail-on");
            QTest::addRow("%s --format xml", name.constData())
                << command + QStringList{missing, missing, QStringLiteral("--format"), QStringLiteral("xml")} << 1
                << QStringLiteral("--format");
            // a level that would judge nothing: every verdict "no change", a gate that never trips
            for (const char *level : {"inf", "-1", "nan"})
                QTest::addRow("%s --threshold %s", name.constData(), level)
                    << command + QStringList{missing, missing, QStringLiteral("--threshold"),
                                             QString::fromLatin1(level)}
                    << 1 << QStringLiteral("--threshold");
            QTest::addRow("%s --alpha inf", name.constData())
                << command + QStringList{missing, missing, QStringLiteral("--alpha"), QStringLiteral("inf")}
                << 1 << QStringLiteral("--alpha");
            QTest::addRow("%s --strict alone", name.constData())
                << command + QStringList{missing, missing, QStringLiteral("--strict")} << 1 << QStringLiteral("--strict");
            QTest::addRow("%s unreadable side", name.constData())
                << command + QStringList{missing, kLaunchGraph, QStringLiteral("--fail-on"), QStringLiteral("change")}
                << 2 << missing;
            QTest::addRow("%s unwritable csv", name.constData())
                << eagerGraph + QStringList{QStringLiteral("--fail-on"), QStringLiteral("change"), QStringLiteral("--csv"),
                                            QStringLiteral("/nonexistent/dir/out.csv")}
                << 2 << QStringLiteral("/nonexistent/dir/out.csv");
            QTest::addRow("%s no gate", name.constData()) << eagerGraph << 0 << QString();
            if (command.front() != QLatin1String("diff")) { // a mistyped step or scope: nothing to judge
                QStringList mistyped =
                    eagerGraph + QStringList{QStringLiteral("--fail-on"), QStringLiteral("change")};
                if (command.front() == QLatin1String("steps"))
                    mistyped << QStringLiteral("--step") << QStringLiteral("chian");
                else
                    mistyped.replace(mistyped.indexOf(QStringLiteral("chain")), QStringLiteral("chian"));
                QTest::addRow("%s nothing to judge", name.constData())
                    << mistyped << 4 << QStringLiteral("not judged: ");
                QTest::addRow("%s nothing to judge, no gate", name.constData())
                    << mistyped.mid(0, mistyped.indexOf(QStringLiteral("--fail-on"))) +
                           mistyped.mid(mistyped.indexOf(QStringLiteral("--fail-on")) + 2)
                    << 0 << QStringLiteral("warning: ");
            }
            if (command.front() != QLatin1String("compare")) // one run a side: the step is not tested
                for (const char *strict : {"", "--strict"})
                    QTest::addRow("%s one run a side, --fail-on change %s", name.constData(), strict)
                        << command +
                               QStringList{kLaunchEager + QStringLiteral("/run_0"),
                                           kLaunchGraph + QStringLiteral("/run_0"),
                                           QStringLiteral("--fail-on"), QStringLiteral("change")} +
                               (*strict ? QStringList{QString::fromLatin1(strict)} : QStringList())
                        << 4 << QStringLiteral("not judged: step time (the whole run): not tested, ");
            for (const char *format : {"text", "markdown", "json"}) {
                const QStringList f{QStringLiteral("--format"), QString::fromLatin1(format)};
                QTest::addRow("%s faster, --fail-on change, %s", name.constData(), format)
                    << eagerGraph + f + QStringList{QStringLiteral("--fail-on"), QStringLiteral("change")} << 3
                    << QStringLiteral("fails: ");
                QTest::addRow("%s faster, --fail-on slower, %s", name.constData(), format)
                    << eagerGraph + f + QStringList{QStringLiteral("--fail-on"), QStringLiteral("slower")} << 0
                    << QStringLiteral("passed");
                QTest::addRow("%s slower, --fail-on slower --strict, %s", name.constData(), format)
                    << graphEager + f +
                           QStringList{QStringLiteral("--fail-on"), QStringLiteral("slower"), QStringLiteral("--strict")}
                    << 3 << QStringLiteral("B slower");
                // a baseline and two candidates: the same gate, the same formats
                QTest::addRow("%s variants, --fail-on change, %s", name.constData(), format)
                    << eagerGraph + QStringList{QStringLiteral("again=") + kLaunchEager} + f +
                           QStringList{QStringLiteral("--fail-on"), QStringLiteral("change")}
                    << 3 << QStringLiteral("fails: graph: ");
            }
        }
    }

    void gateExitStatuses()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrMentions);
        REQUIRE_TEST_DATA(kLaunchEager, kLaunchGraph);
        const ProcessResult run = cli(arguments);
        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        if (!stderrMentions.isEmpty())
            QVERIFY2(run.err.contains(stderrMentions.toUtf8()), run.err.constData());
        const int format = arguments.indexOf(QStringLiteral("--format"));
        if (exitCode == 3 && format >= 0 && arguments[format + 1] == QLatin1String("json")) {
            const QJsonObject gate = QJsonDocument::fromJson(run.out).object()[QStringLiteral("gate")].toObject();
            QVERIFY(gate[QStringLiteral("failed")].toBool());
            QVERIFY(!gate[QStringLiteral("tripped")].toArray().isEmpty());
        }
        if (exitCode == 3 && format >= 0 && arguments[format + 1] == QLatin1String("markdown"))
            QVERIFY2(run.out.contains("**Gate `--fail-on") && run.out.contains(": failed, ") &&
                         run.out.contains("- fails: "),
                     run.out.constData());
        // a pull-request comment is Markdown throughout, its tables too; text has none of it
        if (exitCode != 1 && exitCode != 2) {
            if (format >= 0 && arguments[format + 1] == QLatin1String("markdown"))
                QVERIFY2(run.out.startsWith("### Scopeline ") && run.out.contains("\n| :--- |"),
                         run.out.constData());
            else if (format < 0 || arguments[format + 1] == QLatin1String("text"))
                QVERIFY2(!run.out.contains("**") && !run.out.contains("| :--- |"), run.out.constData());
        }
    }

    // A CSV that cannot be written is said before the runs load (nothing reported, the input left as it
    // was): a mistyped path must not cost a long load of many runs.
    void csvDestinationCheckedFirst_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("destination");
        QTest::addColumn<QString>("reason");
        const QString steps = QStringLiteral("steps"), csv = QStringLiteral("--csv");
        const QString missing = QStringLiteral("/nonexistent/dir/out.csv");
        QTest::newRow("steps, no such folder")
            << QStringList{steps} << csv << missing << QStringLiteral("no folder /nonexistent/dir");
        QTest::newRow("diff, a folder")
            << QStringList{QStringLiteral("diff")} << csv << QString() // the temp dir
            << QStringLiteral("it is a folder");
        QTest::newRow("compare, a trace")
            << QStringList{QStringLiteral("compare"), QStringLiteral("--scope"), QStringLiteral("chain")}
            << csv << QStringLiteral("trace.json.gz") << QStringLiteral("it is a trace or a run summary");
        QTest::newRow("ranks --comparison-csv=")
            << QStringList{QStringLiteral("ranks")} << QStringLiteral("--comparison-csv=") << missing
            << QStringLiteral("no folder /nonexistent/dir");
    }

    void csvDestinationCheckedFirst()
    {
        QFETCH(QStringList, command);
        QFETCH(QString, option);
        QFETCH(QString, destination);
        QFETCH(QString, reason);
        REQUIRE_TEST_DATA(kLaunchEager, kLaunchGraph);
        QTemporaryDir dir(testdata::scratchDir());
        QVERIFY(dir.isValid());
        QString path = destination.isEmpty() ? dir.path() : destination;
        QByteArray trace;
        if (destination == QLatin1String("trace.json.gz")) {
            QFile source(kLaunchEager + QStringLiteral("/run_0/hipbench.pt.trace.json.gz"));
            QVERIFY2(source.open(QIODevice::ReadOnly), qPrintable(source.fileName()));
            trace = source.readAll();
            path = dir.filePath(destination);
            QFile copy(path);
            QVERIFY(copy.open(QIODevice::WriteOnly) && copy.write(trace) == trace.size());
        }
        const QStringList csv =
            option.endsWith(QLatin1Char('=')) ? QStringList{option + path} : QStringList{option, path};
        const ProcessResult run = cli(command + QStringList{kLaunchEager, kLaunchGraph} + csv);
        QVERIFY2(run.exitCode == 2, run.err.constData());
        QVERIFY2(
            run.err.contains(QStringLiteral("cannot write the CSV to %1: %2").arg(path, reason).toUtf8()),
            run.err.constData());
        QVERIFY2(run.out.isEmpty(), run.out.constData()); // refused before any run was loaded and reported
        if (!trace.isEmpty()) {
            QFile copy(path);
            QVERIFY(copy.open(QIODevice::ReadOnly));
            QCOMPARE(copy.readAll(), trace);
        }
    }

    // Variants whose labels are alike, or a label without a path, are refused as bad usage (every line
    // and CSV row names a variant by its label); a path given twice is said on stderr.
    void variantLabelsAreDistinct()
    {
        const QString x = QStringLiteral("X="), steps = QStringLiteral("steps");
        const ProcessResult alike =
            cli({steps, x + kTorchEager, x + kTorchCompiled, QStringLiteral("Y=") + kTorchEager});
        QCOMPARE(alike.exitCode, 1); // bad usage, found before any file is read
        QVERIFY2(alike.err.contains("two variants are labelled 'X'"), alike.err.constData());
        const ProcessResult unnamed = cli({QStringLiteral("diff"), QStringLiteral("A=") + kTorchEager,
                                           QStringLiteral("B=") + kTorchCompiled, QStringLiteral("C=")});
        QCOMPARE(unnamed.exitCode, 1);
        QVERIFY2(unnamed.err.contains("C=: no path after the label"), unnamed.err.constData());
        const ProcessResult twice = cli({steps, QStringLiteral("A=") + kTorchEager, x + kTorchCompiled,
                                         QStringLiteral("Y=") + kTorchEager});
        QVERIFY2(twice.exitCode == 0, twice.err.constData());
        QVERIFY2(twice.err.contains("warning: A and Y are the same runs"), twice.err.constData());
    }

    // A pair says what would make its figures say nothing: one path for both sides, and a side whose
    // trace holds no GPU kernels (GPU activity not recorded), named, not "no scope names in B".
    void pairWarnings()
    {
        const ProcessResult same = cli({QStringLiteral("diff"), kTorchEager, kTorchEager});
        QVERIFY2(same.exitCode == 0, same.err.constData());
        QVERIFY2(same.err.contains("warning: A and B are the same runs"), same.err.constData());
        // a caveat of a trace against itself: once, for both sides
        const QString rocpd = testdata::path("converted/rocpd/908_results.db");
        const ProcessResult caveat = cli({QStringLiteral("diff"), rocpd, rocpd});
        QVERIFY2(caveat.exitCode == 0, caveat.err.constData());
        QVERIFY2(caveat.err.count("no HIP API calls") == 1 &&
                     caveat.err.contains("warning: A and B: " + rocpd.toUtf8() + ": no HIP API calls"),
                 caveat.err.constData());
        // the same files by two paths: a run folder and its trace
        const QString run = kTorchEager + QStringLiteral("/run_0");
        const ProcessResult folderAndFile =
            cli({QStringLiteral("diff"), run, run + QStringLiteral("/trace.pt.trace.json.gz")});
        QVERIFY2(folderAndFile.err.contains("warning: A and B are the same runs"),
                 folderAndFile.err.constData());
        const ProcessResult other =
            cli({QStringLiteral("diff"), run, kTorchEager + QStringLiteral("/run_1")});
        QVERIFY2(!other.err.contains("same runs"), other.err.constData());
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString cpuOnly = tmp.filePath(QStringLiteral("cpu_only.json"));
        QVERIFY(writeCpuOnlyTrace(cpuOnly));
        for (const QString &command : {QStringLiteral("diff"), QStringLiteral("steps"),
                                       QStringLiteral("compare"), QStringLiteral("ranks")}) {
            QStringList args{command, kTorchEager, cpuOnly};
            if (command == QLatin1String("compare"))
                args << QStringLiteral("--scope") << QStringLiteral("attention");
            const ProcessResult result = cli(args);
            QVERIFY2(result.err.contains("warning: B: " + cpuOnly.toUtf8() + ": no GPU kernels in it"),
                     qPrintable(command + QLatin1String(": ") + QString::fromUtf8(result.err)));
            QVERIFY2(!result.err.contains("carry no scope names"), result.err.constData());
            QVERIFY2(!result.err.contains("same runs"), result.err.constData());
        }
    }

    // A run without GPU kernels beside runs with them is left out, said, as the window leaves it out:
    // B (A's five runs and a CPU-only one) has A's per-run figures, where the sixth had pulled them down
    // by a sixth.
    // Runs of two profilers in one side (a Kineto trace and an Nsight Systems export) are pooled, and
    // said to be: each records and names kernels its own way.
    void sideOfTwoFormatsIsSaid()
    {
        const QString nsys = testdata::path("public/Fuser/h100/df8f397_report1.sqlite");
        REQUIRE_TEST_DATA(nsys);
        QTemporaryDir tmp(testdata::scratchDir());
        QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("run_0"))) &&
                QDir().mkpath(tmp.filePath(QStringLiteral("run_1"))));
        QVERIFY(testdata::anotherRun(kTorchEager + QStringLiteral("/run_0/trace.pt.trace.json.gz"),
                                     tmp.filePath(QStringLiteral("run_0/trace.pt.trace.json.gz"))));
        QVERIFY(testdata::anotherRun(nsys, tmp.filePath(QStringLiteral("run_1/report.sqlite"))));
        const ProcessResult diff = cli({QStringLiteral("diff"), tmp.path(), kTorchEager});
        QVERIFY2(diff.exitCode == 0, diff.err.constData());
        QVERIFY2(
            diff.err.contains("warning: A: runs of 2 trace formats in one side, pooled: kineto (") &&
                diff.err.contains("nsys (" + tmp.filePath(QStringLiteral("run_1/report.sqlite")).toUtf8()),
            diff.err.constData());
        const ProcessResult same = cli({QStringLiteral("diff"), kTorchEager, kTorchEager});
        QVERIFY2(!same.err.contains("trace formats"), same.err.constData());
    }

    void runWithoutKernelsLeftOut()
    {
        QTemporaryDir tmp(testdata::scratchDir());
        QVERIFY(tmp.isValid());
        for (int i = 0; i < 5; ++i) {
            const QString trace = QStringLiteral("/run_%1/trace.pt.trace.json.gz").arg(i);
            QVERIFY(QDir().mkpath(QFileInfo(tmp.path() + trace).path()));
            QVERIFY(testdata::anotherRun(kTorchEager + trace, tmp.path() + trace));
        }
        QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("run_5"))));
        const QString cpuOnly = tmp.filePath(QStringLiteral("run_5/trace.json"));
        QVERIFY(writeCpuOnlyTrace(cpuOnly));
        const ProcessResult diff = cli({QStringLiteral("diff"), kTorchEager, tmp.path(),
                                        QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(diff.exitCode == 0, diff.err.constData());
        QVERIFY2(diff.err.contains("warning: " + cpuOnly.toUtf8() +
                                   " holds no GPU kernels, where the other runs of "
                                   "its side do: left out"),
                 diff.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(diff.out).object();
        QCOMPARE(json[QLatin1String("b")][QLatin1String("runs")].toInt(), 5);
        const QJsonObject summary = json[QLatin1String("summary")].toObject();
        QVERIFY(summary[QLatin1String("kernel_time_per_run_a_ns")].toDouble() > 0);
        QCOMPARE(summary[QLatin1String("kernel_time_per_run_b_ns")].toDouble(),
                 summary[QLatin1String("kernel_time_per_run_a_ns")].toDouble());
    }

    // The kernel count says where each kernel ran, as the rows do: a GEMM XLA's autotuner picked in one
    // process of A and none of B is only in A (it had read "22 on both sides" beside "Calls/run B 0").
    void diffCountsWhereKernelsRan()
    {
        const QString matmul = testdata::path("h100_runs/jax_processes/matmul");
        REQUIRE_TEST_DATA(matmul);
        const QStringList args{QStringLiteral("diff"), matmul + QStringLiteral("/proc_[01]"),
                               matmul + QStringLiteral("/proc_[23]")};
        const ProcessResult text = cli(args),
                            json =
                                cli(args + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(text.exitCode == 0 && json.exitCode == 0, json.err.constData());
        int both = 0, onlyA = 0, onlyB = 0;
        for (const QJsonValue &row :
             QJsonDocument::fromJson(json.out).object()[QStringLiteral("rows")].toArray()) {
            const bool a = row[QStringLiteral("calls_a")].toDouble() > 0,
                       b = row[QStringLiteral("calls_b")].toDouble() > 0;
            both += a && b;
            onlyA += a && !b;
            onlyB += b && !a;
        }
        QVERIFY(onlyA > 0);
        const QByteArray line = QStringLiteral("%1 kernels: %2 on both sides, %3 only in A, %4 only in B")
                                    .arg(both + onlyA + onlyB)
                                    .arg(both)
                                    .arg(onlyA)
                                    .arg(onlyB)
                                    .toUtf8();
        QVERIFY2(text.out.contains(line), text.out.constData());
    }

    // diff's step line, which its gate judges, takes --step as steps does: the same line and rows for
    // the whole run, and a step found in neither side is warned of, not judged as no change.
    void diffTakesTheStepScope()
    {
        const QString samples = QStringLiteral(SCOPELINE_SAMPLES) + QStringLiteral("/jax_matmul_vs_einsum/");
        const QStringList pair{samples + QStringLiteral("matmul"), samples + QStringLiteral("einsum")},
            json{QStringLiteral("--format"), QStringLiteral("json")};
        for (const QString &scope : {QStringLiteral("whole-run"), QStringLiteral("PjitFunction(<lambda>)")}) {
            const QStringList step{QStringLiteral("--step"), scope};
            const ProcessResult diff = cli(QStringList{QStringLiteral("diff")} + pair + step + json),
                                steps = cli(QStringList{QStringLiteral("steps")} + pair + step + json);
            QVERIFY2(diff.exitCode == 0 && steps.exitCode == 0, diff.err.constData());
            const QJsonObject d = QJsonDocument::fromJson(diff.out).object(),
                              s = QJsonDocument::fromJson(steps.out).object();
            QCOMPARE(d[QStringLiteral("step_line")].toString(), s[QStringLiteral("step_line")].toString());
            QCOMPARE(d[QStringLiteral("steps")].toArray(), s[QStringLiteral("rows")].toArray());
        }
        const ProcessResult whole = cli(QStringList{QStringLiteral("diff")} + pair +
                                        QStringList{QStringLiteral("--step"), QStringLiteral("whole-run")});
        QVERIFY2(whole.out.contains("step time (the whole run, "), whole.out.constData());
        const ProcessResult missing = cli(QStringList{QStringLiteral("diff")} + pair +
                                          QStringList{QStringLiteral("--step"), QStringLiteral("nosuch")});
        QVERIFY2(missing.err.contains("warning: no step of nosuch with kernels in A"),
                 missing.err.constData());
    }

    // compare says how its rows were judged, as steps and diff do: the units, the families, alpha and the
    // threshold (at --alpha 0.01 the table had shown only its intervals' levels change).
    void compareSaysHowItJudges()
    {
        const QStringList sides{testdata::path("h100_runs/jax_processes/matmul"),
                                testdata::path("h100_runs/jax_processes/einsum")};
        for (const QString &format : {QStringLiteral("text"), QStringLiteral("markdown")}) {
            const ProcessResult result =
                cli(QStringList{QStringLiteral("compare")}
                    << sides
                    << QStringList{QStringLiteral("--scope"), QStringLiteral("PjitFunction(<lambda>)"),
                                   QStringLiteral("--alpha"), QStringLiteral("0.01"),
                                   QStringLiteral("--threshold"), QStringLiteral("5"),
                                   QStringLiteral("--format"), format});
            QVERIFY2(result.exitCode == 0, result.err.constData());
            const QString out = QString::fromUtf8(result.out);
            QVERIFY2(out.contains(QStringLiteral("(A 4, B 4 processes)")) &&
                         out.contains(QStringLiteral("(alpha 0.01, threshold 5%)")),
                     result.out.constData());
        }
    }

    // Per kernel, a scope that runs another number of kernels a run on each side compares two mixes: said
    // (cuBLAS matmul's mlp against einsum's read "B slower" per kernel while B spent 25 % less time).
    void kernelMixesAreSaid()
    {
        const QString a = testdata::path("jax_h100/jax_named_scopes_cublas/trace_file_matmul_*"),
                      b = testdata::path("jax_h100/jax_named_scopes/trace_file_einsum_*");
        const QStringList args{QStringLiteral("compare"),
                               a,
                               b,
                               QStringLiteral("--scope"),
                               QStringLiteral("mlp"),
                               QStringLiteral("--scope"),
                               QStringLiteral("attn_q_k"),
                               QStringLiteral("--format"),
                               QStringLiteral("json")};
        const ProcessResult result = cli(args);
        QVERIFY2(result.exitCode == 0, result.err.constData());
        int said = 0;
        for (const QJsonValue &row :
             QJsonDocument::fromJson(result.out).object()[QStringLiteral("rows")].toArray()) {
            if (row[QStringLiteral("run")].toString() != QLatin1String("all"))
                continue;
            const double perRunA =
                             row[QStringLiteral("n_a")].toDouble() / row[QStringLiteral("runs_a")].toDouble(),
                         perRunB =
                             row[QStringLiteral("n_b")].toDouble() / row[QStringLiteral("runs_b")].toDouble();
            const QByteArray note = QStringLiteral("scope '%1': %2 kernels a run in A, %3 in B")
                                        .arg(row[QStringLiteral("scope")].toString())
                                        .arg(perRunA)
                                        .arg(perRunB)
                                        .toUtf8();
            QCOMPARE(result.err.contains(note), perRunA != perRunB);
            // and beside a verdict that found a change, in the table, the CSV and the JSON
            const QString verdict = row[QStringLiteral("verdict")].toString();
            if (!verdict.startsWith(QLatin1String("no significant change")))
                QCOMPARE(verdict.contains(QLatin1String("kernels a run in A")), perRunA != perRunB);
            said += perRunA != perRunB;
        }
        QCOMPARE(said, 1); // mlp; attn_q_k runs as many kernels on both sides
        // per instance, the scope's time: nothing to say
        const ProcessResult instances =
            cli(args + QStringList{QStringLiteral("--samples"), QStringLiteral("instance")});
        QVERIFY2(!instances.err.contains("kernels a run in A"), instances.err.constData());
    }

    // A scope named twice is compared once: it had made two rows with different intervals, and doubled
    // the Holm-adjusted p of every scope.
    void scopeNamedTwiceIsComparedOnce()
    {
        const QStringList args{QStringLiteral("compare"),
                               kTorchEager,
                               kTorchCompiled,
                               QStringLiteral("--scope"),
                               QStringLiteral("ProfilerStep"),
                               QStringLiteral("--format"),
                               QStringLiteral("json")};
        const ProcessResult once = cli(args), twice = cli(args + QStringList{QStringLiteral("--scope"),
                                                                             QStringLiteral("ProfilerStep")});
        QVERIFY2(once.exitCode == 0 && twice.exitCode == 0, twice.err.constData());
        QCOMPARE(twice.out, once.out);
    }

    // A folder scopeline-hipbench recorded into stands for its two sides, which its summary.json names
    // relative to where the program ran: the same output as the two folders given.
    void recordedPairStandsForItsSides_data()
    {
        QTest::addColumn<QStringList>("arguments"); // PAIR stands for the recorded folder
        for (const char *command : {"steps", "diff", "ranks"})
            QTest::newRow(command) << QStringList{QString::fromLatin1(command), QStringLiteral("PAIR")};
        QTest::newRow("compare") << QStringList{QStringLiteral("compare"), QStringLiteral("PAIR"),
                                                QStringLiteral("--scope"), QStringLiteral("bmm_K20")};
    }

    void recordedPairStandsForItsSides()
    {
        QFETCH(QStringList, arguments);
        const QString recorded = testdata::path("h100_runs/hipbench/batched-matmul");
        REQUIRE_TEST_DATA(recorded);
        QStringList pair = arguments, sides = arguments;
        pair.replace(1, recorded);
        sides.replace(1, recorded + QStringLiteral("/f32"));
        sides.insert(2, recorded + QStringLiteral("/f64"));
        const ProcessResult one = cli(pair), two = cli(sides);
        QVERIFY2(two.exitCode == 0, two.err.constData());
        QCOMPARE(one.exitCode, two.exitCode);
        QVERIFY(two.out.contains("/f64"));
        QCOMPARE(one.out, two.out);

        // As one side of two, its variants would be pooled as processes: refused, naming its variants.
        QStringList asSide = arguments;
        asSide.replace(1, recorded);
        asSide.insert(2, recorded + QStringLiteral("/f64"));
        const ProcessResult side = cli(asSide);
        QCOMPARE(side.exitCode, 2);
        QVERIFY2(side.err.contains("is a pair scopeline-hipbench recorded") && side.err.contains("/f32"),
                 side.err.constData());

        // A summary that names one variant: exit 2, naming the file.
        QTemporaryDir dir;
        QFile summary(dir.filePath(QStringLiteral("summary.json")));
        QVERIFY(summary.open(QIODevice::WriteOnly));
        summary.write(R"({"a":{"label":"f32","path":"out/f32"}})");
        summary.close();
        pair.replace(1, dir.path());
        const ProcessResult bad = cli(pair);
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(summary.fileName().toUtf8()), bad.err.constData());
    }

    // A recording stands for how it was read too: compare of the launch chain's recording reads its scopes
    // as spans, as its summary.json says and the window opens it; --samples still overrides.
    void recordedPairReadsItsSamples()
    {
        const QString recorded = testdata::path("h100_runs/hipbench/launch-chain");
        REQUIRE_TEST_DATA(recorded);
        QFile summary(recorded + QStringLiteral("/summary.json"));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(summary.readAll()).object();
        QCOMPARE(root[QStringLiteral("samples")].toString(), QStringLiteral("span"));
        QStringList scopes;
        for (const QJsonValue &scope : root[QStringLiteral("scopes")].toArray())
            scopes << QStringLiteral("--scope") << scope.toString();
        QVERIFY(!scopes.isEmpty());
        const QStringList sides = {recorded + QStringLiteral("/eager"), recorded + QStringLiteral("/graph")};
        const ProcessResult one = cli({QStringLiteral("compare"), recorded}),
                            two = cli(QStringList{QStringLiteral("compare")} + sides + scopes +
                                      QStringList{QStringLiteral("--samples"), QStringLiteral("span")});
        QVERIFY2(two.exitCode == 0 || two.exitCode == 3, two.err.constData());
        QCOMPARE(one.exitCode, two.exitCode);
        QCOMPARE(one.out, two.out);
        const ProcessResult kernels =
            cli({QStringLiteral("compare"), recorded, QStringLiteral("--samples"), QStringLiteral("kernel")});
        QCOMPARE(kernels.out, cli(QStringList{QStringLiteral("compare")} + sides + scopes).out);
        QVERIFY(kernels.out != one.out);
    }

    // --format json holds every row with every field of the CSV, equal to it: numbers as numbers (the
    // same double), an empty field as null, texts as texts.
    void jsonFieldsEqualCsv_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("rowsKey");
        const QString processes = testdata::path("h100_runs/jax_processes");
        QTest::newRow("diff launch chain") << QStringList{QStringLiteral("diff"), kLaunchEager, kLaunchGraph}
                                           << QStringLiteral("rows");
        QTest::newRow("diff torch by op")
            << QStringList{QStringLiteral("diff"), kTorchEager, kTorchCompiled, QStringLiteral("--by"), QStringLiteral("op")}
            << QStringLiteral("rows");
        QTest::newRow("diff jax processes folded")
            << QStringList{QStringLiteral("diff"), processes + QStringLiteral("/matmul"),
                           processes + QStringLiteral("/einsum"), QStringLiteral("--fold-numbers")}
            << QStringLiteral("rows");
        QTest::newRow("diff's steps = steps")
            << QStringList{QStringLiteral("steps"), kTorchEager, kTorchCompiled} << QStringLiteral("steps");
        QTest::newRow("steps torch") << QStringList{QStringLiteral("steps"), kTorchEager, kTorchCompiled}
                                     << QStringLiteral("rows");
        QTest::newRow("steps jax processes")
            << QStringList{QStringLiteral("steps"), processes + QStringLiteral("/matmul"),
                           processes + QStringLiteral("/einsum")}
            << QStringLiteral("rows");
        QTest::newRow("compare launch chain")
            << QStringList{QStringLiteral("compare"), kLaunchEager, kLaunchGraph, QStringLiteral("--scope"),
                           QStringLiteral("chain"), QStringLiteral("--samples"), QStringLiteral("span")}
            << QStringLiteral("rows");
        QTest::newRow("compare torch scopes")
            << QStringList{QStringLiteral("compare"), kTorchEager, kTorchEager, QStringLiteral("--scope"),
                           QStringLiteral("attention"), QStringLiteral("--scope"), QStringLiteral("mlp")}
            << QStringLiteral("rows");
    }

    void jsonFieldsEqualCsv()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, rowsKey);
        REQUIRE_TEST_DATA(arguments[1], arguments[2]);
        QTemporaryDir dir;
        const QString csvPath = dir.filePath(QStringLiteral("rows.csv"));
        const ProcessResult csvRun = cli(arguments + QStringList{QStringLiteral("--csv"), csvPath});
        QVERIFY2(csvRun.exitCode == 0, csvRun.err.constData());
        // The JSON of diff when the CSV is steps' (the step rows diff carries), else of the same command.
        QStringList jsonArguments = arguments;
        if (rowsKey == QLatin1String("steps"))
            jsonArguments[0] = QStringLiteral("diff");
        const ProcessResult jsonRun = cli(jsonArguments + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(jsonRun.exitCode == 0, jsonRun.err.constData());
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(jsonRun.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonArray rows = document.object()[rowsKey].toArray();

        QFile file(csvPath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QStringList> csv = parseCsv(QString::fromUtf8(file.readAll()));
        QVERIFY(csv.size() >= 2);
        const QStringList keys = csv.front();
        QCOMPARE(rows.size(), csv.size() - 1);
        int numbers = 0, nulls = 0;
        for (qsizetype r = 0; r < rows.size(); ++r) {
            const QJsonObject row = rows[r].toObject();
            QCOMPARE(csv[r + 1].size(), keys.size());
            QCOMPARE(row.size(), keys.size()); // every field, no other
            for (qsizetype k = 0; k < keys.size(); ++k) {
                const QString &cell = csv[r + 1][k];
                const QJsonValue value = row[keys[k]];
                const QByteArray where = QStringLiteral("row %1, %2: csv '%3'").arg(r).arg(keys[k], cell).toUtf8();
                if (value.isNull()) { // JSON has no infinity: a change from nothing ("new in B") is null too
                    QVERIFY2(cell.isEmpty() || cell == QLatin1String("inf"), where.constData());
                    ++nulls;
                } else if (value.isDouble()) {
                    bool ok = false;
                    QVERIFY2(cell.toDouble(&ok) == value.toDouble() && ok, where.constData());
                    ++numbers;
                } else {
                    QVERIFY2(value.isString() && value.toString() == cell, where.constData());
                }
            }
        }
        QVERIFY(numbers > 0);
        qInfo("%lld rows, %lld fields each: %d numbers, %d nulls", qlonglong(rows.size()), qlonglong(keys.size()),
              numbers, nulls);
    }

    // compare's table numbers run pairs: which runs they are is said in every format that has the table,
    // the pull-request comment too (its Markdown escapes undone: the same line as the text's)
    void compareNamesItsRunPairs()
    {
        const QString samples = QStringLiteral(SCOPELINE_SAMPLES "/jax_matmul_vs_einsum/");
        REQUIRE_TEST_DATA(samples + QStringLiteral("matmul"), samples + QStringLiteral("einsum"));
        const QStringList command{QStringLiteral("compare"), samples + QStringLiteral("matmul"),
                                  samples + QStringLiteral("einsum"), QStringLiteral("--scope"),
                                  QStringLiteral("mlp")};
        const ProcessResult text = cli(command);
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QStringList pairs;
        for (int i = 0; i < 3; ++i) {
            pairs << QStringLiteral("run %1: trace_file_matmul_%2 vs trace_file_einsum_%2").arg(i + 1).arg(i);
            QVERIFY2(text.out.contains("  " + pairs.back().toUtf8() + '\n'), text.out.constData());
        }
        const ProcessResult md =
            cli(command + QStringList{QStringLiteral("--format"), QStringLiteral("markdown")});
        QVERIFY2(md.exitCode == 0, md.err.constData());
        QVERIFY2(
            QString::fromUtf8(md.out).remove(QLatin1Char('\\')).contains(pairs.join(QStringLiteral("; "))),
            md.out.constData());
    }

    // --format markdown: the step line and the top rows as a table whose cells read back as the CLI's
    // texts: with --wide the full kernel names (demangled C++ with <, *, |-free) and the verdicts, as in
    // the JSON; --top cuts the table and says so.
    void markdownTable()
    {
        REQUIRE_TEST_DATA(kTorchEager, kTorchCompiled);
        const QStringList pair{QStringLiteral("diff"), kTorchEager, kTorchCompiled};
        const ProcessResult json = cli(pair + QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QJsonObject document = QJsonDocument::fromJson(json.out).object();
        const QJsonArray rows = document[QStringLiteral("rows")].toArray();
        const ProcessResult md = cli(pair + QStringList{QStringLiteral("--format"), QStringLiteral("markdown"),
                                                        QStringLiteral("--wide"), QStringLiteral("--top"),
                                                        QStringLiteral("0")});
        QVERIFY2(md.exitCode == 0, md.err.constData());
        const QString text = QString::fromUtf8(md.out);
        // The step line, bold, escapes undone.
        const QStringList bold = text.split(QLatin1Char('\n')).filter(QRegularExpression(QStringLiteral("^\\*\\*step time")));
        QCOMPARE(bold.size(), 1);
        QString stepLine;
        for (qsizetype i = 2; i < bold.front().size() - 2; ++i)
            stepLine += bold.front()[bold.front()[i] == QLatin1Char('\\') ? ++i : i];
        QCOMPARE(stepLine, document[QStringLiteral("step_line")].toString());
        const QList<QStringList> table = markdownTableCells(text);
        QCOMPARE(table.size(), rows.size() + 1);
        const QStringList titles = table.front();
        QCOMPARE(titles.front(), QStringLiteral("Kernel"));
        QCOMPARE(titles.back(), QStringLiteral("Verdict"));
        for (qsizetype r = 0; r < rows.size(); ++r) {
            QCOMPARE(table[r + 1].size(), titles.size());
            QCOMPARE(table[r + 1].front(), rows[r][QStringLiteral("kernel")].toString());
            QCOMPARE(table[r + 1].back(), rows[r][QStringLiteral("verdict")].toString());
        }
        QVERIFY2(text.contains(QLatin1String("cutlass::Kernel2\\<")), "a demangled name's < is escaped");
        // the kernel time per run as the text gives it, the difference too
        const ProcessResult plain = cli(pair);
        const QStringList kernelTime = QString::fromUtf8(plain.out)
                                           .split(QLatin1Char('\n'))
                                           .filter(QStringLiteral("kernel time per run: A "));
        QCOMPARE(kernelTime.size(), 1);
        QVERIFY2(kernelTime.front().contains(QLatin1String(", difference ")), qPrintable(kernelTime.front()));
        QVERIFY2(text.contains(kernelTime.front()), qPrintable(kernelTime.front()));

        // --top 5: five rows, and a line that says how many there are.
        const ProcessResult top = cli(pair + QStringList{QStringLiteral("--format"), QStringLiteral("markdown"),
                                                         QStringLiteral("--top"), QStringLiteral("5")});
        QCOMPARE(markdownTableCells(QString::fromUtf8(top.out)).size(), 6);
        QVERIFY2(top.out.contains(QStringLiteral("_Top 5 of %1 rows").arg(rows.size()).toUtf8()), top.out.constData());
        // steps: the eight components, verdicts as in the JSON.
        const QStringList steps{QStringLiteral("steps"), kTorchEager, kTorchCompiled};
        const QJsonArray stepRows = QJsonDocument::fromJson(cli(steps + QStringList{QStringLiteral("--format"),
                                                                                    QStringLiteral("json")})
                                                                .out)
                                        .object()[QStringLiteral("rows")]
                                        .toArray();
        const QList<QStringList> stepTable =
            markdownTableCells(QString::fromUtf8(cli(steps + QStringList{QStringLiteral("--format"), QStringLiteral("markdown")}).out));
        QCOMPARE(stepTable.size(), 9); // a header and the eight components
        QCOMPARE(stepRows.size(), 8);
        for (qsizetype r = 0; r < stepRows.size(); ++r)
            QCOMPARE(stepTable[r + 1].back(), stepRows[r][QStringLiteral("verdict")].toString());
    }
};

QTEST_GUILESS_MAIN(TstCli)
#include "tst_cli.moc"
