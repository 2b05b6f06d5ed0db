// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/traceloader.h"

#include "model/analysis/runsummaryfile.h"
#include "model/files/atomicfile.h"
#include "model/formats/inflatingstreambuf.h"
#include "model/formats/tracebuilder.h"
#include "model/formats/tracereader.h"
#include "model/loading/sessionfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <memory>

namespace scopeline {

namespace {

bool onlyWhitespace(std::string_view head)
{
    return head.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// The first reader of this input kind that says Yes, else the first that takes the file as a fallback.
const TraceReader *pick(TraceReader::Input input, const TraceProbe &probe)
{
    const TraceReader *fallback = nullptr;
    for (const TraceReader *reader : TraceReader::all()) {
        if (reader->input() != input)
            continue;
        const TraceReader::Match match = reader->match(probe);
        if (match == TraceReader::Match::Yes)
            return reader;
        if (match == TraceReader::Match::Fallback && !fallback)
            fallback = reader;
    }
    return fallback;
}

// What a file is when it is packed in a way Scopeline does not read (another compressor, an archive,
// UTF-16 text), by its first bytes as stored or, for a tar inside gzip, as inflated; empty otherwise.
QString packedAs(const QByteArray &magic, std::string_view text = {})
{
    static const std::pair<QByteArray, const char *> kinds[] = {
        {QByteArray("BZh"), QT_TRANSLATE_NOOP("TraceLoader", "a bzip2 file")},
        {QByteArray("\xFD"
                    "7zXZ",
                    5),
         QT_TRANSLATE_NOOP("TraceLoader", "an xz file")},
        {QByteArray("\x28\xB5\x2F\xFD", 4), QT_TRANSLATE_NOOP("TraceLoader", "a zstd file")},
        {QByteArray("\x04\x22\x4D\x18", 4), QT_TRANSLATE_NOOP("TraceLoader", "an lz4 file")},
        {QByteArray("PK\x03\x04", 4), QT_TRANSLATE_NOOP("TraceLoader", "a zip archive")},
        {QByteArray("7z\xBC\xAF\x27\x1C", 6), QT_TRANSLATE_NOOP("TraceLoader", "a 7-Zip archive")},
        {QByteArray("\xFF\xFE", 2), QT_TRANSLATE_NOOP("TraceLoader", "UTF-16 text")},
        {QByteArray("\xFE\xFF", 2), QT_TRANSLATE_NOOP("TraceLoader", "UTF-16 text")}};
    for (const auto &[start, kind] : kinds)
        if (magic.startsWith(start))
            return QCoreApplication::translate("TraceLoader", kind);
    if (text.size() > 262 && text.substr(257, 5) == "ustar")
        return QCoreApplication::translate("TraceLoader", "a tar archive");
    return {};
}

QString packedProblem(const QString &kind)
{
    return QCoreApplication::translate("TraceLoader",
                                       "is %1, which Scopeline does not read: unpack it, and open the trace "
                                       "(.json, .json.gz or a database) it holds")
        .arg(kind);
}

} // namespace

QString TraceLoader::outputProblem(const QString &path)
{
    if (!QFileInfo(path).isFile())
        return saveProblem(path);
    if (SessionFile::isSessionFile(path)) // which a trace's probe would take for JSON events
        return tr("it is a saved session, which it would replace; name another file");
    if (notATrace(path).isEmpty())
        return tr("it is a trace or a run summary, which it would replace; name another file");
    return saveProblem(path);
}

QString TraceLoader::notATrace(const QString &file)
{
    TraceProbe probe;
    probe.path = file;
    probe.info = QFileInfo(file);
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        return tr("cannot be read: %1").arg(in.errorString());
    if (in.size() == 0)
        return tr("the file is empty");
    if (RunSummaryFile::isSummaryFile(file)) // a run's summary (scopeline-cli summarize) opens as its run
        return {};
    probe.opened = true;
    probe.magic = in.read(16);
    in.close();
    if (pick(TraceReader::Input::File, probe))
        return {};
    InflatingStreamBuf buffer;
    if (!buffer.open(file))
        return tr("cannot be read: %1").arg(buffer.error());
    probe.head = buffer.peek();
    if (!buffer.error().isEmpty())
        return buffer.error();
    if (const QString packed = packedAs(probe.magic, probe.head); !packed.isEmpty())
        return packedProblem(packed);
    probe.text = &buffer;
    const TraceReader *reader = pick(TraceReader::Input::Text, probe);
    if (reader && reader->match(probe) == TraceReader::Match::Yes)
        return {};
    // The text readers' fallback takes any JSON: a document that opens as an object or an array.
    std::string_view head = probe.head;
    if (head.rfind("\xEF\xBB\xBF", 0) == 0)
        head.remove_prefix(3);
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (reader && first != std::string_view::npos && (head[first] == '{' || head[first] == '['))
        return {};
    return tr("not a trace: neither JSON nor SQLite");
}

QStringList TraceLoader::fileNamePatterns()
{
    QStringList patterns;
    for (const TraceReader *reader : TraceReader::all())
        for (const QString &pattern : reader->fileNamePatterns())
            if (!patterns.contains(pattern))
                patterns << pattern;
    return patterns;
}

QStringList TraceLoader::formats()
{
    QStringList formats;
    for (const TraceReader *reader : TraceReader::all())
        formats << QStringLiteral("%1 (%2)").arg(reader->formatName(),
                                                 reader->fileNamePatterns().join(QStringLiteral(", ")));
    return formats;
}

LoadResult TraceLoader::load(const QString &path, const std::function<void(double)> &progress,
                             const std::atomic<bool> *cancel, LoadOptions options)
{
    LoadResult result;
    result.path = path;
    auto fail = [&](const QString &problem) {
        result.error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), problem);
        return result;
    };
    TraceProbe probe;
    probe.path = path;
    probe.info = QFileInfo(path);
    if (!probe.info.isDir()) {
        QFile file(path);
        probe.opened = file.open(QIODevice::ReadOnly);
        if (probe.opened)
            probe.magic = file.read(16);
    }
    for (const TraceReader *reader : TraceReader::all())
        if (const QString refusal = reader->refusal(probe); !refusal.isEmpty())
            return fail(refusal);

    // Binary formats first (SQLite; a folder of rocpd databases), on the bytes as stored; then text,
    // on the first decompressed block of the stream the text reader goes on to read.
    const TraceReader *reader = pick(TraceReader::Input::File, probe);
    if (!reader && probe.info.isDir())
        return fail(tr("is a folder, not a trace file"));
    InflatingStreamBuf buffer;
    if (!reader) {
        if (progress)
            buffer.setProgressCallback(progress);
        if (!buffer.open(path))
            return fail(tr("cannot open: %1").arg(buffer.error()));
        probe.head = buffer.peek();
        if (!buffer.error().isEmpty())
            return fail(buffer.error());
        if (const QString packed = packedAs(probe.magic, probe.head); !packed.isEmpty())
            return fail(packedProblem(packed));
        if (onlyWhitespace(probe.head))
            return fail(tr("the file is empty"));
        probe.text = &buffer;
        reader = pick(TraceReader::Input::Text, probe);
        if (!reader) // the list's Chrome JSON reader takes any text; this is for a list without one
            return fail(tr("not a trace format Scopeline reads"));
    }

    auto data = std::make_shared<TraceData>();
    data->sourceFile = path;
    data->detail = options.detail;
    TraceBuilder builder(*data);
    const ReadResult read = reader->read(probe, builder, {progress, cancel});
    if (read.cancelled) {
        result.cancelled = true;
        return fail(tr("loading cancelled"));
    }
    if (!read.error.isEmpty())
        return fail(read.error);
    builder.finish();
    if (read.format != TraceFormat::Unknown)
        data->format = read.format;
    data->bytesRead = read.bytesRead;
    result.trace = std::move(data);
    return result;
}

} // namespace scopeline
