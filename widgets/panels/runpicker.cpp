// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/runpicker.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyleOptionComboBox>
#include <QStylePainter>

#include <algorithm>

namespace scopeline {

QString ElidingComboBox::shownText() const
{
    QStyleOptionComboBox option;
    initStyleOption(&option);
    const QRect field =
        style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
    return fontMetrics().elidedText(currentText(), Qt::ElideMiddle, field.width() - 2); // the label's margins
}

void ElidingComboBox::paintEvent(QPaintEvent *)
{
    QStylePainter painter(this);
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    option.currentText = shownText();
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

RunPicker::RunPicker(const QString &side, QWidget *parent) : QWidget(parent)
{
    m_runBox = new ElidingComboBox;
    m_runBox->setToolTip(tr("Run of side %1 shown in the timeline").arg(side));
    m_runBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_runBox->setMinimumContentsLength(22); // long run names elide instead of widening the window
    m_rankLabel = new QLabel(tr("Rank:"));
    m_rankBox = new QComboBox;
    m_rankBox->setToolTip(tr("GPU of the run of side %1 shown in the timeline: one rank's CPU and GPU "
                             "rows at a time (the Ranks tab shows them all)")
                              .arg(side));
    m_rankBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_runBox);
    layout->addWidget(m_rankLabel);
    layout->addWidget(m_rankBox);
    m_rankLabel->hide();
    m_rankBox->hide();

    connect(m_runBox, &QComboBox::activated, this, [this] {
        // the same rank of the other run, when it has one
        const int rank = m_rankBox->currentIndex() >= 0 ? m_rankBox->currentData().toInt() : -1;
        fillRanks(rank);
        emit activated(currentIndex());
    });
    connect(m_rankBox, &QComboBox::activated, this, [this] { emit activated(currentIndex()); });
}

void RunPicker::setRuns(const std::vector<TraceRun> &runs)
{
    m_runs = runs;
    m_entriesOfRun.clear();
    m_runBox->clear();
    for (int i = 0; i < int(runs.size()); ++i) {
        const int item = m_runBox->findText(runs[size_t(i)].name, Qt::MatchExactly);
        if (item >= 0 && runs[size_t(i)].rank >= 0) {
            m_entriesOfRun[size_t(item)].push_back(i);
            continue;
        }
        m_runBox->addItem(runs[size_t(i)].name, runs[size_t(i)].file); // the rank goes in the rank box
        m_entriesOfRun.push_back({i});
    }
    for (std::vector<int> &entries : m_entriesOfRun)
        std::stable_sort(entries.begin(), entries.end(),
                         [this](int a, int b) { return m_runs[size_t(a)].rank < m_runs[size_t(b)].rank; });
    fillRanks(-1);
}

void RunPicker::fillRanks(int keepRank)
{
    m_rankBox->clear();
    const int item = m_runBox->currentIndex();
    const bool ranked = item >= 0 && m_runs[size_t(m_entriesOfRun[size_t(item)].front())].rank >= 0;
    if (ranked) {
        for (const int entry : m_entriesOfRun[size_t(item)]) {
            const TraceRun &run = m_runs[size_t(entry)];
            m_rankBox->addItem(run.worldSize > 0 ? tr("%1 of %2").arg(run.rank).arg(run.worldSize)
                                                 : QString::number(run.rank),
                               run.rank);
        }
        m_rankBox->setCurrentIndex(std::max(0, m_rankBox->findData(keepRank)));
    }
    m_rankLabel->setVisible(ranked);
    m_rankBox->setVisible(ranked);
}

int RunPicker::currentIndex() const
{
    const int item = m_runBox->currentIndex();
    if (item < 0)
        return -1;
    const std::vector<int> &entries = m_entriesOfRun[size_t(item)];
    return entries[size_t(std::clamp(m_rankBox->currentIndex(), 0, int(entries.size()) - 1))];
}

void RunPicker::setCurrentIndex(int index)
{
    for (int item = 0; item < int(m_entriesOfRun.size()); ++item) {
        const std::vector<int> &entries = m_entriesOfRun[size_t(item)];
        const auto found = std::find(entries.begin(), entries.end(), index);
        if (found == entries.end())
            continue;
        m_runBox->setCurrentIndex(item);
        fillRanks(m_runs[size_t(index)].rank);
        return;
    }
}

} // namespace scopeline
