// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The number texts of the result tables (percentages, p-values, calls per run, intervals), shared by
// the column descriptions, the views' tooltips and the CLI; durations are in durationformat.h.

#include <QString>
#include <QVariant>

namespace scopeline {

// A fraction as a percentage: "12.3 %"; empty for NaN.
QString formatPercent(double fraction, int decimals = 1);
// A relative change, signed: "+4.30 %", "-0.50 %"; "new in B" for +inf (from none); empty for NaN.
QString formatChange(double fraction, int decimals = 2);
// A relative change with its interval: "+4.30 % [+1.00, +7.00]"; the change alone without an interval;
// empty without a change.
QString formatChangeInterval(double change, double ciLow, double ciHigh, int decimals = 2);
// An interval of relative changes alone: "[+21.5 %, +76.7 %]", at the decimals it needs
// (intervalDecimals, one at least); empty unless both ends are finite.
QString formatChangeBounds(double low, double high);
// The decimals (at least `decimals`) that an interval of fractions needs in percent so that neither
// nonzero end reads as 0: whether it excludes 0 is what its verdict says ("[-0.9 %, -0.02 %]").
int intervalDecimals(double low, double high, int decimals);
// Three significant digits, "1.27e-111", "1e-300"; "< 1e-323" for an underflowed 0; "–" for NaN (no test).
QString formatPValue(double p);
// A count or a mean count (calls per run, a U statistic): "40", "40.5".
QString formatCount(double count);

// The columns a text takes in a terminal: two for a wide East Asian character or an emoji, none for a
// combining mark, one for anything else; what the CLI's tables align by.
int displayWidth(const QString &text);
// The text with what a terminal would act on rather than print (control characters, a newline among
// them, and the bidirectional overrides that turn the rest of a line around) written as \u escapes;
// what a name from a trace shows as in the CLI's tables.
QString printable(const QString &text);

// The same as formatters of a table column's raw value (TableColumn::format).
namespace cell {
QString text(const QVariant &value);
QString duration(const QVariant &ns);
QString signedDuration(const QVariant &ns);
QString percent(const QVariant &fraction);
QString change(const QVariant &fraction);
QString pValue(const QVariant &p);
QString count(const QVariant &count);
} // namespace cell

} // namespace scopeline
