// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A read-only Qt table model over a column description of model/ (tablecolumn.h): the same titles,
// tooltips, texts and raw values as the CSV, the CLI and the HTML report.

#include "model/tables/tablecolumn.h"

#include <QAbstractTableModel>

#include <vector>

namespace scopeline {

template <typename Row> class ColumnTableModel : public QAbstractTableModel
{
public:
    enum Roles {
        RawValueRole = Qt::UserRole, // the column's raw value (what the CSV writes, for sorting)
    };

    explicit ColumnTableModel(const std::vector<TableColumn<Row>> &columns, QObject *parent = nullptr)
        : QAbstractTableModel(parent), m_columns(columns)
    {}

    void setRows(std::vector<Row> rows)
    {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }
    const std::vector<Row> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_columns.size());
    }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid))
            return {};
        const TableColumn<Row> &column = m_columns[std::size_t(index.column())];
        const Row &row = m_rows[std::size_t(index.row())];
        switch (role) {
        case Qt::DisplayRole:
            return column.shown(row);
        case Qt::ToolTipRole: // a text the view may elide reads whole here, above what its column is
            return column.cliWidth < 0 ? column.display(row) + QLatin1Char('\n') + column.tooltip
                                       : column.tooltip;
        case Qt::TextAlignmentRole:
            return int((column.cliWidth < 0 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
        case RawValueRole:
            return column.value(row);
        default:
            return {};
        }
    }
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
            return {};
        if (role == Qt::DisplayRole)
            return m_columns[std::size_t(section)].title;
        if (role == Qt::ToolTipRole)
            return m_columns[std::size_t(section)].tooltip;
        return {};
    }

private:
    const std::vector<TableColumn<Row>> &m_columns;
    std::vector<Row> m_rows;
};

} // namespace scopeline
