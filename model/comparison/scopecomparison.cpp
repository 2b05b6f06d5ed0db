// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/scopecomparison.h"

#include "model/tables/durationformat.h"
#include "model/comparison/replication.h"
#include "model/tables/tableformat.h"

#include "model/comparison/verdict.h"

#include "stats/multipletesting.h"
#include "stats/welch.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace scopeline {

namespace {

ComparisonRow makeRow(const QString &scope, const QString &run, const std::vector<double> &a,
                      const std::vector<double> &b)
{
    ComparisonRow row;
    row.scope = scope;
    row.run = run;
    row.runsA = a.empty() ? 0 : 1;
    row.runsB = b.empty() ? 0 : 1;
    row.a = stats::describe(a);
    row.b = stats::describe(b);
    const double nan = std::nan("");
    if (!row.comparable()) {
        row.rankSum = {nan, nan};
        row.mannWhitney = {nan, nan, false, nan};
        row.shift = {nan, nan, nan};
        row.relativeChange = row.cliffsDelta = row.rankSumHolm = row.mannWhitneyHolm = nan;
        return row;
    }
    row.rankSum = stats::rankSum(a, b);
    row.mannWhitney = stats::mannWhitneyU(a, b);
    row.shift = stats::hodgesLehmann(a, b, 0); // its interval once the row's level is known
    row.samplesA = std::make_shared<const std::vector<double>>(a);
    row.samplesB = std::make_shared<const std::vector<double>>(b);
    row.relativeChange = stats::relativeMedianChange(a, b);
    row.cliffsDelta = stats::cliffsDelta(a, b);
    return row;
}

// The run-level test of a pooled row at this confidence. The units: processes when the runs'
// processes are known and a side has ≥ 2, else the runs.
stats::RunLevelTest pooledRunLevel(const ComparisonRow &row, const Replication *replication,
                                   double confidence)
{
    return stats::runLevelTest(replication ? replication->unitValues(0, row.runMediansA) : row.runMediansA,
                               replication ? replication->unitValues(1, row.runMediansB) : row.runMediansB,
                               confidence, row.timerStep);
}

// The pooled row: every sample of every run, plus the run-level test on the run medians. `tick` is the
// timer's, from the runs' kernel durations: samples that all took one time would give that time as their
// own, and a sum of rounded durations (an instance's) fits no tick.
ComparisonRow makePooledRow(const QString &scope, const std::vector<std::vector<double>> &a,
                            const std::vector<std::vector<double>> &b, const Replication *replication,
                            int64_t tick)
{
    auto concatenated = [](const std::vector<std::vector<double>> &runs) {
        std::vector<double> all;
        for (const std::vector<double> &samples : runs)
            all.insert(all.end(), samples.begin(), samples.end());
        return all;
    };
    auto medians = [](const std::vector<std::vector<double>> &runs) {
        std::vector<double> out;
        for (const std::vector<double> &samples : runs)
            out.push_back(stats::median(samples)); // NaN without samples: that run does not count
        return out;
    };
    const std::vector<double> all = concatenated(a), allB = concatenated(b);
    ComparisonRow row = makeRow(scope, QStringLiteral("all"), all, allB);
    row.runMediansA = medians(a);
    row.runMediansB = medians(b);
    // the runs' tick; without kernels, the samples' own
    row.timerStep = double(std::max<int64_t>(tick > 0 ? tick : stats::durationTick(all, allB), 1));
    row.runLevel = pooledRunLevel(row, replication, 0.95);
    if (replication && row.runLevel.valid())
        row.caveat = replication->caveat();
    else if (!row.runLevel.valid() && row.comparable())
        row.untested = QCoreApplication::translate(
            "ScopeComparison", replication && replication->byProcess()
                                   ? "one process on a side: process-to-process variation not measured"
                                   : "one run on a side: run-to-run variation not measured");
    return row;
}

// A side against its very files: the row keeps its figures but none of its tests.
void forgetTests(ComparisonRow &row)
{
    const double nan = std::nan("");
    row.sameRuns = true;
    row.rankSum.p = row.mannWhitney.p = nan;
    row.shift.ciLow = row.shift.ciHigh = nan;
    row.runLevel = {};
    row.caveat.clear();
    row.untested.clear();
}

// The samples of each run of a side, a multi-GPU run's rank files pooled: its ranks are one run.
std::vector<std::vector<double>> runSamples(const std::vector<std::vector<double>> &entries,
                                            const Replication *replication, int side)
{
    if (!replication)
        return entries;
    std::vector<std::vector<double>> runs(std::size_t(replication->runs(side)));
    for (std::size_t e = 0; e < entries.size(); ++e) {
        std::vector<double> &run = runs[std::size_t(replication->runOf(side, int(e)))];
        run.insert(run.end(), entries[e].begin(), entries[e].end());
    }
    return runs;
}

std::size_t runsWithSamples(const std::vector<std::vector<double>> &runs)
{
    return std::size_t(std::count_if(runs.begin(), runs.end(), [](const auto &run) { return !run.empty(); }));
}

} // namespace

Verdict ComparisonRow::verdict(double alpha, double threshold) const
{
    if (!comparable())
        return a.n == 0 && b.n == 0 ? Verdict::NotFound : a.n == 0 ? Verdict::OnlyInB : Verdict::OnlyInA;
    // The run is the unit of replication: when runs were repeated, their spread is the noise, and the
    // rule is the one the kernel diff uses. Otherwise the per-sample test of the seed's analysis.
    if (hasRunLevel())
        return runLevelVerdict(runLevelHolm, runLevel.change, alpha, threshold);
    if (isPooled())
        return Verdict::NoSignificantChange;
    if (!(mannWhitneyHolm < alpha))
        return Verdict::NoSignificantChange;
    if (std::fabs(relativeChange) < threshold)
        return Verdict::NoMeaningfulChange;
    return relativeChange < 0 ? Verdict::Faster : Verdict::Slower;
}

QString ComparisonRow::verdictText(double alpha, double threshold) const
{
    const Verdict v = verdict(alpha, threshold);
    if ((v == Verdict::OnlyInA || v == Verdict::OnlyInB) && unnamedSide >= 0)
        return QCoreApplication::translate("ScopeComparison", "no scope names in %1")
            .arg(unnamedSide == 0 ? QStringLiteral("A") : QStringLiteral("B"));
    if (sameRuns && comparable())
        return QCoreApplication::translate("ScopeComparison",
                                           "the same runs on both sides: nothing is compared");
    if (!untested.isEmpty())
        return untested;
    // "no significant change" beside a change of +400 % reads as a finding of none; the test had no power
    if (v == Verdict::NoSignificantChange && !hasRunLevel() && !isPooled() && mannWhitney.minP >= alpha)
        return QCoreApplication::translate("ScopeComparison", "too few samples to test (%1 v %2)")
            .arg(a.n)
            .arg(b.n);
    const QString text = scopeline::verdictText(v);
    const bool found = v == Verdict::Faster || v == Verdict::Slower || v == Verdict::NoMeaningfulChange;
    if (!found)
        return text;
    if (withinRunPair())
        return QCoreApplication::translate("ScopeComparison", "%1 in this run pair").arg(text);
    QString said = text;
    // A per-sample finding: samples of one run share its conditions, so it may be that run's luck.
    if (!hasRunLevel() && verdictRow)
        said = std::min(runsA, runsB) < 2
                   ? QCoreApplication::translate("ScopeComparison",
                                                 "%1 (1 run: run-to-run variation not measured)")
                         .arg(text)
                   : QCoreApplication::translate("ScopeComparison", "%1 (run-to-run variation not measured)")
                         .arg(text);
    if (kernelMix.isEmpty())
        return said;
    // said first where it turns a change around: the cell may show only the text's start
    if (v != Verdict::NoMeaningfulChange)
        said = QCoreApplication::translate("ScopeComparison", "kernel mixes differ: %1").arg(said);
    return said + QStringLiteral("; ") + kernelMix;
}

Verdict ComparisonRow::shownVerdict(double alpha, double threshold) const
{
    const Verdict v = verdict(alpha, threshold);
    const bool change = v == Verdict::Faster || v == Verdict::Slower;
    return withinRunPair() || (change && !kernelMix.isEmpty()) ? Verdict::NoSignificantChange : v;
}

ScopeComparison::ScopeComparison(std::vector<const ScopeIndex *> sideA, std::vector<const ScopeIndex *> sideB)
    : m_a(std::move(sideA)), m_b(std::move(sideB))
{}

int ScopeComparison::unnamedSide() const
{
    // Called on every compare(): the cheap test, not scopes(), which counts every name's kernels.
    const auto named = [](const std::vector<const ScopeIndex *> &side) {
        return std::any_of(side.begin(), side.end(),
                           [](const ScopeIndex *index) { return index && index->hasNamedScope(); });
    };
    const auto hasKernels = [](const std::vector<const ScopeIndex *> &side) {
        return std::any_of(side.begin(), side.end(),
                           [](const ScopeIndex *index) { return index && index->kernelCount() > 0; });
    };
    if (!hasKernels(m_a) || !hasKernels(m_b))
        return -1; // a side without kernels has no names to miss
    const bool a = named(m_a), b = named(m_b);
    return a == b ? -1 : a ? 1 : 0;
}

QString ScopeComparison::unnamedSideNote() const
{
    const int side = unnamedSide();
    if (side < 0)
        return {};
    const QString unnamed = side == 0 ? QStringLiteral("A") : QStringLiteral("B"),
                  named = side == 0 ? QStringLiteral("B") : QStringLiteral("A");
    return QCoreApplication::translate(
               "ScopeComparison",
               "%1's kernels carry no scope names but their steps', so a scope of %2 cannot be found in %1. "
               "Scope names come from annotations around the launches (PyTorch record_function, NVTX or "
               "roctx ranges) and from JAX's op names: kernels recorded without their launch calls "
               "(rocprofv3 without --hip-trace, nsys without --trace=cuda) have none; JAX command buffers "
               "run kernels inside CUDA graphs without them (record %1 with "
               "XLA_FLAGS=--xla_gpu_enable_command_buffer=); compiled code can drop record_function. What "
               "changed compares the step, or the whole run, without them.")
        .arg(unnamed, named);
}

QString ScopeComparison::noScopesNote() const
{
    const auto scoped = [](const std::vector<const ScopeIndex *> &side) {
        return std::any_of(side.begin(), side.end(),
                           [](const ScopeIndex *index) { return index && !index->scopes().empty(); });
    };
    const auto hasKernels = [](const std::vector<const ScopeIndex *> &side) {
        return std::any_of(side.begin(), side.end(),
                           [](const ScopeIndex *index) { return index && index->kernelCount() > 0; });
    };
    if ((!hasKernels(m_a) && !hasKernels(m_b)) || scoped(m_a) || scoped(m_b))
        return {};
    return QCoreApplication::translate(
        "ScopeComparison",
        "No scopes in A or B: their kernels carry no names of steps or scopes, which come from annotations "
        "around the launches (PyTorch record_function, NVTX or roctx ranges) and from JAX's op names. What "
        "changed compares the whole runs and their kernels.");
}

QString ScopeComparison::kernelMixNote(double perRunA, double perRunB)
{
    if (!(std::fabs(perRunA - perRunB) > 0.01 * std::max(perRunA, perRunB)))
        return {};
    return QCoreApplication::translate(
               "ScopeComparison", "%1 kernels a run in A, %2 in B: per kernel, two mixes of kernels, whose "
                                  "medians may move either way whatever the scope's time does (per "
                                  "instance compares its time)")
        .arg(perRunA, 0, 'g', 4)
        .arg(perRunB, 0, 'g', 4);
}

std::vector<ComparisonRow> ScopeComparison::compare(const QStringList &scopes, MatchMode match,
                                                    SampleMode samples) const
{
    std::vector<ComparisonRow> rows;
    // The timer's tick, from every kernel of every run: what any time measured is known to.
    int64_t tick = 0;
    for (const std::vector<const ScopeIndex *> *side : {&m_a, &m_b})
        for (const ScopeIndex *run : *side)
            tick = std::gcd(tick, run->durationTick());
    if (tick < stats::RoundedTick::kMinRoundedTick) { // durations rounded to ns after the timer's tick?
        stats::RoundedTick rounded;
        for (const std::vector<const ScopeIndex *> *side : {&m_a, &m_b})
            for (const ScopeIndex *run : *side)
                for (int64_t d : run->durations())
                    rounded.add(d);
        tick = std::max(tick, rounded.tick());
    }
    for (const QString &scope : scopes) {
        const ScopeMatcher matcher(scope, match);
        auto perRun = [&](const std::vector<const ScopeIndex *> &side) {
            std::vector<std::vector<double>> out;
            for (const ScopeIndex *run : side)
                out.push_back(run->samples(matcher, samples));
            return out;
        };
        // Per rank file, as the run-level test averages a run's ranks; the run pairs pool them.
        const std::vector<std::vector<double>> a = perRun(m_a), b = perRun(m_b);
        const std::vector<std::vector<double>> runsA = runSamples(a, m_replication, 0),
                                               runsB = runSamples(b, m_replication, 1);
        const bool pool = runsA.size() > 1 || runsB.size() > 1;
        for (std::size_t i = 0; i < std::min(runsA.size(), runsB.size()); ++i) {
            rows.push_back(makeRow(scope, QString::number(i + 1), runsA[i], runsB[i]));
            rows.back().verdictRow = !pool;
        }
        if (pool) {
            rows.push_back(makePooledRow(scope, a, b, m_replication, tick));
            rows.back().runsA = runsWithSamples(runsA);
            rows.back().runsB = runsWithSamples(runsB);
            rows.back().verdictRow = true;
        }
        if (samples == SampleMode::Kernel && !rows.empty() && rows.back().comparable())
            rows.back().kernelMix = kernelMixNote(double(rows.back().a.n) / double(runsA.size()),
                                                  double(rows.back().b.n) / double(runsB.size()));
        // a regex that is not one matches its own text only: say why it found nothing
        if (!matcher.isValid())
            for (ComparisonRow &row : rows)
                if (row.scope == scope && row.a.n == 0 && row.b.n == 0)
                    row.untested =
                        QCoreApplication::translate("ScopeComparison", "invalid regular expression: %1")
                            .arg(matcher.errorString());
    }

    const int unnamed = unnamedSide();
    const bool same = m_replication && m_replication->sameRuns();
    for (ComparisonRow &row : rows) {
        row.unnamedSide = unnamed;
        if (same && row.comparable()) // an interval here would read as a measured lack of change
            forgetTests(row);
    }
    judgeTogether({&rows}, {m_replication}, m_alpha, !m_judgedAgain);
    return rows;
}

void ScopeComparison::judgeTogether(const std::vector<std::vector<ComparisonRow> *> &sets,
                                    const std::vector<const Replication *> &replications, double alpha,
                                    bool last)
{
    // Holm within each run pair: the scopes tested together (of every set: candidates) are one family.
    std::map<QString, std::vector<ComparisonRow *>> families;
    for (std::vector<ComparisonRow> *rows : sets)
        for (ComparisonRow &row : *rows)
            families[row.run].push_back(&row);
    for (const auto &family : families) {
        std::vector<double> rankSumP, mannWhitneyP;
        for (const ComparisonRow *row : family.second) {
            rankSumP.push_back(row->rankSum.p);
            mannWhitneyP.push_back(row->mannWhitney.p);
        }
        const std::vector<double> rankSumAdjusted = stats::holmAdjust(rankSumP);
        const std::vector<double> mannWhitneyAdjusted = stats::holmAdjust(mannWhitneyP),
                                  levels = stats::holmLevels(mannWhitneyP, alpha);
        for (std::size_t i = 0; i < family.second.size(); ++i) {
            ComparisonRow &row = *family.second[i];
            row.rankSumHolm = rankSumAdjusted[i];
            row.mannWhitneyHolm = mannWhitneyAdjusted[i];
            if (std::isnan(levels[i]) || !row.samplesA || !row.samplesB)
                continue;
            // The shift's interval at the level the row's Mann–Whitney p is judged. [0, 0] with 0 rejected
            // is no interval: the test keeps no shift at all.
            const stats::ShiftEstimate atLevel =
                stats::hodgesLehmann(*row.samplesA, *row.samplesB, levels[i]);
            const bool rejected = row.mannWhitney.p < levels[i];
            row.shiftOpenAtZero = rejected && (atLevel.ciLow == 0) != (atLevel.ciHigh == 0);
            const bool agrees = row.shiftOpenAtZero ||
                                intervalAgrees(row.mannWhitney.p, levels[i], atLevel.ciLow, atLevel.ciHigh);
            row.shift.ciLow = agrees ? atLevel.ciLow : std::nan("");
            row.shift.ciHigh = agrees ? atLevel.ciHigh : std::nan("");
            row.shiftHidden = !agrees && !std::isnan(atLevel.ciLow);
            row.shiftConfidence = 1 - levels[i];
        }
    }
    // The run-level tests of the pooled rows are one family too (NaN, not counted, where invalid).
    std::vector<std::pair<ComparisonRow *, const Replication *>> pooledRows;
    std::vector<double> runLevelP;
    for (std::size_t set = 0; set < sets.size(); ++set)
        for (ComparisonRow &row : *sets[set])
            if (row.isPooled()) {
                pooledRows.push_back({&row, set < replications.size() ? replications[set] : nullptr});
                runLevelP.push_back(row.runLevel.p);
            }
    const std::vector<double> runLevelAdjusted = stats::holmAdjust(runLevelP),
                              levels = stats::holmLevels(runLevelP, alpha);
    for (std::size_t i = 0; i < pooledRows.size(); ++i) {
        ComparisonRow &row = *pooledRows[i].first;
        row.runLevelHolm = runLevelAdjusted[i];
        if (std::isnan(levels[i]))
            continue;
        // The interval at the level the verdict is judged.
        setIntervalAtLevel(row.runLevel, levels[i], pooledRunLevel(row, pooledRows[i].second, 1 - levels[i]));
    }
    if (last) // what a window keeps of a scope of millions of kernels: not its samples twice over
        for (std::vector<ComparisonRow> *rows : sets)
            for (ComparisonRow &row : *rows)
                row.samplesA.reset(), row.samplesB.reset();
}

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ScopeComparison", text);
}

} // namespace

std::vector<TableColumn<ComparisonRow>> ScopeComparison::columns(double alpha, double threshold)
{
    using C = TableColumn<ComparisonRow>;
    using Row = ComparisonRow;
    auto number = [](auto get) { return [get](const Row &r) { return QVariant(double(get(r))); }; };
    auto integer = [](auto get) { return [get](const Row &r) { return QVariant(qlonglong(get(r))); }; };
    const QString samples = tr("Number of samples (kernels or instances, after the sample mode)");
    const QString median = tr("Median duration (linear interpolation, as numpy)");
    const QString iqr = tr("Interquartile range q3 − q1: the height of the box");
    std::vector<C> columns{
        C{QStringLiteral("scope"),
          tr("Scope"),
          tr("The scope (or pattern) compared"),
          [](const Row &r) { return QVariant(r.scope); },
          cell::text,
          {},
          -16},
        C{QStringLiteral("run"),
          tr("Run"),
          tr("The run pair (1, 2, …: the n-th run of A against the n-th run of B) or “all”, every run of "
             "each side pooled"),
          [](const Row &r) { return QVariant(r.run); },
          cell::text,
          {},
          -4},
        C{QStringLiteral("n_a"),
          tr("n A"),
          samples,
          integer([](const Row &r) { return r.a.n; }),
          cell::text,
          {},
          6},
        C{QStringLiteral("n_b"),
          tr("n B"),
          samples,
          integer([](const Row &r) { return r.b.n; }),
          cell::text,
          {},
          6},
        C{QStringLiteral("mean_a_ns"), tr("Mean A"), tr("Mean duration"),
          number([](const Row &r) { return r.a.mean; }), cell::duration},
        C{QStringLiteral("mean_b_ns"), tr("Mean B"), tr("Mean duration"),
          number([](const Row &r) { return r.b.mean; }), cell::duration},
        C{QStringLiteral("std_a_ns"), tr("Std A"), tr("Sample standard deviation (n − 1)"),
          number([](const Row &r) { return r.a.std; }), cell::duration},
        C{QStringLiteral("std_b_ns"), tr("Std B"), tr("Sample standard deviation (n − 1)"),
          number([](const Row &r) { return r.b.std; }), cell::duration},
        C{QStringLiteral("median_a_ns"),
          tr("Median A"),
          median,
          number([](const Row &r) { return r.a.median; }),
          cell::duration,
          {},
          11},
        C{QStringLiteral("median_b_ns"),
          tr("Median B"),
          median,
          number([](const Row &r) { return r.b.median; }),
          cell::duration,
          {},
          11},
        C{QStringLiteral("ranksum_z"), tr("Rank-sum z"),
          tr("Wilcoxon rank-sum statistic (scipy.stats.ranksums): positive when A ranks higher (B faster), "
             "as scipy's sign"),
          number([](const Row &r) { return r.rankSum.z; }),
          [](const QVariant &z) { return QString::number(z.toDouble(), 'f', 2); }},
        C{QStringLiteral("ranksum_p"), tr("Rank-sum p"),
          tr("Two-sided p-value of the Wilcoxon rank-sum test"),
          number([](const Row &r) { return r.rankSum.p; }), cell::pValue},
        C{QStringLiteral("mwu_u"), tr("MWU U"), tr("Mann–Whitney U of A (U₁ = R₁ − n₁(n₁+1)/2)"),
          number([](const Row &r) { return r.mannWhitney.u; }), cell::count},
        C{QStringLiteral("mwu_p"), tr("MWU p"),
          tr("Two-sided Mann–Whitney p-value (tie-corrected, continuity correction)"),
          number([](const Row &r) { return r.mannWhitney.p; }), cell::pValue},
        C{QStringLiteral("hl_shift_ns"),
          tr("HL shift"),
          tr("Hodges–Lehmann shift of B vs A: the median of all pairwise differences B − A"),
          number([](const Row &r) { return r.shift.shift; }),
          cell::signedDuration,
          {},
          11},
        C{QStringLiteral("hl_ci_low_ns"), tr("HL CI"),
          tr("Interval of the Hodges–Lehmann shift: the shifts the Mann–Whitney test keeps at the level its "
             "p is judged (Holm's step-down level over the scopes of the run pair: HL CI level), so it "
             "excludes 0 exactly when the Holm-adjusted p is below α. Durations tied across the sides "
             "count as half at a shift of 0 only: where the test rejects 0 at an end of the interval, that "
             "end is open, “[−97 ns, 0)” (the CSV has the end, 0); empty where they disagree otherwise"),
          number([](const Row &r) { return r.shift.ciLow; }), cell::signedDuration,
          [](const Row &r) { return r.shiftIntervalText(); }},
        C{QStringLiteral("hl_ci_high_ns"), tr("HL CI high"),
          tr("High end of the interval of the Hodges–Lehmann shift"),
          number([](const Row &r) { return r.shift.ciHigh; }), cell::signedDuration},
        C{QStringLiteral("hl_ci_level"), tr("HL CI level"),
          tr("The shift interval's confidence: 1 − Holm's step-down level of the row's Mann–Whitney p among "
             "the scopes of its run pair (α / (m − k + 1) for the k-th smallest p of m)"),
          number([](const Row &r) { return r.shiftConfidence; }), cell::percent},
        C{QStringLiteral("hl_ci_open"), tr("HL CI open end"),
          tr("The end of the shift's interval that is open, “low” or “high” (at 0, which the test rejects: "
             "“[−97 ns, 0)” is high); empty when both are closed"),
          [](const Row &r) {
              if (!r.shiftOpenAtZero || std::isnan(r.shift.ciLow))
                  return QVariant(QString());
              return QVariant(r.shift.ciLow == 0 ? QStringLiteral("low") : QStringLiteral("high"));
          },
          cell::text},
        C{QStringLiteral("rel_change_median"), tr("Relative change"),
          tr("(median B − median A) / median A: negative when B is faster"),
          number([](const Row &r) { return r.relativeChange; }), cell::change},
        C{QStringLiteral("cliffs_delta"), tr("Cliff's δ"),
          tr("Cliff's delta P(B > A) − P(B < A) over all pairs, from −1 (B always faster) to +1 (B always "
             "slower)"),
          number([](const Row &r) { return r.cliffsDelta; }),
          [](const QVariant &d) { return QString::asprintf("%+.3f", d.toDouble()); }},
        C{QStringLiteral("ranksum_p_holm"), tr("Rank-sum p (Holm)"),
          tr("Rank-sum p adjusted with Holm's method over the scopes compared together in this run pair"),
          number([](const Row &r) { return r.rankSumHolm; }), cell::pValue},
        C{QStringLiteral("mwu_p_holm"), tr("MWU p (Holm)"),
          tr("Mann–Whitney p adjusted with Holm's method over the scopes compared together in this run "
             "pair; the verdict uses it"),
          number([](const Row &r) { return r.mannWhitneyHolm; }), cell::pValue},
        C{QStringLiteral("iqr_a_ns"), tr("IQR A"), iqr, number([](const Row &r) { return r.a.iqr; }),
          cell::duration},
        C{QStringLiteral("iqr_b_ns"), tr("IQR B"), iqr, number([](const Row &r) { return r.b.iqr; }),
          cell::duration},
        // Run-level columns (issue 12): empty except on the pooled row; run_level_p is Holm-adjusted
        // over the pooled rows, run_level_p_raw before adjustment; change and CI as fractions.
        C{QStringLiteral("runs_a"), tr("Runs A"), tr("Runs of A with samples of the scope"),
          integer([](const Row &r) { return r.runsA; }), cell::text},
        C{QStringLiteral("runs_b"), tr("Runs B"), tr("Runs of B with samples of the scope"),
          integer([](const Row &r) { return r.runsB; }), cell::text},
        C{QStringLiteral("run_level_p"), tr("Run-level p"),
          tr("Welch's t on the log per-run medians, Holm-adjusted over the scopes compared together"),
          number([](const Row &r) { return r.runLevelHolm; }), cell::pValue},
        C{QStringLiteral("run_level_change"), tr("Run-level change"),
          tr("“all” rows with ≥ 2 runs a side: ratio of the geometric means of the per-run medians, B/A − 1, "
             "with its interval at the level the verdict is judged (Holm's step-down level over the scopes: "
             "Run-level CI level), so it excludes 0 exactly when the change is significant. The run is the "
             "unit: this is what the verdict of the row judges"),
          number([](const Row &r) { return r.runLevel.change; }), cell::change,
          [](const Row &r) {
              return r.hasRunLevel() ? formatChangeInterval(r.runLevel.change, r.runLevel.ciLow, r.runLevel.ciHigh)
                                     : QString();
          }},
        C{QStringLiteral("run_level_ci_low"), tr("Run-level CI low"),
          tr("Low end of the interval of the run-level change"),
          number([](const Row &r) { return r.runLevel.ciLow; }), cell::change},
        C{QStringLiteral("run_level_ci_high"), tr("Run-level CI high"),
          tr("High end of the interval of the run-level change"),
          number([](const Row &r) { return r.runLevel.ciHigh; }), cell::change},
        C{QStringLiteral("run_level_ci_level"), tr("Run-level CI level"),
          tr("The interval's confidence: 1 − Holm's step-down level of the row among the pooled rows "
             "(α / (m − k + 1) for the k-th smallest p of m)"),
          number([](const Row &r) { return r.runLevel.confidence; }), cell::percent},
        C{QStringLiteral("verdict"),
          tr("Verdict"),
          tr("B faster / B slower: Holm-adjusted p < %1 and a change of at least the threshold (%2 %); a "
             "smaller significant change reads as “no meaningful change”. On “all” rows with ≥ 2 runs a side "
             "the test is the run-level one (the change of the run medians), on the other rows the "
             "per-sample Mann–Whitney test (the change of the medians), which “too few samples to test” "
             "says cannot reach p < %1 with so few samples (3 v 3: p ≥ 0.1), however large the change.")
              .arg(alpha)
              .arg(100 * threshold, 0, 'g', 3),
          [alpha, threshold](const Row &r) { return QVariant(r.verdictText(alpha, threshold)); },
          cell::text,
          {},
          -1},
        C{QStringLiteral("run_level_p_raw"), tr("Run-level p (unadjusted)"),
          tr("Welch's t on the log per-run medians, before Holm"),
          number([](const Row &r) { return r.runLevel.p; }), cell::pValue},
        C{QStringLiteral("run_level_rank_p"), tr("Run-level rank p"),
          tr("Mann–Whitney p on the per-run medians"), number([](const Row &r) { return r.runLevel.rankP; }),
          cell::pValue},
        C{QStringLiteral("caveat"), tr("Caveat"), tr("What the run-level test could not measure"),
          [](const Row &r) { return QVariant(r.caveat); }, cell::text},
    };
    // A pooled row is judged by its run-level test, or not at all: the per-sample tests of calls pooled
    // across runs (which share each run's conditions: anti-conservative) are not beside its verdict,
    // in the CSV and JSON neither (a significant interval there beside "no significant change").
    for (C &column : columns)
        if (QStringList{QStringLiteral("ranksum_p"), QStringLiteral("mwu_p"), QStringLiteral("mwu_p_holm"),
                        QStringLiteral("ranksum_p_holm"), QStringLiteral("hl_ci_low_ns"),
                        QStringLiteral("hl_ci_high_ns"), QStringLiteral("hl_ci_level"),
                        QStringLiteral("hl_ci_open")}
                .contains(column.csvKey)) {
            column.value = [value = column.value](const Row &r) {
                return r.isPooled() ? QVariant(std::numeric_limits<double>::quiet_NaN()) : value(r);
            };
            if (column.text)
                column.text = [text = column.text](const Row &r) {
                    return r.isPooled() ? QString() : text(r);
                };
            column.tooltip += tr(" (run pairs only: an “all” row is judged by its run-level test)");
        }
    return columns;
}

QString ComparisonRow::shiftIntervalText() const
{
    if (std::isnan(shift.ciLow) || std::isnan(shift.ciHigh))
        return {};
    const bool openLow = shiftOpenAtZero && shift.ciLow == 0, openHigh = shiftOpenAtZero && shift.ciHigh == 0;
    return QStringLiteral("%1%2, %3%4")
        .arg(openLow ? QLatin1Char('(') : QLatin1Char('['))
        .arg(formatSignedDuration(shift.ciLow), formatSignedDuration(shift.ciHigh))
        .arg(openHigh ? QLatin1Char(')') : QLatin1Char(']'));
}

QStringList ScopeComparison::tableKeys()
{
    return QStringLiteral(
               "scope run n_a n_b mean_a_ns mean_b_ns std_a_ns std_b_ns median_a_ns median_b_ns iqr_a_ns "
               "iqr_b_ns ranksum_z ranksum_p mwu_u mwu_p mwu_p_holm hl_shift_ns hl_ci_low_ns hl_ci_level "
               "rel_change_median cliffs_delta run_level_change run_level_ci_level run_level_p verdict")
        .split(QLatin1Char(' '));
}

std::vector<TableColumn<ComparisonRow>> ScopeComparison::tableColumns(double alpha, double threshold)
{
    return selectColumns(columns(alpha, threshold), tableKeys());
}

std::vector<TableColumn<ComparisonRow>> ScopeComparison::cliColumns(double alpha, double threshold)
{
    return selectColumns(
        columns(alpha, threshold),
        {QStringLiteral("scope"), QStringLiteral("run"), QStringLiteral("n_a"), QStringLiteral("n_b"),
         QStringLiteral("median_a_ns"), QStringLiteral("median_b_ns"), QStringLiteral("rel_change_median"),
         QStringLiteral("hl_shift_ns"), QStringLiteral("hl_ci_low_ns"), QStringLiteral("mwu_p_holm"),
         QStringLiteral("cliffs_delta"), QStringLiteral("run_level_change"),
         QStringLiteral("run_level_ci_level"), QStringLiteral("run_level_p"), QStringLiteral("verdict")});
}

QString ScopeComparison::toCsv(const std::vector<ComparisonRow> &rows, double alpha, double threshold)
{
    return tableCsv(columns(alpha, threshold), rows);
}

} // namespace scopeline
