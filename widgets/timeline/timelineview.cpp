// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/timelineview.h"

#include "model/timeline/timelinelayout.h"
#include "widgets/timeline/timelinegeometry.h"
#include "widgets/timeline/timelinepainter.h"
#include "widgets/timeline/timelinetext.h"
#include "widgets/timeline/timelinetheme.h"
#include "widgets/timeline/timelineviewstate.h"

#include <QGuiApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace scopeline {

using namespace timelinemetrics;

class TimelineView::Private
{
public:
    explicit Private(TimelineView *view) : q(view), state(view) {}

    void build(std::shared_ptr<const TimelineLayout> built);
    void relayout(); // the rows changed height or order
    void hideEmptyRows();
    void updateScrollBar();
    void ensureGeometry();
    QRect plotRect() const;
    int scroll() const { return vbar->isVisible() ? vbar->value() : 0; }
    TimelineViewport viewport() const { return {plotRect(), scroll()}; }
    // A scroll of the user's: from now on the view stays where they put it.
    void scrollTo(int value)
    {
        keepGpuInView = followHighlight = false;
        vbar->setValue(value);
    }
    int gpuScrollTarget(int viewport) const;
    TimelineHit hitTest(QPoint pos) const
    {
        return scopeline::hitTest(*layout, rows, state.scale(), viewport(), pos);
    }
    QRect eventRect(uint32_t e) const
    {
        return timelineEventRect(*layout, rows, state.scale(), viewport(), e);
    }
    int64_t timeAtX(int x) const;
    QString tooltipAt(QPoint pos, QRect *area) const;

    TimelineView *q;
    LoadedRun run;
    // Read-only once built: a pair showing one trace on both sides shares it.
    std::shared_ptr<const TimelineLayout> layout = std::make_shared<const TimelineLayout>();
    TimelineRows rows;
    int rowsVersion = 0; // bumps when rows change
    TimelineViewState state;
    TimelineTheme theme;
    std::vector<bool> highlightedName; // per string id: kernels of this name are highlighted
    TimelineIntervals intervals;       // highlighted across the GPU streams
    bool intervalHighlight = false;    // even when there are none
    QScrollBar *vbar = nullptr;
    // Until the user scrolls, rows taller than the view are scrolled so that the GPU streams (and the
    // CPU rows just above them, the launching threads) are in view: they are what the view is for.
    bool keepGpuInView = true;
    // From a highlighted kernel's row scrolled to until the user scrolls: that row, whatever the height.
    bool followHighlight = false;
    bool showEmptyRows = false;
    TimelineGeometry geometry;
};

void TimelineView::Private::build(std::shared_ptr<const TimelineLayout> built)
{
    highlightedName.clear();
    intervals.set({});
    intervalHighlight = false;
    layout = std::move(built);
    rows.reset(*layout);
    const auto [lo, hi] = layout->bounds();
    relayout();
    state.reset(lo, hi, std::max(1, plotRect().width()), state.scale().maxSpan);
}

void TimelineView::Private::relayout()
{
    state.clearHover(); // a hovered gap is known by its row's position, which the new rows may give another
    ++rowsVersion;
    geometry.valid = false;
    updateScrollBar();
}

// Unless asked for, a profiler's bookkeeping row and CPU threads with nothing in the visible window
// take no room (GPU streams stay: an empty stream is idle time, a finding).
void TimelineView::Private::hideEmptyRows()
{
    std::vector<bool> hidden(layout->rows().size(), false);
    if (!showEmptyRows)
        for (std::size_t r = 0; r < hidden.size(); ++r) {
            const TimelineTrackRow &row = layout->rows()[r];
            hidden[r] = row.bookkeeping || (!row.gpu && !row.hasEventsIn(state.scale().start, state.scale().end));
        }
    if (rows.setHidden(std::move(hidden)))
        relayout();
}

void TimelineView::Private::updateScrollBar()
{
    const int viewport = q->height() - kAxisHeight;
    const bool needed = rows.contentHeight() > viewport && viewport > 0;
    vbar->setVisible(needed);
    const int w = vbar->sizeHint().width();
    vbar->setGeometry(q->width() - w, kAxisHeight, w, std::max(0, viewport));
    const int gpuTarget = keepGpuInView ? gpuScrollTarget(viewport) : 0;
    vbar->setRange(0, std::max({0, rows.contentHeight() - viewport, gpuTarget}));
    vbar->setPageStep(std::max(1, viewport));
    vbar->setSingleStep(kLaneHeight);
    if (keepGpuInView)
        vbar->setValue(gpuTarget);
    const int width = std::max(1, plotRect().width());
    if (state.scale().width != width) {
        state.setWidth(width);
        geometry.valid = false;
    }
    if ((keepGpuInView || followHighlight) && !highlightedName.empty())
        q->scrollToHighlightedRow(); // a kernel picked before the rows had their room, or they shrank
}

int TimelineView::Private::gpuScrollTarget(int viewport) const
{
    const int gpuTop = rows.firstGpuHeaderY();
    if (gpuTop < 0)
        return 0;
    const int gpuHeight = rows.contentHeight() - gpuTop;
    const int bottomAligned = std::clamp(gpuTop - std::max(0, viewport - gpuHeight), 0,
                                         std::max(0, rows.contentHeight() - viewport));
    // From the top of a lane rather than through its middle: the next lane down, a little blank below
    // the last stream; but where that would leave no CPU lane in view, though the one right above the
    // GPU (the launch calls' lane, JAX's at 1366×768) is half in it, that lane, the last stream giving
    // up less than half a lane at the bottom.
    const int below = rows.laneTopAtOrBelow(bottomAligned);
    return below == gpuTop && gpuTop - bottomAligned >= kLaneHeight / 2 ? rows.laneTopAtOrAbove(bottomAligned)
                                                                        : below;
}

QRect TimelineView::Private::plotRect() const
{
    const int right = q->width() - (vbar && vbar->isVisible() ? vbar->sizeHint().width() : 0);
    return QRect(QPoint(kLabelWidth, kAxisHeight),
                 QPoint(std::max(kLabelWidth, right - 1), std::max(kAxisHeight, q->height() - 1)));
}

void TimelineView::Private::ensureGeometry()
{
    const TimelineViewport vp = viewport();
    if (!geometry.matches(state.scale(), vp, rowsVersion))
        geometry.build(*layout, rows, state.scale(), vp, rowsVersion,
                       QFontMetrics(timelineSmallFont(q->font())), highlightedName, intervals);
}

int64_t TimelineView::Private::timeAtX(int x) const
{
    const QRect plot = plotRect();
    return state.scale().toTime(std::clamp(double(x - plot.left()), 0.0, double(plot.width())));
}

QString TimelineView::Private::tooltipAt(QPoint pos, QRect *area) const
{
    const TimelineHit hit = hitTest(pos);
    if (hit.type == TimelineHit::None)
        return {};
    const TimelineRow &row = rows.rows()[std::size_t(hit.row)];
    if (hit.type == TimelineHit::Header)
        return groupTooltipHtml(layout->groups()[std::size_t(row.index)], rows.isCollapsed(row.index));
    const TimelineTrackRow &track = layout->rows()[std::size_t(row.index)];
    if (hit.type == TimelineHit::TrackLabel)
        return trackTooltipHtml(*run.trace, track);
    if (hit.event >= 0) {
        *area = eventRect(uint32_t(hit.event)).adjusted(-kTimelineHitSlop, 0, kTimelineHitSlop, 0);
        return describeEvent(run, uint32_t(hit.event));
    }
    if (hit.gap >= 0) {
        const IdleGap &gap = track.stream->gaps[std::size_t(hit.gap)];
        const PixelSpan span = state.scale().toPixelSpan(gap.start, gap.end, 1);
        *area = QRect(plotRect().left() + int(span.left), viewport().rowTop(row),
                      std::max(1, int(span.width())), row.height);
        return gapTooltipHtml(*run.trace, gap, q->palette());
    }
    return {};
}

// ---- TimelineView -------------------------------------------------------------------------------

TimelineView::TimelineView(QWidget *parent) : QWidget(parent), d(std::make_unique<Private>(this))
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    // the axis, a process header and one GPU stream; a small screen gives the rest to the figures
    setMinimumSize(kLabelWidth + 120, kAxisHeight + kHeaderHeight + kGpuLaneHeight + 2 * kRowPad);
    d->theme = TimelineTheme::fromPalette(palette());
    d->vbar = new QScrollBar(Qt::Vertical, this);
    d->vbar->hide();
    connect(d->vbar, &QScrollBar::actionTriggered, this,
            [this] { d->keepGpuInView = d->followHighlight = false; });
    connect(d->vbar, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    connect(&d->state, &TimelineViewState::visibleRangeChanged, this, [this](int64_t start, int64_t end) {
        d->hideEmptyRows();
        update();
        emit visibleRangeChanged(start, end);
    });
    connect(&d->state, &TimelineViewState::eventSelected, this, [this](int64_t event) {
        update();
        emit eventSelected(event);
    });
    connect(&d->state, &TimelineViewState::rangeSelected, this, [this](int64_t start, int64_t end) {
        update();
        emit rangeSelected(start, end);
    });
    d->build(std::make_shared<const TimelineLayout>(d->run));
}

TimelineView::~TimelineView() = default;

void TimelineView::setRun(const LoadedRun &run)
{
    setRun(run, std::make_shared<const TimelineLayout>(run));
}

void TimelineView::setRun(const LoadedRun &run, std::shared_ptr<const TimelineLayout> layout)
{
    d->run = run;
    d->keepGpuInView = true;
    d->followHighlight = false;
    d->build(std::move(layout));
    update();
}

void TimelineView::setHighlightedKernels(const QStringList &names)
{
    d->highlightedName.clear();
    d->followHighlight = false; // until revealHighlighted() finds the new kernels' row
    if (d->run.trace && !names.isEmpty()) {
        const TraceData &t = *d->run.trace;
        d->highlightedName.assign(t.strings.size(), false);
        // none of them in this run: everything is faded, so "not here" is visible too
        for (const QString &name : names) {
            const QByteArray utf8 = name.toUtf8();
            const int64_t id = t.strings.find(std::string_view(utf8.constData(), std::size_t(utf8.size())));
            if (id >= 0)
                d->highlightedName[std::size_t(id)] = true;
        }
    }
    d->geometry.valid = false;
    update();
}

bool TimelineView::hasHighlight() const
{
    return !d->highlightedName.empty();
}

bool TimelineView::revealHighlighted()
{
    if (d->highlightedName.empty() || !d->run.trace || !d->run.analysis)
        return false;
    const TraceData &t = *d->run.trace;
    const int64_t start = visibleStart(), end = visibleEnd();
    int64_t first = -1;
    for (uint32_t k : d->run.analysis->kernels()) {
        if (!d->highlightedName[t.name[k]])
            continue;
        if (t.start[k] < end && t.start[k] + t.duration[k] > start) {
            scrollToHighlightedRow(); // its time is in view; its row may not be
            return true;
        }
        if (first < 0)
            first = k;
    }
    if (first < 0)
        return false;
    const std::size_t k = std::size_t(first);
    const int64_t span = std::max(end - start, 2 * t.duration[k]), middle = t.start[k] + t.duration[k] / 2;
    setVisibleRange(middle - span / 2, middle - span / 2 + span);
    scrollToHighlightedRow();
    return true;
}

void TimelineView::scrollToHighlightedRow()
{
    if (d->highlightedName.empty() || !d->run.trace || !d->run.analysis || !d->vbar->isVisible())
        return;
    const TraceData &t = *d->run.trace;
    const QRect plot = plotRect();
    const int64_t start = visibleStart(), end = visibleEnd();
    QRect first;
    for (uint32_t k : d->run.analysis->kernels()) {
        if (!d->highlightedName[t.name[k]] || t.start[k] >= end || t.start[k] + t.duration[k] <= start)
            continue;
        const QRect r = eventRect(k); // none where its row is not drawn (a folded process)
        if (!r.isValid())
            continue;
        if (r.top() >= plot.top() && r.bottom() <= plot.bottom())
            return; // one is in view already
        if (first.isNull())
            first = r;
    }
    if (first.isNull())
        return;
    // a stream of their own, below or above the rows shown (DLRM's NCCL stream)
    d->keepGpuInView = false;
    d->followHighlight = true;
    d->vbar->setValue(d->scroll() + first.center().y() - plot.center().y());
}

int TimelineView::highlightCount() const
{
    return int(d->geometry.highlights.size());
}

void TimelineView::setHighlightedIntervals(std::vector<std::pair<int64_t, int64_t>> intervals)
{
    d->intervals.set(std::move(intervals));
    d->intervalHighlight = true;
    d->geometry.valid = false;
    update();
}

void TimelineView::clearHighlightedIntervals()
{
    d->intervals.set({});
    d->intervalHighlight = false;
    d->geometry.valid = false;
    update();
}

bool TimelineView::hasIntervalHighlight() const
{
    return d->intervalHighlight;
}

const std::vector<std::pair<int64_t, int64_t>> &TimelineView::highlightedIntervals() const
{
    return d->intervals.ranges;
}

int TimelineView::intervalBandCount() const
{
    return int(d->geometry.bands.size());
}

const LoadedRun &TimelineView::run() const
{
    return d->run;
}

const TimelineLayout &TimelineView::layout() const
{
    return *d->layout;
}

TimelineViewState &TimelineView::viewState() const
{
    return d->state;
}

int64_t TimelineView::visibleStart() const
{
    return d->state.scale().start;
}

int64_t TimelineView::visibleEnd() const
{
    return d->state.scale().end;
}

void TimelineView::setVisibleRange(int64_t start, int64_t end)
{
    d->state.setVisibleRange(start, end);
}

void TimelineView::fit()
{
    d->state.fit();
}

void TimelineView::zoomBy(double factor)
{
    d->state.zoomBy(factor);
}

int64_t TimelineView::selectedEvent() const
{
    return d->state.selectedEvent();
}

void TimelineView::selectEvent(int64_t event)
{
    if (!d->run.trace || event < 0 || uint64_t(event) >= d->run.trace->eventCount())
        event = -1;
    d->state.selectEvent(event);
}

const TimeScale &TimelineView::timeScale() const
{
    return d->state.scale();
}

QRect TimelineView::plotRect() const
{
    return d->plotRect();
}

QRect TimelineView::eventRect(uint32_t event) const
{
    return d->eventRect(event);
}

int TimelineView::verticalScroll() const
{
    return d->scroll();
}

void TimelineView::setVerticalScroll(int px)
{
    d->scrollTo(px);
}

void TimelineView::setShowEmptyRows(bool show)
{
    d->showEmptyRows = show;
    d->hideEmptyRows();
    update();
}

bool TimelineView::showsEmptyRows() const
{
    return d->showEmptyRows;
}

int TimelineView::hiddenRowCount() const
{
    return d->rows.hiddenCount();
}

void TimelineView::setMaximumSpan(int64_t ns)
{
    d->state.setMaximumSpan(ns);
}

int64_t TimelineView::selectionStart() const
{
    return d->state.hasRange() ? d->state.rangeStart() : 0;
}

int64_t TimelineView::selectionEnd() const
{
    return d->state.hasRange() ? d->state.rangeEnd() : 0;
}

QSize TimelineView::sizeHint() const
{
    return QSize(1000, 420);
}

QString TimelineView::describeEvent(const LoadedRun &run, uint32_t e)
{
    return eventDetailsHtml(eventDetails(run, e), QGuiApplication::palette());
}

bool TimelineView::event(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        d->geometry.valid = false; // labels are elided with the font
    if (event->type() == QEvent::PaletteChange)
        d->theme = TimelineTheme::fromPalette(palette());
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        QRect area;
        const QString text = d->run.trace ? d->tooltipAt(help->pos(), &area) : QString();
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this, area);
        }
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::paintEvent(QPaintEvent *)
{
    d->ensureGeometry();
    QPainter p(this);
    TimelinePainter(p, {d->run, *d->layout, d->rows, d->state, d->geometry, d->theme, rect(), font(),
                        !d->highlightedName.empty() || d->intervalHighlight})
        .paint();
}

void TimelineView::resizeEvent(QResizeEvent *)
{
    d->updateScrollBar();
    d->geometry.valid = false;
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    const bool inPlot = pos.x() >= d->plotRect().left() && pos.y() >= kAxisHeight;
    using Drag = TimelineViewState::Drag;
    const Drag drag = !inPlot                                    ? Drag::None
                      : (event->modifiers() & Qt::ShiftModifier) ? Drag::Select
                                                                 : Drag::Pan;
    d->state.press(pos, drag, d->timeAtX(pos.x()));
    if (drag == Drag::Pan)
        setCursor(Qt::ClosedHandCursor);
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    TimelineViewState &s = d->state;
    if (s.drag() != TimelineViewState::Drag::None) {
        if (!s.moveTo(pos))
            return;
        if (s.drag() == TimelineViewState::Drag::Pan) {
            s.panFromPress(pos);
            if (d->vbar->isVisible())
                d->scrollTo(d->vbar->value() - (pos.y() - s.pressPos().y()));
            s.setPressY(pos.y());
        } else {
            s.extendRange(d->timeAtX(pos.x()));
            update();
        }
        return;
    }
    const TimelineHit hit = d->hitTest(pos);
    const bool onTrack = hit.type == TimelineHit::Track;
    if (s.setHover(onTrack ? hit.event : -1, onTrack && hit.event < 0 && hit.gap >= 0 ? hit.row : -1,
                   hit.gap))
        update();
    setCursor(hit.type == TimelineHit::Header ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    unsetCursor();
    const bool moved = d->state.dragMoved();
    TimelineViewState::Drag drag;
    if (!d->state.release(d->timeAtX(pos.x()), &drag) || drag == TimelineViewState::Drag::Select || moved)
        return; // the release of a double click, a range or a pan
    // a click
    const TimelineHit hit = d->hitTest(pos);
    if (hit.type == TimelineHit::Header) {
        d->rows.toggle(d->rows.rows()[std::size_t(hit.row)].index); // a selection inside stays selected
        d->relayout();
        update();
        return;
    }
    if (hit.type == TimelineHit::Track || drag == TimelineViewState::Drag::Pan)
        selectEvent(hit.type == TimelineHit::Track ? hit.event : -1);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const TimelineHit hit = d->hitTest(event->position().toPoint());
    if (hit.type == TimelineHit::Track && hit.event >= 0)
        d->state.zoomToEvent(*d->run.trace, uint32_t(hit.event));
    else
        mousePressEvent(event); // a second click
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    const QPointF pos = event->position();
    const QRect plot = d->plotRect();
    const bool vertical =
        (event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier)) || pos.x() < plot.left();
    if (vertical) {
        // Shift+wheel may arrive as horizontal deltas on some platforms
        const int dy = delta.y() != 0 ? delta.y() : delta.x();
        d->scrollTo(d->vbar->value() - dy * 3 * kLaneHeight / 120);
    } else if (delta.y() != 0) {
        d->state.zoom(std::pow(1.2, delta.y() / 120.0),
                      std::clamp(pos.x() - plot.left(), 0.0, double(plot.width())));
    } else if (delta.x() != 0) {
        d->state.pan(-delta.x() / 120.0 * plot.width() / 10.0);
    }
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    const int w = d->plotRect().width();
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.5);
        break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
        zoomBy(1 / 1.5);
        break;
    case Qt::Key_Left:
        d->state.pan(-w / 8.0);
        break;
    case Qt::Key_Right:
        d->state.pan(w / 8.0);
        break;
    case Qt::Key_Up:
        d->scrollTo(d->vbar->value() - 2 * kLaneHeight);
        break;
    case Qt::Key_Down:
        d->scrollTo(d->vbar->value() + 2 * kLaneHeight);
        break;
    case Qt::Key_PageUp:
        d->scrollTo(d->vbar->value() - d->vbar->pageStep());
        break;
    case Qt::Key_PageDown:
        d->scrollTo(d->vbar->value() + d->vbar->pageStep());
        break;
    case Qt::Key_F:
    case Qt::Key_Home:
        fit();
        break;
    case Qt::Key_Z:
        d->state.zoomToSelection(d->run.trace.get());
        break;
    case Qt::Key_Escape:
        if (!d->state.clearRange())
            selectEvent(-1);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelineView::leaveEvent(QEvent *)
{
    if (d->state.hoveredEvent() >= 0 || d->state.hoveredGapRow() >= 0) {
        d->state.clearHover();
        update();
    }
}

} // namespace scopeline
