// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The step of each rank of one run as a stacked bar: compute, exposed communication, idle (mean per
// step), so that the rank that holds the step back shows at a glance.

#include "model/comparison/ranktable.h"
#include "widgets/charts/plottheme.h"

#include <QWidget>

#include <vector>

class QCustomPlot;

namespace scopeline {

class RankBars : public QWidget
{
    Q_OBJECT
public:
    explicit RankBars(QWidget *parent = nullptr);

    // One bar per row (the ranks of one run), top to bottom in the rows' order.
    void setRows(const std::vector<RankRow> &rows);
    // The axis reaches at least this far (ns), in the unit that fits it: charts side by side share a
    // scale. 0: the longest step's.
    void setScale(double ns);
    // The bars' labels, top to bottom ("rank 3").
    const QStringList &labels() const { return m_labels; }
    // What hovering row i's bar shows: its rank's step in its three parts, its wait at collectives and
    // how often it arrived last (the labels are thinned where the ranks are many).
    QString rankToolTip(int row) const;
    QCustomPlot *plot() const { return m_plot; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void rebuild();
    // A label for every rank where a line of text fits, else for every second, fourth, … rank.
    void labelRanks();

    QCustomPlot *m_plot = nullptr;
    std::vector<RankRow> m_rows;
    QStringList m_labels;
    double m_scaleNs = 0;
    int m_labelEvery = 0; // the labels' step the ticker has (0: none set)
};

} // namespace scopeline
