// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A side of a comparison as the user names it: `LABEL=PATH`, or a path whose label is its folder's
// name. A path that is there is a path even with a `=` in it (`K=5/`); a label may hold `=` too
// (`K=5=runs/k5`: the first split whose path is there).

#include <QList>
#include <QString>
#include <QStringList>

namespace scopeline {

struct SideArgument
{
    QString label; // as given, else the path's own name
    QString path;
    bool named = false; // the label was given (LABEL=PATH)
    // How a side is named in a pair's output: "label (path)" when a label was given, else the path.
    QString shown() const;
    static SideArgument parse(const QString &argument);
    // Why variants cannot be compared as named: two alike labels (every line and CSV row names a
    // variant by its label), or a label with no path; empty when they can.
    static QString problem(const QList<SideArgument> &sides);
    // A line for each path given twice: a candidate against the baseline itself, or one that enlarges
    // the Holm family for nothing ("A and Y are the same runs (path)").
    static QStringList sameRuns(const QList<SideArgument> &sides);
};

} // namespace scopeline
