// SPDX-License-Identifier: GPL-3.0-or-later
// Timeline hit testing and the rows under it, without a widget, on a real JAX trace: the kernel under
// the centre of its rectangle, the innermost CPU slice, the slop around a thin event, idle gaps,
// headers and labels; collapsing a group; where a partly scrolled row keeps its name.

#include "testdata.h"
#include "testruns.h"

#include "model/loading/loadedrun.h"
#include "model/loading/tracefolder.h"
#include "widgets/timeline/timelinegeometry.h"
#include "widgets/timeline/timelinehittest.h"

#include <QtTest>

using namespace scopeline;
using testruns::kJaxRun;

namespace {


TimeScale scaleOver(const TimelineLayout &layout, int64_t from, int64_t to, double width)
{
    TimeScale s;
    s.width = width;
    s.setBounds(layout.bounds().first, layout.bounds().second);
    s.setRange(from, to);
    return s;
}

} // namespace

class TstTimelineHitTest : public QObject
{
    Q_OBJECT

    LoadedRun m_run;
    TimelineLayout m_layout;
    TimelineRows m_rows;
    const TimelineViewport m_viewport{QRect(180, 26, 1000, 2000), 0}; // tall enough for every row

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(kJaxRun);
        m_run = testruns::loadFirst(kJaxRun);
        QVERIFY2(m_run.ok(), qPrintable(m_run.error));
        m_layout = TimelineLayout(m_run);
        m_rows.reset(m_layout);
        QVERIFY(m_rows.contentHeight() < m_viewport.plot.height());
    }

    void kernelUnderItsCentre()
    {
        const TraceData &t = *m_run.trace;
        const auto &kernels = m_run.analysis->kernels();
        int checked = 0;
        for (std::size_t i = 0; i < kernels.size(); i += 37) {
            const uint32_t k = kernels[i];
            // zoomed so that the kernel is 200 px wide
            const int64_t pad = std::max<int64_t>(t.duration[k] * 2, 200);
            const TimeScale s = scaleOver(m_layout, t.start[k] - pad, t.end(k) + pad, m_viewport.plot.width());
            const QRect r = timelineEventRect(m_layout, m_rows, s, m_viewport, k);
            QVERIFY(r.isValid());
            const TimelineHit hit = hitTest(m_layout, m_rows, s, m_viewport, r.center());
            QCOMPARE(hit.type, TimelineHit::Track);
            QCOMPARE(hit.event, int64_t(k));
            QCOMPARE(hit.lane, m_layout.laneOf(k));
            ++checked;
        }
        QVERIFY(checked > 10);
    }

    // On a CPU thread the innermost slice containing the time wins: the launch under its parents.
    void innermostSlice()
    {
        const TraceData &t = *m_run.trace;
        const uint32_t kernel = m_run.analysis->kernels()[m_run.analysis->kernels().size() / 2];
        const int64_t launch = m_run.analysis->launchOf(kernel);
        QVERIFY(launch >= 0);
        const uint32_t l = uint32_t(launch);
        const TimeScale s = scaleOver(m_layout, t.start[l] - t.duration[l], t.end(l) + t.duration[l], 1000);
        const QRect r = timelineEventRect(m_layout, m_rows, s, m_viewport, l);
        const TimelineHit hit = hitTest(m_layout, m_rows, s, m_viewport, r.center());
        QCOMPARE(hit.event, int64_t(l));
        // one lane up: a parent, which contains the launch
        const TimelineHit parent = hitTest(m_layout, m_rows, s, m_viewport, r.center() - QPoint(0, r.height() + 2));
        QVERIFY(parent.event >= 0 && parent.event != launch);
        QVERIFY(t.start[std::size_t(parent.event)] <= t.start[l] && t.end(uint32_t(parent.event)) >= t.end(l));
    }

    void slopAroundAThinEvent()
    {
        const TraceData &t = *m_run.trace;
        const uint32_t k = m_run.analysis->kernels()[5];
        const TimelineTrackRow &row = m_layout.rows()[std::size_t(m_layout.rowOfTrack(t.track[k]))];
        const TimelineLane &lane = row.lanes[std::size_t(m_layout.laneOf(k))];
        // 1 ns per px around the kernel's end, the next kernel far enough
        const TimeScale s = scaleOver(m_layout, t.end(k) - 500, t.end(k) + 500, 1000);
        const double endPx = s.toPixel(t.end(k));
        QCOMPARE(eventAt(lane, s, endPx + 1.5, 2), int64_t(k));
        const int64_t next = eventAt(lane, s, endPx + 3, 2);
        QVERIFY(next != int64_t(k));
    }

    void gapsHeadersAndLabels()
    {
        const TimeScale s = scaleOver(m_layout, m_layout.bounds().first, m_layout.bounds().second, 1000);
        const TimelineRow &header = m_rows.rows().front();
        QVERIFY(header.header);
        QCOMPARE(hitTest(m_layout, m_rows, s, m_viewport, QPoint(400, m_viewport.rowTop(header) + 3)).type,
                 TimelineHit::Header);
        QCOMPARE(hitTest(m_layout, m_rows, s, m_viewport, QPoint(400, 10)).type, TimelineHit::None); // the axis
        const TimelineRow &first = m_rows.rows()[1];
        QCOMPARE(hitTest(m_layout, m_rows, s, m_viewport, QPoint(50, m_viewport.rowTop(first) + 5)).type,
                 TimelineHit::TrackLabel);
        // the middle of the longest idle gap of the stream
        for (const TimelineRow &row : m_rows.rows()) {
            if (row.header || !m_layout.rows()[std::size_t(row.index)].stream)
                continue;
            const auto &gaps = m_layout.rows()[std::size_t(row.index)].stream->gaps;
            QVERIFY(!gaps.empty());
            const auto longest = std::max_element(gaps.begin(), gaps.end(), [](const IdleGap &a, const IdleGap &b) {
                return a.length() < b.length();
            });
            const TimeScale zoomed = scaleOver(m_layout, longest->start - longest->length(),
                                               longest->end + longest->length(), 1000);
            const int x = m_viewport.plot.left() + int(zoomed.toPixel(longest->start + longest->length() / 2));
            const TimelineHit hit = hitTest(m_layout, m_rows, zoomed, m_viewport, QPoint(x, m_viewport.rowTop(row) + 8));
            QCOMPARE(hit.event, int64_t(-1));
            QCOMPARE(hit.gap, int64_t(longest - gaps.begin()));
            return;
        }
        QFAIL("no GPU stream");
    }

    // A process whose every row is hidden (zoomed to one kernel, its threads have nothing in view) keeps
    // its header, which says so; one of a profiler's bookkeeping rows alone (Kineto's "Spans") takes no room.
    void hiddenProcessKeepsItsHeader()
    {
        const auto headers = [](const TimelineRows &rows) {
            std::vector<int> groups;
            for (const TimelineRow &row : rows.rows())
                if (row.header)
                    groups.push_back(row.index);
            return groups;
        };
        TimelineRows rows;
        rows.reset(m_layout);
        QVERIFY(!m_layout.groups().front().gpu);
        std::vector<bool> hidden(m_layout.rows().size(), false);
        for (int r : m_layout.groups().front().rows)
            hidden[std::size_t(r)] = true;
        rows.setHidden(hidden);
        QCOMPARE(headers(rows).front(), 0);
        QCOMPARE(rows.hiddenCount(0), int(m_layout.groups().front().rows.size()));
        for (int r : m_layout.groups().front().rows)
            QCOMPARE(rows.rowOfTrackRow(r), -1);

        const LoadedRun torch = testruns::loadFirst(testdata::path("h100_runs/torch_compile/eager/run_0"));
        QVERIFY2(torch.ok(), qPrintable(torch.error));
        const TimelineLayout layout(torch);
        TimelineRows torchRows;
        torchRows.reset(layout);
        std::vector<bool> bookkeeping(layout.rows().size(), false);
        for (std::size_t r = 0; r < bookkeeping.size(); ++r)
            bookkeeping[r] = layout.rows()[r].bookkeeping;
        int groupsOfBookkeeping = 0;
        for (const TimelineGroup &group : layout.groups())
            groupsOfBookkeeping += std::all_of(group.rows.begin(), group.rows.end(),
                                               [&](int r) { return bookkeeping[std::size_t(r)]; });
        QVERIFY2(groupsOfBookkeeping >= 1, "no group of bookkeeping rows alone: the test shows nothing");
        const std::size_t before = headers(torchRows).size();
        torchRows.setHidden(bookkeeping);
        QCOMPARE(headers(torchRows).size(), before - std::size_t(groupsOfBookkeeping));
    }

    void collapsingAndRowAt()
    {
        TimelineRows rows;
        rows.reset(m_layout);
        const int height = rows.contentHeight();
        int groupHeight = 0;
        for (int r : m_layout.groups().front().rows)
            groupHeight += rows.rows()[std::size_t(rows.rowOfTrackRow(r))].height;
        rows.toggle(0);
        QVERIFY(rows.isCollapsed(0));
        QCOMPARE(rows.contentHeight(), height - groupHeight);
        for (int r : m_layout.groups().front().rows)
            QCOMPARE(rows.rowOfTrackRow(r), -1);
        for (std::size_t i = 0; i < rows.rows().size(); ++i) {
            const TimelineRow &row = rows.rows()[i];
            QCOMPARE(rows.rowAt(row.y), int(i));
            QCOMPARE(rows.rowAt(row.y + row.height - 1), int(i));
        }
        QCOMPARE(rows.rowAt(-1), -1);
        QCOMPARE(rows.rowAt(rows.contentHeight()), -1);
        rows.toggle(0);
        QCOMPARE(rows.contentHeight(), height);
    }

    // A track's name sits on its first lane, and follows the top of the view down the row while the
    // row is scrolled partly out, never leaving the row.
    void labelStaysInTheVisiblePart()
    {
        for (const TimelineRow &row : m_rows.rows()) {
            if (row.header)
                continue;
            const TimelineTrackRow &track = m_layout.rows()[std::size_t(row.index)];
            const int lh = TimelineRows::laneHeight(track);
            QCOMPARE(TimelineRows::labelTop(row, track, 100, 50), 100 + timelinemetrics::kRowPad);
            const int scrolledIn = TimelineRows::labelTop(row, track, 100, 100 + row.height / 2);
            QVERIFY(scrolledIn >= 100 && scrolledIn + lh <= 100 + row.height);
            if (row.height > 2 * lh + 2 * timelinemetrics::kRowPad) // a multi-lane thread
                QCOMPARE(scrolledIn, std::min(100 + row.height / 2, 100 + row.height - timelinemetrics::kRowPad - lh));
            QCOMPARE(TimelineRows::labelTop(row, track, 100, 100 + row.height), 100 + row.height - timelinemetrics::kRowPad - lh);
        }
    }
};

QTEST_GUILESS_MAIN(TstTimelineHitTest)
#include "tst_timelinehittest.moc"
