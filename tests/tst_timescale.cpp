// SPDX-License-Identifier: GPL-3.0-or-later
// TimeScale: time <-> pixel mapping, round trips, zoom about an anchor, pan and clamping; clamped pixel
// spans; the axis ticks (1-2-5 steps, units, labels that read back as their times).

#include "widgets/timeline/timescale.h"

#include <QtTest>

#include <cmath>

using namespace scopeline;

namespace {

TimeScale makeScale(qint64 lower, qint64 upper, qint64 from, qint64 to, double width)
{
    TimeScale scale;
    scale.width = width;
    scale.setBounds(lower, upper);
    scale.setRange(from, to);
    return scale;
}

constexpr qint64 kEpoch = Q_INT64_C(1700000000000000000); // epoch-based ns, beyond a double's 53 bits

} // namespace

class TstTimeScale : public QObject
{
    Q_OBJECT

private slots:
    void mapping_data()
    {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<double>("width");
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<double>("px");
        QTest::newRow("origin") << qint64(0) << qint64(1000) << 100.0 << qint64(0) << 0.0;
        QTest::newRow("middle") << qint64(0) << qint64(1000) << 100.0 << qint64(500) << 50.0;
        QTest::newRow("end") << qint64(0) << qint64(1000) << 100.0 << qint64(1000) << 100.0;
        QTest::newRow("before start") << qint64(1000) << qint64(2000) << 200.0 << qint64(500) << -100.0;
        QTest::newRow("after end") << qint64(1000) << qint64(2000) << 200.0 << qint64(2500) << 300.0;
        QTest::newRow("sub-ns pixels") << qint64(0) << qint64(100) << 1000.0 << qint64(7) << 70.0;
        QTest::newRow("epoch ns") << kEpoch + 3 << kEpoch + 1003 << 1000.0 << kEpoch + 504 << 501.0;
        QTest::newRow("one second wide")
            << qint64(0) << qint64(1000000000) << 1600.0 << qint64(250000000) << 400.0;
    }

    void mapping()
    {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(double, width);
        QFETCH(qint64, ns);
        QFETCH(double, px);
        TimeScale scale;
        scale.start = start;
        scale.end = end;
        scale.width = width;
        QCOMPARE(scale.toPixel(ns), px);
        QCOMPARE(scale.toTime(px), ns);
        QCOMPARE(scale.toPixels(end - start), width);
    }

    void roundTrip_data()
    {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<double>("width");
        QTest::newRow("1 ns per px") << qint64(0) << qint64(1000) << 1000.0;
        QTest::newRow("zoomed out") << qint64(123) << qint64(37000123) << 1417.0;
        QTest::newRow("zoomed in") << qint64(5) << qint64(105) << 1600.0;
        QTest::newRow("epoch, ms window") << kEpoch << kEpoch + 1000000 << 1183.0;
        QTest::newRow("epoch, 150 ms window") << kEpoch + 77 << kEpoch + 156353135 << 997.0;
    }

    void roundTrip()
    {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(double, width);
        TimeScale scale;
        scale.start = start;
        scale.end = end;
        scale.width = width;
        const double nsPerPx = double(end - start) / width;
        for (int i = 0; i <= 20; ++i) {
            // time -> px -> time is exact
            const qint64 t = start + (end - start) * i / 20 + (i % 3);
            QCOMPARE(scale.toTime(scale.toPixel(t)), t);
            // px -> time -> px within the rounding of half a ns
            const double px = width * i / 20.0 + 0.37;
            QVERIFY2(
                std::fabs(scale.toPixel(scale.toTime(px)) - px) <= 0.5 / nsPerPx + 1e-9,
                qPrintable(
                    QStringLiteral("px %1 came back as %2").arg(px).arg(scale.toPixel(scale.toTime(px)))));
        }
    }

    void zoomKeepsAnchor_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("anchor");
        // bounds are [0, 1e9) plus an epoch-based case
        QTest::newRow("in at left third") << qint64(0) << qint64(1000000000) << 1600.0 << 2.0 << 533.0;
        QTest::newRow("in at centre") << qint64(0) << qint64(1000000000) << 1600.0 << 1.25 << 800.0;
        QTest::newRow("in at left edge") << qint64(0) << qint64(1000000000) << 1600.0 << 4.0 << 0.0;
        QTest::newRow("in at right edge") << qint64(0) << qint64(1000000000) << 1600.0 << 4.0 << 1600.0;
        QTest::newRow("out inside bounds")
            << qint64(400000000) << qint64(410000000) << 1000.0 << 0.5 << 321.0;
        QTest::newRow("deep in") << qint64(500000000) << qint64(500010000) << 1000.0 << 10.0 << 777.0;
        QTest::newRow("odd width") << qint64(123456) << qint64(98765432) << 1183.0 << 1.7 << 99.5;
        QTest::newRow("epoch") << kEpoch + 100000000 << kEpoch + 200000000 << 1400.0 << 3.0 << 901.0;
    }

    void zoomKeepsAnchor()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(double, width);
        QFETCH(double, factor);
        QFETCH(double, anchor);
        const qint64 base = from >= kEpoch ? kEpoch : 0;
        TimeScale scale = makeScale(base, base + 1000000000, from, to, width);
        QCOMPARE(scale.start, from);
        QCOMPARE(scale.end, to);
        const qint64 anchorTime = scale.toTime(anchor);
        const qint64 oldSpan = scale.span();
        scale.zoom(factor, anchor);
        QCOMPARE(scale.span(), qint64(std::llround(oldSpan / factor)));
        // the time that was under the anchor is still there (within a pixel's rounding)
        QVERIFY2(std::fabs(scale.toPixel(anchorTime) - anchor) < 0.5,
                 qPrintable(QStringLiteral("anchor moved to %1").arg(scale.toPixel(anchorTime))));
        QVERIFY(std::llabs(scale.toTime(anchor) - anchorTime) <=
                std::max<qint64>(1, qint64(scale.nsPerPixel())));
    }

    void clamping_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<qint64>("maxSpan");
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        // bounds [1000, 11000)
        QTest::newRow("inside") << qint64(2000) << qint64(3000) << qint64(0) << qint64(2000) << qint64(3000);
        QTest::newRow("fit") << qint64(1000) << qint64(11000) << qint64(0) << qint64(1000) << qint64(11000);
        QTest::newRow("before the trace")
            << qint64(0) << qint64(500) << qint64(0) << qint64(1000) << qint64(1500);
        QTest::newRow("after the trace")
            << qint64(10800) << qint64(12000) << qint64(0) << qint64(9800) << qint64(11000);
        QTest::newRow("wider than the trace")
            << qint64(-5000) << qint64(50000) << qint64(0) << qint64(1000) << qint64(11000);
        QTest::newRow("below the minimum span")
            << qint64(5000) << qint64(5010) << qint64(0) << qint64(4955) << qint64(5055);
        QTest::newRow("minimum span at the start")
            << qint64(1000) << qint64(1001) << qint64(0) << qint64(1000) << qint64(1100);
        QTest::newRow("reversed") << qint64(3000) << qint64(2000) << qint64(0) << qint64(2000)
                                  << qint64(3000);
        // a wider maximum (two traces with locked zoom): the window may exceed the trace but keeps all of it
        QTest::newRow("max span, wide window")
            << qint64(1000) << qint64(21000) << qint64(30000) << qint64(1000) << qint64(21000);
        QTest::newRow("max span, shifted right")
            << qint64(5000) << qint64(25000) << qint64(30000) << qint64(1000) << qint64(21000);
        QTest::newRow("max span, capped")
            << qint64(1000) << qint64(61000) << qint64(30000) << qint64(1000) << qint64(31000);
    }

    void clamping()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(qint64, maxSpan);
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        TimeScale scale = makeScale(1000, 11000, 1000, 11000, 800.0);
        scale.maxSpan = maxSpan;
        scale.setRange(from, to);
        QCOMPARE(scale.start, start);
        QCOMPARE(scale.end, end);
    }

    void zoomStopsAtLimits()
    {
        TimeScale scale = makeScale(0, 1000000, 0, 1000000, 1000.0);
        for (int i = 0; i < 100; ++i)
            scale.zoom(2.0, 250.0);
        QCOMPARE(scale.span(), TimeScale::kMinSpan);
        QVERIFY(scale.start >= 0 && scale.end <= 1000000);
        for (int i = 0; i < 100; ++i)
            scale.zoom(0.5, 250.0);
        QCOMPARE(scale.start, qint64(0));
        QCOMPARE(scale.end, qint64(1000000));
    }

    // A touchpad or a hi-res wheel zooms in steps of 1/120 notch: together they zoom as the notches
    // would, from the deepest zoom too (each step's whole-ns rounding had left 100 and 300 ns as they
    // were, and turned 3.3 notches out of 200 ns into 400 ns, not 200 × 1.2^3.33).
    void smallZoomStepsAddUp_data()
    {
        QTest::addColumn<qint64>("span");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("delta"); // per step, in 1/120 notch; negative: out
        QTest::newRow("out of the deepest zoom") << qint64(100) << 120 << -1;
        QTest::newRow("out of 300 ns") << qint64(300) << 120 << -1;
        QTest::newRow("out of 200 ns, 3.3 notches") << qint64(200) << 200 << -2;
        QTest::newRow("in from 1 us") << qint64(1000) << 240 << 1;
    }

    void smallZoomStepsAddUp()
    {
        QFETCH(qint64, span);
        QFETCH(int, steps);
        QFETCH(int, delta);
        TimeScale scale = makeScale(0, 1000000, 500000, 500000 + span, 1000.0);
        const double notch = 1.2; // the timeline's zoom per wheel notch
        for (int i = 0; i < steps; ++i)
            scale.zoom(std::pow(notch, delta / 120.0), 500.0);
        const double expected = double(span) / std::pow(notch, steps * delta / 120.0);
        QVERIFY2(std::fabs(double(scale.span()) - expected) <= 1,
                 qPrintable(QStringLiteral("%1 ns, expected %2").arg(scale.span()).arg(expected)));
    }

    void pan_data()
    {
        QTest::addColumn<double>("px");
        QTest::addColumn<qint64>("start");
        // bounds [0, 100000), window [40000, 50000) over 1000 px: 10 ns per px
        QTest::newRow("right 100 px") << 100.0 << qint64(41000);
        QTest::newRow("left 250 px") << -250.0 << qint64(37500);
        QTest::newRow("fractional") << 0.35 << qint64(40004);
        QTest::newRow("past the end") << 100000.0 << qint64(90000);
        QTest::newRow("past the start") << -100000.0 << qint64(0);
    }

    void pan()
    {
        QFETCH(double, px);
        QFETCH(qint64, start);
        TimeScale scale = makeScale(0, 100000, 40000, 50000, 1000.0);
        scale.pan(px);
        QCOMPARE(scale.start, start);
        QCOMPARE(scale.span(), qint64(10000));
    }

    void emptyTrace()
    {
        // A trace of one instant: a window of at least 1 ns, no division by zero.
        TimeScale scale = makeScale(500, 500, 500, 500, 0.0);
        QVERIFY(scale.span() >= 1);
        QVERIFY(scale.width >= 1);
        QVERIFY(std::isfinite(scale.toPixel(500)));
        scale.zoom(2.0, 0.0);
        scale.pan(10.0);
        QCOMPARE(scale.start, qint64(500));
    }

    void pixelSpan_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<double>("margin");
        QTest::addColumn<double>("left");
        QTest::addColumn<double>("right");
        QTest::newRow("inside") << qint64(1000) << qint64(2000) << 5.0 << 100.0 << 200.0;
        QTest::newRow("left of the plot") << qint64(-5000) << qint64(500) << 5.0 << -5.0 << 50.0;
        QTest::newRow("right of the plot") << qint64(9000) << qint64(90000) << 10.0 << 900.0 << 1010.0;
        QTest::newRow("epoch far away") << kEpoch << kEpoch + 1 << 2000.0 << 3000.0 << 3000.0;
        QTest::newRow("both sides") << qint64(-100) << qint64(20000) << 1.0 << -1.0 << 1001.0;
    }

    void pixelSpan()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(double, margin);
        QFETCH(double, left);
        QFETCH(double, right);
        TimeScale scale;
        scale.start = 0;
        scale.end = 10000;
        scale.width = 1000; // 10 ns per px
        const PixelSpan span = scale.toPixelSpan(from, to, margin);
        QCOMPARE(span.left, left);
        QCOMPARE(span.right, right);
        QCOMPARE(span.width(), right - left);
    }

    // A view reaching the end of int64 (a damaged nsys row's kernel ending at INT64_MAX) gets its ticks
    // and ends: the walk past the last tick had wrapped around and never stopped.
    void axisTicksAtTheEndsOfInt64()
    {
        for (const auto &[start, end] : {std::pair<int64_t, int64_t>{0, INT64_MAX},
                                         std::pair<int64_t, int64_t>{INT64_MAX - 1000, INT64_MAX},
                                         std::pair<int64_t, int64_t>{INT64_MIN, INT64_MIN + 1000}}) {
            TimeScale scale;
            scale.width = 1000;
            scale.setBounds(start, end);
            scale.fit();
            const AxisTicks ticks = scopeline::axisTicks(scale, start);
            QVERIFY2(!ticks.major.empty() && ticks.major.size() <= 20,
                     qPrintable(QStringLiteral("%1 to %2 (shown %3 to %4): %5")
                                    .arg(start)
                                    .arg(end)
                                    .arg(scale.start)
                                    .arg(scale.end)
                                    .arg(ticks.major.size())));
            QVERIFY(ticks.minor.size() <= 100);
        }
    }

    void axisTicks_data()
    {
        QTest::addColumn<qint64>("origin");
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<double>("width");
        QTest::addColumn<QString>("unit");
        QTest::newRow("36.9 ms over 1000 px") << qint64(0) << qint64(0) << qint64(36920000) << 1000.0 << "ms";
        QTest::newRow("zoomed to 3 us, epoch") << kEpoch << kEpoch + 2000000 << kEpoch + 2003000 << 1400.0 << "ms";
        QTest::newRow("900 ns") << qint64(100) << qint64(100) << qint64(1000) << 800.0 << "ns";
        QTest::newRow("seconds") << qint64(0) << qint64(1000000000) << qint64(4000000000) << 1200.0 << "s";
        QTest::newRow("40 us from 10 us") << qint64(0) << qint64(10000) << qint64(50000) << 600.0 << "µs";
    }

    void axisTicks()
    {
        QFETCH(qint64, origin);
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(double, width);
        QFETCH(QString, unit);
        TimeScale scale;
        scale.width = width;
        scale.setBounds(origin, end);
        scale.setRange(start, end);
        const AxisTicks ticks = scopeline::axisTicks(scale, origin);
        QVERIFY(ticks.major.size() >= 2);
        // times back from the labels: equally spaced by a 1-2-5 step at least 100 px wide, and the
        // smallest such step (the next smaller one would be narrower than 100 px)
        const double unitNs = unit == QLatin1String("s") ? 1e9 : unit == QLatin1String("ms") ? 1e6
                              : unit == QStringLiteral("µs") ? 1e3 : 1;
        std::vector<double> times;
        for (const AxisTick &tick : ticks.major) {
            if (tick.text == QLatin1String("0")) {
                times.push_back(0);
            } else {
                QVERIFY2(tick.text.endsWith(QLatin1Char(' ') + unit), qPrintable(tick.text));
                times.push_back(tick.text.section(QLatin1Char(' '), 0, 0).toDouble() * unitNs);
            }
            // the tick sits at its time
            QVERIFY(std::fabs(tick.x - std::floor(scale.toPixel(origin + qint64(std::llround(times.back()))))) <= 1);
            QVERIFY(tick.x >= 0 && tick.x < width);
        }
        const double step = times[1] - times[0];
        for (std::size_t i = 1; i < times.size(); ++i)
            QVERIFY(std::fabs(times[i] - times[i - 1] - step) < step * 1e-6);
        const double mantissa = step / std::pow(10, std::floor(std::log10(step) + 1e-9));
        QVERIFY2(std::fabs(mantissa - 1) < 1e-6 || std::fabs(mantissa - 2) < 1e-6 || std::fabs(mantissa - 5) < 1e-6,
                 qPrintable(QString::number(step)));
        QVERIFY(step * scale.pixelsPerNs() >= 100 - 1e-6);
        const double smaller = std::fabs(mantissa - 1) < 1e-6 ? step / 2 : std::fabs(mantissa - 2) < 1e-6 ? step / 2 : step * 2 / 5;
        QVERIFY(smaller * scale.pixelsPerNs() < 100);
        // minor ticks: 4 between 2-steps, else 5 parts, inside the plot
        const int parts = std::fabs(mantissa - 2) < 1e-6 ? 4 : 5;
        for (int x : ticks.minor)
            QVERIFY(x >= 0 && x < width);
        QVERIFY(qsizetype(ticks.minor.size()) >= qsizetype(ticks.major.size() - 1) * (parts - 1));
    }
};

QTEST_MAIN(TstTimeScale)
#include "tst_timescale.moc"
