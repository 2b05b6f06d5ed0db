// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Variants tab, for a baseline against several candidates: a line per candidate (its step
// against the baseline), each variant's step as stacked bars with the candidates' intervals (lines
// over the parameter for a sweep), the step table of every candidate, and the kernel × variant matrix
// as a heatmap, a scope's samples per variant with a Kruskal–Wallis test across them, and for jobs of
// several GPUs each candidate's ranks against the baseline's. Any two variants can be opened in the
// pair views.

#include "model/comparison/sweep.h"
#include "model/comparison/variantdiff.h"
#include "model/comparison/variantranks.h"
#include "model/comparison/variantscopes.h"
#include "model/comparison/variantsteps.h"

#include <QList>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;

class QScrollArea;

namespace scopeline {

class BoxPlotView;
class KernelMatrix;
class VariantBars;
template <typename Row> class ColumnTableModel;

class VariantsView : public QWidget
{
    Q_OBJECT
public:
    explicit VariantsView(QWidget *parent = nullptr);
    ~VariantsView() override;

    // sides[0] is the baseline; labels and paths per side, in the same order. notes: said under the
    // lines (variants left out, say).
    void setVariants(const std::vector<QList<LoadedRun>> &sides, const QStringList &labels,
                     const QStringList &paths, const QStringList &notes = {});
    void clear();
    // What the pair views judge with, so that a candidate's figures here are theirs: What changed's
    // step scope (empty: the detected one) and threshold, and the Scopes tab's matching and samples.
    void setSettings(const QString &stepScope, double threshold, MatchMode match, SampleMode samples);
    bool hasVariants() const { return m_steps != nullptr; }
    const QStringList &labels() const { return m_labels; }
    const QStringList &paths() const { return m_paths; }
    const VariantSteps *steps() const { return m_steps.get(); }
    const VariantDiff *diff() const { return m_diff.get(); }
    VariantBars *bars() const { return m_bars; }
    KernelMatrix *matrix() const { return m_matrix; }
    QTableView *stepTable() const { return m_stepView; }
    // The Scopes sub-tab: a scope's samples, the baseline against each candidate side by side, and the
    // Kruskal–Wallis test across every variant.
    QComboBox *scopeBox() const { return m_scopeBox; }
    BoxPlotView *boxes() const { return m_boxes; }
    const VariantScopes *scopes() const { return m_scopes.get(); }
    // The Ranks sub-tab, shown for runs of several GPUs: each candidate's mean over ranks, slowest
    // rank and ranks against the baseline's, judged together; else null.
    const VariantRanks *ranks() const { return m_ranks.get(); }
    QTableView *rankTable() const { return m_rankView; }
    QString scopeNote() const; // the scope's Kruskal–Wallis line and each candidate's verdict
    // Variants whose labels are all numbers (three or more): the sweep over them; else null.
    const Sweep *sweep() const { return m_sweep.get(); }
    QComboBox *pairA() const { return m_pairA; }
    QComboBox *pairB() const { return m_pairB; }

    // The candidates' lines above the figures, scrolled past a quarter of the view.
    QScrollArea *leadArea() const { return m_leadArea; }
    QString leadText() const;

signals:
    // Open these two variants in the pair views (timelines, What changed, Scopes).
    void pairRequested(const QString &pathA, const QString &pathB);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild(); // the figures of m_sides with the settings
    void fitLead(); // the lines' area as tall as they are, up to a quarter of the view
    void showScope(const QString &scope);

    StepBreakdownOptions m_stepOptions;
    KernelDiffOptions m_diffOptions;
    MatchMode m_match = MatchMode::Component;
    SampleMode m_samples = SampleMode::Kernel;

    std::vector<QList<LoadedRun>> m_sides;
    QStringList m_labels, m_paths;
    QStringList m_notes; // SideArgument::sameRuns of the variants, and what setVariants was told
    std::unique_ptr<VariantScopes> m_scopes;
    std::unique_ptr<Sweep> m_sweep;
    QComboBox *m_scopeBox = nullptr;
    BoxPlotView *m_boxes = nullptr;
    QLabel *m_scopeNote = nullptr;
    std::unique_ptr<VariantSteps> m_steps;
    std::unique_ptr<VariantDiff> m_diff;
    std::unique_ptr<VariantRanks> m_ranks;
    QLabel *m_lead = nullptr;
    QScrollArea *m_leadArea = nullptr;
    VariantBars *m_bars = nullptr;
    KernelMatrix *m_matrix = nullptr;
    ColumnTableModel<VariantStepRow> *m_stepModel = nullptr;
    QTableView *m_stepView = nullptr;
    ColumnTableModel<VariantRankComparisonRow> *m_rankModel = nullptr;
    QTableView *m_rankView = nullptr;
    QTabWidget *m_figures = nullptr;
    QComboBox *m_pairA = nullptr, *m_pairB = nullptr;
    QPushButton *m_open = nullptr;
};

} // namespace scopeline
