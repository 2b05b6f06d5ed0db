// scopeline-cli: load traces, print their launch analysis and scopes, compare scopes between two sides.
// Exit status: 0 success, 1 bad usage, 2 unreadable input.

#include "clicommands.h"

#include <QCoreApplication>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("scopeline-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SCOPELINE_VERSION));
    return scopeline::cli::run(QCoreApplication::arguments());
}
