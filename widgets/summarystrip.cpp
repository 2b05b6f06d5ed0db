// SPDX-License-Identifier: GPL-3.0-or-later
#include "summarystrip.h"

#include "model/durationformat.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>

#include <cmath>

namespace scopeline {

namespace {

// Whether more of a figure is better (+1), worse (-1) or neither (0).
int direction(SummaryStrip::Figure figure)
{
    switch (figure) {
    case SummaryStrip::BusyPercent:
    case SummaryStrip::KernelsPerLaunch:
        return +1;
    case SummaryStrip::IdleTime:
    case SummaryStrip::KernelLaunches:
    case SummaryStrip::MedianLaunchDelay:
        return -1;
    case SummaryStrip::GraphLaunches:
    case SummaryStrip::Kernels:
    case SummaryStrip::NUM_FIGURES:
        break;
    }
    return 0;
}

QString figureToolTip(SummaryStrip::Figure figure)
{
    switch (figure) {
    case SummaryStrip::BusyPercent:
        return SummaryStrip::tr(
            "GPU busy time (union of kernel intervals) over the span from the first kernel's "
            "start to the last kernel's end, summed over the runs of a side: Σbusy / Σspan. "
            "Higher means the GPU was kept fed.");
    case SummaryStrip::IdleTime:
        return SummaryStrip::tr(
            "GPU idle time inside the span (span − busy), summed over the runs of a side. "
            "Lower is better.");
    case SummaryStrip::KernelLaunches:
        return SummaryStrip::tr(
            "CPU kernel-launch calls (cudaLaunchKernel, cuLaunchKernel, hipLaunchKernel, …), "
            "summed over the runs of a side. Each costs CPU time: fewer is better.");
    case SummaryStrip::GraphLaunches:
        return SummaryStrip::tr(
            "Graph launches (cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch), summed over the "
            "runs of a side. One graph launch starts many kernels.");
    case SummaryStrip::MedianLaunchDelay:
        return SummaryStrip::tr("Median of kernel start − launch call start over the regular launches of all "
                                "runs of a side pooled (graph launches not included). Lower is better.");
    case SummaryStrip::KernelsPerLaunch:
        return SummaryStrip::tr(
            "Kernels / (kernel launches + graph launches): how many kernels one CPU launch "
            "call starts on average. Higher means less launch overhead per kernel.");
    case SummaryStrip::Kernels:
        return SummaryStrip::tr("GPU kernels executed, summed over the runs of a side.");
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
    switch (figure) {
    case BusyPercent:
        return spanNs > 0 ? 100.0 * double(busyNs) / double(spanNs) : nan;
    case IdleTime:
        return double(spanNs - busyNs);
    case KernelLaunches:
        return double(kernelLaunches);
    case GraphLaunches:
        return double(graphLaunches);
    case MedianLaunchDelay:
        return medianLaunchDelayNs;
    case KernelsPerLaunch:
        return kernelLaunches + graphLaunches > 0 ? double(kernels) / double(kernelLaunches + graphLaunches)
                                                  : nan;
    case Kernels:
        return double(kernels);
    case NUM_FIGURES:
        break;
    }
    return nan;
}

QString SummaryStrip::figureName(Figure figure)
{
    switch (figure) {
    case BusyPercent:
        return tr("GPU busy");
    case IdleTime:
        return tr("Idle time");
    case KernelLaunches:
        return tr("Kernel launches");
    case GraphLaunches:
        return tr("Graph launches");
    case MedianLaunchDelay:
        return tr("Median launch delay");
    case KernelsPerLaunch:
        return tr("Kernels / launch");
    case Kernels:
        return tr("Kernels");
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
    case BusyPercent:
        return QStringLiteral("%1 %").arg(value, 0, 'f', 1);
    case IdleTime:
    case MedianLaunchDelay:
        return formatDuration(value);
    case KernelsPerLaunch:
        return QString::number(value, 'f', 2);
    case KernelLaunches:
    case GraphLaunches:
    case Kernels:
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
        tr("B compared with A: ▲ more, ▼ less; green where B is better, red where it is "
           "worse (changes under 5 % stay grey)")};
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
    refresh();
}

void SummaryStrip::setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &labelA,
                            const QString &labelB)
{
    m_a = Figures{PooledRuns::of(a)};
    m_b = Figures{PooledRuns::of(b)};
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

QString SummaryStrip::text(Figure figure, int side) const
{
    return m_cells[figure][side]->text();
}

void SummaryStrip::refresh()
{
    const QString grey = palette().color(QPalette::Disabled, QPalette::WindowText).name();
    for (int f = 0; f < NUM_FIGURES; ++f) {
        const auto figure = Figure(f);
        const double a = m_a.value(figure), b = m_b.value(figure);
        m_cells[f][0]->setText(formatFigure(figure, a));
        m_cells[f][1]->setText(formatFigure(figure, b));

        QLabel *cell = m_cells[f][2];
        QString text = QStringLiteral("–"), color = grey, tip = figureToolTip(figure);
        if (!std::isnan(a) && !std::isnan(b)) {
            // Busy % changes in percentage points, everything else relative to A.
            const bool points = figure == BusyPercent;
            const double change =
                points ? b - a : (a != 0 ? (b - a) / std::fabs(a) : (b == 0 ? 0 : HUGE_VAL));
            const QString arrow = b > a   ? QStringLiteral("▲")
                                  : b < a ? QStringLiteral("▼")
                                          : QStringLiteral("=");
            if (b == a)
                text = QStringLiteral("=");
            else if (std::isinf(change))
                text = arrow + QStringLiteral(" new");
            else if (points)
                text = QStringLiteral("%1 %2 pp").arg(arrow, signedNumber(change));
            else
                text = QStringLiteral("%1 %2 %").arg(arrow, signedNumber(100 * change));
            const bool matters = points ? std::fabs(change) >= 2.0 : std::fabs(change) >= 0.05;
            const int dir = direction(figure);
            if (matters && dir != 0) {
                const bool better = (b > a) == (dir > 0);
                color = better ? QStringLiteral("#1a8a3a") : QStringLiteral("#c62828");
                tip =
                    tr("%1: B is %2 than A.\n\n%3")
                        .arg(figureName(figure), better ? tr("better") : tr("worse"), figureToolTip(figure));
            } else if (matters) {
                color = palette().color(QPalette::WindowText).name();
                tip = tr("%1 differs (neither better nor worse by itself).\n\n%2")
                          .arg(figureName(figure), figureToolTip(figure));
            } else {
                tip = tr("%1: B and A are within %2 of each other.\n\n%3")
                          .arg(figureName(figure), points ? tr("2 percentage points") : tr("5 %"),
                               figureToolTip(figure));
            }
        }
        cell->setText(text);
        cell->setStyleSheet(QStringLiteral("color: %1;").arg(color));
        cell->setToolTip(tip);
    }
}

} // namespace scopeline
