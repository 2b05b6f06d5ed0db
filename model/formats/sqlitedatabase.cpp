// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/sqlitedatabase.h"

#include "model/formats/rawevent.h"
#include "model/formats/tracebuilder.h"

#include <QDir>
#include <QFileInfo>
#include <QUrl>

#include <sqlite3.h>

#include <algorithm>
#include <memory>

namespace scopeline {

namespace {

// No trace value comes near this; a bigger one (a stray BLOB) stops the read with SQLITE_TOOBIG
// instead of being pulled into memory.
constexpr int kMaxValueBytes = 16 << 20;
constexpr int kBusyTimeoutMs = 500;

// A journal that holds a write under way (or stopped half-way): it starts with SQLite's journal magic,
// which a finished write in PERSIST mode zeroes and TRUNCATE mode cuts away.
bool liveJournalBeside(const QString &file)
{
    QFile journal(file + QLatin1String("-journal"));
    return journal.open(QIODevice::ReadOnly) &&
           journal.read(8) == QByteArrayLiteral("\xd9\xd5\x05\xf9\x20\xa1\x63\xd7");
}

// Whether another connection holds the RESERVED lock: it is writing, its commit still to come.
bool writerHoldsReservedLock(sqlite3 *db)
{
    sqlite3_file *handle = nullptr;
    int reserved = 0;
    return sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &handle) == SQLITE_OK && handle &&
           handle->pMethods && handle->pMethods->xCheckReservedLock(handle, &reserved) == SQLITE_OK &&
           reserved;
}

} // namespace

SqliteDatabase::Names SqliteDatabase::objectNames(sqlite3 *db, int *rc)
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

SqliteDatabase::Names SqliteDatabase::columnNames(sqlite3 *db, const std::string &table)
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

bool SqliteDatabase::intAt(sqlite3_stmt *stmt, int column, int64_t &value)
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

std::string SqliteDatabase::textAt(sqlite3_stmt *stmt, int column)
{
    const unsigned char *text = sqlite3_column_text(stmt, column);
    return text ? std::string(reinterpret_cast<const char *>(text),
                              std::size_t(sqlite3_column_bytes(stmt, column)))
                : std::string();
}

QString SqliteDatabase::column(const Names &columns, const char *alias, const char *name)
{
    return columns.count(name) ? QStringLiteral("%1.\"%2\"").arg(QLatin1String(alias), QLatin1String(name))
                               : QStringLiteral("NULL");
}

void SqliteDatabase::addName(TraceBuilder &builder, RawEvent &event, const char *what, const std::string &pid,
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

void SqliteDatabase::addSlice(TraceBuilder &builder, RawEvent &event, std::string name, const char *cat,
                              const std::string &pid, const std::string &tid, int64_t start, int64_t end,
                              int64_t key, int64_t shownId, char ph, const LaunchArgs *launch,
                              sqlite3_stmt *stmt, int firstLaunchColumn)
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
    if (launch)
        launch->addTo(event, stmt, firstLaunchColumn);
    builder.add(event);
}

SqliteDatabase::LaunchArgs
SqliteDatabase::LaunchArgs::of(const Names &columns, const char *alias,
                               const std::vector<std::pair<const char *, std::vector<const char *>>> &wanted)
{
    LaunchArgs launch;
    for (const auto &[name, needed] : wanted) {
        if (!std::all_of(needed.begin(), needed.end(), [&](const char *c) { return columns.count(c) > 0; }))
            continue;
        launch.args.push_back({name, int(needed.size())});
        for (const char *c : needed)
            launch.select += QStringLiteral(", ") + column(columns, alias, c);
    }
    return launch;
}

void SqliteDatabase::LaunchArgs::append(const LaunchArgs &other)
{
    args.insert(args.end(), other.args.begin(), other.args.end());
    select += other.select;
}

void SqliteDatabase::LaunchArgs::addTo(RawEvent &event, sqlite3_stmt *stmt, int first) const
{
    int at = first;
    for (const Arg &arg : args) {
        int64_t values[3] = {};
        bool complete = true;
        for (int c = 0; c < arg.columns; ++c)
            complete = complete && intAt(stmt, at + c, values[c]);
        at += arg.columns;
        if (complete)
            event.addIntegerArg(arg.name, values, arg.columns);
    }
}

bool SqliteDatabase::hasSqliteMagic(const QByteArray &head)
{
    return head.startsWith(QByteArrayLiteral("SQLite format 3\0"));
}

bool SqliteDatabase::objectsOf(const QString &file, Names &objects)
{
    const QByteArray uri =
        "file:" + QUrl::toPercentEncoding(QFileInfo(file).absoluteFilePath(), "/") + "?mode=ro";
    sqlite3 *raw = nullptr;
    int rc = sqlite3_open_v2(uri.constData(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    std::unique_ptr<sqlite3, int (*)(sqlite3 *)> db(raw, sqlite3_close);
    if (rc != SQLITE_OK)
        return false;
    sqlite3_busy_timeout(raw, kBusyTimeoutMs);
    objects = objectNames(raw, &rc);
    return rc == SQLITE_OK;
}

QString SqliteDatabase::notSqlite(const TraceProbe &probe)
{
    const QString suffix = probe.info.suffix().toLower();
    if (!probe.opened || hasSqliteMagic(probe.magic) ||
        (suffix != QLatin1String("sqlite") && suffix != QLatin1String("db")))
        return {};
    return tr("not a SQLite database (an Nsight Systems export or a rocprofv3 rocpd database "
              "starts with \"SQLite format 3\")");
}

QString SqliteDatabase::neitherFormat(const Names &objects)
{
    // rocmProfileData's rpd tracer (ROCm 5–6) writes rocpd_op and rocpd_api: rocpd_ names, another schema.
    if (objects.count("rocpd_op") && objects.count("rocpd_api"))
        return tr("a rocmProfileData (rpd) database (rocpd_op and rocpd_api tables), not a rocprofv3 rocpd "
                  "database: convert it with rocmProfileData's `rpd2tracing.py` to a JSON trace, which "
                  "Scopeline reads, or record with `rocprofv3 --output-format rocpd`");
    return tr(
        "a SQLite database, but neither an Nsight Systems export (no StringIds or CUPTI_ACTIVITY_KIND_* "
        "tables) nor a rocprofv3 rocpd database (no rocpd_* tables); record with "
        "`nsys profile` and export with `nsys export --type sqlite`, or with `rocprofv3 --output-format "
        "rocpd`");
}

SqliteDatabase::SqliteDatabase(TraceBuilder &builder, const ReadContext &context)
    : m_builder(builder), m_progress(context.progress), m_cancel(context.cancel)
{}

bool SqliteDatabase::read(const QStringList &files)
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

bool SqliteDatabase::stopRequested()
{
    if (m_cancel && m_cancel->load(std::memory_order_relaxed))
        m_cancelled = true;
    return m_cancelled;
}

void SqliteDatabase::fail(int code, const QString &what, sqlite3 *db)
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

bool SqliteDatabase::query(sqlite3 *db, const QString &what, const QString &sql,
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

bool SqliteDatabase::countRows(sqlite3 *db, const std::function<bool(const char *)> &has,
                               const std::vector<std::pair<const char *, int64_t *>> &tables)
{
    // Table by table, so that a damaged one is named.
    for (const auto &[table, count] : tables) {
        *count = 0;
        int64_t *rows = count;
        if (has(table) && !query(db, QLatin1String(table),
                                 QStringLiteral("SELECT count(*) FROM %1").arg(QLatin1String(table)),
                                 [rows](sqlite3_stmt *s) { intAt(s, 0, *rows); }))
            return false;
    }
    return true;
}

bool SqliteDatabase::querySlices(sqlite3 *db, const QString &what, const QString &sql, const QString &badRows,
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

bool SqliteDatabase::readFile(const QString &file, int index, int count)
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
    // Between a writer's commits the database reads as the run so far: refused as a locked one is.
    if (liveJournalBeside(file)) {
        m_error = tr("%1-journal is beside it: another program is writing the database, or stopped half-way "
                     "through a write; try again when it has finished (a stopped write is rolled back the "
                     "next time a program opens the database to write)")
                      .arg(QFileInfo(file).fileName());
        return false;
    }
    if (writerHoldsReservedLock(raw)) {
        fail(SQLITE_BUSY, tr("opening"), raw);
        return false;
    }
    // Cancel also stops a long statement (a count over a huge table) between its steps.
    sqlite3_progress_handler(
        raw, 100000, [](void *self) { return int(static_cast<SqliteDatabase *>(self)->stopRequested()); },
        this);
    sqlite3_limit(raw, SQLITE_LIMIT_LENGTH, kMaxValueBytes);

    const Names objects = objectNames(raw, &rc);
    if (rc != SQLITE_OK) {
        fail(rc, tr("the schema"), raw);
        return false;
    }
    m_rows = 0;
    return readDatabase(raw, objects, index, count, QFileInfo(file).fileName());
}

} // namespace scopeline
