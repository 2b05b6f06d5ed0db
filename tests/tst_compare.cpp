// SPDX-License-Identifier: GPL-3.0-or-later
// scopeline-cli compare against an independent scipy oracle (tests/oracle/compare_oracle.py) on the
// real JAX H100 traces: matmul vs einsum, scopes attn_q_k, attn_att_v and mlp, every CSV column.

#include "testdata.h"
#include "testprocess.h"

#include <QtTest>

#include <cmath>

namespace {

const QString kCublas = testdata::path("jax_h100/jax_named_scopes_cublas");
const QString kNamedScopes = testdata::path("jax_h100/jax_named_scopes");
// the per-sample tests' columns, empty on a pooled row
const QStringList kPooledHidden = {QStringLiteral("ranksum_p"),    QStringLiteral("mwu_p"),
                                   QStringLiteral("mwu_p_holm"),   QStringLiteral("ranksum_p_holm"),
                                   QStringLiteral("hl_ci_low_ns"), QStringLiteral("hl_ci_high_ns"),
                                   QStringLiteral("hl_ci_level"),  QStringLiteral("hl_ci_open")};

// The vm.trace.json.gz of each run folder matching prefix*, in natural order (names end in 0..2).
QStringList traceFiles(const QString &parent, const QString &prefix)
{
    QStringList files;
    const QDir dir(parent);
    for (const QString &run : dir.entryList({prefix + QLatin1Char('*')}, QDir::Dirs, QDir::Name)) {
        QDirIterator it(dir.filePath(run), {QStringLiteral("*.trace.json.gz")}, QDir::Files,
                        QDirIterator::Subdirectories | QDirIterator::FollowSymlinks);
        if (it.hasNext())
            files.append(it.next());
    }
    return files;
}

QList<QVariantMap> readCsv(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QList<QVariantMap> rows;
    const QStringList header = lines.value(0).split(QLatin1Char(','));
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList fields = lines[i].split(QLatin1Char(','));
        QVariantMap row;
        for (int c = 0; c < header.size(); ++c)
            row[header[c]] = fields.value(c);
        rows.append(row);
    }
    return rows;
}

bool oracleAvailable()
{
    return runProcess(QStringLiteral(SCOPELINE_PYTHON),
                      {QStringLiteral("-c"), QStringLiteral("import scipy, numpy")})
               .exitCode == 0;
}

} // namespace

class TstCompare : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(kCublas, kNamedScopes);
        QVERIFY2(oracleAvailable(), "no python3 with numpy and scipy at " SCOPELINE_PYTHON
                                    " for the oracle (packaging/setup.sh installs them)");
    }

    void equalsScipy_data()
    {
        QTest::addColumn<QString>("samples");
        QTest::addColumn<QString>("root");
        QTest::addColumn<QStringList>("scopes");
        QTest::addColumn<bool>("openEnd"); // a shift interval with an open end at 0 among the rows
        const QStringList scopes = {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"),
                                    QStringLiteral("mlp")};
        QTest::newRow("per kernel") << QStringLiteral("kernel") << kCublas << scopes << false;
        QTest::newRow("per instance: an open end") << QStringLiteral("instance") << kCublas << scopes << true;
    }

    void equalsScipy()
    {
        QFETCH(QString, samples);
        QFETCH(QString, root);
        QFETCH(QStringList, scopes);
        QFETCH(bool, openEnd);
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("compare.csv"));
        QStringList cliArgs = {QStringLiteral("compare"),
                               root + QStringLiteral("/trace_file_matmul_*"),
                               root + QStringLiteral("/trace_file_einsum_*"),
                               QStringLiteral("--samples"),
                               samples,
                               QStringLiteral("--csv"),
                               csv};
        for (const QString &scope : scopes)
            cliArgs << QStringLiteral("--scope") << scope;
        const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI), cliArgs);
        QCOMPARE(cli.exitCode, 0);
        QVERIFY2(cli.err.isEmpty(), cli.err.constData());

        const QStringList a = traceFiles(root, QStringLiteral("trace_file_matmul_"));
        const QStringList b = traceFiles(root, QStringLiteral("trace_file_einsum_"));
        QCOMPARE(a.size(), 3);
        QCOMPARE(b.size(), 3);
        const ProcessResult oracle = runProcess(
            QStringLiteral(SCOPELINE_PYTHON),
            QStringList{QStringLiteral(SCOPELINE_ORACLE_DIR "/compare_oracle.py"), QStringLiteral("compare"),
                        QStringLiteral("--samples"), samples, QStringLiteral("--a")}
                << a << QStringLiteral("--b") << b << QStringLiteral("--scope") << scopes);
        QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
        const QJsonArray expected = QJsonDocument::fromJson(oracle.out).array();
        const QList<QVariantMap> rows = readCsv(csv);
        QCOMPARE(rows.size(), expected.size());
        QCOMPARE(rows.size(), scopes.size() * 4); // scopes x (3 run pairs + pooled)
        QCOMPARE(std::any_of(rows.begin(), rows.end(),
                             [](const QVariantMap &row) {
                                 return !row[QStringLiteral("hl_ci_open")].toString().isEmpty();
                             }),
                 openEnd);

        for (int r = 0; r < rows.size(); ++r) {
            const QJsonObject want = expected[r].toObject();
            const QVariantMap &got = rows[r];
            QCOMPARE(got[QStringLiteral("scope")].toString(), want[QStringLiteral("scope")].toString());
            QCOMPARE(got[QStringLiteral("run")].toString(), want[QStringLiteral("run")].toString());
            QVERIFY(want[QStringLiteral("n_a")].toInt() > 0);
            for (auto it = want.begin(); it != want.end(); ++it) {
                if (it.key() == QLatin1String("scope") || it.key() == QLatin1String("run"))
                    continue;
                QVERIFY2(got.contains(it.key()), qPrintable(it.key()));
                // a pooled row's verdict is its run-level test's: the per-sample tests of calls pooled
                // across runs are not beside it, in the CSV neither
                if (want[QStringLiteral("run")].toString() == QLatin1String("all") &&
                    kPooledHidden.contains(it.key())) {
                    QVERIFY2(got[it.key()].toString().isEmpty(), qPrintable(it.key()));
                    continue;
                }
                if (it.value().isString()) { // hl_ci_open: which end of the interval is open
                    QCOMPARE(got[it.key()].toString(), it.value().toString());
                    continue;
                }
                const double value = got[it.key()].toString().toDouble();
                const double reference = it.value().toDouble();
                // p-values to 1e-6 relative (they reach 1e-41 here), everything else to 1e-9.
                const double tolerance = it.key().contains(QLatin1String("_p")) ? 1e-6 : 1e-9;
                const QString where = QStringLiteral("%1 run %2 %3: got %4, scipy %5")
                                          .arg(want[QStringLiteral("scope")].toString(),
                                               want[QStringLiteral("run")].toString(), it.key())
                                          .arg(value, 0, 'g', 17)
                                          .arg(reference, 0, 'g', 17);
                QVERIFY2(std::fabs(value - reference) <= tolerance * std::max(1.0, std::fabs(reference)),
                         qPrintable(where));
            }
            // The runs of a side came from one JAX process: the pooled run-level call says what it
            // could not measure; run-pair rows carry no run-level test and no caveat.
            const bool pooled = got[QStringLiteral("run")].toString() == QLatin1String("all");
            QCOMPARE(got[QStringLiteral("caveat")].toString().contains(QLatin1String("one process a side")), pooled);
        }
        QVERIFY(cli.out.contains("caveat: one process a side"));
    }

    void matchModesCountTheSameKernels_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("pattern");
        QTest::newRow("substring") << QStringLiteral("substring") << QStringLiteral("attn_");
        QTest::newRow("regex") << QStringLiteral("regex") << QStringLiteral("^attn_(q_k|att_v)$");
    }

    void matchModesCountTheSameKernels()
    {
        // Both patterns select exactly the kernels of attn_q_k plus those of attn_att_v.
        QFETCH(QString, mode);
        QFETCH(QString, pattern);
        const QString file = traceFiles(kCublas, QStringLiteral("trace_file_einsum_0")).value(0);
        const ProcessResult oracle =
            runProcess(QStringLiteral(SCOPELINE_PYTHON),
                       {QStringLiteral(SCOPELINE_ORACLE_DIR "/compare_oracle.py"), QStringLiteral("count"),
                        file, QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v")});
        QCOMPARE(oracle.exitCode, 0);
        const QJsonObject counts = QJsonDocument::fromJson(oracle.out).object();
        const int expected =
            counts[QStringLiteral("attn_q_k")].toInt() + counts[QStringLiteral("attn_att_v")].toInt();
        QVERIFY(expected > 0);

        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("c.csv"));
        const ProcessResult cli =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("compare"), file, file, QStringLiteral("--scope"), pattern,
                        QStringLiteral("--match"), mode, QStringLiteral("--csv"), csv});
        QCOMPARE(cli.exitCode, 0);
        const QList<QVariantMap> rows = readCsv(csv);
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows[0][QStringLiteral("n_a")].toInt(), expected);
        // A trace against itself must not look like a finding: nothing is tested.
        QVERIFY(rows[0][QStringLiteral("mwu_p")].toString().isEmpty());
        QCOMPARE(rows[0][QStringLiteral("verdict")].toString(),
                 QStringLiteral("the same runs on both sides: nothing is compared"));
        QCOMPARE(rows[0][QStringLiteral("hl_shift_ns")].toDouble(), 0.0);
        QCOMPARE(rows[0][QStringLiteral("cliffs_delta")].toDouble(), 0.0);
    }

    void scopeOnOneSideOnly()
    {
        // With Triton GEMM fusions, matmul loses the inner scope names; einsum keeps them.
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("c.csv"));
        const QString a = kNamedScopes + QStringLiteral("/trace_file_matmul_0");
        const QString b = kNamedScopes + QStringLiteral("/trace_file_einsum_0");
        const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI),
                                             {QStringLiteral("compare"), a, b, QStringLiteral("--scope"),
                                              QStringLiteral("attn_q_k"), QStringLiteral("--csv"), csv});
        QCOMPARE(cli.exitCode, 0);
        QVERIFY2(cli.err.contains("attn_q_k") && cli.err.contains("A ("), cli.err.constData());
        const QList<QVariantMap> rows = readCsv(csv);
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows[0][QStringLiteral("n_a")].toInt(), 0);
        QVERIFY(rows[0][QStringLiteral("n_b")].toInt() > 0);
        QVERIFY(rows[0][QStringLiteral("mwu_p")].toString().isEmpty());
        QVERIFY(rows[0][QStringLiteral("mean_a_ns")].toString().isEmpty());
        QVERIFY(!rows[0][QStringLiteral("mean_b_ns")].toString().isEmpty());
        QVERIFY(cli.out.contains("only in B")); // A has other scopes: this one is missing, not all
        QVERIFY(!cli.err.contains("no scope names"));
    }

    // A folder against itself, or a link to it, tests nothing: no p, no interval, every row says why; a
    // byte copy of its runs is a real A/A pair and is tested.
    void sameRunsAreNotTested()
    {
        QTemporaryDir dir;
        const QString runs = dir.filePath(QStringLiteral("runs")),
                      copy = dir.filePath(QStringLiteral("copy"));
        QVERIFY(QDir().mkpath(runs) && QDir().mkpath(copy));
        const QStringList files = traceFiles(kNamedScopes, QStringLiteral("trace_file_einsum"));
        QCOMPARE(files.size(), 3);
        for (const QString &file : files) {
            const QString name = QStringLiteral("run%1.trace.json.gz").arg(files.indexOf(file));
            QVERIFY(QFile::link(file, runs + QLatin1Char('/') + name));
            QVERIFY(QFile::copy(file, copy + QLatin1Char('/') + name));
        }
        const QString link = dir.filePath(QStringLiteral("link"));
        QVERIFY(QFile::link(runs, link));
        for (const QString &b : {runs, link, copy}) {
            const QString csv = dir.filePath(QStringLiteral("c.csv"));
            const ProcessResult cli = runProcess(
                QStringLiteral(SCOPELINE_CLI), {QStringLiteral("compare"), runs, b, QStringLiteral("--scope"),
                                                QStringLiteral("attn_q_k"), QStringLiteral("--csv"), csv});
            QVERIFY2(cli.exitCode == 0, cli.err.constData());
            const QList<QVariantMap> rows = readCsv(csv);
            QCOMPARE(rows.size(), 4); // three run pairs and the pooled row
            const bool same = b != copy;
            for (const QVariantMap &row : rows) {
                QVERIFY(row[QStringLiteral("n_a")].toInt() > 0);
                QCOMPARE(row[QStringLiteral("verdict")].toString() ==
                             QLatin1String("the same runs on both sides: nothing is compared"),
                         same);
                const bool pooled = row[QStringLiteral("run")] == QLatin1String("all");
                const QString p = row[QLatin1String(pooled ? "run_level_p" : "mwu_p")].toString(),
                              low =
                                  row[QLatin1String(pooled ? "run_level_ci_low" : "hl_ci_low_ns")].toString();
                QCOMPARE(p.isEmpty(), same);
                QCOMPARE(low.isEmpty(), same);
            }
        }
    }

    // A run pair of 3 v 3 kernels cannot reach p < 0.05 (exact Mann-Whitney: ≥ 0.1), so beside a +400 %
    // change it says so rather than "no significant change"; a run pair that could, and a pooled row
    // judged on its runs, do not. scipy gives the smallest p each row's sizes allow.
    void tooFewSamplesAreSaid_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QString>("scope");
        const QString bmm = testdata::path("h100_runs/hipbench/batched-matmul/");
        QTest::newRow("hipbench f32 v f64, 3 calls a run")
            << bmm + QStringLiteral("f32") << bmm + QStringLiteral("f64") << QStringLiteral("bmm_K05");
        QTest::newRow("JAX matmul v einsum")
            << kCublas + QStringLiteral("/trace_file_matmul_*")
            << kCublas + QStringLiteral("/trace_file_einsum_*") << QStringLiteral("attn_q_k");
    }

    void tooFewSamplesAreSaid()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QString, scope);
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("c.csv"));
        const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI),
                                             {QStringLiteral("compare"), a, b, QStringLiteral("--scope"),
                                              scope, QStringLiteral("--csv"), csv});
        QCOMPARE(cli.exitCode, 0);
        const QList<QVariantMap> rows = readCsv(csv);
        QCOMPARE(rows.size(), 4); // 3 run pairs and the pooled row
        for (const QVariantMap &row : rows) {
            const int m = row[QStringLiteral("n_a")].toInt(), n = row[QStringLiteral("n_b")].toInt();
            QVERIFY(m > 0 && n > 0);
            const ProcessResult oracle =
                runProcess(QStringLiteral(SCOPELINE_PYTHON),
                           {QStringLiteral("-c"),
                            QStringLiteral("from scipy.stats import mannwhitneyu; "
                                           "print(mannwhitneyu(range(%1), range(%1, %1 + %2)).pvalue)")
                                .arg(m)
                                .arg(n)});
            QCOMPARE(oracle.exitCode, 0);
            const bool pooled = row[QStringLiteral("run")].toString() == QLatin1String("all");
            const bool tooFew = !pooled && oracle.out.trimmed().toDouble() >= 0.05;
            const QString verdict = row[QStringLiteral("verdict")].toString();
            QVERIFY2(verdict.startsWith(QStringLiteral("too few samples to test (%1 v %2)").arg(m).arg(n)) ==
                         tooFew,
                     qPrintable(verdict));
            if (tooFew) // the change is there, and large
                QVERIFY(std::fabs(row[QStringLiteral("rel_change_median")].toDouble()) > 1);
        }
    }

    // JAX command buffers on A, off on B: A has no scope names at all. Not "only in B": the CLI says
    // what is missing, on each row and once with how to record scopes.
    void unnamedSideIsSaid()
    {
        const ProcessResult cli = runProcess(
            QStringLiteral(SCOPELINE_CLI),
            {QStringLiteral("compare"), testdata::path("jax_h100/jax_command_buffers/trace_file_matmul_*"),
             testdata::path("jax_h100/jax_named_scopes/trace_file_matmul_*"), QStringLiteral("--scope"),
             QStringLiteral("mlp")});
        QCOMPARE(cli.exitCode, 0);
        QVERIFY2(cli.err.contains("note: A's kernels carry no scope names"), cli.err.constData());
        QVERIFY2(cli.out.contains("no scope names in A") && !cli.out.contains("only in B"),
                 cli.out.constData());
        // the step scope, on both sides, is compared: no note of a miss that did not happen
        const ProcessResult step =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("compare"), testdata::path("h100_runs/torch_compile/eager"),
                        testdata::path("h100_runs/torch_compile/reduce_overhead"), QStringLiteral("--scope"),
                        QStringLiteral("ProfilerStep"), QStringLiteral("--samples"), QStringLiteral("span")});
        QCOMPARE(step.exitCode, 0);
        QVERIFY2(step.out.contains("B faster") && !step.err.contains("carry no scope names"),
                 step.err.constData());
        const ProcessResult attention =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("compare"), testdata::path("h100_runs/torch_compile/eager"),
                        testdata::path("h100_runs/torch_compile/reduce_overhead"), QStringLiteral("--scope"),
                        QStringLiteral("attention")});
        QVERIFY2(attention.err.contains("note: B's kernels carry no scope names"), attention.err.constData());
    }

    // Each candidate of several says, as a pair does, the unit its verdicts are tested on and the test:
    // 4 v 4 processes for einsum, 4 v 1 for one of its processes.
    void candidatesSayTheirUnit()
    {
        const QString jax = testdata::path("h100_runs/jax_processes");
        REQUIRE_TEST_DATA(jax);
        const ProcessResult cli = runProcess(
            QStringLiteral(SCOPELINE_CLI),
            {QStringLiteral("compare"), QStringLiteral("m=") + jax + QStringLiteral("/matmul"),
             QStringLiteral("e=") + jax + QStringLiteral("/einsum"),
             QStringLiteral("e0=") + jax + QStringLiteral("/einsum/proc_0"), QStringLiteral("--scope"),
             QStringLiteral("PjitFunction(<lambda>)"), QStringLiteral("--samples"), QStringLiteral("span")});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        for (const char *units : {"(A 4, B 4 processes)", "(A 4, B 1 processes)"})
            QVERIFY2(cli.out.contains(
                         QByteArray("verdicts: all runs: Welch on the logs of each process's mean run "
                                    "median ") +
                         units + ", Holm over scopes × candidates;"),
                     cli.out.constData());
        // a run pair's tests are one family over scopes × candidates too (it had said "the scopes")
        QVERIFY2(
            cli.out.count("a run pair: Mann–Whitney on its samples, Holm over scopes × candidates of each "
                          "pair") == 2 &&
                !cli.out.contains("Holm over the scopes of each pair"),
            cli.out.constData());
    }
};

QTEST_GUILESS_MAIN(TstCompare)
#include "tst_compare.moc"
