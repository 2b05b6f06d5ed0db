// SPDX-License-Identifier: GPL-3.0-or-later
// Run-level statistics (the run is the unit of replication): the run-level columns of
// `scopeline-cli compare` and of ScopeComparison against scipy on the per-run medians of real traces
// (tests/oracle/runlevel_oracle.py), calibration on real A/A splits of repeated runs, and a seeded
// simulation of run-to-run noise that pins the false-positive rate and the power.

#include "testdata.h"
#include "testprocess.h"

#include "model/loading/loadedrun.h"
#include "model/comparison/scopecomparison.h"
#include "model/comparison/variantscopes.h"
#include "model/tables/tableformat.h"
#include "model/loading/tracefolder.h"
#include "stats/descriptive.h"
#include "stats/ranktests.h"
#include "stats/runlevel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace scopeline;

namespace {

const QString kCublas = testdata::path("jax_h100/jax_named_scopes_cublas");
const QString kRepeated = testdata::path("jax_h100/repeated_runs");
const QString kOracle = QStringLiteral(SCOPELINE_ORACLE_DIR "/runlevel_oracle.py");
const QStringList kScopes = {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"), QStringLiteral("mlp")};
const QString kPjit = QStringLiteral("PjitFunction(<lambda>)");
const QStringList kRunLevelColumns = {QStringLiteral("runs_a"),
                                      QStringLiteral("runs_b"),
                                      QStringLiteral("run_level_p"),
                                      QStringLiteral("run_level_change"),
                                      QStringLiteral("run_level_ci_low"),
                                      QStringLiteral("run_level_ci_high"),
                                      QStringLiteral("run_level_ci_level"),
                                      QStringLiteral("verdict")};

// The vm.trace.json.gz of each run folder matching prefix*, in name order (what the CLI pairs).
QStringList traceFiles(const QString &parent, const QString &prefix)
{
    QStringList files;
    const QDir dir(parent);
    for (const QString &run : dir.entryList({prefix + QLatin1Char('*')}, QDir::Dirs, QDir::Name))
        files.append(firstFile(dir.filePath(run), QStringLiteral("*.trace.json.gz")));
    return files;
}

// One CSV line; fields may be quoted ("a,b" and "" inside).
QStringList splitCsvLine(const QString &line)
{
    QStringList fields;
    QString field;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"'))
                field += line[++i];
            else if (c == QLatin1Char('"'))
                quoted = false;
            else
                field += c;
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            fields.append(field);
            field.clear();
        } else {
            field += c;
        }
    }
    fields.append(field);
    return fields;
}

bool oracleAvailable()
{
    return runProcess(QStringLiteral(SCOPELINE_PYTHON),
                      {QStringLiteral("-c"), QStringLiteral("import scipy, numpy")})
               .exitCode == 0;
}

bool close(double actual, double expected, double rel)
{
    if (std::isnan(actual) || std::isnan(expected))
        return std::isnan(actual) && std::isnan(expected);
    return std::fabs(actual - expected) <= rel * std::max({1e-300, std::fabs(actual), std::fabs(expected)});
}

double jsonNumber(const QJsonValue &v)
{
    return v.isDouble() ? v.toDouble() : std::nan(""); // the oracle writes NaN as null
}

QString fraction(double value)
{
    return QString::asprintf("%+.2f %%", 100 * value);
}

// Every way to pick k of n items, as index lists in lexicographic order.
std::vector<std::vector<int>> combinations(int n, int k)
{
    std::vector<std::vector<int>> out;
    std::vector<int> pick(static_cast<std::size_t>(k));
    for (int i = 0; i < k; ++i)
        pick[std::size_t(i)] = i;
    while (true) {
        out.push_back(pick);
        int i = k - 1;
        while (i >= 0 && pick[std::size_t(i)] == n - k + i)
            --i;
        if (i < 0)
            return out;
        ++pick[std::size_t(i)];
        for (int j = i + 1; j < k; ++j)
            pick[std::size_t(j)] = pick[std::size_t(j - 1)] + 1;
    }
}

// Runs of one side: wall spans of the jitted call, per run, loaded once.
struct Variant
{
    QString name;
    QList<LoadedRun> runs;
    std::vector<const ScopeIndex *> indexes;
    std::vector<double> runMedians; // median PjitFunction span of each run
};

} // namespace

class TestRunLevel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void csvRunLevelColumnsEqualScipy_data();
    void csvRunLevelColumnsEqualScipy();
    void scopeComparisonEqualsScipy();
    void variantsEqualScipy();
    void oneRunOnASideSaysSo();
    void kruskalWallisSaysWhatItCannotMeasure();

    void calibrationOnRepeatedRuns();
    void matmulVersusEinsumSpan();
    void detectableChangePerRunCount();

    void simulationFalsePositivesAndPower();

private:
    QJsonArray oracle(const QStringList &arguments);

    QList<LoadedRun> m_cublasA, m_cublasB;
    Variant m_matmul, m_einsum;
};

QJsonArray TestRunLevel::oracle(const QStringList &arguments)
{
    const ProcessResult result =
        runProcess(QStringLiteral(SCOPELINE_PYTHON), QStringList{kOracle} + arguments);
    if (result.exitCode != 0)
        qWarning("oracle failed: %s", result.err.constData());
    return QJsonDocument::fromJson(result.out).array();
}

void TestRunLevel::initTestCase()
{
    QStringList required = {kOracle};
    for (const char *variant : {"matmul", "einsum"})
        for (int i = 0; i < 3; ++i) {
            // A run folder holds plugins/profile/<timestamp>/vm.trace.json.gz; name it when it lacks one.
            const QString run =
                kCublas + QStringLiteral("/trace_file_%1_%2").arg(QLatin1String(variant)).arg(i);
            const QString file = firstFile(run, QStringLiteral("*.trace.json.gz"));
            required << (file.isEmpty() ? run + QStringLiteral("/plugins/profile/*/vm.trace.json.gz") : file);
        }
    for (const char *variant : {"matmul", "einsum"})
        for (int i = 0; i < 10; ++i)
            required << kRepeated + QStringLiteral("/trace_file_%1_%2").arg(QLatin1String(variant)).arg(i);
    REQUIRE_TEST_DATA(required);
    QVERIFY2(oracleAvailable(), "no python3 with numpy and scipy at " SCOPELINE_PYTHON);

    auto load = [](const QString &pattern, QList<LoadedRun> &runs) {
        QString error;
        const std::vector<TraceRun> found = TraceFolder::scan(pattern, &error);
        QVERIFY2(!found.empty(), qPrintable(error));
        runs = LoadedRun::loadAll(found);
        for (const LoadedRun &run : runs)
            QVERIFY2(run.ok(), qPrintable(run.error));
    };
    load(kCublas + QStringLiteral("/trace_file_matmul_*"), m_cublasA);
    load(kCublas + QStringLiteral("/trace_file_einsum_*"), m_cublasB);
    QCOMPARE(m_cublasA.size(), 3);
    QCOMPARE(m_cublasB.size(), 3);

    const ScopeMatcher pjit(kPjit, MatchMode::Component);
    for (Variant *v : {&m_matmul, &m_einsum}) {
        v->name = v == &m_matmul ? QStringLiteral("matmul") : QStringLiteral("einsum");
        load(kRepeated + QStringLiteral("/trace_file_%1_*").arg(v->name), v->runs);
        QCOMPARE(v->runs.size(), 10);
        for (int i = 0; i < 10; ++i) // natural order: run i is trace_file_<variant>_<i>
            QVERIFY2(v->runs[i].run.name.contains(QStringLiteral("_%1_%2").arg(v->name).arg(i)),
                     qPrintable(v->runs[i].run.name));
        v->indexes = scopeIndexes(v->runs);
        for (const ScopeIndex *index : v->indexes) {
            const std::vector<double> spans = index->samples(pjit, SampleMode::Span);
            QCOMPARE(spans.size(), std::size_t(60)); // 60 forward calls per run
            v->runMedians.push_back(stats::median(spans));
        }
    }
}

void TestRunLevel::csvRunLevelColumnsEqualScipy_data()
{
    QTest::addColumn<QString>("samples");
    QTest::newRow("per kernel") << QStringLiteral("kernel");
    QTest::newRow("per instance") << QStringLiteral("instance");
}

void TestRunLevel::csvRunLevelColumnsEqualScipy()
{
    // matmul vs einsum, 3 v 3 runs: the pooled rows' run-level figures are scipy on the run medians,
    // which the oracle takes from the raw traces itself.
    QFETCH(QString, samples);
    QTemporaryDir dir;
    const QString csvPath = dir.filePath(QStringLiteral("compare.csv"));
    QStringList cliArgs = {QStringLiteral("compare"),
                           kCublas + QStringLiteral("/trace_file_matmul_*"),
                           kCublas + QStringLiteral("/trace_file_einsum_*"),
                           QStringLiteral("--samples"),
                           samples,
                           QStringLiteral("--csv"),
                           csvPath};
    for (const QString &scope : kScopes)
        cliArgs << QStringLiteral("--scope") << scope;
    const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI), cliArgs);
    QCOMPARE(cli.exitCode, 0);

    const QJsonArray expected = oracle(
        QStringList{QStringLiteral("traces"), QStringLiteral("--samples"), samples, QStringLiteral("--a")}
        << traceFiles(kCublas, QStringLiteral("trace_file_matmul_")) << QStringLiteral("--b")
        << traceFiles(kCublas, QStringLiteral("trace_file_einsum_")) << QStringLiteral("--scope") << kScopes);
    QCOMPARE(expected.size(), kScopes.size());

    QFile file(csvPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList header = splitCsvLine(lines.value(0));
    // The new columns come right after today's last one, in this order.
    const qsizetype first = header.indexOf(QStringLiteral("iqr_b_ns")) + 1;
    QVERIFY(first > 0);
    QCOMPARE(header.mid(first, kRunLevelColumns.size()), kRunLevelColumns);
    QCOMPARE(lines.size(), 1 + 3 * 4); // 3 scopes × (3 run pairs + pooled)

    int pooledRows = 0;
    for (qsizetype l = 1; l < lines.size(); ++l) {
        const QStringList fields = splitCsvLine(lines[l]);
        QCOMPARE(fields.size(), header.size());
        auto field = [&](const QString &name) { return fields.value(header.indexOf(name)); };
        const QString scope = field(QStringLiteral("scope"));
        const qsizetype s = kScopes.indexOf(scope);
        QVERIFY(s >= 0);
        const QJsonObject want = expected[s].toObject();
        QCOMPARE(want.value(QStringLiteral("scope")).toString(), scope);
        QVERIFY2(!field(QStringLiteral("verdict")).isEmpty(), qPrintable(lines[l]));
        if (field(QStringLiteral("run")) != QLatin1String("all")) {
            // A run-pair row: one run a side, no run-level figures; its medians are the run medians.
            const int run = field(QStringLiteral("run")).toInt() - 1;
            QCOMPARE(field(QStringLiteral("runs_a")), QStringLiteral("1"));
            QCOMPARE(field(QStringLiteral("runs_b")), QStringLiteral("1"));
            for (const QString &column : kRunLevelColumns.mid(2, 5))
                QVERIFY2(field(column).isEmpty(), qPrintable(column));
            QCOMPARE(field(QStringLiteral("median_a_ns")).toDouble(),
                     want.value(QStringLiteral("medians_a")).toArray()[run].toDouble());
            QCOMPARE(field(QStringLiteral("median_b_ns")).toDouble(),
                     want.value(QStringLiteral("medians_b")).toArray()[run].toDouble());
            continue;
        }
        ++pooledRows;
        QCOMPARE(field(QStringLiteral("runs_a")).toInt(), want.value(QStringLiteral("runs_a")).toInt());
        QCOMPARE(field(QStringLiteral("runs_b")).toInt(), 3);
        for (const QString &column :
             {QStringLiteral("run_level_p"), QStringLiteral("run_level_p_raw"),
              QStringLiteral("run_level_change"), QStringLiteral("run_level_ci_low"),
              QStringLiteral("run_level_ci_high"), QStringLiteral("run_level_ci_level"),
              QStringLiteral("run_level_rank_p")}) {
            bool ok = false;
            const double got = field(column).toDouble(&ok);
            const double reference = jsonNumber(want.value(column));
            QVERIFY2(ok && close(got, reference, column.endsWith(QLatin1String("_p")) ? 1e-6 : 1e-9),
                     qPrintable(QStringLiteral("%1 %2 %3: got '%4', scipy %5")
                                    .arg(scope, samples, column, field(column))
                                    .arg(reference, 0, 'g', 17)));
        }
        // The verdict is the run-level one.
        const double holm = jsonNumber(want.value(QStringLiteral("run_level_p")));
        const double change = jsonNumber(want.value(QStringLiteral("run_level_change")));
        const Verdict v = !(holm < 0.05)             ? Verdict::NoSignificantChange
                          : std::fabs(change) < 0.01 ? Verdict::NoMeaningfulChange
                          : change < 0               ? Verdict::Faster
                                                     : Verdict::Slower;
        QCOMPARE(field(QStringLiteral("verdict")), verdictText(v));
        // The text output shows the run-level change and its CI on the pooled row, as the window does.
        const QString shown =
            formatChangeInterval(change, jsonNumber(want.value(QStringLiteral("run_level_ci_low"))),
                                 jsonNumber(want.value(QStringLiteral("run_level_ci_high"))));
        QVERIFY2(cli.out.contains(shown.toUtf8()), qPrintable(shown + QLatin1Char('\n') + cli.out));
        if (samples == QLatin1String("kernel"))
            qInfo("%s %s: run-level change %s, p (Holm) %.3g, rank p %.3g -> %s", qPrintable(scope),
                  qPrintable(samples), qPrintable(fraction(change)), holm,
                  jsonNumber(want.value(QStringLiteral("run_level_rank_p"))), qPrintable(verdictText(v)));
    }
    QCOMPARE(pooledRows, 3);
}

void TestRunLevel::scopeComparisonEqualsScipy()
{
    // The same figures in process, from ScopeComparison (what the GUI table shows).
    const std::vector<ComparisonRow> rows = ScopeComparison(scopeIndexes(m_cublasA), scopeIndexes(m_cublasB))
                                                .compare(kScopes, MatchMode::Component, SampleMode::Kernel);
    const QJsonArray expected = oracle(
        QStringList{QStringLiteral("traces"), QStringLiteral("--samples"), QStringLiteral("kernel"),
                    QStringLiteral("--a")}
        << traceFiles(kCublas, QStringLiteral("trace_file_matmul_")) << QStringLiteral("--b")
        << traceFiles(kCublas, QStringLiteral("trace_file_einsum_")) << QStringLiteral("--scope") << kScopes);
    QCOMPARE(expected.size(), kScopes.size());
    int checked = 0;
    for (const ComparisonRow &row : rows) {
        if (!row.isPooled()) {
            QVERIFY(!row.hasRunLevel());
            QVERIFY(std::isnan(row.runLevelHolm));
            continue;
        }
        const QJsonObject want = expected[kScopes.indexOf(row.scope)].toObject();
        QVERIFY(row.hasRunLevel());
        const QJsonArray mediansA = want.value(QStringLiteral("medians_a")).toArray();
        QCOMPARE(row.runMediansA.size(), std::size_t(mediansA.size()));
        for (qsizetype i = 0; i < mediansA.size(); ++i)
            QCOMPARE(row.runMediansA[std::size_t(i)], mediansA[i].toDouble());
        const std::pair<double, const char *> figures[] = {
            {row.runLevelHolm, "run_level_p"},          {row.runLevel.p, "run_level_p_raw"},
            {row.runLevel.change, "run_level_change"},  {row.runLevel.ciLow, "run_level_ci_low"},
            {row.runLevel.ciHigh, "run_level_ci_high"}, {row.runLevel.rankP, "run_level_rank_p"}};
        for (const auto &[got, key] : figures) {
            const double reference = jsonNumber(want.value(QLatin1String(key)));
            QVERIFY2(close(got, reference, 1e-9), qPrintable(QStringLiteral("%1 %2: %3 vs scipy %4")
                                                                 .arg(row.scope, QLatin1String(key))
                                                                 .arg(got, 0, 'g', 17)
                                                                 .arg(reference, 0, 'g', 17)));
        }
        ++checked;
    }
    QCOMPARE(checked, 3);
}

// Three variants (JAX named scopes, einsum the baseline; matmul; cuBLAS GEMMs): each candidate's pooled
// rows against the baseline equal scipy's with Holm over scopes × candidates, and each scope's
// Kruskal–Wallis across the three (run medians, Holm over the scopes) equals the oracle's (scipy's H,
// its p exact by brute force over the splits of the ranks).
void TestRunLevel::variantsEqualScipy()
{
    const QString named = testdata::path("jax_h100/jax_named_scopes");
    const QStringList baseline = traceFiles(named, QStringLiteral("trace_file_einsum_")),
                      matmul = traceFiles(named, QStringLiteral("trace_file_matmul_")),
                      cublas = traceFiles(kCublas, QStringLiteral("trace_file_einsum_"));
    const auto loadFiles = [](const QStringList &files) {
        std::vector<TraceRun> runs;
        for (const QString &file : files)
            runs.push_back({QFileInfo(file).fileName(), file});
        return LoadedRun::loadAll(runs);
    };
    const VariantScopes variants(loadFiles(baseline), {loadFiles(matmul), loadFiles(cublas)},
                                 {QStringLiteral("matmul"), QStringLiteral("cublas")}, kScopes,
                                 MatchMode::Component, SampleMode::Kernel);
    const ProcessResult result = runProcess(
        QStringLiteral(SCOPELINE_PYTHON),
        QStringList{kOracle, QStringLiteral("traces"), QStringLiteral("--samples"), QStringLiteral("kernel"),
                    QStringLiteral("--a")}
            << baseline << QStringLiteral("--b") << matmul << QStringLiteral("--b") << cublas
            << QStringLiteral("--scope") << kScopes);
    QVERIFY2(result.exitCode == 0, result.err.constData());
    const QJsonObject expected = QJsonDocument::fromJson(result.out).object();
    const QJsonArray rows = expected[QStringLiteral("rows")].toArray();
    QCOMPARE(rows.size(), 2 * kScopes.size());
    int checked = 0, called = 0;
    for (std::size_t c = 0; c < 2; ++c)
        for (const ComparisonRow &row : variants.rows()[c]) {
            if (!row.isPooled())
                continue;
            const QJsonObject want = rows[qsizetype(c) * kScopes.size() + kScopes.indexOf(row.scope)].toObject();
            const std::pair<double, const char *> figures[] = {
                {row.runLevelHolm, "run_level_p"},         {row.runLevel.p, "run_level_p_raw"},
                {row.runLevel.change, "run_level_change"}, {row.runLevel.ciLow, "run_level_ci_low"},
                {row.runLevel.ciHigh, "run_level_ci_high"}};
            for (const auto &[got, key] : figures)
                QVERIFY2(close(got, jsonNumber(want.value(QLatin1String(key))), 1e-9),
                         qPrintable(row.scope + QLatin1Char(' ') + QLatin1String(key)));
            called += row.verdict() == Verdict::Faster || row.verdict() == Verdict::Slower;
            ++checked;
        }
    QCOMPARE(checked, 2 * int(kScopes.size()));
    QVERIFY(called > 0);
    const QJsonArray across = expected[QStringLiteral("across")].toArray();
    QCOMPARE(std::size_t(across.size()), variants.acrossVariants().size());
    int threeGroups = 0, exact = 0, holmShown = 0;
    for (std::size_t i = 0; i < variants.acrossVariants().size(); ++i) {
        const ScopeAcrossVariants &got = variants.acrossVariants()[i];
        const QJsonObject want = across[qsizetype(i)].toObject();
        QCOMPARE(got.test.groups, want.value(QStringLiteral("groups")).toInt()); // matmul loses inner scopes
        threeGroups += got.test.groups == 3;
        QVERIFY2(close(got.test.h, jsonNumber(want.value(QStringLiteral("h"))), 1e-9), qPrintable(got.scope));
        QVERIFY2(close(got.test.p, jsonNumber(want.value(QStringLiteral("p_raw"))), 1e-9), qPrintable(got.scope));
        QCOMPARE(got.test.method == stats::KruskalMethod::Exact,
                 want.value(QStringLiteral("method")).toString() == QLatin1String("exact"));
        exact += got.test.method == stats::KruskalMethod::Exact;
        // the least p said where the exact test could not go under alpha, and only there
        QCOMPARE(got.text(0.05, 0.01).contains(QLatin1String("so few runs give no p under")),
                 got.test.method == stats::KruskalMethod::Exact && got.test.minP >= 0.05);
        QVERIFY2(close(got.pHolm, jsonNumber(want.value(QStringLiteral("p"))), 1e-9), qPrintable(got.scope));
        // the line names the test's own p, then the Holm p where it differs (it had shown the Holm p as
        // "exact p")
        const QString line = got.text(0.05, 0.01), holm = formatPValue(got.pHolm);
        QVERIFY2(line.contains(QStringLiteral(" p %1").arg(formatPValue(got.test.p))), qPrintable(line));
        QCOMPARE(line.contains(QStringLiteral(", Holm p ") + holm), holm != formatPValue(got.test.p));
        holmShown += holm != formatPValue(got.test.p);
    }
    QVERIFY(holmShown > 0);
    QVERIFY(threeGroups > 0);
    QVERIFY(exact > 0); // three runs a variant: every split of nine ranks counted
}

// Across variants: with one run each, H is k − 1 whatever the data, so no test; four processes of
// one program as variants carry the one-process caveat beside their H.
void TestRunLevel::kruskalWallisSaysWhatItCannotMeasure()
{
    const auto load = [](const QString &path) {
        return LoadedRun::loadAll(TraceFolder::scan(testdata::path(path)));
    };
    const QString attention = QStringLiteral("h100_runs/hipbench/attention/");
    const VariantScopes single(
        load(attention + QStringLiteral("naive/run_0")),
        {load(attention + QStringLiteral("tiled/run_0")), load(attention + QStringLiteral("tiled/run_1"))},
        {QStringLiteral("tiled"), QStringLiteral("t1")}, {QStringLiteral("attn_q_k")}, MatchMode::Component,
        SampleMode::Kernel);
    const ScopeAcrossVariants &one = single.acrossVariants().front();
    QCOMPARE(one.test.groups, 3);
    QCOMPARE(one.test.h, 2.0); // k − 1
    QVERIFY(std::isnan(one.test.p) && std::isnan(one.pHolm));
    QVERIFY2(one.text(0.05, 0.01).contains(QLatin1String("not tested")), qPrintable(one.text(0.05, 0.01)));

    const QString torch = QStringLiteral("h100_runs/torch_processes/proc_%1");
    const VariantScopes processes(load(torch.arg(0)),
                                  {load(torch.arg(1)), load(torch.arg(2)), load(torch.arg(3))},
                                  {QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")},
                                  {QStringLiteral("attention")}, MatchMode::Component, SampleMode::Kernel);
    const ScopeAcrossVariants &four = processes.acrossVariants().front();
    QVERIFY(!four.byProcess); // each variant one process: its runs are the units
    QVERIFY(four.test.p < 0.05);
    QVERIFY(!four.caveat.isEmpty());
    // the four processes of one program: significant, but their medians lie within the timer's steps
    // of each other (0.5 %), under a 1 % threshold: no finding
    QVERIFY2(four.spread() > 0 && four.spread() < 0.01, qPrintable(QString::number(four.spread())));
    QVERIFY2(four.text(0.05, 0.01).contains(QLatin1String(": no meaningful difference")) &&
                 four.text(0.05, 0.01).endsWith(four.caveat),
             qPrintable(four.text(0.05, 0.01)));
    // a permutation p (a variant of 4 runs, 16 in all) has no least p to give
    QCOMPARE(four.test.method, stats::KruskalMethod::Permutation);
    QVERIFY2(!four.text(0.05, 0.01).contains(QLatin1String("so few runs")),
             qPrintable(four.text(0.05, 0.01)));
    QVERIFY2(four.text(0.05, 0.001).contains(QLatin1String("the variants differ; ")),
             qPrintable(four.text(0.05, 0.001)));

    // Variants of 4, 2 and 1 processes: every variant's units are processes, the one-process variant
    // one unit (its 4 runs were taken as 4 independent units) and named
    QTemporaryDir dir;
    const QString twoDir = dir.filePath(QStringLiteral("two")), oneDir = dir.filePath(QStringLiteral("one"));
    QVERIFY(QDir().mkpath(twoDir) && QDir().mkpath(oneDir));
    const QString procs = testdata::path("h100_runs/torch_processes/proc_%1");
    QVERIFY(QFile::link(procs.arg(0), twoDir + QStringLiteral("/proc_0")) &&
            QFile::link(procs.arg(1), twoDir + QStringLiteral("/proc_1")) &&
            QFile::link(procs.arg(2), oneDir + QStringLiteral("/proc_2")));
    const QList<LoadedRun> oneProcess = LoadedRun::loadAll(TraceFolder::scan(oneDir));
    QCOMPARE(oneProcess.size(), 4);
    const VariantScopes mixed(load(QStringLiteral("h100_runs/torch_processes")),
                              {LoadedRun::loadAll(TraceFolder::scan(twoDir)), oneProcess},
                              {QStringLiteral("p2"), QStringLiteral("p1")}, {QStringLiteral("attention")},
                              MatchMode::Component, SampleMode::Kernel);
    const ScopeAcrossVariants &units = mixed.acrossVariants().front();
    QCOMPARE(units.unitMedians[0].size(), std::size_t(4));
    QCOMPARE(units.unitMedians[1].size(), std::size_t(2));
    QCOMPARE(units.unitMedians[2].size(), std::size_t(1));
    QVERIFY2(units.caveat.contains(QLatin1String("p1 of one process")), qPrintable(units.caveat));
    QVERIFY(units.byProcess);
}

void TestRunLevel::oneRunOnASideSaysSo()
{
    // 1 run against 3: no run-level test, so the pooled row, which speaks for the scope, gives no verdict
    // (its per-sample test would pool B's three runs' calls) and says why; the run pair is within-run.
    const std::vector<const ScopeIndex *> a = {m_cublasA.front().scopes.get()};
    const std::vector<ComparisonRow> rows = ScopeComparison(a, scopeIndexes(m_cublasB))
                                                .compare(kScopes, MatchMode::Component, SampleMode::Kernel);
    int findings = 0;
    for (const ComparisonRow &row : rows) {
        QVERIFY(!row.hasRunLevel());
        QCOMPARE(row.runsA, std::size_t(1));
        const Verdict v = row.verdict(0.05, 0.01);
        QCOMPARE(row.verdictRow, row.isPooled()); // the pooled row speaks for the scope
        if (row.isPooled()) {
            QCOMPARE(v, Verdict::NoSignificantChange);
            QCOMPARE(row.verdictText(0.05, 0.01),
                     QStringLiteral("one run on a side: run-to-run variation not measured"));
            findings += row.mannWhitneyHolm < 0.05; // what the pooled calls alone would have called
        } else {                                    // beside the pooled row: a change of this run pair alone
            const bool found =
                v == Verdict::Faster || v == Verdict::Slower || v == Verdict::NoMeaningfulChange;
            QCOMPARE(row.verdictText(0.05, 0.01),
                     found ? verdictText(v) + QStringLiteral(" in this run pair") : verdictText(v));
        }
    }
    QVERIFY(findings > 0); // attn_q_k and attn_att_v differ by several per cent

    // 1 v 1: the run pair's row is the only one, so it carries the note.
    const std::vector<const ScopeIndex *> b = {m_cublasB.front().scopes.get()};
    for (const ComparisonRow &row :
         ScopeComparison(a, b).compare(kScopes, MatchMode::Component, SampleMode::Kernel)) {
        QVERIFY(row.verdictRow);
        const Verdict v = row.verdict(0.05, 0.01);
        if (v == Verdict::Faster || v == Verdict::Slower)
            QVERIFY(row.verdictText(0.05, 0.01).endsWith(QLatin1String("(1 run: run-to-run variation not measured)")));
    }
}

void TestRunLevel::calibrationOnRepeatedRuns()
{
    // True A/A comparisons: 5 vs 5 splits of one variant's 10 runs (126 distinct splits, run 0 always
    // on side A), the wall span of each jitted call. The run-level test must stay near alpha and call
    // nothing faster or slower; the pooled per-sample test is shown for contrast.
    const QStringList scopes = {kPjit};
    int splits = 0, runLevelSignificant = 0, runLevelFindings = 0, pooledSignificant = 0, pooledFindings = 0;
    for (const Variant *v : {&m_matmul, &m_einsum}) {
        int variantSignificant = 0, variantPooled = 0, variantSplits = 0;
        for (const std::vector<int> &rest : combinations(9, 4)) {
            std::vector<const ScopeIndex *> a = {v->indexes[0]}, b;
            for (int i = 1; i < 10; ++i)
                (std::find(rest.begin(), rest.end(), i - 1) != rest.end() ? a : b)
                    .push_back(v->indexes[std::size_t(i)]);
            QCOMPARE(a.size(), std::size_t(5));
            const ComparisonRow pooled =
                ScopeComparison(a, b).compare(scopes, MatchMode::Component, SampleMode::Span).back();
            QVERIFY(pooled.isPooled() && pooled.hasRunLevel());
            QCOMPARE(pooled.a.n, std::size_t(300));
            const Verdict verdict = pooled.verdict(0.05, 0.01);
            runLevelFindings += verdict == Verdict::Faster || verdict == Verdict::Slower;
            variantSignificant += pooled.runLevelHolm < 0.05;
            // With no threshold at all, the verdict is significance alone: the run-level test's.
            const Verdict anyChange = pooled.verdict(0.05, 0.0);
            QCOMPARE(anyChange == Verdict::Faster || anyChange == Verdict::Slower,
                     pooled.runLevelHolm < 0.05);
            variantPooled += pooled.mannWhitney.p < 0.05;
            // What the per-sample rule (the seed's analysis) would have called a finding.
            pooledFindings += pooled.mannWhitneyHolm < 0.05 && std::fabs(pooled.relativeChange) >= 0.01;
            ++variantSplits;
        }
        QCOMPARE(variantSplits, 126);
        QVERIFY2(variantSignificant <= variantSplits / 10,
                 qPrintable(QStringLiteral("%1: run-level p < 0.05 in %2 of %3 splits")
                                .arg(v->name)
                                .arg(variantSignificant)
                                .arg(variantSplits)));
        qInfo("%s A/A 5 v 5 (%d splits): run-level p < 0.05 in %.1f %%, pooled per-sample MWU p < 0.05 in "
              "%.1f %%",
              qPrintable(v->name), variantSplits, 100.0 * variantSignificant / variantSplits,
              100.0 * variantPooled / variantSplits);
        splits += variantSplits;
        runLevelSignificant += variantSignificant;
        pooledSignificant += variantPooled;
    }
    const double rate = double(runLevelSignificant) / splits;
    qInfo("A/A 5 v 5 over both variants (%d splits): run-level p < 0.05 in %.1f %% (findings %d); pooled "
          "per-sample MWU p < 0.05 in %.1f %% (per-sample rule would call %d faster/slower)",
          splits, 100 * rate, runLevelFindings, 100.0 * pooledSignificant / splits, pooledFindings);
    QVERIFY2(rate <= 0.10, qPrintable(QStringLiteral("run-level false positives %1 %").arg(100 * rate)));
    QCOMPARE(runLevelFindings, 0);
}

void TestRunLevel::matmulVersusEinsumSpan()
{
    // The real pair, 10 v 10 runs: the ScopeComparison figures against scipy on the same run medians.
    const ComparisonRow pooled = ScopeComparison(m_matmul.indexes, m_einsum.indexes)
                                     .compare({kPjit}, MatchMode::Component, SampleMode::Span)
                                     .back();
    QVERIFY(pooled.isPooled() && pooled.hasRunLevel());
    QCOMPARE(pooled.runsA, std::size_t(10));
    QCOMPARE(pooled.runsB, std::size_t(10));
    QCOMPARE(pooled.runMediansA, m_matmul.runMedians);
    QCOMPARE(pooled.runMediansB, m_einsum.runMedians);

    QTemporaryDir dir;
    QFile input(dir.filePath(QStringLiteral("medians.json")));
    QVERIFY(input.open(QIODevice::WriteOnly));
    QJsonArray a, b;
    for (double m : m_matmul.runMedians)
        a.append(m);
    for (double m : m_einsum.runMedians)
        b.append(m);
    const QJsonObject scope{
        {QStringLiteral("scope"), kPjit}, {QStringLiteral("a"), a}, {QStringLiteral("b"), b}};
    input.write(QJsonDocument(QJsonObject{{QStringLiteral("scopes"), QJsonArray{scope}},
                                          {QStringLiteral("resolution"), pooled.timerStep}})
                    .toJson());
    input.close();
    const QJsonArray expected = oracle({QStringLiteral("medians"), input.fileName()});
    QCOMPARE(expected.size(), 1);
    const QJsonObject want = expected[0].toObject();
    const std::pair<double, const char *> figures[] = {{pooled.runLevelHolm, "run_level_p"},
                                                       {pooled.runLevel.change, "run_level_change"},
                                                       {pooled.runLevel.ciLow, "run_level_ci_low"},
                                                       {pooled.runLevel.ciHigh, "run_level_ci_high"},
                                                       {pooled.runLevel.rankP, "run_level_rank_p"}};
    for (const auto &[got, key] : figures) {
        const double reference = jsonNumber(want.value(QLatin1String(key)));
        QVERIFY2(close(got, reference, 1e-9), qPrintable(QStringLiteral("%1: %2 vs scipy %3")
                                                             .arg(QLatin1String(key))
                                                             .arg(got, 0, 'g', 17)
                                                             .arg(reference, 0, 'g', 17)));
    }
    qInfo("matmul vs einsum, %s span, 10 v 10 runs: run-level change %s [%s, %s], p %.3g, rank p %.3g -> %s; "
          "pooled per-sample: median change %s, MWU p %.3g",
          qPrintable(kPjit), qPrintable(fraction(pooled.runLevel.change)),
          qPrintable(fraction(pooled.runLevel.ciLow)), qPrintable(fraction(pooled.runLevel.ciHigh)),
          pooled.runLevelHolm, pooled.runLevel.rankP, qPrintable(pooled.verdictText(0.05, 0.01)),
          qPrintable(fraction(pooled.relativeChange)), pooled.mannWhitney.p);
}

void TestRunLevel::detectableChangePerRunCount()
{
    // How many runs to record: the run-to-run spread of real runs and the half-width of the run-level CI
    // of A/A comparisons with k runs a side, the smallest change that can come out significant. For 3 and
    // 5 runs from disjoint A/A splits of the repeated runs; for 10 (no disjoint split exists) from the
    // pooled spread: t(0.975, 2k − 2) · σ · √(2/k) on the log scale.
    double pooledSquares = 0;
    int pooledDf = 0;
    for (const Variant *v : {&m_matmul, &m_einsum}) {
        const stats::Descriptive d = stats::describe(v->runMedians);
        std::vector<double> logs;
        for (double m : v->runMedians)
            logs.push_back(std::log(m));
        const stats::Descriptive l = stats::describe(logs);
        pooledSquares += l.std * l.std * double(l.n - 1);
        pooledDf += int(l.n) - 1;
        qInfo("%s: %s span, run medians %.1f .. %.1f µs, run-to-run CV %.2f %% (σ of log %.4f)",
              qPrintable(v->name), qPrintable(kPjit), d.min / 1000, d.max / 1000, 100 * d.std / d.mean,
              l.std);
        QVERIFY(l.std > 0);
    }
    const double sigma = std::sqrt(pooledSquares / pooledDf);

    for (int k : {2, 3, 4, 5}) {
        std::vector<double> halfWidths;
        int significant = 0;
        for (const Variant *v : {&m_matmul, &m_einsum})
            for (const std::vector<int> &sideA : combinations(10, k)) {
                std::vector<int> others;
                for (int i = 0; i < 10; ++i)
                    if (std::find(sideA.begin(), sideA.end(), i) == sideA.end())
                        others.push_back(i);
                for (const std::vector<int> &pick : combinations(10 - k, k)) {
                    std::vector<double> a, b;
                    for (int i : sideA)
                        a.push_back(v->runMedians[std::size_t(i)]);
                    for (int i : pick)
                        b.push_back(v->runMedians[std::size_t(others[std::size_t(i)])]);
                    const stats::RunLevelTest t = stats::runLevelTest(a, b);
                    QVERIFY(t.valid());
                    halfWidths.push_back((t.ciHigh - t.ciLow) / 2);
                    significant += t.p < 0.05;
                }
            }
        std::sort(halfWidths.begin(), halfWidths.end());
        const double median = stats::median(halfWidths);
        const boost::math::students_t dist(2.0 * k - 2);
        const double formula = std::expm1(boost::math::quantile(boost::math::complement(dist, 0.025)) *
                                          sigma * std::sqrt(2.0 / k));
        qInfo(
            "%d v %d runs (A/A, %zu comparisons): run-level CI half-width median %.2f %% (formula %.2f %%), "
            "p < 0.05 in %.1f %%",
            k, k, halfWidths.size(), 100 * median, 100 * formula,
            100.0 * significant / double(halfWidths.size()));
        // The pooled-σ formula must describe the splits, or the figure for 10 runs below means little.
        QVERIFY2(median > 0.5 * formula && median < 2 * formula, qPrintable(QString::number(median)));
    }
    for (int k : {10, 20}) {
        const boost::math::students_t dist(2.0 * k - 2);
        const double halfWidth = std::expm1(boost::math::quantile(boost::math::complement(dist, 0.025)) *
                                            sigma * std::sqrt(2.0 / k));
        const double power80 = std::expm1((boost::math::quantile(boost::math::complement(dist, 0.025)) +
                                           boost::math::quantile(boost::math::complement(dist, 0.2))) *
                                          sigma * std::sqrt(2.0 / k));
        qInfo("%d v %d runs (from σ = %.4f): CI half-width %.2f %%, change detected with 80 %% power %.2f %%",
              k, k, sigma, 100 * halfWidth, 100 * power80);
    }
    for (int k : {3, 5}) {
        const boost::math::students_t dist(2.0 * k - 2);
        const double power80 = std::expm1((boost::math::quantile(boost::math::complement(dist, 0.025)) +
                                           boost::math::quantile(boost::math::complement(dist, 0.2))) *
                                          sigma * std::sqrt(2.0 / k));
        qInfo("%d v %d runs (from σ = %.4f): change detected with 80 %% power %.2f %%", k, k, sigma,
              100 * power80);
    }

    // The named scopes of the 3-run cuBLAS traces: run-to-run CV of the per-run kernel medians.
    for (const QList<LoadedRun> *side : {&m_cublasA, &m_cublasB})
        for (const QString &scope : kScopes) {
            std::vector<double> medians;
            for (const LoadedRun &run : *side)
                medians.push_back(stats::median(
                    run.scopes->samples(ScopeMatcher(scope, MatchMode::Component), SampleMode::Instance)));
            const stats::Descriptive d = stats::describe(medians);
            qInfo("%s %s per instance: run medians CV %.2f %% over %zu runs",
                  side == &m_cublasA ? "matmul" : "einsum", qPrintable(scope), 100 * d.std / d.mean, d.n);
        }
}

void TestRunLevel::simulationFalsePositivesAndPower()
{
    // Runs that differ by more than their samples say: each run draws its own level (lognormal, σ_run =
    // 2 %, a GPU clock or a placement that holds for the whole process), its 60 samples scatter around it
    // (lognormal, σ = 5 %). 5 v 5 runs, 2000 replicates per scenario, fixed seed.
    constexpr int kReplicates = 2000, kRuns = 5, kSamples = 60;
    constexpr double kSigmaRun = 0.02, kSigmaWithin = 0.05, kMedianNs = 100000;
    std::mt19937_64 rng(0x5C0BE11E);
    std::normal_distribution<double> normal(0.0, 1.0);

    struct Rates
    {
        int runLevel = 0, pooled = 0, covered = 0, findings = 0;
    };
    auto simulate = [&](double logShift) {
        Rates rates;
        for (int r = 0; r < kReplicates; ++r) {
            std::vector<double> medians[2], pooled[2];
            for (int side = 0; side < 2; ++side)
                for (int run = 0; run < kRuns; ++run) {
                    const double level =
                        std::log(kMedianNs) + (side ? logShift : 0) + kSigmaRun * normal(rng);
                    std::vector<double> samples(kSamples);
                    for (double &s : samples)
                        s = std::round(std::exp(level + kSigmaWithin * normal(rng))); // whole ns
                    medians[side].push_back(stats::median(samples));
                    pooled[side].insert(pooled[side].end(), samples.begin(), samples.end());
                }
            const stats::RunLevelTest t = stats::runLevelTest(medians[0], medians[1]);
            rates.runLevel += t.p < 0.05;
            rates.covered += t.ciLow <= std::expm1(logShift) && std::expm1(logShift) <= t.ciHigh;
            rates.findings += t.p < 0.05 && std::fabs(t.change) >= 0.01;
            rates.pooled += stats::mannWhitneyU(pooled[0], pooled[1]).p < 0.05;
        }
        return rates;
    };

    const Rates null = simulate(0.0);
    const double fp = double(null.runLevel) / kReplicates, pooledFp = double(null.pooled) / kReplicates;
    const double coverage = double(null.covered) / kReplicates;
    qInfo("simulated A/A, 5 v 5 runs × %d samples, σ_run %.0f %%, σ_within %.0f %%: run-level p < 0.05 in "
          "%.1f %%, "
          "CI coverage %.1f %%, faster/slower %.1f %%; pooled per-sample MWU p < 0.05 in %.1f %%",
          kSamples, 100 * kSigmaRun, 100 * kSigmaWithin, 100 * fp, 100 * coverage,
          100.0 * null.findings / kReplicates, 100 * pooledFp);
    QVERIFY2(fp >= 0.03 && fp <= 0.08, qPrintable(QString::number(fp)));
    QVERIFY2(coverage >= 0.92 && coverage <= 0.98, qPrintable(QString::number(coverage)));
    QVERIFY2(pooledFp >= 0.3, qPrintable(QString::number(pooledFp))); // what pooling does to the same data

    // Power for a real shift of 3 σ_run (6 %): the SD of a run median is √(σ_run² + (1.25 σ_within)²/60)
    // ≈ 2.2 %, so the difference of two means of 5 has SE ≈ 1.4 %; Welch with ~8 df needs
    // (t.975 + t.80) · SE ≈ 3.2 · 1.4 % ≈ 4.4 % for 80 % power, and 6 % should reach about 95 %.
    const double shift = 3 * kSigmaRun;
    const Rates real = simulate(-shift);
    const double power = double(real.runLevel) / kReplicates;
    qInfo("simulated shift of %s (3 σ_run), 5 v 5 runs: run-level power %.1f %%, called faster %.1f %%, "
          "CI coverage %.1f %%",
          qPrintable(fraction(std::expm1(-shift))), 100 * power, 100.0 * real.findings / kReplicates,
          100.0 * real.covered / kReplicates);
    QVERIFY2(power >= 0.8, qPrintable(QString::number(power)));
    QVERIFY2(real.covered >= 0.92 * kReplicates, qPrintable(QString::number(real.covered)));
}

QTEST_GUILESS_MAIN(TestRunLevel)
#include "tst_runlevel.moc"
