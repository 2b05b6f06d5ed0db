// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A file is written whole or not at all: every byte is checked on its way to the disk before the file
// takes its name. (A QSaveFile written through its buffer commits a short file when the disk fills or
// a file-size limit is reached: the failed flush goes unseen.) A FIFO, a device or a terminal is written
// into instead, being no file that can be replaced.

#include <QByteArray>
#include <QSaveFile>
#include <QString>

namespace scopeline {

// Writes bytes to file, opening it unbuffered first if it is not open; false when any byte did not
// reach the file (file.errorString() has the system's reason). A QSaveFile's caller then commits it, or
// drops it to discard its temporary.
bool writeAll(QFileDevice &file, const QByteArray &bytes);

// writeAll, then commit: empty when the file is in place, else the system's reason ("No space left on
// device"), the file left as it was. Where path is (or links to) a FIFO, a device or a terminal, such
// as /dev/stdout, the bytes are written into it.
QString saveFile(const QString &path, const QByteArray &bytes);

// Why saving to path would fail, as far as can be told before writing (a folder there, no such folder
// to hold it, a folder or file that cannot be written): empty when it may succeed. Long work checks its
// output first, so that a mistyped path does not cost the work.
QString saveProblem(const QString &path);

// Makes the folder, and its parents where missing: empty when it is there, else the system's reason
// ("Not a directory" where a parent is a file), which QDir::mkpath does not give.
QString makeFolder(const QString &folder);

} // namespace scopeline
