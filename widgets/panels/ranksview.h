// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Ranks tab, for runs of several GPUs: a run's ranks over time (RankOverview), each rank's step as
// compute, exposed communication and idle (bars and table, RankTable's columns), its waits at each
// collective (WaitHeatmap), who waited at collectives and who arrived last, and with
// two sides A against B for the mean over ranks, the slowest rank and each rank. A row's double-click
// asks for that rank in its side's timeline.

#include "model/comparison/ranktable.h"

#include <QList>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QTabWidget;
class QTableView;

namespace scopeline {

template <typename Row> class ColumnTableModel;
class RankBars;
class RankOverview;
class WaitHeatmap;

class RanksView : public QWidget
{
    Q_OBJECT
public:
    explicit RanksView(QWidget *parent = nullptr);
    ~RanksView() override;

    void setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b);
    // The step scope the figures are per (What changed's; empty: the detected one).
    void setStepScope(const QString &scope);
    // Whether any run of either side spans several GPUs.
    bool hasRanks() const { return m_hasRanks; }
    const RankTable *table() const { return m_table.get(); }
    QTableView *rankTableView() const { return m_rankView; }
    QTableView *comparisonView() const { return m_comparisonView; }
    QTableView *collectivesView() const { return m_collectivesView; }
    // The tables' tabs: A against B (shown only when something was tested), Per rank, Per collective.
    QTabWidget *tableTabs() const { return m_tableTabs; }
    RankBars *bars() const { return m_bars; }
    RankOverview *overview() const { return m_overview; }
    WaitHeatmap *waits() const { return m_waits; }
    // Which run the overview shows: "A run_0", …
    QComboBox *overviewPicker() const { return m_overviewRun; }
    // What the picked run's ranks did, the caveats, and why A against B was not tested.
    QString notes() const;

signals:
    // side 0 = A, 1 = B; the run's name and the rank (TraceRun::label() is "run · rank N").
    void rankActivated(int side, const QString &run, int rank);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showOverview(int index);
    void rebuild();
    static int runColumn(); // of the Per rank table
    void fitRunColumn();

    QList<LoadedRun> m_runs[2];
    QString m_stepScope;
    std::unique_ptr<RankTable> m_table;
    bool m_hasRanks = false;
    QLabel *m_notes = nullptr;
    RankBars *m_bars = nullptr;
    RankOverview *m_overview = nullptr;
    WaitHeatmap *m_waits = nullptr;
    QComboBox *m_overviewRun = nullptr;
    ColumnTableModel<RankRow> *m_rankModel = nullptr;
    ColumnTableModel<RankComparisonRow> *m_comparisonModel = nullptr;
    ColumnTableModel<CollectiveRow> *m_collectivesModel = nullptr;
    QTableView *m_rankView = nullptr, *m_comparisonView = nullptr, *m_collectivesView = nullptr;
    QTabWidget *m_tableTabs = nullptr;
    bool m_compared = false; // A against B tested: its tab shown
    int m_runNameWidth = 0;  // the Per rank table's run column, as wide as its names (px)
};

} // namespace scopeline
