// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/pairloader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent>

#include <algorithm>
#include <mutex>

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
    PairLoadResult result;
    QString error;
    const std::vector<TraceRun> runsA = TraceFolder::scan(pathA, &error);
    if (runsA.empty()) {
        result.error = error;
        return result;
    }
    const std::vector<TraceRun> runsB = TraceFolder::scan(pathB, &error);
    if (runsB.empty()) {
        result.error = error;
        return result;
    }

    // Both sides in one parallel load, so that the threads stay busy across the side boundary.
    std::vector<TraceRun> runs = runsA;
    runs.insert(runs.end(), runsB.begin(), runsB.end());
    const int countA = int(runsA.size());
    const int counts[2] = {countA, int(runsB.size())};

    // The first run of a side keeps its events for the timelines, and so do the next ones while the
    // side's trace files add up to little; the others are summarised and let go as each is (the window
    // loads them again when picked), so memory holds summaries, not traces, however many runs there are.
    std::vector<double> sizes;
    std::vector<LoadedRun::Events> events;
    qint64 keptBytes[2] = {0, 0}; // trace file bytes per side so far
    double total = 0;
    for (int i = 0; i < int(runs.size()); ++i) {
        const qint64 size = std::max<qint64>(1, QFileInfo(runs[std::size_t(i)].file).size());
        const int side = i < countA ? 0 : 1;
        const bool first = keptBytes[side] == 0;
        keptBytes[side] += size;
        events.push_back(first || keptBytes[side] <= kKeepEventsBytes ? LoadedRun::Events::Keep
                                                                      : LoadedRun::Events::Drop);
        sizes.push_back(double(size));
        total += double(size);
    }

    // Progress by file size (one large run dominates the loading time), said as the runs done per side;
    // the runs report from several threads at once.
    std::mutex mutex;
    std::vector<double> fractions(runs.size(), 0.0);
    double read = 0; // the sum of fractions[i] * sizes[i]
    int done[2] = {0, 0};
    auto onProgress = [&](int i, double fraction) {
        if (!progress)
            return;
        const std::lock_guard<std::mutex> lock(mutex);
        fraction = std::clamp(fraction, 0.0, 1.0);
        if (fraction <= fractions[std::size_t(i)])
            return;
        if (fraction >= 1.0)
            ++done[i < countA ? 0 : 1];
        read += (fraction - fractions[std::size_t(i)]) * sizes[std::size_t(i)];
        fractions[std::size_t(i)] = fraction;
        progress(std::min(read / total, 1.0),
                 QCoreApplication::translate("PairLoader", "Loading runs: A %1 of %2, B %3 of %4 done")
                     .arg(done[0])
                     .arg(counts[0])
                     .arg(done[1])
                     .arg(counts[1]));
    };
    if (progress)
        progress(0.0, QCoreApplication::translate("PairLoader", "Loading runs: A 0 of %1, B 0 of %2 done")
                          .arg(counts[0])
                          .arg(counts[1]));
    const QList<QList<LoadedRun>> each = LoadedRun::loadEach(runs, events, onProgress, cancel);
    QList<LoadedRun> sides[2];
    for (qsizetype i = 0; i < each.size(); ++i)
        sides[i < countA ? 0 : 1].append(each[i]); // a trace of several GPUs: its ranks
    const QList<LoadedRun> loaded = sides[0] + sides[1];

    result.error = LoadedRun::firstError(loaded);
    const bool allOk = std::all_of(loaded.begin(), loaded.end(), [](const LoadedRun &r) { return r.ok(); });
    if (!allOk) {
        result.cancelled = result.error.isEmpty();
        return result;
    }
    result.a = sides[0];
    result.b = sides[1];
    if (progress)
        progress(1.0, QCoreApplication::translate("PairLoader", "Loaded"));
    return result;
}

int PairLoader::start(const QString &pathA, const QString &pathB)
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
    watcher->setFuture(QtConcurrent::run([pathA, pathB, cancelFlag, report] {
        QElapsedTimer throttle; // load() calls progress one at a time
        throttle.start();
        return load(
            pathA, pathB,
            [&](double fraction, const QString &what) {
                if (throttle.elapsed() >= 50 || fraction >= 1.0) {
                    throttle.restart();
                    report(fraction, what);
                }
            },
            cancelFlag.get());
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
