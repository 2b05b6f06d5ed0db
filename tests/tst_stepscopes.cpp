// SPDX-License-Identifier: GPL-3.0-or-later
// Step scopes on real traces: PyTorch `ProfilerStep#N` annotations are one scope `ProfilerStep` with
// one instance per step, checked against the independent Python oracle (annotation_scopes.py --steps,
// which reads the raw events); JAX `PjitFunction(...)` is a step too. Then the CLI (scopes lists the
// step first, an A/A span comparison) and the scope picker (steps first, span samples when picked).

#include "testdata.h"
#include "testprocess.h"

#include "model/loading/loadedrun.h"
#include "model/analysis/scopeindex.h"
#include "model/analysis/traceanalysis.h"
#include "model/loading/tracefolder.h"
#include "model/loading/traceloader.h"
#include "widgets/tables/scopelistmodel.h"
#include "widgets/panels/scopepicker.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

#include <algorithm>
#include <numeric>

using namespace scopeline;

namespace {

const QString kResnet =
    testdata::path("public/TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz");

// {"ProfilerStep": {"ProfilerStep#15": {"kernels", "sum", "span", "range"}, ...}} from the raw events.
QJsonObject stepOracle(const QString &file)
{
    const ProcessResult result = runProcess(
        QStringLiteral(SCOPELINE_PYTHON),
        {QStringLiteral(SCOPELINE_ORACLE_DIR "/annotation_scopes.py"), QStringLiteral("--steps"), file});
    if (result.exitCode != 0)
        qWarning("oracle failed: %s", result.err.constData());
    return QJsonDocument::fromJson(result.out).object();
}

QList<LoadedRun> loadSide(const QString &path)
{
    QString error;
    const std::vector<TraceRun> runs = TraceFolder::scan(path, &error);
    if (runs.empty())
        qWarning("%s", qPrintable(error));
    return LoadedRun::loadAll(runs);
}

std::vector<double> sorted(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

} // namespace

class TstStepScopes : public QObject
{
    Q_OBJECT

private slots:
    // Each `ProfilerStep#N` is an instance of `ProfilerStep`: count, kernels, sums and wall spans (ns,
    // exact) per step as the oracle finds them in the raw events.
    void profilerStepsMatchOracle_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("steps");
        QTest::newRow("MI300 resnet") << kResnet << 3;
        QTest::newRow("mi250 ROCm")
            << testdata::path("public/HolisticTraceAnalysis/"
                              "tests__data__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz")
            << 1;
        QTest::newRow("A100 graphs") << testdata::path(
                                            "public/HolisticTraceAnalysis/"
                                            "tests__data__negative_queue_length_values_check__rank0.json.gz")
                                     << 5;
        QTest::newRow("V100 ns") << testdata::path(
                                        "public/HolisticTraceAnalysis/"
                                        "tests__data__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt."
                                        "trace.json.gz")
                                 << 5;
        QTest::newRow("H100 bert")
            << testdata::path(
                   "public/TraceLens/tests__traces__h100__gaunernst_bert-small-uncased__1016001.json.gz")
            << 1;
    }

    void profilerStepsMatchOracle()
    {
        QFETCH(QString, file);
        QFETCH(int, steps);
        REQUIRE_TEST_DATA(file);
        const QJsonObject oracle = stepOracle(file).value(QStringLiteral("ProfilerStep")).toObject();
        QCOMPARE(oracle.size(), steps);
        const LoadResult loaded = TraceLoader::load(file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const TraceAnalysis analysis(*loaded.trace);
        const ScopeIndex index(analysis);

        // Exactly one ProfilerStep scope, a step, listed first; no `<name>#N` scope left.
        const std::vector<ScopeIndex::Scope> scopes = index.scopes();
        QVERIFY(!scopes.empty());
        QCOMPARE(scopes.front().name, QStringLiteral("ProfilerStep"));
        QVERIFY(scopes.front().step);
        QCOMPARE(index.stepScope(), QStringLiteral("ProfilerStep"));
        const QRegularExpression numbered(QStringLiteral("#[0-9]+$"));
        for (const ScopeIndex::Scope &scope : scopes) {
            QVERIFY2(!numbered.match(scope.name).hasMatch(), qPrintable(scope.name));
            QVERIFY2(scope.step == (scope.name == QLatin1String("ProfilerStep")), qPrintable(scope.name));
        }
        QCOMPARE(scopes.front().instances, qint64(steps));

        // Per step: its full text still picks that one instance.
        const ScopeMatcher all(QStringLiteral("ProfilerStep"), MatchMode::Component);
        std::vector<double> spans, sums;
        int64_t kernels = 0;
        for (auto it = oracle.begin(); it != oracle.end(); ++it) {
            const QJsonObject step = it.value().toObject();
            const ScopeMatcher one(it.key(), MatchMode::Component);
            QCOMPARE(qint64(index.samples(one, SampleMode::Kernel).size()),
                     step[QStringLiteral("kernels")].toInteger());
            const std::vector<double> span = index.samples(one, SampleMode::Span);
            const std::vector<double> sum = index.samples(one, SampleMode::Instance);
            QCOMPARE(span.size(), std::size_t(1));
            QCOMPARE(qint64(span[0]), step[QStringLiteral("span")].toInteger());
            QCOMPARE(qint64(sum[0]), step[QStringLiteral("sum")].toInteger());
            spans.push_back(double(step[QStringLiteral("span")].toInteger()));
            sums.push_back(double(step[QStringLiteral("sum")].toInteger()));
            kernels += step[QStringLiteral("kernels")].toInteger();
        }
        QCOMPARE(scopes.front().kernels, kernels);
        QCOMPARE(qint64(index.samples(all, SampleMode::Kernel).size()), kernels);
        QCOMPARE(sorted(index.samples(all, SampleMode::Span)), sorted(spans));
        QCOMPARE(sorted(index.samples(all, SampleMode::Instance)), sorted(sums));
    }

    // Match modes on the collapsed name and on the full annotation text.
    void matchModes()
    {
        REQUIRE_TEST_DATA(kResnet);
        const LoadResult loaded = TraceLoader::load(kResnet);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const TraceAnalysis analysis(*loaded.trace);
        const ScopeIndex index(analysis);
        auto instances = [&index](const QString &pattern, MatchMode mode) {
            return index.samples(ScopeMatcher(pattern, mode), SampleMode::Span).size();
        };
        QCOMPARE(instances(QStringLiteral("ProfilerStep"), MatchMode::Component), std::size_t(3));
        QCOMPARE(instances(QStringLiteral("Step"), MatchMode::Substring), std::size_t(3));
        QCOMPARE(instances(QStringLiteral("ProfilerStep#"), MatchMode::Substring), std::size_t(3));
        QCOMPARE(instances(QStringLiteral("^ProfilerStep$"), MatchMode::Regex), std::size_t(3));
        QCOMPARE(instances(QStringLiteral("^ProfilerStep#1[56]$"), MatchMode::Regex), std::size_t(2));
        QCOMPARE(instances(QStringLiteral("ProfilerStep#17"), MatchMode::Component), std::size_t(1));
        QCOMPARE(instances(QStringLiteral("ProfilerStep#18"), MatchMode::Component), std::size_t(0));
        QCOMPARE(instances(QStringLiteral("Profiler"), MatchMode::Component), std::size_t(0));
        // `#` followed by other than digits is an ordinary name.
        QCOMPARE(instances(QStringLiteral("Optimizer.step#SGD.step"), MatchMode::Component), std::size_t(3));

        QCOMPARE(ScopeIndex::collapsedStepName(QStringLiteral("ProfilerStep#15")),
                 QStringLiteral("ProfilerStep"));
        QCOMPARE(ScopeIndex::collapsedStepName(QStringLiteral("a#b#7")), QStringLiteral("a#b"));
        for (const char *plain : {"ProfilerStep", "Optimizer.step#SGD.step", "#15", "step#", "step#1a"})
            QVERIFY2(ScopeIndex::collapsedStepName(QString::fromLatin1(plain)).isEmpty(), plain);
        QVERIFY(ScopeIndex::isCallScopeName(u"PjitFunction(<lambda>)"));
        QVERIFY(!ScopeIndex::isCallScopeName(u"PjitFunction("));
    }

    // JAX: the host range of each jitted call is the step.
    void jaxCallIsStep()
    {
        const QString file = firstFile(QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/graph"),
                                       QStringLiteral("*.trace.json.gz"));
        REQUIRE_TEST_DATA(file);
        const LoadResult loaded = TraceLoader::load(file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const TraceAnalysis analysis(*loaded.trace);
        const ScopeIndex index(analysis);
        const std::vector<ScopeIndex::Scope> scopes = index.scopes();
        QVERIFY(!scopes.empty());
        QCOMPARE(scopes.front().name, QStringLiteral("PjitFunction(<lambda>)"));
        QVERIFY(scopes.front().step);
        QCOMPARE(scopes.front().instances, qint64(20)); // 20 forward calls per run
        QCOMPARE(index.stepScope(), QStringLiteral("PjitFunction(<lambda>)"));
    }

    void cliListsStepFirstAndComparesSpans()
    {
        REQUIRE_TEST_DATA(kResnet);
        const ProcessResult scopes =
            runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("scopes"), kResnet});
        QVERIFY2(scopes.exitCode == 0, scopes.err.constData());
        const QStringList lines = QString::fromUtf8(scopes.out).split(QLatin1Char('\n'));
        QVERIFY(lines.size() > 2);
        QVERIFY2(
            QRegularExpression(QStringLiteral("^\\s*654\\s+3\\s+ProfilerStep$")).match(lines[1]).hasMatch(),
            qPrintable(lines[1]));
        QVERIFY(
            scopes.out.contains("step scopes (listed first, one instance per iteration): ProfilerStep\n"));

        const QString csv = QDir::temp().filePath(
            QStringLiteral("tst_stepscopes_%1.csv").arg(QCoreApplication::applicationPid()));
        const ProcessResult compare =
            runProcess(QStringLiteral(SCOPELINE_CLI),
                       {QStringLiteral("compare"), kResnet, kResnet, QStringLiteral("--scope"),
                        QStringLiteral("ProfilerStep"), QStringLiteral("--samples"), QStringLiteral("span"),
                        QStringLiteral("--csv"), csv});
        QVERIFY2(compare.exitCode == 0, compare.err.constData());
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(file.readAll()).trimmed().split(QLatin1Char('\n'));
        file.close();
        QFile::remove(csv);
        QVERIFY(rows.size() >= 2);
        const QStringList header = rows[0].split(QLatin1Char(','));
        const QStringList row = rows[1].split(QLatin1Char(','));
        QCOMPARE(row.size(), header.size());
        auto field = [&](const char *name) { return row.value(int(header.indexOf(QLatin1String(name)))); };
        QCOMPARE(field("scope"), QStringLiteral("ProfilerStep"));
        QCOMPARE(field("n_a"), QStringLiteral("3"));
        QCOMPARE(field("n_b"), QStringLiteral("3"));
        // the median step's wall span, from the oracle's figures (18980344, 18982927, 18554330 ns)
        const QJsonObject steps = stepOracle(kResnet).value(QStringLiteral("ProfilerStep")).toObject();
        std::vector<qint64> spans;
        for (const QJsonValue &step : steps)
            spans.push_back(step.toObject()[QStringLiteral("span")].toInteger());
        QCOMPARE(spans.size(), std::size_t(3));
        std::sort(spans.begin(), spans.end());
        QCOMPARE(field("median_a_ns"), QString::number(spans[1]));
        QCOMPARE(field("median_b_ns"), QString::number(spans[1]));
        QCOMPARE(field("rel_change_median"), QStringLiteral("0"));
        // the trace against itself: nothing is tested
        QCOMPARE(field("verdict"), QStringLiteral("the same runs on both sides: nothing is compared"));
    }

    // The picker's model lists step scopes first; the view keeps them on top whatever the sort.
    void pickerListsStepsFirst()
    {
        REQUIRE_TEST_DATA(kResnet);
        const QString graph = QStringLiteral(SCOPELINE_TEST_DATA "/eager_vs_graph/graph");
        const QList<LoadedRun> a = loadSide(kResnet), b = loadSide(graph);
        QCOMPARE(a.size(), 1);
        QVERIFY(!b.isEmpty());
        QVERIFY2(a[0].ok(), qPrintable(a[0].error));

        ScopeListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSides(a, b);
        QVERIFY(model.rowCount() > 2);
        QCOMPARE(model.index(0, 0).data(ScopeListModel::NameRole).toString(),
                 QStringLiteral("PjitFunction(<lambda>)"));
        QCOMPARE(model.index(1, 0).data(ScopeListModel::NameRole).toString(), QStringLiteral("ProfilerStep"));
        bool steps = true;
        for (int row = 0; row < model.rowCount(); ++row) {
            const bool step = model.index(row, 0).data(ScopeListModel::StepRole).toBool();
            QVERIFY2(steps || !step, qPrintable(model.index(row, 0).data().toString()));
            steps = step;
        }
        QCOMPARE(
            model.index(1, ScopeListModel::InstancesAColumn).data(ScopeListModel::RawValueRole).toLongLong(),
            3);
        QCOMPARE(
            model.index(1, ScopeListModel::InstancesBColumn).data(ScopeListModel::RawValueRole).toLongLong(),
            0);
        QVERIFY(model.index(1, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Step scope")));
        QVERIFY(model.index(1, 0).data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!model.index(2, 0).data(Qt::FontRole).value<QFont>().bold());

        ScopePicker picker;
        picker.resize(600, 400);
        picker.setSides(a, a);
        QAbstractItemModelTester proxyTester(picker.proxy(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (int column : {int(ScopeListModel::ScopeColumn), int(ScopeListModel::KernelsAColumn)})
            for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                picker.view()->sortByColumn(column, order);
                QCOMPARE(picker.proxy()->index(0, 0).data(ScopeListModel::NameRole).toString(),
                         QStringLiteral("ProfilerStep"));
            }
    }

    // A new pair's Scopes tab opens on the scope both sides have with the most kernels on its smaller
    // side: the step scope, or without one the largest range (nsys NVTX ranges of nvFuser); none when
    // no scope is shared.
    void defaultScopeIsTheLargestShared()
    {
        const QString samples = QStringLiteral(SCOPELINE_SAMPLES);
        const QString eager = samples + QStringLiteral("/torch_compile/eager"),
                      compiled = samples + QStringLiteral("/torch_compile/reduce_overhead"),
                      chain = samples + QStringLiteral("/hipbench_launch_chain/graph"),
                      fuserH100 = testdata::path("public/Fuser/h100/df8f397_report1.sqlite"),
                      fuserH200 = testdata::path("public/Fuser/h200/f6ab0c3_report1.sqlite");
        REQUIRE_TEST_DATA(fuserH100, fuserH200);
        const auto defaultOf = [](const QList<LoadedRun> &a, const QList<LoadedRun> &b, SampleMode *mode) {
            ScopePicker picker;
            picker.setSides(a, b);
            picker.selectDefaultScope();
            *mode = picker.sampleMode();
            return picker.selectedScopes();
        };
        SampleMode mode = SampleMode::Kernel;
        // attention and mlp are eager's alone (compiled code drops record_function); the step is shared
        const QList<LoadedRun> eagerRuns = loadSide(eager), compiledRuns = loadSide(compiled);
        QCOMPARE(defaultOf(eagerRuns, compiledRuns, &mode), QStringList{QStringLiteral("ProfilerStep")});
        QCOMPARE(mode, SampleMode::Span); // as a pick of the step scope: its time, not its kernels' mix
        QCOMPARE(defaultOf(compiledRuns, eagerRuns, &mode), QStringList{QStringLiteral("ProfilerStep")});
        // No step scope: runFusion holds both of each run's kernels, its nested ranges one
        const QList<LoadedRun> h100 = loadSide(fuserH100), h200 = loadSide(fuserH200);
        QCOMPARE(defaultOf(h100, h200, &mode), QStringList{QStringLiteral("KernelExecutor::runFusion")});
        QCOMPARE(mode, SampleMode::Kernel);
        ScopeListModel model;
        model.setSides(h100, h200);
        const ScopeListModel::Entry &fusion =
            model.entry(model.rowOf(QStringLiteral("KernelExecutor::runFusion")));
        QCOMPARE(fusion.kernelsA, 2);
        QCOMPARE(fusion.kernelsB, 2);
        // sides sharing no scope get none
        QCOMPARE(defaultOf(h100, loadSide(chain), &mode), QStringList());
    }

    // Picking the step scope in the list switches per-kernel samples to spans; code and user choices stay.
    void pickingStepPrefersSpan()
    {
        REQUIRE_TEST_DATA(kResnet);
        const QList<LoadedRun> a = loadSide(kResnet);
        QCOMPARE(a.size(), 1);
        auto pick = [](ScopePicker &picker, const QString &name) {
            QSortFilterProxyModel *proxy = picker.proxy();
            for (int row = 0; row < proxy->rowCount(); ++row)
                if (proxy->index(row, 0).data(ScopeListModel::NameRole).toString() == name)
                    picker.view()->selectionModel()->select(proxy->index(row, 0),
                                                            QItemSelectionModel::ClearAndSelect |
                                                                QItemSelectionModel::Rows);
        };
        {
            ScopePicker picker;
            picker.setSides(a, a);
            QCOMPARE(picker.sampleMode(), SampleMode::Kernel);
            QSignalSpy modeChanged(&picker, &ScopePicker::sampleModeChanged);
            pick(picker, QStringLiteral("DistributedDataParallel.forward"));
            QCOMPARE(picker.sampleMode(), SampleMode::Kernel);
            pick(picker, QStringLiteral("ProfilerStep"));
            QCOMPARE(picker.selectedScopes(), QStringList{QStringLiteral("ProfilerStep")});
            QCOMPARE(picker.sampleMode(), SampleMode::Span);
            QCOMPARE(modeChanged.count(), 1);
        }
        {
            // Set by code (a session, --samples): setSelectedScopes keeps the mode.
            ScopePicker picker;
            picker.setSides(a, a);
            picker.setSelectedScopes({QStringLiteral("ProfilerStep")});
            QCOMPARE(picker.sampleMode(), SampleMode::Kernel);
            picker.setSampleMode(SampleMode::Instance);
            picker.setSelectedScopes({});
            pick(picker, QStringLiteral("ProfilerStep"));
            QCOMPARE(picker.sampleMode(), SampleMode::Instance);
        }
        {
            // The user chose per kernel in the box: picking a step keeps it.
            ScopePicker picker;
            picker.setSides(a, a);
            emit picker.sampleModeBox()->activated(picker.sampleModeBox()->currentIndex());
            pick(picker, QStringLiteral("ProfilerStep"));
            QCOMPARE(picker.sampleMode(), SampleMode::Kernel);
        }
    }
};

QTEST_MAIN(TstStepScopes)
#include "tst_stepscopes.moc"
