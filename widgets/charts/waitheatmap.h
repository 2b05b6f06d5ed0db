// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How long each rank waited at each collective of a run, as a rank × collective heatmap: the rank that
// holds the others back is the row that never waits while the others do.

#include "model/comparison/ranktable.h"

#include <QWidget>

class QCustomPlot;
class QCPColorMap;
class QCPItemText;

namespace scopeline {

class WaitHeatmap : public QWidget
{
    Q_OBJECT
public:
    explicit WaitHeatmap(QWidget *parent = nullptr);

    // The run's matched collectives (nullptr clears).
    void setCollectives(const RunCollectives *run);
    QCustomPlot *plot() const { return m_plot; }
    QCPColorMap *map() const { return m_map; }
    // What a cell says when hovered: the rank, the collective (its number in run order and kind) and
    // the wait; empty outside the map.
    QString cellText(int collective, int rankRow) const;
    // A collective's short name on the axis: its number and kind ("3 AllReduce").
    QString collectiveLabel(int collective) const;
    // Why the map is empty (no collective matched on every rank, waits not measured), in its place;
    // empty while it shows waits.
    QString emptyText() const;

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild();

    QCustomPlot *m_plot = nullptr;
    QCPColorMap *m_map = nullptr;
    QCPItemText *m_empty = nullptr;
    const RunCollectives *m_run = nullptr;
};

} // namespace scopeline
