// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Did the step get faster, and where did the time go": each run's steps (instances of the step
// scope) broken into GPU busy and idle by cause, and side A against side B per component with a
// Welch test on the per-run means (per-process means when a side's runs sit in process folders).
// DESIGN.md section 7 has the definitions.

#include "model/analysis/runsummary.h"
#include "model/analysis/traceanalysis.h"
#include "model/comparison/replication.h"
#include "model/comparison/scopecomparison.h"
#include "model/loading/loadedrun.h"
#include "model/tables/tablecolumn.h"
#include "stats/welch.h"

#include <QList>
#include <QString>

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace scopeline {

// The components of a step, in table order; Compute + ExposedComm add up to Busy, the causes to Idle,
// Busy + Idle to Step. Compute: the union of the non-communication kernels; exposed communication:
// the time only communication runs (DESIGN.md section 8).
enum class StepPart : uint8_t { Step, Busy, Compute, ExposedComm, Idle, LaunchLate, GpuWaiting, Unknown };
constexpr int kStepParts = 8;
using StepParts = std::array<int64_t, kStepParts>; // ns, indexed by StepPart
QString stepPartKey(StepPart part);                // "step", "busy", "idle", "idle:launch_late", ...
QString stepPartTitle(StepPart part);              // "Step time", "GPU busy", "Idle: CPU launched late", ...
// The idle part a gap's cause counts in.
StepPart stepPartOf(GapCause cause);

// One step of one run.
struct StepInstance
{
    int64_t start = 0, end = 0; // the step scope's range on the CPU (the whole run: the GPU span)
    int64_t number = -1;        // N of a step named `scope#N` (ProfilerStep#12), -1 when unnumbered
    int64_t kernels = 0;
    int64_t commKernels = 0;    // of them communication
    StepParts parts{};          // ns
    int64_t overlappedComm = 0; // communication hidden under compute: union of it − ExposedComm, ns
};

// A gap of a step's GPU union, with its cause: what the timelines highlight for an idle bar.
struct StepGap
{
    int64_t start = 0, end = 0;
    GapCause cause = GapCause::Unknown;
};

// The steps of one run: what the statistics need of it.
struct RunSteps
{
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
    QString run;                     // the run's name in its side folder, with its rank (TraceRun::label)
    RunOrigin origin;                // its process, and the multi-GPU run a rank is of (Replication)
    std::vector<StepInstance> steps; // steps with at least one kernel, by start
    std::array<double, kStepParts> mean{kUnset, kUnset, kUnset, kUnset, kUnset, kUnset, kUnset, kUnset}; // per step
    // Kernels without a launch call in the trace (a profiler that lost the calls) that started while a
    // step ran (its range, or later while its kernels ran): in no step, as a step's kernels are those
    // it launched.
    int64_t unlaunchedKernels = 0, unlaunchedNs = 0;
    bool hasCommunication() const; // a communication kernel in a step
    // The mean time from one step's start to the next's (ns; NaN below 2 steps): how often steps come,
    // beside the step time, which is how long the GPU worked on one.
    double period() const;
};

// The steps of a run: instances of `stepScope` (CPU annotations named `scope` or `scope#N`, the
// outermost when nested); a step's kernels are those whose launch call starts in its range on any
// thread of its process. An empty scope makes the whole run one step with every kernel. stepOfKernel,
// when given, gets each kernel's step (index into steps; -1 for none), in summary.kernels() order;
// gaps, when given, every step's idle gaps by start (a gap of most kernels: asked for when shown,
// not kept).
RunSteps findRunSteps(const RunSummary &summary, const QString &stepScope,
                      std::vector<int32_t> *stepOfKernel = nullptr, std::vector<StepGap> *gaps = nullptr);
// The steps of a loaded run (its summary's), named and placed as the statistics count it: its label,
// process and multi-GPU run (Replication).
RunSteps runStepsOf(const LoadedRun &run, const QString &stepScope);
// The step scope in use for `asked` (StepBreakdownOptions::stepScope): the scope asked for, empty
// for the whole run, or when none was asked the first run's detected step scope where every side has
// it (else the whole run: a side without steps leaves no step to compare).
QString stepScopeFor(const QString &asked, const QList<LoadedRun> &a, const QList<LoadedRun> &b);
// The same over any number of sides (variants: the baseline and every candidate), decided once for all.
QString stepScopeFor(const QString &asked, const std::vector<QList<LoadedRun>> &sides);
// The step scope every variant is compared at, decided once over the baseline and the candidates:
// what a StepBreakdown of each is given (StepBreakdownOptions::wholeRun() where none is found).
QString variantsStepScope(const QString &asked, const QList<LoadedRun> &baseline,
                          const std::vector<QList<LoadedRun>> &candidates);
// The same of an analysed trace (summarised first: one definition of a step).
RunSteps findRunSteps(const TraceAnalysis &analysis, const QString &stepScope, std::vector<StepGap> *gaps = nullptr);

struct StepBreakdownOptions
{
    // The step scope; empty: the first run's detected step scope (ScopeIndex::stepScope), else the
    // whole run. wholeRun() asks for the whole run explicitly.
    QString stepScope;
    double alpha = 0.05;     // the step time's level, and the Holm family's of its parts
    double threshold = 0.01; // smallest |delta| that counts, relative to A's mean step time
    static QString wholeRun() { return QStringLiteral("(whole run)"); }
    // A --step argument as a scope: "whole-run" is wholeRun(), anything else a scope name.
    static QString scopeOfArgument(const QString &argument)
    {
        return argument == QLatin1String("whole-run") ? wholeRun() : argument;
    }
};

// One component, A against B.
struct StepRow
{
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
    StepPart part = StepPart::Step;
    int runsA = 0, runsB = 0;               // runs with steps
    int unitsA = 0, unitsB = 0;             // what the test counts: runs, or processes when grouped
    int processesA = 0, processesB = 0;     // processes the runs came from (unknown: one a side)
    int64_t stepsA = 0, stepsB = 0;         // steps over all runs
    double meanA = kUnset, meanB = kUnset;  // mean over the units of the per-unit mean per step (ns)
    double delta = kUnset;                  // meanB − meanA
    double shareOfDelta = kUnset;           // delta / the step row's delta, where that reaches the threshold
    // Welch–Satterthwaite interval of delta at the level the verdict is judged (ciLevel, e.g. 0.95):
    // 1 − alpha for the step time, tested alone; Holm's step-down level for its parts, one family.
    double ciLow = kUnset, ciHigh = kUnset, ciLevel = kUnset;
    double pRaw = kUnset, p = kUnset; // Welch two-sided p; p as judged: the step's raw, the parts' Holm
    Verdict verdict = Verdict::NoSignificantChange;
    QString reason;    // why there is no test, when there is none
    QString caveat;    // what the test could not measure (Replication::caveat), on tested rows
    bool tied = false; // each side's units all gave one value: tested as known to 1 ns (stats::atResolution)
    std::vector<double> unitMeansA, unitMeansB; // the tested values, one per unit
    QString verdictText() const;
    // B / A per step with Fieller's interval at ciLevel: a ratio of durations is not below 0, and where
    // A is about 0 the interval is the ray [gapHigh, inf).
    stats::RatioInterval ratio() const;
    // Whether ratio() has an interval to show, bounded or not.
    bool ratioIntervalShown() const;
    // ratio()'s interval as a change, what the step's verdict is shown beside: "[+21.5 %, +76.7 %]",
    // "[≥ +74.0 %]" or "[unbounded]"; empty when there is none.
    QString changeIntervalText() const;
};

class StepBreakdown
{
public:
    // Runs that failed to load are left out.
    StepBreakdown(const QList<LoadedRun> &a, const QList<LoadedRun> &b,
                  const StepBreakdownOptions &options = {});
    // From the runs' step summaries (what a side's runs give once their events are gone).
    StepBreakdown(std::vector<RunSteps> a, std::vector<RunSteps> b, const QString &stepScope,
                  const StepBreakdownOptions &options = {});

    // The step scope in use; empty for the whole run.
    const QString &stepScope() const { return m_stepScope; }
    const StepBreakdownOptions &options() const { return m_options; }
    // Whether a side's runs come from ≥ 2 processes: then processes are the unit (Replication).
    bool byProcess() const { return m_byProcess; }
    // A and B are the very same files: every row untested (said as its reason).
    bool sameRuns() const { return m_sameRuns; }
    // Whether a step of either side has a communication kernel (else compute is all of busy).
    bool hasCommunication() const { return m_communication; }
    // Rows in StepPart order.
    const std::vector<StepRow> &rows() const { return m_rows; }
    const StepRow &row(StepPart part) const { return m_rows[std::size_t(part)]; }
    const std::vector<RunSteps> &runsA() const { return m_runsA; }
    const std::vector<RunSteps> &runsB() const { return m_runsB; }

    // The table's columns: the CSV, the CLI, the Qt model and the HTML report all read them.
    static const std::vector<TableColumn<StepRow>> &columns();
    // The CLI's subset of them (`scopeline-cli steps`).
    static std::vector<TableColumn<StepRow>> cliColumns();
    QString toCsv() const;
    // One line for a header: "step time 7.80 ms → 1.10 ms (−85.8%, 95% CI …), B faster".
    QString stepLine() const;
    // How often steps start (RunSteps::period), per unit as the step row's: the sides' means and the
    // change with Fieller's interval at 1 − alpha, no verdict of its own (the step row is the question).
    // Steps that start 16 % more often while their GPU span fell 79 % (eager against a graph) are
    // what a throughput reads; NaN means where a side's runs have fewer than 2 steps.
    const StepRow &period() const { return m_period; }
    // "a step every 435.5 µs → 364.5 µs (−16.3 % [−18.0 %, −14.2 %])", empty without period figures.
    QString periodText() const;
    // What the steps leave out that the figures may miss (RunSteps::unlaunchedKernels), a line a side, and
    // which ranks are compared where the sides hold different ones (ComparedRanks); empty when nothing.
    QString note() const;

    // Judges comparisons of candidates against one baseline together: the step rows of all one Holm
    // family, their parts another, each interval at its row's level. One comparison is a pair's judgement.
    static void judgeTogether(const std::vector<StepBreakdown *> &comparisons);
    static void judgeTogether(std::vector<StepBreakdown> &all);

private:
    // A side's steps far longer than its median step (a host stall, a recompilation, a first step's
    // warm-up), which its mean per step counts in full; empty when none.
    QString longStepsNote(int side) const;
    void compare();

    QString m_stepScope;
    StepBreakdownOptions m_options;
    bool m_byProcess = false, m_communication = false;
    // A and B read the very same files with one step scope (a trace opened alone): nothing to test
    bool m_sameRuns = false;
    std::vector<RunSteps> m_runsA, m_runsB;
    ComparedRanks m_comparedRanks; // the GPUs compared, where the sides hold different ones
    std::vector<StepRow> m_rows;
    StepRow m_period;
};

} // namespace scopeline
