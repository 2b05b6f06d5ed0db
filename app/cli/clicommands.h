// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The scopeline-cli commands (info, scopes, compare, diff, steps, ranks, summarize; one file each) over the
// model library, what they share, and what the report helper (scopeline-report, which also links the
// widgets) shares with them.

#include "model/analysis/scopematcher.h"
#include "model/comparison/gate.h"
#include "model/comparison/kerneldiff.h"
#include "model/loading/loadedrun.h"
#include "model/loading/sessionfile.h"
#include "model/loading/sideargument.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QList>
#include <QStringList>
#include <QTextStream>

namespace scopeline {
class StepBreakdown;
}

namespace scopeline::cli {

// NotJudged: the gate had nothing to judge (a step or scope on one side, one run a side); not bad usage,
// so that CI can tell a typo from data that cannot pass or fail.
enum ExitCode { Success = 0, BadUsage = 1, Unreadable = 2, GateFailed = 3, NotJudged = 4 };

// Runs the command line (arguments()[0] is the program) and returns the exit status; `report` replaces
// this process with scopeline-report.
int run(const QStringList &arguments);
// `report A B --scope S ... --out DIR` (arguments()[0] is "report"); needs a QApplication.
int reportCommand(const QStringList &arguments);
// The other commands; arguments()[0] is the command's name.
int infoCommand(const QStringList &arguments);
int scopesCommand(const QStringList &arguments);
int compareCommand(const QStringList &arguments);
int diffCommand(const QStringList &arguments);
int stepsCommand(const QStringList &arguments);
int ranksCommand(const QStringList &arguments);
int summarizeCommand(const QStringList &arguments);

QTextStream &out();
QTextStream &err();
// A note or warning on stderr ("scopeline-cli: warning: …"), kept for a report to show too.
void note(const QString &text);
void warning(const QString &text);
// What note() and warning() said so far, each with its kind ("warning: …").
const QStringList &said();
// Parses a command's options as QCommandLineParser does, and refuses an option with a value given
// twice (but --scope, which names several): its last value had been taken silently. The error, else
// empty. Every command takes --skip-unreadable here.
QString parseOptions(QCommandLineParser &parser, const QStringList &arguments);
// --skip-unreadable's rule over the runs of a command's paths: a run with a trace that cannot be read
// (a run's ranks share its name) is left out where the option was given and every path keeps a run;
// else each is named as an error, and the command exits 2.
class UnreadableRuns
{
public:
    explicit UnreadableRuns(const QStringList &paths);
    // A run of paths[path], or one of its ranks.
    void add(qsizetype path, const QString &run, bool readable);
    bool contains(qsizetype path, const QString &run) const
    {
        return m_unreadable[std::size_t(path)].contains(run);
    }
    bool any() const;
    bool leaveOut() const;
    // Where the option was given and runs cannot be read but are not left out: which paths would keep none.
    void sayWhyNotLeftOut() const;
    // The error of a run that cannot be read: a warning where it is left out, else an error line.
    static void say(const QString &error, bool leftOut);

private:
    QStringList pathsWithoutRun() const;
    QStringList m_paths;
    std::vector<QStringList> m_runs, m_unreadable; // by path, run names
};
// Prints the message and a pointer to --help; returns BadUsage.
int usageError(const QString &message);

// The runs of one path (TraceFolder::scan); prints why there are none, and a note for each link
// passed over. Empty on failure.
std::vector<TraceRun> scanPath(const QString &path);
// Scans and loads every run under the given paths (traces or run summary files); prints the error and
// returns false on failure. The runs keep only their summaries unless `events` keeps the events too.
bool loadPaths(const QStringList &paths, QList<LoadedRun> &runs,
               LoadedRun::Scopes scopes = LoadedRun::Scopes::Index,
               LoadedRun::Events events = LoadedRun::Events::Drop);
// The same, with each path's runs apart: each[i] holds paths[i]'s. All are loaded in one pass.
bool loadEachPath(const QStringList &paths, std::vector<QList<LoadedRun>> &each,
                  LoadedRun::Scopes scopes = LoadedRun::Scopes::Index,
                  LoadedRun::Events events = LoadedRun::Events::Drop);
// More than two sides: the baseline's runs, each candidate's, and the candidates' labels (SideArgument).
struct LoadedVariants
{
    QList<LoadedRun> baseline;
    std::vector<QList<LoadedRun>> candidates;
    QStringList labels; // the candidates'
};
// Loads the sides of `steps`/`diff A B C …`; prints the error and returns the exit status on failure
// (BadUsage for labels alike or a label without a path), else Success.
int loadVariants(const QList<SideArgument> &sides, LoadedVariants &variants);
// The options steps and ranks share: --step, --csv, --alpha and --threshold.
struct StepCommandOptions
{
    QCommandLineOption step{QStringLiteral("step"),
                            QStringLiteral("The step scope (\"whole-run\": the run is one step)."),
                            QStringLiteral("SCOPE")};
    QCommandLineOption csv{QStringLiteral("csv"), QStringLiteral("Write the rows as CSV."),
                           QStringLiteral("FILE")};
    QCommandLineOption alpha{QStringLiteral("alpha"), QStringLiteral("Significance level."),
                             QStringLiteral("P"), QStringLiteral("0.05")};
    QCommandLineOption threshold{QStringLiteral("threshold"),
                                 QStringLiteral("Smallest change that counts, in % of A's step time."),
                                 QStringLiteral("PERCENT"), QStringLiteral("1")};
    QList<QCommandLineOption> all() const { return {step, csv, alpha, threshold}; }
};
// The options diff and report share for the kernel table's rows: --fold-numbers and --by.
struct KernelRowOptions
{
    QCommandLineOption fold{QStringLiteral("fold-numbers"),
                            QStringLiteral("One row for names that differ by a trailing number.")};
    QCommandLineOption by{QStringLiteral("by"),
                          QStringLiteral("kernel (a row per kernel name) or op (per op that launched it: "
                                         "JAX's hlo_op, PyTorch's CPU op)."),
                          QStringLiteral("kernel|op"), QStringLiteral("kernel")};
    QList<QCommandLineOption> all() const { return {fold, by}; }
    // Sets foldNumbers and byOp; false after printing a usage error (the exit status in `status`).
    bool read(const QCommandLineParser &parser, KernelDiffOptions &options, int &status) const;
};
// The options steps and diff share: alpha and the threshold; false after printing a usage error.
bool parseLevels(const QCommandLineParser &parser, const QCommandLineOption &alphaOption,
                 const QCommandLineOption &thresholdOption, double &alpha, double &threshold, int &status);
// One path that is a folder scopeline-hipbench recorded a pair into stands for the pair: paths
// becomes its two sides, and `recorded`, when given, what it recorded (its scopes and how to read them).
// False after printing why its summary.json cannot be read (status Unreadable).
bool expandRecordedPair(QStringList &paths, SessionState *recorded, int &status);
// "4 runs", or for multi-GPU runs "4 runs of 8 ranks": a run's rank files count once.
QString runsText(const QList<LoadedRun> &runs);
// A path as printed: in Markdown, a code span.
inline QString pathText(const QString &path, bool markdown)
{
    return markdown ? QLatin1Char('`') + path + QLatin1Char('`') : path;
}
// Writes text to a file atomically, or to standard output for "-" (where run() sent nothing else);
// prints why not and returns false on failure.
bool writeTextFile(const QString &path, const QString &text);

// What compare and report share: the two sides, the scopes and how they match, the threshold.
struct ComparisonOptions
{
    QString pathA, pathB;
    QString shownA, shownB; // as a pair's output names them (SideArgument::shown)
    QStringList sides; // every path as given ([LABEL=]PATH): `compare` takes more than two (variants)
    QStringList scopes;
    MatchMode match = MatchMode::Component;
    SampleMode samples = SampleMode::Kernel;
    double threshold = 0.01;
    double alpha = 0.05;
};

// Parses `command A B --scope S ... [--match] [--samples] [--threshold] [--alpha]` plus the command's own
// options
// (`extra`, read back from `parser`). On a usage error returns false with the exit status in `status`.
bool parseComparisonOptions(const QString &command, const QStringList &arguments,
                            const QList<QCommandLineOption> &extra, QCommandLineParser &parser,
                            ComparisonOptions &options, int &status);
// Reads --step SCOPE ("whole-run": StepBreakdownOptions::wholeRun()) into scope, left as is when the
// option is not given; an empty scope is a usage error (false, with the exit status in `status`).
bool parseStepScope(const QCommandLineParser &parser, const QCommandLineOption &option, QString &scope,
                    int &status);
// A warning on stderr for each scope that matches nothing on a side, and a note for a scope compared per
// kernel that runs another number of kernels a run (rank file) on each side.
void warnScopeSamples(const ComparisonOptions &options, const std::vector<const ScopeIndex *> &a,
                      const std::vector<const ScopeIndex *> &b);
// A warning on stderr when a side has no step of the step scope with kernels (a mistyped --step).
void warnStepsMissing(const StepBreakdown &steps, const QString &labelA, const QString &labelB);
// Loads both sides; warns when their run counts differ (runs pair by sorted name).
bool loadSides(const ComparisonOptions &options, QList<LoadedRun> &a, QList<LoadedRun> &b);
// Loads the two sides of a pair in one pass; warns of one path given for both and of runs without
// kernels. False after printing why a side could not be loaded.
bool loadPair(const QString &pathA, const QString &pathB, QList<LoadedRun> &a, QList<LoadedRun> &b);
// Warns of its traces' caveats (runCaveats: a run without GPU kernels among them).
void warnAboutRuns(const QList<LoadedRun> &runs, const QString &side);

// --format text|markdown|json, --fail-on slower|change and --strict: what diff, steps, compare and ranks
// share to serve as a CI gate (markdown: a pull-request comment; json: every CSV field).
enum class OutputFormat { Text, Markdown, Json };
struct GateOptions
{
    OutputFormat format = OutputFormat::Text;
    GateMode failOn = GateMode::Off;
    bool strict = false;
};
QList<QCommandLineOption> gateOptionList();
// Reads them back; false after printing a usage error (status set).
bool parseGateOptions(const QCommandLineParser &parser, GateOptions &options, int &status);
// Says on stderr which rows tripped the gate (or were waived for their caveat) and gives the exit
// status: GateFailed when it failed, else Success.
int gateStatus(const Gate &gate);
// The gate as JSON: {"fail_on", "strict", "failed", "tripped": [...], "waived": [...]}.
QJsonObject gateJson(const Gate &gate);
// Prints a command's JSON with what it said on stderr (its warnings and notes) as "warnings": a bot that
// reads only the JSON needs them as much as a pull-request comment does.
void printJson(QJsonObject root);
// The end of a pull-request comment: the warnings and notes said on stderr (a trace's caveats among
// them), a list item each, then the gate (none without --fail-on).
QString closingMarkdown(const Gate &gate);

} // namespace scopeline::cli
