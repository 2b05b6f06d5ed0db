// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A vs B: summary strip, the one-process caveat when it applies, scope picker (filter, multi-select,
// match and sample modes), boxplots per scope (pooled or per run pair, log scale), and the statistics
// table with verdicts.

#include "model/loading/loadedrun.h"
#include "model/comparison/replication.h"
#include "model/comparison/scopecomparison.h"

#include <QList>
#include <QWidget>

#include <memory>

class QAction;
class QCheckBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace scopeline {

class BoxPlotView;
class CaveatBanner;
class ProportionalSplitter;
class ComparisonTableModel;
class ScopePicker;
class SummaryStrip;

class ComparisonPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ComparisonPanel(QWidget *parent = nullptr);
    ~ComparisonPanel() override;

    void setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &labelA,
                  const QString &labelB);

    QStringList selectedScopes() const;
    void setSelectedScopes(const QStringList &scopes);
    void selectDefaultScope(); // see ScopePicker::selectDefaultScope
    MatchMode matchMode() const;
    void setMatchMode(MatchMode mode);
    SampleMode sampleMode() const;
    void setSampleMode(SampleMode mode);
    double threshold() const; // fraction, default 0.01
    void setThreshold(double threshold);
    bool pooled() const;
    void setPooled(bool pooled);
    bool logScale() const;
    void setLogScale(bool logScale);

    // The current statistics rows, as the table shows them (each scope's verdict row first).
    const std::vector<ComparisonRow> &rows() const;
    // The same in the order scopeline-cli compare writes them (a scope's run pairs, then its verdict
    // row), for the CSV and the report, which must read as the CLI's; and that CSV.
    std::vector<ComparisonRow> rowsAsCompared() const;
    QString csv() const;
    // The boxplot, for export (savePng).
    QCustomPlot *plot() const;

    // The parts, for tests and for callers that want to reach into them.
    SummaryStrip *summaryStrip() const { return m_summary; }
    // Shown when the sides' runs come from one process a side (Replication::caveat).
    CaveatBanner *caveatBanner() const { return m_caveat; }
    // Why scopes cannot be compared when a side's kernels carry no scope names; empty otherwise.
    QString scopeNote() const;
    ScopePicker *picker() const { return m_picker; }
    BoxPlotView *boxPlot() const { return m_boxPlot; }
    ComparisonTableModel *tableModel() const { return m_tableModel; }
    QSortFilterProxyModel *tableProxy() const { return m_tableProxy; }
    QTableView *tableView() const { return m_table; }

protected:
    void resizeEvent(QResizeEvent *event) override;

signals:
    // Scopes, modes or options changed (the document is modified).
    void settingsChanged();

private:
    void recompute();
    void updatePlot();
    void copyCsv(bool selectedOnly);

    QList<LoadedRun> m_runsA, m_runsB;          // keep the scope indexes alive
    std::unique_ptr<Replication> m_replication; // the runs' processes, for the run-level tests
    std::vector<const ScopeIndex *> m_indexA, m_indexB;
    bool m_noScopes = false; // neither side has a scope to select (ScopeComparison::noScopesNote)
    SummaryStrip *m_summary = nullptr;
    CaveatBanner *m_caveat = nullptr;
    QLabel *m_scopeNote = nullptr;
    ScopePicker *m_picker = nullptr;
    BoxPlotView *m_boxPlot = nullptr;
    ComparisonTableModel *m_tableModel = nullptr;
    QSortFilterProxyModel *m_tableProxy = nullptr;
    QTableView *m_table = nullptr;
    ProportionalSplitter *m_plotAndTable = nullptr; // the boxplot and the table
    QLabel *m_tableCaption = nullptr;
    QAction *m_pooledAction = nullptr;
    QAction *m_perRunAction = nullptr;
    QAction *m_pooledToggle = nullptr;
    QAction *m_logAction = nullptr;
    QCheckBox *m_logCheck = nullptr;
    QDoubleSpinBox *m_thresholdSpin = nullptr;
    QAction *m_copyCsv = nullptr;
    QAction *m_copySelectedCsv = nullptr;
    double m_threshold = 0.01;
    bool m_pooled = true;
};

} // namespace scopeline
