// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/tables/rawvaluesortproxy.h"

#include <cmath>

namespace scopeline {

bool RawValueSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant l = left.data(sortRole()), r = right.data(sortRole());
    if (l.typeId() == QMetaType::Double && r.typeId() == QMetaType::Double) {
        const double a = l.toDouble(), b = r.toDouble();
        if (std::isnan(a) || std::isnan(b))
            return !std::isnan(a) && std::isnan(b);
        return a < b;
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace scopeline
