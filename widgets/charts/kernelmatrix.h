// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The kernel × variant matrix as a heatmap: the kernels that changed most in any candidate, one row
// each, a column per candidate; the colour is the change of the kernel's GPU time per run against
// the baseline (green less, red more, on a scale that spans the significant changes; new and gone
// kernels at its ends, lettered), grey where there is no verdict (no significant or meaningful
// change, or no test), "–" where the kernel is on neither side.

#include "model/comparison/variantdiff.h"

#include <QWidget>

class QCustomPlot;
class QCPColorMap;

namespace scopeline {

class KernelMatrix : public QWidget
{
    Q_OBJECT
public:
    explicit KernelMatrix(QWidget *parent = nullptr);

    // At most `rows` kernels, in the diff's order, and no more than have room for their names.
    void setDiff(const VariantDiff *diff, int rows = 24);
    // The value a cell shows: the change (a fraction, clamped to ±kLimit; "new" and "gone" at the
    // limits), NaN for grey.
    static double cellValue(const KernelDiffRow *cell);
    static constexpr double kLimit = 0.5;
    QCustomPlot *plot() const { return m_plot; }
    QCPColorMap *map() const { return m_map; }
    const QStringList &kernels() const { return m_kernels; }

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void rebuild();
    void fitToPlot();

    QCustomPlot *m_plot = nullptr;
    QCPColorMap *m_map = nullptr;
    const VariantDiff *m_diff = nullptr;
    int m_rows = 24;
    int m_fittingRows = 24;   // kernels whose names have room beside the cells, as laid out last
    int m_axisWidth = 100000; // the axis width the candidates' names are fitted to (px); at first, whole
    QStringList m_kernels;
};

} // namespace scopeline
