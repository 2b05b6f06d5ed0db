// SPDX-License-Identifier: GPL-3.0-or-later
#include "timescale.h"

#include <algorithm>
#include <cmath>

namespace scopeline {

int64_t TimeScale::toTime(double px) const
{
    return start + std::llround(px * double(span()) / width);
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
    clamp();
}

void TimeScale::zoom(double factor, double anchorPx)
{
    if (!(factor > 0) || !std::isfinite(factor))
        return;
    const int64_t oldSpan = span();
    const int64_t minSpan = std::min<int64_t>(kMinSpan, effectiveMaxSpan());
    const int64_t newSpan = std::clamp<int64_t>(std::llround(double(oldSpan) / factor),
                                                std::max<int64_t>(minSpan, 1), effectiveMaxSpan());
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

} // namespace scopeline
