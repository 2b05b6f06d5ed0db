// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The timeline's rich text in one place: event details (tooltip and Details pane), idle gaps, track and
// group tooltips, and the summary of a selected range.

#include "model/eventdetails.h"
#include "model/rangesummary.h"
#include "model/timelinelayout.h"

#include <QPalette>
#include <QString>

namespace scopeline {

// Dimmed colours (keys, notes) are mixed from the palette's base and text.
QString eventDetailsHtml(const EventDetails &details, const QPalette &palette);
QString gapTooltipHtml(const TraceData &trace, const IdleGap &gap, const QPalette &palette);
QString trackTooltipHtml(const TraceData &trace, const TimelineTrackRow &row);
QString groupTooltipHtml(const TimelineGroup &group, bool collapsed);
// title names the run; times are shown relative to origin.
QString rangeSummaryHtml(const QString &title, const RangeSummary &summary, int64_t origin);

} // namespace scopeline
