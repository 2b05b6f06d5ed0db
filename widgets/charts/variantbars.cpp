// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/variantbars.h"

#include "model/comparison/sweep.h"
#include "model/tables/durationformat.h"
#include "model/tables/kernelnames.h"
#include "widgets/charts/durationunit.h"
#include "widgets/charts/plottheme.h"
#include "widgets/charts/plottooltip.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace scopeline {

QColor VariantBars::partColour(StepPart part)
{
    switch (part) {
    case StepPart::Busy:
    case StepPart::Compute:
        return QColor(0x5b, 0x67, 0x7a);
    case StepPart::ExposedComm:
        return QColor(0xc2, 0x18, 0x8b);
    case StepPart::LaunchLate:
        return QColor(0xd0, 0x3a, 0x2a);
    case StepPart::GpuWaiting:
        return QColor(0x3c, 0x78, 0xd8);
    default:
        return dataColour(DataColour::Unchanged);
    }
}

VariantBars::VariantBars(QWidget *parent) : QWidget(parent)
{
    m_plot = new QCustomPlot(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(160);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->xAxis->setSubTicks(false);
    // the legend in a row of its own above the bars, never over them
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setWrap(3); // rows of three: the entries' names stay whole beside a table
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    // the bars' width is known once laid out: the variants' names are fitted under them then
    connect(m_plot, &QCustomPlot::afterLayout, this, &VariantBars::labelVariants);
    m_plot->setToolTip(
        tr("Each variant's mean step: GPU busy and idle by cause. The whisker on a candidate is "
           "the interval of its step beside its verdict: Fieller's interval of its ratio to the "
           "baseline, at the level the verdict is judged, times the baseline's mean step (none where "
           "that interval is unbounded)."));
    showToolTipsBy(m_plot, [this](const QPoint &pos) { // a variant's figures; off them, what the bars are
        const QString tip = variantToolTip(variantAt(pos));
        return tip.isEmpty() ? m_plot->toolTip() : tip;
    });
    rebuild();
}

int VariantBars::variantAt(const QPoint &pos) const
{
    const std::vector<double> steps = values(StepPart::Step);
    if (steps.empty() || !m_plot->axisRect()->rect().contains(pos))
        return -1;
    if (m_sweep.size() != steps.size()) { // bars at 0, 1, 2, …, 0.6 wide
        const double x = m_plot->xAxis->pixelToCoord(pos.x());
        const long i = std::lround(x);
        return i >= 0 && i < long(steps.size()) && std::fabs(x - double(i)) <= 0.3 ? int(i) : -1;
    }
    int nearest = -1; // a sweep's point within a few pixels
    double best = 12;
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (const double d = std::fabs(m_plot->xAxis->coordToPixel(m_sweep[i]) - pos.x()); d < best) {
            best = d;
            nearest = int(i);
        }
    return nearest;
}

QString VariantBars::variantToolTip(int variant) const
{
    const std::vector<double> steps = values(StepPart::Step);
    if (variant < 0 || variant >= int(steps.size()) || variant >= m_labels.size())
        return {};
    const StepBreakdown &pair = m_variants->comparisons()[std::size_t(std::max(0, variant - 1))];
    const StepRow &step = pair.row(StepPart::Step);
    QString text = variant == 0 ? tr("%1 (the baseline)").arg(m_labels[0]) : m_labels[variant];
    text += tr("\nmean step %1 over %2 step(s)")
                .arg(formatDuration(steps[std::size_t(variant)]))
                .arg(variant == 0 ? step.stepsA : step.stepsB);
    for (const StepPart part : m_parts)
        text += QStringLiteral("\n  %1: %2")
                    .arg(stepPartTitle(part), formatDuration(values(part)[std::size_t(variant)]));
    if (variant > 0)
        text += tr("\nagainst %1: %2").arg(m_labels[0], stepChangeText(step));
    if (variant > 0 && !std::isnan(step.ciLevel)) // the candidates' levels differ (Holm)
        text += tr("\nthe whisker: that interval, at %1 % (the level its verdict is judged)")
                    .arg(QString::number(100 * step.ciLevel, 'g', 4));
    return text;
}

void VariantBars::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild();
}

void VariantBars::setVariants(const VariantSteps *variants, const VariantDiff *kernels,
                              const QStringList &labels, const std::vector<double> &sweep)
{
    m_variants = variants;
    m_diff = kernels;
    m_labels = labels;
    m_sweep = sweep;
    rebuild();
}

void VariantBars::labelVariants()
{
    const int width = m_plot->axisRect()->width();
    if (width == m_labelWidth && shortPlot() == m_labelledShort)
        return;
    m_labelWidth = width;
    m_labelledShort = shortPlot();
    if (!m_sweep.empty() && m_sweep.size() == std::size_t(m_labels.size()))
        nameKernels(m_plot->width()); // a sweep's axis is the parameter's; its legend names kernels
    else
        m_plot->xAxis->setTicker(categoryTicker(m_labels, m_plot->xAxis->tickLabelFont(), width));
    fitLegendColumns();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool VariantBars::shortPlot() const
{
    return m_plot->height() < 280;
}

int VariantBars::kernelColumns() const
{
    return shortPlot() ? 3 : 2;
}

void VariantBars::fitLegendColumns()
{
    // two a row for the kernels' names (nameKernels fits them to it), three where the plot is short (a
    // laptop's screen: the legend's rows had left the lines 65 px); the parts' names whole, as many a
    // row as the plot's width holds, three at most
    int wrap = kernelColumns();
    if (m_kernels.isEmpty()) {
        QCPLegend *legend = m_plot->legend;
        const QFontMetrics metrics(legend->font());
        int widest = 0;
        for (int i = 0; i < legend->itemCount(); ++i)
            if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)))
                widest = std::max(widest, metrics.horizontalAdvance(item->plottable()->name()));
        const int column = legend->iconSize().width() + legend->iconTextPadding() + widest +
                           legend->columnSpacing() + 16; // the item's margins
        wrap = std::clamp(m_plot->width() / std::max(1, column), 1, 3);
    }
    if (m_plot->legend->wrap() != wrap) {
        m_plot->legend->setWrap(wrap);
        m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst, true); // laid out again at that wrap
    }
}

void VariantBars::nameKernels(int width)
{
    if (m_kernelGraphs.isEmpty())
        return;
    // a legend column: a share of the plot (kernelColumns a row), less the line's icon and its margins
    const QFontMetrics metrics(m_plot->legend->font());
    const int room =
        width / kernelColumns() - m_plot->legend->iconSize().width() - m_plot->legend->iconTextPadding() - 24;
    const QStringList shown = distinctKernelNames(
        m_kernels,
        charsThatFit([this](int chars) { return distinctKernelNames(m_kernels, chars); }, metrics, room));
    for (int k = 0; k < m_kernelGraphs.size(); ++k)
        m_kernelGraphs[k]->setName(shown[k]);
}

std::vector<double> VariantBars::kernelValues(int kernel) const
{
    std::vector<double> out;
    if (!m_diff || kernel < 0 || kernel >= int(m_diff->rows().size()))
        return out;
    const VariantKernelRow &row = m_diff->rows()[std::size_t(kernel)];
    out.push_back(row.baselinePerRunNs);
    for (const KernelDiffRow *cell : row.cells)
        out.push_back(cell ? cell->b.totalPerRunNs : 0);
    return out;
}

std::vector<double> VariantBars::values(StepPart part) const
{
    std::vector<double> out;
    if (!m_variants || m_variants->comparisons().empty())
        return out;
    out.push_back(m_variants->comparisons().front().row(part).meanA);
    for (const StepBreakdown &c : m_variants->comparisons())
        out.push_back(c.row(part).meanB);
    return out;
}

void VariantBars::rebuild()
{
    m_plot->clearPlottables();
    m_kernelGraphs.clear(); // gone with them
    const PlotTheme theme = applyPalette(m_plot, palette());
    bool communication = false;
    if (m_variants)
        for (const StepBreakdown &c : m_variants->comparisons())
            communication = communication || c.hasCommunication();
    m_parts = communication
                  ? std::vector<StepPart>{StepPart::Compute, StepPart::ExposedComm, StepPart::LaunchLate,
                                          StepPart::GpuWaiting, StepPart::Unknown}
                  : std::vector<StepPart>{StepPart::Busy, StepPart::LaunchLate, StepPart::GpuWaiting,
                                          StepPart::Unknown};
    const std::vector<double> steps = values(StepPart::Step);
    std::vector<double> low(steps.size(), std::nan("")), high(steps.size(), std::nan(""));
    // the interval printed beside the verdict: Fieller's of the ratio to the baseline, on its mean
    for (std::size_t i = 1; i < steps.size(); ++i)
        if (const stats::RatioInterval ratio = m_variants->stepRatio(int(i) - 1); ratio.bounded()) {
            const double baseline = m_variants->comparisons()[i - 1].row(StepPart::Step).meanA;
            low[i] = std::max(0.0, ratio.low) * baseline;
            high[i] = ratio.high * baseline;
        }
    double largest = 0;
    for (std::size_t i = 0; i < steps.size(); ++i)
        for (double v : {steps[i], high[i]})
            if (std::isfinite(v))
                largest = std::max(largest, v);
    const DurationUnit unit = DurationUnit::fitting(largest);
    const bool sweep = m_sweep.size() == steps.size() && !steps.empty();
    const auto x = [&](std::size_t i) { return sweep ? m_sweep[i] : double(i); };
    // Error bars follow their graph's points, which the plot keeps sorted by x: a sweep given as
    // 16, 1, 4, 2 is drawn, and its whiskers set, in the parameter's order.
    std::vector<std::size_t> order(steps.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return x(i) < x(j); });

    QCPAbstractPlottable *top = nullptr;
    if (sweep) { // lines over the parameter: the step, and each part
        for (const StepPart part : m_parts) {
            auto *graph = m_plot->addGraph();
            graph->setName(stepPartTitle(part));
            graph->setPen(QPen(partColour(part), 1.5));
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
            const std::vector<double> v = values(part);
            for (std::size_t i = 0; i < v.size(); ++i)
                graph->addData(x(i), v[i] / unit.ns); // none (NaN) is a gap, as the step's line has
        }
        auto *graph = m_plot->addGraph();
        graph->setName(stepPartTitle(StepPart::Step));
        graph->setPen(QPen(theme.text, 2));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
        for (std::size_t i = 0; i < steps.size(); ++i)
            graph->addData(x(i), steps[i] / unit.ns);
        top = graph;
    } else {
        QCPBars *below = nullptr;
        for (const StepPart part : m_parts) {
            auto *bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
            bars->setName(stepPartTitle(part));
            bars->setBrush(partColour(part));
            bars->setPen(QPen(theme.edge(partColour(part), 130)));
            bars->setWidth(0.6);
            if (below)
                bars->moveAbove(below);
            below = bars;
            const std::vector<double> v = values(part);
            for (std::size_t i = 0; i < v.size(); ++i)
                if (v[i] > 0) // a part of none draws no bar: its outline would cap the stack in its colour
                    bars->addData(x(i), v[i] / unit.ns);
        }
        // the whiskers' anchor: the step (the stack's top), a graph drawn as nothing
        auto *anchor = m_plot->addGraph();
        anchor->removeFromLegend();
        anchor->setLineStyle(QCPGraph::lsNone);
        for (std::size_t i = 0; i < steps.size(); ++i)
            anchor->addData(x(i), steps[i] / unit.ns);
        top = anchor;
    }
    if (top && steps.size() > 1) { // the candidates' step intervals
        auto *errors = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
        errors->removeFromLegend();
        errors->setDataPlottable(top);
        errors->setPen(QPen(theme.text, 1.2));
        if (!sweep)
            errors->setSymbolGap(0); // the anchor draws no symbol: QCustomPlot's gap of 10 px cut the whisker
        QVector<double> minus, plus;
        for (const std::size_t i : order) {
            const bool known = std::isfinite(low[i]) && std::isfinite(high[i]);
            minus << (known ? (steps[i] - low[i]) / unit.ns : std::nan(""));
            plus << (known ? (high[i] - steps[i]) / unit.ns : std::nan(""));
        }
        errors->setData(minus, plus);
    }
    // a sweep's top kernels: their time per run on the right axis, dashed
    m_kernels.clear();
    m_plot->yAxis2->setVisible(false);
    if (sweep && m_diff) {
        const int kernels = std::min(kTopKernels, int(m_diff->rows().size()));
        double most = 0;
        for (int k = 0; k < kernels; ++k)
            for (const double v : kernelValues(k))
                most = std::max(most, v);
        const DurationUnit kernelUnit = DurationUnit::fitting(most);
        const QColor colours[] = {QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28),
                                  QColor(0x8c, 0x56, 0x4b)};
        for (int k = 0; k < kernels; ++k)
            m_kernels << m_diff->rows()[std::size_t(k)].kernel;
        for (int k = 0; k < kernels; ++k) {
            const VariantKernelRow &row = m_diff->rows()[std::size_t(k)];
            auto *graph = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
            m_kernelGraphs << graph; // named to the legend's width (nameKernels)
            graph->setPen(QPen(colours[k % 3], 1.2, Qt::DashLine));
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 4));
            const std::vector<double> v = kernelValues(k);
            QVector<double> minus, plus;
            for (const std::size_t i : order) {
                graph->addData(x(i), v[i] / kernelUnit.ns);
                const KernelDiffRow *cell = i == 0 ? nullptr : row.cells[i - 1];
                const bool known =
                    cell && std::isfinite(cell->runLevel.ciLow) && std::isfinite(cell->runLevel.ciHigh);
                const double base = cell ? cell->a.totalPerRunNs : 0;
                minus << (known ? (v[i] - base * (1 + cell->runLevel.ciLow)) / kernelUnit.ns : std::nan(""));
                plus << (known ? (base * (1 + cell->runLevel.ciHigh) - v[i]) / kernelUnit.ns : std::nan(""));
            }
            auto *whiskers = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis2);
            whiskers->removeFromLegend();
            whiskers->setDataPlottable(graph);
            whiskers->setPen(QPen(colours[k % 3], 1));
            whiskers->setData(minus, plus);
        }
        if (kernels > 0) {
            m_plot->yAxis2->setVisible(true);
            m_plot->yAxis2->setRange(0, most > 0 ? 1.15 * most / kernelUnit.ns : 1);
            m_plot->yAxis2->setLabel(tr("kernel %1/run").arg(kernelUnit.name)); // short, as the plot may be
        }
    }

    m_labelWidth = -1;
    if (sweep)
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    nameKernels(m_plot->width());
    labelVariants();
    m_plot->xAxis->setLabel(sweep ? Sweep::parameterName(m_labels) : QString());
    // A sweep over decades (1e-4 … 1e-1, 1 … 1024), or by a constant factor (1, 2, 4, 8: batch or block
    // sizes), is drawn on a log axis, where its points spread evenly; by a factor, ticked at each point.
    const double first = steps.empty() ? 0 : x(order.front()), last = steps.empty() ? 0 : x(order.back());
    bool geometric = sweep && order.size() >= 3 && first > 0;
    for (std::size_t i = 1; geometric && i < order.size(); ++i) {
        const double factor = x(order[i]) / x(order[i - 1]), firstFactor = x(order[1]) / first;
        geometric = firstFactor >= 1.5 && std::fabs(factor / firstFactor - 1) < 0.1;
    }
    const bool logarithmic = geometric || (sweep && first > 0 && last / first >= 100);
    m_plot->xAxis->setScaleType(logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    // a linear sweep's ticks whole (1048576, not 1.04858·10⁶ for each of three points); else powers of ten
    m_plot->xAxis->setNumberFormat(sweep && !logarithmic ? QStringLiteral("g") : QStringLiteral("gbd"));
    m_plot->xAxis->setNumberPrecision(sweep && !logarithmic ? 12 : 6);
    if (logarithmic) {
        if (geometric) {
            auto ticker = QSharedPointer<QCPAxisTickerText>::create();
            for (const std::size_t i : order)
                ticker->addTick(x(i), Sweep::valueText(x(i)));
            m_plot->xAxis->setTicker(ticker);
        } else {
            m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        }
        const double pad = geometric ? std::sqrt(x(order[1]) / first) : 1.5;
        m_plot->xAxis->setRange(first / pad, last * pad);
    } else if (sweep) {
        const double pad = last > first ? 0.05 * (last - first) : 0.5;
        m_plot->xAxis->setRange(first - pad, last + pad);
        if (order.size() <= 12) { // ticked at each point: K = 1 … 4 had read 1.5, 2.5, 3.5 between them
            auto ticker = QSharedPointer<QCPAxisTickerText>::create();
            for (const std::size_t i : order)
                ticker->addTick(x(i), Sweep::valueText(x(i)));
            m_plot->xAxis->setTicker(ticker);
        }
    } else
        m_plot->xAxis->setRange(-0.6, std::max<double>(1, double(steps.size())) - 0.4);
    m_plot->yAxis->setRange(0, largest > 0 ? 1.08 * largest / unit.ns : 1);
    m_plot->yAxis->setLabel(tr("mean per step (%1)").arg(unit.name));
    fitLegendColumns();
    m_plot->legend->setVisible(!steps.empty());
    applyPalette(m_plot, palette()); // the legend's new entries
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace scopeline
