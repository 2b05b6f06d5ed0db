// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A vs B at a glance, per run as What changed says it: GPU busy and idle time per run, kernel and graph
// launches per run, the median delay of each kind of launch, kernels per launch and kernels per run, with
// the B/A change. Only a change whose better direction is plain (less idle time) is coloured.

#include "model/loading/loadedrun.h"
#include "model/comparison/pooledruns.h"

#include <QColor>
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
        BusyTime,
        IdleTime,
        KernelLaunches,
        GraphLaunches,
        KernelLaunchDelay,
        GraphLaunchDelay,
        KernelsPerLaunch,
        Kernels,
        NUM_FIGURES
    };

    // The figures of one side: PooledRuns (sums over its runs, the median launch delays over the pooled
    // delays). value() gives counts and times per run; NaN where a figure is undefined (no runs, no
    // launches of the kind).
    struct Figures : PooledRuns
    {
        double value(Figure figure) const;
    };

    explicit SummaryStrip(QWidget *parent = nullptr);

    void setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &labelA,
                  const QString &labelB);

    const Figures &figuresA() const { return m_a; }
    // The texts shown, for tests and reports: side 0 = A, 1 = B, 2 = the B/A change.
    QString text(Figure figure, int side) const;
    // What the figures are per: "per run", or "per GPU" where runs have ranks.
    QString unitText() const;
    // The colour of the change (side 2): the palette's text, or grey under 5 %; never a verdict's.
    QColor changeColor(Figure figure) const;
    // Whether a relative change B vs A is shown in full colour: 5 % or more as printed; else grey.
    static bool isShownAsChange(double change);

    static QString figureName(Figure figure);
    static QString formatFigure(Figure figure, double value);

private:
    void refresh();
    void setPerGpu(bool perGpu);

    Figures m_a, m_b;
    QLabel *m_sideLabel[2] = {};
    QLabel *m_perRun = nullptr; // "per run", or "per GPU" where runs have ranks
    std::array<std::array<QLabel *, 3>, NUM_FIGURES> m_cells{};
    std::array<QColor, NUM_FIGURES> m_changeColors{};
};

} // namespace scopeline
