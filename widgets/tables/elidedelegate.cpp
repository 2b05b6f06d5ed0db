// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/tables/elidedelegate.h"

#include <QApplication>
#include <QRegularExpression>
#include <QStyle>

namespace scopeline {

ElideDelegate::ElideDelegate(Qt::TextElideMode mode, QObject *parent, bool dropIntervals)
    : QStyledItemDelegate(parent), m_mode(mode), m_dropIntervals(dropIntervals)
{}

QString ElideDelegate::withoutIntervalsToFit(const QString &text, const QFontMetrics &metrics, int width)
{
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    static const QRegularExpression interval(QStringLiteral(" ?\\[[^\\]]*\\]"));
    return QString(text).remove(interval);
}

void ElideDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    option->textElideMode = m_mode; // after the view's mode, which the base copied in
    if (m_dropIntervals) {
        const QStyle *style = option->widget ? option->widget->style() : QApplication::style();
        const int margin =
            2 * (style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, option->widget) + 1);
        option->text =
            withoutIntervalsToFit(option->text, option->fontMetrics, option->rect.width() - margin);
    }
}

} // namespace scopeline
