// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One column of a result table, described once in model/: its title and tooltip (Qt model, HTML, CLI),
// its CSV key and raw value, and how the value reads as text. Every view of the table walks the same
// list, so a column added to the list appears in all of them.

#include "csvfield.h"

#include <QString>
#include <QStringList>
#include <QVariant>

#include <functional>
#include <vector>

namespace scopeline {

template <typename Row> struct TableColumn
{
    QString csvKey;  // the CSV header's field
    QString title;   // the column header in the GUI, the HTML report and the CLI
    QString tooltip; // what the column means, one sentence
    // The raw value: a double (NaN when there is none), an integer or a text. The CSV writes it in
    // full; the Qt model gives it for sorting.
    std::function<QVariant(const Row &)> value;
    // The value as a reader sees it ("1.23 ms", "+4.1%", "B faster").
    std::function<QString(const Row &)> text;
    int cliWidth = 0; // characters in the CLI table (negative: left-aligned); 0: not printed there
};

// The CSV of a table: the keys, then one line per row.
template <typename Row>
QString tableCsv(const std::vector<TableColumn<Row>> &columns, const std::vector<Row> &rows)
{
    QStringList line;
    for (const TableColumn<Row> &c : columns)
        line << c.csvKey;
    QString csv = line.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const Row &row : rows) {
        line.clear();
        for (const TableColumn<Row> &c : columns)
            line << csvValue(c.value(row));
        csv += line.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

// The CLI's fixed-width table: the columns with a cliWidth, titles first.
template <typename Row>
QString tableText(const std::vector<TableColumn<Row>> &columns, const std::vector<Row> &rows)
{
    auto cells = [&columns](auto cell) {
        QStringList line;
        for (const TableColumn<Row> &c : columns)
            if (c.cliWidth != 0)
                line << QStringLiteral("%1").arg(cell(c), c.cliWidth);
        return line.join(QLatin1Char(' ')).trimmed() + QLatin1Char('\n');
    };
    QString text = cells([](const TableColumn<Row> &c) { return c.title; });
    for (const Row &row : rows)
        text += cells([&row](const TableColumn<Row> &c) { return c.text(row); });
    return text;
}

} // namespace scopeline
