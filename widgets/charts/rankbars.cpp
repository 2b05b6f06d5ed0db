// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/rankbars.h"

#include "widgets/charts/durationunit.h"
#include "widgets/charts/plottooltip.h"

#include "model/tables/durationformat.h"
#include "model/tables/tableformat.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <cmath>

namespace scopeline {

RankBars::RankBars(QWidget *parent) : QWidget(parent)
{
    m_plot = new QCustomPlot(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(140);
    m_plot->yAxis->setRangeReversed(true);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->yAxis->setSubTicks(false);
    m_plot->yAxis->setTickLength(0, 0); // a rank's tick would be drawn over its compute segment
    // the legend in a row of its own above the bars, never over them
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    // the bars' height is known once laid out: label as many ranks as fit then
    connect(m_plot, &QCustomPlot::afterLayout, this, &RankBars::labelRanks);
    m_plot->setToolTip(tr("Each rank's mean step: compute (the union of its non-communication kernels), "
                          "exposed communication (only communication runs) and idle. A rank's step includes "
                          "its waits at collectives, so the longest bar is often the rank that waits most; "
                          "the rank the others wait for is the one that arrives last (Per rank table)."));
    showToolTipsBy(m_plot, [this](const QPoint &pos) { // a tooltip per rank; off the bars, what they are
        const int row = m_plot->axisRect()->rect().contains(pos)
                            ? int(std::lround(m_plot->yAxis->pixelToCoord(pos.y())))
                            : -1;
        const QString tip = rankToolTip(row);
        return tip.isEmpty() ? m_plot->toolTip() : tip;
    });
    rebuild();
}

QString RankBars::rankToolTip(int row) const
{
    if (row < 0 || row >= int(m_rows.size()))
        return {};
    const RankRow &r = m_rows[std::size_t(row)];
    QString text =
        tr("rank %1 of %2, mean per step over %3 step(s): %4\ncompute %5, exposed communication %6, "
           "idle %7")
            .arg(r.rank)
            .arg(r.run)
            .arg(r.steps)
            .arg(formatDuration(r.stepNs), formatDuration(r.computeNs), formatDuration(r.exposedCommNs),
                 formatDuration(r.idleNs));
    // the wait is per step, as the bars are; the collectives are counted over the steps
    if (r.collectives > 0 && std::isnan(r.collectiveWaitNs))
        text += tr("\n%n matched collective(s) in its steps; waits not measured (the notes say why)", nullptr,
                   r.collectives);
    else if (r.collectives > 0)
        text +=
            tr("\nwaited %1 a step at collectives (%2 matched over its steps); arrived last at %3 of them")
                .arg(formatDuration(r.collectiveWaitNs))
                .arg(r.collectives)
                .arg(formatPercent(r.arrivedLastShare));
    return text;
}

void RankBars::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild();
}

void RankBars::labelRanks()
{
    // the bars' room: the plot less the legend's row and the axis, as laid out last
    const int every = labelStep(int(m_labels.size()), m_plot->axisRect()->height(),
                                QFontMetricsF(m_plot->yAxis->tickLabelFont()).height());
    if (every == m_labelEvery)
        return;
    m_labelEvery = every;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < m_labels.size(); i += every)
        ticker->addTick(double(i), m_labels[i]);
    m_plot->yAxis->setTicker(ticker);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RankBars::setRows(const std::vector<RankRow> &rows)
{
    m_rows = rows;
    rebuild();
}

void RankBars::setScale(double ns)
{
    m_scaleNs = ns;
    rebuild();
}

void RankBars::rebuild()
{
    m_plot->clearPlottables();
    m_labels.clear();
    const PlotTheme theme = applyPalette(m_plot, palette());
    double largest = m_scaleNs;
    for (const RankRow &r : m_rows)
        if (!std::isnan(r.stepNs))
            largest = std::max(largest, r.stepNs);
    const DurationUnit unit = DurationUnit::fitting(largest);
    struct Part
    {
        QString name;
        double RankRow::*field;
        QColor colour;
    };
    const Part parts[] = {{tr("compute"), &RankRow::computeNs, dataColour(DataColour::SideA)},
                          {tr("exposed communication"), &RankRow::exposedCommNs, QColor(0xc2, 0x18, 0x8b)},
                          {tr("idle"), &RankRow::idleNs, dataColour(DataColour::Unchanged)}};
    QCPBars *below = nullptr;
    for (const Part &part : parts) {
        auto *bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
        bars->setName(part.name);
        bars->setBrush(part.colour);
        bars->setPen(QPen(theme.edge(part.colour, 130)));
        bars->setWidth(0.7);
        if (below)
            bars->moveAbove(below);
        below = bars;
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            const double v = m_rows[i].*part.field;
            bars->addData(double(i), std::isnan(v) ? 0 : v / unit.ns);
        }
    }
    for (const RankRow &r : m_rows)
        m_labels << tr("rank %1").arg(r.rank);
    m_labelEvery = 0;
    labelRanks();
    m_plot->yAxis->setRange(-0.6, std::max<double>(1, double(m_rows.size())) - 0.4);
    m_plot->xAxis->setRange(0, largest > 0 ? 1.05 * largest / unit.ns : 1);
    m_plot->xAxis->setLabel(tr("mean per step (%1)").arg(unit.name));
    m_plot->legend->setVisible(!m_rows.empty());
    applyPalette(m_plot, palette()); // the legend's new entries
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace scopeline
