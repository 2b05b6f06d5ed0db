// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/chromejsonreader.h"

#include "model/formats/eventarrayreader.h"
#include "model/formats/inflatingstreambuf.h"
#include "model/formats/tracebuilder.h"

#include <QDirIterator>

namespace scopeline {

namespace {

// What jax.profiler writes for the trace viewer, beside its XPlane protobuf: the file of a session.
const QStringList &jaxViewerFiles()
{
    static const QStringList files = {QStringLiteral("*.trace.json.gz"), QStringLiteral("*.trace.json")};
    return files;
}

// JAX writes each profile twice; the trace-viewer file is preferred, never both.
QString jaxProfileFile(const QDir &profileDir)
{
    const QStringList viewer = profileDir.entryList(jaxViewerFiles(), QDir::Files, QDir::Name);
    if (!viewer.isEmpty())
        return profileDir.filePath(viewer.first());
    for (const char *name : {"perfetto_trace.json.gz", "perfetto_trace.json"})
        if (profileDir.exists(QLatin1String(name)))
            return profileDir.filePath(QLatin1String(name));
    return {};
}

} // namespace

QString ChromeJsonReader::formatName() const
{
    return tr("JAX, PyTorch (Kineto) or Chrome trace JSON");
}

QStringList ChromeJsonReader::fileNamePatterns() const
{
    return {QStringLiteral("*.json"), QStringLiteral("*.json.gz")};
}

QString ChromeJsonReader::lookedFor() const
{
    return QStringLiteral("plugins/profile/*/*.trace.json.gz, *.pt.trace.json[.gz], *.json[.gz]");
}

TraceReader::Match ChromeJsonReader::match(const TraceProbe &) const
{
    return Match::Fallback;
}

// JAX's profiler (XLA's, TensorFlow's) stores a session as <host>.xplane.pb, a protobuf of its own
// schema; the trace viewer's JSON of the same session is what Scopeline reads.
QString ChromeJsonReader::refusal(const TraceProbe &probe) const
{
    if (probe.info.isDir() ||
        !probe.info.fileName().endsWith(QLatin1String(".xplane.pb"), Qt::CaseInsensitive))
        return {};
    const QStringList json = probe.info.dir().entryList(
        jaxViewerFiles() + QStringList{QStringLiteral("perfetto_trace.json.gz")}, QDir::Files, QDir::Name);
    const QString what =
        tr("is a JAX profiler XPlane file (a protobuf of XLA's profiler), which Scopeline does not read");
    if (!json.isEmpty())
        return tr("%1; the same profile is in %2 beside it: open that file, or the run folder")
            .arg(what, json.first());
    return tr("%1; jax.profiler writes the same profile as a *.trace.json.gz (and, with "
              "`create_perfetto_trace=True`, perfetto_trace.json.gz) beside it, which "
              "Scopeline reads; none is "
              "in this folder")
        .arg(what);
}

// A JAX run whose profile folder holds only the XPlane protobuf, not the trace viewer's JSON.
QString ChromeJsonReader::folderRefusal(const QDir &dir, const QString &shown) const
{
    QDirIterator xplanes(dir.absolutePath(), {QStringLiteral("*.xplane.pb")}, QDir::Files,
                         QDirIterator::Subdirectories);
    if (!xplanes.hasNext())
        return {};
    return tr("%1: holds only JAX XPlane profiles (%2, a protobuf), which Scopeline does not "
              "read; it reads the *.trace.json.gz that jax.profiler writes beside them, or "
              "perfetto_trace.json.gz (`jax.profiler.trace(dir, create_perfetto_trace=True)`)")
        .arg(shown, dir.relativeFilePath(xplanes.next()));
}

// A JAX run folder: plugins/profile/<timestamp>/ with one profile per session.
bool ChromeJsonReader::sessionsIn(const QDir &dir, std::vector<std::pair<QString, QString>> &sessions) const
{
    const QDir profiles(dir.filePath(QStringLiteral("plugins/profile")));
    if (!profiles.exists())
        return false;
    for (const QString &session : profiles.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        sessions.emplace_back(session, jaxProfileFile(QDir(profiles.filePath(session))));
    }
    return true;
}

ReadResult ChromeJsonReader::read(const TraceProbe &probe, TraceBuilder &builder,
                                  const ReadContext &context) const
{
    InflatingStreamBuf &input = *probe.text;
    builder.reserveFor(input.expectedTextBytes());
    EventArrayReader reader(input, builder, context.cancel);
    reader.read();
    ReadResult result;
    result.cancelled = reader.cancelled() || (context.cancel && context.cancel->load());
    // A gzip or read failure ends the text early; say that rather than the JSON error it causes.
    result.error = !input.error().isEmpty() ? input.error() : reader.error();
    result.bytesRead = input.bytesProduced();
    return result;
}

} // namespace scopeline
