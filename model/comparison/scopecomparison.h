// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Compares scope durations between side A (baseline) and side B (candidate): one row per scope per
// run pair, plus pooled rows when a side holds several runs, with rank tests, effect sizes and
// Holm-adjusted p-values (the scopes compared together form one family per run pair). The pooled row
// also carries the run-level test (the run is the unit of replication), which gives its verdict.

#include "model/analysis/scopeindex.h"
#include "model/tables/tablecolumn.h"
#include "model/comparison/verdict.h"

#include "stats/descriptive.h"
#include "stats/effectsize.h"
#include "stats/ranktests.h"
#include "stats/runlevel.h"

#include <QString>
#include <QStringList>

#include <limits>
#include <memory>
#include <vector>

namespace scopeline {

struct ComparisonRow
{
    QString scope;
    QString run; // "1", "2", ... for run pairs, "all" for pooled runs
    stats::Descriptive a, b;
    stats::RankSum rankSum{};
    stats::MannWhitney mannWhitney{};
    // Hodges–Lehmann estimate of B − A. Its interval is the Mann–Whitney test's at the level the row's
    // p is judged (Holm's step-down level in its run pair's family; judgeTogether), at confidence
    // shiftConfidence; NaN where the samples are too few for one. Durations tied across the sides count
    // as half at a shift of 0 only, so the test may reject 0 at an end of the interval: that end is then
    // open (shiftOpenAtZero). Where they disagree otherwise, it is not shown (NaN, shiftHidden).
    stats::ShiftEstimate shift{};
    double shiftConfidence = std::numeric_limits<double>::quiet_NaN();
    bool shiftOpenAtZero = false, shiftHidden = false;
    // The samples tested, shared by the row's copies, until the row's last judgement (judgeTogether).
    std::shared_ptr<const std::vector<double>> samplesA, samplesB;
    double relativeChange = 0;    // (median B - median A) / median A
    double cliffsDelta = 0;
    double rankSumHolm = 0, mannWhitneyHolm = 0;

    // Runs of each side that have samples of this scope: 0 or 1 on a run-pair row.
    std::size_t runsA = 0, runsB = 0;
    // Pooled rows only (empty elsewhere): each run's median, in run order, NaN for a run without samples.
    std::vector<double> runMediansA, runMediansB;
    // Pooled rows only: the run-level test on the run medians (every figure NaN elsewhere, and when a
    // side has fewer than 2 runs with samples), and its p Holm-adjusted over the pooled rows compared
    // together; its interval at the row's Holm step-down level (ScopeComparison::setAlpha).
    stats::RunLevelTest runLevel{};
    double timerStep = 1; // how closely a tie of run medians is known (pooled rows)
    double runLevelHolm = std::numeric_limits<double>::quiet_NaN();
    // Pooled rows with a run-level test: what it could not measure (Replication::caveat).
    QString caveat;
    // Pooled rows on both sides without one: why ("one process on a side: process-to-process variation
    // not measured"). No verdict then: the calls of several runs pooled would test the runs' luck.
    QString untested;
    // A and B read the very same files (Replication::sameRuns): nothing tested, no interval.
    bool sameRuns = false;
    // The side whose kernels carry no scope names at all (ScopeComparison::unnamedSide): a scope
    // "only in" the other side then says nothing of this one, and the verdict text says so.
    int unnamedSide = -1;
    // Verdict rows per kernel: the scope runs another number of kernels a run on each side
    // (ScopeComparison::kernelMixNote), said beside a verdict that found a change.
    QString kernelMix;

    bool comparable() const { return a.n > 0 && b.n > 0; }
    bool isPooled() const { return run == QLatin1String("all"); }
    // The verdict row of its scope: the pooled row, or the run pair's row of a 1 v 1 comparison.
    bool verdictRow = false;
    // A run pair's row beside its scope's pooled row: its per-sample test says how these two runs
    // differ (their conditions included), not whether B is faster, so it is never shown as a finding.
    bool withinRunPair() const { return !verdictRow && !isPooled(); }
    // Whether run-to-run variation was measured: ≥ 2 runs with samples on both sides of a pooled row.
    // Then the verdict comes from the run-level test; otherwise from the per-sample test.
    bool hasRunLevel() const { return runLevel.valid(); }
    // With the run-level test: Holm-adjusted run-level p < alpha and a run-level change (ratio of
    // geometric means of the run medians − 1) of at least `threshold`. Without it, a run pair's row:
    // Holm-adjusted Mann-Whitney p < alpha and a relative change of medians of at least `threshold`;
    // a pooled row: no significant change (`untested` says why). A significant but smaller change is
    // "no meaningful change", not a win.
    Verdict verdict(double alpha = 0.05, double threshold = 0.01) const;
    // verdictText(verdict()), and on a verdict row, when a per-sample test found a change (faster,
    // slower, no meaningful change): "B faster (1 run: run-to-run variation not measured)". Run-pair
    // rows beside a pooled row say that their change is of this run pair: "B slower in this run pair".
    // A run pair's samples too few for its test to reach alpha say so: "too few samples to test (3 v 3)".
    QString verdictText(double alpha = 0.05, double threshold = 0.01) const;
    // The verdict as the tables colour and stress it: a run pair's row beside its pooled row, and a
    // change per kernel of two mixes of kernels (kernelMix: the medians of different kernels moved,
    // which the scope's time may not have), are no finding (NoSignificantChange).
    Verdict shownVerdict(double alpha = 0.05, double threshold = 0.01) const;
    // The Hodges–Lehmann shift's interval as the tables show it, "[−97 ns, 0)"; empty when there is none.
    QString shiftIntervalText() const;
};

class Replication;

class ScopeComparison
{
public:
    ScopeComparison(std::vector<const ScopeIndex *> sideA, std::vector<const ScopeIndex *> sideB);
    // The runs' processes (one entry per index, in order): the pooled rows' run-level test then takes
    // the process as its unit when a side has ≥ 2 and carries the one-process caveat otherwise.
    void setReplication(const Replication *replication) { m_replication = replication; }
    // The level the pooled rows' run-level verdicts are judged at, for their intervals (default 0.05).
    void setAlpha(double alpha) { m_alpha = alpha; }
    // The rows compare() gives will be judged again with others (judgeTogether): they keep their samples.
    void setJudgedAgain(bool again) { m_judgedAgain = again; }

    std::vector<ComparisonRow> compare(const QStringList &scopes, MatchMode match, SampleMode samples) const;

    // Judges the rows of several comparisons against one baseline together (candidates): each run
    // pair's scopes of all sets one Holm family, the pooled rows of all sets another, each pooled
    // interval at its row's level (replications[i]: set i's units). One set is a pair's judgement. The
    // last judgement lets the rows' samples go.
    static void judgeTogether(const std::vector<std::vector<ComparisonRow> *> &sets,
                              const std::vector<const Replication *> &replications, double alpha,
                              bool last = true);

    // The side (0: A, 1: B) whose kernels carry no scope names, only steps, while the other's do:
    // JAX command buffers (CUDA graphs) and compiled code that drops record_function leave none.
    // -1 when neither or both.
    int unnamedSide() const;
    // What that means and how to record scopes; empty when no side is unnamed.
    QString unnamedSideNote() const;
    // Where neither side has a scope, not even a step: why, and where to look instead; empty otherwise.
    QString noScopesNote() const;
    // Why kernels per run that differ by more than 1 % make a per-kernel comparison two mixes of
    // kernels; empty when they do not.
    static QString kernelMixNote(double perRunA, double perRunB);

    // The table's columns, in CSV order; the verdict column is judged with alpha and threshold.
    static std::vector<TableColumn<ComparisonRow>> columns(double alpha = 0.05, double threshold = 0.01);
    // The CSV keys of what the window's table and the HTML report show, in their order: a column
    // of the list is shown by adding its key here. ComparisonTableModel finds its columns by these keys.
    static QStringList tableKeys();
    static std::vector<TableColumn<ComparisonRow>> tableColumns(double alpha = 0.05, double threshold = 0.01);
    // What `scopeline-cli compare` prints.
    static std::vector<TableColumn<ComparisonRow>> cliColumns(double alpha = 0.05, double threshold = 0.01);
    // Every row, header first: all the columns.
    static QString toCsv(const std::vector<ComparisonRow> &rows, double alpha = 0.05,
                         double threshold = 0.01);

private:
    std::vector<const ScopeIndex *> m_a, m_b;
    const Replication *m_replication = nullptr;
    double m_alpha = 0.05;
    bool m_judgedAgain = false;
};

} // namespace scopeline
