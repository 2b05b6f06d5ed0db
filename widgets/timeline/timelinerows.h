// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The vertical layout of a timeline: a header row per process group, then its track rows (unless the
// group is collapsed), each as tall as its lanes; content y from 0, and the pixel sizes they use.
// Hidden track rows take no room, and a group whose rows are all hidden no header either.

#include "model/timeline/timelinelayout.h"

#include <vector>

namespace scopeline {

namespace timelinemetrics {
constexpr int kLabelWidth = 180;   // track label column
constexpr int kAxisHeight = 26;    // time axis at the top
constexpr int kHeaderHeight = 22;  // process header rows
constexpr int kLaneHeight = 18;    // one nesting level of a CPU thread
constexpr int kGpuLaneHeight = 22; // GPU streams, the rows that matter most
constexpr int kRowPad = 3;         // above and below the lanes of a track row
} // namespace timelinemetrics

struct TimelineRow
{
    bool header = false;
    int index = 0; // group, or track row of the layout
    int y = 0;     // content coordinates
    int height = 0;
};

class TimelineRows
{
public:
    // Lays out every group expanded.
    void reset(const TimelineLayout &layout);
    bool isCollapsed(int group) const { return m_collapsed[std::size_t(group)]; }
    void toggle(int group);
    // Hides the track rows marked (per track row of the layout); false when nothing changed.
    bool setHidden(std::vector<bool> hidden);
    bool isHidden(int trackRow) const { return !m_hidden.empty() && m_hidden[std::size_t(trackRow)]; }
    // Track rows hidden, in all and of a group.
    int hiddenCount() const;
    int hiddenCount(int group) const;

    const std::vector<TimelineRow> &rows() const { return m_rows; }
    int contentHeight() const { return m_contentHeight; }
    // The row showing a track row of the layout, -1 when its group is collapsed.
    int rowOfTrackRow(int trackRow) const { return m_rowOfTrackRow[std::size_t(trackRow)]; }
    // The row at a content y, -1 when none.
    int rowAt(int contentY) const;
    // Content y of the first GPU header, -1 when there is none.
    int firstGpuHeaderY() const;
    // The first row or lane top at or below a content y (a row's end within its last lane): where a view
    // can start without cutting a lane through.
    int laneTopAtOrBelow(int contentY) const;
    int laneTopAtOrAbove(int contentY) const; // the row's top for its first lane, a header's top

    static int laneHeight(const TimelineTrackRow &row);
    // y of a lane's top inside its row.
    static int laneOffset(const TimelineTrackRow &row, int lane);
    // Where a track's name goes: its first lane, or the top of the part of the row below viewTop
    // (the top of the view), so that a row scrolled partly out of view keeps its name in view.
    static int labelTop(const TimelineRow &row, const TimelineTrackRow &track, int rowTop, int viewTop);

private:
    void layout();

    const TimelineLayout *m_layout = nullptr;
    std::vector<bool> m_collapsed;
    std::vector<bool> m_hidden; // per track row; empty: none
    std::vector<TimelineRow> m_rows;
    std::vector<int> m_rowOfTrackRow;
    int m_contentHeight = 0;
};

} // namespace scopeline
