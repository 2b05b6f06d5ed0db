// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/timelinepainter.h"

#include "model/tables/durationformat.h"
#include "model/analysis/runsummaryfile.h"
#include "widgets/timeline/timelinetext.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <map>

namespace scopeline {

using namespace timelinemetrics;

namespace {

constexpr int kMaxArrows = 64; // launch -> kernel arrows drawn for one launch

QString tr(const char *text, int n = -1)
{
    return QCoreApplication::translate("TimelineView", text, nullptr, n);
}

} // namespace

QFont timelineSmallFont(QFont font)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * 0.88);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(8, int(font.pixelSize() * 0.88)));
    return font;
}

TimelinePainter::TimelinePainter(QPainter &painter, const TimelineFrame &frame)
    : p(painter), f(frame), plot(frame.geometry.viewport.plot), small(timelineSmallFont(frame.font))
{}

// What stands in a timeline without events: why, so that a summary or an empty trace is not mistaken
// for a failure. Empty when there are events to draw.
QString timelinePlaceholder(const LoadedRun &run)
{
    if (!run.error.isEmpty())
        return run.error;
    if (run.trace)
        return run.trace->eventCount() > 0
                   ? QString()
                   : tr("%1 holds no events to draw").arg(QFileInfo(run.run.file).fileName());
    if (run.run.file.endsWith(RunSummaryFile::suffix()))
        return tr("%1 is a run summary: it holds the figures, not the events; open its trace "
                  "to see the timeline")
            .arg(QFileInfo(run.run.file).fileName());
    if (run.summary)
        return tr("Loading this run's events…");
    return tr("No trace");
}

void TimelinePainter::paint()
{
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(f.widget, f.theme.background);
    if (const QString text = timelinePlaceholder(f.run); !text.isEmpty()) {
        p.setPen(f.theme.placeholderText);
        p.drawText(f.widget, Qt::AlignCenter | Qt::TextWordWrap, text);
        return;
    }
    p.save();
    p.setClipRect(plot);
    paintRows();
    paintGaps();
    paintEvents();
    paintHighlight();
    paintOverlays();
    paintRange();
    p.restore();
    paintAxis();
    paintLabelColumn();
}

QRect TimelinePainter::eventRect(uint32_t event) const
{
    return timelineEventRect(f.layout, f.rows, f.state.scale(), f.geometry.viewport, event);
}

// Track rows, then the grid over them, then the headers over the grid.
void TimelinePainter::paintRows()
{
    const TimelineTheme &th = f.theme;
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) {
            p.setPen(th.grid);
            for (const AxisTick &tick : f.geometry.ticks.major)
                p.drawLine(tick.x, plot.top(), tick.x, plot.bottom());
        }
        for (const TimelineRow &row : f.rows.rows()) {
            const int y = f.geometry.viewport.rowTop(row);
            if (y + row.height <= plot.top() || y > plot.bottom() || row.header != (pass == 1))
                continue;
            if (row.header) {
                const TimelineGroup &group = f.layout.groups()[std::size_t(row.index)];
                p.fillRect(QRect(plot.left(), y, plot.width(), row.height),
                           group.gpu ? th.gpuHeader : th.cpuHeader);
                p.setPen(th.headerLine);
                p.drawLine(plot.left(), y + row.height - 1, plot.right(), y + row.height - 1);
                p.setPen(th.headerDetail);
                QString detail = group.detail;
                if (const int hidden = f.rows.hiddenCount(row.index))
                    detail += tr(" · %n empty row(s) hidden", hidden);
                if (f.rows.isCollapsed(row.index))
                    detail += tr(" — collapsed");
                p.setFont(f.font);
                p.drawText(QRect(plot.left() + 8, y, plot.width() - 16, row.height),
                           Qt::AlignVCenter | Qt::AlignLeft,
                           boundedElidedText(p.fontMetrics(), detail, Qt::ElideRight, plot.width() - 16));
                continue;
            }
            if (f.layout.rows()[std::size_t(row.index)].stream)
                p.fillRect(QRect(plot.left(), y, plot.width(), row.height), th.streamBackground);
            p.setPen(th.rowLine);
            p.drawLine(plot.left(), y + row.height - 1, plot.right(), y + row.height - 1);
        }
    }
}

// Idle gaps: a translucent fill with a hatch in the colour of their cause, each column as tall as its
// idle share.
void TimelinePainter::paintGaps()
{
    p.setPen(Qt::NoPen);
    for (int cause = 0; cause < kGapCauses; ++cause) {
        const std::vector<QRect> &gaps = f.geometry.gaps[std::size_t(cause)];
        if (gaps.empty())
            continue;
        p.setBrush(f.theme.gapFill[std::size_t(cause)]);
        p.drawRects(gaps.data(), int(gaps.size()));
        p.setBrush(QBrush(f.theme.gapHatch[std::size_t(cause)], Qt::BDiagPattern));
        p.drawRects(gaps.data(), int(gaps.size()));
    }
    p.setBrush(Qt::NoBrush);
}

// Events, one batch per colour, launches over the slices they merge with when zoomed out; then names.
void TimelinePainter::paintEvents()
{
    static const std::array<int, kTimelineStyles> order = [] {
        std::array<int, kTimelineStyles> o{};
        int n = 0;
        for (int s = 0; s < kTimelineStyles; ++s)
            if (s != StyleLaunch && s != StyleGraphLaunch)
                o[std::size_t(n++)] = s;
        o[std::size_t(n++)] = StyleLaunch;
        o[std::size_t(n)] = StyleGraphLaunch;
        return o;
    }();
    const TimelineGeometry &g = f.geometry;
    p.setPen(Qt::NoPen);
    for (int s : order) {
        const auto &rects = g.rects[std::size_t(s)];
        if (rects.empty())
            continue;
        p.setBrush(f.theme.swatches[std::size_t(s)].fill);
        p.drawRects(rects.data(), int(rects.size()));
    }
    if (!g.graphMarkers.empty()) {
        p.setBrush(f.theme.graphMarker);
        p.drawRects(g.graphMarkers.data(), int(g.graphMarkers.size()));
    }
    p.setBrush(Qt::NoBrush);
    p.setFont(small);
    for (const TimelineLabel &label : g.labels) {
        p.setPen(f.theme.swatches[label.style].text);
        p.drawText(label.rect, Qt::AlignVCenter | Qt::AlignLeft, label.text);
    }
}

// Highlighted kernels keep their colour with an outline, highlighted intervals are bands over the GPU
// streams; everything else is faded.
void TimelinePainter::paintHighlight()
{
    if (!f.highlight)
        return;
    const std::vector<QRect> &bands = f.geometry.bands;
    p.fillRect(plot, f.theme.fade);
    p.setPen(QPen(f.theme.highlightOutline, 1));
    p.setBrush(f.theme.highlightFill);
    for (const QRect &r : f.geometry.highlights)
        p.drawRect(r.adjusted(0, 0, -1, -1));
    p.setPen(Qt::NoPen);
    p.setBrush(f.theme.bandFill);
    p.drawRects(bands.data(), int(bands.size()));
    p.setBrush(Qt::NoBrush);
}

// The hovered gap, launch links of the hovered and selected events, their outlines.
void TimelinePainter::paintOverlays()
{
    const TimelineViewState &s = f.state;
    p.setRenderHint(QPainter::Antialiasing, true);
    if (s.hoveredGapRow() >= 0 && s.hoveredGap() >= 0) {
        const TimelineRow &row = f.rows.rows()[std::size_t(s.hoveredGapRow())];
        const IdleGap &gap =
            f.layout.rows()[std::size_t(row.index)].stream->gaps[std::size_t(s.hoveredGap())];
        const PixelSpan span = s.scale().toPixelSpan(gap.start, gap.end, 5);
        p.setPen(QPen(f.theme.gapOutline, 1.2));
        p.drawRect(QRectF(plot.left() + span.left, f.geometry.viewport.rowTop(row) + 1.5,
                          std::max(1.0, span.width()), row.height - 3));
    }
    paintLinks(s.hoveredEvent(), false);
    if (s.selectedEvent() != s.hoveredEvent())
        paintLinks(s.selectedEvent(), true);
    p.setRenderHint(QPainter::Antialiasing, false);
    if (s.hoveredEvent() >= 0) {
        p.setPen(QPen(f.theme.hoverOutline, 1));
        p.drawRect(eventRect(uint32_t(s.hoveredEvent())).adjusted(0, 0, -1, -1));
    }
    if (s.selectedEvent() >= 0) {
        const QRect r = eventRect(uint32_t(s.selectedEvent()));
        if (r.isValid()) {
            p.setPen(QPen(f.theme.selectionOutline, 2));
            p.drawRect(r.adjusted(-1, -1, 0, 0));
        }
    }
}

// The Shift-dragged range: a band with its length on a label.
void TimelinePainter::paintRange()
{
    const TimelineViewState &s = f.state;
    if (!s.showsRange())
        return;
    const PixelSpan span = s.scale().toPixelSpan(s.rangeStart(), s.rangeEnd(), 5);
    const QRect band(plot.left() + int(std::min(span.left, span.right)), plot.top(),
                     std::max(1, int(std::fabs(span.width()))), plot.height());
    p.fillRect(band, f.theme.rangeFill);
    p.setPen(f.theme.rangeLine);
    p.drawLine(band.topLeft(), band.bottomLeft());
    p.drawLine(band.topRight(), band.bottomRight());
    const QString text = formatDuration(double(std::llabs(s.rangeEnd() - s.rangeStart())));
    const QFontMetrics fm(small);
    const QRect textRect(band.center().x() - fm.horizontalAdvance(text) / 2 - 5, plot.top() + 3,
                         fm.horizontalAdvance(text) + 10, fm.height() + 2);
    p.fillRect(textRect, f.theme.rangeLine);
    p.setPen(f.theme.rangeLabelText);
    p.drawText(textRect, Qt::AlignCenter, text);
}

void TimelinePainter::paintAxis()
{
    const TimelineTheme &th = f.theme;
    const int width = f.widget.width();
    p.fillRect(QRect(0, 0, width, kAxisHeight), th.axisBackground);
    p.setPen(th.columnLine);
    p.drawLine(0, kAxisHeight - 1, width, kAxisHeight - 1);
    p.setFont(small);
    p.setPen(th.minorTick);
    for (int x : f.geometry.ticks.minor)
        p.drawLine(x, kAxisHeight - 4, x, kAxisHeight - 1);
    const QFontMetrics fm(small);
    for (const AxisTick &tick : f.geometry.ticks.major) {
        p.setPen(th.majorTick);
        p.drawLine(tick.x, kAxisHeight - 9, tick.x, kAxisHeight - 1);
        p.setPen(th.axisText);
        if (tick.x + 3 + fm.horizontalAdvance(tick.text) < plot.right())
            p.drawText(QPoint(tick.x + 3, kAxisHeight - 11), tick.text);
    }
    // the width of the view in the corner above the labels ("span" is a run's GPU span elsewhere)
    p.setPen(th.axisText);
    p.drawText(QRect(8, 0, kLabelWidth - 12, kAxisHeight - 2), Qt::AlignVCenter | Qt::AlignLeft,
               tr("view %1").arg(formatDuration(double(f.state.scale().span()))));
}

void TimelinePainter::paintHeaderLabel(const TimelineRow &row, int y)
{
    const TimelineTheme &th = f.theme;
    const TimelineGroup &group = f.layout.groups()[std::size_t(row.index)];
    const bool collapsed = f.rows.isCollapsed(row.index);
    p.fillRect(QRect(0, y, kLabelWidth, row.height), group.gpu ? th.gpuHeader : th.cpuHeader);
    p.setPen(th.headerLine);
    p.drawLine(0, y + row.height - 1, kLabelWidth, y + row.height - 1);
    // disclosure triangle
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(Qt::NoPen);
    p.setBrush(th.disclosure);
    const QPointF c(10, y + row.height / 2.0);
    QPolygonF tri;
    if (collapsed)
        tri << c + QPointF(-2.5, -4.5) << c + QPointF(3.5, 0) << c + QPointF(-2.5, 4.5);
    else
        tri << c + QPointF(-4.5, -2.5) << c + QPointF(4.5, -2.5) << c + QPointF(0, 3.5);
    p.drawPolygon(tri);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setBrush(Qt::NoBrush);
    QFont bold = f.font;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(th.headerTitle);
    const QString title =
        boundedElidedText(QFontMetrics(bold), group.title, Qt::ElideMiddle, kLabelWidth - 26);
    p.drawText(QRect(20, y, kLabelWidth - 24, row.height), Qt::AlignVCenter | Qt::AlignLeft, title);
}

void TimelinePainter::paintLabelColumn()
{
    const TimelineTheme &th = f.theme;
    const QRect column(0, kAxisHeight, kLabelWidth, f.widget.height() - kAxisHeight);
    p.save();
    p.setClipRect(column); // rows scrolled up stay under the axis
    p.fillRect(column, th.labelColumn);
    const QFontMetrics fm(f.font);
    for (const TimelineRow &row : f.rows.rows()) {
        const int y = f.geometry.viewport.rowTop(row);
        if (y + row.height <= plot.top() || y > plot.bottom())
            continue;
        if (row.header) {
            paintHeaderLabel(row, y);
            continue;
        }
        const TimelineTrackRow &track = f.layout.rows()[std::size_t(row.index)];
        p.setFont(f.font);
        p.setPen(th.labelText);
        const QString text = boundedElidedText(fm, track.label, Qt::ElideMiddle, kLabelWidth - 30);
        // pinned to the top of the visible part of the row: a thread scrolled half out keeps its name
        const int labelY = TimelineRows::labelTop(row, track, y, plot.top());
        p.drawText(QRect(20, labelY, kLabelWidth - 24, TimelineRows::laneHeight(track)),
                   Qt::AlignVCenter | Qt::AlignLeft, text);
        p.setPen(th.rowLine);
        p.drawLine(0, y + row.height - 1, kLabelWidth, y + row.height - 1);
    }
    p.setPen(th.columnLine);
    p.drawLine(kLabelWidth - 1, kAxisHeight, kLabelWidth - 1, f.widget.height());
    p.restore();
}

void TimelinePainter::paintArrow(const QRect &from, const QRect &to, const QColor &colour)
{
    if (!from.isValid() || !to.isValid())
        return;
    const bool down = from.top() < to.top();
    const QPointF a(from.left() + std::min(4.0, from.width() / 2.0), down ? from.bottom() + 1 : from.top());
    const QPointF b(to.left() + std::min(2.0, to.width() / 2.0), down ? to.top() : to.bottom() + 1);
    p.setPen(QPen(colour, 1.6));
    p.setBrush(Qt::NoBrush);
    QPainterPath path(a);
    const double dy = (b.y() - a.y()) * 0.5;
    path.cubicTo(a + QPointF(0, dy), b - QPointF(0, dy), b);
    p.drawPath(path);
    // head along the final direction (vertical)
    const double dir = b.y() >= a.y() ? -1 : 1;
    QPolygonF head;
    head << b << b + QPointF(-4.5, dir * 8) << b + QPointF(4.5, dir * 8);
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    p.drawPolygon(head);
    p.setBrush(Qt::NoBrush);
}

void TimelinePainter::paintGraphBracket(uint32_t launch, bool strong)
{
    const TraceData &t = *f.run.trace;
    const std::vector<uint32_t> kernels = f.run.analysis->kernelsOf(launch);
    if (kernels.empty())
        return;
    // one bracket per stream the graph ran on: first kernel start .. last kernel end
    std::map<uint32_t, std::pair<int64_t, int64_t>> extent;
    for (uint32_t k : kernels) {
        auto [it, inserted] = extent.try_emplace(t.track[k], t.start[k], t.end(k));
        if (!inserted) {
            it->second.first = std::min(it->second.first, t.start[k]);
            it->second.second = std::max(it->second.second, t.end(k));
        }
    }
    for (const auto &[track, range] : extent) {
        const int trackRow = f.layout.rowOfTrack(track);
        const int r = trackRow < 0 ? -1 : f.rows.rowOfTrackRow(trackRow);
        if (r < 0)
            continue;
        const TimelineRow &row = f.rows.rows()[std::size_t(r)];
        const PixelSpan span = f.state.scale().toPixelSpan(range.first, range.second, 10);
        const QRectF box(plot.left() + span.left, f.geometry.viewport.rowTop(row) + 1,
                         std::max(2.0, span.width()), row.height - 2);
        p.setPen(QPen(f.theme.graphBracket, strong ? 2.2 : 1.5));
        // bracket: top line with end ticks
        p.drawLine(box.topLeft(), box.topRight());
        p.drawLine(box.topLeft(), box.bottomLeft());
        p.drawLine(box.topRight(), box.bottomRight());
        p.drawLine(box.bottomLeft(), box.bottomLeft() + QPointF(6, 0));
        p.drawLine(box.bottomRight(), box.bottomRight() - QPointF(6, 0));
    }
    paintArrow(eventRect(launch), eventRect(kernels.front()), f.theme.graphBracket);
}

void TimelinePainter::paintLinks(int64_t e, bool strong)
{
    if (e < 0 || !f.run.trace || !f.run.analysis)
        return;
    const TraceData &t = *f.run.trace;
    const uint32_t ev = uint32_t(e);
    const QColor arrow = strong ? f.theme.arrowStrong : f.theme.arrow;
    switch (t.kind[ev]) {
    case EventKind::Kernel:
    case EventKind::Memcpy:
    case EventKind::Memset: {
        const int64_t launch = f.run.analysis->launchOf(ev);
        if (launch < 0)
            break;
        if (t.kind[std::size_t(launch)] == EventKind::GraphLaunch)
            paintGraphBracket(uint32_t(launch), strong);
        else
            paintArrow(eventRect(uint32_t(launch)), eventRect(ev), arrow);
        break;
    }
    case EventKind::KernelLaunch: {
        const std::vector<uint32_t> kernels = f.run.analysis->kernelsOf(ev);
        for (std::size_t i = 0; i < kernels.size() && i < std::size_t(kMaxArrows); ++i)
            paintArrow(eventRect(ev), eventRect(kernels[i]), arrow);
        break;
    }
    case EventKind::GraphLaunch:
        paintGraphBracket(ev, strong);
        break;
    default:
        break;
    }
}

} // namespace scopeline
