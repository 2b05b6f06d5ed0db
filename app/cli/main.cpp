// SPDX-License-Identifier: GPL-3.0-or-later
// scopeline-cli: load traces, print their launch analysis and scopes, compare scopes between two sides,
// write a report. Exit status: 0 success, 1 bad usage, 2 unreadable input (or unwritable report).

#include "clicommands.h"

#include <QApplication>
#include <QCoreApplication>

#include <cstring>
#include <memory>

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
    // Only `report` renders widgets (boxplots, timelines); it needs a QApplication, always on the
    // offscreen platform: a report is headless by design and must work without a display.
    const bool report = argc > 1 && std::strcmp(argv[1], "report") == 0;
    std::unique_ptr<QCoreApplication> app;
    if (report) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        g_defaultHandler = qInstallMessageHandler(reportMessageHandler);
        app = std::make_unique<QApplication>(argc, argv);
    } else {
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    QCoreApplication::setApplicationName(QStringLiteral("scopeline-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SCOPELINE_VERSION));
    return scopeline::cli::run(QCoreApplication::arguments());
}
