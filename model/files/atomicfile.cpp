// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/files/atomicfile.h"

#include <QFile>
#include <QFileInfo>

#include <filesystem>
#include <system_error>

namespace scopeline {

bool writeAll(QFileDevice &file, const QByteArray &bytes)
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
    // Replacing it would put a regular file in the place of a pipe or device node.
    if (const QFileInfo target(path); target.exists() && !target.isFile() && !target.isDir()) {
        QFile stream(path);
        return writeAll(stream, bytes) ? QString() : stream.errorString();
    }
    QSaveFile file(path);
    if (!writeAll(file, bytes) || !file.commit())
        return file.errorString();
    return {};
}

QString saveProblem(const QString &path)
{
    const QFileInfo target(path);
    if (target.isDir())
        return QStringLiteral("it is a folder");
    if (target.exists())
        return target.isWritable() || !target.isFile() ? QString() : QStringLiteral("the file is read-only");
    const QFileInfo folder(target.absolutePath());
    if (!folder.isDir())
        return QStringLiteral("no folder %1").arg(folder.filePath());
    if (!folder.isWritable())
        return QStringLiteral("the folder %1 is not writable").arg(folder.filePath());
    return {};
}

QString makeFolder(const QString &folder)
{
    std::error_code error;
    const std::filesystem::path path(QFile::encodeName(folder).toStdString());
    if (std::filesystem::create_directories(path, error) || std::filesystem::is_directory(path))
        return {};
    return QString::fromLocal8Bit(error ? error.message()
                                        : std::make_error_code(std::errc::not_a_directory).message());
}

} // namespace scopeline
