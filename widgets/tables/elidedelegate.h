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
    // dropIntervals: where the text does not fit, its bracketed intervals go first ("+4.5 % [+3.3, +5.7],
    // B slower" reads "+4.5 %, B slower"), so that a verdict after them is never what is cut.
    explicit ElideDelegate(Qt::TextElideMode mode, QObject *parent = nullptr, bool dropIntervals = false);

    // text as it fits in width pixels of metrics, with the intervals dropped first
    static QString withoutIntervalsToFit(const QString &text, const QFontMetrics &metrics, int width);
    bool dropsIntervals() const { return m_dropIntervals; }

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    Qt::TextElideMode m_mode;
    bool m_dropIntervals;
};

} // namespace scopeline
