// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/stepbreakdown.h"

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
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <string>

namespace scopeline {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("StepBreakdown", text);
}

// Whether an annotation is an instance of the step scope: `scope` itself or `scope#<digits>`.
// Whether `name` is the step scope or an instance of it numbered `scope#N`; sets *number to N (-1 when
// unnumbered or past 18 digits).
bool isStepName(std::string_view name, const std::string &scope, int64_t *number)
{
    *number = -1;
    if (name.size() < scope.size() || name.substr(0, scope.size()) != scope)
        return false;
    const std::string_view rest = name.substr(scope.size());
    if (rest.empty())
        return true;
    if (rest.size() < 2 || rest[0] != '#')
        return false;
    if (!std::all_of(rest.begin() + 1, rest.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    if (rest.size() <= 19) {
        *number = 0;
        for (char c : rest.substr(1))
            *number = *number * 10 + (c - '0');
    }
    return true;
}

// A step's CPU range, the process it belongs to and its number.
struct StepRange
{
    int64_t start, end;
    uint32_t process; // index of the track's pid
    int64_t number;   // N of `scope#N`, -1 when none
};

// Length of the union of the kernels at these positions (by start) that `keep` accepts.
template <typename Keep>
int64_t unionLength(const std::vector<RunSummary::Kernel> &kernels, const std::vector<uint32_t> &positions,
                    Keep keep)
{
    int64_t total = 0, from = 0, reach = std::numeric_limits<int64_t>::min();
    for (uint32_t p : positions) {
        const RunSummary::Kernel &k = kernels[p];
        if (!keep(k))
            continue;
        if (k.start > reach) {
            total += reach > from ? reach - from : 0;
            from = k.start;
        }
        reach = std::max(reach, k.end());
    }
    return total + (reach > from ? reach - from : 0);
}

// The step's parts and gaps from its kernels (positions in summary.kernels(), by start).
void measureStep(const RunSummary &summary, const std::vector<uint32_t> &positions, StepInstance &step,
                 std::vector<StepGap> *gaps)
{
    const std::vector<RunSummary::Kernel> &kernels = summary.kernels();
    const int64_t first = kernels[positions.front()].start;
    int64_t reach = kernels[positions.front()].end(), runStart = first, busy = 0;
    StepParts &parts = step.parts;
    for (uint32_t p : positions) {
        const RunSummary::Kernel &k = kernels[p];
        if (k.start > reach) {
            // The kernel that ends the gap tells its cause: was it launched only after the GPU ran dry?
            const GapCause cause = k.launch == RunSummary::Launch::None ? GapCause::Unknown
                                   : k.launchStart >= reach             ? GapCause::LaunchLate
                                                                        : GapCause::GpuWaiting;
            if (gaps)
                gaps->push_back(StepGap{reach, k.start, cause});
            parts[std::size_t(stepPartOf(cause))] += k.start - reach;
            busy += reach - runStart;
            runStart = k.start;
        }
        reach = std::max(reach, k.end());
        step.commKernels += k.communication();
    }
    busy += reach - runStart;
    step.kernels = int64_t(positions.size());
    parts[std::size_t(StepPart::Step)] = reach - first;
    parts[std::size_t(StepPart::Busy)] = busy;
    parts[std::size_t(StepPart::Idle)] = reach - first - busy;
    const int64_t compute =
        step.commKernels == 0
            ? busy
            : unionLength(kernels, positions, [](const RunSummary::Kernel &k) { return !k.communication(); });
    parts[std::size_t(StepPart::Compute)] = compute;
    parts[std::size_t(StepPart::ExposedComm)] = busy - compute;
    if (step.commKernels > 0)
        step.overlappedComm =
            unionLength(kernels, positions, [](const RunSummary::Kernel &k) { return k.communication(); }) -
            (busy - compute);
}

// The outermost instances of the scope on the CPU tracks, by start.
std::vector<StepRange> findStepRanges(const RunSummary &summary, const QString &stepScope)
{
    const std::string scope = stepScope.toStdString();
    std::vector<StepRange> ranges;
    const std::vector<RunSummary::Range> &all = summary.ranges(); // by track, by start within one
    int64_t outerEnd = std::numeric_limits<int64_t>::min(); // of the last instance on this track
    for (std::size_t i = 0; i < all.size(); ++i) {
        const RunSummary::Range &r = all[i];
        if (i > 0 && all[i - 1].track != r.track)
            outerEnd = std::numeric_limits<int64_t>::min();
        int64_t number = -1;
        if (!isStepName(summary.strings().view(r.name), scope, &number))
            continue;
        if (r.start < outerEnd && r.end <= outerEnd)
            continue; // nested in the previous instance
        ranges.push_back(StepRange{r.start, r.end, r.process, number});
        outerEnd = r.end;
    }
    std::sort(ranges.begin(), ranges.end(),
              [](const StepRange &a, const StepRange &b) { return a.start < b.start; });
    return ranges;
}

// Per step range, the kernel positions whose launch call starts inside it on the step's process.
std::vector<std::vector<uint32_t>> assignKernels(const RunSummary &summary, const std::vector<StepRange> &ranges)
{
    // Per process, its ranges by start and the latest end among them so far (to stop a search early).
    struct ProcessRanges
    {
        std::vector<uint32_t> ranges;
        std::vector<int64_t> reach;
    };
    std::map<uint32_t, ProcessRanges> byProcess;
    for (uint32_t i = 0; i < ranges.size(); ++i) {
        ProcessRanges &p = byProcess[ranges[i].process];
        p.ranges.push_back(i);
        p.reach.push_back(std::max(p.reach.empty() ? ranges[i].end : p.reach.back(), ranges[i].end));
    }
    std::vector<std::vector<uint32_t>> kernels(ranges.size());
    for (uint32_t k = 0; k < summary.kernels().size(); ++k) {
        const RunSummary::Kernel &kernel = summary.kernels()[k];
        const auto found = kernel.launch == RunSummary::Launch::None ? byProcess.end()
                                                                      : byProcess.find(kernel.launchProcess);
        if (found == byProcess.end())
            continue;
        const ProcessRanges &p = found->second;
        const int64_t ts = kernel.launchStart;
        // The latest-starting range that holds ts: ranges of one process overlap only across threads.
        auto it = std::upper_bound(p.ranges.begin(), p.ranges.end(), ts,
                                   [&ranges](int64_t value, uint32_t i) { return value < ranges[i].start; });
        for (auto i = std::size_t(it - p.ranges.begin()); i-- > 0 && p.reach[i] > ts;)
            if (ranges[p.ranges[i]].end > ts) {
                kernels[p.ranges[i]].push_back(k);
                break;
            }
    }
    return kernels;
}

} // namespace

QString stepPartKey(StepPart part)
{
    static const char *const keys[kStepParts] = {
        "step", "busy", "busy:compute", "busy:exposed_communication",
        "idle", "idle:launch_late", "idle:gpu_waiting", "idle:unknown"};
    return QString::fromLatin1(keys[std::size_t(part)]);
}

QString stepPartTitle(StepPart part)
{
    switch (part) {
    case StepPart::Step:
        return tr("Step time");
    case StepPart::Busy:
        return tr("GPU busy");
    case StepPart::Compute:
        return tr("Busy: compute");
    case StepPart::ExposedComm:
        return tr("Busy: exposed communication");
    case StepPart::Idle:
        return tr("GPU idle");
    case StepPart::LaunchLate:
        return tr("Idle: CPU launched late");
    case StepPart::GpuWaiting:
        return tr("Idle: GPU waiting");
    case StepPart::Unknown:
        break;
    }
    return tr("Idle: unknown");
}

StepPart stepPartOf(GapCause cause)
{
    switch (cause) {
    case GapCause::LaunchLate:
        return StepPart::LaunchLate;
    case GapCause::GpuWaiting:
        return StepPart::GpuWaiting;
    case GapCause::Unknown:
        break;
    }
    return StepPart::Unknown;
}

QString stepScopeFor(const QString &asked, const std::vector<QList<LoadedRun>> &sides)
{
    if (asked == StepBreakdownOptions::wholeRun())
        return {};
    if (!asked.isEmpty())
        return asked;
    QString detected;
    for (const QList<LoadedRun> &side : sides)
        for (const LoadedRun &run : side)
            if (detected.isEmpty() && run.scopes)
                detected = run.scopes->stepScope();
    if (detected.isEmpty())
        return {};
    // every side that tells (its runs' scopes loaded) has it in some run
    const std::string name = detected.toStdString();
    for (const QList<LoadedRun> &side : sides) {
        bool told = false, has = false;
        for (const LoadedRun &run : side)
            if (run.scopes) {
                told = true;
                has = has || run.scopes->hasName(name);
            }
        if (told && !has)
            return {};
    }
    return detected;
}

QString variantsStepScope(const QString &asked, const QList<LoadedRun> &baseline,
                          const std::vector<QList<LoadedRun>> &candidates)
{
    std::vector<QList<LoadedRun>> sides{baseline};
    sides.insert(sides.end(), candidates.begin(), candidates.end());
    const QString scope = stepScopeFor(asked, sides);
    return scope.isEmpty() ? StepBreakdownOptions::wholeRun() : scope;
}

QString stepScopeFor(const QString &asked, const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    return stepScopeFor(asked, std::vector<QList<LoadedRun>>{a, b});
}

RunSteps findRunSteps(const TraceAnalysis &analysis, const QString &stepScope, std::vector<StepGap> *gaps)
{
    return findRunSteps(RunSummary(analysis, std::make_shared<const ScopeIndex>(analysis)), stepScope, nullptr, gaps);
}

RunSteps findRunSteps(const RunSummary &summary, const QString &stepScope, std::vector<int32_t> *stepOfKernel,
                      std::vector<StepGap> *gaps)
{
    if (gaps)
        gaps->clear();
    if (stepOfKernel)
        stepOfKernel->assign(summary.kernels().size(), -1);
    RunSteps out;
    std::vector<StepRange> ranges;
    std::vector<std::vector<uint32_t>> kernels;
    if (stepScope.isEmpty()) {
        if (summary.kernels().empty())
            return out;
        kernels.emplace_back(summary.kernels().size());
        std::iota(kernels[0].begin(), kernels[0].end(), 0u);
        const int64_t start = summary.kernels().front().start;
        int64_t end = start;
        for (const RunSummary::Kernel &k : summary.kernels())
            end = std::max(end, k.end());
        ranges.push_back(StepRange{start, end, 0, -1});
    } else {
        ranges = findStepRanges(summary, stepScope);
        kernels = assignKernels(summary, ranges);
    }
    std::array<double, kStepParts> sums{};
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        if (kernels[i].empty())
            continue;
        StepInstance step;
        step.start = ranges[i].start;
        step.end = ranges[i].end;
        step.number = ranges[i].number;
        measureStep(summary, kernels[i], step, gaps);
        if (stepOfKernel)
            for (uint32_t k : kernels[i])
                (*stepOfKernel)[k] = int32_t(out.steps.size());
        for (int part = 0; part < kStepParts; ++part)
            sums[std::size_t(part)] += double(step.parts[std::size_t(part)]);
        out.steps.push_back(step);
    }
    if (!out.steps.empty())
        for (int part = 0; part < kStepParts; ++part)
            out.mean[std::size_t(part)] = sums[std::size_t(part)] / double(out.steps.size());
    if (!stepScope.isEmpty() && !out.steps.empty()) {
        // while a step ran: from its range's start to the later of its end and its last kernel's end
        std::vector<std::pair<int64_t, int64_t>> during;
        for (std::size_t i = 0; i < ranges.size(); ++i)
            if (!kernels[i].empty()) {
                int64_t end = ranges[i].end;
                for (uint32_t k : kernels[i])
                    end = std::max(end, summary.kernels()[k].end());
                during.emplace_back(ranges[i].start, end);
            }
        std::sort(during.begin(), during.end());
        std::vector<int64_t> reach(during.size()); // the latest end so far: ranges may overlap
        for (std::size_t i = 0; i < during.size(); ++i)
            reach[i] = std::max(during[i].second, i ? reach[i - 1] : during[i].second);
        for (const RunSummary::Kernel &k : summary.kernels()) {
            if (k.launch != RunSummary::Launch::None)
                continue;
            const auto after =
                std::upper_bound(during.begin(), during.end(), std::make_pair(k.start, INT64_MAX));
            if (after != during.begin() && reach[std::size_t(after - during.begin()) - 1] > k.start) {
                ++out.unlaunchedKernels;
                out.unlaunchedNs += k.duration;
            }
        }
    }
    if (gaps)
        std::sort(gaps->begin(), gaps->end(), [](const StepGap &a, const StepGap &b) { return a.start < b.start; });

    return out;
}

double RunSteps::period() const
{
    if (steps.size() < 2)
        return kUnset;
    return double(steps.back().start - steps.front().start) / double(steps.size() - 1);
}

bool RunSteps::hasCommunication() const
{
    return std::any_of(steps.begin(), steps.end(), [](const StepInstance &s) { return s.commKernels > 0; });
}

QString StepBreakdown::longStepsNote(int side) const
{
    constexpr double kFarLonger = 5; // times the median step of its side
    struct Step
    {
        double ns;
        const RunSteps *run;
        const StepInstance *instance;
        std::pair<QString, int64_t> key; // one step of a run, whichever of its ranks: by number, else place
    };
    std::vector<Step> steps;
    for (const RunSteps &r : side == 0 ? m_runsA : m_runsB) {
        if (!m_comparedRanks.counts(r.origin.rank)) // a rank A and B do not both hold, which no figure counts
            continue;
        for (std::size_t i = 0; i < r.steps.size(); ++i)
            steps.push_back({double(r.steps[i].parts[std::size_t(StepPart::Step)]),
                             &r,
                             &r.steps[i],
                             {r.origin.rankedRun.isEmpty() ? r.run : r.origin.rankedRun,
                              r.steps[i].number >= 0 ? r.steps[i].number : int64_t(i)}});
    }
    if (m_stepScope.isEmpty() || steps.size() < 5) // a run's one step, or too few to tell the usual one
        return {};
    std::vector<double> all;
    for (const Step &step : steps)
        all.push_back(step.ns);
    const double median = stats::median(all);
    const Step &longest = *std::max_element(steps.begin(), steps.end(),
                                            [](const Step &x, const Step &y) { return x.ns < y.ns; });
    if (!(median > 0) || longest.ns <= kFarLonger * median)
        return {};
    std::set<std::pair<QString, int64_t>> over;
    for (const Step &step : steps)
        if (step.ns > kFarLonger * median)
            over.insert(step.key);
    const QString step = longest.instance->number >= 0
                             ? QStringLiteral("%1#%2").arg(m_stepScope).arg(longest.instance->number)
                             : tr("a step of %1").arg(m_stepScope);
    const QString which = tr("%1's %2, %3, %4× the median step (%5)")
                              .arg(longest.run->run, step, formatDuration(longest.ns))
                              .arg(longest.ns / median, 0, 'f', 1)
                              .arg(formatDuration(median));
    const QString name = side == 0 ? QStringLiteral("A") : QStringLiteral("B");
    return over.size() == 1
               ? tr("%1: one step far longer than the others, %2: a stall or a warm-up the mean per step "
                    "counts in full")
                     .arg(name, which)
               : tr("%1: %2 steps over %3× the median step, the longest %4: stalls or warm-ups the mean "
                    "per step counts in full")
                     .arg(name)
                     .arg(qsizetype(over.size()))
                     .arg(kFarLonger)
                     .arg(which);
}

QString StepBreakdown::note() const
{
    // Per step, as every figure beside it is: the runs (or ranks) it touched, and the most GPU time a step
    // of one of them lost.
    QStringList lines;
    for (int side = 0; side < 2; ++side) {
        const std::vector<RunSteps> &runs = side == 0 ? m_runsA : m_runsB;
        int touched = 0;
        double perStep = 0;
        bool ranks = false;
        for (const RunSteps &run : runs) {
            ranks = ranks || !run.origin.rankedRun.isEmpty();
            if (run.unlaunchedKernels > 0 && !run.steps.empty()) {
                ++touched;
                perStep = std::max(perStep, double(run.unlaunchedNs) / double(run.steps.size()));
            }
        }
        if (touched > 0)
            lines << tr("%1: kernels without a launch call in the trace ran while steps did and count in no "
                        "step, in %2 of %3 %4 (a mean of up to %5 of GPU time a step): the profiler lost "
                        "their calls")
                         .arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"))
                         .arg(touched)
                         .arg(runs.size())
                         .arg(ranks ? tr("rank files") : tr("runs"))
                         .arg(formatDuration(perStep));
    }
    for (int side = 0; side < 2; ++side)
        if (const QString longSteps = longStepsNote(side); !longSteps.isEmpty())
            lines << longSteps;
    if (const QString ranks = m_comparedRanks.note(); !ranks.isEmpty())
        lines << ranks;
    return lines.join(QLatin1Char('\n'));
}

QString StepRow::verdictText() const
{
    if (!reason.isEmpty())
        return reason;
    if (tied) // timer ticks: say what spread was tested
        return tr("%1 (each side the same in every unit: values known to 1 ns)")
            .arg(scopeline::verdictText(verdict));
    return scopeline::verdictText(verdict);
}

stats::RatioInterval StepRow::ratio() const
{
    stats::RatioInterval r =
        stats::fiellerInterval(stats::meanVariance(unitMeansA), stats::meanVariance(unitMeansB), ciLevel);
    if (r.bounded())
        r.low = std::max(r.low, 0.0);
    // A about 0 with a gap below 0 and above it: of ratios ≥ 0 the set is one ray, [gapHigh, inf)
    // ("≥ ×74"), which says as much as the verdict beside it; "unbounded" read as holding 1.
    else if (r.gapLow < 0 && r.gapHigh > 0) {
        r.low = r.gapHigh;
        r.high = std::numeric_limits<double>::infinity();
    }
    return r;
}

bool StepRow::ratioIntervalShown() const
{
    return !std::isnan(ciLevel);
}

QString StepRow::changeIntervalText() const
{
    if (!ratioIntervalShown())
        return {};
    const stats::RatioInterval r = ratio();
    if (!r.bounded())
        return tr("[unbounded]");
    const double low = r.low - 1, high = r.high - 1;
    if (std::isinf(high))
        return QStringLiteral("[≥ %1]").arg(formatChange(low, intervalDecimals(low, low, 1)));
    return formatChangeBounds(low, high);
}

StepBreakdown::StepBreakdown(const QList<LoadedRun> &a, const QList<LoadedRun> &b,
                             const StepBreakdownOptions &options)
    : m_stepScope(stepScopeFor(options.stepScope, a, b)), m_options(options),
      m_sameRuns(scopeline::sameRuns(a, b))
{
    auto stepsOf = [this](const QList<LoadedRun> &side, std::vector<RunSteps> &out) {
        for (const LoadedRun &run : side)
            if (run.summary)
                out.push_back(runStepsOf(run, m_stepScope));
    };
    runBeside([&] { stepsOf(a, m_runsA); }, [&] { stepsOf(b, m_runsB); }); // a side on each core
    compare();
}

RunSteps runStepsOf(const LoadedRun &run, const QString &stepScope)
{
    RunSteps steps = findRunSteps(*run.summary, stepScope);
    steps.run = run.run.label();
    steps.origin = Replication::originOf(run);
    return steps;
}

StepBreakdown::StepBreakdown(std::vector<RunSteps> a, std::vector<RunSteps> b, const QString &stepScope,
                             const StepBreakdownOptions &options)
    : m_stepScope(stepScope), m_options(options), m_runsA(std::move(a)), m_runsB(std::move(b))
{
    compare();
}

void StepBreakdown::compare()
{
    std::vector<RunOrigin> origins[2];
    for (int side = 0; side < 2; ++side)
        for (const RunSteps &run : side == 0 ? m_runsA : m_runsB)
            origins[side].push_back(run.origin);
    const Replication replication(origins[0], origins[1]);
    m_byProcess = replication.byProcess();
    m_comparedRanks = ComparedRanks::of(origins[0], origins[1]);
    // the value of an entry as compared: NaN for a rank outside the ranks compared, as for a run without
    // steps
    const auto compared = [this](const RunSteps &run, double value) {
        return m_comparedRanks.counts(run.origin.rank) ? value : RunSteps::kUnset;
    };

    const auto communicates = [](const RunSteps &run) { return run.hasCommunication(); };
    const bool communication = m_communication = std::any_of(m_runsA.begin(), m_runsA.end(), communicates) ||
                                                 std::any_of(m_runsB.begin(), m_runsB.end(), communicates);
    // a side's values per unit (its runs', or its processes' means of them), units without one left out
    const auto unitMeans = [&replication](int side, const std::vector<double> &perRun) {
        std::vector<double> units;
        for (double v : replication.unitValues(side, perRun))
            if (!std::isnan(v))
                units.push_back(v);
        return units;
    };
    m_rows.assign(kStepParts, StepRow{});
    for (std::size_t part = 0; part < std::size_t(kStepParts); ++part) {
        StepRow &row = m_rows[part];
        row.part = StepPart(part);
        for (int side = 0; side < 2; ++side) {
            std::vector<double> perRun; // NaN for a run without steps: its unit goes on without it
            int &withSteps = side == 0 ? row.runsA : row.runsB;
            int64_t &steps = side == 0 ? row.stepsA : row.stepsB;
            // a multi-GPU run counts once, with the steps of its ranks (each rank takes every step)
            std::map<QString, int64_t> stepsOfRun;
            const std::vector<RunSteps> &runs = side == 0 ? m_runsA : m_runsB;
            for (std::size_t r = 0; r < runs.size(); ++r) {
                perRun.push_back(compared(runs[r], runs[r].mean[part]));
                int64_t &n = stepsOfRun[runs[r].origin.rankedRun.isEmpty() ? QString::number(r)
                                                                           : runs[r].origin.rankedRun];
                n = std::max(n, int64_t(runs[r].steps.size()));
            }
            for (const auto &[run, n] : stepsOfRun) {
                withSteps += n > 0;
                steps += n;
            }
            (side == 0 ? row.unitMeansA : row.unitMeansB) = unitMeans(side, perRun);
        }
        row.unitsA = int(row.unitMeansA.size());
        row.unitsB = int(row.unitMeansB.size());
        row.processesA = replication.processes(0);
        row.processesB = replication.processes(1);
        const stats::MeanVariance a = stats::meanVariance(row.unitMeansA),
                                  b = stats::meanVariance(row.unitMeansB);
        row.meanA = a.mean;
        row.meanB = b.mean;
        const stats::WelchTest welch = stats::welchTest(a, b);
        row.delta = welch.delta;
        row.pRaw = welch.p;
        row.ciLow = welch.ciLow;
        row.ciHigh = welch.ciHigh;
        row.tied = welch.tied;
        if (row.unitsA == 0 || row.unitsB == 0)
            row.reason = tr("no step of %1 with kernels in %2")
                             .arg(m_stepScope.isEmpty() ? tr("the whole run") : m_stepScope,
                                  row.unitsA == 0 && row.unitsB == 0 ? tr("A or B")
                                  : row.unitsA == 0                  ? QStringLiteral("A")
                                                                     : QStringLiteral("B"));
        else if (row.unitsA < 2 || row.unitsB < 2) {
            row.reason = m_byProcess ? tr("one process on a side: process-to-process variation not measured")
                                     : tr("one run on a side: run-to-run variation not measured");
            row.caveat = m_comparedRanks.all ? replication.rankCaveat() : QString();
        } else
            row.caveat = replication.caveat(!m_comparedRanks.all);
        // Without communication, compute is all of busy: nothing of its own to test (and no row
        // added to the parts' Holm family, so one-GPU tables judge as they did). A side against its very
        // files has nothing to test either: an interval there would read as a measured lack of change.
        const bool noCommunication =
            (row.part == StepPart::Compute || row.part == StepPart::ExposedComm) && !communication;
        if (noCommunication || m_sameRuns) {
            if (row.reason.isEmpty())
                row.reason = noCommunication ? tr("no communication kernels: compute is all of GPU busy")
                                             : tr("the same runs on both sides: nothing is compared");
            row.caveat.clear();
            row.pRaw = row.ciLow = row.ciHigh = StepRow::kUnset;
            row.tied = false;
        }
    }
    m_period = StepRow{};
    for (int side = 0; side < 2; ++side) {
        std::vector<double> perRun;
        for (const RunSteps &run : side == 0 ? m_runsA : m_runsB)
            perRun.push_back(compared(run, run.period()));
        (side == 0 ? m_period.unitMeansA : m_period.unitMeansB) = unitMeans(side, perRun);
    }
    m_period.unitsA = int(m_period.unitMeansA.size());
    m_period.unitsB = int(m_period.unitMeansB.size());
    m_period.meanA = stats::meanVariance(m_period.unitMeansA).mean;
    m_period.meanB = stats::meanVariance(m_period.unitMeansB).mean;
    m_period.delta = m_period.meanB - m_period.meanA;
    if (m_period.unitsA >= 2 && m_period.unitsB >= 2 && !m_sameRuns)
        m_period.ciLevel = 1 - m_options.alpha;
    judgeTogether({this});
}

void StepBreakdown::judgeTogether(const std::vector<StepBreakdown *> &comparisons)
{
    // The step time is the question asked: tested alone at alpha (its rows of all candidates one Holm
    // family). Its parts (busy, idle and the causes, of all candidates) are another; each interval is
    // at the level its row is judged.
    std::vector<double> stepP, partsP;
    for (const StepBreakdown *comparison : comparisons)
        for (const StepRow &row : comparison->m_rows)
            (row.part == StepPart::Step ? stepP : partsP).push_back(row.pRaw);
    const double alpha = comparisons.empty() ? 0.05 : comparisons.front()->m_options.alpha;
    const std::vector<double> stepHolm = stats::holmAdjust(stepP), stepLevels = stats::holmLevels(stepP, alpha),
                              partsHolm = stats::holmAdjust(partsP),
                              partsLevels = stats::holmLevels(partsP, alpha);
    std::size_t nextStep = 0, nextPart = 0;
    for (StepBreakdown *comparison : comparisons) {
        const double stepA = comparison->row(StepPart::Step).meanA, stepDelta = comparison->row(StepPart::Step).delta;
        for (StepRow &row : comparison->m_rows) {
            const bool step = row.part == StepPart::Step;
            const std::size_t i = step ? nextStep++ : nextPart++;
            row.p = (step ? stepHolm : partsHolm)[i];
            const double level = (step ? stepLevels : partsLevels)[i];
            if (!std::isnan(level)) {
                const Interval interval =
                    welchIntervalAtLevel(row.unitMeansA, row.unitMeansB, row.pRaw, level);
                row.ciLow = interval.low;
                row.ciHigh = interval.high;
                row.ciLevel = 1 - level;
            }
            // a step change too small to count: the parts' shares of it are noise over noise
            const bool counts =
                stepDelta != 0 && std::fabs(stepDelta) >= comparison->m_options.threshold * stepA;
            row.shareOfDelta = counts ? row.delta / stepDelta : StepRow::kUnset;
            row.verdict = runLevelVerdict(row.p, stepA > 0 ? row.delta / stepA : StepRow::kUnset,
                                          comparison->m_options.alpha, comparison->m_options.threshold);
        }
        // the period is said beside the step, at its level (its Holm level among candidates)
        StepRow &period = comparison->m_period;
        if (const double level = comparison->row(StepPart::Step).ciLevel;
            !std::isnan(level) && !std::isnan(period.ciLevel))
            period.ciLevel = level;
    }
}

const std::vector<TableColumn<StepRow>> &StepBreakdown::columns()
{
    using C = TableColumn<StepRow>;
    auto number = [](double StepRow::*field) {
        return [field](const StepRow &r) { return QVariant(r.*field); };
    };
    auto integer = [](auto StepRow::*field) {
        return [field](const StepRow &r) { return QVariant(qlonglong(r.*field)); };
    };
    static const std::vector<C> columns = {
        C{QStringLiteral("component"), tr("Component"),
          tr("Step time, and its parts: GPU busy (compute, and communication not hidden under it), and "
             "GPU idle by cause"),
          [](const StepRow &r) { return QVariant(stepPartKey(r.part)); }, cell::text,
          [](const StepRow &r) { return stepPartTitle(r.part); }, -24},
        C{QStringLiteral("runs_a"), tr("Runs A"), tr("Runs of A with at least one step"),
          integer(&StepRow::runsA), cell::text},
        C{QStringLiteral("runs_b"), tr("Runs B"), tr("Runs of B with at least one step"),
          integer(&StepRow::runsB), cell::text},
        C{QStringLiteral("steps_a"), tr("Steps A"), tr("Steps of A over all its runs"),
          integer(&StepRow::stepsA), cell::text, {}, 7},
        C{QStringLiteral("steps_b"), tr("Steps B"), tr("Steps of B over all its runs"),
          integer(&StepRow::stepsB), cell::text, {}, 7},
        C{QStringLiteral("mean_a_ns"), tr("A per step"),
          tr("Mean per step: each run's mean over its steps, averaged over A's runs (or processes)"),
          number(&StepRow::meanA), cell::duration, {}, 10},
        C{QStringLiteral("mean_b_ns"), tr("B per step"), tr("The same for B"), number(&StepRow::meanB),
          cell::duration, {}, 10},
        C{QStringLiteral("delta_ns"), tr("Δ"), tr("B − A per step"), number(&StepRow::delta),
          cell::signedDuration, {}, 10},
        C{QStringLiteral("share_of_delta"), tr("Share"), tr("This row's Δ over the step time's Δ"),
          number(&StepRow::shareOfDelta), cell::percent, {}, 7},
        C{QStringLiteral("ci_low_ns"), tr("CI low"),
          tr("Welch–Satterthwaite confidence interval of Δ at the level its verdict is judged (CI level): "
             "low end. It excludes 0 exactly when the row is significant"),
          number(&StepRow::ciLow), cell::signedDuration, {}, 10},
        C{QStringLiteral("ci_high_ns"), tr("CI high"), tr("The same interval: high end"),
          number(&StepRow::ciHigh), cell::signedDuration, {}, 10},
        C{QStringLiteral("ci_level"), tr("CI level"),
          tr("The interval's confidence: 1 − α for the step time, tested alone; for its parts, one Holm "
             "family, Holm's step-down level (α / (m − k + 1) for the k-th smallest p of m)"),
          number(&StepRow::ciLevel), cell::percent, {}, 8},
        C{QStringLiteral("p_raw"), tr("p"), tr("Welch's t-test on the per-run (or per-process) means, two-sided"),
          number(&StepRow::pRaw), cell::pValue},
        C{QStringLiteral("p"), tr("p judged"),
          tr("The p the verdict is judged by: the step time's own p; its parts' Holm-adjusted among themselves"),
          number(&StepRow::p), cell::pValue, {}, 8},
        C{QStringLiteral("verdict"), tr("Verdict"),
          tr("B faster/slower: p judged below alpha and |Δ| at least the threshold of A's step time"),
          [](const StepRow &r) { return QVariant(r.verdictText()); }, cell::text, {}, -1},
        C{QStringLiteral("units_a"), tr("Units A"), tr("What the test counts on A: runs, or processes"),
          integer(&StepRow::unitsA), cell::text},
        C{QStringLiteral("units_b"), tr("Units B"), tr("What the test counts on B: runs, or processes"),
          integer(&StepRow::unitsB), cell::text},
        C{QStringLiteral("processes_a"), tr("Processes A"), tr("Processes A's runs came from (unknown: one)"),
          integer(&StepRow::processesA), cell::text},
        C{QStringLiteral("processes_b"), tr("Processes B"), tr("Processes B's runs came from (unknown: one)"),
          integer(&StepRow::processesB), cell::text},
        C{QStringLiteral("caveat"), tr("Caveat"), tr("What the test could not measure"),
          [](const StepRow &r) { return QVariant(r.caveat); }, cell::text},
    };
    return columns;
}

std::vector<TableColumn<StepRow>> StepBreakdown::cliColumns()
{
    return selectColumns(columns(), {QStringLiteral("component"), QStringLiteral("steps_a"),
                                     QStringLiteral("steps_b"), QStringLiteral("mean_a_ns"),
                                     QStringLiteral("mean_b_ns"), QStringLiteral("delta_ns"),
                                     QStringLiteral("share_of_delta"), QStringLiteral("ci_low_ns"),
                                     QStringLiteral("ci_high_ns"), QStringLiteral("ci_level"),
                                     QStringLiteral("p"), QStringLiteral("verdict")});
}

QString StepBreakdown::toCsv() const
{
    return tableCsv(columns(), m_rows);
}

QString StepBreakdown::periodText() const
{
    const StepRow &p = m_period;
    if (std::isnan(p.meanA) || std::isnan(p.meanB))
        return {};
    QString text = tr("a step every %1 → %2").arg(formatDuration(p.meanA), formatDuration(p.meanB));
    if (p.meanA > 0) {
        // at the step's own level (1 − alpha), said just before: short enough for one line at 1366
        text += QStringLiteral(" (%1").arg(formatChange(p.delta / p.meanA, 1));
        if (const QString interval = p.changeIntervalText(); !interval.isEmpty())
            text += QLatin1Char(' ') + interval;
        // a step span that changed while the steps came as often (the interval shown holds no change):
        // the kernels spread over more or less of each step, which alone is no change of throughput
        const Verdict step = row(StepPart::Step).verdict;
        const stats::RatioInterval r = p.ratio();
        if ((step == Verdict::Slower || step == Verdict::Faster) && p.ratioIntervalShown() &&
            (!r.bounded() || (r.low <= 1 && r.high >= 1)))
            text +=
                step == Verdict::Slower
                    ? tr(": not significant, unlike the step time: the kernels spread over more of each step")
                    : tr(": not significant, unlike the step time: the kernels packed into less of each "
                         "step");
        text += QLatin1Char(')');
    }
    return text;
}

QString StepBreakdown::stepLine() const
{
    const StepRow &s = row(StepPart::Step);
    const QString scope = m_stepScope.isEmpty() ? tr("the whole run") : m_stepScope;
    QString line = tr("step time (%1, mean per step): A %2, B %3")
                       .arg(scope, formatDuration(s.meanA), formatDuration(s.meanB));
    if (!std::isnan(s.delta) && s.meanA > 0)
        line += QStringLiteral(", %1 (%2)").arg(formatSignedDuration(s.delta), formatChange(s.delta / s.meanA, 1));
    // B / A's interval (Fieller's), as the variants give it: never below -100 %, A's spread counted
    if (const QString interval = s.changeIntervalText(); !interval.isEmpty() && s.meanA > 0)
        line += tr(", %1 CI %2").arg(formatPercent(s.ciLevel), interval);
    line += QStringLiteral(": ") + s.verdictText();
    if (const QString period = periodText(); !period.isEmpty())
        line += QStringLiteral("; ") + period;
    return s.caveat.isEmpty() ? line : line + QStringLiteral("; ") + s.caveat;
}

void StepBreakdown::judgeTogether(std::vector<StepBreakdown> &all)
{
    std::vector<StepBreakdown *> each;
    for (StepBreakdown &one : all)
        each.push_back(&one);
    judgeTogether(each);
}

} // namespace scopeline
