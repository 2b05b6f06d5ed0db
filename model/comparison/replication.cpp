// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/replication.h"

#include "stats/welch.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <set>

namespace scopeline {

Replication::Replication(const std::vector<QString> &processesA, const std::vector<QString> &processesB,
                         const std::vector<QString> &rankedRunsA, const std::vector<QString> &rankedRunsB)
{
    const std::vector<QString> *sides[2] = {&processesA, &processesB};
    const std::vector<QString> *rankedRuns[2] = {&rankedRunsA, &rankedRunsB};
    std::set<QString> known[2];
    for (int s = 0; s < 2; ++s) {
        for (const QString &p : *sides[s])
            if (!p.isEmpty())
                known[s].insert(p);
        m_processes[s] = std::max<int>(1, int(known[s].size()));
        m_byProcess = m_byProcess || known[s].size() >= 2;
    }
    // One OS process on both sides, every run of it known: A and B were interleaved in it.
    m_shared =
        !m_byProcess && known[0].size() == 1 && known[0] == known[1] &&
        known[0].begin()->startsWith(QLatin1String("pid ")) &&
        std::none_of(processesA.begin(), processesA.end(), [](const QString &p) { return p.isEmpty(); }) &&
        std::none_of(processesB.begin(), processesB.end(), [](const QString &p) { return p.isEmpty(); });
    for (int s = 0; s < 2; ++s) {
        // A run's key: its ranks' shared name, else its own position.
        auto runKey = [&](int r) {
            const QString ranked = std::size_t(r) < rankedRuns[s]->size() ? (*rankedRuns[s])[std::size_t(r)] : QString();
            return ranked.isEmpty() ? QString::number(r) : QStringLiteral("ranks of ") + ranked;
        };
        std::vector<QString> runKeys;
        std::vector<QString> order;
        for (int r = 0; r < int(sides[s]->size()); ++r) {
            const auto run = std::find(runKeys.begin(), runKeys.end(), runKey(r));
            m_runOf[s].push_back(int(run - runKeys.begin()));
            if (run == runKeys.end())
                runKeys.push_back(runKey(r));
            const QString key = m_byProcess ? (*sides[s])[std::size_t(r)] : runKey(r);
            auto it = std::find(order.begin(), order.end(), key);
            if (it == order.end()) {
                order.push_back(key);
                m_units[s].emplace_back();
                it = order.end() - 1;
            }
            m_units[s][std::size_t(it - order.begin())].push_back(r);
        }
        m_runs[s] = int(runKeys.size());
        std::vector<int> ranks(runKeys.size(), 0);
        for (int run : m_runOf[s])
            ++ranks[std::size_t(run)];
        m_ranksPerRun[s].insert(ranks.begin(), ranks.end());
    }
}

Replication Replication::of(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    std::vector<QString> processes[2], rankedRuns[2];
    for (int s = 0; s < 2; ++s)
        for (const LoadedRun &run : s == 0 ? a : b)
            if (run.ok()) {
                processes[s].push_back(processOf(run));
                rankedRuns[s].push_back(rankedRunOf(run));
            }
    return Replication(processes[0], processes[1], rankedRuns[0], rankedRuns[1]);
}

QString Replication::rankedRunOf(const LoadedRun &run)
{
    return run.run.rank >= 0 ? run.run.name : QString();
}

QString Replication::processOf(const LoadedRun &run)
{
    // "proc_0/run_1" -> "proc_0"
    const qsizetype slash = run.run.name.lastIndexOf(QLatin1Char('/'));
    const QString folder = slash < 0 ? QString() : run.run.name.left(slash);
    // a rank's OS process is one GPU's of the run, not a replicate of it
    if (!folder.isEmpty() || run.run.rank >= 0)
        return folder;
    if (run.summary) // what the trace said, worked out when it was summarised
        return run.summary->launchPid;
    if (!run.trace || run.trace->format != TraceFormat::Kineto)
        return folder;
    const TraceData &t = *run.trace;
    for (uint32_t e = 0; e < t.eventCount(); ++e)
        if (t.kind[e] == EventKind::KernelLaunch || t.kind[e] == EventKind::GraphLaunch)
            return QStringLiteral("pid ") + t.tracks[t.track[e]].pid;
    return {};
}

std::vector<double> Replication::unitValues(int side, const std::vector<double> &perRun) const
{
    std::vector<double> out;
    for (const std::vector<int> &unit : m_units[side]) {
        std::vector<double> values;
        for (int r : unit)
            values.push_back(perRun[std::size_t(r)]);
        out.push_back(stats::meanVariance(values).mean);
    }
    return out;
}

double Replication::perRunMean(int side, const std::vector<double> &perRun) const
{
    // Plain sums, in order: whole-ns values give the exact figures a Python sum() does.
    const auto mean = [&](const auto &values, const auto &valueOf) {
        double sum = 0;
        for (const auto &v : values)
            sum += valueOf(v);
        return values.empty() ? 0.0 : sum / double(values.size());
    };
    if (!m_byProcess)
        return mean(perRun, [](double v) { return v; });
    return mean(m_units[side], [&](const std::vector<int> &unit) {
        return mean(unit, [&](int r) { return perRun[std::size_t(r)]; });
    });
}

QString Replication::unitName() const
{
    return m_byProcess ? QCoreApplication::translate("Replication", "process")
                       : QCoreApplication::translate("Replication", "run");
}

QString Replication::caveat() const
{
    QStringList caveats;
    if (const QString ranks = rankCaveat(); !ranks.isEmpty())
        caveats << ranks;
    // one run on a side: no run-level test to carry it, and "one run" says more
    if (!m_byProcess && !m_shared && std::min(m_runs[0], m_runs[1]) >= 2)
        caveats << processCaveat();
    return caveats.join(QStringLiteral("; "));
}

QString Replication::processCaveat()
{
    return QCoreApplication::translate("Replication", "one process a side: differences between processes "
                                                      "(compilation, autotuning, placement) not measured");
}

QString Replication::howToLift(const QString &caveat)
{
    return caveat.contains(processCaveat())
               ? QCoreApplication::translate(
                     "Replication", " (record each side in several processes, side/<process>/<run>/, "
                                    "to measure them)")
               : QString();
}

QString Replication::rankCaveat() const
{
    if (m_ranksPerRun[0].empty() || m_ranksPerRun[1].empty() ||
        (m_ranksPerRun[0] == m_ranksPerRun[1] && m_ranksPerRun[0].size() == 1))
        return {};
    const auto counts = [](const std::set<int> &ranks) {
        QStringList n;
        for (int c : ranks)
            n << QString::number(c);
        return n.join(QCoreApplication::translate("Replication", " or "));
    };
    return QCoreApplication::translate("Replication",
                                       "A's runs have %1 rank(s), B's %2: A against B compares different "
                                       "sets of GPUs")
        .arg(counts(m_ranksPerRun[0]), counts(m_ranksPerRun[1]));
}

} // namespace scopeline
