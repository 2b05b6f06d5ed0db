// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The events of the runs the timelines show, loaded on demand: a document keeps its runs' summaries
// (and the first run of each side with its events), and picking another run in a timeline's run
// picker loads that run's events off the GUI thread, keeping at most two such runs per side.

#include "model/loading/loadedrun.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace scopeline {

class RunEvents : public QObject
{
    Q_OBJECT
public:
    static constexpr int kKeptPerSide = 2;

    explicit RunEvents(QObject *parent = nullptr);
    ~RunEvents() override;

    // The run with its events when they are here (its own, or loaded before); else the run as it is,
    // and its events start loading (loaded() says when they are in) unless it is a summary file's.
    LoadedRun get(int side, const LoadedRun &run);
    // Forgets every loaded run and drops a load in flight (a new document).
    void clear();
    bool isLoading() const { return m_loading[0] || m_loading[1]; }

signals:
    void progress(double fraction, const QString &what);
    // A run's events are in (ok) or could not be loaded (error names the file).
    void loaded(int side, const QString &file, const QString &error);

private:
    void start(int side, const LoadedRun &run);

    QList<LoadedRun> m_kept[2]; // most recently used last
    bool m_loading[2] = {false, false};
    QString m_loadingFile[2];
    int m_generation = 0; // results of an earlier document are dropped
    std::shared_ptr<std::atomic<bool>> m_cancel[2];
};

} // namespace scopeline
