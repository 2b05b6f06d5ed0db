// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The keyboard shortcut help, made from the actions themselves (their text and shortcuts), so that it
// lists what the window really binds.

#include <QList>
#include <QString>

class QAction;

namespace scopeline {

// An HTML table with one row per action that has a shortcut: its shortcuts as the platform writes them,
// and its text without mnemonics. Actions with the same text and shortcuts (one per view) are listed once.
QString shortcutHelpHtml(const QList<QAction *> &actions);

} // namespace scopeline
