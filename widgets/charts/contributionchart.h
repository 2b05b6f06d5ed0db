// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A waterfall of the change in GPU time: A's kernel time per run, then the kernels that changed it
// most (each bar from the running total to the running total plus its difference, coloured by its
// verdict), the rest as one bar, and B's kernel time per run. A click on a kernel's bar selects it.

#include "widgets/charts/plottheme.h"
#include "widgets/charts/waterfallplot.h"

#include <QString>
#include <QWidget>

#include <vector>

class QCustomPlot;

namespace scopeline {

class KernelDiff;

class ContributionChart : public QWidget
{
    Q_OBJECT
public:
    explicit ContributionChart(QWidget *parent = nullptr);

    // Shows up to `top` rows of largest |difference| (the diff's first rows), fewer when the chart is
    // too short for them; nullptr clears.
    void setDiff(const KernelDiff *diff, int top = 12);
    // Outlines the bar of this diff row (-1: none).
    void setCurrentRow(int row);
    // The diff rows shown as bars, top to bottom.
    const std::vector<int> &shownRows() const { return m_rows; }
    // The bars drawn, top to bottom: A's total, shownRows(), the rest when any, B's total.
    const std::vector<WaterfallBar> &bars() const { return m_bars; }
    // What hovering bar i shows: a kernel's whole name, its change with the interval and the p its
    // verdict was decided from; the findings the rest holds.
    QString barToolTip(int bar) const;

    QCustomPlot *plot() const { return m_plot; }

signals:
    void rowClicked(int row);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void applyTheme();
    void rebuild();
    int axisPixels() const;
    int barsThatFit() const;

    QCustomPlot *m_plot = nullptr;
    PlotTheme m_theme;
    const KernelDiff *m_diff = nullptr;
    int m_top = 12;
    int m_current = -1;
    std::vector<int> m_rows;
    std::vector<WaterfallBar> m_bars;
};

} // namespace scopeline
