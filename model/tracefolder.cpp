// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracefolder.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

#include <algorithm>

namespace scopeline {

namespace {

constexpr int kMaxDepth = 8;
// Folders visited before giving up: a trace folder has a few hundred; "/" or a home folder would take
// minutes and is a wrong pick, not a trace folder.
constexpr int kMaxFolders = 5000;

QString tr(const char *text)
{
    return QCoreApplication::translate("TraceFolder", text);
}

// JAX writes each profile twice; the trace-viewer file is preferred, never both.
QString jaxProfileFile(const QDir &profileDir)
{
    const QStringList viewer = profileDir.entryList(
        {QStringLiteral("*.trace.json.gz"), QStringLiteral("*.trace.json")}, QDir::Files, QDir::Name);
    if (!viewer.isEmpty())
        return profileDir.filePath(viewer.first());
    for (const char *name : {"perfetto_trace.json.gz", "perfetto_trace.json"})
        if (profileDir.exists(QLatin1String(name)))
            return profileDir.filePath(QLatin1String(name));
    return {};
}

// False when more than kMaxFolders were visited (`visited` counts them).
bool scanFolder(const QDir &root, const QDir &dir, int depth, int &visited, std::vector<TraceRun> &runs)
{
    if (++visited > kMaxFolders)
        return false;
    const QString relative = root.relativeFilePath(dir.absolutePath());
    auto runName = [&](const QString &suffix) {
        const QString base = relative == QLatin1String(".") ? QString() : relative;
        if (base.isEmpty())
            return suffix.isEmpty() ? dir.dirName() : suffix;
        return suffix.isEmpty() ? base : base + QLatin1Char('/') + suffix;
    };

    // A JAX run folder: plugins/profile/<timestamp>/ with one profile per session.
    const QDir profiles(dir.filePath(QStringLiteral("plugins/profile")));
    if (profiles.exists()) {
        const QStringList sessions = profiles.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString &session : sessions) {
            const QString file = jaxProfileFile(QDir(profiles.filePath(session)));
            if (!file.isEmpty())
                runs.push_back({sessions.size() == 1 ? runName({}) : runName(session), file});
        }
        return true;
    }

    QFileInfoList traces;
    // rocprofv3 (ROCm 7) writes one <pid>_results.db per process of a run: several are one run, the folder.
    const bool rocpdRun = dir.entryList({QStringLiteral("*_results.db")}, QDir::Files).size() > 1;
    for (const QFileInfo &info : dir.entryInfoList(QDir::Files, QDir::Name))
        if (TraceFolder::isTraceFileName(info.fileName()) &&
            !(rocpdRun && info.fileName().endsWith(QLatin1String("_results.db"))))
            traces.append(info);
    if (rocpdRun)
        runs.push_back({runName({}), dir.absolutePath()});
    // A subfolder with one trace is a run folder (scopeline-hipbench's run_<i>/): named after it.
    const bool runFolder = traces.size() == 1 && depth > 0 && !rocpdRun;
    for (const QFileInfo &info : traces)
        runs.push_back({runFolder ? runName({}) : runName(info.fileName()), info.absoluteFilePath()});

    if (depth >= kMaxDepth)
        return true;
    for (const QFileInfo &info : dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (!scanFolder(root, QDir(info.absoluteFilePath()), depth + 1, visited, runs))
            return false;
    return true;
}

// Whether a path (component) holds a wildcard character.
bool hasWildcard(const QString &path)
{
    return std::any_of(path.begin(), path.end(), [](QChar c) {
        return c == QLatin1Char('*') || c == QLatin1Char('?') || c == QLatin1Char('[');
    });
}

// Expands wildcards one path component at a time.
QStringList expandWildcards(const QString &path)
{
    const QString clean = QDir::cleanPath(path);
    const QStringList parts = clean.split(QLatin1Char('/'));
    QStringList current = {clean.startsWith(QLatin1Char('/')) ? QStringLiteral("/") : QStringLiteral(".")};
    for (const QString &part : parts) {
        if (part.isEmpty())
            continue;
        QStringList next;
        for (const QString &base : current) {
            const QDir dir(base);
            if (hasWildcard(part)) {
                for (const QString &match : dir.entryList({part}, QDir::AllEntries | QDir::NoDotAndDotDot))
                    next.append(dir.filePath(match));
            } else if (QFileInfo::exists(dir.filePath(part))) {
                next.append(dir.filePath(part));
            }
        }
        current = next;
    }
    return current;
}

// "run2" before "run10": digit runs compare by value. QCollator's numeric mode does not work in
// the C locale that headless machines and CI run in.
bool naturalLess(const QString &a, const QString &b)
{
    int i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            int ei = i, ej = j;
            while (ei < a.size() && a[ei].isDigit())
                ++ei;
            while (ej < b.size() && b[ej].isDigit())
                ++ej;
            // Compare by value without overflow: strip leading zeros, then length, then digits.
            QStringView da = QStringView(a).mid(i, ei - i), db = QStringView(b).mid(j, ej - j);
            while (da.size() > 1 && da.front() == QLatin1Char('0'))
                da = da.mid(1);
            while (db.size() > 1 && db.front() == QLatin1Char('0'))
                db = db.mid(1);
            if (da.size() != db.size())
                return da.size() < db.size();
            if (const int c = da.compare(db); c != 0)
                return c < 0;
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

} // namespace

bool TraceFolder::isTraceFileName(const QString &fileName)
{
    return fileName.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ||
           fileName.endsWith(QLatin1String(".json.gz"), Qt::CaseInsensitive) ||
           fileName.endsWith(QLatin1String(".sqlite"), Qt::CaseInsensitive) ||   // nsys export --type sqlite
           fileName.endsWith(QLatin1String("_results.db"), Qt::CaseInsensitive); // rocprofv3 rocpd
}

std::vector<TraceRun> TraceFolder::scan(const QString &path, QString *error)
{
    auto fail = [&](const QString &message) {
        if (error)
            *error = message;
        return std::vector<TraceRun>();
    };
    const bool wildcard = hasWildcard(path);
    const QStringList targets = wildcard ? expandWildcards(path) : QStringList{path};
    if (targets.isEmpty())
        return fail(tr("%1: nothing matches this pattern").arg(path));

    std::vector<TraceRun> runs;
    for (const QString &target : targets) {
        const QFileInfo info(target);
        if (!info.exists())
            return fail(tr("%1: no such file or folder").arg(QDir::toNativeSeparators(target)));
        if (!info.isReadable())
            return fail(tr("%1: permission denied").arg(QDir::toNativeSeparators(target)));
        if (info.isFile()) {
            runs.push_back({info.fileName(), info.absoluteFilePath()});
            continue;
        }
        // With a wildcard, each match is a run named after itself.
        const QDir dir(info.absoluteFilePath());
        const QDir root = wildcard ? QDir(info.absolutePath()) : dir;
        const std::size_t before = runs.size();
        int visited = 0;
        if (!scanFolder(root, dir, 0, visited, runs))
            return fail(tr("%1: more than %2 folders below it; choose the folder that holds the runs")
                            .arg(QDir::toNativeSeparators(target))
                            .arg(kMaxFolders));
        if (runs.size() == before && !wildcard) {
            // Nsight Systems' own reports are a closed format: say how to get the open one.
            QDirIterator reports(dir.absolutePath(),
                                 {QStringLiteral("*.nsys-rep"), QStringLiteral("*.qdrep")}, QDir::Files,
                                 QDirIterator::Subdirectories);
            if (reports.hasNext())
                return fail(tr("%1: holds Nsight Systems reports (%2), a closed format; export each with "
                               "`nsys export --type sqlite <report>` and open the .sqlite files")
                                .arg(QDir::toNativeSeparators(target), QFileInfo(reports.next()).fileName()));
            // A JAX run whose profile folder holds only the XPlane protobuf, not the trace viewer's JSON.
            QDirIterator xplanes(dir.absolutePath(), {QStringLiteral("*.xplane.pb")}, QDir::Files,
                                 QDirIterator::Subdirectories);
            if (xplanes.hasNext())
                return fail(
                    tr("%1: holds only JAX XPlane profiles (%2, a protobuf), which Scopeline does not "
                       "read; it reads the *.trace.json.gz that jax.profiler writes beside them, or "
                       "perfetto_trace.json.gz (`jax.profiler.trace(dir, create_perfetto_trace=True)`)")
                        .arg(QDir::toNativeSeparators(target), QDir(dir).relativeFilePath(xplanes.next())));
            return fail(tr("%1: no trace files found (looked for plugins/profile/*/*.trace.json.gz, "
                           "*.pt.trace.json[.gz], *.json[.gz], results.json, *_results.db, *.sqlite)")
                            .arg(QDir::toNativeSeparators(target)));
        }
    }
    if (runs.empty())
        return fail(tr("%1: no trace files found").arg(path));

    std::stable_sort(runs.begin(), runs.end(),
                     [](const TraceRun &a, const TraceRun &b) { return naturalLess(a.name, b.name); });
    return runs;
}

} // namespace scopeline
