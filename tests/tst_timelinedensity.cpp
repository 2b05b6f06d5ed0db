// SPDX-License-Identifier: GPL-3.0-or-later
// Density at every zoom: where kernels are narrower than a pixel, each pixel column of a GPU stream
// is drawn as tall as the share of it that is busy, so that the picture's busy share is the analysis'.
// On real H100 runs at fit zoom, per GPU stream: the drawn busy share (area of the kernel bars over
// the lane's area) against the range summary's busy %, and the idle hatching against the idle share.

#include "testdata.h"
#include "testruns.h"

#include "model/timeline/rangesummary.h"
#include "model/timeline/timelinelayout.h"
#include "widgets/timeline/timelinegeometry.h"
#include "widgets/timeline/timelinerows.h"
#include "widgets/timeline/timelinetheme.h"
#include "widgets/timeline/timelineview.h"

#include <QtTest>

#include <QFont>
#include <QFontMetrics>
#include <QImage>
#include <QSet>

#include <cmath>

using namespace scopeline;
using namespace timelinemetrics;

namespace {

// Area of the rects overlapping rows [top, bottom) over (width x height), as a share.
double drawnShare(const std::vector<QRect> &rects, int top, int bottom, int width, int height)
{
    double area = 0;
    for (const QRect &r : rects)
        if (r.top() < bottom && r.top() + r.height() > top)
            area += double(r.width()) * double(r.height());
    return area / (double(width) * double(height));
}

} // namespace

class TstTimelineDensity : public QObject
{
    Q_OBJECT

private slots:
    void busyShareMatchesTheAnalysis_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("width");
        for (const char *run : {"hipbench/launch-chain/eager/run_0", "hipbench/launch-chain/graph/run_0",
                                "torch_compile/eager/run_0"})
            for (int width : {1400, 700})
                QTest::addRow("%s @ %d px", run, width)
                    << testdata::path(QStringLiteral("h100_runs/") + QLatin1String(run)) << width;
    }

    void busyShareMatchesTheAnalysis()
    {
        QFETCH(QString, path);
        QFETCH(int, width);
        REQUIRE_TEST_DATA(path);
        const LoadedRun run = testruns::loadFirst(path);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const TimelineLayout layout(run);
        TimelineRows rows;
        rows.reset(layout);
        TimeScale scale;
        scale.width = width;
        scale.setBounds(layout.bounds().first, layout.bounds().second);
        scale.fit();
        // every row in view
        const TimelineViewport vp{QRect(kLabelWidth, kAxisHeight, width, rows.contentHeight() + 10), 0};
        TimelineGeometry geometry;
        geometry.build(layout, rows, scale, vp, 1, QFontMetrics(QFont()), {});

        const TraceData &t = *run.trace;
        const RangeSummary summary = summariseRange(*run.analysis, scale.start, scale.end);
        std::vector<QRect> kernelRects;
        for (int s = StyleKernelFirst; s < kTimelineStyles; ++s)
            kernelRects.insert(kernelRects.end(), geometry.rects[std::size_t(s)].begin(),
                               geometry.rects[std::size_t(s)].end());
        int streams = 0, causesSeen = 0;
        for (const TimelineRow &row : rows.rows()) {
            if (row.header)
                continue;
            const TimelineTrackRow &track = layout.rows()[std::size_t(row.index)];
            if (!track.stream || track.stream->kernels == 0)
                continue;
            ++streams;
            // the lane of the stream's kernels
            const auto &kernels = run.analysis->kernels();
            const auto first = std::find_if(kernels.begin(), kernels.end(),
                                            [&](uint32_t k) { return t.track[k] == track.track; });
            QVERIFY(first != kernels.end());
            const int lane = layout.laneOf(*first);
            for (uint32_t k : kernels)
                if (t.track[k] == track.track)
                    QCOMPARE(layout.laneOf(k), lane); // one lane holds them all
            const int y = vp.rowTop(row);
            const int laneTop = y + TimelineRows::laneOffset(track, lane);
            const int laneHeight = TimelineRows::laneHeight(track) - 2;
            const double drawnBusy =
                drawnShare(kernelRects, laneTop, laneTop + laneHeight, width, laneHeight);
            std::vector<QRect> gapRects; // of every cause
            for (const std::vector<QRect> &gaps : geometry.gaps)
                gapRects.insert(gapRects.end(), gaps.begin(), gaps.end());
            const double drawnIdle = drawnShare(gapRects, y + 1, y + row.height - 1, width, row.height - 2);

            int64_t busy = 0;
            for (const RangeSummary::Stream &s : summary.streams)
                if (s.track == track.track)
                    busy = s.busyNs;
            // idle: the stream's gaps between its first and last kernel, in view
            int64_t idle = 0;
            for (const IdleGap &gap : track.stream->gaps)
                idle += std::max<int64_t>(0, std::min(gap.end, scale.end) - std::max(gap.start, scale.start));
            const double span = double(scale.end - scale.start);
            const double analysisBusy = double(busy) / span, analysisIdle = double(idle) / span;
            qInfo("%s: drawn busy %.1f %% vs analysis %.1f %%; drawn idle %.1f %% vs %.1f %%",
                  qPrintable(track.label), 100 * drawnBusy, 100 * analysisBusy, 100 * drawnIdle,
                  100 * analysisIdle);
            QVERIFY2(std::abs(drawnBusy - analysisBusy) <= 0.05,
                     qPrintable(QStringLiteral("%1: drawn busy %2 %, analysis %3 %")
                                    .arg(track.label)
                                    .arg(100 * drawnBusy, 0, 'f', 1)
                                    .arg(100 * analysisBusy, 0, 'f', 1)));
            QVERIFY2(std::abs(drawnIdle - analysisIdle) <= 0.05,
                     qPrintable(QStringLiteral("%1: drawn idle %2 %, analysis %3 %")
                                    .arg(track.label)
                                    .arg(100 * drawnIdle, 0, 'f', 1)
                                    .arg(100 * analysisIdle, 0, 'f', 1)));
            // and each cause's hatching, in its colour, as much as its gaps (launched late, GPU waiting)
            for (int cause = 0; cause < kGapCauses; ++cause) {
                int64_t causeIdle = 0;
                for (const IdleGap &gap : track.stream->gaps)
                    if (int(gap.cause) == cause)
                        causeIdle += std::max<int64_t>(0, std::min(gap.end, scale.end) -
                                                              std::max(gap.start, scale.start));
                const double drawn = drawnShare(geometry.gaps[std::size_t(cause)], y + 1, y + row.height - 1,
                                                width, row.height - 2),
                             expected = double(causeIdle) / span;
                QVERIFY2(std::abs(drawn - expected) <= 0.05,
                         qPrintable(QStringLiteral("%1, %2: drawn %3 %, analysis %4 %")
                                        .arg(track.label, gapCauseName(GapCause(cause)))
                                        .arg(100 * drawn, 0, 'f', 1)
                                        .arg(100 * expected, 0, 'f', 1)));
                causesSeen += expected > 0.01;
            }
        }
        QVERIFY(streams > 0);
        QVERIFY(causesSeen > 0);
        // the range summary's total is the union over the streams (one stream: the same)
        if (streams == 1)
            QCOMPARE(summary.streams.size(), std::size_t(1));
    }

    // The same on screen: the kernel-coloured pixels of the stream's kernel lane in a painted view.
    void paintedBusyShareMatchesTheAnalysis_data() { busyShareMatchesTheAnalysis_data(); }

    void paintedBusyShareMatchesTheAnalysis()
    {
        QFETCH(QString, path);
        QFETCH(int, width);
        REQUIRE_TEST_DATA(path);
        const LoadedRun run = testruns::loadFirst(path);
        QVERIFY2(run.ok(), qPrintable(run.error));
        TimelineView view;
        view.resize(width + kLabelWidth + 20, 900);
        view.setRun(run);
        const QImage image = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(image.width(), view.width()); // one pixel per column (device pixel ratio 1)
        const TimelineTheme theme = TimelineTheme::fromPalette(view.palette());
        QSet<QRgb> kernelColours;
        for (int s = StyleKernelFirst; s < kTimelineStyles; ++s)
            kernelColours.insert(theme.swatches[std::size_t(s)].fill.rgb());
        const TraceData &t = *run.trace;
        const QRect plot = view.plotRect();
        const RangeSummary summary = summariseRange(*run.analysis, view.visibleStart(), view.visibleEnd());
        for (const RangeSummary::Stream &stream : summary.streams) {
            const auto &kernels = run.analysis->kernels();
            const auto first = std::find_if(kernels.begin(), kernels.end(),
                                            [&](uint32_t k) { return t.track[k] == stream.track; });
            const QRect lane = view.eventRect(*first); // the lane's full height
            QVERIFY(lane.top() >= plot.top() && lane.bottom() <= plot.bottom());
            int64_t painted = 0;
            for (int y = lane.top(); y <= lane.bottom(); ++y)
                for (int x = plot.left(); x < plot.left() + plot.width(); ++x)
                    painted += kernelColours.contains(image.pixel(x, y));
            const double drawn = double(painted) / (double(plot.width()) * double(lane.height()));
            const double analysis = double(stream.busyNs) / double(view.visibleEnd() - view.visibleStart());
            qInfo("painted stream track %u: busy %.1f %% vs analysis %.1f %%", stream.track, 100 * drawn,
                  100 * analysis);
            QVERIFY2(std::abs(drawn - analysis) <= 0.05,
                     qPrintable(QStringLiteral("painted busy %1 %, analysis %2 %")
                                    .arg(100 * drawn, 0, 'f', 1)
                                    .arg(100 * analysis, 0, 'f', 1)));
        }
    }

    // A column a tenth busy is a tenth high; a whole one is the lane high; an idle one is empty.
    void aColumnIsAsTallAsItIsBusy()
    {
        // synthetic lane: column 0 (0..100 ns) holds 10 ns of work, column 1 is all busy, column 2 idle
        TimelineLane lane;
        lane.add(20, 25, 0, StyleKernelFirst);
        lane.add(40, 45, 1, StyleKernelFirst);
        lane.add(100, 200, 2, StyleKernelFirst);
        lane.finish();
        QCOMPARE(lane.covered(0, 100), int64_t(10));
        QCOMPARE(lane.covered(0, 300), int64_t(110));
        QCOMPARE(lane.covered(42, 150), int64_t(53));
        QCOMPARE(lane.covered(200, 300), int64_t(0));
        // overlapping entries count once
        TimelineLane overlapping;
        overlapping.add(0, 50, 0, StyleCpuOther);
        overlapping.add(10, 20, 1, StyleCpuOther);
        overlapping.add(40, 80, 2, StyleCpuOther);
        overlapping.finish();
        QVERIFY(overlapping.overlapping());
        QCOMPARE(overlapping.covered(0, 100), int64_t(80));
        QCOMPARE(overlapping.covered(45, 60), int64_t(15));
    }

    // The covered length is kept at every 64th entry and summed from there: over many entries and
    // windows it is the entries' union clipped to the window, counted ns by ns.
    void coveredOverManyEntries()
    {
        for (const bool overlap : {false, true}) {
            TimelineLane lane;
            std::vector<std::pair<int64_t, int64_t>> entries;
            int64_t at = 0;
            for (int i = 0; i < 700; ++i) {
                const int64_t length = (i * 37) % 23, gap = overlap && i % 5 == 0 ? -length / 2 : (i * 13) % 17;
                at = std::max<int64_t>(at + gap, entries.empty() ? 0 : entries.back().first);
                entries.emplace_back(at, at + length);
                lane.add(at, at + length, uint32_t(i), StyleCpuOther);
                at += length;
            }
            lane.finish();
            QCOMPARE(lane.overlapping(), overlap);
            std::vector<char> busy(std::size_t(at + 1), 0);
            for (const auto &[s, e] : entries)
                std::fill(busy.begin() + s, busy.begin() + e, 1);
            for (int64_t from = -3; from < at + 3; from += 41)
                for (const int64_t length : {1, 7, 64, 500, 3000}) {
                    int64_t want = 0;
                    for (int64_t x = std::max<int64_t>(0, from); x < std::min(from + length, at); ++x)
                        want += busy[std::size_t(x)];
                    QCOMPARE(lane.covered(from, from + length), want);
                }
        }
    }
};

QTEST_MAIN(TstTimelineDensity)
#include "tst_timelinedensity.moc"
