// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// All ranks of one run at a glance: a compact lane per rank over the run's time (the ranks of one host
// share a clock), each pixel column filled by its share of compute, of exposed communication (only
// communication running) and idle, so that the rank the others wait for shows as the one computing
// while they communicate.

#include "model/analysis/busysegments.h"
#include "model/analysis/runsummary.h"

#include <QStringList>
#include <QWidget>

#include <vector>

namespace scopeline {

class RankOverview : public QWidget
{
    Q_OBJECT
public:
    explicit RankOverview(QWidget *parent = nullptr);

    // The ranks of one run, each with its label ("rank 3"); the summaries must outlive the view.
    void setRanks(std::vector<const RunSummary *> ranks, const QStringList &labels);
    int laneCount() const { return int(m_ranks.size()); }
    // A lane's height at the present size, and every how many lanes a rank is labelled (labelStep).
    int laneHeight() const;
    int labelledEvery() const;

    // What a lane's time splits into over [from, to) (ns on the lanes' axis): compute (any
    // non-communication kernel running), exposed communication (only communication kernels), ns each.
    BusyShares shares(int lane, int64_t from, int64_t to) const;
    // The time the lanes span on their axis: on the ranks' shared clock, the first kernel start to the
    // last kernel end over all ranks; where their kernels never overlap (clocks of different hosts, or
    // other jobs) each lane from its own first kernel (ownClocks), which the axis then says.
    int64_t start() const { return m_start; }
    int64_t end() const { return m_end; }
    bool ownClocks() const { return m_ownClocks; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::vector<const RunSummary *> m_ranks;
    std::vector<std::vector<BusySegment>> m_segments; // a lane's, by start
    std::vector<int64_t> m_offset;                    // a lane's clock at the axis's 0 (ownClocks)
    bool m_ownClocks = false;
    QStringList m_labels;
    int64_t m_start = 0, m_end = 0;
};

} // namespace scopeline
