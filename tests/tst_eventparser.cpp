// SPDX-License-Identifier: GPL-3.0-or-later
// The fast event parse (parseEventsFast) against nlohmann's, which stays the reference: on the
// event arrays of the real traces the fast path must take the text and give the same events, field by
// field; on hostile text (bad numbers, literals, escapes, surrogates, UTF-8, structure, nesting)
// and on thousands of random edits of real events it must either refuse the text or agree.

#include "eventparsecheck.h"
#include "gunzip.h"
#include "model/formats/jsonstructurescanner.h"
#include "testdata.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRandomGenerator>
#include <QtTest>

using namespace eventparsecheck;

namespace {

// The event array of a Chrome trace: the whole document when it is a bare array, else the array
// under the top-level "traceEvents" key. Empty when there is none.
std::string eventArray(const std::string &doc)
{
    int depth = 0, openDepth = -1;
    std::size_t open = 0, stringStart = 0;
    std::string lastKey; // the last string at depth 1
    scopeline::JsonStringTracker strings;
    for (std::size_t i = 0; i < doc.size(); ++i) {
        const char c = doc[i];
        const bool wasInString = strings.inString;
        if (strings.feed(c)) {
            if (!wasInString)
                stringStart = i + 1;
            else if (!strings.inString && depth == 1)
                lastKey = doc.substr(stringStart, i - stringStart);
            continue;
        }
        if (c == '[' || c == '{') {
            if (openDepth < 0 && c == '[' && (depth == 0 || (depth == 1 && lastKey == "traceEvents"))) {
                open = i;
                openDepth = depth;
            }
            ++depth;
        } else if ((c == ']' || c == '}') && --depth == openDepth) {
            return doc.substr(open, i + 1 - open);
        }
    }
    return {};
}

QStringList realTraces()
{
    QStringList paths;
    for (const QString &trace : testdata::publicTraces())
        if (!trace.contains(QLatin1String("rocprof__"))) // rocprofv3 JSON: not an event array
            paths << testdata::path(QStringLiteral("public/") + trace);
    paths << testdata::path("jax_h100/jax_command_buffers/trace_file_einsum_1/plugins/profile/2026_11_22_13_41_53/vm.trace.json.gz");
    return paths;
}

} // namespace

class TstEventParser : public QObject
{
    Q_OBJECT

private slots:
    void realTraces_data();
    void realTraces();
    void hostileText_data();
    void hostileText();
    void randomEdits();
    void controlBytesAtEveryPosition();
};

void TstEventParser::realTraces_data()
{
    QTest::addColumn<QString>("path");
    for (const QString &path : ::realTraces())
        QTest::newRow(qPrintable(path.section(QLatin1Char('/'), -1))) << path;
}

void TstEventParser::realTraces()
{
    QFETCH(QString, path);
    REQUIRE_TEST_DATA(path);
    const std::string events = eventArray(testdata::gunzip(path).toStdString());
    QVERIFY2(events.size() > 1000, qPrintable(QStringLiteral("no event array found in ") + path));
    Fast fast = Fast::Refused;
    const QString difference = compareParses(events, &fast);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QVERIFY2(fast == Fast::Accepted, "the fast path refused a real trace: it would be read by nlohmann");
}

void TstEventParser::hostileText_data()
{
    QTest::addColumn<QByteArray>("text");
    // Each is a whole chunk; the name says what is wrong with it, or what is unusual.
    const std::pair<const char *, const char *> cases[] = {
        {"ordinary",
         R"([{"ph":"X","name":"k","pid":1,"tid":2,"ts":1.5,"dur":2,"args":{"a":[1,{"b":"c"}]}}])"},
        {"fields of every type",
         R"([{"ph":5,"name":5.50,"cat":null,"pid":true,"tid":"  7 ","ts":"1.5","dur":[1],"id":{"a":1}}])"},
        {"escaped key", R"([{"n\u0061me":"x","\"q\"":1}])"},
        // the hot keys are told from their first bytes; the rest, or escaped ones, from their text
        {"escaped hot keys",
         R"([{"\u0070h":"X","n\u0061me":"k","c\u0061t":"c","p\u0069d":1,"t\u0069d":2,"t\u0073":1.5,"d\u0075r":2,"\u0069d":3,"\u0061rgs":{"a":1}}])"},
        {"keys like the hot ones",
         R"([{"phx":"X","names":"k","pi":1,"tsx":1,"ar":{},"argsx":{"a":1},"i":2,"d":1,"c":"x","name":"n"}])"},
        {"bad escape in a key", R"([{"n\qme":"x"}])"},
        {"bad escape in a skipped key", R"([{"other":{"\q":1}}])"},
        {"bad escape in an arg key", R"([{"args":{"\q":1}}])"},
        {"duplicate keys", R"([{"name":"a","name":"b","ts":1,"ts":2}])"},
        {"not objects", R"([1,"s",null,true,[1,{"a":2}],{}])"},
        {"empty", "[]"},
        {"ids as floats and strings",
         R"([{"pid":6.0,"tid":"6","id":" 6 ","args":{"correlation":"12","correlation_id":3.0}}])"},
        {"bookkeeping args", R"([{"args":{"Ev Idx":1,"Python id":[1],"Python parent id":{"a":1},"x":-0}}])"},
        {"nested arg escapes", R"([{"args":{"k":["a\"b","c\\d","e\nf","\u00e9",{"\t":1e5,"y":-1.5E-3}]}}])"},
        {"minus zero", R"([{"ts":-0,"dur":-0.0,"pid":-0,"args":{"a":-0,"b":[-0]}}])"},
        {"big integers",
         R"([{"ts":18446744073709551615,"dur":18446744073709551616,"pid":-9223372036854775809,"args":{"a":99999999999999999999999}}])"},
        {"number out of range", R"([{"ts":1e400}])"},
        {"negative out of range", R"([{"args":{"a":-1e400}}])"},
        {"underflow", R"([{"ts":1e-400,"args":{"a":[1e-400]}}])"},
        {"leading zero", R"([{"ts":01}])"},
        // the plain forms read straight from the token, and the first forms past them
        {"plain times",
         R"([{"ts":0,"dur":0.5,"id":0},{"ts":999999999999999.999,"dur":1.25},{"ts":12,"dur":7.1}])"},
        {"times past the plain forms", R"([{"ts":1234567890123456.5,"dur":0.1234},{"ts":-1.5,"dur":1E3}])"},
        {"leading zero fraction", R"([{"ts":00.5}])"},
        {"leading zero id", R"([{"pid":007}])"},
        {"leading zero arg", R"([{"args":{"a":007}}])"},
        {"negative leading zero arg", R"([{"args":{"a":-01}}])"},
        {"integers around 18 digits",
         R"([{"args":{"a":999999999999999999,"b":-999999999999999999,"c":1000000000000000000,"d":-0}}])"},
        {"ids at the int64 edge",
         R"([{"pid":999999999999999999,"tid":9223372036854775807,"id":9223372036854775808}])"},
        {"ids repeat and change",
         R"([{"cat":"a","pid":1,"tid":"1"},{"cat":"a","pid":1,"tid":1.0},{"cat":"b","pid":"x","tid":2}])"},
        {"bare dot", R"([{"ts":1.}])"},
        {"bare exponent", R"([{"ts":1e}])"},
        {"plus sign", R"([{"ts":+1}])"},
        {"dot first", R"([{"ts":.5}])"},
        {"minus alone", R"([{"ts":-}])"},
        {"true cut short", R"([{"a":tru}])"},
        {"null cut short", R"([{"a":nul}])"},
        {"literal run on", R"([{"a":truex}])"},
        {"number run on", R"([{"a":1x}])"},
        {"bad escape", R"(["\x"])"},
        {"short unicode escape", R"(["\u12"])"},
        {"lone high surrogate", R"(["\ud800"])"},
        {"high surrogate then letter", R"(["\ud800\u0041"])"},
        {"lone low surrogate", R"(["\udc00"])"},
        {"surrogate pair", R"(["\ud83d\ude00"])"},
        {"surrogate pair in an event", R"([{"name":"\ud83d\ude00","args":{"name":"\uD83D\uDE00\u00e9"}}])"},
        {"UTF-8 in an event", "[{\"name\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\",\"cat\":\"\xc3\xa9\"}]"},
        {"escaped nul", R"([{"name":"a\u0000b"}])"},
        {"tab in string", "[{\"name\":\"a\tb\"}]"},
        {"control byte in string", "[{\"name\":\"a\x01\"}]"},
        {"control byte outside", "[{\"name\":\x01\"a\"}]"},
        {"invalid UTF-8", "[{\"name\":\"\xff\"}]"},
        {"overlong UTF-8", "[{\"name\":\"\xc0\xaf\"}]"},
        {"UTF-8 surrogate", "[{\"name\":\"\xed\xa0\x80\"}]"},
        {"cut UTF-8", "[{\"name\":\"\xe2\x82\"}]"},
        {"missing comma", R"([{"a":1 "b":2}])"},
        {"missing colon", R"([{"a" 1}])"},
        {"number key", R"([{1:2}])"},
        {"trailing comma in object", R"([{"a":1,}])"},
        {"trailing comma in array", R"([1,])"},
        {"double comma", R"([1,,2])"},
        {"two values", R"([1 2])"},
        {"colon in array", R"([1:2])"},
        {"unclosed object", R"([{"a":1])"},
        {"unclosed array", R"([{"a":[1}])"},
        {"extra close", R"([{"a":1}}])"},
        // Found by fuzz_eventparser: an unread string value followed by ':' looked like a key.
        {"string value as key", R"([{"ph":"X":-9"y %":7}},{}])"},
        {"string value as key, skipped field", R"([{"a":"X":1}])"},
        {"string value as key, name", R"([{"name":"X":1,"b":2}])"},
        {"string as key in array", R"([{"args":{"k":["X":1]}}])"},
        {"string as key in skipped array", R"([{"other":["X":1]}])"},
        {"cut short", R"([{"a":1},{"b")"},
        {"no closing bracket", R"([{"a":1})"},
        {"text after", R"([{"a":1}] x)"},
        {"second array after", R"([1] [2])"},
        {"object, not array", R"({"a":1})"},
        {"blanks everywhere",
         " [ { \"name\" : \"a\" , \"ts\" : 1.25 \r\n, \"args\" : { \"k\" : [ 1 , 2 ] } } ] "},
        {"empty key and value", R"([{"":""}])"},
        {"quote and backslash last",
         R"([{"a\"":"b\"","c\\":"d\\","name":"\\","cat":"x\\\"","args":{"\\":"\""}}])"},
        {"blanks around colons", "[{\"name\"\t:\n\"a\" ,\"\" \r: \"\" , \"args\":{\"k\" :\"v\"\n}}]"},
    };
    for (const auto &[name, text] : cases)
        QTest::newRow(name) << QByteArray(text);
    std::string deep = "[{\"args\":{\"k\":";
    for (int i = 0; i < 300; ++i)
        deep += i % 2 ? "{\"a\":" : "[";
    deep += "1";
    for (int i = 299; i >= 0; --i)
        deep += i % 2 ? "}" : "]";
    deep += "}}]";
    QTest::newRow("300 levels") << QByteArray::fromStdString(deep);
    std::string wide = "[{\"args\":{\"k\":[";
    for (int i = 0; i < 3000; ++i)
        wide += (i ? ",\"" : "\"") + std::to_string(i) + '"';
    wide += "]}}]";
    QTest::newRow("arg text over 4096 bytes") << QByteArray::fromStdString(wide);
}

void TstEventParser::hostileText()
{
    QFETCH(QByteArray, text);
    Fast fast = Fast::Refused;
    const QString difference = compareParses(text.toStdString(), &fast);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    // Valid text the fast path reads itself rather than hand to nlohmann (a refusal would pass above).
    static const QStringList taken = {"escaped key", "escaped hot keys", "keys like the hot ones",
                                      "duplicate keys", "ids as floats and strings", "bookkeeping args",
                                      "nested arg escapes", "minus zero", "big integers", "plain times",
                                      "times past the plain forms", "surrogate pair in an event",
                                      "UTF-8 in an event", "escaped nul",
                                      "blanks everywhere", "empty key and value", "quote and backslash last",
                                      "blanks around colons", "arg text over 4096 bytes", "empty"};
    if (taken.contains(QString::fromLatin1(QTest::currentDataTag())))
        QVERIFY2(fast == Fast::Accepted, "left to nlohmann");
}

void TstEventParser::randomEdits()
{
    // Events of a real PyTorch trace, edited at random: bytes replaced, inserted or deleted from an
    // alphabet that JSON cares about. Most results are not JSON; the fast path must refuse those or agree.
    const QString path = testdata::path(QStringLiteral("public/") + testdata::publicTraces()[4]);
    REQUIRE_TEST_DATA(path);
    const std::string events = eventArray(testdata::gunzip(path).toStdString());
    QVERIFY(events.size() > 20000);
    std::size_t cut = events.find("},", 8000);
    QVERIFY(cut != std::string::npos);
    const std::string sample = events.substr(0, cut + 1) + ']';
    QVERIFY(compareParses(sample).isEmpty());

    QRandomGenerator random(29);
    const char alphabet[] = "{}[],:\"\\ 0123456789.eE+-tfnul\x01\xff\xc3";
    int accepted = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string text = sample;
        for (int edits = random.bounded(1, 4); edits > 0; --edits) {
            const std::size_t at = std::size_t(random.bounded(int(text.size())));
            const char c = alphabet[random.bounded(int(sizeof alphabet) - 1)];
            switch (random.bounded(3)) {
            case 0: text[at] = c; break;
            case 1: text.insert(at, 1, c); break;
            default: text.erase(at, 1); break;
            }
        }
        Fast fast = Fast::Refused;
        const QString difference = compareParses(text, &fast);
        QVERIFY2(difference.isEmpty(), qPrintable(QStringLiteral("round %1: %2").arg(round).arg(difference)));
        accepted += fast == Fast::Accepted;
    }
    // Edits inside strings leave valid JSON: the comparison must have been made on many.
    QVERIFY2(accepted > 300, qPrintable(QStringLiteral("the fast path took only %1 of 3000").arg(accepted)));
}

void TstEventParser::controlBytesAtEveryPosition()
{
    // A tab, newline or 0x01 inside a string is refused (nlohmann rejects it, and names the byte);
    // tab and newline between tokens are blanks. At every offset within the 16-byte steps of the scan.
    for (const char control : {'\t', '\n', '\x01'}) {
        for (int at = 0; at < 40; ++at) {
            const std::string filler(std::size_t(at), 'x');
            const std::string inside = "[{\"name\":\"" + filler + control + "\",\"ts\":1}]";
            const std::string outside = "[{\"name\":\"" + filler + "\"," + control + "\"ts\":1}]";
            const bool blankOutside = control != '\x01';
            for (const auto &[text, taken] : {std::pair{inside, false}, std::pair{outside, blankOutside}}) {
                Fast fast = Fast::Refused;
                const QString difference = compareParses(text, &fast);
                QVERIFY2(difference.isEmpty(), qPrintable(difference));
                QVERIFY2((fast == Fast::Accepted) == taken,
                         qPrintable(QStringLiteral("byte %1 at %2").arg(int(control)).arg(at)));
            }
        }
    }
}

QTEST_GUILESS_MAIN(TstEventParser)
#include "tst_eventparser.moc"
