// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/nsyssqlitereader.h"

#include "model/formats/rawevent.h"
#include "model/formats/sqlitedatabase.h"
#include "model/formats/tracebuilder.h"

#include <QDirIterator>
#include <QFileInfo>

#include <sqlite3.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace scopeline {

namespace {

class NsysDatabase : public SqliteDatabase
{
public:
    using SqliteDatabase::SqliteDatabase;

protected:
    bool readDatabase(sqlite3 *db, const Names &objects, int, int, const QString &fileName) override
    {
        if (NsysSqliteReader::isNsysExport(objects))
            return readNsys(db, fileName);
        m_error = neitherFormat(objects);
        return false;
    }

private:
    bool readNsys(sqlite3 *db, const QString &fileName);
    static std::string memcpyName(int64_t kind);
    static QString nsysVersion(sqlite3 *db, const Names &objects);
    static std::set<int64_t> nsysBacktraceClasses(sqlite3 *db, const Names &objects);
};

std::string NsysDatabase::memcpyName(int64_t kind)
{
    // CUpti_ActivityMemcpyKind
    static const char *names[] = {"Memcpy",      "Memcpy HtoD", "Memcpy DtoH", "Memcpy HtoA",
                                  "Memcpy AtoH", "Memcpy AtoA", "Memcpy AtoD", "Memcpy DtoA",
                                  "Memcpy DtoD", "Memcpy HtoH", "Memcpy PtoP"};
    return kind >= 0 && kind <= 10 ? names[kind] : "Memcpy";
}

// "an export of Nsight Systems 2024.5.1.113, schema 3.13.2", from the export's metadata table:
// META_DATA_EXPORT in the 2024 exports seen, EXPORT_META_DATA in nsys 2022.2's; empty when neither says.
QString NsysDatabase::nsysVersion(sqlite3 *db, const Names &objects)
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
    return tr("an export of Nsight Systems %1, schema %2")
        .arg(product.isEmpty() ? QStringLiteral("?") : product,
             schema.isEmpty() ? QStringLiteral("?") : schema);
}

// eventClass values of the "CUDA backtrace" records in CUPTI_ACTIVITY_KIND_RUNTIME: from the export's
// ENUM_NSYS_EVENT_CLASS where it has one, else 67, their value in every export seen (2022 has no enums).
std::set<int64_t> NsysDatabase::nsysBacktraceClasses(sqlite3 *db, const Names &objects)
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

bool NsysSqliteReader::isNsysExport(const std::set<std::string> &objects)
{
    return objects.count("StringIds") || objects.count("CUPTI_ACTIVITY_KIND_KERNEL") ||
           objects.count("CUPTI_ACTIVITY_KIND_GRAPH_TRACE") || objects.count("NVTX_EVENTS");
}

QString NsysSqliteReader::formatName() const
{
    return tr("Nsight Systems SQLite export");
}

QStringList NsysSqliteReader::fileNamePatterns() const
{
    return {QStringLiteral("*.sqlite")};
}

QString NsysSqliteReader::lookedFor() const
{
    return QStringLiteral("*.sqlite");
}

TraceReader::Match NsysSqliteReader::match(const TraceProbe &probe) const
{
    if (probe.info.isDir() || !SqliteDatabase::hasSqliteMagic(probe.magic))
        return Match::No;
    SqliteDatabase::Names objects;
    return SqliteDatabase::objectsOf(probe.path, objects) && isNsysExport(objects) ? Match::Yes
                                                                                   : Match::Fallback;
}

QString NsysSqliteReader::refusal(const TraceProbe &probe) const
{
    const QString suffix = probe.info.suffix().toLower();
    if (!probe.info.isDir() && (suffix == QLatin1String("nsys-rep") || suffix == QLatin1String("qdrep")))
        return tr("is an Nsight Systems report, a closed format; export it with "
                  "`nsys export --type sqlite %1` and open the .sqlite file")
            .arg(probe.info.fileName());
    return SqliteDatabase::notSqlite(probe);
}

// Nsight Systems' own reports are a closed format: say how to get the open one.
QString NsysSqliteReader::folderRefusal(const QDir &dir, const QString &shown) const
{
    QDirIterator reports(dir.absolutePath(), {QStringLiteral("*.nsys-rep"), QStringLiteral("*.qdrep")},
                         QDir::Files, QDirIterator::Subdirectories);
    if (!reports.hasNext())
        return {};
    return tr("%1: holds Nsight Systems reports (%2), a closed format; export each with "
              "`nsys export --type sqlite <report>` and open the .sqlite files")
        .arg(shown, QFileInfo(reports.next()).fileName());
}

ReadResult NsysSqliteReader::read(const TraceProbe &probe, TraceBuilder &builder,
                                  const ReadContext &context) const
{
    NsysDatabase database(builder, context);
    ReadResult result;
    result.format = TraceFormat::NsysSqlite;
    if (!database.read({probe.path})) {
        result.cancelled = database.cancelled();
        result.error = database.error();
    }
    result.bytesRead = database.bytesRead();
    return result;
}

bool NsysDatabase::readNsys(sqlite3 *db, const QString &fileName)
{
    int rc = SQLITE_OK;
    const Names objects = objectNames(db, &rc);
    auto has = [&](const char *name) { return objects.count(name) > 0; };
    const char *kKernel = "CUPTI_ACTIVITY_KIND_KERNEL", *kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME",
               *kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY", *kMemset = "CUPTI_ACTIVITY_KIND_MEMSET",
               *kNvtx = "NVTX_EVENTS", *kGraph = "CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
    const QString version = nsysVersion(db, objects);
    if (!has(kKernel) && !has(kGraph) && !has(kRuntime)) {
        // nsys leaves out the tables of what it did not record: no kernel or API table, no CUDA trace.
        m_error =
            tr("no kernels recorded in %1: was CUDA tracing on (`nsys profile --trace=cuda`)?").arg(fileName);
        return false;
    }
    // Every table read must have its times; a missing one is a schema this reader does not know.
    std::unordered_map<std::string, Names> columns;
    for (const char *table : {kKernel, kRuntime, kMemcpy, kMemset, kNvtx, kGraph}) {
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
    int64_t kernels = 0, calls = 0, memcpys = 0, memsets = 0, nvtx = 0, graphs = 0;
    if (!countRows(db, has,
                   {{kKernel, &kernels},
                    {kRuntime, &calls},
                    {kMemcpy, &memcpys},
                    {kMemset, &memsets},
                    {kNvtx, &nvtx},
                    {kGraph, &graphs}}))
        return false;
    m_totalRows = std::max<int64_t>(1, kernels + calls + memcpys + memsets + nvtx + graphs);
    // An export with API calls and no kernel table is a run whose kernels were not captured, as one
    // with an empty table is: a side leaves it out and says so, rather than failing whole.
    if (kernels == 0 && graphs == 0)
        m_builder.note(
            calls > 0 ? tr("no kernels recorded in this export, though it holds %1 CUDA API calls").arg(calls)
                      : tr("no kernels recorded in this export"));
    // nsys's default, --cuda-graph-trace=graph, records a graph launch as one range and none of its nodes.
    if (graphs > 0)
        m_builder.caveat(
            tr("%1 CUDA graph launches recorded whole, each one GPU range named \"CUDA graph N\": "
               "their kernels are not seen (record with `nsys profile --cuda-graph-trace=node`)")
                .arg(graphs));
    if (calls == 0)
        m_builder.caveat(tr("no CUDA API calls in this export: kernels are not paired with the calls that "
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
    QStringList gpuTables; // kernels and graphs, whose processes pair them with their calls
    bool gpuProcesses = true;
    for (const char *table : {kKernel, kGraph})
        if (has(table)) {
            gpuTables << QStringLiteral("SELECT globalPid FROM %1").arg(QLatin1String(table));
            gpuProcesses = gpuProcesses && columns[table].count("globalPid");
        }
    const bool perProcess = gpuProcesses && (!has(kRuntime) || columns[kRuntime].count("globalTid"));
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
    if (perProcess && !gpuTables.isEmpty() &&
        !query(db, QLatin1String(has(kKernel) ? kKernel : kGraph),
               QStringLiteral("SELECT count(DISTINCT globalPid) > 1 FROM (%1)")
                   .arg(gpuTables.join(QStringLiteral(" UNION ALL "))),
               [&](sqlite3_stmt *s) { severalProcesses = sqlite3_column_int(s, 0) != 0; }))
        return false;

    std::set<int64_t> namedDevices;
    auto gpuPid = [&](int64_t device) {
        const std::string pid = "GPU " + std::to_string(device);
        if (namedDevices.insert(device).second)
            addName(m_builder, event, "process_name", pid, "0", pid);
        return pid;
    };
    // GPU activity: kernels, graphs launched whole, copies and sets, one track per device and stream.
    // A graph whose first node runs on the host has device INT_MAX (CUPTI): it takes its stream's device,
    // as the kernels (read before it) give it, or the only device there is; else it is left out, counted.
    std::map<std::pair<int64_t, int64_t>, int64_t> streamDevice; // (process, stream) -> device, of kernels
    constexpr int64_t kHostStart = std::numeric_limits<int32_t>::max();
    const auto onlyDevice = [&streamDevice]() -> std::optional<int64_t> {
        for (const auto &entry : streamDevice)
            if (entry.second != streamDevice.begin()->second)
                return std::nullopt;
        return streamDevice.empty() ? std::nullopt : std::optional<int64_t>(streamDevice.begin()->second);
    };
    auto readGpu = [&](const char *table, const char *cat) {
        const Names &cols = columns[table];
        const bool graph = table == std::string(kGraph), kernels = table == std::string(kKernel);
        QString name = QStringLiteral("NULL");
        if (graph) {
            name = column(cols, table, cols.count("graphId") ? "graphId" : "graphExecId");
        } else if (cat == std::string("kernel")) {
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
        // CUPTI's launch configuration, named as Kineto names it where it has it; for the details only
        const LaunchArgs launch =
            kernels && m_builder.detail() == TraceDetail::Full
                ? LaunchArgs::of(cols, table,
                                 {{"grid", {"gridX", "gridY", "gridZ"}},
                                  {"block", {"blockX", "blockY", "blockZ"}},
                                  {"registers per thread", {"registersPerThread"}},
                                  {"static shared memory", {"staticSharedMemory"}},
                                  {"dynamic shared memory", {"dynamicSharedMemory"}},
                                  {"local memory per thread", {"localMemoryPerThread"}}})
                : LaunchArgs();
        const QString sql = QStringLiteral("SELECT start, end, %1, %2, %3, %4, %5%6 FROM %7")
                                .arg(column(cols, table, "deviceId"), column(cols, table, "streamId"),
                                     column(cols, table, "correlationId"), name,
                                     column(cols, table, "globalPid"), launch.select, QLatin1String(table));
        int64_t untimed = 0, deviceUnknown = 0;
        const bool ok = querySlices(
            db, QLatin1String(table), sql,
            tr("%1: start or end not an integer, or end before start").arg(QLatin1String(table)),
            [&](sqlite3_stmt *s, int64_t start, int64_t end) {
                if (graph && start == 0 &&
                    end == 0) { // CUPTI: "timestamp information could not be collected"
                    ++untimed;
                    return;
                }
                int64_t device = 0, stream = 0, gpid = 0, shown = -1;
                intAt(s, 2, device);
                intAt(s, 3, stream);
                intAt(s, 6, gpid);
                if (graph && device == kHostStart) {
                    const auto known = streamDevice.find({pidOf(gpid), stream});
                    const std::optional<int64_t> only =
                        known != streamDevice.end() ? std::optional<int64_t>(known->second) : onlyDevice();
                    if (!only) {
                        ++deviceUnknown;
                        return;
                    }
                    device = *only;
                } else if (kernels) {
                    streamDevice.emplace(std::pair{pidOf(gpid), stream}, device);
                }
                std::string text;
                if (graph) {
                    int64_t id = 0;
                    text = intAt(s, 5, id) ? "CUDA graph " + std::to_string(id) : "CUDA graph";
                } else if (cat == std::string("kernel")) {
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
                         shown, 'X', &launch, s, 7);
            });
        if (untimed)
            m_builder.skip(tr("%1: a graph launch without timestamps (start and end 0: CUPTI could not "
                              "collect them)")
                               .arg(QLatin1String(table)),
                           untimed);
        if (deviceUnknown)
            m_builder.skip(
                tr("%1: a graph that starts on the host, on a stream of no kernel, of several GPUs")
                    .arg(QLatin1String(table)),
                deviceUnknown);
        return ok;
    };
    if (has(kKernel) && !readGpu(kKernel, "kernel"))
        return false;
    if (has(kGraph) && !readGpu(kGraph, "kernel"))
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
