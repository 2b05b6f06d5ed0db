// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/summarystrip.h"

#include "model/analysis/traceanalysis.h"
#include "model/tables/durationformat.h"
#include "model/tables/tableformat.h"
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
    case PooledRuns::BusyTime:
        return SummaryStrip::tr(
            "GPU busy time per run: the union of kernel intervals, the mean over the runs of a side "
            "(What changed's \"GPU busy/run\"). Less can mean faster kernels or less work: neither "
            "better nor worse by itself.");
    case PooledRuns::IdleTime:
        return SummaryStrip::tr(
            "GPU idle time per run inside the span from the first kernel's start to the last "
            "kernel's end (span − busy), the mean over the runs of a side. Less is better.");
    case PooledRuns::KernelLaunches:
        return SummaryStrip::tr(
            "CPU kernel-launch calls per run (cudaLaunchKernel, cuLaunchKernel, hipLaunchKernel, …), "
            "the mean over the runs of a side.");
    case PooledRuns::GraphLaunches:
        return SummaryStrip::tr(
            "Graph launches per run (cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch), the mean over "
            "the runs of a side. One graph launch starts many kernels.");
    case PooledRuns::KernelLaunchDelay:
        return SummaryStrip::tr(
            "Median of kernel start − launch call start over the regular kernel launches of all runs "
            "of a side pooled. It includes the time a kernel queues behind earlier ones, so a busier "
            "GPU shows longer delays: neither better nor worse by itself.");
    case PooledRuns::GraphLaunchDelay:
        return SummaryStrip::tr(
            "Median of first kernel start − graph launch call start over the graph launches of all "
            "runs of a side pooled (kept apart from kernel launches: a graph launch queues a whole "
            "graph).");
    case PooledRuns::KernelsPerLaunch:
        return SummaryStrip::tr(
            "Kernels / (kernel launches + graph launches): how many kernels one CPU launch "
            "call starts on average.");
    case PooledRuns::Kernels:
        return SummaryStrip::tr("GPU kernels executed per run, the mean over the runs of a side.");
    case PooledRuns::NUM_FIGURES:
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

QString SummaryStrip::figureName(Figure figure)
{
    switch (figure) {
    case PooledRuns::BusyTime:
        return tr("GPU busy/run");
    case PooledRuns::IdleTime:
        return tr("GPU idle/run");
    case PooledRuns::KernelLaunches:
        return tr("Kernel launches/run");
    case PooledRuns::GraphLaunches:
        return tr("Graph launches/run");
    case PooledRuns::KernelLaunchDelay:
        return tr("Kernel launch delay");
    case PooledRuns::GraphLaunchDelay:
        return tr("Graph launch delay");
    case PooledRuns::KernelsPerLaunch:
        return tr("Kernels/launch");
    case PooledRuns::Kernels:
        return tr("Kernels/run");
    case PooledRuns::NUM_FIGURES:
        break;
    }
    return {};
}

QString SummaryStrip::formatFigure(Figure figure, double value)
{
    if (std::isnan(value))
        return QStringLiteral("–");
    switch (figure) {
    case PooledRuns::BusyTime:
    case PooledRuns::IdleTime:
    case PooledRuns::KernelLaunchDelay:
    case PooledRuns::GraphLaunchDelay:
        return formatDuration(value);
    case PooledRuns::KernelsPerLaunch:
        return QString::number(value, 'f', 2);
    case PooledRuns::KernelLaunches:
    case PooledRuns::GraphLaunches:
    case PooledRuns::Kernels:
        // whole numbers stay whole; a mean over runs that is not keeps one decimal
        if (value != std::round(value))
            return QLocale().toString(value, 'f', 1);
        break;
    case PooledRuns::NUM_FIGURES:
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
        tr("B compared with A, relative to A: ▲ more, ▼ less. Per-run totals are tested (Welch on the "
           "runs' or processes' values, Holm over them) and show the interval they were judged from; a "
           "change in grey is not a finding (within the noise, under the threshold, or not tested)")};
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
    m_comparison = PooledComparison::of(a, b, m_comparison.alpha, m_comparison.threshold);
    // A run of several GPUs counts as the mean of its GPUs (DESIGN.md): say so, as the scope list
    // beside the strip adds its GPUs up.
    setPerGpu(hasRanks(a) || hasRanks(b));
    const QString labels[2] = {labelA, labelB};
    const PooledRuns *sides[2] = {&m_comparison.a, &m_comparison.b};
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

void SummaryStrip::setThreshold(double threshold)
{
    m_comparison.setThreshold(threshold);
    refresh();
}

QColor SummaryStrip::changeColor(Figure figure) const
{
    return m_changeColors[figure];
}

void SummaryStrip::refresh()
{
    // a change that is no finding: dimmed, yet readable (its interval is read too); the disabled text's
    // grey is 1.6:1 on Fusion's light window
    const QColor window = palette().color(QPalette::Window), ink = palette().color(QPalette::WindowText);
    const QColor grey = QColor::fromRgbF(0.55f * window.redF() + 0.45f * ink.redF(),
                                         0.55f * window.greenF() + 0.45f * ink.greenF(),
                                         0.55f * window.blueF() + 0.45f * ink.blueF());
    int tested = 0;
    for (const PooledComparison::Figure &row : m_comparison.figures)
        tested += row.test.valid();
    for (int f = 0; f < NUM_FIGURES; ++f) {
        const auto figure = Figure(f);
        const PooledComparison::Figure &row = m_comparison.figures[std::size_t(f)];
        const double a = m_comparison.value(figure, 0), b = m_comparison.value(figure, 1);
        m_cells[f][0]->setText(formatFigure(figure, a));
        m_cells[f][1]->setText(formatFigure(figure, b));

        QLabel *cell = m_cells[f][2];
        QString text = QStringLiteral("–"), tip = figureToolTip(figure);
        QColor color = grey;
        if (!std::isnan(a) && !std::isnan(b)) {
            // relative to A, as What changed gives its changes
            const double change = row.test.valid() ? row.test.change
                                  : a != 0         ? (b - a) / std::fabs(a)
                                                   : (b == 0 ? 0 : HUGE_VAL);
            const QString arrow = b > a   ? QStringLiteral("▲")
                                  : b < a ? QStringLiteral("▼")
                                          : QStringLiteral("=");
            if (b == a)
                text = QStringLiteral("=");
            else if (std::isinf(change)) // exact: nothing to estimate
                text = arrow + tr(" new (none in A)");
            else if (b == 0)
                text = arrow + tr(" −100 % (none in B)");
            else if (!row.test.valid() && b / a >= 10) // "▲ ×200", not "+19900.0 %"
                text = QStringLiteral("%1 ×%2").arg(arrow, QString::number(b / a, 'g', 3));
            else if (row.test.valid()) // the interval the verdict was decided from, beside it
                text = arrow + QLatin1Char(' ') +
                       formatChangeInterval(change, row.test.ciLow, row.test.ciHigh, 1)
                           .replace(QLatin1Char('-'), QStringLiteral("−"));
            else
                text = QStringLiteral("%1 %2 %").arg(arrow, signedNumber(100 * change));
            // Never red or green: less busy time or more launches is neither better nor worse by itself.
            if (row.test.valid() && isFinding(row.verdict))
                color = palette().color(QPalette::WindowText);
            tip = QStringLiteral("%1: %2\n\n%3").arg(figureName(figure), changeToolTip(figure, tested), tip);
        }
        m_changeColors[f] = color;
        cell->setText(text);
        cell->setStyleSheet(QStringLiteral("color: %1;").arg(color.name()));
        cell->setToolTip(tip);
    }
}

QString SummaryStrip::toolTip(Figure figure, int side) const
{
    return m_cells[std::size_t(figure)][std::size_t(side)]->toolTip();
}

QString SummaryStrip::changeToolTip(Figure figure, int tested) const
{
    const PooledComparison::Figure &row = m_comparison.figures[std::size_t(figure)];
    if (!PooledRuns::isPerRunTotal(figure))
        return tr("not tested (%1, not a total each run has); grey as every change that is not a finding")
            .arg(figure == PooledRuns::KernelsPerLaunch ? tr("a ratio of the sides' sums")
                                                        : tr("a median of the pooled launches"));
    const QString unit = m_comparison.unit;
    if (!row.test.valid())
        return tr("not tested: a side has fewer than 2 %1s (A %2, B %3); grey as every change that is not "
                  "a finding")
            .arg(unit)
            .arg(row.test.runsA)
            .arg(row.test.runsB);
    QString verdict;
    switch (row.verdict) {
    case Verdict::Faster:
        verdict = tr("B less");
        break;
    case Verdict::Slower:
        verdict = tr("B more");
        break;
    case Verdict::NoMeaningfulChange:
        verdict = tr("no meaningful change (under the threshold below)");
        break;
    default:
        verdict = tr("no significant change");
        break;
    }
    // Busy and idle time are parts of the GPU span, as the step's parts are of the step: their threshold
    // is of A's span, which a change of several per cent of busy alone may not reach.
    const bool ofSpan = row.referenceA != row.meanA && row.meanA > 0;
    const QString threshold =
        ofSpan ? tr("threshold %1 % of A's GPU span: %2, %3 of A's %4")
                     .arg(100 * m_comparison.threshold)
                     .arg(formatDuration(m_comparison.threshold * row.referenceA),
                          formatPercent(m_comparison.threshold * row.referenceA / row.meanA),
                          figure == PooledRuns::BusyTime ? tr("busy time") : tr("idle time"))
               : tr("threshold %1 %").arg(100 * m_comparison.threshold);
    return tr("%1, %2 at %3 % (Holm p %4). Welch on the %5s' values (A %6, B %7), Holm over the %8 figures "
              "tested here, alpha %9, %10")
        .arg(verdict, formatChangeInterval(row.test.change, row.test.ciLow, row.test.ciHigh, 1),
             QString::number(100 * row.test.confidence, 'g', 4), formatPValue(row.holmP), unit)
        .arg(row.test.runsA)
        .arg(row.test.runsB)
        .arg(tested)
        .arg(m_comparison.alpha)
        .arg(threshold);
}

} // namespace scopeline
