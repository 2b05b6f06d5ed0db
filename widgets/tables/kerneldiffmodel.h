// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The rows of a kernel diff (KernelDiff) as a table: the verdict on the kernel's GPU time per run and,
// beside it, the per-call change with its own verdict; calls and GPU time per run on each side, the
// difference and its share of the total change, medians, and the time-per-run test. Rows by op when
// the diff is (the first column is then "Op"); process-dependent rows are set in italics. Titles,
// tooltips, texts and raw values (RawValueRole, for sorting) come from KernelDiff::tableColumns().

#include "model/comparison/kerneldiff.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace scopeline {

class KernelDiffModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Roles {
        RawValueRole = Qt::UserRole, // double (NaN when empty) or QString
        VerdictRole,                 // int(Verdict) of the row, in every column
        ProcessDependentRole,        // bool: in only some processes of a side, in every column
    };

    explicit KernelDiffModel(QObject *parent = nullptr);

    // The position of a column by its CSV key (KernelDiff::tableKeys()); -1 when the table has none.
    static int column(const char *key) { return KernelDiff::tableKeys().indexOf(QLatin1String(key)); }

    void setDiff(std::shared_ptr<const KernelDiff> diff);
    // The kernel column's names are told apart within this many characters (16 … 60, default 60): the
    // width the view gives the column, so that it need not elide them again and cut what differs.
    void setNameWidth(int chars);
    // The kernel column's names at that width, as setNameWidth would make them.
    QStringList namesAt(int chars) const;
    const KernelDiff *diff() const { return m_diff.get(); }
    const KernelDiffRow &row(int row) const { return m_diff->rows()[std::size_t(row)]; }

    // The verdict's explanation: what is tested, on which units, why a tied p is what it is, and
    // the row's process dependence and caveat.
    static QString verdictToolTip(const KernelDiffRow &row);
    static QString perCallToolTip(const KernelDiffRow &row);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString kernelToolTip(const KernelDiffRow &row) const;
    QString toolTip(const KernelDiffRow &row, const QString &key) const;

    std::shared_ptr<const KernelDiff> m_diff;
    std::vector<TableColumn<KernelDiffRow>> m_columns; // KernelDiff::tableColumns()
    QStringList m_kernels;                             // the rows' kernel names, bounded
    QStringList m_names; // the kernel column's texts: short, no two alike (distinctKernelNames)
    int m_nameWidth;
};

} // namespace scopeline
