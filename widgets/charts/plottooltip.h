// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A chart's tooltip by where it is hovered: what the bar, box or rank under the pointer says.

#include <QPoint>
#include <QString>

#include <functional>

class QCustomPlot;

namespace scopeline {

// From now on a tooltip over the plot shows textAt(the pointer's position in the plot), none where it
// is empty; the filter lives as long as the plot.
void showToolTipsBy(QCustomPlot *plot, std::function<QString(const QPoint &)> textAt);

} // namespace scopeline
