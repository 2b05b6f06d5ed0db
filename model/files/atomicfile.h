// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A file is written whole or not at all: every byte is checked on its way to the disk before the file
// takes its name. (A QSaveFile written through its buffer commits a short file when the disk fills or
// a file-size limit is reached: the failed flush goes unseen.)

#include <QByteArray>
#include <QSaveFile>
#include <QString>

namespace scopeline {

// Writes bytes to file, opening it unbuffered first if it is not open; false when any byte did not
// reach the file (file.errorString() has the system's reason). The caller then commits the file, or
// drops it to discard its temporary.
bool writeAll(QSaveFile &file, const QByteArray &bytes);

// writeAll, then commit: empty when the file is in place, else the system's reason ("No space left on
// device"), the file left as it was.
QString saveFile(const QString &path, const QByteArray &bytes);

} // namespace scopeline
