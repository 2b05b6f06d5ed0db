// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/files/atomicfile.h"

namespace scopeline {

bool writeAll(QSaveFile &file, const QByteArray &bytes)
{
    // Unbuffered: each write reaches the file descriptor at once and reports its own failure.
    if (!file.isOpen() && !file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return false;
    qint64 done = 0;
    while (done < bytes.size()) {
        const qint64 written = file.write(bytes.constData() + done, bytes.size() - done);
        if (written <= 0)
            return false;
        done += written;
    }
    return file.error() == QFileDevice::NoError;
}

QString saveFile(const QString &path, const QByteArray &bytes)
{
    QSaveFile file(path);
    if (!writeAll(file, bytes) || !file.commit())
        return file.errorString();
    return {};
}

} // namespace scopeline
