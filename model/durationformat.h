// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Human-readable durations with a unit that fits (ns, µs, ms, s), shared by the CLI and the widgets.

#include <QString>

namespace scopeline {

QString formatDuration(double ns);

} // namespace scopeline
