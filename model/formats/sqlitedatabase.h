// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the SQLite readers (rocpd, Nsight Systems) share: one or more databases opened read-only, never
// created or changed, statements stepped with progress and cancel, SQLite's errors said in words,
// rows turned into the builder's events. A reader derives from it and reads one opened database.

#include "model/formats/tracereader.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace scopeline {

struct RawEvent;

class SqliteDatabase
{
    Q_DECLARE_TR_FUNCTIONS(SqliteDatabase)

public:
    using Names = std::set<std::string>;

    // The 16 bytes every SQLite 3 database starts with.
    static bool hasSqliteMagic(const QByteArray &head);
    // The tables and views of a SQLite file, opened read-only; false when it cannot be read.
    static bool objectsOf(const QString &file, Names &objects);
    // For a .sqlite or .db file that is not SQLite: what both SQLite formats start with.
    static QString notSqlite(const TraceProbe &probe);
    // For a SQLite database that is neither format.
    static QString neitherFormat(const Names &objects);

    SqliteDatabase(TraceBuilder &builder, const ReadContext &context);
    virtual ~SqliteDatabase() = default;

    // Reads the files (one database, or the databases of one run) in order. False on error or cancel.
    bool read(const QStringList &files);
    QString error() const { return m_error; }
    bool cancelled() const { return m_cancelled; }
    int64_t bytesRead() const { return m_bytes; }

protected:
    // Reads one opened database whose tables and views are objects: file index of count.
    virtual bool readDatabase(sqlite3 *db, const Names &objects, int index, int count,
                              const QString &fileName) = 0;

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

    static Names objectNames(sqlite3 *db, int *rc);
    static Names columnNames(sqlite3 *db, const std::string &table);
    // An integer column; false for NULL and for values of another type (text where a time belongs).
    static bool intAt(sqlite3_stmt *stmt, int column, int64_t &value);
    static std::string textAt(sqlite3_stmt *stmt, int column);
    // "A.col" when the table has the column, else NULL, so that older schemas still read.
    static QString column(const Names &columns, const char *alias, const char *name);
    // A process or thread name ('M' event).
    static void addName(TraceBuilder &builder, RawEvent &event, const char *what, const std::string &pid,
                        const std::string &tid, const std::string &name);
    // A kernel's launch (grid, block, registers, memory) as the args its details show, from the
    // columns a table has: each arg one column, or three (x, y, z) shown as "[x, y, z]".
    struct LaunchArgs
    {
        struct Arg
        {
            std::string name;
            int columns = 1;
        };
        std::vector<Arg> args;
        QString select; // ", A.gridX, A.gridY, …": what the query adds for them

        // Those of wanted whose columns alias's table has (its columns).
        static LaunchArgs of(const Names &columns, const char *alias,
                             const std::vector<std::pair<const char *, std::vector<const char *>>> &wanted);
        // other's args after these (the query selects their columns in this order).
        void append(const LaunchArgs &other);
        // Adds the args of a row whose first launch column is `first`; NULL values are left out.
        void addTo(RawEvent &event, sqlite3_stmt *stmt, int first) const;
    };
    // One slice ('X') or instant ('i'). key pairs a call with its GPU work (made unique across
    // processes where ids are not); shownId is the id as the profiler wrote it, for the details view;
    // launch, where given, the launch args of stmt's row from its column firstLaunchColumn on.
    static void addSlice(TraceBuilder &builder, RawEvent &event, std::string name, const char *cat,
                         const std::string &pid, const std::string &tid, int64_t start, int64_t end,
                         int64_t key, int64_t shownId, char ph = 'X', const LaunchArgs *launch = nullptr,
                         sqlite3_stmt *stmt = nullptr, int firstLaunchColumn = 0);

    TraceBuilder &m_builder;
    QString m_error;
    bool m_multiFile = false; // several databases of one run
    int64_t m_totalRows = 1;  // of the database being read, for progress

private:
    bool readFile(const QString &file, int index, int count);

    std::function<void(double)> m_progress;
    const std::atomic<bool> *m_cancel;
    bool m_cancelled = false;
    int64_t m_bytes = 0;
    int64_t m_rows = 0;
    double m_fileBase = 0, m_fileShare = 1; // progress range of the file being read
};

} // namespace scopeline
