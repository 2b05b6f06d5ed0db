// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/pairtimeline.h"

#include "model/timeline/rangesummary.h"
#include "model/analysis/scopeindex.h"
#include "model/comparison/stepbreakdown.h"
#include "widgets/timeline/timelinetext.h"
#include "widgets/timeline/timelinetheme.h"
#include "widgets/timeline/timelineviewstate.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWidgetAction>
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
    updateLockText();
    auto *fitButton = new QPushButton(tr("Fit"), this);
    fitButton->setToolTip(tr("Show the whole of both runs (F in a timeline fits that one)"));
    // what the colours mean, a click away (and on hover): the hatches of the idle causes above all
    m_key = new QToolButton(this);
    m_key->setText(tr("Colours"));
    m_key->setPopupMode(QToolButton::InstantPopup);
    m_keyText = new QLabel(this);
    m_keyText->setContentsMargins(8, 6, 8, 6);
    auto *keyMenu = new QMenu(m_key);
    auto *keyAction = new QWidgetAction(keyMenu);
    keyAction->setDefaultWidget(m_keyText);
    keyMenu->addAction(keyAction);
    m_key->setMenu(keyMenu);
    auto *hint = new QLabel(tr("wheel: zoom · drag: pan · Shift+drag: select a range · click: details · "
                               "double-click: zoom to it · Ctrl+wheel: scroll · F: fit · Z: zoom to selection"),
                            this);
    m_hint = hint;
    // the hint gives way (clipped) so that the lock's text, which names the alignment, shows whole
    hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    hint->setMinimumWidth(0);
    bar->addWidget(m_lock);
    bar->addWidget(fitButton);
    bar->addWidget(m_key);
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
        titleBar->installEventFilter(this);
        m_titles[side]->installEventFilter(this);
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

bool PairTimeline::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::MouseButtonDblClick)
        for (int side = 0; side < 2; ++side)
            if (watched == m_titleBars[side] || watched == m_titles[side]) {
                emit titleDoubleClicked();
                return true;
            }
    return QWidget::eventFilter(watched, event);
}

void PairTimeline::setShowEmptyRows(bool show)
{
    for (TimelineView *view : m_views)
        view->setShowEmptyRows(show);
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
    m_keyText->setText(theme.keyHtml());
    m_key->setToolTip(theme.keyHtml());
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
    // A side whose run is the one shown keeps its view (zoom, selection) when the other side's run is
    // picked or its events arrive.
    bool kept[2];
    for (int side = 0; side < 2; ++side) {
        const LoadedRun &shown = m_views[side]->run();
        kept[side] =
            runs[side]->trace && runs[side]->trace == shown.trace && runs[side]->run.file == shown.run.file;
    }
    // The layouts to build at once: each is a pass over every event of its run (0.15 s for 700k
    // events); one trace on both sides (opened against itself) has one, shared.
    using Layout = std::shared_ptr<const TimelineLayout>;
    Layout layouts[2];
    if (!kept[0] && !kept[1] && a.trace && a.trace == b.trace) {
        layouts[0] = layouts[1] = std::make_shared<const TimelineLayout>(a);
    } else if (!kept[0] && !kept[1]) {
        QFuture<Layout> layoutA = QtConcurrent::run([&a] { return std::make_shared<const TimelineLayout>(a); });
        layouts[1] = std::make_shared<const TimelineLayout>(b);
        layouts[0] = layoutA.takeResult();
    } else {
        for (int side = 0; side < 2; ++side)
            if (!kept[side])
                layouts[side] = std::make_shared<const TimelineLayout>(*runs[side]);
    }
    m_labels[0] = labelA;
    m_labels[1] = labelB;
    m_syncing = true;
    for (int side = 0; side < 2; ++side) {
        // the run's name is in the window's run picker beside the title; alone, it names the side
        const QString &label = m_labels[side];
        const QString &runName = runs[side]->run.label();
        m_titleTexts[side] = kSideNames[side] + QStringLiteral(" — ") +
                             (!label.isEmpty()     ? label
                              : !runName.isEmpty() ? runName
                                                   : tr("no run"));
        m_titles[side]->setToolTip(runs[side]->run.file + QLatin1Char('\n') +
                                   tr("Double-click: the timelines take the window, again to restore"));
        elideTitle(side);
        if (kept[side])
            continue;
        m_views[side]->setMaximumSpan(0);
        m_views[side]->setRun(*runs[side], std::move(layouts[side]));
    }
    m_syncing = false;
    if (kept[0] && kept[1])
        return;
    m_stepsKnown = false;
    if (aligning()) {
        updateMaximumSpans();
        if (kept[0] || kept[1])
            align(kept[0] ? 0 : 1); // the new run follows the view kept
        else
            fitBoth();
    }
    updateLockText();
    emit rangeSummaryChanged(QString());
}

void PairTimeline::setStepScope(const QString &scope)
{
    if (scope == m_stepScope)
        return;
    m_stepScope = scope;
    m_stepsKnown = false;
    if (aligning())
        align(0); // B shows A's step of the new scope
    updateLockText();
}

void PairTimeline::elideTitle(int side)
{
    QLabel *title = m_titles[side];
    title->setText(
        boundedElidedText(title->fontMetrics(), m_titleTexts[side], Qt::ElideMiddle, title->width()));
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

// Locked, and both sides have a timeline: a run read from a summary file has no events, so no extent
// to align on (its empty one would stretch the other side over days).
bool PairTimeline::aligning() const
{
    return m_locked && m_views[0]->timeScale().boundsSpan() > 0 && m_views[1]->timeScale().boundsSpan() > 0;
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
    if (aligning())
        align(0); // A stays where it is; B shows the same step (or time after its first kernel)
    updateLockText();
    emit zoomLockedChanged(locked);
}

void PairTimeline::updateMaximumSpans()
{
    int64_t widest = 0;
    if (aligning()) {
        int64_t starts[2];
        widest = alignedFit(starts); // room for both whole, aligned
        for (TimelineView *view : m_views)
            widest = std::max(widest, view->timeScale().boundsSpan());
    }
    m_syncing = true;
    for (TimelineView *view : m_views)
        view->setMaximumSpan(widest);
    m_syncing = false;
}

void PairTimeline::fitBoth()
{
    if (!aligning()) {
        for (TimelineView *view : m_views)
            view->fit();
        return;
    }
    int64_t starts[2];
    const int64_t span = alignedFit(starts);
    m_syncing = true;
    for (int side = 0; side < 2; ++side)
        m_views[side]->viewState().showSpanFrom(starts[side], span);
    m_syncing = false;
    updateLockText();
}

int64_t PairTimeline::alignedFit(int64_t starts[2]) const
{
    ensureSteps();
    int64_t points[2], before = 0, after = 0;
    for (int side = 0; side < 2; ++side) {
        const TimeScale &scale = m_views[side]->timeScale();
        points[side] = m_steps[side].empty() ? alignmentStart(m_views[side]) : m_steps[side].front().first;
        before = std::max(before, points[side] - scale.lowerBound);
        after = std::max(after, scale.upperBound - points[side]);
    }
    for (int side = 0; side < 2; ++side)
        starts[side] = points[side] - before;
    return before + after;
}

void PairTimeline::syncSpan(int side)
{
    if (m_syncing || !aligning())
        return;
    align(side);
}

// The other side takes this side's length of time and the aligned start.
void PairTimeline::align(int side)
{
    TimelineView *source = m_views[side];
    TimelineView *other = m_views[1 - side];
    const int64_t span = source->visibleEnd() - source->visibleStart();
    const int64_t start = alignedStart(side, source->visibleStart());
    m_syncing = true;
    double fraction = 0;
    if (stepAt(side, source->visibleStart(), &fraction) >= 0)
        other->viewState().showAlignedSpanFrom(start, span); // its step at the left edge, come what may
    else
        other->viewState().showSpanFrom(start, span); // a shorter run shows its end, not nothing
    m_syncing = false;
    updateLockText();
}

void PairTimeline::ensureSteps() const
{
    if (m_stepsKnown)
        return;
    m_stepsKnown = true;
    for (auto &steps : m_steps)
        steps.clear();
    const LoadedRun &a = m_views[0]->run(), &b = m_views[1]->run();
    if (!a.summary || !b.summary || !a.scopes || !b.scopes)
        return;
    // the step scope asked for (What changed's), else the one detected where both runs have it
    const QString scope = stepScopeFor(m_stepScope, QList<LoadedRun>{a}, QList<LoadedRun>{b});
    if (scope.isEmpty())
        return;
    const LoadedRun *runs[2] = {&a, &b};
    for (int side = 0; side < 2; ++side)
        for (const StepInstance &step : findRunSteps(*runs[side]->summary, scope).steps)
            m_steps[side].emplace_back(step.start, step.end);
    if (m_steps[0].empty() || m_steps[1].empty())
        for (auto &steps : m_steps)
            steps.clear();
}

int PairTimeline::stepAt(int side, int64_t time, double *fraction) const
{
    ensureSteps();
    const auto &steps = m_steps[side];
    const auto &others = m_steps[1 - side];
    if (steps.empty() || others.empty())
        return -1;
    // the last step starting at or before the time; before the first, the first
    auto it = std::upper_bound(steps.begin(), steps.end(), time,
                               [](int64_t t, const std::pair<int64_t, int64_t> &s) { return t < s.first; });
    std::size_t k = it == steps.begin() ? 0 : std::size_t(it - steps.begin()) - 1;
    // between two steps: the next one
    if (time >= steps[k].second && k + 1 < steps.size())
        ++k;
    k = std::min(k, others.size() - 1);
    const int64_t length = std::max<int64_t>(1, steps[k].second - steps[k].first);
    *fraction = std::clamp(double(time - steps[k].first) / double(length), 0.0, 1.0);
    return int(k);
}

int64_t PairTimeline::alignedStart(int side, int64_t start) const
{
    const TimelineView *source = m_views[side];
    const TimelineView *other = m_views[1 - side];
    double fraction = 0;
    const int step = stepAt(side, start, &fraction);
    if (step >= 0) {
        const auto &from = m_steps[side][std::size_t(step)];
        const auto &to = m_steps[1 - side][std::size_t(step)];
        // before the first step: the same time before the other's first step
        if (start < from.first)
            return to.first - (from.first - start);
        return to.first + int64_t(std::llround(fraction * double(to.second - to.first)));
    }
    return alignmentStart(other) + (start - alignmentStart(source));
}

QString PairTimeline::alignment() const
{
    if (!aligning())
        return {};
    return m_alignedStep >= 0 ? tr("step %1").arg(m_alignedStep) : tr("first kernel");
}

void PairTimeline::updateLockText()
{
    double fraction = 0;
    m_alignedStep = aligning() ? stepAt(0, m_views[0]->visibleStart(), &fraction) : -1;
    if (!aligning()) {
        m_lock->setText(tr("Lock zoom"));
        m_lock->setToolTip(
            zoomLocked() ? tr("Nothing to align: one side has no timeline (a run read from a "
                              "summary file has no events)")
                         : tr("Show the same length of time in both timelines, aligned on the same step "
                              "(when both runs have steps) or else on the first kernel"));
        return;
    }
    m_lock->setText(tr("Lock zoom: aligned on %1").arg(alignment()));
    m_lock->setToolTip(
        m_alignedStep >= 0
            ? tr("The same length of time fills both timelines, and both show step %1 at "
                 "the same point (steps counted from 0, in run order)")
                  .arg(m_alignedStep)
            : tr("The same length of time fills both timelines, each from the same time "
                 "after its first kernel as far as its run goes (no step scope common to both runs)"));
}

void PairTimeline::summarise(int side, int64_t start, int64_t end)
{
    const LoadedRun &run = m_views[side]->run();
    // Lock zoom's aligned view shows time beyond a run's recording: none of it is the run's idle time.
    const TimeScale &scale = m_views[side]->timeScale();
    start = std::max(start, scale.lowerBound);
    end = std::min(end, scale.upperBound);
    if (end <= start || !run.trace || !run.analysis) {
        emit rangeSummaryChanged(QString());
        return;
    }
    // a rank's figures say whose: the side's title names its folder alone
    const QString title = run.run.rank >= 0 ? m_titleTexts[side] + QStringLiteral(" · ") + run.run.label()
                                            : m_titles[side]->text();
    emit rangeSummaryChanged(
        rangeSummaryHtml(title, summariseRange(*run.analysis, start, end), scale.lowerBound));
}

} // namespace scopeline
