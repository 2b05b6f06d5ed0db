// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The look and behaviour shared by the statistics tables (scopes, kernels): whole rows selected,
// read-only, compact rows, sortable by a click on a header that a third click clears.

class QTableView;

namespace scopeline {

void setUpStatisticsTable(QTableView *table);

} // namespace scopeline
