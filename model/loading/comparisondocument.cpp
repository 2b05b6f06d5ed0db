// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/comparisondocument.h"

#include <QDir>

namespace scopeline {

ComparisonDocument::ComparisonDocument(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<scopeline::PairLoadResult>();
    connect(&m_loader, &PairLoader::progress, this, [this](int job, double fraction, const QString &what) {
        if (job == m_job)
            emit progress(fraction, what);
    });
    connect(&m_loader, &PairLoader::finished, this, &ComparisonDocument::finish);
}

ComparisonDocument::~ComparisonDocument() = default;

bool ComparisonDocument::open(const QString &pathA, const QString &pathB, const SessionState &state)
{
    if (pathA.isEmpty() || pathB.isEmpty())
        return false;
    m_pending = state;
    // not trimmed: a name may begin or end with a space (the open dialog trims what was typed)
    m_pending.pathA = QDir::cleanPath(pathA);
    m_pending.pathB = QDir::cleanPath(pathB);
    m_job = m_loader.start(m_pending.pathA, m_pending.pathB);
    m_loading = true;
    return true;
}

void ComparisonDocument::cancel()
{
    m_loader.cancel();
}

void ComparisonDocument::finish(int job, const PairLoadResult &result)
{
    if (job != m_job)
        return;
    m_loading = false;
    if (result.cancelled) {
        emit loadEnded(LoadOutcome::Cancelled, {});
        return;
    }
    if (!result.ok()) {
        emit loadEnded(LoadOutcome::Failed, result.error);
        return;
    }
    m_a = result.a;
    m_b = result.b;
    m_state = m_pending;
    m_skipped = SkippedEvents::of(m_a, m_b);
    m_runsLeftOut = result.leftOut;
    m_scanNotes = result.notes;
    emit loadEnded(LoadOutcome::Loaded, {});
}

} // namespace scopeline
