// SPDX-License-Identifier: GPL-3.0-or-later
#include "sqlitetracereader.h"

#include "rawevent.h"
#include "tracebuilder.h"

#include <QDir>
#include <QFileInfo>
#include <QUrl>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <memory>
#include <set>
#include <string>
#include <unordered_map>

namespace scopeline {

namespace {

// No trace value comes near this; a bigger one (a stray BLOB) stops the read with SQLITE_TOOBIG
// instead of being pulled into memory.
constexpr int kMaxValueBytes = 16 << 20;
constexpr int kBusyTimeoutMs = 500;
constexpr int64_t kCorrelationShift = 40; // per-database correlation ids of a multi-process run

using Names = std::set<std::string>;

Names objectNames(sqlite3 *db, int *rc)
{
    Names names;
    sqlite3_stmt *stmt = nullptr;
    *rc = sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')", -1, &stmt,
                             nullptr);
    while (*rc == SQLITE_OK || *rc == SQLITE_ROW) {
        *rc = sqlite3_step(stmt);
        if (*rc == SQLITE_ROW)
            names.insert(reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0)));
    }
    sqlite3_finalize(stmt);
    if (*rc == SQLITE_DONE)
        *rc = SQLITE_OK;
    return names;
}

Names columnNames(sqlite3 *db, const std::string &table)
{
    Names names;
    sqlite3_stmt *stmt = nullptr;
    const std::string sql = "PRAGMA table_info(\"" + table + "\")";
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK)
        while (sqlite3_step(stmt) == SQLITE_ROW)
            if (const unsigned char *name = sqlite3_column_text(stmt, 1))
                names.insert(reinterpret_cast<const char *>(name));
    sqlite3_finalize(stmt);
    return names;
}

// An integer column; false for NULL and for values of another type (text where a time belongs).
bool intAt(sqlite3_stmt *stmt, int column, int64_t &value)
{
    switch (sqlite3_column_type(stmt, column)) {
    case SQLITE_INTEGER:
        value = sqlite3_column_int64(stmt, column);
        return true;
    case SQLITE_FLOAT: {
        const double d = sqlite3_column_double(stmt, column);
        if (d != d || d < -9.2e18 || d > 9.2e18 || d != double(int64_t(d)))
            return false;
        value = int64_t(d);
        return true;
    }
    default:
        return false;
    }
}

std::string textAt(sqlite3_stmt *stmt, int column)
{
    const unsigned char *text = sqlite3_column_text(stmt, column);
    return text ? std::string(reinterpret_cast<const char *>(text),
                              std::size_t(sqlite3_column_bytes(stmt, column)))
                : std::string();
}

// "A.col" when the table has the column, else NULL, so that older schemas still read.
QString column(const Names &columns, const char *alias, const char *name)
{
    return columns.count(name) ? QStringLiteral("%1.\"%2\"").arg(QLatin1String(alias), QLatin1String(name))
                               : QStringLiteral("NULL");
}

// rocprofv3 region categories -> the categories the builder knows.
std::string rocpdCategory(const std::string &category)
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

std::string memcpyName(int64_t kind)
{
    // CUpti_ActivityMemcpyKind
    static const char *names[] = {"Memcpy",      "Memcpy HtoD", "Memcpy DtoH", "Memcpy HtoA",
                                  "Memcpy AtoH", "Memcpy AtoA", "Memcpy AtoD", "Memcpy DtoA",
                                  "Memcpy DtoD", "Memcpy HtoH", "Memcpy PtoP"};
    return kind >= 0 && kind <= 10 ? names[kind] : "Memcpy";
}

void addName(TraceBuilder &builder, RawEvent &event, const char *what, const std::string &pid,
             const std::string &tid, const std::string &name)
{
    event.clear();
    event.ph = 'M';
    event.fields = 1;
    event.name = what;
    event.pid = pid;
    event.tid = tid;
    event.addArg("name") = name;
    builder.add(event);
}

// One slice ('X') or instant ('i'). key pairs a call with its GPU work (made unique across processes
// where ids are not); shownId is the id as the profiler wrote it, for the details view.
void addSlice(TraceBuilder &builder, RawEvent &event, std::string name, const char *cat,
              const std::string &pid, const std::string &tid, int64_t start, int64_t end, int64_t key,
              int64_t shownId, char ph = 'X')
{
    event.clear();
    event.ph = ph;
    event.fields = 1;
    event.name = std::move(name);
    event.cat = cat;
    event.pid = pid;
    event.tid = tid;
    event.ts = start;
    event.dur = end - start;
    event.tsState = event.durState = RawEvent::Field::Ok;
    event.correlation = key;
    if (shownId >= 0)
        event.addArg("correlation") = std::to_string(shownId);
    builder.add(event);
}

// The "message" of a rocpd event's extdata ({"message": "..."}: a roctx range's or mark's text);
// empty when there is none. Calls' extdata is "{}", so JSON is parsed only for markers.
std::string markerMessage(sqlite3_stmt *stmt, int column)
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

// "an export of Nsight Systems 2024.5.1.113, schema 3.13.2", from the export's metadata table:
// META_DATA_EXPORT in the 2024 exports seen, EXPORT_META_DATA in nsys 2022.2's; empty when neither says.
QString nsysVersion(sqlite3 *db, const Names &objects)
{
    QString product, schema;
    for (const char *table : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
        if (!objects.count(table) || !columnNames(db, table).count("value"))
            continue;
        sqlite3_stmt *stmt = nullptr;
        const std::string sql = std::string("SELECT name, value FROM ") + table +
                                " WHERE name IN ('EXPORT_PRODUCT_VERSION', 'EXPORT_SCHEMA_VERSION')";
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK)
            while (sqlite3_step(stmt) == SQLITE_ROW)
                (textAt(stmt, 0) == "EXPORT_PRODUCT_VERSION" ? product : schema) =
                    QString::fromStdString(textAt(stmt, 1));
        sqlite3_finalize(stmt);
        break;
    }
    if (product.isEmpty() && schema.isEmpty())
        return {};
    return QCoreApplication::translate("SqliteTraceReader", "an export of Nsight Systems %1, schema %2")
        .arg(product.isEmpty() ? QStringLiteral("?") : product,
             schema.isEmpty() ? QStringLiteral("?") : schema);
}

// eventClass values of the "CUDA backtrace" records in CUPTI_ACTIVITY_KIND_RUNTIME: from the export's
// ENUM_NSYS_EVENT_CLASS where it has one, else 67, their value in every export seen (2022 has no enums).
std::set<int64_t> nsysBacktraceClasses(sqlite3 *db, const Names &objects)
{
    constexpr int64_t kCudaBacktrace = 67; // TRACE_PROCESS_EVENT_CUDABACKTRACE
    if (!objects.count("ENUM_NSYS_EVENT_CLASS") || !columnNames(db, "ENUM_NSYS_EVENT_CLASS").count("name"))
        return {kCudaBacktrace};
    std::set<int64_t> ids;
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(
            db, "SELECT id FROM ENUM_NSYS_EVENT_CLASS WHERE name = 'TRACE_PROCESS_EVENT_CUDABACKTRACE'", -1,
            &stmt, nullptr) == SQLITE_OK)
        while (sqlite3_step(stmt) == SQLITE_ROW)
            ids.insert(sqlite3_column_int64(stmt, 0));
    sqlite3_finalize(stmt);
    return ids.empty() ? std::set<int64_t>{kCudaBacktrace} : ids;
}

} // namespace

bool SqliteTraceReader::hasSqliteMagic(const QByteArray &head)
{
    return head.startsWith(QByteArrayLiteral("SQLite format 3\0"));
}

QStringList SqliteTraceReader::rocpdFilesIn(const QString &folder)
{
    const QDir dir(folder);
    QStringList files;
    for (const QString &name : dir.entryList({QStringLiteral("*_results.db")}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

SqliteTraceReader::SqliteTraceReader(TraceBuilder &builder, const std::function<void(double)> &progress,
                                     const std::atomic<bool> *cancel)
    : m_builder(builder), m_progress(progress), m_cancel(cancel)
{}

bool SqliteTraceReader::read(const QStringList &files)
{
    m_multiFile = files.size() > 1;
    for (int i = 0; i < files.size(); ++i) {
        m_fileBase = double(i) / files.size();
        m_fileShare = 1.0 / files.size();
        if (!readFile(files[i], i, int(files.size()))) {
            if (files.size() > 1 && !m_cancelled)
                m_error = QFileInfo(files[i]).fileName() + QStringLiteral(": ") + m_error;
            return false;
        }
        m_bytes += QFileInfo(files[i]).size();
    }
    if (m_progress)
        m_progress(1.0);
    return true;
}

bool SqliteTraceReader::stopRequested()
{
    if (m_cancel && m_cancel->load(std::memory_order_relaxed))
        m_cancelled = true;
    return m_cancelled;
}

void SqliteTraceReader::fail(int code, const QString &what, sqlite3 *db)
{
    if (m_cancelled)
        return; // SQLITE_INTERRUPT from the progress handler: the loader reports the cancel
    const QString detail =
        db ? QString::fromUtf8(sqlite3_errmsg(db)) : QString::fromUtf8(sqlite3_errstr(code));
    switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        m_error = tr("the database is locked by another program (is the profiler still writing it?); "
                     "try again when it has finished");
        break;
    case SQLITE_NOTADB:
        m_error = tr("not a SQLite database, or an encrypted one (%1)").arg(detail);
        break;
    case SQLITE_CORRUPT:
        m_error = tr("the database is damaged or truncated (%1 while reading %2)").arg(detail, what);
        break;
    case SQLITE_TOOBIG:
        m_error = tr("%1 holds a value larger than %2 MB, which no trace has; the database is not a trace "
                     "Scopeline can read")
                      .arg(what)
                      .arg(kMaxValueBytes >> 20);
        break;
    default:
        m_error = tr("%1: %2").arg(what, detail);
        break;
    }
}

bool SqliteTraceReader::query(sqlite3 *db, const QString &what, const QString &sql,
                              const std::function<void(sqlite3_stmt *)> &row)
{
    sqlite3_stmt *stmt = nullptr;
    int rc = sqlite3_prepare_v2(db, sql.toUtf8().constData(), -1, &stmt, nullptr);
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt *)> guard(stmt, sqlite3_finalize);
    if (rc != SQLITE_OK) {
        fail(rc, what, db);
        return false;
    }
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        row(stmt);
        if (++m_rows % 1024 == 0) {
            if (stopRequested())
                return false;
            if (m_progress)
                m_progress(m_fileBase + m_fileShare * std::min(1.0, double(m_rows) / double(m_totalRows)));
        }
    }
    if (rc != SQLITE_DONE) {
        fail(rc, what, db);
        return false;
    }
    return true;
}

bool SqliteTraceReader::countRows(sqlite3 *db, const std::function<bool(const char *)> &has,
                                  const std::vector<std::pair<const char *, int64_t *>> &tables)
{
    QStringList counts;
    for (const auto &[table, count] : tables)
        counts << (has(table) ? QStringLiteral("(SELECT count(*) FROM %1)").arg(QLatin1String(table))
                              : QStringLiteral("0"));
    return query(db, tr("counting rows"), QStringLiteral("SELECT ") + counts.join(QStringLiteral(", ")),
                 [&](sqlite3_stmt *s) {
                     for (int c = 0; c < int(tables.size()); ++c)
                         intAt(s, c, *tables[std::size_t(c)].second);
                 });
}

bool SqliteTraceReader::querySlices(sqlite3 *db, const QString &what, const QString &sql,
                                    const QString &badRows,
                                    const std::function<void(sqlite3_stmt *, int64_t, int64_t)> &row)
{
    int64_t bad = 0;
    const bool ok = query(db, what, sql, [&](sqlite3_stmt *s) {
        int64_t start = 0, end = 0;
        if (!intAt(s, 0, start) || !intAt(s, 1, end) || end < start)
            ++bad;
        else
            row(s, start, end);
    });
    if (ok && bad)
        m_builder.skip(badRows, bad);
    return ok;
}

bool SqliteTraceReader::readFile(const QString &file, int index, int count)
{
    if (stopRequested())
        return false;
    // Read-only, never creating or changing anything; a locked file fails after a short wait.
    const QByteArray uri =
        "file:" + QUrl::toPercentEncoding(QFileInfo(file).absoluteFilePath(), "/") + "?mode=ro";
    sqlite3 *raw = nullptr;
    int rc = sqlite3_open_v2(uri.constData(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    std::unique_ptr<sqlite3, int (*)(sqlite3 *)> db(raw, sqlite3_close);
    if (rc != SQLITE_OK) {
        fail(rc, tr("opening"), raw);
        return false;
    }
    sqlite3_busy_timeout(raw, kBusyTimeoutMs);
    // Cancel also stops a long statement (a count over a huge table) between its steps.
    sqlite3_progress_handler(
        raw, 100000, [](void *self) { return int(static_cast<SqliteTraceReader *>(self)->stopRequested()); },
        this);
    sqlite3_limit(raw, SQLITE_LIMIT_LENGTH, kMaxValueBytes);

    const Names objects = objectNames(raw, &rc);
    if (rc != SQLITE_OK) {
        fail(rc, tr("the schema"), raw);
        return false;
    }
    m_rows = 0;
    if (objects.count("rocpd_kernel_dispatch") || objects.count("rocpd_region")) {
        m_format = TraceFormat::Rocpd;
        return readRocpd(raw, index, QFileInfo(file).fileName());
    }
    if (objects.count("StringIds") || objects.count("CUPTI_ACTIVITY_KIND_KERNEL") ||
        objects.count("NVTX_EVENTS")) {
        if (count > 1) {
            m_error = tr("an Nsight Systems export among rocpd databases; open it on its own");
            return false;
        }
        m_format = TraceFormat::NsysSqlite;
        return readNsys(raw, QFileInfo(file).fileName());
    }
    m_error =
        tr("a SQLite database, but neither an Nsight Systems export (no StringIds or CUPTI_ACTIVITY_KIND_* "
           "tables) nor a rocprofv3 rocpd database (no rocpd_* tables); record with "
           "`nsys profile` and export with `nsys export --type sqlite`, or with `rocprofv3 --output-format "
           "rocpd`");
    return false;
}

bool SqliteTraceReader::readRocpd(sqlite3 *db, int index, const QString &fileName)
{
    // Of several databases of one run, say which one lacks something.
    auto note = [&](const QString &text) {
        m_builder.note(m_multiFile ? fileName + QStringLiteral(": ") + text : text);
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
        note(tr("no rocpd_event table: kernels are not paired with the calls that launched them"));
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
        note(tr("no HIP API calls in this database: kernels are not paired with the calls that "
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
        const QString sql =
            QStringLiteral("SELECT K.start, K.end, %1, %2, %3, %4, %5 FROM rocpd_kernel_dispatch K%6%7%8")
                .arg(column(kernelCols, "K", "queue_id"),
                     agentIndex("A", column(kernelCols, "K", "agent_id")), kernelName,
                     column(kernelCols, "K", "kernel_id"), pairId(events),
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
                         "queue " + std::to_string(queue) + processTag, start, end, key, shown);
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
    return true;
}

bool SqliteTraceReader::readNsys(sqlite3 *db, const QString &fileName)
{
    int rc = SQLITE_OK;
    const Names objects = objectNames(db, &rc);
    auto has = [&](const char *name) { return objects.count(name) > 0; };
    const char *kKernel = "CUPTI_ACTIVITY_KIND_KERNEL", *kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME",
               *kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY", *kMemset = "CUPTI_ACTIVITY_KIND_MEMSET",
               *kNvtx = "NVTX_EVENTS";
    const QString version = nsysVersion(db, objects);
    if (!has(kKernel)) {
        // nsys leaves out the tables of what it did not record: no kernel table, no CUDA trace.
        m_error = has(kRuntime)
                      ? tr("no kernels recorded in %1: it holds CUDA API calls, but no kernel ran while "
                           "Nsight Systems recorded")
                            .arg(fileName)
                      : tr("no kernels recorded in %1: was CUDA tracing on (`nsys profile --trace=cuda`)?")
                            .arg(fileName);
        return false;
    }
    // Every table read must have its times; a missing one is a schema this reader does not know.
    std::unordered_map<std::string, Names> columns;
    for (const char *table : {kKernel, kRuntime, kMemcpy, kMemset, kNvtx}) {
        if (!has(table))
            continue;
        columns[table] = columnNames(db, table);
        for (const char *required : {"start", "end"})
            if (!columns[table].count(required)) {
                m_error =
                    tr("table %1 has no column \"%2\" (%3); export with a current "
                       "`nsys export --type sqlite`")
                        .arg(QLatin1String(table), QLatin1String(required),
                             version.isEmpty() ? tr("an export schema Scopeline does not know") : version);
                return false;
            }
    }

    // Rows per table, for progress and for saying which kinds of activity were not recorded.
    int64_t kernels = 0, calls = 0, memcpys = 0, memsets = 0, nvtx = 0;
    if (!countRows(db, has,
                   {{kKernel, &kernels},
                    {kRuntime, &calls},
                    {kMemcpy, &memcpys},
                    {kMemset, &memsets},
                    {kNvtx, &nvtx}}))
        return false;
    m_totalRows = std::max<int64_t>(1, kernels + calls + memcpys + memsets + nvtx);
    if (kernels == 0)
        m_builder.note(tr("no kernels recorded in this export"));
    if (calls == 0)
        m_builder.note(tr("no CUDA API calls in this export: kernels are not paired with the calls that "
                          "launched them (record with `nsys profile --trace=cuda`)"));
    if (memcpys == 0)
        m_builder.note(tr("no memory copies in this export"));
    if (memsets == 0)
        m_builder.note(tr("no memory sets in this export"));
    if (!has("StringIds"))
        m_builder.note(tr("no StringIds table: kernels and calls are unnamed"));
    if (!has("PROCESSES") && !has("ThreadNames"))
        m_builder.note(tr("no process or thread names in this export"));

    std::unordered_map<int64_t, std::string> strings;
    if (has("StringIds") && !query(db, QStringLiteral("StringIds"),
                                   QStringLiteral("SELECT id, value FROM StringIds"), [&](sqlite3_stmt *s) {
                                       int64_t id = 0;
                                       if (intAt(s, 0, id))
                                           strings[id] = textAt(s, 1);
                                   }))
        return false;
    auto stringAt = [&](sqlite3_stmt *s, int column) {
        int64_t id = 0;
        if (!intAt(s, column, id))
            return std::string();
        const auto it = strings.find(id);
        return it == strings.end() ? std::string() : it->second;
    };
    // nsys serialises (hardware, VM, pid, tid) into one integer: pid in bits 24..47, tid in 0..23.
    auto pidOf = [](int64_t globalId) { return (globalId >> 24) & 0xFFFFFF; };
    auto tidOf = [](int64_t globalId) { return globalId & 0xFFFFFF; };

    RawEvent event;
    if (has("PROCESSES") && !query(db, QStringLiteral("PROCESSES"), QStringLiteral("SELECT * FROM PROCESSES"),
                                   [&](sqlite3_stmt *s) {
                                       int64_t pid = -1;
                                       std::string name;
                                       for (int c = 0; c < sqlite3_column_count(s); ++c) {
                                           const std::string col = sqlite3_column_name(s, c);
                                           if (col == "pid")
                                               intAt(s, c, pid);
                                           else if (col == "name")
                                               name = textAt(s, c);
                                       }
                                       if (pid >= 0 && !name.empty())
                                           addName(m_builder, event, "process_name", std::to_string(pid), "0",
                                                   name);
                                   }))
        return false;
    if (has("ThreadNames") && columnNames(db, "ThreadNames").count("globalTid") &&
        !query(db, QStringLiteral("ThreadNames"), QStringLiteral("SELECT nameId, globalTid FROM ThreadNames"),
               [&](sqlite3_stmt *s) {
                   int64_t gtid = 0;
                   const std::string name = stringAt(s, 0);
                   if (intAt(s, 1, gtid) && !name.empty())
                       addName(m_builder, event, "thread_name", std::to_string(pidOf(gtid)),
                               std::to_string(tidOf(gtid)), name);
               }))
        return false;

    // CUDA correlation ids are unique within one process only: with the process known on both sides
    // (globalPid on GPU rows, globalTid on API rows), a call pairs with the kernels of its own process.
    const bool perProcess =
        columns[kKernel].count("globalPid") && (!has(kRuntime) || columns[kRuntime].count("globalTid"));
    auto pairKey = [&](sqlite3_stmt *s, int column, int64_t globalId, int64_t *shown) {
        int64_t c = -1;
        if (!intAt(s, column, c) || c < 0)
            c = -1;
        *shown = c;
        if (c < 0 || !perProcess)
            return c;
        return pidOf(globalId) << 32 | (c & 0xFFFFFFFF);
    };
    // Several processes on one GPU: their streams are told apart by process.
    bool severalProcesses = false;
    if (perProcess &&
        !query(db, QLatin1String(kKernel),
               QStringLiteral("SELECT count(DISTINCT globalPid) > 1 FROM %1").arg(QLatin1String(kKernel)),
               [&](sqlite3_stmt *s) { severalProcesses = sqlite3_column_int(s, 0) != 0; }))
        return false;

    std::set<int64_t> namedDevices;
    auto gpuPid = [&](int64_t device) {
        const std::string pid = "GPU " + std::to_string(device);
        if (namedDevices.insert(device).second)
            addName(m_builder, event, "process_name", pid, "0", pid);
        return pid;
    };
    // GPU activity: kernels, copies and sets, one track per device and stream.
    auto readGpu = [&](const char *table, const char *cat) {
        const Names &cols = columns[table];
        QString name = QStringLiteral("NULL");
        if (cat == std::string("kernel")) {
            for (const char *c : {"demangledName", "shortName", "mangledName"})
                if (cols.count(c)) {
                    name = QLatin1String(c);
                    break;
                }
            if (name == QLatin1String("NULL"))
                m_builder.note(
                    tr("%1 has no kernel name column: kernels are unnamed").arg(QLatin1String(table)));
        } else if (cat == std::string("gpu_memcpy")) {
            name = column(cols, table, "copyKind");
        }
        const QString sql = QStringLiteral("SELECT start, end, %1, %2, %3, %4, %5 FROM %6")
                                .arg(column(cols, table, "deviceId"), column(cols, table, "streamId"),
                                     column(cols, table, "correlationId"), name,
                                     column(cols, table, "globalPid"), QLatin1String(table));
        return querySlices(
            db, QLatin1String(table), sql,
            tr("%1: start or end not an integer, or end before start").arg(QLatin1String(table)),
            [&](sqlite3_stmt *s, int64_t start, int64_t end) {
                int64_t device = 0, stream = 0, gpid = 0, shown = -1;
                intAt(s, 2, device);
                intAt(s, 3, stream);
                intAt(s, 6, gpid);
                std::string text;
                if (cat == std::string("kernel")) {
                    text = stringAt(s, 5);
                    if (text.empty())
                        text = "(unnamed kernel)";
                } else if (cat == std::string("gpu_memcpy")) {
                    int64_t kind = 0;
                    text = memcpyName(intAt(s, 5, kind) ? kind : 0);
                } else {
                    text = "Memset";
                }
                std::string track = "stream " + std::to_string(stream);
                if (severalProcesses)
                    track += " (pid " + std::to_string(pidOf(gpid)) + ")";
                const int64_t key = pairKey(s, 4, gpid, &shown);
                addSlice(m_builder, event, std::move(text), cat, gpuPid(device), track, start, end, key,
                         shown);
            });
    };
    if (!readGpu(kKernel, "kernel"))
        return false;
    if (has(kMemcpy) && !readGpu(kMemcpy, "gpu_memcpy"))
        return false;
    if (has(kMemset) && !readGpu(kMemset, "gpu_memset"))
        return false;

    if (has(kRuntime)) {
        const Names &cols = columns[kRuntime];
        const std::set<int64_t> backtraces = nsysBacktraceClasses(db, objects);
        const QString sql =
            QStringLiteral("SELECT start, end, %1, %2, %3, %4 FROM %5")
                .arg(column(cols, kRuntime, "globalTid"), column(cols, kRuntime, "correlationId"),
                     column(cols, kRuntime, "nameId"), column(cols, kRuntime, "eventClass"),
                     QLatin1String(kRuntime));
        int64_t backtraceRows = 0;
        if (!querySlices(
                db, QLatin1String(kRuntime), sql,
                tr("%1: start or end not an integer, or end before start").arg(QLatin1String(kRuntime)),
                [&](sqlite3_stmt *s, int64_t start, int64_t end) {
                    int64_t gtid = 0, eventClass = -1, shown = -1;
                    // nsys 2022 writes each call twice: the call, and a "CUDA backtrace" record around it
                    // that carries its callchain. The second is not a call.
                    if (intAt(s, 5, eventClass) && backtraces.count(eventClass)) {
                        ++backtraceRows;
                        return;
                    }
                    intAt(s, 2, gtid);
                    std::string name = stringAt(s, 4);
                    // cu* without "cuda" is the driver API (cuLaunchKernel), the rest the runtime.
                    const bool driver = name.rfind("cu", 0) == 0 && name.rfind("cuda", 0) != 0;
                    const int64_t key = pairKey(s, 3, gtid, &shown);
                    addSlice(m_builder, event, std::move(name), driver ? "cuda_driver" : "cuda_runtime",
                             std::to_string(pidOf(gtid)), std::to_string(tidOf(gtid)), start, end, key,
                             shown);
                }))
            return false;
        if (backtraceRows)
            m_builder.note(tr("%1 CUDA backtrace records not shown: this export holds each API call twice, "
                              "once with its backtrace (Nsight Systems 2022)")
                               .arg(backtraceRows));
    }

    int64_t ranges = 0;
    if (has(kNvtx)) {
        // Push/pop (59) and start/end (60) ranges become scopes; marks and domain records are not ranges.
        const Names &cols = columns[kNvtx];
        const QString sql =
            QStringLiteral("SELECT start, end, %1, %2, %3, %4 FROM %5")
                .arg(column(cols, kNvtx, "eventType"), column(cols, kNvtx, "text"),
                     column(cols, kNvtx, "textId"), column(cols, kNvtx, "globalTid"), QLatin1String(kNvtx));
        int64_t bad = 0;
        if (!query(db, QLatin1String(kNvtx), sql, [&](sqlite3_stmt *s) {
                int64_t start = 0, end = 0, type = 0, gtid = 0;
                const bool typed = intAt(s, 2, type);
                if (typed && type != 59 && type != 60)
                    return;
                if (!intAt(s, 0, start) || !intAt(s, 1, end) || end < start) {
                    if (typed) // an untyped row without an end is a mark
                        ++bad;
                    return;
                }
                intAt(s, 5, gtid);
                std::string name = textAt(s, 3);
                if (name.empty())
                    name = stringAt(s, 4);
                if (name.empty())
                    name = "(unnamed NVTX range)";
                ++ranges;
                addSlice(m_builder, event, std::move(name), "user_annotation", std::to_string(pidOf(gtid)),
                         std::to_string(tidOf(gtid)), start, end, -1, -1);
            }))
            return false;
        if (bad)
            m_builder.skip(tr("NVTX_EVENTS: range without a usable start or end"), bad);
    }
    if (ranges == 0)
        m_builder.note(tr("no NVTX ranges in this export"));
    return true;
}

} // namespace scopeline
