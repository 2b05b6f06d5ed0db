#pragma once
// Loads trace files into TraceData: synchronously (load) or off the calling thread (start/cancel)
// with throttled progress, an atomic cancel flag and stale results dropped by job id.

#include "tracedata.h"

#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

namespace scopeline {

struct LoadResult
{
    QString path;
    std::shared_ptr<const TraceData> trace; // null on failure
    QString error;                          // names the file and what was wrong
    bool cancelled = false;
    bool ok() const { return trace != nullptr; }
};

class TraceLoader : public QObject
{
    Q_OBJECT
public:
    explicit TraceLoader(QObject *parent = nullptr);
    ~TraceLoader() override;

    // Reads one file. progress gets the fraction of the file read; a set cancel flag stops it.
    static LoadResult load(const QString &path, const std::function<void(double)> &progress = {},
                           const std::atomic<bool> *cancel = nullptr);

    // Loads the files in the background and returns the job id; a running job is cancelled.
    int start(const QStringList &paths);
    void cancel();
    bool isRunning() const;

signals:
    void progress(int job, double fraction);
    void finished(int job, const QList<scopeline::LoadResult> &results);

private:
    int m_job = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<QList<LoadResult>> *m_watcher = nullptr;
};

} // namespace scopeline
