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

// The run folder that a JAX profile folder belongs to (the folder holding plugins/profile/), found
// from the run folder itself, its plugins/ or plugins/profile/, or a session folder in it (`session`
// set to its name); false for any other folder.
bool jaxRunFolder(const QDir &dir, QString &profiles, QString &runFolder, QString &session)
{
    const QString path = QDir::cleanPath(dir.absolutePath());
    const QStringList up = path.split(QLatin1Char('/'));
    const auto named = [&up](qsizetype fromEnd, const char *name) {
        return up.size() > fromEnd && up[up.size() - 1 - fromEnd] == QLatin1String(name);
    };
    const auto ancestor = [&up](qsizetype levels) {
        return up.mid(0, up.size() - levels).join(QLatin1Char('/'));
    };
    if (QFileInfo(path + QStringLiteral("/plugins/profile")).isDir()) {
        runFolder = path;
    } else if (named(0, "plugins") && QFileInfo(path + QStringLiteral("/profile")).isDir()) {
        runFolder = ancestor(1);
    } else if (named(1, "plugins") && named(0, "profile")) {
        runFolder = ancestor(2);
    } else if (named(2, "plugins") && named(1, "profile")) {
        runFolder = ancestor(3);
        session = up.back();
    } else {
        return false;
    }
    profiles = runFolder + QStringLiteral("/plugins/profile");
    return true;
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

// A JAX run folder: plugins/profile/<timestamp>/ with one profile per session, which jax.profiler
// writes twice (the trace viewer's file, and perfetto_trace.json.gz on request): one is read, never
// both. A session of several hosts holds a trace-viewer file per host.
bool ChromeJsonReader::sessionsIn(const QDir &dir, QDir &runFolder, std::vector<Session> &sessions) const
{
    QString profiles, folder, only;
    if (!jaxRunFolder(dir, profiles, folder, only))
        return false;
    runFolder.setPath(folder);
    const QStringList names = only.isEmpty()
                                  ? QDir(profiles).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)
                                  : QStringList{only};
    for (const QString &name : names) {
        const QDir session(QDir(profiles).filePath(name));
        const QString shown = QDir::toNativeSeparators(session.absolutePath());
        Session &s = sessions.emplace_back(Session{name, {}, {}});
        const QStringList viewer = session.entryList(jaxViewerFiles(), QDir::Files, QDir::Name);
        if (!viewer.isEmpty()) {
            s.file = session.filePath(viewer.first());
            if (viewer.size() > 1)
                s.note = tr("%1: profiles of %2 hosts in one session (%3); Scopeline reads one host of a JAX "
                            "session, %4, and leaves the others out")
                             .arg(shown)
                             .arg(viewer.size())
                             .arg(viewer.join(QStringLiteral(", ")), viewer.first());
            continue;
        }
        for (const char *file : {"perfetto_trace.json.gz", "perfetto_trace.json"})
            if (session.exists(QLatin1String(file))) {
                s.file = session.filePath(QLatin1String(file));
                break;
            }
        if (s.file.isEmpty())
            s.note = !session.entryList({QStringLiteral("*.xplane.pb")}, QDir::Files).isEmpty()
                         ? tr("%1: holds only JAX XPlane profiles, which Scopeline does not read: left out")
                               .arg(shown)
                         : tr("%1: a profile session without a trace file (a profile that did not finish?): "
                              "left out")
                               .arg(shown);
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
