// SPDX-License-Identifier: GPL-3.0-or-later
// The three result tables (kernel diff, scope comparison, step breakdown) read one column list each
// (model/tables/tablecolumn.h): the Qt model's headers, the CSV's keys, the HTML report's headers and the
// CLI's header all come from it and agree. And every cell the window shows is its column's formatter
// on the Python oracle's value of that column's CSV key, so a column that shows another field fails.

#include "namecheck.h"
#include "reporthtml.h"
#include "testdata.h"
#include "testprocess.h"

#include "model/comparison/kerneldiff.h"
#include "model/comparison/scopecomparison.h"
#include "model/comparison/stepbreakdown.h"
#include "model/comparison/variantsteps.h"
#include "model/loading/loadedrun.h"
#include "model/loading/tracefolder.h"
#include "model/tables/tableformat.h"
#include "widgets/report/reportexporter.h"
#include "widgets/tables/columntablemodel.h"
#include "widgets/tables/comparisontablemodel.h"
#include "widgets/tables/kerneldiffmodel.h"

#include <QtTest>

using namespace scopeline;

namespace {

const QString kCublas = testdata::path("jax_h100/jax_named_scopes_cublas");
const QString kTorch = testdata::path("h100_runs/torch_compile");
const QStringList kScopes = {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"), QStringLiteral("mlp")};

// The trace file of each run folder matching prefix*, as the CLI loads it from such a folder.
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

QList<LoadedRun> loadFiles(const QStringList &files)
{
    QList<LoadedRun> runs;
    for (const QString &file : files)
        runs.append(LoadedRun::load(TraceRun{QFileInfo(file).fileName(), file}));
    return runs;
}

QList<LoadedRun> loadFolder(const QString &path)
{
    QString error;
    return LoadedRun::loadAll(TraceFolder::scan(path, &error));
}

QJsonDocument runOracle(const QStringList &arguments)
{
    const ProcessResult oracle = runProcess(QStringLiteral(SCOPELINE_PYTHON), arguments);
    if (oracle.exitCode != 0)
        qWarning("%s", oracle.err.constData());
    return QJsonDocument::fromJson(oracle.out);
}

template <typename Row> QStringList keysOf(const std::vector<TableColumn<Row>> &columns)
{
    QStringList keys;
    for (const TableColumn<Row> &column : columns)
        keys << column.csvKey;
    return keys;
}

template <typename Row> QStringList titlesOf(const std::vector<TableColumn<Row>> &columns)
{
    QStringList titles;
    for (const TableColumn<Row> &column : columns)
        titles << column.title;
    return titles;
}

// The CLI table's header line, its columns' titles one space apart (the CLI pads with spaces).
QString cliHeader(const QByteArray &out, const QString &first)
{
    for (const QString &line : QString::fromUtf8(out).split(QLatin1Char('\n')))
        if (line.startsWith(first + QLatin1Char(' ')))
            return line.simplified();
    return {};
}

// The model's headers are the table columns' titles and tooltips, and the CSV has every column.
template <typename Row>
void checkModelAndCsv(const QAbstractItemModel &model, const std::vector<TableColumn<Row>> &table,
                      const std::vector<TableColumn<Row>> &all, const std::vector<TableColumn<Row>> &cli,
                      const QString &csv)
{
    QCOMPARE(model.columnCount(), int(table.size()));
    for (int c = 0; c < model.columnCount(); ++c) {
        QCOMPARE(model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString(), table[std::size_t(c)].title);
        QCOMPARE(model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString(), table[std::size_t(c)].tooltip);
    }
    QCOMPARE(csv.section(QLatin1Char('\n'), 0, 0), keysOf(all).join(QLatin1Char(',')));
    const QStringList keys = keysOf(all), tableKeys = keysOf(table);
    QCOMPARE(QSet<QString>(keys.begin(), keys.end()).size(), keys.size()); // one column per key
    for (const QString &key : tableKeys)
        QVERIFY2(keys.contains(key), qPrintable(key));
    for (const QString &key : keysOf(cli)) // the CLI shows a subset of what the window shows
        QVERIFY2(tableKeys.contains(key), qPrintable(key));
}

// Each cell the model shows against the oracle's value of its column: the column's formatter on it.
// A composite cell (an interval beside a change, the change beside its interval) holds the value.
// The columns `blank` names show no value on this row ("–", as the CLI and the report print it).
template <typename Row>
void checkCells(const QAbstractItemModel &model, const std::vector<TableColumn<Row>> &table, int row,
                const QJsonObject &oracle, const QString &where, int &checked, const QStringList &blank = {})
{
    for (int c = 0; c < model.columnCount(); ++c) {
        const TableColumn<Row> &column = table[std::size_t(c)];
        if (blank.contains(column.csvKey)) {
            QVERIFY2(model.index(row, c).data(Qt::DisplayRole).toString() == QStringLiteral("–"),
                     qPrintable(where + QLatin1Char(' ') + column.csvKey));
            continue;
        }
        if (!oracle.contains(column.csvKey))
            continue;
        const QJsonValue value = oracle[column.csvKey];
        const QString shown = model.index(row, c).data(Qt::DisplayRole).toString();
        const QString message = QStringLiteral("%1 %2: shows '%3', oracle %4")
                                    .arg(where, column.csvKey, shown,
                                         QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(
                                             QJsonDocument::Compact)));
        if (value.isNull()) {
            if (!column.text)
                QVERIFY2(shown == QStringLiteral("–"), qPrintable(message));
            continue;
        }
        QVariant expected = value.toVariant();
        if (model.index(row, c).data(Qt::UserRole).typeId() == QMetaType::LongLong)
            expected = QVariant(qlonglong(value.toDouble()));
        if (column.text && value.isString())
            continue; // a label for a key (the step's part): the CSV tests have the key
        const QString formatted = column.format(expected);
        if (column.csvKey == QLatin1String("kernel")) // shown short, told apart (tst_kerneldiffview)
            QVERIFY2(namecheck::shortens(shown, formatted), qPrintable(message));
        else if (column.text)
            QVERIFY2(shown.contains(formatted), qPrintable(message));
        else
            QVERIFY2(shown == formatted, qPrintable(message));
        ++checked;
    }
}

} // namespace

class TstTableColumns : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(kCublas, kTorch);
        QVERIFY2(runProcess(QStringLiteral(SCOPELINE_PYTHON),
                            {QStringLiteral("-c"), QStringLiteral("import scipy, numpy")})
                         .exitCode == 0,
                 "no python3 with numpy and scipy at " SCOPELINE_PYTHON);
        m_filesA = traceFiles(kCublas, QStringLiteral("trace_file_matmul_"));
        m_filesB = traceFiles(kCublas, QStringLiteral("trace_file_einsum_"));
        QCOMPARE(m_filesA.size(), 3);
        m_a = loadFiles(m_filesA);
        m_b = loadFiles(m_filesB);
        m_torchA = loadFolder(kTorch + QStringLiteral("/eager"));
        m_torchB = loadFolder(kTorch + QStringLiteral("/reduce_overhead"));
        QVERIFY(!m_torchA.isEmpty() && !m_torchB.isEmpty());

        // One report with all three tables: its HTML headers are checked per table.
        ReportExporter::Input input;
        input.labelA = QStringLiteral("A");
        input.labelB = QStringLiteral("B");
        input.runsA = m_a;
        input.runsB = m_b;
        input.scopes = kScopes;
        input.rows = comparisonRows();
        m_diff = std::make_unique<KernelDiff>(m_a, m_b);
        m_steps = std::make_unique<StepBreakdown>(m_torchA, m_torchB);
        input.diff = m_diff.get();
        input.steps = m_steps.get();
        QImage picture(8, 8, QImage::Format_RGB32);
        picture.fill(Qt::gray);
        input.boxplot = input.diffChart = input.stepsChart = picture;
        input.timelineA.image = input.timelineB.image = picture;
        QString error;
        QVERIFY2(ReportExporter::exportTo(m_report.path(), input, &error), qPrintable(error));
        QFile index(m_report.filePath(QStringLiteral("index.html")));
        QVERIFY(index.open(QIODevice::ReadOnly));
        m_html = QString::fromUtf8(index.readAll());
    }

    // The CLI table aligns by a terminal's columns, as Python's unicodedata counts them (wide CJK and
    // emoji two, a combining accent none): a CJK and emoji scope name had shifted its row's later columns
    // by 3. A 319-character name is shortened (it had widened every row to 470 columns), told apart from
    // one differing only at its end, and shortened alike on each of its rows.
    void cliTableAlignsByTerminalColumns()
    {
        struct Named
        {
            QString name;
            double value;
        };
        const QString longName =
            QStringLiteral("mlp_") + QStringLiteral("very_long_scope_name_").repeated(15);
        const std::vector<Named> rows{
            {QStringLiteral("attn"), 1},
            {QStringLiteral("Atención·注意力🚀"), 22},
            {QStringLiteral("Mu\u0308ller"), 333}, // u and a combining diaeresis
            {longName + QStringLiteral("a"), 4},
            {longName + QStringLiteral("b"), 5},
            {longName + QStringLiteral("a"), 6},
            // what a terminal acts on: a line break, a tab, a right-to-left override, an escape
            {QStringLiteral("evil\u202Ename\nnext\tcol\u001b[31m"), 7}};
        const std::vector<TableColumn<Named>> columns{
            {QStringLiteral("name"),
             QStringLiteral("Name"),
             {},
             [](const Named &r) { return QVariant(r.name); },
             cell::text,
             {},
             -8},
            {QStringLiteral("value"),
             QStringLiteral("Value"),
             {},
             [](const Named &r) { return QVariant(r.value); },
             cell::count,
             {},
             6},
            {QStringLiteral("end"),
             QStringLiteral("E"),
             {},
             [](const Named &) { return QVariant(QStringLiteral("e")); },
             cell::text}};
        const QString table = tableText(columns, rows);
        const QStringList lines = table.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), int(rows.size()) + 1);
        QProcess python;
        python.start(
            QStringLiteral(SCOPELINE_PYTHON),
            {QStringLiteral("-c"),
             QStringLiteral(
                 "import sys, unicodedata as u\n"
                 "for line in sys.stdin.buffer.read().decode('utf-8').split('\\n')[:-1]:\n"
                 "    acts = any(u.category(c) == 'Cc' or u.bidirectional(c) in "
                 "('LRE','RLE','LRO','RLO','PDF','LRI','RLI','FSI','PDI','LRM','RLM') for c in line)\n"
                 "    print(-1 if acts else sum(0 if u.combining(c) else 2 if u.east_asian_width(c) in 'WF' "
                 "else 1 for c in line))")});
        QVERIFY(python.waitForStarted());
        python.write(table.toUtf8());
        python.closeWriteChannel();
        QVERIFY(python.waitForFinished());
        const QStringList columnsOfLines =
            QString::fromUtf8(python.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(columnsOfLines.size(), lines.size());
        for (const QString &width : columnsOfLines)
            QVERIFY2(width == columnsOfLines.front(),
                     qPrintable(table)); // each line ends in one-column "E"/"e"
        QVERIFY2(columnsOfLines.front().toInt() <= 60 + 1 + 6 + 1 + 1, qPrintable(table));
        const QString first = lines[4].left(lines[4].indexOf(QLatin1Char(' '))),
                      second = lines[5].left(lines[5].indexOf(QLatin1Char(' ')));
        QVERIFY2(first != second && first.endsWith(QLatin1Char('a')) && second.endsWith(QLatin1Char('b')),
                 qPrintable(table));
        QVERIFY(lines[6].startsWith(first + QLatin1Char(' ')));
        QVERIFY2(lines[7].startsWith(QLatin1String("evil\\u202ename\\u000anext\\u0009col\\u001b[31m ")),
                 qPrintable(lines[7]));
    }

    // The Variants tab shows every column the CLI prints, the verdict and ratio beside the component
    // (at the right edge, a laptop's window cut them off).
    void variantStepsTableHasEveryColumn()
    {
        const QStringList table = keysOf(VariantSteps::tableColumns()), all = keysOf(VariantSteps::columns());
        QCOMPARE(QSet<QString>(table.begin(), table.end()), QSet<QString>(all.begin(), all.end()));
        QCOMPARE(table.size(), all.size());
        QCOMPARE(table.mid(0, 4), (QStringList{QStringLiteral("variant"), QStringLiteral("component"),
                                               QStringLiteral("verdict"), QStringLiteral("ratio")}));
    }

    void kernelDiffAgrees()
    {
        // The table shows the columns its keys name, in their order; the model finds them by key.
        const std::vector<TableColumn<KernelDiffRow>> table = KernelDiff::tableColumns();
        const QStringList keys = {QStringLiteral("kernel"),
                                  QStringLiteral("verdict"),
                                  QStringLiteral("run_level_change"),
                                  QStringLiteral("per_call_change"),
                                  QStringLiteral("delta_total_ns"),
                                  QStringLiteral("share_of_delta"),
                                  QStringLiteral("total_a_ns"),
                                  QStringLiteral("total_b_ns"),
                                  QStringLiteral("calls_a"),
                                  QStringLiteral("calls_b"),
                                  QStringLiteral("median_a_ns"),
                                  QStringLiteral("median_b_ns"),
                                  QStringLiteral("rel_change_median"),
                                  QStringLiteral("run_level_p"),
                                  QStringLiteral("run_level_ci_level"), // the levels of the intervals
                                  QStringLiteral("per_call_ci_level")};
        QCOMPARE(keysOf(table), keys);
        QCOMPARE(KernelDiffModel::column("calls_b"), keys.indexOf(QStringLiteral("calls_b")));
        QCOMPARE(KernelDiffModel::column("run_level_p"), keys.indexOf(QStringLiteral("run_level_p")));
        QCOMPARE(KernelDiffModel::column("caveat"), -1); // in the CSV, not the table

        KernelDiffModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDiff(std::make_shared<const KernelDiff>(m_a, m_b));
        QCOMPARE(model.columnCount(), int(table.size()));
        checkModelAndCsv(model, table, KernelDiff::columns(), KernelDiff::cliColumns(), m_diff->toCsv());
        QVERIFY2(m_html.contains(htmlHeader(table)), "the report's kernel table");

        const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI),
                                             {QStringLiteral("diff"), kCublas + QStringLiteral("/trace_file_matmul_*"),
                                              kCublas + QStringLiteral("/trace_file_einsum_*")});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        QCOMPARE(cliHeader(cli.out, QStringLiteral("Kernel")), titlesOf(KernelDiff::cliColumns()).join(QLatin1Char(' ')));

        // By op the first column is the op, everywhere.
        KernelDiffOptions byOp;
        byOp.byOp = true;
        model.setDiff(std::make_shared<const KernelDiff>(m_a, m_b, byOp));
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), KernelDiff::columns(byOp).front().title);
        QCOMPARE(KernelDiff::cliColumns(byOp).front().title, QStringLiteral("Op"));
    }

    // Mutation testing showed a column showing A's calls as B's: each cell is checked by its CSV key.
    void kernelDiffCellsAreTheOracles()
    {
        const QJsonObject oracle =
            runOracle(QStringList{QStringLiteral(SCOPELINE_ORACLE_DIR "/kernel_diff.py"), QStringLiteral("--a")}
                      << m_filesA << QStringLiteral("--b") << m_filesB)
                .object();
        const QJsonArray rows = oracle[QStringLiteral("rows")].toArray();
        KernelDiffModel model;
        model.setDiff(std::make_shared<const KernelDiff>(m_a, m_b));
        QCOMPARE(model.rowCount(), int(rows.size()));
        QVERIFY(model.rowCount() > 3);
        int checked = 0;
        for (int r = 0; r < model.rowCount(); ++r)
            checkCells(model, KernelDiff::tableColumns(), r, rows[r].toObject(),
                       QStringLiteral("row %1 (%2)").arg(r).arg(model.row(r).kernel.left(50)), checked);
        QVERIFY(checked > model.rowCount() * 10); // most columns have a value on most rows
    }

    void scopeComparisonAgrees()
    {
        const std::vector<TableColumn<ComparisonRow>> table = ScopeComparison::tableColumns();
        QCOMPARE(int(table.size()), int(ScopeComparison::tableKeys().size()));
        QCOMPARE(table[ComparisonTableModel::column("mwu_p_holm")].csvKey, QStringLiteral("mwu_p_holm"));
        QCOMPARE(table[ComparisonTableModel::column("hl_ci_low_ns")].csvKey, QStringLiteral("hl_ci_low_ns"));
        QCOMPARE(table[ComparisonTableModel::column("run_level_change")].csvKey,
                 QStringLiteral("run_level_change"));
        QCOMPARE(table[ComparisonTableModel::column("verdict")].csvKey, QStringLiteral("verdict"));
        QCOMPARE(table[ComparisonTableModel::column("iqr_b_ns")].csvKey, QStringLiteral("iqr_b_ns"));

        ComparisonTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const std::vector<ComparisonRow> rows = comparisonRows();
        model.setRows(rows);
        checkModelAndCsv(model, table, ScopeComparison::columns(), ScopeComparison::cliColumns(),
                         ScopeComparison::toCsv(rows));
        QVERIFY2(m_html.contains(htmlHeader(table)), "the report's statistics table");

        QStringList arguments{QStringLiteral("compare"), kCublas + QStringLiteral("/trace_file_matmul_*"),
                              kCublas + QStringLiteral("/trace_file_einsum_*")};
        for (const QString &scope : kScopes)
            arguments << QStringLiteral("--scope") << scope;
        const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI), arguments);
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        QCOMPARE(cliHeader(cli.out, QStringLiteral("Scope")),
                 titlesOf(ScopeComparison::cliColumns()).join(QLatin1Char(' ')));

        // The verdict column judges with the model's alpha and threshold, its tooltip says them.
        model.setThreshold(0.05);
        QCOMPARE(model.headerData(ComparisonTableModel::column("verdict"), Qt::Horizontal, Qt::ToolTipRole)
                     .toString(),
                 ScopeComparison::tableColumns(0.05, 0.05)[ComparisonTableModel::column("verdict")].tooltip);
    }

    void scopeComparisonCellsAreTheOracles()
    {
        const QJsonArray expected =
            runOracle(QStringList{QStringLiteral(SCOPELINE_ORACLE_DIR "/compare_oracle.py"), QStringLiteral("compare"),
                                  QStringLiteral("--samples"), QStringLiteral("kernel"), QStringLiteral("--a")}
                      << m_filesA << QStringLiteral("--b") << m_filesB << QStringLiteral("--scope") << kScopes)
                .array();
        ComparisonTableModel model;
        model.setRows(comparisonRows());
        QCOMPARE(model.rowCount(), int(expected.size()));
        int checked = 0;
        // the per-sample tests of a pooled row, calls pooled across runs, are not shown beside its verdict
        const QStringList perSampleTests =
            QStringLiteral("ranksum_p mwu_p mwu_p_holm hl_ci_low_ns hl_ci_level").split(QLatin1Char(' '));
        for (int r = 0; r < model.rowCount(); ++r)
            checkCells(model, ScopeComparison::tableColumns(), r, expected[r].toObject(),
                       QStringLiteral("%1 run %2").arg(model.row(r).scope, model.row(r).run), checked,
                       model.row(r).isPooled() ? perSampleTests : QStringList());
        QVERIFY(checked > model.rowCount() * 10);
    }

    void stepBreakdownAgrees()
    {
        ColumnTableModel<StepRow> model(StepBreakdown::columns());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(m_steps->rows());
        checkModelAndCsv(model, StepBreakdown::columns(), StepBreakdown::columns(), StepBreakdown::cliColumns(),
                         m_steps->toCsv());
        QVERIFY2(m_html.contains(htmlHeader(StepBreakdown::columns())), "the report's step table");
        const ProcessResult cli =
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("steps"), kTorch + QStringLiteral("/eager"),
                                                       kTorch + QStringLiteral("/reduce_overhead")});
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        QCOMPARE(cliHeader(cli.out, QStringLiteral("Component")),
                 titlesOf(StepBreakdown::cliColumns()).join(QLatin1Char(' ')));
    }

    void stepBreakdownCellsAreTheOracles()
    {
        const QJsonObject oracle =
            runOracle({QStringLiteral(SCOPELINE_ORACLE_DIR "/step_breakdown.py"), QStringLiteral("--step"),
                       m_steps->stepScope(), kTorch + QStringLiteral("/eager"),
                       kTorch + QStringLiteral("/reduce_overhead")})
                .object();
        const QJsonArray rows = oracle[QStringLiteral("rows")].toArray();
        ColumnTableModel<StepRow> model(StepBreakdown::columns());
        model.setRows(m_steps->rows());
        QCOMPARE(model.rowCount(), int(rows.size()));
        int checked = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            QJsonObject row = rows[r].toObject();
            row.remove(QStringLiteral("verdict")); // the oracle's verdict is a word, not the text
            checkCells(model, StepBreakdown::columns(), r, row, stepPartKey(StepPart(r)), checked);
        }
        QVERIFY(checked > model.rowCount() * 8);
    }

private:
    std::vector<ComparisonRow> comparisonRows() const
    {
        return ScopeComparison(scopeIndexes(m_a), scopeIndexes(m_b))
            .compare(kScopes, MatchMode::Component, SampleMode::Kernel);
    }

    QStringList m_filesA, m_filesB;
    QList<LoadedRun> m_a, m_b, m_torchA, m_torchB;
    std::unique_ptr<KernelDiff> m_diff;
    std::unique_ptr<StepBreakdown> m_steps;
    QTemporaryDir m_report;
    QString m_html;
};

QTEST_MAIN(TstTableColumns)
#include "tst_tablecolumns.moc"
