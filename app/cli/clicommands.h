// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The scopeline-cli commands (info, scopes, compare, diff, report) over the model and widgets libraries.

#include <QStringList>

namespace scopeline::cli {

enum ExitCode { Success = 0, BadUsage = 1, Unreadable = 2 };

// Runs the command line (arguments()[0] is the program) and returns the exit status.
int run(const QStringList &arguments);

} // namespace scopeline::cli
