// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/runevents.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent>

namespace scopeline {

RunEvents::RunEvents(QObject *parent) : QObject(parent) {}

RunEvents::~RunEvents()
{
    clear();
}

LoadedRun RunEvents::get(int side, const LoadedRun &run)
{
    if (run.hasEvents() || !run.summary || run.run.file.isEmpty())
        return run;
    QList<LoadedRun> &kept = m_kept[side];
    for (qsizetype i = 0; i < kept.size(); ++i)
        if (kept[i].run.file == run.run.file) {
            kept.move(i, kept.size() - 1);
            return kept.back();
        }
    // A summary file holds no events: loading it would give the run back as it is, and the window,
    // told it is in, would ask again, for ever.
    if (!(m_loading[side] && m_loadingFile[side] == run.run.file) && run.hasTrace())
        start(side, run);
    return run;
}

void RunEvents::clear()
{
    ++m_generation;
    for (int side = 0; side < 2; ++side) {
        m_kept[side].clear();
        if (m_cancel[side])
            m_cancel[side]->store(true);
        m_loading[side] = false;
        m_loadingFile[side].clear();
    }
}

void RunEvents::start(int side, const LoadedRun &run)
{
    if (m_cancel[side])
        m_cancel[side]->store(true); // the run picked before this one is no longer wanted
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel[side] = cancel;
    m_loading[side] = true;
    m_loadingFile[side] = run.run.file;
    const int generation = m_generation;
    const QString what = QCoreApplication::translate("RunEvents", "Loading the events of %1").arg(run.run.label());

    // Progress crosses threads as queued calls, at most every 50 ms.
    QPointer<RunEvents> self(this);
    auto report = [self, what](double fraction) {
        QMetaObject::invokeMethod(
            self, [self, fraction, what] { if (self) emit self->progress(fraction, what); },
            Qt::QueuedConnection);
    };
    emit progress(0.0, what); // said at once: the timeline stays empty until the events are in
    auto *watcher = new QFutureWatcher<LoadedRun>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, side, generation, cancel] {
        const LoadedRun run = watcher->result();
        watcher->deleteLater();
        if (generation != m_generation || cancel->load())
            return; // a newer document, or a newer pick on this side
        m_loading[side] = false;
        m_loadingFile[side].clear();
        if (run.hasEvents()) {
            m_kept[side].append(run);
            while (m_kept[side].size() > kKeptPerSide)
                m_kept[side].removeFirst();
        }
        emit loaded(side, run.run.file, run.hasEvents() ? QString() : run.error);
    });
    watcher->setFuture(QtConcurrent::run([run, cancel, report] {
        QElapsedTimer throttle;
        throttle.start();
        return run.withEvents(
            [&](double fraction) {
                if (throttle.elapsed() >= 50) {
                    throttle.restart();
                    report(fraction);
                }
            },
            cancel.get());
    }));
}

} // namespace scopeline
