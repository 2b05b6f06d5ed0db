// SPDX-License-Identifier: GPL-3.0-or-later
#include "clicommands.h"

#include "model/durationformat.h"
#include "model/kerneldiff.h"
#include "model/replication.h"
#include "model/loadedrun.h"
#include "model/scopecomparison.h"
#include "model/stepbreakdown.h"
#include "stats/descriptive.h"

#include <QDir>

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QSet>
#include <QTextStream>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include <unistd.h>

namespace scopeline::cli {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

int usageError(const QString &message)
{
    err() << "scopeline-cli: " << message << "\n"
          << "Try 'scopeline-cli --help'.\n";
    err().flush();
    return BadUsage;
}

namespace {

const char *kUsage = R"(Usage: scopeline-cli COMMAND [options] PATH...

Commands:
  info [--json] PATH...     what was loaded and its launch analysis (kernels, launches,
                            GPU busy/span/idle, idle gaps per stream, launch delays)
  scopes PATH...            every scope found, with kernel and instance counts
  compare A B --scope S [--scope S2 ...] [--match component|substring|regex]
          [--samples kernel|instance|span] [--csv FILE] [--threshold PERCENT] [--alpha P]
                            compare scope durations of side A (baseline) and B (candidate)
  diff A B [--csv FILE] [--top N] [--alpha P] [--threshold PERCENT] [--fold-numbers]
         [--by kernel|op] [--wide]
                            which kernels account for the difference: one row per kernel name
                            (--by op: per op that launched it) of either side, calls and GPU
                            time per run, medians; the verdict tests GPU time per run, "per
                            call" the median duration (Holm over the rows each; the unit is
                            the process when runs sit in side/<process>/<run>/), largest change
                            of total time first (top 20 shown, the CSV has all);
                            --fold-numbers makes one row of names that differ only by a
                            trailing number (fusion_13/_14); --wide prints full names
  steps A B [--step SCOPE] [--csv FILE] [--alpha P] [--threshold PERCENT]
                            did the step get faster, and where did the time go: the mean
                            step time (GPU span of a step's kernels) split into GPU busy and
                            idle by cause (CPU launched late, GPU waiting, unknown), A against
                            B with a Welch test on the per-run means (per-process means when
                            runs sit in side/<process>/<run>/), Holm over the rows; --step
                            names the step scope (default: ProfilerStep or JAX's outermost
                            PjitFunction(...), else the whole run; "whole-run" asks for it)
  report A B [--scope S ...] [--match MODE] [--samples MODE] [--threshold PERCENT]
         [--step SCOPE] --out DIR
                            write a report into DIR (created if missing): timeline_a.png,
                            timeline_b.png (the first run of each side), the step breakdown
                            (steps.png, steps.csv), the kernel diff (diff.png, diff.csv),
                            index.html and, with scopes, boxplot.png and stats.csv

A PATH is a trace file, a run folder, or a folder of runs; wildcards (quoted) select several,
e.g. 'traces/trace_file_matmul_*'. Exit status: 0 success, 1 bad usage, 2 unreadable input
(or, for report, a file that cannot be written).
)";

// Loaded runs stay until the process ends (main's _Exit): the OS takes their memory back at once,
// faster than their destructors hand it back block by block (2 ms of a large trace's 0.18 s).
void keepUntilExit(const LoadedRun &run)
{
    static QList<LoadedRun> kept;
    kept.append(run);
}

// Scans and loads every run under the given paths; prints the error and returns false on failure.
bool loadPaths(const QStringList &paths, QList<LoadedRun> &runs,
               LoadedRun::Scopes scopes = LoadedRun::Scopes::Index)
{
    for (const QString &path : paths) {
        QString error;
        const std::vector<TraceRun> found = TraceFolder::scan(path, &error);
        if (found.empty()) {
            err() << "scopeline-cli: " << error << "\n";
            err().flush();
            return false;
        }
        for (const LoadedRun &run : LoadedRun::loadAll(found, nullptr, scopes)) {
            if (!run.ok()) {
                err() << "scopeline-cli: " << run.error << "\n";
                err().flush();
                return false;
            }
            runs.append(run);
            keepUntilExit(run);
        }
    }
    return true;
}

QJsonValue jsonNumber(double value)
{
    return std::isnan(value) ? QJsonValue(QJsonValue::Null) : QJsonValue(value);
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
    o[QStringLiteral("median_launch_delay_ns")] = jsonNumber(s.medianLaunchDelay());
    o[QStringLiteral("median_graph_launch_delay_ns")] = jsonNumber(s.medianGraphLaunchDelay());
    o[QStringLiteral("launch_delay_ns")] = distributionJson(s.launchDelays);
    o[QStringLiteral("graph_launch_delay_ns")] = distributionJson(s.graphLaunchDelays);
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
    QJsonObject o = summaryJson(a.total());
    o[QStringLiteral("run")] = run.run.name;
    o[QStringLiteral("file")] = run.run.file;
    o[QStringLiteral("format")] = formatName(t.format);
    o[QStringLiteral("events")] = double(t.eventCount());
    o[QStringLiteral("json_bytes")] = double(t.bytesRead);
    QJsonObject skipped;
    for (const auto &[reason, count] : t.skipped)
        skipped[reason] = double(count);
    o[QStringLiteral("skipped")] = skipped;
    o[QStringLiteral("notes")] = QJsonArray::fromStringList(t.notes);
    QJsonArray devices;
    for (const LaunchSummary &device : a.devices()) {
        QJsonObject d = summaryJson(device);
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
                                   {QStringLiteral("gap_causes"), causes}});
    }
    o[QStringLiteral("streams")] = streams;
    return o;
}

QString percent(double part, double whole)
{
    return whole > 0 ? QStringLiteral("%1%").arg(100.0 * part / whole, 0, 'f', 1) : QStringLiteral("–");
}

void printSummary(const LaunchSummary &s, const QString &indent)
{
    out() << indent << "kernels " << s.kernels << ", kernel launches " << s.kernelLaunches
          << ", graph launches " << s.graphLaunches << "\n";
    out() << indent << "GPU busy " << formatDuration(double(s.busyNs)) << " of span "
          << formatDuration(double(s.spanNs)) << " (" << percent(double(s.busyNs), double(s.spanNs))
          << "), idle " << formatDuration(double(s.idleNs())) << "\n";
    out() << indent << "launch delay median " << formatDuration(s.medianLaunchDelay());
    if (!s.launchDelays.empty()) {
        const stats::Descriptive d =
            stats::describe(std::vector<double>(s.launchDelays.begin(), s.launchDelays.end()));
        out() << " (quartiles " << formatDuration(d.q1) << " – " << formatDuration(d.q3) << ", max "
              << formatDuration(d.max) << ", " << d.n << " kernels)";
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
    for (const Track &track : t.tracks)
        gpuTracks += track.gpu;
    out() << run.run.name << "  (" << run.run.file << ")\n";
    const bool sqlite = t.format == TraceFormat::Rocpd || t.format == TraceFormat::NsysSqlite;
    out() << "  format " << formatName(t.format) << ", " << t.eventCount() << " events, " << t.tracks.size()
          << " tracks (" << gpuTracks << " GPU)";
    if (!sqlite) // a database has no text size to speak of
        out() << ", " << QString::number(double(t.bytesRead) / 1e6, 'f', 1) << " MB of JSON";
    out() << "\n";
    for (const auto &[reason, count] : t.skipped)
        out() << "  skipped " << count << " × " << reason << "\n";
    for (const QString &note : t.notes)
        out() << "  " << note << "\n";
    printSummary(a.total(), QStringLiteral("  "));
    if (a.devices().size() > 1)
        for (const LaunchSummary &device : a.devices()) {
            out() << "  GPU " << device.device << ":\n";
            printSummary(device, QStringLiteral("    "));
        }
    for (const StreamSummary &stream : a.streams()) {
        out() << "  stream " << t.tracks[stream.track].displayName() << ": " << stream.kernels
              << " kernels, busy " << formatDuration(double(stream.busyNs)) << ", " << stream.gaps.size()
              << " idle gaps totalling " << formatDuration(double(stream.idleNs()));
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
                  << t.qname(gap.after).left(60) << ": " << gapCauseName(gap.cause);
            if (gap.cpuEvent >= 0)
                out() << ", CPU in " << t.qname(uint32_t(gap.cpuEvent)).left(60);
            out() << "\n";
        }
    }
}

int infoCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print one JSON object."));
    parser.addOption(json);
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    if (parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("info needs at least one PATH"));
    QList<LoadedRun> runs;
    // info prints no scopes, so it leaves their index out (a twentieth of a large trace's load)
    if (!loadPaths(parser.positionalArguments(), runs, LoadedRun::Scopes::Skip))
        return Unreadable;
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
    for (const LoadedRun &run : runs) {
        int64_t skipped = 0;
        for (const auto &entry : run.trace->skipped)
            skipped += entry.second;
        if (skipped)
            err() << "scopeline-cli: " << run.run.file << ": skipped " << skipped << " events (see info)\n";
    }
    return Success;
}

int scopesCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    if (parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("scopes needs at least one PATH"));
    QList<LoadedRun> runs;
    if (!loadPaths(parser.positionalArguments(), runs))
        return Unreadable;
    QMap<QString, std::pair<int64_t, int64_t>> totals; // name -> kernels, instances
    QSet<QString> steps;                               // step scopes, listed first
    for (const LoadedRun &run : runs)
        for (const ScopeIndex::Scope &scope : run.scopes->scopes()) {
            totals[scope.name].first += scope.kernels;
            totals[scope.name].second += scope.instances;
            if (scope.step)
                steps.insert(scope.name);
        }
    out() << QStringLiteral("%1 %2  %3\n")
                 .arg(QStringLiteral("kernels"), 8)
                 .arg(QStringLiteral("instances"), 9)
                 .arg(QStringLiteral("scope"));
    for (const bool step : {true, false})
        for (auto it = totals.begin(); it != totals.end(); ++it)
            if (steps.contains(it.key()) == step)
                out() << QStringLiteral("%1 %2  %3\n")
                             .arg(it.value().first, 8)
                             .arg(it.value().second, 9)
                             .arg(it.key());
    out() << totals.size() << " scopes in " << runs.size() << (runs.size() == 1 ? " run\n" : " runs\n");
    if (!steps.isEmpty()) {
        QStringList names = steps.values();
        names.sort();
        out() << "step scopes (listed first, one instance per iteration): "
              << names.join(QStringLiteral(", ")) << "\n";
    }
    return Success;
}

void printComparison(const std::vector<ComparisonRow> &rows, double alpha, double threshold)
{
    int width = 16; // the full scope names: two scopes never print alike
    for (const ComparisonRow &r : rows)
        width = std::max(width, int(r.scope.size()));
    out() << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10  %11 %12\n")
                 .arg(QStringLiteral("scope"), -width)
                 .arg(QStringLiteral("run"), -4)
                 .arg(QStringLiteral("n_a"), 6)
                 .arg(QStringLiteral("n_b"), 6)
                 .arg(QStringLiteral("median A"), 11)
                 .arg(QStringLiteral("median B"), 11)
                 .arg(QStringLiteral("change"), 8)
                 .arg(QStringLiteral("HL shift"), 11)
                 .arg(QStringLiteral("MWU p Holm"), 11)
                 .arg(QStringLiteral("Cliff δ"), 8)
                 .arg(QStringLiteral("run-level change [CI], p Holm"), -38)
                 .arg(QStringLiteral("verdict"));
    for (const ComparisonRow &r : rows) {
        const bool ok = r.comparable();
        // Pooled rows with ≥ 2 runs a side: the run-level test, whose unit is the run, gives the verdict.
        const QString runLevel = r.hasRunLevel()
                                     ? QStringLiteral("%1 [%2, %3], p %4")
                                           .arg(QString::asprintf("%+.2f%%", 100 * r.runLevel.change),
                                                QString::asprintf("%+.2f%%", 100 * r.runLevel.ciLow),
                                                QString::asprintf("%+.2f%%", 100 * r.runLevel.ciHigh),
                                                QString::number(r.runLevelHolm, 'g', 3))
                                     : QStringLiteral("–");
        out() << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10  %11 %12\n")
                     .arg(r.scope, -width)
                     .arg(r.run, -4)
                     .arg(r.a.n, 6)
                     .arg(r.b.n, 6)
                     .arg(r.a.n ? formatDuration(r.a.median) : QStringLiteral("–"), 11)
                     .arg(r.b.n ? formatDuration(r.b.median) : QStringLiteral("–"), 11)
                     .arg(ok ? QStringLiteral("%1%").arg(100 * r.relativeChange, 0, 'f', 2)
                             : QStringLiteral("–"),
                          8)
                     .arg(ok ? formatDuration(r.shift.shift) : QStringLiteral("–"), 11)
                     .arg(ok ? QString::number(r.mannWhitneyHolm, 'g', 3) : QStringLiteral("–"), 11)
                     .arg(ok ? QString::number(r.cliffsDelta, 'f', 3) : QStringLiteral("–"), 8)
                     .arg(runLevel, -38)
                     .arg(r.verdictText(alpha, threshold));
    }
    for (const ComparisonRow &r : rows)
        if (!r.caveat.isEmpty()) { // the same for every pooled row: said once
            out() << "caveat: " << r.caveat
                  << " (record each side in several processes, side/<process>/<run>/, to measure them)\n";
            break;
        }
}

int compareCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption csvOption(QStringLiteral("csv"), QStringLiteral("Write the table as CSV."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption alphaOption(QStringLiteral("alpha"), QStringLiteral("Significance level."),
                                         QStringLiteral("P"), QStringLiteral("0.05"));
    ComparisonOptions options;
    int status = Success;
    if (!parseComparisonOptions(QStringLiteral("compare"), arguments, {csvOption, alphaOption}, parser,
                                options, status))
        return status;
    bool alphaOk = false;
    const double alpha = parser.value(alphaOption).toDouble(&alphaOk);
    if (!alphaOk || !(alpha > 0 && alpha < 1))
        return usageError(QStringLiteral("--alpha needs a level in (0, 1)"));
    QList<LoadedRun> a, b;
    if (!loadSides(options, a, b))
        return Unreadable;
    const std::vector<const ScopeIndex *> indexA = scopeIndexes(a), indexB = scopeIndexes(b);
    const Replication replication = Replication::of(a, b);
    ScopeComparison comparison(indexA, indexB);
    comparison.setReplication(&replication);
    const std::vector<ComparisonRow> rows = comparison.compare(options.scopes, options.match, options.samples);

    // A scope found on one side only still has its rows; say so plainly.
    for (const QString &scope : options.scopes) {
        std::size_t nA = 0, nB = 0;
        const ScopeMatcher matcher(scope, options.match);
        for (const ScopeIndex *index : indexA)
            nA += index->samples(matcher, options.samples).size();
        for (const ScopeIndex *index : indexB)
            nB += index->samples(matcher, options.samples).size();
        if (nA == 0 || nB == 0)
            err() << "scopeline-cli: warning: scope '" << scope << "' matches nothing in "
                  << (nA == 0 && nB == 0
                          ? QStringLiteral("A (%1) or B (%2)").arg(options.pathA, options.pathB)
                      : nA == 0 ? QStringLiteral("A (%1)").arg(options.pathA)
                                : QStringLiteral("B (%1)").arg(options.pathB))
                  << "\n";
    }
    err().flush();

    out() << "A: " << options.pathA << " (" << a.size() << " runs)\nB: " << options.pathB << " (" << b.size()
          << " runs)\n";
    for (int i = 0; i < std::min(a.size(), b.size()); ++i)
        out() << "  run " << i + 1 << ": " << a[i].run.name << " vs " << b[i].run.name << "\n";
    printComparison(rows, alpha, options.threshold);
    out().flush();

    if (parser.isSet(csvOption)) {
        QSaveFile file(parser.value(csvOption));
        const QByteArray csv = ScopeComparison::toCsv(rows, alpha, options.threshold).toUtf8();
        if (!file.open(QIODevice::WriteOnly) || file.write(csv) != csv.size() || !file.commit()) {
            err() << "scopeline-cli: cannot write " << parser.value(csvOption) << ": " << file.errorString()
                  << "\n";
            return Unreadable;
        }
    }
    return Success;
}

// The options steps and diff share: alpha and the threshold; false after printing a usage error.
bool parseLevels(const QCommandLineParser &parser, const QCommandLineOption &alphaOption,
                 const QCommandLineOption &thresholdOption, double &alpha, double &threshold, int &status)
{
    bool ok = false;
    alpha = parser.value(alphaOption).toDouble(&ok);
    if (!ok || !(alpha > 0 && alpha < 1)) {
        status = usageError(QStringLiteral("--alpha needs a level in (0, 1)"));
        return false;
    }
    threshold = parser.value(thresholdOption).toDouble(&ok) / 100.0;
    if (!ok || !(threshold >= 0)) {
        status = usageError(QStringLiteral("--threshold needs a percentage >= 0"));
        return false;
    }
    return true;
}

// Writes text to a file atomically; prints why not and returns false on failure.
bool writeTextFile(const QString &path, const QString &text)
{
    QSaveFile file(path);
    const QByteArray bytes = text.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        err() << "scopeline-cli: cannot write " << path << ": " << file.errorString() << "\n";
        return false;
    }
    return true;
}

void printSteps(const StepBreakdown &steps)
{
    out() << steps.stepLine() << "\n";
    const StepRow &step = steps.row(StepPart::Step);
    out() << "units: " << (steps.byProcess() ? "processes" : "runs") << " (A " << step.unitsA << ", B "
          << step.unitsB << "); Welch test on the per-" << (steps.byProcess() ? "process" : "run")
          << " means, Holm over the rows (alpha " << steps.options().alpha << ", threshold "
          << 100 * steps.options().threshold << "% of A's step)\n";
    out() << tableText(StepBreakdown::columns(), steps.rows());
}

int stepsCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption stepOption(
        QStringLiteral("step"), QStringLiteral("The step scope (\"whole-run\": the run is one step)."),
        QStringLiteral("SCOPE"));
    const QCommandLineOption csvOption(QStringLiteral("csv"), QStringLiteral("Write the rows as CSV."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption alphaOption(QStringLiteral("alpha"), QStringLiteral("Significance level."),
                                         QStringLiteral("P"), QStringLiteral("0.05"));
    const QCommandLineOption thresholdOption(
        QStringLiteral("threshold"), QStringLiteral("Smallest change that counts, in % of A's step time."),
        QStringLiteral("PERCENT"), QStringLiteral("1"));
    parser.addOptions({stepOption, csvOption, alphaOption, thresholdOption});
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return usageError(QStringLiteral("steps needs two paths, A and B"));
    StepBreakdownOptions options;
    int status = Success;
    if (!parseLevels(parser, alphaOption, thresholdOption, options.alpha, options.threshold, status))
        return status;
    if (!parseStepScope(parser, stepOption, options.stepScope, status))
        return status;

    QList<LoadedRun> a, b;
    if (!loadPaths({positional[0]}, a) || !loadPaths({positional[1]}, b))
        return Unreadable;
    const StepBreakdown steps(a, b, options);
    out() << "A: " << positional[0] << "\nB: " << positional[1] << "\n";
    printSteps(steps);
    out().flush();
    if (steps.row(StepPart::Step).stepsA == 0 || steps.row(StepPart::Step).stepsB == 0)
        err() << "scopeline-cli: warning: no step of " << steps.stepScope()
              << " with kernels on a side; --step SCOPE picks another (scopeline-cli scopes lists them)\n";
    if (parser.isSet(csvOption) && !writeTextFile(parser.value(csvOption), steps.toCsv()))
        return Unreadable;
    return Success;
}

// "+3.2%" for b against a; "–" when there is nothing to compare.
QString relativeText(double a, double b)
{
    if (!(a > 0) || std::isnan(b))
        return QStringLiteral("–");
    return QStringLiteral("%1%2%")
        .arg(b >= a ? QStringLiteral("+") : QString())
        .arg(100 * (b - a) / a, 0, 'f', 1);
}

QString callsText(double calls)
{
    return QString::number(calls, 'f', std::trunc(calls) == calls ? 0 : 1);
}

// A kernel name that fits the table: a demangled C++ name without its leading "void " and its
// parameter list, elided in the middle so that both its start and its distinctive end show.
QString tableName(QString name, int width)
{
    if (name.startsWith(QLatin1String("void ")))
        name.remove(0, 5);
    if (name.endsWith(QLatin1Char(')'))) {
        int depth = 0;
        for (qsizetype i = name.size() - 1; i > 0; --i) {
            if (name[i] == QLatin1Char(')'))
                ++depth;
            else if (name[i] == QLatin1Char('(') && --depth == 0) {
                name.truncate(i);
                break;
            }
        }
    }
    if (name.size() > width)
        name = name.left(width / 2) + QStringLiteral("…") + name.right(width - width / 2 - 1);
    return name;
}

// Table names for the rows, none printed like another: a second row that would read as an earlier
// one gets " #2" (and so on) on its elided name; wide: the full names.
QStringList distinctTableNames(const std::vector<KernelDiffRow> &rows, int width, bool wide)
{
    QStringList names;
    std::map<QString, int> seen;
    for (const KernelDiffRow &r : rows) {
        const QString name = wide ? r.kernel : tableName(r.kernel, width);
        const int n = ++seen[name];
        names << (n == 1 ? name : tableName(r.kernel, width - 4) + QStringLiteral(" #%1").arg(n));
    }
    return names;
}

// "+4.3%" with the per-call verdict in a word when it is one; "–" untested.
QString perCallText(const KernelDiffRow &r)
{
    if (!r.perCall.valid())
        return QStringLiteral("–");
    const QString change = QStringLiteral("%1%2%")
                               .arg(r.perCall.change >= 0 ? QStringLiteral("+") : QString())
                               .arg(100 * r.perCall.change, 0, 'f', 1);
    switch (r.perCallVerdict) {
    case Verdict::Faster:
        return change + QStringLiteral(" faster");
    case Verdict::Slower:
        return change + QStringLiteral(" slower");
    default:
        return change;
    }
}

void printDiff(const KernelDiff &diff, const StepBreakdown &steps, const QString &pathA, const QString &pathB,
               int top, bool wide)
{
    const KernelDiffSummary &s = diff.summary();
    auto side = [&s](int runs, int processes) {
        return QStringLiteral("%1 %2").arg(runs).arg(runs == 1 ? QStringLiteral("run")
                                                               : QStringLiteral("runs")) +
               (s.byProcess ? QStringLiteral(" in %1 processes").arg(processes) : QString());
    };
    out() << "A: " << pathA << " (" << side(s.runsA, s.processesA) << ")\nB: " << pathB << " ("
          << side(s.runsB, s.processesB) << ")\n";
    out() << steps.stepLine() << "\n";
    out() << "GPU busy per run: A " << formatDuration(s.busyPerRunA) << ", B "
          << formatDuration(s.busyPerRunB) << " (" << relativeText(s.busyPerRunA, s.busyPerRunB) << ")\n";
    out() << "kernel time per run: A " << formatDuration(s.kernelTimePerRunA) << ", B "
          << formatDuration(s.kernelTimePerRunB) << ", difference " << formatDuration(s.deltaTotalNs) << " ("
          << relativeText(s.kernelTimePerRunA, s.kernelTimePerRunB) << ")\n";
    out() << s.kernels << (diff.options().byOp ? " ops: " : " kernels: ") << s.kernels - s.onlyInA - s.onlyInB
          << " on both sides, " << s.onlyInA << " only in A, " << s.onlyInB << " only in B";
    if (s.processDependent)
        out() << ", " << s.processDependent << " process-dependent";
    const QString unit = s.byProcess ? QStringLiteral("process") : QStringLiteral("run");
    if ((s.byProcess ? std::min(s.processesA, s.processesB) : std::min(s.runsA, s.runsB)) < 2)
        out() << "; one " << unit << " on a side: " << unit << "-to-" << unit << " variation not measured\n";
    else
        out() << "; verdict: GPU time per run, per call: the median duration; Welch on the per-" << unit
              << " figures, Holm over the rows (alpha " << diff.options().alpha << ", threshold "
              << 100 * diff.options().threshold << "%)\n";
    if (!s.caveat.isEmpty())
        out() << "caveat: " << s.caveat
              << " (record each side in several processes, side/<process>/<run>/, to measure them)\n";

    const QStringList names = distinctTableNames(diff.rows(), 50, wide);
    int width = 50;
    for (const QString &name : names)
        width = std::max(width, int(name.size()));
    const QString format = QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11  %12\n");
    out() << format.arg(diff.options().byOp ? QStringLiteral("op") : QStringLiteral("kernel"), -width)
                 .arg(QStringLiteral("calls A"), 8)
                 .arg(QStringLiteral("calls B"), 8)
                 .arg(QStringLiteral("total A"), 10)
                 .arg(QStringLiteral("total B"), 10)
                 .arg(QStringLiteral("Δ total"), 10)
                 .arg(QStringLiteral("share"), 6)
                 .arg(QStringLiteral("median A"), 10)
                 .arg(QStringLiteral("median B"), 10)
                 .arg(QStringLiteral("per call"), 14)
                 .arg(QStringLiteral("p Holm"), 8)
                 .arg(QStringLiteral("verdict (GPU time per run)"));
    const std::size_t shown =
        top > 0 ? std::min<std::size_t>(std::size_t(top), diff.rows().size()) : diff.rows().size();
    for (std::size_t i = 0; i < shown; ++i) {
        const KernelDiffRow &r = diff.rows()[i];
        out() << format.arg(names[qsizetype(i)], -width)
                     .arg(callsText(r.a.callsPerRun), 8)
                     .arg(callsText(r.b.callsPerRun), 8)
                     .arg(formatDuration(r.a.totalPerRunNs), 10)
                     .arg(formatDuration(r.b.totalPerRunNs), 10)
                     .arg(formatDuration(r.deltaTotalNs), 10)
                     .arg(std::isnan(r.shareOfDelta)
                              ? QStringLiteral("–")
                              : QStringLiteral("%1%").arg(100 * r.shareOfDelta, 0, 'f', 1),
                          6)
                     .arg(formatDuration(r.a.medianNs), 10)
                     .arg(formatDuration(r.b.medianNs), 10)
                     .arg(perCallText(r), 14)
                     .arg(std::isnan(r.runLevelHolm) ? QStringLiteral("–")
                                                     : QString::number(r.runLevelHolm, 'g', 2),
                          8)
                     .arg(r.verdictText());
    }
    if (shown < diff.rows().size())
        out() << "(top " << shown << " of " << diff.rows().size()
              << " rows by |Δ total|; --top N for more, --csv FILE for all)\n";
}

int diffCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption csvOption(QStringLiteral("csv"), QStringLiteral("Write every row as CSV."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption topOption(QStringLiteral("top"), QStringLiteral("Rows to print (0: all)."),
                                       QStringLiteral("N"), QStringLiteral("20"));
    const QCommandLineOption alphaOption(QStringLiteral("alpha"), QStringLiteral("Significance level."),
                                         QStringLiteral("P"), QStringLiteral("0.05"));
    const QCommandLineOption thresholdOption(QStringLiteral("threshold"),
                                             QStringLiteral("Smallest relative change that counts, in %."),
                                             QStringLiteral("PERCENT"), QStringLiteral("1"));
    const QCommandLineOption foldOption(
        QStringLiteral("fold-numbers"),
        QStringLiteral("One row for names that differ by a trailing number."));
    const QCommandLineOption byOption(QStringLiteral("by"),
                                      QStringLiteral("kernel (a row per kernel name) or op (per op that "
                                                     "launched it: JAX's hlo_op, PyTorch's CPU op)."),
                                      QStringLiteral("kernel|op"), QStringLiteral("kernel"));
    const QCommandLineOption wideOption(QStringLiteral("wide"), QStringLiteral("Full kernel names."));
    parser.addOptions({csvOption, topOption, alphaOption, thresholdOption, foldOption, byOption, wideOption});
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return usageError(QStringLiteral("diff needs two paths, A and B"));
    KernelDiffOptions options;
    options.foldNumbers = parser.isSet(foldOption);
    if (parser.value(byOption) != QLatin1String("kernel") && parser.value(byOption) != QLatin1String("op"))
        return usageError(QStringLiteral("--by must be kernel or op"));
    options.byOp = parser.value(byOption) == QLatin1String("op");
    int status = Success;
    if (!parseLevels(parser, alphaOption, thresholdOption, options.alpha, options.threshold, status))
        return status;
    bool ok = false;
    const int top = parser.value(topOption).toInt(&ok);
    if (!ok || top < 0)
        return usageError(QStringLiteral("--top needs a number of rows >= 0"));

    QList<LoadedRun> a, b;
    if (!loadPaths({positional[0]}, a) || !loadPaths({positional[1]}, b))
        return Unreadable;
    const KernelDiff diff(a, b, options);
    const StepBreakdown steps(a, b, StepBreakdownOptions{QString(), options.alpha, options.threshold});
    printDiff(diff, steps, positional[0], positional[1], top, parser.isSet(wideOption));
    out().flush();
    if (parser.isSet(csvOption) && !writeTextFile(parser.value(csvOption), diff.toCsv()))
        return Unreadable;
    return Success;
}

} // namespace

bool parseComparisonOptions(const QString &command, const QStringList &arguments,
                            const QList<QCommandLineOption> &extra, QCommandLineParser &parser,
                            ComparisonOptions &options, int &status)
{
    const QCommandLineOption scopeOption(
        QStringLiteral("scope"), QStringLiteral("Scope to compare (repeatable)."), QStringLiteral("S"));
    const QCommandLineOption matchOption(QStringLiteral("match"),
                                         QStringLiteral("component, substring or regex."),
                                         QStringLiteral("MODE"), QStringLiteral("component"));
    const QCommandLineOption samplesOption(QStringLiteral("samples"),
                                           QStringLiteral("kernel, instance or span."),
                                           QStringLiteral("MODE"), QStringLiteral("kernel"));
    const QCommandLineOption thresholdOption(QStringLiteral("threshold"),
                                             QStringLiteral("Smallest relative change that counts, in %."),
                                             QStringLiteral("PERCENT"), QStringLiteral("1"));
    parser.addOptions({scopeOption, matchOption, samplesOption, thresholdOption});
    parser.addOptions(extra);
    auto fail = [&status](const QString &message) {
        status = usageError(message);
        return false;
    };
    if (!parser.parse(arguments))
        return fail(parser.errorText());
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return fail(QStringLiteral("%1 needs two paths, A and B").arg(command));
    options.pathA = positional[0];
    options.pathB = positional[1];
    options.scopes = parser.values(scopeOption);
    // A report without scopes still holds What changed and the step breakdown; the other
    // commands compare scopes and need one.
    if (options.scopes.isEmpty() && command != QLatin1String("report"))
        return fail(QStringLiteral("%1 needs at least one --scope").arg(command));
    if (!parseMatchMode(parser.value(matchOption), options.match))
        return fail(QStringLiteral("--match must be component, substring or regex"));
    if (!parseSampleMode(parser.value(samplesOption), options.samples))
        return fail(QStringLiteral("--samples must be kernel, instance or span"));
    bool thresholdOk = false;
    options.threshold = parser.value(thresholdOption).toDouble(&thresholdOk) / 100.0;
    if (!thresholdOk || !(options.threshold >= 0))
        return fail(QStringLiteral("--threshold needs a percentage >= 0"));
    for (const QString &scope : options.scopes) {
        const ScopeMatcher matcher(scope, options.match);
        if (!matcher.isValid())
            return fail(
                QStringLiteral("invalid regular expression '%1': %2").arg(scope, matcher.errorString()));
    }
    return true;
}

bool parseStepScope(const QCommandLineParser &parser, const QCommandLineOption &option, QString &scope,
                    int &status)
{
    if (!parser.isSet(option))
        return true;
    if (parser.value(option).isEmpty()) {
        status = usageError(QStringLiteral("--step needs a scope name, or whole-run"));
        return false;
    }
    scope = StepBreakdownOptions::scopeOfArgument(parser.value(option));
    return true;
}

bool loadSides(const ComparisonOptions &options, QList<LoadedRun> &a, QList<LoadedRun> &b)
{
    if (!loadPaths({options.pathA}, a) || !loadPaths({options.pathB}, b))
        return false;
    if (a.size() != b.size())
        err() << "scopeline-cli: warning: A has " << a.size() << " runs and B " << b.size()
              << "; pairing the first " << std::min(a.size(), b.size()) << " by sorted name\n";
    return true;
}

// `report` draws its charts with the widgets library, which this program does not load (it would
// add a tenth to every load's time): scopeline-report, installed beside or under us, runs it.
int runReportHelper(const QStringList &arguments)
{
    const QDir here(QCoreApplication::applicationDirPath());
    QString helper = here.filePath(QStringLiteral("scopeline-report"));
    if (!QFileInfo(helper).isExecutable())
        helper = QDir::cleanPath(here.filePath(QStringLiteral(SCOPELINE_REPORT_DIR "/scopeline-report")));
    std::vector<QByteArray> texts{QFile::encodeName(helper)};
    for (qsizetype i = 1; i < arguments.size(); ++i)
        texts.push_back(arguments[i].toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &text : texts)
        argv.push_back(text.data());
    argv.push_back(nullptr);
    out().flush();
    err().flush();
    execv(argv[0], argv.data());
    err() << "scopeline-cli: report: cannot run " << QDir::toNativeSeparators(helper) << ": "
          << QString::fromLocal8Bit(std::strerror(errno)) << "\n";
    err().flush();
    return Unreadable;
}

int run(const QStringList &arguments)
{
    const QString command = arguments.value(1);
    const QStringList rest = arguments.mid(1); // the command stands in for the program name
    if (command.isEmpty() || command == QLatin1String("--help") || command == QLatin1String("-h") ||
        command == QLatin1String("help")) {
        out() << kUsage;
        return command.isEmpty() ? BadUsage : Success;
    }
    if (command == QLatin1String("--version")) {
        out() << "scopeline-cli " << QCoreApplication::applicationVersion() << "\n";
        return Success;
    }
    if (rest.contains(QLatin1String("--help")) || rest.contains(QLatin1String("-h"))) {
        out() << kUsage;
        return Success;
    }
    if (command == QLatin1String("info"))
        return infoCommand(rest);
    if (command == QLatin1String("scopes"))
        return scopesCommand(rest);
    if (command == QLatin1String("compare"))
        return compareCommand(rest);
    if (command == QLatin1String("report"))
        return runReportHelper(arguments);
    if (command == QLatin1String("diff"))
        return diffCommand(rest);
    if (command == QLatin1String("steps"))
        return stepsCommand(rest);
    return usageError(QStringLiteral("unknown command '%1'").arg(command));
}

} // namespace scopeline::cli
