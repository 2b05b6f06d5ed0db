// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/replication.h"

#include "stats/welch.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>

namespace scopeline {

namespace {

// A multi-GPU run is one job: its ranks' processes together are the run's process, so the ranks never
// count as processes of their own, while a job launched again (its ranks under other pids) does.
std::vector<RunOrigin> jobsOf(const std::vector<RunOrigin> &runs)
{
    std::map<QString, std::set<QString>> processes; // a ranked run's name -> its ranks' processes
    for (const RunOrigin &run : runs)
        if (!run.rankedRun.isEmpty())
            processes[run.rankedRun].insert(run.process);
    std::vector<RunOrigin> jobs = runs;
    for (RunOrigin &run : jobs)
        if (!run.rankedRun.isEmpty()) {
            const std::set<QString> &job = processes[run.rankedRun];
            // a rank whose process is unknown leaves the job's unknown
            run.process = job.count(QString())
                              ? QString()
                              : QStringList(job.begin(), job.end()).join(QStringLiteral(" + "));
        }
    return jobs;
}

// Every run of B is A's, in order, by the file it was read from (a link to it too).
bool sameFiles(const std::vector<RunOrigin> &a, const std::vector<RunOrigin> &b)
{
    return !a.empty() &&
           std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const RunOrigin &x, const RunOrigin &y) {
               if (x.file.isEmpty() || x.file == y.file)
                   return !x.file.isEmpty();
               const QString canonical = QFileInfo(x.file).canonicalFilePath();
               return !canonical.isEmpty() && canonical == QFileInfo(y.file).canonicalFilePath();
           });
}

} // namespace

Replication::Replication(const std::vector<RunOrigin> &ranksA, const std::vector<RunOrigin> &ranksB)
{
    const std::vector<RunOrigin> a = jobsOf(ranksA), b = jobsOf(ranksB);
    m_sameRuns = sameFiles(ranksA, ranksB);
    const std::vector<RunOrigin> *sides[2] = {&a, &b};
    std::set<QString> known[2];
    for (int s = 0; s < 2; ++s) {
        for (const RunOrigin &run : *sides[s])
            if (!run.process.isEmpty())
                known[s].insert(run.process);
        m_processes[s] = std::max<int>(1, int(known[s].size()));
        m_byProcess = m_byProcess || known[s].size() >= 2;
    }
    // One OS process on both sides, every run of it known: A and B were interleaved in it.
    m_shared = !m_byProcess && known[0].size() == 1 && known[0] == known[1] &&
               known[0].begin()->startsWith(QLatin1String("pid ")) && oneSequenceOfLaunches(a, b);
    for (int s = 0; s < 2; ++s) {
        const std::vector<RunOrigin> &runs = *sides[s];
        // A run's key: its ranks' shared name, else its own position.
        auto runKey = [&](int r) {
            const QString &ranked = runs[std::size_t(r)].rankedRun;
            return ranked.isEmpty() ? QString::number(r) : QStringLiteral("ranks of ") + ranked;
        };
        std::vector<QString> runKeys;
        std::vector<QString> order;
        for (int r = 0; r < int(runs.size()); ++r) {
            const auto run = std::find(runKeys.begin(), runKeys.end(), runKey(r));
            m_runOf[s].push_back(int(run - runKeys.begin()));
            if (run == runKeys.end())
                runKeys.push_back(runKey(r));
            const QString key = m_byProcess ? runs[std::size_t(r)].process : runKey(r);
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

bool Replication::oneSequenceOfLaunches(const std::vector<RunOrigin> &a, const std::vector<RunOrigin> &b)
{
    std::vector<RunOrigin> runs = a;
    if (!sameFiles(a, b))
        runs.insert(runs.end(), b.begin(), b.end());
    std::vector<std::pair<int64_t, int64_t>> ids;
    for (const RunOrigin &run : runs) {
        if (run.process.isEmpty() || run.firstLaunchId < 0)
            return false;
        ids.emplace_back(run.firstLaunchId, run.lastLaunchId);
    }
    std::sort(ids.begin(), ids.end());
    for (std::size_t i = 1; i < ids.size(); ++i)
        if (ids[i].first <= ids[i - 1].second)
            return false;
    return true;
}

Replication Replication::of(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    std::vector<RunOrigin> origins[2];
    for (int s = 0; s < 2; ++s)
        for (const LoadedRun &run : s == 0 ? a : b)
            if (run.ok())
                origins[s].push_back(originOf(run));
    return Replication(origins[0], origins[1]);
}

RunOrigin Replication::originOf(const LoadedRun &run)
{
    const LaunchOrigin launches = run.summary ? run.summary->launchOrigin
                                  : run.trace ? LaunchOrigin::of(*run.trace)
                                              : LaunchOrigin();
    return RunOrigin{processOf(run), rankedRunOf(run), launches.firstId, launches.lastId,
                     run.run.file,   run.run.rank,     run.run.worldSize};
}

QString Replication::rankedRunOf(const LoadedRun &run)
{
    return run.run.rank >= 0 ? run.run.name : QString();
}

QStringList Replication::runNames(const QList<LoadedRun> &runs)
{
    QStringList names;
    for (const LoadedRun &run : runs)
        if (const QString name = rankedRunOf(run).isEmpty() ? run.run.label() : run.run.name;
            run.ok() && !names.contains(name))
            names << name;
    return names;
}

QStringList Replication::runPairs(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    const QStringList namesA = runNames(a), namesB = runNames(b);
    QStringList pairs;
    for (qsizetype i = 0; i < std::min(namesA.size(), namesB.size()); ++i)
        pairs << QCoreApplication::translate("Replication", "run %1: %2 vs %3")
                     .arg(i + 1)
                     .arg(namesA[i], namesB[i]);
    return pairs;
}

QString Replication::processOf(const LoadedRun &run)
{
    // "proc_0/run_1" -> "proc_0"
    const qsizetype slash = run.run.name.lastIndexOf(QLatin1Char('/'));
    const QString folder = slash < 0 ? QString() : run.run.name.left(slash);
    if (!folder.isEmpty())
        return folder;
    if (run.summary) // what the trace said, worked out when it was summarised
        return run.summary->launchOrigin.pid;
    return run.trace ? LaunchOrigin::of(*run.trace).pid : QString();
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

QString Replication::caveat(bool ranksMatched) const
{
    QStringList caveats;
    if (const QString ranks = ranksMatched ? QString() : rankCaveat(); !ranks.isEmpty())
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

int Replication::mostRanks() const
{
    int most = 1;
    for (const std::set<int> &ranks : m_ranksPerRun)
        if (!ranks.empty())
            most = std::max(most, *ranks.rbegin());
    return most;
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

namespace {

// "rank 3", "ranks 0–7", "ranks 0, 2, 5"
QString rankSetText(const std::set<int> &ranks)
{
    if (ranks.empty())
        return QCoreApplication::translate("Replication", "no rank");
    if (ranks.size() == 1)
        return QCoreApplication::translate("Replication", "rank %1").arg(*ranks.begin());
    if (*ranks.rbegin() - *ranks.begin() + 1 == int(ranks.size()))
        return QCoreApplication::translate("Replication", "ranks %1–%2")
            .arg(*ranks.begin())
            .arg(*ranks.rbegin());
    QStringList list;
    for (int r : ranks)
        list << QString::number(r);
    return QCoreApplication::translate("Replication", "ranks %1").arg(list.join(QStringLiteral(", ")));
}

} // namespace

ComparedRanks ComparedRanks::of(const std::vector<RunOrigin> &a, const std::vector<RunOrigin> &b)
{
    ComparedRanks compared;
    std::map<QString, std::set<int>> runs[2]; // a side's runs (by their ranks' run) -> their ranks
    std::set<int> heldBy[2];
    for (int side = 0; side < 2; ++side)
        for (const RunOrigin &run : side == 0 ? a : b) {
            if (run.rank < 0 || run.worldSize <= 0 ||
                (compared.worldSize > 0 && run.worldSize != compared.worldSize))
                return {}; // a GPU alone, or jobs of other sizes (8 GPUs against 4): each side whole
            compared.worldSize = run.worldSize;
            runs[side][run.rankedRun.isEmpty() ? run.file : run.rankedRun].insert(run.rank);
            heldBy[side].insert(run.rank);
        }
    std::optional<std::set<int>> every;
    bool differ = false;
    for (const auto &side : runs)
        for (const auto &[name, ranks] : side) {
            differ = differ || (every && *every != ranks);
            if (!every) {
                every = ranks;
                continue;
            }
            std::set<int> both;
            std::set_intersection(every->begin(), every->end(), ranks.begin(), ranks.end(),
                                  std::inserter(both, both.end()));
            every = std::move(both);
        }
    if (!every || !differ || every->empty()) // no GPU in common: each side whole, with the caveat
        return {};
    compared.all = false;
    compared.ranks = *every;
    for (int side = 0; side < 2; ++side)
        compared.held[side] = rankSetText(heldBy[side]);
    return compared;
}

ComparedRanks ComparedRanks::of(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    std::vector<RunOrigin> origins[2];
    for (int s = 0; s < 2; ++s)
        for (const LoadedRun &run : s == 0 ? a : b)
            if (run.summary)
                origins[s].push_back(Replication::originOf(run));
    return of(origins[0], origins[1]);
}

QString ComparedRanks::note() const
{
    if (all)
        return {};
    return QCoreApplication::translate("Replication",
                                       "A's runs hold %1, B's %2, of jobs of %3 GPUs: compared on %4, which "
                                       "every run holds (a side's other ranks would compare other GPUs)")
        .arg(held[0], held[1])
        .arg(worldSize)
        .arg(rankSetText(ranks));
}

} // namespace scopeline
