// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Two timelines stacked, A over B, each with its own time axis; with zoom locked, the same length of
// time fills both and they show the same place: the same step (the step scope's instance by index,
// at the same fraction of it, even past the end of the shorter run) when both runs have steps, else
// the same time after the first kernel (as far as the run goes), so eager vs graph launches read at a
// glance.

#include "widgets/timeline/timelineview.h"

#include <QWidget>

#include <cstdint>
#include <utility>
#include <vector>

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QToolButton;

namespace scopeline {

class PairTimeline : public QWidget
{
    Q_OBJECT
public:
    explicit PairTimeline(QWidget *parent = nullptr);

    void setRuns(const LoadedRun &a, const LoadedRun &b, const QString &labelA, const QString &labelB);
    // Puts a widget at the right end of side A's (0) or B's (1) title bar.
    void addTitleWidget(int side, QWidget *widget);
    // The button whose popup (and tooltip) is the colour key.
    QToolButton *colourKey() const { return m_key; }
    TimelineView *viewA() const;
    TimelineView *viewB() const;
    bool zoomLocked() const;
    void setZoomLocked(bool locked);
    // Locked with a timeline on both sides: B follows A (a side read from a summary file has none).
    bool aligning() const;
    // Both views' rows with nothing to show (TimelineView::setShowEmptyRows).
    void setShowEmptyRows(bool show);

    // Shows the whole of both runs (with zoom locked, the same length of time in both).
    void fitBoth();
    // Lock zoom aligns on steps of this scope: a name, StepBreakdownOptions::wholeRun() for none (the
    // first kernel), or empty for the scope detected in both runs.
    void setStepScope(const QString &scope);
    // How a locked pair is aligned now: "step N" (0-based, in run order) or "first kernel"; empty
    // when unlocked. The Lock zoom checkbox says it too.
    QString alignment() const;
    // Where the other side's window starts when this side's starts at start, aligned as above.
    int64_t alignedStart(int side, int64_t start) const;

signals:
    void zoomLockedChanged(bool locked);
    // A side's title bar was double-clicked (the window maximises the timelines).
    void titleDoubleClicked();
    void eventSelected(int side, int64_t event); // side 0 = A, 1 = B
    // Summary of a selected range (summariseRange() as rangeSummaryHtml()), empty when cleared.
    void rangeSummaryChanged(const QString &html);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void applyTheme();
    void elideTitle(int side);
    void syncSpan(int side);
    void summarise(int side, int64_t start, int64_t end);
    void updateMaximumSpans();
    void align(int side);
    void ensureSteps() const;
    // Both runs whole with their step 0 (else their first kernel) at the same point: the span, and
    // each side's start.
    int64_t alignedFit(int64_t starts[2]) const;
    // The step under a time of a side: its index and the fraction of it before the time; -1 when the
    // pair has no steps to align on.
    int stepAt(int side, int64_t time, double *fraction) const;
    void updateLockText();

    TimelineView *m_views[2] = {nullptr, nullptr};
    QLabel *m_titles[2] = {nullptr, nullptr};
    QWidget *m_titleBars[2] = {nullptr, nullptr};
    QLabel *m_hint = nullptr;
    QToolButton *m_key = nullptr; // the colour key, in a popup
    QLabel *m_keyText = nullptr;
    QHBoxLayout *m_titleLayouts[2] = {nullptr, nullptr};
    QString m_labels[2];
    QString m_titleTexts[2]; // before eliding
    QCheckBox *m_lock = nullptr;
    bool m_syncing = false;
    bool m_locked = false;
    // Step ranges per side when both runs have the same step scope (empty: align on the first kernel),
    // found when first needed.
    mutable std::vector<std::pair<int64_t, int64_t>> m_steps[2];
    mutable bool m_stepsKnown = false;
    QString m_stepScope;
    int m_alignedStep = -1; // the step now aligned on, -1: the first kernel
};

} // namespace scopeline
