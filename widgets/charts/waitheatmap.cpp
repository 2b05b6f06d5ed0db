// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/waitheatmap.h"

#include "widgets/charts/durationunit.h"
#include "widgets/charts/plottheme.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>

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
    rebuild();
}

void WaitHeatmap::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild();
}

void WaitHeatmap::setCollectives(const RunCollectives *run)
{
    m_run = run;
    rebuild();
}

void WaitHeatmap::rebuild()
{
    applyPalette(m_plot, palette());
    const int collectives = m_run ? int(m_run->waitsNs.size()) : 0;
    const int ranks = m_run ? int(m_run->ranksInOrder.size()) : 0;
    double largest = 0;
    if (m_run)
        for (const std::vector<double> &waits : m_run->waitsNs)
            for (double w : waits)
                largest = std::max(largest, w);
    const DurationUnit unit = DurationUnit::fitting(largest);
    m_map->data()->setSize(std::max(1, collectives), std::max(1, ranks));
    m_map->data()->setRange(QCPRange(0, std::max(1, collectives) - 1), QCPRange(0, std::max(1, ranks) - 1));
    m_map->data()->fill(0);
    for (int c = 0; c < collectives; ++c)
        for (int r = 0; r < ranks; ++r)
            m_map->data()->setCell(c, r, m_run->waitsNs[std::size_t(c)][std::size_t(r)] / unit.ns);
    m_map->setDataRange(QCPRange(0, largest > 0 ? largest / unit.ns : 1));
    m_map->colorScale()->axis()->setLabel(tr("wait (%1)").arg(unit.name));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int r = 0; r < ranks; ++r)
        ticker->addTick(r, tr("rank %1").arg(m_run->ranksInOrder[std::size_t(r)]));
    m_plot->yAxis->setTicker(ticker);
    m_plot->xAxis->setRange(-0.5, std::max(1, collectives) - 0.5);
    m_plot->yAxis->setRange(-0.5, std::max(1, ranks) - 0.5);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace scopeline
