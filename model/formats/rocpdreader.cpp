// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/rocpdreader.h"

#include "model/formats/nsyssqlitereader.h"
#include "model/formats/rawevent.h"
#include "model/formats/sqlitedatabase.h"
#include "model/formats/tracebuilder.h"

#include <QDir>
#include <QFileInfo>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <cctype>

namespace scopeline {

namespace {

constexpr int64_t kCorrelationShift = 40; // per-database correlation ids of a multi-process run

class RocpdDatabase : public SqliteDatabase
{
public:
    using SqliteDatabase::SqliteDatabase;

protected:
    bool readDatabase(sqlite3 *db, const Names &objects, int index, int count,
                      const QString &fileName) override
    {
        if (RocpdReader::isRocpd(objects))
            return readRocpd(db, index, fileName);
        m_error = count > 1 && NsysSqliteReader::isNsysExport(objects)
                      ? tr("an Nsight Systems export among rocpd databases; open it on its own")
                      : neitherFormat(objects);
        return false;
    }

private:
    bool readRocpd(sqlite3 *db, int index, const QString &fileName);
    static std::string rocpdCategory(const std::string &category);
    static std::string markerMessage(sqlite3_stmt *stmt, int column);
};

// rocprofv3 region categories -> the categories the builder knows.
std::string RocpdDatabase::rocpdCategory(const std::string &category)
{
    if (category.find("MARKER") != std::string::npos)
        return "user_annotation"; // roctx ranges: scopes
    if (category.rfind("HIP", 0) == 0)
        return "hip_runtime";
    std::string lower = category;
    for (char &c : lower)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return lower;
}

// The "message" of a rocpd event's extdata ({"message": "..."}: a roctx range's or mark's text);
// empty when there is none. Calls' extdata is "{}", so JSON is parsed only for markers.
std::string RocpdDatabase::markerMessage(sqlite3_stmt *stmt, int column)
{
    if (sqlite3_column_type(stmt, column) != SQLITE_TEXT)
        return {};
    const std::string text = textAt(stmt, column);
    if (text.find("\"message\"") == std::string::npos)
        return {};
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (!doc.is_object())
        return {};
    const auto it = doc.find("message");
    return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

bool RocpdReader::isRocpd(const std::set<std::string> &objects)
{
    return objects.count("rocpd_kernel_dispatch") || objects.count("rocpd_region");
}

QStringList RocpdReader::rocpdFilesIn(const QString &folder)
{
    const QDir dir(folder);
    QStringList files;
    for (const QString &name : dir.entryList({QStringLiteral("*_results.db")}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

QString RocpdReader::formatName() const
{
    return tr("ROCm 7 rocpd database");
}

QStringList RocpdReader::fileNamePatterns() const
{
    return {QStringLiteral("*_results.db")};
}

QString RocpdReader::lookedFor() const
{
    return QStringLiteral("*_results.db");
}

// A folder of rocpd databases is one run; a database with rocpd's tables is one. Any other SQLite
// file falls back here, where opening and reading its schema says what is wrong with it.
TraceReader::Match RocpdReader::match(const TraceProbe &probe) const
{
    if (probe.info.isDir())
        return rocpdFilesIn(probe.path).isEmpty() ? Match::No : Match::Yes;
    if (!SqliteDatabase::hasSqliteMagic(probe.magic))
        return Match::No;
    SqliteDatabase::Names objects;
    return SqliteDatabase::objectsOf(probe.path, objects) && isRocpd(objects) ? Match::Yes : Match::Fallback;
}

QString RocpdReader::refusal(const TraceProbe &probe) const
{
    return SqliteDatabase::notSqlite(probe);
}

// ROCm 7 writes one <pid>_results.db per process of a run: several are one run, the folder.
QStringList RocpdReader::filesOfOneRun(const QDir &dir) const
{
    const QStringList files = rocpdFilesIn(dir.absolutePath());
    return files.size() > 1 ? files : QStringList();
}

bool RocpdReader::sessionsIn(const QDir &dir, QDir &runFolder, std::vector<Session> &sessions) const
{
    QStringList twins; // <pid>_results.json[.gz] beside <pid>_results.db
    for (const QString &database : rocpdFilesIn(dir.absolutePath())) {
        const QString stem = database.chopped(3); // less ".db"
        for (const QString &json : {stem + QStringLiteral(".json"), stem + QStringLiteral(".json.gz")})
            if (QFileInfo::exists(json))
                twins << QDir::toNativeSeparators(json);
    }
    if (twins.isEmpty())
        return false;
    runFolder = dir;
    sessions = {Session{dir.dirName(), dir.absolutePath(),
                        tr("%1: left out, as the same process's rocpd database beside it is read (the same "
                           "records, written twice by `rocprofv3 --output-format json rocpd`)")
                            .arg(twins.join(QStringLiteral(", ")))}};
    return true;
}

ReadResult RocpdReader::read(const TraceProbe &probe, TraceBuilder &builder, const ReadContext &context) const
{
    RocpdDatabase database(builder, context);
    ReadResult result;
    result.format = TraceFormat::Rocpd;
    if (!database.read(probe.info.isDir() ? rocpdFilesIn(probe.path) : QStringList{probe.path})) {
        result.cancelled = database.cancelled();
        result.error = database.error();
    }
    result.bytesRead = database.bytesRead();
    return result;
}

bool RocpdDatabase::readRocpd(sqlite3 *db, int index, const QString &fileName)
{
    // Of several databases of one run, say which one lacks something, under its own GPUs alone.
    QStringList said;
    auto note = [&](const QString &text) {
        said << (m_multiFile ? fileName + QStringLiteral(": ") + text : text);
        m_builder.note(said.back());
    };
    auto caveat = [&](const QString &text) {
        said << (m_multiFile ? fileName + QStringLiteral(": ") + text : text);
        m_builder.caveat(said.back());
    };
    int rc = SQLITE_OK;
    const Names objects = objectNames(db, &rc);
    auto has = [&](const char *name) { return objects.count(name) > 0; };
    auto cols = [&](const char *table) { return has(table) ? columnNames(db, table) : Names(); };
    const Names kernelCols = cols("rocpd_kernel_dispatch"), regionCols = cols("rocpd_region"),
                copyCols = cols("rocpd_memory_copy"), agentCols = cols("rocpd_info_agent"),
                symbolCols = cols("rocpd_info_kernel_symbol"), eventCols = cols("rocpd_event"),
                processCols = cols("rocpd_info_process"), threadCols = cols("rocpd_info_thread"),
                sampleCols = cols("rocpd_sample"), trackCols = cols("rocpd_track");
    const bool strings = has("rocpd_string") && cols("rocpd_string").count("string");
    const bool samples = has("rocpd_sample") && sampleCols.count("timestamp");

    // Only missing times make a table unreadable; what else is missing is said in words.
    for (const auto &[table, columns] :
         {std::pair<const char *, const Names &>{"rocpd_kernel_dispatch", kernelCols},
          {"rocpd_region", regionCols},
          {"rocpd_memory_copy", copyCols}}) {
        if (!has(table))
            continue;
        for (const char *required : {"start", "end"})
            if (!columns.count(required)) {
                m_error = tr("table %1 has no column \"%2\" (an older rocpd schema?); "
                             "record again with ROCm 7 rocprofv3")
                              .arg(QLatin1String(table), QLatin1String(required));
                return false;
            }
    }
    if (!has("rocpd_event"))
        caveat(tr("no rocpd_event table: kernels are not paired with the calls that launched them"));
    if (!strings)
        note(tr("no rocpd_string table: calls and copies are unnamed"));
    if (!has("rocpd_info_agent"))
        note(tr("no rocpd_info_agent table: GPUs are numbered by their agent id"));
    if (!has("rocpd_info_kernel_symbol"))
        note(tr("no rocpd_info_kernel_symbol table: kernels are named by their id"));

    // Rows per table, for progress and for saying which kinds of activity were not recorded.
    int64_t dispatches = 0, regions = 0, copies = 0, sampleRows = 0;
    if (!countRows(db, has,
                   {{"rocpd_kernel_dispatch", &dispatches},
                    {"rocpd_region", &regions},
                    {"rocpd_memory_copy", &copies},
                    {"rocpd_sample", &sampleRows}}))
        return false;
    m_totalRows = std::max<int64_t>(1, dispatches + regions + copies + sampleRows);
    if (dispatches == 0)
        note(tr("no kernel dispatches in this database (record with `rocprofv3 --kernel-trace`)"));
    if (regions + sampleRows == 0)
        caveat(tr("no HIP API calls in this database: kernels are not paired with the calls that "
                  "launched them (record with `rocprofv3 --hip-trace`)"));
    if (copies == 0)
        note(tr("no memory copies in this database"));

    // rocprofiler-sdk's writer (source/lib/output/generateRocpd.cpp) stores the internal correlation id,
    // the one a HIP call shares with the dispatches and copies it caused, in rocpd_event.stack_id;
    // correlation_id is the external id, 0 unless --kernel-rename. ROCm's own exporters pair on
    // stack_id (rocpd's perfetto.cpp and csv.cpp), and so does Scopeline.
    const bool stackIds = eventCols.count("stack_id") > 0;
    const char *pairColumn = stackIds ? "stack_id" : "correlation_id";
    if (has("rocpd_event") && !stackIds)
        note(tr("rocpd_event has no stack_id column (an older rocpd schema?): calls and "
                "dispatches are paired on correlation_id"));

    RawEvent event;
    // Each database is one process; its ids are unique within it only.
    const int64_t correlationBase = int64_t(index) << kCorrelationShift;
    auto correlation = [&](sqlite3_stmt *s, int column, int64_t *shown) {
        int64_t c = -1;
        if (!intAt(s, column, c) || c < 0)
            c = -1;
        *shown = c;
        return c >= 0 ? c + correlationBase : int64_t(-1);
    };

    // Process and thread names. With several processes, each one's queues get their own tracks.
    std::string processTag;
    if (has("rocpd_info_process") && processCols.count("pid")) {
        int processes = 0;
        if (!query(db, QStringLiteral("rocpd_info_process"),
                   QStringLiteral("SELECT pid, %1 FROM rocpd_info_process")
                       .arg(column(processCols, "rocpd_info_process", "command")),
                   [&](sqlite3_stmt *s) {
                       int64_t pid = 0;
                       if (!intAt(s, 0, pid))
                           return;
                       ++processes;
                       processTag = " (pid " + std::to_string(pid) + ")";
                       std::string command = textAt(s, 1);
                       command = command.substr(0, command.find(' '));
                       command = command.substr(command.rfind('/') + 1);
                       if (!command.empty())
                           addName(m_builder, event, "process_name", std::to_string(pid), "0", command);
                   }))
            return false;
        if (processes != 1)
            processTag.clear();
    }
    if (!m_multiFile)
        processTag.clear(); // a single database keeps rocprofv3's plain queue names
    if (has("rocpd_info_thread") && threadCols.count("tid") && threadCols.count("name")) {
        const QString sql =
            QStringLiteral("SELECT COALESCE(P.pid, T.pid), T.tid, T.name FROM rocpd_info_thread T "
                           "LEFT JOIN rocpd_info_process P ON P.id = T.pid "
                           "WHERE T.name IS NOT NULL AND T.name <> ''");
        if (!query(db, QStringLiteral("rocpd_info_thread"),
                   has("rocpd_info_process") && processCols.count("pid") && processCols.count("id")
                       ? sql
                       : QStringLiteral(
                             "SELECT T.pid, T.tid, T.name FROM rocpd_info_thread T WHERE T.name <> ''"),
                   [&](sqlite3_stmt *s) {
                       int64_t pid = 0, tid = 0;
                       if (intAt(s, 0, pid) && intAt(s, 1, tid))
                           addName(m_builder, event, "thread_name", std::to_string(pid), std::to_string(tid),
                                   textAt(s, 2));
                   }))
            return false;
    }

    // GPU index of an agent: its index among GPUs, as rocprofv3's own JSON numbers them.
    const bool agents = has("rocpd_info_agent") && agentCols.count("id");
    auto agentIndex = [&](const char *alias, const QString &fallback) {
        return agents ? QStringLiteral("COALESCE(%1, %2, %3)")
                            .arg(column(agentCols, alias, "type_index"),
                                 column(agentCols, alias, "logical_index"), fallback)
                      : fallback;
    };
    std::set<int64_t> namedDevices;
    auto gpuPid = [&](int64_t device) {
        const std::string pid = "GPU " + std::to_string(device);
        if (namedDevices.insert(device).second)
            addName(m_builder, event, "process_name", pid, "0", pid);
        return pid;
    };
    auto eventJoin = [&](const Names &tableCols, const char *alias) {
        return has("rocpd_event") && eventCols.count("id") && tableCols.count("event_id")
                   ? QStringLiteral(" LEFT JOIN rocpd_event E ON E.id = %1.event_id")
                         .arg(QLatin1String(alias))
                   : QString();
    };
    auto pairId = [&](const QString &join) {
        return join.isEmpty() ? QStringLiteral("NULL") : column(eventCols, "E", pairColumn);
    };

    if (has("rocpd_kernel_dispatch")) {
        const bool symbols = has("rocpd_info_kernel_symbol") && symbolCols.count("id");
        const QString events = eventJoin(kernelCols, "K");
        const QString kernelName = symbols ? QStringLiteral("COALESCE(NULLIF(%1, ''), %2)")
                                                 .arg(column(symbolCols, "S", "display_name"),
                                                      column(symbolCols, "S", "kernel_name"))
                                           : QStringLiteral("NULL");
        // the dispatch's geometry and memory, and its kernel's registers, as rocprofv3 names them; for
        // the details only
        const bool details = m_builder.detail() == TraceDetail::Full;
        LaunchArgs launch =
            !details ? LaunchArgs()
                     : LaunchArgs::of(
                           kernelCols, "K",
                           {{"grid_size", {"grid_size_x", "grid_size_y", "grid_size_z"}},
                            {"workgroup_size", {"workgroup_size_x", "workgroup_size_y", "workgroup_size_z"}},
                            {"group_segment_size", {"group_segment_size"}},
                            {"private_segment_size", {"private_segment_size"}}});
        if (symbols && kernelCols.count("kernel_id") && details)
            launch.append(LaunchArgs::of(symbolCols, "S",
                                         {{"arch_vgpr_count", {"arch_vgpr_count"}},
                                          {"accum_vgpr_count", {"accum_vgpr_count"}},
                                          {"sgpr_count", {"sgpr_count"}}}));
        const QString sql =
            QStringLiteral("SELECT K.start, K.end, %1, %2, %3, %4, %5%6 FROM rocpd_kernel_dispatch K%7%8%9")
                .arg(column(kernelCols, "K", "queue_id"),
                     agentIndex("A", column(kernelCols, "K", "agent_id")), kernelName,
                     column(kernelCols, "K", "kernel_id"), pairId(events), launch.select,
                     agents && kernelCols.count("agent_id")
                         ? QStringLiteral(" LEFT JOIN rocpd_info_agent A ON A.id = K.agent_id")
                         : QString(),
                     symbols && kernelCols.count("kernel_id")
                         ? QStringLiteral(" LEFT JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id")
                         : QString(),
                     events);
        int64_t bad = 0, backwards = 0;
        if (!query(db, QStringLiteral("rocpd_kernel_dispatch"), sql, [&](sqlite3_stmt *s) {
                int64_t start = 0, end = 0, queue = 0, device = 0, kernel = 0, shown = -1;
                if (!intAt(s, 0, start) || !intAt(s, 1, end)) {
                    ++bad;
                    return;
                }
                if (end < start) {
                    ++backwards;
                    return;
                }
                intAt(s, 2, queue);
                intAt(s, 3, device);
                intAt(s, 5, kernel);
                std::string name = textAt(s, 4);
                if (name.empty())
                    name = "kernel " + std::to_string(kernel);
                const int64_t key = correlation(s, 6, &shown);
                addSlice(m_builder, event, std::move(name), "kernel", gpuPid(device),
                         "queue " + std::to_string(queue) + processTag, start, end, key, shown, 'X', &launch,
                         s, 7);
            }))
            return false;
        if (bad)
            m_builder.skip(tr("rocpd_kernel_dispatch: start or end not an integer"), bad);
        if (backwards)
            m_builder.skip(tr("dispatch ends before it starts"), backwards);
    }

    if (has("rocpd_memory_copy")) {
        const QString events = eventJoin(copyCols, "M");
        const bool typed = agents && agentCols.count("type");
        const QString device =
            typed ? QStringLiteral("CASE WHEN D.type = 'GPU' THEN %1 ELSE %2 END")
                        .arg(agentIndex("D", QStringLiteral("D.id")), agentIndex("R", QStringLiteral("R.id")))
                  : column(copyCols, "M", "dst_agent_id");
        const QString sql =
            QStringLiteral("SELECT M.start, M.end, %1, %2, %3, %4, %5 FROM rocpd_memory_copy M%6%7%8")
                .arg(column(copyCols, "M", "queue_id"), device,
                     strings && copyCols.count("name_id") ? QStringLiteral("N.string")
                                                          : QStringLiteral("NULL"),
                     pairId(events), column(copyCols, "M", "stream_id"),
                     typed ? QStringLiteral(" LEFT JOIN rocpd_info_agent D ON D.id = M.dst_agent_id"
                                            " LEFT JOIN rocpd_info_agent R ON R.id = M.src_agent_id")
                           : QString(),
                     strings && copyCols.count("name_id")
                         ? QStringLiteral(" LEFT JOIN rocpd_string N ON N.id = M.name_id")
                         : QString(),
                     events);
        if (!querySlices(db, QStringLiteral("rocpd_memory_copy"), sql,
                         tr("rocpd_memory_copy: unreadable start or end"),
                         [&](sqlite3_stmt *s, int64_t start, int64_t end) {
                             int64_t queue = 0, dev = 0, stream = 0, shown = -1;
                             intAt(s, 3, dev);
                             // The writer leaves a copy's queue_id NULL (it fills stream_id): such copies go
                             // on a track of their stream, beside the GPU's queues.
                             std::string track;
                             if (intAt(s, 2, queue))
                                 track = "queue " + std::to_string(queue);
                             else if (intAt(s, 6, stream))
                                 track = "copies, stream " + std::to_string(stream);
                             else
                                 track = "copies";
                             std::string name = textAt(s, 4);
                             const int64_t key = correlation(s, 5, &shown);
                             addSlice(m_builder, event,
                                      name.empty() ? std::string("MEMORY_COPY") : std::move(name),
                                      "gpu_memcpy", gpuPid(dev), track + processTag, start, end, key, shown);
                         }))
            return false;
    }

    const bool processes = has("rocpd_info_process") && processCols.count("id") && processCols.count("pid");
    const bool threads = has("rocpd_info_thread") && threadCols.count("id") && threadCols.count("tid");
    if (has("rocpd_region")) {
        const QString events = eventJoin(regionCols, "R");
        const bool categories = !events.isEmpty() && strings && eventCols.count("category_id");
        const QString sql =
            QStringLiteral("SELECT R.start, R.end, %1, %2, %3, %4, %5, %6 FROM rocpd_region R%7%8%9%10%11")
                .arg(processes ? QStringLiteral("COALESCE(P.pid, R.pid)") : column(regionCols, "R", "pid"),
                     threads ? QStringLiteral("COALESCE(T.tid, R.tid)") : column(regionCols, "R", "tid"),
                     strings && regionCols.count("name_id") ? QStringLiteral("N.string")
                                                            : QStringLiteral("NULL"),
                     categories ? QStringLiteral("C.string") : QStringLiteral("NULL"), pairId(events),
                     events.isEmpty() ? QStringLiteral("NULL") : column(eventCols, "E", "extdata"),
                     processes && regionCols.count("pid")
                         ? QStringLiteral(" LEFT JOIN rocpd_info_process P ON P.id = R.pid")
                         : QString(),
                     threads && regionCols.count("tid")
                         ? QStringLiteral(" LEFT JOIN rocpd_info_thread T ON T.id = R.tid")
                         : QString(),
                     strings && regionCols.count("name_id")
                         ? QStringLiteral(" LEFT JOIN rocpd_string N ON N.id = R.name_id")
                         : QString(),
                     events,
                     categories ? QStringLiteral(" LEFT JOIN rocpd_string C ON C.id = E.category_id")
                                : QString());
        if (!querySlices(db, QStringLiteral("rocpd_region"), sql, tr("rocpd_region: unreadable start or end"),
                         [&](sqlite3_stmt *s, int64_t start, int64_t end) {
                             int64_t pid = 0, tid = 0, shown = -1;
                             intAt(s, 2, pid);
                             intAt(s, 3, tid);
                             const std::string category = rocpdCategory(textAt(s, 5));
                             // A roctx range is stored as its API call (roctxThreadRangeA) with the user's
                             // text in the event's extdata, which is what names the range in ROCm's own
                             // exporters.
                             std::string name = markerMessage(s, 7);
                             if (name.empty())
                                 name = textAt(s, 4);
                             const int64_t key = correlation(s, 6, &shown);
                             addSlice(m_builder, event, std::move(name), category.c_str(),
                                      std::to_string(pid), std::to_string(tid), start, end, key, shown);
                         }))
            return false;
    }

    // API calls of zero length: the writer puts them in rocpd_sample, on a track named after their
    // category (generateRocpd.cpp), and rocpd's `samples` view names them so; a roctx mark's text is
    // in the event's extdata. They are instants here.
    if (samples) {
        const bool tracks = has("rocpd_track") && trackCols.count("id") && sampleCols.count("track_id");
        const QString events = eventJoin(sampleCols, "S");
        const bool categories = !events.isEmpty() && strings && eventCols.count("category_id");
        auto trackColumn = [&](const char *name) {
            return tracks ? column(trackCols, "T", name) : QStringLiteral("NULL");
        };
        const QString sql =
            QStringLiteral("SELECT S.timestamp, %1, %2, %3, %4, %5, %6 FROM rocpd_sample S%7%8%9%10%11%12")
                .arg(processes && tracks ? QStringLiteral("COALESCE(P.pid, T.pid)") : trackColumn("pid"),
                     threads && tracks ? QStringLiteral("COALESCE(H.tid, T.tid)") : trackColumn("tid"),
                     strings && tracks && trackCols.count("name_id") ? QStringLiteral("N.string")
                                                                     : QStringLiteral("NULL"),
                     categories ? QStringLiteral("C.string") : QStringLiteral("NULL"), pairId(events),
                     events.isEmpty() ? QStringLiteral("NULL") : column(eventCols, "E", "extdata"),
                     tracks ? QStringLiteral(" LEFT JOIN rocpd_track T ON T.id = S.track_id") : QString(),
                     processes && tracks && trackCols.count("pid")
                         ? QStringLiteral(" LEFT JOIN rocpd_info_process P ON P.id = T.pid")
                         : QString(),
                     threads && tracks && trackCols.count("tid")
                         ? QStringLiteral(" LEFT JOIN rocpd_info_thread H ON H.id = T.tid")
                         : QString(),
                     strings && tracks && trackCols.count("name_id")
                         ? QStringLiteral(" LEFT JOIN rocpd_string N ON N.id = T.name_id")
                         : QString(),
                     events,
                     categories ? QStringLiteral(" LEFT JOIN rocpd_string C ON C.id = E.category_id")
                                : QString());
        int64_t bad = 0;
        if (!query(db, QStringLiteral("rocpd_sample"), sql, [&](sqlite3_stmt *s) {
                int64_t at = 0, pid = 0, tid = 0, shown = -1;
                if (!intAt(s, 0, at)) {
                    ++bad;
                    return;
                }
                intAt(s, 1, pid);
                intAt(s, 2, tid);
                const std::string rawCategory = textAt(s, 4);
                std::string name = markerMessage(s, 6);
                if (name.empty())
                    name = textAt(s, 3);
                if (name.empty())
                    name = rawCategory.empty() ? std::string("(sample)") : rawCategory;
                const std::string category = rocpdCategory(rawCategory);
                const int64_t key = correlation(s, 5, &shown);
                addSlice(m_builder, event, std::move(name), category.c_str(), std::to_string(pid),
                         std::to_string(tid), at, at, key, shown, 'i');
            }))
            return false;
        if (bad)
            m_builder.skip(tr("rocpd_sample: timestamp not an integer"), bad);
    }
    if (m_multiFile && !namedDevices.empty()) // a database without a GPU's events speaks for every GPU
        for (const QString &text : std::as_const(said))
            m_builder.noteAbout(text, {namedDevices.begin(), namedDevices.end()});
    return true;
}
} // namespace scopeline
