// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What scopeline-cli and the window share of reading their command lines.

#include <QString>
#include <QStringList>

class QCommandLineParser;

namespace scopeline {

// Why parser.parse(arguments) failed, naming an unknown option as it was typed: "unknown option -step
// (a long option takes two dashes: --step?)" where Qt says "Unknown options: s, t, e, p.".
QString commandLineError(const QCommandLineParser &parser, const QStringList &arguments);

} // namespace scopeline
