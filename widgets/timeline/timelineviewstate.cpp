// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/timelineviewstate.h"

#include "model/tracedata/tracedata.h"

#include <algorithm>
#include <utility>

namespace scopeline {

namespace {
constexpr int kDragThreshold = 3; // px before a press becomes a drag
}

TimelineViewState::TimelineViewState(QObject *parent) : QObject(parent) {}

void TimelineViewState::reset(int64_t lower, int64_t upper, double width, int64_t maxSpan)
{
    const bool hadSelection = m_selected >= 0, hadRange = m_hasRange;
    m_selected = -1;
    m_hasRange = false;
    m_drag = Drag::None;
    m_pressed = false;
    clearHover();
    m_maxSpan = maxSpan;
    m_scale = TimeScale();
    m_scale.maxSpan = maxSpan;
    m_scale.width = width;
    m_scale.setBounds(lower, upper);
    emit visibleRangeChanged(m_scale.start, m_scale.end);
    if (hadSelection)
        emit eventSelected(-1);
    if (hadRange)
        emit rangeSelected(0, 0);
}

bool TimelineViewState::setScale(const TimeScale &next)
{
    TimeScale clamped = next;
    clamped.clamp();
    const bool changed = clamped.start != m_scale.start || clamped.end != m_scale.end;
    m_scale = clamped;
    if (changed)
        emit visibleRangeChanged(m_scale.start, m_scale.end);
    return changed;
}

void TimelineViewState::setMaximumSpan(int64_t ns)
{
    m_maxSpan = std::max<int64_t>(0, ns);
    TimeScale next = m_scale;
    next.maxSpan = m_maxSpan;
    setScale(next);
}

void TimelineViewState::setVisibleRange(int64_t start, int64_t end)
{
    TimeScale next = m_scale;
    next.setRange(start, end);
    setScale(next);
}

void TimelineViewState::showAlignedSpanFrom(int64_t start, int64_t span)
{
    TimeScale next = m_scale;
    next.setRange(start, start + span); // the span's limits
    const int64_t length = next.span();
    // not so far off that none of the trace shows
    next.start =
        std::clamp(start, next.lowerBound - length + 1, std::max(next.lowerBound, next.upperBound - 1));
    next.end = next.start + length;
    const bool changed = next.start != m_scale.start || next.end != m_scale.end;
    m_scale = next;
    if (changed)
        emit visibleRangeChanged(m_scale.start, m_scale.end);
}

void TimelineViewState::fit()
{
    TimeScale next = m_scale;
    next.fit();
    setScale(next);
}

void TimelineViewState::zoom(double factor, double anchorPx)
{
    TimeScale next = m_scale;
    next.zoom(factor, anchorPx);
    setScale(next);
}

void TimelineViewState::pan(double px)
{
    TimeScale next = m_scale;
    next.pan(px);
    setScale(next);
}

void TimelineViewState::zoomToEvent(const TraceData &t, uint32_t e)
{
    if (e >= t.eventCount())
        return;
    const int64_t margin = std::max<int64_t>(t.duration[e] / 8, TimeScale::kMinSpan);
    setVisibleRange(t.start[e] - margin, t.end(e) + margin);
}

void TimelineViewState::zoomToSelection(const TraceData *trace)
{
    if (m_hasRange)
        setVisibleRange(m_rangeStart, m_rangeEnd);
    else if (m_selected >= 0 && trace)
        zoomToEvent(*trace, uint32_t(m_selected));
}

void TimelineViewState::selectEvent(int64_t event)
{
    if (event == m_selected)
        return;
    m_selected = event;
    emit eventSelected(event);
}

bool TimelineViewState::setHover(int64_t event, int gapRow, int64_t gap)
{
    if (gapRow < 0)
        gap = -1;
    if (event == m_hovered && gapRow == m_hoveredGapRow && gap == m_hoveredGap)
        return false;
    m_hovered = event;
    m_hoveredGapRow = gapRow;
    m_hoveredGap = gap;
    return true;
}

bool TimelineViewState::clearRange()
{
    if (!m_hasRange)
        return false;
    m_hasRange = false;
    emit rangeSelected(0, 0);
    return true;
}

void TimelineViewState::press(QPoint pos, Drag drag, int64_t time)
{
    m_pressPos = pos;
    m_pressScale = m_scale;
    m_pressed = true;
    m_moved = false;
    m_drag = drag;
    if (drag == Drag::Select)
        m_rangeStart = m_rangeEnd = time;
}

bool TimelineViewState::moveTo(QPoint pos)
{
    if ((pos - m_pressPos).manhattanLength() > kDragThreshold)
        m_moved = true;
    return m_moved;
}

void TimelineViewState::panFromPress(QPoint pos)
{
    TimeScale next = m_pressScale;
    next.pan(-double(pos.x() - m_pressPos.x()));
    setScale(next);
}

bool TimelineViewState::release(int64_t time, Drag *ended)
{
    *ended = std::exchange(m_drag, Drag::None);
    if (!std::exchange(m_pressed, false))
        return false;
    if (*ended != Drag::Select)
        return true;
    if (!m_moved) {
        clearRange();
        return true;
    }
    m_rangeEnd = time;
    if (m_rangeEnd < m_rangeStart)
        std::swap(m_rangeStart, m_rangeEnd);
    m_hasRange = m_rangeEnd > m_rangeStart;
    emit rangeSelected(m_hasRange ? m_rangeStart : 0, m_hasRange ? m_rangeEnd : 0);
    return true;
}

} // namespace scopeline
