// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A vs B at a glance: GPU busy %, idle time, launches, median launch delay, kernels per launch and
// kernels of each side (summed, or pooled, over its runs), with the B/A change marked where it matters.

#include "model/loadedrun.h"
#include "model/pooledruns.h"

#include <QFrame>
#include <QList>

#include <array>

class QLabel;

namespace scopeline {

class SummaryStrip : public QFrame
{
    Q_OBJECT
public:
    enum Figure {
        BusyPercent,
        IdleTime,
        KernelLaunches,
        GraphLaunches,
        MedianLaunchDelay,
        KernelsPerLaunch,
        Kernels,
        NUM_FIGURES
    };

    // The figures of one side (PooledRuns: counts summed over its runs, the median launch delay over
    // the pooled delays), busy % = Σbusy / Σspan. NaN where a figure is undefined (no span, no launches).
    struct Figures : PooledRuns
    {
        double value(Figure figure) const;
    };

    explicit SummaryStrip(QWidget *parent = nullptr);

    void setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &labelA,
                  const QString &labelB);

    const Figures &figuresA() const { return m_a; }
    const Figures &figuresB() const { return m_b; }
    // The texts shown, for tests and reports: side 0 = A, 1 = B, 2 = the B/A change.
    QString text(Figure figure, int side) const;

    static QString figureName(Figure figure);
    static QString formatFigure(Figure figure, double value);

private:
    void refresh();

    Figures m_a, m_b;
    QLabel *m_sideLabel[2] = {};
    std::array<std::array<QLabel *, 3>, NUM_FIGURES> m_cells{};
};

} // namespace scopeline
