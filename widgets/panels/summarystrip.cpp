// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/summarystrip.h"

#include "model/tables/durationformat.h"
#include "model/analysis/traceanalysis.h"
#include "stats/descriptive.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>

#include <cmath>

namespace scopeline {

namespace {

QString figureToolTip(SummaryStrip::Figure figure)
{
    switch (figure) {
    case SummaryStrip::BusyTime:
        return SummaryStrip::tr(
            "GPU busy time per run: the union of kernel intervals, the mean over the runs of a side "
            "(What changed's \"GPU busy/run\"). Less can mean faster kernels or less work: neither "
            "better nor worse by itself.");
    case SummaryStrip::IdleTime:
        return SummaryStrip::tr(
            "GPU idle time per run inside the span from the first kernel's start to the last "
            "kernel's end (span − busy), the mean over the runs of a side. Less is better.");
    case SummaryStrip::KernelLaunches:
        return SummaryStrip::tr(
            "CPU kernel-launch calls per run (cudaLaunchKernel, cuLaunchKernel, hipLaunchKernel, …), "
            "the mean over the runs of a side.");
    case SummaryStrip::GraphLaunches:
        return SummaryStrip::tr(
            "Graph launches per run (cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch), the mean over "
            "the runs of a side. One graph launch starts many kernels.");
    case SummaryStrip::KernelLaunchDelay:
        return SummaryStrip::tr(
            "Median of kernel start − launch call start over the regular kernel launches of all runs "
            "of a side pooled. It includes the time a kernel queues behind earlier ones, so a busier "
            "GPU shows longer delays: neither better nor worse by itself.");
    case SummaryStrip::GraphLaunchDelay:
        return SummaryStrip::tr(
            "Median of first kernel start − graph launch call start over the graph launches of all "
            "runs of a side pooled (kept apart from kernel launches: a graph launch queues a whole "
            "graph).");
    case SummaryStrip::KernelsPerLaunch:
        return SummaryStrip::tr(
            "Kernels / (kernel launches + graph launches): how many kernels one CPU launch "
            "call starts on average.");
    case SummaryStrip::Kernels:
        return SummaryStrip::tr("GPU kernels executed per run, the mean over the runs of a side.");
    case SummaryStrip::NUM_FIGURES:
        break;
    }
    return {};
}

// One decimal with an explicit sign, a real minus sign.
QString signedNumber(double value)
{
    return QString::asprintf("%+.1f", value).replace(QLatin1Char('-'), QStringLiteral("−"));
}

QString shortLabel(const QString &label)
{
    const QString name = QFileInfo(label).fileName();
    return name.isEmpty() ? label : name;
}

} // namespace

double SummaryStrip::Figures::value(Figure figure) const
{
    const double nan = std::nan("");
    if (runs == 0)
        return nan;
    const double perRun = 1.0 / double(runs);
    switch (figure) {
    case BusyTime:
        return double(busyNs) * perRun;
    case IdleTime:
        return double(spanNs - busyNs) * perRun;
    case KernelLaunches:
        return double(kernelLaunches) * perRun;
    case GraphLaunches:
        return double(graphLaunches) * perRun;
    case KernelLaunchDelay:
        return kernelLaunches > 0 ? medianLaunchDelayNs : nan;
    case GraphLaunchDelay:
        return graphLaunches > 0 ? medianGraphLaunchDelayNs : nan;
    case KernelsPerLaunch:
        return kernelLaunches + graphLaunches > 0 ? double(kernels) / double(kernelLaunches + graphLaunches)
                                                  : nan;
    case Kernels:
        return double(kernels) * perRun;
    case NUM_FIGURES:
        break;
    }
    return nan;
}

QString SummaryStrip::figureName(Figure figure)
{
    switch (figure) {
    case BusyTime:
        return tr("GPU busy/run");
    case IdleTime:
        return tr("GPU idle/run");
    case KernelLaunches:
        return tr("Kernel launches/run");
    case GraphLaunches:
        return tr("Graph launches/run");
    case KernelLaunchDelay:
        return tr("Kernel launch delay");
    case GraphLaunchDelay:
        return tr("Graph launch delay");
    case KernelsPerLaunch:
        return tr("Kernels/launch");
    case Kernels:
        return tr("Kernels/run");
    case NUM_FIGURES:
        break;
    }
    return {};
}

QString SummaryStrip::formatFigure(Figure figure, double value)
{
    if (std::isnan(value))
        return QStringLiteral("–");
    switch (figure) {
    case BusyTime:
    case IdleTime:
    case KernelLaunchDelay:
    case GraphLaunchDelay:
        return formatDuration(value);
    case KernelsPerLaunch:
        return QString::number(value, 'f', 2);
    case KernelLaunches:
    case GraphLaunches:
    case Kernels:
        // whole numbers stay whole; a mean over runs that is not keeps one decimal
        if (value != std::round(value))
            return QLocale().toString(value, 'f', 1);
        break;
    case NUM_FIGURES:
        break;
    }
    return QLocale().toString(qint64(std::llround(value)));
}

SummaryStrip::SummaryStrip(QWidget *parent) : QFrame(parent)
{
    setFrameShape(QFrame::StyledPanel);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(8, 4, 8, 4);
    grid->setHorizontalSpacing(18);
    grid->setVerticalSpacing(2);

    const QString rowTips[3] = {
        tr("Side A, the baseline"), tr("Side B, the candidate"),
        tr("B compared with A, relative to A: ▲ more, ▼ less; changes under 5 % grey. A difference of "
           "the means, not a test: whether it is real, and its interval, is in What changed's tables")};
    for (int side = 0; side < 3; ++side) {
        auto *label = new QLabel(side == 2 ? tr("B vs A") : QString(), this);
        label->setToolTip(rowTips[side]);
        QFont font = label->font();
        font.setBold(true);
        label->setFont(font);
        label->setMinimumWidth(60);
        label->setMaximumWidth(260);
        grid->addWidget(label, side + 1, 0);
        if (side < 2)
            m_sideLabel[side] = label;
    }
    for (int f = 0; f < NUM_FIGURES; ++f) {
        const auto figure = Figure(f);
        auto *header = new QLabel(figureName(figure), this);
        header->setToolTip(figureToolTip(figure));
        header->setForegroundRole(QPalette::PlaceholderText);
        QFont font = header->font();
        font.setPointSizeF(font.pointSizeF() * 0.9);
        header->setFont(font);
        header->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        grid->addWidget(header, 0, f + 1);
        for (int side = 0; side < 3; ++side) {
            auto *cell = new QLabel(QStringLiteral("–"), this);
            cell->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            cell->setToolTip(figureToolTip(figure));
            cell->setTextInteractionFlags(Qt::TextSelectableByMouse);
            grid->addWidget(cell, side + 1, f + 1);
            m_cells[f][side] = cell;
        }
    }
    for (int f = 0; f < NUM_FIGURES; ++f)
        grid->setColumnStretch(f + 1, 1);
    m_perRun = new QLabel(this);
    m_perRun->setForegroundRole(QPalette::PlaceholderText);
    grid->addWidget(m_perRun, 0, 0);
    setPerGpu(false);
    refresh();
}

void SummaryStrip::setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &labelA,
                            const QString &labelB)
{
    m_a = {PooledRuns::of(a)};
    m_b = {PooledRuns::of(b)};
    // A run of several GPUs counts as the mean of its GPUs (DESIGN.md): say so, as the scope list
    // beside the strip adds its GPUs up.
    setPerGpu(hasRanks(a) || hasRanks(b));
    const QString labels[2] = {labelA, labelB};
    const Figures *sides[2] = {&m_a, &m_b};
    for (int side = 0; side < 2; ++side) {
        const QString prefix = side == 0 ? QStringLiteral("A") : QStringLiteral("B");
        const QString text =
            labels[side].isEmpty() ? prefix : prefix + QStringLiteral(": ") + shortLabel(labels[side]);
        QLabel *label = m_sideLabel[side];
        label->setText(label->fontMetrics().elidedText(text, Qt::ElideMiddle, label->maximumWidth()));
        label->setToolTip(tr("Side %1: %2 (%n run(s))", nullptr, sides[side]->runs)
                              .arg(prefix, labels[side].isEmpty() ? tr("nothing loaded") : labels[side]));
    }
    refresh();
}

void SummaryStrip::setPerGpu(bool perGpu)
{
    m_perRun->setText(perGpu ? tr("per run, per GPU") : tr("per run"));
    m_perRun->setToolTip(
        (perGpu ? tr("Times and counts are per GPU: a run of several GPUs counts as the mean of its GPUs, a "
                     "side as the mean of its runs (What changed's per-run figures are the same means)")
                : tr("Times and counts are per run (the mean over a side's runs), as in What changed")) +
        tr("; launch delays are medians over all launches of a side"));
}

QString SummaryStrip::unitText() const
{
    return m_perRun->text();
}

QString SummaryStrip::text(Figure figure, int side) const
{
    return m_cells[figure][side]->text();
}

bool SummaryStrip::isShownAsChange(double change)
{
    // judged as printed (one decimal): "+5.0 %" is not greyed as under 5 %
    return std::round(1000 * std::fabs(change)) >= 50;
}

QColor SummaryStrip::changeColor(Figure figure) const
{
    return m_changeColors[figure];
}

void SummaryStrip::refresh()
{
    const QColor grey = palette().color(QPalette::Disabled, QPalette::WindowText);
    for (int f = 0; f < NUM_FIGURES; ++f) {
        const auto figure = Figure(f);
        const double a = m_a.value(figure), b = m_b.value(figure);
        m_cells[f][0]->setText(formatFigure(figure, a));
        m_cells[f][1]->setText(formatFigure(figure, b));

        QLabel *cell = m_cells[f][2];
        QString text = QStringLiteral("–"), tip = figureToolTip(figure);
        QColor color = grey;
        if (!std::isnan(a) && !std::isnan(b)) {
            // relative to A, as What changed gives its changes
            const double change = a != 0 ? (b - a) / std::fabs(a) : (b == 0 ? 0 : HUGE_VAL);
            const QString arrow = b > a   ? QStringLiteral("▲")
                                  : b < a ? QStringLiteral("▼")
                                          : QStringLiteral("=");
            if (b == a)
                text = QStringLiteral("=");
            else if (std::isinf(change))
                text = arrow + QStringLiteral(" new");
            else
                text = QStringLiteral("%1 %2 %").arg(arrow, signedNumber(100 * change));
            // Never red or green: a colour reads as a verdict, and the strip has no test (a +26 % idle
            // of 16 µs in a 196 ms run is noise the step breakdown does not call a change).
            if (isShownAsChange(change))
                color = palette().color(QPalette::WindowText);
            else
                tip = tr("%1: B and A are within 5 % of each other.\n\n%2")
                          .arg(figureName(figure), figureToolTip(figure));
        }
        m_changeColors[f] = color;
        cell->setText(text);
        cell->setStyleSheet(QStringLiteral("color: %1;").arg(color.name()));
        cell->setToolTip(tip);
    }
}

} // namespace scopeline
