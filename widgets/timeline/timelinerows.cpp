// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/timelinerows.h"

#include <algorithm>

namespace scopeline {

using namespace timelinemetrics;

void TimelineRows::reset(const TimelineLayout &layout)
{
    m_layout = &layout;
    m_collapsed.assign(layout.groups().size(), false);
    m_hidden.clear();
    this->layout();
}

bool TimelineRows::setHidden(std::vector<bool> hidden)
{
    if (std::find(hidden.begin(), hidden.end(), true) == hidden.end())
        hidden.clear();
    if (hidden == m_hidden)
        return false;
    m_hidden = std::move(hidden);
    layout();
    return true;
}

int TimelineRows::hiddenCount() const
{
    return int(std::count(m_hidden.begin(), m_hidden.end(), true));
}

int TimelineRows::hiddenCount(int group) const
{
    const std::vector<int> &rows = m_layout->groups()[std::size_t(group)].rows;
    return int(std::count_if(rows.begin(), rows.end(), [this](int r) { return isHidden(r); }));
}

void TimelineRows::toggle(int group)
{
    m_collapsed[std::size_t(group)] = !m_collapsed[std::size_t(group)];
    layout();
}

void TimelineRows::layout()
{
    m_rows.clear();
    m_rowOfTrackRow.assign(m_layout->rows().size(), -1);
    int y = 0;
    for (int g = 0; g < int(m_layout->groups().size()); ++g) {
        const std::vector<int> &trackRows = m_layout->groups()[std::size_t(g)].rows;
        // a process whose every row is hidden keeps its header, saying so (zoomed to one kernel, the
        // launching process had vanished without a word), unless they are a profiler's bookkeeping alone
        if (hiddenCount(g) == int(trackRows.size()) &&
            std::all_of(trackRows.begin(), trackRows.end(),
                        [this](int r) { return m_layout->rows()[std::size_t(r)].bookkeeping; }))
            continue;
        m_rows.push_back({true, g, y, kHeaderHeight});
        y += kHeaderHeight;
        if (m_collapsed[std::size_t(g)])
            continue;
        for (int trackRow : trackRows) {
            if (isHidden(trackRow))
                continue;
            const TimelineTrackRow &track = m_layout->rows()[std::size_t(trackRow)];
            const int h = int(std::max<std::size_t>(track.lanes.size(), 1)) * laneHeight(track) + 2 * kRowPad;
            m_rowOfTrackRow[std::size_t(trackRow)] = int(m_rows.size());
            m_rows.push_back({false, trackRow, y, h});
            y += h;
        }
    }
    m_contentHeight = y;
}

int TimelineRows::rowAt(int contentY) const
{
    auto it = std::upper_bound(m_rows.begin(), m_rows.end(), contentY,
                               [](int v, const TimelineRow &r) { return v < r.y; });
    if (it == m_rows.begin())
        return -1;
    --it;
    return contentY < it->y + it->height ? int(it - m_rows.begin()) : -1;
}

int TimelineRows::firstGpuHeaderY() const
{
    for (const TimelineRow &row : m_rows)
        if (row.header && m_layout->groups()[std::size_t(row.index)].gpu)
            return row.y;
    return -1;
}

int TimelineRows::laneTopAtOrBelow(int contentY) const
{
    const int r = rowAt(contentY);
    if (r < 0)
        return contentY;
    const TimelineRow &row = m_rows[std::size_t(r)];
    if (contentY == row.y)
        return contentY;
    if (!row.header) {
        const TimelineTrackRow &track = m_layout->rows()[std::size_t(row.index)];
        for (int lane = 1; lane < int(track.lanes.size()); ++lane)
            if (const int top = row.y + laneOffset(track, lane); top >= contentY)
                return top;
    }
    return row.y + row.height;
}

int TimelineRows::laneTopAtOrAbove(int contentY) const
{
    const int r = rowAt(contentY);
    if (r < 0)
        return contentY;
    const TimelineRow &row = m_rows[std::size_t(r)];
    if (!row.header) {
        const TimelineTrackRow &track = m_layout->rows()[std::size_t(row.index)];
        for (int lane = int(track.lanes.size()) - 1; lane >= 1; --lane)
            if (const int top = row.y + laneOffset(track, lane); top <= contentY)
                return top;
    }
    return row.y;
}

int TimelineRows::laneHeight(const TimelineTrackRow &row)
{
    return row.gpu ? kGpuLaneHeight : kLaneHeight;
}

int TimelineRows::laneOffset(const TimelineTrackRow &row, int lane)
{
    return kRowPad + lane * laneHeight(row);
}

int TimelineRows::labelTop(const TimelineRow &row, const TimelineTrackRow &track, int rowTop, int viewTop)
{
    const int first = rowTop + kRowPad;
    const int lastFit = rowTop + row.height - kRowPad - laneHeight(track); // the label stays in its row
    return std::max(first, std::min(viewTop, lastFit));
}

} // namespace scopeline
