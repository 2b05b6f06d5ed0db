// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which run of a side a timeline shows: a run box, and beside it a rank box when the run spans
// several GPUs (one rank's CPU and GPU rows at a time).

#include "model/loading/tracefolder.h"

#include <QComboBox>
#include <QWidget>

#include <vector>

class QLabel;

namespace scopeline {

// A combo box whose current text, when too long for the box, is shown elided in the middle (styles
// cut it at the edge: an nsys file's name lost its end); the list shows every name whole.
class ElidingComboBox : public QComboBox
{
public:
    using QComboBox::QComboBox;
    // The current text as painted.
    QString shownText() const;

protected:
    void paintEvent(QPaintEvent *event) override;
};

class RunPicker : public QWidget
{
    Q_OBJECT
public:
    // side: "A" or "B", for the tooltips.
    explicit RunPicker(const QString &side, QWidget *parent = nullptr);

    // The side's entries in order: a run's rank files are one entry of the run box.
    void setRuns(const std::vector<TraceRun> &runs);
    // The entry shown (an index into the runs given), -1 when there is none.
    int currentIndex() const;
    void setCurrentIndex(int index);

    QComboBox *runBox() const { return m_runBox; }
    QComboBox *rankBox() const { return m_rankBox; }

signals:
    // The user picked another entry.
    void activated(int index);

private:
    void fillRanks(int keepRank);

    std::vector<TraceRun> m_runs;
    std::vector<std::vector<int>> m_entriesOfRun; // per run box item: its entries, by rank
    QComboBox *m_runBox = nullptr;
    QLabel *m_rankLabel = nullptr;
    QComboBox *m_rankBox = nullptr;
};

} // namespace scopeline
