// SPDX-License-Identifier: GPL-3.0-or-later
// scopeline-cli: load traces, print their launch analysis and scopes, compare scopes between two sides,
// write a report. Exit status: 0 success, 1 bad usage, 2 unreadable input (or unwritable report).

#include "clicommands.h"

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("scopeline-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SCOPELINE_VERSION));
    return scopeline::cli::run(QCoreApplication::arguments());
}
