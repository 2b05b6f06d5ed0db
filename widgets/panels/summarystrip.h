// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A vs B at a glance, per run as What changed says it: GPU busy and idle time per run, kernel and graph
// launches per run, the median delay of each kind of launch, kernels per launch and kernels per run, with
// the B/A change. The per-run totals are tested (PooledComparison): their change shows its interval, in
// full colour only where it is a finding; every other change is grey.

#include "model/comparison/pooledruns.h"
#include "model/loading/loadedrun.h"

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
    using Figure = PooledRuns::Figure;
    static constexpr int NUM_FIGURES = PooledRuns::NUM_FIGURES;

    explicit SummaryStrip(QWidget *parent = nullptr);

    void setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &labelA,
                  const QString &labelB);

    // The verdicts' threshold (a fraction of A), as the scope table's: 1 % unless set.
    void setThreshold(double threshold);

    const PooledComparison &comparison() const { return m_comparison; }
    // The texts shown, for tests and reports: side 0 = A, 1 = B, 2 = the B/A change.
    QString text(Figure figure, int side) const;
    // Its tooltip, which says how the change was judged.
    QString toolTip(Figure figure, int side) const;
    // What the figures are per: "per run", or "per GPU" where runs have ranks.
    QString unitText() const;
    // The colour of the change (side 2): the palette's text for a tested finding, else grey.
    QColor changeColor(Figure figure) const;

    static QString figureName(Figure figure);
    static QString formatFigure(Figure figure, double value);

private:
    void refresh();
    // What the change of a figure is: its verdict, interval and test, or why it is not tested.
    QString changeToolTip(Figure figure, int tested) const;
    void setPerGpu(bool perGpu);

    PooledComparison m_comparison;
    QLabel *m_sideLabel[2] = {};
    QLabel *m_perRun = nullptr; // "per run", or "per GPU" where runs have ranks
    std::array<std::array<QLabel *, 3>, NUM_FIGURES> m_cells{};
    std::array<QColor, NUM_FIGURES> m_changeColors{};
};

} // namespace scopeline
