// SPDX-License-Identifier: GPL-3.0-or-later
// The step breakdown on real pairs against tests/oracle/step_breakdown.py (raw events, scipy): every
// step's parts to the ns, the per-run means, Welch's p and interval, Holm and the verdicts; the causes
// add up to idle; backward kernels launched from autograd's thread land in their step; processes are
// the unit when runs sit in process folders; `scopeline-cli steps` prints and writes the same table; A/A
// splits of the JAX repeated runs call nothing beyond alpha, and a seeded shift is found. More than two
// variants (XLA's three flag sets) equal the oracle with Holm families over the candidates, and so
// does Fieller's interval of the step's ratio; A/A with four variants calls nothing beyond alpha.

#include "testdata.h"
#include "testprocess.h"

#include "model/comparison/gate.h"
#include "model/comparison/stepbreakdown.h"
#include "model/comparison/sweep.h"
#include "model/comparison/variantsteps.h"
#include "model/loading/sideargument.h"
#include "model/loading/tracefolder.h"
#include "model/tables/csvfield.h"
#include "model/tables/durationformat.h"
#include "model/tables/tablecolumn.h"
#include "model/tables/tableformat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

using namespace scopeline;

namespace {

const QString kTorch = testdata::path("h100_runs/torch_compile");

const QString kChain = testdata::path("h100_runs/hipbench/launch-chain");
const QString kRepeated = testdata::path("jax_h100/repeated_runs");
const QString kResnet = testdata::path(
    "public/kineto/tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz");
const QString kPjit = QStringLiteral("PjitFunction(<lambda>)");

// The CSV `scopeline-cli steps SIDES --csv FILE` writes, and in `out` what it printed; empty when the
// command failed (said).
QString cliStepsCsv(const QStringList &sides, QByteArray *out = nullptr)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("steps.csv"));
    const ProcessResult cli =
        runProcess(QStringLiteral(SCOPELINE_CLI),
                   QStringList{QStringLiteral("steps")} + sides + QStringList{QStringLiteral("--csv"), path});
    if (out)
        *out = cli.out;
    QFile file(path);
    if (cli.exitCode != 0 || !file.open(QIODevice::ReadOnly)) {
        qWarning("steps --csv: exit %d: %s", cli.exitCode, cli.err.constData());
        return {};
    }
    return QString::fromUtf8(file.readAll());
}

QList<LoadedRun> load(const QString &path)
{
    QString error;
    const QList<LoadedRun> runs = LoadedRun::loadAll(TraceFolder::scan(path, &error));
    for (const LoadedRun &run : runs)
        if (!run.ok())
            qWarning("%s", qPrintable(run.error));
    return runs;
}

// sides: A B, or a baseline and candidates ([LABEL=]PATH).
QJsonObject oracle(const QStringList &sides, const QString &step)
{
    QStringList args{QStringLiteral(SCOPELINE_ORACLE_DIR "/step_breakdown.py")};
    args << (step.isEmpty() ? QStringList{QStringLiteral("--whole-run")}
                            : QStringList{QStringLiteral("--step"), step});
    args << sides;
    const ProcessResult result = runProcess(QStringLiteral(SCOPELINE_PYTHON), args);
    if (result.exitCode != 0)
        qWarning("step_breakdown.py: %s", result.err.constData());
    return QJsonDocument::fromJson(result.out).object();
}

// A JSON number, NaN for null.
double number(const QJsonValue &value)
{
    return value.isDouble() ? value.toDouble() : std::nan("");
}

bool sameP(double p, double expected)
{
    return std::isnan(p) == std::isnan(expected) &&
           (std::isnan(p) || std::fabs(p - expected) <= 1e-6 * expected + 1e-300);
}

QString verdictCode(const StepRow &row)
{
    if (!row.reason.isEmpty())
        return QStringLiteral("not_tested");
    switch (row.verdict) {
    case Verdict::Faster:
        return QStringLiteral("faster");
    case Verdict::Slower:
        return QStringLiteral("slower");
    case Verdict::NoMeaningfulChange:
        return QStringLiteral("no_meaningful_change");
    default:
        return std::isnan(row.p) ? QStringLiteral("not_tested") : QStringLiteral("no_significant_change");
    }
}

// How often steps start, from the oracle's steps of each run (each rank's, averaged over a run's
// ranks): the mean over the runs of (last start − first start) / (steps − 1); NaN without 2 steps.
double oraclePeriod(const QJsonArray &runs)
{
    double sum = 0;
    int counted = 0;
    for (const QJsonValue &value : runs) {
        const QJsonObject run = value.toObject();
        QJsonArray entries = run[QStringLiteral("ranks")].toArray();
        if (entries.isEmpty())
            entries.append(run);
        double periods = 0;
        int ranks = 0;
        for (const QJsonValue &entry : entries) {
            const QJsonArray steps = entry[QStringLiteral("steps")].toArray();
            if (steps.size() < 2)
                continue;
            periods += (steps.last()[QStringLiteral("start")].toDouble() -
                        steps.first()[QStringLiteral("start")].toDouble()) /
                       double(steps.size() - 1);
            ++ranks;
        }
        if (ranks > 0) {
            sum += periods / ranks;
            ++counted;
        }
    }
    return counted > 0 ? sum / counted : std::nan("");
}

const char *const kOracleParts[kStepParts] = {"step", "busy",        "compute",     "exposed_comm",
                                              "idle", "launch_late", "gpu_waiting", "unknown"};

// Every step of every run, and the per-run means, as the oracle has them.
// The oracle's runs with each rank of a multi-GPU run as an entry of its own, as RunSteps has them.
QJsonArray rankEntries(const QJsonArray &runs)
{
    QJsonArray out;
    for (const QJsonValue &value : runs) {
        const QJsonObject run = value.toObject();
        const QJsonArray ranks = run[QStringLiteral("ranks")].toArray();
        if (ranks.isEmpty())
            out.append(run);
        for (const QJsonValue &rankValue : ranks) {
            QJsonObject rank = rankValue.toObject();
            rank[QStringLiteral("run")] = QStringLiteral("%1 · rank %2")
                                              .arg(run[QStringLiteral("run")].toString())
                                              .arg(rank[QStringLiteral("rank")].toInt());
            QJsonObject mean;
            const QJsonArray steps = rank[QStringLiteral("steps")].toArray();
            for (const char *part : kOracleParts) { // the rank's own mean over its steps
                double sum = 0;
                for (const QJsonValue &step : steps)
                    sum += step.toObject()[QLatin1String(part)].toDouble();
                mean[QLatin1String(part)] = sum / double(steps.size());
            }
            rank[QStringLiteral("mean")] = mean;
            out.append(rank);
        }
    }
    return out;
}

void compareRuns(const std::vector<RunSteps> &runs, const QJsonArray &oracleRuns)
{
    const QJsonArray expected = rankEntries(oracleRuns);
    QCOMPARE(qsizetype(runs.size()), expected.size());
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const QJsonObject run = expected[qsizetype(r)].toObject();
        QCOMPARE(runs[r].run, run[QStringLiteral("run")].toString());
        QCOMPARE(runs[r].origin.process, run[QStringLiteral("process")].toString());
        const QJsonArray steps = run[QStringLiteral("steps")].toArray();
        QCOMPARE(qsizetype(runs[r].steps.size()), steps.size());
        for (std::size_t s = 0; s < runs[r].steps.size(); ++s) {
            const StepInstance &step = runs[r].steps[s];
            const QJsonObject o = steps[qsizetype(s)].toObject();
            QCOMPARE(step.start, o[QStringLiteral("start")].toInteger());
            QCOMPARE(step.end, o[QStringLiteral("end")].toInteger());
            QCOMPARE(step.kernels, o[QStringLiteral("kernels")].toInteger());
            for (int p = 0; p < kStepParts; ++p)
                QCOMPARE(step.parts[std::size_t(p)], o[QLatin1String(kOracleParts[p])].toInteger());
        }
        const QJsonObject mean = run[QStringLiteral("mean")].toObject();
        for (int p = 0; p < kStepParts; ++p)
            QVERIFY(std::fabs(runs[r].mean[std::size_t(p)] -
                              mean[QLatin1String(kOracleParts[p])].toDouble()) < 1e-6);
    }
}

// caveat: whether the oracle says the runs came from one process a side (not shared by A and B).
void compareRows(const StepBreakdown &steps, const QJsonArray &expected, bool caveat)
{
    QCOMPARE(expected.size(), qsizetype(kStepParts));
    for (int p = 0; p < kStepParts; ++p) {
        const StepRow &row = steps.rows()[std::size_t(p)];
        const QJsonObject o = expected[p].toObject();
        QCOMPARE(stepPartKey(row.part), o[QStringLiteral("component")].toString());
        QCOMPARE(row.runsA, o[QStringLiteral("runs_a")].toInt());
        QCOMPARE(row.runsB, o[QStringLiteral("runs_b")].toInt());
        QCOMPARE(row.unitsA, o[QStringLiteral("units_a")].toInt());
        QCOMPARE(row.unitsB, o[QStringLiteral("units_b")].toInt());
        QCOMPARE(row.stepsA, o[QStringLiteral("steps_a")].toInteger());
        QCOMPARE(row.stepsB, o[QStringLiteral("steps_b")].toInteger());
        // Means to the ns (they are means of integers: far closer than that).
        for (auto [value, key] :
             {std::pair{row.meanA, "mean_a_ns"}, std::pair{row.meanB, "mean_b_ns"},
              std::pair{row.delta, "delta_ns"}, std::pair{row.ciLow, "ci_low_ns"},
              std::pair{row.ciHigh, "ci_high_ns"}, std::pair{row.shareOfDelta, "share_of_delta"}}) {
            const double want = number(o[QLatin1String(key)]);
            QVERIFY2(std::isnan(value) == std::isnan(want) &&
                         (std::isnan(want) || std::fabs(value - want) < 1e-3),
                     qPrintable(QStringLiteral("%1 %2: %3, oracle %4")
                                    .arg(stepPartKey(row.part), QLatin1String(key))
                                    .arg(value)
                                    .arg(want)));
        }
        const double level = number(o[QStringLiteral("ci_level")]); // 1 − alpha, or the Holm level's
        QVERIFY2(std::isnan(row.ciLevel) == std::isnan(level) &&
                     (std::isnan(level) || std::fabs(row.ciLevel - level) < 1e-12),
                 qPrintable(QStringLiteral("%1 ci_level %2, oracle %3")
                                .arg(stepPartKey(row.part))
                                .arg(row.ciLevel)
                                .arg(level)));
        QVERIFY2(sameP(row.pRaw, number(o[QStringLiteral("p_raw")])), qPrintable(stepPartKey(row.part)));
        QVERIFY2(sameP(row.p, number(o[QStringLiteral("p")])), qPrintable(stepPartKey(row.part)));
        QCOMPARE(verdictCode(row), o[QStringLiteral("verdict")].toString());
        if (!std::isnan(row.pRaw)) { // never p = 0 or a zero-width interval; a tie's only where it agrees
            QVERIFY2(row.pRaw > 0 && (row.ciLow < row.ciHigh || (row.tied && std::isnan(row.ciLow))),
                     qPrintable(stepPartKey(row.part)));
            QCOMPARE(row.caveat.isEmpty(), !caveat);
        }
    }
}

// The runs' step summaries, computed once per run (the calibration reuses them).
std::vector<RunSteps> summaries(const QList<LoadedRun> &runs, const QString &scope)
{
    std::vector<RunSteps> out;
    for (const LoadedRun &run : runs) {
        out.push_back(findRunSteps(*run.analysis, scope));
        out.back().run = run.run.name;
    }
    return out;
}

} // namespace

class TstStepBreakdown : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dlrm{testdata::scratchDir()}; // A/ and B/: 2 runs of the 8-rank job each

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(kTorch, kChain, kRepeated, kResnet, testdata::dlrmRun());
        QVERIFY(testdata::rankRuns(m_dlrm.filePath(QStringLiteral("A")), 2) &&
                testdata::rankRuns(m_dlrm.filePath(QStringLiteral("B")), 2));
        QVERIFY2(runProcess(QStringLiteral(SCOPELINE_PYTHON),
                            {QStringLiteral("-c"), QStringLiteral("import scipy")})
                         .exitCode == 0,
                 "no python3 with scipy at " SCOPELINE_PYTHON);
    }

    void againstOracle_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QString>("step"); // empty: the whole run
        QTest::addColumn<QString>("expectedScope");
        QTest::addColumn<int>("runs");
        QTest::newRow("torch eager vs reduce-overhead, ProfilerStep")
            << kTorch + QStringLiteral("/eager") << kTorch + QStringLiteral("/reduce_overhead") << QString()
            << QStringLiteral("ProfilerStep") << 5;
        QTest::newRow("launch-chain eager vs graph, chain")
            << kChain + QStringLiteral("/eager") << kChain + QStringLiteral("/graph")
            << QStringLiteral("chain") << QStringLiteral("chain") << 5;
        QTest::newRow("launch-chain eager vs graph, whole run")
            << kChain + QStringLiteral("/eager") << kChain + QStringLiteral("/graph")
            << StepBreakdownOptions::wholeRun() << QString() << 5;
        QTest::newRow("JAX matmul vs einsum, PjitFunction")
            << kRepeated + QStringLiteral("/trace_file_matmul_*")
            << kRepeated + QStringLiteral("/trace_file_einsum_*") << QString() << kPjit << 10;
        // an A/A split: a step change below the threshold, whose parts have no share of it
        QTest::newRow("JAX einsum runs 0-4 vs 5-9, PjitFunction")
            << kRepeated + QStringLiteral("/trace_file_einsum_[0-4]")
            << kRepeated + QStringLiteral("/trace_file_einsum_[5-9]") << QString() << kPjit << 5;
        QTest::newRow("resnet50 training, ProfilerStep (2021 schema)")
            << kResnet << kResnet << QString() << QStringLiteral("ProfilerStep") << 1;
        // 2 runs of 8 GPUs a side: each run the mean over its ranks, busy split by communication
        QTest::newRow("DLRM 8 ranks, 2 runs a side, ProfilerStep")
            << m_dlrm.filePath(QStringLiteral("A")) << m_dlrm.filePath(QStringLiteral("B")) << QString()
            << QStringLiteral("ProfilerStep") << 16;
    }

    // Per step and per run to the ns, p to 1e-6 relative, the same verdicts; the default step scope is
    // detected (ProfilerStep, JAX's jitted call).
    void againstOracle()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QString, step);
        QFETCH(QString, expectedScope);
        QFETCH(int, runs);
        const QList<LoadedRun> runsA = load(a), runsB = load(b);
        QCOMPARE(runsA.size(), runs);
        QCOMPARE(runsB.size(), runs);
        const StepBreakdown steps(runsA, runsB, StepBreakdownOptions{step});
        QCOMPARE(steps.stepScope(), expectedScope);
        QVERIFY(!steps.byProcess());
        const QJsonObject expected = oracle({a, b}, expectedScope);
        QVERIFY2(!expected.isEmpty(), "the oracle gave nothing");
        compareRuns(steps.runsA(), expected[QStringLiteral("sides")][QStringLiteral("a")].toArray());
        compareRuns(steps.runsB(), expected[QStringLiteral("sides")][QStringLiteral("b")].toArray());
        compareRows(steps, expected[QStringLiteral("rows")].toArray(),
                    expected[QStringLiteral("caveat")].toBool());
        QVERIFY(steps.row(StepPart::Step).stepsA > 0);
        // how often steps start, beside how long the GPU worked on one
        const double periodA = oraclePeriod(expected[QStringLiteral("sides")][QStringLiteral("a")].toArray()),
                     periodB = oraclePeriod(expected[QStringLiteral("sides")][QStringLiteral("b")].toArray());
        for (const auto &[got, want] :
             {std::pair(steps.period().meanA, periodA), std::pair(steps.period().meanB, periodB)})
            QVERIFY2(std::isnan(got) == std::isnan(want) &&
                         (std::isnan(want) || std::fabs(got - want) <= 1e-9 * want),
                     qPrintable(QStringLiteral("period %1 ns, oracle %2 ns").arg(got).arg(want)));
        QCOMPARE(steps.stepLine().contains(QLatin1String("a step every")),
                 !std::isnan(periodA) && !std::isnan(periodB));
    }

    // Eager JAX dispatch against command buffers: the GPU span of a step fell 79 %, yet steps start only
    // some 16 % more often; the step line says both, the period's change with its interval.
    void stepPeriodBesideStepTime()
    {
        const QString a = testdata::path("eager_vs_graph/eager"), b = testdata::path("eager_vs_graph/graph");
        const StepBreakdown steps(load(a), load(b));
        const StepRow &step = steps.row(StepPart::Step), &period = steps.period();
        QVERIFY(step.delta / step.meanA < -0.5);
        QVERIFY2(period.delta / period.meanA > -0.5 && period.delta < 0,
                 qPrintable(QStringLiteral("%1 → %2").arg(period.meanA).arg(period.meanB)));
        const QString line = steps.stepLine();
        QVERIFY2(line.contains(steps.periodText()) &&
                     steps.periodText().startsWith(QStringLiteral("a step every %1 → %2 (%3")
                                                       .arg(formatDuration(period.meanA),
                                                            formatDuration(period.meanB),
                                                            formatChange(period.delta / period.meanA, 1))),
                 qPrintable(line));
        const QJsonObject expected = oracle({a, b}, steps.stepScope());
        const double periodA = oraclePeriod(expected[QStringLiteral("sides")][QStringLiteral("a")].toArray());
        QVERIFY(std::fabs(period.meanA - periodA) <= 1e-9 * periodA);
        QVERIFY2(!line.contains(QLatin1String("not significant")), qPrintable(line)); // one run: no interval
    }

    // Command buffers against named scopes (3 v 3 JAX runs): the step's GPU span grew 4.4× (B slower)
    // while steps started about as often (+16.5 %, an interval holding no change): the period says so
    // beside the step's verdict, which alone had read as a fall in throughput.
    void spanChangedWhileStepsCameAsOften()
    {
        const QString jax = testdata::path("jax_h100");
        const QString a = jax + QStringLiteral("/jax_command_buffers/trace_file_matmul_*"),
                      b = jax + QStringLiteral("/jax_named_scopes/trace_file_matmul_*");
        const StepBreakdown steps(load(a), load(b));
        QCOMPARE(steps.row(StepPart::Step).verdict, Verdict::Slower);
        // the raw events' per-run periods, Welch-tested by scipy: no change shown
        const QJsonObject expected = oracle({a, b}, steps.stepScope());
        QStringList periods[2];
        for (int side = 0; side < 2; ++side)
            for (const QJsonValue &run :
                 expected[QStringLiteral("sides")][QLatin1String(side == 0 ? "a" : "b")].toArray())
                periods[side] << QString::number(oraclePeriod(QJsonArray{run}), 'g', 17);
        QCOMPARE(periods[0].size(), 3);
        const ProcessResult welch = runProcess(
            QStringLiteral(SCOPELINE_PYTHON),
            {QStringLiteral("-c"),
             QStringLiteral("import sys; from scipy import stats; a, b = ([float(x) for x in s.split(',')] "
                            "for s in sys.argv[1:]); print(stats.ttest_ind(a, b, equal_var=False).pvalue)"),
             periods[0].join(QLatin1Char(',')), periods[1].join(QLatin1Char(','))});
        QVERIFY2(welch.exitCode == 0, welch.err.constData());
        QVERIFY2(welch.out.trimmed().toDouble() > 0.05, welch.out.constData());
        const stats::RatioInterval r = steps.period().ratio();
        QVERIFY(r.low <= 1 && r.high >= 1);
        QVERIFY2(
            steps.periodText().contains(QLatin1String(
                " %]: not significant, unlike the step time: the kernels spread over more of each step)")),
            qPrintable(steps.periodText()));
        QVERIFY(steps.stepLine().contains(steps.periodText()));
    }

    // Busy + idle = step and the causes add up to idle, in every step and in the means; the gaps kept
    // for the timelines are the idle time.
    void partsAddUp()
    {
        for (const QString &side : {QStringLiteral("/eager"), QStringLiteral("/reduce_overhead")}) {
            const QList<LoadedRun> runs = load(kTorch + side);
            QVERIFY(!runs.isEmpty());
            for (const LoadedRun &loaded : runs) {
                std::vector<StepGap> runGaps;
                const RunSteps run = findRunSteps(*loaded.analysis, QStringLiteral("ProfilerStep"), &runGaps);
                QCOMPARE(run.steps.size(), std::size_t(4));
                int64_t idle = 0, gaps = 0;
                for (const StepInstance &s : run.steps) {
                    using P = StepPart;
                    auto part = [&s](P p) { return s.parts[std::size_t(p)]; };
                    QCOMPARE(part(P::Busy) + part(P::Idle), part(P::Step));
                    QCOMPARE(part(P::LaunchLate) + part(P::GpuWaiting) + part(P::Unknown), part(P::Idle));
                    QVERIFY(part(P::Busy) > 0);
                    idle += part(P::Idle);
                }
                for (const StepGap &g : runGaps)
                    gaps += g.end - g.start;
                QCOMPARE(gaps, idle);
                auto m = [&run](StepPart p) { return run.mean[std::size_t(p)]; };
                QVERIFY(std::fabs(m(StepPart::Busy) + m(StepPart::Idle) - m(StepPart::Step)) < 1e-6);
                QVERIFY(std::fabs(m(StepPart::LaunchLate) + m(StepPart::GpuWaiting) + m(StepPart::Unknown) -
                                  m(StepPart::Idle)) < 1e-6);
            }
        }
    }

    // Busy = compute + exposed communication in every step of every rank; the communication kernels
    // counted by name in the raw events (NCCL's, 8 a rank); on one GPU compute is all of busy.
    void communicationSplitsBusy()
    {
        const QList<LoadedRun> ranks = load(testdata::dlrmRun());
        QCOMPARE(ranks.size(), 8);
        for (const LoadedRun &rank : ranks) {
            QVERIFY(rank.run.rank >= 0 && rank.run.worldSize == 8);
            const TraceData &t = *rank.trace;
            int64_t nccl = 0; // the raw events: kernels named ncclKernel_*
            for (uint32_t e = 0; e < t.eventCount(); ++e)
                nccl += t.kind[e] == EventKind::Kernel && t.nameOf(e).substr(0, 11) == "ncclKernel_";
            QCOMPARE(nccl, int64_t(8));
            const RunSteps steps = findRunSteps(*rank.summary, QStringLiteral("ProfilerStep"));
            QCOMPARE(steps.steps.size(), std::size_t(1));
            const StepInstance &s = steps.steps.front();
            auto part = [&s](StepPart p) { return s.parts[std::size_t(p)]; };
            QCOMPARE(s.commKernels, nccl);
            QCOMPARE(part(StepPart::Compute) + part(StepPart::ExposedComm), part(StepPart::Busy));
            QVERIFY(part(StepPart::ExposedComm) > 0 && part(StepPart::Compute) > 0 && s.overlappedComm >= 0);
        }
        for (const RunSteps &run : summaries(load(kTorch + QStringLiteral("/eager")), QStringLiteral("ProfilerStep")))
            for (const StepInstance &s : run.steps) {
                QCOMPARE(s.parts[std::size_t(StepPart::Compute)], s.parts[std::size_t(StepPart::Busy)]);
                QCOMPARE(s.parts[std::size_t(StepPart::ExposedComm)], int64_t(0));
                QCOMPARE(s.commKernels, int64_t(0));
            }
    }

    // DLRM ranks 1 and 3 lost the launch calls of 64 kernels in their step (the raw events: kernels whose
    // correlation no CPU event has, inside the step's range): counted in no step, and said.
    void unlaunchedKernelsAreSaid()
    {
        const QList<LoadedRun> ranks = load(testdata::dlrmRun());
        QCOMPARE(ranks.size(), 8);
        double mostPerStep = 0;
        for (const LoadedRun &rank : ranks) {
            const TraceData &t = *rank.trace;
            std::set<int64_t> called;
            for (uint32_t e = 0; e < t.eventCount(); ++e)
                if (!t.onGpu(e) && t.correlation[e] != TraceData::kNoCorrelation)
                    called.insert(t.correlation[e]);
            const RunSteps steps = findRunSteps(*rank.summary, QStringLiteral("ProfilerStep"));
            QCOMPARE(steps.steps.size(), std::size_t(1));
            const StepInstance &step = steps.steps.front();
            int64_t count = 0, ns = 0;
            for (uint32_t e = 0; e < t.eventCount(); ++e)
                if (t.kind[e] == EventKind::Kernel && !called.count(t.correlation[e]) &&
                    t.start[e] >= step.start && t.start[e] < step.end) {
                    ++count;
                    ns += t.duration[e];
                }
            QCOMPARE(steps.unlaunchedKernels, count);
            QCOMPARE(steps.unlaunchedNs, ns);
            QCOMPARE(count, rank.run.rank == 1 || rank.run.rank == 3 ? int64_t(64) : int64_t(0));
            mostPerStep = std::max(mostPerStep, double(ns)); // one step each
        }
        // per step as the figures beside it, not summed over ranks
        const StepBreakdown breakdown(ranks, ranks, {QStringLiteral("ProfilerStep")});
        QVERIFY2(
            breakdown.note().startsWith(
                QStringLiteral("A: kernels without a launch call in the trace ran while steps did and count "
                               "in no step, in 2 of 8 rank files (a mean of up to %1 of GPU time a step)")
                    .arg(formatDuration(mostPerStep))),
            qPrintable(breakdown.note()));
        const StepBreakdown whole(ranks, ranks, {StepBreakdownOptions::wholeRun()});
        QVERIFY(whole.note().isEmpty()); // the whole run is one step with every kernel
    }

    // A training step: the backward kernels are launched from autograd's thread, not the step's.
    void backwardFromAutogradThread()
    {
        const QList<LoadedRun> runs = load(kResnet);
        QCOMPARE(runs.size(), 1);
        const TraceAnalysis &analysis = *runs[0].analysis;
        const TraceData &t = analysis.trace();
        const RunSteps steps = findRunSteps(analysis, QStringLiteral("ProfilerStep"));
        QCOMPARE(steps.steps.size(), std::size_t(6));
        // Kernels whose launch starts in a step on a thread other than the step annotation's.
        std::set<QString> stepThreads;
        for (uint32_t e = 0; e < t.eventCount(); ++e)
            if (t.qname(e).startsWith(QLatin1String("ProfilerStep#")))
                stepThreads.insert(t.tracks[t.track[e]].tid);
        QCOMPARE(stepThreads.size(), std::size_t(1));
        int64_t otherThread = 0, inSteps = 0;
        for (std::size_t p = 0; p < analysis.kernels().size(); ++p) {
            const int64_t launch = analysis.launchAt(p);
            if (launch < 0)
                continue;
            for (const StepInstance &s : steps.steps)
                if (t.start[launch] >= s.start && t.start[launch] < s.end) {
                    ++inSteps;
                    otherThread += !stepThreads.count(t.tracks[t.track[launch]].tid);
                }
        }
        int64_t counted = 0;
        for (const StepInstance &s : steps.steps)
            counted += s.kernels;
        QCOMPARE(counted, inSteps);
        qInfo("%lld kernels in 6 steps, %lld of them launched from the second thread", qlonglong(inSteps),
              qlonglong(otherThread));
        QVERIFY(otherThread > 1000);
    }

    // Runs in `side/<process>/<run>/`: the unit is the process (its runs' means averaged), as the oracle has
    // it.
    void processesAreTheUnit()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // Two "processes" a side of the JAX repeated runs (really one process: the layout is what counts).
        const std::vector<TraceRun> all = TraceFolder::scan(kRepeated);
        QCOMPARE(all.size(), std::size_t(20));
        int copied[2] = {0, 0};
        for (const TraceRun &run : all) {
            const bool einsum = run.name.contains(QLatin1String("einsum"));
            const int index = copied[einsum]++;
            if (index >= 6)
                continue;
            const QString target = QStringLiteral("%1/%2/proc_%3/run_%4/%5")
                                       .arg(dir.path(), einsum ? QStringLiteral("b") : QStringLiteral("a"))
                                       .arg(index / 3)
                                       .arg(index % 3)
                                       .arg(QStringLiteral("trace.pt.trace.json.gz"));
            QVERIFY(QDir().mkpath(QFileInfo(target).path()));
            QVERIFY(QFile::copy(run.file, target));
        }
        const QString a = dir.filePath(QStringLiteral("a")), b = dir.filePath(QStringLiteral("b"));
        const StepBreakdown steps(load(a), load(b));
        QVERIFY(steps.byProcess());
        QCOMPARE(steps.runsA().front().origin.process, QStringLiteral("proc_0"));
        const StepRow &step = steps.row(StepPart::Step);
        QCOMPARE(step.runsA, 6);
        QCOMPARE(step.unitsA, 2);
        QCOMPARE(step.unitsB, 2);
        const QJsonObject expected = oracle({a, b}, kPjit);
        QVERIFY(expected[QStringLiteral("by_process")].toBool());
        compareRuns(steps.runsA(), expected[QStringLiteral("sides")][QStringLiteral("a")].toArray());
        compareRows(steps, expected[QStringLiteral("rows")].toArray(),
                    expected[QStringLiteral("caveat")].toBool());
    }

    void oneRunASideIsNotTested()
    {
        const QList<LoadedRun> a = load(kTorch + QStringLiteral("/eager/run_0"));
        const QList<LoadedRun> b = load(kTorch + QStringLiteral("/reduce_overhead/run_0"));
        const StepBreakdown steps(a, b);
        for (const StepRow &row : steps.rows()) {
            QVERIFY(std::isnan(row.p));
            QCOMPARE(row.verdict, Verdict::NoSignificantChange);
            QVERIFY(row.verdictText().contains(QLatin1String("run-to-run variation not measured")));
        }
        QVERIFY(steps.row(StepPart::Step).delta < 0); // the figure is still there
    }

    // A step far longer than its side's others (reduce-overhead's run_2 ProfilerStep#3: 13 ms against
    // 1.1 ms, a host stall) is said beside the mean per step that counts it in full; each side's steps
    // from the oracle's reading of the raw events, the longest and the median among them.
    void farLongerStepIsSaid()
    {
        const QString a = kTorch + QStringLiteral("/eager"), b = kTorch + QStringLiteral("/reduce_overhead");
        const StepBreakdown steps(load(a), load(b));
        const QJsonObject expected = oracle({a, b}, QStringLiteral("ProfilerStep"));
        for (const char *side : {"a", "b"}) {
            std::vector<double> all;
            QString longestRun;
            double longest = 0, number = -1;
            for (const QJsonValue &run : expected[QStringLiteral("sides")][QLatin1String(side)].toArray())
                for (const QJsonValue &step : run[QStringLiteral("steps")].toArray()) {
                    all.push_back(step[QStringLiteral("step")].toDouble());
                    if (all.back() > longest) {
                        longest = all.back();
                        longestRun = run[QStringLiteral("run")].toString();
                        number = step[QStringLiteral("number")].toDouble();
                    }
                }
            QVERIFY(all.size() >= 5);
            std::sort(all.begin(), all.end());
            const double median =
                all.size() % 2 ? all[all.size() / 2] : (all[all.size() / 2 - 1] + all[all.size() / 2]) / 2;
            const QString said =
                QStringLiteral("%1: one step far longer than the others, %2's ProfilerStep#%3, %4, "
                               "%5× the median step (%6)")
                    .arg(QString::fromLatin1(side).toUpper(), longestRun)
                    .arg(qint64(number))
                    .arg(formatDuration(longest))
                    .arg(longest / median, 0, 'f', 1)
                    .arg(formatDuration(median));
            QCOMPARE(steps.note().contains(said), longest > 5 * median);
            if (QLatin1String(side) == QLatin1String("b"))
                QVERIFY2(longest > 5 * median, qPrintable(steps.note())); // this pair's case
        }
    }

    // The step line's interval is Fieller's of B / A, as the variants give it, at the step's level: 2 v 2
    // runs of a step that fell by 86 %, where Welch's interval of the difference over A's mean reached
    // past -100 % (A's spread, which B / A scales down) and had been cut there. Both ends as the oracle
    // has them, to the digits shown.
    void stepIntervalIsFiellers()
    {
        const QString a = kTorch + QStringLiteral("/eager/run_[01]"),
                      b = kTorch + QStringLiteral("/reduce_overhead/run_[01]");
        const StepBreakdown steps(load(a), load(b));
        const StepRow &step = steps.row(StepPart::Step);
        QVERIFY2(step.ciLow < -step.meanA, qPrintable(QString::number(step.ciLow / step.meanA)));
        QCOMPARE(step.verdict, Verdict::Faster);
        const QJsonObject ratio =
            oracle({a, b}, QStringLiteral("ProfilerStep"))[QStringLiteral("step_ratio")].toObject();
        const double low = ratio[QStringLiteral("low")].toDouble() - 1,
                     high = ratio[QStringLiteral("high")].toDouble() - 1;
        QVERIFY2(low > -1 && high < 0, qPrintable(QStringLiteral("%1 %2").arg(low).arg(high)));
        const QString shown = QStringLiteral("95.0 % CI [%1, %2]")
                                  .arg(formatChange(low, intervalDecimals(low, high, 1)),
                                       formatChange(high, intervalDecimals(low, high, 1)));
        QVERIFY2(steps.stepLine().contains(shown),
                 qPrintable(steps.stepLine() + QStringLiteral(" / ") + shown));
    }

    // The CLI prints the table from the same columns and writes the CSV the model writes.
    void cli()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("steps.csv"));
        const QString a = kTorch + QStringLiteral("/eager"), b = kTorch + QStringLiteral("/reduce_overhead");
        const ProcessResult result = runProcess(
            QStringLiteral(SCOPELINE_CLI), {QStringLiteral("steps"), a, b, QStringLiteral("--csv"), csv});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        const StepBreakdown steps(load(a), load(b));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString written = QString::fromUtf8(file.readAll());
        QCOMPARE(written, steps.toCsv());
        QVERIFY(written.startsWith(QLatin1String(
            "component,runs_a,runs_b,steps_a,steps_b,mean_a_ns,mean_b_ns,delta_ns,share_of_delta,ci_low_ns,"
            "ci_high_ns,ci_level,p_raw,p,verdict")));
        const QStringList lines = written.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 9);
        const QStringList order{QStringLiteral("step"),
                                QStringLiteral("busy"),
                                QStringLiteral("busy:compute"),
                                QStringLiteral("busy:exposed_communication"),
                                QStringLiteral("idle"),
                                QStringLiteral("idle:launch_late"),
                                QStringLiteral("idle:gpu_waiting"),
                                QStringLiteral("idle:unknown")};
        for (int i = 0; i < order.size(); ++i)
            QCOMPARE(lines[i + 1].section(QLatin1Char(','), 0, 0), order[i]);
        const QString out = QString::fromUtf8(result.out);
        QVERIFY(out.contains(steps.stepLine()));
        for (const StepRow &row : steps.rows())
            QVERIFY2(out.contains(stepPartTitle(row.part)) && out.contains(row.verdictText()),
                     qPrintable(stepPartTitle(row.part)));
        QVERIFY(steps.row(StepPart::Step).verdict == Verdict::Faster);

        // diff starts with the step verdict; a bad --step is a usage error; a scope without steps warns.
        const ProcessResult diff = runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("diff"), a, b});
        QVERIFY2(diff.exitCode == 0, diff.err.constData());
        QVERIFY(QString::fromUtf8(diff.out).section(QLatin1Char('\n'), 2, 2).startsWith(steps.stepLine()));
        QCOMPARE(runProcess(QStringLiteral(SCOPELINE_CLI),
                            {QStringLiteral("steps"), a, b, QStringLiteral("--step=")})
                     .exitCode,
                 1);
        const ProcessResult none = runProcess(
            QStringLiteral(SCOPELINE_CLI),
            {QStringLiteral("steps"), a, b, QStringLiteral("--step"), QStringLiteral("no_such_scope")});
        QCOMPARE(none.exitCode, 0);
        QVERIFY(none.err.contains("no step of no_such_scope"));
        // so do a report and variants, naming the side without steps
        QTemporaryDir reportDir;
        const ProcessResult report =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("report"), a, b, QStringLiteral("--step"),
                        QStringLiteral("no_such_scope"), QStringLiteral("--out"), reportDir.path()});
        QCOMPARE(report.exitCode, 0);
        QVERIFY2(report.err.contains("no step of no_such_scope with kernels in A"), report.err.constData());
        const QString jax = testdata::path("jax_h100/jax_named_scopes/trace_file_matmul_0");
        const ProcessResult variants =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("steps"), a, QStringLiteral("b=") + b, QStringLiteral("jax=") + jax,
                        QStringLiteral("--step"), QStringLiteral("ProfilerStep")});
        QCOMPARE(variants.exitCode, 0);
        QVERIFY2(variants.err.contains("with kernels in B (jax)") && !variants.err.contains("B (b)"),
                 variants.err.constData());
    }

    // True A/A: every 5-vs-5 split of one variant's 10 runs (126 a variant): no row is called faster or
    // slower in more than alpha of the splits. A seeded shift added to B's steps is found.
    void calibrationOnAASplits()
    {
        const QList<LoadedRun> all = load(kRepeated);
        QCOMPARE(all.size(), 20);
        std::vector<RunSteps> variants[2];
        for (const RunSteps &run : summaries(all, kPjit))
            variants[run.run.contains(QLatin1String("einsum"))].push_back(run);
        QCOMPARE(variants[0].size(), std::size_t(10));
        int splits = 0, calledSplits = 0, found = 0, shifted = 0;
        int calls[kStepParts] = {}, rawBelow[kStepParts] = {};
        std::mt19937 random(28);
        for (const std::vector<RunSteps> &runs : variants) {
            for (int mask = 0; mask < (1 << 10); ++mask) {
                if (__builtin_popcount(unsigned(mask)) != 5 || !(mask & 1))
                    continue;
                std::vector<RunSteps> a, b;
                for (int r = 0; r < 10; ++r)
                    ((mask >> r) & 1 ? a : b).push_back(runs[std::size_t(r)]);
                const StepBreakdown aa(a, b, kPjit);
                ++splits;
                bool called = false;
                for (const StepRow &row : aa.rows()) {
                    const bool call = row.verdict == Verdict::Faster || row.verdict == Verdict::Slower;
                    calls[int(row.part)] += call;
                    rawBelow[int(row.part)] += row.pRaw < 0.05;
                    called = called || call;
                }
                calledSplits += called;

                // The same split with B's kernels slower by 2 % of A's step (busy and step alike), each
                // run's shift drawn around that (seeded): the shift is found.
                const double shift = 0.02 * aa.row(StepPart::Step).meanA;
                std::normal_distribution<double> perRun(shift, 0.1 * shift);
                for (RunSteps &run : b) {
                    const double s = perRun(random);
                    run.mean[std::size_t(StepPart::Step)] += s;
                    run.mean[std::size_t(StepPart::Busy)] += s;
                }
                const StepBreakdown moved(a, b, kPjit);
                ++shifted;
                found += moved.row(StepPart::Step).verdict == Verdict::Slower &&
                         moved.row(StepPart::Busy).verdict == Verdict::Slower;
            }
        }
        qInfo("A/A over %d splits: calls per row (step, busy, idle, launch late, GPU waiting, unknown) %d %d "
              "%d %d %d "
              "%d; raw p < 0.05: step %d, busy %d, idle %d; splits with any call %d; seeded +2%% shift found "
              "in %d of %d",
              splits, calls[0], calls[1], calls[2], calls[3], calls[4], calls[5], rawBelow[0], rawBelow[1],
              rawBelow[2], calledSplits, found, shifted);
        QCOMPARE(splits, 252);
        for (int part = 0; part < kStepParts; ++part)
            QVERIFY2(calls[part] <= 0.05 * splits, qPrintable(stepPartKey(StepPart(part))));
        QVERIFY(found >= 0.95 * shifted);
    }

    // More than two variants: XLA's three flag sets of one JAX GPT (command buffers on, off, off with
    // Triton GEMM off; 3 runs each), the first the baseline. Every candidate's rows equal the oracle's,
    // whose Holm families span both candidates; the step's ratio and Fieller's interval too. The CLI
    // writes the same CSV with a variant column.
    void variantsAgainstOracle()
    {
        const QString jax = testdata::path("jax_h100");
        QStringList sides, args;
        const QStringList flags = {QStringLiteral("jax_command_buffers"), QStringLiteral("jax_named_scopes"),
                                   QStringLiteral("jax_named_scopes_cublas")};
        const QStringList labels = {QStringLiteral("buffers"), QStringLiteral("no_buffers"),
                                    QStringLiteral("no_triton")};
        for (qsizetype i = 0; i < flags.size(); ++i)
            sides << labels[i] + QLatin1Char('=') + jax + QLatin1Char('/') + flags[i] +
                         QStringLiteral("/trace_file_matmul_*");
        QList<LoadedRun> baseline = load(sides[0].section(QLatin1Char('='), 1));
        std::vector<QList<LoadedRun>> candidates = {load(sides[1].section(QLatin1Char('='), 1)),
                                                    load(sides[2].section(QLatin1Char('='), 1))};
        QCOMPARE(baseline.size(), 3);
        const VariantSteps variants(baseline, candidates, labels.mid(1));
        QCOMPARE(variants.comparisons().front().stepScope(), kPjit);
        const QJsonObject expected = oracle(sides, kPjit);
        const QJsonArray oracleVariants = expected[QStringLiteral("variants")].toArray();
        QCOMPARE(oracleVariants.size(), 2);
        int calls = 0, ratiosChecked = 0;
        std::set<double> levels;
        for (int i = 0; i < 2; ++i) {
            const QJsonObject o = oracleVariants[i].toObject();
            QCOMPARE(o[QStringLiteral("variant")].toString(), labels[i + 1]);
            const StepBreakdown &steps = variants.comparisons()[std::size_t(i)];
            compareRows(steps, o[QStringLiteral("rows")].toArray(), o[QStringLiteral("caveat")].toBool());
            const QJsonObject ratio = o[QStringLiteral("step_ratio")].toObject();
            const stats::RatioInterval fieller = variants.stepRatio(i);
            for (auto [value, key] : {std::pair{fieller.ratio, "ratio"}, std::pair{fieller.low, "low"},
                                      std::pair{fieller.high, "high"}})
                QVERIFY2(std::fabs(value - ratio[QLatin1String(key)].toDouble()) <= 1e-9 * std::fabs(value), key);
            // every row's ratio B / A and its interval, at the row's level
            const QJsonArray ratios = o[QStringLiteral("ratios")].toArray();
            const std::vector<VariantStepRow> rows = variants.rows(i);
            QCOMPARE(rows.size(), std::size_t(kStepParts));
            for (int r = 0; r < kStepParts; ++r) {
                const QJsonObject want = ratios[r].toObject();
                const stats::RatioInterval got = rows[std::size_t(r)].ratio;
                if (rows[std::size_t(r)].row.tied || want.isEmpty()) // a tie's interval is read off the timer
                    continue;
                for (auto [value, key] : {std::pair{got.ratio, "ratio"}, std::pair{got.low, "low"},
                                          std::pair{got.high, "high"}}) {
                    const double expectedValue = number(want[QLatin1String(key)]);
                    QVERIFY2(std::isnan(value) == std::isnan(expectedValue) &&
                                 (std::isnan(value) || std::fabs(value - expectedValue) <= 1e-9 * std::fabs(value)),
                             qPrintable(stepPartKey(StepPart(r)) + QLatin1Char(' ') + QLatin1String(key)));
                }
                ++ratiosChecked;
            }
            calls += steps.row(StepPart::Step).verdict == Verdict::Slower;
            QVERIFY(variants.leadLine(i).startsWith(labels[i + 1] + QStringLiteral(": step +")));
            // the period beside the step, at the step's Holm level among the candidates (it had been at
            // 1 − α: [−42.3 %, +2139.8 %] where the step's level leaves it unbounded below)
            levels.insert(steps.row(StepPart::Step).ciLevel);
            QCOMPARE(steps.period().ciLevel, steps.row(StepPart::Step).ciLevel);
            QVERIFY(variants.leadLine(i).contains(steps.periodText()));
        }
        QCOMPARE(levels, (std::set<double>{0.95, 0.975}));
        QCOMPARE(calls, 2); // without command buffers each launch is the CPU's: both are slower
        QVERIFY(ratiosChecked >= 8);
        // the family spans the candidates: the step's judged p is Holm's over both raw p
        const double p0 = variants.comparisons()[0].row(StepPart::Step).pRaw,
                     p1 = variants.comparisons()[1].row(StepPart::Step).pRaw;
        QCOMPARE(variants.comparisons()[0].row(StepPart::Step).p,
                 p0 < p1 ? 2 * p0 : std::max(p0, std::min(1.0, 2 * p1)));

        QTemporaryDir dir;
        QByteArray printed;
        const QString written = cliStepsCsv(sides, &printed);
        QCOMPARE(written, variants.toCsv());
        QVERIFY(written.startsWith(QStringLiteral("variant,") + StepBreakdown(baseline, baseline).toCsv().section(QLatin1Char('\n'), 0, 0)));
        QCOMPARE(written.count(QLatin1Char('\n')), 1 + 2 * kStepParts);
        // the ratio and its interval, as the text and the window show them, last
        QVERIFY(written.section(QLatin1Char('\n'), 0, 0)
                    .endsWith(QStringLiteral(",ratio,ratio_ci_low,ratio_ci_high")));
        const QStringList stepLine = written.section(QLatin1Char('\n'), 1, 1).split(QLatin1Char(','));
        QCOMPARE(stepLine.mid(stepLine.size() - 3).join(QLatin1Char(',')),
                 QStringLiteral("%1,%2,%3")
                     .arg(csvNumber(variants.stepRatio(0).ratio), csvNumber(variants.stepRatio(0).low),
                          csvNumber(variants.stepRatio(0).high)));
        QVERIFY(printed.contains("no_triton: step +"));
        // the gate names the candidate that trips it
        const ProcessResult gate = runProcess(QStringLiteral(SCOPELINE_CLI),
                                              QStringList{QStringLiteral("steps")} + sides +
                                                  QStringList{QStringLiteral("--fail-on"), QStringLiteral("slower"),
                                                              QStringLiteral("--strict"), QStringLiteral("--format"),
                                                              QStringLiteral("markdown")});
        QCOMPARE(gate.exitCode, 3);
        QVERIFY2(gate.out.contains("no\\_buffers: step time") && gate.out.contains("no\\_triton: step time"),
                 gate.out.constData());
        // the report carries them: its CSV and a section
        const ProcessResult report =
            runProcess(QStringLiteral(SCOPELINE_CLI), QStringList{QStringLiteral("report")} + sides +
                                                          QStringList{QStringLiteral("--out"), dir.filePath(QStringLiteral("report"))});
        QVERIFY2(report.exitCode == 0, report.err.constData());
        QFile reportCsv(dir.filePath(QStringLiteral("report/variants_steps.csv")));
        QVERIFY(reportCsv.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(reportCsv.readAll()), variants.toCsv());
        QFile page(dir.filePath(QStringLiteral("report/index.html")));
        QVERIFY(page.open(QIODevice::ReadOnly));
        QVERIFY(page.readAll().contains("no_triton: step +"));
    }

    // A sweep over the K scopes of the batched-matmul runs (K = 5 … 50, 3 runs): each point's mean step
    // equals the oracle's for that scope; the 9 neighbour tests are one Holm family; the jump is where
    // the step grows fastest for its K (25 → 30: ×2.0 for ×1.2). Over XLA's three flag sets numbered as
    // a sweep, the kernels that vanish and appear between neighbours are the oracle's "only in" rows.
    void sweeps()
    {
        const QString f32 = testdata::path("h100_runs/hipbench/batched-matmul/f32");
        const Sweep scopes = Sweep::ofScopes(load(f32), QStringLiteral("bmm_K(\\d+)"));
        QCOMPARE(scopes.points().size(), std::size_t(10));
        QCOMPARE(scopes.points().front().parameter, 5.0);
        QCOMPARE(scopes.points().back().label, QStringLiteral("bmm_K50"));
        for (const int k : {4, 5}) { // K 25 and K 30
            const QJsonObject expected = oracle({f32, f32}, scopes.points()[std::size_t(k)].label);
            const double mean = expected[QStringLiteral("rows")].toArray()[0].toObject()[QStringLiteral("mean_a_ns")].toDouble();
            QVERIFY(std::fabs(scopes.adjacent()[std::size_t(k)].row(StepPart::Step).meanA - mean) < 1e-3);
            QVERIFY(std::fabs(scopes.adjacent()[std::size_t(k - 1)].row(StepPart::Step).meanB - mean) < 1e-3);
        }
        std::vector<double> raw;
        for (const StepBreakdown &pair : scopes.adjacent())
            raw.push_back(pair.row(StepPart::Step).pRaw);
        std::vector<std::size_t> order(raw.size());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return raw[x] < raw[y]; });
        double running = 0;
        for (std::size_t rank = 0; rank < order.size(); ++rank) { // Holm, written out
            running = std::max(running, std::min(1.0, double(order.size() - rank) * raw[order[rank]]));
            QVERIFY(std::fabs(scopes.adjacent()[order[rank]].row(StepPart::Step).p - running) <= 1e-12 * running);
        }
        QCOMPARE(scopes.jump(), 4);
        QVERIFY(scopes.pairLine(4, QStringLiteral("K")).startsWith(QStringLiteral("K 25 → 30: step +")));
        // a pattern that gives two scopes one value (its group the first digit: K10 and K15) is no sweep
        QString sameValue;
        QVERIFY(Sweep::ofScopes(load(f32), QStringLiteral("bmm_K(\\d)\\d"), {}, &sameValue).points().empty());
        QVERIFY2(sameValue.contains(QLatin1String("bmm_K10 and bmm_K15")), qPrintable(sameValue));
        QCOMPARE(runProcess(QStringLiteral(SCOPELINE_CLI),
                            {QStringLiteral("steps"), f32, QStringLiteral("--sweep-scope"),
                             QStringLiteral("bmm_K(\\d)\\d")})
                     .exitCode,
                 1);
        QTemporaryDir dir;
        const ProcessResult cli = runProcess(
            QStringLiteral(SCOPELINE_CLI),
            {QStringLiteral("steps"), f32, QStringLiteral("--sweep-scope"), QStringLiteral("bmm_K(\\d+)"),
             QStringLiteral("--sweep"), QStringLiteral("K"), QStringLiteral("--csv"), dir.filePath(QStringLiteral("sweep.csv"))});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        QVERIFY2(QString::fromUtf8(cli.out).contains(QStringLiteral("jump: K 25 → 30: step +")), cli.out.constData());
        // the scopes of one process's runs, interleaved in each: no process caveat
        QVERIFY2(!cli.out.contains("one process a side"), cli.out.constData());
        // the recording itself would pool its f32 and f64 runs at each K: refused, naming its variants
        const QString recording = QFileInfo(f32).path();
        const ProcessResult pooled = runProcess(
            QStringLiteral(SCOPELINE_CLI), {QStringLiteral("steps"), recording,
                                            QStringLiteral("--sweep-scope"), QStringLiteral("bmm_K(\\d+)")});
        QCOMPARE(pooled.exitCode, 2);
        QVERIFY2(pooled.err.contains("is a pair scopeline-hipbench recorded") && pooled.err.contains("/f64"),
                 pooled.err.constData());
        QFile csv(dir.filePath(QStringLiteral("sweep.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 1 + 9 * kStepParts);
        QVERIFY(lines[1 + 4 * kStepParts].startsWith(QStringLiteral("25→30,step,")));
        // --format json holds the sweep too: each neighbour's line and rows, and the jump
        const ProcessResult json =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("steps"), f32, QStringLiteral("--sweep-scope"),
                        QStringLiteral("bmm_K(\\d+)"), QStringLiteral("--sweep"), QStringLiteral("K"),
                        QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QJsonObject swept =
            QJsonDocument::fromJson(json.out).object()[QStringLiteral("sweep")].toObject();
        QCOMPARE(swept[QStringLiteral("jump")].toString(), scopes.pairLine(4, QStringLiteral("K")));
        const QJsonArray neighbours = swept[QStringLiteral("neighbours")].toArray();
        QCOMPARE(neighbours.size(), 9);
        QCOMPARE(neighbours[4].toObject()[QStringLiteral("rows")].toArray().size(), kStepParts);
        QCOMPARE(swept[QStringLiteral("points")].toArray().size(), 10);

        const QString jax = testdata::path("jax_h100");
        const QStringList folders = {QStringLiteral("jax_command_buffers"), QStringLiteral("jax_named_scopes"),
                                     QStringLiteral("jax_named_scopes_cublas")};
        std::vector<QList<LoadedRun>> sides;
        QStringList labels;
        for (int i = 0; i < 3; ++i) {
            sides.push_back(load(jax + QLatin1Char('/') + folders[i] + QStringLiteral("/trace_file_matmul_*")));
            labels << QStringLiteral("flags=%1").arg(i + 1);
        }
        QCOMPARE(Sweep::parameters(labels), (std::vector<double>{1, 2, 3}));
        // a label may hold `=` itself: the first split whose path is there
        const SideArgument side = SideArgument::parse(labels[1] + QLatin1Char('=') + jax + QStringLiteral("/") +
                                                      folders[1] + QStringLiteral("/trace_file_matmul_*"));
        QCOMPARE(side.label, labels[1]);
        QCOMPARE(SideArgument::parse(jax + QStringLiteral("/jax_named_scopes/trace_file_matmul_*")).label,
                 QStringLiteral("jax_named_scopes"));
        // a relative pattern without a folder: label and pattern split, the pattern matching in the folder
        const QString before = QDir::currentPath();
        QDir::setCurrent(jax + QStringLiteral("/jax_named_scopes"));
        const SideArgument relative = SideArgument::parse(QStringLiteral("flags=trace_file_matmul_*"));
        const SideArgument nothing = SideArgument::parse(QStringLiteral("flags=no_such_*"));
        QDir::setCurrent(before);
        QCOMPARE(relative.label, QStringLiteral("flags"));
        QCOMPARE(relative.path, QStringLiteral("trace_file_matmul_*"));
        QCOMPARE(nothing.label, QStringLiteral("flags")); // the path then says it matches nothing
        // a sweep is one parameter at different numbers, written as numbers are
        QString why;
        QVERIFY(Sweep::parameters({QStringLiteral("K=5"), QStringLiteral("fast")}, &why).empty());
        QVERIFY2(why.contains(QLatin1String("'fast' is not a number")), qPrintable(why));
        QVERIFY(
            Sweep::parameters({QStringLiteral("K=1"), QStringLiteral("bs=2"), QStringLiteral("K=4")}, &why)
                .empty());
        QVERIFY2(why.contains(QLatin1String("name different parameters")), qPrintable(why));
        QVERIFY(Sweep::parameters({QStringLiteral("5"), QStringLiteral("5.0"), QStringLiteral("10")}, &why)
                    .empty());
        QCOMPARE(why, QStringLiteral("two variants at one value (5 and 5.0)"));
        // versions are names: 2.10 is not 2.1, and sorts after 2.4
        QVERIFY(Sweep::parameters(
                    {QStringLiteral("torch=2.4"), QStringLiteral("torch=2.10"), QStringLiteral("torch=2.11")},
                    &why)
                    .empty());
        QCOMPARE(why, QStringLiteral("'torch=2.10' beside 'torch=2.4' reads as a version, not a number"));
        // fractions written to one width, and whole numbers beside them, are numbers
        QCOMPARE(Sweep::parameters({QStringLiteral("0.05"), QStringLiteral("0.10"), QStringLiteral("0.20")}),
                 (std::vector<double>{0.05, 0.1, 0.2}));
        QCOMPARE(Sweep::parameters({QStringLiteral("s=1.0"), QStringLiteral("s=1.5"), QStringLiteral("s=2")}),
                 (std::vector<double>{1, 1.5, 2}));
        QCOMPARE(Sweep::parameters(
                     {QStringLiteral("lr=1e-4"), QStringLiteral("lr=1E-3"), QStringLiteral("lr=.01")}),
                 (std::vector<double>{1e-4, 1e-3, 0.01}));
        // each value written whole: neighbours a millionth apart stay apart
        QCOMPARE(Sweep::valueText(1048577), QStringLiteral("1048577"));
        QCOMPARE(Sweep::valueText(0.1), QStringLiteral("0.1"));
        QCOMPARE(Sweep::valueText(1e-4), QStringLiteral("1e-04"));
        // a sweep's tables: the baseline first, then the candidates by parameter; other variants as given
        QCOMPARE(Sweep::tableOrder(4, {128, 1024, 8, 16}), (std::vector<int>{0, 2, 3, 1}));
        QCOMPARE(Sweep::tableOrder(3, {}), (std::vector<int>{0, 1, 2}));
        const Sweep flags = Sweep::ofVariants(sides, labels, Sweep::parameters(labels));
        QCOMPARE(flags.adjacent().size(), std::size_t(2));
        const Sweep wide = Sweep::ofVariants(sides, labels, {1048576, 1048577, 1048578});
        QVERIFY2(
            wide.pairLine(0, QStringLiteral("n")).startsWith(QStringLiteral("n 1048576 → 1048577: step ")),
            qPrintable(wide.pairLine(0, QStringLiteral("n"))));
        QCOMPARE(flags.jump(), 0); // command buffers off: every launch the CPU's
        // One process a side: each line says what the call cannot measure, beside its interval (the
        // ratio's, at the row's level, holding 1 exactly where the row is not called).
        const StepRow &first = flags.adjacent().front().row(StepPart::Step);
        QVERIFY(!first.caveat.isEmpty());
        const QString line = flags.pairLine(0, QStringLiteral("flags"));
        QVERIFY2(line.contains(first.caveat) && line.contains(QStringLiteral(" [+")), qPrintable(line));
        const VariantSteps variants(sides[0], {sides[1], sides[2]}, labels.mid(1));
        for (int c = 0; c < 2; ++c) {
            const StepRow &step = variants.comparisons()[std::size_t(c)].row(StepPart::Step);
            QVERIFY2(!step.caveat.isEmpty() && variants.leadLine(c).contains(step.caveat),
                     qPrintable(variants.leadLine(c)));
            const stats::RatioInterval ratio = variants.stepRatio(c);
            QCOMPARE(ratio.low <= 1 && 1 <= ratio.high, step.verdict == Verdict::NoSignificantChange);
            // the line names the part that moved most, with its verdict, then the largest part judged a
            // change if another (no_triton's CPU launched late moved most, +288 µs, and is not one: only
            // the judged part had been named, read as where the time went)
            const StepBreakdown &pair = variants.comparisons()[std::size_t(c)];
            const StepRow *most = nullptr, *judged = nullptr;
            for (const StepRow &row : pair.rows()) {
                const bool split = row.part == StepPart::Compute || row.part == StepPart::ExposedComm;
                const bool leaf = row.part == StepPart::LaunchLate || row.part == StepPart::GpuWaiting ||
                                  row.part == StepPart::Unknown ||
                                  (pair.hasCommunication() ? split : row.part == StepPart::Busy);
                if (!leaf || std::isnan(row.delta) || row.delta == 0)
                    continue;
                if (!most || std::fabs(row.delta) > std::fabs(most->delta))
                    most = &row;
                if ((row.verdict == Verdict::Faster || row.verdict == Verdict::Slower) &&
                    (!judged || std::fabs(row.delta) > std::fabs(judged->delta)))
                    judged = &row;
            }
            QVERIFY(most);
            const QString named = variants.leadLine(c).section(QStringLiteral(", of which "), 1);
            // with the interval its verdict was decided from, beside it
            QVERIFY(!std::isnan(most->ciLow) && !std::isnan(most->ciHigh));
            QVERIFY2(named.startsWith(
                         stepPartTitle(most->part) + QStringLiteral(" ") + formatSignedDuration(most->delta) +
                         QStringLiteral(" [%1, %2]")
                             .arg(formatSignedDuration(most->ciLow), formatSignedDuration(most->ciHigh)) +
                         QStringLiteral(" (%1)").arg(verdictText(most->verdict))),
                     qPrintable(variants.leadLine(c)));
            if (judged && judged != most)
                QVERIFY2(
                    named.contains(QStringLiteral(", ") + stepPartTitle(judged->part) + QLatin1Char(' ')),
                    qPrintable(variants.leadLine(c)));
            int rowsNamed = 0;
            for (const StepRow &row : pair.rows())
                rowsNamed += named.contains(stepPartTitle(row.part) + QLatin1Char(' '));
            QVERIFY2(rowsNamed == 1 + (judged && judged != most), qPrintable(variants.leadLine(c)));
            // and how often steps start (no_buffers: step +339.5 %, a step every 658 µs → 770 µs)
            QVERIFY2(!pair.periodText().isEmpty() &&
                         variants.leadLine(c).endsWith(QStringLiteral("; ") + pair.periodText()),
                     qPrintable(variants.leadLine(c)));
        }
        QStringList files[2];
        for (int i = 1; i < 3; ++i)
            for (const LoadedRun &run : sides[std::size_t(i)])
                files[i - 1] << run.run.file;
        const ProcessResult diff = runProcess(
            QStringLiteral(SCOPELINE_PYTHON), QStringList{QStringLiteral(SCOPELINE_ORACLE_DIR "/kernel_diff.py"),
                                                          QStringLiteral("--a")}
                                                  << files[0] << QStringLiteral("--b") << files[1]);
        QVERIFY2(diff.exitCode == 0, diff.err.constData());
        QStringList onlyA, onlyB;
        for (const QJsonValue &row : QJsonDocument::fromJson(diff.out).object()[QStringLiteral("rows")].toArray()) {
            const QString verdict = row.toObject()[QStringLiteral("verdict")].toString();
            if (verdict == QLatin1String("only in A"))
                onlyA << row.toObject()[QStringLiteral("kernel")].toString();
            else if (verdict == QLatin1String("only in B"))
                onlyB << row.toObject()[QStringLiteral("kernel")].toString();
        }
        QVERIFY(!onlyA.isEmpty() && !onlyB.isEmpty());
        QCOMPARE(flags.vanished(1), onlyA);
        QCOMPARE(flags.appeared(1), onlyB);
        QVERIFY(flags.pairLine(1, QStringLiteral("flags")).contains(onlyA.front() + QStringLiteral(" replaced by ") +
                                                                     onlyB.front()));
    }

    // Variants whose labels are numbers: the CSV (of `steps` and of the report) holds the neighbours
    // compared after the candidates, each row as --format json has it. It had held the candidates only.
    void sweepCsvHoldsTheNeighbours()
    {
        const QString jax = testdata::path("jax_h100");
        QStringList sides;
        int k = 0;
        for (const char *folder : {"jax_command_buffers", "jax_named_scopes", "jax_named_scopes_cublas"})
            sides << QStringLiteral("%1=%2/%3/trace_file_matmul_*").arg(++k).arg(jax, QLatin1String(folder));
        QTemporaryDir dir;
        const QString csv = cliStepsCsv(sides);
        const QStringList lines = csv.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 1 + 4 * kStepParts); // two candidates, then two neighbour pairs
        const QStringList header = lines[0].split(QLatin1Char(','));
        const ProcessResult json =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       QStringList{QStringLiteral("steps")} + sides +
                           QStringList{QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QJsonArray neighbours = QJsonDocument::fromJson(json.out)
                                          .object()[QStringLiteral("sweep")]
                                          .toObject()[QStringLiteral("neighbours")]
                                          .toArray();
        QCOMPARE(neighbours.size(), 2);
        int compared = 0;
        for (int pair = 0; pair < 2; ++pair) {
            const QJsonArray rows = neighbours[pair].toObject()[QStringLiteral("rows")].toArray();
            QCOMPARE(rows.size(), kStepParts);
            for (int r = 0; r < kStepParts; ++r) {
                const QStringList cells = lines[1 + (2 + pair) * kStepParts + r].split(QLatin1Char(','));
                QCOMPARE(cells[0], pair == 0 ? QStringLiteral("1→2") : QStringLiteral("2→3"));
                const QJsonObject want = rows[r].toObject();
                for (const char *key :
                     {"component", "verdict", "p", "ci_low_ns", "ci_high_ns", "mean_b_ns"}) {
                    const QString cell = cells.value(header.indexOf(QLatin1String(key)));
                    const QJsonValue value = want[QLatin1String(key)];
                    if (value.isDouble())
                        QVERIFY2(std::fabs(cell.toDouble() - value.toDouble()) <=
                                     1e-12 * std::fabs(value.toDouble()),
                                 qPrintable(lines[1 + (2 + pair) * kStepParts + r]));
                    else
                        QCOMPARE(cell, value.toString());
                    ++compared;
                }
            }
        }
        QCOMPARE(compared, 2 * kStepParts * 6);
        const ProcessResult report =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       QStringList{QStringLiteral("report")} + sides +
                           QStringList{QStringLiteral("--out"), dir.filePath(QStringLiteral("report"))});
        QVERIFY2(report.exitCode == 0, report.err.constData());
        QFile reportCsv(dir.filePath(QStringLiteral("report/variants_steps.csv")));
        QVERIFY(reportCsv.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(reportCsv.readAll()), csv);
    }

    // One candidate is a pair: the same rows as the pair's, p, intervals and verdicts.
    // A sweep of one run a point tests no neighbour: it says so rather than "no neighbours differ".
    void untestedSweepSaysSo()
    {
        const std::vector<QList<LoadedRun>> sides{load(kTorch + QStringLiteral("/eager/run_0")),
                                                  load(kTorch + QStringLiteral("/reduce_overhead/run_0")),
                                                  load(kTorch + QStringLiteral("/eager/run_1"))};
        const QStringList labels{QStringLiteral("K=1"), QStringLiteral("K=2"), QStringLiteral("K=3")};
        const Sweep sweep = Sweep::ofVariants(sides, labels, Sweep::parameters(labels));
        QCOMPARE(sweep.adjacent().size(), std::size_t(2));
        QCOMPARE(sweep.jump(), -1);
        QVERIFY2(sweep.noJumpText().startsWith(QLatin1String("no neighbours could be tested (one run")),
                 qPrintable(sweep.noJumpText()));
    }

    void variantsOfTwoAreThePair()
    {
        const QList<LoadedRun> a = load(kTorch + QStringLiteral("/eager")),
                               b = load(kTorch + QStringLiteral("/reduce_overhead"));
        const StepBreakdown pair(a, b);
        const VariantSteps variants(a, {b}, {QStringLiteral("reduce_overhead")});
        QCOMPARE(variants.comparisons().front().toCsv(), pair.toCsv());
        QVERIFY(variants.leadLine(0).contains(QLatin1String("(B faster)")));
        // the ratio's interval agrees with the verdict's: the step is faster, all of it below 1
        QVERIFY(variants.stepRatio(0).high < 1);
    }

    // Each verdict's ratio interval excludes 1 as the verdict says. Eager's GPU waiting is about 0 (A's
    // mean not known to differ from 0), reduce-overhead's 150 µs: the ratios at least ×83 were shown
    // as "[unbounded]" beside "B slower".
    void variantRatiosAgreeWithTheirVerdicts()
    {
        const QList<LoadedRun> eager = load(kTorch + QStringLiteral("/eager")),
                               reduce = load(kTorch + QStringLiteral("/reduce_overhead")),
                               proc = load(testdata::path("h100_runs/torch_processes/proc_0"));
        const VariantSteps variants(eager, {reduce, proc},
                                    {QStringLiteral("reduce"), QStringLiteral("proc")});
        int rays = 0, judged = 0;
        for (int c = 0; c < 2; ++c)
            for (const VariantStepRow &r : variants.rows(c)) {
                if (r.row.verdict != Verdict::Faster && r.row.verdict != Verdict::Slower)
                    continue;
                ++judged;
                QVERIFY2(r.ratio.bounded(), qPrintable(stepPartTitle(r.row.part)));
                QVERIFY(r.row.verdict == Verdict::Slower ? r.ratio.low > 1 : r.ratio.high < 1);
                rays += std::isinf(r.ratio.high);
            }
        QVERIFY(judged > 2);
        QCOMPARE(rays, 1); // reduce's GPU waiting
        const QString table = tableText(VariantSteps::columns(), variants.rows(0));
        QVERIFY2(table.contains(QStringLiteral("[≥ ")), qPrintable(table));
    }

    // A baseline without steps (rocprof's matmul) against a PyTorch and a JAX candidate: one step scope
    // for every pair and the sweep, decided from all variants. Each pair picked its own (ProfilerStep,
    // PjitFunction) and the sweep the baseline's (the whole run), so its figures were not the table's.
    // A step scope that is not on every side leaves none to compare: the whole run (it had been the
    // first side's ProfilerStep, and every pair "no step of ProfilerStep with kernels in A or B").
    void variantsShareOneStepScope()
    {
        const QString rocm = testdata::path(
            "public/rocmProfileData/examples__rocm-profile-data__results__matmul_result.json.gz");
        const QString jax = testdata::path("jax_h100/jax_named_scopes/trace_file_matmul_0");
        REQUIRE_TEST_DATA(rocm, jax);
        const QList<LoadedRun> baseline = load(rocm), torch = load(kTorch + QStringLiteral("/eager")),
                               pjit = load(jax);
        const VariantSteps variants(baseline, {torch, pjit}, {QStringLiteral("2"), QStringLiteral("3")});
        for (const StepBreakdown &pair : variants.comparisons()) {
            QCOMPARE(pair.stepScope(), QString());
            QCOMPARE(pair.row(StepPart::Step).stepsA, int64_t(1)); // the whole run, one step a run
            QCOMPARE(pair.row(StepPart::Step).stepsB, int64_t(pair.runsB().size()));
        }
        // asked for, ProfilerStep stays: JAX has none
        StepBreakdownOptions profilerStep;
        profilerStep.stepScope = QStringLiteral("ProfilerStep");
        const VariantSteps asked(baseline, {torch, pjit}, {QStringLiteral("2"), QStringLiteral("3")},
                                 profilerStep);
        QCOMPARE(asked.comparisons()[1].row(StepPart::Step).verdictText(),
                 QStringLiteral("no step of ProfilerStep with kernels in A or B"));
        // a pair: the step both sides have, else the whole run
        QCOMPARE(StepBreakdown(torch, load(kTorch + QStringLiteral("/reduce_overhead"))).stepScope(),
                 QStringLiteral("ProfilerStep"));
        const StepBreakdown withoutSteps(torch, baseline);
        QCOMPARE(withoutSteps.stepScope(), QString());
        QVERIFY(withoutSteps.row(StepPart::Step).unitsA > 0 && withoutSteps.row(StepPart::Step).unitsB > 0);
        const Sweep sweep = Sweep::ofVariants({baseline, torch, pjit},
                                              {QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")},
                                              {1, 2, 3}, StepBreakdownOptions());
        QCOMPARE(sweep.stepNs(1), variants.comparisons()[0].row(StepPart::Step).meanB);
    }

    // A side against its very files (a trace opened alone) tests nothing: every row says so, without an
    // interval, and so does the period; the gate leaves it to "A against B" (not judged once).
    void sameRunsAreNotTested()
    {
        const QList<LoadedRun> runs = load(testdata::path("h100_runs/torch_compile/eager"));
        const StepBreakdown steps(runs, runs);
        QVERIFY(steps.sameRuns());
        for (const StepRow &row : steps.rows()) {
            QVERIFY(std::isnan(row.pRaw) && std::isnan(row.ciLow) && std::isnan(row.ciLevel));
            QVERIFY2(row.verdictText().startsWith(QLatin1String("the same runs on both sides")) ||
                         row.verdictText().startsWith(QLatin1String("no communication kernels")),
                     qPrintable(row.verdictText()));
        }
        QVERIFY(
            steps.stepLine().contains(QLatin1String(": the same runs on both sides: nothing is compared")));
        QVERIFY(!steps.periodText().contains(QLatin1Char('[')));
        Gate gate(GateMode::Change);
        gate.addSameRuns(runs, runs);
        gate.addStep(steps);
        QCOMPARE(gate.unjudged().size(), std::size_t(1));
        QVERIFY(
            !StepBreakdown(runs, load(testdata::path("h100_runs/torch_compile/reduce_overhead"))).sameRuns());
    }

    // The answer over the candidates in one line: an A/A split of one program's repeated runs (three
    // groups of three) says none differs, each candidate's verdict read off its step row; the XLA flag
    // sets name the slower ones. The caveat every candidate shares is said once there.
    void summaryLineOverTheCandidates()
    {
        std::vector<QList<LoadedRun>> groups(3);
        for (int i = 0; i < 9; ++i)
            groups[std::size_t(i / 3)] += load(kRepeated + QStringLiteral("/trace_file_einsum_%1").arg(i));
        const VariantSteps aa(groups[0], {groups[1], groups[2]},
                              {QStringLiteral("g1"), QStringLiteral("g2")});
        for (const StepBreakdown &c : aa.comparisons())
            QVERIFY(!std::isnan(c.row(StepPart::Step).pRaw) && !isFinding(c.row(StepPart::Step).verdict));
        QString expected = QStringLiteral(
            "Step time of 2 candidate(s), Holm over the 2 tested: none differs from the baseline");
        if (const QString caveat = aa.comparisons()[0].row(StepPart::Step).caveat; !caveat.isEmpty())
            expected += QStringLiteral(" (%1)").arg(caveat);
        QCOMPARE(aa.summaryLine(), expected);
        for (int c = 0; c < 2; ++c)
            QVERIFY2(!aa.briefLine(c).contains(QLatin1String("process")), qPrintable(aa.briefLine(c)));

        const QString jax = testdata::path("jax_h100");
        const VariantSteps flags(load(jax + QStringLiteral("/jax_command_buffers/trace_file_matmul_*")),
                                 {load(jax + QStringLiteral("/jax_named_scopes/trace_file_matmul_*")),
                                  load(jax + QStringLiteral("/jax_named_scopes_cublas/trace_file_matmul_*"))},
                                 {QStringLiteral("no_buffers"), QStringLiteral("no_triton")});
        QVERIFY2(
            flags.summaryLine().startsWith(QStringLiteral(
                "Step time of 2 candidate(s), Holm over the 2 tested: 2 B slower (no_buffers, no_triton)")),
            qPrintable(flags.summaryLine()));
    }

    // Each variant one JAX run three times: every row a tie, its units' spread the timer step's (1 ns).
    // A tie can be judged (the exact permutation test it had, 2/C(6,3) = 0.1 before Holm, never could),
    // and its Δ and ratio intervals agree with its verdict as any row's.
    void tiedVariantsAreJudged()
    {
        const QString named = testdata::path("jax_h100/jax_named_scopes/trace_file_einsum_");
        const LoadedRun e0 = load(named + QLatin1Char('0')).front(),
                        e1 = load(named + QLatin1Char('1')).front(),
                        e2 = load(named + QLatin1Char('2')).front();
        const VariantSteps variants({e0, e0, e0}, {{e1, e1, e1}, {e2, e2, e2}},
                                    {QStringLiteral("B"), QStringLiteral("C")});
        int judged = 0, significant = 0;
        for (const VariantStepRow &r : variants.rows()) {
            QVERIFY(r.row.part != StepPart::Step || r.row.tied);
            if (!r.row.tied || std::isnan(r.row.ciLevel) || !(r.row.meanA > 1)) // no ratio of nothing
                continue;
            ++judged;
            const bool found = r.row.p < StepBreakdownOptions().alpha;
            significant += found;
            QCOMPARE(r.row.ciLow > 0 || r.row.ciHigh < 0, found);
            QVERIFY(r.ratio.bounded());
            QCOMPARE(r.ratio.low > 1 || r.ratio.high < 1, found);
        }
        QVERIFY2(judged >= 4, "too few tied rows: nothing tested");
        QVERIFY2(significant >= 1, "no tie judged a change");
    }

    // A/A with four variants: the 10 runs of one variant in groups of 3, 3, 2 and 2 (the first the
    // baseline), 300 seeded shuffles a variant: any candidate's step called in at most alpha of them; the
    // 4 processes of one JAX program as 4 variants call nothing. Fieller agrees with a bootstrap.
    void variantsAA()
    {
        const QList<LoadedRun> all = load(kRepeated);
        std::vector<RunSteps> variants[2];
        for (const RunSteps &run : summaries(all, kPjit))
            variants[run.run.contains(QLatin1String("einsum"))].push_back(run);
        std::mt19937 random(41);
        int splits = 0, stepCalls = 0, partCalls = 0;
        for (std::vector<RunSteps> runs : variants)
            for (int shuffle = 0; shuffle < 300; ++shuffle) {
                std::shuffle(runs.begin(), runs.end(), random);
                const std::vector<RunSteps> base(runs.begin(), runs.begin() + 3);
                std::vector<StepBreakdown> candidates;
                for (const auto &[from, to] : {std::pair{3, 6}, std::pair{6, 8}, std::pair{8, 10}})
                    candidates.emplace_back(base, std::vector<RunSteps>(runs.begin() + from, runs.begin() + to),
                                            kPjit);
                StepBreakdown::judgeTogether(candidates);
                bool step = false, part = false;
                for (const StepBreakdown &c : candidates)
                    for (const StepRow &row : c.rows()) {
                        const bool call = row.verdict == Verdict::Faster || row.verdict == Verdict::Slower;
                        (row.part == StepPart::Step ? step : part) |= call;
                    }
                ++splits;
                stepCalls += step;
                partCalls += part;
            }
        qInfo("A/A with 4 variants over %d splits: a step called in %d, a part in %d", splits, stepCalls, partCalls);
        QVERIFY(stepCalls <= 0.05 * splits);
        QVERIFY(partCalls <= 0.05 * splits);

        const QString processes = testdata::path("h100_runs/jax_processes/matmul");
        std::vector<QList<LoadedRun>> candidates;
        for (int p = 1; p < 4; ++p)
            candidates.push_back(load(processes + QStringLiteral("/proc_%1").arg(p)));
        const VariantSteps four(load(processes + QStringLiteral("/proc_0")), candidates,
                                {QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")});
        for (const StepBreakdown &c : four.comparisons())
            for (const StepRow &row : c.rows())
                QVERIFY2(row.verdict != Verdict::Faster && row.verdict != Verdict::Slower,
                         qPrintable(stepPartKey(row.part)));

        // Fieller against the percentile bootstrap (the oracle's) on the 10 v 10 pair
        const QJsonObject pair = oracle({kRepeated + QStringLiteral("/trace_file_matmul_*"),
                                         kRepeated + QStringLiteral("/trace_file_einsum_*")},
                                        kPjit);
        const QJsonObject ratio = pair[QStringLiteral("step_ratio")].toObject();
        const QJsonArray bootstrap = ratio[QStringLiteral("bootstrap")].toArray();
        const double width = ratio[QStringLiteral("high")].toDouble() - ratio[QStringLiteral("low")].toDouble();
        QVERIFY(width > 0);
        QVERIFY(std::fabs(bootstrap[0].toDouble() - ratio[QStringLiteral("low")].toDouble()) < 0.2 * width);
        QVERIFY(std::fabs(bootstrap[1].toDouble() - ratio[QStringLiteral("high")].toDouble()) < 0.2 * width);
    }
};

QTEST_GUILESS_MAIN(TstStepBreakdown)
#include "tst_stepbreakdown.moc"
