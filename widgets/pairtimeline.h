// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Two timelines stacked, A over B, each with its own time axis; with zoom locked, the same length of
// time fills both, so eager vs graph launches read at a glance.

#include "timelineview.h"

#include <QWidget>

class QCheckBox;
class QHBoxLayout;
class QLabel;

namespace scopeline {

class PairTimeline : public QWidget
{
    Q_OBJECT
public:
    explicit PairTimeline(QWidget *parent = nullptr);

    void setRuns(const LoadedRun &a, const LoadedRun &b, const QString &labelA, const QString &labelB);
    // Puts a widget at the right end of side A's (0) or B's (1) title bar.
    void addTitleWidget(int side, QWidget *widget);
    TimelineView *viewA() const;
    TimelineView *viewB() const;
    bool zoomLocked() const;
    void setZoomLocked(bool locked);

    // Shows the whole of both runs (with zoom locked, the same length of time in both).
    void fitBoth();

signals:
    void zoomLockedChanged(bool locked);
    void eventSelected(int side, int64_t event); // side 0 = A, 1 = B
    // Summary of a selected range (summariseRange() as rangeSummaryHtml()), empty when cleared.
    void rangeSummaryChanged(const QString &html);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void applyTheme();
    void elideTitle(int side);
    void syncSpan(int side);
    void summarise(int side, int64_t start, int64_t end);
    void updateMaximumSpans();

    TimelineView *m_views[2] = {nullptr, nullptr};
    QLabel *m_titles[2] = {nullptr, nullptr};
    QWidget *m_titleBars[2] = {nullptr, nullptr};
    QLabel *m_hint = nullptr;
    QHBoxLayout *m_titleLayouts[2] = {nullptr, nullptr};
    QString m_labels[2];
    QString m_titleTexts[2]; // before eliding
    QCheckBox *m_lock = nullptr;
    bool m_syncing = false;
    bool m_locked = false;
};

} // namespace scopeline
