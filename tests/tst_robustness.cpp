// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile and broken traces: every file-level failure names the file (and the byte where known), every
// event-level problem skips only its event and is counted by reason, nothing recurses on input depth,
// memory follows what is kept rather than what is read, and the CLI's exit statuses say which is which.
// Inputs are generated here, or are cut-down and damaged copies of the real traces.

#include "model/analysis/scopeindex.h"
#include "model/analysis/traceanalysis.h"
#include "model/loading/traceloader.h"
#include "testdata.h"
#include "testprocess.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <functional>
#include <set>

using namespace scopeline;

namespace {

const QString kRealGz =
    testdata::path("public/TraceLens/tests__traces__h100__gaunernst_bert-small-uncased__1016001.json.gz");

// Peak resident memory of this process so far, in MB (Linux VmHWM).
double peakRssMb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    return 0;
}

// Writes a gzip file from pieces produced on the fly, so that gigabytes never sit in memory here.
bool writeGzipStream(const QString &path, const std::function<bool(QByteArray &piece)> &next)
{
    gzFile file = gzopen(QFile::encodeName(path).constData(), "wb1");
    if (!file)
        return false;
    QByteArray piece;
    bool ok = true;
    while (ok && next(piece))
        ok = gzwrite(file, piece.constData(), unsigned(piece.size())) == int(piece.size());
    return gzclose(file) == Z_OK && ok;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QByteArray gunzip(const QString &path)
{
    gzFile file = gzopen(QFile::encodeName(path).constData(), "rb");
    QByteArray out;
    char buffer[1 << 16];
    for (int n; file && (n = gzread(file, buffer, sizeof buffer)) > 0;)
        out.append(buffer, n);
    if (file)
        gzclose(file);
    return out;
}

int64_t skippedFor(const TraceData &t, const QString &reason)
{
    const auto it = t.skipped.find(reason);
    return it == t.skipped.end() ? 0 : it->second;
}

int64_t byteOffset(const QString &error)
{
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("byte (\\d+)")).match(error);
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

const char *kGood = R"({"ph":"X","name":"good","cat":"kernel","pid":1,"tid":7,"ts":5,"dur":2})";

} // namespace

class TstRobustness : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

    QString write(const QString &name, const QByteArray &bytes);

private slots:
    void badEventsAreSkippedAndCounted_data();
    void badEventsAreSkippedAndCounted();
    void fileLevelFailuresNameTheFileAndByte_data();
    void fileLevelFailuresNameTheFileAndByte();
    void cliReportsSkippedEventsAndSucceeds();
    void deepNesting();
    void longNamesAreKeptWhole();
    void duplicatedAndUnorderedEvents();
    void gzipBombOfBlanks();
    void oneHugeEventIsAnErrorNotAnAllocation();
    void tenMillionEvents();
    void damagedCopiesOfARealTrace();
    void pathsThatAreNotTraces();
    void sortIndexExtremes();
    void rocprofNumbersOutOfRange();
    void rocprofRecordsNotReadAreSaid();
    void fuzzFindings_data();
    void fuzzFindings();
};

QString TstRobustness::write(const QString &name, const QByteArray &bytes)
{
    const QString path = m_tmp.filePath(name);
    return writeFile(path, bytes) ? path : QString();
}

void TstRobustness::badEventsAreSkippedAndCounted_data()
{
    QTest::addColumn<QByteArray>("event");
    QTest::addColumn<QString>("reason");
    QTest::newRow("ts as a word") << QByteArray(
                                         R"({"ph":"X","name":"k","pid":1,"tid":7,"ts":"soon","dur":2})")
                                  << "unreadable ts";
    QTest::newRow("pid as an object")
        << QByteArray(R"({"ph":"X","name":"k","pid":{"a":1},"tid":7,"ts":1,"dur":2})") << "unreadable pid";
    QTest::newRow("tid null") << QByteArray(R"({"ph":"X","name":"k","pid":1,"tid":null,"ts":1,"dur":2})")
                              << "unreadable tid";
    QTest::newRow("name as an array")
        << QByteArray(R"({"ph":"X","name":["k"],"pid":1,"tid":7,"ts":1,"dur":2})") << "unreadable name";
    QTest::newRow("negative dur") << QByteArray(R"({"ph":"X","name":"k","pid":1,"tid":7,"ts":1,"dur":-2})")
                                  << "negative dur";
    QTest::newRow("kernel without dur") // not a call of 0 ns
        << QByteArray(R"({"ph":"X","name":"k","cat":"kernel","pid":1,"tid":7,"ts":1})") << "no dur";
    QTest::newRow("NaN dur as a string")
        << QByteArray(R"({"ph":"X","name":"k","pid":1,"tid":7,"ts":1,"dur":"NaN"})") << "unreadable dur";
    QTest::newRow("huge dur") << QByteArray(R"({"ph":"X","name":"k","pid":1,"tid":7,"ts":1,"dur":1e300})")
                              << "unreadable dur";
    QTest::newRow("ts 1e400") << QByteArray(R"({"ph":"X","name":"k","pid":1,"tid":7,"ts":1e400,"dur":2})")
                              << "number out of range";
    QTest::newRow("-1e400 in args")
        << QByteArray(R"({"ph":"X","name":"k","pid":1,"tid":7,"ts":1,"dur":2,"args":{"x":-1e400}})")
        << "number out of range";
    QTest::newRow("unknown ph") << QByteArray(R"({"ph":"Q","name":"k","pid":1,"tid":7,"ts":1})")
                                << "unsupported ph 'Q'";
    QTest::newRow("B without E") << QByteArray(R"({"ph":"B","name":"k","pid":1,"tid":8,"ts":1})")
                                 << "B without E";
    QTest::newRow("event is a number") << QByteArray("42") << "event is not an object";
}

// One bad event among good ones, early and deep in a multi-MB array: only it is lost.
void TstRobustness::badEventsAreSkippedAndCounted()
{
    QFETCH(QByteArray, event);
    QFETCH(QString, reason);
    for (const int position : {0, 30000}) {
        QByteArray doc = R"({"traceEvents":[)";
        for (int i = 0; i < 40000; ++i) {
            if (i)
                doc += ",\n";
            doc += i == position ? event
                                 : QByteArray(R"({"ph":"X","name":"k)") + QByteArray::number(i) +
                                       R"(","cat":"kernel","pid":1,"tid":7,"ts":)" +
                                       QByteArray::number(i * 10) + R"(,"dur":2})";
        }
        doc += "]}";
        const QString path = write(QStringLiteral("bad_event.json"), doc);
        const LoadResult r = TraceLoader::load(path);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(qint64(r.trace->eventCount()), qint64(39999));
        QCOMPARE(skippedFor(*r.trace, reason), int64_t(1));
        QCOMPARE(qint64(r.trace->skipped.size()), qint64(1));
    }
}

void TstRobustness::fileLevelFailuresNameTheFileAndByte_data()
{
    QTest::addColumn<QByteArray>("doc");
    QTest::addColumn<QString>("hint");
    QTest::addColumn<int>("at"); // 0-based offset of the culprit, -1 when no byte applies
    QTest::newRow("NaN literal") << QByteArray(R"({"traceEvents":[{"ph":"X","ts":NaN}]})") << "invalid JSON"
                                 << 30;
    QTest::newRow("cut mid-array") << QByteArray(R"({"traceEvents":[{"ph":"X","ts":1},{"ph")")
                                   << "unexpected end" << 38;
    QTest::newRow("empty") << QByteArray() << "empty" << -1;
    QTest::newRow("not a trace") << QByteArray(R"({"events":[]})") << "traceEvents" << -1;
    // not JSON from its first byte: said there, not at a '[' further on
    QTest::newRow("text, a bracket further on")
        << QByteArray("hello, not JSON [ nor this") << "invalid JSON" << 0;
    QTest::newRow("binary, a bracket further on")
        << QByteArray("\x7f"
                      "ELF\x02\x01\x01",
                      7) +
               QByteArray(1000, '\0') + QByteArray("[\x90\x91\0\0", 5)
        << "invalid JSON" << 0;
}

void TstRobustness::fileLevelFailuresNameTheFileAndByte()
{
    QFETCH(QByteArray, doc);
    QFETCH(QString, hint);
    QFETCH(int, at);
    const QString path = write(QStringLiteral("file_level.json"), doc);
    const LoadResult r = TraceLoader::load(path);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(path) && r.error.contains(hint), qPrintable(r.error));
    if (at >= 0) {
        const int64_t reported = byteOffset(r.error);
        QVERIFY2(reported >= at && reported <= at + 4, qPrintable(r.error));
    }
    // the CLI says it on stderr and exits 2
    const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("info"), path});
    QCOMPARE(cli.exitCode, 2);
    QVERIFY2(cli.err.contains(path.toUtf8()), cli.err.constData());
}

void TstRobustness::cliReportsSkippedEventsAndSucceeds()
{
    const QString path =
        write(QStringLiteral("skips.json"),
              QByteArray(R"({"traceEvents":[{"ph":"X","name":"k","pid":1,"tid":7,"ts":"soon","dur":2},)") +
                  kGood + "]}");
    const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("info"), path});
    QCOMPARE(cli.exitCode, 0);
    const QByteArray warning =
        "warning: " + path.toUtf8() + ": events that could not be read are left out (1 × unreadable ts)";
    QVERIFY2(cli.err.contains(warning), cli.err.constData());
    QVERIFY2(cli.out.contains("unreadable ts"), cli.out.constData());
    // the statistics commands go on without it, and say so
    const ProcessResult diff =
        runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("diff"), path, path});
    QCOMPARE(diff.exitCode, 0);
    QCOMPARE(diff.err.count(warning), 1); // one file as both sides: said once
}

// 200,000 levels of nesting in an event's args and after the event array: parsed without recursion.
void TstRobustness::deepNesting()
{
    const QByteArray open(200000, '['), close(200000, ']');
    for (const QByteArray &doc :
         {QByteArray(
              R"({"traceEvents":[{"ph":"X","name":"k","pid":1,"tid":7,"ts":1,"dur":2,"args":{"deep":)") +
              open + close + "}}]}",
          QByteArray(R"({"traceEvents":[)") + kGood + R"(],"deep":)" + open + close + "}"}) {
        const LoadResult r = TraceLoader::load(write(QStringLiteral("deep.json"), doc));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(qint64(r.trace->eventCount()), qint64(1));
    }
    // unbalanced: an error, not a crash
    const LoadResult r =
        TraceLoader::load(write(QStringLiteral("deep_cut.json"), QByteArray(R"({"traceEvents":[)") + open));
    QVERIFY(!r.ok());
}

void TstRobustness::longNamesAreKeptWhole()
{
    const QByteArray name(100 * 1024, 'n');
    const LoadResult r = TraceLoader::load(
        write(QStringLiteral("long_name.json"),
              R"({"traceEvents":[{"ph":"X","cat":"kernel","pid":1,"tid":7,"ts":1,"dur":2,"name":")" + name +
                  R"("}]})"));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(qint64(r.trace->nameOf(0).size()), qint64(name.size()));
}

void TstRobustness::duplicatedAndUnorderedEvents()
{
    QByteArray doc = R"({"traceEvents":[)";
    doc += R"({"ph":"X","name":"late","cat":"kernel","pid":1,"tid":7,"ts":50,"dur":2},)";
    doc += QByteArray(kGood) + "," + kGood + "," + kGood + "]}";
    const LoadResult r = TraceLoader::load(write(QStringLiteral("dups.json"), doc));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(qint64(r.trace->eventCount()), qint64(4));
    const TraceAnalysis analysis(*r.trace);
    QCOMPARE(analysis.total().busyNs, int64_t(4000)); // the copies overlap: 2 µs + 2 µs
    QCOMPARE(analysis.total().spanNs, int64_t(47000));
}

// A gzip of 1 GB of blanks inside the event array, then an error: memory stays small, the
// error's byte offset is exact, and the whole is read in about the time zlib takes.
void TstRobustness::gzipBombOfBlanks()
{
    const QString path = m_tmp.filePath(QStringLiteral("bomb.json.gz"));
    const QByteArray blanks(1 << 20, ' ');
    int step = 0;
    QVERIFY(writeGzipStream(path, [&](QByteArray &piece) {
        if (step == 0)
            piece = "{\"traceEvents\":[";
        else if (step <= 1024)
            piece = blanks;
        else if (step == 1025)
            piece = QByteArray(kGood) + ", @]}";
        else
            return false;
        ++step;
        return true;
    }));
    const double before = peakRssMb();
    const LoadResult r = TraceLoader::load(path);
    const double grown = peakRssMb() - before;
    QVERIFY(!r.ok());
    const int64_t at = 16 + (int64_t(1) << 30) + qstrlen(kGood) + 2; // the '@'
    const int64_t reported = byteOffset(r.error);
    QVERIFY2(reported >= at && reported <= at + 4, qPrintable(r.error));
    QVERIFY2(grown < 200, qPrintable(QStringLiteral("peak memory grew by %1 MB").arg(grown)));
}

void TstRobustness::oneHugeEventIsAnErrorNotAnAllocation()
{
    const QString path = m_tmp.filePath(QStringLiteral("huge_event.json.gz"));
    const QByteArray letters(1 << 20, 'x');
    int step = 0;
    QVERIFY(writeGzipStream(path, [&](QByteArray &piece) {
        if (step == 0)
            piece = R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":")";
        else if (step <= 300)
            piece = letters; // a 300 MB name
        else if (step == 301)
            piece = "\"}]}";
        else
            return false;
        ++step;
        return true;
    }));
    const LoadResult r = TraceLoader::load(path);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(QLatin1String("an event of more than 256 MB")) && r.error.contains(path),
             qPrintable(r.error));
}

// Ten million events: all kept, and memory follows the columns kept, not the 700 MB of JSON read.
void TstRobustness::tenMillionEvents()
{
    const QString path = m_tmp.filePath(QStringLiteral("ten_million.json.gz"));
    constexpr int kEvents = 10'000'000, kPerPiece = 100'000;
    int written = 0;
    qint64 jsonBytes = 0;
    QVERIFY(writeGzipStream(path, [&](QByteArray &piece) {
        if (written == kEvents)
            return false;
        piece = written == 0 ? "{\"traceEvents\":[" : ",";
        for (int i = 0; i < kPerPiece; ++i, ++written) {
            if (i)
                piece += ',';
            piece += R"({"ph":"X","cat":"kernel","name":"k","pid":1,"tid":)" +
                     QByteArray::number(written % 4) + R"(,"ts":)" + QByteArray::number(written) +
                     R"(,"dur":0.5})";
        }
        if (written == kEvents)
            piece += "]}";
        jsonBytes += piece.size();
        return true;
    }));
    const double before = peakRssMb();
    QElapsedTimer timer;
    timer.start();
    const LoadResult r = TraceLoader::load(path);
    const double grown = peakRssMb() - before;
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(qint64(r.trace->eventCount()), qint64(kEvents));
    qInfo("10M events: %.0f MB of JSON loaded in %.1f s, peak memory +%.0f MB", double(jsonBytes) / 1e6,
          double(timer.elapsed()) / 1000.0, grown);
    QVERIFY2(grown < double(jsonBytes) / 1e6,
             qPrintable(QStringLiteral("peak memory grew by %1 MB").arg(grown)));
}

// The real bert trace, cut at many points and damaged at many bytes: an error naming the file
// or a load, never a crash or a hang.
void TstRobustness::damagedCopiesOfARealTrace()
{
    REQUIRE_TEST_DATA(kRealGz);
    QFile real(kRealGz);
    QVERIFY(real.open(QIODevice::ReadOnly));
    const QByteArray gz = real.readAll();
    const QByteArray json = gunzip(kRealGz);
    QVERIFY(json.size() > 100000);
    // padded with NUL bytes to a block size, as gzip and Python read it: the same trace; other bytes
    // after the end are not ours to read
    const LoadResult whole = TraceLoader::load(kRealGz);
    const LoadResult padded =
        TraceLoader::load(write(QStringLiteral("padded.json.gz"), gz + QByteArray(4096, '\0')));
    QVERIFY2(whole.ok() && padded.ok(), qPrintable(padded.error));
    QCOMPARE(padded.trace->eventCount(), whole.trace->eventCount());
    const QString garbage = write(QStringLiteral("garbage.json.gz"), gz + QByteArray("GARBAGE"));
    const LoadResult followed = TraceLoader::load(garbage);
    QVERIFY2(!followed.ok() && followed.error.startsWith(garbage), qPrintable(followed.error));
    QRandomGenerator random(7);
    for (int i = 1; i <= 8; ++i) {
        // the compressed file cut short
        const QString cutGz = write(QStringLiteral("cut.json.gz"), gz.left(gz.size() * i / 9));
        LoadResult r = TraceLoader::load(cutGz);
        QVERIFY2(!r.ok() && r.error.contains(cutGz) && r.error.contains(QLatin1String("truncated")),
                 qPrintable(r.error));
        // the text cut short: the error is at the cut
        const qsizetype cut = json.size() * i / 9;
        r = TraceLoader::load(write(QStringLiteral("cut.json"), json.left(cut)));
        QVERIFY(!r.ok());
        const int64_t at = byteOffset(r.error);
        QVERIFY2(at > cut - 4096 && at <= cut + 1, qPrintable(r.error));
        // one byte replaced by a character JSON never has outside strings
        QByteArray damaged = json;
        const qsizetype where = qsizetype(random.bounded(quint32(json.size())));
        damaged[where] = '@';
        r = TraceLoader::load(write(QStringLiteral("damaged.json"), damaged));
        QVERIFY2(r.ok() || byteOffset(r.error) >= 0, qPrintable(r.error));
    }
}

void TstRobustness::pathsThatAreNotTraces()
{
    LoadResult r = TraceLoader::load(m_tmp.filePath(QStringLiteral("missing.json")));
    QVERIFY2(!r.ok() && r.error.contains(QLatin1String("missing.json")), qPrintable(r.error));
    r = TraceLoader::load(m_tmp.path());
    QVERIFY2(!r.ok() && r.error.contains(m_tmp.path()), qPrintable(r.error));
    const QString noTraces = m_tmp.filePath(QStringLiteral("no_traces"));
    QVERIFY(QDir().mkpath(noTraces));
    QVERIFY(writeFile(noTraces + QStringLiteral("/notes.txt"), "not a trace"));
    const ProcessResult cli = runProcess(QStringLiteral(SCOPELINE_CLI), {QStringLiteral("info"), noTraces});
    QCOMPARE(cli.exitCode, 2);
    QVERIFY2(cli.err.contains("no trace files found"), cli.err.constData());

    // Paths that cannot be opened as a file, whoever runs the test: a folder named like a trace and a
    // symbolic link to nothing.
    const QString folder = m_tmp.filePath(QStringLiteral("folder.json"));
    QVERIFY(QDir().mkpath(folder));
    r = TraceLoader::load(folder);
    QVERIFY2(!r.ok() && r.error.contains(folder), qPrintable(r.error));
    const QString dangling = m_tmp.filePath(QStringLiteral("dangling.json.gz"));
    QVERIFY(QFile::link(m_tmp.filePath(QStringLiteral("gone.json.gz")), dangling));
    r = TraceLoader::load(dangling);
    QVERIFY2(!r.ok() && r.error.contains(dangling), qPrintable(r.error));

    // SQLite formats (tst_sqliteformats has the damaged, locked and oversized databases): text behind
    // an nsys export's name, a SQLite header with garbage after it, Nsight Systems' closed report.
    const std::pair<const char *, QByteArray> sqliteCases[] = {
        {"text.sqlite", "not a database"},
        {"header_results.db", QByteArray("SQLite format 3\0", 16) + QByteArray(4000, '\x5a')},
        {"report.nsys-rep", "closed"}};
    for (const auto &[name, content] : sqliteCases) {
        const QString path = write(QLatin1String(name), content);
        r = TraceLoader::load(path);
        QVERIFY2(!r.ok() && r.error.startsWith(path), qPrintable(r.error));
    }

    // The real trace packed as Scopeline does not read it, by the packers themselves (Python's bz2, lzma,
    // zipfile and tarfile; UTF-16 text): said what it is, in the loader and in the folder scan's check.
    REQUIRE_TEST_DATA(kRealGz);
    const QString packedDir = m_tmp.filePath(QStringLiteral("packed"));
    QVERIFY(QDir().mkpath(packedDir));
    const ProcessResult packer = runProcess(
        QStringLiteral(SCOPELINE_PYTHON),
        {QStringLiteral("-c"),
         QStringLiteral(
             "import bz2, gzip, lzma, os, sys, tarfile, zipfile\n"
             "text = gzip.open(sys.argv[1]).read(); out = sys.argv[2]\n"
             "open(os.path.join(out, 'trace.json.bz2'), 'wb').write(bz2.compress(text))\n"
             "open(os.path.join(out, 'trace.json.xz'), 'wb').write(lzma.compress(text))\n"
             "open(os.path.join(out, 'utf16.json'), 'wb').write(text[:4096].decode().encode('utf-16'))\n"
             "with zipfile.ZipFile(os.path.join(out, 'trace.zip'), 'w') as z: z.writestr('t.json', text)\n"
             "open(os.path.join(out, 't.json'), 'wb').write(text)\n"
             "with tarfile.open(os.path.join(out, 'trace.tar.gz'), 'w:gz') as t: "
             "t.add(os.path.join(out, 't.json'), 't.json')\n"),
         kRealGz, packedDir});
    QVERIFY2(packer.exitCode == 0, packer.err.constData());
    const std::pair<const char *, const char *> packedCases[] = {{"trace.json.bz2", "is a bzip2 file"},
                                                                 {"trace.json.xz", "is an xz file"},
                                                                 {"utf16.json", "is UTF-16 text"},
                                                                 {"trace.zip", "is a zip archive"},
                                                                 {"trace.tar.gz", "is a tar archive"}};
    for (const auto &[name, what] : packedCases) {
        const QString path = QDir(packedDir).filePath(QLatin1String(name));
        r = TraceLoader::load(path);
        QVERIFY2(!r.ok() && r.error.startsWith(path + QStringLiteral(": ") + QLatin1String(what) +
                                               QStringLiteral(", which Scopeline does not read: unpack it")),
                 qPrintable(r.error));
        QVERIFY2(TraceLoader::notATrace(path).startsWith(QLatin1String(what)),
                 qPrintable(TraceLoader::notATrace(path)));
    }
    QVERIFY(TraceLoader::load(QDir(packedDir).filePath(QStringLiteral("t.json"))).ok());

    // A file without read permission: root reads it anyway, so this part needs a process that file
    // permissions apply to.
    const QString locked = write(QStringLiteral("locked.json"), QByteArray("[") + kGood + "]");
    QVERIFY(QFile::setPermissions(locked, QFileDevice::Permissions()));
    QFile probe(locked);
    if (probe.open(QIODevice::ReadOnly)) {
        qInfo("locked.json: permission denied not tested, this process reads unreadable files (root)");
        return;
    }
    r = TraceLoader::load(locked);
    QVERIFY2(!r.ok() && r.error.contains(locked), qPrintable(r.error));
}

// Sort indices are any int; process and thread indices together must neither overflow (a UBSan
// finding of the fuzzer) nor mix: the process's order comes first.
void TstRobustness::sortIndexExtremes()
{
    const QString path = write(QStringLiteral("sort.json"), R"([
{"name":"process_sort_index","ph":"M","pid":1,"args":{"sort_index":2147483647}},
{"name":"thread_sort_index","ph":"M","pid":1,"tid":1,"args":{"sort_index":-2147483648}},
{"name":"process_sort_index","ph":"M","pid":2,"args":{"sort_index":"1000002"}},
{"name":"thread_sort_index","ph":"M","pid":2,"tid":1,"args":{"sort_index":2147483647}},
{"name":"k","ph":"X","pid":1,"tid":1,"ts":0,"dur":1},
{"name":"k","ph":"X","pid":2,"tid":1,"ts":0,"dur":1}])");
    const LoadResult r = TraceLoader::load(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const auto &tracks = r.trace->tracks;
    QCOMPARE(qint64(tracks.size()), qint64(2));
    const Track &one = tracks[0].pid == QLatin1String("1") ? tracks[0] : tracks[1];
    const Track &two = tracks[0].pid == QLatin1String("1") ? tracks[1] : tracks[0];
    QVERIFY(two.sortIndex < one.sortIndex); // process 2 (1000002) before process 1 (2147483647)
}

// rocprofv3 is one JSON document; a dispatch record with a number no double holds is dropped and
// counted, not the file; beyond 64 of them the file is refused (each costs a re-read).
// rocprofv3's JSON reader takes kernel dispatches, HIP calls, roctx ranges and copies: the records of other
// kinds a file holds (generateJSON.cpp writes hsa_api, rccl_api, … beside them) are counted and said, and a
// file without dispatches says so, rather than reading as a GPU that ran nothing.
void TstRobustness::rocprofRecordsNotReadAreSaid()
{
    const QByteArray record =
        R"({"kind":21,"operation":214,"thread_id":9,"correlation_id":{"internal":1,"external":0},)"
        R"("start_timestamp":100,"end_timestamp":200})";
    const QByteArray dispatch =
        R"({"start_timestamp":300,"end_timestamp":400,"correlation_id":{"internal":1},)"
        R"("dispatch_info":{"agent_id":{"handle":7},"queue_id":{"handle":1},"kernel_id":1,"dispatch_id":1}})";
    const auto document = [&](const QByteArray &dispatches) {
        return R"({"rocprofiler-sdk-tool":[{"buffer_records":{"kernel_dispatch":[)" + dispatches +
               R"(],"hsa_api":[)" + record + ',' + record + ',' + record + R"(],"rccl_api":[)" + record +
               R"(],"hip_api":[)" + record + R"(],"memory_copy":[]}}]})";
    };
    LoadResult r = TraceLoader::load(write(QStringLiteral("calls_results.json"), document(dispatch)));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(qint64(r.trace->eventCount()), qint64(2)); // the dispatch and the HIP call
    QString notes = r.trace->notes.join(QLatin1Char('\n'));
    QVERIFY2(notes.contains(QLatin1String("3 hsa_api, 1 rccl_api record(s) not read")) &&
                 !notes.contains(QLatin1String("hip_api")) &&
                 !notes.contains(QLatin1String("no kernel dispatch")),
             qPrintable(notes));
    r = TraceLoader::load(write(QStringLiteral("no_dispatches_results.json"), document({})));
    QVERIFY2(r.ok(), qPrintable(r.error));
    notes = r.trace->notes.join(QLatin1Char('\n'));
    QVERIFY2(notes.contains(QLatin1String("no kernel dispatch records in this JSON")), qPrintable(notes));
}

void TstRobustness::rocprofNumbersOutOfRange()
{
    auto document = [](int records, const std::set<int> &bad) {
        QByteArray doc =
            R"({"rocprofiler-sdk-tool":[{"agents":[{"id":{"handle":7},"type":2,"logical_node_type_id":0,)"
            R"("product_name":"MI300X"}],"kernel_symbols":[{"kernel_id":1,"kernel_name":"k"}],)"
            R"("buffer_records":{"kernel_dispatch":[)";
        for (int i = 0; i < records; ++i) {
            if (i)
                doc += ',';
            const QByteArray end = bad.count(i) ? QByteArray("1e400") : QByteArray::number(i * 100 + 50);
            doc +=
                R"({"start_timestamp":)" + QByteArray::number(i * 100) + R"(,"end_timestamp":)" + end +
                R"(,"correlation_id":{"internal":)" + QByteArray::number(i + 1) +
                R"(},"dispatch_info":{"agent_id":{"handle":7},"queue_id":{"handle":1},"kernel_id":1,"dispatch_id":)" +
                QByteArray::number(i) + "}}";
        }
        return doc + "]}}]}";
    };
    LoadResult r = TraceLoader::load(write(QStringLiteral("results.json"), document(100, {3, 40, 99})));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(qint64(r.trace->eventCount()), qint64(97));
    QCOMPARE(skippedFor(*r.trace, QStringLiteral("number out of range")), int64_t(3));
    std::set<int> many;
    for (int i = 0; i < 70; ++i)
        many.insert(i);
    const QString path = write(QStringLiteral("many.json"), document(100, many));
    r = TraceLoader::load(path);
    QVERIFY2(!r.ok() && r.error.contains(path) && r.error.contains(QLatin1String("number overflow")) &&
                 byteOffset(r.error) > 0,
             qPrintable(r.error));
}

// Inputs the fuzzer found (tests/data/fuzz): each loads or fails with a message naming the file, and
// the analyses the GUI runs on a loaded trace go through.
void TstRobustness::fuzzFindings_data()
{
    QTest::addColumn<QString>("file");
    const QDir dir(testdata::path("fuzz"));
    for (const QFileInfo &info : dir.entryInfoList(QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(info.fileName())) << info.absoluteFilePath();
    if (dir.entryList(QDir::Files).isEmpty())
        QTest::newRow("none") << dir.path() + QStringLiteral("/*.json");
}

void TstRobustness::fuzzFindings()
{
    QFETCH(QString, file);
    REQUIRE_TEST_DATA(file); // the findings are kept in the repository: there is at least one
    const LoadResult r = TraceLoader::load(file);
    if (!r.ok()) {
        QVERIFY2(r.error.contains(file), qPrintable(r.error));
        return;
    }
    const TraceAnalysis analysis(*r.trace);
    const ScopeIndex index(analysis);
    QVERIFY(analysis.total().kernels >= 0 && index.scopes().size() < r.trace->eventCount() + 1000);
}

QTEST_GUILESS_MAIN(TstRobustness)
#include "tst_robustness.moc"
