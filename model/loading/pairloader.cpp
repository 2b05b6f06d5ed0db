// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/pairloader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent>

#include <algorithm>
#include <mutex>
#include <numeric>

namespace scopeline {

PairLoader::PairLoader(QObject *parent) : QObject(parent) {}

PairLoader::~PairLoader()
{
    cancel();
    if (m_watcher)
        m_watcher->waitForFinished();
}

namespace {
// Trace files up to this size in all keep their events on a side (small traces cost little memory).
constexpr qint64 kKeepEventsBytes = 8 << 20;
} // namespace

PairLoadResult PairLoader::load(const QString &pathA, const QString &pathB,
                                const std::function<void(double, const QString &)> &progress,
                                const std::atomic<bool> *cancel)
{
    return load(QStringList{pathA, pathB}, progress, cancel);
}

PairLoadResult PairLoader::load(const QStringList &paths,
                                const std::function<void(double, const QString &)> &progress,
                                const std::atomic<bool> *cancel, SideFailure failure)
{
    PairLoadResult result;
    // A path given twice (one trace opened against itself) is loaded once, its runs shared.
    QStringList distinct;
    for (const QString &path : paths)
        if (!distinct.contains(path))
            distinct << path;
    if (distinct.size() < paths.size()) {
        result = load(distinct, progress, cancel, failure);
        if (result.ok()) {
            std::vector<QList<LoadedRun>> sides;
            QStringList sideErrors;
            for (const QString &path : paths) {
                sides.push_back(result.sides[std::size_t(distinct.indexOf(path))]);
                sideErrors << result.sideErrors.value(distinct.indexOf(path));
            }
            result.sides = std::move(sides);
            result.sideErrors = sideErrors;
            result.a = result.sides.front();
            result.b = result.sides.size() > 1 ? result.sides[1] : QList<LoadedRun>();
        }
        return result;
    }
    // Every side in one parallel load, so that the threads stay busy across the side boundaries.
    std::vector<TraceRun> runs;
    std::vector<int> sideOf; // per run
    std::vector<int> counts; // runs per side
    QStringList unreadable;  // a line for each side without a run: all of them, not the first alone
    result.sideErrors = QStringList(paths.size(), QString());
    // a candidate that may fail is left out with its reason; the baseline, or any side of a pair, fails all
    const auto failed = [&](qsizetype side, const QString &error) {
        if (failure == SideFailure::CandidatesMayFail && side > 0)
            result.sideErrors[side] = error;
        else
            unreadable << error;
    };
    for (const QString &path : paths) {
        QString error;
        const std::vector<TraceRun> found = TraceFolder::scan(path, &error, &result.notes);
        if (found.empty())
            failed(qsizetype(counts.size()), error);
        runs.insert(runs.end(), found.begin(), found.end());
        sideOf.insert(sideOf.end(), found.size(), int(counts.size()));
        counts.push_back(int(found.size()));
    }
    if (!unreadable.isEmpty()) {
        result.error = unreadable.join(u'\n');
        return result;
    }
    const int sides = int(counts.size());

    // The first run of a side keeps its events for the timelines, and so do the next ones while the
    // side's trace files add up to little; the others are summarised and let go as each is (the window
    // loads them again when picked), so memory holds summaries, not traces, however many runs there are.
    std::vector<double> sizes;
    std::vector<LoadedRun::Events> events;
    std::vector<qint64> keptBytes(std::size_t(sides), 0); // trace file bytes per side so far
    double total = 0;
    for (int i = 0; i < int(runs.size()); ++i) {
        const qint64 size = std::max<qint64>(1, QFileInfo(runs[std::size_t(i)].file).size());
        qint64 &kept = keptBytes[std::size_t(sideOf[std::size_t(i)])];
        const bool first = kept == 0;
        kept += size;
        events.push_back(first || kept <= kKeepEventsBytes ? LoadedRun::Events::Keep : LoadedRun::Events::Drop);
        sizes.push_back(double(size));
        total += double(size);
    }

    // Progress by file size (one large run dominates the loading time), said as the runs done per side
    // (a pair) or in all (more sides); the runs report from several threads at once.
    std::mutex mutex;
    std::vector<double> fractions(runs.size(), 0.0);
    double read = 0; // the sum of fractions[i] * sizes[i]
    std::vector<int> done(std::size_t(sides), 0);
    const auto doneText = [&] {
        if (sides == 1)
            return QCoreApplication::translate("PairLoader", "Loading runs: %1 of %2 done").arg(done[0]).arg(counts[0]);
        if (sides == 2)
            return QCoreApplication::translate("PairLoader", "Loading runs: A %1 of %2, B %3 of %4 done")
                .arg(done[0])
                .arg(counts[0])
                .arg(done[1])
                .arg(counts[1]);
        return QCoreApplication::translate("PairLoader", "Loading %1 variants: %2 of %3 runs done")
            .arg(sides)
            .arg(std::accumulate(done.begin(), done.end(), 0))
            .arg(runs.size());
    };
    auto onProgress = [&](int i, double fraction) {
        if (!progress)
            return;
        const std::lock_guard<std::mutex> lock(mutex);
        fraction = std::clamp(fraction, 0.0, 1.0);
        if (fraction <= fractions[std::size_t(i)])
            return;
        if (fraction >= 1.0)
            ++done[std::size_t(sideOf[std::size_t(i)])];
        read += (fraction - fractions[std::size_t(i)]) * sizes[std::size_t(i)];
        fractions[std::size_t(i)] = fraction;
        progress(std::min(read / total, 1.0), doneText());
    };
    if (progress)
        progress(0.0, doneText());
    const QList<QList<LoadedRun>> each = LoadedRun::loadEach(
        runs, events, onProgress, cancel, LoadedRun::Scopes::Index, LoadedRun::OnFailure::Continue);
    std::vector<QList<LoadedRun>> bySide(static_cast<std::size_t>(sides));
    for (qsizetype i = 0; i < each.size(); ++i)
        bySide[std::size_t(sideOf[std::size_t(i)])].append(each[i]); // a trace of several GPUs: its ranks
    const auto cancelled = [](const LoadedRun &run) { return run.cancelled; };
    for (const QList<LoadedRun> &side : bySide)
        if (std::any_of(side.begin(), side.end(), cancelled)) {
            result.cancelled = true;
            return result;
        }
    // A run that cannot be read is left out, and named, where its side keeps others: a profiler killed
    // while writing leaves its last trace cut short, and the other runs are still worth comparing. Its
    // ranks go with it (ranks sit inside a run). A side left with no run fails the load, or is left out
    // (CandidatesMayFail).
    for (qsizetype s = 0; s < qsizetype(bySide.size()); ++s) {
        QList<LoadedRun> &side = bySide[std::size_t(s)];
        if (!result.sideErrors[s].isEmpty())
            continue; // its scan found no run
        QStringList failedRuns, errors;
        for (const LoadedRun &run : side)
            if (!run.ok() && !failedRuns.contains(run.run.name)) {
                failedRuns << run.run.name;
                errors << run.error;
            }
        side.removeIf([&](const LoadedRun &run) { return failedRuns.contains(run.run.name); });
        if (side.isEmpty()) {
            failed(s, errors.front());
            continue;
        }
        if (const QString twice = summaryBesideItsTrace(side); !twice.isEmpty())
            unreadable << twice;
        result.leftOut << errors << leaveOutRunsWithoutKernels(side);
    }
    if (!unreadable.isEmpty()) {
        result.error = unreadable.join(u'\n');
        result.leftOut.clear();
        return result;
    }
    result.sides = std::move(bySide);
    result.a = result.sides.front();
    result.b = result.sides.size() > 1 ? result.sides[1] : QList<LoadedRun>();
    if (progress)
        progress(1.0, QCoreApplication::translate("PairLoader", "Loaded"));
    return result;
}

int PairLoader::start(const QString &pathA, const QString &pathB)
{
    return start(QStringList{pathA, pathB});
}

int PairLoader::start(const QStringList &paths, SideFailure failure)
{
    cancel();
    const int job = ++m_job;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = m_cancel;

    // Progress crosses threads as queued calls, at most every 50 ms.
    QPointer<PairLoader> self(this);
    auto report = [self, job](double fraction, const QString &what) {
        QMetaObject::invokeMethod(
            self,
            [self, job, fraction, what] {
                if (self && self->m_job == job)
                    emit self->progress(job, fraction, what);
            },
            Qt::QueuedConnection);
    };

    auto *watcher = new QFutureWatcher<PairLoadResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job, cancelFlag] {
        PairLoadResult result = watcher->result();
        // A cancel asked for while the finished result was on its way still wins: the user saw a
        // load in flight and was promised the document shown stays.
        if (cancelFlag->load() && !result.cancelled) {
            result = PairLoadResult();
            result.cancelled = true;
        }
        watcher->deleteLater();
        if (m_watcher == watcher)
            m_watcher = nullptr;
        if (job == m_job) // a newer start() makes this one stale
            emit finished(job, result);
    });
    m_watcher = watcher;
    // The job waits on the global pool for its runs, which load on LoadedRun::loadingPool(): never on
    // the pool it waits in (blockingMapped queues its work there and waits: two jobs would deadlock).
    watcher->setFuture(QtConcurrent::run([paths, cancelFlag, report, failure] {
        QElapsedTimer throttle; // load() calls progress one at a time
        throttle.start();
        return load(
            paths,
            [&](double fraction, const QString &what) {
                if (throttle.elapsed() >= 50 || fraction >= 1.0) {
                    throttle.restart();
                    report(fraction, what);
                }
            },
            cancelFlag.get(), failure);
    }));
    return job;
}

void PairLoader::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

bool PairLoader::isRunning() const
{
    return m_watcher && m_watcher->isRunning();
}

} // namespace scopeline
