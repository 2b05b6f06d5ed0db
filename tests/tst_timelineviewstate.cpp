// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineViewState on its own: reset, visible window and its signal, zoom to an event of a real
// trace, Z (range first, else the event), the Shift-drag range (finished, cleared), panning from the
// press, hover changes, and the span sharing a locked pair uses.

#include "testdata.h"
#include "testruns.h"

#include "model/loading/loadedrun.h"
#include "model/loading/tracefolder.h"
#include "widgets/timeline/timelineviewstate.h"

#include <QSignalSpy>
#include <QtTest>

using namespace scopeline;
using testruns::kJaxRun;

class TstTimelineViewState : public QObject
{
    Q_OBJECT

    LoadedRun m_run;

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(kJaxRun);
        m_run = testruns::loadFirst(kJaxRun);
        QVERIFY2(m_run.ok(), qPrintable(m_run.error));
    }

    void resetFitsAndClears()
    {
        TimelineViewState s;
        QSignalSpy ranges(&s, &TimelineViewState::visibleRangeChanged);
        QSignalSpy selected(&s, &TimelineViewState::eventSelected);
        QSignalSpy cleared(&s, &TimelineViewState::rangeSelected);
        s.reset(1000, 51000, 500, 0);
        QCOMPARE(s.scale().start, int64_t(1000));
        QCOMPARE(s.scale().end, int64_t(51000));
        QCOMPARE(ranges.count(), 1);
        QCOMPARE(selected.count(), 0); // nothing was selected
        s.selectEvent(7);
        s.press(QPoint(10, 10), TimelineViewState::Drag::Select, 2000);
        s.moveTo(QPoint(100, 10));
        TimelineViewState::Drag ended;
        QVERIFY(s.release(9000, &ended));
        QVERIFY(s.hasRange());
        s.reset(0, 100000, 500, 0);
        QCOMPARE(s.selectedEvent(), int64_t(-1));
        QVERIFY(!s.hasRange());
        QCOMPARE(selected.last().at(0).value<int64_t>(), int64_t(-1));
        QCOMPARE(cleared.last().at(0).value<int64_t>(), cleared.last().at(1).value<int64_t>());
    }

    void windowSignalsOnlyOnChange()
    {
        TimelineViewState s;
        s.reset(0, 1000000, 1000, 0);
        QSignalSpy ranges(&s, &TimelineViewState::visibleRangeChanged);
        s.setVisibleRange(200000, 300000);
        QCOMPARE(ranges.count(), 1);
        s.setVisibleRange(200000, 300000);
        QCOMPARE(ranges.count(), 1);
        s.setVisibleRange(-500, -480); // clamped into the bounds, at least the minimum span
        QCOMPARE(s.scale().start, int64_t(0));
        QCOMPARE(s.scale().end, TimeScale::kMinSpan);
        s.zoomBy(0.5);
        QCOMPARE(s.scale().span(), 2 * TimeScale::kMinSpan);
        s.fit();
        QCOMPARE(s.scale().span(), int64_t(1000000));
        s.pan(100); // the whole trace in view: nowhere to go
        QCOMPARE(s.scale().start, int64_t(0));
    }

    void sharedSpanAndMaximum()
    {
        TimelineViewState s;
        s.reset(0, 1000000, 1000, 0);
        s.showSpanFrom(400000, 100000);
        QCOMPARE(s.scale().start, int64_t(400000));
        QCOMPARE(s.scale().span(), int64_t(100000));
        s.setMaximumSpan(3000000); // a longer run beside it: zoom out beyond the trace
        s.showSpanFrom(0, 3000000);
        QCOMPARE(s.scale().span(), int64_t(3000000));
        QVERIFY(s.scale().start <= 0 && s.scale().end >= 1000000);
    }

    // The aligned side of a locked pair starts exactly where asked, even when the window then runs past
    // the end of its trace; its span stays within the limits; a pan brings it back inside.
    void alignedSpanMayRunPastTheEnd()
    {
        TimelineViewState s;
        s.reset(0, 1000000, 1000, 0);
        QSignalSpy moved(&s, &TimelineViewState::visibleRangeChanged);
        s.showSpanFrom(900000, 300000); // clamped: the window ends with the trace
        QCOMPARE(s.scale().end, int64_t(1000000));
        s.showAlignedSpanFrom(900000, 300000);
        QCOMPARE(s.scale().start, int64_t(900000));
        QCOMPARE(s.scale().span(), int64_t(300000));
        QCOMPARE(moved.count(), 2);
        s.showAlignedSpanFrom(900000, 300000); // no change, no signal
        QCOMPARE(moved.count(), 2);
        s.showAlignedSpanFrom(-100000, 5000000); // wider than allowed: the widest, the trace in view
        QCOMPARE(s.scale().span(), int64_t(1000000));
        QVERIFY(s.scale().start > -1000000 && s.scale().start < 1000000);
        s.showAlignedSpanFrom(900000, 300000);
        s.pan(1);
        QCOMPARE(s.scale().end, int64_t(1000000));
    }

    void zoomToEvent()
    {
        const TraceData &t = *m_run.trace;
        TimelineViewState s;
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (uint32_t e = 0; e < t.eventCount(); ++e) {
            lo = std::min(lo, t.start[e]);
            hi = std::max(hi, t.end(e));
        }
        s.reset(lo, hi, 1000, 0);
        const auto &kernels = m_run.analysis->kernels();
        for (uint32_t k : {kernels.front(), kernels[kernels.size() / 2], kernels.back()}) {
            s.zoomToEvent(t, k);
            const int64_t margin = std::max<int64_t>(t.duration[k] / 8, TimeScale::kMinSpan);
            QVERIFY(s.scale().start <= t.start[k] && s.scale().end >= t.end(k));
            if (t.start[k] - margin >= lo && t.end(k) + margin <= hi) { // no clamping: exactly the margins
                QCOMPARE(s.scale().start, t.start[k] - margin);
                QCOMPARE(s.scale().end, t.end(k) + margin);
            }
        }
        // Z: the range wins over the selected event
        s.selectEvent(kernels.front());
        s.zoomToSelection(&t);
        QVERIFY(s.scale().start <= t.start[kernels.front()] && s.scale().end >= t.end(kernels.front()));
        s.press(QPoint(0, 0), TimelineViewState::Drag::Select, lo + 1000);
        s.moveTo(QPoint(50, 0));
        TimelineViewState::Drag ended;
        s.release(lo + 9000, &ended);
        s.zoomToSelection(&t);
        QCOMPARE(s.scale().start, lo + 1000);
        QCOMPARE(s.scale().end, lo + 9000);
    }

    void rangeDrag()
    {
        TimelineViewState s;
        s.reset(0, 1000000, 1000, 0);
        QSignalSpy ranges(&s, &TimelineViewState::rangeSelected);
        TimelineViewState::Drag ended;
        // dragged right to left: stored in order
        s.press(QPoint(500, 40), TimelineViewState::Drag::Select, 500000);
        QVERIFY(s.showsRange());
        QVERIFY(!s.moveTo(QPoint(502, 40))); // within the threshold
        QVERIFY(s.moveTo(QPoint(200, 40)));
        QVERIFY(s.release(200000, &ended));
        QCOMPARE(ended, TimelineViewState::Drag::Select);
        QCOMPARE(ranges.count(), 1);
        QCOMPARE(s.rangeStart(), int64_t(200000));
        QCOMPARE(s.rangeEnd(), int64_t(500000));
        // a still Shift-click clears it, and so does clearRange once
        s.press(QPoint(300, 40), TimelineViewState::Drag::Select, 300000);
        QVERIFY(s.release(300000, &ended));
        QVERIFY(!s.hasRange());
        QCOMPARE(ranges.count(), 2);
        QCOMPARE(ranges.last().at(0).value<int64_t>(), int64_t(0));
        QVERIFY(!s.clearRange());
        QCOMPARE(ranges.count(), 2);
        // the release of a double click: no press of ours
        QVERIFY(!s.release(0, &ended));
    }

    void panFromPress()
    {
        TimelineViewState s;
        s.reset(0, 1000000, 1000, 0);
        s.setVisibleRange(400000, 500000); // 100 ns per px
        s.press(QPoint(300, 0), TimelineViewState::Drag::Pan, 0);
        s.moveTo(QPoint(250, 0));
        s.panFromPress(QPoint(250, 0)); // dragged 50 px left: later by 5000 ns
        QCOMPARE(s.scale().start, int64_t(405000));
        s.panFromPress(QPoint(350, 0)); // always from the press, not cumulative
        QCOMPARE(s.scale().start, int64_t(395000));
        TimelineViewState::Drag ended;
        QVERIFY(s.release(0, &ended));
        QCOMPARE(ended, TimelineViewState::Drag::Pan);
        QVERIFY(s.dragMoved());
    }

    void hover()
    {
        TimelineViewState s;
        QVERIFY(s.setHover(5, -1, -1));
        QVERIFY(!s.setHover(5, -1, 3)); // a gap without its row is no gap
        QVERIFY(s.setHover(-1, 2, 3));
        QCOMPARE(s.hoveredGap(), int64_t(3));
        s.clearHover();
        QCOMPARE(s.hoveredEvent(), int64_t(-1));
        QCOMPARE(s.hoveredGapRow(), -1);
    }
};

QTEST_GUILESS_MAIN(TstTimelineViewState)
#include "tst_timelineviewstate.moc"
