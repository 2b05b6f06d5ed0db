// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/tables/elidedelegate.h"

namespace scopeline {

ElideDelegate::ElideDelegate(Qt::TextElideMode mode, QObject *parent)
    : QStyledItemDelegate(parent), m_mode(mode)
{}

void ElideDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    option->textElideMode = m_mode; // after the view's mode, which the base copied in
}

} // namespace scopeline
