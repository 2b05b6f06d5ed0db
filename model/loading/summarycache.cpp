// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/summarycache.h"

#include "model/analysis/runsummaryfile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>
#include <atomic>
#include <mutex>

#include <sys/stat.h>
#include <sys/time.h>

namespace scopeline {

namespace {

constexpr qint64 kEdgeBytes = 64 * 1024; // of a trace's start and end, read into its key
constexpr int kMaxFolderFiles = 64; // a run folder of more is read each time: its key would read them all

// What a file is, as the key reads it: its size, modification time (ns) and inode.
QByteArray fileIdentity(const QString &path)
{
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) != 0 || !S_ISREG(st.st_mode))
        return {};
    return QByteArray::number(qint64(st.st_size)) + ' ' + QByteArray::number(qint64(st.st_mtim.tv_sec)) + '.' +
           QByteArray::number(qint64(st.st_mtim.tv_nsec)) + ' ' + QByteArray::number(quint64(st.st_ino)) + ' ' +
           QByteArray::number(quint64(st.st_dev));
}

// The program that summarises: a rebuilt one (another loader, other figures) finds none of the old
// summaries.
const QByteArray &programIdentity()
{
    // none where the program cannot be told: then nothing is kept
    static const QByteArray exe = fileIdentity(QStringLiteral("/proc/self/exe"));
    static const QByteArray identity =
        exe.isEmpty() ? QByteArray() : exe + ' ' + QByteArray::number(RunSummaryFile::kVersion);
    return identity;
}

std::atomic<bool> g_off{false};

// The files the cache keeps: summaries, and the GPUs of traces of several.
const QString kDevicesSuffix = QStringLiteral(".devices");
QStringList keptFilePatterns()
{
    return {RunSummaryFile::fileNamePattern(), QLatin1Char('*') + kDevicesSuffix};
}

QString devicesFile(const QString &entry)
{
    return entry.chopped(RunSummaryFile::suffix().size()) + kDevicesSuffix;
}

void touch(const QString &file)
{
    ::utimes(QFile::encodeName(file).constData(), nullptr); // used now: trim keeps it longer
}

} // namespace

void SummaryCache::turnOff()
{
    g_off = true;
}

QString SummaryCache::folder()
{
    const QByteArray set = qgetenv("SCOPELINE_SUMMARY_CACHE");
    if (g_off || set == "off")
        return {};
    if (!set.isEmpty())
        return QString::fromLocal8Bit(set);
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    return cache.isEmpty() ? QString() : cache + QStringLiteral("/scopeline/summaries");
}

QString SummaryCache::entryOf(const QString &trace, int device)
{
    const QString dir = folder();
    const QFileInfo info(trace);
    const QString path = info.absoluteFilePath();
    if (dir.isEmpty() || programIdentity().isEmpty())
        return {};
    // A run that is a folder (rocprofv3's database per process) is known by every file in it.
    QStringList files;
    if (info.isDir()) {
        for (const QString &name : QDir(path).entryList(QDir::Files, QDir::Name))
            files << path + QLatin1Char('/') + name;
        if (files.isEmpty() || files.size() > kMaxFolderFiles)
            return {};
    } else {
        files << path;
        // A database's last commits may sit in its write-ahead log (or a journal) until a checkpoint,
        // the database file itself untouched: they are the run too.
        for (const char *side : {"-wal", "-journal"})
            if (QFileInfo::exists(path + QLatin1String(side)))
                files << path + QLatin1String(side);
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(programIdentity());
    hash.addData(path.toUtf8() + '\0' + QByteArray::number(device) + '\0');
    for (const QString &name : files) {
        const QByteArray identity = fileIdentity(name);
        QFile file(name);
        if (identity.isEmpty() || !file.open(QIODevice::ReadOnly))
            return {};
        hash.addData(name.toUtf8() + '\0' + identity + '\0');
        hash.addData(file.read(kEdgeBytes));
        if (file.size() > kEdgeBytes && file.seek(std::max(kEdgeBytes, file.size() - kEdgeBytes)))
            hash.addData(file.read(kEdgeBytes));
    }
    return dir + QLatin1Char('/') + QString::fromLatin1(hash.result().toHex()) + RunSummaryFile::suffix();
}

std::shared_ptr<RunSummary> SummaryCache::find(const QString &entry)
{
    if (entry.isEmpty() || !QFileInfo::exists(entry))
        return nullptr;
    auto summary = std::make_shared<RunSummary>();
    if (!RunSummaryFile::read(entry, *summary).isEmpty())
        return nullptr; // damaged: written again by the load that follows
    touch(entry);
    return summary;
}

std::vector<int> SummaryCache::findDevices(const QString &entry)
{
    if (entry.isEmpty())
        return {};
    QFile file(devicesFile(entry));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    std::vector<int> devices;
    for (const QByteArray &word : file.read(4096).split(' ')) {
        bool ok = false;
        const int device = word.trimmed().toInt(&ok);
        if (!ok || device < 0 || (!devices.empty() && device <= devices.back()))
            return {}; // damaged: the trace is read again, and the list written again
        devices.push_back(device);
    }
    if (devices.size() < 2)
        return {};
    touch(file.fileName());
    return devices;
}

void SummaryCache::storeDevices(const QString &entry, const std::vector<int> &devices)
{
    if (entry.isEmpty())
        return;
    QByteArrayList words;
    for (const int device : devices)
        words << QByteArray::number(device);
    QSaveFile file(devicesFile(entry));
    if (file.open(QIODevice::WriteOnly) && file.write(words.join(' ')) >= 0)
        file.commit();
}

bool SummaryCache::store(const QString &entry, const RunSummary &summary)
{
    if (entry.isEmpty() || !QDir().mkpath(QFileInfo(entry).path()) ||
        !RunSummaryFile::write(summary, entry).isEmpty())
        return false;
    // trimmed once a process: a folder of thousands is listed once, not once a run
    static std::once_flag trimmed;
    std::call_once(trimmed, [&entry] { trim(QFileInfo(entry).path(), kMaxBytes); });
    return true;
}

SummaryCache::Cleared SummaryCache::clear()
{
    Cleared cleared;
    const QString dir = folder();
    if (dir.isEmpty())
        return cleared;
    for (const QFileInfo &file : QDir(dir).entryInfoList(keptFilePatterns(), QDir::Files)) {
        const int64_t size = file.size(); // read before it goes
        if (QFile::remove(file.filePath())) {
            cleared.files += file.fileName().endsWith(RunSummaryFile::suffix());
            cleared.bytes += size;
        }
    }
    return cleared;
}

void SummaryCache::trim(const QString &folder, int64_t maxBytes)
{
    // newest first: what is left beyond maxBytes goes
    const QFileInfoList files = QDir(folder).entryInfoList(keptFilePatterns(), QDir::Files, QDir::Time);
    int64_t kept = 0;
    for (const QFileInfo &file : files) {
        kept += file.size();
        if (kept > maxBytes)
            QFile::remove(file.filePath());
    }
}

} // namespace scopeline
