// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The timeline of one run: CPU threads with their runtime calls above GPU streams with their kernels,
// idle gaps shaded, launch -> kernel arrows; zoom (wheel, +/-), pan (drag), range selection, fit.
// The widget routes input to its parts: TimelineLayout (rows), TimelineViewState (what is shown and
// picked), timeline hit testing and geometry, TimelinePainter and TimelineTheme.

#include "model/loading/loadedrun.h"
#include "model/timeline/timelinelayout.h"
#include "widgets/timeline/timescale.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace scopeline {

class TimelineViewState;

class TimelineView : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    // Shows a run (an empty LoadedRun clears the view) and fits it; the second form with its rows
    // built already (TimelineLayout(run), e.g. on another thread).
    void setRun(const LoadedRun &run);
    void setRun(const LoadedRun &run, std::shared_ptr<const TimelineLayout> layout);
    const LoadedRun &run() const;
    // The rows of the run now shown.
    const TimelineLayout &layout() const;
    // The visible window, selection, hover and range; PairTimeline drives a locked pair through it.
    TimelineViewState &viewState() const;

    // Highlights the kernels with these exact names (the rest is faded); an empty list clears it.
    void setHighlightedKernels(const QStringList &names);
    bool hasHighlight() const;
    // Whether the run has a call of the highlighted kernels; when none is in view, the first is
    // brought to the middle (the span kept, unless the call is longer), and its row scrolled to.
    bool revealHighlighted();
    // Rows only: where no call of the highlighted kernels in the time shown is on a row in view, the
    // first one's row is scrolled to the middle (a pair's B under Lock zoom, which follows A's time).
    void scrollToHighlightedRow();
    // Highlight rectangles in the last painted frame (merged per pixel column), for tests.
    int highlightCount() const;
    // Highlights these time ranges ([start, end) in trace ns) across the GPU streams, e.g. the idle
    // gaps of one cause, and fades the rest (all of it for an empty list: "none here"); until cleared
    // or another run is set.
    void setHighlightedIntervals(std::vector<std::pair<int64_t, int64_t>> intervals);
    void clearHighlightedIntervals();
    bool hasIntervalHighlight() const;
    const std::vector<std::pair<int64_t, int64_t>> &highlightedIntervals() const; // by start
    // Interval bands in the last painted frame (per GPU stream row, merged per pixel column), for tests.
    int intervalBandCount() const;

    // The visible window in the trace's ns.
    int64_t visibleStart() const;
    int64_t visibleEnd() const;
    void setVisibleRange(int64_t start, int64_t end);
    void fit();
    // Zooms around the centre by a factor (> 1 zooms in).
    void zoomBy(double factor);

    int64_t selectedEvent() const; // -1 when none
    void selectEvent(int64_t event);

    // Rich-text description of an event (name, times, duration, args, scope path, launch/kernels),
    // shared by tooltips and the details pane: eventDetails() formatted by eventDetailsHtml().
    static QString describeEvent(const LoadedRun &run, uint32_t event);

    QSize sizeHint() const override;

    // The time <-> pixel mapping now shown; its x is relative to plotRect().left().
    const TimeScale &timeScale() const;
    // Where events are drawn (below the time axis, right of the track labels), widget coordinates.
    QRect plotRect() const;
    // Where an event is drawn now, widget coordinates (x clipped to a little beyond the plot);
    // empty when its track is collapsed or it is not in this run.
    QRect eventRect(uint32_t event) const;
    // The vertical scroll of the rows, px; setting it is a scroll of the user's (the view stops
    // following the GPU streams).
    int verticalScroll() const;
    void setVerticalScroll(int px);
    // Rows with nothing to show (a profiler's own span, a CPU thread with no slice in the visible
    // window) are hidden unless this is on; off by default.
    void setShowEmptyRows(bool show);
    bool showsEmptyRows() const;
    int hiddenRowCount() const;
    // The widest window zoom-out allows; 0 (default) is the trace's own extent. A wider window keeps
    // the whole trace in view; PairTimeline uses it so that the same length of time fits both runs.
    void setMaximumSpan(int64_t ns);
    // The Shift-dragged range, start == end when none.
    int64_t selectionStart() const;
    int64_t selectionEnd() const;

signals:
    void visibleRangeChanged(int64_t start, int64_t end);
    void eventSelected(int64_t event);
    // A dragged time range with Shift, or cleared (start == end).
    void rangeSelected(int64_t start, int64_t end);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace scopeline
