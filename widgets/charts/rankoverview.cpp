// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/rankoverview.h"

#include "widgets/charts/plottheme.h"
#include "widgets/timeline/timescale.h"

#include <QPainter>

#include <algorithm>
#include <limits>

namespace scopeline {

namespace {

constexpr int kLabelWidth = 110;
constexpr int kLaneHeight = 14;
constexpr int kAxisHeight = 18;
const QColor kComm(0xc2, 0x18, 0x8b); // the timeline's communication colour

} // namespace

RankOverview::RankOverview(QWidget *parent) : QWidget(parent) {}

void RankOverview::setRanks(std::vector<const RunSummary *> ranks, const QStringList &labels)
{
    m_ranks = std::move(ranks);
    m_labels = labels;
    m_segments.clear();
    m_start = std::numeric_limits<int64_t>::max();
    m_end = std::numeric_limits<int64_t>::min();
    int64_t latestFirst = m_end, earliestLast = m_start, longest = 0;
    for (const RunSummary *rank : m_ranks) {
        m_segments.push_back(busySegments(*rank));
        if (!m_segments.back().empty()) {
            const int64_t first = m_segments.back().front().start, last = m_segments.back().back().end;
            m_start = std::min(m_start, first);
            m_end = std::max(m_end, last);
            latestFirst = std::max(latestFirst, first);
            earliestLast = std::min(earliestLast, last);
            longest = std::max(longest, last - first);
        }
    }
    // Lanes that never overlap on one clock would sit in slivers of a span of years: each from its own
    // first kernel instead.
    m_ownClocks = latestFirst > earliestLast;
    m_offset.assign(m_segments.size(), 0);
    if (m_ownClocks) {
        for (std::size_t r = 0; r < m_segments.size(); ++r)
            m_offset[r] = m_segments[r].empty() ? 0 : m_segments[r].front().start;
        m_start = 0;
        m_end = longest;
    }
    if (m_start > m_end)
        m_start = m_end = 0;
    setToolTip(tr("Each rank of the run over time: blue where it computes, magenta where only communication "
                  "runs (it waits for the others), empty where its GPU is idle") +
               (m_ownClocks ? tr(". Each rank from its own first kernel: their kernels never overlap on one "
                                 "clock (other hosts' clocks, or ranks of other jobs)")
                            : QString()));
    updateGeometry();
    update();
}

BusyShares RankOverview::shares(int lane, int64_t from, int64_t to) const
{
    const int64_t offset = m_offset[std::size_t(lane)];
    return busyShares(m_segments[std::size_t(lane)], from + offset, to + offset);
}

QSize RankOverview::sizeHint() const
{
    return {600, kAxisHeight + kLaneHeight * std::max(1, laneCount()) + 4};
}

QSize RankOverview::minimumSizeHint() const
{
    return {kLabelWidth + 120, kAxisHeight + kLaneHeight * std::min(std::max(1, laneCount()), 4) + 4};
}

int RankOverview::laneHeight() const
{
    return std::max(6, std::min(kLaneHeight, (height() - kAxisHeight) / std::max(1, laneCount())));
}

int RankOverview::labelledEvery() const
{
    return labelStep(laneCount(), double(laneHeight()) * laneCount(), fontMetrics().height());
}

void RankOverview::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette &pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QRect plot(kLabelWidth, 0, std::max(1, width() - kLabelWidth - 4), height() - kAxisHeight);
    if (m_ranks.empty() || m_end <= m_start) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No run of several GPUs"));
        return;
    }
    const int lane = laneHeight();
    const int every = labelledEvery(), line = fontMetrics().height();
    const double nsPerPixel = double(m_end - m_start) / plot.width();
    const QColor compute = dataColour(DataColour::SideA);
    for (int r = 0; r < laneCount(); ++r) {
        const int top = plot.top() + r * lane;
        p.setPen(pal.color(QPalette::Text));
        if (r % every == 0) // a line of text each, centred on its lane
            p.drawText(QRect(4, std::max(0, top + (lane - line) / 2), kLabelWidth - 8, line),
                       Qt::AlignVCenter | Qt::AlignRight, m_labels.value(r));
        p.fillRect(QRect(plot.left(), top + 1, plot.width(), lane - 2), pal.color(QPalette::AlternateBase));
        // each pixel column as tall as its shares: compute from the bottom, exposed communication above
        for (int x = 0; x < plot.width(); ++x) {
            const int64_t from = m_start + int64_t(x * nsPerPixel), to = m_start + int64_t((x + 1) * nsPerPixel);
            const BusyShares s = shares(r, from, std::max(to, from + 1));
            const double span = double(std::max<int64_t>(1, to - from));
            const int h = lane - 2;
            const int hc = int(h * std::min(1.0, s.compute / span) + 0.5);
            const int he = int(h * std::min(1.0, s.exposedComm / span) + 0.5);
            if (hc > 0)
                p.fillRect(QRect(plot.left() + x, top + 1 + h - hc, 1, hc), compute);
            if (he > 0)
                p.fillRect(QRect(plot.left() + x, top + 1 + h - hc - std::min(he, h - hc), 1, std::min(he, h - hc)),
                           kComm);
        }
    }
    // the time axis from the run's first kernel (each rank's own), with the timelines' 1-2-5 ticks
    p.setPen(pal.color(QPalette::Text));
    const int axis = plot.top() + laneCount() * lane + 2;
    if (m_ownClocks)
        p.drawText(QRect(4, axis, kLabelWidth - 8, kAxisHeight), Qt::AlignVCenter | Qt::AlignRight,
                   tr("own clocks"));
    TimeScale scale;
    scale.setBounds(m_start, m_end);
    scale.width = plot.width();
    for (const AxisTick &tick : axisTicks(scale, m_start).major) {
        const int x = plot.left() + tick.x;
        p.drawLine(x, axis, x, axis + 3);
        const int w = p.fontMetrics().horizontalAdvance(tick.text);
        p.drawText(std::clamp(x - w / 2, plot.left(), plot.right() - w), axis + 3 + p.fontMetrics().ascent(),
                   tick.text);
    }
}

} // namespace scopeline
