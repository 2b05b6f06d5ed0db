// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "What changed": the step first (StepBreakdownView: did it get faster, and where did the time go),
// then the kernel diff of A and B: a header line (GPU busy and kernel time per run), a banner when the
// verdicts could not measure differences between processes, the table of kernels (or ops) sorted by
// their contribution to the change in GPU time, a waterfall chart of the largest contributions, and
// for the selected row its durations (boxplots, run medians) and statistics. Selecting a row asks
// for its kernels to be highlighted in the timelines (kernelSelected).

#include "model/comparison/kerneldiff.h"
#include "model/loading/loadedrun.h"

#include <QList>
#include <QWidget>

#include <memory>
#include <vector>

class QCheckBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace scopeline {

class BoxPlotView;
class CaveatBanner;
class ContributionChart;
class KernelDiffModel;
class RawValueSortProxy;
class StepBreakdownView;

class KernelDiffView : public QWidget
{
    Q_OBJECT
public:
    explicit KernelDiffView(QWidget *parent = nullptr);
    ~KernelDiffView() override;

    void setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &labelA,
                  const QString &labelB);

    bool foldNumbers() const;
    void setFoldNumbers(bool fold);
    // One row per op (KernelDiffOptions::byOp) rather than per kernel name.
    bool byOp() const { return m_options.byOp; }
    void setByOp(bool byOp);
    double threshold() const { return m_options.threshold; } // fraction
    void setThreshold(double threshold);

    // The diff shown (nullptr before a pair is set), the header as plain text (the kernel diff's
    // line, then the step's), and its CSV (the columns of scopeline-cli diff --csv).
    const KernelDiff *diff() const { return m_diff.get(); }
    QString headerText() const;
    QString csv() const;

    // The diff row whose kernel is selected, -1 when none; selectRow(-1) clears the selection.
    int currentRow() const { return m_current; }
    void selectRow(int row);

    StepBreakdownView *stepView() const { return m_steps; }
    KernelDiffModel *model() const { return m_model; }
    QTableView *tableView() const { return m_table; }
    ContributionChart *chart() const { return m_chart; }
    BoxPlotView *boxPlot() const { return m_boxPlot; }
    QLabel *kernelStats() const { return m_kernelStats; }
    CaveatBanner *caveatBanner() const { return m_caveat; }
    QCheckBox *byOpCheck() const { return m_byOp; }
    QLineEdit *filterEdit() const { return m_filter; }

signals:
    // The exact kernel names of the selected row (several when folded or by op); empty when cleared.
    void kernelSelected(const QStringList &names);
    void settingsChanged();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void recompute();
    void showKernel(int row);
    void showCaption(); // the selected kernel's verdict and p's, on one line
    // The capped columns at their caps, then widened toward their contents by what the table has spare.
    void fitCappedColumns();

    // A process of a side: its name and its runs (indices among the runs the diff counts).
    struct Process
    {
        QString name;
        std::vector<int> runs;
    };

    QList<LoadedRun> m_runsA, m_runsB;
    std::vector<Process> m_processes[2]; // per side, when processes are the unit; else empty
    KernelDiffOptions m_options;
    std::shared_ptr<const KernelDiff> m_diff;
    int m_current = -1;
    StepBreakdownView *m_steps = nullptr;
    QLabel *m_header = nullptr;
    CaveatBanner *m_caveat = nullptr;
    QLineEdit *m_filter = nullptr;
    QCheckBox *m_fold = nullptr;
    QCheckBox *m_byOp = nullptr;
    KernelDiffModel *m_model = nullptr;
    RawValueSortProxy *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    struct CappedColumn
    {
        int column, cap, content;
    };
    std::vector<CappedColumn> m_capped; // in the order they get the spare width back
    ContributionChart *m_chart = nullptr;
    BoxPlotView *m_boxPlot = nullptr;
    QLabel *m_kernelStats = nullptr;
};

} // namespace scopeline
