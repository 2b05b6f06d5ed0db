// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/kerneldiff.h"

#include "model/tables/durationformat.h"
#include "model/comparison/replication.h"
#include "model/tables/tableformat.h"
#include "model/comparison/verdict.h"
#include "model/tracedata/sparecore.h"

#include "stats/descriptive.h"
#include "stats/multipletesting.h"
#include "stats/welch.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <unordered_map>

namespace scopeline {

namespace {

// One row while the runs are read: the durations of its kernels, per side and run.
struct Accumulator
{
    std::string key; // exact name, or fold base
    std::set<std::string> names;
    std::vector<std::vector<double>> durations[2]; // [side][run]
    std::vector<int64_t> totals[2];                // [side][run], exact ns
    bool communication = false;                    // a kernel of the row is (RunSummary::Kernel)

    std::size_t calls() const // on both sides
    {
        std::size_t n = 0;
        for (const auto &side : durations)
            for (const std::vector<double> &run : side)
                n += run.size();
        return n;
    }
};

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

double meanPerRun(int64_t sum, int runs)
{
    return runs > 0 ? double(sum) / double(runs) : 0.0;
}

void finishSide(KernelDiffSide &side, std::vector<std::vector<double>> &runs,
                const std::vector<int64_t> &totals, const Replication &replication, int sideIndex)
{
    const int n = int(runs.size());
    std::set<int> withKernel; // runs, a multi-GPU run's ranks counted once
    for (int r = 0; r < n; ++r) {
        std::vector<double> &durations = runs[std::size_t(r)];
        side.runCalls.push_back(int64_t(durations.size()));
        side.runTotalNs.push_back(totals[std::size_t(r)]);
        if (!durations.empty())
            withKernel.insert(replication.runOf(sideIndex, r));
        side.calls += int64_t(durations.size());
        side.totalNs += totals[std::size_t(r)];
        side.durations.insert(side.durations.end(), durations.begin(), durations.end());
        // NaN when the run lacks the kernel; the run's own durations are not needed in order after this
        side.runMedianNs.push_back(stats::median(std::move(durations)));
    }
    side.runsWithKernel = int(withKernel.size());
    side.callsPerRun = meanPerRun(side.calls, n);
    const std::vector<double> runTotals(totals.begin(), totals.end());
    side.totalPerRunNs = replication.perRunMean(sideIndex, runTotals); // as the test weighs the runs
    side.medianNs = stats::median(side.durations);
    side.unitTotalNs = replication.unitValues(sideIndex, runTotals);
    side.unitMedianNs = replication.unitValues(sideIndex, side.runMedianNs);
    side.unitsWithKernel = int(std::count_if(side.unitMedianNs.begin(), side.unitMedianNs.end(),
                                             [](double m) { return !std::isnan(m); }));
}

// A row's figures and tests from its accumulated durations (which it takes), and its display name.
std::pair<std::string, KernelDiffRow> finishRow(Accumulator &acc, const int runs[2], const Replication &replication,
                                                const KernelDiffSummary &sum, const KernelDiffOptions &options)
{
    KernelDiffRow row;
    for (int s = 0; s < 2; ++s) {
        acc.durations[s].resize(std::size_t(runs[s]));
        acc.totals[s].resize(std::size_t(runs[s]));
    }
    finishSide(row.a, acc.durations[0], acc.totals[0], replication, 0);
    finishSide(row.b, acc.durations[1], acc.totals[1], replication, 1);
    row.processesA = sum.processesA;
    row.processesB = sum.processesB;
    row.byProcess = sum.byProcess;
    row.sameRuns = sum.sameRuns;
    std::string display = acc.key;
    if (options.foldNumbers && !options.byOp) {
        // `base_*` (or `base.*`) when any name was numbered; the separator of the first such name.
        for (const std::string &name : acc.names)
            if (name.size() > acc.key.size()) {
                display = acc.key + name[acc.key.size()] + '*';
                break;
            }
    }
    row.kernel = QString::fromStdString(display);
    for (const std::string &name : acc.names)
        row.names.append(QString::fromStdString(name));
    row.communication = acc.communication;
    row.deltaTotalNs = row.b.totalPerRunNs - row.a.totalPerRunNs;
    // A share of a change too small to count (a trace against a copy of itself, 1 ns in 10 ms) is the
    // noise of one row over that of all: millions of per cent.
    if (sum.deltaTotalNs != 0 && std::fabs(sum.deltaTotalNs) >= options.threshold * sum.kernelTimePerRunA)
        row.shareOfDelta = row.deltaTotalNs / sum.deltaTotalNs;
    if (row.a.present() && row.b.present() && row.a.medianNs > 0) // zero-length kernels exist
        row.relChangeMedian = (row.b.medianNs - row.a.medianNs) / row.a.medianNs;
    return {std::move(display), std::move(row)};
}

// A row's run-level tests; timerStep is the tick of every duration of the diff, as a row whose calls all
// took one time cannot tell its own (its divisor would be that time: an interval of −100 % to +inf).
void testRow(KernelDiffRow &row, double timerStep, const KernelDiffSummary &sum)
{
    row.timerStep = timerStep;
    row.runLevel = stats::meanChangeTest(row.a.unitTotalNs, row.b.unitTotalNs, 0.95, row.timerStep);
    row.perCall = stats::runLevelTest(row.a.unitMedianNs, row.b.unitMedianNs, 0.95, row.timerStep);
    if (row.runLevel.valid())
        row.caveat = sum.caveat;
}

} // namespace

bool KernelDiffRow::processDependent() const
{
    return byProcess && ((a.unitsWithKernel > 0 && a.unitsWithKernel < processesA) ||
                         (b.unitsWithKernel > 0 && b.unitsWithKernel < processesB));
}

bool KernelDiffRow::oneSide() const
{
    return a.present() != b.present() && !processDependent();
}

QString KernelDiffRow::verdictText() const
{
    if (verdict == Verdict::OnlyInA || verdict == Verdict::OnlyInB)
        return scopeline::verdictText(verdict);
    if (sameRuns)
        return QCoreApplication::translate("KernelDiff", "the same runs on both sides: nothing is compared");
    QString text =
        runLevelMeasured() ? scopeline::verdictText(verdict)
        : byProcess ? QCoreApplication::translate("KernelDiff", "process-to-process variation not measured")
                    : QCoreApplication::translate("KernelDiff", "run-to-run variation not measured");
    if (oneSide()) // where it ran, which the test did not find a change of time
        text +=
            QStringLiteral("; ") + scopeline::verdictText(a.present() ? Verdict::OnlyInA : Verdict::OnlyInB);
    if (processDependent())
        text += QCoreApplication::translate("KernelDiff",
                                            "; process-dependent: in %1 of %2 processes of A, %3 of %4 of B")
                    .arg(a.unitsWithKernel)
                    .arg(processesA)
                    .arg(b.unitsWithKernel)
                    .arg(processesB);
    return text;
}

QString KernelDiffRow::perCallVerdictText() const
{
    return perCall.valid() ? scopeline::verdictText(perCallVerdict) : QStringLiteral("–");
}

std::string KernelDiff::foldBase(std::string_view name)
{
    std::size_t end = name.size();
    for (;;) {
        std::size_t digits = end;
        while (digits > 0 && isDigit(name[digits - 1]))
            --digits;
        // `<base><sep><digits>` with a non-empty base: drop `<sep><digits>` and look again.
        if (digits == end || digits < 2 || (name[digits - 1] != '_' && name[digits - 1] != '.'))
            break;
        end = digits - 1;
    }
    return std::string(name.substr(0, end));
}

KernelDiff::KernelDiff(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const KernelDiffOptions &options)
    : m_options(options)
{
    const QList<LoadedRun> *sides[2] = {&a, &b};
    int runs[2] = {0, 0};
    std::vector<double> kernelTime[2], busy[2]; // per run
    std::vector<Accumulator> rows;
    std::unordered_map<std::string, std::size_t> rowOfKey_;
    std::vector<RunOrigin> origins[2];
    // Sides holding different GPUs of jobs of one size: only the ranks every run holds, as steps has them.
    const ComparedRanks compared = ComparedRanks::of(a, b);
    m_summary.comparedRanks = compared.note();

    for (int s = 0; s < 2; ++s) {
        for (const LoadedRun &run : *sides[s]) {
            if (!run.summary || !compared.counts(run.run.rank))
                continue;
            const RunSummary &summary = *run.summary;
            const int r = runs[s]++;
            origins[s].push_back(Replication::originOf(run));
            busy[s].push_back(double(summary.busyNs()));
            kernelTime[s].push_back(0);
            // Per interned name (or op) of this run, its row: hashing each distinct key once per run.
            std::vector<int64_t> rowOfName(summary.strings().size(), -1);
            std::vector<int64_t> rowOfKey(summary.strings().size(), -1);
            for (const RunSummary::Kernel &k : summary.kernels()) {
                m_summary.opsFound = m_summary.opsFound || k.op != k.name;
                const uint32_t keyId = options.byOp ? k.op : k.name;
                int64_t row = rowOfKey[keyId];
                if (row < 0) {
                    const std::string_view name = summary.strings().view(keyId);
                    std::string key = options.foldNumbers ? foldBase(name) : std::string(name);
                    auto [it, inserted] = rowOfKey_.try_emplace(key, rows.size());
                    if (inserted) {
                        rows.emplace_back();
                        rows.back().key = std::move(key);
                    }
                    row = rowOfKey[keyId] = int64_t(it->second);
                }
                if (rowOfName[k.name] != row) {
                    rowOfName[k.name] = row;
                    rows[std::size_t(row)].names.emplace(summary.nameOf(k));
                }
                Accumulator &acc = rows[std::size_t(row)];
                acc.communication = acc.communication || k.communication();
                // Runs are added on first sight of a row; earlier runs without it stay empty.
                acc.durations[s].resize(std::size_t(r) + 1);
                acc.totals[s].resize(std::size_t(r) + 1);
                acc.durations[s][std::size_t(r)].push_back(double(k.duration));
                acc.totals[s][std::size_t(r)] += k.duration;
                kernelTime[s].back() += double(k.duration);
            }
        }
    }

    const Replication replication(origins[0], origins[1]);
    KernelDiffSummary &sum = m_summary;
    sum.runsA = replication.runs(0);
    sum.runsB = replication.runs(1);
    sum.processesA = replication.processes(0);
    sum.processesB = replication.processes(1);
    sum.byProcess = replication.byProcess();
    sum.sameRuns = sameRuns(a, b);
    sum.mostRanks = replication.mostRanks();
    sum.caveat = replication.caveat();
    // Per run as the tests weigh the runs (by process, each process once), as each row's time per run.
    if (runs[0] > 0)
        sum.busyPerRunA = replication.perRunMean(0, busy[0]);
    if (runs[1] > 0)
        sum.busyPerRunB = replication.perRunMean(1, busy[1]);
    sum.kernelTimePerRunA = replication.perRunMean(0, kernelTime[0]);
    sum.kernelTimePerRunB = replication.perRunMean(1, kernelTime[1]);
    sum.deltaTotalNs = sum.kernelTimePerRunB - sum.kernelTimePerRunA;

    // Each row's figures and tests, the rows split between two cores where half the durations lie.
    std::vector<std::pair<std::string, KernelDiffRow>> built(rows.size());
    std::vector<int64_t> ticks(rows.size());
    auto finishRows = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i) {
            built[i] = finishRow(rows[i], runs, replication, sum, options);
            ticks[i] = stats::durationTick(built[i].second.a.durations, built[i].second.b.durations);
        }
    };
    std::size_t calls = 0, half = 0, middle = 0;
    for (const Accumulator &acc : rows)
        calls += acc.calls();
    while (middle < rows.size() && half < calls / 2)
        half += rows[middle++].calls();
    runBeside([&] { finishRows(0, middle); }, [&] { finishRows(middle, rows.size()); });
    int64_t tick = 0;
    for (int64_t rowTick : ticks)
        tick = std::gcd(tick, rowTick);
    if (tick < stats::RoundedTick::kMinRoundedTick) { // durations rounded to ns after the timer's tick?
        stats::RoundedTick rounded;
        for (const auto &entry : built)
            for (const std::vector<double> *durations :
                 {&entry.second.a.durations, &entry.second.b.durations})
                for (double d : *durations)
                    rounded.add(std::llround(d));
        tick = std::max(tick, rounded.tick());
    }
    for (auto &entry : built) // a side against its very files: an interval would read as a measured no change
        if (!sum.sameRuns)
            testRow(entry.second, double(std::max<int64_t>(tick, 1)), sum);
    // Largest |change of total time per run| first; ties (a trace against itself: none changed) by the
    // larger time per run, then by name (byte order, as Python sorts).
    std::sort(built.begin(), built.end(), [](const auto &x, const auto &y) {
        const double dx = std::fabs(x.second.deltaTotalNs), dy = std::fabs(y.second.deltaTotalNs);
        const double tx = std::max(x.second.a.totalPerRunNs, x.second.b.totalPerRunNs),
                     ty = std::max(y.second.a.totalPerRunNs, y.second.b.totalPerRunNs);
        return dx != dy ? dx > dy : tx != ty ? tx > ty : x.first < y.first;
    });
    m_rows.reserve(built.size());
    for (auto &entry : built)
        m_rows.push_back(std::move(entry.second));

    judgeTogether({this});
}

void KernelDiff::judgeTogether(const std::vector<KernelDiff *> &diffs)
{
    // Holm over the rows that have a p: the rows of every diff (kernels × candidates) are one family,
    // for each of the two tests.
    std::vector<double> p, perCallP;
    for (const KernelDiff *diff : diffs)
        for (const KernelDiffRow &row : diff->m_rows) {
            p.push_back(row.runLevel.p);
            perCallP.push_back(row.perCall.p);
        }
    const double alpha = diffs.empty() ? 0.05 : diffs.front()->m_options.alpha;
    const std::vector<double> holm = stats::holmAdjust(p), perCallHolm = stats::holmAdjust(perCallP);
    const std::vector<double> levels = stats::holmLevels(p, alpha), perCallLevels = stats::holmLevels(perCallP, alpha);
    std::size_t i = 0;
    for (KernelDiff *diff : diffs) {
        const KernelDiffOptions &options = diff->m_options;
        KernelDiffSummary &sum = diff->m_summary;
        sum.kernels = sum.onlyInA = sum.onlyInB = sum.processDependent = 0;
        for (KernelDiffRow &row : diff->m_rows) {
            row.runLevelHolm = holm[i];
            row.perCallHolm = perCallHolm[i];
            // Each interval at the level its verdict is judged: Holm's step-down level in its family.
            if (!std::isnan(levels[i]))
                setIntervalAtLevel(row.runLevel, levels[i],
                                   stats::meanChangeTest(row.a.unitTotalNs, row.b.unitTotalNs, 1 - levels[i],
                                                         row.timerStep));
            if (!std::isnan(perCallLevels[i]))
                setIntervalAtLevel(row.perCall, perCallLevels[i],
                                   stats::runLevelTest(row.a.unitMedianNs, row.b.unitMedianNs,
                                                       1 - perCallLevels[i], row.timerStep));
            ++i;
            row.verdict =
                runLevelVerdict(row.runLevelHolm, row.runLevel.change, options.alpha, options.threshold);
            // a kernel of one side alone is a finding as any other: where its time per run tests so
            if (row.oneSide() && isFinding(row.verdict))
                row.verdict = row.a.present() ? Verdict::OnlyInA : Verdict::OnlyInB;
            row.perCallVerdict =
                runLevelVerdict(row.perCallHolm, row.perCall.change, options.alpha, options.threshold);
            ++sum.kernels;
            // where it ran: a process-dependent kernel of one side is there alone too, though tested
            sum.onlyInA += !row.b.present();
            sum.onlyInB += !row.a.present();
            sum.processDependent += row.processDependent();
        }
    }
}

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("KernelDiff", text);
}

// A test's change with its interval ("new in B" for an infinite change); empty without a test.
QString intervalText(const stats::RunLevelTest &test)
{
    return test.valid() ? formatChangeInterval(test.change, test.ciLow, test.ciHigh) : QString();
}

} // namespace

QString KernelDiffRow::perCallText() const
{
    if (!perCall.valid())
        return perCallVerdictText(); // "–"
    return formatChangeInterval(perCall.change, perCall.ciLow, perCall.ciHigh) + QStringLiteral(", ") +
           perCallVerdictText();
}

std::vector<TableColumn<KernelDiffRow>> KernelDiff::columns(const KernelDiffOptions &options)
{
    using C = TableColumn<KernelDiffRow>;
    using Row = KernelDiffRow;
    auto number = [](auto get) { return [get](const Row &r) { return QVariant(double(get(r))); }; };
    auto integer = [](auto get) { return [get](const Row &r) { return QVariant(qlonglong(get(r))); }; };
    auto text = [](auto get) { return [get](const Row &r) { return QVariant(get(r)); }; };
    const bool names = options.foldNumbers || options.byOp;
    return {
        C{QStringLiteral("kernel"),
          options.byOp ? tr("Op") : tr("Kernel"),
          options.byOp ? tr("The op that launched the kernels: JAX's hlo_op (a command buffer's kernels by "
                            "their graph node), else the CPU op around the launch call (PyTorch's aten::…)")
                       : tr("Kernel name (with folding: the name without its trailing compiler number)"),
          text([](const Row &r) { return r.kernel; }),
          cell::text,
          {},
          -50},
        C{QStringLiteral("runs_a"), tr("Runs A"), tr("Runs of A in which the kernel occurs"),
          integer([](const Row &r) { return r.a.runsWithKernel; }), cell::text},
        C{QStringLiteral("runs_b"), tr("Runs B"), tr("Runs of B in which the kernel occurs"),
          integer([](const Row &r) { return r.b.runsWithKernel; }), cell::text},
        C{QStringLiteral("calls_a"), tr("Calls/run A"),
          tr("Calls per run of A (mean over runs; a run of several GPUs: the mean over its ranks)"),
          number([](const Row &r) { return r.a.callsPerRun; }), cell::count},
        C{QStringLiteral("calls_b"), tr("Calls/run B"),
          tr("Calls per run of B (mean over runs; a run of several GPUs: the mean over its ranks)"),
          number([](const Row &r) { return r.b.callsPerRun; }), cell::count},
        C{QStringLiteral("total_a_ns"), tr("Time/run A"),
          tr("Total duration of the kernel per run of A (mean over runs; a run of several GPUs: "
             "the mean over its ranks)"),
          number([](const Row &r) { return r.a.totalPerRunNs; }), cell::duration},
        C{QStringLiteral("total_b_ns"), tr("Time/run B"),
          tr("Total duration of the kernel per run of B (mean over runs; a run of several GPUs: "
             "the mean over its ranks)"),
          number([](const Row &r) { return r.b.totalPerRunNs; }), cell::duration},
        C{QStringLiteral("delta_total_ns"), tr("Δ time/run"),
          tr("Total GPU time per run, B − A: what this kernel adds to (or removes from) the change"),
          number([](const Row &r) { return r.deltaTotalNs; }), cell::signedDuration},
        C{QStringLiteral("share_of_delta"), tr("Share"),
          tr("Δ time/run as a share of the total change in kernel time; empty when that change is under "
             "the threshold (shares of noise), and beyond ±100 % when other kernels moved the other way"),
          number([](const Row &r) { return r.shareOfDelta; }), cell::percent},
        C{QStringLiteral("median_a_ns"), tr("Median A"),
          tr("Median duration of one call, all runs of A pooled"),
          number([](const Row &r) { return r.a.medianNs; }), cell::duration},
        C{QStringLiteral("median_b_ns"), tr("Median B"),
          tr("Median duration of one call, all runs of B pooled"),
          number([](const Row &r) { return r.b.medianNs; }), cell::duration},
        C{QStringLiteral("rel_change_median"), tr("Median change"), tr("(median B − median A) / median A"),
          number([](const Row &r) { return r.relChangeMedian; }), cell::change},
        C{QStringLiteral("run_level_p"), tr("Time/run p"),
          tr("Welch's t on the per-process (or per-run) GPU time per run, Holm-adjusted over the rows"),
          number([](const Row &r) { return r.runLevelHolm; }), cell::pValue},
        C{QStringLiteral("verdict"),
          tr("Verdict"),
          tr("Judges the kernel's GPU time per run, what Δ time/run explains: Welch on the per-process "
             "(or, with one process a side, per-run) totals, Holm over the rows. B faster/slower only "
             "when the adjusted p is below α and the change reaches the threshold"),
          text([](const Row &r) { return r.verdictText(); }),
          cell::text,
          {},
          -1},
        C{QStringLiteral("run_level_p_raw"), tr("Time/run p (unadjusted)"),
          tr("Welch's t on the per-process (or per-run) GPU time per run, before Holm"),
          number([](const Row &r) { return r.runLevel.p; }), cell::pValue},
        C{QStringLiteral("run_level_change"), tr("Time/run change"),
          tr("Change of the GPU time per run, (mean B − mean A) / mean A over the processes (or runs; one "
             "without the kernel counts 0): what the verdict judges (needs ≥ 2 a side). Its interval is at "
             "the level the verdict is judged (Holm's step-down level over the rows: Time/run CI level), "
             "so it excludes 0 exactly when the change is significant"),
          number([](const Row &r) { return r.runLevel.change; }), cell::change,
          [](const Row &r) { return intervalText(r.runLevel); }},
        C{QStringLiteral("run_level_ci_low"), tr("Time/run CI low"),
          tr("Low end of the interval of the time/run change (never below −100 %; none for a kernel gone "
             "from B)"),
          number([](const Row &r) { return r.runLevel.ciLow; }), cell::change},
        C{QStringLiteral("run_level_ci_high"), tr("Time/run CI high"),
          tr("High end of the interval of the time/run change"),
          number([](const Row &r) { return r.runLevel.ciHigh; }), cell::change},
        C{QStringLiteral("run_level_ci_level"), tr("Time/run CI level"),
          tr("The interval's confidence: 1 − Holm's step-down level of the row (α / (m − k + 1) for the "
             "k-th smallest p of m)"),
          number([](const Row &r) { return r.runLevel.confidence; }), cell::percent},
        C{QStringLiteral("run_level_mwu_p"), tr("Time/run rank p"),
          tr("Mann–Whitney p on the per-process (or per-run) totals"),
          number([](const Row &r) { return r.runLevel.rankP; }), cell::pValue},
        // The exact names behind a folded (or per-op) row; empty otherwise.
        C{QStringLiteral("folded_names"), tr("Names"), tr("The kernel names in the row, separated by ';'"),
          [names](const Row &r) { return QVariant(names ? r.names.join(QLatin1Char(';')) : QString()); },
          cell::text},
        C{QStringLiteral("per_call_change"), tr("Per call"),
          tr("The duration of one call: change of the geometric mean of the per-process (or per-run) "
             "medians with its interval at the level of its own verdict (Welch on logs, Holm over the "
             "rows: Per-call CI level)"),
          number([](const Row &r) { return r.perCall.change; }), cell::change,
          [](const Row &r) { return r.perCallText(); }},
        C{QStringLiteral("per_call_ci_low"), tr("Per-call CI low"),
          tr("Low end of the interval of the per-call change"),
          number([](const Row &r) { return r.perCall.ciLow; }), cell::change},
        C{QStringLiteral("per_call_ci_high"), tr("Per-call CI high"),
          tr("High end of the interval of the per-call change"),
          number([](const Row &r) { return r.perCall.ciHigh; }), cell::change},
        C{QStringLiteral("per_call_ci_level"), tr("Per-call CI level"),
          tr("The interval's confidence: 1 − Holm's step-down level of the row among the per-call tests"),
          number([](const Row &r) { return r.perCall.confidence; }), cell::percent},
        C{QStringLiteral("per_call_p"), tr("Per-call p"),
          tr("Welch's t on the logs of the per-process (or per-run) medians, Holm-adjusted over the rows"),
          number([](const Row &r) { return r.perCallHolm; }), cell::pValue},
        C{QStringLiteral("per_call_verdict"), tr("Per-call verdict"),
          tr("The verdict on the duration of one call"),
          // no test (a kernel on one side): an empty field, as the numbers beside it
          text([](const Row &r) { return r.perCall.valid() ? r.perCallVerdictText() : QString(); }),
          cell::text},
        C{QStringLiteral("processes_a"), tr("Processes A"), tr("Processes A's runs came from"),
          integer([](const Row &r) { return r.processesA; }), cell::text},
        C{QStringLiteral("processes_b"), tr("Processes B"), tr("Processes B's runs came from"),
          integer([](const Row &r) { return r.processesB; }), cell::text},
        C{QStringLiteral("caveat"), tr("Caveat"), tr("What the tests could not measure"),
          text([](const Row &r) { return r.caveat; }), cell::text},
        C{QStringLiteral("communication"), tr("Comm"),
          tr("1 for communication kernels (NCCL, RCCL, XLA collectives): their time is mostly waiting for "
             "other GPUs, not work"),
          integer([](const Row &r) { return r.communication; }), cell::text},
    };
}

QStringList KernelDiff::tableKeys()
{
    return QStringLiteral(
               "kernel verdict run_level_change per_call_change delta_total_ns share_of_delta total_a_ns "
               "total_b_ns calls_a calls_b median_a_ns median_b_ns rel_change_median run_level_p "
               "run_level_ci_level per_call_ci_level")
        .split(QLatin1Char(' '));
}

std::vector<TableColumn<KernelDiffRow>> KernelDiff::tableColumns(const KernelDiffOptions &options)
{
    return selectColumns(columns(options), tableKeys());
}

std::vector<TableColumn<KernelDiffRow>> KernelDiff::cliColumns(const KernelDiffOptions &options)
{
    return selectColumns(columns(options),
                         {QStringLiteral("kernel"), QStringLiteral("calls_a"), QStringLiteral("calls_b"),
                          QStringLiteral("total_a_ns"), QStringLiteral("total_b_ns"),
                          QStringLiteral("delta_total_ns"), QStringLiteral("share_of_delta"),
                          QStringLiteral("median_a_ns"), QStringLiteral("median_b_ns"),
                          QStringLiteral("per_call_change"), QStringLiteral("per_call_ci_level"),
                          QStringLiteral("run_level_change"), QStringLiteral("run_level_ci_level"),
                          QStringLiteral("run_level_p"), QStringLiteral("verdict")});
}

QString KernelDiff::toCsv() const
{
    return tableCsv(columns(m_options), m_rows);
}

QString KernelDiffSummary::perRunText() const
{
    return mostRanks > 1 ? tr(" per run (a run's mean over its GPUs)") : tr(" per run");
}

QString KernelDiff::headerText() const
{
    const KernelDiffSummary &s = m_summary;
    // " (+4.70 %)" from A to B; nothing when there is no change to give
    const auto change = [](double from, double to) {
        return from > 0 && !std::isnan(to) ? QStringLiteral(" (%1)").arg(formatChange((to - from) / from))
                                           : QString();
    };
    QStringList parts;
    parts << (s.byProcess ? tr("%1 v %2 runs in %3 v %4 processes")
                                .arg(s.runsA)
                                .arg(s.runsB)
                                .arg(s.processesA)
                                .arg(s.processesB)
                          : tr("%1 v %2 runs").arg(s.runsA).arg(s.runsB));
    if (s.mostRanks > 1) // 13.8 calls per run: a mean over GPUs, not a count
        parts << tr("figures per run: a run's mean over its GPUs");
    if (!s.comparedRanks.isEmpty())
        parts << s.comparedRanks;
    parts << tr("GPU busy/run A %1 → B %2%3")
                 .arg(formatDuration(s.busyPerRunA), formatDuration(s.busyPerRunB),
                      change(s.busyPerRunA, s.busyPerRunB));
    parts << tr("kernel time/run A %1 → B %2%3")
                 .arg(formatDuration(s.kernelTimePerRunA), formatDuration(s.kernelTimePerRunB),
                      change(s.kernelTimePerRunA, s.kernelTimePerRunB));
    const bool one = s.kernels == 1;
    // as the CLI counts them: those on both sides too
    QString rows = (m_options.byOp && !s.opsFound ? tr(one ? "%1 kernel: %2 on both sides, %3 only in A, %4 "
                                                             "only in B (no ops: no CPU op around the "
                                                             "launches)"
                                                           : "%1 kernels: %2 on both sides, %3 only in A, %4 "
                                                             "only in B (no ops: no CPU op around the "
                                                             "launches)")
                    : m_options.byOp ? tr(one ? "%1 op: %2 on both sides, %3 only in A, %4 only in B"
                                              : "%1 ops: %2 on both sides, %3 only in A, %4 only in B")
                                     : tr(one ? "%1 kernel: %2 on both sides, %3 only in A, %4 only in B"
                                              : "%1 kernels: %2 on both sides, %3 only in A, %4 only in B"))
                       .arg(s.kernels)
                       .arg(s.kernels - s.onlyInA - s.onlyInB)
                       .arg(s.onlyInA)
                       .arg(s.onlyInB);
    // across the others: a process-dependent kernel is also on both sides or on one
    if (s.processDependent > 0)
        rows += tr("; %1 of the %2 process-dependent").arg(s.processDependent).arg(s.kernels);
    parts << rows;
    QString text = parts.join(QStringLiteral(" · "));
    if (s.runsA < 2 || s.runsB < 2)
        text +=
            QLatin1Char('\n') +
            tr("One run on a side: run-to-run variation is not measured, so no kernel is called faster or "
               "slower. Record at least 3 runs of each variant (5 resolve smaller changes).");
    return text;
}

void KernelDiff::judgeTogether(std::vector<KernelDiff> &all)
{
    std::vector<KernelDiff *> each;
    for (KernelDiff &one : all)
        each.push_back(&one);
    judgeTogether(each);
}

} // namespace scopeline
