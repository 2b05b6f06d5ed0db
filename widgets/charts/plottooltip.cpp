// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/plottooltip.h"

#include <qcustomplot.h>

#include <QHelpEvent>
#include <QToolTip>

namespace scopeline {

namespace {

class ToolTipFilter : public QObject
{
public:
    ToolTipFilter(QCustomPlot *plot, std::function<QString(const QPoint &)> textAt)
        : QObject(plot), m_plot(plot), m_textAt(std::move(textAt))
    {}

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched != m_plot || event->type() != QEvent::ToolTip)
            return QObject::eventFilter(watched, event);
        const auto *help = static_cast<QHelpEvent *>(event);
        const QString text = m_textAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, m_plot);
        return true;
    }

private:
    QCustomPlot *m_plot;
    std::function<QString(const QPoint &)> m_textAt;
};

} // namespace

void showToolTipsBy(QCustomPlot *plot, std::function<QString(const QPoint &)> textAt)
{
    plot->installEventFilter(new ToolTipFilter(plot, std::move(textAt)));
}

} // namespace scopeline
