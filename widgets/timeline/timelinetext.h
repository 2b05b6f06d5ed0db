// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The timeline's rich text in one place: event details (tooltip and Details pane), idle gaps, track and
// group tooltips, and the summary of a selected range.

#include "model/timeline/eventdetails.h"
#include "model/timeline/rangesummary.h"
#include "model/timeline/timelinelayout.h"

#include <QFontMetrics>
#include <QPalette>
#include <QString>

#include <string_view>

namespace scopeline {

// At most this many characters of a text are laid out to elide it: wider than any view.
constexpr int kMaxLaidOutChars = 4096;
// The first (and, from the back, last) chars of a UTF-8 text, converted alone; a cut marked "…".
QString boundedPrefix(std::string_view utf8, int chars);
// The text, or its first and last kMaxLaidOutChars around "…": what a table cell, tooltip or chart label
// may hand to Qt to lay out (a 5 MB kernel name would take seconds).
QString boundedText(const QString &text);
// Text elided to width px from a bounded prefix (and suffix, for Qt::ElideMiddle): a 5 MB name costs
// what a short one does, and a cut text always shows "…".
QString boundedElidedText(const QFontMetrics &fm, const QString &text, Qt::TextElideMode mode, int width);
// An event's name elided to width px, converting no more of it than can show.
QString elidedEventName(const QFontMetrics &fm, const TraceData &trace, uint32_t event, int width);

// Dimmed colours (keys, notes) are mixed from the palette's base and text.
QString eventDetailsHtml(const EventDetails &details, const QPalette &palette);
QString gapTooltipHtml(const TraceData &trace, const IdleGap &gap, const QPalette &palette);
QString trackTooltipHtml(const TraceData &trace, const TimelineTrackRow &row);
QString groupTooltipHtml(const TimelineGroup &group, bool collapsed);
// title names the run; times are shown relative to origin.
QString rangeSummaryHtml(const QString &title, const RangeSummary &summary, int64_t origin);

} // namespace scopeline
