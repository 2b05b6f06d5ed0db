// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CI gate of `scopeline-cli diff|steps|compare|ranks --fail-on slower|change`: whether a comparison's
// Holm-adjusted verdicts hold what the gate names, and which rows trip it. Calls that carry a caveat
// (one process a side, DESIGN.md Statistics; different sets of GPUs) fail it only when strict: a gate
// that flakes is switched off.

#include "model/comparison/kerneldiff.h"
#include "model/comparison/ranktable.h"
#include "model/comparison/scopecomparison.h"
#include "model/comparison/stepbreakdown.h"
#include "model/comparison/verdict.h"

#include <QString>

#include <limits>
#include <vector>

namespace scopeline {

// What fails the gate: nothing (Off), B slower, or B faster or slower (Change).
enum class GateMode { Off, Slower, Change };
// "slower" or "change"; false for anything else.
bool parseGateMode(const QString &text, GateMode &mode);
QString gateModeName(GateMode mode);

// A row whose verdict is what the gate names.
struct GateRow
{
    QString table;   // "step", "kernel", "op" or "scope"
    QString name;    // "step time (ProfilerStep)", the kernel's name, "attention (all runs)"
    Verdict verdict = Verdict::NoSignificantChange;
    double change = std::numeric_limits<double>::quiet_NaN(); // the tested relative change
    double p = std::numeric_limits<double>::quiet_NaN();      // its p as judged
    bool holm = true; // p is Holm-adjusted (a pair's step is tested alone)
    QString interval; // of the change, as judged: "[+21.5 %, +76.7 %]"; empty without one
    // What the call could not measure (one process a side; one run a side); empty when it did.
    QString caveat;
    // Its verdict's words; "not tested" for a row without a test (one run or process a side).
    QString verdictWords() const;
    // "step time (ProfilerStep): B slower, +5.20 % [+2.1 %, +8.4 %] (Holm p 0.0031)".
    QString text() const;
};

class Gate
{
public:
    Gate(GateMode mode = GateMode::Off, bool strict = false) : m_mode(mode), m_strict(strict) {}

    // The step row of a step breakdown: the step time (the components explain it, they do not gate).
    // With several variants, `variant` names the candidate the row is of.
    void addStep(const StepBreakdown &steps, const QString &variant = {});
    // Several GPUs: the mean over ranks of A against B, the question `ranks` asks (tested alone); the
    // slowest rank and each rank explain it, they do not gate. Nothing without a second side. With
    // several variants, `variant` names the candidate (their means one Holm family).
    void addRanks(const RankTable &ranks, const QString &variant = {});
    // Every kernel (or op) row's verdict, GPU time per run; the per-call verdict does not gate.
    void addKernelDiff(const KernelDiff &diff, const QString &variant = {});
    // The scopes' verdict rows (pooled, or the run pair of a 1 v 1 comparison), judged as the table
    // judges them; a verdict without a run-level test (one run a side) counts as caveated.
    void addScopeComparison(const std::vector<ComparisonRow> &rows, double alpha, double threshold);
    // A and B (a candidate and the baseline) read the very same files: nothing is compared, so not
    // judged, whatever their verdicts say (a CI job whose two paths name one artifact would pass always).
    void addSameRuns(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &variant = {});

    GateMode mode() const { return m_mode; }
    bool strict() const { return m_strict; }
    // Some row trips the gate (the CLI exits 3), or one it was asked to judge could not be (exits 1).
    bool failed() const { return !m_tripped.empty() || !m_unjudged.empty(); }
    // The rows that fail the gate, in the order added.
    const std::vector<GateRow> &tripped() const { return m_tripped; }
    // Rows with the verdict that do not fail it because they carry a caveat (none when strict).
    const std::vector<GateRow> &waived() const { return m_waived; }
    // Rows it could not judge, their reason as the caveat: the step where a side has none of its steps
    // or too few runs (or processes) to test, a scope on neither side (a mistyped --step or --scope) or
    // on one side only (B without scope names). A gate with nothing to judge would pass whatever B did.
    const std::vector<GateRow> &unjudged() const { return m_unjudged; }
    // Kernels of one side only (new, gone or renamed) whose time per run changed significantly in
    // the direction the mode names: said, never counted, even with --strict. Which kernels a process
    // runs varies (XLA's autotuner picks GEMMs per process), so A/A splits across processes call them
    // past alpha; their time is in the step row.
    const std::vector<GateRow> &oneSideOnly() const { return m_oneSideOnly; }
    // "--fail-on slower --strict"; empty when off.
    QString optionText() const;
    // One line: "failed, 2 rows B slower", "failed, 1 row not judged", "passed", "passed; 1 row B slower
    // with a caveat, not counted (--strict counts them)"; empty when off.
    QString summary() const;

private:
    void add(GateRow row);

    GateMode m_mode;
    bool m_strict;
    std::vector<GateRow> m_tripped, m_waived, m_unjudged, m_oneSideOnly;
};

} // namespace scopeline
