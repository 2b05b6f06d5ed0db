// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Step time against step index, one line per run, A's runs in A's colour and B's in B's: warm-up
// steps and outlier runs stand out where the waterfall's means hide them. Runs of one step each are
// placed by run.

#include "widgets/charts/plottheme.h"

#include <QString>
#include <QWidget>

class QCustomPlot;

namespace scopeline {

class StepBreakdown;
struct RunSteps;

class StepTimeChart : public QWidget
{
    Q_OBJECT
public:
    explicit StepTimeChart(QWidget *parent = nullptr);

    // One graph per run, A's runs then B's (not owned; nullptr clears).
    void setBreakdown(const StepBreakdown *breakdown);
    // The sides' names in the legend ("A: eager").
    void setLabels(const QString &labelA, const QString &labelB);
    // The value axis' unit in ns (1e6: ms).
    double unitNs() const { return m_unitNs; }

    QCustomPlot *plot() const { return m_plot; }
    // What the tooltip at a position of the plot says: the step of the point there (its side's label,
    // run, time, kernels, busy time); empty off the points.
    QString stepToolTip(const QPoint &pos) const;

signals:
    // A point was clicked: that step of that run (RunSteps::run) of side 0 (A) or 1 (B), its range.
    void stepClicked(int side, const QString &run, int64_t start, int64_t end);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void rebuild();
    // The point nearest pos, within a few pixels: its side, run and step; false when none.
    bool pointAt(const QPoint &pos, int &side, const RunSteps *&run, int &step) const;
    // The axes' titles as the height allows: a short chart (1366 x 768) keeps its plot for the lines,
    // the value axis titled by its unit alone and the step axis by its ticks.
    void titleAxes();

    QCustomPlot *m_plot = nullptr;
    PlotTheme m_theme;
    const StepBreakdown *m_breakdown = nullptr;
    double m_unitNs = 1;
    QString m_labels[2];
    QString m_stepTitle, m_tickPrefix, m_unitName;
};

} // namespace scopeline
