// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CSV fields as every table of the program writes them (RFC 4180 quoting; numbers round-trip).

#include <QString>

namespace scopeline {

// The text, quoted when it holds a comma, a quote or a line break.
QString csvText(QString text);
// All 17 significant digits, so a reader gets the same double back; empty for NaN.
QString csvNumber(double value);

} // namespace scopeline
