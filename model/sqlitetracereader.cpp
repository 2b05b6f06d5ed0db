// SPDX-License-Identifier: GPL-3.0-or-later
#include "sqlitetracereader.h"

#include "rawevent.h"
#include "tracebuilder.h"

#include <QDir>
#include <QFileInfo>
#include <QUrl>

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

void addSlice(TraceBuilder &builder, RawEvent &event, std::string name, const char *cat,
              const std::string &pid, const std::string &tid, int64_t start, int64_t end, int64_t correlation)
{
    event.clear();
    event.ph = 'X';
    event.fields = 1;
    event.name = std::move(name);
    event.cat = cat;
    event.pid = pid;
    event.tid = tid;
    event.ts = start;
    event.dur = end - start;
    event.tsState = event.durState = RawEvent::Field::Ok;
    event.correlation = correlation;
    if (correlation >= 0)
        event.addArg("correlation") = std::to_string(correlation);
    builder.add(event);
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
        return readRocpd(raw, index);
    }
    if (objects.count("StringIds") || objects.count("CUPTI_ACTIVITY_KIND_KERNEL") ||
        objects.count("NVTX_EVENTS")) {
        if (count > 1) {
            m_error = tr("an Nsight Systems export among rocpd databases; open it on its own");
            return false;
        }
        m_format = TraceFormat::NsysSqlite;
        return readNsys(raw);
    }
    m_error =
        tr("a SQLite database, but neither an Nsight Systems export (no StringIds or CUPTI_ACTIVITY_KIND_* "
           "tables) nor a rocprofv3 rocpd database (no rocpd_* tables); record with "
           "`nsys profile` and export with `nsys export --type sqlite`, or with `rocprofv3 --output-format "
           "rocpd`");
    return false;
}

bool SqliteTraceReader::readRocpd(sqlite3 *db, int index)
{
    int rc = SQLITE_OK;
    const Names objects = objectNames(db, &rc);
    auto has = [&](const char *name) { return objects.count(name) > 0; };
    auto cols = [&](const char *table) { return has(table) ? columnNames(db, table) : Names(); };
    const Names kernelCols = cols("rocpd_kernel_dispatch"), regionCols = cols("rocpd_region"),
                copyCols = cols("rocpd_memory_copy"), agentCols = cols("rocpd_info_agent"),
                symbolCols = cols("rocpd_info_kernel_symbol"), eventCols = cols("rocpd_event"),
                processCols = cols("rocpd_info_process"), threadCols = cols("rocpd_info_thread");
    const bool strings = has("rocpd_string") && cols("rocpd_string").count("string");

    // Say what this database lacks; only missing times make a table unreadable.
    for (const char *table : {"rocpd_kernel_dispatch", "rocpd_region", "rocpd_memory_copy", "rocpd_event",
                              "rocpd_string", "rocpd_info_agent", "rocpd_info_kernel_symbol"})
        if (!has(table))
            m_builder.skip(tr("missing table %1").arg(QLatin1String(table)), 0);
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
    const QString countSql =
        QStringLiteral("SELECT (SELECT count(*) FROM rocpd_kernel_dispatch)%1%2")
            .arg(has("rocpd_region") ? QStringLiteral(" + (SELECT count(*) FROM rocpd_region)") : QString(),
                 has("rocpd_memory_copy") ? QStringLiteral(" + (SELECT count(*) FROM rocpd_memory_copy)")
                                          : QString());
    if (has("rocpd_kernel_dispatch") && !query(db, tr("counting rows"), countSql, [&](sqlite3_stmt *s) {
            m_totalRows = std::max<int64_t>(1, sqlite3_column_int64(s, 0));
        }))
        return false;

    RawEvent event;
    const int64_t correlationBase = int64_t(index) << kCorrelationShift;
    auto correlation = [&](sqlite3_stmt *s, int column) {
        int64_t c = -1;
        return intAt(s, column, c) && c >= 0 ? c + correlationBase : int64_t(-1);
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

    if (has("rocpd_kernel_dispatch")) {
        const bool symbols = has("rocpd_info_kernel_symbol") && symbolCols.count("id");
        const bool events = has("rocpd_event") && eventCols.count("id") && kernelCols.count("event_id");
        const QString kernelName = symbols ? QStringLiteral("COALESCE(NULLIF(%1, ''), %2)")
                                                 .arg(column(symbolCols, "S", "display_name"),
                                                      column(symbolCols, "S", "kernel_name"))
                                           : QStringLiteral("NULL");
        const QString sql =
            QStringLiteral("SELECT K.start, K.end, %1, %2, %3, %4, %5 FROM rocpd_kernel_dispatch K%6%7%8")
                .arg(column(kernelCols, "K", "queue_id"),
                     agentIndex("A", column(kernelCols, "K", "agent_id")), kernelName,
                     column(kernelCols, "K", "kernel_id"),
                     events ? column(eventCols, "E", "correlation_id") : QStringLiteral("NULL"),
                     agents && kernelCols.count("agent_id")
                         ? QStringLiteral(" LEFT JOIN rocpd_info_agent A ON A.id = K.agent_id")
                         : QString(),
                     symbols && kernelCols.count("kernel_id")
                         ? QStringLiteral(" LEFT JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id")
                         : QString(),
                     events ? QStringLiteral(" LEFT JOIN rocpd_event E ON E.id = K.event_id") : QString());
        int64_t bad = 0, backwards = 0;
        if (!query(db, QStringLiteral("rocpd_kernel_dispatch"), sql, [&](sqlite3_stmt *s) {
                int64_t start = 0, end = 0, queue = 0, device = 0, kernel = 0;
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
                addSlice(m_builder, event, std::move(name), "kernel", gpuPid(device),
                         "queue " + std::to_string(queue) + processTag, start, end, correlation(s, 6));
            }))
            return false;
        if (bad)
            m_builder.skip(tr("rocpd_kernel_dispatch: start or end not an integer"), bad);
        if (backwards)
            m_builder.skip(tr("dispatch ends before it starts"), backwards);
    }

    if (has("rocpd_memory_copy")) {
        const bool events = has("rocpd_event") && eventCols.count("id") && copyCols.count("event_id");
        const bool typed = agents && agentCols.count("type");
        const QString device =
            typed ? QStringLiteral("CASE WHEN D.type = 'GPU' THEN %1 ELSE %2 END")
                        .arg(agentIndex("D", QStringLiteral("D.id")), agentIndex("R", QStringLiteral("R.id")))
                  : column(copyCols, "M", "dst_agent_id");
        const QString sql =
            QStringLiteral("SELECT M.start, M.end, %1, %2, %3, %4 FROM rocpd_memory_copy M%5%6%7")
                .arg(column(copyCols, "M", "queue_id"), device,
                     strings && copyCols.count("name_id") ? QStringLiteral("N.string")
                                                          : QStringLiteral("NULL"),
                     events ? column(eventCols, "E", "correlation_id") : QStringLiteral("NULL"),
                     typed ? QStringLiteral(" LEFT JOIN rocpd_info_agent D ON D.id = M.dst_agent_id"
                                            " LEFT JOIN rocpd_info_agent R ON R.id = M.src_agent_id")
                           : QString(),
                     strings && copyCols.count("name_id")
                         ? QStringLiteral(" LEFT JOIN rocpd_string N ON N.id = M.name_id")
                         : QString(),
                     events ? QStringLiteral(" LEFT JOIN rocpd_event E ON E.id = M.event_id") : QString());
        if (!querySlices(db, QStringLiteral("rocpd_memory_copy"), sql,
                         tr("rocpd_memory_copy: unreadable start or end"),
                         [&](sqlite3_stmt *s, int64_t start, int64_t end) {
                int64_t queue = 0, dev = 0;
                intAt(s, 2, queue);
                intAt(s, 3, dev);
                std::string name = textAt(s, 4);
                addSlice(m_builder, event, name.empty() ? std::string("MEMORY_COPY") : std::move(name),
                         "gpu_memcpy", gpuPid(dev), "queue " + std::to_string(queue) + processTag, start, end,
                         correlation(s, 5));
            }))
            return false;
    }

    if (has("rocpd_region")) {
        const bool events = has("rocpd_event") && eventCols.count("id") && regionCols.count("event_id");
        const bool categories = events && strings && eventCols.count("category_id");
        const bool processes =
            has("rocpd_info_process") && processCols.count("id") && processCols.count("pid");
        const bool threads = has("rocpd_info_thread") && threadCols.count("id") && threadCols.count("tid");
        const QString sql =
            QStringLiteral("SELECT R.start, R.end, %1, %2, %3, %4, %5 FROM rocpd_region R%6%7%8%9%10")
                .arg(processes ? QStringLiteral("COALESCE(P.pid, R.pid)") : column(regionCols, "R", "pid"),
                     threads ? QStringLiteral("COALESCE(T.tid, R.tid)") : column(regionCols, "R", "tid"),
                     strings && regionCols.count("name_id") ? QStringLiteral("N.string")
                                                            : QStringLiteral("NULL"),
                     categories ? QStringLiteral("C.string") : QStringLiteral("NULL"),
                     events ? column(eventCols, "E", "correlation_id") : QStringLiteral("NULL"),
                     processes && regionCols.count("pid")
                         ? QStringLiteral(" LEFT JOIN rocpd_info_process P ON P.id = R.pid")
                         : QString(),
                     threads && regionCols.count("tid")
                         ? QStringLiteral(" LEFT JOIN rocpd_info_thread T ON T.id = R.tid")
                         : QString(),
                     strings && regionCols.count("name_id")
                         ? QStringLiteral(" LEFT JOIN rocpd_string N ON N.id = R.name_id")
                         : QString(),
                     events ? QStringLiteral(" LEFT JOIN rocpd_event E ON E.id = R.event_id") : QString(),
                     categories ? QStringLiteral(" LEFT JOIN rocpd_string C ON C.id = E.category_id")
                                : QString());
        if (!querySlices(db, QStringLiteral("rocpd_region"), sql, tr("rocpd_region: unreadable start or end"),
                         [&](sqlite3_stmt *s, int64_t start, int64_t end) {
                int64_t pid = 0, tid = 0;
                intAt(s, 2, pid);
                intAt(s, 3, tid);
                const std::string category = rocpdCategory(textAt(s, 5));
                addSlice(m_builder, event, textAt(s, 4), category.c_str(), std::to_string(pid),
                         std::to_string(tid), start, end, correlation(s, 6));
            }))
            return false;
    }
    return true;
}

bool SqliteTraceReader::readNsys(sqlite3 *db)
{
    int rc = SQLITE_OK;
    const Names objects = objectNames(db, &rc);
    auto has = [&](const char *name) { return objects.count(name) > 0; };
    const char *kKernel = "CUPTI_ACTIVITY_KIND_KERNEL", *kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME",
               *kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY", *kMemset = "CUPTI_ACTIVITY_KIND_MEMSET",
               *kNvtx = "NVTX_EVENTS";
    for (const char *table :
         {"StringIds", kKernel, kRuntime, kMemcpy, kMemset, kNvtx, "ThreadNames", "PROCESSES"})
        if (!has(table))
            m_builder.skip(tr("missing table %1").arg(QLatin1String(table)), 0);
    if (!has(kKernel) && !has(kRuntime) && !has(kNvtx)) {
        m_error = tr("an Nsight Systems export without CUDA or NVTX data (no %1, %2 or %3 table); "
                     "record with `nsys profile --trace=cuda,nvtx`")
                      .arg(QLatin1String(kKernel), QLatin1String(kRuntime), QLatin1String(kNvtx));
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
                    tr("table %1 has no column \"%2\"; export with a current `nsys export --type sqlite`")
                        .arg(QLatin1String(table), QLatin1String(required));
                return false;
            }
    }
    QStringList counts;
    for (const char *table : {kKernel, kRuntime, kMemcpy, kMemset, kNvtx})
        if (has(table))
            counts << QStringLiteral("(SELECT count(*) FROM %1)").arg(QLatin1String(table));
    if (!query(db, tr("counting rows"), QStringLiteral("SELECT ") + counts.join(QStringLiteral(" + ")),
               [&](sqlite3_stmt *s) { m_totalRows = std::max<int64_t>(1, sqlite3_column_int64(s, 0)); }))
        return false;

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
    auto pidOf = [](int64_t globalId) { return std::to_string((globalId >> 24) & 0xFFFFFF); };
    auto tidOf = [](int64_t globalId) { return std::to_string(globalId & 0xFFFFFF); };

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
                       addName(m_builder, event, "thread_name", pidOf(gtid), tidOf(gtid), name);
               }))
        return false;

    std::set<int64_t> namedDevices;
    auto gpuPid = [&](int64_t device) {
        const std::string pid = "GPU " + std::to_string(device);
        if (namedDevices.insert(device).second)
            addName(m_builder, event, "process_name", pid, "0", pid);
        return pid;
    };
    auto correlation = [](sqlite3_stmt *s, int column) {
        int64_t c = -1;
        return intAt(s, column, c) && c >= 0 ? c : int64_t(-1);
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
                m_builder.skip(tr("%1 has no kernel name column").arg(QLatin1String(table)), 0);
        } else if (cat == std::string("gpu_memcpy")) {
            name = column(cols, table, "copyKind");
        }
        const QString sql = QStringLiteral("SELECT start, end, %1, %2, %3, %4 FROM %5")
                                .arg(column(cols, table, "deviceId"), column(cols, table, "streamId"),
                                     column(cols, table, "correlationId"), name, QLatin1String(table));
        return querySlices(
            db, QLatin1String(table), sql,
            tr("%1: start or end not an integer, or end before start").arg(QLatin1String(table)),
            [&](sqlite3_stmt *s, int64_t start, int64_t end) {
            int64_t device = 0, stream = 0;
            intAt(s, 2, device);
            intAt(s, 3, stream);
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
            addSlice(m_builder, event, std::move(text), cat, gpuPid(device),
                     "stream " + std::to_string(stream), start, end, correlation(s, 4));
            });
    };
    if (has(kKernel) && !readGpu(kKernel, "kernel"))
        return false;
    if (has(kMemcpy) && !readGpu(kMemcpy, "gpu_memcpy"))
        return false;
    if (has(kMemset) && !readGpu(kMemset, "gpu_memset"))
        return false;

    if (has(kRuntime)) {
        const Names &cols = columns[kRuntime];
        const QString sql =
            QStringLiteral("SELECT start, end, %1, %2, %3 FROM %4")
                .arg(column(cols, kRuntime, "globalTid"), column(cols, kRuntime, "correlationId"),
                     column(cols, kRuntime, "nameId"), QLatin1String(kRuntime));
        if (!querySlices(db, QLatin1String(kRuntime), sql,
                         tr("%1: start or end not an integer, or end before start").arg(QLatin1String(kRuntime)),
                         [&](sqlite3_stmt *s, int64_t start, int64_t end) {
                int64_t gtid = 0;
                intAt(s, 2, gtid);
                std::string name = stringAt(s, 4);
                // cu* without "cuda" is the driver API (cuLaunchKernel), the rest the runtime.
                const bool driver = name.rfind("cu", 0) == 0 && name.rfind("cuda", 0) != 0;
                addSlice(m_builder, event, std::move(name), driver ? "cuda_driver" : "cuda_runtime",
                         pidOf(gtid), tidOf(gtid), start, end, correlation(s, 3));
            }))
            return false;
    }

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
                addSlice(m_builder, event, std::move(name), "user_annotation", pidOf(gtid), tidOf(gtid),
                         start, end, -1);
            }))
            return false;
        if (bad)
            m_builder.skip(tr("NVTX_EVENTS: range without a usable start or end"), bad);
    }
    return true;
}

} // namespace scopeline
