// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for model/formats/timeparse: exact microsecond text -> integer nanoseconds.
//
// Expected values are either self-evident from the definition (value in µs × 1000, rounded to the
// nearest ns, halves away from zero; false on malformed text or int64 overflow) or, for the
// cross-check on a real Kineto trace, computed independently by Python's decimal module.

#include "model/formats/timeparse.h"

#include "testdata.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdint>
#include <limits>
#include <string>

using scopeline::microsIntToNs;
using scopeline::microsTextToNs;

namespace {

constexpr qint64 kMax = std::numeric_limits<qint64>::max();

const char *const kNsResolutionTrace =
    "public/HolisticTraceAnalysis/"
    "tests__data__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";

// Independent oracle: every ts/dur of the trace as written in the file (number tokens are kept as
// their text, strings as they are), with its value in ns from Python's decimal module,
// ROUND_HALF_UP (which rounds halves away from zero) on value × 1000.
// Writes "text<TAB>ns" lines to argv[2]; prints "<lines> <lines a double gets wrong>".
const char *const kExtractScript = R"PY(
import gzip, json, sys
from decimal import Decimal, ROUND_HALF_UP, getcontext
getcontext().prec = 80
src, dst = sys.argv[1], sys.argv[2]
with gzip.open(src, 'rt', encoding='utf-8') as f:
    doc = json.load(f, parse_float=str, parse_int=str)
events = doc['traceEvents'] if isinstance(doc, dict) else doc
lines, double_wrong = 0, 0
with open(dst, 'w', encoding='utf-8') as out:
    for e in events:
        if not isinstance(e, dict):
            continue
        for key in ('ts', 'dur'):
            if key not in e:
                continue
            text = e[key]
            if not isinstance(text, str) or '\t' in text or '\n' in text:
                continue
            exact = int((Decimal(text.strip()) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
            if round(float(text) * 1000) != exact:
                double_wrong += 1
            out.write('%s\t%d\n' % (text, exact))
            lines += 1
print(lines, double_wrong)
)PY";

} // namespace

class TstTimeParse : public QObject
{
    Q_OBJECT

private slots:
    void microsTextToNs_data();
    void microsTextToNs();
    void microsIntToNs_data();
    void microsIntToNs();
    void integerTextAgreesWithIntegerPath_data();
    void integerTextAgreesWithIntegerPath();
    void crossCheckKinetoTrace();
};

void TstTimeParse::microsTextToNs_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("ns");

    auto good = [](const char *tag, const QByteArray &text, qint64 ns) {
        QTest::newRow(tag) << text << true << ns;
    };
    auto bad = [](const char *tag, const QByteArray &text) {
        QTest::newRow(tag) << text << false << qint64(0);
    };

    // Integers.
    good("int 0", "0", 0);
    good("int 1", "1", 1000);
    good("int 12", "12", 12000);
    good("int leading zeros", "00012", 12000);
    good("int negative", "-7", -7000);
    good("int large", "1623142623460016", 1623142623460016000);

    // Decimals: each decimal digit past the third is below 1 ns.
    good("dec 1.5", "1.5", 1500);
    good("dec 1.280", "1.280", 1280);
    good("dec 0.039", "0.039", 39);
    good("dec 0.001", "0.001", 1);
    good("dec 0.0014 down", "0.0014", 1);
    good("dec 0.0015 half up", "0.0015", 2);
    good("dec 0.0004 down", "0.0004", 0);
    good("dec 0.0005 half", "0.0005", 1);
    good("dec 0.00049999 down", "0.00049999", 0);
    good("dec 0.0005000000001 up", "0.0005000000001", 1);
    good("dec 8543.107", "8543.107", 8543107);
    good("dec trailing zeros", "2.5000000", 2500);
    good("dec zero", "0.000", 0);
    // Where the short path for up to 15 integer and 3 fraction digits hands over to the general one.
    good("15 int digits", "999999999999999", 999999999999999000);
    good("15 int digits, 3 decimals", "999999999999999.999", 999999999999999999);
    good("16 int digits, 1 decimal", "1623142623460016.5", 1623142623460016500);
    // The short path reads up to 18 integer digits (older Kineto writes 16: epoch µs), refusing what
    // overflows int64 as ns.
    good("16 int digits", "1669783687464200", 1669783687464200000);
    good("largest whole µs", "9223372036854775", 9223372036854775000);
    good("max ns", "9223372036854775.807", 9223372036854775807);
    good("18 int digits, leading zeros", "000000000000000012", 12000);
    bad("16 int digits over", "9223372036854776");
    bad("18 int digits over", "100000000000000000");
    // Four digits at a time, then one at a time.
    good("4 int digits", "1234", 1234000);
    good("5 int digits, 1 decimal", "12345.5", 12345500);
    good("12 int digits", "123456789012", 123456789012000);
    good("13 int digits, 3 decimals (Kineto)", "4026150084627.133", 4026150084627133);
    bad("4 bytes, a colon last", "123:");
    bad("12 bytes, a slash last", "12345678901/");
    good("8 int digits", "12345678", 12345678000);
    good("8 int digits, 3 decimals", "12345678.125", 12345678125);
    good("9 int digits", "123456789", 123456789000);
    bad("8 bytes, a colon last", "1234567:");
    bad("8 bytes, a slash inside", "12345/78");
    bad("8 digits, a letter after", "12345678a");
    bad("16 digits, a colon after", "1234567812345678:");
    good("4 decimals round up", "1234567890123.4567", 1234567890123457);
    good("point, no decimals", "12.", 12000);

    // Full-precision doubles as JSON writers print them.
    good("spec example", "34.476999999999997", 34477);
    good("double 1.0000000000000002", "1.0000000000000002", 1000);
    good("double 0.30000000000000004", "0.30000000000000004", 300);
    good("double 1.5359999999999999", "1.5359999999999999", 1536);
    good("double 0.00049999999999999996", "0.00049999999999999996", 0);

    // Epoch-based µs with 3 decimals: 19 significant digits, beyond a double's 15-17.
    good("epoch 3 decimals", "1712195495519689.047", 1712195495519689047);
    good("epoch 3 decimals b", "1712195495519695.812", 1712195495519695812);
    good("epoch 3 decimals trailing 0", "1712195495519689.040", 1712195495519689040);

    // 19 and 20 significant digits.
    good("19 sig, rounds up", "123456789012345.6789", 123456789012345679);
    good("19 sig, all nines", "999999999999999.9999", 1000000000000000000);
    good("20 sig, small value", "0.12345678901234567891", 123);
    good("20 sig, 13-digit ns", "1234567890.1234567891", 1234567890123);
    good("20 sig, rounds up to 10000", "9.9999999999999999999", 10000);
    good("20 sig, 19-digit ns, 4 drops", "1712195495519689.0474", 1712195495519689047);
    // 1712195495519689.0475 µs = 1712195495519689047.5 ns: the half rounds away from zero.
    good("20 sig, 19-digit ns, 5 rounds up", "1712195495519689.0475", 1712195495519689048);
    good("20 sig, 19-digit ns, 9 rounds up", "9000000000000000.0009", 9000000000000000001);
    good("21 sig, 19-digit ns, 49 drops", "1712195495519689.04749", 1712195495519689047);

    // Exponents.
    good("exp 1e3", "1e3", 1000000);
    good("exp 1E3", "1E3", 1000000);
    good("exp 1e+3", "1e+3", 1000000);
    good("exp 1e0", "1e0", 1000);
    good("exp 12e-1", "12e-1", 1200);
    good("exp 1.5E-3 half up", "1.5E-3", 2);
    good("exp 1.4e-3", "1.4e-3", 1);
    good("exp 2e-4 down", "2e-4", 0);
    good("exp 5e-4 half up", "5e-4", 1);
    good("exp 0e5", "0e5", 0);
    good("exp 1e-400 underflows to 0", "1e-400", 0);
    good("exp epoch mantissa", "1.712195495519689047e15", 1712195495519689047);
    good("exp 9.2e15", "9.2e15", 9200000000000000000);

    // Negative values: halves away from zero.
    good("neg -0", "-0", 0);
    good("neg -1.5", "-1.5", -1500);
    good("neg -0.0005 half", "-0.0005", -1);
    good("neg -0.0004", "-0.0004", 0);
    good("neg -0.0015", "-0.0015", -2);
    good("neg spec example", "-34.476999999999997", -34477);
    good("neg -5e-4", "-5e-4", -1);

    // Whitespace and an explicit sign.
    good("ws spaces", " 12 ", 12000);
    good("ws tab newline", "\t1.5\n", 1500);
    good("ws crlf", "\r\n 3 \r\n", 3000);
    good("ws negative", " -2 ", -2000);
    good("plus 5", "+5", 5000);
    good("plus half", "+0.0005", 1);

    // int64 limits: INT64_MAX ns = 9223372036854775.807 µs.
    good("max ns", "9223372036854775.807", kMax);
    good("-max ns", "-9223372036854775.807", -kMax);

    // Malformed.
    bad("empty", "");
    bad("only spaces", "   ");
    bad("dot", ".");
    bad("1.2.3", "1.2.3");
    bad("abc", "abc");
    bad("1e", "1e");
    bad("1e+", "1e+");
    bad("e3", "e3");
    bad("minus only", "-");
    bad("--1", "--1");
    bad("+-1", "+-1");
    bad("1 2", "1 2");
    bad("1x", "1x");
    bad("1,5", "1,5");
    bad("0x10", "0x10");
    bad("nan", "nan");
    bad("inf", "inf");

    // Overflow: the value in ns does not fit an int64.
    bad("1e400", "1e400");
    bad("1e16", "1e16");
    bad("20 digits", "99999999999999999999");
    bad("19-digit µs", "9223372036854775807");
    bad("max ns + 1", "9223372036854775.808");
    bad("-(max ns + 2)", "-9223372036854775.809");
    // 9223372036854775.8075 µs rounds to INT64_MAX + 1 ns.
    bad("max ns + 0.5 rounds over", "9223372036854775.8075");
}

void TstTimeParse::microsTextToNs()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, ok);
    QFETCH(qint64, ns);

    int64_t result = 0x5a5a5a5a;
    const bool parsed =
        ::microsTextToNs(std::string_view(text.constData(), std::size_t(text.size())), result);
    QCOMPARE(parsed, ok);
    if (ok)
        QCOMPARE(qint64(result), ns);
}

void TstTimeParse::microsIntToNs_data()
{
    QTest::addColumn<qint64>("micros");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("ns");

    const qint64 limit = kMax / 1000; // 9223372036854775
    QTest::newRow("0") << qint64(0) << true << qint64(0);
    QTest::newRow("1") << qint64(1) << true << qint64(1000);
    QTest::newRow("-1") << qint64(-1) << true << qint64(-1000);
    QTest::newRow("epoch") << qint64(1623142623460016) << true << qint64(1623142623460016000);
    QTest::newRow("largest") << limit << true << qint64(9223372036854775000);
    QTest::newRow("smallest") << -limit << true << qint64(-9223372036854775000);
    QTest::newRow("largest + 1") << limit + 1 << false << qint64(0);
    QTest::newRow("smallest - 1") << -limit - 1 << false << qint64(0);
    QTest::newRow("INT64_MAX") << kMax << false << qint64(0);
    QTest::newRow("INT64_MIN") << std::numeric_limits<qint64>::min() << false << qint64(0);
}

void TstTimeParse::microsIntToNs()
{
    QFETCH(qint64, micros);
    QFETCH(bool, ok);
    QFETCH(qint64, ns);

    int64_t result = 0x5a5a5a5a;
    QCOMPARE(::microsIntToNs(micros, result), ok);
    if (ok)
        QCOMPARE(qint64(result), ns);
}

void TstTimeParse::integerTextAgreesWithIntegerPath_data()
{
    QTest::addColumn<qint64>("micros");
    const qint64 limit = kMax / 1000;
    for (qint64 v :
         {qint64(0), qint64(7), qint64(-7), qint64(1623142623460016), limit, -limit, limit + 1, -limit - 1})
        QTest::newRow(QByteArray::number(v).constData()) << v;
}

void TstTimeParse::integerTextAgreesWithIntegerPath()
{
    // A trace may write the same integer as a number or as a string ("ts": 5 vs "ts": "5").
    QFETCH(qint64, micros);
    int64_t fromInt = 1, fromText = 2;
    const bool okInt = ::microsIntToNs(micros, fromInt);
    const std::string text = std::to_string(micros);
    const bool okText = ::microsTextToNs(text, fromText);
    QCOMPARE(okText, okInt);
    if (okInt)
        QCOMPARE(qint64(fromText), qint64(fromInt));
}

void TstTimeParse::crossCheckKinetoTrace()
{
    const QString trace = testdata::path(kNsResolutionTrace);
    REQUIRE_TEST_DATA(trace);
    QVERIFY2(QFileInfo::exists(QStringLiteral(SCOPELINE_PYTHON)),
             "python oracle " SCOPELINE_PYTHON " not found");

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString listFile = tmp.filePath(QStringLiteral("times.tsv"));

    QProcess python;
    python.start(QStringLiteral(SCOPELINE_PYTHON),
                 {QStringLiteral("-c"), QString::fromUtf8(kExtractScript), trace, listFile});
    QVERIFY2(python.waitForFinished(60000), "python oracle did not finish");
    QVERIFY2(python.exitStatus() == QProcess::NormalExit && python.exitCode() == 0,
             python.readAllStandardError().constData());
    const QList<QByteArray> summary = python.readAllStandardOutput().trimmed().split(' ');
    QCOMPARE(summary.size(), 2);
    const qint64 expectedLines = summary[0].toLongLong();
    const qint64 doubleWrong = summary[1].toLongLong();
    // The trace is the one whose epoch µs lose precision in a double: the check has teeth.
    QVERIFY2(
        doubleWrong > expectedLines / 2,
        qPrintable(
            QStringLiteral("only %1 of %2 values differ as doubles").arg(doubleWrong).arg(expectedLines)));

    QFile list(listFile);
    QVERIFY(list.open(QIODevice::ReadOnly));
    qint64 lines = 0, mismatches = 0;
    QStringList firstMismatches;
    while (!list.atEnd()) {
        const QByteArray line = list.readLine().chopped(1);
        const int tab = line.indexOf('\t');
        QVERIFY2(tab > 0, line.constData());
        const QByteArray text = line.left(tab);
        bool numberOk = false;
        const qint64 expected = line.mid(tab + 1).toLongLong(&numberOk);
        QVERIFY2(numberOk, line.constData());
        int64_t actual = 0;
        const bool ok =
            ::microsTextToNs(std::string_view(text.constData(), std::size_t(text.size())), actual);
        if (!ok || actual != expected) {
            ++mismatches;
            if (firstMismatches.size() < 10)
                firstMismatches << QStringLiteral("%1 -> %2 (ok %3), expected %4")
                                       .arg(QString::fromLatin1(text))
                                       .arg(actual)
                                       .arg(ok)
                                       .arg(expected);
        }
        ++lines;
    }
    QCOMPARE(lines, expectedLines);
    QVERIFY2(lines > 100000, "expected every ts and dur of the trace (68,692 ts + 45,420 dur)");
    QVERIFY2(mismatches == 0, qPrintable(QStringLiteral("%1 mismatches, e.g.\n").arg(mismatches) +
                                         firstMismatches.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(TstTimeParse)
#include "tst_timeparse.moc"
