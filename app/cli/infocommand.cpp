// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli info`: what was loaded and its launch analysis, as text or JSON.
#include "app/cli/clicommands.h"

#include "model/tables/durationformat.h"
#include "model/tables/tableformat.h"
#include "stats/descriptive.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

namespace scopeline::cli {

namespace {

// A database (rocpd, nsys SQLite): it has no JSON text, whose size info gives (its file's is no such figure).
bool isDatabase(const TraceData &t)
{
    return t.format == TraceFormat::Rocpd || t.format == TraceFormat::NsysSqlite;
}

// Quartiles and extremes of a delay distribution, null when there are none.
QJsonValue distributionJson(const std::vector<int64_t> &delays)
{
    if (delays.empty())
        return QJsonValue(QJsonValue::Null);
    const stats::Descriptive d = stats::describe(std::vector<double>(delays.begin(), delays.end()));
    return QJsonObject{{QStringLiteral("n"), double(d.n)}, {QStringLiteral("min"), d.min},
                       {QStringLiteral("q1"), d.q1},       {QStringLiteral("median"), d.median},
                       {QStringLiteral("q3"), d.q3},       {QStringLiteral("max"), d.max},
                       {QStringLiteral("mean"), d.mean}};
}

QJsonObject summaryJson(const LaunchSummary &s)
{
    QJsonObject o;
    o[QStringLiteral("kernels")] = double(s.kernels);
    o[QStringLiteral("kernel_launches")] = double(s.kernelLaunches);
    o[QStringLiteral("graph_launches")] = double(s.graphLaunches);
    o[QStringLiteral("gpu_busy_ns")] = double(s.busyNs);
    o[QStringLiteral("gpu_span_ns")] = double(s.spanNs);
    o[QStringLiteral("gpu_idle_ns")] = double(s.idleNs());
    // The medians are the distributions' (numpy.median's value either way), not sorted for again.
    const QJsonValue launches = distributionJson(s.launchDelays);
    const QJsonValue graphLaunches = distributionJson(s.graphLaunchDelays);
    const auto median = [](const QJsonValue &distribution) {
        return distribution.isNull() ? QJsonValue(QJsonValue::Null) : distribution[QStringLiteral("median")];
    };
    o[QStringLiteral("median_launch_delay_ns")] = median(launches);
    o[QStringLiteral("median_graph_launch_delay_ns")] = median(graphLaunches);
    o[QStringLiteral("launch_delay_ns")] = launches;
    o[QStringLiteral("graph_launch_delay_ns")] = graphLaunches;
    return o;
}

QMap<QString, int64_t> gapCauses(const StreamSummary &stream)
{
    // Counted by cause, then named: a stream may have hundreds of thousands of gaps.
    std::map<GapCause, int64_t> byCause;
    for (const IdleGap &gap : stream.gaps)
        ++byCause[gap.cause];
    QMap<QString, int64_t> causes;
    for (const auto &[cause, count] : byCause)
        causes[gapCauseName(cause)] += count;
    return causes;
}

QJsonObject infoJson(const LoadedRun &run)
{
    const TraceData &t = *run.trace;
    const TraceAnalysis &a = *run.analysis;
    const QJsonObject total = summaryJson(a.total());
    QJsonObject o = total;
    o[QStringLiteral("run")] = run.run.name;
    if (run.run.rank >= 0) {
        o[QStringLiteral("rank")] = run.run.rank;
        if (run.run.worldSize > 0)
            o[QStringLiteral("world_size")] = run.run.worldSize;
    }
    o[QStringLiteral("file")] = run.run.file;
    o[QStringLiteral("format")] = formatName(t.format);
    o[QStringLiteral("events")] = double(t.eventsRead());
    o[QStringLiteral("json_bytes")] = isDatabase(t) ? QJsonValue() : QJsonValue(double(t.bytesRead));
    QJsonObject skipped;
    for (const auto &[reason, count] : t.skipped)
        skipped[reason] = double(count);
    o[QStringLiteral("skipped")] = skipped;
    o[QStringLiteral("notes")] = QJsonArray::fromStringList(t.notes);
    QJsonArray devices;
    for (const LaunchSummary &device : a.devices()) {
        // A trace of one GPU: that GPU's figures are the total's, worked out once.
        QJsonObject d = device.sameFigures(a.total()) ? total : summaryJson(device);
        d[QStringLiteral("device")] = device.device;
        devices.append(d);
    }
    o[QStringLiteral("devices")] = devices;
    QJsonArray tracks;
    for (const Track &track : t.tracks) {
        tracks.append(QJsonObject{{QStringLiteral("name"), track.displayName()},
                                  {QStringLiteral("gpu"), track.gpu},
                                  {QStringLiteral("device"), track.device}});
    }
    o[QStringLiteral("tracks")] = tracks;
    const MemorySummary &memory = a.memory();
    o[QStringLiteral("memory")] = QJsonObject{{QStringLiteral("copies"), double(memory.copies)},
                                              {QStringLiteral("copy_ns"), double(memory.copyNs)},
                                              {QStringLiteral("sets"), double(memory.sets)},
                                              {QStringLiteral("set_ns"), double(memory.setNs)}};
    QJsonArray streams;
    for (const StreamSummary &stream : a.streams()) {
        QJsonObject causes;
        const auto counts = gapCauses(stream);
        for (auto it = counts.begin(); it != counts.end(); ++it)
            causes[it.key()] = double(it.value());
        streams.append(QJsonObject{{QStringLiteral("track"), t.tracks[stream.track].displayName()},
                                   {QStringLiteral("device"), t.tracks[stream.track].device},
                                   {QStringLiteral("kernels"), double(stream.kernels)},
                                   {QStringLiteral("busy_ns"), double(stream.busyNs)},
                                   {QStringLiteral("idle_ns"), double(stream.idleNs())},
                                   {QStringLiteral("gaps"), double(stream.gaps.size())},
                                   {QStringLiteral("gap_memory_ns"), double(stream.memoryNs)},
                                   {QStringLiteral("gap_causes"), causes}});
    }
    o[QStringLiteral("streams")] = streams;
    return o;
}

void printSummary(const LaunchSummary &s, const QString &indent)
{
    out() << indent << "kernels " << s.kernels << ", kernel launches " << s.kernelLaunches
          << ", graph launches " << s.graphLaunches << "\n";
    out() << indent << "GPU busy " << formatDuration(double(s.busyNs)) << " of span "
          << formatDuration(double(s.spanNs)) << " (" << (s.spanNs > 0 ? formatPercent(double(s.busyNs) / double(s.spanNs)) : QStringLiteral("–"))
          << "), idle " << formatDuration(double(s.idleNs())) << "\n";
    if (s.launchDelays.empty()) {
        out() << indent << "launch delay median " << formatDuration(s.medianLaunchDelay());
    } else { // the median is the distribution's, as in the JSON, not sorted for again
        const stats::Descriptive d =
            stats::describe(std::vector<double>(s.launchDelays.begin(), s.launchDelays.end()));
        out() << indent << "launch delay median " << formatDuration(d.median) << " (quartiles "
              << formatDuration(d.q1) << " – " << formatDuration(d.q3) << ", max " << formatDuration(d.max)
              << ", " << d.n << " kernels)";
    }
    if (!s.graphLaunchDelays.empty())
        out() << "; graph launch delay median " << formatDuration(s.medianGraphLaunchDelay()) << " ("
              << s.graphLaunchDelays.size() << " graph launches)";
    out() << "\n";
}

void printInfo(const LoadedRun &run)
{
    const TraceData &t = *run.trace;
    const TraceAnalysis &a = *run.analysis;
    int gpuTracks = 0;
    std::set<int> gpus;
    for (const Track &track : t.tracks)
        if (track.gpu) {
            ++gpuTracks;
            gpus.insert(track.device);
        }
    out() << run.run.label() << "  (" << run.run.file << ")\n";
    // a GPU track is a stream or queue: one GPU may have several
    out() << "  format " << formatName(t.format) << ", " << t.eventsRead() << " events, " << t.tracks.size()
          << " tracks (" << gpuTracks
          << (gpuTracks == 1 ? " GPU stream or queue on " : " GPU streams or queues on ") << gpus.size()
          << (gpus.size() == 1 ? " GPU)" : " GPUs)");
    if (!isDatabase(t))
        out() << ", " << QString::number(double(t.bytesRead) / 1e6, 'f', 1) << " MB of JSON";
    out() << "\n";
    for (const auto &[reason, count] : t.skipped)
        out() << "  skipped " << count << " × " << reason << "\n";
    for (const QString &note : t.notes)
        out() << "  " << note << "\n";
    printSummary(a.total(), QStringLiteral("  "));
    if (const MemorySummary &memory = a.memory(); memory.copies + memory.sets > 0)
        out() << "  memory copies " << memory.copies << " (" << formatDuration(double(memory.copyNs))
              << "), memory sets " << memory.sets << " (" << formatDuration(double(memory.setNs))
              << "): not kernels, so not GPU busy\n";
    if (a.devices().size() > 1)
        for (const LaunchSummary &device : a.devices()) {
            out() << "  GPU " << device.device << ":\n";
            printSummary(device, QStringLiteral("    "));
        }
    for (const StreamSummary &stream : a.streams()) {
        out() << "  stream " << printable(t.tracks[stream.track].displayName()) << ": " << stream.kernels
              << " kernels, busy " << formatDuration(double(stream.busyNs)) << ", " << stream.gaps.size()
              << " idle gaps totalling " << formatDuration(double(stream.idleNs()));
        if (stream.memoryNs > 0)
            out() << ", " << formatDuration(double(stream.memoryNs)) << " of them copying or setting memory";
        const auto causes = gapCauses(stream);
        for (auto it = causes.begin(); it != causes.end(); ++it)
            out() << (it == causes.begin() ? " (" : ", ") << it.key() << " " << it.value();
        out() << (causes.isEmpty() ? "\n" : ")\n");

        std::vector<IdleGap> longest = stream.gaps;
        const std::size_t shown = std::min<std::size_t>(3, longest.size());
        std::partial_sort(longest.begin(), longest.begin() + shown, longest.end(),
                          [](const IdleGap &x, const IdleGap &y) { return x.length() > y.length(); });
        for (std::size_t i = 0; i < shown; ++i) {
            const IdleGap &gap = longest[i];
            out() << "    gap " << formatDuration(double(gap.length())) << " before "
                  << printable(t.qname(gap.after).left(60)) << ": " << gapCauseName(gap.cause);
            if (gap.cpuEvent >= 0)
                out() << ", CPU in " << printable(t.qname(uint32_t(gap.cpuEvent)).left(60));
            out() << "\n";
        }
    }
}

} // namespace

int infoCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON object."));
    parser.addOption(json);
    if (const QString error = parseOptions(parser, arguments); !error.isEmpty())
        return usageError(error);
    if (parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("info needs at least one PATH"));
    QList<LoadedRun> runs;
    // info prints no scopes, so it leaves their index out (a twentieth of a large trace's load)
    if (!loadPaths(parser.positionalArguments(), runs, LoadedRun::Scopes::Skip))
        return Unreadable;
    for (const LoadedRun &run : runs)
        if (!run.trace) { // a run summary: its events, which info describes, are not in it
            err() << "scopeline-cli: " << run.run.file << ": a run summary (of "
                  << (run.summary ? run.summary->sourceFile : QString()) << "); info reads traces\n";
            return Unreadable;
        }
    if (parser.isSet(json)) {
        QJsonObject document;
        if (runs.size() == 1) {
            document = infoJson(runs.front());
        } else {
            QJsonArray traces;
            for (const LoadedRun &run : runs)
                traces.append(infoJson(run));
            document[QStringLiteral("traces")] = traces;
        }
        out() << QJsonDocument(document).toJson(QJsonDocument::Indented);
    } else {
        for (const LoadedRun &run : runs)
            printInfo(run);
    }
    return Success;
}

} // namespace scopeline::cli
