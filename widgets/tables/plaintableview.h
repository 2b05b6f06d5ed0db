// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A read-only table view of a panel's figures: whole rows selected, one at a time, rows a line high.

#include <QHeaderView>
#include <QTableView>

namespace scopeline {

inline QTableView *plainTableView(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->setAlternatingRowColors(true);
    return view;
}

} // namespace scopeline
