// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a timeline shows and what the user has picked: the time scale (visible range), the selected and
// hovered event or idle gap, the Shift-dragged range and the drag in progress. Every change goes
// through here, so zooming to an event or clearing the range has one implementation.

#include "widgets/timeline/timescale.h"

#include <QObject>
#include <QPoint>

#include <cstdint>

namespace scopeline {

class TraceData;

class TimelineViewState : public QObject
{
    Q_OBJECT
public:
    enum class Drag { None, Pan, Select };

    explicit TimelineViewState(QObject *parent = nullptr);

    // A new trace: the window fits [lower, upper], nothing is selected. Emits the new window, then
    // what was cleared.
    void reset(int64_t lower, int64_t upper, double width, int64_t maxSpan);

    // ---- the visible window
    const TimeScale &scale() const { return m_scale; }
    // Applies a changed scale (clamped); emits visibleRangeChanged when the window moved.
    bool setScale(const TimeScale &next);
    void setWidth(double px) { m_scale.width = px; }
    void setMaximumSpan(int64_t ns);
    void setVisibleRange(int64_t start, int64_t end);
    // Shows span ns from start (a locked pair keeps each start and shares the span).
    void showSpanFrom(int64_t start, int64_t span) { setVisibleRange(start, start + span); }
    // The same, from exactly start even where the window then reaches past the trace (its span still
    // within the limits): the aligned side of a locked pair shows the same step at its left edge even
    // when its run ends sooner. The next pan or zoom brings the window back inside.
    void showAlignedSpanFrom(int64_t start, int64_t span);
    void fit();
    void zoom(double factor, double anchorPx);
    void zoomBy(double factor) { zoom(factor, m_scale.width / 2); }
    void pan(double px);
    // Shows an event with a margin of an eighth of its length either side.
    void zoomToEvent(const TraceData &trace, uint32_t event);
    // Z: the selected range, else the selected event.
    void zoomToSelection(const TraceData *trace);

    // ---- selection and hover
    int64_t selectedEvent() const { return m_selected; }
    void selectEvent(int64_t event); // emits eventSelected when it changes
    int64_t hoveredEvent() const { return m_hovered; }
    int hoveredGapRow() const { return m_hoveredGapRow; }
    int64_t hoveredGap() const { return m_hoveredGap; }
    // true when the hover changed
    bool setHover(int64_t event, int gapRow, int64_t gap);
    void clearHover() { setHover(-1, -1, -1); }

    // ---- the Shift-dragged range, start <= end once finished
    bool hasRange() const { return m_hasRange; }
    int64_t rangeStart() const { return m_rangeStart; }
    int64_t rangeEnd() const { return m_rangeEnd; }
    // The band to draw: the finished range or the one being dragged.
    bool showsRange() const { return m_hasRange || m_drag == Drag::Select; }
    // Clears the range; emits rangeSelected(0, 0) when there was one.
    bool clearRange();

    // ---- dragging: a press, moves past a threshold, a release
    Drag drag() const { return m_drag; }
    bool dragMoved() const { return m_moved; }
    QPoint pressPos() const { return m_pressPos; }
    void press(QPoint pos, Drag drag, int64_t time);
    // Registers a move; true once the drag has gone past the threshold.
    bool moveTo(QPoint pos);
    // Pans by the horizontal distance from the press (vertical scrolling is the widget's).
    void panFromPress(QPoint pos);
    void setPressY(int y) { m_pressPos.setY(y); }
    void extendRange(int64_t time) { m_rangeEnd = time; }
    // Ends the drag; false when there was no press of ours (the release of a double click).
    // A moved range drag is finished (emits rangeSelected); a still one clears the range.
    bool release(int64_t time, Drag *ended);

signals:
    void visibleRangeChanged(int64_t start, int64_t end);
    void eventSelected(int64_t event);
    void rangeSelected(int64_t start, int64_t end); // start == end: cleared

private:
    TimeScale m_scale;
    int64_t m_maxSpan = 0;
    int64_t m_selected = -1;
    int64_t m_hovered = -1;
    int m_hoveredGapRow = -1;
    int64_t m_hoveredGap = -1;
    bool m_hasRange = false;
    int64_t m_rangeStart = 0, m_rangeEnd = 0;
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    TimeScale m_pressScale;
    bool m_pressed = false;
    bool m_moved = false;
};

} // namespace scopeline
