// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The mean step of each variant as a stacked bar: GPU busy (compute and exposed communication when a
// variant communicates) and idle by cause; each candidate with the interval of its step (Fieller's
// interval of its ratio to the baseline, at the level its verdict is judged, times the baseline's
// mean). A sweep (every label a
// number) is drawn as lines over the parameter instead, with its top kernels' time per run.

#include "model/comparison/variantdiff.h"
#include "model/comparison/variantsteps.h"

#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPGraph;

namespace scopeline {

class VariantBars : public QWidget
{
    Q_OBJECT
public:
    explicit VariantBars(QWidget *parent = nullptr);

    // labels: every variant's, the baseline's first; sweep: the parameter of each, in the same order
    // (empty: bars). A sweep also draws its top kernels (kernels' first rows: the largest change in
    // any candidate) as dashed lines of their time per run on the right axis, the candidates' with
    // their intervals. Both are set at once: neither may outlive the other here.
    void setVariants(const VariantSteps *variants, const VariantDiff *kernels, const QStringList &labels,
                     const std::vector<double> &sweep = {});
    // The kernels drawn, and one's time per run in each variant (ns; 0 where it does not run).
    const QStringList &kernels() const { return m_kernels; }
    std::vector<double> kernelValues(int kernel) const;
    // The parts drawn, bottom to top, and each variant's value of one (ns per step).
    const std::vector<StepPart> &parts() const { return m_parts; }
    std::vector<double> values(StepPart part) const;
    // What the tooltip over a variant's bar (a sweep's point) says: its mean step and each part, and for
    // a candidate its change against the baseline with the interval and verdict (stepChangeText).
    QString variantToolTip(int variant) const;
    // The variant drawn at a position of the plot (a bar, or a sweep's nearest point); -1 off them.
    int variantAt(const QPoint &pos) const;
    // A part's colour: the timeline's hues for the idle causes and communication, busy time in slate.
    static QColor partColour(StepPart part);
    QCustomPlot *plot() const { return m_plot; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void rebuild();
    void labelVariants();
    // The plot is short (a laptop's screen): its legend takes more columns, so fewer rows.
    bool shortPlot() const;
    int kernelColumns() const;   // the legend's columns when it names kernels
    void fitLegendColumns();     // the legend's entries a row: as many as the width shows whole
    void nameKernels(int width); // the kernels' legend names, fitted to a legend column of the plot's width

    QCustomPlot *m_plot = nullptr;
    const VariantSteps *m_variants = nullptr;
    const VariantDiff *m_diff = nullptr;
    static constexpr int kTopKernels = 3;
    QStringList m_kernels;
    QVector<QCPGraph *> m_kernelGraphs; // the sweep's kernel lines, m_kernels' order
    QStringList m_labels;
    int m_labelWidth = -1; // the axis width the names under the bars were fitted to (px)
    bool m_labelledShort = false; // and whether the plot was short then
    std::vector<double> m_sweep;
    std::vector<StepPart> m_parts;
};

} // namespace scopeline
