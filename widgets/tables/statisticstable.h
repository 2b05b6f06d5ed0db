// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The look and behaviour shared by the statistics tables (scopes, kernels): whole rows selected,
// read-only, compact rows, sortable by a click on a header that a third click clears; and leading
// columns that stay in view when the table is scrolled to the right.

#include <QList>

class QMenu;
class QTableView;
class QWidget;

namespace scopeline {

// Also gives the header a context menu that hides and shows columns (columnMenu()).
void setUpStatisticsTable(QTableView *table);

// The header's menu: every column but the first by its title (full description as its tooltip),
// checked while shown; toggling one hides or shows it. Owned by `parent`.
QMenu *columnMenu(QTableView *table, QWidget *parent);

// Keeps these logical columns (shown first, in this order) in view at the table's left edge while
// it scrolls sideways: a second view over the table, sharing its model and selection, scrolled with
// it. Returns that view (a child of `table`, object name "frozenColumns").
QTableView *freezeLeadingColumns(QTableView *table, const QList<int> &columns);

} // namespace scopeline
