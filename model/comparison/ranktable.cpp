// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/ranktable.h"

#include "model/comparison/replication.h"
#include "model/comparison/stepbreakdown.h"
#include "model/tables/durationformat.h"
#include "model/tables/tableformat.h"

#include "stats/descriptive.h"
#include "stats/multipletesting.h"
#include "stats/welch.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>

namespace scopeline {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("RankTable", text);
}

// Ends of matched collectives further apart than this are not one collective on one clock.
constexpr double kLargeEndSpreadNs = 100e3;

struct Collective
{
    int64_t start, end;
    int64_t step; // the key of its step on this rank (stepKeys), -1: none
    QString kind; // the collective it performs (CollectiveRow::collective)
};

// Which collectives of the ranks can be one: the kernel's name and its process group ("" unknown).
using CollectiveKey = std::pair<std::string, std::string>;

// Each step's key, by which the ranks' steps pair: its number (ProfilerStep#12) when every step has
// one, so that a rank whose profile starts a step later or lost a step still pairs its steps with the
// others'; else its position.
std::vector<int64_t> stepKeys(const RunSteps &steps)
{
    const bool numbered = std::all_of(steps.steps.begin(), steps.steps.end(),
                                      [](const StepInstance &s) { return s.number >= 0; });
    std::vector<int64_t> keys(steps.steps.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        keys[i] = numbered ? steps.steps[i].number : int64_t(i);
    return keys;
}

// nccl-tests' bus bandwidth factor of a collective over n ranks; NaN when n is needed and unknown.
double busFactor(const QString &kind, int n)
{
    // PyTorch's names too: _allgather_base, allgather_into_tensor_coalesced, _reduce_scatter_base,
    // reduce_scatter_tensor_coalesced, allreduce_coalesced.
    QString key = kind.toLower();
    key.remove(QLatin1Char('_')).remove(QLatin1Char('-'));
    const bool allReduce = key.startsWith(QLatin1String("allreduce"));
    const bool spread = key.contains(QLatin1String("allgather")) ||
                        key.contains(QLatin1String("reducescatter")) ||
                        key.startsWith(QLatin1String("alltoall"));
    if (!allReduce && !spread)
        return 1;
    if (n <= 0)
        return std::numeric_limits<double>::quiet_NaN();
    return (allReduce ? 2.0 : 1.0) * (n - 1) / n;
}

// Ranks as a list ("0, 3, 7"), the first eight of them.
QString rankList(const std::vector<int> &ranks)
{
    QStringList names;
    for (std::size_t i = 0; i < std::min<std::size_t>(ranks.size(), 8); ++i)
        names << QString::number(ranks[i]);
    if (ranks.size() > 8)
        names << tr("%1 more").arg(ranks.size() - 8);
    return names.join(QStringLiteral(", "));
}

// The ranks a process group ("<name> [0, 1, 2, 3]") lists, read from the list that ends it (a name
// may hold brackets too); none when it lists none, or not in full (PyTorch cuts the list past 30 ranks:
// "[0, 1, ..., 29, ...]").
std::optional<std::set<int>> listedRanks(std::string_view processGroup)
{
    const std::size_t open = processGroup.rfind('[');
    if (open == std::string_view::npos || (open > 0 && processGroup[open - 1] != ' ') ||
        processGroup.back() != ']')
        return std::nullopt;
    std::set<int> ranks;
    for (const QString &rank :
         QString::fromUtf8(processGroup.substr(open + 1, processGroup.size() - open - 2))
             .split(QLatin1Char(','))) {
        bool number = false;
        ranks.insert(rank.trimmed().toInt(&number));
        if (!number)
            return std::nullopt;
    }
    if (ranks.empty())
        return std::nullopt;
    return ranks;
}

// The k-th communication kernel of a name and process group in a step (by its key, or outside any) on
// every rank of that group is one collective (of an unknown group: on every rank); the latest start
// holds the others back. A group's ranks are those its args list, else those that ran any of its
// kernels: with tensor and data parallel groups, rank 0's all-reduce waits for its own group's ranks,
// not for another group's at the same place in their sequence. Sets each rank's waits in `rows` (the group's
// rows, in its order), per step that every rank ran (`keys`: each rank's step keys). A rank without
// communication kernels (a profile that lost them) is left out of the matching rather than leaving every
// collective unmatched.
RunCollectives matchCollectives(int side, const std::vector<const LoadedRun *> &group,
                                const std::vector<std::map<CollectiveKey, std::vector<Collective>>> &byName,
                                const std::vector<std::vector<int64_t>> &keys, RankRow *rows)
{
    RunCollectives summary;
    summary.side = side;
    summary.run = group.front()->run.name;
    summary.ranks = int(group.size());
    std::vector<std::size_t> members; // the ranks (indices in group) with communication kernels
    std::vector<int> without;
    for (std::size_t r = 0; r < group.size(); ++r)
        if (byName[r].empty())
            without.push_back(group[r]->run.rank);
        else
            members.push_back(r);
    if (members.size() < 2)
        members.clear(); // nothing to match
    std::vector<double> waits(group.size(), 0), last(group.size(), 0), counted(group.size(), 0), spreads;
    // The k-th of a name and group in step i on every member of the group is one collective, where
    // each ran as many of it in that step: one kernel lost from a profile must not pair each later one
    // with the next.
    std::map<std::pair<CollectiveKey, int64_t>, std::vector<std::vector<const Collective *>>> byStep;
    std::map<std::string, std::vector<std::size_t>> inGroup; // process group -> the members that ran it
    for (std::size_t m = 0; m < members.size(); ++m)
        for (const auto &[key, list] : byName[members[m]]) {
            std::vector<std::size_t> &ran = inGroup[key.second];
            if (ran.empty() || ran.back() != m)
                ran.push_back(m);
            for (const Collective &c : list) {
                auto &perMember = byStep[{key, c.step}];
                perMember.resize(members.size());
                perMember[m].push_back(&c);
            }
        }
    // Where the args list the group's ranks in full (every member that ran its kernels among them), its
    // ranks are the members listed: one whose profile lost the group's kernels leaves them unmatched
    // rather than matched among the rest.
    for (auto &[processGroup, ran] : inGroup)
        if (const std::optional<std::set<int>> listed = listedRanks(processGroup);
            listed && std::all_of(ran.begin(), ran.end(), [&](std::size_t m) {
                return listed->count(group[members[m]]->run.rank) > 0;
            })) {
            ran.clear();
            for (std::size_t m = 0; m < members.size(); ++m)
                if (listed->count(group[members[m]]->run.rank))
                    ran.push_back(m);
        }
    std::vector<std::size_t> everyMember(members.size());
    std::iota(everyMember.begin(), everyMember.end(), std::size_t(0));
    std::vector<std::vector<double>> matchedWaits;          // per matched collective, per member
    struct Matched
    {
        int64_t start; // on the first member
        QString name, kind, group;
    };
    std::vector<Matched> matchedStarts;
    std::set<std::string> matchedGroups;
    for (const auto &step : byStep) {
        const auto &key = step.first;
        const auto &perMember = step.second; // a reference, not a binding: the lambdas below capture it
        const std::string &processGroup = key.first.second;
        const std::vector<std::size_t> &ran = processGroup.empty() ? everyMember : inGroup[processGroup];
        const std::size_t count = perMember[ran.front()].size();
        if (ran.size() < 2) {
            summary.alone += int(count);
            continue;
        }
        if (std::any_of(ran.begin(), ran.end(),
                        [&](std::size_t m) { return perMember[m].size() != count; })) {
            for (std::size_t m : ran)
                summary.unmatched += int(perMember[m].size());
            continue;
        }
        summary.matched += int(count);
        if (!processGroup.empty())
            matchedGroups.insert(processGroup);
        for (std::size_t k = 0; k < count; ++k) {
            int64_t latest = std::numeric_limits<int64_t>::min(),
                    firstEnd = std::numeric_limits<int64_t>::max(),
                    lastEnd = std::numeric_limits<int64_t>::min();
            for (std::size_t m : ran) {
                latest = std::max(latest, perMember[m][k]->start);
                firstEnd = std::min(firstEnd, perMember[m][k]->end);
                lastEnd = std::max(lastEnd, perMember[m][k]->end);
            }
            spreads.push_back(double(lastEnd - firstEnd));
            // members outside the collective's group have no wait there
            std::vector<double> &waitsHere =
                matchedWaits.emplace_back(members.size(), std::numeric_limits<double>::quiet_NaN());
            const Collective &first = *perMember[ran.front()][k];
            matchedStarts.push_back({first.start, QString::fromStdString(key.first.first), first.kind,
                                     QString::fromStdString(processGroup)});
            // Ranks that started together at the latest share its "arrived last", so the shares add up.
            const auto tied = std::count_if(ran.begin(), ran.end(),
                                            [&](std::size_t m) { return perMember[m][k]->start == latest; });
            for (std::size_t m : ran) {
                const Collective &c = *perMember[m][k];
                const std::size_t r = members[m];
                waitsHere[m] = double(latest - c.start);
                if (c.step < 0)
                    continue;
                waits[r] += double(latest - c.start);
                last[r] += c.start == latest ? 1.0 / double(tied) : 0.0;
                ++counted[r];
            }
        }
    }
    summary.processGroups = int(matchedGroups.size());
    summary.medianEndSpreadNs = spreads.empty() ? RankRow::kUnset : stats::median(spreads);
    if (!spreads.empty())
        summary.maxEndSpreadNs = *std::max_element(spreads.begin(), spreads.end());
    // A wait is a difference of start times on two ranks: measured where collectives matched and
    // end together, not where they end far apart at the median (the ranks' clocks disagree).
    const bool clocksDisagree = summary.medianEndSpreadNs > kLargeEndSpreadNs; // false without any
    const bool waitsMeasured = !spreads.empty() && !clocksDisagree;
    // Waits are measured in the steps every member ran: a rank with steps the others lack waits there
    // at nothing matched, which must not dilute its wait per step.
    std::map<int64_t, std::size_t> ranBy;
    for (std::size_t r : members)
        for (int64_t key : std::set<int64_t>(keys[r].begin(), keys[r].end()))
            ++ranBy[key];
    int64_t sharedSteps = 0;
    for (const auto &[key, n] : ranBy)
        sharedSteps += n == members.size();
    for (std::size_t r : members) {
        RankRow &row = rows[r];
        row.collectives = int(counted[r]);
        if (!waitsMeasured)
            continue;
        if (sharedSteps > 0)
            row.collectiveWaitNs = waits[r] / double(sharedSteps);
        if (counted[r] > 0)
            row.arrivedLastShare = last[r] / counted[r];
    }
    // the collectives in the order they ran
    std::vector<std::size_t> order(matchedWaits.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(),
              [&](std::size_t x, std::size_t y) { return matchedStarts[x].start < matchedStarts[y].start; });
    for (std::size_t i = 0; i < order.size() && waitsMeasured; ++i) {
        summary.collectiveNames.push_back(matchedStarts[order[i]].name);
        summary.collectiveKinds.push_back(matchedStarts[order[i]].kind);
        summary.collectiveGroups.push_back(matchedStarts[order[i]].group);
        summary.waitsNs.push_back(matchedWaits[order[i]]);
    }
    for (std::size_t r : members)
        summary.ranksInOrder.push_back(group[r]->run.rank);
    QStringList notes;
    // One job's ranks run at one time: kernels on ranks that never overlap are another job's, or
    // another host's clock.
    int64_t latestFirst = std::numeric_limits<int64_t>::min(),
            earliestLast = std::numeric_limits<int64_t>::max();
    for (const LoadedRun *run : group) {
        const RunSummary &summary = *run->summary;
        if (summary.kernels().empty())
            continue;
        const int64_t first = summary.kernels().front().start; // kernels by start; the span to the last end
        latestFirst = std::max(latestFirst, first);
        earliestLast = std::min(earliestLast, first + summary.spanNs());
    }
    constexpr int64_t kDayNs = 86'400'000'000'000;
    if (latestFirst > earliestLast)
        notes
            << tr("the ranks' kernels do not overlap in time (%1 apart): ranks of different jobs, or clocks "
                  "of different hosts")
                   .arg(latestFirst - earliestLast > kDayNs
                            ? tr("more than a day")
                            : formatDuration(double(latestFirst - earliestLast)));
    const int world = group.front()->run.worldSize;
    if (world > int(group.size())) {
        std::vector<int> missing;
        for (int rank = 0; rank < world; ++rank)
            if (std::none_of(group.begin(), group.end(),
                             [rank](const LoadedRun *run) { return run->run.rank == rank; }))
                missing.push_back(rank);
        notes << tr("%1 of %2 ranks (a partial world: rank %3 missing, which may be the one that holds the "
                    "step back)")
                     .arg(group.size())
                     .arg(world)
                     .arg(rankList(missing));
    }
    if (!without.empty() &&
        without.size() < group.size()) // a job of no communication at all is said by its rows
        notes << tr("rank %1 without communication kernels, left out of the matching (its profile may have "
                    "lost them, and it may be the one that holds the step back)")
                     .arg(rankList(without));
    std::vector<int> stepless; // a profile that lost the rank's kernels, or its steps
    for (std::size_t r = 0; r < group.size(); ++r)
        if (rows[r].steps == 0)
            stepless.push_back(group[r]->run.rank);
    if (!stepless.empty())
        notes
            << tr("rank %1 without a step with kernels: left out of the mean over ranks and the slowest rank")
                   .arg(rankList(stepless));
    std::vector<int> unlaunched; // ranks whose profile lost launch calls of kernels in its steps
    double unlaunchedNs = 0;
    for (std::size_t r = 0; r < group.size(); ++r)
        if (rows[r].unlaunchedNs > 0) {
            unlaunched.push_back(group[r]->run.rank);
            unlaunchedNs = std::max(unlaunchedNs, rows[r].unlaunchedNs);
        }
    if (!unlaunched.empty())
        notes << tr("rank %1: kernels without a launch call in the trace ran during the steps and count in "
                    "none (a mean of up to %2 of GPU time a step): the profiler lost their calls")
                     .arg(rankList(unlaunched), formatDuration(unlaunchedNs));
    // Collectives of sub-groups (tensor parallel within data parallel) whose args do not name their process
    // group are matched across every rank by name: their waits then cross groups.
    int subgroup = 0;
    for (const LoadedRun *run : group)
        for (const RunSummary::Message &m : run->summary->messages())
            if (m.group == 0 && m.groupSize >= 2 && int(m.groupSize) < int(group.size()))
                subgroup = std::max(subgroup, int(m.groupSize));
    if (subgroup > 0)
        notes << tr("collectives of groups of %1 of the %2 ranks: matched by name across all ranks, so their "
                    "waits and who arrived last may cross groups")
                     .arg(subgroup)
                     .arg(group.size());
    if (summary.unmatched > 0)
        notes << tr("%1 communication kernel(s) without a match on every rank (the ranks' counts of a "
                    "name in a step, or outside the steps, differ)")
                     .arg(summary.unmatched);
    if (summary.alone > 0)
        notes << tr("%1 communication kernel(s) of process groups with one rank to match them on (the "
                    "others not loaded, or without communication kernels)")
                     .arg(summary.alone);
    if (clocksDisagree)
        notes << tr("waits not measured: matched collectives end %1 apart at the median, so the ranks' "
                    "clocks disagree (different hosts)")
                     .arg(formatDuration(summary.medianEndSpreadNs));
    else if (summary.maxEndSpreadNs > kLargeEndSpreadNs)
        notes << tr("matched collectives end up to %1 apart: clocks of different hosts, or kernels that "
                    "are not one collective (point-to-point sends to other ranks)")
                     .arg(formatDuration(summary.maxEndSpreadNs));
    summary.note = notes.join(QStringLiteral("; "));
    return summary;
}

} // namespace

RankTable::RankTable(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const Options &options)
    : m_options(options), m_stepScope(stepScopeFor(options.stepScope, a, b))
{
    if (!a.isEmpty() && !b.isEmpty())
        m_compared = ComparedRanks::of(a, b);
    addSide(0, a);
    addSide(1, b);
    if (!a.isEmpty() && !b.isEmpty())
        compare();
}

void RankTable::addSide(int side, const QList<LoadedRun> &runs)
{
    // The runs in order, each with its rank files (a run of one GPU: itself).
    std::vector<std::vector<const LoadedRun *>> groups;
    std::map<QString, std::size_t> groupOf;
    for (const LoadedRun &run : runs) {
        if (!run.summary)
            continue;
        const QString key = Replication::rankedRunOf(run);
        if (key.isEmpty() || !groupOf.count(key)) {
            if (!key.isEmpty())
                groupOf[key] = groups.size();
            groups.emplace_back();
        }
        groups[key.isEmpty() ? groups.size() - 1 : groupOf[key]].push_back(&run);
    }
    // per kind of collective: each rank's durations (by run and rank), and its kernels per step
    struct Kind
    {
        std::map<std::pair<std::size_t, int>, std::vector<double>> durations;
        std::vector<double> perStep;
        // bytes and time of its kernels with sizes, for the bandwidths (bus bytes: bytes × bus factor)
        double bytes = 0, bytesNs = 0, busBytes = 0, busNs = 0;
    };
    std::map<std::pair<QString, QString>, Kind> kinds; // by kind and process group
    for (const std::vector<const LoadedRun *> &group : groups) {
        const std::size_t first = m_rows.size();
        // each rank's communication kernels by name, in start order
        std::vector<std::map<CollectiveKey, std::vector<Collective>>> byName;
        std::vector<std::vector<int64_t>> rankStepKeys;
        for (const LoadedRun *run : group) {
            const RunSummary &summary = *run->summary;
            std::vector<int32_t> stepOf;
            const RunSteps steps = findRunSteps(summary, m_stepScope, &stepOf);
            const std::vector<int64_t> &keys = rankStepKeys.emplace_back(stepKeys(steps));
            RankRow row;
            row.side = side;
            row.run = run->run.name;
            row.origin = Replication::originOf(*run);
            row.rank = run->run.rank;
            row.steps = int64_t(steps.steps.size());
            const auto mean = [&steps](StepPart part) { return steps.mean[std::size_t(part)]; };
            row.stepNs = mean(StepPart::Step);
            row.busyNs = mean(StepPart::Busy);
            row.computeNs = mean(StepPart::Compute);
            row.exposedCommNs = mean(StepPart::ExposedComm);
            row.idleNs = mean(StepPart::Idle);
            if (!steps.steps.empty())
                row.unlaunchedNs = double(steps.unlaunchedNs) / double(steps.steps.size());
            if (!steps.steps.empty()) {
                double overlapped = 0, comm = 0;
                for (const StepInstance &s : steps.steps) {
                    overlapped += double(s.overlappedComm);
                    comm += double(s.commKernels);
                }
                row.overlappedCommNs = overlapped / double(row.steps);
                row.commKernels = comm / double(row.steps);
            }
            m_rows.push_back(row);
            auto &names = byName.emplace_back();
            // kernels of each kind (and group) in its steps
            std::map<std::pair<QString, QString>, int64_t> inSteps;
            auto message = summary.messages().begin(); // by kernel
            for (std::size_t k = 0; k < summary.kernels().size(); ++k) {
                const RunSummary::Kernel &kernel = summary.kernels()[k];
                if (!kernel.communication())
                    continue;
                const QString kind = QString::fromUtf8(summary.strings().view(kernel.op).data(),
                                                       qsizetype(summary.strings().view(kernel.op).size()));
                while (message != summary.messages().end() && message->kernel < k)
                    ++message;
                const RunSummary::Message *args =
                    message != summary.messages().end() && message->kernel == k ? &*message : nullptr;
                const std::string_view processGroup =
                    args ? summary.strings().view(args->group) : std::string_view();
                names[{std::string(summary.nameOf(kernel)), std::string(processGroup)}].push_back(
                    {kernel.start, kernel.end(), stepOf[k] < 0 ? -1 : keys[std::size_t(stepOf[k])], kind});
                // a kind in two groups (tensor and data parallel all-reduces) is two kinds: their sizes
                // differ
                const std::pair<QString, QString> kindInGroup{
                    kind, QString::fromUtf8(processGroup.data(), qsizetype(processGroup.size()))};
                // a kind's figures are of its kernels in the steps, as its count per step, and of the
                // ranks compared
                if (!m_compared.counts(row.rank))
                    continue;
                inSteps[kindInGroup] += stepOf[k] >= 0;
                if (stepOf[k] < 0)
                    continue;
                Kind &figures = kinds[kindInGroup];
                figures.durations[{std::size_t(&group - groups.data()), row.rank}].push_back(
                    double(kernel.duration));
                if (args && args->bytes > 0 && kernel.duration > 0) {
                    figures.bytes += double(args->bytes);
                    figures.bytesNs += double(kernel.duration);
                    if (const double factor = busFactor(kind, args->groupSize); !std::isnan(factor)) {
                        figures.busBytes += double(args->bytes) * factor;
                        figures.busNs += double(kernel.duration);
                    }
                }
            }
            if (row.steps > 0)
                for (const auto &[kind, n] : inSteps)
                    kinds[kind].perStep.push_back(double(n) / double(row.steps));
        }
        if (group.size() >= 2)
            m_collectives.push_back(matchCollectives(side, group, byName, rankStepKeys, &m_rows[first]));
        else if (m_rows.back().unlaunchedNs > 0) // a GPU alone: what its profile lost, as a job's say it
            m_loneNotes << QStringLiteral("%1 %2: %3")
                               .arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"),
                                    group.front()->run.label(), lostLaunchesText(m_rows.back().unlaunchedNs));
    }
    for (const auto &[kind, k] : kinds) {
        if (k.durations.empty()) // its kernels all outside the steps
            continue;
        CollectiveRow row;
        row.side = side;
        row.collective = kind.first;
        row.processGroup = kind.second;
        row.perStep = k.perStep.empty() ? RankRow::kUnset : stats::meanVariance(k.perStep).mean;
        std::vector<double> all;
        for (const auto &[rank, durations] : k.durations) {
            all.insert(all.end(), durations.begin(), durations.end());
            const double m = stats::median(durations);
            if (std::isnan(row.rankMedianMinNs) || m < row.rankMedianMinNs)
                row.rankMedianMinNs = m;
            if (std::isnan(row.rankMedianMaxNs) || m > row.rankMedianMaxNs) {
                row.rankMedianMaxNs = m;
                row.longestOn.clear();
            }
            if (m == row.rankMedianMaxNs && rank.second >= 0) // the same rank of another run once
                row.longestOn.push_back(rank.second);
        }
        std::sort(row.longestOn.begin(), row.longestOn.end());
        row.longestOn.erase(std::unique(row.longestOn.begin(), row.longestOn.end()), row.longestOn.end());
        row.medianNs = stats::median(all);
        // time-weighted (bytes per ns = GB/s): messages of two sizes give the bandwidth they moved at
        // together; a median of the kernels' had fallen between the two, matching no kernel
        if (k.bytesNs > 0)
            row.algbwGBps = k.bytes / k.bytesNs;
        if (k.busNs > 0)
            row.busbwGBps = k.busBytes / k.busNs;
        m_kinds.push_back(row);
    }
}

QString RankTable::stepScopeText() const
{
    return m_stepScope.isEmpty() ? tr("the whole run") : m_stepScope;
}

void RankTable::compare()
{
    // The entries of each side (a rank of a run) as Replication sees them: a run's ranks one run, and
    // processes the unit when a side has ≥ 2, as steps and diff test.
    std::vector<RunOrigin> origins[2];
    std::vector<const RankRow *> entries[2];
    for (const RankRow &row : m_rows) {
        entries[row.side].push_back(&row);
        origins[row.side].push_back(row.origin);
    }
    const Replication replication(origins[0], origins[1]);
    const ComparedRanks &compared = m_compared;
    m_caveat = replication.caveat(!compared.all);
    // Per side, what is compared -> a value per entry (NaN: none there): its step time, its run's
    // slowest rank's, and for each rank its own; then one value per unit.
    std::vector<QString> order = {tr("mean over ranks"), tr("slowest rank")};
    std::map<QString, std::vector<double>> values[2];
    for (int side = 0; side < 2; ++side) {
        const std::vector<const RankRow *> &rows = entries[side];
        std::map<int, double> slowest; // by run
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (!std::isnan(rows[i]->stepNs) && compared.counts(rows[i]->rank)) {
                double &s =
                    slowest.try_emplace(replication.runOf(side, int(i)), rows[i]->stepNs).first->second;
                s = std::max(s, rows[i]->stepNs);
            }
        std::map<QString, std::vector<double>> perEntry;
        const auto entry = [&](const QString &what) -> std::vector<double> & {
            std::vector<double> &v = perEntry[what];
            if (v.empty())
                v.assign(rows.size(), RankComparisonRow::kUnset);
            return v;
        };
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto run = slowest.find(replication.runOf(side, int(i)));
            entry(order[0])[i] = compared.counts(rows[i]->rank) ? rows[i]->stepNs : RankComparisonRow::kUnset;
            entry(order[1])[i] = run == slowest.end() ? RankComparisonRow::kUnset : run->second;
            if (rows[i]->rank >= 0) {
                const QString rank = tr("rank %1").arg(rows[i]->rank);
                entry(rank)[i] = rows[i]->stepNs;
                if (std::find(order.begin(), order.end(), rank) == order.end())
                    order.push_back(rank);
            }
        }
        for (const auto &[what, perRow] : perEntry)
            for (double v : replication.unitValues(side, perRow))
                if (!std::isnan(v))
                    values[side][what].push_back(v);
    }
    for (const QString &what : order) {
        RankComparisonRow row;
        row.what = what;
        row.valuesA = values[0][what];
        row.valuesB = values[1][what];
        row.unitsA = int(row.valuesA.size());
        row.unitsB = int(row.valuesB.size());
        const stats::MeanVariance ma = stats::meanVariance(row.valuesA),
                                  mb = stats::meanVariance(row.valuesB);
        row.meanA = ma.mean;
        row.meanB = mb.mean;
        row.delta = mb.mean - ma.mean;
        if (row.unitsA == 0 && row.unitsB == 0)
            row.reason = tr("on neither side");
        else if (row.unitsA == 0 || row.unitsB == 0)
            row.reason = tr("not on both sides");
        else if (row.unitsA < 2 || row.unitsB < 2)
            row.reason = replication.byProcess()
                             ? tr("one process on a side: process-to-process variation not measured")
                             : tr("one run on a side: run-to-run variation not measured");
        else
            row.pRaw = stats::welchTest(ma, mb).p;
        m_comparison.push_back(row);
    }
    judgeTogether({this});
}

void RankTable::judgeTogether(const std::vector<RankTable *> &tables)
{
    // The mean over ranks is the question asked, tested alone (of several candidates, their means one
    // Holm family); the slowest rank and each rank, of every candidate, another; each interval at the
    // level its row is judged.
    std::vector<double> meanP, restP;
    for (const RankTable *table : tables)
        for (std::size_t i = 0; i < table->m_comparison.size(); ++i)
            (i == 0 ? meanP : restP).push_back(table->m_comparison[i].pRaw);
    const double alpha = tables.empty() ? 0.05 : tables.front()->m_options.alpha;
    const std::vector<double> meanHolm = stats::holmAdjust(meanP),
                              meanLevels = stats::holmLevels(meanP, alpha),
                              restHolm = stats::holmAdjust(restP),
                              restLevels = stats::holmLevels(restP, alpha);
    std::size_t nextMean = 0, nextRest = 0;
    for (RankTable *table : tables) {
        const double stepA =
            table->m_comparison.empty() ? RankComparisonRow::kUnset : table->m_comparison.front().meanA;
        for (std::size_t i = 0; i < table->m_comparison.size(); ++i) {
            RankComparisonRow &row = table->m_comparison[i];
            const std::size_t k = i == 0 ? nextMean++ : nextRest++;
            row.p = (i == 0 ? meanHolm : restHolm)[k];
            const double level = (i == 0 ? meanLevels : restLevels)[k];
            row.ciLow = row.ciHigh = row.ciLevel = RankComparisonRow::kUnset;
            if (!std::isnan(level)) {
                const Interval interval = welchIntervalAtLevel(row.valuesA, row.valuesB, row.pRaw, level);
                row.ciLow = interval.low;
                row.ciHigh = interval.high;
                row.ciLevel = 1 - level;
            }
            row.verdict = runLevelVerdict(row.p, stepA > 0 ? row.delta / stepA : RankComparisonRow::kUnset,
                                          table->m_options.alpha, table->m_options.threshold);
        }
    }
}

const std::vector<TableColumn<RankRow>> &RankTable::columns()
{
    using C = TableColumn<RankRow>;
    auto number = [](double RankRow::*field) {
        return [field](const RankRow &r) { return QVariant(r.*field); };
    };
    static const std::vector<C> columns = {
        C{QStringLiteral("side"),
          tr("Side"),
          tr("A or B"),
          [](const RankRow &r) { return QVariant(r.side == 0 ? QStringLiteral("A") : QStringLiteral("B")); },
          cell::text,
          {},
          -4},
        C{QStringLiteral("run"),
          tr("Run"),
          tr("The run: its ranks share its name"),
          [](const RankRow &r) { return QVariant(r.run); },
          cell::text,
          {},
          -12},
        C{QStringLiteral("rank"),
          tr("Rank"),
          tr("The GPU of the job (empty: a run of one GPU)"),
          [](const RankRow &r) { return r.rank >= 0 ? QVariant(r.rank) : QVariant(); },
          cell::text,
          {},
          4},
        C{QStringLiteral("steps"),
          tr("Steps"),
          tr("Steps with kernels on this rank"),
          [](const RankRow &r) { return QVariant(qlonglong(r.steps)); },
          cell::text,
          {},
          5},
        C{QStringLiteral("step_ns"),
          tr("Step"),
          tr("Mean step time: first kernel start to last kernel end"),
          number(&RankRow::stepNs),
          cell::duration,
          {},
          10},
        C{QStringLiteral("busy_ns"),
          tr("Busy"),
          tr("Mean GPU busy per step: the union of its kernels"),
          number(&RankRow::busyNs),
          cell::duration,
          {},
          10},
        C{QStringLiteral("compute_ns"),
          tr("Compute"),
          tr("Mean per step of the union of the non-communication kernels"),
          number(&RankRow::computeNs),
          cell::duration,
          {},
          10},
        C{QStringLiteral("exposed_comm_ns"),
          tr("Exposed comm"),
          tr("Mean per step of the time only communication runs: busy − compute"),
          number(&RankRow::exposedCommNs),
          cell::duration,
          {},
          12},
        C{QStringLiteral("overlapped_comm_ns"),
          tr("Overlapped comm"),
          tr("Mean per step of the communication hidden under compute"),
          number(&RankRow::overlappedCommNs),
          cell::duration,
          {},
          12},
        C{QStringLiteral("idle_ns"),
          tr("Idle"),
          tr("Mean GPU idle per step: step − busy"),
          number(&RankRow::idleNs),
          cell::duration,
          {},
          10},
        C{QStringLiteral("comm_kernels"),
          tr("Comm kernels"),
          tr("Communication kernels per step"),
          number(&RankRow::commKernels),
          cell::count,
          {},
          6},
        C{QStringLiteral("collective_wait_ns"),
          tr("Wait"),
          tr("Per step, the sum of its waits at collectives: the latest rank's start − its own start, the "
             "k-th communication kernel of a name in a step on every rank being one collective"),
          number(&RankRow::collectiveWaitNs),
          cell::duration,
          {},
          10},
        C{QStringLiteral("arrived_last_share"),
          tr("Arrived last"),
          tr("Of its matched collectives, the share where it started last: where it held the others back "
             "(ranks that started together at the latest share it)"),
          number(&RankRow::arrivedLastShare),
          cell::percent,
          {},
          8},
    };
    return columns;
}

const std::vector<TableColumn<RankComparisonRow>> &RankTable::comparisonColumns()
{
    using C = TableColumn<RankComparisonRow>;
    auto number = [](double RankComparisonRow::*field) {
        return [field](const RankComparisonRow &r) { return QVariant(r.*field); };
    };
    static const std::vector<C> columns = {
        C{QStringLiteral("what"),
          tr("Step time of"),
          tr("The mean over a run's ranks, its slowest rank, or one rank"),
          [](const RankComparisonRow &r) { return QVariant(r.what); },
          cell::text,
          {},
          -16},
        C{QStringLiteral("n_a"),
          tr("n A"),
          tr("A's units the row is tested on: its runs, or its processes when it has several"),
          [](const RankComparisonRow &r) { return QVariant(r.unitsA); },
          cell::count,
          {},
          4},
        C{QStringLiteral("n_b"),
          tr("n B"),
          tr("B's units the row is tested on: its runs, or its processes when it has several"),
          [](const RankComparisonRow &r) { return QVariant(r.unitsB); },
          cell::count,
          {},
          4},
        C{QStringLiteral("mean_a_ns"),
          tr("A"),
          tr("Mean over A's runs"),
          number(&RankComparisonRow::meanA),
          cell::duration,
          {},
          10},
        C{QStringLiteral("mean_b_ns"),
          tr("B"),
          tr("Mean over B's runs"),
          number(&RankComparisonRow::meanB),
          cell::duration,
          {},
          10},
        C{QStringLiteral("delta_ns"),
          tr("Δ"),
          tr("B − A"),
          number(&RankComparisonRow::delta),
          cell::signedDuration,
          {},
          10},
        C{QStringLiteral("ci_low_ns"),
          tr("CI low"),
          tr("Welch–Satterthwaite interval of Δ at the level its verdict is judged: low end"),
          number(&RankComparisonRow::ciLow),
          cell::signedDuration,
          {},
          10},
        C{QStringLiteral("ci_high_ns"),
          tr("CI high"),
          tr("The same interval: high end"),
          number(&RankComparisonRow::ciHigh),
          cell::signedDuration,
          {},
          10},
        C{QStringLiteral("ci_level"),
          tr("CI level"),
          tr("1 − α for the mean over ranks, tested alone; Holm's step-down level for the slowest rank and "
             "each rank, one family"),
          number(&RankComparisonRow::ciLevel),
          cell::percent,
          {},
          8},
        C{QStringLiteral("p"),
          tr("p judged"),
          tr("Welch's p on the runs; Holm-adjusted in the family"),
          number(&RankComparisonRow::p),
          cell::pValue,
          {},
          8},
        C{QStringLiteral("verdict"),
          tr("Verdict"),
          tr("B faster/slower: p judged below α, |Δ| at least the threshold"),
          [](const RankComparisonRow &r) { return QVariant(r.verdictText()); },
          cell::text,
          {},
          -1},
    };
    return columns;
}

const std::vector<TableColumn<CollectiveRow>> &RankTable::collectiveColumns()
{
    using C = TableColumn<CollectiveRow>;
    auto number = [](double CollectiveRow::*field) {
        return [field](const CollectiveRow &r) { return QVariant(r.*field); };
    };
    static const std::vector<C> columns = {
        C{QStringLiteral("side"),
          tr("Side"),
          tr("A or B"),
          [](const CollectiveRow &r) {
              return QVariant(r.side == 0 ? QStringLiteral("A") : QStringLiteral("B"));
          },
          cell::text,
          {},
          -4},
        C{QStringLiteral("collective"),
          tr("Collective"),
          tr("The kind: its Collective name arg, the NCCL kernel's (AllReduce, SendRecv) or the XLA op's"),
          [](const CollectiveRow &r) { return QVariant(r.collective); },
          cell::text,
          {},
          -24},
        C{QStringLiteral("process_group"),
          tr("Process group"),
          tr("The process group its kernels' args name (Process Group Name and Ranks), empty where they name "
             "none: a kind in two groups, such as tensor- and data-parallel all-reduces, is two rows"),
          [](const CollectiveRow &r) {
              return r.processGroup.isEmpty() ? QVariant() : QVariant(r.processGroup);
          },
          cell::text,
          {},
          -14},
        C{QStringLiteral("per_step"),
          tr("Per step"),
          tr("Kernels of this kind per step and rank"),
          number(&CollectiveRow::perStep),
          cell::count,
          {},
          8},
        C{QStringLiteral("median_ns"),
          tr("Median"),
          tr("Median duration over every rank's kernels of this kind"),
          number(&CollectiveRow::medianNs),
          cell::duration,
          {},
          10},
        C{QStringLiteral("rank_median_min_ns"),
          tr("Shortest rank"),
          tr("The shortest median duration of a rank"),
          number(&CollectiveRow::rankMedianMinNs),
          cell::duration,
          {},
          12},
        C{QStringLiteral("rank_median_max_ns"),
          tr("Longest rank"),
          tr("The longest median duration of a rank: where a collective runs long, it mostly waits"),
          number(&CollectiveRow::rankMedianMaxNs),
          cell::duration,
          {},
          12},
        C{QStringLiteral("longest_on"),
          tr("Longest on"),
          tr("The rank whose median duration is the longest, or the ranks that tie for it. A collective's "
             "kernels run until the last rank arrives, so the longest mostly waited: the ranks' Wait "
             "measures it, and their Arrived last names who they waited for"),
          [](const CollectiveRow &r) {
              QStringList ranks;
              for (const int rank : r.longestOn)
                  ranks << QString::number(rank);
              return ranks.isEmpty() ? QVariant() : QVariant(ranks.join(QStringLiteral(", ")));
          },
          cell::text,
          {},
          8},
        C{QStringLiteral("algbw_gbps"),
          tr("Alg GB/s"),
          tr("Algorithm bandwidth of its kernels: their message bytes (the args' larger of In/Out msg "
             "nelems × dtype) over their time, summed over the kernels with sizes; empty when the trace "
             "gives none"),
          number(&CollectiveRow::algbwGBps),
          cell::count,
          {},
          9},
        C{QStringLiteral("busbw_gbps"),
          tr("Bus GB/s"),
          tr("Bus bandwidth: the same of the bytes × 2(n−1)/n for all-reduce, (n−1)/n for all-gather, "
             "reduce-scatter and all-to-all, × 1 otherwise (nccl-tests), n the args' Group size"),
          number(&CollectiveRow::busbwGBps),
          cell::count,
          {},
          9},
    };
    return columns;
}

QString RankTable::toCsv() const
{
    return tableCsv(columns(), m_rows);
}

QString RankTable::comparisonCsv() const
{
    return tableCsv(comparisonColumns(), m_comparison);
}

QString RankTable::collectivesCsv() const
{
    return tableCsv(collectiveColumns(), m_kinds);
}

QString RankTable::note(const RunCollectives &c, const QString &sideName) const
{
    // the slowest rank of the run, and the one that held the collectives back most often: every rank
    // tied for either
    std::vector<const RankRow *> slowest, latest;
    const auto keepGreatest = [](std::vector<const RankRow *> &best, const RankRow &row, double value,
                                 double RankRow::*field) {
        if (std::isnan(value) || (!best.empty() && value < best.front()->*field))
            return;
        if (!best.empty() && value > best.front()->*field)
            best.clear();
        best.push_back(&row);
    };
    for (const RankRow &row : m_rows)
        if (row.side == c.side && row.run == c.run) {
            keepGreatest(slowest, row, row.stepNs, &RankRow::stepNs);
            keepGreatest(latest, row, row.arrivedLastShare, &RankRow::arrivedLastShare);
        }
    const auto ranksOf = [](const std::vector<const RankRow *> &rows) {
        std::vector<int> ranks;
        for (const RankRow *row : rows)
            ranks.push_back(row->rank);
        return rows.size() == 1 ? tr("rank %1").arg(ranks.front())
                                : tr("ranks %1, tied").arg(rankList(ranks));
    };
    QString line = tr("%1 %2: %3 ranks, %4 collectives matched")
                       .arg(!sideName.isEmpty() ? sideName
                            : c.side == 0       ? QStringLiteral("A")
                                                : QStringLiteral("B"),
                            c.run, QString::number(c.ranks), QString::number(c.matched));
    if (c.processGroups > 1) // each within its group's ranks
        line += tr(" in %1 process groups").arg(c.processGroups);
    if (!std::isnan(c.medianEndSpreadNs))
        line += tr(" (their ends %1 apart at the median)").arg(formatDuration(c.medianEndSpreadNs));
    // The longest step is often the rank that waits most; the one the others wait for arrives last.
    if (!latest.empty())
        line += tr("; arrived last most often (the others wait for it): %1 (%2 of its collectives)")
                    .arg(ranksOf(latest), formatPercent(latest.front()->arrivedLastShare));
    if (!slowest.empty()) {
        line += tr("; longest step: %1 (%2").arg(ranksOf(slowest), formatDuration(slowest.front()->stepNs));
        if (slowest.size() == 1 && !std::isnan(slowest.front()->collectiveWaitNs))
            line += tr(", of it %1 waiting at collectives")
                        .arg(formatDuration(slowest.front()->collectiveWaitNs));
        line += QLatin1Char(')');
    }
    if (!c.note.isEmpty())
        line += QStringLiteral("; ") + c.note;
    return line;
}

QString RankTable::lostLaunchesText(double nsPerStep)
{
    return tr("kernels without a launch call in the trace ran during the steps and count in none (a mean of "
              "%1 of GPU time a step): the profiler lost their calls")
        .arg(formatDuration(nsPerStep));
}

QString RankTable::aloneNote(int side, const QString &run) const
{
    const RankRow *alone = nullptr;
    for (const RankRow &row : m_rows)
        if (row.side == side && row.run == run) {
            if (alone)
                return {}; // a run of several GPUs
            alone = &row;
        }
    if (!alone || alone->rank < 0 || alone->origin.worldSize < 2)
        return {};
    QString text =
        tr("Rank %1 of a job of %2 GPUs, alone here: no other rank to wait for at its collectives, "
           "so its exposed communication includes waiting for the ranks not here")
            .arg(alone->rank)
            .arg(alone->origin.worldSize);
    if (alone->unlaunchedNs > 0)
        text += QStringLiteral("; ") + lostLaunchesText(alone->unlaunchedNs);
    return text;
}

QStringList RankTable::notes() const
{
    QStringList lines;
    for (const RunCollectives &c : m_collectives)
        lines << note(c);
    lines << m_loneNotes;
    if (!m_compared.note().isEmpty())
        lines << m_compared.note();
    return lines;
}

} // namespace scopeline
