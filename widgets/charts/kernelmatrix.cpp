// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/kernelmatrix.h"

#include "model/tables/kernelnames.h"
#include "model/tables/tableformat.h"
#include "widgets/charts/plottheme.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace scopeline {

KernelMatrix::KernelMatrix(QWidget *parent) : QWidget(parent)
{
    m_plot = new QCustomPlot(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(160);
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    auto *scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(0, 1, scale);
    m_map->setColorScale(scale);
    QCPColorGradient gradient;
    gradient.setColorStopAt(0, dataColour(DataColour::Less));
    gradient.setColorStopAt(0.5, QColor(0xf7, 0xf7, 0xf7));
    gradient.setColorStopAt(1, dataColour(DataColour::More));
    gradient.setLevelCount(64);
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(QColor(0xb0, 0xb0, 0xb0));
    m_map->setGradient(gradient);
    m_map->setInterpolate(false);
    m_map->setDataRange(QCPRange(-100 * kLimit, 100 * kLimit));
    scale->axis()->setLabel(tr("Δ time per run (%)"));
    m_plot->yAxis->setRangeReversed(true);
    // the cells' room is known once laid out: as many kernels as have room for their names then
    connect(m_plot, &QCustomPlot::afterLayout, this, &KernelMatrix::fitToPlot);
    m_plot->setToolTip(
        tr("Each kernel's GPU time per run in each candidate against the baseline: green less, "
           "red more, the scale fitted to the significant changes; “new” and “gone” kernels at "
           "its ends, grey where there is no verdict, “–” where the kernel is on neither side. "
           "Holm over kernels × candidates."));
    rebuild();
}

void KernelMatrix::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild();
}

void KernelMatrix::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_plot->replot(QCustomPlot::rpQueuedReplot); // laid out again, now at its size: fitToPlot()
}

void KernelMatrix::setDiff(const VariantDiff *diff, int rows)
{
    m_diff = diff;
    m_rows = rows;
    rebuild();
}

double KernelMatrix::cellValue(const KernelDiffRow *cell)
{
    if (!cell)
        return std::nan("");
    switch (cell->verdict) {
    case Verdict::OnlyInA:
        return -kLimit;
    case Verdict::OnlyInB:
        return kLimit;
    case Verdict::Faster:
    case Verdict::Slower:
        return std::clamp(cell->runLevel.change, -kLimit, kLimit);
    default:
        return std::nan("");
    }
}

void KernelMatrix::fitToPlot()
{
    // 24 kernels' names overprinted one another at 1366×768, long candidates' names each other
    if (!m_plot->isVisible())
        return; // not laid out at its size
    const int fitting =
        std::max(1, m_plot->axisRect()->height() / QFontMetrics(m_plot->yAxis->tickLabelFont()).height());
    const int axisWidth = m_plot->axisRect()->width();
    if (fitting == m_fittingRows && axisWidth == m_axisWidth)
        return;
    m_fittingRows = fitting;
    m_axisWidth = axisWidth;
    rebuild();
}

void KernelMatrix::rebuild()
{
    applyPalette(m_plot, palette());
    const int candidates = m_diff ? int(m_diff->diffs().size()) : 0;
    const int rows = m_diff ? std::min({m_rows, m_fittingRows, int(m_diff->rows().size())}) : 0;
    QStringList names;
    for (int r = 0; r < rows; ++r)
        names << m_diff->rows()[std::size_t(r)].kernel;
    m_kernels = names;
    const QStringList shown = distinctKernelNames(names, 40);
    m_map->data()->setSize(std::max(1, candidates), std::max(1, rows));
    m_map->data()->setRange(QCPRange(0, std::max(1, candidates) - 1), QCPRange(0, std::max(1, rows) - 1));
    m_map->data()->fill(std::nan(""));
    // The scale spans the largest significant change, not ±50 %: new and gone kernels, at its ends, had
    // left a +3 % call as pale as no change. Every cell with a verdict is lettered (its change, or new or
    // gone) where the columns have room, and so is a kernel on neither side, which grey (no verdict)
    // does not tell apart.
    m_plot->clearItems();
    double largest = 0.01;
    for (int c = 0; c < candidates; ++c)
        for (int r = 0; r < rows; ++r) {
            const KernelDiffRow *cell = m_diff->rows()[std::size_t(r)].cells[std::size_t(c)];
            if (cell && (cell->verdict == Verdict::Faster || cell->verdict == Verdict::Slower))
                largest = std::max(largest, std::fabs(cellValue(cell)));
        }
    m_map->setDataRange(QCPRange(-100 * largest, 100 * largest));
    const QFontMetrics metrics(m_plot->font());
    const bool room =
        m_axisWidth / std::max(1, candidates) > metrics.horizontalAdvance(QStringLiteral("−100.0 %")) + 4;
    for (int c = 0; c < candidates; ++c)
        for (int r = 0; r < rows; ++r) {
            const KernelDiffRow *cell = m_diff->rows()[std::size_t(r)].cells[std::size_t(c)];
            const double value = cellValue(cell);
            const bool oneSide =
                cell && (cell->verdict == Verdict::OnlyInA || cell->verdict == Verdict::OnlyInB);
            m_map->data()->setCell(c, r, 100 * (oneSide ? std::copysign(largest, value) : value));
            if (!room || (cell && std::isnan(value)))
                continue;
            auto *text = new QCPItemText(m_plot);
            text->position->setCoords(c, r);
            text->setText(!cell                               ? QStringLiteral("–")
                          : cell->verdict == Verdict::OnlyInB ? tr("new")
                          : cell->verdict == Verdict::OnlyInA ? tr("gone")
                                                              : formatChange(cell->runLevel.change, 1));
            // dark on the scale's light middle and on grey, light on its deep ends
            text->setColor(cell && std::fabs(oneSide ? largest : value) > 0.6 * largest ? Qt::white
                                                                                        : Qt::black);
            text->setClipToAxisRect(true);
        }
    QStringList columns;
    for (int c = 0; c < candidates; ++c)
        columns << m_diff->labels().value(c);
    m_plot->xAxis->setTicker(categoryTicker(columns, m_plot->xAxis->tickLabelFont(), m_axisWidth));
    auto kernels = QSharedPointer<QCPAxisTickerText>::create();
    for (int r = 0; r < rows; ++r)
        kernels->addTick(r, shown[r]);
    m_plot->yAxis->setTicker(kernels);
    m_plot->xAxis->setRange(-0.5, std::max(1, candidates) - 0.5);
    m_plot->yAxis->setRange(-0.5, std::max(1, rows) - 0.5);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace scopeline
