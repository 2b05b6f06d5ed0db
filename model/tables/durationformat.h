// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Human-readable durations with a unit that fits (ns, µs, ms, s), shared by the CLI and the widgets.

#include <QString>

namespace scopeline {

QString formatDuration(double ns);
// A change of duration: formatDuration with "+" before an increase ("+1.2 µs", "-300 ns", "0 ns").
QString formatSignedDuration(double ns);

} // namespace scopeline
