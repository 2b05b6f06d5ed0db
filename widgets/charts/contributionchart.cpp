// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/contributionchart.h"
#include "widgets/timeline/timelinetext.h"

#include "widgets/charts/plottooltip.h"
#include "widgets/charts/waterfallplot.h"

#include "model/comparison/kerneldiff.h"
#include "model/tables/durationformat.h"
#include "model/tables/kernelnames.h"
#include "model/tables/tableformat.h"

#include <qcustomplot.h>

#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace scopeline {

namespace {

constexpr int kMaxLabel = 40;  // characters of a kernel name on the axis
constexpr int kBarPixels = 17; // height a bar and its label need

// A kernel's bar says what its verdict says (on its GPU time per run, the bar's length): green or red
// for a finding or a kernel of one side, grey when the difference is within the noise.
QColor barColour(const KernelDiffRow &r)
{
    const int sign = findingSign(r.verdict, r.deltaTotalNs);
    return dataColour(sign == 0 ? DataColour::Unchanged : sign < 0 ? DataColour::Less : DataColour::More);
}

// The findings among rows[first..]: with less time in B, with more.
struct Findings
{
    int less = 0, more = 0;
};
Findings findingsFrom(const std::vector<KernelDiffRow> &rows, std::size_t first)
{
    Findings found;
    for (std::size_t i = first; i < rows.size(); ++i)
        if (const int sign = findingSign(rows[i].verdict, rows[i].deltaTotalNs); sign != 0)
            (sign < 0 ? found.less : found.more)++;
    return found;
}

} // namespace

ContributionChart::ContributionChart(QWidget *parent) : QWidget(parent)
{
    m_plot = new QCustomPlot(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    // A's and B's totals, one kernel and the rest, their labels apart
    m_plot->setMinimumHeight(axisPixels() + 4 * kBarPixels);
    m_plot->yAxis->setRangeReversed(true);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->yAxis->setSubTicks(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->xAxis->grid()->setPen(QPen(Qt::black, 1, Qt::DashLine)); // coloured by applyTheme()
    m_plot->setToolTip(
        tr("Kernel time per run: A's total, the kernels that changed it most (by their verdict on the "
           "time per run: green, less time in B; red, more; grey, within the noise; a whisker, the interval "
           "the verdict was decided from), the rest (grey unless every finding among it goes its way; its "
           "value counts them), and B's total. Click a bar to select its kernel. An axis that starts above "
           "zero says so, the totals cut "
           "with //."));
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *event) {
        const int bar = waterfallBarAt(m_plot, event->pos(), int(m_rows.size()) + 1);
        if (bar >= 1)
            emit rowClicked(m_rows[std::size_t(bar - 1)]);
    });
    showToolTipsBy(m_plot, [this](const QPoint &pos) { // a tooltip per bar; off the bars, what the chart is
        const int bar = waterfallBarAt(m_plot, pos, int(m_bars.size()));
        return bar < 0 ? m_plot->toolTip() : barToolTip(bar);
    });
    applyTheme();
}

QString ContributionChart::barToolTip(int bar) const
{
    if (!m_diff || bar < 0 || bar >= int(m_bars.size()))
        return {};
    const KernelDiffSummary &s = m_diff->summary();
    if (bar == 0 || bar + 1 == int(m_bars.size())) {
        const bool a = bar == 0;
        return tr("%1: kernel time per run %2 (%3 runs)")
            .arg(a ? QStringLiteral("A") : QStringLiteral("B"),
                 formatDuration(a ? s.kernelTimePerRunA : s.kernelTimePerRunB))
            .arg(a ? s.runsA : s.runsB);
    }
    const std::vector<KernelDiffRow> &rows = m_diff->rows();
    if (bar - 1 < int(m_rows.size())) {
        const KernelDiffRow &r = rows[std::size_t(m_rows[std::size_t(bar - 1)])];
        QString text = tr("%1\nΔ time/run %2 (A %3 → B %4)")
                           .arg(r.kernel, formatSignedDuration(r.deltaTotalNs),
                                formatDuration(r.a.totalPerRunNs), formatDuration(r.b.totalPerRunNs));
        if (r.runLevel.valid())
            text += tr("\nTime/run change %1 (%2 CI), Holm p %3")
                        .arg(formatChangeInterval(r.runLevel.change, r.runLevel.ciLow, r.runLevel.ciHigh),
                             formatPercent(r.runLevel.confidence), formatPValue(r.runLevelHolm));
        return text + QLatin1Char('\n') + r.verdictText() + tr("\nClick to select it");
    }
    // the rest: how many findings it holds, each way
    const WaterfallBar &rest = m_bars[std::size_t(bar)];
    const Findings found = findingsFrom(rows, m_rows.size());
    return tr("%1: Δ time/run %2 together, a sum no test judges\nFindings among them: %3 with less time in "
              "B, %4 with more (the table lists every kernel)")
        .arg(rest.label, formatSignedDuration(rest.to - rest.from))
        .arg(found.less)
        .arg(found.more);
}

void ContributionChart::applyTheme()
{
    m_theme = applyPalette(m_plot, palette());
    rebuild(); // the bars and labels are items, coloured when made
}

void ContributionChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
}

void ContributionChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    rebuild(); // the bars that fit, and the room for the value labels, depend on the size
}

// The room the value axis takes below the bars: its tick labels and its label.
int ContributionChart::axisPixels() const
{
    return QFontMetrics(m_plot->xAxis->tickLabelFont()).height() + QFontMetrics(m_plot->xAxis->labelFont()).height() +
           24;
}

int ContributionChart::barsThatFit() const
{
    // the two totals and the "other kernels" bar are always there
    return std::max(1, (height() - axisPixels()) / kBarPixels - 3);
}

void ContributionChart::setDiff(const KernelDiff *diff, int top)
{
    m_diff = diff;
    m_top = top;
    m_current = -1;
    rebuild();
}

void ContributionChart::setCurrentRow(int row)
{
    if (row == m_current)
        return;
    m_current = row;
    rebuild();
}

void ContributionChart::rebuild()
{
    m_rows.clear();
    m_bars.clear();
    if (!m_diff || m_diff->rows().empty()) {
        drawWaterfallHint(m_plot, m_theme,
                          m_diff ? tr("No kernels on either side")
                                 : tr("Open a pair of traces to see what changed"));
        return;
    }
    const KernelDiffSummary &s = m_diff->summary();
    const std::vector<KernelDiffRow> &rows = m_diff->rows();
    int shown = std::min({m_top, barsThatFit(), int(rows.size())});
    if (shown + 1 == int(rows.size()))
        ++shown; // one kernel left: its own bar, in the place of "1 other kernel"
    // A narrow chart keeps room for its bars: the names take at most ~40 % of its width.
    const QFontMetrics labelMetrics(m_plot->yAxis->tickLabelFont());
    const int labelPixels = std::max(110, width() * 2 / 5);
    // As many characters as fit, no two names alike (elementwise kernels differ in their middle).
    QStringList kernels;
    for (int i = 0; i < shown; ++i)
        kernels << boundedText(rows[std::size_t(i)].kernel);
    const QStringList names = distinctKernelNames(
        kernels, std::clamp(labelPixels / std::max(1, labelMetrics.averageCharWidth()), 24, kMaxLabel));
    const auto label = [&](int i) { return labelMetrics.elidedText(names[i], Qt::ElideMiddle, labelPixels); };

    std::vector<WaterfallBar> bars;
    const QColor total = dataColour(DataColour::Total), less = dataColour(DataColour::Less),
                 more = dataColour(DataColour::More);
    bars.push_back(
        {tr("A: kernel time/run"), formatDuration(s.kernelTimePerRunA), 0, s.kernelTimePerRunA, total, true});
    double running = s.kernelTimePerRunA, rest = s.deltaTotalNs;
    for (int i = 0; i < shown; ++i) {
        const KernelDiffRow &r = rows[std::size_t(i)];
        // the interval its verdict was decided from: the change of the time per run, relative to A's
        const double aNs = r.a.totalPerRunNs;
        const bool interval = std::isfinite(r.runLevel.ciLow) && std::isfinite(r.runLevel.ciHigh) && aNs > 0;
        bars.push_back({label(i), formatSignedDuration(r.deltaTotalNs), running, running + r.deltaTotalNs,
                        barColour(r), false, i == m_current,
                        interval ? r.runLevel.ciLow * aNs : WaterfallBar::kNone,
                        interval ? r.runLevel.ciHigh * aNs : WaterfallBar::kNone});
        m_rows.push_back(i);
        running += r.deltaTotalNs;
        rest -= r.deltaTotalNs;
    }
    if (int(rows.size()) > shown) {
        // The rest's own sum is untested: grey, unless findings are among it and all go its way (a
        // lighter green or red); its value says how many findings it hides.
        const Findings found = findingsFrom(rows, std::size_t(shown));
        const bool oneWay = rest < 0   ? found.less > 0 && found.more == 0
                            : rest > 0 ? found.more > 0 && found.less == 0
                                       : false;
        const QColor colour = !oneWay    ? dataColour(DataColour::Unchanged)
                              : rest < 0 ? less.lighter(140)
                                         : more.lighter(140);
        const QString sum = formatSignedDuration(rest);
        QString value = sum;
        if (found.less + found.more > 0)
            value += QStringLiteral(" · ") + tr("%n finding(s)", nullptr, found.less + found.more);
        bars.push_back({m_diff->options().byOp ? tr("%n other op(s)", nullptr, int(rows.size()) - shown)
                                               : tr("%n other kernel(s)", nullptr, int(rows.size()) - shown),
                        value, running, running + rest, colour, false, false, WaterfallBar::kNone,
                        WaterfallBar::kNone, sum});
    }
    bars.push_back(
        {tr("B: kernel time/run"), formatDuration(s.kernelTimePerRunB), 0, s.kernelTimePerRunB, total, true});
    drawWaterfall(m_plot, m_theme, bars, tr("time/run (%1)"));
    m_bars = std::move(bars);
}

} // namespace scopeline
