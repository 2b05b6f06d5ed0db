// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for model/tracefolder: finding the runs in a trace folder, a run folder, a wildcard or a
// single file, on the real JAX/PyTorch traces in tests/data and on folder layouts built in a temporary
// folder.
//
// Expected runs follow from the layout described in tests/data/README.md (each JAX run is
// plugins/profile/<ts>/vm.trace.json.gz, and jax_named_scopes/trace_file_matmul_0 keeps JAX's
// perfetto_trace.json.gz beside it: read one, never both; run folders that are byte-identical to a
// bundled sample are symbolic links into resources/samples/) and from the listing of the folders themselves.

#include "model/loading/sessionfile.h"
#include "model/loading/sideargument.h"
#include "model/loading/tracefolder.h"
#include "model/loading/traceloader.h"

#include "testdata.h"
#include "testprocess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using scopeline::SessionFile;
using scopeline::SessionState;
using scopeline::TraceFolder;
using scopeline::TraceRun;

namespace {

// Every run folder in it is a symbolic link to a bundled sample (tests/data/README.md).
QString cublasDir()
{
    return testdata::path("jax_h100/jax_named_scopes_cublas");
}

// Real run folders, one symbolic link (trace_file_einsum_0), and trace_file_matmul_0 with both of JAX's
// files.
QString namedScopesDir()
{
    return testdata::path("jax_h100/jax_named_scopes");
}

QStringList names(const std::vector<TraceRun> &runs)
{
    QStringList out;
    for (const TraceRun &run : runs)
        out << run.name;
    return out;
}

QString describe(const std::vector<TraceRun> &runs)
{
    QStringList out;
    for (const TraceRun &run : runs)
        out << run.name + QStringLiteral(" -> ") + run.file;
    return out.join(QLatin1Char('\n'));
}

bool touch(const QString &path, const QByteArray &content = "[]")
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
}

bool sameFile(const QString &a, const QString &b)
{
    return QFileInfo(a).canonicalFilePath() == QFileInfo(b).canonicalFilePath() &&
           !QFileInfo(a).canonicalFilePath().isEmpty();
}

// The single profile session folder of a JAX run folder.
QString profileSession(const QString &runDir)
{
    const QDir profile(runDir + QStringLiteral("/plugins/profile"));
    const QStringList sessions = profile.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    return sessions.size() == 1 ? profile.filePath(sessions.first()) : QString();
}

} // namespace

class TstTraceFolder : public QObject
{
    Q_OBJECT

private slots:
    void pathsThatNameNothing();
    void jaxParentFolder();
    void jaxRunFolder();
    void symlinkedRunFolders();
    void symlinkToRunFolderInTemporaryTree();
    void eachTraceCountsOnce();
    void summaryBesideItsTrace();
    void bracketsInNames();
    void unreadableSubfolderIsAnError();
    void recordingSummaryIsNoTrace();
    void wildcard();
    void singleFile();
    void tracelensFolder();
    void naturalSort();
    void perfettoOnlyRunFolder();
    void xplaneOnlyRunFolder();
    void viewerPreferredOverPerfetto();
    void jaxFoldersBelowTheRunFolder();
    void jaxSessionOfSeveralHosts();
    void emptyFolder();
    void emptyRunFolderIsNoted();
    void missingPath();
    void nameNotUtf8IsSaid();
    void tooDeepIsSaid();
    void hugeFolderTreeStops();
    void oneTracePerFolderNamesTheRunAfterIt();
    void wildcardMatchingNothing();
    void isTraceFileName_data();
    void isTraceFileName();
};

void TstTraceFolder::jaxParentFolder()
{
    REQUIRE_TEST_DATA(cublasDir());
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(cublasDir(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList expected{QStringLiteral("trace_file_einsum_0"), QStringLiteral("trace_file_einsum_1"),
                               QStringLiteral("trace_file_einsum_2"), QStringLiteral("trace_file_matmul_0"),
                               QStringLiteral("trace_file_matmul_1"), QStringLiteral("trace_file_matmul_2")};
    QCOMPARE(names(runs), expected);
    for (const TraceRun &run : runs) {
        // The trace-viewer file of that very run, never the Perfetto copy.
        QVERIFY2(run.file.endsWith(QLatin1String(".trace.json.gz")), qPrintable(describe(runs)));
        QVERIFY2(!run.file.endsWith(QLatin1String("perfetto_trace.json.gz")), qPrintable(describe(runs)));
        const QString session = profileSession(cublasDir() + QLatin1Char('/') + run.name);
        QVERIFY2(!session.isEmpty(), qPrintable(run.name));
        QVERIFY2(sameFile(run.file, session + QStringLiteral("/vm.trace.json.gz")),
                 qPrintable(describe(runs)));
    }
}

void TstTraceFolder::jaxRunFolder()
{
    REQUIRE_TEST_DATA(cublasDir());
    const QString run = cublasDir() + QStringLiteral("/trace_file_einsum_1");
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(run, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0].name, QStringLiteral("trace_file_einsum_1"));
    QVERIFY2(sameFile(runs[0].file, profileSession(run) + QStringLiteral("/vm.trace.json.gz")),
             qPrintable(runs[0].file));

    // A trailing slash names the same folder.
    const std::vector<TraceRun> slash = TraceFolder::scan(run + QLatin1Char('/'), &error);
    QCOMPARE(slash.size(), std::size_t(1));
    QVERIFY(sameFile(slash[0].file, runs[0].file));
}

void TstTraceFolder::symlinkedRunFolders()
{
    // tests/data/jax_h100/jax_named_scopes mixes real run folders with one symbolic link into
    // tests/data/eager_vs_graph/: the scan follows it, and keeps the path under the folder it was given.
    REQUIRE_TEST_DATA(namedScopesDir());
    QVERIFY(QFileInfo(namedScopesDir() + QStringLiteral("/trace_file_einsum_0")).isSymLink());
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(namedScopesDir(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(names(runs),
             (QStringList{QStringLiteral("trace_file_einsum_0"), QStringLiteral("trace_file_einsum_1"),
                          QStringLiteral("trace_file_einsum_2"), QStringLiteral("trace_file_matmul_0"),
                          QStringLiteral("trace_file_matmul_1"), QStringLiteral("trace_file_matmul_2")}));
    for (const TraceRun &run : runs) {
        const QString runDir = namedScopesDir() + QLatin1Char('/') + run.name;
        QVERIFY2(run.file.startsWith(QFileInfo(runDir).absoluteFilePath() + QLatin1Char('/')),
                 qPrintable(describe(runs)));
        // matmul_0 holds perfetto_trace.json.gz too: the trace-viewer file is the one read.
        QVERIFY2(sameFile(run.file, profileSession(runDir) + QStringLiteral("/vm.trace.json.gz")),
                 qPrintable(describe(runs)));
    }
    // The linked run is the file of the folder it links to.
    const QString target = QFileInfo(QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph")).canonicalFilePath();
    QVERIFY2(QFileInfo(runs[0].file).canonicalFilePath().startsWith(target + QLatin1Char('/')),
             qPrintable(QFileInfo(runs[0].file).canonicalFilePath()));
}

void TstTraceFolder::symlinkToRunFolderInTemporaryTree()
{
    // A parent folder whose runs are symbolic links (relative, and to a folder outside it), and a
    // link to a trace file: all found, named after the links.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString target =
        tmp.filePath(QStringLiteral("elsewhere/run_a/plugins/profile/2024_01_01/h.trace.json.gz"));
    QVERIFY(touch(target));
    QVERIFY(touch(tmp.filePath(QStringLiteral("elsewhere/b.pt.trace.json"))));
    QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("runs"))));
    QVERIFY(QFile::link(QStringLiteral("../elsewhere/run_a"), tmp.filePath(QStringLiteral("runs/run_0"))));
    QVERIFY(QFile::link(tmp.filePath(QStringLiteral("elsewhere/b.pt.trace.json")),
                        tmp.filePath(QStringLiteral("runs/run_1.pt.trace.json"))));
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(tmp.filePath(QStringLiteral("runs")), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(names(runs), (QStringList{QStringLiteral("run_0"), QStringLiteral("run_1.pt.trace.json")}));
    QVERIFY2(sameFile(runs[0].file, target), qPrintable(describe(runs)));
    QVERIFY2(sameFile(runs[1].file, tmp.filePath(QStringLiteral("elsewhere/b.pt.trace.json"))),
             qPrintable(describe(runs)));
}

void TstTraceFolder::eachTraceCountsOnce()
{
    // What experiment scripts leave: a "latest" link to the newest run, a link back to the folder
    // itself, a second name for a trace. Each trace is one run, named after itself; each link passed
    // over is noted.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString side = tmp.filePath(QStringLiteral("side"));
    QVERIFY(touch(side + QStringLiteral("/run_0/x.pt.trace.json")));
    QVERIFY(touch(side + QStringLiteral("/run_1/x.pt.trace.json")));
    QVERIFY(QFile::link(QStringLiteral("run_1"), side + QStringLiteral("/latest")));
    QVERIFY(QFile::link(QStringLiteral("."), side + QStringLiteral("/again")));
    QVERIFY(QFile::link(QStringLiteral("x.pt.trace.json"), side + QStringLiteral("/run_0/a.pt.trace.json")));
    QString error;
    QStringList notes;
    const std::vector<TraceRun> runs = TraceFolder::scan(side, &error, &notes);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(names(runs), (QStringList{QStringLiteral("run_0"), QStringLiteral("run_1")}));
    QCOMPARE(notes.size(), 3);
    const QString notesText = notes.join(QLatin1Char('\n'));
    for (const char *link : {"/side/latest: the same folder as ", "/side/again: the same folder as ",
                             "/side/run_0/a.pt.trace.json: the same file as "})
        QVERIFY2(notesText.contains(QLatin1String(link)), qPrintable(notesText));

    // A wildcard that matches a run and a link to it counts the run once, too.
    QVERIFY(QFile::link(QStringLiteral("run_1"), side + QStringLiteral("/run_latest")));
    const std::vector<TraceRun> matched = TraceFolder::scan(side + QStringLiteral("/run_*"), &error, &notes);
    QCOMPARE(matched.size(), std::size_t(2));
    QVERIFY2(matched[0].name.startsWith(QLatin1String("run_0")) &&
                 matched[1].name.startsWith(QLatin1String("run_1")),
             qPrintable(describe(matched)));
    QCOMPARE(notes.size(), 2); // run_latest, and run_0's second name for its trace
}

void TstTraceFolder::recordingSummaryIsNoTrace()
{
    // A scopeline-hipbench recording: summary.json beside its variants' run folders is not a trace
    // (every path holding a recording failed on it: "no trace events"); a trace named so still is one.
    const QString recording = testdata::path("h100_runs/hipbench/attention");
    REQUIRE_TEST_DATA(recording);
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(recording, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(runs.size(), std::size_t(10));
    for (const TraceRun &run : runs)
        QVERIFY2(run.file.endsWith(QLatin1String(".pt.trace.json.gz")), qPrintable(run.file));
    QTemporaryDir tmp;
    QVERIFY(touch(tmp.filePath(QStringLiteral("summary.json")), R"({"traceEvents": []})"));
    QCOMPARE(TraceFolder::scan(tmp.path(), &error).size(), std::size_t(1));
    // nor is a session saved into a side's folder, under either name the save dialog offers
    SessionState state;
    state.pathA = recording + QStringLiteral("/naive");
    state.pathB = recording + QStringLiteral("/tiled");
    for (const QString &name : {QStringLiteral("comparison.scopeline.json"), QStringLiteral("mine.json")})
        QVERIFY2(SessionFile::save(state, tmp.filePath(name), &error), qPrintable(error));
    const std::vector<TraceRun> withSessions = TraceFolder::scan(tmp.path(), &error);
    QCOMPARE(withSessions.size(), std::size_t(1));
    QVERIFY(withSessions.front().file.endsWith(QLatin1String("summary.json")));
    // Given as a file, either says what it is and what to give instead, not "no trace events".
    const QString summary = recording + QStringLiteral("/summary.json");
    QVERIFY(TraceFolder::scan(summary, &error).empty());
    QVERIFY2(
        error.contains(QDir::toNativeSeparators(summary)) &&
            error.contains(QLatin1String("scopeline-hipbench")) &&
            error.contains(QStringLiteral("give its folder, %1").arg(QDir::toNativeSeparators(recording))),
        qPrintable(error));
    const QString session = tmp.filePath(QStringLiteral("mine.json"));
    QVERIFY(TraceFolder::scan(session, &error).empty());
    QVERIFY2(error.contains(QDir::toNativeSeparators(session)) &&
                 error.contains(QLatin1String("a saved Scopeline session")),
             qPrintable(error));
}

void TstTraceFolder::summaryBesideItsTrace()
{
    // `summarize side -o side` writes run_0.slsum beside run_0/: scanning side would find run_0
    // twice and double its weight in every test. Refused, naming both.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString side = tmp.filePath(QStringLiteral("side"));
    QVERIFY(touch(side + QStringLiteral("/run_0/x.pt.trace.json")));
    QVERIFY(touch(side + QStringLiteral("/run_1/x.pt.trace.json")));
    QVERIFY(touch(side + QStringLiteral("/run_1.slsum"), "SCOPESUM"));
    QString error;
    QVERIFY(TraceFolder::scan(side, &error).empty());
    QVERIFY2(error.contains(side + QStringLiteral("/run_1.slsum")) &&
                 error.contains(side + QStringLiteral("/run_1/x.pt.trace.json")) &&
                 error.contains(QLatin1String("count twice")),
             qPrintable(error));
    // A summary of another run beside the traces is a run of its own.
    QVERIFY(QFile::rename(side + QStringLiteral("/run_1.slsum"), side + QStringLiteral("/run_2.slsum")));
    error.clear();
    const std::vector<TraceRun> runs = TraceFolder::scan(side, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(names(runs),
             (QStringList{QStringLiteral("run_0"), QStringLiteral("run_1"), QStringLiteral("run_2")}));
    // `summarize side/run_0 -o side/run_0` (one job per run folder, into it): inside the run folder.
    QVERIFY(touch(side + QStringLiteral("/run_0/run_0.slsum"), "SCOPESUM"));
    error.clear();
    QVERIFY(TraceFolder::scan(side, &error).empty());
    QVERIFY2(error.contains(side + QStringLiteral("/run_0/run_0.slsum")) &&
                 error.contains(side + QStringLiteral("/run_0/x.pt.trace.json")) &&
                 error.contains(QLatin1String("count twice")),
             qPrintable(error));
}

// A folder or file named with brackets (a sweep's "lr[0.1]", "exp[1]") is itself, not a pattern that
// matched "exp1" or nothing; an unbalanced bracket of a name not there matches nothing, without Qt's
// warnings on an invalid expression; brackets as a pattern still select.
void TstTraceFolder::bracketsInNames()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QVERIFY(touch(tmp.filePath(QStringLiteral("exp[1]/x.pt.trace.json"))));
    QVERIFY(touch(tmp.filePath(QStringLiteral("exp1/x.pt.trace.json"))));
    QVERIFY(touch(tmp.filePath(QStringLiteral("run_[/x.pt.trace.json"))));
    QVERIFY(touch(tmp.filePath(QStringLiteral("a[1].pt.trace.json"))));
    QTest::failOnWarning(QRegularExpression(QStringLiteral(".")));
    QString error;
    const std::vector<TraceRun> folder = TraceFolder::scan(tmp.filePath(QStringLiteral("exp[1]")), &error);
    QVERIFY2(folder.size() == 1, qPrintable(error));
    QCOMPARE(folder.front().file, tmp.filePath(QStringLiteral("exp[1]/x.pt.trace.json")));
    QCOMPARE(scopeline::SideArgument::parse(tmp.filePath(QStringLiteral("exp[1]"))).label,
             QStringLiteral("exp[1]"));
    const std::vector<TraceRun> file =
        TraceFolder::scan(tmp.filePath(QStringLiteral("a[1].pt.trace.json")), &error);
    QVERIFY2(file.size() == 1, qPrintable(error));
    // a wildcard below a bracketed folder
    QCOMPARE(TraceFolder::scan(tmp.filePath(QStringLiteral("exp[1]/*.json")), &error).size(), std::size_t(1));
    QCOMPARE(TraceFolder::scan(tmp.filePath(QStringLiteral("run_[")), &error).size(), std::size_t(1));
    QVERIFY(TraceFolder::scan(tmp.filePath(QStringLiteral("nope_[")), &error).empty());
    QVERIFY2(error.contains(QLatin1String("nothing matches")), qPrintable(error));
    // as a pattern: exp1 and exp[1]'s folder (which [1-2] does not name) apart
    const std::vector<TraceRun> pattern = TraceFolder::scan(tmp.filePath(QStringLiteral("exp[1-2]")), &error);
    QVERIFY2(pattern.size() == 1, qPrintable(error));
    QCOMPARE(pattern.front().file, tmp.filePath(QStringLiteral("exp1/x.pt.trace.json")));
}

void TstTraceFolder::unreadableSubfolderIsAnError()
{
    // A run folder that cannot be listed looked empty: its side was one run short, unsaid. Root lists
    // it anyway, so then the CLI runs as nobody (setpriv, util-linux), for whom permissions hold.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString side = tmp.filePath(QStringLiteral("side"));
    const QString eager = testdata::path("h100_runs/torch_compile/eager");
    for (const QString &run : {QStringLiteral("run_0"), QStringLiteral("run_1")}) {
        const QString to = side + QLatin1Char('/') + run + QStringLiteral("/trace.pt.trace.json.gz");
        QVERIFY(QDir().mkpath(QFileInfo(to).path()));
        QVERIFY(QFile::copy(eager + QLatin1Char('/') + run + QStringLiteral("/trace.pt.trace.json.gz"), to));
    }
    const QFile::Permissions open =
        QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther;
    for (const QString &folder : {tmp.path(), side, side + QStringLiteral("/run_0")})
        QVERIFY(QFile::setPermissions(folder, open));
    QVERIFY(QFile::setPermissions(side + QStringLiteral("/run_0/trace.pt.trace.json.gz"),
                                  QFile::ReadOwner | QFile::ReadOther));
    QVERIFY(QFile::setPermissions(side + QStringLiteral("/run_1"), QFile::Permissions()));
    QStringList command = {QStringLiteral(SCOPELINE_CLI), QStringLiteral("info"), side};
    if (geteuid() == 0)
        command = QStringList{QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                              QStringLiteral("--clear-groups")} +
                  command;
    const ProcessResult run =
        runProcess(geteuid() == 0 ? QStringLiteral("setpriv") : command.takeFirst(), command);
    QFile::setPermissions(side + QStringLiteral("/run_1"), open);
    QVERIFY2(run.exitCode == 2, run.err.constData());
    QVERIFY2(run.err.contains(QStringLiteral("%1/run_1: permission denied").arg(side).toUtf8()),
             run.err.constData());
}

void TstTraceFolder::wildcard()
{
    REQUIRE_TEST_DATA(cublasDir());
    QString error;
    const std::vector<TraceRun> runs =
        TraceFolder::scan(cublasDir() + QStringLiteral("/trace_file_matmul_*"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(names(runs),
             (QStringList{QStringLiteral("trace_file_matmul_0"), QStringLiteral("trace_file_matmul_1"),
                          QStringLiteral("trace_file_matmul_2")}));
    for (const TraceRun &run : runs)
        QVERIFY2(sameFile(run.file, profileSession(cublasDir() + QLatin1Char('/') + run.name) +
                                        QStringLiteral("/vm.trace.json.gz")),
                 qPrintable(describe(runs)));

    // '?' and '[...]' select too.
    const std::vector<TraceRun> some =
        TraceFolder::scan(cublasDir() + QStringLiteral("/trace_file_einsum_[02]"), &error);
    QCOMPARE(names(some),
             (QStringList{QStringLiteral("trace_file_einsum_0"), QStringLiteral("trace_file_einsum_2")}));
    const std::vector<TraceRun> one =
        TraceFolder::scan(cublasDir() + QStringLiteral("/trace_file_einsu?_1"), &error);
    QCOMPARE(names(one), QStringList{QStringLiteral("trace_file_einsum_1")});

    // Run folders of one trace each (PyTorch's run_<i>/): the runs the folder gives, named alike. As
    // process folders of a run named after its file, they made five processes of one run each.
    const QString eager = testdata::path("h100_runs/torch_compile/eager");
    REQUIRE_TEST_DATA(eager);
    const std::vector<TraceRun> folder = TraceFolder::scan(eager, &error);
    const std::vector<TraceRun> matched = TraceFolder::scan(eager + QStringLiteral("/run_*"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(folder.size(), std::size_t(5));
    QCOMPARE(names(matched), names(folder));
    for (std::size_t i = 0; i < folder.size(); ++i)
        QCOMPARE(matched[i].file, folder[i].file);
}

void TstTraceFolder::singleFile()
{
    const QString file = profileSession(namedScopesDir() + QStringLiteral("/trace_file_matmul_0")) +
                         QStringLiteral("/perfetto_trace.json.gz");
    REQUIRE_TEST_DATA(file);
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(file, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(runs.size(), std::size_t(1));
    QVERIFY(sameFile(runs[0].file, file)); // the user's explicit choice, even the Perfetto copy
    QVERIFY(!runs[0].name.isEmpty());

    const QString rocm =
        testdata::path("public/rocmProfileData/examples__rocm-profile-data__results__matmul_result.json.gz");
    REQUIRE_TEST_DATA(rocm);
    const std::vector<TraceRun> plain = TraceFolder::scan(rocm, &error);
    QCOMPARE(plain.size(), std::size_t(1));
    QVERIFY(sameFile(plain[0].file, rocm));
}

void TstTraceFolder::tracelensFolder()
{
    // A folder of plain trace files: one run per file; LICENSE is not a trace. TraceLens' holds a rank
    // of a job beside traces without one, which is refused; the others alone are runs.
    REQUIRE_TEST_DATA(testdata::path("public/TraceLens"));
    const QDir dir(testdata::path("public/TraceLens"));
    // Six .json.gz files (five PyTorch traces and rocprofv3's results) beside the LICENSE.
    QStringList expected =
        dir.entryList({QStringLiteral("*.json"), QStringLiteral("*.json.gz")}, QDir::Files);
    QCOMPARE(expected.size(), 6);
    QCOMPARE(dir.entryList(QDir::Files).size(), 7);
    // One of them is rank 0 of a job of 8 GPUs, beside traces without a rank: not runs of one job.
    const QString rankFile = QStringLiteral("tests__traces__mi300__resnet_act_checkpoint.json.gz");
    QString error;
    QVERIFY(TraceFolder::scan(dir.path(), &error).empty());
    QVERIFY2(error.contains(QStringLiteral("beside %1, rank 0 of a job of 8 GPUs").arg(rankFile)),
             qPrintable(error));
    // The others, with the LICENSE, in a folder of their own.
    QTemporaryDir copy(testdata::scratchDir());
    expected.removeOne(rankFile);
    for (const QString &name : expected + QStringList{QStringLiteral("LICENSE")})
        QVERIFY(testdata::anotherRun(dir.filePath(name), QDir(copy.path()).filePath(name)));
    error.clear();
    const std::vector<TraceRun> runs = TraceFolder::scan(copy.path(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(runs.size(), std::size_t(5));
    QStringList found;
    for (const TraceRun &run : runs) {
        QVERIFY2(QFileInfo(run.file).isFile(), qPrintable(run.file));
        QVERIFY(sameFile(QFileInfo(run.file).absolutePath(), copy.path()));
        found << QFileInfo(run.file).fileName();
    }
    found.sort();
    expected.sort();
    QCOMPARE(found, expected);
    QVERIFY(!names(runs).contains(QStringLiteral("LICENSE")));
}

void TstTraceFolder::naturalSort()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    // Created in an order that is neither natural nor alphabetical.
    for (const char *name : {"run10", "run2", "run1", "run9", "run100", "run11"})
        QVERIFY(touch(tmp.filePath(QLatin1String(name) + QStringLiteral("/trace.pt.trace.json"))));
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(tmp.path(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(runs.size(), std::size_t(6));
    QStringList folders;
    for (const TraceRun &run : runs)
        folders << QFileInfo(run.file).dir().dirName();
    qInfo("scan order: %s (locale %s)", qPrintable(folders.join(QStringLiteral(", "))),
          qPrintable(QLocale().name()));
    QCOMPARE(folders,
             (QStringList{QStringLiteral("run1"), QStringLiteral("run2"), QStringLiteral("run9"),
                          QStringLiteral("run10"), QStringLiteral("run11"), QStringLiteral("run100")}));

    // Files in one folder sort the same way.
    QTemporaryDir flat;
    QVERIFY(flat.isValid());
    for (const char *name : {"step10.json", "step2.json.gz", "step1.json"})
        QVERIFY(touch(flat.filePath(QLatin1String(name))));
    const std::vector<TraceRun> files = TraceFolder::scan(flat.path(), &error);
    QStringList order;
    for (const TraceRun &run : files)
        order << QFileInfo(run.file).fileName();
    QCOMPARE(order, (QStringList{QStringLiteral("step1.json"), QStringLiteral("step2.json.gz"),
                                 QStringLiteral("step10.json")}));
}

void TstTraceFolder::perfettoOnlyRunFolder()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString session = tmp.filePath(QStringLiteral("myrun/plugins/profile/2024_01_01_00_00_00"));
    QVERIFY(touch(session + QStringLiteral("/perfetto_trace.json.gz")));
    QVERIFY(touch(session + QStringLiteral("/notes.txt")));
    QString error;
    for (const QString &path : {tmp.path(), tmp.filePath(QStringLiteral("myrun"))}) {
        const std::vector<TraceRun> runs = TraceFolder::scan(path, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].name, QStringLiteral("myrun"));
        QVERIFY2(sameFile(runs[0].file, session + QStringLiteral("/perfetto_trace.json.gz")),
                 qPrintable(runs[0].file));
    }
}

// jax.profiler's own protobuf, <host>.xplane.pb: not read, and said so, whether the run folder, its parent
// or the file itself is opened; beside a trace-viewer file it is simply not a run.
void TstTraceFolder::xplaneOnlyRunFolder()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString session = tmp.filePath(QStringLiteral("jaxrun/plugins/profile/2025_06_01_12_00_00"));
    const QString xplane = session + QStringLiteral("/vm.xplane.pb");
    // An XSpace message as XLA's profiler writes it: field 1 (planes) holds an XPlane with its
    // id (field 1) and name (field 2). Only the name matters to Scopeline; the bytes are protobuf.
    const QByteArray plane = QByteArray("\x08\x01\x12\x0d/device:GPU:0", 17);
    QVERIFY(touch(xplane, QByteArray("\x0a", 1) + char(plane.size()) + plane));
    QString error;
    for (const QString &path : {tmp.filePath(QStringLiteral("jaxrun")), tmp.path()}) {
        QVERIFY(TraceFolder::scan(path, &error).empty());
        QVERIFY2(error.startsWith(QDir::toNativeSeparators(path)) &&
                     error.contains(QLatin1String("XPlane")) &&
                     error.contains(QLatin1String("vm.xplane.pb")) &&
                     error.contains(QLatin1String("*.trace.json.gz")),
                 qPrintable(error));
    }
    // The file itself: what it is, and that JAX's trace-viewer file is what to open.
    scopeline::LoadResult r = scopeline::TraceLoader::load(xplane);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.startsWith(QDir::toNativeSeparators(xplane)) &&
                 r.error.contains(QLatin1String("XPlane")) && r.error.contains(QLatin1String("protobuf")) &&
                 r.error.contains(QLatin1String("*.trace.json.gz")),
             qPrintable(r.error));
    // With the trace-viewer file beside it: the run is that file, and the message names it.
    QVERIFY(touch(session + QStringLiteral("/vm.trace.json.gz")));
    const std::vector<TraceRun> runs = TraceFolder::scan(tmp.filePath(QStringLiteral("jaxrun")), &error);
    QCOMPARE(runs.size(), std::size_t(1));
    QVERIFY2(sameFile(runs[0].file, session + QStringLiteral("/vm.trace.json.gz")),
             qPrintable(describe(runs)));
    r = scopeline::TraceLoader::load(xplane);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(QLatin1String("vm.trace.json.gz beside it")), qPrintable(r.error));
}

void TstTraceFolder::viewerPreferredOverPerfetto()
{
    // Both files in one session (as JAX writes them): the trace-viewer file only, whatever its name.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString session = tmp.filePath(QStringLiteral("r/plugins/profile/2024_01_01"));
    QVERIFY(touch(session + QStringLiteral("/perfetto_trace.json.gz")));
    QVERIFY(touch(session + QStringLiteral("/hostname.trace.json.gz")));
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(tmp.filePath(QStringLiteral("r")), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(runs.size(), std::size_t(1));
    QVERIFY2(sameFile(runs[0].file, session + QStringLiteral("/hostname.trace.json.gz")),
             qPrintable(describe(runs)));
}

// The session folder, plugins/ or plugins/profile/ of a real JAX run that holds both of JAX's files
// (a wildcard over them too): the run, once, named after its run folder. Each file read as a run had
// been a process of two identical runs.
void TstTraceFolder::jaxFoldersBelowTheRunFolder()
{
    const QString runDir = namedScopesDir() + QStringLiteral("/trace_file_matmul_0");
    const QString session = profileSession(runDir);
    QVERIFY2(QFileInfo::exists(session + QStringLiteral("/perfetto_trace.json.gz")), qPrintable(session));
    const QString viewer = session + QStringLiteral("/vm.trace.json.gz");
    for (const QString &path :
         {session, runDir + QStringLiteral("/plugins"), runDir + QStringLiteral("/plugins/profile"),
          runDir + QStringLiteral("/plugins/profile/*"), session + QStringLiteral("/*"),
          session + QStringLiteral("/*.json.gz")}) {
        QString error;
        QStringList notes;
        const std::vector<TraceRun> runs = TraceFolder::scan(path, &error, &notes);
        QVERIFY2(error.isEmpty(), qPrintable(path + QStringLiteral(": ") + error));
        QVERIFY2(runs.size() == 1 && sameFile(runs[0].file, viewer),
                 qPrintable(path + QLatin1Char('\n') + describe(runs)));
        if (!path.endsWith(QLatin1Char('*')) && !path.endsWith(QLatin1String(".gz")))
            QCOMPARE(runs[0].name, QStringLiteral("trace_file_matmul_0"));
        // Files matched one by one: the copy left out is said.
        if (path.startsWith(session + QLatin1Char('/')))
            QVERIFY2(
                notes.join(QLatin1Char('\n')).contains(QLatin1String("perfetto_trace.json.gz: left out")),
                qPrintable(notes.join(QLatin1Char('\n'))));
    }
    // Session folders of several runs by wildcard: one run each, named after its run folder.
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(
        namedScopesDir() + QStringLiteral("/trace_file_matmul_[01]/plugins/profile/*"), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(names(runs),
             (QStringList{QStringLiteral("trace_file_matmul_0"), QStringLiteral("trace_file_matmul_1")}));
}

// A session with a trace-viewer file per host: one run (which host is read, said in a note), not a run
// per host; a session without a trace file is said, not silently dropped.
void TstTraceFolder::jaxSessionOfSeveralHosts()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString job = tmp.filePath(QStringLiteral("job/plugins/profile/2024_01_01"));
    QVERIFY(touch(job + QStringLiteral("/hostA.trace.json.gz")));
    QVERIFY(touch(job + QStringLiteral("/hostB.trace.json.gz")));
    QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("job/plugins/profile/2024_01_02"))));
    for (const QString &path : {tmp.filePath(QStringLiteral("job")), job}) {
        QString error;
        QStringList notes;
        const std::vector<TraceRun> runs = TraceFolder::scan(path, &error, &notes);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(runs.size() == 1 && sameFile(runs[0].file, job + QStringLiteral("/hostA.trace.json.gz")),
                 qPrintable(describe(runs)));
        const QString said = notes.join(QLatin1Char('\n'));
        QVERIFY2(said.contains(QLatin1String("profiles of 2 hosts")) && said.contains(QLatin1String("hostB")),
                 qPrintable(said));
        QCOMPARE(said.contains(QLatin1String("2024_01_02: a profile session without a trace file")),
                 path != job);
    }
}

void TstTraceFolder::emptyFolder()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QVERIFY(touch(tmp.filePath(QStringLiteral("README.txt")), "not a trace"));
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(tmp.path(), &error);
    QVERIFY(runs.empty());
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(QDir::toNativeSeparators(tmp.path())), qPrintable(error));

    QTemporaryDir bare;
    QVERIFY(bare.isValid());
    error.clear();
    QVERIFY(TraceFolder::scan(bare.path(), &error).empty());
    QVERIFY2(error.contains(QDir::toNativeSeparators(bare.path())), qPrintable(error));
}

// A run folder left without its trace (a recording that failed, a copy not finished) is a run fewer: said
// once, by its path, however deep its own empty folders go; a folder with a run below it is no empty run.
void TstTraceFolder::emptyRunFolderIsNoted()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString side = tmp.filePath(QStringLiteral("side"));
    QVERIFY(touch(side + QStringLiteral("/run_0/x.pt.trace.json")));
    QVERIFY(touch(side + QStringLiteral("/run_1/log.txt"), "not a trace"));
    QVERIFY(QDir().mkpath(side + QStringLiteral("/run_1/empty/emptier")));
    QVERIFY(touch(side + QStringLiteral("/run_2/x.pt.trace.json")));
    QVERIFY(touch(side + QStringLiteral("/nested/run_3/x.pt.trace.json")));
    // a second name for run_0's trace is noted as such, not as an empty run
    QVERIFY(QDir().mkpath(side + QStringLiteral("/run_4")));
    QVERIFY(QFile::link(side + QStringLiteral("/run_0/x.pt.trace.json"),
                        side + QStringLiteral("/run_4/x.pt.trace.json")));
    const QString run1 = QDir::toNativeSeparators(side + QStringLiteral("/run_1"));
    for (const QString &path : {side, side + QStringLiteral("/run_*")}) {
        QString error;
        QStringList notes;
        const std::vector<TraceRun> runs = TraceFolder::scan(path, &error, &notes);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(runs.size(), std::size_t(path == side ? 3 : 2));
        QCOMPARE(notes.size(), 2);
        QCOMPARE(notes[0], run1 + QStringLiteral(": no trace files in it, left out of the side"));
        QVERIFY2(notes[1].contains(QLatin1String("run_4/x.pt.trace.json: the same file as ")),
                 qPrintable(notes[1]));
    }
}

void TstTraceFolder::missingPath()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString missing = tmp.filePath(QStringLiteral("no/such/run"));
    QString error;
    QVERIFY(TraceFolder::scan(missing, &error).empty());
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(QDir::toNativeSeparators(missing)), qPrintable(error));
    // Without an error pointer it still fails quietly.
    QVERIFY(TraceFolder::scan(missing).empty());
    // Neither a file nor a folder: said as such, not "permission denied (a folder …)".
    QVERIFY(TraceFolder::scan(QStringLiteral("/dev/null"), &error).empty());
    QCOMPARE(error, QStringLiteral("/dev/null: not a trace file or folder (a device, pipe or socket)"));
    // A link to nothing says so, with where it leads.
    const QString dangling = tmp.filePath(QStringLiteral("dangling.json.gz"));
    QVERIFY(QFile::link(tmp.filePath(QStringLiteral("gone.json.gz")), dangling));
    QVERIFY(TraceFolder::scan(dangling, &error).empty());
    QVERIFY2(error.startsWith(dangling + QStringLiteral(": a link to ") +
                              tmp.filePath(QStringLiteral("gone.json.gz")) +
                              QStringLiteral(", which is not there (its target moved or was deleted)")),
             qPrintable(error));
    // Links that lead in a loop say so, rather than that their target moved: one to itself, two to
    // each other.
    const QString self = tmp.filePath(QStringLiteral("self")), there = tmp.filePath(QStringLiteral("there")),
                  back = tmp.filePath(QStringLiteral("back"));
    QVERIFY(QFile::link(self, self) && QFile::link(back, there) && QFile::link(there, back));
    for (const QString &link : {self, there}) {
        QVERIFY(TraceFolder::scan(link, &error).empty());
        QCOMPARE(error, link + QStringLiteral(": a link that leads in a loop, back to a link it passed"));
    }
}

// A trace whose name is not UTF-8 (Latin-1 bytes): Qt's listings leave it out, so the scan says so
// rather than let its run go missing unsaid; given by that name, it is said the same way.
void TstTraceFolder::nameNotUtf8IsSaid()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString side = tmp.filePath(QStringLiteral("side"));
    QVERIFY(QDir().mkpath(side + QStringLiteral("/run_0")) && QDir().mkpath(side + QStringLiteral("/run_1")));
    QVERIFY(touch(side + QStringLiteral("/run_0/x.pt.trace.json")));
    const QByteArray latin1 = QFile::encodeName(side) + QByteArray("/run_1/b\xe9.pt.trace.json");
    QVERIFY(::link(QFile::encodeName(side + QStringLiteral("/run_0/x.pt.trace.json")).constData(),
                   latin1.constData()) == 0);
    QString error;
    QStringList notes;
    const std::vector<TraceRun> runs = TraceFolder::scan(side, &error, &notes);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(notes.size(), 1);
    QVERIFY2(notes[0].startsWith(side + QStringLiteral("/run_1/b")) &&
                 notes[0].endsWith(QStringLiteral(".pt.trace.json: a name that is not UTF-8 (shown with ") +
                                   QChar(QChar::ReplacementCharacter) +
                                   QStringLiteral("), which Scopeline cannot open: rename it")),
             qPrintable(notes[0]));
    QVERIFY(TraceFolder::scan(QString::fromLocal8Bit(latin1), &error).empty());
    QVERIFY2(error.contains(QLatin1String("a name that is not UTF-8")), qPrintable(error));
}

// Folders below the scan's depth are not searched, and that is said: beside the runs found, and in the
// error where a trace only deeper down made none found.
void TstTraceFolder::tooDeepIsSaid()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString deep = tmp.filePath(QStringLiteral("side/a/b/c/d/e/f/g/h/i/j"));
    QVERIFY(QDir().mkpath(deep));
    QVERIFY(touch(deep + QStringLiteral("/x.pt.trace.json")));
    const QString side = tmp.filePath(QStringLiteral("side"));
    QString error;
    QStringList notes;
    QVERIFY(TraceFolder::scan(side, &error, &notes).empty());
    const QString said = tmp.filePath(QStringLiteral("side/a/b/c/d/e/f/g/h")) +
                         QStringLiteral(": its folders are not searched, 8 levels below ") + side;
    QVERIFY2(error.startsWith(side + QStringLiteral(": no trace files found")) && error.contains(said),
             qPrintable(error));
    QVERIFY(touch(tmp.filePath(QStringLiteral("side/run_0/y.pt.trace.json"))));
    error.clear();
    notes.clear();
    QCOMPARE(TraceFolder::scan(side, &error, &notes).size(), std::size_t(1));
    QVERIFY2(error.isEmpty() && notes.filter(said).size() == 1, qPrintable(notes.join(u'\n')));
}

// A folder such as / or a home folder is a wrong pick: the scan stops with a message, not after minutes.
void TstTraceFolder::hugeFolderTreeStops()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QDir root(tmp.path());
    for (int i = 0; i < 80; ++i)
        for (int j = 0; j < 70; ++j) // 80 + 5600 folders
            QVERIFY(root.mkpath(QStringLiteral("d%1/e%2").arg(i).arg(j)));
    QVERIFY(touch(tmp.filePath(QStringLiteral("d79/e69/late.pt.trace.json"))));
    QString error;
    QVERIFY(TraceFolder::scan(tmp.path(), &error).empty());
    QVERIFY2(error.contains(QDir::toNativeSeparators(tmp.path())) &&
                 error.contains(QLatin1String("folders below it")),
             qPrintable(error));
    // the same trace one level down, in a tree within the bound, is found
    const std::vector<TraceRun> runs = TraceFolder::scan(tmp.filePath(QStringLiteral("d79")), &error);
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0].name, QStringLiteral("e69")); // a folder with one trace is a run named after it
}

// scopeline-hipbench writes <variant>/run_<i>/hipbench.pt.trace.json.gz: the runs are run_0, run_1, ...;
// a folder with several traces keeps the file names.
void TstTraceFolder::oneTracePerFolderNamesTheRunAfterIt()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    for (const char *file : {"eager/run_0/hipbench.pt.trace.json.gz", "eager/run_1/hipbench.pt.trace.json.gz",
                             "eager/run_10/hipbench.pt.trace.json.gz", "many/a.pt.trace.json", "many/b.pt.trace.json"})
        QVERIFY(touch(tmp.filePath(QLatin1String(file))));
    const std::vector<TraceRun> runs = TraceFolder::scan(tmp.filePath(QStringLiteral("eager")));
    QCOMPARE(runs.size(), std::size_t(3));
    QCOMPARE(runs[0].name, QStringLiteral("run_0"));
    QCOMPARE(runs[1].name, QStringLiteral("run_1"));
    QCOMPARE(runs[2].name, QStringLiteral("run_10"));
    QVERIFY(runs[2].file.endsWith(QLatin1String("run_10/hipbench.pt.trace.json.gz")));
    const std::vector<TraceRun> many = TraceFolder::scan(tmp.path());
    QStringList names;
    for (const TraceRun &run : many)
        names << run.name;
    QCOMPARE(names, (QStringList{QStringLiteral("eager/run_0"), QStringLiteral("eager/run_1"),
                                 QStringLiteral("eager/run_10"), QStringLiteral("many/a.pt.trace.json"),
                                 QStringLiteral("many/b.pt.trace.json")}));
}

void TstTraceFolder::wildcardMatchingNothing()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QVERIFY(touch(tmp.filePath(QStringLiteral("a/x.json"))));
    const QString pattern = tmp.filePath(QStringLiteral("zzz_*"));
    QString error;
    QVERIFY(TraceFolder::scan(pattern, &error).empty());
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(QDir::toNativeSeparators(pattern)), qPrintable(error));
}

void TstTraceFolder::isTraceFileName_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("trace");
    QTest::newRow("vm.trace.json.gz") << "vm.trace.json.gz" << true;
    QTest::newRow("perfetto_trace.json.gz") << "perfetto_trace.json.gz" << true;
    QTest::newRow("pt.trace.json") << "worker0.1623143089861.pt.trace.json" << true;
    QTest::newRow("results.json") << "results.json" << true;
    QTest::newRow("upper case") << "TRACE.JSON.GZ" << true;
    QTest::newRow("LICENSE") << "LICENSE" << false;
    QTest::newRow("txt") << "notes.txt" << false;
    QTest::newRow("json.bak") << "trace.json.bak" << false;
    QTest::newRow("tar.gz") << "traces.tar.gz" << false;
}

void TstTraceFolder::isTraceFileName()
{
    QFETCH(QString, name);
    QFETCH(bool, trace);
    QCOMPARE(TraceFolder::isTraceFileName(name), trace);
}

// A path that names nothing says which way: missing, a pattern matching nothing, or empty (`LABEL=`).
void TstTraceFolder::pathsThatNameNothing()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const struct
    {
        QString path, says;
    } cases[] = {
        {dir.filePath(QStringLiteral("absent")), QStringLiteral("absent: no such file or folder")},
        {dir.filePath(QStringLiteral("run_*")), QStringLiteral("run_*: nothing matches this pattern")},
        {QString(), QStringLiteral("an empty path")}};
    for (const auto &c : cases) {
        QString error;
        QVERIFY(TraceFolder::scan(c.path, &error).empty());
        QVERIFY2(error.contains(c.says), qPrintable(error));
    }
}

QTEST_GUILESS_MAIN(TstTraceFolder)
#include "tst_tracefolder.moc"
