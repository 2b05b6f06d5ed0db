// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The step in "What changed": a step scope picker with the breakdown's verdict line, the waterfall from
// A's step time to B's through GPU busy and the idle causes, and each run's step times or the table.
// Selecting an idle cause asks for its gaps to be highlighted in the timelines (selectedGapsChanged).

#include "model/loading/loadedrun.h"
#include "model/comparison/stepbreakdown.h"

#include <QList>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QTableView;

namespace scopeline {

template <typename Row> class ColumnTableModel;
class StepTimeChart;
class StepWaterfall;

class StepBreakdownView : public QWidget
{
    Q_OBJECT
public:
    explicit StepBreakdownView(QWidget *parent = nullptr);
    ~StepBreakdownView() override;

    // Keeps a step scope the user picked when the new runs have it; else the detected one.
    void setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &labelA,
                  const QString &labelB);
    void setThreshold(double threshold); // fraction of A's step time
    // The step scope: a name, StepBreakdownOptions::wholeRun(), or empty for the detected one.
    void setStepScope(const QString &scope);
    // The step scope asked for (setStepScope, the picker); empty while the detected one is shown.
    QString stepScope() const { return m_options.stepScope; }

    // The breakdown shown, nullptr before a pair is set, and its header line (stepLine()).
    const StepBreakdown *breakdown() const { return m_breakdown.get(); }
    QString stepLine() const;
    // The gaps of the selected idle cause in the run of side 0 (A) or 1 (B) named `run`: [start, end)
    // in trace ns, by start; none when no cause is selected.
    std::optional<std::vector<std::pair<int64_t, int64_t>>> selectedGaps(int side, const QString &run) const;

    QComboBox *picker() const { return m_picker; }
    QLabel *lineLabel() const { return m_line; }
    StepWaterfall *waterfall() const { return m_waterfall; }
    StepTimeChart *stepChart() const { return m_chart; }
    // The breakdown's table, from StepBreakdown::columns() (the CSV's and the report's columns).
    ColumnTableModel<StepRow> *tableModel() const { return m_tableModel; }
    QTableView *tableView() const { return m_table; }

signals:
    // An idle cause was selected or cleared (a new breakdown clears it).
    void selectedGapsChanged();
    // A new breakdown, per step of this scope (stepScope()).
    void stepScopeChanged(const QString &scope);

private:
    void recompute();
    void fillPicker();
    QString shownScope() const;  // the breakdown's step scope, wholeRun() for the whole run
    QString lineToolTip() const; // what the line tests, on which units, and what it could not measure

    QList<LoadedRun> m_runsA, m_runsB;
    StepBreakdownOptions m_options; // its stepScope: what the user asked for
    std::unique_ptr<const StepBreakdown> m_breakdown;
    QComboBox *m_picker = nullptr;
    QLabel *m_line = nullptr;
    StepWaterfall *m_waterfall = nullptr;
    StepTimeChart *m_chart = nullptr;
    ColumnTableModel<StepRow> *m_tableModel = nullptr;
    QTableView *m_table = nullptr;
};

} // namespace scopeline
