// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The kernel-level "what changed" diff of side A (baseline) and side B (candidate): one row per kernel
// name (or per op that launched it) found on either side (kernels as TraceAnalysis finds them, what
// `scopeline-cli info` counts), with calls and total GPU time per run, pooled medians, and two tests
// with Holm over the rows: the verdict judges the kernel's GPU time per run (what the row's Δ
// explains), the per-call test its duration per call. The unit is the process when a side has ≥ 2,
// else the run (Replication). Rows are sorted by how much of the change in GPU time they explain.
// Optionally folds names that differ only by a trailing compiler number (`fusion_13`, `fusion_14`).

#include "model/loading/loadedrun.h"
#include "model/comparison/scopecomparison.h"
#include "model/tables/tablecolumn.h"

#include "stats/runlevel.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace scopeline {

struct KernelDiffOptions
{
    bool foldNumbers = false; // one row for `loop_transpose_fusion_13`, `_14`, ...: `loop_transpose_fusion_*`
    // One row per op rather than per kernel name: JAX's `hlo_op` (a command buffer's kernels by their
    // graph node), else the innermost CPU op around the launch call (PyTorch's `aten::...`). An
    // autotuner's choice of GEMM kernel, or a renamed fusion, then stays one row.
    bool byOp = false;
    double alpha = 0.05;     // for the Holm-adjusted run-level p
    double threshold = 0.01; // smallest run-level relative change that counts (0.01 = 1 %)
};

// One kernel row's figures on one side.
struct KernelDiffSide
{
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
    int runsWithKernel = 0;   // runs of the side in which the kernel occurs
    int unitsWithKernel = 0;  // units (processes, or runs) of the side in which it occurs
    int64_t calls = 0;        // over all the side's runs
    int64_t totalNs = 0;      // summed durations over all the side's runs
    double callsPerRun = 0;   // calls / runs of the side (a run without the kernel counts 0)
    double totalPerRunNs = 0; // per run: totalNs / runs, or by process the processes' means averaged
    double medianNs = kUnset; // median of the pooled durations; NaN when absent
    // Per run of the side, in the order given: calls, total and median duration (NaN when absent).
    std::vector<int64_t> runCalls, runTotalNs;
    std::vector<double> runMedianNs;
    std::vector<double> durations; // pooled durations (ns), run after run
    // Per unit of the side (Replication): the mean of its runs' totals (a run without the kernel
    // counting 0) and of their medians (runs without it left out; NaN when none has it).
    std::vector<double> unitTotalNs, unitMedianNs;
    bool present() const { return calls > 0; }
};

struct KernelDiffRow
{
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
    QString kernel;    // the name, or the folded name (`loop_transpose_fusion_*`)
    QStringList names; // the exact kernel names in the row, sorted (one unless folded)
    bool communication = false; // a communication kernel (isCommunicationKernel)
    KernelDiffSide a, b;
    double deltaTotalNs = 0;         // b.totalPerRunNs − a.totalPerRunNs
    // deltaTotalNs / the summary's deltaTotalNs; NaN where that is below the threshold of A's kernel time
    double shareOfDelta = kUnset;
    double relChangeMedian = kUnset; // (b.medianNs − a.medianNs) / a.medianNs; NaN unless a.medianNs > 0
    // GPU time per run: Welch on the units' totals (stats::meanChangeTest), change relative to A's.
    stats::RunLevelTest runLevel;
    double runLevelHolm = kUnset;                   // runLevel.p, Holm-adjusted over the diff's rows
    // runLevelVerdict(); OnlyInA/OnlyInB where a kernel of oneSide() tests as a finding
    Verdict verdict = Verdict::NoSignificantChange;
    // Duration per call: Welch on the logs of the units' medians (stats::runLevelTest), its own Holm.
    stats::RunLevelTest perCall;
    double perCallHolm = kUnset;
    Verdict perCallVerdict = Verdict::NoSignificantChange;
    double timerStep = 1;               // the durations' tick (ns): a tie's interval
    int processesA = 0, processesB = 0; // of the side (copied from the summary, for the texts)
    bool byProcess = false;
    bool sameRuns = false; // A and B are the very same files: not tested (copied from the summary)
    QString caveat; // what the tests could not measure (Replication::caveat), on tested rows
    // Whether variation between units was measured: ≥ 2 units on each side.
    bool runLevelMeasured() const { return runLevel.valid(); }
    // In some processes of a side but not in others (XLA's autotuner picks kernels per process).
    bool processDependent() const;
    // It ran on one side alone (not process-dependent); its verdict is OnlyInA/OnlyInB only where its
    // time per run tests as a change.
    bool oneSide() const;
    // The verdict in words; "run-to-run (process-to-process) variation not measured" without the
    // units for a test; a process-dependent row says in how many processes of each side it ran.
    QString verdictText() const;
    QString perCallVerdictText() const;
    // The per-call cell: "-5.02 % [-6.10, -3.90], B faster"; "–" without a per-call test.
    QString perCallText() const;
};

// What the header line says: the two sides as a whole.
struct KernelDiffSummary
{
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();
    int runsA = 0, runsB = 0;
    // Means per run as the rows' (Replication::perRunMean): GPU busy (union of kernels), summed durations.
    double busyPerRunA = kUnset, busyPerRunB = kUnset;
    double kernelTimePerRunA = 0, kernelTimePerRunB = 0;
    double deltaTotalNs = 0; // kernelTimePerRunB − kernelTimePerRunA, the sum of the rows' deltas
    int kernels = 0, onlyInA = 0, onlyInB = 0; // rows; of kernels that ran on one side only
    int processesA = 0, processesB = 0, processDependent = 0;
    // Some kernel has an op other than its own name (a CPU op around its launch, an hlo_op, a
    // collective): without one, rows by op are the kernels under another heading.
    bool opsFound = false;
    bool byProcess = false; // the unit is the process
    bool sameRuns = false;  // A and B read the very same files (a trace opened alone): nothing is tested
    int mostRanks = 1;      // Replication::mostRanks: above 1, figures per run are means over its GPUs
    QString caveat;         // Replication::caveat
    QString comparedRanks;  // ComparedRanks::note: the ranks compared where the sides hold different ones
    // " per run", or where a run has several GPUs " per run (a run's mean over its GPUs)".
    QString perRunText() const;
};

class KernelDiff
{
public:
    // Runs that failed to load (no trace) are left out.
    KernelDiff(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const KernelDiffOptions &options = {});

    const KernelDiffOptions &options() const { return m_options; }
    // Sorted by |deltaTotalNs|, largest first; ties by kernel name.
    const std::vector<KernelDiffRow> &rows() const { return m_rows; }
    const KernelDiffSummary &summary() const { return m_summary; }

    // The fold key of a kernel name: the name without its trailing compiler numbering (`_<digits>` or
    // `.<digits>`, repeated); digits elsewhere (template arguments, the middle) stay.
    static std::string foldBase(std::string_view name);

    // The table's columns, in CSV order; run_level_p is the Holm-adjusted p, run_level_p_raw the
    // unadjusted one; the run_level_* columns test GPU time per run, the per_call_* ones the duration
    // per call. By op, the first column is "Op"; folded_names is filled when folding or by op.
    static std::vector<TableColumn<KernelDiffRow>> columns(const KernelDiffOptions &options = {});
    // The CSV keys of what the window's table and the HTML report show, in their order (a verdict
    // beside the change and interval it was decided from): a column of the list is shown by adding its
    // key here. KernelDiffModel finds its columns by these keys.
    static QStringList tableKeys();
    static std::vector<TableColumn<KernelDiffRow>> tableColumns(const KernelDiffOptions &options = {});
    // What `scopeline-cli diff` prints.
    static std::vector<TableColumn<KernelDiffRow>> cliColumns(const KernelDiffOptions &options = {});
    // Every row, header first: all the columns.
    QString toCsv() const;
    // The two sides as a whole, a line or two: "3 v 3 runs · GPU busy/run A … → B … (−4.74 %) · …".
    QString headerText() const;

    // Judges diffs of candidates against one baseline together: the rows of all one Holm family for
    // each test, each interval at its row's level. One diff is a pair's judgement.
    static void judgeTogether(const std::vector<KernelDiff *> &diffs);
    static void judgeTogether(std::vector<KernelDiff> &all);

private:
    KernelDiffOptions m_options;
    std::vector<KernelDiffRow> m_rows;
    KernelDiffSummary m_summary;
};

} // namespace scopeline
