// SPDX-License-Identifier: GPL-3.0-or-later
// scopeline-cli: load traces, print their launch analysis and scopes, compare scopes between two sides,
// write a report. Exit status: 0 success, 1 bad usage, 2 unreadable input or unwritable output, 3 the
// CI gate (--fail-on) tripped, 4 the gate had nothing to judge.

#include "app/cli/clicommands.h"

#include <QCoreApplication>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("scopeline-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SCOPELINE_VERSION));
    int status = scopeline::cli::run(QCoreApplication::arguments());
    scopeline::cli::err().flush(); // warnings first, where they came at a normal exit
    scopeline::cli::out().flush();
    // A report that did not reach its file (a full disk under `> comment.md`) must not pass for one.
    if (scopeline::cli::out().status() != QTextStream::Ok || std::fflush(stdout) != 0 ||
        std::ferror(stdout)) {
        std::fprintf(stderr, "scopeline-cli: cannot write to standard output: %s\n", std::strerror(errno));
        status = scopeline::cli::Unreadable;
    }
#ifndef __SANITIZE_ADDRESS__ // the leak check runs at a normal exit
    // All is written: ending here skips joining the idle pool threads and tearing Qt down, which
    // leaves nothing behind that the OS does not clear (2-3 ms of a 0.2 s load).
    std::fflush(nullptr);
    std::_Exit(status);
#endif
    return status;
}
