// SPDX-License-Identifier: GPL-3.0-or-later
#include "traceloader.h"

#include "eventarrayreader.h"
#include "inflatingstreambuf.h"
#include "rocprofv3handler.h"
#include "sqlitetracereader.h"
#include "tracebuilder.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <istream>
#include <memory>

namespace scopeline {

namespace {

// rocprofv3's JSON is one object whose first key is "rocprofiler-sdk-tool".
bool looksLikeRocprofV3(std::string_view head)
{
    std::size_t i = head.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
    auto skipSpace = [&] {
        while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i])))
            ++i;
    };
    skipSpace();
    if (i >= head.size() || head[i] != '{')
        return false;
    ++i;
    skipSpace();
    return head.substr(i, 22) == "\"rocprofiler-sdk-tool\"";
}

bool onlyWhitespace(std::string_view head)
{
    return head.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// Reads another stream buffer with some byte ranges overwritten by RocprofV3Handler's mark for a
// number out of range (padded with blanks), so that a re-parse gets past them.
class PatchingStreamBuf : public std::streambuf
{
public:
    PatchingStreamBuf(std::streambuf &source, const std::vector<std::pair<int64_t, int64_t>> &patches)
        : m_source(source), m_patches(patches)
    {}

protected:
    int_type underflow() override
    {
        const std::streamsize n = m_source.sgetn(m_buffer, sizeof m_buffer);
        if (n <= 0)
            return traits_type::eof();
        const std::string_view mark = RocprofV3Handler::kOutOfRangeMark;
        for (const auto &[at, length] : m_patches)
            for (int64_t i = std::max(at, m_position); i < std::min(at + length, m_position + n); ++i)
                m_buffer[i - m_position] = i - at < int64_t(mark.size()) ? mark[std::size_t(i - at)] : ' ';
        m_position += n;
        setg(m_buffer, m_buffer, m_buffer + n);
        return traits_type::to_int_type(m_buffer[0]);
    }

private:
    std::streambuf &m_source;
    const std::vector<std::pair<int64_t, int64_t>> &m_patches;
    char m_buffer[1 << 16];
    int64_t m_position = 0;
};

constexpr int kMaxOutOfRangeNumbers = 64; // each one costs a re-read of the file

// JAX's profiler (XLA's, TensorFlow's) stores a session as <host>.xplane.pb, a protobuf of its own
// schema; the trace viewer's JSON of the same session is what Scopeline reads.
QString xplaneMessage(const QFileInfo &info)
{
    const QStringList json =
        info.dir().entryList({QStringLiteral("*.trace.json.gz"), QStringLiteral("*.trace.json"),
                              QStringLiteral("perfetto_trace.json.gz")},
                             QDir::Files, QDir::Name);
    const QString what = QCoreApplication::translate(
        "TraceLoader",
        "is a JAX profiler XPlane file (a protobuf of XLA's profiler), which Scopeline does not read");
    if (!json.isEmpty())
        return QCoreApplication::translate(
                   "TraceLoader",
                   "%1; the same profile is in %2 beside it: open that file, or the run folder")
            .arg(what, json.first());
    return QCoreApplication::translate(
               "TraceLoader", "%1; jax.profiler writes the same profile as a *.trace.json.gz (and, with "
                              "`create_perfetto_trace=True`, perfetto_trace.json.gz) beside it, which "
                              "Scopeline reads; none is "
                              "in this folder")
        .arg(what);
}

LoadResult loadSqlite(const QString &path, const QStringList &files,
                      const std::function<void(double)> &progress, const std::atomic<bool> *cancel)
{
    LoadResult result;
    result.path = path;
    auto data = std::make_shared<TraceData>();
    data->sourceFile = path;
    TraceBuilder builder(*data);
    SqliteTraceReader reader(builder, progress, cancel);
    if (!reader.read(files)) {
        result.cancelled = reader.cancelled();
        result.error = QStringLiteral("%1: %2").arg(
            QDir::toNativeSeparators(path),
            reader.cancelled() ? QCoreApplication::translate("TraceLoader", "loading cancelled")
                               : reader.error());
        return result;
    }
    builder.finish();
    data->format = reader.format();
    data->bytesRead = reader.bytesRead();
    result.trace = std::move(data);
    return result;
}

} // namespace

LoadResult TraceLoader::load(const QString &path, const std::function<void(double)> &progress,
                             const std::atomic<bool> *cancel)
{
    LoadResult result;
    result.path = path;
    auto fail = [&](const QString &problem) {
        result.error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), problem);
        return result;
    };
    // SQLite formats: a folder of rocpd databases (one run, one file per process), or one database.
    const QFileInfo info(path);
    QStringList sqliteFiles;
    if (info.isDir()) {
        sqliteFiles = SqliteTraceReader::rocpdFilesIn(path);
        if (sqliteFiles.isEmpty())
            return fail(tr("is a folder, not a trace file"));
    } else {
        const QString suffix = info.suffix().toLower();
        if (info.fileName().endsWith(QLatin1String(".xplane.pb"), Qt::CaseInsensitive))
            return fail(xplaneMessage(info));
        if (suffix == QLatin1String("nsys-rep") || suffix == QLatin1String("qdrep"))
            return fail(tr("is an Nsight Systems report, a closed format; export it with "
                           "`nsys export --type sqlite %1` and open the .sqlite file")
                            .arg(info.fileName()));
        QFile file(path);
        if (file.open(QIODevice::ReadOnly) && SqliteTraceReader::hasSqliteMagic(file.read(16)))
            sqliteFiles << path;
        else if (file.isOpen() && (suffix == QLatin1String("sqlite") || suffix == QLatin1String("db")))
            return fail(tr("not a SQLite database (an Nsight Systems export or a rocprofv3 rocpd database "
                           "starts with \"SQLite format 3\")"));
    }
    if (!sqliteFiles.isEmpty())
        return loadSqlite(path, sqliteFiles, progress, cancel);

    InflatingStreamBuf buffer;
    if (progress)
        buffer.setProgressCallback(progress);
    if (!buffer.open(path))
        return fail(tr("cannot open: %1").arg(buffer.error()));
    const std::string_view head = buffer.peek();
    if (!buffer.error().isEmpty())
        return fail(buffer.error());
    if (onlyWhitespace(head))
        return fail(tr("the file is empty"));

    auto data = std::make_shared<TraceData>();
    data->sourceFile = path;
    TraceBuilder builder(*data);
    QString error;
    bool cancelled = false;
    const bool rocprof = looksLikeRocprofV3(head);
    InflatingStreamBuf *input = &buffer; // the stream read last (rocprofv3 may read the file again)
    std::unique_ptr<InflatingStreamBuf> reopened;
    if (rocprof) {
        // rocprofv3 is parsed as one document: a number out of range stops it, so it is parsed again
        // with that number read as a mark that drops only its record.
        std::vector<std::pair<int64_t, int64_t>> patches;
        for (;;) {
            PatchingStreamBuf patched(*input, patches);
            std::istream in(&patched);
            RocprofV3Handler handler(cancel);
            nlohmann::json::sax_parse(in, &handler);
            error = handler.error();
            cancelled = handler.cancelled();
            const auto number = handler.outOfRangeNumber();
            const bool again = number.first >= 0 && int(patches.size()) < kMaxOutOfRangeNumbers &&
                               std::find(patches.begin(), patches.end(), number) == patches.end();
            if (!again) {
                if (error.isEmpty() && !cancelled)
                    handler.addKernelsTo(builder);
                break;
            }
            patches.push_back(number);
            reopened = std::make_unique<InflatingStreamBuf>();
            if (progress)
                reopened->setProgressCallback(progress);
            if (!reopened->open(path))
                return fail(tr("cannot open: %1").arg(reopened->error()));
            input = reopened.get();
        }
    } else {
        builder.reserveFor(buffer.expectedTextBytes());
        EventArrayReader reader(buffer, builder, cancel);
        reader.read();
        error = reader.error();
        cancelled = reader.cancelled();
    }
    if (cancelled || (cancel && cancel->load())) {
        result.cancelled = true;
        return fail(tr("loading cancelled"));
    }
    // A gzip or read failure ends the text early; say that rather than the JSON error it causes.
    if (!input->error().isEmpty())
        return fail(input->error());
    if (!error.isEmpty())
        return fail(error);

    builder.finish();
    if (rocprof)
        data->format = TraceFormat::RocprofV3;
    data->bytesRead = input->bytesProduced();
    result.trace = std::move(data);
    return result;
}

} // namespace scopeline
