// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/timescale.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace scopeline {

int64_t TimeScale::toTime(double px) const
{
    return start + std::llround(px * double(span()) / width);
}

PixelSpan TimeScale::toPixelSpan(int64_t from, int64_t to, double margin) const
{
    return {std::clamp(toPixel(from), -margin, width + margin), std::clamp(toPixel(to), -margin, width + margin)};
}

void TimeScale::setBounds(int64_t lower, int64_t upper)
{
    lowerBound = lower;
    upperBound = std::max(upper, lower);
    fit();
}

int64_t TimeScale::effectiveMaxSpan() const
{
    return std::max<int64_t>({maxSpan, boundsSpan(), 1});
}

void TimeScale::setRange(int64_t from, int64_t to)
{
    if (to < from)
        std::swap(from, to);
    start = from;
    end = to;
    zoomCarry = 1;
    clamp();
}

void TimeScale::zoom(double factor, double anchorPx)
{
    if (!(factor > 0) || !std::isfinite(factor))
        return;
    const int64_t oldSpan = span();
    const int64_t minSpan = std::max<int64_t>(std::min<int64_t>(kMinSpan, effectiveMaxSpan()), 1);
    const double wanted = double(oldSpan) / (factor * zoomCarry);
    const int64_t rounded = std::llround(wanted),
                  newSpan = std::clamp<int64_t>(rounded, minSpan, effectiveMaxSpan());
    zoomCarry = newSpan == rounded ? double(newSpan) / wanted : 1; // none past the deepest or widest zoom
    // The anchor's time t = start + anchorPx/width * span stays at anchorPx.
    start += std::llround(anchorPx / width * double(oldSpan - newSpan));
    end = start + newSpan;
    clamp();
}

void TimeScale::pan(double px)
{
    const int64_t shift = std::llround(px * nsPerPixel());
    start += shift;
    end += shift;
    clamp();
}

void TimeScale::clamp()
{
    if (!(width >= 1))
        width = 1;
    const int64_t bounds = std::max<int64_t>(boundsSpan(), 1);
    const int64_t maxAllowed = effectiveMaxSpan();
    const int64_t minAllowed = std::max<int64_t>(std::min(kMinSpan, maxAllowed), 1);
    int64_t s = end - start;
    if (s < minAllowed || s > maxAllowed) {
        const int64_t wanted = std::clamp(s, minAllowed, maxAllowed);
        start += (s - wanted) / 2; // keep the centre
        s = wanted;
    }
    if (s <= bounds)
        start = std::clamp(start, lowerBound, lowerBound + bounds - s);
    else // wider than the trace: the whole trace stays in view
        start = std::clamp(start, lowerBound + bounds - s, lowerBound);
    end = start + s;
}

namespace {

// The smallest 1-2-5 step (ns, a whole number) not below minStep.
int64_t niceStep(double minStep)
{
    for (double decade = 1;; decade *= 10)
        for (double m : {1.0, 2.0, 5.0})
            if (m * decade >= minStep)
                return int64_t(m * decade);
}

} // namespace

AxisTicks axisTicks(const TimeScale &scale, int64_t origin, double minSpacingPx)
{
    AxisTicks ticks;
    const int64_t step = niceStep(minSpacingPx * scale.nsPerPixel());
    const double magnitude = double(std::max(std::llabs(scale.end - origin), std::llabs(scale.start - origin)));
    double unit = 1;
    QString unitName = QStringLiteral("ns");
    if (magnitude >= 1e9) {
        unit = 1e9;
        unitName = QStringLiteral("s");
    } else if (magnitude >= 1e6) {
        unit = 1e6;
        unitName = QStringLiteral("ms");
    } else if (magnitude >= 1e3) {
        unit = 1e3;
        unitName = QStringLiteral("µs");
    }
    const int decimals = std::max(0, int(std::ceil(-std::log10(double(step) / unit) - 1e-9)));
    const int64_t rel0 = scale.start - origin;
    const int64_t first = rel0 >= 0 ? (rel0 + step - 1) / step * step : -((-rel0) / step * step);
    // a 2-step is cut in 4, a 1- or 5-step in 5
    const int minorCount = (step / int64_t(std::pow(10, std::floor(std::log10(double(step)))))) == 2 ? 4 : 5;
    const double width = scale.width;
    // times at the ends of int64 (a damaged export's kernel ending at INT64_MAX) end the walk, not wrap it
    bool more = true;
    int64_t at = 0, m = first - step; // the minor ticks before the first major one, where int64 has them
    if (__builtin_add_overflow(origin, m, &at))
        m = first;
    while (more && !__builtin_add_overflow(origin, m, &at) && at <= scale.end) {
        const int64_t tick = m;
        more = !__builtin_add_overflow(m, step, &m);
        for (int k = 1; k < minorCount && at <= INT64_MAX - step; ++k) {
            const double x = scale.toPixel(at + step * k / minorCount);
            if (x >= 0 && x < width)
                ticks.minor.push_back(int(x));
        }
        if (tick < first)
            continue;
        const double x = scale.toPixel(at);
        if (x < 0 || x >= width)
            continue;
        const QString text =
            tick == 0 ? QStringLiteral("0")
                      : QStringLiteral("%1 %2").arg(double(tick) / unit, 0, 'f', decimals).arg(unitName);
        ticks.major.push_back({int(x), text});
    }
    return ticks;
}

} // namespace scopeline
