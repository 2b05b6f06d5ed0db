// SPDX-License-Identifier: GPL-3.0-or-later
// scopeline-report: `scopeline-cli report`, which scopeline-cli hands over to (it runs as
// `scopeline-report report A B ...`). Renders widgets, always on the offscreen platform: a report is
// headless by design and must work without a display.

#include "app/cli/clicommands.h"

#include <QApplication>

#include <cstdio>

namespace {

QtMessageHandler g_defaultHandler = nullptr;

// The offscreen platform's notes about what it cannot do are noise in a command's output.
void reportMessageHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg &&
        (message.startsWith(QLatin1String("This plugin does not support")) ||
         message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set"))))
        return;
    g_defaultHandler(type, context, message);
}

} // namespace

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    g_defaultHandler = qInstallMessageHandler(reportMessageHandler);
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("scopeline-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SCOPELINE_VERSION));
    const QStringList arguments = QCoreApplication::arguments().mid(1);
    if (arguments.value(0) != QLatin1String("report")) { // run by hand, not as scopeline-cli hands over
        std::fputs("scopeline-report writes the report of `scopeline-cli report A B --out DIR`: run that "
                   "(scopeline-cli --help says how)\n",
                   stderr);
        return scopeline::cli::BadUsage;
    }
    return scopeline::cli::reportCommand(arguments);
}
