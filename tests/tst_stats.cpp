// SPDX-License-Identifier: GPL-3.0-or-later
// Checks stats/ against an independent oracle (tests/oracle/stats_oracle.py: numpy/scipy, brute force
// where simplest) on generated data sets, plus properties known without an oracle.
#include "stats/descriptive.h"
#include "stats/effectsize.h"
#include "stats/multipletesting.h"
#include "stats/ranktests.h"
#include "stats/runlevel.h"
#include "stats/welch.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryFile>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace scopeline::stats;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const std::vector<double> kConfidences = {0.95, 0.99, 0.8};

struct Case
{
    QString name;
    std::vector<double> a;
    std::vector<double> b;
    bool ranks = false; // also compare averageRanks of the pooled sample
};

bool close(double actual, double expected, double rel, double abs)
{
    if (std::isnan(actual) || std::isnan(expected))
        return std::isnan(actual) && std::isnan(expected);
    return std::fabs(actual - expected) <= abs + rel * std::max(std::fabs(actual), std::fabs(expected));
}

// Inside a test function: fails it with both values in the message.
#define COMPARE_NUM(what, actual, expected, rel, abs)                                                        \
    do {                                                                                                     \
        const double act_ = (actual);                                                                        \
        const double exp_ = (expected);                                                                      \
        QVERIFY2(close(act_, exp_, (rel), (abs)), qPrintable(QStringLiteral("%1: C++ %2, oracle %3")         \
                                                                 .arg(QString(what))                         \
                                                                 .arg(act_, 0, 'g', 17)                      \
                                                                 .arg(exp_, 0, 'g', 17)));                   \
    } while (false)

double jsonNumber(const QJsonValue &v)
{
    return v.isDouble() ? v.toDouble() : kNaN; // the oracle writes NaN as null
}

QByteArray jsonArray(const std::vector<double> &values)
{
    QByteArray out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i)
            out += ',';
        out += std::isnan(values[i]) ? QByteArray("NaN") : QByteArray::number(values[i], 'g', 17);
    }
    return out + ']';
}

std::vector<double> normalSample(std::mt19937_64 &rng, std::size_t n, double mean, double sd)
{
    std::normal_distribution<double> dist(mean, sd);
    std::vector<double> out(n);
    for (double &v : out)
        v = dist(rng);
    return out;
}

// Kernel durations in whole ns, as traces give them: lognormal, so ties occur.
std::vector<double> kernelDurations(std::mt19937_64 &rng, std::size_t n, double medianNs, double sigma)
{
    std::lognormal_distribution<double> dist(std::log(medianNs), sigma);
    std::vector<double> out(n);
    for (double &v : out)
        v = std::round(dist(rng));
    return out;
}

bool hasTies(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return std::adjacent_find(values.begin(), values.end()) != values.end();
}

std::vector<Case> makeCases()
{
    std::mt19937_64 rng(20240611);
    std::vector<Case> cases;

    cases.push_back(
        {"normal", normalSample(rng, 500, 1000.0, 50.0), normalSample(rng, 600, 1012.0, 50.0), true});

    { // integers 0..5: most values tied
        std::uniform_int_distribution<int> lowDie(0, 5), highDie(1, 5);
        Case c{"ties_0_to_5", {}, {}, true};
        for (int i = 0; i < 300; ++i)
            c.a.push_back(lowDie(rng));
        for (int i = 0; i < 250; ++i)
            c.b.push_back(std::min(5, highDie(rng) + (i % 3 == 0)));
        cases.push_back(c);
    }

    // Every size pair up to 8 × 8 without ties: scipy uses the exact distribution.
    for (int m = 1; m <= 8; ++m) {
        for (int n = 1; n <= 8; ++n) {
            std::vector<double> a, b;
            do {
                a = normalSample(rng, static_cast<std::size_t>(m), 1000.0, 100.0);
                b = normalSample(rng, static_cast<std::size_t>(n), 1000.0 + 60.0 * ((m + n) % 4), 100.0);
                std::vector<double> pooled = a;
                pooled.insert(pooled.end(), b.begin(), b.end());
                if (!hasTies(pooled))
                    break;
            } while (true);
            cases.push_back({QStringLiteral("tiny_%1x%2").arg(m).arg(n), a, b, m * n == 12});
        }
    }
    cases.push_back({"tiny_fully_separated_8x8", {1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11, 12, 13, 14, 15, 16}});
    cases.push_back({"tiny_with_tie", {1, 2, 3, 3}, {3, 4, 5, 6, 7}, true});
    // Only one sample needs to be small for scipy 1.10 to go exact; 9 × 9 is asymptotic.
    cases.push_back(
        {"small_vs_large_5x200", normalSample(rng, 5, 1000.0, 30.0), normalSample(rng, 200, 1010.0, 30.0)});
    cases.push_back({"small_vs_large_3x60_separated", normalSample(rng, 3, 5000.0, 10.0),
                     normalSample(rng, 60, 1000.0, 10.0)});
    cases.push_back({"small_8x9", normalSample(rng, 8, 1000.0, 30.0), normalSample(rng, 9, 1020.0, 30.0)});
    cases.push_back({"small_9x9", normalSample(rng, 9, 1000.0, 30.0), normalSample(rng, 9, 1020.0, 30.0)});
    cases.push_back({"single_1x1", {5.0}, {7.0}});

    // Far apart: p around 1e-148, must not underflow or lose digits.
    cases.push_back(
        {"separated", normalSample(rng, 450, 1000.0, 10.0), normalSample(rng, 450, 2000.0, 10.0)});
    cases.push_back({"separated_integers", kernelDurations(rng, 400, 3000.0, 0.05),
                     kernelDurations(rng, 500, 6000.0, 0.05)});

    { // A/A: the same run twice must not look like a finding.
        const std::vector<double> a = kernelDurations(rng, 2000, 20000.0, 0.3);
        cases.push_back({"aa_identical", a, a});
        cases.push_back({"aa_twin_runs", kernelDurations(rng, 1500, 20000.0, 0.3),
                         kernelDurations(rng, 1700, 20000.0, 0.3)});
    }

    cases.push_back({"kernel_lognormal_3000x4000", kernelDurations(rng, 3000, 20000.0, 0.25),
                     kernelDurations(rng, 4000, 20200.0, 0.25)});
    cases.push_back({"kernel_lognormal_5000x1000", kernelDurations(rng, 5000, 8000.0, 0.4),
                     kernelDurations(rng, 1000, 7950.0, 0.4)});
    cases.push_back({"kernel_lognormal_1000x5000_outliers",
                     [&] {
                         std::vector<double> v = kernelDurations(rng, 1000, 1500.0, 0.1);
                         for (int i = 0; i < 20; ++i)
                             v[static_cast<std::size_t>(i) * 37] *= 10.0; // preemptions
                         return v;
                     }(),
                     kernelDurations(rng, 5000, 1600.0, 0.1)});
    return cases;
}

// One summary (median) per run on each side; NaN entries are runs without samples.
struct RunLevelCase
{
    QString name;
    std::vector<double> a;
    std::vector<double> b;
};

// Run medians: lognormal around a median with run-to-run spread sigma (µs-scale kernels, in ns).
std::vector<double> runMedians(std::mt19937_64 &rng, std::size_t runs, double medianNs, double sigma)
{
    std::lognormal_distribution<double> dist(std::log(medianNs), sigma);
    std::vector<double> out(runs);
    for (double &v : out)
        v = dist(rng);
    return out;
}

std::vector<RunLevelCase> makeRunLevelCases()
{
    std::mt19937_64 rng(1212);
    std::vector<RunLevelCase> cases;
    // Every size pair from 2 to 20 runs that a user plausibly records, equal and unequal.
    const std::vector<std::pair<std::size_t, std::size_t>> sizes = {
        {2, 2}, {2, 3}, {3, 3}, {3, 5}, {4, 4}, {5, 5}, {5, 10}, {8, 8}, {9, 9}, {10, 10}, {3, 20}, {20, 20}};
    for (const auto &[m, n] : sizes) {
        cases.push_back({QStringLiteral("aa_%1x%2").arg(m).arg(n), runMedians(rng, m, 250000.0, 0.02),
                         runMedians(rng, n, 250000.0, 0.02)});
        cases.push_back({QStringLiteral("shift_%1x%2").arg(m).arg(n), runMedians(rng, m, 250000.0, 0.02),
                         runMedians(rng, n, 240000.0, 0.03)});
    }
    cases.push_back({"separated_3x3", {100, 101, 102}, {200, 201, 202}}); // exact MWU: p = 0.1 at best
    cases.push_back(
        {"separated_10x10_tiny_p", runMedians(rng, 10, 1000.0, 0.03), runMedians(rng, 10, 1500.0, 0.03)});
    cases.push_back({"integer_ns_ties_5x5", {4096, 4128, 4096, 4160, 4128}, {4128, 4160, 4160, 4192, 4128}});
    cases.push_back({"tie_across_sides_3x4", {10, 11, 12}, {12, 13, 14, 15}});
    cases.push_back({"one_side_constant_4x3", {500, 500, 500, 500}, {480, 490, 470}});
    cases.push_back({"both_constant_different_3x3", {500, 500, 500}, {480, 480, 480}}); // scipy: p = 0
    cases.push_back({"nan_runs_dropped", {kNaN, 300, 310, kNaN, 305}, {290, kNaN, 295, 299}});
    cases.push_back({"nan_leaves_one_run", {kNaN, 300, kNaN}, {290, 295, 299}});
    cases.push_back({"one_run_a", {300}, {290, 295, 299}});
    cases.push_back({"one_run_b", {300, 310, 305}, {290}});
    cases.push_back({"one_run_each", {300}, {290}});
    cases.push_back({"no_runs_a", {}, {290, 295}});
    cases.push_back({"zero_summary", {0, 300, 310}, {290, 295, 299}});
    cases.push_back({"negative_summary", {300, 310, 305}, {-1, 295, 299}});
    cases.push_back(
        {"infinite_summary", {300, 310, 305}, {std::numeric_limits<double>::infinity(), 295, 299}});
    return cases;
}

struct HolmSet
{
    QString name;
    std::vector<double> p;
};

std::vector<HolmSet> makeHolmSets(const std::vector<Case> &cases)
{
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<HolmSet> sets;
    std::vector<double> random;
    for (int i = 0; i < 40; ++i)
        random.push_back(std::pow(unit(rng), 3.0));
    sets.push_back({"random", random});
    sets.push_back(
        {"with_ties_nan_and_tiny", {0.01, 0.04, kNaN, 0.01, 1e-150, 0.5, 0.04, kNaN, 1.0, 0.03, 0.2}});
    // Three equal p-values, all rejected: each at the level of the first of them, whatever their order.
    sets.push_back({"ties_rejected", {0.002, 0.0001, 0.002, 0.5, 0.002}});
    sets.push_back({"single", {0.3}});
    // Holm stops at the second: the third and fourth are below their own steps' levels, not below it.
    sets.push_back({"stops_early", {0.021, 0.001, 0.024, 0.02}});
    sets.push_back({"all_nan", {kNaN, kNaN}});
    std::vector<double> fromCases;
    for (const Case &c : cases)
        fromCases.push_back(rankSum(c.a, c.b).p);
    sets.push_back({"rank_sum_p_of_cases", fromCases});
    return sets;
}

} // namespace

class TestStats : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void describeMatchesNumpy_data() { caseRows(); }
    void describeMatchesNumpy();
    void averageRanksMatchScipy_data() { caseRows(true); }
    void averageRanksMatchScipy();
    void rankSumMatchesScipy_data() { caseRows(); }
    void rankSumMatchesScipy();
    void mannWhitneyMatchesScipy_data() { caseRows(); }
    void mannWhitneyMatchesScipy();
    void mannWhitneyCoversBothMethodsAndTinyP();
    void hodgesLehmannMatchesBruteForce_data() { caseRows(); }
    void hodgesLehmannMatchesBruteForce();
    void hodgesLehmannInvertsItsTest();
    void relativeMedianChangeMatchesNumpy_data() { caseRows(); }
    void relativeMedianChangeMatchesNumpy();
    void cliffsDeltaMatchesBruteForce_data() { caseRows(); }
    void cliffsDeltaMatchesBruteForce();
    void holmMatchesReference_data();
    void holmMatchesReference();
    void kruskalWallisMatchesScipy();
    void fiellerEdges();
    void fiellerAgreesWithWelch();

    void exactMannWhitneyOneVersusMany();
    void largeSamplesSortAsStdSort();
    void emptyInputsGiveNaN();
    void aaComparisonIsNoFinding();
    void largeSamplesKnownShift();

    void runLevelMatchesScipy_data();
    void runLevelMatchesScipy();
    void runLevelCoversValidAndInvalid();
    void runLevelWithoutOracle();

private:
    void caseRows(bool onlyWithRanks = false);
    const QJsonObject &oracleCase(int index) const { return m_oracleCases[index]; }

    std::vector<Case> m_cases;
    std::vector<HolmSet> m_holmSets;
    std::vector<RunLevelCase> m_runLevelCases;
    QString m_skipReason; // non-empty when no oracle could run
    std::vector<QJsonObject> m_oracleCases;
    QJsonArray m_oracleHolm;
    QJsonArray m_oracleRunLevel;
};

#define REQUIRE_ORACLE()                                                                                     \
    do {                                                                                                     \
        QVERIFY2(m_skipReason.isEmpty(), /* the oracle is part of the suite: fail, never skip */             \
                 qPrintable(m_skipReason + QStringLiteral(" (packaging/setup.sh installs them)")));          \
    } while (false)

void TestStats::initTestCase()
{
    m_cases = makeCases();
    m_holmSets = makeHolmSets(m_cases);
    m_runLevelCases = makeRunLevelCases();

    const QString python = QStringLiteral(SCOPELINE_PYTHON);
    const QString script = QStringLiteral(SCOPELINE_ORACLE_DIR "/stats_oracle.py");
    if (!QFileInfo(python).isExecutable()) {
        m_skipReason = QStringLiteral("oracle unavailable: %1 is not an executable").arg(python);
        return;
    }
    QProcess probe;
    probe.start(python, {"-c", "import numpy, scipy.stats"});
    if (!probe.waitForFinished(60000) || probe.exitStatus() != QProcess::NormalExit ||
        probe.exitCode() != 0) {
        m_skipReason = QStringLiteral("oracle unavailable: %1 cannot import numpy and scipy").arg(python);
        return;
    }

    // From here on a failure is a broken test, not a missing oracle.
    QTemporaryFile input;
    QVERIFY(input.open());
    QByteArray json = "{\"confidences\":" + jsonArray(kConfidences) + ",\"cases\":[";
    for (std::size_t i = 0; i < m_cases.size(); ++i) {
        const Case &c = m_cases[i];
        json += (i ? ",{" : "{") + QByteArray("\"name\":\"") + c.name.toUtf8() +
                "\",\"a\":" + jsonArray(c.a) + ",\"b\":" + jsonArray(c.b) +
                ",\"ranks\":" + (c.ranks ? "true" : "false") + "}";
    }
    json += "],\"holm\":[";
    for (std::size_t i = 0; i < m_holmSets.size(); ++i)
        json += (i ? ",{" : "{") + QByteArray("\"name\":\"") + m_holmSets[i].name.toUtf8() +
                "\",\"p\":" + jsonArray(m_holmSets[i].p) + "}";
    json += "],\"runlevel\":[";
    for (std::size_t i = 0; i < m_runLevelCases.size(); ++i) {
        const RunLevelCase &c = m_runLevelCases[i];
        // jsonArray writes infinity as "inf", which JSON lacks; Python's parser reads Infinity.
        QByteArray b = jsonArray(c.b);
        b.replace("inf", "Infinity");
        json += (i ? ",{" : "{") + QByteArray("\"name\":\"") + c.name.toUtf8() +
                "\",\"a\":" + jsonArray(c.a) + ",\"b\":" + b + "}";
    }
    json += "]}";
    QCOMPARE(input.write(json), json.size());
    input.flush();

    QProcess oracle;
    oracle.start(python, {script, input.fileName()});
    QVERIFY2(oracle.waitForFinished(300000), "oracle timed out");
    const QByteArray err = oracle.readAllStandardError();
    QVERIFY2(oracle.exitStatus() == QProcess::NormalExit && oracle.exitCode() == 0, err.constData());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(oracle.readAllStandardOutput(), &parseError);
    QVERIFY2(!doc.isNull(), qPrintable(parseError.errorString()));
    const QJsonArray cases = doc.object().value("cases").toArray();
    QCOMPARE(cases.size(), static_cast<qsizetype>(m_cases.size()));
    for (qsizetype i = 0; i < cases.size(); ++i) {
        m_oracleCases.push_back(cases[i].toObject());
        QCOMPARE(m_oracleCases.back().value("name").toString(), m_cases[static_cast<std::size_t>(i)].name);
    }
    m_oracleHolm = doc.object().value("holm").toArray();
    QCOMPARE(m_oracleHolm.size(), static_cast<qsizetype>(m_holmSets.size()));
    m_oracleRunLevel = doc.object().value("runlevel").toArray();
    QCOMPARE(m_oracleRunLevel.size(), static_cast<qsizetype>(m_runLevelCases.size()));
    qInfo("oracle: numpy %s, scipy %s", qPrintable(doc.object().value("numpy").toString()),
          qPrintable(doc.object().value("scipy").toString()));
}

void TestStats::caseRows(bool onlyWithRanks)
{
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < m_cases.size(); ++i)
        if (!onlyWithRanks || m_cases[i].ranks)
            QTest::newRow(qPrintable(m_cases[i].name)) << static_cast<int>(i);
}

void TestStats::describeMatchesNumpy()
{
    REQUIRE_ORACLE();
    QFETCH(int, index);
    const Case &c = m_cases[static_cast<std::size_t>(index)];
    for (const char *side : {"a", "b"}) {
        const Descriptive d = describe(side[0] == 'a' ? c.a : c.b);
        const QJsonObject o = oracleCase(index).value(QStringLiteral("describe_") + side).toObject();
        const QString s = QString::fromLatin1(side);
        QCOMPARE(static_cast<qint64>(d.n), o.value("n").toInteger());
        COMPARE_NUM(s + ".mean", d.mean, jsonNumber(o.value("mean")), 1e-12, 0.0);
        COMPARE_NUM(s + ".std", d.std, jsonNumber(o.value("std")), 1e-12, 0.0);
        COMPARE_NUM(s + ".min", d.min, jsonNumber(o.value("min")), 0.0, 0.0);
        COMPARE_NUM(s + ".max", d.max, jsonNumber(o.value("max")), 0.0, 0.0);
        COMPARE_NUM(s + ".q1", d.q1, jsonNumber(o.value("q1")), 1e-9, 0.0);
        COMPARE_NUM(s + ".median", d.median, jsonNumber(o.value("median")), 1e-9, 0.0);
        COMPARE_NUM(s + ".q3", d.q3, jsonNumber(o.value("q3")), 1e-9, 0.0);
        COMPARE_NUM(s + ".iqr", d.iqr, jsonNumber(o.value("iqr")), 1e-9, 1e-9 * std::fabs(d.q3));
        COMPARE_NUM(s + ".whiskerLow", d.whiskerLow, jsonNumber(o.value("whisker_low")), 0.0, 0.0);
        COMPARE_NUM(s + ".whiskerHigh", d.whiskerHigh, jsonNumber(o.value("whisker_high")), 0.0, 0.0);
        const QJsonArray outliers = o.value("outliers").toArray();
        QCOMPARE(static_cast<qsizetype>(d.outliers.size()), outliers.size());
        for (qsizetype i = 0; i < outliers.size(); ++i)
            COMPARE_NUM(s + ".outliers", d.outliers[static_cast<std::size_t>(i)], jsonNumber(outliers[i]),
                        0.0, 0.0);
    }
}

void TestStats::averageRanksMatchScipy()
{
    REQUIRE_ORACLE();
    QFETCH(int, index);
    const Case &c = m_cases[static_cast<std::size_t>(index)];
    std::vector<double> pooled = c.a;
    pooled.insert(pooled.end(), c.b.begin(), c.b.end());
    const std::vector<double> ranks = averageRanks(pooled);
    const QJsonArray expected = oracleCase(index).value("ranks").toArray();
    QCOMPARE(static_cast<qsizetype>(ranks.size()), expected.size());
    for (qsizetype i = 0; i < expected.size(); ++i)
        COMPARE_NUM(QStringLiteral("rank[%1]").arg(i), ranks[static_cast<std::size_t>(i)],
                    jsonNumber(expected[i]), 0.0, 0.0);
}

void TestStats::rankSumMatchesScipy()
{
    REQUIRE_ORACLE();
    QFETCH(int, index);
    const Case &c = m_cases[static_cast<std::size_t>(index)];
    const RankSum r = rankSum(c.a, c.b);
    const QJsonObject o = oracleCase(index).value("ranksums").toObject();
    COMPARE_NUM("z", r.z, jsonNumber(o.value("z")), 1e-9, 1e-12);
    COMPARE_NUM("p", r.p, jsonNumber(o.value("p")), 1e-6, 0.0);
}

void TestStats::mannWhitneyMatchesScipy()
{
    REQUIRE_ORACLE();
    QFETCH(int, index);
    const Case &c = m_cases[static_cast<std::size_t>(index)];
    const MannWhitney r = mannWhitneyU(c.a, c.b);
    const QJsonObject o = oracleCase(index).value("mannwhitneyu").toObject();
    COMPARE_NUM("u", r.u, jsonNumber(o.value("u")), 1e-12, 0.0);
    COMPARE_NUM("p", r.p, jsonNumber(o.value("p")), 1e-6, 0.0);
    QVERIFY2(o.value("exact").isBool(), "oracle could not tell scipy's method choice");
    QCOMPARE(r.exact, o.value("exact").toBool());
    // the smallest p these values allow: exactly scipy's with A wholly below B, unless ties straddle
    if (o.value("min_p_straddles").toBool())
        QVERIFY(r.minP <= jsonNumber(o.value("min_p")) * (1 + 1e-6));
    else
        COMPARE_NUM("minP", r.minP, jsonNumber(o.value("min_p")), 1e-6, 0.0);
}

void TestStats::mannWhitneyCoversBothMethodsAndTinyP()
{
    // Guards the data sets themselves: the comparisons above must cover exact and asymptotic p-values,
    // including p far below 1e-100, or they would prove less than they claim.
    REQUIRE_ORACLE();
    int exact = 0, asymptotic = 0;
    double smallestRankSumP = 1.0, smallestMannWhitneyP = 1.0;
    for (const QJsonObject &o : m_oracleCases) {
        const QJsonObject mw = o.value("mannwhitneyu").toObject();
        (mw.value("exact").toBool() ? exact : asymptotic)++;
        smallestMannWhitneyP = std::min(smallestMannWhitneyP, jsonNumber(mw.value("p")));
        smallestRankSumP = std::min(smallestRankSumP, jsonNumber(o.value("ranksums").toObject().value("p")));
    }
    QVERIFY(exact >= 60);
    QVERIFY(asymptotic >= 10);
    QVERIFY(smallestRankSumP < 1e-100);
    QVERIFY(smallestRankSumP > 0.0);
    QVERIFY(smallestMannWhitneyP < 1e-100);
}

void TestStats::hodgesLehmannMatchesBruteForce()
{
    REQUIRE_ORACLE();
    QFETCH(int, index);
    const Case &c = m_cases[static_cast<std::size_t>(index)];
    const QJsonValue hl = oracleCase(index).value("hodges_lehmann");
    QVERIFY2(hl.isArray(), "oracle did not enumerate the differences (too many pairs?)");
    const QJsonArray perConfidence = hl.toArray();
    QCOMPARE(perConfidence.size(), static_cast<qsizetype>(kConfidences.size()));
    for (qsizetype i = 0; i < perConfidence.size(); ++i) {
        const QJsonObject o = perConfidence[i].toObject();
        const double confidence = o.value("confidence").toDouble();
        const ShiftEstimate e = hodgesLehmann(c.a, c.b, 1 - confidence); // the oracle's level too
        const QString what = QStringLiteral("%1 @%2").arg(c.name).arg(confidence);
        COMPARE_NUM(what + " shift", e.shift, jsonNumber(o.value("shift")), 1e-9, 1e-12);
        COMPARE_NUM(what + " ciLow", e.ciLow, jsonNumber(o.value("ci_low")), 1e-9, 1e-12);
        COMPARE_NUM(what + " ciHigh", e.ciHigh, jsonNumber(o.value("ci_high")), 1e-9, 1e-12);
    }
}

// The interval is the shifts mannWhitneyU keeps at the level itself: run the test inside every gap
// between differences. Exact p-values can equal a Holm level (0.025, 0.05 / 3): given as 1 − a
// confidence, 0.025 had become 0.02500000000000002 and the interval one step too narrow.
void TestStats::hodgesLehmannInvertsItsTest()
{
    std::vector<double> b13, b7;
    for (int k = 1; k <= 13; ++k)
        b13.push_back(1.7 * k + 3);
    for (int k = 1; k <= 7; ++k)
        b7.push_back(2.3 * k - 1);
    const std::vector<double> a{0, 10, 20};
    int checked = 0;
    for (const auto &[b, level] : {std::pair{b13, 0.025}, std::pair{b7, 0.05 / 3}, std::pair{b13, 0.05}}) {
        std::vector<double> d;
        for (double x : b)
            for (double y : a)
                d.push_back(x - y);
        std::sort(d.begin(), d.end());
        d.erase(std::unique(d.begin(), d.end()), d.end());
        const ShiftEstimate e = hodgesLehmann(a, b, level);
        for (std::size_t g = 0; g + 1 < d.size(); ++g) {
            const double mid = (d[g] + d[g + 1]) / 2;
            std::vector<double> shifted = b;
            for (double &x : shifted)
                x -= mid;
            const bool kept = mannWhitneyU(a, shifted).p >= level;
            const bool inside = std::isnan(e.ciLow) || (e.ciLow <= mid && mid <= e.ciHigh); // NaN: unbounded
            QVERIFY2(kept == inside,
                     qPrintable(QStringLiteral("level %1, shift %2: kept %3, interval [%4, %5]")
                                    .arg(level)
                                    .arg(mid)
                                    .arg(kept)
                                    .arg(e.ciLow)
                                    .arg(e.ciHigh)));
            checked += mannWhitneyU(a, shifted).p == level; // the case rounding got wrong
        }
    }
    QVERIFY(checked > 0);
}

void TestStats::relativeMedianChangeMatchesNumpy()
{
    REQUIRE_ORACLE();
    QFETCH(int, index);
    const Case &c = m_cases[static_cast<std::size_t>(index)];
    COMPARE_NUM("relative median change", relativeMedianChange(c.a, c.b),
                jsonNumber(oracleCase(index).value("relative_median_change")), 1e-9, 1e-15);
}

void TestStats::cliffsDeltaMatchesBruteForce()
{
    REQUIRE_ORACLE();
    QFETCH(int, index);
    const Case &c = m_cases[static_cast<std::size_t>(index)];
    const QJsonValue expected = oracleCase(index).value("cliffs_delta");
    QVERIFY2(expected.isDouble(), "oracle did not enumerate the pairs");
    COMPARE_NUM("Cliff's delta", cliffsDelta(c.a, c.b), expected.toDouble(), 1e-12, 1e-15);
}

// Kruskal–Wallis on groups with ties, an empty group and NaN, against the oracle run here
// (stats_oracle.kruskal: scipy.stats.kruskal's H; p by brute force over every split of the ranks where
// there are at most a million, else over a million random splits while a group is small, else scipy's
// chi-squared p). Two groups of three wholly apart: exact p
// 0.1, as scipy's exact Mann–Whitney gives, where the chi-squared p, 0.0495, had called them different.
void TestStats::kruskalWallisMatchesScipy()
{
    REQUIRE_ORACLE();
    const std::vector<std::vector<std::vector<double>>> cases = {
        {{3.1, 2.9, 3.1, 3.4, 3.0}, {3.8, 4.1, 3.9, 3.1}, {}, {2.2, 2.5, 2.9, 2.2, std::nan("")}},
        {{1, 2, 3}, {4, 5, 6}},
        {{10.5, 11.0, 10.8}, {12.0, 11.9, 12.4}, {11.1, 10.9, 11.4}},
        {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}}, // 63 million splits: permuted
        {{10.1, 11.4, 10.6}, {10.9, 11.8, 11.2}, {10.4, 10.8, 11.9}, {11.5, 12.1, 11.7}, {10.2, 10.5, 11.0}},
        {{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}, {12, 13, 14, 15, 16, 17}, {18, 19, 20, 21, 22, 23}}};
    const QStringList oracle = {
        "[[3.1, 2.9, 3.1, 3.4, 3.0], [3.8, 4.1, 3.9, 3.1], [2.2, 2.5, 2.9, 2.2]]",
        "[[1, 2, 3], [4, 5, 6]]",
        "[[10.5, 11.0, 10.8], [12.0, 11.9, 12.4], [11.1, 10.9, 11.4]]",
        "[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]",
        "[[10.1, 11.4, 10.6], [10.9, 11.8, 11.2], [10.4, 10.8, 11.9], [11.5, 12.1, 11.7], "
        "[10.2, 10.5, 11.0]]",
        "[list(range(i * 6, i * 6 + 6)) for i in range(4)]"};
    QProcess scipy;
    scipy.start(
        QStringLiteral(SCOPELINE_PYTHON),
        {QStringLiteral("-c"),
         QStringLiteral("import sys; sys.path.insert(0, '" SCOPELINE_ORACLE_DIR "'); "
                        "from stats_oracle import kruskal; from scipy import stats\n"
                        "for g in [%1]: print(*map(repr, kruskal(g, with_smallest=True)))\n"
                        "print(repr(stats.mannwhitneyu([1, 2, 3], [4, 5, 6], method='exact').pvalue))")
             .arg(oracle.join(QStringLiteral(", ")))});
    QVERIFY(scipy.waitForFinished(120000));
    QVERIFY2(scipy.exitCode() == 0, scipy.readAllStandardError().constData());
    const QStringList lines =
        QString::fromUtf8(scipy.readAllStandardOutput()).trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), qsizetype(cases.size()) + 1);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const QStringList expected = lines[qsizetype(i)].split(QLatin1Char(' '));
        const KruskalWallis got = kruskalWallis(cases[i]);
        QCOMPARE(got.groups, int(cases[i].size()) - (i == 0 ? 1 : 0));
        QVERIFY2(std::fabs(got.h - expected[0].toDouble()) <= 1e-12 * expected[0].toDouble(),
                 qPrintable(lines[qsizetype(i)]));
        const QString method = expected[2].mid(1, expected[2].size() - 2); // 'exact'
        QCOMPARE(got.method, method == QLatin1String("exact")         ? KruskalMethod::Exact
                             : method == QLatin1String("permutation") ? KruskalMethod::Permutation
                                                                      : KruskalMethod::ChiSquared);
        // a random share agrees within four standard errors of the program's draws (and one draw)
        const double want = expected[1].toDouble();
        const double tolerance = got.method == KruskalMethod::Permutation
                                     ? 4 * std::sqrt(want * (1 - want) / double(kKruskalPermutations)) +
                                           1.0 / double(kKruskalPermutations)
                                     : 1e-9 * want;
        QVERIFY2(std::fabs(got.p - want) <= tolerance,
                 qPrintable(QStringLiteral("%1: %2").arg(got.p).arg(lines[qsizetype(i)])));
        // the smallest p the exact test has: every split counted
        if (got.method == KruskalMethod::Exact)
            QVERIFY2(std::fabs(got.minP - expected[3].toDouble()) <= 1e-9 * got.minP,
                     qPrintable(QStringLiteral("%1: %2").arg(got.minP).arg(lines[qsizetype(i)])));
        else
            QVERIFY(std::isnan(got.minP));
    }
    QCOMPARE(kruskalWallis(cases[1]).minP, kruskalWallis(cases[1]).p); // wholly apart: the least there is
    QCOMPARE(kruskalWallis(cases[1]).p, lines.back().toDouble()); // Mann–Whitney's exact p: 0.1
    QVERIFY(std::isnan(kruskalWallis({{1, 2, 3}, {}}).p));    // one group
    QVERIFY(std::isnan(kruskalWallis({{2, 2}, {2, 2, 2}}).p)); // every value the same
}

// Fieller's interval where it is not bounded or not spread: A about 0 (unbounded), B all zeros (no
// spread of B − θA at θ = 0), each side without spread (the timer's resolution), too few values.
void TestStats::fiellerEdges()
{
    const RatioInterval wide = fiellerInterval(meanVariance({-1, 1, 2}), meanVariance({5, 6, 7}), 0.95);
    QVERIFY(!wide.bounded());
    QVERIFY(wide.gapLow < 0 && wide.gapHigh > 1); // a ratio of 1 is rejected: B's mean is 6, A's 2/3
    QVERIFY(std::fabs(wide.ratio - 9.0) < 1e-12); // 6 / (2/3)
    const RatioInterval zero = fiellerInterval(meanVariance({10, 12, 11, 13}), meanVariance({0, 0, 0}), 0.95);
    QCOMPARE(zero.ratio, 0.0);
    QVERIFY(zero.bounded() && zero.low <= 0 && zero.high >= 0);
    // Each side without spread, known to 2 ns: variances 2²/12, 2 degrees of freedom; at each end θ,
    // |200 − 100θ| = t·√(sb + θ²sa) with sa = sb = (4/12)/2 and t = scipy.stats.t.ppf(0.975, 2).
    const RatioInterval tie = fiellerInterval(meanVariance({100, 100}), meanVariance({200, 200}), 0.95, 2);
    QVERIFY(tie.bounded() && tie.low < 2 && tie.high > 2);
    for (double theta : {tie.low, tie.high})
        COMPARE_NUM("tie end", std::fabs(200 - 100 * theta),
                    4.302652729911275 * std::sqrt((1 + theta * theta) / 6), 1e-9, 0.0);
    QVERIFY(!fiellerInterval(meanVariance({1}), meanVariance({2, 3}), 0.95).bounded());
}

// The ratio's interval beside a verdict holds 1 exactly where Welch's test of B − A does not reject
// at that level (the step tables show both): 4,000 pairs of small samples, means from equal to
// twice apart, at 95 % and at a Holm level.
void TestStats::fiellerAgreesWithWelch()
{
    std::mt19937 random(42);
    std::uniform_int_distribution<int> size(2, 6);
    std::normal_distribution<double> noise(0, 1);
    int rejected = 0, kept = 0;
    for (int i = 0; i < 4000; ++i) {
        const double shift = 1 + 0.25 * (i % 5), spreadA = 0.02 + 0.1 * (i % 3),
                     spreadB = 0.02 + 0.1 * (i % 4);
        std::vector<double> a(std::size_t(size(random))), b(std::size_t(size(random)));
        for (double &x : a)
            x = 10 * (1 + spreadA * noise(random));
        for (double &x : b)
            x = 10 * shift * (1 + spreadB * noise(random));
        for (const double confidence : {0.95, 0.99615}) {
            const MeanVariance ma = meanVariance(a), mb = meanVariance(b);
            const RatioInterval ratio = fiellerInterval(ma, mb, confidence);
            const double p = welchTest(ma, mb).p;
            if (!ratio.bounded() || std::fabs(p - (1 - confidence)) < 1e-9)
                continue;
            const bool holdsOne = ratio.low <= 1 && 1 <= ratio.high;
            QVERIFY2(holdsOne == (p >= 1 - confidence),
                     qPrintable(QStringLiteral("pair %1 at %2: p %3, ratio [%4, %5]")
                                    .arg(i)
                                    .arg(confidence)
                                    .arg(p)
                                    .arg(ratio.low)
                                    .arg(ratio.high)));
            (holdsOne ? kept : rejected) += 1;
        }
    }
    QVERIFY(rejected > 1000 && kept > 1000); // both sides of the decision were tried

    // A's mean about 0 (not known to differ from it): unbounded, the whole line or the line less a gap;
    // 1 is in the gap exactly where the test rejects.
    int gapRejects = 0, gapKeeps = 0, whole = 0;
    for (int i = 0; i < 4000; ++i) {
        std::vector<double> a(std::size_t(size(random))), b(std::size_t(size(random)));
        for (double &x : a)
            x = 0.5 + 2 * noise(random);
        for (double &x : b)
            x = 1 + (i % 7) + 0.5 * noise(random);
        const MeanVariance ma = meanVariance(a), mb = meanVariance(b);
        const RatioInterval ratio = fiellerInterval(ma, mb, 0.95);
        const double p = welchTest(ma, mb).p;
        if (ratio.bounded() || std::fabs(p - 0.05) < 1e-9)
            continue;
        const bool gap = !std::isnan(ratio.gapLow);
        QCOMPARE(gap, !std::isnan(ratio.gapHigh));
        const bool holdsOne = !gap || !(ratio.gapLow < 1 && 1 < ratio.gapHigh);
        QVERIFY2(holdsOne == (p >= 0.05), qPrintable(QStringLiteral("pair %1: p %2, gap (%3, %4)")
                                                         .arg(i)
                                                         .arg(p)
                                                         .arg(ratio.gapLow)
                                                         .arg(ratio.gapHigh)));
        (!gap ? whole : holdsOne ? gapKeeps : gapRejects) += 1;
    }
    QVERIFY(gapRejects > 100 && gapKeeps > 100 && whole > 100);
}

void TestStats::holmMatchesReference_data()
{
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < m_holmSets.size(); ++i)
        QTest::newRow(qPrintable(m_holmSets[i].name)) << static_cast<int>(i);
}

void TestStats::holmMatchesReference()
{
    REQUIRE_ORACLE();
    QFETCH(int, index);
    const std::vector<double> adjusted = holmAdjust(m_holmSets[static_cast<std::size_t>(index)].p);
    const QJsonArray expected = m_oracleHolm[index].toObject().value("adjusted").toArray();
    QCOMPARE(static_cast<qsizetype>(adjusted.size()), expected.size());
    for (qsizetype i = 0; i < expected.size(); ++i)
        COMPARE_NUM(QStringLiteral("adjusted[%1]").arg(i), adjusted[static_cast<std::size_t>(i)],
                    jsonNumber(expected[i]), 1e-12, 0.0);

    // The levels each row is judged at: significant (adjusted p < 0.05) exactly when p < its level.
    const std::vector<double> &p = m_holmSets[static_cast<std::size_t>(index)].p;
    const std::vector<double> levels = holmLevels(p, 0.05);
    const QJsonArray expectedLevels = m_oracleHolm[index].toObject().value("levels").toArray();
    QCOMPARE(static_cast<qsizetype>(levels.size()), expectedLevels.size());
    for (qsizetype i = 0; i < expectedLevels.size(); ++i) {
        const std::size_t k = static_cast<std::size_t>(i);
        COMPARE_NUM(QStringLiteral("levels[%1]").arg(i), levels[k], jsonNumber(expectedLevels[i]), 1e-15,
                    0.0);
        if (!std::isnan(p[k]))
            QCOMPARE(p[k] < levels[k], adjusted[k] < 0.05);
    }
    for (std::size_t i = 0; i < p.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (p[i] == p[j])
                QCOMPARE(levels[i], levels[j]);
}

void TestStats::exactMannWhitneyOneVersusMany()
{
    // scipy's recursion cannot handle 1 × 100000, so no oracle: with one value in a, U1 is the number of
    // b below it and is uniform on 0..n under the null, so P(U >= u) = (n − u + 1) / (n + 1).
    const std::size_t n = 100000;
    std::vector<double> b(n);
    for (std::size_t i = 0; i < n; ++i)
        b[i] = static_cast<double>(i);
    std::shuffle(b.begin(), b.end(), std::mt19937_64(5));
    for (const double rank : {0.0, 1.0, 30001.0, 50000.0, 99999.0}) {
        const MannWhitney mw = mannWhitneyU({rank - 0.5}, b);
        QVERIFY(mw.exact);
        QCOMPARE(mw.u, rank);
        const double u = std::max(rank, static_cast<double>(n) - rank);
        const double expected =
            std::min(1.0, 2.0 * (static_cast<double>(n) - u + 1.0) / (static_cast<double>(n) + 1.0));
        COMPARE_NUM(QStringLiteral("p for U1 = %1").arg(rank), mw.p, expected, 1e-12, 0.0);
    }
}

void TestStats::largeSamplesSortAsStdSort()
{
    // Samples past a few thousand values are sorted by their bits: std::sort is the oracle, on
    // integral delays (low digits alike), signed reals of every magnitude, infinities, ties and NaN.
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<int64_t> delay(0, 20'000'000);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-1074, 1023);
    std::vector<std::vector<double>> samples(3);
    for (int i = 0; i < 58000; ++i)
        samples[0].push_back(double(delay(rng)));
    for (int i = 0; i < 20000; ++i)
        samples[1].push_back(std::ldexp(unit(rng), exponent(rng)));
    samples[1].insert(samples[1].end(), {0.0, std::numeric_limits<double>::infinity(), -1.5, -1.5, kNaN,
                                         -std::numeric_limits<double>::infinity(), 1e-310, -1e-310});
    for (int i = 0; i < 5000; ++i)
        samples[2].push_back(double(i % 7) - 3.0);
    for (const std::vector<double> &sample : samples) {
        std::vector<double> expected;
        std::copy_if(sample.begin(), sample.end(), std::back_inserter(expected),
                     [](double v) { return !std::isnan(v); });
        std::sort(expected.begin(), expected.end());
        const std::vector<double> sorted = sortedWithoutNaN(sample);
        QVERIFY(sorted == expected); // exactly: QCOMPARE would compare doubles fuzzily
        const Descriptive d = describe(sample);
        QVERIFY(d.min == expected.front() && d.max == expected.back());
        QVERIFY(d.q1 == quantileSorted(expected, 0.25) && d.q3 == quantileSorted(expected, 0.75));
    }
}

void TestStats::emptyInputsGiveNaN()
{
    const std::vector<double> none;
    const std::vector<double> some = {1.0, 2.0, 3.0};

    for (const std::vector<double> &values : {none, std::vector<double>{kNaN, kNaN}}) {
        const Descriptive d = describe(values);
        QCOMPARE(d.n, std::size_t{0});
        for (double field :
             {d.mean, d.std, d.min, d.q1, d.median, d.q3, d.max, d.iqr, d.whiskerLow, d.whiskerHigh})
            QVERIFY(std::isnan(field));
        QVERIFY(d.outliers.empty());
    }
    QVERIFY(std::isnan(describe({42.0}).std)); // n − 1 = 0
    QVERIFY(std::isnan(quantileSorted(none, 0.5)));
    QVERIFY(std::isnan(median(none)));
    QVERIFY(averageRanks(none).empty());

    for (const auto &[a, b] : {std::pair{none, some}, std::pair{some, none}, std::pair{none, none}}) {
        const RankSum rs = rankSum(a, b);
        QVERIFY(std::isnan(rs.z) && std::isnan(rs.p));
        const MannWhitney mw = mannWhitneyU(a, b);
        QVERIFY(std::isnan(mw.u) && std::isnan(mw.p));
        QVERIFY(!mw.exact);
        const ShiftEstimate hl = hodgesLehmann(a, b);
        QVERIFY(std::isnan(hl.shift) && std::isnan(hl.ciLow) && std::isnan(hl.ciHigh));
        QVERIFY(std::isnan(relativeMedianChange(a, b)));
        QVERIFY(std::isnan(cliffsDelta(a, b)));
    }
    QVERIFY(std::isnan(relativeMedianChange({0.0, 0.0, 1.0}, some))); // median(a) == 0
    QVERIFY(holmAdjust(none).empty());
    QVERIFY(std::isnan(holmAdjust({kNaN}).front()));
}

void TestStats::aaComparisonIsNoFinding()
{
    // A trace compared with itself: the definitions fix these values without any oracle.
    std::mt19937_64 rng(99);
    const std::vector<double> a = kernelDurations(rng, 20000, 12000.0, 0.3);
    QCOMPARE(rankSum(a, a).z, 0.0);
    QCOMPARE(rankSum(a, a).p, 1.0);
    const MannWhitney mw = mannWhitneyU(a, a);
    QCOMPARE(mw.u, 20000.0 * 20000.0 / 2.0);
    QCOMPARE(mw.p, 1.0);
    const ShiftEstimate hl = hodgesLehmann(a, a);
    QCOMPARE(hl.shift, 0.0);
    QVERIFY(hl.ciLow <= 0.0 && hl.ciHigh >= 0.0);
    QVERIFY(hl.ciLow < 0.0 && hl.ciHigh > 0.0); // continuous-ish data: the interval has width
    QCOMPARE(cliffsDelta(a, a), 0.0);
    QCOMPARE(relativeMedianChange(a, a), 0.0);
}

void TestStats::largeSamplesKnownShift()
{
    // 10^5 × 10^5 samples (10^10 pairwise differences) must not be enumerated; b = a + 37 exactly.
    std::mt19937_64 rng(4242);
    const std::vector<double> a = kernelDurations(rng, 100000, 25000.0, 0.35);
    std::vector<double> b(a.size());
    std::transform(a.begin(), a.end(), b.begin(), [](double v) { return v + 37.0; });
    std::shuffle(b.begin(), b.end(), rng);

    QElapsedTimer timer;
    timer.start();
    const ShiftEstimate hl = hodgesLehmann(a, b);
    qInfo("hodgesLehmann 100k x 100k: %lld ms", static_cast<long long>(timer.elapsed()));
    QCOMPARE(hl.shift, 37.0);
    QVERIFY(hl.ciLow <= 37.0 && 37.0 <= hl.ciHigh);
    QVERIFY(hl.ciLow < hl.ciHigh);

    timer.restart();
    const MannWhitney mw = mannWhitneyU(a, b);
    const RankSum rs = rankSum(a, b);
    const double delta = cliffsDelta(a, b);
    qInfo("mannWhitneyU + rankSum + cliffsDelta 100k x 100k: %lld ms",
          static_cast<long long>(timer.elapsed()));
    QVERIFY(!mw.exact);
    QVERIFY(mw.p >= 0.0 && mw.p <= 1.0);
    QVERIFY(rs.z < 0.0);  // b is shifted up, so a ranks low
    QVERIFY(delta > 0.0); // and b > a more often than not
    QVERIFY(delta < 0.1); // 37 ns on ~25 µs is a small effect
}

void TestStats::runLevelMatchesScipy_data()
{
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < m_runLevelCases.size(); ++i)
        QTest::newRow(qPrintable(m_runLevelCases[i].name)) << static_cast<int>(i);
}

void TestStats::runLevelMatchesScipy()
{
    REQUIRE_ORACLE();
    QFETCH(int, index);
    const RunLevelCase &c = m_runLevelCases[static_cast<std::size_t>(index)];
    const QJsonObject o = m_oracleRunLevel[index].toObject();
    QCOMPARE(o.value("name").toString(), c.name);
    const QJsonArray intervals = o.value("ci").toArray();
    QCOMPARE(intervals.size(), static_cast<qsizetype>(kConfidences.size()));
    for (qsizetype i = 0; i < intervals.size(); ++i) {
        const QJsonObject ci = intervals[i].toObject();
        const double confidence = ci.value("confidence").toDouble();
        const RunLevelTest r = runLevelTest(c.a, c.b, confidence);
        const QString what = QStringLiteral("%1 @%2").arg(c.name).arg(confidence);
        QCOMPARE(static_cast<qint64>(r.runsA), o.value("runs_a").toInteger());
        QCOMPARE(static_cast<qint64>(r.runsB), o.value("runs_b").toInteger());
        // The verdict needs a valid test exactly where scipy gives a p-value.
        QCOMPARE(r.valid(), o.value("p").isDouble());
        const double p = jsonNumber(o.value("p"));
        // Both sides constant: Welch at the timer step's spread, never 0.
        COMPARE_NUM(what + " Welch p", r.p, p, 1e-9, 1e-300);
        QVERIFY2(!r.valid() || r.p > 0, qPrintable(what));
        COMPARE_NUM(what + " change", r.change, jsonNumber(o.value("change")), 1e-12, 1e-15);
        COMPARE_NUM(what + " rank p", r.rankP, jsonNumber(o.value("rank_p")), 1e-9, 0.0);
        if (r.valid())
            QVERIFY2(r.ciLow < r.ciHigh, qPrintable(what)); // never a zero-width interval
        COMPARE_NUM(what + " ciLow", r.ciLow, jsonNumber(ci.value("low")), 1e-9, 1e-15);
        COMPARE_NUM(what + " ciHigh", r.ciHigh, jsonNumber(ci.value("high")), 1e-9, 1e-15);
        if (r.valid())
            QVERIFY2(r.ciLow <= r.change && r.change <= r.ciHigh, qPrintable(what));
    }
}

void TestStats::runLevelCoversValidAndInvalid()
{
    // Guards the rows above: they must hold valid tests on both sides of 0.05, tiny p-values,
    // exact and asymptotic rank tests, and invalid inputs, or they would prove less than they claim.
    REQUIRE_ORACLE();
    int valid = 0, invalid = 0, significant = 0, notSignificant = 0;
    double smallest = 1.0;
    for (const QJsonValue &value : m_oracleRunLevel) {
        const QJsonObject o = value.toObject();
        if (!o.value("p").isDouble()) {
            ++invalid;
            continue;
        }
        ++valid;
        const double p = o.value("p").toDouble();
        (p < 0.05 ? significant : notSignificant)++;
        smallest = std::min(smallest, p);
    }
    QVERIFY(valid >= 25);
    QVERIFY(invalid >= 8);
    QVERIFY(significant >= 5);
    QVERIFY(notSignificant >= 5);
    QVERIFY(smallest < 1e-12);
}

void TestStats::runLevelWithoutOracle()
{
    // Identical runs on both sides: no change, p = 1 (scipy answers NaN for zero spread), and an
    // interval of the timer step's spread rather than a point: symmetric in log, within two steps.
    const RunLevelTest same = runLevelTest({512, 512, 512}, {512, 512}, 0.95, 32);
    QVERIFY(same.valid() && same.tied);
    QCOMPARE(same.p, 1.0);
    QCOMPARE(same.change, 0.0);
    QVERIFY(same.ciLow < 0 && same.ciHigh > 0 && same.ciHigh < 2 * 32.0 / 512);
    COMPARE_NUM("tie symmetric", std::log1p(same.ciLow), -std::log1p(same.ciHigh), 1e-12, 0.0);
    // Ten runs a side at two different ticks: no less certain than the same runs one tick apart
    // (the exact permutation test had given 2 / C(20, 10), and 3 v 3 never below 0.1).
    const RunLevelTest ticks =
        runLevelTest(std::vector<double>(10, 3200), std::vector<double>(10, 3008), 0.95, 32);
    std::vector<double> nearA(9, 3200), nearB(9, 3008);
    nearA.push_back(3232);
    nearB.push_back(3040);
    const RunLevelTest nearTie = runLevelTest(nearA, nearB, 0.95, 32);
    QVERIFY(ticks.tied && !nearTie.tied);
    QVERIFY2(ticks.p <= nearTie.p,
             qPrintable(QStringLiteral("tie p %1, near-tie p %2").arg(ticks.p).arg(nearTie.p)));
    QVERIFY(ticks.ciLow < ticks.change && ticks.change < ticks.ciHigh && ticks.ciHigh < 0);
    const RunLevelTest threeRuns = runLevelTest({2336, 2336, 2336}, {1856, 1856, 1856}, 0.95, 32);
    QVERIFY2(threeRuns.p < 0.05, qPrintable(QString::number(threeRuns.p))); // a consistent −20.5 %
    QCOMPARE(durationTick({3200, 3008, 3232, 64}), int64_t(32));
    QCOMPARE(durationTick({0, 0}), int64_t(0));                    // no tick to read
    QCOMPARE(durationTick({3200, 3008}, {3232, 64}), int64_t(32)); // both sides' tick
    QCOMPARE(durationTick({3000.4, 6000}, {}), int64_t(3000));     // to the nearest ns
    QCOMPARE(durationTick({}, {4096, 2048, 0}), int64_t(2048));
    QCOMPARE(durationTick({6, 9}, {7}), int64_t(1)); // no common tick
    // Durations rounded to whole ns after a 32 ns tick (JAX on H100): the GCD is 1, the tick 32.
    const auto roundedTick = [](std::initializer_list<const std::vector<double> *> sets) {
        RoundedTick tick;
        for (const std::vector<double> *set : sets)
            for (double d : *set)
                tick.add(std::llround(d));
        return tick.tick();
    };
    std::vector<double> rounded, roundedB;
    for (int i = 0; i < 8; ++i) {
        rounded.push_back(32.0 * (100 + i) + (i % 3) - 1); // 3199, 3232, 3265, ...
        roundedB.push_back(32.0 * (7 + 5 * i) + 1 - (i % 3));
    }
    QCOMPARE(durationTick(rounded, roundedB), int64_t(1));
    QCOMPARE(roundedTick({&rounded, &roundedB}), int64_t(32));
    QCOMPARE(roundedTick({&rounded}), int64_t(0)); // 8 durations: too few to tell a tick from chance
    std::vector<double> off = roundedB;
    off.push_back(32.0 * 50 + 2); // 2 ns off the tick: none
    QCOMPARE(roundedTick({&rounded, &off}), int64_t(0));
    std::vector<double> tiny = roundedB;
    tiny.push_back(5); // 5 ns is within 1 ns of no multiple of 16 or more
    QCOMPARE(roundedTick({&rounded, &tiny}), int64_t(0));
    std::vector<double> micros(20);
    for (std::size_t i = 0; i < micros.size(); ++i)
        micros[i] = 1000.0 * double(3 + 7 * i);
    QCOMPARE(roundedTick({&micros}), int64_t(1000)); // an exact tick fits too
    std::vector<double> untimed(40);
    for (std::size_t i = 0; i < untimed.size(); ++i)
        untimed[i] = double(1000 + (i * 7919) % 997); // no tick
    QCOMPARE(roundedTick({&untimed}), int64_t(0));

    // Time per run: zeros allowed (a run without the kernel), change relative to A's mean.
    const RunLevelTest total = meanChangeTest({100, 0, 200}, {300, 310, 290});
    QVERIFY(total.valid() && !total.tied);
    COMPARE_NUM("mean change", total.change, (300.0 - 100.0) / 100.0, 1e-12, 0.0);
    QVERIFY(total.ciLow < total.change && total.change < total.ciHigh);
    // Nothing on A: new in B, an infinite change without an interval (a kernel of some processes of B)
    const RunLevelTest added = meanChangeTest({0, 0}, {5, 6});
    QVERIFY(added.valid() && std::isinf(added.change) && added.change > 0);
    QVERIFY(std::isnan(added.ciLow) && std::isnan(added.ciHigh));
    QVERIFY(std::isnan(meanChangeTest({0, 0}, {0, 0}).change)); // nothing on either side
    // Bounded as a time is: a kernel gone from B is exactly −100 %, with no interval; a wide spread
    // on A never takes the low end below −100 % (Welch alone gives (2 − 1000) / 400 − … < −2.5).
    const RunLevelTest gone = meanChangeTest({100, 120, 110}, {0, 0, 0});
    QCOMPARE(gone.change, -1.0);
    QVERIFY(gone.valid() && std::isnan(gone.ciLow) && std::isnan(gone.ciHigh));
    const RunLevelTest spread = meanChangeTest({10, 1000, 190}, {1, 3, 2});
    QCOMPARE(spread.ciLow, -1.0);
    QVERIFY(spread.ciHigh > 0 && spread.change > -1);

    // A side compared with itself: t = 0, p = 1, the interval straddles 0.
    const std::vector<double> runs = {1010, 990, 1003, 1021, 978};
    const RunLevelTest self = runLevelTest(runs, runs);
    QCOMPARE(self.p, 1.0);
    QCOMPARE(self.change, 0.0);
    QVERIFY(self.ciLow < 0 && self.ciHigh > 0);
    QCOMPARE(self.rankP, 1.0);

    // What few runs can show: 3 vs 3 runs, however far apart, leave the exact rank test at p = 0.1,
    // while Welch on the logs can go as low as the spread allows.
    const RunLevelTest apart = runLevelTest({100, 101, 102}, {200, 201, 202});
    QCOMPARE(apart.rankP, 0.1);
    QVERIFY(apart.p < 1e-5);
    COMPARE_NUM("ratio change", apart.change, std::cbrt(200.0 * 201 * 202 / (100.0 * 101 * 102)) - 1, 1e-12,
                0.0);

    // Scale-free: the ratio does not care about the unit, µs or ns (the timer's step, 1 ns, in each).
    std::vector<double> a = {3.1, 3.3, 3.2, 3.25}, b = {3.0, 3.05, 3.1};
    const RunLevelTest us = runLevelTest(a, b, 0.95, 0.001);
    for (double &v : a)
        v *= 1000;
    for (double &v : b)
        v *= 1000;
    const RunLevelTest ns = runLevelTest(a, b);
    COMPARE_NUM("p in ns vs µs", ns.p, us.p, 1e-9, 0.0);
    COMPARE_NUM("change in ns vs µs", ns.change, us.change, 1e-9, 1e-15);

    // A wider confidence gives a wider interval around the same change.
    const RunLevelTest c80 = runLevelTest(a, b, 0.8), c99 = runLevelTest(a, b, 0.99);
    QVERIFY(c99.ciLow < c80.ciLow && c80.ciHigh < c99.ciHigh);
    QCOMPARE(c80.change, c99.change);

    // Invalid: a side with fewer than 2 runs; the other figures stay NaN, the run counts are told.
    const RunLevelTest one = runLevelTest({300}, {290, 295, 299});
    QVERIFY(!one.valid());
    QCOMPARE(one.runsA, std::size_t{1});
    QCOMPARE(one.runsB, std::size_t{3});
    for (double field : {one.p, one.change, one.ciLow, one.ciHigh, one.rankP})
        QVERIFY(std::isnan(field));
    const RunLevelTest zero = runLevelTest({0, 300, 310}, {290, 295});
    QVERIFY(!zero.valid());
    QCOMPARE(zero.runsA, std::size_t{3}); // a zero median is still a run, just no ratio
}

QTEST_GUILESS_MAIN(TestStats)
#include "tst_stats.moc"
