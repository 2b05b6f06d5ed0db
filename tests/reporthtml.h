// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the report's HTML holds for a text and for a table's header row, written out for the tests
// independently of the report's code.

#include "model/tables/tablecolumn.h"

#include <QString>

#include <vector>

// Text as the report writes it into HTML (single quotes too: its attributes are single-quoted).
inline QString htmlText(const QString &text)
{
    return text.toHtmlEscaped().replace(QLatin1Char('\''), QLatin1String("&#39;"));
}

// A table's header row in the report, from its columns.
template <typename Row> QString htmlHeader(const std::vector<scopeline::TableColumn<Row>> &columns)
{
    QString header = QStringLiteral("<tr>");
    for (const scopeline::TableColumn<Row> &column : columns)
        header +=
            QStringLiteral("<th title='%1'>%2</th>").arg(htmlText(column.tooltip), htmlText(column.title));
    return header + QStringLiteral("</tr>");
}
