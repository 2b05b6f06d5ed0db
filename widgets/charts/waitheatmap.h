// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How long each rank waited at each collective of a run, as a rank × collective heatmap: the rank that
// holds the others back is the row that never waits while the others do.

#include "model/comparison/ranktable.h"

#include <QWidget>

class QCustomPlot;
class QCPColorMap;

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

protected:
    void changeEvent(QEvent *event) override;

private:
    void rebuild();

    QCustomPlot *m_plot = nullptr;
    QCPColorMap *m_map = nullptr;
    const RunCollectives *m_run = nullptr;
};

} // namespace scopeline
