// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A QSplitter that shares its first real size among its widgets in given proportions (setSizes before
// the first layout is not kept: Qt falls back to size hints); after that the user's drags rule.

#include <QList>
#include <QSplitter>

namespace scopeline {

class ProportionalSplitter : public QSplitter
{
public:
    ProportionalSplitter(Qt::Orientation orientation, QList<int> weights, QWidget *parent = nullptr)
        : QSplitter(orientation, parent), m_weights(std::move(weights))
    {}

    // Sizes saved with saveState() earlier, kept instead of the proportions; false if they do not fit.
    bool restoreSizes(const QByteArray &state)
    {
        m_applied = restoreState(state);
        return m_applied;
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QSplitter::resizeEvent(event);
        shareByWeights();
    }

private:
    // Once, at the first real size.
    void shareByWeights()
    {
        const int total = orientation() == Qt::Vertical ? height() : width();
        if (m_applied || total <= 0)
            return;
        m_applied = true;
        int sum = 0;
        for (int w : m_weights)
            sum += w;
        QList<int> sizes;
        for (int w : m_weights)
            sizes.push_back(sum > 0 ? total * w / sum : 0);
        setSizes(sizes);
    }

    QList<int> m_weights;
    bool m_applied = false;
};

} // namespace scopeline
