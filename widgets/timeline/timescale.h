// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Time <-> pixel mapping of a timeline: the visible window [start, end) in trace ns over a plot of
// width px, zoom about an anchor pixel, pan, clamping to the trace bounds with a minimum span.
// Times stay int64 ns (epoch-based traces do not fit a double exactly); only differences go to double.

#include <QString>

#include <cstdint>
#include <vector>

namespace scopeline {

// Pixel columns [left, right) covered by a time span, clamped to a margin around the plot.
struct PixelSpan
{
    double left = 0, right = 0;
    double width() const { return right - left; }
};

// The time axis of a window: major ticks with labels relative to an origin, minor ticks between.
struct AxisTick
{
    int x = 0; // px from the plot's left
    QString text;
};
struct AxisTicks
{
    std::vector<AxisTick> major;
    std::vector<int> minor;
};

struct TimeScale
{
    static constexpr int64_t kMinSpan = 100; // ns: the deepest zoom

    int64_t start = 0; // visible window, ns
    int64_t end = 1;
    double width = 1;       // plot width, px
    int64_t lowerBound = 0; // the trace's extent; the window stays inside it
    int64_t upperBound = 0;
    int64_t maxSpan =
        0; // the widest window; 0: the bounds' span. A wider window keeps the whole trace in view.
    // The zoom a whole-ns span could not take yet, taken with the next: a touchpad's steps of 1/120
    // notch each rounded away below ~330 ns (the deepest zoom could not be left) and doubled above.
    double zoomCarry = 1;

    int64_t span() const { return end - start; }
    double nsPerPixel() const { return double(span()) / width; }
    double pixelsPerNs() const { return width / double(span()); }
    // x of a time, 0 at start and width at end; unclamped.
    double toPixel(int64_t ns) const { return double(ns - start) * width / double(span()); }
    // Time at an x, rounded to the nearest ns.
    int64_t toTime(double px) const;
    // Length in px of a duration.
    double toPixels(int64_t ns) const { return double(ns) * width / double(span()); }

    // x of [from, to] clamped to [-margin, width + margin]: far-off times stay drawable.
    PixelSpan toPixelSpan(int64_t from, int64_t to, double margin) const;

    // Bounds and a window that fits them.
    void setBounds(int64_t lower, int64_t upper);
    int64_t boundsSpan() const { return upperBound - lowerBound; }
    int64_t effectiveMaxSpan() const;
    // Shows [from, to), clamped.
    void setRange(int64_t from, int64_t to);
    void fit() { setRange(lowerBound, upperBound); }
    void fit(int64_t from, int64_t to) { setRange(from, to); }
    // factor > 1 zooms in; the time under anchorPx stays under anchorPx unless clamping moves it.
    void zoom(double factor, double anchorPx);
    // Moves the window by px pixels' worth of time (positive: later).
    void pan(double px);
    // Applies the minimum and maximum span, then keeps the window inside the bounds.
    void clamp();

    bool operator==(const TimeScale &o) const
    {
        return start == o.start && end == o.end && width == o.width && lowerBound == o.lowerBound &&
               upperBound == o.upperBound && maxSpan == o.maxSpan;
    }
    bool operator!=(const TimeScale &o) const { return !(*this == o); }
};

// Ticks of the visible window: a 1-2-5 step at least minSpacingPx apart, labelled relative to origin
// in the unit that fits the largest label in view, with the decimals the step needs.
AxisTicks axisTicks(const TimeScale &scale, int64_t origin, double minSpacingPx = 100);

} // namespace scopeline
