// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reads the SQLite trace formats into a TraceBuilder, row by row, read-only: rocprofv3's rocpd
// databases (ROCm 7, `<pid>_results.db`, several of one run read as one) and Nsight Systems exports
// (`nsys export --type sqlite`). Kernels, memory copies, runtime/driver calls and markers become the
// same events the JSON loaders make, so every analysis works on them unchanged. Calls pair with GPU
// work as the profilers mean it: rocpd on rocpd_event.stack_id (ROCm's internal correlation id), nsys
// on correlationId within one process. What a file lacks goes to TraceData::notes in words.

#include "tracedata.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace scopeline {

class TraceBuilder;

class SqliteTraceReader
{
    Q_DECLARE_TR_FUNCTIONS(SqliteTraceReader)

public:
    // The 16 bytes every SQLite 3 database starts with.
    static bool hasSqliteMagic(const QByteArray &head);
    // The rocpd databases of one run in a folder (`*_results.db`), sorted; empty when there are none.
    static QStringList rocpdFilesIn(const QString &folder);

    SqliteTraceReader(TraceBuilder &builder, const std::function<void(double)> &progress,
                      const std::atomic<bool> *cancel);

    // Reads one nsys export, or one or more rocpd databases of one run. False on error or cancel.
    bool read(const QStringList &files);
    QString error() const { return m_error; }
    bool cancelled() const { return m_cancelled; }
    TraceFormat format() const { return m_format; }
    int64_t bytesRead() const { return m_bytes; }

private:
    bool readFile(const QString &file, int index, int count);
    bool readRocpd(sqlite3 *db, int index, const QString &fileName);
    bool readNsys(sqlite3 *db, const QString &fileName);
    // Runs sql and hands each row to row(); false with m_error set (naming `what`) on failure.
    bool query(sqlite3 *db, const QString &what, const QString &sql,
               const std::function<void(sqlite3_stmt *)> &row);
    // query() for slices: the first two columns are start and end; rows where they are not integers,
    // or end before start, are counted and skipped with badRows as the reason, the rest go to row.
    bool querySlices(sqlite3 *db, const QString &what, const QString &sql, const QString &badRows,
                     const std::function<void(sqlite3_stmt *, int64_t start, int64_t end)> &row);
    // The rows of each table (0 for one the database lacks) in one query, into its counter.
    bool countRows(sqlite3 *db, const std::function<bool(const char *)> &has,
                   const std::vector<std::pair<const char *, int64_t *>> &tables);
    bool stopRequested();
    void fail(int code, const QString &what, sqlite3 *db);

    TraceBuilder &m_builder;
    std::function<void(double)> m_progress;
    const std::atomic<bool> *m_cancel;
    QString m_error;
    bool m_cancelled = false;
    bool m_multiFile = false; // several rocpd databases of one run
    TraceFormat m_format = TraceFormat::Unknown;
    int64_t m_bytes = 0;
    int64_t m_rows = 0, m_totalRows = 1;
    double m_fileBase = 0, m_fileShare = 1; // progress range of the file being read
};

} // namespace scopeline
