// SPDX-License-Identifier: GPL-3.0-or-later
// What the scopeline-cli commands share (output, loading, option parsing) and run(), their dispatch.
#include "app/cli/clicommands.h"

#include "model/comparison/replication.h"
#include "model/comparison/stepbreakdown.h"
#include "model/files/atomicfile.h"
#include "model/loading/commandline.h"
#include "model/loading/skippedevents.h"
#include "model/loading/traceloader.h"
#include "model/runner/hipbenchprotocol.h"
#include "model/tables/kernelnames.h"
#include "model/tables/tableformat.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <vector>

#include <unistd.h>

namespace scopeline::cli {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

namespace {

// "--csv -": the CSV takes standard output, so the report written to out() goes nowhere.
class Discard : public QIODevice
{
protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *, qint64 size) override { return size; }
};

// Where --csv and the other tables' CSV options (ranks' --comparison-csv) write: "-" is standard output.
QStringList csvDestinations(const QStringList &arguments)
{
    QStringList destinations;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &argument = arguments[i];
        if (!argument.startsWith(QLatin1String("--")))
            continue;
        const qsizetype equals = argument.indexOf(QLatin1Char('='));
        const QString name = argument.left(equals);
        if (name == QLatin1String("--csv") || name.endsWith(QLatin1String("-csv")))
            destinations << (equals >= 0 ? argument.mid(equals + 1) : arguments.value(i + 1));
    }
    return destinations;
}

// Why a CSV could not be written to path, told before the runs load; empty when it may be.
void discardReport()
{
    static Discard discard;
    discard.open(QIODevice::WriteOnly);
    out().setDevice(&discard);
}

} // namespace

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

namespace {
QStringList &saidList()
{
    static QStringList list;
    return list;
}

// Each once: a path given for both sides would say its notes twice.
void say(const char *kind, const QString &text)
{
    const QString line = QStringLiteral("%1: %2").arg(QLatin1String(kind), text);
    if (saidList().contains(line))
        return;
    err() << "scopeline-cli: " << line << "\n";
    saidList() << line;
}
} // namespace

void note(const QString &text)
{
    say("note", text);
}

void warning(const QString &text)
{
    say("warning", text);
}

const QStringList &said()
{
    return saidList();
}

namespace {

bool g_skipUnreadable = false; // --skip-unreadable, as parseOptions() read it

} // namespace

UnreadableRuns::UnreadableRuns(const QStringList &paths)
    : m_paths(paths), m_runs(std::size_t(paths.size())), m_unreadable(std::size_t(paths.size()))
{}

void UnreadableRuns::add(qsizetype path, const QString &run, bool readable)
{
    m_runs[std::size_t(path)] << run;
    if (!readable)
        m_unreadable[std::size_t(path)] << run;
}

bool UnreadableRuns::any() const
{
    return std::any_of(m_unreadable.begin(), m_unreadable.end(),
                       [](const QStringList &runs) { return !runs.isEmpty(); });
}

QStringList UnreadableRuns::pathsWithoutRun() const
{
    QStringList without;
    for (std::size_t path = 0; path < m_runs.size(); ++path)
        if (std::all_of(m_runs[path].begin(), m_runs[path].end(),
                        [&](const QString &run) { return m_unreadable[path].contains(run); }) &&
            !without.contains(m_paths[qsizetype(path)]))
            without << m_paths[qsizetype(path)];
    return without;
}

bool UnreadableRuns::leaveOut() const
{
    return g_skipUnreadable && pathsWithoutRun().isEmpty();
}

void UnreadableRuns::sayWhyNotLeftOut() const
{
    if (!g_skipUnreadable || !any())
        return;
    const QStringList without = pathsWithoutRun();
    if (without.isEmpty())
        return;
    err() << "scopeline-cli: --skip-unreadable leaves out no run here: "
          << without.join(QStringLiteral(" and "))
          << (without.size() == 1 ? " would keep none" : " would each keep none") << "\n";
    err().flush();
}

void UnreadableRuns::say(const QString &error, bool leftOut)
{
    if (leftOut)
        warning(error + QStringLiteral(": left out (--skip-unreadable)"));
    else
        err() << "scopeline-cli: " << error << "\n";
}

QString parseOptions(QCommandLineParser &parser, const QStringList &arguments)
{
    // every command reads runs: each takes it
    const QCommandLineOption skip(
        QStringLiteral("skip-unreadable"),
        QStringLiteral("Leave out a run that cannot be read, where every path keeps a run."));
    parser.addOption(skip);
    if (!parser.parse(arguments))
        return commandLineError(parser, arguments);
    g_skipUnreadable = parser.isSet(skip);
    QStringList seen;
    for (const QString &name : parser.optionNames()) {
        // a flag given twice says the same twice
        if (seen.contains(name) && name != QLatin1String("scope") && !parser.values(name).isEmpty())
            return QStringLiteral("%1%2 is given twice: give it once")
                .arg(name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--"), name);
        seen << name;
    }
    return {};
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
         [--by kernel|op] [--wide] [--step SCOPE]
                            which kernels account for the difference: one row per kernel name
                            (--by op: per op that launched it) of either side, calls and GPU
                            time per run, medians; the verdict tests GPU time per run, "per
                            call" the median duration (Holm over the rows each; the unit is
                            the process when runs sit in side/<process>/<run>/), largest change
                            of total time first (top 20 shown, --top 0 all; the CSV has all);
                            --fold-numbers makes one row of names that differ only by a
                            trailing number (fusion_13/_14); --wide prints full names;
                            --step names the step scope of the step line (as steps)
  steps A B [--step SCOPE] [--csv FILE] [--alpha P] [--threshold PERCENT]
        [--sweep NAME] [--sweep-scope REGEX]
                            did the step get faster, and where did the time go: the mean
                            step time (GPU span of a step's kernels) split into GPU busy and
                            idle by cause (CPU launched late, GPU waiting, unknown), A against
                            B with a Welch test on the per-run means (per-process means when
                            runs sit in side/<process>/<run>/), Holm over the rows; --step
                            names the step scope (default: ProfilerStep or JAX's outermost
                            PjitFunction(...), else the whole run; "whole-run" asks for it)
  ranks A [B [C ...]] [--step SCOPE] [--csv FILE] [--comparison-csv FILE]
        [--collectives-csv FILE] [--alpha P] [--threshold PERCENT] [--format text|markdown|json]
                            several GPUs of one job (a folder of rank files is one run): per
                            rank, the step split into compute, exposed communication and idle,
                            the wait at collectives (the k-th communication kernel of a name in
                            a step on every rank of its process group, where the args name
                            it, is one collective) and how often it arrived
                            last; with B, the mean over ranks, the slowest rank and each rank,
                            A against B; --fail-on and --strict (below) gate on the mean
                            over ranks; markdown: A against B and the notes, each rank
                            folded away; --comparison-csv writes A against B (mean over
                            ranks, slowest rank, each rank), --collectives-csv the kinds of
                            collective
  report A B [--scope S ...] [--match MODE] [--samples MODE] [--threshold PERCENT]
         [--alpha P] [--step SCOPE] [--by kernel|op] [--fold-numbers] --out DIR
                            write a report into DIR (created if missing; a folder of other
                            files, not an earlier report's, is refused): timeline_a.png,
                            timeline_b.png (the first run of each side; none from a run
                            summary, which holds no events), the step breakdown
                            (steps.png, steps.csv), the kernel diff (diff.png, diff.csv;
                            --by and --fold-numbers group its rows as diff's do),
                            index.html, with scopes boxplot.png and stats.csv, with runs
                            of several GPUs ranks.png and ranks.csv (with variants,
                            variants_ranks_comparison.csv too)
  summarize PATH... -o DIR  write one run summary per run (DIR/<run>.slsum; a run of several
                            GPUs one per rank, DIR/<run>/rank_<k>_of_<n>.slsum): what diff,
                            compare, steps and report read, without the events; pass the
                            summaries (or their folder) in place of the traces for the same
                            figures (docs/summary-format.md)

compare, diff, steps and ranks also take:
  --format text|markdown|json
                            markdown: the step line and the top rows as a table, for a
                            pull-request comment; json: every CSV field of every row
  --fail-on slower|change   a CI gate: exit 3 when, after Holm, the step or a kernel row
                            (diff), the step (steps; ranks: its mean over ranks) or a
                            scope (compare) is B slower
                            (slower) or either way (change); which rows tripped it goes
                            to stderr (and into the markdown and json); exit 4 when it
                            cannot judge what it gates: no steps of --step on a side, a
                            step untested (one run on a side; with processes as the unit,
                            one process on a side), a --scope on neither side or on one
                            side only
  --strict                  with --fail-on: calls that carry a caveat (one process a side:
                            process-to-process variation not measured; sides of different
                            numbers of ranks) or rest on one run a side fail the gate too;
                            without it they do not

More than two variants: compare, diff, steps, ranks and report take A B C ..., A the baseline, each
[LABEL=]PATH (the label defaults to the folder's name): each candidate against the baseline, the Holm
families grown by the candidates, a variant column first in every CSV; compare adds a Kruskal-Wallis
test across all variants per scope. With steps, labels that are all numbers (K=5, K=10, ...; --sweep
NAME names the parameter) make a sweep: neighbours compared, and where the step jumps (diff and
compare compare each against the baseline alone). steps PATH --sweep-scope 'bmm_K(\d+)' takes a
run's scopes as the sweep.

--csv - writes the CSV to standard output in place of the report (the gate still goes to stderr).

--skip-unreadable (every command): a run that cannot be read is left out, its ranks with it, and named in
a warning, where every PATH keeps a run (as the window does); without it, or where a PATH would keep none,
every such run is named and the command exits 2.

A trace only summarised (compare, diff, steps, ranks, report) keeps its summary in
~/.cache/scopeline/summaries, so that it is not read again while it stays as it is;
SCOPELINE_SUMMARY_CACHE=DIR keeps them in DIR, SCOPELINE_SUMMARY_CACHE=off turns it off.

A and B may be written LABEL=PATH too (ranks as well): the output names each side LABEL (PATH),
JSON by its path.

A PATH is a trace file, a run folder, a folder of runs, or run summaries; wildcards (quoted) select several,
e.g. 'traces/trace_file_matmul_*'. One PATH that scopeline-hipbench recorded into (--out) stands for its
A and B. Exit status: 0 success, 1 bad usage, 2 unreadable input or unwritable output, 3 the gate
(--fail-on) found what it names, 4 the gate had nothing to judge.
)";

// Loaded runs stay until the process ends (main's _Exit): the OS takes their memory back at once,
// faster than their destructors hand it back block by block (2 ms of a large trace's 0.18 s).
void keepUntilExit(const LoadedRun &run)
{
    static QList<LoadedRun> kept;
    kept.append(run);
}

} // namespace

std::vector<TraceRun> scanPath(const QString &path)
{
    QString error;
    QStringList notes;
    const std::vector<TraceRun> found = TraceFolder::scan(path, &error, &notes);
    if (found.empty())
        err() << "scopeline-cli: " << error << "\n";
    for (const QString &text : notes) // links passed over: each trace counts once
        note(text);
    err().flush();
    return found;
}

int loadVariants(const QList<SideArgument> &sides, LoadedVariants &variants)
{
    QStringList paths;
    for (const SideArgument &side : sides)
        paths << side.path;
    if (const QString problem = SideArgument::problem(sides); !problem.isEmpty())
        return usageError(problem);
    for (const QString &text : SideArgument::sameRuns(sides))
        warning(text);
    std::vector<QList<LoadedRun>> each;
    if (sides.isEmpty() || !loadEachPath(paths, each))
        return Unreadable;
    variants.baseline = each.front();
    variants.candidates.assign(each.begin() + 1, each.end());
    for (std::size_t i = 0; i < each.size(); ++i)
        warnAboutRuns(each[i], sides[qsizetype(i)].label);
    for (qsizetype i = 1; i < sides.size(); ++i)
        variants.labels << sides[i].label;
    return Success;
}

bool loadEachPath(const QStringList &paths, std::vector<QList<LoadedRun>> &each, LoadedRun::Scopes scopes,
                  LoadedRun::Events events)
{
    std::vector<TraceRun> found;
    std::vector<std::size_t> ends; // where each path's runs end in `found`
    // paths without a run: each is said before returning, once though named twice (diff X X)
    QStringList withoutRuns;
    for (const QString &path : paths) {
        if (withoutRuns.contains(path))
            continue;
        // a recording as one of several sides would pool its variants
        if (const QString problem = paths.size() > 1 ? hipbenchprotocol::recordingAsSide(path) : QString();
            !problem.isEmpty()) {
            err() << "scopeline-cli: " << problem << "\n";
            err().flush();
            return false;
        }
        const std::vector<TraceRun> runs = scanPath(path);
        if (runs.empty())
            withoutRuns.append(path);
        found.insert(found.end(), runs.begin(), runs.end());
        ends.push_back(found.size());
    }
    if (!withoutRuns.isEmpty())
        return false;
    // All paths' runs in one pass over the loading threads: no path waits for the last run of the one
    // before it to finish alone on one core.
    // A failure stops no other run: every run that cannot be read is named at once, as the window names
    // them (fixing the first would only show the next).
    const QList<QList<LoadedRun>> loaded =
        LoadedRun::loadEach(found, std::vector<LoadedRun::Events>(found.size(), events), {}, nullptr, scopes,
                            LoadedRun::OnFailure::Continue);
    UnreadableRuns unreadable(paths);
    QStringList failures;
    for (qsizetype i = 0, path = 0; i < loaded.size(); ++i) {
        while (std::size_t(i) >= ends[std::size_t(path)])
            ++path;
        for (const LoadedRun &run : loaded[i]) {
            const bool readable = run.ok() || run.cancelled;
            unreadable.add(path, run.run.name, readable);
            if (!readable && !failures.contains(run.error))
                failures << run.error;
        }
    }
    const bool leaveOut = unreadable.leaveOut();
    for (const QString &failure : failures)
        UnreadableRuns::say(failure, leaveOut);
    unreadable.sayWhyNotLeftOut();
    err().flush();
    if (!failures.isEmpty() && !leaveOut)
        return false;
    each.assign(paths.size(), {});
    std::size_t path = 0;
    for (qsizetype i = 0; i < loaded.size(); ++i) {
        while (std::size_t(i) >= ends[path])
            ++path;
        for (const LoadedRun &run : loaded[i]) {
            if (unreadable.contains(qsizetype(path), run.run.name))
                continue;
            // The statistics go on without events that could not be read; say which, as the window's
            // banner does.
            if (const QString broken = SkippedEvents::brokenIn(run); !broken.isEmpty())
                warning(QStringLiteral("%1: events that could not be read are left out (%2)")
                            .arg(run.run.file, broken));
            each[path].append(run);
            keepUntilExit(run);
        }
    }
    err().flush();
    for (QList<LoadedRun> &side : each) {
        if (const QString twice = summaryBesideItsTrace(side); !twice.isEmpty()) {
            err() << "scopeline-cli: " << twice << "\n";
            err().flush();
            return false;
        }
        for (const QString &line : leaveOutRunsWithoutKernels(side))
            warning(line);
    }
    return true;
}

bool loadPaths(const QStringList &paths, QList<LoadedRun> &runs, LoadedRun::Scopes scopes,
               LoadedRun::Events events)
{
    std::vector<QList<LoadedRun>> each;
    if (!loadEachPath(paths, each, scopes, events))
        return false;
    for (const QList<LoadedRun> &loaded : each)
        runs.append(loaded);
    return true;
}

bool KernelRowOptions::read(const QCommandLineParser &parser, KernelDiffOptions &options, int &status) const
{
    const QString rows = parser.value(by);
    if (rows != QLatin1String("kernel") && rows != QLatin1String("op")) {
        status = usageError(QStringLiteral("--by must be kernel or op"));
        return false;
    }
    options.byOp = rows == QLatin1String("op");
    options.foldNumbers = parser.isSet(fold);
    return true;
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
    if (!ok || !(threshold >= 0) || !std::isfinite(threshold)) { // inf: no change would ever count
        status = usageError(QStringLiteral("--threshold needs a finite percentage >= 0"));
        return false;
    }
    return true;
}

// Writes text to a file atomically; prints why not and returns false on failure.
bool writeTextFile(const QString &path, const QString &text)
{
    if (path == QLatin1String("-")) {
        const QByteArray bytes = text.toUtf8();
        if (std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout) ==
                std::size_t(bytes.size()) &&
            std::fflush(stdout) == 0)
            return true;
        err() << "scopeline-cli: cannot write the CSV to standard output: "
              << QString::fromLocal8Bit(std::strerror(errno)) << "\n";
        return false;
    }
    // A trace or a run summary named as the CSV (an input, as often as not) is never replaced by it.
    if (const QString problem = TraceLoader::outputProblem(path); !problem.isEmpty()) {
        err() << "scopeline-cli: not writing the CSV to " << path << ": " << problem << "\n";
        return false;
    }
    const QString error = saveFile(path, text.toUtf8());
    if (!error.isEmpty())
        err() << "scopeline-cli: cannot write " << path << ": " << error << "\n";
    return error.isEmpty();
}

QString runsText(const QList<LoadedRun> &runs)
{
    const int count = Replication::of(runs, {}).runs(0);
    const QString text = QStringLiteral("%1 run%2").arg(count).arg(count == 1 ? "" : "s");
    if (runs.size() <= count)
        return text;
    return runs.size() % count == 0 ? text + QStringLiteral(" of %1 ranks").arg(runs.size() / count)
                                    : text + QStringLiteral(", %1 ranks in all").arg(runs.size());
}

bool expandRecordedPair(QStringList &paths, SessionState *recorded, int &status)
{
    if (paths.size() != 1 || !hipbenchprotocol::isRecordedPair(paths[0]))
        return true;
    SessionState pair;
    QString error;
    if (!hipbenchprotocol::readSummary(paths[0], pair, &error)) {
        err() << "scopeline-cli: " << error << "\n";
        err().flush();
        status = Unreadable;
        return false;
    }
    paths = {pair.pathA, pair.pathB};
    if (recorded)
        *recorded = pair;
    return true;
}

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
    const QCommandLineOption alphaOption(QStringLiteral("alpha"), QStringLiteral("Significance level."),
                                         QStringLiteral("P"), QStringLiteral("0.05"));
    parser.addOptions({scopeOption, matchOption, samplesOption, thresholdOption, alphaOption});
    parser.addOptions(extra);
    auto fail = [&status](const QString &message) {
        status = usageError(message);
        return false;
    };
    if (const QString error = parseOptions(parser, arguments); !error.isEmpty())
        return fail(error);
    QStringList positional = parser.positionalArguments();
    options.scopes = parser.values(scopeOption);
    // a recording stands for its pair, its scopes and how it reads them, as the window opens it
    const bool isRecording = positional.size() == 1 && hipbenchprotocol::isRecordedPair(positional[0]);
    SessionState recorded;
    if (!expandRecordedPair(positional, &recorded, status))
        return false;
    if (isRecording && options.scopes.isEmpty())
        options.scopes = recorded.scopes;
    // A scope named twice would be tested twice: two rows, and a Holm family grown for nothing.
    options.scopes.removeDuplicates();
    const bool variants = command == QLatin1String("compare") || command == QLatin1String("report");
    if (positional.size() < 2 || (positional.size() > 2 && !variants))
        return fail(QStringLiteral("%1 needs two paths, A and B%2")
                        .arg(command, variants ? QStringLiteral(", or a baseline and candidates") : QString()));
    options.sides = positional;
    const SideArgument a = SideArgument::parse(positional[0]), b = SideArgument::parse(positional[1]);
    options.pathA = a.path;
    options.pathB = b.path;
    options.shownA = a.shown();
    options.shownB = b.shown();
    // A report without scopes still holds What changed and the step breakdown; the other
    // commands compare scopes and need one.
    if (options.scopes.isEmpty() && command != QLatin1String("report"))
        return fail(QStringLiteral("%1 needs at least one --scope").arg(command));
    if (!parseMatchMode(parser.value(matchOption), options.match))
        return fail(QStringLiteral("--match must be component, substring or regex"));
    if (!parseSampleMode(parser.value(samplesOption), options.samples))
        return fail(QStringLiteral("--samples must be kernel, instance or span"));
    if (isRecording && !parser.isSet(matchOption))
        options.match = recorded.match;
    if (isRecording && !parser.isSet(samplesOption))
        options.samples = recorded.samples;
    if (!parseLevels(parser, alphaOption, thresholdOption, options.alpha, options.threshold, status))
        return false;
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

void warnScopeSamples(const ComparisonOptions &options, const std::vector<const ScopeIndex *> &a,
                      const std::vector<const ScopeIndex *> &b)
{
    for (const QString &scope : options.scopes) {
        std::size_t nA = 0, nB = 0;
        const ScopeMatcher matcher(scope, options.match);
        for (const ScopeIndex *index : a)
            nA += index->samples(matcher, options.samples).size();
        for (const ScopeIndex *index : b)
            nB += index->samples(matcher, options.samples).size();
        // A scope found on one side only still has its rows; say so plainly.
        if (nA == 0 || nB == 0) {
            warning(QStringLiteral("scope '%1' matches nothing in %2")
                        .arg(scope, nA == 0 && nB == 0
                                        ? QStringLiteral("A (%1) or B (%2)").arg(options.pathA, options.pathB)
                                    : nA == 0 ? QStringLiteral("A (%1)").arg(options.pathA)
                                              : QStringLiteral("B (%1)").arg(options.pathB)));
            continue;
        }
        // Per kernel, a scope that runs another number of kernels on each side compares two mixes: their
        // medians can move against the scope's time (B slower per kernel, 25 % less time a run).
        if (options.samples == SampleMode::Kernel)
            if (const QString mix = ScopeComparison::kernelMixNote(double(nA) / double(a.size()),
                                                                   double(nB) / double(b.size()));
                !mix.isEmpty())
                note(QStringLiteral("scope '%1': %2").arg(scope, mix));
    }
}

void warnStepsMissing(const StepBreakdown &steps, const QString &labelA, const QString &labelB)
{
    const StepRow &row = steps.row(StepPart::Step);
    if (row.stepsA > 0 && row.stepsB > 0)
        return;
    const QString where = row.stepsA == 0 && row.stepsB == 0
                              ? QStringLiteral("A (%1) or B (%2)").arg(labelA, labelB)
                          : row.stepsA == 0 ? QStringLiteral("A (%1)").arg(labelA)
                                            : QStringLiteral("B (%1)").arg(labelB);
    if (steps.stepScope().isEmpty())
        warning(QStringLiteral("no kernels in %1").arg(where));
    else
        warning(QStringLiteral("no step of %1 with kernels in %2; --step SCOPE picks another (scopeline-cli "
                               "scopes lists them)")
                    .arg(printable(steps.stepScope()), where));
}

void warnAboutRuns(const QList<LoadedRun> &runs, const QString &side)
{
    for (const QString &caveat : runCaveats(runs))
        warning(QStringLiteral("%1: %2").arg(side, caveat));
}

bool loadPair(const QString &pathA, const QString &pathB, QList<LoadedRun> &a, QList<LoadedRun> &b)
{
    std::vector<QList<LoadedRun>> each;
    if (!loadEachPath({pathA, pathB}, each))
        return false;
    a = each[0];
    b = each[1];
    for (const QString &caveat : pairCaveats(a, b)) // one both sides have, said once
        warning(caveat);
    return true;
}

bool loadSides(const ComparisonOptions &options, QList<LoadedRun> &a, QList<LoadedRun> &b)
{
    if (!loadPair(options.pathA, options.pathB, a, b))
        return false;
    // runs, a multi-GPU run's rank files counted once
    const int runsA = Replication::of(a, {}).runs(0), runsB = Replication::of(b, {}).runs(0);
    if (runsA != runsB)
        warning(QStringLiteral("A has %1 and B %2; per-run rows pair the first %3 by sorted name")
                    .arg(runsText(a), runsText(b))
                    .arg(std::min(runsA, runsB)));
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
        if (command.isEmpty()) { // a usage error: the usage goes where errors go
            err() << kUsage;
            return BadUsage;
        }
        out() << kUsage;
        return Success;
    }
    if (command == QLatin1String("--version")) {
        out() << "scopeline-cli " << QCoreApplication::applicationVersion() << "\n";
        return Success;
    }
    const std::map<QString, std::function<int()>> commands{
        {QStringLiteral("info"), [&] { return infoCommand(rest); }},
        {QStringLiteral("scopes"), [&] { return scopesCommand(rest); }},
        {QStringLiteral("compare"), [&] { return compareCommand(rest); }},
        {QStringLiteral("report"), [&] { return runReportHelper(arguments); }},
        {QStringLiteral("diff"), [&] { return diffCommand(rest); }},
        {QStringLiteral("steps"), [&] { return stepsCommand(rest); }},
        {QStringLiteral("ranks"), [&] { return ranksCommand(rest); }},
        {QStringLiteral("summarize"), [&] { return summarizeCommand(rest); }}};
    const auto found = commands.find(command);
    if (found == commands.end()) // before any --help: `scopeline-cli bogus --help` is a typo
        return usageError(QStringLiteral("unknown command '%1'").arg(command));
    if (rest.contains(QLatin1String("--help")) || rest.contains(QLatin1String("-h"))) {
        out() << kUsage;
        return Success;
    }
    const QStringList csvs = csvDestinations(rest);
    for (const QString &csv : csvs)
        if (const QString problem = csv == QLatin1String("-") ? QString() : TraceLoader::outputProblem(csv);
            !problem.isEmpty()) {
            // before the runs load: a mistyped path should not cost a long load
            err() << "scopeline-cli: cannot write the CSV to " << csv << ": " << problem << "\n";
            return Unreadable;
        }
    if (csvs.contains(QStringLiteral("-")))
        discardReport();
    return found->second();
}

QList<QCommandLineOption> gateOptionList()
{
    return {QCommandLineOption(QStringLiteral("format"), QStringLiteral("text, markdown or json."),
                               QStringLiteral("FORMAT"), QStringLiteral("text")),
            QCommandLineOption(QStringLiteral("fail-on"),
                               QStringLiteral("Exit 3 when a row is B slower (slower), or either (change)."),
                               QStringLiteral("slower|change")),
            QCommandLineOption(QStringLiteral("strict"),
                               QStringLiteral("Calls with the one-process caveat fail the gate too."))};
}

bool parseGateOptions(const QCommandLineParser &parser, GateOptions &options, int &status)
{
    const QString format = parser.value(QStringLiteral("format"));
    if (format == QLatin1String("text"))
        options.format = OutputFormat::Text;
    else if (format == QLatin1String("markdown"))
        options.format = OutputFormat::Markdown;
    else if (format == QLatin1String("json"))
        options.format = OutputFormat::Json;
    else {
        status = usageError(QStringLiteral("--format must be text, markdown or json"));
        return false;
    }
    // Both would go to standard output, one after the other: not a file either reader can read.
    if (options.format != OutputFormat::Text && parser.isSet(QStringLiteral("csv")) &&
        parser.value(QStringLiteral("csv")) == QLatin1String("-")) {
        status = usageError(
            QStringLiteral("--csv - writes the CSV to standard output: it cannot go with --format %1")
                .arg(format));
        return false;
    }
    options.failOn = GateMode::Off;
    if (parser.isSet(QStringLiteral("fail-on")) &&
        !parseGateMode(parser.value(QStringLiteral("fail-on")), options.failOn)) {
        status = usageError(QStringLiteral("--fail-on must be slower or change"));
        return false;
    }
    options.strict = parser.isSet(QStringLiteral("strict"));
    if (options.strict && options.failOn == GateMode::Off) {
        status = usageError(QStringLiteral("--strict needs --fail-on"));
        return false;
    }
    return true;
}

int gateStatus(const Gate &gate)
{
    if (gate.mode() == GateMode::Off)
        return Success;
    err() << "scopeline-cli: gate " << gate.optionText() << ": " << gate.summary() << "\n";
    for (const GateRow &row : gate.tripped())
        err() << "  fails: " << row.text() << "\n";
    for (const GateRow &row : gate.waived())
        err() << "  not counted: " << row.text() << "\n";
    for (const GateRow &row : gate.unjudged())
        err() << "  not judged: " << row.text() << "\n";
    for (const GateRow &row : gate.oneSideOnly())
        err() << "  one side only: " << row.text() << "\n";
    err().flush();
    return !gate.tripped().empty() ? GateFailed : gate.failed() ? NotJudged : Success;
}

QJsonObject gateJson(const Gate &gate)
{
    const auto rows = [](const std::vector<GateRow> &list) {
        QJsonArray array;
        for (const GateRow &r : list)
            array.append(QJsonObject{{QStringLiteral("table"), r.table},
                                     {QStringLiteral("name"), r.name},
                                     {QStringLiteral("verdict"), r.verdictWords()},
                                     {QStringLiteral("change"), jsonValue(r.change)},
                                     {QStringLiteral("p"), jsonValue(r.p)},
                                     {QStringLiteral("caveat"), r.caveat}});
        return array;
    };
    return {{QStringLiteral("fail_on"), gate.mode() == GateMode::Off ? QJsonValue(QJsonValue::Null)
                                                                     : QJsonValue(gateModeName(gate.mode()))},
            {QStringLiteral("strict"), gate.strict()},
            {QStringLiteral("failed"), gate.failed()},
            {QStringLiteral("tripped"), rows(gate.tripped())},
            {QStringLiteral("waived"), rows(gate.waived())},
            {QStringLiteral("unjudged"), rows(gate.unjudged())},
            {QStringLiteral("one_side_only"), rows(gate.oneSideOnly())}};
}

void printJson(QJsonObject root)
{
    root.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(said()));
    out() << QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}

QString closingMarkdown(const Gate &gate)
{
    // CI shows the comment, not stderr: what changes the figures' meaning must be in it.
    QString text;
    for (const QString &line : said())
        text += (text.isEmpty() ? QStringLiteral("\n- ") : QStringLiteral("- ")) + markdownCell(line) +
                QLatin1Char('\n');
    if (gate.mode() == GateMode::Off)
        return text;
    text += QStringLiteral("\n**Gate `%1`**: %2\n\n").arg(gate.optionText(), markdownCell(gate.summary()));
    // A pull-request comment has a size limit (GitHub's 65,536 characters) that a hundred full C++
    // names pass: the first rows of each list, their names shortened as the tables show them.
    constexpr std::size_t kListed = 20;
    auto list = [&text](const char *label, const std::vector<GateRow> &rows) {
        QStringList names;
        for (std::size_t i = 0; i < rows.size() && i < kListed; ++i)
            names << rows[i].name;
        names = distinctNames(names, 100);
        for (qsizetype i = 0; i < names.size(); ++i) {
            GateRow shown = rows[std::size_t(i)];
            shown.name = names[i];
            text += QStringLiteral("- %1: %2\n").arg(QLatin1String(label), markdownCell(shown.text()));
        }
        if (rows.size() > kListed)
            text += QStringLiteral("- %1: %2 more (the JSON and stderr list every row)\n")
                        .arg(QLatin1String(label))
                        .arg(rows.size() - kListed);
    };
    list("fails", gate.tripped());
    list("not counted", gate.waived());
    list("not judged", gate.unjudged());
    list("one side only", gate.oneSideOnly());
    return text;
}

} // namespace scopeline::cli
