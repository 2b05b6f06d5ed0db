// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison panel's models on the real JAX H100 traces (matmul vs einsum with cuBLAS): the scope list
// with its counts per side and the statistics table, both under QAbstractItemModelTester, checked against
// the independent scipy oracle (tests/oracle/compare_oracle.py).

#include "testdata.h"
#include "testprocess.h"

#include "model/loading/loadedrun.h"
#include "model/tables/tableformat.h"
#include "model/loading/tracefolder.h"
#include "stats/runlevel.h"
#include "widgets/tables/comparisontablemodel.h"
#include "widgets/tables/scopelistmodel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSortFilterProxyModel>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace scopeline;

namespace {

const QString kCublas = testdata::path("jax_h100/jax_named_scopes_cublas");
const QString kNamedScopes = testdata::path("jax_h100/jax_named_scopes");
const QString kOracle = QStringLiteral(SCOPELINE_ORACLE_DIR "/compare_oracle.py");
const QStringList kScopes = {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"), QStringLiteral("mlp")};

QList<LoadedRun> loadSide(const QString &pattern)
{
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(pattern, &error);
    if (runs.empty())
        qWarning("%s", qPrintable(error));
    return LoadedRun::loadAll(runs);
}

QStringList files(const QList<LoadedRun> &runs)
{
    QStringList result;
    for (const LoadedRun &run : runs)
        result.append(run.run.file);
    return result;
}

std::vector<const ScopeIndex *> indexes(const QList<LoadedRun> &runs)
{
    std::vector<const ScopeIndex *> result;
    for (const LoadedRun &run : runs)
        result.push_back(run.scopes.get());
    return result;
}

QJsonDocument runOracle(const QStringList &arguments)
{
    const ProcessResult result =
        runProcess(QStringLiteral(SCOPELINE_PYTHON), QStringList{kOracle} + arguments);
    if (result.exitCode != 0)
        qWarning("oracle failed: %s", result.err.constData());
    return QJsonDocument::fromJson(result.out);
}

bool oracleAvailable()
{
    return runProcess(QStringLiteral(SCOPELINE_PYTHON),
                      {QStringLiteral("-c"), QStringLiteral("import scipy, numpy")})
               .exitCode == 0;
}

bool closeTo(double actual, double expected, double relative = 1e-9)
{
    if (std::isnan(actual) || std::isnan(expected))
        return std::isnan(actual) && std::isnan(expected);
    return std::fabs(actual - expected) <= relative * std::max(std::fabs(expected), 1e-300);
}

int findRow(const QAbstractItemModel &model, const QString &scope, const QString &run)
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, ComparisonTableModel::column("scope"))
                    .data(ComparisonTableModel::RawValueRole) == scope &&
            model.index(row, ComparisonTableModel::column("run")).data().toString() == run)
            return row;
    return -1;
}

} // namespace

class TstComparisonModels : public QObject
{
    Q_OBJECT

private:
    QList<LoadedRun> m_a, m_b;

    double raw(const QAbstractItemModel &model, int row, int column) const
    {
        return model.index(row, column).data(ComparisonTableModel::RawValueRole).toDouble();
    }

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(kCublas);
        m_a = loadSide(kCublas + QStringLiteral("/trace_file_matmul_*"));
        m_b = loadSide(kCublas + QStringLiteral("/trace_file_einsum_*"));
        QCOMPARE(m_a.size(), 3);
        QCOMPARE(m_b.size(), 3);
        for (const LoadedRun &run : m_a + m_b)
            QVERIFY2(run.ok(), qPrintable(run.error));
    }

    void scopeListUnderTester()
    {
        ScopeListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(ScopeListModel::RawValueRole);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        QCOMPARE(model.columnCount(), int(ScopeListModel::NUM_COLUMNS));
        model.setSides(m_a, m_b);
        QVERIFY(model.rowCount() > 3);
        for (const QString &scope : kScopes)
            QVERIFY2(model.rowOf(scope) >= 0, qPrintable(scope));

        // Sorting by the raw counts: descending kernels of A puts the largest first.
        proxy.sort(ScopeListModel::KernelsAColumn, Qt::DescendingOrder);
        qint64 previous = std::numeric_limits<qint64>::max();
        for (int row = 0; row < proxy.rowCount(); ++row) {
            const QVariant value =
                proxy.index(row, ScopeListModel::KernelsAColumn).data(ScopeListModel::RawValueRole);
            QCOMPARE(value.typeId(), int(QMetaType::LongLong));
            QVERIFY(value.toLongLong() <= previous);
            previous = value.toLongLong();
        }
        proxy.sort(ScopeListModel::ScopeColumn, Qt::AscendingOrder);

        // A pattern row counts what it matches; a mode change recounts it.
        model.setMatchMode(MatchMode::Substring);
        const int row = model.addPattern(QStringLiteral("attn_"));
        QCOMPARE(row, model.rowCount() - 1);
        QVERIFY(model.entry(row).pattern);
        const qint64 both = model.entry(model.rowOf(QStringLiteral("attn_q_k"))).kernelsA +
                            model.entry(model.rowOf(QStringLiteral("attn_att_v"))).kernelsA;
        QCOMPARE(model.entry(row).kernelsA, both);
        QCOMPARE(model.addPattern(QStringLiteral("attn_")), row); // no duplicate
        model.setMatchMode(MatchMode::Component);
        QCOMPARE(model.entry(row).kernelsA, qint64(0));
        QVERIFY(model.index(row, 0).data(ScopeListModel::IsPatternRole).toBool());
        QVERIFY(model.index(row, 0).data(Qt::FontRole).value<QFont>().italic());

        // Patterns survive new sides; removing them removes rows.
        model.setSides(m_a, m_b);
        QCOMPARE(model.rowOf(QStringLiteral("attn_")), row);
        model.removePatterns();
        QCOMPARE(model.rowOf(QStringLiteral("attn_")), -1);
        model.setSides({}, {});
        QCOMPARE(model.rowCount(), 0);
    }

    void scopeCountsEqualOracle()
    {
        QVERIFY2(oracleAvailable(), "no python3 with numpy and scipy at " SCOPELINE_PYTHON
                                    " for the oracle (packaging/setup.sh installs them)");
        ScopeListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSides(m_a, m_b);
        for (int side = 0; side < 2; ++side) {
            const QStringList traceFiles = files(side == 0 ? m_a : m_b);
            QMap<QString, qint64> expected;
            for (const QString &file : traceFiles) {
                const QJsonObject counts =
                    runOracle(QStringList{QStringLiteral("count"), file} + kScopes).object();
                for (const QString &scope : kScopes)
                    expected[scope] += counts.value(scope).toInteger(-1);
            }
            for (const QString &scope : kScopes) {
                const int row = model.rowOf(scope);
                const int column =
                    side == 0 ? ScopeListModel::KernelsAColumn : ScopeListModel::KernelsBColumn;
                const QModelIndex index = model.index(row, column);
                QCOMPARE(index.data(ScopeListModel::RawValueRole).toLongLong(), expected[scope]);
                QCOMPARE(index.data(Qt::DisplayRole).toString(), QString::number(expected[scope]));
            }
        }
        QVERIFY(model.entry(model.rowOf(QStringLiteral("attn_q_k"))).kernelsA > 0);
    }

    void scopeOnOneSideIsGreyed()
    {
        REQUIRE_TEST_DATA(kNamedScopes + QStringLiteral("/trace_file_matmul_0"),
                          kNamedScopes + QStringLiteral("/trace_file_einsum_0"));
        const QList<LoadedRun> a = loadSide(kNamedScopes + QStringLiteral("/trace_file_matmul_0"));
        const QList<LoadedRun> b = loadSide(kNamedScopes + QStringLiteral("/trace_file_einsum_0"));
        ScopeListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSides(a, b);
        const int row = model.rowOf(QStringLiteral("attn_q_k"));
        QVERIFY(row >= 0);
        const QModelIndex kernelsA = model.index(row, ScopeListModel::KernelsAColumn);
        QCOMPARE(kernelsA.data().toString(), QStringLiteral("0"));
        QVERIFY(!kernelsA.data(ScopeListModel::PresentInARole).toBool());
        QVERIFY(kernelsA.data(ScopeListModel::PresentInBRole).toBool());
        QVERIFY(kernelsA.data(Qt::ForegroundRole).isValid()); // greyed
        QVERIFY(kernelsA.data(Qt::ToolTipRole).toString().contains(QLatin1String("not found in A")));
        QVERIFY(!model.index(row, ScopeListModel::KernelsBColumn).data(Qt::ForegroundRole).isValid());
    }

    void tableUnderTester()
    {
        ComparisonTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(ComparisonTableModel::RawValueRole);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.columnCount(), int(ScopeComparison::tableKeys().size()));
        QCOMPARE(model.headerData(ComparisonTableModel::column("verdict"), Qt::Horizontal).toString(),
                 QStringLiteral("Verdict"));

        const ScopeComparison comparison(indexes(m_a), indexes(m_b));
        model.setRows(comparison.compare(kScopes, MatchMode::Component, SampleMode::Kernel));
        QCOMPARE(model.rowCount(), int(kScopes.size() * 4));
        // The run-level columns: on the pooled rows only (3 v 3 runs), as the comparison computed them
        // (checked against scipy in tst_runlevel).
        for (int r = 0; r < model.rowCount(); ++r) {
            const ComparisonRow &row = model.row(r);
            const QModelIndex change = model.index(r, ComparisonTableModel::column("run_level_change"));
            QCOMPARE(row.hasRunLevel(), row.isPooled());
            if (row.isPooled()) {
                QCOMPARE(change.data(ComparisonTableModel::RawValueRole).toDouble(), row.runLevel.change);
                QVERIFY(change.data().toString().contains(QLatin1Char('[')));
                QCOMPARE(model.index(r, ComparisonTableModel::column("run_level_p"))
                             .data(ComparisonTableModel::RawValueRole)
                             .toDouble(),
                         row.runLevelHolm);
            } else {
                QCOMPARE(change.data().toString(), QStringLiteral("–"));
                // not tested: no value, like the change beside it
                QCOMPARE(model.index(r, ComparisonTableModel::column("run_level_p")).data().toString(),
                         QStringLiteral("–"));
            }
        }
        proxy.sort(ComparisonTableModel::column("mwu_p"));
        proxy.sort(ComparisonTableModel::column("verdict"), Qt::DescendingOrder);
        model.setThreshold(0.2);
        model.setThreshold(0.01);
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
        model.setRows(comparison.compare({QStringLiteral("mlp")}, MatchMode::Component, SampleMode::Span));
        QCOMPARE(model.rowCount(), 4);
    }

    void pooledRowEqualsOracle_data()
    {
        QTest::addColumn<QString>("samples");
        QTest::newRow("per kernel") << QStringLiteral("kernel");
        QTest::newRow("per instance") << QStringLiteral("instance");
    }

    void pooledRowEqualsOracle()
    {
        QVERIFY2(oracleAvailable(), "no python3 with numpy and scipy at " SCOPELINE_PYTHON
                                    " for the oracle (packaging/setup.sh installs them)");
        QFETCH(QString, samples);
        SampleMode mode;
        QVERIFY(parseSampleMode(samples, mode));
        ComparisonTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(
            ScopeComparison(indexes(m_a), indexes(m_b)).compare(kScopes, MatchMode::Component, mode));

        const QJsonArray oracle =
            runOracle(QStringList{QStringLiteral("compare"), QStringLiteral("--samples"), samples,
                                  QStringLiteral("--a")} +
                      files(m_a) + QStringList{QStringLiteral("--b")} + files(m_b) +
                      QStringList{QStringLiteral("--scope")} + kScopes)
                .array();
        QCOMPARE(oracle.size(), model.rowCount());
        for (const QJsonValue &value : oracle) {
            const QJsonObject expected = value.toObject();
            const QString scope = expected.value(QStringLiteral("scope")).toString();
            const QString run = expected.value(QStringLiteral("run")).toString();
            const int row = findRow(model, scope, run);
            QVERIFY2(row >= 0, qPrintable(scope + QLatin1Char('/') + run));
            using M = ComparisonTableModel;
            for (const char *key :
                 {"n_a", "n_b", "mean_a_ns", "mean_b_ns", "std_a_ns", "std_b_ns", "median_a_ns",
                  "median_b_ns", "ranksum_z", "ranksum_p", "mwu_u", "mwu_p", "mwu_p_holm", "hl_shift_ns",
                  "hl_ci_low_ns", "hl_ci_level", "rel_change_median", "cliffs_delta"}) {
                const int column = M::column(key);
                const double actual = raw(model, row, column);
                // a pooled row is judged by its run-level test alone: no per-sample test beside it
                const bool hidden =
                    run == QLatin1String("all") &&
                    QByteArrayList{"ranksum_p", "mwu_p", "mwu_p_holm", "hl_ci_low_ns", "hl_ci_level"}
                        .contains(key);
                const double want =
                    hidden ? std::nan("") : expected.value(QLatin1String(key)).toDouble(std::nan(""));
                QVERIFY2(closeTo(actual, want), qPrintable(QStringLiteral("%1/%2 %3: %4 vs oracle %5")
                                                               .arg(scope, run, QLatin1String(key))
                                                               .arg(actual, 0, 'g', 17)
                                                               .arg(want, 0, 'g', 17)));
            }
            QVERIFY(closeTo(model.index(row, 0).data(M::CiHighRole).toDouble(),
                            expected.value(QStringLiteral("hl_ci_high_ns")).toDouble()));
        }

        // The pooled attn_q_k row, displayed: durations with units, p-values with three significant digits.
        const int pooled = findRow(model, QStringLiteral("attn_q_k"), QStringLiteral("all"));
        QVERIFY(model.index(pooled, 0).data(ComparisonTableModel::PooledRole).toBool());
        const QString median =
            model.index(pooled, ComparisonTableModel::column("median_a_ns")).data().toString();
        QVERIFY2(median.endsWith(QStringLiteral(" µs")) || median.endsWith(QStringLiteral(" ns")),
                 qPrintable(median));
        // its per-sample test is not shown beside the run-level verdict; a run pair's is
        QVERIFY(std::isnan(raw(model, pooled, ComparisonTableModel::column("mwu_p"))));
        QCOMPARE(model.index(pooled, ComparisonTableModel::column("mwu_p")).data().toString(),
                 QStringLiteral("–"));
        const int pair = findRow(model, QStringLiteral("attn_q_k"), QStringLiteral("1"));
        const QString p = model.index(pair, ComparisonTableModel::column("mwu_p")).data().toString();
        QCOMPARE(p, formatPValue(raw(model, pair, ComparisonTableModel::column("mwu_p"))));
        QCOMPARE(model.index(pooled, ComparisonTableModel::column("verdict")).data().toString(),
                 verdictText(Verdict::Faster));
    }

    void pValueFormat()
    {
        QCOMPARE(formatPValue(1.27e-111), QStringLiteral("1.27e-111"));
        QCOMPARE(formatPValue(0.000123456), QStringLiteral("1.23e-04"));
        QCOMPARE(formatPValue(0.0123456), QStringLiteral("0.0123"));
        QCOMPARE(formatPValue(0.5), QStringLiteral("0.5"));
        // a tiny p reads as a number (the tables used to say "< 1e-323", a caption nothing at all)
        QCOMPARE(formatPValue(1e-300), QStringLiteral("1e-300"));
        QCOMPARE(formatPValue(2.5e-12), QStringLiteral("2.5e-12"));
        QCOMPARE(formatPValue(4.94e-322), QStringLiteral("4.94e-322"));
        for (double p : {1e-300, 1e-200, 1e-50, 1e-5})
            QVERIFY(!formatPValue(p).isEmpty() &&
                    !formatPValue(p).startsWith(QLatin1Char('<')));
        // no test: a dash
        QCOMPARE(formatPValue(std::nan("")), QStringLiteral("–"));
    }

    // An interval's nonzero end never reads as 0: whether it excludes 0 is what its verdict says.
    void intervalEndsAreNotZero()
    {
        QCOMPARE(formatChangeInterval(-0.004, -0.0087, -0.00001), QStringLiteral("-0.40 % [-0.870, -0.001]"));
        QCOMPARE(formatChangeInterval(0.006, -0.00004, 0.013), QStringLiteral("+0.60 % [-0.004, +1.300]"));
        QCOMPARE(formatChangeInterval(0.05, 0.01, 0.09), QStringLiteral("+5.00 % [+1.00, +9.00]"));
        QCOMPARE(intervalDecimals(-0.0087, -0.00001, 1), 3); // -0.001 %
        QCOMPARE(intervalDecimals(0, 0.02, 1), 1);           // an end at 0 is 0
        // rounding about 0 (identical runs a side) gets no digits that would show only zeros
        QCOMPARE(intervalDecimals(-3e-17, 3e-17, 1), 1);
        QCOMPARE(formatChangeInterval(0, -3e-17, 3e-17), QStringLiteral("+0.00 % [-0.00, +0.00]"));
        QCOMPARE(intervalDecimals(-3e-9, 0.02, 1), 1);
        QCOMPARE(intervalDecimals(-3e-8, 0.02, 1), 6); // -0.000003 %
    }

    // A percentage that rounds to nothing reads as 0, never "-0.0 %" (a share of a tiny negative Δ).
    void percentsAreNeverNegativeZero()
    {
        QCOMPARE(formatPercent(-0.0004), QStringLiteral("0.0 %"));
        QCOMPARE(formatPercent(-0.0), QStringLiteral("0.0 %"));
        QCOMPARE(formatPercent(-0.00004, 2), QStringLiteral("0.00 %"));
        QCOMPARE(formatPercent(-0.0006), QStringLiteral("-0.1 %"));
        QCOMPARE(formatPercent(0.125, 1), QStringLiteral("12.5 %"));
        QCOMPARE(formatPercent(std::nan("")), QString());
    }

    // A pooled row whose run medians tie on each side (timer ticks): its verdict's tooltip says why the
    // p is what it is; a caveat given to the model is said by every run-level verdict.
    void tiedAndCaveatToolTips()
    {
        ComparisonTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::vector<ComparisonRow> rows = ScopeComparison(indexes(m_a), indexes(m_b))
                                              .compare(kScopes, MatchMode::Component, SampleMode::Kernel);
        const auto pooled =
            std::find_if(rows.begin(), rows.end(), [](const ComparisonRow &r) { return r.hasRunLevel(); });
        QVERIFY(pooled != rows.end());
        pooled->runLevel = stats::runLevelTest({3808, 3808, 3808}, {3456, 3456, 3456});
        QVERIFY(pooled->runLevel.tied);
        QVERIFY(pooled->runLevel.p > 0);
        const int row = int(pooled - rows.begin());
        const double confidence = pooled->runLevel.confidence;
        model.setRows(std::move(rows));
        const QModelIndex verdict = model.index(row, ComparisonTableModel::column("verdict"));
        QString tip = verdict.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QLatin1String("Every run gave the same value on each side")), qPrintable(tip));
        // the test's units and its interval's level, as the table's row has them
        QVERIFY2(tip.contains(QStringLiteral("on the 3 v 3 run medians")) &&
                     tip.contains(QStringLiteral("at %1 confidence").arg(formatPercent(confidence))),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("tested as values known to one timer step")), qPrintable(tip));
        QVERIFY(!tip.contains(QLatin1String("Caveat")));
        QVERIFY(!model.index(row == 0 ? 1 : 0, ComparisonTableModel::column("verdict"))
                     .data(Qt::ToolTipRole)
                     .toString()
                     .contains(QLatin1String("Every run gave")));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        const QString caveat =
            QStringLiteral("one process a side: differences between processes not measured");
        model.setCaveat(caveat);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model.caveat(), caveat);
        for (int r = 0; r < model.rowCount(); ++r)
            QCOMPARE(model.index(r, ComparisonTableModel::column("verdict"))
                         .data(Qt::ToolTipRole)
                         .toString()
                         .contains(QStringLiteral("Caveat: %1.").arg(caveat)),
                     model.row(r).hasRunLevel() && model.row(r).comparable());
        model.setCaveat(caveat); // the same: nothing to tell
        QCOMPARE(changed.size(), 1);
    }

    void thresholdFlipsVerdict()
    {
        ComparisonTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(ScopeComparison(indexes(m_a), indexes(m_b))
                          .compare(kScopes, MatchMode::Component, SampleMode::Instance));
        // Run pair 2 (per-sample verdict): the pooled row's run-level test finds nothing in mlp.
        QCOMPARE(model.row(findRow(model, QStringLiteral("mlp"), QStringLiteral("all"))).verdict(0.05, 0.001),
                 Verdict::NoSignificantChange);
        const int row = findRow(model, QStringLiteral("mlp"), QStringLiteral("2"));
        QVERIFY(row >= 0);
        const QModelIndex verdict = model.index(row, ComparisonTableModel::column("verdict"));
        QVERIFY(model.row(row).mannWhitneyHolm < 0.05);
        QVERIFY(std::fabs(model.row(row).relativeChange) < 0.01);
        QCOMPARE(model.threshold(), 0.01);
        // beside its pooled row, a run pair's change is of those two runs: said so, and not coloured
        QCOMPARE(verdict.data().toString(),
                 verdictText(Verdict::NoMeaningfulChange) + QStringLiteral(" in this run pair"));
        QCOMPARE(verdict.data(Qt::ForegroundRole).value<QBrush>().color(),
                 ComparisonTableModel::verdictColor(Verdict::NoSignificantChange));

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setThreshold(0.001);
        QCOMPARE(changed.size(), 1);
        const Verdict now = model.row(row).relativeChange < 0 ? Verdict::Faster : Verdict::Slower;
        QCOMPARE(verdict.data().toString(), verdictText(now) + QStringLiteral(" in this run pair"));
        QCOMPARE(verdict.data(ComparisonTableModel::RawValueRole).toInt(), int(now));
        QCOMPARE(verdict.data(Qt::ForegroundRole).value<QBrush>().color(),
                 ComparisonTableModel::verdictColor(Verdict::NoSignificantChange));
        QVERIFY(!verdict.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(verdict.data(Qt::ToolTipRole).toString().contains(QLatin1String("0.1 %")));
        model.setThreshold(0.01);
        QCOMPARE(verdict.data().toString(),
                 verdictText(Verdict::NoMeaningfulChange) + QStringLiteral(" in this run pair"));
    }

    // A 1 v 1 verdict row says both what it could not measure and that it compares two mixes of kernels.
    void kernelMixBesideAOneRunVerdict()
    {
        ComparisonRow row;
        row.scope = QStringLiteral("mlp");
        row.run = QStringLiteral("1");
        row.a.n = 160;
        row.b.n = 120;
        row.runsA = row.runsB = 1;
        row.verdictRow = true;
        row.mannWhitneyHolm = 1e-3;
        row.relativeChange = 0.1;
        row.kernelMix = ScopeComparison::kernelMixNote(160, 120);
        QCOMPARE(row.verdict(), Verdict::Slower);
        // said first, as the cell may show only the text's start, and not shown as a finding
        QCOMPARE(row.verdictText(), QStringLiteral("kernel mixes differ: ") + verdictText(Verdict::Slower) +
                                        QStringLiteral(" (1 run: run-to-run variation not measured); ") +
                                        row.kernelMix);
        QCOMPARE(row.shownVerdict(), Verdict::NoSignificantChange);
        ComparisonTableModel model;
        model.setRows({row});
        const QModelIndex verdict = model.index(0, ComparisonTableModel::column("verdict"));
        QCOMPARE(verdict.data(Qt::ForegroundRole).value<QBrush>().color(),
                 ComparisonTableModel::verdictColor(Verdict::NoSignificantChange));
        QVERIFY(!verdict.data(Qt::FontRole).isValid());
        row.kernelMix.clear(); // one mix: the change is the scope's
        QCOMPARE(row.shownVerdict(), Verdict::Slower);
        model.setRows({row});
        QCOMPARE(verdict.data(Qt::ForegroundRole).value<QBrush>().color(),
                 ComparisonTableModel::verdictColor(Verdict::Slower));
        QVERIFY(ScopeComparison::kernelMixNote(160, 159.9).isEmpty()); // within 1 %: one mix
    }

    // The Run column sorts run pairs by number (10 after 9), the pooled row last.
    void runColumnSortsByNumber()
    {
        ComparisonTableModel model;
        model.setRows(ScopeComparison(indexes(m_a), indexes(m_b))
                          .compare({QStringLiteral("mlp")}, MatchMode::Component, SampleMode::Kernel));
        const int column = ComparisonTableModel::column("run");
        const auto key = [&](const QString &run) {
            return model.index(findRow(model, QStringLiteral("mlp"), run), column)
                .data(ComparisonTableModel::RawValueRole);
        };
        QCOMPARE(key(QStringLiteral("2")).typeId(), QMetaType::Int);
        QVERIFY(key(QStringLiteral("2")).toInt() < key(QStringLiteral("3")).toInt());
        QVERIFY(key(QStringLiteral("3")).toInt() < key(QStringLiteral("all")).toInt());
    }

    // A pooled row without a run-level test (1 run against 3) has no verdict, and its tooltip says so
    // rather than quote the pooled calls' test; a run pair's row says it is of that pair only.
    void verdictToolTipsSayWhatWasTested()
    {
        ComparisonTableModel model;
        model.setRows(ScopeComparison(indexes(m_a.mid(0, 1)), indexes(m_b))
                          .compare({QStringLiteral("attn_q_k")}, MatchMode::Component, SampleMode::Kernel));
        const int pooled = findRow(model, QStringLiteral("attn_q_k"), QStringLiteral("all"));
        QVERIFY(pooled >= 0 && !model.row(pooled).hasRunLevel());
        QVERIFY(model.row(pooled).mannWhitneyHolm < 0.05); // the pooled calls' test would say "changed"
        const QString tip =
            model.index(pooled, ComparisonTableModel::column("verdict")).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QLatin1String("no verdict without a run-level test")) &&
                     !tip.contains(QLatin1String("Mann–Whitney")),
                 qPrintable(tip));
        const int pair = findRow(model, QStringLiteral("attn_q_k"), QStringLiteral("1"));
        QVERIFY(model.row(pair).withinRunPair());
        QVERIFY2(
            model.index(pair, ComparisonTableModel::column("verdict"))
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("This run pair only")),
            qPrintable(
                model.index(pair, ComparisonTableModel::column("verdict")).data(Qt::ToolTipRole).toString()));
    }

    void scopeOnlyInB()
    {
        REQUIRE_TEST_DATA(kNamedScopes + QStringLiteral("/trace_file_matmul_0"),
                          kNamedScopes + QStringLiteral("/trace_file_einsum_0"));
        const QList<LoadedRun> a = loadSide(kNamedScopes + QStringLiteral("/trace_file_matmul_0"));
        const QList<LoadedRun> b = loadSide(kNamedScopes + QStringLiteral("/trace_file_einsum_0"));
        QCOMPARE(a.size(), 1);
        QCOMPARE(b.size(), 1);
        ComparisonTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(ScopeComparison(indexes(a), indexes(b))
                          .compare({QStringLiteral("attn_q_k"), QStringLiteral("mlp")}, MatchMode::Component,
                                   SampleMode::Kernel));
        QCOMPARE(model.rowCount(), 2); // one run pair, nothing to pool
        const int row = findRow(model, QStringLiteral("attn_q_k"), QStringLiteral("1"));
        QVERIFY(row >= 0);
        QCOMPARE(model.index(row, ComparisonTableModel::column("verdict")).data().toString(),
                 QStringLiteral("only in B"));
        QCOMPARE(model.index(row, ComparisonTableModel::column("verdict"))
                     .data(Qt::ForegroundRole)
                     .value<QBrush>()
                     .color(),
                 ComparisonTableModel::verdictColor(Verdict::OnlyInB));
        QCOMPARE(model.index(row, ComparisonTableModel::column("n_a")).data().toString(),
                 QStringLiteral("0"));
        QVERIFY(model.index(row, ComparisonTableModel::column("n_b")).data().toInt() > 0);
        for (int column :
             {ComparisonTableModel::column("mean_a_ns"), ComparisonTableModel::column("median_a_ns"),
              ComparisonTableModel::column("ranksum_p"), ComparisonTableModel::column("mwu_p"),
              ComparisonTableModel::column("hl_shift_ns"), ComparisonTableModel::column("hl_ci_low_ns"),
              ComparisonTableModel::column("rel_change_median"),
              ComparisonTableModel::column("cliffs_delta")})
            QCOMPARE(model.index(row, column).data().toString(), QStringLiteral("–"));
        QVERIFY(model.index(row, ComparisonTableModel::column("median_b_ns")).data().toString() !=
                QStringLiteral("–"));
        // The other scope is on both sides and compared as usual.
        const int mlp = findRow(model, QStringLiteral("mlp"), QStringLiteral("1"));
        QVERIFY(model.index(mlp, ComparisonTableModel::column("mwu_p")).data().toString() !=
                QStringLiteral("–"));
    }
};

QTEST_MAIN(TstComparisonModels)
#include "tst_comparisonmodels.moc"
