// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/tracefolder.h"

#include "model/analysis/runsummaryfile.h"
#include "model/loading/rankinfo.h"
#include "model/loading/sessionfile.h"

#include "model/formats/tracereader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStringDecoder>

#include <algorithm>
#include <cerrno>
#include <map>
#include <set>

#include <dirent.h>
#include <sys/stat.h>

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

// A summary file's run name: its file name without the suffix `summarize` added; others as they are.
QString summaryRunName(const QString &fileName)
{
    return fileName.endsWith(RunSummaryFile::suffix(), Qt::CaseInsensitive)
               ? fileName.left(fileName.size() - RunSummaryFile::suffix().size())
               : fileName;
}

// What a scan has found so far, by real path (links resolved): each file and folder counts once.
struct Seen
{
    std::map<QString, QString> paths; // real path -> the path it was first found under
    // A trace of one GPU of a job, alone in its folder (absolute path -> its rank): a run of its own
    // that keeps its rank, so that A against B compares it with the same GPU of the other side.
    std::map<QString, RankInfo> loneRanks;
    QStringList notes;
    QString error; // why the scan stopped, when it did for a reason of the files

    // True the first time a real path is met; after that, notes the path it was met under.
    bool first(const QFileInfo &info)
    {
        const QString real = info.canonicalFilePath();
        const QString shown = QDir::toNativeSeparators(info.absoluteFilePath());
        const auto [it, inserted] = paths.emplace(real.isEmpty() ? info.absoluteFilePath() : real, shown);
        if (!inserted)
            notes << tr("%1: the same %2 as %3, counted once")
                         .arg(shown, info.isDir() ? tr("folder") : tr("file"), it->second);
        return inserted;
    }
};

// The run of a trace file that is no rank of a run of several: with its rank where it is one GPU of
// a job alone in its folder.
TraceRun traceRun(const QString &name, const QFileInfo &info, const Seen &seen)
{
    TraceRun run{name, info.absoluteFilePath()};
    if (const auto lone = seen.loneRanks.find(run.file); lone != seen.loneRanks.end()) {
        run.rank = lone->second.rank;
        run.worldSize = lone->second.worldSize;
    }
    return run;
}

// The names in a folder that are not UTF-8, as Qt shows them (U+FFFD for their bytes). Qt leaves them
// out of its listings, as it could not open them by the name it would give: without this, a run whose
// trace is so named went missing unsaid.
QStringList namesNotUtf8(const QDir &dir)
{
    QStringList names;
    DIR *listing = opendir(QFile::encodeName(dir.absolutePath()).constData());
    if (!listing)
        return names;
    while (const dirent *entry = readdir(listing)) {
        QStringDecoder utf8(QStringDecoder::Utf8);
        const QString name = utf8(QByteArrayView(entry->d_name));
        if (utf8.hasError())
            names << name;
    }
    closedir(listing);
    names.sort();
    return names;
}

// Real files and folders before links to them, so that a run is named after itself, not a link to it.
QFileInfoList realFirst(QFileInfoList entries)
{
    std::stable_partition(entries.begin(), entries.end(),
                          [](const QFileInfo &info) { return !info.isSymLink(); });
    return entries;
}

// Each trace file's rank, where it has one. A summary's rank is in its name. A trace whose distributedInfo
// and name say different ranks (a file renamed, or copied from another rank) is noted: the trace's own
// word is the one used.
std::vector<RankInfo> ranksOf(const QFileInfoList &traces, QStringList &notes)
{
    std::vector<RankInfo> ranks;
    for (const QFileInfo &info : traces) {
        if (info.fileName().endsWith(RunSummaryFile::suffix(), Qt::CaseInsensitive)) {
            ranks.push_back(RankInfo::ofName(info.fileName()));
            continue;
        }
        ranks.push_back(RankInfo::of(info.absoluteFilePath()));
        if (const RankInfo named = RankInfo::ofName(info.fileName());
            named.known() && ranks.back().known() && named.rank != ranks.back().rank)
            notes << tr("%1: its distributedInfo says rank %2, its name rank %3: read as rank %2")
                         .arg(QDir::toNativeSeparators(info.absoluteFilePath()))
                         .arg(ranks.back().rank)
                         .arg(named.rank);
    }
    return ranks;
}

// The rank files of one job hold two or more distinct ranks; copies of one rank's file are repeated runs.
bool severalRanks(const std::vector<RankInfo> &ranks)
{
    std::set<int> distinct;
    for (const RankInfo &r : ranks)
        if (r.known())
            distinct.insert(r.rank);
    return distinct.size() >= 2;
}

// The first file that states the job's world size; end() when none does.
std::vector<RankInfo>::const_iterator statedWorld(const std::vector<RankInfo> &ranks)
{
    return std::find_if(ranks.begin(), ranks.end(), [](const RankInfo &r) { return r.worldSize > 0; });
}

// Why the rank files of a folder cannot be one run, every reason at once (a folder of unrelated traces
// shows several: files without a rank, a rank twice, world sizes that differ); empty when they can.
// With lone set (no two ranks differ: copies of one GPU's file, repeated runs), why they cannot be runs
// of one job: world sizes that differ, or a trace without a rank beside a GPU of a job.
QString rankProblem(const QDir &dir, const QFileInfoList &traces, const std::vector<RankInfo> &ranks,
                    bool lone = false)
{
    const auto ranked = std::find_if(ranks.begin(), ranks.end(), [](const RankInfo &r) { return r.known(); });
    const QString aRankFile = traces[int(ranked - ranks.begin())].fileName();
    const auto stated = statedWorld(ranks);
    std::map<int, QStringList> byRank;
    QStringList unranked, problems;
    for (int i = 0; i < traces.size(); ++i) {
        const RankInfo &r = ranks[std::size_t(i)];
        const QString name = traces[i].fileName();
        if (!r.known()) {
            unranked << name;
            continue;
        }
        byRank[r.rank] << name;
        if (r.worldSize > 0 && r.worldSize != stated->worldSize)
            problems << tr("world sizes differ (%1 in %2, %3 in %4)")
                            .arg(stated->worldSize)
                            .arg(traces[int(stated - ranks.begin())].fileName())
                            .arg(r.worldSize)
                            .arg(name);
        if (!lone && r.worldSize > 0 && r.rank >= r.worldSize)
            problems << tr("%1 is rank %2 of a world of %3").arg(name).arg(r.rank).arg(r.worldSize);
    }
    QStringList first; // files without a rank, then ranks met twice (by rank), then the world sizes
    if (lone && !unranked.isEmpty() && stated != ranks.end() && stated->worldSize > 1)
        first << tr("%1 %2 no rank, beside %3, rank %4 of a job of %5 GPUs")
                     .arg(unranked.join(tr(" and ")), unranked.size() == 1 ? tr("has") : tr("have"),
                          traces[int(stated - ranks.begin())].fileName())
                     .arg(stated->rank)
                     .arg(stated->worldSize);
    else if (!lone && !unranked.isEmpty())
        first
            << (unranked.size() == 1
                    ? tr("%1 has no rank among rank files of one job (%2)").arg(unranked.front(), aRankFile)
                    : tr("%1 have no rank among rank files (%2)").arg(unranked.join(tr(" and ")), aRankFile));
    for (const auto &[rank, names] : byRank)
        if (!lone && names.size() > 1)
            first << tr("rank %1 %2 (%3)")
                         .arg(rank)
                         .arg(names.size() == 2 ? tr("twice") : tr("in %1 files").arg(names.size()))
                         .arg(names.join(tr(" and ")));
    problems = first + problems;
    if (problems.isEmpty())
        return {};
    const QString advice =
        lone ? tr("these are not runs of one job: put each job's runs in a folder of their own")
        : problems.size() > 1
            ? tr("these are not the ranks of one job: put each run's rank files in a folder of "
                 "their own, or open each trace alone")
            : tr("each run's rank files go in a folder of their own");
    return tr("%1: %2; %3")
        .arg(QDir::toNativeSeparators(dir.absolutePath()), problems.join(QStringLiteral("; ")), advice);
}

// Rank files of one job among a folder's traces are one run, named `name`: added to runs and taken out
// of traces. False with seen.error when they cannot be one run (rankProblem).
bool addRankFiles(const QDir &dir, const QString &name, QFileInfoList &traces, Seen &seen,
                  std::vector<TraceRun> &runs)
{
    const std::vector<RankInfo> ranks = ranksOf(traces, seen.notes);
    if (!severalRanks(ranks)) {
        if (std::any_of(ranks.begin(), ranks.end(), [](const RankInfo &r) { return r.known(); })) {
            seen.error = rankProblem(dir, traces, ranks, true);
            if (!seen.error.isEmpty())
                return false;
        }
        // One GPU of a job alone in its run (or copies of its file, repeated runs): its exposed
        // communication is mostly waiting for ranks not here.
        for (int i = 0; i < traces.size(); ++i)
            if (const RankInfo &rank = ranks[std::size_t(i)]; rank.known() && rank.worldSize > 1) {
                seen.notes << tr("%1: rank %2 of a job of %3 GPUs, alone here: its exposed communication "
                                 "includes waiting for the other ranks")
                                  .arg(QDir::toNativeSeparators(traces[i].absoluteFilePath()))
                                  .arg(rank.rank)
                                  .arg(rank.worldSize);
                seen.loneRanks[traces[i].absoluteFilePath()] = rank;
            }
        return true;
    }
    seen.error = rankProblem(dir, traces, ranks);
    if (!seen.error.isEmpty())
        return false;
    for (int i = 0; i < traces.size(); ++i)
        runs.push_back({name, traces[i].absoluteFilePath(), ranks[std::size_t(i)].rank,
                        ranks[std::size_t(i)].worldSize});
    const auto stated = statedWorld(ranks);
    const int world = stated == ranks.end() ? 0 : stated->worldSize;
    if (world > int(ranks.size()))
        seen.notes << tr("%1: %2 of %3 ranks of the job (a partial world)")
                          .arg(QDir::toNativeSeparators(dir.absolutePath()))
                          .arg(ranks.size())
                          .arg(world);
    traces.clear();
    return true;
}

// JSON files of Scopeline's own beside traces, which are no traces: the summary.json scopeline-hipbench
// leaves beside a recording's variants, and a session saved into a side's folder. Read as traces,
// they failed every path holding them ("no trace events").
bool hasSummaryName(const QFileInfo &info)
{
    return info.fileName().compare(QLatin1String("summary.json"), Qt::CaseInsensitive) == 0;
}

bool isScopelineFile(const QFileInfo &info)
{
    if (!hasSummaryName(info))
        return SessionFile::isSessionFile(info.absoluteFilePath());
    QFile file(info.absoluteFilePath());
    if (!file.open(QIODevice::ReadOnly))
        return false; // a trace that cannot be read says so when it is loaded
    const QByteArray head = file.read(64 * 1024);
    return !head.contains("\"traceEvents\"") && head.contains("\"runs\"");
}

// Files matched in a profile session's folder (JAX's plugins/profile/<ts>/*) are that session's one
// run, as a scan of the folder reads it: not a run for each copy or host of its profile.
void keepSessionFile(const QDir &dir, QFileInfoList &files, Seen &seen)
{
    for (const TraceReader *reader : TraceReader::all()) {
        QDir runFolder;
        std::vector<TraceReader::Session> sessions;
        if (!reader->sessionsIn(dir, runFolder, sessions) || sessions.size() != 1 ||
            QFileInfo(sessions.front().file).absolutePath() != dir.absolutePath())
            continue;
        const QString kept = QFileInfo(sessions.front().file).absoluteFilePath();
        const auto other = [&kept](const QFileInfo &info) { return info.absoluteFilePath() != kept; };
        if (std::all_of(files.begin(), files.end(), other))
            return; // the files asked for are not the one a scan reads, but the user's choice
        if (!sessions.front().note.isEmpty())
            seen.notes << sessions.front().note;
        for (const QFileInfo &info : files)
            if (other(info))
                seen.notes << tr("%1: left out, the profile session's run is %2")
                                  .arg(QDir::toNativeSeparators(info.absoluteFilePath()),
                                       QFileInfo(kept).fileName());
        files.erase(std::remove_if(files.begin(), files.end(), other), files.end());
        return;
    }
}

// A run folder of the side (a folder right below it, or one a wildcard matched) without a trace, and
// nothing said of it yet (a second name for traces met before): the side has a run fewer than the user
// may think, so it is said rather than passed over.
void noteEmptyRunFolder(const QFileInfo &folder, Seen &seen)
{
    seen.notes << tr("%1: no trace files in it, left out of the side")
                      .arg(QDir::toNativeSeparators(folder.absoluteFilePath()));
}

// False when more than kMaxFolders were visited (`visited` counts them).
bool scanFolder(const QDir &root, const QDir &dir, int depth, int &visited, Seen &seen,
                std::vector<TraceRun> &runs)
{
    if (++visited > kMaxFolders)
        return false;
    // A folder that cannot be listed looks empty: its runs would be left out of the side unsaid.
    if (const QFileInfo folder(dir.absolutePath()); !folder.isReadable() || !folder.isExecutable()) {
        seen.error = tr("%1: permission denied (a folder of the side that cannot be read)")
                         .arg(QDir::toNativeSeparators(dir.absolutePath()));
        return false;
    }
    const QString relative = root.relativeFilePath(dir.absolutePath());
    auto runName = [&](const QString &suffix) {
        const QString base = relative == QLatin1String(".") ? QString() : relative;
        if (base.isEmpty())
            return suffix.isEmpty() ? dir.dirName() : suffix;
        return suffix.isEmpty() ? base : base + QLatin1Char('/') + suffix;
    };

    // A format's own layout of runs (JAX: plugins/profile/<session>/), one run per session, named after
    // the run folder when the scan starts below it (at plugins/, or a session folder).
    for (const TraceReader *reader : TraceReader::all()) {
        QDir runFolder;
        std::vector<TraceReader::Session> sessions;
        if (!reader->sessionsIn(dir, runFolder, sessions))
            continue;
        const QString base = root.relativeFilePath(runFolder.absolutePath());
        const bool atRoot = base == QLatin1String(".") || base.startsWith(QLatin1String(".."));
        for (const TraceReader::Session &session : sessions) {
            if (!session.note.isEmpty())
                seen.notes << session.note;
            // a session read as its folder (rocpd's databases) was met as that folder already
            if (session.file.isEmpty() ||
                (!QFileInfo(session.file).isDir() && !seen.first(QFileInfo(session.file))))
                continue;
            const QString name = sessions.size() == 1
                                     ? (atRoot ? runFolder.dirName() : base)
                                     : (atRoot ? session.name : base + QLatin1Char('/') + session.name);
            runs.push_back({name, session.file});
        }
        return true;
    }

    // Files that are one run together (rocpd's database per process): the folder is that run.
    std::set<QString> oneRun;
    for (const TraceReader *reader : TraceReader::all())
        for (const QString &file : reader->filesOfOneRun(dir))
            oneRun.insert(QFileInfo(file).absoluteFilePath());
    const bool oneRunFolder = !oneRun.empty();
    for (const QString &name : namesNotUtf8(dir))
        seen.notes
            << tr("%1: a name that is not UTF-8 (shown with %2), which Scopeline cannot open: rename it")
                   .arg(QDir::toNativeSeparators(dir.filePath(name)), QChar(QChar::ReplacementCharacter));
    QFileInfoList traces;
    for (const QFileInfo &info : realFirst(dir.entryInfoList(QDir::Files, QDir::Name)))
        if (TraceFolder::isTraceFileName(info.fileName()) && !oneRun.count(info.absoluteFilePath()) &&
            !isScopelineFile(info) && seen.first(info))
            traces.append(info);
    if (oneRunFolder)
        runs.push_back({runName({}), dir.absolutePath()});
    if (!addRankFiles(dir, runName({}), traces, seen, runs))
        return false;
    // A subfolder with one trace is a run folder (scopeline-hipbench's run_<i>/): named after it.
    const auto isSummary = [](const QFileInfo &info) {
        return info.fileName().endsWith(RunSummaryFile::suffix(), Qt::CaseInsensitive);
    };
    const bool runFolder =
        std::count_if(traces.begin(), traces.end(), [&](const QFileInfo &i) { return !isSummary(i); }) == 1 &&
        depth > 0 && !oneRunFolder;
    for (const QFileInfo &info : traces) {
        // A summary is named after its run (what `summarize` wrote it as): never after its folder, unless
        // it is the run folder's own (`summarize side/run_0 -o side/run_0`): then it is that run, and the
        // check for a summary beside its trace (below) finds the two.
        if (isSummary(info)) {
            // a lone rank's summary is <run>/rank_<N>_of_<world>, as `summarize` writes a rank's
            const QString name = summaryRunName(info.fileName());
            const bool ownRun =
                (runFolder && name == dir.dirName()) || seen.loneRanks.count(info.absoluteFilePath());
            runs.push_back(traceRun(ownRun ? runName({}) : runName(name), info, seen));
        } else
            runs.push_back(traceRun(runFolder ? runName({}) : runName(info.fileName()), info, seen));
    }

    if (depth >= kMaxDepth) { // said, where folders go deeper: a trace there would go missing unsaid
        if (!dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty())
            seen.notes << tr("%1: its folders are not searched, %2 levels below %3 (open a folder nearer the "
                             "traces)")
                              .arg(QDir::toNativeSeparators(dir.absolutePath()))
                              .arg(kMaxDepth)
                              .arg(QDir::toNativeSeparators(root.absolutePath()));
        return true;
    }
    for (const QFileInfo &info :
         realFirst(dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))) {
        if (!seen.first(info))
            continue;
        const std::size_t before = runs.size();
        const qsizetype said = seen.notes.size();
        if (!scanFolder(root, QDir(info.absoluteFilePath()), depth + 1, visited, seen, runs))
            return false;
        if (depth == 0 && runs.size() == before && seen.notes.size() == said)
            noteEmptyRunFolder(info, seen);
    }
    return true;
}

// Whether the system, following a link that leads nowhere, met a loop (ELOOP: links back to one it
// passed, or more than it follows), rather than a name that is not there.
bool leadsInALoop(const QString &link)
{
    struct stat status;
    return ::stat(QFile::encodeName(link).constData(), &status) != 0 && errno == ELOOP;
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
            // A name that is there as written is that name ("exp[1]"), and an unbalanced bracket a
            // pattern that matches nothing (Qt warns on every match with it).
            if (QFileInfo::exists(dir.filePath(part))) {
                next.append(dir.filePath(part));
            } else if (hasWildcard(part) &&
                       QRegularExpression(QRegularExpression::wildcardToRegularExpression(part)).isValid()) {
                for (const QString &match : dir.entryList({part}, QDir::AllEntries | QDir::NoDotAndDotDot))
                    next.append(dir.filePath(match));
            }
        }
        current = next;
    }
    return current;
}

// The folder a wildcard's matches are named relative to: the path up to its first part with a
// wildcard ("s8p/*/*/*.gz": s8p), so that matches in folders of one name stay apart (proc_0/run_0).
QDir wildcardRoot(const QString &path)
{
    const QString clean = QDir::cleanPath(path);
    QStringList fixed;
    for (const QString &part : clean.split(QLatin1Char('/'))) {
        if (hasWildcard(part))
            break;
        fixed << part;
    }
    const QString root = fixed.join(QLatin1Char('/'));
    return QDir(root.isEmpty()
                    ? (clean.startsWith(QLatin1Char('/')) ? QStringLiteral("/") : QStringLiteral("."))
                    : root);
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

QString TraceRun::label() const
{
    return rank < 0 ? name : tr("%1 · rank %2").arg(name).arg(rank);
}

int TraceFolder::runCount(const std::vector<TraceRun> &runs)
{
    std::set<QString> ranked; // the names a run's ranks share
    int alone = 0;
    for (const TraceRun &run : runs)
        run.rank >= 0 ? void(ranked.insert(run.name)) : void(++alone);
    return alone + int(ranked.size());
}

bool TraceFolder::isTraceFileName(const QString &fileName)
{
    static const std::vector<QRegularExpression> patterns = [] {
        std::vector<QRegularExpression> expressions;
        for (const TraceReader *reader : TraceReader::all())
            for (const QString &pattern : reader->fileNamePatterns())
                expressions.emplace_back(QRegularExpression::wildcardToRegularExpression(pattern),
                                         QRegularExpression::CaseInsensitiveOption);
        expressions.emplace_back(QRegularExpression::wildcardToRegularExpression(RunSummaryFile::fileNamePattern()),
                                 QRegularExpression::CaseInsensitiveOption);
        return expressions;
    }();
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const QRegularExpression &pattern) { return pattern.match(fileName).hasMatch(); });
}

bool TraceFolder::isThere(const QString &path)
{
    return !path.isEmpty() &&
           (QFileInfo::exists(path) || (hasWildcard(path) && !expandWildcards(path).isEmpty()));
}

std::vector<TraceRun> TraceFolder::scan(const QString &path, QString *error, QStringList *notes)
{
    auto fail = [&](const QString &message) {
        if (error)
            *error = message;
        return std::vector<TraceRun>();
    };
    if (path.isEmpty()) // e.g. LABEL= with nothing after it
        return fail(tr("an empty path: give a trace file or folder"));
    const bool wildcard = hasWildcard(path) && !QFileInfo::exists(path); // "exp[1]" there: itself
    const QStringList targets = wildcard ? expandWildcards(path) : QStringList{path};
    if (targets.isEmpty())
        return fail(tr("%1: nothing matches this pattern").arg(path));

    std::vector<TraceRun> runs;
    Seen seen;
    // Files matched in one folder, as a folder's traces: the rank files of one job among them are a run.
    std::vector<std::pair<QString, QFileInfoList>> filesByFolder;
    for (const QString &target : targets) {
        const QFileInfo info(target);
        if (!info.exists() && info.isSymLink())
            return fail(leadsInALoop(target)
                            ? tr("%1: a link that leads in a loop, back to a link it passed")
                                  .arg(QDir::toNativeSeparators(target))
                            : tr("%1: a link to %2, which is not there (its target moved or was deleted)")
                                  .arg(QDir::toNativeSeparators(target), info.symLinkTarget()));
        if (!info.exists() && target.contains(QChar::ReplacementCharacter))
            return fail(
                tr("%1: a name that is not UTF-8 (shown with %2), which Scopeline cannot open: rename it")
                    .arg(QDir::toNativeSeparators(target), QChar(QChar::ReplacementCharacter)));
        if (!info.exists())
            return fail(tr("%1: no such file or folder").arg(QDir::toNativeSeparators(target)));
        if (!info.isFile() && !info.isDir()) // /dev/null, a pipe, a socket: had read as an unreadable folder
            return fail(tr("%1: not a trace file or folder (a device, pipe or socket)")
                            .arg(QDir::toNativeSeparators(target)));
        if (!info.isReadable())
            return fail(tr("%1: permission denied").arg(QDir::toNativeSeparators(target)));
        if (!seen.first(info))
            continue;
        if (info.isFile() && !wildcard && isScopelineFile(info)) {
            const QString file = QDir::toNativeSeparators(target);
            return fail(!hasSummaryName(info) // a session, as isScopelineFile found it
                            ? tr("%1: a saved Scopeline session, not a trace: open it as one (File › Open "
                                 "Session, or scopeline %1)")
                                  .arg(file)
                            : tr("%1: the summary scopeline-hipbench wrote of a recording, not a trace: "
                                 "for the pair it recorded, give its folder, %2")
                                  .arg(file, QDir::toNativeSeparators(info.absolutePath())));
        }
        if (info.isFile()) {
            const QString folder = info.absolutePath();
            if (filesByFolder.empty() || filesByFolder.back().first != folder)
                filesByFolder.emplace_back(folder, QFileInfoList());
            filesByFolder.back().second.append(info);
            continue;
        }
        // With a wildcard, each match is a run named after its path from the wildcard's root.
        const QDir dir(info.absoluteFilePath());
        const QDir root = wildcard ? QDir(wildcardRoot(path).absolutePath()) : dir;
        const std::size_t before = runs.size();
        const qsizetype said = seen.notes.size();
        int visited = 0;
        // A matched folder is a subfolder of root, as when root itself is scanned: one holding one trace
        // is a run folder named after itself (run_*), not a process folder of a run named after its file.
        if (!scanFolder(root, dir, wildcard ? 1 : 0, visited, seen, runs))
            return fail(!seen.error.isEmpty()
                            ? seen.error
                            : tr("%1: more than %2 folders below it; choose the folder that holds the runs")
                                  .arg(QDir::toNativeSeparators(target))
                                  .arg(kMaxFolders));
        if (runs.size() == before && wildcard && seen.notes.size() == said)
            noteEmptyRunFolder(info, seen);
        if (runs.size() == before && !wildcard) {
            // A folder of files that a format names but cannot read (Nsight Systems reports, JAX XPlane).
            QStringList lookedFor;
            for (const TraceReader *reader : TraceReader::all()) {
                const QString refusal = reader->folderRefusal(dir, QDir::toNativeSeparators(target));
                if (!refusal.isEmpty())
                    return fail(refusal);
                lookedFor << reader->lookedFor();
            }
            // with what the scan noticed on its way (folders too deep, names not UTF-8): why none was found
            const QStringList why = QStringList{tr("%1: no trace files found (looked for %2)")
                                                    .arg(QDir::toNativeSeparators(target),
                                                         lookedFor.join(QStringLiteral(", ")))} +
                                    seen.notes.mid(said);
            return fail(why.join(u'\n'));
        }
    }
    for (auto &[folder, files] : filesByFolder) {
        const QDir dir(folder);
        keepSessionFile(dir, files, seen);
        const QString name =
            wildcard ? QDir(wildcardRoot(path).absolutePath()).relativeFilePath(folder) : QString();
        if (!addRankFiles(dir, name.isEmpty() || name == QLatin1String(".") ? dir.dirName() : name, files,
                          seen, runs))
            return fail(seen.error);
        for (const QFileInfo &info : files)
            runs.push_back(traceRun(summaryRunName(info.fileName()), info, seen));
    }
    if (runs.empty())
        return fail(tr("%1: no trace files found").arg(path));

    std::stable_sort(runs.begin(), runs.end(), [](const TraceRun &a, const TraceRun &b) {
        return a.name == b.name ? a.rank < b.rank : naturalLess(a.name, b.name);
    });
    // A run summarised beside its trace (`summarize DIR -o DIR`) would count twice, its figures twice.
    const auto isSummary = [](const TraceRun &run) {
        return run.file.endsWith(RunSummaryFile::suffix(), Qt::CaseInsensitive);
    };
    for (std::size_t i = 1; i < runs.size(); ++i) {
        const TraceRun &a = runs[i - 1], &b = runs[i];
        if (a.name != b.name || a.rank != b.rank || isSummary(a) == isSummary(b))
            continue;
        const TraceRun &summary = isSummary(a) ? a : b, &trace = isSummary(a) ? b : a;
        return fail(tr("%1 and %2 are both run %3, a summary beside its trace: it would count twice. Keep "
                       "one of them in a side's folders (summarize into a folder of its own)")
                        .arg(QDir::toNativeSeparators(trace.file), QDir::toNativeSeparators(summary.file),
                             trace.label()));
    }
    if (notes)
        *notes = seen.notes;
    return runs;
}

} // namespace scopeline
