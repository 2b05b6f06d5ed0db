// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Kernel names as a table, a chart or the CLI shows them: short, and never two that read alike
// (elementwise kernels share long heads and tails and differ in the middle: a functor, a lambda's
// number, a template argument). The full name is the tooltip's.

#include <QString>
#include <QStringList>

namespace scopeline {

// A demangled C++ name without its leading "void " and its parameter list.
QString shortKernelName(QString name);

// The names, shortened to at most `width` characters (at least 16) and told apart: each short name
// elided in the middle; where two would still read alike, each keeps its head and, after "…", the
// part where it differs from the others; names the same to the end get " #2", " #3".
QStringList distinctKernelNames(const QStringList &names, int width);
// The same of names taken as they are (scope names: their parentheses kept).
QStringList distinctNames(const QStringList &names, int width);

} // namespace scopeline
