// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/steptimechart.h"

#include "widgets/charts/durationunit.h"
#include "widgets/charts/plottooltip.h"

#include "model/tables/durationformat.h"
#include "model/comparison/stepbreakdown.h"

#include <qcustomplot.h>

#include <QMouseEvent>
#include <QVBoxLayout>

#include <algorithm>

namespace scopeline {

namespace {
constexpr double kToolTipPixels = 8; // how near a point the mouse must be for its tooltip
constexpr int kTitledHeight = 180;   // shorter, the axes' titles would take the plot's height

// Whole steps or runs; short of room for the axis title, each tick says which ("step 3")
class CountTicker : public QCPAxisTickerFixed
{
public:
    QString prefix;

protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar format, int precision) override
    {
        return prefix + QCPAxisTickerFixed::getTickLabel(tick, locale, format, precision);
    }
};
} // namespace

StepTimeChart::StepTimeChart(QWidget *parent) : QWidget(parent)
{
    m_plot = new QCustomPlot(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(110);
    auto ticker = QSharedPointer<CountTicker>::create();
    ticker->setTickStep(1); // steps are whole
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->xAxis->setTicker(ticker);
    // steps and runs are counted from 0: a solid line at the first read as one joining its points
    m_plot->xAxis->grid()->setZeroLinePen(Qt::NoPen);
    // the legend in a row of its own above the plot, so that it never covers a line
    QCPLegend *legend = m_plot->legend;
    m_plot->axisRect()->insetLayout()->take(legend);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setColumnSpacing(20);
    legend->setMargins(QMargins(6, 2, 6, 0));
    legend->setVisible(true);
    // the plot right under the legend: the top axis is hidden, its automatic margin only room lost
    m_plot->axisRect()->setAutoMargins(QCP::msLeft | QCP::msRight | QCP::msBottom);
    m_plot->axisRect()->setMargins(QMargins(0, 8, 0, 0));
    m_plot->installEventFilter(this); // a click on a point, and ticks that fit its height
    showToolTipsBy(m_plot, [this](const QPoint &pos) { return stepToolTip(pos); });
    m_theme = applyPalette(m_plot, palette());
    rebuild();
}

void StepTimeChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        m_theme = applyPalette(m_plot, palette());
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void StepTimeChart::setBreakdown(const StepBreakdown *breakdown)
{
    m_breakdown = breakdown;
    rebuild();
}

void StepTimeChart::setLabels(const QString &labelA, const QString &labelB)
{
    m_labels[0] = labelA;
    m_labels[1] = labelB;
    rebuild();
}

void StepTimeChart::rebuild()
{
    m_plot->clearGraphs();
    double largest = 0;
    std::size_t steps = 1, runs = 1;
    bool ranks = false; // a side's runs span GPUs: each rank's steps are a line of their own
    // Each entry's run, in order: a multi-GPU run's ranks share theirs (they are one run, not several).
    std::vector<double> runOf[2];
    if (m_breakdown)
        for (int side = 0; side < 2; ++side) {
            QStringList ranked;
            double next = 0;
            for (const RunSteps &run : side == 0 ? m_breakdown->runsA() : m_breakdown->runsB()) {
                ranks = ranks || !run.origin.rankedRun.isEmpty();
                const qsizetype seen =
                    run.origin.rankedRun.isEmpty() ? -1 : ranked.indexOf(run.origin.rankedRun);
                runOf[side].push_back(seen >= 0 ? double(seen) : next);
                if (seen < 0) {
                    ranked << run.origin.rankedRun; // an empty name for a run alone keeps the count
                    ++next;
                }
            }
            runs = std::max(runs, std::size_t(next));
        }
    if (m_breakdown)
        for (const std::vector<RunSteps> *side : {&m_breakdown->runsA(), &m_breakdown->runsB()}) {
            for (const RunSteps &run : *side) {
                steps = std::max(steps, run.steps.size());
                for (const StepInstance &step : run.steps)
                    largest = std::max(largest, double(step.parts[std::size_t(StepPart::Step)]));
            }
        }
    // Runs of one step each (the whole run as the step): each run's point at its place among the
    // side's runs, rather than every run's at step 0, one column of dots.
    const bool byRun = steps == 1 && runs > 1;
    const DurationUnit unit = DurationUnit::fitting(largest);
    m_unitNs = unit.ns;
    if (m_breakdown)
        for (int side = 0; side < 2; ++side) {
            QColor colour = dataColour(side == 0 ? DataColour::SideA : DataColour::SideB);
            colour.setAlpha(190); // overlapping runs show through
            bool named = false;
            std::size_t entry = 0;
            for (const RunSteps &run : side == 0 ? m_breakdown->runsA() : m_breakdown->runsB()) {
                const double runIndex = runOf[side][entry++];
                QCPGraph *graph = m_plot->addGraph();
                const QString sideName = side == 0 ? QStringLiteral("A") : QStringLiteral("B");
                // QCustomPlot's legend cuts a long name at the pane's edge: elided in the middle instead
                const QString &label = m_labels[side];
                const QString shown =
                    label.size() > 36 ? label.left(17) + QStringLiteral("…") + label.right(18) : label;
                graph->setName(label.isEmpty() ? sideName : sideName + QStringLiteral(": ") + shown);
                graph->setPen(QPen(colour, 1.5));
                graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4)); // a one-step run shows
                for (std::size_t i = 0; i < run.steps.size(); ++i)
                    graph->addData(byRun ? runIndex : double(i),
                                   double(run.steps[i].parts[std::size_t(StepPart::Step)]) / unit.ns);
                if (named)
                    graph->removeFromLegend(); // one entry per side
                named = true;
            }
        }
    // Nothing to draw: a line that says so, in place of empty axes and an empty legend. An empty
    // legend caps the width of its layout column, the plot's, at its own: out of the layout then.
    const bool empty = largest <= 0;
    m_plot->clearItems();
    QCPLayoutGrid *layout = m_plot->plotLayout();
    if (empty && m_plot->legend->layout() == layout) {
        layout->take(m_plot->legend);
        layout->simplify();
    } else if (!empty && m_plot->legend->layout() != layout) {
        layout->insertRow(0);
        layout->addElement(0, 0, m_plot->legend);
        layout->setRowStretchFactor(0, 0.001);
    }
    m_plot->legend->setVisible(!empty); // out of the layout, it would still paint
    m_plot->xAxis->setVisible(!empty);
    m_plot->yAxis->setVisible(!empty);
    if (empty) {
        auto *text = new QCPItemText(m_plot);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.5, 0.5);
        text->setText(m_breakdown ? tr("No step with kernels on either side")
                                  : tr("Open a pair of traces to see each step's time"));
        text->setColor(m_theme.dimText);
    }
    m_stepTitle = byRun   ? (ranks ? tr("run (in order; one step each, each rank a point)")
                                   : tr("run (in order; one step each)"))
                  : ranks ? tr("step index (in run order; each rank a line)")
                          : tr("step index (in run order)");
    m_tickPrefix = byRun ? tr("run ") : tr("step ");
    m_unitName = unit.name;
    titleAxes();
    m_plot->xAxis->setRange(-0.5, double(byRun ? runs : steps) - 0.5);
    m_plot->yAxis->setRange(0, largest > 0 ? 1.1 * largest / unit.ns : 1);
    applyPalette(m_plot, palette()); // the legend's new entries
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool StepTimeChart::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::Resize) {
        // As many value ticks as the height holds apart (a short chart got five, on top of each other),
        // two at least, exactly: a lone "0" gave no scale at 1366 x 768.
        m_plot->yAxis->ticker()->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
        titleAxes();
        m_plot->yAxis->ticker()->setTickCount(std::max(2, valueTicksThatFit(m_plot->height() - 70)));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    if (watched != m_plot || !m_breakdown)
        return QWidget::eventFilter(watched, event);
    int side = 0, index = 0;
    const RunSteps *run = nullptr;
    if (event->type() == QEvent::MouseButtonPress) {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        if (mouse->button() == Qt::LeftButton && pointAt(mouse->pos(), side, run, index)) {
            const StepInstance &step = run->steps[std::size_t(index)];
            emit stepClicked(side, run->run, step.start, step.end);
            return true;
        }
        return QWidget::eventFilter(watched, event);
    }
    return QWidget::eventFilter(watched, event);
}

QString StepTimeChart::stepToolTip(const QPoint &pos) const
{
    int side = 0, index = 0;
    const RunSteps *run = nullptr;
    if (!m_breakdown || !pointAt(pos, side, run, index))
        return {};
    const StepInstance &step = run->steps[std::size_t(index)];
    const QString sideName = side == 0 ? QStringLiteral("A") : QStringLiteral("B");
    // one arg() for all: a label's or run's own "%1" is not a place to fill
    return tr("%1 — %2, step %3: %4\n%5 kernels, GPU busy %6\nClick: this step in the timeline")
        .arg(m_labels[side].isEmpty() ? sideName : sideName + QStringLiteral(": ") + m_labels[side], run->run,
             QString::number(index), formatDuration(double(step.parts[std::size_t(StepPart::Step)])),
             QString::number(step.kernels), formatDuration(double(step.parts[std::size_t(StepPart::Busy)])));
}

void StepTimeChart::titleAxes()
{
    const bool tall = !m_plot->isVisible() || m_plot->height() >= kTitledHeight; // unshown: not sized yet
    m_plot->xAxis->setLabel(tall ? m_stepTitle : QString());
    static_cast<CountTicker *>(m_plot->xAxis->ticker().data())->prefix = tall ? QString() : m_tickPrefix;
    m_plot->yAxis->setLabel(tall ? tr("step time (%1)").arg(m_unitName) : m_unitName);
}

bool StepTimeChart::pointAt(const QPoint &pos, int &side, const RunSteps *&run, int &step) const
{
    int nearestGraph = -1;
    double nearest = kToolTipPixels;
    for (int g = 0; g < m_plot->graphCount(); ++g) {
        QVariant details;
        const double distance = m_plot->graph(g)->selectTest(pos, false, &details);
        const QCPDataSelection selection = details.value<QCPDataSelection>();
        if (distance >= 0 && distance < nearest && !selection.isEmpty()) {
            nearest = distance;
            nearestGraph = g;
            step = selection.dataRange().begin();
        }
    }
    if (nearestGraph < 0)
        return false;
    const std::size_t runsA = m_breakdown->runsA().size();
    side = std::size_t(nearestGraph) < runsA ? 0 : 1;
    run = side == 0 ? &m_breakdown->runsA()[std::size_t(nearestGraph)]
                    : &m_breakdown->runsB()[std::size_t(nearestGraph) - runsA];
    return true;
}

} // namespace scopeline
