// SPDX-License-Identifier: GPL-3.0-or-later
#include "pairloader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent>

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

    // Progress by file size: one large run dominates a side's loading time.
    std::vector<std::pair<const TraceRun *, QList<LoadedRun> *>> work;
    for (const TraceRun &run : runsA)
        work.emplace_back(&run, &result.a);
    for (const TraceRun &run : runsB)
        work.emplace_back(&run, &result.b);
    double total = 0, done = 0;
    for (const auto &item : work)
        total += double(std::max<qint64>(1, QFileInfo(item.first->file).size()));

    qint64 keptBytes[2] = {0, 0}; // trace file bytes per side so far
    for (const auto &[run, side] : work) {
        const double size = double(std::max<qint64>(1, QFileInfo(run->file).size()));
        const QString what = QCoreApplication::translate("PairLoader", "Loading %1").arg(run->name);
        auto onProgress = [&](double fraction) {
            if (progress)
                progress((done + fraction * size) / total, what);
        };
        onProgress(0);
        // The first run of a side keeps its events for the timelines, and so do the next ones while the
        // side's trace files add up to little; the others are summarised and let go (the window loads
        // them again when picked), so memory holds summaries, not traces, however many runs there are.
        qint64 &sideBytes = side == &result.a ? keptBytes[0] : keptBytes[1];
        sideBytes += qint64(size);
        const bool keep = side->isEmpty() || sideBytes <= kKeepEventsBytes;
        LoadedRun loaded = LoadedRun::load(*run, onProgress, cancel, LoadedRun::Scopes::Index,
                                           keep ? LoadedRun::Events::Keep : LoadedRun::Events::Drop);
        if (!loaded.ok()) {
            result.cancelled = loaded.cancelled;
            result.error = loaded.cancelled ? QString() : loaded.error;
            result.a.clear();
            result.b.clear();
            return result;
        }
        side->append(std::move(loaded));
        done += size;
    }
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
    watcher->setFuture(QtConcurrent::run([pathA, pathB, cancelFlag, report] {
        QElapsedTimer throttle;
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
