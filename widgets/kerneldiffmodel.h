// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The rows of a kernel diff (KernelDiff) as a table: calls and GPU time per run on each side, the
// difference and its share of the total change, medians, the run-level test and the verdict. Display
// texts are formatted; the raw number of every cell is under RawValueRole (Qt::UserRole) for sorting.

#include "model/kerneldiff.h"

#include <QAbstractTableModel>

#include <memory>

namespace scopeline {

class KernelDiffModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns {
        KernelColumn,
        VerdictColumn,
        DeltaColumn,
        ShareColumn,
        TotalAColumn,
        TotalBColumn,
        CallsAColumn,
        CallsBColumn,
        MedianAColumn,
        MedianBColumn,
        MedianChangeColumn,
        RunLevelChangeColumn,
        RunLevelPColumn,
        NUM_COLUMNS
    };
    enum Roles {
        RawValueRole = Qt::UserRole, // double (NaN when empty) or QString
        VerdictRole,                 // int(Verdict) of the row, in every column
    };

    explicit KernelDiffModel(QObject *parent = nullptr);

    void setDiff(std::shared_ptr<const KernelDiff> diff);
    const KernelDiff *diff() const { return m_diff.get(); }
    const KernelDiffRow &row(int row) const { return m_diff->rows()[std::size_t(row)]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant raw(const KernelDiffRow &row, int column) const;
    QString display(const KernelDiffRow &row, int column) const;
    QString toolTip(const KernelDiffRow &row, int column) const;

    std::shared_ptr<const KernelDiff> m_diff;
};

} // namespace scopeline
