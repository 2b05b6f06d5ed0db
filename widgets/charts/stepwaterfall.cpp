// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/stepwaterfall.h"
#include "widgets/charts/plottooltip.h"

#include "widgets/tables/comparisontablemodel.h"

#include "model/tables/durationformat.h"
#include "model/tables/tableformat.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace scopeline {

namespace {

bool isCause(StepPart part)
{
    return part == StepPart::LaunchLate || part == StepPart::GpuWaiting || part == StepPart::Unknown;
}

// A tested row's finding (a step row has no side of its own: only B faster or slower).
bool isFinding(const StepRow &row)
{
    return row.reason.isEmpty() && scopeline::isFinding(row.verdict);
}

QColor verdictColour(const StepRow &row)
{
    const int sign = row.reason.isEmpty() ? findingSign(row.verdict, row.delta) : 0;
    return dataColour(sign == 0 ? DataColour::Unchanged : sign < 0 ? DataColour::Less : DataColour::More);
}

} // namespace

StepWaterfall::StepWaterfall(QWidget *parent) : QWidget(parent)
{
    m_plot = new QCustomPlot(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(minimumHeight(int(kBarParts.size())));
    m_plot->yAxis->setRangeReversed(true);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->yAxis->setSubTicks(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->xAxis->grid()->setPen(QPen(Qt::black, 1, Qt::DashLine)); // coloured by applyPalette()
    showToolTipsBy(m_plot, [this](const QPoint &pos) {               // a tooltip per bar
        const int bar = waterfallBarAt(m_plot, pos, int(m_bars.size()));
        return bar < 0 ? QString() : toolTip(bar);
    });
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *event) {
        const int bar = waterfallBarAt(m_plot, event->pos(), int(m_bars.size()));
        const StepPart part = bar >= 0 ? m_parts[std::size_t(bar)] : StepPart::Step;
        setSelectedCause(isCause(part) && int(part) != m_selected ? int(part) : -1);
    });
    m_theme = applyPalette(m_plot, palette());
    rebuild();
}

// The bars with their labels apart: six (one GPU) in 108 px, seven (busy split by communication) in
// 112, what a 768 px screen leaves the step.
int StepWaterfall::minimumHeight(int bars)
{
    return std::max(108, 16 * bars);
}

void StepWaterfall::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        m_theme = applyPalette(m_plot, palette());
        rebuild(); // the bars and labels are items, coloured when made
    }
}

void StepWaterfall::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    rebuild(); // the room for the value labels is in pixels
}

void StepWaterfall::setBreakdown(const StepBreakdown *breakdown)
{
    m_breakdown = breakdown;
    m_selected = -1;
    rebuild();
}

void StepWaterfall::setSelectedCause(int part)
{
    if (part == m_selected)
        return;
    m_selected = part;
    rebuild();
    emit selectedCauseChanged(part);
}

void StepWaterfall::rebuild()
{
    m_bars.clear();
    const StepRow *step = m_breakdown ? &m_breakdown->row(StepPart::Step) : nullptr;
    if (!step || step->unitsA == 0 || step->unitsB == 0) {
        drawWaterfallHint(m_plot, m_theme,
                          step ? tr("No step with kernels on a side: pick another step scope")
                               : tr("Open a pair of traces to see where the step's time went"));
        return;
    }
    m_parts.assign(kBarParts.begin(), kBarParts.end());
    if (m_breakdown->hasCommunication()) { // busy in its two parts
        m_parts[1] = StepPart::Compute;
        m_parts.insert(m_parts.begin() + 2, StepPart::ExposedComm);
    }
    // each bar and its label a line apart, whatever their number
    m_plot->setMinimumHeight(minimumHeight(int(m_parts.size())));
    const QColor total = dataColour(DataColour::Total);
    m_bars.push_back({tr("A: step time"), formatDuration(step->meanA), 0, step->meanA, total, true});
    double running = step->meanA;
    for (std::size_t i = 1; i + 1 < m_parts.size(); ++i) {
        const StepRow &row = m_breakdown->row(m_parts[i]);
        QString value = formatSignedDuration(row.delta);
        if (isFinding(row))
            value += QStringLiteral(" · ") + row.verdictText();
        m_bars.push_back({QStringLiteral("Δ ") + stepPartTitle(row.part), value, running, running + row.delta,
                          verdictColour(row), false, int(row.part) == m_selected, row.ciLow, row.ciHigh});
        running += row.delta;
    }
    m_bars.push_back({tr("B: step time"), formatDuration(step->meanB), 0, step->meanB, total, true});
    drawWaterfall(m_plot, m_theme, m_bars, tr("time per step (%1)"));
}

QString StepWaterfall::toolTip(int bar) const
{
    const StepPart part = m_parts[std::size_t(bar)];
    const StepRow &row = m_breakdown->row(part);
    const QString scope = m_breakdown->stepScope().isEmpty() ? tr("the whole run") : m_breakdown->stepScope();
    if (bar == 0 || bar + 1 == int(m_parts.size())) {
        const bool a = bar == 0;
        return tr("%1: step time (%2), mean per step %3\n%4 runs, %5 steps")
            .arg(a ? QStringLiteral("A") : QStringLiteral("B"), scope,
                 formatDuration(a ? row.meanA : row.meanB))
            .arg(a ? row.runsA : row.runsB)
            .arg(a ? row.stepsA : row.stepsB);
    }
    // The interval at the level the verdict is judged: the step time's alone, its parts' Holm's.
    QString text = tr("%1 per step: A %2 → B %3\nΔ %4, %5 CI [%6, %7], p (%8) %9\n%10")
                       .arg(stepPartTitle(part), formatDuration(row.meanA), formatDuration(row.meanB),
                            formatSignedDuration(row.delta), formatPercent(row.ciLevel),
                            formatSignedDuration(row.ciLow), formatSignedDuration(row.ciHigh),
                            part == StepPart::Step ? tr("alone") : tr("Holm over the parts"),
                            formatPValue(row.p), row.verdictText());
    if (isCause(part))
        text += QLatin1Char('\n') + (int(part) == m_selected
                                         ? tr("Click to clear the highlight")
                                         : tr("Click to highlight these gaps in both timelines"));
    return text;
}

} // namespace scopeline
