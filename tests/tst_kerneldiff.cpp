// SPDX-License-Identifier: GPL-3.0-or-later
// `scopeline-cli diff` (the kernel-level "what changed" table) against an independent Python/scipy
// oracle (tests/oracle/kernel_diff.py) on real JAX and PyTorch traces, the folding of compiler
// numbering, the CLI's options and exit statuses, and the calibration of the run-level verdict on
// true A/A splits of the repeated JAX runs.

#include "testdata.h"
#include "testprocess.h"

#include "model/comparison/kerneldiff.h"
#include "model/comparison/variantdiff.h"
#include "model/loading/tracefolder.h"

#include <QtTest>

#include <set>

#include <cmath>

using namespace scopeline;

namespace {

const QString kCublas = testdata::path("jax_h100/jax_named_scopes_cublas");
const QString kNamedScopes = testdata::path("jax_h100/jax_named_scopes");
const QString kRepeated = testdata::path("jax_h100/repeated_runs");
const QString kBert =
    testdata::path("public/TraceLens/tests__traces__h100__gaunernst_bert-small-uncased__1016001.json.gz");
const QString kIntegerMicroseconds = testdata::path(
    "public/HolisticTraceAnalysis/tests__data__negative_queue_length_values_check__rank0.json.gz");
const QString kMi300 = testdata::path("public/TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz");
const QString kKineto = testdata::path(
    "public/kineto/tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz");

// The trace file of each run folder matching prefix* (what the CLI loads from such a folder).
QStringList traceFiles(const QString &parent, const QString &prefix)
{
    QStringList files;
    const QDir dir(parent);
    for (const QString &run : dir.entryList({prefix + QLatin1Char('*')}, QDir::Dirs, QDir::Name)) {
        QDirIterator it(dir.filePath(run), {QStringLiteral("*.trace.json.gz")}, QDir::Files,
                        QDirIterator::Subdirectories);
        if (it.hasNext())
            files.append(it.next());
    }
    return files;
}

// Every trace file below a side folder, sorted (side/<process>/<run>/... or side/<run>/...).
QStringList allTraceFiles(const QString &side)
{
    QStringList files;
    QDirIterator it(side, {QStringLiteral("*.trace.json.gz")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(it.next());
    files.sort();
    return files;
}

// RFC 4180 fields: kernel names hold commas (template arguments) and are quoted.
QStringList csvFields(const QString &line)
{
    QStringList fields;
    QString field;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            fields.append(field);
            field.clear();
        } else {
            field += c;
        }
    }
    fields.append(field);
    return fields;
}

struct Csv
{
    QStringList header;
    QList<QStringList> rows;
    QString value(int row, const QString &column) const { return rows[row].value(header.indexOf(column)); }
};

Csv readCsv(const QString &path)
{
    Csv csv;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return csv;
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    csv.header = csvFields(lines.value(0));
    for (int i = 1; i < lines.size(); ++i)
        csv.rows.append(csvFields(lines[i]));
    return csv;
}

QJsonObject runOracle(const QStringList &a, const QStringList &b, const QStringList &extra)
{
    const ProcessResult oracle =
        runProcess(QStringLiteral(SCOPELINE_PYTHON),
                   QStringList{QStringLiteral(SCOPELINE_ORACLE_DIR "/kernel_diff.py"), QStringLiteral("--a")}
                       << a << QStringLiteral("--b") << b << extra);
    if (oracle.exitCode != 0)
        qWarning("kernel_diff.py: %s", oracle.err.constData());
    return QJsonDocument::fromJson(oracle.out).object();
}

QList<LoadedRun> loadFolder(const QString &path)
{
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(path, &error);
    return LoadedRun::loadAll(runs);
}

// Single trace files, each a run named after its file (as the CLI names a file it is given).
QList<LoadedRun> loadFiles(const QStringList &files)
{
    QList<LoadedRun> runs;
    for (const QString &file : files)
        runs.append(LoadedRun::load(TraceRun{QFileInfo(file).fileName(), file}));
    return runs;
}

// Every column of every row of a diff CSV against the oracle's rows: exact names, counts, calls and
// totals per run (means of integer ns, the same division); everything else to 1e-9 relative.
void compareWithOracle(const Csv &csv, const QJsonArray &expected)
{
    QCOMPARE(csv.rows.size(), expected.size());

    // Exact: names, counts, calls and totals per run (means of integer ns, the same division);
    // everything else to 1e-9 relative.
    const QStringList exactText = {QStringLiteral("kernel"), QStringLiteral("verdict"),
                                   QStringLiteral("folded_names"), QStringLiteral("per_call_verdict"),
                                   QStringLiteral("caveat")};
    const QStringList exactNumbers = {QStringLiteral("runs_a"),        QStringLiteral("runs_b"),
                                      QStringLiteral("calls_a"),       QStringLiteral("calls_b"),
                                      QStringLiteral("total_a_ns"),    QStringLiteral("total_b_ns"),
                                      QStringLiteral("delta_total_ns")};
    int tested = 0;
    double previous = INFINITY;
    for (int r = 0; r < csv.rows.size(); ++r) {
        const QJsonObject want = expected[r].toObject();
        const QString kernel = want[QStringLiteral("kernel")].toString();
        for (const QString &column : csv.header) {
            QVERIFY2(want.contains(column), qPrintable(column));
            const QString got = csv.value(r, column);
            const QJsonValue reference = want[column];
            const QString where =
                QStringLiteral("row %1 (%2) %3: got '%4', oracle %5")
                    .arg(r)
                    .arg(kernel.left(60), column, got,
                         QString::fromUtf8(
                             QJsonDocument(QJsonArray{reference}).toJson(QJsonDocument::Compact)));
            if (exactText.contains(column) || reference.isString()) { // the oracle writes infinity as "inf"
                QVERIFY2(got == reference.toString(), qPrintable(where));
            } else if (reference.isNull()) {
                QVERIFY2(got.isEmpty(), qPrintable(where));
            } else {
                bool ok = false;
                const double value = got.toDouble(&ok);
                const double ref = reference.toDouble();
                QVERIFY2(ok, qPrintable(where));
                if (exactNumbers.contains(column))
                    QVERIFY2(value == ref, qPrintable(where));
                else
                    QVERIFY2(std::fabs(value - ref) <= 1e-9 * std::max(1.0, std::fabs(ref)),
                             qPrintable(where));
            }
        }
        tested += !want[QStringLiteral("run_level_p")].isNull();
        // Sorted by |change of total time|, largest first.
        const double delta = std::fabs(csv.value(r, QStringLiteral("delta_total_ns")).toDouble());
        QVERIFY2(delta <= previous, qPrintable(QStringLiteral("row %1 out of order").arg(r)));
        previous = delta;
    }
    qInfo("%lld rows, %d with a run-level test", qlonglong(csv.rows.size()), tested);
}

} // namespace

class TstKernelDiff : public QObject
{
    Q_OBJECT
    QTemporaryDir m_ties; // one integer-µs trace twice on each side; JAX processes (mixed/, uneq/)

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(kCublas, kNamedScopes, kRepeated, kBert, kMi300, kKineto, kIntegerMicroseconds);
        for (const QString &file : {QStringLiteral("A/run1"), QStringLiteral("A/run2"),
                                    QStringLiteral("B/run1"), QStringLiteral("B/run2")}) {
            QVERIFY(QDir().mkpath(QFileInfo(m_ties.filePath(file)).path()));
            QVERIFY(QFile::copy(kIntegerMicroseconds, m_ties.filePath(file + QStringLiteral(".json.gz"))));
        }
        const QString procs = testdata::path("h100_runs/jax_processes");
        // mixed/: matmul's processes 0-2 against einsum's four and matmul's process 3. uneq/: processes
        // of 1, 2, 1, 1 runs against 4, 1, 4, 1 (each process counts once, however many runs it has).
        QStringList copies = {
            QStringLiteral("matmul/proc_0 mixed/A/proc_0"), QStringLiteral("matmul/proc_1 mixed/A/proc_1"),
            QStringLiteral("matmul/proc_2 mixed/A/proc_2"), QStringLiteral("einsum/proc_0 mixed/B/proc_0"),
            QStringLiteral("einsum/proc_1 mixed/B/proc_1"), QStringLiteral("einsum/proc_2 mixed/B/proc_2"),
            QStringLiteral("einsum/proc_3 mixed/B/proc_3"), QStringLiteral("matmul/proc_3 mixed/B/proc_4"),
            // aa/: einsum's processes 0 and 2 against 1 and 3, one program: the autotuner picked one GEMM in
            // processes 0 and 2 and another in 1 and 3, so each is on one side alone
            QStringLiteral("einsum/proc_0 aa/A/proc_0"), QStringLiteral("einsum/proc_2 aa/A/proc_2"),
            QStringLiteral("einsum/proc_1 aa/B/proc_1"), QStringLiteral("einsum/proc_3 aa/B/proc_3")};
        for (const char *run :
             {"proc_0/run_0", "proc_1/run_0", "proc_1/run_1", "proc_2/run_0", "proc_3/run_0"})
            copies << QStringLiteral("matmul/%1 uneq/A/%1").arg(QLatin1String(run));
        for (const char *run :
             {"proc_0/run_0", "proc_0/run_1", "proc_0/run_2", "proc_0/run_3", "proc_1/run_0", "proc_2/run_0",
              "proc_2/run_1", "proc_2/run_2", "proc_2/run_3", "proc_3/run_0"})
            copies << QStringLiteral("einsum/%1 uneq/B/%1").arg(QLatin1String(run));
        for (const QString &copy : copies) {
            const QString from = copy.section(QLatin1Char(' '), 0, 0), to = copy.section(QLatin1Char(' '), 1);
            for (const QString &file : allTraceFiles(procs + QLatin1Char('/') + from)) {
                const QString target = m_ties.filePath(to) + file.mid(procs.size() + 1 + from.size());
                QVERIFY(QDir().mkpath(QFileInfo(target).path()));
                QVERIFY(QFile::copy(file, target));
            }
        }
        QVERIFY2(runProcess(QStringLiteral(SCOPELINE_PYTHON),
                            {QStringLiteral("-c"), QStringLiteral("import scipy, numpy")})
                         .exitCode == 0,
                 "no python3 with numpy and scipy at " SCOPELINE_PYTHON);
    }

    // A trace against itself: nothing changed, so the rows come by time per run, the largest first.
    void aTraceAgainstItselfComesByTime()
    {
        const QList<LoadedRun> runs = loadFiles({kKineto});
        const KernelDiff diff(runs, runs);
        QVERIFY(diff.rows().size() > 10);
        for (std::size_t r = 1; r < diff.rows().size(); ++r) {
            QCOMPARE(diff.rows()[r].deltaTotalNs, 0.0);
            QVERIFY(diff.rows()[r - 1].a.totalPerRunNs >= diff.rows()[r].a.totalPerRunNs);
        }
        // nothing is tested, and every row says why: an interval of a side against its very files had read
        // as a measured absence of change, under a banner saying nothing is compared
        QVERIFY(diff.summary().sameRuns);
        for (const KernelDiffRow &row : diff.rows()) {
            QVERIFY(!row.runLevel.valid() && !row.perCall.valid());
            QCOMPARE(row.verdictText(), QStringLiteral("the same runs on both sides: nothing is compared"));
        }
    }

    void foldBase_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("base");
        QTest::newRow("xla") << "loop_transpose_fusion_13"
                             << "loop_transpose_fusion";
        QTest::newRow("inductor") << "triton_poi_fused_add_0"
                                  << "triton_poi_fused_add";
        QTest::newRow("dotted") << "fusion.12"
                                << "fusion";
        QTest::newRow("repeated") << "fusion_1_2.3"
                                  << "fusion";
        QTest::newRow("unnumbered") << "gemm_fusion_dot"
                                    << "gemm_fusion_dot";
        QTest::newRow("digits in a word") << "cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4"
                                          << "cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4";
        QTest::newRow("template")
            << "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4>("
               "cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4::Params)"
            << "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4>("
               "cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4::Params)";
        QTest::newRow("after template") << "kernel<1, 2>_7"
                                        << "kernel<1, 2>";
        QTest::newRow("digits only after separator") << "_12"
                                                     << "_12";
        QTest::newRow("no separator") << "sm90_gemm_stage3"
                                      << "sm90_gemm_stage3";
    }

    void foldBase()
    {
        QFETCH(QString, name);
        QFETCH(QString, base);
        QCOMPARE(QString::fromStdString(KernelDiff::foldBase(name.toStdString())), base);
    }

    void equalsOracle_data()
    {
        QTest::addColumn<QString>("pathA");
        QTest::addColumn<QString>("pathB");
        QTest::addColumn<QStringList>("filesA");
        QTest::addColumn<QStringList>("filesB");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QStringList>("roots"); // the side folders, for the oracle to tell processes by
        const QString matmul = QStringLiteral("trace_file_matmul_"),
                      einsum = QStringLiteral("trace_file_einsum_");
        const QStringList fold = {QStringLiteral("--fold-numbers")};
        QTest::newRow("jax cublas matmul vs einsum (3 v 3)")
            << kCublas + QStringLiteral("/trace_file_matmul_*")
            << kCublas + QStringLiteral("/trace_file_einsum_*") << traceFiles(kCublas, matmul)
            << traceFiles(kCublas, einsum) << QStringList() << QStringList();
        QTest::newRow("jax named scopes matmul vs einsum (3 v 3)")
            << kNamedScopes + QStringLiteral("/trace_file_matmul_*")
            << kNamedScopes + QStringLiteral("/trace_file_einsum_*") << traceFiles(kNamedScopes, matmul)
            << traceFiles(kNamedScopes, einsum) << QStringList() << QStringList();
        QTest::newRow("jax named scopes folded, alpha 0.1, threshold 0.5")
            << kNamedScopes + QStringLiteral("/trace_file_matmul_*")
            << kNamedScopes + QStringLiteral("/trace_file_einsum_*") << traceFiles(kNamedScopes, matmul)
            << traceFiles(kNamedScopes, einsum)
            << QStringList{QStringLiteral("--fold-numbers"), QStringLiteral("--alpha"), QStringLiteral("0.1"),
                           QStringLiteral("--threshold"), QStringLiteral("0.5")}
            << QStringList();
        QTest::newRow("jax repeated runs matmul vs einsum folded (10 v 10)")
            << kRepeated + QStringLiteral("/trace_file_matmul_*")
            << kRepeated + QStringLiteral("/trace_file_einsum_*") << traceFiles(kRepeated, matmul)
            << traceFiles(kRepeated, einsum) << fold << QStringList();
        QTest::newRow("pytorch h100 bert vs mi300 resnet (1 v 1)")
            << kBert << kMi300 << QStringList{kBert} << QStringList{kMi300} << QStringList() << QStringList();
        QTest::newRow("pytorch kineto resnet50 vs mi300 resnet folded (1 v 1)")
            << kKineto << kMi300 << QStringList{kKineto} << QStringList{kMi300} << fold << QStringList();
        QTest::newRow("pytorch kineto resnet50 against itself")
            << kKineto << kKineto << QStringList{kKineto} << QStringList{kKineto} << QStringList()
            << QStringList();
        const QString procs = testdata::path("h100_runs/jax_processes");
        const QStringList roots = {procs + QStringLiteral("/matmul"), procs + QStringLiteral("/einsum")};
        QTest::newRow("jax 4 processes a side, matmul vs einsum")
            << roots[0] << roots[1] << allTraceFiles(roots[0]) << allTraceFiles(roots[1]) << QStringList()
            << roots;
        QTest::newRow("jax 4 processes a side, by op")
            << roots[0] << roots[1] << allTraceFiles(roots[0]) << allTraceFiles(roots[1])
            << QStringList{QStringLiteral("--by"), QStringLiteral("op")} << roots;
        const QString torch = testdata::path("h100_runs/torch_compile");
        const QStringList torchRoots = {torch + QStringLiteral("/eager"),
                                        torch + QStringLiteral("/reduce_overhead")};
        // Integer µs: kernels whose every call took 3, 4 or 7 µs, each side the same two runs. Their ties are
        // known to the trace's 1 µs, not to their own duration (an interval of -100 % to +inf).
        const QStringList tieA = {m_ties.filePath(QStringLiteral("A/run1.json.gz")),
                                  m_ties.filePath(QStringLiteral("A/run2.json.gz"))},
                          tieB = {m_ties.filePath(QStringLiteral("B/run1.json.gz")),
                                  m_ties.filePath(QStringLiteral("B/run2.json.gz"))};
        QTest::newRow("pytorch integer-µs trace, two copies a side: ties")
            << m_ties.filePath(QStringLiteral("A")) << m_ties.filePath(QStringLiteral("B")) << tieA << tieB
            << QStringList() << QStringList();
        // matmul's processes 0-2 against einsum's four and matmul's process 3: einsum's kernels are in 4
        // of 5 processes of B and none of A, new time a significant p calls B slower (alpha 0.5).
        const QStringList mixed = {m_ties.filePath(QStringLiteral("mixed/A")),
                                   m_ties.filePath(QStringLiteral("mixed/B"))};
        QTest::newRow("jax processes, kernels of some processes of B alone, alpha 0.5")
            << mixed[0] << mixed[1] << allTraceFiles(mixed[0]) << allTraceFiles(mixed[1])
            << QStringList{QStringLiteral("--alpha"), QStringLiteral("0.5")} << mixed;
        // A kernel on one side alone whose time per run does not test as a change is no finding: "no
        // significant change; only in B" (its p 0.0677), not "only in B" in colour
        const QStringList aa = {m_ties.filePath(QStringLiteral("aa/A")),
                                m_ties.filePath(QStringLiteral("aa/B"))};
        QTest::newRow("jax A/A of processes 0, 2 v 1, 3: the autotuner's GEMMs on one side each")
            << aa[0] << aa[1] << allTraceFiles(aa[0]) << allTraceFiles(aa[1]) << QStringList() << aa;
        const QStringList uneq = {m_ties.filePath(QStringLiteral("uneq/A")),
                                  m_ties.filePath(QStringLiteral("uneq/B"))};
        QTest::newRow("jax processes of unequal runs (1, 2, 1, 1 v 4, 1, 4, 1)")
            << uneq[0] << uneq[1] << allTraceFiles(uneq[0]) << allTraceFiles(uneq[1]) << QStringList()
            << uneq;
        QTest::newRow("torch eager vs reduce-overhead, one process for both, by op")
            << torchRoots[0] << torchRoots[1] << allTraceFiles(torchRoots[0]) << allTraceFiles(torchRoots[1])
            << QStringList{QStringLiteral("--by"), QStringLiteral("op")} << torchRoots;
    }

    void equalsOracle()
    {
        QFETCH(QString, pathA);
        QFETCH(QString, pathB);
        QFETCH(QStringList, filesA);
        QFETCH(QStringList, filesB);
        QFETCH(QStringList, options);
        QFETCH(QStringList, roots);
        QVERIFY(!filesA.isEmpty() && !filesB.isEmpty());
        REQUIRE_TEST_DATA(filesA + filesB);

        QTemporaryDir dir;
        const QString csvPath = dir.filePath(QStringLiteral("diff.csv"));
        const ProcessResult cli = runProcess(
            QStringLiteral(SCOPELINE_CLI),
            QStringList{QStringLiteral("diff"), pathA, pathB, QStringLiteral("--csv"), csvPath} << options);
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        QVERIFY(cli.out.contains("GPU busy per run: A "));

        const QStringList rootOptions = roots.isEmpty() ? QStringList()
                                                        : QStringList{QStringLiteral("--root-a"), roots[0],
                                                                      QStringLiteral("--root-b"), roots[1]};
        const QJsonObject oracle = runOracle(filesA, filesB, options + rootOptions);
        const QJsonArray expected = oracle[QStringLiteral("rows")].toArray();
        QVERIFY2(!expected.isEmpty(), "the oracle gave no rows");
        const Csv csv = readCsv(csvPath);
        const QString prefix = QStringLiteral(
            "kernel,runs_a,runs_b,calls_a,calls_b,total_a_ns,total_b_ns,delta_total_ns,share_of_delta,"
            "median_a_ns,median_b_ns,rel_change_median,run_level_p,verdict");
        QCOMPARE(csv.header.mid(0, 14).join(QLatin1Char(',')), prefix);
        compareWithOracle(csv, expected);

        // The header line's figures, in-process, against the oracle.
        const QList<LoadedRun> a = roots.isEmpty() ? loadFiles(filesA) : loadFolder(roots[0]);
        const QList<LoadedRun> b = roots.isEmpty() ? loadFiles(filesB) : loadFolder(roots[1]);
        KernelDiffOptions kernelOptions;
        kernelOptions.foldNumbers = options.contains(QStringLiteral("--fold-numbers"));
        kernelOptions.byOp = options.contains(QStringLiteral("op"));
        const KernelDiff diff(a, b, kernelOptions);
        const KernelDiffSummary &s = diff.summary();
        const QJsonObject want = oracle[QStringLiteral("summary")].toObject();
        QCOMPARE(s.runsA, want[QStringLiteral("runs_a")].toInt());
        QCOMPARE(s.runsB, want[QStringLiteral("runs_b")].toInt());
        QCOMPARE(s.busyPerRunA, want[QStringLiteral("busy_per_run_a")].toDouble());
        QCOMPARE(s.busyPerRunB, want[QStringLiteral("busy_per_run_b")].toDouble());
        QCOMPARE(s.kernelTimePerRunA, want[QStringLiteral("kernel_time_per_run_a")].toDouble());
        QCOMPARE(s.kernelTimePerRunB, want[QStringLiteral("kernel_time_per_run_b")].toDouble());
        QCOMPARE(s.deltaTotalNs, want[QStringLiteral("delta_total_ns")].toDouble());
        QCOMPARE(s.kernels, want[QStringLiteral("kernels")].toInt());
        QCOMPARE(s.onlyInA, want[QStringLiteral("only_in_a")].toInt());
        QCOMPARE(s.onlyInB, want[QStringLiteral("only_in_b")].toInt());
        QCOMPARE(s.processDependent, want[QStringLiteral("process_dependent")].toInt());
        QCOMPARE(s.byProcess, want[QStringLiteral("by_process")].toBool());
        QCOMPARE(s.caveat, want[QStringLiteral("caveat")].toString());
        // Never p = 0 or a zero-width interval, timer ties included; the verdict never contradicts the
        // sign of the row's change of time per run.
        int tied = 0;
        for (const KernelDiffRow &row : diff.rows()) {
            for (const stats::RunLevelTest *test : {&row.runLevel, &row.perCall})
                if (test->valid()) {
                    QVERIFY2(test->p > 0 && !(test->ciLow >= test->ciHigh), qPrintable(row.kernel));
                    tied += test->tied;
                }
            if (row.verdict == Verdict::Faster)
                QVERIFY2(row.deltaTotalNs < 0, qPrintable(row.kernel));
            if (row.verdict == Verdict::Slower)
                QVERIFY2(row.deltaTotalNs > 0, qPrintable(row.kernel));
        }
        qInfo("%d tests where every unit of each side gave one value (timer ticks)", tied);
        QCOMPARE(int(diff.rows().size()), int(csv.rows.size()));
        // The rows' changes add up to the change of kernel time (shares to 1), where that change counts;
        // below the threshold no row has a share (noise over noise).
        double shares = 0;
        int withShare = 0;
        for (const KernelDiffRow &row : diff.rows()) {
            shares += std::isnan(row.shareOfDelta) ? 0 : row.shareOfDelta;
            withShare += !std::isnan(row.shareOfDelta);
        }
        if (std::fabs(s.deltaTotalNs) >= diff.options().threshold * s.kernelTimePerRunA &&
            s.deltaTotalNs != 0)
            QVERIFY(std::fabs(shares - 1) < 1e-9);
        else
            QCOMPARE(withShare, 0);
    }

    void foldingJoinsCompilerNumbering()
    {
        // einsum's loop_transpose_fusion_5/_6/_7 and matmul's loop_transpose_fusion_1 are one row.
        const QList<LoadedRun> a = loadFolder(kNamedScopes + QStringLiteral("/trace_file_matmul_*"));
        const QList<LoadedRun> b = loadFolder(kNamedScopes + QStringLiteral("/trace_file_einsum_*"));
        QCOMPARE(a.size(), 3);
        QCOMPARE(b.size(), 3);
        KernelDiffOptions options;
        options.foldNumbers = true;
        const KernelDiff folded(a, b, options);
        const KernelDiff exact(a, b);
        QVERIFY(folded.rows().size() < exact.rows().size());
        const auto row = std::find_if(folded.rows().begin(), folded.rows().end(), [](const KernelDiffRow &r) {
            return r.kernel == QLatin1String("loop_transpose_fusion_*");
        });
        QVERIFY(row != folded.rows().end());
        QCOMPARE(row->names, (QStringList{QStringLiteral("loop_transpose_fusion_1"),
                                          QStringLiteral("loop_transpose_fusion_5"),
                                          QStringLiteral("loop_transpose_fusion_6"),
                                          QStringLiteral("loop_transpose_fusion_7")}));
        QCOMPARE(row->a.calls, int64_t(3 * 40));
        QCOMPARE(row->b.calls, int64_t(3 * 160));
        // Exact names stay the default: no row of the unfolded diff is a folded name.
        for (const KernelDiffRow &r : exact.rows()) {
            QVERIFY(!r.kernel.endsWith(QLatin1Char('*')));
            QCOMPARE(r.names.size(), 1);
        }
        // Folding keeps the totals.
        QCOMPARE(folded.summary().deltaTotalNs, exact.summary().deltaTotalNs);
    }

    // Three different sm90 GEMM kernels elide to the same text at 50 characters: the table tells them
    // apart (" #2"), and --wide prints every name whole.
    void cliNamesAreDistinct()
    {
        const QString procs = testdata::path("h100_runs/jax_processes");
        for (const bool wide : {false, true}) {
            QStringList args{QStringLiteral("diff"), procs + QStringLiteral("/matmul"),
                             procs + QStringLiteral("/einsum"), QStringLiteral("--top"), QStringLiteral("0")};
            if (wide)
                args << QStringLiteral("--wide");
            const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI), args);
            QVERIFY2(cli.exitCode == 0, cli.err.constData());
            const QStringList lines = QString::fromUtf8(cli.out).split(QLatin1Char('\n'));
            const qsizetype header =
                lines.indexOf(*std::find_if(lines.begin(), lines.end(), [](const QString &l) {
                    return l.startsWith(QLatin1String("Kernel ")) && l.contains(QLatin1String("Calls/run A"));
                }));
            const qsizetype width = lines[header].indexOf(QLatin1String("Calls/run A"));
            QStringList names;
            for (qsizetype i = header + 1; i < lines.size() && !lines[i].isEmpty(); ++i)
                names << lines[i].left(width).trimmed();
            QCOMPARE(names.size(), 25);
            QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), names.size());
            const bool elided = std::any_of(names.begin(), names.end(),
                                            [](const QString &n) { return n.contains(QStringLiteral("…")); });
            QCOMPARE(elided, !wide);
        }
    }

    void topLimitsTheTable()
    {
        QTemporaryDir dir;
        const QString csvPath = dir.filePath(QStringLiteral("diff.csv"));
        const ProcessResult cli =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("diff"), kNamedScopes + QStringLiteral("/trace_file_matmul_*"),
                        kNamedScopes + QStringLiteral("/trace_file_einsum_*"), QStringLiteral("--top"),
                        QStringLiteral("3"), QStringLiteral("--csv"), csvPath});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        const QStringList lines = QString::fromUtf8(cli.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const int header = int(std::find_if(lines.begin(), lines.end(),
                                            [](const QString &l) {
                                                return l.startsWith(QLatin1String("Kernel ")) &&
                                                       l.contains(QLatin1String("Calls/run A"));
                                            }) -
                               lines.begin());
        QVERIFY(header < lines.size());
        const Csv csv = readCsv(csvPath);
        QVERIFY(csv.rows.size() > 3); // the CSV has every row
        for (int r = 0; r < 3; ++r) {
            const QString kernel = csv.value(r, QStringLiteral("kernel"));
            QVERIFY2(kernel.size() < 40, qPrintable(kernel)); // XLA fusion names: shown whole
            QVERIFY2(lines.value(header + 1 + r).startsWith(kernel + QLatin1Char(' ')),
                     qPrintable(lines.value(header + 1 + r)));
        }
        QVERIFY(lines.value(header + 4).startsWith(QStringLiteral("(top 3 of %1 rows").arg(csv.rows.size())));
        QCOMPARE(lines.size(), header + 5);
    }

    // More than two variants: XLA's three flag sets of one JAX GPT (command buffers on as the baseline;
    // off; off with Triton GEMM off), 3 runs each. The CSV has a variant column and each candidate's
    // rows equal the oracle's, whose Holm family spans kernels × candidates; the matrix has every
    // kernel of any side once, each cell the candidate's own row.
    void variantsEqualOracle()
    {
        const QString buffers = testdata::path("jax_h100/jax_command_buffers");
        const QString matmul = QStringLiteral("trace_file_matmul_");
        const QStringList paths = {buffers + QStringLiteral("/trace_file_matmul_*"),
                                   kNamedScopes + QStringLiteral("/trace_file_matmul_*"),
                                   kCublas + QStringLiteral("/trace_file_matmul_*")};
        const QStringList labels = {QStringLiteral("no_buffers"), QStringLiteral("no_triton")};
        QTemporaryDir dir;
        const QString csvPath = dir.filePath(QStringLiteral("variants.csv"));
        const ProcessResult cli = runProcess(
            QStringLiteral(SCOPELINE_CLI),
            {QStringLiteral("diff"), QStringLiteral("buffers=") + paths[0], labels[0] + QLatin1Char('=') + paths[1],
             labels[1] + QLatin1Char('=') + paths[2], QStringLiteral("--csv"), csvPath, QStringLiteral("--top"),
             QStringLiteral("0")});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        const ProcessResult oracleRun = runProcess(
            QStringLiteral(SCOPELINE_PYTHON),
            QStringList{QStringLiteral(SCOPELINE_ORACLE_DIR "/kernel_diff.py"), QStringLiteral("--a")}
                << traceFiles(buffers, matmul) << QStringLiteral("--b") << traceFiles(kNamedScopes, matmul)
                << QStringLiteral("--b") << traceFiles(kCublas, matmul) << QStringLiteral("--label") << labels[0]
                << QStringLiteral("--label") << labels[1]);
        QVERIFY2(oracleRun.exitCode == 0, oracleRun.err.constData());
        const QJsonArray variants = QJsonDocument::fromJson(oracleRun.out).object()[QStringLiteral("variants")].toArray();
        QCOMPARE(variants.size(), 2);
        const Csv all = readCsv(csvPath);
        QCOMPARE(all.header.front(), QStringLiteral("variant"));
        int calls = 0;
        for (int v = 0; v < 2; ++v) {
            QCOMPARE(variants[v].toObject()[QStringLiteral("variant")].toString(), labels[v]);
            Csv one;
            one.header = all.header.mid(1);
            for (const QStringList &row : all.rows)
                if (row.front() == labels[v])
                    one.rows.append(row.mid(1));
            compareWithOracle(one, variants[v].toObject()[QStringLiteral("rows")].toArray());
            for (int r = 0; r < one.rows.size(); ++r)
                calls += one.value(r, QStringLiteral("verdict")).startsWith(QLatin1String("B "));
        }
        QVERIFY(calls > 0);

        // The matrix, in-process: every kernel once, sorted by its largest change in any candidate.
        std::vector<QList<LoadedRun>> candidates = {loadFolder(paths[1]), loadFolder(paths[2])};
        const VariantDiff diff(loadFolder(paths[0]), candidates, labels);
        std::set<QString> kernels;
        for (const KernelDiff &pair : diff.diffs())
            for (const KernelDiffRow &row : pair.rows())
                kernels.insert(row.kernel);
        QCOMPARE(diff.rows().size(), kernels.size());
        double previous = INFINITY;
        for (const VariantKernelRow &row : diff.rows()) {
            QVERIFY(row.largestChangeNs <= previous);
            previous = row.largestChangeNs;
            for (std::size_t c = 0; c < 2; ++c)
                if (row.cells[c]) {
                    QCOMPARE(row.cells[c]->kernel, row.kernel);
                    QCOMPARE(row.baselinePerRunNs, row.cells[c]->a.totalPerRunNs);
                }
        }
        QVERIFY(cli.out.contains("no_triton"));
        QVERIFY(cli.out.contains(" new")); // cuBLAS's kernels replace Triton's GEMM fusions
    }

    // A candidate that cannot be tested (one process against the baseline's four) still says where a
    // kernel ran on one side only, as its pair's rows do: "gone, untested", not a bare "0 ns".
    void untestedCellsSayNewOrGone()
    {
        const QString matmul = testdata::path("h100_runs/jax_processes/matmul"),
                      einsum = testdata::path("h100_runs/jax_processes/einsum");
        REQUIRE_TEST_DATA(matmul, einsum);
        const VariantDiff diff(loadFolder(matmul),
                               {loadFolder(einsum), loadFolder(einsum + QStringLiteral("/proc_0"))},
                               {QStringLiteral("e"), QStringLiteral("e0")});
        const std::vector<TableColumn<VariantKernelRow>> matrix = diff.matrixColumns(QStringLiteral("m"));
        int gone = 0, appeared = 0;
        for (const VariantKernelRow &row : diff.rows()) {
            const KernelDiffRow *cell = row.cells[1];
            if (!cell || !cell->oneSide())
                continue;
            QVERIFY2(cell->verdict != Verdict::OnlyInA && cell->verdict != Verdict::OnlyInB,
                     qPrintable(row.kernel));
            const QString text = matrix[3].display(row);
            if (cell->a.present()) {
                QCOMPARE(text, QStringLiteral("gone, untested"));
                ++gone;
            } else {
                QVERIFY2(text.endsWith(QLatin1String(" new, untested")), qPrintable(text));
                ++appeared;
            }
        }
        QVERIFY(gone > 0 && appeared > 0);
    }

    void exitStatuses_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("status");
        const QString a = kCublas + QStringLiteral("/trace_file_matmul_0");
        const QString b = kCublas + QStringLiteral("/trace_file_einsum_0");
        QTest::newRow("one path") << QStringList{QStringLiteral("diff"), a} << 1;
        QTest::newRow("three paths: a baseline and two candidates")
            << QStringList{QStringLiteral("diff"), a, b, QStringLiteral("again=") + b} << 0;
        QTest::newRow("two variants of one label")
            << QStringList{QStringLiteral("diff"), a, b, b} << 1; // bad usage, before any file is read
        QTest::newRow("a candidate that is not there")
            << QStringList{QStringLiteral("diff"), a, b, QStringLiteral("x=/no/such/folder")} << 2;
        QTest::newRow("alpha out of range")
            << QStringList{QStringLiteral("diff"), a, b, QStringLiteral("--alpha"), QStringLiteral("1.5")}
            << 1;
        QTest::newRow("threshold not a number")
            << QStringList{QStringLiteral("diff"), a, b, QStringLiteral("--threshold"), QStringLiteral("x")}
            << 1;
        QTest::newRow("negative top")
            << QStringList{QStringLiteral("diff"), a, b, QStringLiteral("--top"), QStringLiteral("-1")} << 1;
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("diff"), a, b, QStringLiteral("--scope"), QStringLiteral("x")} << 1;
        QTest::newRow("missing A") << QStringList{QStringLiteral("diff"),
                                                  QStringLiteral("/nonexistent/trace"), b}
                                   << 2;
        QTest::newRow("missing B") << QStringList{QStringLiteral("diff"), a,
                                                  QStringLiteral("/nonexistent/trace")}
                                   << 2;
        QTest::newRow("ok") << QStringList{QStringLiteral("diff"), a, b} << 0;
    }

    void exitStatuses()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, status);
        const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI), arguments);
        QCOMPARE(cli.exitCode, status);
        if (status != 0)
            QVERIFY(!cli.err.isEmpty());
    }

    void unreadableTraceAndUnwritableCsv()
    {
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"traceEvents\": [ this is not json");
        file.close();
        const QString a = kCublas + QStringLiteral("/trace_file_matmul_0");
        QCOMPARE(runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("diff"), a, broken}).exitCode, 2);
        QCOMPARE(
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("diff"), a, a, QStringLiteral("--csv"),
                                                       dir.filePath(QStringLiteral("no/such/dir/diff.csv"))})
                .exitCode,
            2);
    }

    void oneRunSaysVariationNotMeasured()
    {
        const ProcessResult cli =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("diff"), kCublas + QStringLiteral("/trace_file_matmul_0"),
                        kCublas + QStringLiteral("/trace_file_einsum_0")});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        QVERIFY(cli.out.contains("run-to-run variation not measured"));
        QVERIFY(!cli.out.contains("B faster"));
        QVERIFY(!cli.out.contains("B slower"));
        QVERIFY(cli.out.contains("only in A"));
        QVERIFY(cli.out.contains("only in B"));
        // JAX's host range of the jitted call is the step; one run a side: no verdict, and why.
        QVERIFY(cli.out.contains("step time (PjitFunction(<lambda>), mean per step): A "));
        QVERIFY(cli.out.contains(": one run on a side: run-to-run variation not measured; a step every "));
    }

    // The launch chain runs one kernel: "1 kernel", in the CLI's line and the window's header ("1
    // kernels" before). It has no CPU op around its launches (only a user annotation, a scope), so by op
    // its row is still the kernel, and both say so rather than call it an op.
    void oneKernelIsSingular()
    {
        const QString chain = testdata::path("h100_runs/hipbench/launch-chain");
        for (const bool byOp : {false, true}) {
            QStringList arguments = {QStringLiteral("diff"), chain + QStringLiteral("/eager"),
                                     chain + QStringLiteral("/graph")};
            if (byOp)
                arguments << QStringLiteral("--by") << QStringLiteral("op");
            const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI), arguments);
            QVERIFY2(cli.exitCode == 0, cli.err.constData());
            QVERIFY2(cli.out.contains("\n1 kernel: 1 on both sides"), cli.out.constData());
            QCOMPARE(cli.err.contains("--by op: no kernel of A or B has an op"), byOp);
            KernelDiffOptions options;
            options.byOp = byOp;
            const KernelDiff diff(loadFolder(chain + QStringLiteral("/eager")),
                                  loadFolder(chain + QStringLiteral("/graph")), options);
            QVERIFY(!diff.summary().opsFound);
            QVERIFY2(
                diff.headerText().contains(
                    byOp ? QStringLiteral(" · 1 kernel: 1 on both sides, 0 only in A, 0 only in B (no ops: ")
                         : QStringLiteral(" · 1 kernel: 1 on both sides, 0 only in A, 0 only in B")),
                qPrintable(diff.headerText()));
        }
        // PyTorch's aten ops around the launches: ops, called so
        KernelDiffOptions options;
        options.byOp = true;
        const KernelDiff ops(loadFolder(testdata::path("h100_runs/torch_compile/eager")),
                             loadFolder(testdata::path("h100_runs/torch_compile/reduce_overhead")), options);
        QVERIFY(ops.summary().opsFound);
        QVERIFY2(ops.headerText().contains(QStringLiteral(" ops: ")) &&
                     !ops.headerText().contains(QStringLiteral("no ops")),
                 qPrintable(ops.headerText()));
    }

    // True A/A: every 5-vs-5 split of one variant's 10 runs (126 per variant, each split once). Pooled
    // per-sample tests call most of these "significant"; the run-level test must not.
    void calibrationOnAASplits()
    {
        const QList<LoadedRun> all = loadFolder(kRepeated);
        QCOMPARE(all.size(), 20);
        QList<LoadedRun> variants[2];
        for (const LoadedRun &run : all) {
            QVERIFY2(run.ok(), qPrintable(run.error));
            variants[run.run.name.contains(QLatin1String("einsum"))].append(run);
        }
        QCOMPARE(variants[0].size(), 10);
        QCOMPARE(variants[1].size(), 10);

        int64_t rows = 0, tested = 0, below = 0, belowHolm = 0, calls = 0, splits = 0, splitsWithCall = 0;
        for (const QList<LoadedRun> &runs : variants) {
            int64_t variantTested = 0, variantBelow = 0;
            for (int mask = 0; mask < (1 << 10); ++mask) {
                // Five runs on side A, run 0 always among them: each split once, not also mirrored.
                if (__builtin_popcount(unsigned(mask)) != 5 || !(mask & 1))
                    continue;
                QList<LoadedRun> a, b;
                for (int r = 0; r < 10; ++r)
                    ((mask >> r) & 1 ? a : b).append(runs[r]);
                const KernelDiff diff(a, b);
                ++splits;
                const int64_t callsBefore = calls;
                for (const KernelDiffRow &row : diff.rows()) {
                    ++rows;
                    if (!row.runLevel.valid())
                        continue;
                    ++tested;
                    ++variantTested;
                    below += row.runLevel.p < 0.05;
                    variantBelow += row.runLevel.p < 0.05;
                    belowHolm += row.runLevelHolm < 0.05;
                    if (row.verdict == Verdict::Faster || row.verdict == Verdict::Slower) {
                        ++calls;
                        QStringList sideA;
                        for (const LoadedRun &run : a)
                            sideA.append(run.run.name.section(QLatin1Char('_'), -1));
                        qInfo("  called %s: %s, runs %s vs the rest, run-level change %+.2f %%, Holm p %.3g",
                              qPrintable(row.verdictText()), qPrintable(row.kernel),
                              qPrintable(sideA.join(QLatin1Char(' '))), 100 * row.runLevel.change,
                              row.runLevelHolm);
                    }
                }
                splitsWithCall += calls > callsBefore;
            }
            qInfo("%s: %lld of %lld run-level tests with p < 0.05 (%.1f %%)",
                  qPrintable(runs.front().run.name.section(QLatin1Char('_'), 0, -2)), qlonglong(variantBelow),
                  qlonglong(variantTested), 100.0 * double(variantBelow) / double(variantTested));
        }
        qInfo(
            "A/A over %lld splits: %lld rows, %lld tested, raw p < 0.05 in %lld (%.1f %%), Holm p < 0.05 in "
            "%lld, faster/slower verdicts %lld",
            qlonglong(splits), qlonglong(rows), qlonglong(tested), qlonglong(below),
            100.0 * double(below) / double(tested), qlonglong(belowHolm), qlonglong(calls));
        QCOMPARE(splits, int64_t(2 * 126));
        QCOMPARE(tested, rows); // every kernel runs in every run of these traces
        QVERIFY2(double(below) <= 0.10 * double(rows),
                 "run-level p < 0.05 in more than 10 % of the A/A rows");
        // What Holm guarantees: a call in at most alpha of the splits (each split's rows are one family).
        QVERIFY2(double(splitsWithCall) <= 0.05 * double(splits),
                 "faster/slower calls in more than 5 % of splits");
        // Enumerating every split includes, for each kernel, the split that puts its slower runs against
        // its faster ones; that is where the rare call above comes from (matmul's loop_gather_fusion,
        // runs 0 2 6 7 8 against the rest: -1.37 %, Holm p 0.0425, in 1 of 252 splits).
        // The splits a user makes, recording order (runs 0-4 against 5-9) and interleaved (even against
        // odd), call nothing.
        for (const QList<LoadedRun> &runs : variants)
            for (const int mask : {0x01f, 0x155}) {
                QList<LoadedRun> a, b;
                for (int r = 0; r < 10; ++r)
                    ((mask >> r) & 1 ? a : b).append(runs[r]);
                const KernelDiff diff(a, b); // named: rows() refers into it
                for (const KernelDiffRow &row : diff.rows())
                    QVERIFY2(row.verdict != Verdict::Faster && row.verdict != Verdict::Slower,
                             qPrintable(QStringLiteral("%1: %2 in the A/A split %3")
                                            .arg(row.kernel, row.verdictText())
                                            .arg(mask, 10, 2, QLatin1Char('0'))));
            }

        // The real comparison, 10 v 10: matmul vs einsum.
        KernelDiffOptions options;
        options.foldNumbers = true;
        const KernelDiff diff(variants[0], variants[1], options);
        const KernelDiffSummary &s = diff.summary();
        qInfo("matmul vs einsum, 10 v 10 runs, folded: GPU busy per run %.0f vs %.0f ns, kernel time %.0f vs "
              "%.0f ns",
              s.busyPerRunA, s.busyPerRunB, s.kernelTimePerRunA, s.kernelTimePerRunB);
        for (std::size_t i = 0; i < std::min<std::size_t>(8, diff.rows().size()); ++i) {
            const KernelDiffRow &r = diff.rows()[i];
            qInfo("  %-40s total/run %9.0f -> %9.0f ns (delta %+8.0f, share %6.1f %%), run-level change "
                  "%+.2f %%, "
                  "p Holm %.3g: %s",
                  qPrintable(r.kernel.left(40)), r.a.totalPerRunNs, r.b.totalPerRunNs, r.deltaTotalNs,
                  100 * r.shareOfDelta, 100 * r.runLevel.change, r.runLevelHolm, qPrintable(r.verdictText()));
        }
    }
};

QTEST_GUILESS_MAIN(TstKernelDiff)
#include "tst_kerneldiff.moc"
