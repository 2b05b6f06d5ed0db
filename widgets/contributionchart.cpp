// SPDX-License-Identifier: GPL-3.0-or-later
#include "contributionchart.h"

#include "model/durationformat.h"
#include "model/kerneldiff.h"

#include <qcustomplot.h>

#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace scopeline {

namespace {

constexpr double kBarHalf = 0.36;
constexpr int kMaxLabel = 40;  // characters of a kernel name on the axis
constexpr int kBarPixels = 17; // height a bar and its label need

QString elide(const QString &name)
{
    if (name.size() <= kMaxLabel)
        return name;
    return name.left(kMaxLabel - 12) + QStringLiteral("…") + name.right(11);
}

QString signedDuration(double ns)
{
    return ns > 0 ? QLatin1Char('+') + formatDuration(ns) : formatDuration(ns);
}

} // namespace

ContributionChart::ContributionChart(QWidget *parent) : QWidget(parent)
{
    m_plot = new QCustomPlot(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumHeight(160);
    m_plot->yAxis->setRangeReversed(true);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->yAxis->setSubTicks(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->xAxis->grid()->setPen(QPen(Qt::black, 1, Qt::DashLine)); // coloured by applyTheme()
    m_plot->setToolTip(
        tr("Kernel time per run: A's total, the kernels that changed it most (green: less "
           "time in B, red: more), the rest, and B's total. Click a bar to select its kernel."));
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *event) {
        const int bar = int(std::lround(m_plot->yAxis->pixelToCoord(event->pos().y())));
        if (bar >= 1 && bar <= int(m_rows.size()))
            emit rowClicked(m_rows[std::size_t(bar - 1)]);
    });
    applyTheme();
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
    if (barsThatFit() != m_fitted)
        rebuild();
}

int ContributionChart::barsThatFit() const
{
    // the axis takes ~45 px; the two totals and the "other kernels" bar are always there
    return std::max(1, (height() - 45) / kBarPixels - 3);
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
    m_plot->clearItems();
    m_rows.clear();
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    if (!m_diff || m_diff->rows().empty()) {
        m_plot->yAxis->setTicker(ticker);
        m_plot->xAxis->setVisible(false);
        auto *hint = new QCPItemText(m_plot);
        hint->position->setType(QCPItemPosition::ptAxisRectRatio);
        hint->position->setCoords(0.5, 0.5);
        hint->setText(m_diff ? tr("No kernels on either side")
                             : tr("Open a pair of traces to see what changed"));
        hint->setColor(m_theme.dimText);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    m_plot->xAxis->setVisible(true);
    const KernelDiffSummary &s = m_diff->summary();
    const std::vector<KernelDiffRow> &rows = m_diff->rows();
    m_fitted = barsThatFit();
    const int shown = std::min({m_top, m_fitted, int(rows.size())});

    struct Bar
    {
        QString label, value;
        double from, to;
        QColor colour;
        bool current;
    };
    std::vector<Bar> bars;
    const QColor total(150, 156, 166), less(46, 160, 67), more(214, 69, 65);
    bars.push_back({tr("A: kernel time/run"), formatDuration(s.kernelTimePerRunA), 0, s.kernelTimePerRunA,
                    total, false});
    double running = s.kernelTimePerRunA, rest = s.deltaTotalNs;
    for (int i = 0; i < shown; ++i) {
        const KernelDiffRow &r = rows[std::size_t(i)];
        bars.push_back({elide(r.kernel), signedDuration(r.deltaTotalNs), running, running + r.deltaTotalNs,
                        r.deltaTotalNs < 0 ? less : more, i == m_current});
        m_rows.push_back(i);
        running += r.deltaTotalNs;
        rest -= r.deltaTotalNs;
    }
    if (int(rows.size()) > shown)
        bars.push_back({tr("%n other kernel(s)", nullptr, int(rows.size()) - shown), signedDuration(rest),
                        running, running + rest, rest < 0 ? less.lighter(140) : more.lighter(140), false});
    bars.push_back({tr("B: kernel time/run"), formatDuration(s.kernelTimePerRunB), 0, s.kernelTimePerRunB,
                    total, false});

    // The x range spans the running totals, so that small differences on large totals are visible:
    // the total bars then run in from the left edge.
    double low = HUGE_VAL, high = -HUGE_VAL;
    for (std::size_t i = 1; i + 1 < bars.size(); ++i) {
        low = std::min({low, bars[i].from, bars[i].to});
        high = std::max({high, bars[i].from, bars[i].to});
    }
    low = std::min({low, s.kernelTimePerRunA, s.kernelTimePerRunB});
    high = std::max({high, s.kernelTimePerRunA, s.kernelTimePerRunB});
    const double pad = std::max(0.1 * (high - low), 1e-3 * std::max(1.0, high));
    const double left = std::max(0.0, low - pad), right = high + 3.5 * pad; // room for the value labels

    double unit = 1;
    QString unitName = QStringLiteral("ns");
    if (high >= 1e6) {
        unit = 1e6;
        unitName = QStringLiteral("ms");
    } else if (high >= 1e3) {
        unit = 1e3;
        unitName = QStringLiteral("µs");
    }
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const Bar &b = bars[i];
        auto *rect = new QCPItemRect(m_plot);
        rect->topLeft->setCoords(std::min(b.from, b.to) / unit, double(i) - kBarHalf);
        rect->bottomRight->setCoords(std::max(b.from, b.to) / unit, double(i) + kBarHalf);
        rect->setBrush(b.colour);
        rect->setPen(b.current ? QPen(m_theme.text, 2) : QPen(m_theme.edge(b.colour, 130)));
        rect->setSelectable(false);
        auto *text = new QCPItemText(m_plot);
        text->position->setCoords(std::max(b.from, b.to) / unit, double(i));
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        text->setPadding(QMargins(4, 0, 0, 0));
        text->setText(b.value);
        text->setColor(m_theme.strongText);
        text->setSelectable(false);
        ticker->addTick(double(i), b.label);
    }
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setRange(-0.6, double(bars.size()) - 0.4);
    m_plot->xAxis->setRange(left / unit, right / unit);
    m_plot->xAxis->setLabel(tr("kernel time per run (%1)").arg(unitName));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace scopeline
