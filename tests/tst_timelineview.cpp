// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineView and PairTimeline on real traces: fit, wheel zoom about the cursor, keys, drag pan,
// Shift-drag range selection, clicking a kernel, descriptions, collapsing, rendering, locked zoom and
// the range summary against TraceAnalysis; a thread scrolled half out keeps its name.

#include "testdata.h"
#include "testruns.h"

#include "model/analysis/scopeindex.h"
#include "model/analysis/traceanalysis.h"
#include "model/comparison/stepbreakdown.h"
#include "model/loading/loadedrun.h"
#include "model/loading/pairloader.h"
#include "model/loading/tracefolder.h"
#include "model/tables/durationformat.h"
#include "model/timeline/rangesummary.h"
#include "widgets/timeline/pairtimeline.h"
#include "widgets/timeline/timelinepainter.h"
#include "widgets/timeline/timelinetext.h"
#include "widgets/timeline/timelinetheme.h"
#include "widgets/timeline/timelineview.h"

#include <QtTest>

#include <QApplication>
#include <QCheckBox>
#include <QHelpEvent>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QToolButton>
#include <QToolTip>
#include <QWheelEvent>
#include <QWidgetAction>

#include <limits>

using namespace scopeline;
using testruns::kGraphTrace;
using testruns::kJaxRun;
using testruns::loadFirst;

namespace {

const QString kJaxMatmulRun = testdata::path("jax_h100/jax_named_scopes/trace_file_matmul_0");

std::pair<int64_t, int64_t> extent(const TraceData &t)
{
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (uint32_t e = 0; e < t.eventCount(); ++e) {
        lo = std::min(lo, t.start[e]);
        hi = std::max(hi, t.end(e));
    }
    return {lo, hi};
}

void sendMouse(QWidget *w, QEvent::Type type, QPoint pos, Qt::MouseButton button, Qt::MouseButtons buttons,
               Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QMouseEvent event(type, QPointF(pos), QPointF(w->mapToGlobal(pos)), button, buttons, modifiers);
    QCoreApplication::sendEvent(w, &event);
}

void drag(QWidget *w, QPoint from, QPoint to, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    sendMouse(w, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton, modifiers);
    for (int i = 1; i <= 4; ++i)
        sendMouse(w, QEvent::MouseMove, from + (to - from) * i / 4, Qt::NoButton, Qt::LeftButton, modifiers);
    sendMouse(w, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton, modifiers);
}

void wheel(QWidget *w, QPoint pos, int delta, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWheelEvent event(QPointF(pos), QPointF(w->mapToGlobal(pos)), QPoint(), QPoint(0, delta), Qt::NoButton,
                      modifiers, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(w, &event);
}

bool nonUniform(const QImage &image)
{
    const QRgb first = image.pixel(0, 0);
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    return colours.size() > 10 && colours.contains(first);
}

// A kernel in the middle of the run that has a launch.
uint32_t middleKernel(const LoadedRun &run)
{
    const auto &kernels = run.analysis->kernels();
    for (std::size_t i = kernels.size() / 2; i < kernels.size(); ++i)
        if (run.analysis->launchOf(kernels[i]) >= 0)
            return kernels[i];
    return kernels[kernels.size() / 2];
}

QString withoutBreaks(QString html)
{
    return html.remove(QChar(0x200B));
}

// Sizes and shows the view with the run, as a window, and waits until it is on screen.
// Events the top edge of the plot cuts through: drawn partly above it.
int cutAtTheTop(const TimelineView &view, const LoadedRun &run)
{
    const int top = view.plotRect().top();
    int cut = 0;
    for (uint32_t e = 0; e < run.trace->eventCount(); ++e)
        if (const QRect r = view.eventRect(e); r.isValid() && r.top() < top && r.bottom() >= top)
            ++cut;
    return cut;
}

bool showRun(TimelineView &view, const LoadedRun &run, QSize size = QSize(1200, 700))
{
    view.resize(size);
    view.setRun(run);
    view.show();
    return QTest::qWaitForWindowExposed(&view);
}

} // namespace

class TstTimelineView : public QObject
{
    Q_OBJECT

    LoadedRun m_jax, m_jaxMatmul, m_graph;

    LoadedRun runNamed(const QString &name) const { return name == QLatin1String("jax") ? m_jax : m_graph; }

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(kJaxRun, kJaxMatmulRun, kGraphTrace);
        m_jax = loadFirst(kJaxRun);
        m_jaxMatmul = loadFirst(kJaxMatmulRun);
        m_graph = loadFirst(kGraphTrace);
        QVERIFY2(m_jax.ok(), qPrintable(m_jax.error));
        QVERIFY2(m_jaxMatmul.ok(), qPrintable(m_jaxMatmul.error));
        QVERIFY2(m_graph.ok(), qPrintable(m_graph.error));
        QVERIFY(!m_jax.analysis->kernels().empty());
        QVERIFY(m_graph.analysis->total().graphLaunches > 0);
    }

    void fitShowsTheWholeTrace_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("jax") << QStringLiteral("jax");
        QTest::newRow("rocm graph") << QStringLiteral("graph");
    }

    void fitShowsTheWholeTrace()
    {
        QFETCH(QString, name);
        const LoadedRun run = runNamed(name);
        TimelineView view;
        QVERIFY(showRun(view, run));
        const auto [lo, hi] = extent(*run.trace);
        QCOMPARE(view.visibleStart(), lo);
        QCOMPARE(view.visibleEnd(), hi);
        view.zoomBy(5);
        QVERIFY(view.visibleEnd() - view.visibleStart() < hi - lo);
        view.fit();
        QCOMPARE(view.visibleStart(), lo);
        QCOMPARE(view.visibleEnd(), hi);
        QCOMPARE(view.timeScale().width, double(view.plotRect().width()));
        QCOMPARE(view.focusPolicy(), Qt::StrongFocus);
    }

    void wheelZoomsAboutTheCursor_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("x"); // px into the plot
        QTest::newRow("jax left") << QStringLiteral("jax") << 200;
        QTest::newRow("jax right") << QStringLiteral("jax") << 900;
        QTest::newRow("rocm graph") << QStringLiteral("graph") << 555;
    }

    void wheelZoomsAboutTheCursor()
    {
        QFETCH(QString, name);
        QFETCH(int, x);
        TimelineView view;
        QVERIFY(showRun(view, runNamed(name)));
        QSignalSpy ranges(&view, &TimelineView::visibleRangeChanged);
        const QPoint pos(view.plotRect().left() + x, view.plotRect().top() + 40);
        for (int step = 0; step < 3; ++step) {
            const int64_t span = view.visibleEnd() - view.visibleStart();
            const int64_t under = view.timeScale().toTime(x);
            wheel(&view, pos, 120);
            const int64_t newSpan = view.visibleEnd() - view.visibleStart();
            QVERIFY2(newSpan < span, qPrintable(QStringLiteral("%1 -> %2").arg(span).arg(newSpan)));
            QVERIFY(std::fabs(view.timeScale().toPixel(under) - x) < 0.5);
        }
        QCOMPARE(ranges.count(), 3);
        QCOMPARE(ranges.last().at(0).value<int64_t>(), view.visibleStart());
        QCOMPARE(ranges.last().at(1).value<int64_t>(), view.visibleEnd());
        // wheel back out about the same point
        wheel(&view, pos, -360);
        const auto [lo, hi] = extent(*view.run().trace);
        QVERIFY(std::llabs((view.visibleEnd() - view.visibleStart()) - (hi - lo)) <= 2);
        // Ctrl+wheel scrolls vertically instead: the time window stays
        view.zoomBy(3);
        const int64_t start = view.visibleStart(), end = view.visibleEnd();
        wheel(&view, pos, -120, Qt::ControlModifier);
        wheel(&view, pos, -120, Qt::ShiftModifier);
        QCOMPARE(view.visibleStart(), start);
        QCOMPARE(view.visibleEnd(), end);
    }

    void keys()
    {
        TimelineView view;
        QVERIFY(showRun(view, m_jax));
        const int64_t full = view.visibleEnd() - view.visibleStart();
        QTest::keyClick(&view, '+');
        const int64_t zoomed = view.visibleEnd() - view.visibleStart();
        QVERIFY(std::llabs(zoomed - std::llround(full / 1.5)) <= 1);
        QTest::keyClick(&view, '=');
        QVERIFY(view.visibleEnd() - view.visibleStart() < zoomed);
        QTest::keyClick(&view, '-');
        QVERIFY(std::llabs(view.visibleEnd() - view.visibleStart() - zoomed) <= 1);
        // Left/Right pan by an eighth of the width
        const int64_t start = view.visibleStart();
        const double nsPerPx = view.timeScale().nsPerPixel();
        QTest::keyClick(&view, Qt::Key_Right);
        QVERIFY(view.visibleStart() > start);
        QVERIFY(std::llabs(view.visibleStart() - start -
                           std::llround(view.plotRect().width() / 8.0 * nsPerPx)) <= 1);
        QTest::keyClick(&view, Qt::Key_Left);
        QCOMPARE(view.visibleStart(), start);
        QTest::keyClick(&view, Qt::Key_Left);
        QVERIFY(view.visibleStart() < start);
        QTest::keyClick(&view, Qt::Key_F);
        const auto [lo, hi] = extent(*m_jax.trace);
        QCOMPARE(view.visibleStart(), lo);
        QCOMPARE(view.visibleEnd(), hi);
        view.zoomBy(4);
        QTest::keyClick(&view, Qt::Key_Home);
        QCOMPARE(view.visibleEnd() - view.visibleStart(), hi - lo);
        // Z zooms to a selected range, Esc clears it
        QSignalSpy selected(&view, &TimelineView::rangeSelected);
        const QRect plot = view.plotRect();
        drag(&view, QPoint(plot.left() + 300, plot.top() + 30), QPoint(plot.left() + 600, plot.top() + 30),
             Qt::ShiftModifier);
        QCOMPARE(selected.count(), 1);
        const int64_t from = selected.last().at(0).value<int64_t>(),
                      to = selected.last().at(1).value<int64_t>();
        QTest::keyClick(&view, Qt::Key_Z);
        QCOMPARE(view.visibleStart(), from);
        QCOMPARE(view.visibleEnd(), to);
        QTest::keyClick(&view, Qt::Key_Escape);
        QCOMPARE(selected.count(), 2);
        QCOMPARE(selected.last().at(0).value<int64_t>(), selected.last().at(1).value<int64_t>());
        QCOMPARE(view.selectionStart(), view.selectionEnd());
    }

    void dragPans()
    {
        TimelineView view;
        QVERIFY(showRun(view, m_jax));
        view.zoomBy(8);
        const int64_t start = view.visibleStart(), span = view.visibleEnd() - view.visibleStart();
        const double nsPerPx = view.timeScale().nsPerPixel();
        const QRect plot = view.plotRect();
        QSignalSpy ranges(&view, &TimelineView::visibleRangeChanged);
        QSignalSpy selected(&view, &TimelineView::eventSelected);
        // dragging left by 200 px shows later times: the content follows the mouse
        drag(&view, QPoint(plot.left() + 700, plot.top() + 20), QPoint(plot.left() + 500, plot.top() + 20));
        QVERIFY(ranges.count() >= 1);
        QCOMPARE(view.visibleEnd() - view.visibleStart(), span);
        QVERIFY(std::llabs(view.visibleStart() - start - std::llround(200 * nsPerPx)) <= 1);
        drag(&view, QPoint(plot.left() + 500, plot.top() + 20), QPoint(plot.left() + 800, plot.top() + 20));
        QVERIFY(std::llabs(view.visibleStart() - start + std::llround(100 * nsPerPx)) <= 2);
        QCOMPARE(selected.count(), 0); // a drag is not a click
    }

    void shiftDragSelectsARange_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("x0");
        QTest::addColumn<int>("x1");
        QTest::newRow("jax forwards") << QStringLiteral("jax") << 150 << 640;
        QTest::newRow("jax backwards") << QStringLiteral("jax") << 900 << 333;
        QTest::newRow("rocm graph") << QStringLiteral("graph") << 10 << 1000;
    }

    void shiftDragSelectsARange()
    {
        QFETCH(QString, name);
        QFETCH(int, x0);
        QFETCH(int, x1);
        TimelineView view;
        QVERIFY(showRun(view, runNamed(name)));
        view.zoomBy(2);
        const int64_t start = view.visibleStart(), end = view.visibleEnd();
        QSignalSpy selected(&view, &TimelineView::rangeSelected);
        const QRect plot = view.plotRect();
        drag(&view, QPoint(plot.left() + x0, plot.top() + 50), QPoint(plot.left() + x1, plot.top() + 50),
             Qt::ShiftModifier);
        QCOMPARE(selected.count(), 1);
        const TimeScale &scale = view.timeScale();
        QCOMPARE(selected.last().at(0).value<int64_t>(), scale.toTime(std::min(x0, x1)));
        QCOMPARE(selected.last().at(1).value<int64_t>(), scale.toTime(std::max(x0, x1)));
        QCOMPARE(view.selectionStart(), scale.toTime(std::min(x0, x1)));
        QCOMPARE(view.selectionEnd(), scale.toTime(std::max(x0, x1)));
        // selecting does not pan
        QCOMPARE(view.visibleStart(), start);
        QCOMPARE(view.visibleEnd(), end);
        const QImage image = view.grab().toImage();
        QVERIFY(nonUniform(image));
        image.save(QStringLiteral("/tmp/timeline_selection_%1.png").arg(name));
        // a Shift-click clears it
        sendMouse(&view, QEvent::MouseButtonPress, QPoint(plot.left() + 50, plot.top() + 50), Qt::LeftButton,
                  Qt::LeftButton, Qt::ShiftModifier);
        sendMouse(&view, QEvent::MouseButtonRelease, QPoint(plot.left() + 50, plot.top() + 50),
                  Qt::LeftButton, Qt::NoButton, Qt::ShiftModifier);
        QCOMPARE(selected.count(), 2);
        QCOMPARE(selected.last().at(0).value<int64_t>(), selected.last().at(1).value<int64_t>());
    }

    void clickSelectsAKernel_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("jax") << QStringLiteral("jax");
        QTest::newRow("rocm graph") << QStringLiteral("graph");
    }

    void clickSelectsAKernel()
    {
        QFETCH(QString, name);
        const LoadedRun run = runNamed(name);
        TimelineView view;
        QVERIFY(showRun(view, run));
        const TraceData &t = *run.trace;
        const uint32_t kernel = middleKernel(run);
        view.setVisibleRange(t.start[kernel] - 2 * t.duration[kernel],
                             t.end(kernel) + 2 * t.duration[kernel]);
        const QRect r = view.eventRect(kernel);
        QVERIFY(r.isValid());
        QVERIFY2(view.plotRect().contains(r.center()),
                 qPrintable(QStringLiteral("kernel at %1,%2").arg(r.center().x()).arg(r.center().y())));
        // the rect is where the time scale puts the kernel
        QVERIFY(std::abs(r.left() - (view.plotRect().left() +
                                     int(std::floor(view.timeScale().toPixel(t.start[kernel]))))) <= 1);
        QVERIFY(std::abs(
                    r.right() + 1 -
                    (view.plotRect().left() + int(std::ceil(view.timeScale().toPixel(t.end(kernel)))))) <= 1);
        QSignalSpy selected(&view, &TimelineView::eventSelected);
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, r.center());
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.last().at(0).value<int64_t>(), int64_t(kernel));
        QCOMPARE(view.selectedEvent(), int64_t(kernel));
        // its launch is drawn too: click it and the selection follows
        const int64_t launch = run.analysis->launchOf(kernel);
        QVERIFY(launch >= 0);
        QImage image = view.grab().toImage();
        QVERIFY(nonUniform(image));
        image.save(QStringLiteral("/tmp/timeline_kernel_%1.png").arg(name));
        // clicking empty space clears the selection
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier,
                          QPoint(view.plotRect().right() - 2, view.height() - 3));
        QCOMPARE(view.selectedEvent(), int64_t(-1));
        // Esc also clears it
        view.selectEvent(kernel);
        QTest::keyClick(&view, Qt::Key_Escape);
        QCOMPARE(view.selectedEvent(), int64_t(-1));
    }

    void describesAKernelAndItsLaunch_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("jax") << QStringLiteral("jax");
        QTest::newRow("rocm graph") << QStringLiteral("graph");
    }

    void describesAKernelAndItsLaunch()
    {
        QFETCH(QString, name);
        const LoadedRun run = runNamed(name);
        const TraceData &t = *run.trace;
        const uint32_t kernel = middleKernel(run);
        const int64_t launch = run.analysis->launchOf(kernel);
        QVERIFY(launch >= 0);
        const QString html = withoutBreaks(TimelineView::describeEvent(run, kernel));
        QVERIFY2(html.contains(t.qname(kernel).toHtmlEscaped()), qPrintable(html));
        QVERIFY2(html.contains(t.qname(uint32_t(launch)).toHtmlEscaped()), qPrintable(html));
        QVERIFY(html.contains(formatDuration(double(t.duration[kernel]))));
        // exact ns from the timeline's origin (Details shows times one way)
        QVERIFY(html.contains(QString::number(t.start[kernel] - timelineOrigin(t))));
        QVERIFY(html.contains(
            formatDuration(double(t.start[kernel] - t.start[uint32_t(launch)])))); // launch delay
        if (t.opPathOf(kernel) != 0)
            QVERIFY(html.contains(t.strings.qstring(t.opPathOf(kernel)).toHtmlEscaped()));
        // and the launch: its kernels
        const QString launchHtml = withoutBreaks(TimelineView::describeEvent(run, uint32_t(launch)));
        const auto kernels = run.analysis->kernelsOf(uint32_t(launch));
        QVERIFY(launchHtml.contains(t.qname(kernels.front()).toHtmlEscaped()));
        QVERIFY(launchHtml.contains(QStringLiteral("<td>%1</td>").arg(kernels.size())));
        // out of range: nothing
        QVERIFY(TimelineView::describeEvent(run, uint32_t(t.eventCount())).isEmpty());
        QVERIFY(TimelineView::describeEvent(LoadedRun(), 0).isEmpty());
    }

    void jaxScopePathAndArgs()
    {
        const TraceData &t = *m_jax.trace;
        for (uint32_t k : m_jax.analysis->kernels()) {
            if (t.opPathOf(k) == 0)
                continue;
            const QString html = withoutBreaks(TimelineView::describeEvent(m_jax, k));
            QVERIFY(html.contains(t.strings.qstring(t.opPathOf(k)).toHtmlEscaped()));
            QVERIFY(html.contains(QStringLiteral("correlation_id")));
            return;
        }
        QFAIL("no JAX kernel with an op path");
    }

    void collapsingAProcessHidesItsTracks()
    {
        TimelineView view;
        QVERIFY(showRun(view, m_jax));
        const uint32_t kernel = middleKernel(m_jax);
        QVERIFY(m_jax.analysis->launchOf(kernel) >= 0);
        const uint32_t launch = uint32_t(m_jax.analysis->launchOf(kernel));
        const QRect kernelBefore = view.eventRect(kernel);
        QVERIFY(view.eventRect(launch).isValid());
        // the first row is the CPU process header
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, QPoint(40, view.plotRect().top() + 5));
        QVERIFY(!view.eventRect(launch).isValid());
        QVERIFY(view.eventRect(kernel).isValid());
        QVERIFY(view.eventRect(kernel).top() < kernelBefore.top()); // the GPU moved up
        QVERIFY(nonUniform(view.grab().toImage()));
        view.grab().save(QStringLiteral("/tmp/timeline_collapsed.png"));
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, QPoint(40, view.plotRect().top() + 5));
        QCOMPARE(view.eventRect(launch).isValid(), true);
        QCOMPARE(view.eventRect(kernel), kernelBefore);
    }

    // The profiler's own row (Kineto's "PyTorch Profiler (0)" span) and CPU threads with nothing in
    // the visible window take no room unless asked for; GPU streams always show. The expectation walks
    // each track's raw events, not the lanes' index the view uses.
    void emptyRowsHiddenUnlessAskedFor()
    {
        const QString torchRun = testdata::path("h100_runs/torch_compile/eager/run_0");
        REQUIRE_TEST_DATA(torchRun);
        const LoadedRun torch = loadFirst(torchRun);
        QVERIFY2(torch.ok(), qPrintable(torch.error));
        const TraceData &t = *torch.trace;
        // Kineto's span on process "Spans" and its two marks, each on a process of its own
        std::vector<uint32_t> ownTracks;
        for (uint32_t track = 0; track < t.tracks.size(); ++track) {
            const auto &events = t.trackEvents[track];
            if (events.size() == 1 &&
                (t.qname(events.front()) == QLatin1String("PyTorch Profiler (0)") ||
                 t.qname(events.front()) == QLatin1String("Record Window End") ||
                 t.qname(events.front()) == QLatin1String("Iteration Start: PyTorch Profiler")))
                ownTracks.push_back(track);
        }
        QCOMPARE(ownTracks.size(), std::size_t(3));
        const uint32_t span = t.trackEvents[ownTracks.front()].front();
        TimelineView view;
        QVERIFY(showRun(view, torch));
        QCOMPARE(view.hiddenRowCount(), 3);
        QVERIFY(!view.eventRect(span).isValid());
        QVERIFY(view.eventRect(middleKernel(torch)).isValid());
        view.setShowEmptyRows(true);
        QCOMPARE(view.hiddenRowCount(), 0);
        QVERIFY(view.eventRect(span).isValid());

        // Zoomed onto one JAX kernel: the host threads with nothing there go, the rest stay.
        TimelineView jax;
        QVERIFY(showRun(jax, m_jax));
        const TraceData &j = *m_jax.trace;
        const uint32_t kernel = middleKernel(m_jax);
        const int64_t from = j.start[kernel], to = j.end(kernel);
        jax.setVisibleRange(from, to);
        int empty = 0;
        for (uint32_t track = 0; track < j.tracks.size(); ++track) {
            const auto &events = j.trackEvents[track];
            if (events.empty())
                continue;
            const auto in = std::find_if(events.begin(), events.end(),
                                         [&](uint32_t e) { return j.start[e] <= to && j.end(e) >= from; });
            if (in == events.end() && !j.tracks[track].gpu)
                ++empty;
            else if (in != events.end())
                QVERIFY2(jax.eventRect(*in).isValid(), qPrintable(j.tracks[track].displayName()));
        }
        QVERIFY2(empty >= 1, "no host thread is empty around the kernel: the test shows nothing");
        QCOMPARE(jax.hiddenRowCount(), empty);
        QVERIFY(nonUniform(jax.grab().toImage()));
        jax.fit();
        QCOMPARE(jax.hiddenRowCount(), 0); // every row has its events somewhere in the run
    }

    // A hovered idle gap, then a zoom out brings back the host threads above its stream: the hover
    // named the gap by its row's position, which became a CPU thread's (a crash when painted).
    void hoveredGapOutlivesRowsComingBack()
    {
        TimelineView view;
        view.resize(1200, 600);
        QVERIFY(showRun(view, m_jax));
        const StreamSummary &stream = m_jax.analysis->streams().front();
        QVERIFY(!stream.gaps.empty());
        const IdleGap gap =
            *std::max_element(stream.gaps.begin(), stream.gaps.end(),
                              [](const IdleGap &a, const IdleGap &b) { return a.length() < b.length(); });
        view.setVisibleRange(gap.start + gap.length() / 4, gap.end - gap.length() / 4);
        const int hidden = view.hiddenRowCount();
        QVERIFY2(hidden >= 1, "no host thread is empty inside the gap: the rows would not move");
        const QPoint pos(view.plotRect().left() + view.plotRect().width() / 2,
                         view.eventRect(gap.after).center().y());
        sendMouse(&view, QEvent::MouseMove, pos, Qt::NoButton, Qt::NoButton);
        const QImage hovered = view.grab().toImage();
        wheel(&view, pos, -2400);
        QVERIFY(view.hiddenRowCount() < hidden);
        QVERIFY(nonUniform(view.grab().toImage()));
        view.fit();
        QVERIFY(nonUniform(view.grab().toImage()));
        QVERIFY(!hovered.isNull());
    }

    void tooltips()
    {
        TimelineView view;
        QVERIFY(showRun(view, m_jax));
        const TraceData &t = *m_jax.trace;
        // the longest idle gap of the GPU stream: its length, cause and what the CPU was doing
        const StreamSummary &stream = m_jax.analysis->streams().front();
        QVERIFY(!stream.gaps.empty());
        const IdleGap gap =
            *std::max_element(stream.gaps.begin(), stream.gaps.end(),
                              [](const IdleGap &a, const IdleGap &b) { return a.length() < b.length(); });
        view.setVisibleRange(gap.start - gap.length() / 4, gap.end + gap.length() / 4);
        QPoint pos(view.plotRect().left() + int(view.timeScale().toPixel(gap.start + gap.length() / 2)),
                   view.eventRect(gap.after).center().y());
        QHelpEvent gapHelp(QEvent::ToolTip, pos, view.mapToGlobal(pos));
        QCoreApplication::sendEvent(&view, &gapHelp);
        QVERIFY(QToolTip::isVisible());
        QString expected =
            QStringLiteral("idle %1 — %2").arg(formatDuration(double(gap.length())), gapCauseName(gap.cause));
        if (gap.cpuEvent >= 0)
            expected += QStringLiteral("; CPU in %1").arg(t.qname(uint32_t(gap.cpuEvent)));
        QVERIFY2(QToolTip::text().contains(expected.toHtmlEscaped()),
                 qPrintable(QToolTip::text() + QStringLiteral(" lacks ") + expected));
        for (QWidget *w : QApplication::topLevelWidgets())
            if (w->isVisible() && QByteArray(w->metaObject()->className()) == "QTipLabel")
                w->grab().save(QStringLiteral("/tmp/timeline_tooltip_gap.png"));
        // a kernel: its description
        const uint32_t kernel = gap.after;
        view.setVisibleRange(t.start[kernel] - t.duration[kernel], t.end(kernel) + t.duration[kernel]);
        pos = view.eventRect(kernel).center();
        QHelpEvent kernelHelp(QEvent::ToolTip, pos, view.mapToGlobal(pos));
        QCoreApplication::sendEvent(&view, &kernelHelp);
        QVERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), TimelineView::describeEvent(m_jax, kernel));
        for (QWidget *w : QApplication::topLevelWidgets())
            if (w->isVisible() && QByteArray(w->metaObject()->className()) == "QTipLabel")
                w->grab().save(QStringLiteral("/tmp/timeline_tooltip_kernel.png"));
        // a track label: the full track name
        pos = QPoint(60, view.eventRect(kernel).center().y());
        QHelpEvent labelHelp(QEvent::ToolTip, pos, view.mapToGlobal(pos));
        QCoreApplication::sendEvent(&view, &labelHelp);
        QVERIFY(QToolTip::text().contains(t.tracks[t.track[kernel]].displayName().toHtmlEscaped()));
        QToolTip::hideText();
    }

    void scrollsVertically()
    {
        TimelineView view;
        QVERIFY(showRun(view, m_jax, QSize(1200, 250))); // shorter than its rows
        const uint32_t kernel = middleKernel(m_jax);
        // rows taller than the view open scrolled down to the GPU streams
        QVERIFY(view.plotRect().contains(view.eventRect(kernel).center()));
        QVERIFY(view.plotRect().right() < view.width() - 5); // room for the scroll bar
        const int top = view.eventRect(kernel).top();
        const int64_t start = view.visibleStart(), end = view.visibleEnd();
        const QPoint pos(view.plotRect().left() + 300, view.plotRect().top() + 40);
        wheel(&view, pos, 120, Qt::ControlModifier);
        const int scrolled = view.eventRect(kernel).top();
        QVERIFY2(scrolled > top, qPrintable(QStringLiteral("%1 -> %2").arg(top).arg(scrolled)));
        QCOMPARE(view.visibleStart(), start);
        QCOMPARE(view.visibleEnd(), end);
        wheel(&view, pos, -120, Qt::ShiftModifier);
        QCOMPARE(view.eventRect(kernel).top(), top);
        QTest::keyClick(&view, Qt::Key_PageUp);
        const int paged = view.eventRect(kernel).top();
        QVERIFY(paged > top);
        // once the user has scrolled, a resize leaves the rows where they put them
        view.resize(1200, 260);
        QCOMPARE(view.eventRect(kernel).top(), paged);
        // a new run opens at its GPU rows again
        view.setRun(m_jax);
        QVERIFY(view.plotRect().contains(view.eventRect(kernel).center()));
        QCOMPARE(cutAtTheTop(view, m_jax), 0);
    }

    // A kernel picked in the table whose stream is scrolled out of view (DLRM's NCCL kernels run on a
    // stream of their own) is brought into view by row as well as by time: its calls had stayed out of
    // sight, and picking it had seemed to do nothing.
    void highlightedKernelsRowIsScrolledTo()
    {
        REQUIRE_TEST_DATA(testdata::dlrmRun());
        const QList<LoadedRun> ranks = LoadedRun::loadAll(TraceFolder::scan(testdata::dlrmRun()));
        QCOMPARE(ranks.size(), 8);
        const LoadedRun &run = ranks[0];
        const TraceData &t = *run.trace;
        TimelineView view;
        QVERIFY(showRun(view, run, QSize(1200, 150)));
        const auto shownCalls = [&](const QString &name) {
            int shown = 0;
            for (uint32_t k : run.analysis->kernels())
                if (t.qname(k) == name)
                    if (const QRect r = view.eventRect(k); r.isValid() && r.top() >= view.plotRect().top() &&
                                                           r.bottom() <= view.plotRect().bottom() &&
                                                           r.right() >= view.plotRect().left() &&
                                                           r.left() <= view.plotRect().right())
                        ++shown;
            return shown;
        };
        const QString allReduce =
            QStringLiteral("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)");
        QCOMPARE(shownCalls(allReduce), 0); // its stream below the rows in view, at this height
        const int64_t start = view.visibleStart(), end = view.visibleEnd();
        view.setHighlightedKernels({allReduce});
        QVERIFY(view.revealHighlighted());
        QVERIFY2(shownCalls(allReduce) > 0, qPrintable(QString::number(view.verticalScroll())));
        QCOMPARE(view.visibleStart(), start); // its calls were in the time shown: the time is kept
        QCOMPARE(view.visibleEnd(), end);
        // and stays in view as the view shrinks (the window laid out after a kernel was picked)
        view.resize(1200, 100);
        QVERIFY2(shownCalls(allReduce) > 0, qPrintable(QString::number(view.verticalScroll())));
        // a kernel on the rows in view keeps them where they are
        const int scroll = view.verticalScroll();
        view.setHighlightedKernels({allReduce});
        QVERIFY(view.revealHighlighted());
        QCOMPARE(view.verticalScroll(), scroll);
    }

    // Scrolled down to the GPU streams, a short view starts at a lane's top: no lane is cut through
    // by the top of the view (its slices half drawn), whatever the height.
    void opensAtALaneTop()
    {
        const uint32_t kernel = middleKernel(m_jax);
        for (int height : {150, 173, 250, 291}) {
            TimelineView view;
            QVERIFY(showRun(view, m_jax, QSize(1200, height)));
            QVERIFY2(view.plotRect().contains(view.eventRect(kernel).center()),
                     qPrintable(QString::number(height)));
            QVERIFY2(cutAtTheTop(view, m_jax) == 0, qPrintable(QString::number(height)));
        }
    }

    void deepAndImproperNesting()
    {
        // A synthetic trace: a CPU stack 12 deep with a launch at the bottom (deeper than the lanes
        // drawn), slices that overlap without nesting, and the launched kernel on a GPU stream.
        auto t = std::make_shared<TraceData>();
        Track cpu;
        cpu.pid = cpu.tid = QStringLiteral("1");
        cpu.threadName = QStringLiteral("main");
        Track gpu;
        gpu.pid = QStringLiteral("2");
        gpu.tid = QStringLiteral("7");
        gpu.gpu = true;
        gpu.device = 0;
        t->tracks = {cpu, gpu};
        t->argsBegin.push_back(0);
        auto add = [&t](int64_t start, int64_t end, const char *name, EventKind kind, uint32_t track,
                        int64_t corr) {
            t->start.push_back(start);
            t->duration.push_back(end - start);
            t->name.push_back(t->strings.intern(name));
            t->category.push_back(0);
            t->track.push_back(track);
            t->kind.push_back(kind);
            t->correlation.push_back(corr);
            t->opPath.push_back(0);
            t->argsBegin.push_back(0);
            return uint32_t(t->start.size() - 1);
        };
        std::vector<uint32_t> stack;
        for (int depth = 0; depth < 12; ++depth)
            stack.push_back(
                add(depth * 10, 1000 - depth * 10, "frame", EventKind::Other, 0, TraceData::kNoCorrelation));
        const uint32_t launch = add(400, 410, "cudaLaunchKernel", EventKind::KernelLaunch, 0, 5);
        const uint32_t a = add(1000, 1200, "a", EventKind::Other, 0, TraceData::kNoCorrelation);
        const uint32_t inA = add(1100, 1300, "outlives a", EventKind::Runtime, 0, TraceData::kNoCorrelation);
        const uint32_t c = add(1205, 1400, "c", EventKind::Other, 0, TraceData::kNoCorrelation);
        const uint32_t inC = add(1210, 1250, "in c, under the one that outlived a", EventKind::Runtime, 0,
                                 TraceData::kNoCorrelation);
        const uint32_t kernel = add(500, 600, "kernel", EventKind::Kernel, 1, 5);
        t->trackEvents.resize(2);
        for (uint32_t e = 0; e < t->eventCount(); ++e)
            t->trackEvents[t->track[e]].push_back(e);
        LoadedRun run;
        run.run.name = QStringLiteral("synthetic");
        run.trace = t;
        run.analysis = std::make_shared<const TraceAnalysis>(*t);
        QCOMPARE(run.analysis->launchOf(kernel), int64_t(launch));

        TimelineView view;
        QVERIFY(showRun(view, run, QSize(900, 500)));
        QCOMPARE(view.visibleStart(), int64_t(0));
        QCOMPARE(view.visibleEnd(), int64_t(1400));
        // lanes stop at 6: the launch and the deepest frames share the last one, the launch on top
        const QRect launchRect = view.eventRect(launch);
        QCOMPARE(launchRect.top(), view.eventRect(stack[5]).top());
        QCOMPARE(view.eventRect(stack[11]).top(), launchRect.top());
        QVERIFY(launchRect.top() > view.eventRect(stack[4]).top());
        view.setVisibleRange(380, 430);
        const QRect zoomed = view.eventRect(launch);
        QCOMPARE(view.grab().toImage().pixelColor(zoomed.center()), QColor(QStringLiteral("#f39c33")));
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, zoomed.center());
        QCOMPARE(view.selectedEvent(), int64_t(launch));
        // beside the launch, the innermost frame
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, zoomed.center() - QPoint(zoomed.width(), 0));
        QCOMPARE(view.selectedEvent(), int64_t(stack[11]));
        // improper nesting: a slice that outlives its parent does not deepen what follows
        view.fit();
        QCOMPARE(view.eventRect(inA).top(), view.eventRect(stack[1]).top());
        QCOMPARE(view.eventRect(c).top(), view.eventRect(a).top());
        QCOMPARE(view.eventRect(inC).top(), view.eventRect(inA).top());
        view.setVisibleRange(1280, 1400);
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier,
                          view.eventRect(inA).topRight() + QPoint(-2, 3));
        QCOMPARE(view.selectedEvent(), int64_t(inA));
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, view.eventRect(c).center());
        QCOMPARE(view.selectedEvent(), int64_t(c));
        for (int64_t from = 0; from < 1400; from += 37) {
            view.setVisibleRange(from, from + 150);
            QVERIFY(!view.grab().isNull());
        }
        view.selectEvent(kernel);
        view.fit();
        QVERIFY(nonUniform(view.grab().toImage()));
        view.grab().save(QStringLiteral("/tmp/timeline_synthetic.png"));
    }

    void rendersScreenshots_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("jax") << QStringLiteral("jax");
        QTest::newRow("rocm graph") << QStringLiteral("graph");
    }

    void rendersScreenshots()
    {
        QFETCH(QString, name);
        const LoadedRun run = runNamed(name);
        TimelineView view;
        QVERIFY(showRun(view, run));
        QImage image = view.grab().toImage();
        QCOMPARE(image.size(), QSize(1200, 700) * view.devicePixelRatio());
        QVERIFY(nonUniform(image));
        QVERIFY(image.save(QStringLiteral("/tmp/timeline_%1_fit.png").arg(name)));
        // zoomed in on the launch of a kernel (a graph launch for the ROCm trace), hovered
        const TraceData &t = *run.trace;
        const uint32_t kernel = middleKernel(run);
        QVERIFY(run.analysis->launchOf(kernel) >= 0);
        const uint32_t launch = uint32_t(run.analysis->launchOf(kernel));
        const auto kernels = run.analysis->kernelsOf(launch);
        QVERIFY(!kernels.empty());
        int64_t last = t.end(kernel);
        for (uint32_t k : kernels)
            last = std::max(last, t.end(k));
        const int64_t from = std::min(t.start[launch], t.start[kernels.front()]);
        const int64_t span = std::max<int64_t>(last - from, 1000);
        view.setVisibleRange(from - span / 10, last + span / 10);
        view.selectEvent(launch);
        const QRect r = view.eventRect(kernel);
        sendMouse(&view, QEvent::MouseMove, r.center(), Qt::NoButton, Qt::NoButton);
        image = view.grab().toImage();
        QVERIFY(nonUniform(image));
        QVERIFY(image.save(QStringLiteral("/tmp/timeline_%1_launch.png").arg(name)));
        // deep zoom into a single kernel: labels inside rects
        view.setVisibleRange(t.start[kernel] - t.duration[kernel] * 3,
                             t.end(kernel) + t.duration[kernel] * 3);
        image = view.grab().toImage();
        QVERIFY(nonUniform(image));
        QVERIFY(image.save(QStringLiteral("/tmp/timeline_%1_deep.png").arg(name)));
        // an empty run clears the view
        view.setRun(LoadedRun());
        QVERIFY(!view.grab().isNull());
        QCOMPARE(view.selectedEvent(), int64_t(-1));
    }

    // Opened on the GPU streams in a short view, the launching thread's first lanes are above the view:
    // its name is drawn at the top of the part still in view.
    void labelPinnedToTheVisiblePartOfItsRow()
    {
        TimelineView view;
        QVERIFY(showRun(view, m_jax, QSize(1200, 150))); // shorter than its rows
        const TraceData &t = *m_jax.trace;
        QVERIFY(m_jax.analysis->launchOf(middleKernel(m_jax)) >= 0);
        const uint32_t launch = uint32_t(m_jax.analysis->launchOf(middleKernel(m_jax)));
        // an event on the thread's first lane
        uint32_t outer = launch;
        for (uint32_t e : t.trackEvents[t.track[launch]])
            if (view.eventRect(e).isValid() && view.eventRect(e).top() < view.eventRect(outer).top())
                outer = e;
        const QRect plot = view.plotRect();
        QVERIFY2(view.eventRect(outer).bottom() < plot.top(), "the first lane is out of view");
        QVERIFY(view.eventRect(launch).top() > plot.top()); // the row is still partly in view
        const QImage image = view.grab().toImage();
        QVERIFY(image.save(QStringLiteral("/tmp/timeline_label_pinned.png")));
        // dark text pixels in the label column, on the first lane-high strip of the view
        const qreal dpr = view.devicePixelRatio();
        int dark = 0;
        for (int y = plot.top() + 2; y < plot.top() + 16; ++y)
            for (int x = 20; x < 160; ++x)
                dark += qGray(image.pixel(QPoint(x, y) * dpr)) < 110;
        QVERIFY2(dark > 20, qPrintable(QStringLiteral("%1 dark pixels").arg(dark)));
    }

    // `scopeline TRACE`: one trace against itself is loaded once and laid out once.
    void traceWithoutEventsSaysSo()
    {
        // A trace of metadata only loads (no error) and has nothing to draw: the timeline says so rather
        // than draw an empty plot that reads as a failure to load.
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString file = tmp.filePath(QStringLiteral("meta.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(R"({"traceEvents":[{"ph":"M","name":"process_name","pid":1,"args":{"name":"x"}},)"
                  R"({"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"t"}}]})");
        out.close();
        const LoadedRun run = LoadedRun::load(TraceRun{QStringLiteral("meta"), file});
        QVERIFY2(run.ok(), qPrintable(run.error));
        QCOMPARE(run.trace->eventCount(), 0u);
        const QString text = timelinePlaceholder(run);
        QVERIFY2(text.contains(QLatin1String("meta.json")) && text.contains(QLatin1String("no events")),
                 qPrintable(text));
        QVERIFY(timelinePlaceholder(m_jax).isEmpty());
        TimelineView view;
        QVERIFY(showRun(view, run, QSize(800, 200)));
        // The message is drawn across the middle of the widget.
        const QImage image = view.grab().toImage();
        QSet<QRgb> middle;
        for (int x = 0; x < image.width(); ++x)
            middle.insert(image.pixel(x, image.height() / 2));
        QVERIFY(middle.size() > 2);
    }

    void oneTraceAgainstItself()
    {
        const QString file = testdata::path(
            "public/HolisticTraceAnalysis/tests__data__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz");
        REQUIRE_TEST_DATA(file);
        const PairLoadResult loaded = PairLoader::load(file, file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(loaded.a.size(), 1);
        QCOMPARE(loaded.b.size(), 1);
        QVERIFY(loaded.a.front().trace);
        QCOMPARE(loaded.b.front().trace.get(), loaded.a.front().trace.get());
        QCOMPARE(loaded.b.front().summary.get(), loaded.a.front().summary.get());
        PairTimeline pair;
        pair.setRuns(loaded.a.front(), loaded.b.front(), {}, {});
        QCOMPARE(&pair.viewB()->layout(), &pair.viewA()->layout());
        QVERIFY(!pair.viewA()->layout().rows().empty());
        // Two traces each have their own.
        pair.setRuns(m_jax, m_graph, {}, {});
        QVERIFY(&pair.viewB()->layout() != &pair.viewA()->layout());
    }

    // The colour key, a click (or a hover) away: every kind of event's fill and every idle cause's hatch,
    // each in the colour drawn, light and dark.
    void pairHasColourKey()
    {
        PairTimeline pair;
        pair.setRuns(m_jax, m_graph, {}, {});
        const QToolButton *key = pair.colourKey();
        QVERIFY(key && key->menu());
        const auto *action = qobject_cast<QWidgetAction *>(key->menu()->actions().value(0));
        QVERIFY(action);
        const auto *text = qobject_cast<QLabel *>(action->defaultWidget());
        QVERIFY(text);
        for (const bool dark : {false, true}) {
            QPalette palette = pair.palette();
            palette.setColor(QPalette::Base, dark ? QColor(0x20, 0x20, 0x20) : QColor(Qt::white));
            palette.setColor(QPalette::Text, dark ? QColor(Qt::white) : QColor(Qt::black));
            pair.setPalette(palette);
            const TimelineTheme theme = TimelineTheme::fromPalette(pair.palette());
            QCOMPARE(theme.dark, dark);
            const QString html = text->text();
            QCOMPARE(key->toolTip(), html);
            for (const char *cause : {"launched the next kernel late", "the GPU waiting", "no launch call"})
                QVERIFY2(html.contains(QLatin1String(cause)), cause);
            for (const QColor &hatch : theme.gapHatch)
                QVERIFY2(html.contains(hatch.name()), qPrintable(hatch.name()));
            for (const TimelineStyle style :
                 {StyleLaunch, StyleGraphLaunch, StyleRuntime, StyleCpuOther, StyleCpuAnnotation,
                  StyleGpuAnnotation, StyleMemcpy, StyleMemset, StyleGpuOther, StyleCommunication,
                  StyleKernelFirst})
                QVERIFY2(html.contains(theme.swatches[std::size_t(style)].fill.name()),
                         qPrintable(QString::number(style)));
            for (const QColor &overlay : {theme.graphMarker, theme.highlightOutline, theme.arrowStrong})
                QVERIFY2(html.contains(overlay.name()), qPrintable(overlay.name()));
        }
    }

    void pairLocksZoom()
    {
        PairTimeline pair;
        pair.resize(1200, 900);
        pair.setRuns(m_jax, m_graph, QStringLiteral("einsum"), QStringLiteral("vllm graphs"));
        pair.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pair));
        TimelineView *a = pair.viewA(), *b = pair.viewB();
        QSignalSpy locked(&pair, &PairTimeline::zoomLockedChanged);
        a->zoomBy(4); // a quarter of A: room to align on the first kernel
        const int64_t aWindow = a->visibleStart();
        pair.setZoomLocked(true);
        QVERIFY(pair.zoomLocked());
        QCOMPARE(locked.count(), 1);
        // A stays; B shows the same time after its first kernel (no step scope common to both runs)
        const TraceData &ta = *m_jax.trace, &tb = *m_graph.trace;
        const int64_t firstA = ta.start[m_jax.analysis->kernels().front()];
        const int64_t firstB = tb.start[m_graph.analysis->kernels().front()];
        QCOMPARE(pair.alignment(), QStringLiteral("first kernel"));
        QVERIFY(pair.findChild<QCheckBox *>()->text().contains(QStringLiteral("aligned on first kernel")));
        QCOMPARE(a->visibleStart(), aWindow);
        QCOMPARE(b->visibleStart(), pair.alignedStart(0, a->visibleStart()));
        QCOMPARE(pair.alignedStart(0, firstA + 1000), firstB + 1000);
        QCOMPARE(pair.alignedStart(1, firstB + 1000), firstA + 1000);
        QCOMPARE(a->visibleEnd() - a->visibleStart(), b->visibleEnd() - b->visibleStart());
        // zoom A with the wheel: B takes the span and the aligned start
        const QPoint pos(a->plotRect().left() + 400, a->plotRect().top() + 30);
        wheel(a, pos, 240);
        QCOMPARE(b->visibleEnd() - b->visibleStart(), a->visibleEnd() - a->visibleStart());
        QCOMPARE(b->visibleStart(), pair.alignedStart(0, a->visibleStart()));
        QTest::keyClick(b, '+');
        QCOMPARE(b->visibleEnd() - b->visibleStart(), a->visibleEnd() - a->visibleStart());
        const int64_t aStart = a->visibleStart(), bBefore = b->visibleStart();
        QTest::keyClick(b, Qt::Key_Right); // a pan of B moves A along
        QVERIFY(b->visibleStart() > bBefore);
        QVERIFY(a->visibleStart() > aStart);
        QCOMPARE(a->visibleStart(), pair.alignedStart(1, b->visibleStart()));
        // F fits one view, the other takes its span
        const auto [la, ha] = extent(ta);
        const auto [lb, hb] = extent(tb);
        QTest::keyClick(a, Qt::Key_F);
        QCOMPARE(a->visibleStart(), la);
        QCOMPARE(a->visibleEnd(), ha);
        QCOMPARE(b->visibleEnd() - b->visibleStart(), ha - la);
        // the Fit button: both show all of their run in the same length of time, their first kernels
        // at the same point (the alignment the checkbox names)
        auto *fitButton = pair.findChild<QPushButton *>();
        QVERIFY(fitButton);
        fitButton->click();
        QCOMPARE(b->visibleEnd() - b->visibleStart(), a->visibleEnd() - a->visibleStart());
        QCOMPARE(a->visibleEnd() - a->visibleStart(),
                 std::max(firstA - la, firstB - lb) + std::max(ha - firstA, hb - firstB));
        QCOMPARE(firstA - a->visibleStart(), firstB - b->visibleStart());
        QVERIFY(a->visibleStart() <= la && a->visibleEnd() >= ha);
        QVERIFY(b->visibleStart() <= lb && b->visibleEnd() >= hb);
        QVERIFY(nonUniform(pair.grab().toImage()));
        QVERIFY(pair.grab().save(QStringLiteral("/tmp/timeline_pair_locked.png")));
        // unlocked: independent again
        pair.setZoomLocked(false);
        QCOMPARE(locked.count(), 2);
        a->zoomBy(3);
        QVERIFY(b->visibleEnd() - b->visibleStart() != a->visibleEnd() - a->visibleStart());
        b->fit();
        QCOMPARE(b->visibleStart(), lb);
        QCOMPARE(b->visibleEnd(), hb);
    }

    // torch.compile eager vs reduce-overhead: both have ProfilerStep; zoomed to step 3 of A, B shows its
    // step 3 from its left edge, and the checkbox says so.
    void pairLockAlignsTheSameStep()
    {
        const QString eager = testdata::path("h100_runs/torch_compile/eager/run_0");
        const QString graphs = testdata::path("h100_runs/torch_compile/reduce_overhead/run_0");
        REQUIRE_TEST_DATA(eager, graphs);
        const LoadedRun runA = loadFirst(eager), runB = loadFirst(graphs);
        QVERIFY(runA.ok() && runB.ok() && runA.scopes && runB.scopes);
        const QString scope = runA.scopes->stepScope();
        QCOMPARE(runB.scopes->stepScope(), scope);
        const RunSteps stepsA = findRunSteps(*runA.analysis, scope),
                       stepsB = findRunSteps(*runB.analysis, scope);
        QVERIFY(stepsA.steps.size() >= 4 && stepsB.steps.size() >= 4); // ProfilerStep#N, 4 recorded
        PairTimeline pair;
        pair.resize(1200, 900);
        pair.setRuns(runA, runB, QStringLiteral("eager"), QStringLiteral("reduce-overhead"));
        pair.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pair));
        TimelineView *a = pair.viewA(), *b = pair.viewB();
        pair.setZoomLocked(true);
        // fitted, both whole with their step 0 at the same point, as the checkbox says
        pair.fitBoth();
        QCOMPARE(pair.alignment(), QStringLiteral("step 0"));
        QCOMPARE(stepsA.steps[0].start - a->visibleStart(), stepsB.steps[0].start - b->visibleStart());
        QCOMPARE(b->visibleEnd() - b->visibleStart(), a->visibleEnd() - a->visibleStart());
        // a range around step 3 of A, from its start: 7x longer than B's step 3, so B's window runs
        // past the end of its run and still starts at its step 3
        const StepInstance &a3 = stepsA.steps[3], &b3 = stepsB.steps[3];
        const int64_t length = b3.end - b3.start;
        a->setVisibleRange(a3.start, a3.end + (a3.end - a3.start) / 10);
        QCOMPARE(a->visibleStart(), a3.start);
        QCOMPARE(pair.alignment(), QStringLiteral("step 3"));
        QVERIFY(pair.findChild<QCheckBox *>()->text().contains(QStringLiteral("aligned on step 3")));
        QCOMPARE(b->visibleStart(), b3.start); // B's step 3 at its left edge
        QCOMPARE(b->visibleEnd() - b->visibleStart(), a->visibleEnd() - a->visibleStart());
        // a third into step 3 of A: a third into step 3 of B
        const int64_t third = a3.start + (a3.end - a3.start) / 3;
        a->setVisibleRange(third, third + length / 2);
        QCOMPARE(pair.alignment(), QStringLiteral("step 3"));
        QVERIFY(std::llabs(b->visibleStart() - (b3.start + length / 3)) <= 2);
        // from B's side too: step 2 of B brings A to its step 2
        b->setVisibleRange(stepsB.steps[2].start, stepsB.steps[2].start + length);
        QCOMPARE(a->visibleStart(), stepsA.steps[2].start);
        QCOMPARE(pair.alignment(), QStringLiteral("step 2"));
        QVERIFY(pair.grab().save(QStringLiteral("/tmp/timeline_pair_step_aligned.png")));
        pair.setZoomLocked(false);
        QCOMPARE(pair.alignment(), QString());
        QCOMPARE(pair.findChild<QCheckBox *>()->text(), QStringLiteral("Lock zoom"));
    }

    // A 5 MB name is elided from a bounded prefix (and suffix): what shows is the same as for its start,
    // with "…", and a cut UTF-8 sequence never shows as U+FFFD.
    void longTextsAreElidedFromABoundedPrefix()
    {
        const QFontMetrics fm(QApplication::font());
        const QString huge = QStringLiteral("longKernel_") + QString(5 * 1024 * 1024, QLatin1Char('x')) +
                             QStringLiteral("_end");
        for (const Qt::TextElideMode mode : {Qt::ElideRight, Qt::ElideMiddle, Qt::ElideLeft}) {
            const QString text = boundedElidedText(fm, huge, mode, 300);
            QVERIFY(text.size() < 300);
            QVERIFY(fm.horizontalAdvance(text) <= 300);
            QVERIFY(text.contains(QChar(0x2026)));
            if (mode != Qt::ElideLeft)
                QVERIFY(text.startsWith(QStringLiteral("longKernel_")));
            if (mode != Qt::ElideRight)
                QVERIFY(text.endsWith(QStringLiteral("_end")));
        }
        // short texts as Qt elides them
        QCOMPARE(boundedElidedText(fm, QStringLiteral("chainStep"), Qt::ElideRight, 300),
                 QStringLiteral("chainStep"));
        // a prefix of UTF-8: whole chars, marked as cut
        const QByteArray accents = QString(100000, QChar(0xe9)).toUtf8();
        const QString prefix =
            boundedPrefix(std::string_view(accents.constData(), std::size_t(accents.size())), 10);
        QCOMPARE(prefix, QString(10, QChar(0xe9)) + QChar(0x2026));
        QCOMPARE(boundedPrefix("short", 10), QStringLiteral("short"));
    }

    // A demangled kernel's box is labelled by its name, not its return type: every HIP kernel of the
    // attention microbenchmark had read "void…".
    void kernelBoxesNamedWithoutReturnType()
    {
        const QList<LoadedRun> runs =
            LoadedRun::loadAll(TraceFolder::scan(testdata::path("h100_runs/hipbench/attention/naive")));
        QVERIFY(!runs.isEmpty() && runs.front().trace);
        const TraceData &t = *runs.front().trace;
        const QFontMetrics fm(QApplication::font());
        int named = 0;
        for (uint32_t e = 0; e < t.eventCount(); ++e) {
            const std::string_view name = t.nameOf(e);
            if (name.substr(0, 5) != "void ")
                continue;
            const QString shown = elidedEventName(fm, t, e, 120);
            QVERIFY2(
                !shown.startsWith(QLatin1String("void")) &&
                    QString::fromUtf8(name.data(), qsizetype(name.size())).mid(5).startsWith(shown.left(6)),
                qPrintable(shown));
            ++named;
        }
        QVERIFY(named > 0);
    }

    // A rank's range summary says whose figures they are: the side's title names its folder alone.
    void rankRangeSummary()
    {
        REQUIRE_TEST_DATA(testdata::dlrmRun());
        const QList<LoadedRun> ranks = LoadedRun::loadAll(TraceFolder::scan(testdata::dlrmRun()));
        QCOMPARE(ranks.size(), 8);
        PairTimeline pair;
        pair.resize(1200, 900);
        pair.setRuns(ranks[3], ranks[5], QStringLiteral("dlrm"), QStringLiteral("dlrm"));
        QSignalSpy summaries(&pair, &PairTimeline::rangeSummaryChanged);
        const LoadedRun &run = ranks[3];
        const int64_t first = run.trace->start[run.analysis->kernels().front()];
        emit pair.viewA()->rangeSelected(first, first + run.analysis->total().spanNs);
        QCOMPARE(summaries.count(), 1);
        const QString html = summaries.last().at(0).toString();
        QVERIFY2(html.contains(QStringLiteral("A — dlrm · dlrm_kineto · rank 3")), qPrintable(html));
    }

    void pairRangeSummary_data()
    {
        QTest::addColumn<int>("side");
        QTest::newRow("A: JAX einsum") << 0;
        QTest::newRow("B: JAX matmul") << 1;
    }

    void pairRangeSummary()
    {
        QFETCH(int, side);
        PairTimeline pair;
        pair.resize(1200, 900);
        pair.setRuns(m_jax, m_jaxMatmul, QStringLiteral("einsum"), QStringLiteral("matmul"));
        pair.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pair));
        TimelineView *view = side == 0 ? pair.viewA() : pair.viewB();
        const LoadedRun &run = side == 0 ? m_jax : m_jaxMatmul;
        QSignalSpy summaries(&pair, &PairTimeline::rangeSummaryChanged);
        QSignalSpy selected(&pair, &PairTimeline::eventSelected);

        // the whole kernel span: the figures of TraceAnalysis
        const TraceData &t = *run.trace;
        const LaunchSummary &total = run.analysis->total();
        const int64_t first = t.start[run.analysis->kernels().front()];
        emit view->rangeSelected(first, first + total.spanNs);
        QCOMPARE(summaries.count(), 1);
        const QString html = summaries.last().at(0).toString();
        const QString busy = QString::number(100.0 * double(total.busyNs) / double(total.spanNs), 'f', 1);
        QVERIFY2(
            html.contains(
                QStringLiteral("GPU busy <b>%1 %</b> (%2)").arg(busy, formatDuration(double(total.busyNs)))),
            qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("idle %1").arg(formatDuration(double(total.idleNs())))),
                 qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("%1 kernels").arg(total.kernels)), qPrintable(html));
        QVERIFY(html.contains(side == 0 ? QStringLiteral("A — einsum") : QStringLiteral("B — matmul")));

        // a dragged range: kernels and launches that start inside it
        const QRect plot = view->plotRect();
        drag(view, QPoint(plot.left() + 200, plot.top() + 10), QPoint(plot.left() + 700, plot.top() + 10),
             Qt::ShiftModifier);
        QCOMPARE(summaries.count(), 2);
        const int64_t from = view->selectionStart(), to = view->selectionEnd();
        int64_t kernels = 0, launches = 0;
        for (uint32_t k : run.analysis->kernels())
            kernels += t.start[k] >= from && t.start[k] < to;
        for (uint32_t e = 0; e < t.eventCount(); ++e)
            launches += (t.kind[e] == EventKind::KernelLaunch || t.kind[e] == EventKind::GraphLaunch) &&
                        t.start[e] >= from && t.start[e] < to;
        const QString dragged = summaries.last().at(0).toString();
        QVERIFY2(dragged.contains(QStringLiteral("%1 kernels").arg(kernels)), qPrintable(dragged));
        QVERIFY2(dragged.contains(QStringLiteral("%1 launches").arg(launches)), qPrintable(dragged));
        QVERIFY(pair.grab().save(QStringLiteral("/tmp/timeline_pair_range.png")));
        // cleared: empty
        QTest::keyClick(view, Qt::Key_Escape);
        QCOMPARE(summaries.count(), 3);
        QVERIFY(summaries.last().at(0).toString().isEmpty());

        // a range past both ends of the recording (Lock zoom's aligned fit shows time beyond a run):
        // what lies outside is not idle time of the run
        const TimeScale &scale = view->timeScale();
        emit view->rangeSelected(scale.lowerBound - scale.boundsSpan() / 5,
                                 scale.upperBound + scale.boundsSpan() / 5);
        const QString wide = summaries.last().at(0).toString();
        const RangeSummary whole = summariseRange(*run.analysis, scale.lowerBound, scale.upperBound);
        QVERIFY2(wide.contains(QStringLiteral("%1 selected (+0 ns … +%2)")
                                   .arg(formatDuration(double(scale.boundsSpan())),
                                        formatDuration(double(scale.boundsSpan())))),
                 qPrintable(wide));
        QVERIFY2(wide.contains(QStringLiteral("idle %1").arg(formatDuration(double(whole.idleNs())))),
                 qPrintable(wide));

        // selections are forwarded with their side
        const uint32_t kernel = middleKernel(run);
        view->selectEvent(kernel);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.last().at(0).toInt(), side);
        QCOMPARE(selected.last().at(1).value<int64_t>(), int64_t(kernel));
    }
};

QTEST_MAIN(TstTimelineView)
#include "tst_timelineview.moc"
