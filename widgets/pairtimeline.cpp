// SPDX-License-Identifier: GPL-3.0-or-later
#include "pairtimeline.h"

#include "model/rangesummary.h"
#include "timelinetext.h"
#include "timelinetheme.h"
#include "timelineviewstate.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace scopeline {

namespace {

const QString kSideNames[2] = {QStringLiteral("A"), QStringLiteral("B")};

// Where a run's activity begins for alignment: its first kernel, else its first event.
int64_t alignmentStart(const TimelineView *view)
{
    const LoadedRun &run = view->run();
    if (run.analysis && !run.analysis->kernels().empty())
        return run.trace->start[run.analysis->kernels().front()];
    return view->timeScale().lowerBound;
}

} // namespace

PairTimeline::PairTimeline(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 2, 6, 2);
    m_lock = new QCheckBox(tr("Lock zoom"), this);
    m_lock->setToolTip(tr("The same length of time fills both timelines; each keeps its own start"));
    auto *fitButton = new QPushButton(tr("Fit"), this);
    fitButton->setToolTip(tr("Show the whole of both runs (F in a timeline fits that one)"));
    auto *hint = new QLabel(tr("wheel: zoom · drag: pan · Shift+drag: select a range · click: details · "
                               "Ctrl+wheel: scroll · F: fit · Z: zoom to selection"),
                            this);
    m_hint = hint;
    bar->addWidget(m_lock);
    bar->addWidget(fitButton);
    bar->addSpacing(12);
    bar->addWidget(hint, 1);
    layout->addLayout(bar);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    for (int side = 0; side < 2; ++side) {
        auto *pane = new QWidget(splitter);
        auto *paneLayout = new QVBoxLayout(pane);
        paneLayout->setContentsMargins(0, 0, 0, 0);
        paneLayout->setSpacing(0);
        // the title bar: side, folder and run, with room on the right for widgets of the window's
        auto *titleBar = new QWidget(pane);
        titleBar->setObjectName(QStringLiteral("titleBar"));
        titleBar->setAttribute(Qt::WA_StyledBackground);
        m_titleBars[side] = titleBar;
        m_titleLayouts[side] = new QHBoxLayout(titleBar);
        m_titleLayouts[side]->setContentsMargins(6, 1, 6, 1);
        m_titles[side] = new QLabel(titleBar);
        m_titles[side]->setTextFormat(Qt::PlainText);
        m_titles[side]->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // elided, never widens
        m_titleLayouts[side]->addWidget(m_titles[side], 1);
        m_views[side] = new TimelineView(pane);
        paneLayout->addWidget(titleBar);
        paneLayout->addWidget(m_views[side], 1);
        splitter->addWidget(pane);

        TimelineView *view = m_views[side];
        connect(view, &TimelineView::visibleRangeChanged, this, [this, side] { syncSpan(side); });
        connect(view, &TimelineView::eventSelected, this,
                [this, side](int64_t event) { emit eventSelected(side, event); });
        connect(view, &TimelineView::rangeSelected, this,
                [this, side](int64_t start, int64_t end) { summarise(side, start, end); });
    }
    layout->addWidget(splitter, 1);

    connect(m_lock, &QCheckBox::toggled, this, &PairTimeline::setZoomLocked);
    connect(fitButton, &QPushButton::clicked, this, &PairTimeline::fitBoth);
    applyTheme();
    setRuns({}, {}, {}, {});
}

// Title bars tinted per side and the hint dimmed, from the palette (light or dark).
void PairTimeline::applyTheme()
{
    const TimelineTheme theme = TimelineTheme::fromPalette(palette());
    for (int side = 0; side < 2; ++side)
        m_titleBars[side]->setStyleSheet(QStringLiteral("#titleBar { background: %1; } "
                                                        "QLabel { font-weight: bold; color: %2; }")
                                             .arg(theme.sideBackground[std::size_t(side)].name(),
                                                  theme.sideText[std::size_t(side)].name()));
    m_hint->setStyleSheet(QStringLiteral("color: %1;").arg(theme.hintText.name()));
}

void PairTimeline::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
}

void PairTimeline::setRuns(const LoadedRun &a, const LoadedRun &b, const QString &labelA,
                           const QString &labelB)
{
    const LoadedRun *runs[2] = {&a, &b};
    // The two layouts at once: each is a pass over every event of its run (0.15 s for 700k events).
    QFuture<TimelineLayout> layoutA = QtConcurrent::run([&a] { return TimelineLayout(a); });
    TimelineLayout layouts[2] = {TimelineLayout(), TimelineLayout(b)};
    layouts[0] = layoutA.takeResult();
    m_labels[0] = labelA;
    m_labels[1] = labelB;
    m_syncing = true;
    for (int side = 0; side < 2; ++side) {
        // the run's name is in the window's run picker beside the title; alone, it names the side
        const QString &label = m_labels[side];
        const QString &runName = runs[side]->run.name;
        m_titleTexts[side] = kSideNames[side] + QStringLiteral(" — ") +
                             (!label.isEmpty()     ? label
                              : !runName.isEmpty() ? runName
                                                   : tr("no run"));
        m_titles[side]->setToolTip(runs[side]->run.file);
        elideTitle(side);
        m_views[side]->setMaximumSpan(0);
        m_views[side]->setRun(*runs[side], std::move(layouts[side]));
    }
    m_syncing = false;
    if (zoomLocked()) {
        updateMaximumSpans();
        fitBoth();
    }
    emit rangeSummaryChanged(QString());
}

void PairTimeline::elideTitle(int side)
{
    QLabel *title = m_titles[side];
    title->setText(title->fontMetrics().elidedText(m_titleTexts[side], Qt::ElideMiddle, title->width()));
}

void PairTimeline::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    for (int side = 0; side < 2; ++side)
        elideTitle(side);
}

void PairTimeline::addTitleWidget(int side, QWidget *widget)
{
    m_titleLayouts[side]->addWidget(widget);
}

TimelineView *PairTimeline::viewA() const
{
    return m_views[0];
}

TimelineView *PairTimeline::viewB() const
{
    return m_views[1];
}

bool PairTimeline::zoomLocked() const
{
    return m_locked;
}

void PairTimeline::setZoomLocked(bool locked)
{
    if (m_lock->isChecked() != locked) {
        m_lock->setChecked(locked); // re-enters through toggled
        return;
    }
    if (m_locked == locked)
        return;
    m_locked = locked;
    updateMaximumSpans();
    if (locked) {
        // Each run starts at its own first kernel; both take A's length of time.
        const int64_t span = m_views[0]->visibleEnd() - m_views[0]->visibleStart();
        m_syncing = true;
        for (TimelineView *view : m_views)
            view->viewState().showSpanFrom(alignmentStart(view), span);
        m_syncing = false;
    }
    emit zoomLockedChanged(locked);
}

void PairTimeline::updateMaximumSpans()
{
    int64_t widest = 0;
    if (zoomLocked())
        for (TimelineView *view : m_views)
            widest = std::max(widest, view->timeScale().boundsSpan());
    m_syncing = true;
    for (TimelineView *view : m_views)
        view->setMaximumSpan(widest);
    m_syncing = false;
}

void PairTimeline::fitBoth()
{
    if (!zoomLocked()) {
        for (TimelineView *view : m_views)
            view->fit();
        return;
    }
    int64_t span = 0;
    for (TimelineView *view : m_views)
        span = std::max(span, view->timeScale().boundsSpan());
    m_syncing = true;
    for (TimelineView *view : m_views)
        view->viewState().showSpanFrom(view->timeScale().lowerBound, span);
    m_syncing = false;
}

void PairTimeline::syncSpan(int side)
{
    if (m_syncing || !zoomLocked())
        return;
    TimelineView *source = m_views[side];
    TimelineView *other = m_views[1 - side];
    const int64_t span = source->visibleEnd() - source->visibleStart();
    if (other->visibleEnd() - other->visibleStart() == span)
        return;
    m_syncing = true;
    other->viewState().showSpanFrom(other->visibleStart(), span);
    m_syncing = false;
}

void PairTimeline::summarise(int side, int64_t start, int64_t end)
{
    const LoadedRun &run = m_views[side]->run();
    if (end <= start || !run.trace || !run.analysis) {
        emit rangeSummaryChanged(QString());
        return;
    }
    emit rangeSummaryChanged(rangeSummaryHtml(m_titles[side]->text(), summariseRange(*run.analysis, start, end),
                                              m_views[side]->timeScale().lowerBound));
}

} // namespace scopeline
