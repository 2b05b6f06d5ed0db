// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CSV fields as every table of the program writes them (RFC 4180 quoting; numbers round-trip).

#include <QString>
#include <QVariant>

namespace scopeline {

// The text, quoted when it holds a comma, a quote or a line break.
QString csvText(QString text);
// The shortest text a reader gets the same double back from (0.975); empty for NaN.
QString csvNumber(double value);
// A table's raw value (tablecolumn.h): a double as csvNumber, an integer as is, anything else as text.
QString csvValue(const QVariant &value);

} // namespace scopeline
