// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The document of a comparison: the loaded runs of A and B with the session state they were opened
// with, and the load in flight that will replace them. A load that fails or is cancelled leaves the
// document as it was; only the latest load's result is taken.

#include "model/loading/loadedrun.h"
#include "model/loading/pairloader.h"
#include "model/loading/sessionfile.h"
#include "model/loading/skippedevents.h"

#include <QList>
#include <QObject>

namespace scopeline {

class ComparisonDocument : public QObject
{
    Q_OBJECT
public:
    enum class LoadOutcome { Loaded, Failed, Cancelled };
    Q_ENUM(LoadOutcome)

    explicit ComparisonDocument(QObject *parent = nullptr);
    ~ComparisonDocument() override;

    // Starts loading A and B (paths trimmed and cleaned, so "eager/" names its side as "eager" does);
    // `state` is the document's once loaded. A load still running is dropped. False for an empty path.
    bool open(const QString &pathA, const QString &pathB, const SessionState &state = {});
    void cancel();
    bool isLoading() const { return m_loading; }
    int job() const { return m_job; }

    const QList<LoadedRun> &runsA() const { return m_a; }
    const QList<LoadedRun> &runsB() const { return m_b; }
    // The state of the document shown (its paths, and the options it was opened with).
    const SessionState &state() const { return m_state; }
    // The state the running load was started with; the document's once it has loaded.
    const SessionState &pending() const { return m_pending; }
    // What the loaded runs left out.
    const SkippedEvents &skipped() const { return m_skipped; }
    // Runs that could not be read and were left out of their side: a message each, naming the file.
    const QStringList &runsLeftOut() const { return m_runsLeftOut; }
    // What the folder scans of the pair shown noticed (PairLoadResult::notes).
    const QStringList &scanNotes() const { return m_scanNotes; }

signals:
    void progress(double fraction, const QString &what);
    // The latest load has ended. Loaded: runs and state replaced. Failed: `error` names the file or
    // folder and the problem. Cancelled: nothing changed.
    void loadEnded(scopeline::ComparisonDocument::LoadOutcome outcome, const QString &error);

private:
    void finish(int job, const PairLoadResult &result);

    PairLoader m_loader;
    int m_job = 0;
    bool m_loading = false; // until the latest job's result is in
    SessionState m_pending;
    SessionState m_state;
    QList<LoadedRun> m_a, m_b;
    SkippedEvents m_skipped;
    QStringList m_runsLeftOut;
    QStringList m_scanNotes;
};

} // namespace scopeline
