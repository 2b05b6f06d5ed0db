// SPDX-License-Identifier: GPL-3.0-or-later
// The SIMD scan that finds brackets and commas outside strings (JsonStructureScanner) against its
// byte-by-byte twin: on real traces and on adversarial text (escaped quotes, backslash runs across the
// 32- and 64-byte lanes, stray backslashes outside strings), the same bits and the same state after
// every 64-byte step.

#include "model/formats/jsonstructurescanner.h"

#include "gunzip.h"
#include "testdata.h"

#include <QFile>
#include <QRandomGenerator>
#include <QtTest>

#include <string>

using namespace scopeline;

namespace {

// Scans text in 64-byte steps (the tail shorter) with the SIMD path and with the scalar one, from
// the given start state; returns where they first differ, empty when they agree throughout.
QString compareScans(const std::string &text, bool commas, bool inString = false, bool escape = false)
{
    JsonStructureScanner simd, scalar;
    simd.inString = scalar.inString = inString;
    simd.escape = scalar.escape = escape;
    for (std::size_t i = 0; i < text.size(); i += 64) {
        const std::size_t len = std::min<std::size_t>(64, text.size() - i);
        const uint64_t a = simd.next(text.data() + i, len, commas);
        const uint64_t b = scalar.nextScalar(text.data() + i, len, commas);
        if (a != b || simd.opened != scalar.opened ||
            simd.closed != scalar.closed || simd.inString != scalar.inString ||
            simd.escape != scalar.escape)
            return QStringLiteral("at byte %1: bits %2 vs %3, in string %4 vs %5, escape %6 vs %7, "
                                  "opened %8 vs %9, closed %10 vs %11")
                .arg(i)
                .arg(a, 16, 16, QLatin1Char('0'))
                .arg(b, 16, 16, QLatin1Char('0'))
                .arg(simd.inString)
                .arg(scalar.inString)
                .arg(simd.escape)
                .arg(scalar.escape)
                .arg(simd.opened)
                .arg(scalar.opened)
                .arg(simd.closed)
                .arg(scalar.closed);
    }
    return {};
}

} // namespace

class TstEventCutter : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void realTraces_data();
    void realTraces();
    void backslashRunsAcrossLanes();
    void randomText();
    void knownBits();
};

void TstEventCutter::initTestCase()
{
    if (!JsonStructureScanner::simdAvailable())
        qWarning("no AVX2/PCLMUL on this CPU: both sides of each comparison are the scalar scan");
    JsonStructureScanner::setSimdEnabled(true);
}

void TstEventCutter::realTraces_data()
{
    QTest::addColumn<QString>("path");
    for (const QString &trace : testdata::publicTraces())
        QTest::newRow(qPrintable(trace.section(QLatin1Char('/'), -1))) << testdata::path(QStringLiteral("public/") + trace);
}

void TstEventCutter::realTraces()
{
    QFETCH(QString, path);
    REQUIRE_TEST_DATA(path);
    const QByteArray text = testdata::gunzip(path);
    QVERIFY2(!text.isEmpty(), qPrintable(path));
    const std::string s(text.constData(), std::size_t(text.size()));
    for (const bool commas : {true, false}) {
        const QString difference = compareScans(s, commas);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
    }
    // Shifted by every offset within a lane, so that each string meets each boundary.
    for (std::size_t shift = 1; shift < 64; shift += 7) {
        const QString difference = compareScans(s.substr(shift, 1 << 20), true);
        QVERIFY2(difference.isEmpty(), qPrintable(QStringLiteral("shift %1: ").arg(shift) + difference));
    }
}

void TstEventCutter::backslashRunsAcrossLanes()
{
    // A string holding a run of n backslashes then a quote, placed so that the run ends at every
    // position around the 32- and 64-byte boundaries: an even run leaves the quote closing the
    // string, an odd one escapes it.
    for (int n = 0; n <= 70; ++n) {
        for (int at = 0; at < 140; ++at) {
            std::string text = "[{\"k\":";
            text.append(std::size_t(at), ' ');
            text += '"';
            text.append(std::size_t(n), '\\');
            text += "\"],{}[\",\"},\\\"]"; // more structure after, inside or outside the string
            text.append(std::size_t(130), 'x');
            text += "\"}],";
            for (const bool commas : {true, false}) {
                const QString difference = compareScans(text, commas);
                QVERIFY2(difference.isEmpty(),
                         qPrintable(QStringLiteral("run %1 at %2: %3").arg(n).arg(at).arg(difference)));
            }
            // The same text starting inside a string, and right after an escaping backslash.
            QVERIFY(compareScans(text, true, true, false).isEmpty());
            QVERIFY(compareScans(text, true, true, true).isEmpty());
        }
    }
}

void TstEventCutter::randomText()
{
    // Text from a small alphabet that JSON cares about: most of it is not JSON (stray backslashes
    // outside strings included), and both scans must still agree.
    QRandomGenerator random(13);
    const char alphabet[] = "\"\\{}[],: a\"\\\\\t\n\x01";
    for (int round = 0; round < 4000; ++round) {
        std::string text(std::size_t(random.bounded(1, 400)), ' ');
        const int heavy = random.bounded(1, int(sizeof alphabet) - 1);
        for (char &c : text)
            c = alphabet[random.bounded(heavy)];
        const bool inString = random.bounded(2) != 0;
        const bool escape = inString && random.bounded(2) != 0;
        const QString difference = compareScans(text, round % 2 == 0, inString, escape);
        QVERIFY2(difference.isEmpty(), qPrintable(QStringLiteral("round %1: ").arg(round) + difference));
    }
}

void TstEventCutter::knownBits()
{
    // 64 bytes: {"a\"[":[1,"]"],"b\\":{}} then blanks.
    std::string text = R"({"a\"[":[1,"]"],"b\\":{}})";
    text.resize(64, ' ');
    std::vector<int> expected;
    JsonStructureScanner scanner;
    const uint64_t bits = scanner.next(text.data(), 64, true);
    for (int k = 0; k < 64; ++k)
        if (bits >> k & 1)
            expected.push_back(k);
    // { at 0, [ at 8, , at 10, ] at 14, , at 15, { at 22, } at 23, } at 24
    QCOMPARE(expected, (std::vector<int>{0, 8, 10, 14, 15, 22, 23, 24}));
    QCOMPARE(scanner.opened, 3); // { [ {
    QCOMPARE(scanner.closed, 3); // ] } }
    QVERIFY(!scanner.inString && !scanner.escape);
}

QTEST_GUILESS_MAIN(TstEventCutter)
#include "tst_eventcutter.moc"
