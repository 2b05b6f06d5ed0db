// SPDX-License-Identifier: GPL-3.0-or-later
// Calibration of the verdicts at the process level (issue 29, item 6; DESIGN.md, Statistics). On the
// real multi-process H100 recordings (JAX matmul and einsum, PyTorch eager: 4 processes × 4 runs):
// every 2 v 2 split of the processes calls faster/slower in at most alpha of the tested rows (kernel
// diff by kernel and by op, both verdicts, and the step breakdown), and 1 v 1 process pairs, where the
// run is the unit, carry the caveat on every call. A seeded simulation with process, run and call
// levels and a 32 ns timer: at the process level false calls ≤ alpha and 95 % intervals cover the
// truth about 95 % of the time; runs of one process as the units call far more often (why the caveat);
// power for a +3 % and a +5 % shift rises with the processes recorded; a timer-only tie gives no p of
// 0 and no zero-width interval. README.md ("Processes: why they matter and how many to record")
// quotes the figures printed here.

#include "gunzip.h"
#include "testdata.h"

#include "model/analysis/runsummaryfile.h"
#include "model/comparison/gate.h"
#include "model/comparison/kerneldiff.h"
#include "model/comparison/replication.h"
#include "model/comparison/scopecomparison.h"
#include "model/comparison/stepbreakdown.h"
#include "model/loading/tracefolder.h"
#include "stats/descriptive.h"
#include "stats/runlevel.h"
#include "stats/welch.h"

#include <QtTest>

#include <cmath>
#include <iterator>
#include <random>
#include <vector>

using namespace scopeline;

namespace {

constexpr double kAlpha = 0.05;

struct Dataset
{
    const char *name;
    QString path;
};

const Dataset kDatasets[] = {
    {"jax matmul", testdata::path("h100_runs/jax_processes/matmul")},
    {"jax einsum", testdata::path("h100_runs/jax_processes/einsum")},
    {"torch eager", testdata::path("h100_runs/torch_processes")},
};

// The runs of a folder grouped by process ("proc_0/run_0" -> 0), each loaded.
bool loadProcesses(const QString &path, std::vector<QList<LoadedRun>> &processes)
{
    QString error;
    const QList<LoadedRun> runs = LoadedRun::loadAll(TraceFolder::scan(path, &error));
    processes.assign(4, {});
    for (const LoadedRun &run : runs) {
        if (!run.ok()) {
            qWarning("%s", qPrintable(run.error));
            return false;
        }
        const QString folder = run.run.name.section(QLatin1Char('/'), 0, 0);
        bool number = false;
        const int p = folder.mid(5).toInt(&number);
        if (!folder.startsWith(QLatin1String("proc_")) || !number || p < 0 || p >= 4)
            return false;
        processes[std::size_t(p)].append(run);
    }
    for (const QList<LoadedRun> &runs : processes)
        if (runs.size() != 4)
            return false;
    return true;
}

bool isCall(Verdict v)
{
    return v == Verdict::Faster || v == Verdict::Slower;
}

// A tested figure must have p > 0 and, where it has an interval, a non-zero width (timer ties).
bool soundTest(const stats::RunLevelTest &t)
{
    return t.p > 0 && (std::isnan(t.ciLow) || t.ciHigh > t.ciLow);
}

// Tested rows and faster/slower calls of one verdict.
struct Tally
{
    int64_t tested = 0, calls = 0, uncaveated = 0, unsound = 0;
    void add(bool tested_, bool called, const QString &caveat, bool sound)
    {
        if (!tested_)
            return;
        ++tested;
        calls += called;
        uncaveated += called && caveat.isEmpty();
        unsound += !sound;
    }
    Tally &operator+=(const Tally &o)
    {
        tested += o.tested;
        calls += o.calls;
        uncaveated += o.uncaveated;
        unsound += o.unsound;
        return *this;
    }
    double rate() const { return tested > 0 ? double(calls) / double(tested) : 0; }
};

// The verdicts the calibration counts: kernel diff by kernel and by op, each time per run and per
// call, and the step breakdown.
enum Kind { KernelTime, KernelPerCall, OpTime, OpPerCall, Steps, Kinds };
const char *const kKindNames[Kinds] = {"kernel time/run", "kernel per call", "op time/run", "op per call",
                                       "steps"};

struct Comparison
{
    Tally tally[Kinds];
    bool unitAsExpected = true;     // the process with ≥ 2 a side, else the run with the caveat
    bool caveatOnTestedRows = true; // every tested row carries a caveat (1 v 1) or none does (2 v 2)
    bool kernelCall = false;        // `diff`'s default table (by kernel) calls a row, either verdict
};

// Compares A's processes against B's in every way counted; `expectCaveat`: one process a side.
Comparison compare(const char *dataset, const std::vector<QList<LoadedRun>> &processes,
                   const std::vector<int> &sideA, const std::vector<int> &sideB, bool expectCaveat)
{
    QList<LoadedRun> a, b;
    QStringList names[2];
    for (int p : sideA) {
        a += processes[std::size_t(p)];
        names[0].append(QString::number(p));
    }
    for (int p : sideB) {
        b += processes[std::size_t(p)];
        names[1].append(QString::number(p));
    }
    Comparison c;
    for (const bool byOp : {false, true}) {
        KernelDiffOptions options;
        options.byOp = byOp;
        const KernelDiff diff(a, b, options);
        c.unitAsExpected = c.unitAsExpected && diff.summary().byProcess == !expectCaveat &&
                           diff.summary().caveat.isEmpty() == !expectCaveat;
        for (const KernelDiffRow &row : diff.rows()) {
            if (row.runLevel.valid() && row.caveat.isEmpty() == expectCaveat)
                c.caveatOnTestedRows = false;
            c.tally[byOp ? OpTime : KernelTime].add(row.runLevel.valid(), isCall(row.verdict), row.caveat,
                                                    soundTest(row.runLevel));
            c.tally[byOp ? OpPerCall : KernelPerCall].add(row.perCall.valid(), isCall(row.perCallVerdict),
                                                          row.caveat, soundTest(row.perCall));
            if ((row.runLevel.valid() && isCall(row.verdict)) ||
                (row.perCall.valid() && isCall(row.perCallVerdict)))
                qInfo("  %s, processes %s v %s, by %s: %s: time/run %+.2f %% (Holm p %.3g, %s), per call "
                      "%+.2f %% (Holm p %.3g, %s)%s",
                      dataset, qPrintable(names[0].join(QLatin1Char('+'))),
                      qPrintable(names[1].join(QLatin1Char('+'))), byOp ? "op" : "kernel",
                      qPrintable(row.kernel.left(60)), 100 * row.runLevel.change, row.runLevelHolm,
                      qPrintable(verdictText(row.verdict)), 100 * row.perCall.change, row.perCallHolm,
                      qPrintable(verdictText(row.perCallVerdict)), row.caveat.isEmpty() ? "" : " [caveat]");
            c.kernelCall = c.kernelCall || (!byOp && ((row.runLevel.valid() && isCall(row.verdict)) ||
                                                      (row.perCall.valid() && isCall(row.perCallVerdict))));
        }
    }
    const StepBreakdown steps(a, b);
    c.unitAsExpected = c.unitAsExpected && steps.byProcess() == !expectCaveat;
    for (const StepRow &row : steps.rows()) {
        const bool tested = row.reason.isEmpty() && row.pRaw == row.pRaw;
        if (tested && row.caveat.isEmpty() == expectCaveat)
            c.caveatOnTestedRows = false;
        const bool sound = row.pRaw > 0 && row.ciHigh > row.ciLow;
        c.tally[Steps].add(tested, isCall(row.verdict), row.caveat, sound);
        if (tested && isCall(row.verdict))
            qInfo("  %s, processes %s v %s, steps: %s %s (Holm p %.3g)%s", dataset,
                  qPrintable(names[0].join(QLatin1Char('+'))), qPrintable(names[1].join(QLatin1Char('+'))),
                  qPrintable(stepPartKey(row.part)), qPrintable(verdictText(row.verdict)), row.p,
                  row.caveat.isEmpty() ? "" : " [caveat]");
    }
    return c;
}

// The coefficient of variation of values (sample standard deviation / mean).
double cv(const std::vector<double> &values)
{
    const stats::MeanVariance m = stats::meanVariance(values);
    return std::sqrt(m.variance) / m.mean;
}

// How much a kernel's figure varies between processes and between runs of one process, on one
// recording's 4 × 4 runs: the median over the kernels present in every run of the CV of the 4 process
// means, and of the root mean square of the CV of each process's 4 runs (were processes alike, the
// first would be about half the second).
struct Spread
{
    double processMedian = 0, runMedian = 0, processTotal = 0, runTotal = 0;
    int kernels = 0;
    double largest = 0; // the largest CV between processes of a kernel's median per call
    QString largestKernel;
};

Spread spreadOf(const std::vector<QList<LoadedRun>> &processes)
{
    QList<LoadedRun> all;
    for (const QList<LoadedRun> &runs : processes)
        all += runs;
    const Replication replication = Replication::of(all, all);
    const KernelDiff diff(all, all);
    std::vector<double> cvs[4];
    Spread s;
    for (const KernelDiffRow &row : diff.rows()) {
        if (row.a.runsWithKernel != int(all.size()))
            continue;
        double runVariance[2] = {};
        for (const std::vector<int> &unit : replication.units(0)) {
            std::vector<double> medians, totals;
            for (int r : unit) {
                medians.push_back(row.a.runMedianNs[std::size_t(r)]);
                totals.push_back(double(row.a.runTotalNs[std::size_t(r)]));
            }
            runVariance[0] += std::pow(cv(medians), 2) / double(replication.units(0).size());
            runVariance[1] += std::pow(cv(totals), 2) / double(replication.units(0).size());
        }
        cvs[0].push_back(cv(row.a.unitMedianNs));
        if (cvs[0].back() > s.largest) {
            s.largest = cvs[0].back();
            s.largestKernel = row.kernel;
        }
        cvs[1].push_back(std::sqrt(runVariance[0]));
        cvs[2].push_back(cv(row.a.unitTotalNs));
        cvs[3].push_back(std::sqrt(runVariance[1]));
    }
    s.kernels = int(cvs[0].size());
    if (s.kernels == 0)
        return s;
    s.processMedian = stats::median(cvs[0]);
    s.runMedian = stats::median(cvs[1]);
    s.processTotal = stats::median(cvs[2]);
    s.runTotal = stats::median(cvs[3]);
    return s;
}

// ---- simulation ----

// Three levels of variation, lognormal: a process's effect on every duration, a run's, a call's;
// durations rounded to the timer's tick.
struct Levels
{
    double baseNs = 8000, sigmaProcess = 0.02, sigmaRun = 0.005, sigmaCall = 0.03, tickNs = 32;
    int runs = 4, calls = 30;
};

// One side: per run, its median and total duration, and its process's name.
struct SimSide
{
    std::vector<double> medians, totals;
    std::vector<RunOrigin> processes;
};

SimSide simulate(std::mt19937 &random, const Levels &levels, int processes, double factor, char side)
{
    std::normal_distribution<double> normal;
    SimSide out;
    std::vector<double> calls(std::size_t(levels.calls));
    for (int p = 0; p < processes; ++p) {
        const double process = std::exp(levels.sigmaProcess * normal(random));
        for (int r = 0; r < levels.runs; ++r) {
            const double run = std::exp(levels.sigmaRun * normal(random));
            double total = 0;
            for (double &d : calls) {
                const double exact =
                    levels.baseNs * factor * process * run * std::exp(levels.sigmaCall * normal(random));
                d = levels.tickNs * std::round(exact / levels.tickNs);
                total += d;
            }
            out.medians.push_back(stats::median(calls));
            out.totals.push_back(total);
            out.processes.push_back(
                RunOrigin{QStringLiteral("%1%2").arg(QLatin1Char(side)).arg(p), {}, -1, -1, {}});
        }
    }
    return out;
}

// The per-call and time-per-run tests of two simulated sides, the units as Replication makes them.
struct SimTests
{
    stats::RunLevelTest perCall, timePerRun;
    bool byProcess = false;
    QString caveat;
};

SimTests simTests(const SimSide &a, const SimSide &b, double resolution)
{
    const Replication replication(a.processes, b.processes);
    SimTests t;
    t.byProcess = replication.byProcess();
    t.caveat = replication.caveat();
    t.perCall = stats::runLevelTest(replication.unitValues(0, a.medians),
                                    replication.unitValues(1, b.medians), 0.95, resolution);
    t.timePerRun = stats::meanChangeTest(replication.unitValues(0, a.totals),
                                         replication.unitValues(1, b.totals), 0.95, resolution);
    return t;
}

bool covers(const stats::RunLevelTest &t, double truth)
{
    return t.ciLow <= truth && truth <= t.ciHigh;
}

} // namespace

class TstProcessLevel : public QObject
{
    Q_OBJECT

private slots:
    // The scope comparison's pooled row tests processes, not runs, once it knows the runs' processes:
    // 4 units a side where the runs alone would give 16, and no caveat; without processes it is 16 runs.
    void scopeComparisonTestsProcesses()
    {
        const QString matmul = kDatasets[0].path, einsum = kDatasets[1].path;
        REQUIRE_TEST_DATA(matmul, einsum);
        const QList<LoadedRun> a = LoadedRun::loadAll(TraceFolder::scan(matmul));
        const QList<LoadedRun> b = LoadedRun::loadAll(TraceFolder::scan(einsum));
        QCOMPARE(a.size(), 16);
        const Replication replication = Replication::of(a, b);
        QVERIFY(replication.byProcess());
        ScopeComparison comparison(scopeIndexes(a), scopeIndexes(b));
        const QStringList step{QStringLiteral("PjitFunction(<lambda>)")};
        const ComparisonRow runs = comparison.compare(step, MatchMode::Component, SampleMode::Span).back();
        comparison.setReplication(&replication);
        const ComparisonRow processes =
            comparison.compare(step, MatchMode::Component, SampleMode::Span).back();
        QVERIFY(runs.isPooled() && processes.isPooled());
        QCOMPARE(runs.runLevel.runsA, std::size_t(16));
        QCOMPARE(processes.runLevel.runsA, std::size_t(4));
        QCOMPARE(processes.runLevel.runsB, std::size_t(4));
        QCOMPARE(processes.runsA, std::size_t(16)); // runs with samples, as the table shows them
        QVERIFY(processes.runLevel.valid() && processes.caveat.isEmpty());
        // the process means are the means of their runs' medians: the change is theirs
        std::vector<double> unitsA = replication.unitValues(0, processes.runMediansA),
                            unitsB = replication.unitValues(1, processes.runMediansB);
        QCOMPARE(processes.runLevel.change, stats::runLevelTest(unitsA, unitsB).change);
    }

    // Four processes against one, 16 runs against 4 of it: the unit is the process, one on B's side, so
    // nothing is tested. The pooled row has no verdict (its per-call test pools the runs' calls, which
    // differ here past alpha) and says why, and a gate cannot judge it.
    void scopeComparisonAgainstOneProcess()
    {
        const QString matmul = kDatasets[0].path;
        REQUIRE_TEST_DATA(matmul);
        const QList<LoadedRun> a = LoadedRun::loadAll(TraceFolder::scan(matmul));
        const QList<LoadedRun> b = LoadedRun::loadAll(TraceFolder::scan(matmul + QStringLiteral("/proc_1")));
        QCOMPARE(b.size(), 4);
        const Replication replication = Replication::of(a, b);
        QVERIFY(replication.byProcess());
        ScopeComparison comparison(scopeIndexes(a), scopeIndexes(b));
        comparison.setReplication(&replication);
        const QStringList step{QStringLiteral("PjitFunction(<lambda>)")};
        const std::vector<ComparisonRow> rows =
            comparison.compare(step, MatchMode::Component, SampleMode::Span);
        const ComparisonRow &pooled = rows.back();
        QVERIFY(pooled.isPooled() && pooled.verdictRow && !pooled.hasRunLevel());
        QVERIFY2(pooled.mannWhitneyHolm < 0.05, "the pooled calls do not differ: the test shows nothing");
        QCOMPARE(pooled.verdict(), Verdict::NoSignificantChange);
        QCOMPARE(pooled.verdictText(),
                 QStringLiteral("one process on a side: process-to-process variation not measured"));
        Gate gate(GateMode::Change, true);
        gate.addScopeComparison(rows, 0.05, 0.01);
        QVERIFY(gate.tripped().empty());
        QCOMPARE(gate.unjudged().size(), std::size_t(1));
    }

    // A and B under one pid ran interleaved in one process only when their launch calls are one
    // sequence of correlation ids. Real: runs 0, 2 of one PyTorch process against its runs 1, 3 are;
    // eager against reduce-overhead recorded interleaved are. Process 1's runs given process 0's pid
    // (as a container reuses one) are not: each process numbers its calls from the same id, so the
    // one-process caveat stays. The same from the runs' summary files.
    void oneProcessNeedsOneSequenceOfLaunches()
    {
        const QString processes = kDatasets[2].path, compiled = testdata::path("h100_runs/torch_compile");
        REQUIRE_TEST_DATA(processes, compiled);
        const auto load = [](const QStringList &folders) {
            QList<LoadedRun> runs;
            for (const QString &folder : folders)
                runs += LoadedRun::loadAll(TraceFolder::scan(folder));
            return runs;
        };
        const auto runsOf = [&](int process, std::initializer_list<int> runs) {
            QStringList folders;
            for (int r : runs)
                folders << QStringLiteral("%1/proc_%2/run_%3").arg(processes).arg(process).arg(r);
            return load(folders);
        };
        // process 1's runs with process 0's pid (and its main thread's id)
        QTemporaryDir scratch(testdata::scratchDir());
        QVERIFY(scratch.isValid());
        for (int r = 0; r < 4; ++r) {
            QByteArray text = testdata::gunzip(
                QStringLiteral("%1/proc_1/run_%2/trace.pt.trace.json.gz").arg(processes).arg(r));
            QVERIFY(text.contains("\"pid\": 2937,"));
            text.replace("\"pid\": 2937,", "\"pid\": 2907,").replace("\"tid\": 2937,", "\"tid\": 2907,");
            const QString run = scratch.filePath(QStringLiteral("run_%1").arg(r));
            QFile file(run + QStringLiteral("/trace.pt.trace.json"));
            QVERIFY(QDir().mkpath(run) && file.open(QIODevice::WriteOnly) && file.write(text) == text.size());
        }
        struct Case
        {
            const char *name;
            QList<LoadedRun> a, b;
            bool shared;
        };
        const Case cases[] = {
            {"one process, runs 0 2 v 1 3", runsOf(0, {0, 2}), runsOf(0, {1, 3}), true},
            // two scopes of the same runs (a scope sweep): interleaved in each run
            {"one process, runs 0 1 v themselves", runsOf(0, {0, 1}), runsOf(0, {0, 1}), true},
            {"eager v reduce-overhead", load({compiled + QStringLiteral("/eager")}),
             load({compiled + QStringLiteral("/reduce_overhead")}), true},
            {"process 0 v process 1 under its pid", runsOf(0, {0, 1, 2, 3}), load({scratch.path()}), false},
        };
        for (const Case &c : cases) {
            QVERIFY2(c.a.size() >= 2 && c.b.size() >= 2, c.name);
            QCOMPARE(Replication::processOf(c.a.front()), Replication::processOf(c.b.back()));
            // the same from summary files, as a batch engine writes them
            QList<LoadedRun> fromFiles[2];
            for (int s = 0; s < 2; ++s)
                for (const LoadedRun &run : s == 0 ? c.a : c.b) {
                    const QString path = scratch.filePath(QStringLiteral("summary.slsum"));
                    auto summary = std::make_shared<RunSummary>();
                    QVERIFY(run.summary && RunSummaryFile::write(*run.summary, path).isEmpty());
                    QVERIFY(RunSummaryFile::read(path, *summary).isEmpty());
                    LoadedRun read;
                    read.run = run.run;
                    read.summary = summary;
                    fromFiles[s] << read;
                }
            for (const Replication &replication :
                 {Replication::of(c.a, c.b), Replication::of(fromFiles[0], fromFiles[1])}) {
                QVERIFY2(!replication.byProcess(), c.name);
                QVERIFY2(replication.sharedProcess() == c.shared, c.name);
                QCOMPARE(replication.caveat(), c.shared ? QString() : Replication::processCaveat());
            }
            const KernelDiff diff(c.a, c.b);
            QCOMPARE(diff.summary().caveat, c.shared ? QString() : Replication::processCaveat());
        }
    }

    // Every split of 4 processes into 2 v 2 (the unit is the process) and every 1 v 1 pair (the unit is
    // the run, one process a side: each call says so), on the three real multi-process recordings.
    void aaOnRealProcesses()
    {
        for (const Dataset &d : kDatasets)
            REQUIRE_TEST_DATA(d.path);
        Tally twoTotal[Kinds], oneTotal[Kinds];
        int jaxPairs = 0, jaxPairsCalled = 0, torchPairs = 0, torchPairsCalled = 0, jaxPairsKernelCall = 0,
            torchPairsKernelCall = 0;
        for (const Dataset &d : kDatasets) {
            std::vector<QList<LoadedRun>> processes;
            QVERIFY2(loadProcesses(d.path, processes), d.name);
            const bool jax = QByteArray(d.name).startsWith("jax");
            const Spread spread = spreadOf(processes);
            qInfo("%s: %d kernels in all 16 runs; median CV between processes (of runs within one): median "
                  "per call %.2f %% (%.2f %%), time per run %.2f %% (%.2f %%); largest between processes "
                  "%.2f %% (%s)",
                  d.name, spread.kernels, 100 * spread.processMedian, 100 * spread.runMedian,
                  100 * spread.processTotal, 100 * spread.runTotal, 100 * spread.largest,
                  qPrintable(spread.largestKernel.left(60)));
            QVERIFY2(spread.kernels > 0, d.name);
            // JAX's processes differ by more than their runs would make them (about half the runs' CV).
            if (jax)
                QVERIFY2(spread.processMedian > spread.runMedian / 2, d.name);

            // 2 v 2: process 0 always on A, each split once.
            Tally two[Kinds];
            int splits = 0;
            for (int partner = 1; partner < 4; ++partner) {
                std::vector<int> sideA{0, partner}, sideB;
                for (int p = 1; p < 4; ++p)
                    if (p != partner)
                        sideB.push_back(p);
                const Comparison c = compare(d.name, processes, sideA, sideB, false);
                QVERIFY2(c.unitAsExpected, d.name);
                QVERIFY2(c.caveatOnTestedRows, "a 2 v 2 row carries the one-process caveat");
                for (int k = 0; k < Kinds; ++k)
                    two[k] += c.tally[k];
                ++splits;
            }
            QCOMPARE(splits, 3);

            // 1 v 1: four runs of one process against four of another.
            Tally one[Kinds];
            int pairs = 0, pairsCalled = 0, pairsKernelCall = 0;
            for (int p = 0; p < 4; ++p)
                for (int q = p + 1; q < 4; ++q) {
                    const Comparison c = compare(d.name, processes, {p}, {q}, true);
                    QVERIFY2(c.unitAsExpected, d.name);
                    QVERIFY2(c.caveatOnTestedRows, "a 1 v 1 tested row lacks the one-process caveat");
                    bool called = false;
                    for (int k = 0; k < Kinds; ++k) {
                        one[k] += c.tally[k];
                        called = called || c.tally[k].calls > 0;
                    }
                    ++pairs;
                    pairsCalled += called;
                    pairsKernelCall += c.kernelCall;
                }
            QCOMPARE(pairs, 6);
            (jax ? jaxPairs : torchPairs) += pairs;
            (jax ? jaxPairsCalled : torchPairsCalled) += pairsCalled;

            for (int k = 0; k < Kinds; ++k) {
                qInfo(
                    "%s, %-15s: 2 v 2 processes (3 splits): %lld calls of %lld tested rows; 1 v 1 (6 pairs, "
                    "4 v 4 runs): %lld calls of %lld",
                    d.name, kKindNames[k], qlonglong(two[k].calls), qlonglong(two[k].tested),
                    qlonglong(one[k].calls), qlonglong(one[k].tested));
                twoTotal[k] += two[k];
                oneTotal[k] += one[k];
            }
            qInfo("%s: 1 v 1 pairs with any call: %d of %d (by kernel, either verdict: %d)", d.name,
                  pairsCalled, pairs, pairsKernelCall);
            (jax ? jaxPairsKernelCall : torchPairsKernelCall) += pairsKernelCall;
        }

        int64_t twoCalls = 0, twoTested = 0, oneCalls = 0, oneTested = 0;
        for (int k = 0; k < Kinds; ++k) {
            qInfo("all data, %-15s: 2 v 2: %lld calls of %lld tested rows (%.1f %%); 1 v 1: %lld of %lld "
                  "(%.1f %%)",
                  kKindNames[k], qlonglong(twoTotal[k].calls), qlonglong(twoTotal[k].tested),
                  100 * twoTotal[k].rate(), qlonglong(oneTotal[k].calls), qlonglong(oneTotal[k].tested),
                  100 * oneTotal[k].rate());
            QVERIFY2(twoTotal[k].tested > 0, kKindNames[k]);
            QVERIFY2(oneTotal[k].tested > 0, kKindNames[k]);
            // The bar: at the process level, calls in at most alpha of the tested rows.
            QVERIFY2(twoTotal[k].rate() <= kAlpha, kKindNames[k]);
            // Every 1 v 1 call carries the caveat; no test anywhere gives p = 0 or a zero-width interval.
            QCOMPARE(oneTotal[k].uncaveated, int64_t(0));
            QVERIFY2(twoTotal[k].unsound == 0 && oneTotal[k].unsound == 0, kKindNames[k]);
            twoCalls += twoTotal[k].calls;
            twoTested += twoTotal[k].tested;
            oneCalls += oneTotal[k].calls;
            oneTested += oneTotal[k].tested;
        }
        qInfo("A/A 2 v 2 processes: %lld calls of %lld tested rows; 1 v 1 processes: %lld calls of %lld; "
              "1 v 1 pairs with any call: JAX %d of %d, PyTorch %d of %d",
              qlonglong(twoCalls), qlonglong(twoTested), qlonglong(oneCalls), qlonglong(oneTested),
              jaxPairsCalled, jaxPairs, torchPairsCalled, torchPairs);
        QVERIFY(double(twoCalls) <= kAlpha * double(twoTested));
        QCOMPARE(jaxPairs, 12);
        QCOMPARE(torchPairs, 6);
    }

    // Process, run and call levels with a 32 ns timer: at the process level the A/A false-call rate is
    // at most alpha (plus the binomial margin of the replicates) and the 95 % interval covers the true
    // change of 0 about 95 % of the time; runs of one process a side as the units call far more often;
    // a real +3 % shift is found more often the more processes a side has.
    void simulation()
    {
        const Levels levels;
        const int replicates = 2000;
        std::mt19937 random(29);
        int falseCall[2] = {}, covered[2] = {}, invalid = 0, runLevelFalse[2] = {}, uncaveated = 0;
        for (int i = 0; i < replicates; ++i) {
            const SimSide a = simulate(random, levels, 4, 1.0, 'a'),
                          b = simulate(random, levels, 4, 1.0, 'b');
            const SimTests t = simTests(a, b, levels.tickNs);
            invalid += !t.byProcess || !t.perCall.valid() || !t.timePerRun.valid() || !t.caveat.isEmpty();
            falseCall[0] += t.perCall.p < kAlpha;
            falseCall[1] += t.timePerRun.p < kAlpha;
            covered[0] += covers(t.perCall, 0);
            covered[1] += covers(t.timePerRun, 0);

            // The same A/A with one process a side, its 4 runs the units.
            const SimSide a1 = simulate(random, levels, 1, 1.0, 'a'),
                          b1 = simulate(random, levels, 1, 1.0, 'b');
            const SimTests r = simTests(a1, b1, levels.tickNs);
            invalid += r.byProcess || !r.perCall.valid() || !r.timePerRun.valid();
            uncaveated += r.caveat.isEmpty();
            runLevelFalse[0] += r.perCall.p < kAlpha;
            runLevelFalse[1] += r.timePerRun.p < kAlpha;
        }
        const auto pct = [&](int n) { return 100.0 * n / replicates; };
        qInfo(
            "simulation, A/A, %d replicates, 4 processes x 4 runs x 30 calls a side (sigma process %.1f %%, "
            "run "
            "%.1f %%, call %.1f %%, %g ns timer), unit = process: false calls per call %.2f %%, time per run "
            "%.2f %%; 95 %% interval covers 0: per call %.2f %%, time per run %.2f %%",
            replicates, 100 * levels.sigmaProcess, 100 * levels.sigmaRun, 100 * levels.sigmaCall,
            levels.tickNs, pct(falseCall[0]), pct(falseCall[1]), pct(covered[0]), pct(covered[1]));
        qInfo(
            "simulation, A/A, 1 process x 4 runs a side, unit = run: false calls per call %.2f %%, time per "
            "run %.2f %%",
            pct(runLevelFalse[0]), pct(runLevelFalse[1]));
        QCOMPARE(invalid, 0);
        QCOMPARE(uncaveated, 0);
        // alpha plus three binomial standard errors of the replicates.
        const double margin = 3 * std::sqrt(kAlpha * (1 - kAlpha) / replicates);
        for (int k = 0; k < 2; ++k) {
            QVERIFY(double(falseCall[k]) / replicates <= kAlpha + margin);
            QVERIFY(pct(covered[k]) >= 93 && pct(covered[k]) <= 97);
            QVERIFY(double(runLevelFalse[k]) / replicates > 2 * kAlpha);
        }

        // Power for a real shift per call on B (+3 %, 1.5 sigma of the process level, and +5 %), by
        // processes a side (4 runs each): found = p < alpha with the right sign.
        const double shifts[] = {0.03, 0.05};
        const int powerReplicates = 1000;
        const int sizes[] = {2, 3, 4, 6, 8};
        double power[4][std::size(sizes)] = {}; // per shift: per call, time per run
        qInfo("power (%d replicates a cell), processes a side: +3 %% per call, time per run; +5 %% per call, "
              "time per run",
              powerReplicates);
        for (std::size_t s = 0; s < std::size(sizes); ++s) {
            for (std::size_t h = 0; h < std::size(shifts); ++h) {
                int found[2] = {};
                for (int i = 0; i < powerReplicates; ++i) {
                    const SimSide a = simulate(random, levels, sizes[s], 1.0, 'a'),
                                  b = simulate(random, levels, sizes[s], 1.0 + shifts[h], 'b');
                    const SimTests t = simTests(a, b, levels.tickNs);
                    found[0] += t.perCall.p < kAlpha && t.perCall.change > 0;
                    found[1] += t.timePerRun.p < kAlpha && t.timePerRun.change > 0;
                }
                for (int k = 0; k < 2; ++k)
                    power[2 * h + std::size_t(k)][s] = 100.0 * found[k] / powerReplicates;
            }
            qInfo("  %d v %d processes: %5.1f %%  %5.1f %%;  %5.1f %%  %5.1f %%", sizes[s], sizes[s],
                  power[0][s], power[1][s], power[2][s], power[3][s]);
        }
        for (std::size_t k = 0; k < 4; ++k)
            for (std::size_t s = 1; s < std::size(sizes); ++s)
                QVERIFY2(power[k][s] > power[k][s - 1], "power does not rise with processes");
    }

    // Only the timer varies: every call the same tick, so each side's units all give one value. Neither
    // test gives p = 0 or a zero-width interval, A/A or shifted, from 2 to 6 units a side.
    void timerTies()
    {
        Levels levels;
        levels.sigmaProcess = levels.sigmaRun = levels.sigmaCall = 0;
        std::mt19937 random(30);
        int cases = 0;
        for (const double base : {8000.0, 8010.0, 1000.0, 40.0})
            for (const double factor : {1.0, 1.004, 1.03})
                for (const int processes : {1, 2, 3, 4, 6}) {
                    levels.baseNs = base;
                    const SimSide a = simulate(random, levels, processes, 1.0, 'a'),
                                  b = simulate(random, levels, processes, factor, 'b');
                    const SimTests t = simTests(a, b, levels.tickNs);
                    const bool equal = a.medians.front() == b.medians.front();
                    for (const stats::RunLevelTest &test : {t.perCall, t.timePerRun}) {
                        const QByteArray what = QStringLiteral("base %1 ns, factor %2, %3 processes a side")
                                                    .arg(base)
                                                    .arg(factor)
                                                    .arg(processes)
                                                    .toUtf8();
                        QVERIFY2(test.valid() && test.tied, what.constData());
                        QVERIFY2(test.p > 0, what.constData());
                        QVERIFY2(test.ciHigh > test.ciLow, what.constData());
                        QVERIFY2(equal ? test.p == 1 : test.p < 1, what.constData());
                        QVERIFY2(covers(test, b.medians.front() / a.medians.front() - 1), what.constData());
                    }
                    ++cases;
                }
        QCOMPARE(cases, 4 * 3 * 5);
    }
};

QTEST_GUILESS_MAIN(TstProcessLevel)
#include "tst_processlevel.moc"
