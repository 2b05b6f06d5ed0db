// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One column of a result table, described once in model/: its title and tooltip (Qt model, HTML, CLI),
// its CSV key and raw value, and how the value reads as text. Every view of the table walks the same
// list, so a column added to the list appears in all of them: the CSV writes every column, the Qt
// model and the HTML report a table subset, the CLI a subset of that, each picked by key.

#include "model/tables/csvfield.h"
#include "model/tables/kernelnames.h"
#include "model/tables/tableformat.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <functional>
#include <vector>

namespace scopeline {

template <typename Row> struct TableColumn
{
    QString csvKey;  // the CSV header's field; also the column's id
    QString title;   // the column header in the GUI, the HTML report and the CLI
    QString tooltip; // what the column means, one sentence
    // The raw value: a double (NaN when there is none), an integer or a text. The CSV writes it in
    // full; the Qt model gives it for sorting.
    std::function<QVariant(const Row &)> value;
    // The raw value as a reader sees it ("1.23 ms", "+4.1 %"); a NaN never reaches it (an empty cell).
    std::function<QString(const QVariant &)> format;
    // For a cell that says more than its value (an interval beside a change, a verdict beside it);
    // unset: format(value(row)).
    std::function<QString(const Row &)> text = {};
    int cliWidth = 0; // least characters in the CLI table (negative: left-aligned)

    // The cell's text; empty for no value (the CLI and the HTML print "–" there).
    QString display(const Row &row) const
    {
        if (text)
            return text(row);
        const QVariant raw = value(row);
        if (raw.typeId() == QMetaType::Double && std::isnan(raw.toDouble()))
            return {};
        return format ? format(raw) : raw.toString();
    }
    // The cell as every table shows it (window, CLI, markdown, HTML): display(), "–" for no value.
    QString shown(const Row &row) const
    {
        QString text = display(row);
        return text.isEmpty() ? QStringLiteral("–") : text;
    }
};

// The columns named by `keys`, in that order: a view's subset of the table. A key not in the list is
// a programming error (the agreement test names every view's keys).
template <typename Row>
std::vector<TableColumn<Row>> selectColumns(const std::vector<TableColumn<Row>> &columns, const QStringList &keys)
{
    std::vector<TableColumn<Row>> selected;
    for (const QString &key : keys)
        for (const TableColumn<Row> &c : columns)
            if (c.csvKey == key)
                selected.push_back(c);
    Q_ASSERT(selected.size() == std::size_t(keys.size()));
    return selected;
}

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

// A table's columns as the columns of a row that holds one (`member`): the same table with more beside it.
template <typename Outer, typename Row>
std::vector<TableColumn<Outer>> liftColumns(const std::vector<TableColumn<Row>> &columns, Row Outer::*member)
{
    std::vector<TableColumn<Outer>> lifted;
    for (const TableColumn<Row> &c : columns) {
        TableColumn<Outer> outer{c.csvKey, c.title, c.tooltip,
                                 [value = c.value, member](const Outer &o) { return value(o.*member); },
                                 c.format, {}, c.cliWidth};
        if (c.text)
            outer.text = [text = c.text, member](const Outer &o) { return text(o.*member); };
        lifted.push_back(std::move(outer));
    }
    return lifted;
}

// The tables of several candidates against one baseline as one CSV: a `variant` column first (the
// candidate's label), then the columns; each candidate's rows in the order given.
template <typename Row>
QString variantTableCsv(const std::vector<TableColumn<Row>> &columns, const QStringList &labels,
                        const std::vector<const std::vector<Row> *> &tables)
{
    QStringList line{QStringLiteral("variant")};
    for (const TableColumn<Row> &c : columns)
        line << c.csvKey;
    QString csv = line.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (std::size_t t = 0; t < tables.size(); ++t)
        for (const Row &row : *tables[t]) {
            line = QStringList{csvText(labels.value(qsizetype(t)))};
            for (const TableColumn<Row> &c : columns)
                line << csvValue(c.value(row));
            csv += line.join(QLatin1Char(',')) + QLatin1Char('\n');
        }
    return csv;
}

// The CLI's fixed-width table of the given columns over the first `count` rows, titles first: each
// column as wide as its cliWidth or its widest cell in a terminal's columns (displayWidth), "–" in an
// empty cell, a text over 60 columns shortened but in the last or where `whole` is set (--wide), what
// a terminal would act on escaped (printable).
template <typename Row>
QString tableText(const std::vector<TableColumn<Row>> &columns, const std::vector<Row> &rows,
                  std::size_t count = std::numeric_limits<std::size_t>::max(), bool whole = false)
{
    constexpr int kWidest = 60;
    count = std::min(count, rows.size());
    std::vector<QStringList> cells(columns.size());
    std::vector<int> widths(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) {
        QStringList texts;
        for (std::size_t r = 0; r < count; ++r)
            texts << printable(columns[c].shown(rows[r]));
        // a 319-character scope name had widened every row to 470 columns: long names are shortened,
        // told apart, each name once (a scope stands on its pooled row and its run pairs')
        if (!whole && c + 1 < columns.size() && std::any_of(texts.begin(), texts.end(), [](const QString &t) {
                return displayWidth(t) > kWidest;
            })) {
            QStringList names = texts;
            names.removeDuplicates();
            const QStringList shown = distinctNames(names, kWidest);
            for (QString &text : texts)
                text = shown[names.indexOf(text)];
        }
        cells[c] << columns[c].title << texts;
        int width = std::abs(columns[c].cliWidth);
        for (const QString &cell : cells[c])
            width = std::max(width, displayWidth(cell));
        widths[c] = columns[c].cliWidth < 0 ? -width : width;
    }
    QString text;
    for (qsizetype r = 0; r <= qsizetype(count); ++r) {
        QStringList line;
        for (std::size_t c = 0; c < columns.size(); ++c) {
            const QString &cell = cells[c][r];
            const QString pad(std::abs(widths[c]) - displayWidth(cell), QLatin1Char(' '));
            line << (widths[c] < 0 ? cell + pad : pad + cell);
        }
        text += line.join(QLatin1Char(' ')).trimmed() + QLatin1Char('\n');
    }
    return text;
}

// A table's raw value in JSON: a double as a number (NaN, no value, as null), an integer as an
// integer, anything else as text; what the CSV holds in that field.
inline QJsonValue jsonValue(const QVariant &value)
{
    switch (value.typeId()) {
    case QMetaType::Double:
    case QMetaType::Float:
        return std::isnan(value.toDouble()) ? QJsonValue(QJsonValue::Null) : QJsonValue(value.toDouble());
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::UInt:
    case QMetaType::ULongLong:
        return QJsonValue(value.toLongLong());
    case QMetaType::UnknownType: // an empty field of the CSV: no value
        return QJsonValue(QJsonValue::Null);
    default:
        return QJsonValue(value.toString());
    }
}

// The JSON of a table: one object per row, every column under its CSV key with its raw value, so
// that a reader gets the CSV's fields without parsing it.
template <typename Row>
QJsonArray tableJson(const std::vector<TableColumn<Row>> &columns, const std::vector<Row> &rows)
{
    QJsonArray array;
    for (const Row &row : rows) {
        QJsonObject object;
        for (const TableColumn<Row> &c : columns)
            object.insert(c.csvKey, jsonValue(c.value(row)));
        array.append(object);
    }
    return array;
}

// A text as it must stand in a Markdown (CommonMark/GitHub) table cell to read as itself: the
// characters that would end the cell or start emphasis, code, links or HTML (a kernel name's
// `<float>`, a folded name's `*`) escaped, line breaks as spaces, other control and bidi characters as
// \uXXXX (printable).
inline QString markdownCell(const QString &text)
{
    QString escaped;
    escaped.reserve(text.size());
    QString oneLine = text;
    oneLine.replace(QLatin1Char('\n'), QLatin1Char(' ')).replace(QLatin1Char('\r'), QLatin1Char(' '));
    for (const QChar c : printable(oneLine)) { // bidi overrides would reorder the comment's text
        if (QStringLiteral("\\`*_[]<>|~").contains(c))
            escaped += QLatin1Char('\\');
        escaped += c;
    }
    return escaped;
}

// A text as a Markdown code span (a path, a side's label): fenced by one backtick more than its
// longest run of them, so that one inside does not end it; spaced from a fence it begins or ends with.
inline QString markdownCode(const QString &text)
{
    int longest = 0, run = 0;
    for (const QChar c : text) {
        run = c == QLatin1Char('`') ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const QString fence(longest + 1, QLatin1Char('`'));
    const QString pad = text.startsWith(QLatin1Char('`')) || text.endsWith(QLatin1Char('`'))
                            ? QStringLiteral(" ")
                            : QString();
    return fence + pad + text + pad + fence;
}

// The pull-request comment's table: the given columns over the first `count` rows as a Markdown
// table, titles first, each cell the display text the CLI prints ("–" in an empty cell), left-aligned
// where the CLI aligns left.
template <typename Row>
QString tableMarkdown(const std::vector<TableColumn<Row>> &columns, const std::vector<Row> &rows,
                      std::size_t count = std::numeric_limits<std::size_t>::max())
{
    count = std::min(count, rows.size());
    QStringList titles, rules;
    for (const TableColumn<Row> &c : columns) {
        titles << markdownCell(c.title);
        rules << (c.cliWidth < 0 ? QStringLiteral(":---") : QStringLiteral("---:"));
    }
    QString text = QStringLiteral("| ") + titles.join(QStringLiteral(" | ")) + QStringLiteral(" |\n| ") +
                   rules.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
    for (std::size_t r = 0; r < count; ++r) {
        QStringList cells;
        for (const TableColumn<Row> &c : columns)
            cells << markdownCell(c.shown(rows[r]));
        text += QStringLiteral("| ") + cells.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
    }
    return text;
}

} // namespace scopeline
