// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An item delegate that elides its column's text its own way: a table elides kernel names in the
// middle (their ends tell them apart) but a verdict at the end (its start is the verdict).

#include <QStyledItemDelegate>

namespace scopeline {

class ElideDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit ElideDelegate(Qt::TextElideMode mode, QObject *parent = nullptr);

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    Qt::TextElideMode m_mode;
};

} // namespace scopeline
