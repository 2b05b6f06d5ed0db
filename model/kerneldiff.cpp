// SPDX-License-Identifier: GPL-3.0-or-later
#include "kerneldiff.h"

#include "csvfield.h"
#include "replication.h"
#include "verdict.h"

#include "stats/descriptive.h"
#include "stats/multipletesting.h"
#include "stats/welch.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
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
};

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

double meanPerRun(int64_t sum, int runs)
{
    return runs > 0 ? double(sum) / double(runs) : 0.0;
}

// Each kernel's op, by position in analysis.kernels(): JAX's hlo_op (with its graph node inside a
// command buffer, whose kernels all carry the buffer's name), else the innermost CPU op around the
// kernel's launch call; the kernel's name when neither is there.
std::vector<std::string> kernelOps(const TraceAnalysis &analysis)
{
    const TraceData &t = analysis.trace();
    std::unordered_map<uint32_t, uint32_t> opOfLaunch; // launch event -> its innermost CPU op
    for (uint32_t track = 0; track < t.tracks.size(); ++track) {
        if (t.tracks[track].gpu)
            continue;
        std::vector<uint32_t> open;               // CPU ops holding the current event, outermost first
        for (uint32_t e : t.trackEvents[track]) { // by start, parents first
            while (!open.empty() && t.end(open.back()) <= t.start[e])
                open.pop_back();
            if ((t.kind[e] == EventKind::KernelLaunch || t.kind[e] == EventKind::GraphLaunch) &&
                !open.empty())
                opOfLaunch.emplace(e, open.back());
            else if (t.kind[e] == EventKind::Other && t.duration[e] > 0)
                open.push_back(e);
        }
    }
    std::vector<std::string> ops;
    ops.reserve(analysis.kernels().size());
    for (std::size_t p = 0; p < analysis.kernels().size(); ++p) {
        const uint32_t k = analysis.kernels()[p];
        const std::string_view hlo = t.arg(k, "hlo_op");
        if (!hlo.empty()) {
            const std::string_view node = t.arg(k, "cuda_graph_node_id");
            // the node id is the graph's id in the high 32 bits and the node's index in the low ones
            ops.push_back(node.empty()
                              ? std::string(hlo)
                              : std::string(hlo) + " node " +
                                    std::to_string(std::strtoull(std::string(node).c_str(), nullptr, 10) &
                                                   0xffffffffu));
            continue;
        }
        const int64_t launch = analysis.launchAt(p);
        const auto op = launch < 0 ? opOfLaunch.end() : opOfLaunch.find(uint32_t(launch));
        ops.emplace_back(op != opOfLaunch.end() ? t.nameOf(op->second) : t.nameOf(k));
    }
    return ops;
}

void finishSide(KernelDiffSide &side, std::vector<std::vector<double>> &runs,
                const std::vector<int64_t> &totals, const Replication &replication, int sideIndex)
{
    const int n = int(runs.size());
    for (int r = 0; r < n; ++r) {
        const std::vector<double> &durations = runs[std::size_t(r)];
        side.runCalls.push_back(int64_t(durations.size()));
        side.runTotalNs.push_back(totals[std::size_t(r)]);
        side.runMedianNs.push_back(stats::median(durations)); // NaN when the run lacks the kernel
        side.runsWithKernel += !durations.empty();
        side.calls += int64_t(durations.size());
        side.totalNs += totals[std::size_t(r)];
        side.durations.insert(side.durations.end(), durations.begin(), durations.end());
    }
    side.callsPerRun = meanPerRun(side.calls, n);
    side.totalPerRunNs = meanPerRun(side.totalNs, n);
    side.medianNs = stats::median(side.durations);
    side.unitTotalNs = replication.unitValues(sideIndex, std::vector<double>(totals.begin(), totals.end()));
    side.unitMedianNs = replication.unitValues(sideIndex, side.runMedianNs);
    side.unitsWithKernel = int(std::count_if(side.unitMedianNs.begin(), side.unitMedianNs.end(),
                                             [](double m) { return !std::isnan(m); }));
}

} // namespace

bool KernelDiffRow::processDependent() const
{
    return byProcess && ((a.unitsWithKernel > 0 && a.unitsWithKernel < processesA) ||
                         (b.unitsWithKernel > 0 && b.unitsWithKernel < processesB));
}

QString KernelDiffRow::verdictText() const
{
    if (verdict == Verdict::OnlyInA || verdict == Verdict::OnlyInB)
        return scopeline::verdictText(verdict);
    QString text =
        runLevelMeasured() ? scopeline::verdictText(verdict)
        : byProcess ? QCoreApplication::translate("KernelDiff", "process-to-process variation not measured")
                    : QCoreApplication::translate("KernelDiff", "run-to-run variation not measured");
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
    int64_t kernelTime[2] = {0, 0};
    int64_t busy[2] = {0, 0};
    std::vector<Accumulator> rows;
    std::unordered_map<std::string, std::size_t> rowOfKey;
    std::vector<QString> processes[2];

    for (int s = 0; s < 2; ++s) {
        for (const LoadedRun &run : *sides[s]) {
            if (!run.ok() || !run.analysis)
                continue;
            const int r = runs[s]++;
            processes[s].push_back(Replication::processOf(run));
            const TraceData &t = *run.trace;
            busy[s] += run.analysis->total().busyNs;
            const std::vector<std::string> ops =
                options.byOp ? kernelOps(*run.analysis) : std::vector<std::string>();
            // Per interned name of this trace, its row: hashing each distinct name once per run (by op,
            // the row the name was last put in).
            std::vector<int64_t> rowOfName(t.strings.size(), -1);
            const std::vector<uint32_t> &kernels = run.analysis->kernels();
            for (std::size_t p = 0; p < kernels.size(); ++p) {
                const uint32_t k = kernels[p];
                int64_t row = options.byOp ? -1 : rowOfName[t.name[k]];
                if (row < 0) {
                    const std::string_view name = options.byOp ? std::string_view(ops[p]) : t.nameOf(k);
                    std::string key = options.foldNumbers ? foldBase(name) : std::string(name);
                    auto [it, inserted] = rowOfKey.try_emplace(key, rows.size());
                    if (inserted) {
                        rows.emplace_back();
                        rows.back().key = std::move(key);
                    }
                    row = int64_t(it->second);
                }
                if (rowOfName[t.name[k]] != row) {
                    rowOfName[t.name[k]] = row;
                    rows[std::size_t(row)].names.emplace(t.nameOf(k));
                }
                Accumulator &acc = rows[std::size_t(row)];
                // Runs are added on first sight of a row; earlier runs without it stay empty.
                acc.durations[s].resize(std::size_t(r) + 1);
                acc.totals[s].resize(std::size_t(r) + 1);
                acc.durations[s][std::size_t(r)].push_back(double(t.duration[k]));
                acc.totals[s][std::size_t(r)] += t.duration[k];
                kernelTime[s] += t.duration[k];
            }
        }
    }

    const Replication replication(processes[0], processes[1]);
    KernelDiffSummary &sum = m_summary;
    sum.runsA = runs[0];
    sum.runsB = runs[1];
    sum.processesA = replication.processes(0);
    sum.processesB = replication.processes(1);
    sum.byProcess = replication.byProcess();
    sum.caveat = replication.caveat();
    if (runs[0] > 0)
        sum.busyPerRunA = double(busy[0]) / runs[0];
    if (runs[1] > 0)
        sum.busyPerRunB = double(busy[1]) / runs[1];
    sum.kernelTimePerRunA = meanPerRun(kernelTime[0], runs[0]);
    sum.kernelTimePerRunB = meanPerRun(kernelTime[1], runs[1]);
    sum.deltaTotalNs = sum.kernelTimePerRunB - sum.kernelTimePerRunA;

    // Largest |change of total time per run| first, ties by name (byte order, as Python sorts).
    std::vector<std::pair<std::string, KernelDiffRow>> built;
    built.reserve(rows.size());
    for (Accumulator &acc : rows) {
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
        row.deltaTotalNs = row.b.totalPerRunNs - row.a.totalPerRunNs;
        if (sum.deltaTotalNs != 0)
            row.shareOfDelta = row.deltaTotalNs / sum.deltaTotalNs;
        if (row.a.present() && row.b.present() && row.a.medianNs > 0) // zero-length kernels exist
            row.relChangeMedian = (row.b.medianNs - row.a.medianNs) / row.a.medianNs;
        std::vector<double> all = row.a.durations;
        all.insert(all.end(), row.b.durations.begin(), row.b.durations.end());
        row.timerStep = stats::timerStep(all);
        row.runLevel = stats::meanChangeTest(row.a.unitTotalNs, row.b.unitTotalNs, 0.95, row.timerStep);
        row.perCall = stats::runLevelTest(row.a.unitMedianNs, row.b.unitMedianNs, 0.95, row.timerStep);
        if (row.runLevel.valid())
            row.caveat = sum.caveat;
        built.emplace_back(std::move(display), std::move(row));
    }
    std::sort(built.begin(), built.end(), [](const auto &x, const auto &y) {
        const double dx = std::fabs(x.second.deltaTotalNs), dy = std::fabs(y.second.deltaTotalNs);
        return dx != dy ? dx > dy : x.first < y.first;
    });
    m_rows.reserve(built.size());
    for (auto &entry : built)
        m_rows.push_back(std::move(entry.second));

    // Holm over the rows that have a p: the diff's rows are one family, for each of the two tests.
    std::vector<double> p, perCallP;
    for (const KernelDiffRow &row : m_rows) {
        p.push_back(row.runLevel.p);
        perCallP.push_back(row.perCall.p);
    }
    const std::vector<double> holm = stats::holmAdjust(p), perCallHolm = stats::holmAdjust(perCallP);
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        KernelDiffRow &row = m_rows[i];
        row.runLevelHolm = holm[i];
        row.perCallHolm = perCallHolm[i];
        if (!row.a.present() && !row.processDependent())
            row.verdict = Verdict::OnlyInB;
        else if (!row.b.present() && !row.processDependent())
            row.verdict = Verdict::OnlyInA;
        else
            row.verdict =
                runLevelVerdict(row.runLevelHolm, row.runLevel.change, options.alpha, options.threshold);
        row.perCallVerdict =
            runLevelVerdict(row.perCallHolm, row.perCall.change, options.alpha, options.threshold);
        ++sum.kernels;
        sum.onlyInA += row.verdict == Verdict::OnlyInA;
        sum.onlyInB += row.verdict == Verdict::OnlyInB;
        sum.processDependent += row.processDependent();
    }
}

QStringList KernelDiff::csvHeader()
{
    return {QStringLiteral("kernel"),           QStringLiteral("runs_a"),
            QStringLiteral("runs_b"),           QStringLiteral("calls_a"),
            QStringLiteral("calls_b"),          QStringLiteral("total_a_ns"),
            QStringLiteral("total_b_ns"),       QStringLiteral("delta_total_ns"),
            QStringLiteral("share_of_delta"),   QStringLiteral("median_a_ns"),
            QStringLiteral("median_b_ns"),      QStringLiteral("rel_change_median"),
            QStringLiteral("run_level_p"),      QStringLiteral("verdict"),
            QStringLiteral("run_level_p_raw"),  QStringLiteral("run_level_change"),
            QStringLiteral("run_level_ci_low"), QStringLiteral("run_level_ci_high"),
            QStringLiteral("run_level_mwu_p"),  QStringLiteral("folded_names"),
            QStringLiteral("per_call_change"),  QStringLiteral("per_call_ci_low"),
            QStringLiteral("per_call_ci_high"), QStringLiteral("per_call_p"),
            QStringLiteral("per_call_verdict"), QStringLiteral("processes_a"),
            QStringLiteral("processes_b"),      QStringLiteral("caveat")};
}

QString KernelDiff::toCsv() const
{
    QString csv = csvHeader().join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const KernelDiffRow &r : m_rows) {
        const QStringList fields = {
            csvText(r.kernel), QString::number(r.a.runsWithKernel), QString::number(r.b.runsWithKernel),
            csvNumber(r.a.callsPerRun), csvNumber(r.b.callsPerRun), csvNumber(r.a.totalPerRunNs),
            csvNumber(r.b.totalPerRunNs), csvNumber(r.deltaTotalNs), csvNumber(r.shareOfDelta),
            csvNumber(r.a.medianNs), csvNumber(r.b.medianNs), csvNumber(r.relChangeMedian),
            csvNumber(r.runLevelHolm), csvText(r.verdictText()), csvNumber(r.runLevel.p),
            csvNumber(r.runLevel.change), csvNumber(r.runLevel.ciLow), csvNumber(r.runLevel.ciHigh),
            csvNumber(r.runLevel.rankP),
            // The exact names behind a folded row; empty without folding.
            csvText(m_options.foldNumbers || m_options.byOp ? r.names.join(QLatin1Char(';')) : QString()),
            csvNumber(r.perCall.change), csvNumber(r.perCall.ciLow), csvNumber(r.perCall.ciHigh),
            csvNumber(r.perCallHolm), csvText(r.perCallVerdictText()), QString::number(m_summary.processesA),
            QString::number(m_summary.processesB), csvText(r.caveat)};
        csv += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

} // namespace scopeline
