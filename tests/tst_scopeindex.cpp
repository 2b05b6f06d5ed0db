// SPDX-License-Identifier: GPL-3.0-or-later
// Scope attribution on real traces: PyTorch CPU/GPU annotations (via correlation and containment)
// against an independent Python oracle, and JAX op path components.

#include "model/analysis/scopeindex.h"
#include "model/analysis/traceanalysis.h"
#include "model/comparison/scopecomparison.h"
#include "model/loading/traceloader.h"

#include "testdata.h"
#include "testprocess.h"

#include "stats/welch.h"

#include <QtTest>

#include <cmath>
#include <numeric>

using namespace scopeline;

namespace {

QJsonObject runOracle(const QStringList &arguments)
{
    const ProcessResult result = runProcess(QStringLiteral(SCOPELINE_PYTHON), arguments);
    return result.exitCode == 0 ? QJsonDocument::fromJson(result.out).object() : QJsonObject();
}

} // namespace

class TstScopeIndex : public QObject
{
    Q_OBJECT

private slots:
    // Integer-µs Kineto: the kernels tick at 1 µs. A scope whose kernels all took one time (or two
    // multiples of 2 µs) is judged with that tick, not with its own divisor: the same runs on both sides
    // are a tie known to 1 µs (its spread 1 µs/√12), never "−100 % to +inf".
    void tiesAreKnownToTheTracesTick()
    {
        const QString file = testdata::path(
            "public/HolisticTraceAnalysis/tests__data__negative_queue_length_values_check__rank0.json.gz");
        REQUIRE_TEST_DATA(file);
        const LoadResult loaded = TraceLoader::load(file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const ScopeIndex index{TraceAnalysis(*loaded.trace)};
        QCOMPARE(index.durationTick(), int64_t(1000));
        const ScopeComparison comparison({&index, &index}, {&index, &index});
        int coarse = 0;
        for (const ScopeIndex::Scope &scope : index.scopes()) {
            const std::vector<double> samples =
                index.samples(ScopeMatcher(scope.name, MatchMode::Component), SampleMode::Kernel);
            coarse += stats::durationTick(samples) > 1000;
            const std::vector<ComparisonRow> rows =
                comparison.compare({scope.name}, MatchMode::Component, SampleMode::Kernel);
            const ComparisonRow &pooled = rows.back();
            QVERIFY(pooled.isPooled() && pooled.runLevel.tied);
            QCOMPARE(pooled.timerStep, 1000.0);
            const double median = pooled.a.median; // every run's median: the runs are one trace
            // 2 v 2 runs of log variance (1000 / median)² / 12: Welch's 2 degrees of freedom,
            // t = scipy.stats.t.ppf(0.975, 2)
            const double half = 4.302652729911275 * 1000 / median / std::sqrt(12.0);
            QVERIFY(qAbs(pooled.runLevel.ciLow - std::expm1(-half)) < 1e-9);
            QVERIFY(qAbs(pooled.runLevel.ciHigh - std::expm1(half)) < 1e-9);
        }
        QVERIFY2(coarse > 0, "no scope whose own divisor is coarser than the trace's tick: nothing tested");
    }

    void annotationsMatchOracle_data()
    {
        QTest::addColumn<QString>("file");
        const QString base = testdata::path("public/");
        QTest::newRow("mi250 ROCm")
            << base + QStringLiteral("HolisticTraceAnalysis/"
                                     "tests__data__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz");
        QTest::newRow("A100 graphs")
            << base + QStringLiteral("HolisticTraceAnalysis/"
                                     "tests__data__negative_queue_length_values_check__rank0.json.gz");
        QTest::newRow("V100 ns")
            << base + QStringLiteral(
                          "HolisticTraceAnalysis/"
                          "tests__data__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
        QTest::newRow("H100 bert")
            << base + QStringLiteral(
                          "TraceLens/tests__traces__h100__gaunernst_bert-small-uncased__1016001.json.gz");
        QTest::newRow("MI300 resnet")
            << base + QStringLiteral("TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz");
    }

    void annotationsMatchOracle()
    {
        QFETCH(QString, file);
        REQUIRE_TEST_DATA(file);
        const QJsonObject expected =
            runOracle({QStringLiteral(SCOPELINE_ORACLE_DIR "/annotation_scopes.py"), file});
        QVERIFY2(!expected.isEmpty(), "the oracle found no annotated kernels");
        const LoadResult loaded = TraceLoader::load(file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const TraceAnalysis analysis(*loaded.trace);
        const ScopeIndex index(analysis);
        QMap<QString, int64_t> got;
        for (const ScopeIndex::Scope &scope : index.scopes()) {
            got[scope.name] = scope.kernels;
            QVERIFY(scope.instances >= 1 && scope.instances <= scope.kernels);
            // Per-kernel samples and the sum over instances account for the same kernels.
            const ScopeMatcher matcher(scope.name, MatchMode::Component);
            const std::vector<double> kernels = index.samples(matcher, SampleMode::Kernel);
            const std::vector<double> instances = index.samples(matcher, SampleMode::Instance);
            QCOMPARE(int64_t(kernels.size()), scope.kernels);
            QCOMPARE(int64_t(instances.size()), scope.instances);
            QCOMPARE(std::accumulate(instances.begin(), instances.end(), 0.0),
                     std::accumulate(kernels.begin(), kernels.end(), 0.0));
        }
        QCOMPARE(got.size(), expected.size());
        for (auto it = expected.begin(); it != expected.end(); ++it)
            QVERIFY2(got.value(it.key(), -1) == it.value().toInteger(),
                     qPrintable(QStringLiteral("%1: %2 vs oracle %3")
                                    .arg(it.key())
                                    .arg(got.value(it.key(), -1))
                                    .arg(it.value().toInteger())));
    }

    // JAX: the call of a jitted function is a scope; with command buffers (graph), the only one kernels keep.
    void jaxCallScopes_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::newRow("eager") << QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/eager");
        QTest::newRow("graph") << QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/graph");
    }

    void jaxCallScopes()
    {
        QFETCH(QString, folder);
        const QString file = firstFile(folder, QStringLiteral("*.trace.json.gz"));
        REQUIRE_TEST_DATA(folder, file);
        const QJsonObject expected =
            runOracle({QStringLiteral(SCOPELINE_ORACLE_DIR "/annotation_scopes.py"), file});
        QVERIFY2(!expected.isEmpty(), "the oracle found no annotated kernels");
        const LoadResult loaded = TraceLoader::load(file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const TraceAnalysis analysis(*loaded.trace);
        const ScopeIndex index(analysis);
        for (auto it = expected.begin(); it != expected.end(); ++it) {
            const ScopeMatcher matcher(it.key(), MatchMode::Component);
            QCOMPARE(qint64(index.samples(matcher, SampleMode::Kernel).size()), it.value().toInteger());
            // one instance per call of the function: as many as its host ranges that launched kernels
            const auto spans = index.samples(matcher, SampleMode::Span);
            const auto sums = index.samples(matcher, SampleMode::Instance);
            QCOMPARE(spans.size(), std::size_t(20)); // 20 forward calls per run (traces README)
            const auto kernels = index.samples(matcher, SampleMode::Kernel);
            QCOMPARE(std::accumulate(sums.begin(), sums.end(), 0.0),
                     std::accumulate(kernels.begin(), kernels.end(), 0.0));
            // (graph-replayed kernels overlap on their stream, so a span may be shorter than its sum)
            for (double span : spans)
                QVERIFY(span > 0);
        }
    }

    // A JAX path instance is a run of a scope's kernels on one stream within one step: kernels XLA
    // names no op of (Triton softmax) between them do not split it; the step's edge does.
    void jaxPathInstances_data()
    {
        QTest::addColumn<QString>("run");
        QTest::newRow("matmul sample, Triton softmax among the attention kernels")
            << QStringLiteral(SCOPELINE_SAMPLES "/jax_matmul_vs_einsum/matmul/trace_file_matmul_0");
        QTest::newRow("einsum, cuBLAS")
            << testdata::path("jax_h100/jax_named_scopes_cublas/trace_file_einsum_0");
    }

    void jaxPathInstances()
    {
        QFETCH(QString, run);
        const QString file = firstFile(run, QStringLiteral("*.trace.json.gz"));
        REQUIRE_TEST_DATA(run, file);
        const QStringList names = {QStringLiteral("attn"), QStringLiteral("attn_q_k"), QStringLiteral("mlp"),
                                   QStringLiteral("dot_general"), QStringLiteral("jit(<lambda>)")};
        const QJsonObject expected =
            runOracle(QStringList{QStringLiteral(SCOPELINE_ORACLE_DIR "/compare_oracle.py"),
                                  QStringLiteral("instances"), file} +
                      names);
        QVERIFY2(!expected.isEmpty(), "the oracle failed");
        const LoadResult loaded = TraceLoader::load(file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const TraceAnalysis analysis(*loaded.trace);
        const ScopeIndex index(analysis);
        for (const QString &name : names) {
            std::vector<double> sums =
                index.samples(ScopeMatcher(name, MatchMode::Component), SampleMode::Instance);
            std::vector<double> want;
            for (const QJsonValue &v : expected[name].toArray())
                want.push_back(v.toDouble());
            std::sort(sums.begin(), sums.end());
            std::sort(want.begin(), want.end());
            QVERIFY2(sums == want, qPrintable(QStringLiteral("%1: %2 instances, the oracle %3")
                                                  .arg(name)
                                                  .arg(sums.size())
                                                  .arg(want.size())));
            for (const ScopeIndex::Scope &scope : index.scopes())
                if (scope.name == name)
                    QCOMPARE(scope.instances, int64_t(want.size()));
        }
    }

    void jaxPathComponents()
    {
        const QString run = testdata::path("jax_h100/jax_named_scopes_cublas/trace_file_einsum_0");
        const QString file = firstFile(run, QStringLiteral("*.trace.json.gz"));
        REQUIRE_TEST_DATA(run, file);
        const QStringList names = {QStringLiteral("attn"), QStringLiteral("attn_q_k"),
                                   QStringLiteral("attn_att_v"), QStringLiteral("mlp")};
        const QJsonObject expected =
            runOracle(QStringList{QStringLiteral(SCOPELINE_ORACLE_DIR "/compare_oracle.py"),
                                  QStringLiteral("count"), file} +
                      names);
        QVERIFY2(!expected.isEmpty(), "the oracle failed (it needs python3 with numpy and scipy: "
                                      "packaging/setup.sh installs them)");
        const LoadResult loaded = TraceLoader::load(file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const TraceAnalysis analysis(*loaded.trace);
        const ScopeIndex index(analysis);
        for (const QString &name : names) {
            const std::vector<double> kernels =
                index.samples(ScopeMatcher(name, MatchMode::Component), SampleMode::Kernel);
            QCOMPARE(qint64(kernels.size()), expected[name].toInteger());
            // On one stream, an instance's wall span covers at least the sum of its kernels.
            const auto sums = index.samples(ScopeMatcher(name, MatchMode::Component), SampleMode::Instance);
            const auto spans = index.samples(ScopeMatcher(name, MatchMode::Component), SampleMode::Span);
            QCOMPARE(sums.size(), spans.size());
            for (std::size_t i = 0; i < sums.size(); ++i)
                QVERIFY(spans[i] >= sums[i]);
        }
        // "attn" is a component of "attn_q_k" paths but not of "mlp" ones; substring "attn" also
        // matches attn_q_k; a component never matches a part of a name.
        QCOMPARE(index.samples(ScopeMatcher(QStringLiteral("att"), MatchMode::Component), SampleMode::Kernel)
                     .size(),
                 std::size_t(0));
        QCOMPARE(
            qint64(
                index.samples(ScopeMatcher(QStringLiteral("attn"), MatchMode::Substring), SampleMode::Kernel)
                    .size()),
            expected[QStringLiteral("attn")].toInteger());
        // Regex mode: a listed name matches itself though its parentheses make a group as a regex
        // (picked from the list in regex mode, they were "not found"); a regex that is not one says so.
        for (const QString &listed :
             {QStringLiteral("PjitFunction(<lambda>)"), QStringLiteral("jit(<lambda>)")}) {
            const std::size_t exact =
                index.samples(ScopeMatcher(listed, MatchMode::Component), SampleMode::Kernel).size();
            QVERIFY(exact > 0);
            QCOMPARE(index.samples(ScopeMatcher(listed, MatchMode::Regex), SampleMode::Kernel).size(), exact);
        }
        const std::vector<ComparisonRow> invalid =
            ScopeComparison({&index}, {&index})
                .compare({QStringLiteral("attn_(")}, MatchMode::Regex, SampleMode::Kernel);
        QVERIFY(!invalid.empty());
        for (const ComparisonRow &row : invalid)
            QVERIFY2(row.verdictText().startsWith(QLatin1String("invalid regular expression: ")),
                     qPrintable(row.verdictText()));
    }
};

QTEST_GUILESS_MAIN(TstScopeIndex)
#include "tst_scopeindex.moc"
