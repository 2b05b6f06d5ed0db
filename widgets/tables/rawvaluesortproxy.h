// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Sorts a statistics table by the raw values under its sort role (not the formatted text), with empty
// statistics (NaN) after every number in either order.

#include <QSortFilterProxyModel>

namespace scopeline {

class RawValueSortProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};

} // namespace scopeline
