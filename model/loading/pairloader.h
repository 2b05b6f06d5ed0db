// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Loads the two sides of a comparison (A = baseline, B = candidate), or any number of them (variants), off
// the calling thread: scans each
// trace folder, loads and summarises the runs in parallel, with throttled progress, cancel, and stale
// jobs dropped.

#include "model/loading/loadedrun.h"

#include <QFutureWatcher>
#include <QList>
#include <QStringList>
#include <QObject>

#include <atomic>
#include <memory>
#include <vector>

namespace scopeline {

struct PairLoadResult
{
    QList<LoadedRun> a, b;
    std::vector<QList<LoadedRun>> sides; // every side in the order given: a and b, then any more
    QString error; // names the folder or file and the problem; the sides are empty then
    // Runs left out of sides that kept others (unreadable, or without the GPU kernels the others hold):
    // one message each, naming the file.
    QStringList leftOut;
    // What the folder scans noticed (a run folder without a trace, a file met twice, a partial world):
    // one line each, naming the path.
    QStringList notes;
    // With CandidatesMayFail: per side, why it was left out (its scan or every run failed), empty for
    // the sides loaded; a side left out is empty in `sides`.
    QStringList sideErrors;
    bool cancelled = false;
    bool ok() const { return error.isEmpty() && !cancelled; }
};

// Whether a side that cannot be read fails the whole load (a pair, the CLI), or, beyond the first (the
// baseline) side, is left out and named while the others load (the window's variants: one broken
// candidate of eight should not hide the seven).
enum class SideFailure { FailsAll, CandidatesMayFail };

class PairLoader : public QObject
{
    Q_OBJECT
public:
    explicit PairLoader(QObject *parent = nullptr);
    ~PairLoader() override;

    // Starts loading and returns the job id; a job still running is cancelled and its result dropped.
    int start(const QString &pathA, const QString &pathB);
    // The same for any number of sides (variants: a baseline and candidates).
    int start(const QStringList &paths, SideFailure failure = SideFailure::FailsAll);
    void cancel();
    bool isRunning() const;

    // The same work on the calling thread (used by the CLI and tests).
    static PairLoadResult load(const QString &pathA, const QString &pathB,
                               const std::function<void(double, const QString &)> &progress = {},
                               const std::atomic<bool> *cancel = nullptr);
    static PairLoadResult load(const QStringList &paths,
                               const std::function<void(double, const QString &)> &progress = {},
                               const std::atomic<bool> *cancel = nullptr,
                               SideFailure failure = SideFailure::FailsAll);

signals:
    void progress(int job, double fraction, const QString &what);
    void finished(int job, const scopeline::PairLoadResult &result);

private:
    int m_job = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<PairLoadResult> *m_watcher = nullptr;
};

} // namespace scopeline
