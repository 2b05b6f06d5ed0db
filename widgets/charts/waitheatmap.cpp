// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/waitheatmap.h"

#include "widgets/charts/durationunit.h"
#include "widgets/charts/plottheme.h"

#include "model/tables/durationformat.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace scopeline {

WaitHeatmap::WaitHeatmap(QWidget *parent) : QWidget(parent)
{
    m_plot = new QCustomPlot(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(120);
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    auto *scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(0, 1, scale);
    m_map->setColorScale(scale);
    QCPColorGradient gradient(QCPColorGradient::gpHot);
    gradient.setLevelCount(64);
    m_map->setGradient(gradient.inverted());
    m_map->setInterpolate(false);
    m_plot->yAxis->setRangeReversed(true);
    m_plot->xAxis->setLabel(tr("collective, in the order it ran"));
    m_plot->setToolTip(tr("How long each rank waited at each collective: the latest rank's start minus its own. "
                          "The rank that never waits while the others do holds the step back."));
    m_empty = new QCPItemText(m_plot);
    m_empty->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_empty->position->setCoords(0.5, 0.5);
    m_empty->setClipToAxisRect(false);
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        int collective = -1, row = -1;
        m_map->data()->coordToCell(m_plot->xAxis->pixelToCoord(event->position().x()),
                                   m_plot->yAxis->pixelToCoord(event->position().y()), &collective, &row);
        const QString text = m_plot->axisRect()->rect().contains(event->position().toPoint())
                                 ? cellText(collective, row)
                                 : QString();
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
    });
    rebuild();
}

QString WaitHeatmap::collectiveLabel(int collective) const
{
    if (!m_run || collective < 0 || collective >= int(m_run->collectiveNames.size()))
        return {};
    const QString &name = m_run->collectiveNames[std::size_t(collective)];
    const QString kind = m_run->collectiveKinds.size() > std::size_t(collective)
                             ? m_run->collectiveKinds[std::size_t(collective)]
                             : QString();
    return QStringLiteral("%1 %2").arg(collective + 1).arg(kind.isEmpty() ? name : kind);
}

QString WaitHeatmap::emptyText() const
{
    if (!m_run || !m_run->waitsNs.empty())
        return {};
    if (m_run->matched == 0)
        return tr("No collective matched across the ranks of %1: no waits to show").arg(m_run->run);
    return tr("Waits not measured: %1's matched collectives end %2 apart at the median, so the ranks' "
              "clocks disagree")
        .arg(m_run->run, formatDuration(m_run->medianEndSpreadNs));
}

QString WaitHeatmap::cellText(int collective, int rankRow) const
{
    if (!m_run || collective < 0 || collective >= int(m_run->waitsNs.size()) || rankRow < 0 ||
        rankRow >= int(m_run->ranksInOrder.size()))
        return {};
    const double wait = m_run->waitsNs[std::size_t(collective)][std::size_t(rankRow)];
    return tr("rank %1 at collective %2 of %3, %4:\n%5")
        .arg(m_run->ranksInOrder[std::size_t(rankRow)])
        .arg(collective + 1)
        .arg(m_run->waitsNs.size())
        .arg(m_run->collectiveGroups[std::size_t(collective)].isEmpty()
                 ? m_run->collectiveNames[std::size_t(collective)]
                 : tr("%1 in process group %2")
                       .arg(m_run->collectiveNames[std::size_t(collective)],
                            m_run->collectiveGroups[std::size_t(collective)]))
        .arg(std::isnan(wait) ? tr("not of its process group") : tr("waited %1").arg(formatDuration(wait)));
}

void WaitHeatmap::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild();
}

void WaitHeatmap::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    rebuild(); // as many collectives named as fit
}

void WaitHeatmap::setCollectives(const RunCollectives *run)
{
    m_run = run;
    rebuild();
}

void WaitHeatmap::rebuild()
{
    applyPalette(m_plot, palette());
    // a rank outside a collective's process group: a colour of its own, neither no wait nor a long one
    QCPColorGradient gradient = m_map->gradient();
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(palette().color(QPalette::Mid));
    m_map->setGradient(gradient);
    const int collectives = m_run ? int(m_run->waitsNs.size()) : 0;
    const int ranks = m_run ? int(m_run->ranksInOrder.size()) : 0;
    double largest = 0;
    if (m_run)
        for (const std::vector<double> &waits : m_run->waitsNs)
            for (double w : waits)
                if (!std::isnan(w)) // a rank outside the collective's group
                    largest = std::max(largest, w);
    const DurationUnit unit = DurationUnit::fitting(largest);
    m_map->data()->setSize(std::max(1, collectives), std::max(1, ranks));
    m_map->data()->setRange(QCPRange(0, std::max(1, collectives) - 1), QCPRange(0, std::max(1, ranks) - 1));
    m_map->data()->fill(0);
    for (int c = 0; c < collectives; ++c)
        for (int r = 0; r < ranks; ++r)
            m_map->data()->setCell(c, r, m_run->waitsNs[std::size_t(c)][std::size_t(r)] / unit.ns);
    m_map->setDataRange(QCPRange(0, largest > 0 ? largest / unit.ns : 1));
    const QString empty = emptyText();
    m_empty->setText(empty);
    m_empty->setColor(palette().color(QPalette::WindowText));
    m_empty->setVisible(!empty.isEmpty());
    m_map->colorScale()->setVisible(empty.isEmpty());
    m_map->colorScale()->axis()->setLabel(tr("wait (%1)").arg(unit.name));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    // the map's height: the plot's less the axis and its title, about four lines
    const double line = QFontMetricsF(m_plot->yAxis->tickLabelFont()).height();
    for (int r = 0, every = labelStep(ranks, height() - 4 * line, line); r < ranks; r += every)
        ticker->addTick(r, tr("rank %1").arg(m_run->ranksInOrder[std::size_t(r)]));
    m_plot->yAxis->setTicker(ticker);
    // the collectives by number and kind, every n-th where the widest label needs n collectives' room
    // (the map's width: the plot's less the rank labels and the colour scale)
    auto names = QSharedPointer<QCPAxisTickerText>::create();
    const QFontMetrics metrics(m_plot->xAxis->tickLabelFont());
    int widest = 0;
    for (int c = 0; c < collectives; ++c)
        widest = std::max(widest, metrics.horizontalAdvance(collectiveLabel(c)));
    const double perCollective = double(std::max(1, width() - 160)) / std::max(1, collectives);
    const int every = std::max(1, int(std::ceil((widest + 2 * metrics.averageCharWidth()) / perCollective)));
    for (int c = 0; c < collectives; c += every)
        names->addTick(c, collectiveLabel(c));
    m_plot->xAxis->setTicker(names);
    m_plot->xAxis->setRange(-0.5, std::max(1, collectives) - 0.5);
    m_plot->yAxis->setRange(-0.5, std::max(1, ranks) - 0.5);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace scopeline
