// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the step's time went, as a waterfall: A's mean step time, the change of GPU busy and of each
// idle cause (from the running total, coloured by its verdict, with its 95 % CI), then B's step time;
// the means add up, so the bars close on B. A click on an idle cause selects it; again, or elsewhere,
// clears.

#include "widgets/charts/plottheme.h"
#include "widgets/charts/waterfallplot.h"

#include "model/comparison/stepbreakdown.h"

#include <QWidget>

#include <array>
#include <vector>

class QCustomPlot;

namespace scopeline {

class StepWaterfall : public QWidget
{
    Q_OBJECT
public:
    // What each bar shows, top to bottom: A's step, the changes, B's step; with communication, busy
    // is its two parts, compute and exposed communication (barParts()).
    static constexpr std::array<StepPart, 6> kBarParts = {StepPart::Step,       StepPart::Busy,
                                                          StepPart::LaunchLate, StepPart::GpuWaiting,
                                                          StepPart::Unknown,    StepPart::Step};
    const std::vector<StepPart> &barParts() const { return m_parts; }

    explicit StepWaterfall(QWidget *parent = nullptr);

    // Not owned; nullptr clears. Clears the selected cause.
    void setBreakdown(const StepBreakdown *breakdown);
    // The bars drawn (in ns), empty when there is nothing to compare.
    const std::vector<WaterfallBar> &bars() const { return m_bars; }
    // The selected idle cause (StepPart::LaunchLate, GpuWaiting or Unknown as int), -1 when none.
    int selectedCause() const { return m_selected; }
    void setSelectedCause(int part);

    QCustomPlot *plot() const { return m_plot; }

signals:
    void selectedCauseChanged(int part);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    static int minimumHeight(int bars);
    void rebuild();
    QString toolTip(int bar) const;

    QCustomPlot *m_plot = nullptr;
    PlotTheme m_theme;
    const StepBreakdown *m_breakdown = nullptr;
    std::vector<WaterfallBar> m_bars;
    std::vector<StepPart> m_parts{kBarParts.begin(), kBarParts.end()};
    int m_selected = -1;
};

} // namespace scopeline
