// SPDX-License-Identifier: GPL-3.0-or-later
// SessionFile: JSON round trip of every field, paths relative to the session file's folder, corrupt
// files reported (naming the file) without touching the state, and failed writes reported.

#include "model/loading/sessionfile.h"
#include "model/loading/traceloader.h"

#include "testdata.h"

#include <QElapsedTimer>
#include <QStorageInfo>
#include <QtTest>

#include <functional>

using scopeline::MatchMode;
using scopeline::SampleMode;
using scopeline::SessionFile;
using scopeline::SessionState;
using scopeline::TraceLoader;

namespace {

// Whether file permissions stop this process: false for root, which writes into read-only folders.
bool permissionsApply()
{
    QTemporaryDir dir;
    const QString locked = dir.filePath(QStringLiteral("locked"));
    if (!dir.isValid() || !QDir().mkdir(locked) ||
        !QFile::setPermissions(locked, QFile::ReadOwner | QFile::ExeOwner))
        return true;
    QFile probe(locked + QStringLiteral("/probe"));
    const bool wrote = probe.open(QIODevice::WriteOnly);
    if (wrote) {
        probe.close();
        probe.remove();
    }
    QFile::setPermissions(locked, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return !wrote;
}

// A state with every field away from its default.
SessionState fullState(const QString &pathA, const QString &pathB)
{
    SessionState s;
    s.pathA = pathA;
    s.pathB = pathB;
    s.labelA = QStringLiteral("matmul");
    s.labelB = QStringLiteral("K=5 einsum"); // a pair's names, as LABEL=PATH gave them
    s.scopes = {QStringLiteral("attn_q_k"), QStringLiteral("mlp"),
                QStringLiteral("layer[0-9]+/ß δ \"quoted\"")};
    s.match = MatchMode::Regex;
    s.samples = SampleMode::Span;
    s.threshold = 0.025;
    s.stepScope = QStringLiteral("PjitFunction(<lambda>)");
    s.pooled = false;
    s.logScale = true;
    s.zoomLocked = false;
    s.viewStartA = 1200;
    s.viewEndA = 987654321;
    // JAX and Kineto timestamps are since the epoch: beyond what a double holds exactly.
    s.viewStartB = 1732281698123456789LL;
    s.viewEndB = 1732281698123456999LL;
    s.runA = pathA + QStringLiteral("/run_3/trace.json.gz");
    s.runB = pathB + QStringLiteral("/run_1.pt.trace.json");
    s.byOp = true;
    s.foldNumbers = true;
    s.kernelFilter = QStringLiteral("gemm");
    s.kernel = QStringLiteral("loop_transpose_fusion_*");
    s.tab = QStringLiteral("ranks");
    return s;
}

QJsonObject readJson(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

bool writeBytes(const QString &file, const QByteArray &bytes)
{
    QFile f(file);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

bool copyTree(const QString &from, const QString &to)
{
    if (!QDir().mkpath(to))
        return false;
    const QDir source(from);
    for (const QFileInfo &entry :
         source.entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden)) {
        const QString target = to + QLatin1Char('/') + entry.fileName();
        if (entry.isDir() ? !copyTree(entry.absoluteFilePath(), target)
                          : !QFile::copy(entry.absoluteFilePath(), target))
            return false;
    }
    return true;
}

// A valid session file's JSON with one key replaced (or removed when value is undefined).
QByteArray validWith(const QString &key, const QJsonValue &value)
{
    QJsonObject o{{QStringLiteral("format"), QStringLiteral("scopeline-session")},
                  {QStringLiteral("version"), 1},
                  {QStringLiteral("paths"), QJsonObject{{QStringLiteral("a"), QStringLiteral("/x/a")},
                                                        {QStringLiteral("b"), QStringLiteral("/x/b")}}},
                  {QStringLiteral("scopes"), QJsonArray{QStringLiteral("mlp")}},
                  {QStringLiteral("match"), QStringLiteral("substring")},
                  {QStringLiteral("samples"), QStringLiteral("instance")},
                  {QStringLiteral("threshold"), 0.05},
                  {QStringLiteral("pooled"), true},
                  {QStringLiteral("logScale"), false},
                  {QStringLiteral("zoomLocked"), true},
                  {QStringLiteral("view"),
                   QJsonObject{{QStringLiteral("a"),
                                QJsonObject{{QStringLiteral("start"), 0}, {QStringLiteral("end"), 10}}}}}};
    if (!key.isEmpty()) {
        if (value.isUndefined())
            o.remove(key);
        else
            o[key] = value;
    }
    return QJsonDocument(o).toJson();
}

} // namespace

class TstSessionFile : public QObject
{
    Q_OBJECT

private slots:
    void equality()
    {
        const SessionState base = fullState(QStringLiteral("/a"), QStringLiteral("/b"));
        QVERIFY(base == base);
        QVERIFY(SessionState() == SessionState());
        QVERIFY(!(base == SessionState()));
        const std::vector<std::function<void(SessionState &)>> changes = {
            [](SessionState &s) { s.pathA += QLatin1Char('x'); },
            [](SessionState &s) { s.pathB += QLatin1Char('x'); },
            [](SessionState &s) { s.scopes.removeLast(); },
            [](SessionState &s) { s.match = MatchMode::Component; },
            [](SessionState &s) { s.samples = SampleMode::Instance; },
            [](SessionState &s) { s.threshold = 0.03; },
            [](SessionState &s) { s.stepScope.clear(); },
            [](SessionState &s) { s.pooled = !s.pooled; },
            [](SessionState &s) { s.logScale = !s.logScale; },
            [](SessionState &s) { s.zoomLocked = !s.zoomLocked; },
            [](SessionState &s) { ++s.viewStartA; },
            [](SessionState &s) { ++s.viewEndA; },
            [](SessionState &s) { ++s.viewStartB; },
            [](SessionState &s) { ++s.viewEndB; },
            [](SessionState &s) { s.runA.clear(); },
            [](SessionState &s) { s.runB += QLatin1Char('x'); },
            [](SessionState &s) { s.labelA.clear(); },
            [](SessionState &s) { s.labelB += QLatin1Char('x'); },
            [](SessionState &s) { s.variantLabels << QStringLiteral("x"); },
            [](SessionState &s) { s.variantPaths << QStringLiteral("/x"); },
            [](SessionState &s) { s.byOp = !s.byOp; },
            [](SessionState &s) { s.foldNumbers = !s.foldNumbers; },
            [](SessionState &s) { s.kernelFilter.clear(); },
            [](SessionState &s) { s.kernel += QLatin1Char('x'); },
            [](SessionState &s) { s.tab = QStringLiteral("scopes"); },
        };
        for (std::size_t i = 0; i < changes.size(); ++i) {
            SessionState changed = base;
            changes[i](changed);
            QVERIFY2(!(changed == base), qPrintable(QStringLiteral("change %1 not seen").arg(i)));
        }
    }

    void roundTrip()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // One side far from the session (absolute), one side inside its folder (relative).
        const SessionState saved = fullState(QStringLiteral("/srv/traces/jax_h100/trace_file_matmul_*"),
                                             dir.filePath(QStringLiteral("runs/einsum")));
        const QString file = dir.filePath(QStringLiteral("comparison.scopeline"));
        QString error;
        QVERIFY2(SessionFile::save(saved, file, &error), qPrintable(error));
        QVERIFY(error.isEmpty());

        const QJsonObject json = readJson(file);
        QCOMPARE(json[QStringLiteral("format")].toString(), QStringLiteral("scopeline-session"));
        QCOMPARE(json[QStringLiteral("version")].toInt(), 1);
        QCOMPARE(json[QStringLiteral("match")].toString(), QStringLiteral("regex"));
        QCOMPARE(json[QStringLiteral("samples")].toString(), QStringLiteral("span"));
        // No temporary files left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files),
                 QStringList{QStringLiteral("comparison.scopeline")});

        SessionState loaded;
        QVERIFY2(SessionFile::load(file, loaded, &error), qPrintable(error));
        QCOMPARE(loaded.pathA, saved.pathA);
        QCOMPARE(loaded.pathB, saved.pathB);
        QCOMPARE(loaded.labelA, saved.labelA);
        QCOMPARE(loaded.labelB, saved.labelB);
        QCOMPARE(loaded.scopes, saved.scopes);
        QCOMPARE(loaded.match, saved.match);
        QCOMPARE(loaded.samples, saved.samples);
        QCOMPARE(loaded.threshold, saved.threshold);
        QCOMPARE(loaded.stepScope, saved.stepScope);
        QCOMPARE(loaded.pooled, saved.pooled);
        QCOMPARE(loaded.logScale, saved.logScale);
        QCOMPARE(loaded.zoomLocked, saved.zoomLocked);
        QCOMPARE(loaded.viewStartA, saved.viewStartA);
        QCOMPARE(loaded.viewEndA, saved.viewEndA);
        QCOMPARE(loaded.viewStartB, saved.viewStartB);
        QCOMPARE(loaded.viewEndB, saved.viewEndB);
        QCOMPARE(loaded.runA, saved.runA);
        QCOMPARE(loaded.runB, saved.runB);
        // the run in the session's folder is stored relative to it
        QCOMPARE(json[QStringLiteral("view")]
                     .toObject()[QStringLiteral("b")]
                     .toObject()[QStringLiteral("run")]
                     .toString(),
                 QStringLiteral("runs/einsum/run_1.pt.trace.json"));
        QVERIFY(loaded == saved);

        // More than two variants: their labels and paths (a label may hold `=`), relative where inside.
        SessionState variants = saved;
        variants.variantLabels = {QStringLiteral("base"), QStringLiteral("K=5"), QStringLiteral("K=10")};
        variants.variantPaths = {saved.pathA, saved.pathB, dir.filePath(QStringLiteral("runs/k10"))};
        QVERIFY2(SessionFile::save(variants, file, &error), qPrintable(error));
        QCOMPARE(readJson(file)[QStringLiteral("variants")].toArray()[2].toObject()[QStringLiteral("path")].toString(),
                 QStringLiteral("runs/k10"));
        QVERIFY2(SessionFile::load(file, loaded, &error), qPrintable(error));
        QVERIFY(loaded == variants);

        // Defaults survive too; saving again overwrites.
        SessionState defaults;
        defaults.pathA = saved.pathA;
        defaults.pathB = saved.pathB;
        QVERIFY2(SessionFile::save(defaults, file, &error), qPrintable(error));
        QVERIFY2(SessionFile::load(file, loaded, &error), qPrintable(error));
        QVERIFY(loaded == defaults);
        // A session of no pair is neither written (nothing open) nor read (it opened an empty window).
        QVERIFY(!SessionFile::save(SessionState(), file, &error));
        QVERIFY2(error.contains(QLatin1String("no pair is open")), qPrintable(error));
        QFile empty(file);
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.write(R"({"format": "scopeline-session", "version": 1, "paths": {"a": "", "b": ""}})");
        empty.close();
        QVERIFY(!SessionFile::load(file, loaded, &error));
        QVERIFY2(error.contains(QLatin1String("names no pair")), qPrintable(error));
    }

    void relativePaths()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const QString project = root.filePath(QStringLiteral("project"));
        QVERIFY(QDir().mkpath(project + QStringLiteral("/runs/einsum_0")));
        QVERIFY(QDir().mkpath(project + QStringLiteral("/runs/matmul_0")));
        QVERIFY(QDir().mkpath(project + QStringLiteral("/session")));
        const QString file = project + QStringLiteral("/session/compare.scopeline");

        SessionState state =
            fullState(project + QStringLiteral("/runs/matmul_*"), project + QStringLiteral("/runs/einsum_0"));
        QString error;
        QVERIFY2(SessionFile::save(state, file, &error), qPrintable(error));
        QJsonObject paths = readJson(file)[QStringLiteral("paths")].toObject();
        QCOMPARE(paths[QStringLiteral("a")].toString(), QStringLiteral("../runs/matmul_*"));
        QCOMPARE(paths[QStringLiteral("b")].toString(), QStringLiteral("../runs/einsum_0"));

        // Inside the session's folder: plain relative paths.
        const QString inside = project + QStringLiteral("/inside.scopeline");
        QVERIFY2(SessionFile::save(state, inside, &error), qPrintable(error));
        paths = readJson(inside)[QStringLiteral("paths")].toObject();
        QCOMPARE(paths[QStringLiteral("a")].toString(), QStringLiteral("runs/matmul_*"));
        QCOMPARE(paths[QStringLiteral("b")].toString(), QStringLiteral("runs/einsum_0"));

        // A path that shares only the filesystem root with the session stays absolute.
        SessionState far = state;
        far.pathB = QStringLiteral("/usr/share/scopeline-nowhere/run");
        QVERIFY2(SessionFile::save(far, inside, &error), qPrintable(error));
        paths = readJson(inside)[QStringLiteral("paths")].toObject();
        QCOMPARE(paths[QStringLiteral("b")].toString(), far.pathB);
        SessionState loaded;
        QVERIFY2(SessionFile::load(inside, loaded, &error), qPrintable(error));
        QCOMPARE(loaded.pathB, far.pathB);
        // A hand-edited absolute path loads as the window's own path of it (the session stays its save
        // target): cleaned.
        QJsonObject edited = readJson(inside);
        QJsonObject editedPaths = edited[QStringLiteral("paths")].toObject();
        editedPaths[QStringLiteral("b")] = far.pathB + QStringLiteral("/./");
        edited[QStringLiteral("paths")] = editedPaths;
        QVERIFY(writeBytes(inside, QJsonDocument(edited).toJson()));
        QVERIFY2(SessionFile::load(inside, loaded, &error), qPrintable(error));
        QCOMPARE(loaded.pathB, far.pathB);

        // A copy of the project folder somewhere else resolves against its new location.
        QTemporaryDir elsewhere;
        QVERIFY(elsewhere.isValid());
        const QString moved = elsewhere.filePath(QStringLiteral("moved/copy"));
        QVERIFY(copyTree(project, moved));
        QVERIFY2(SessionFile::load(moved + QStringLiteral("/session/compare.scopeline"), loaded, &error),
                 qPrintable(error));
        QCOMPARE(loaded.pathA, QDir::cleanPath(moved + QStringLiteral("/runs/matmul_*")));
        QCOMPARE(loaded.pathB, QDir::cleanPath(moved + QStringLiteral("/runs/einsum_0")));
        QVERIFY(QFileInfo(loaded.pathB).isDir());
        QCOMPARE(loaded.scopes, state.scopes);

        // A relative path as the user gave it (relative to the working directory) is made absolute first.
        const QString cwd = QDir::currentPath();
        QVERIFY(QDir::setCurrent(project));
        state.pathA = QStringLiteral("runs/../runs/matmul_0");
        const bool ok = SessionFile::save(state, file, &error);
        QDir::setCurrent(cwd);
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(readJson(file)[QStringLiteral("paths")].toObject()[QStringLiteral("a")].toString(),
                 QStringLiteral("../runs/matmul_0"));
        QVERIFY2(SessionFile::load(file, loaded, &error), qPrintable(error));
        QCOMPARE(loaded.pathA, QDir::cleanPath(project + QStringLiteral("/runs/matmul_0")));
    }

    void corrupt_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("problem"); // a word the message must contain

        QTest::newRow("empty file") << QByteArray() << QStringLiteral("not a valid session file");
        QTest::newRow("not JSON") << QByteArray("{\"format\": \"scopeline-session\", ")
                                  << QStringLiteral("not a valid session file");
        QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0", 10)
                                << QStringLiteral("not a valid session file");
        QTest::newRow("array root") << QByteArray("[1, 2]") << QStringLiteral("no JSON object");
        QTest::newRow("wrong format") << validWith(QStringLiteral("format"), QStringLiteral("chrome-trace"))
                                      << QStringLiteral("format");
        QTest::newRow("no format") << validWith(QStringLiteral("format"), QJsonValue::Undefined)
                                   << QStringLiteral("format");
        QTest::newRow("newer version") << validWith(QStringLiteral("version"), 2) << QStringLiteral("newer");
        QTest::newRow("version string")
            << validWith(QStringLiteral("version"), QStringLiteral("1")) << QStringLiteral("version");
        QTest::newRow("no version") << validWith(QStringLiteral("version"), QJsonValue::Undefined)
                                    << QStringLiteral("version");
        QTest::newRow("no paths") << validWith(QStringLiteral("paths"), QJsonValue::Undefined)
                                  << QStringLiteral("paths");
        QTest::newRow("paths list") << validWith(QStringLiteral("paths"),
                                                 QJsonArray{QStringLiteral("/a"), QStringLiteral("/b")})
                                    << QStringLiteral("paths");
        QTest::newRow("no path b") << validWith(QStringLiteral("paths"),
                                                QJsonObject{{QStringLiteral("a"), QStringLiteral("/a")}})
                                   << QStringLiteral("paths.b");
        QTest::newRow("path a number")
            << validWith(QStringLiteral("paths"),
                         QJsonObject{{QStringLiteral("a"), 3}, {QStringLiteral("b"), QStringLiteral("/b")}})
            << QStringLiteral("paths.a");
        QTest::newRow("labels list") << validWith(QStringLiteral("labels"), QJsonArray{QStringLiteral("a")})
                                     << QStringLiteral("labels");
        QTest::newRow("label b number")
            << validWith(QStringLiteral("labels"),
                         QJsonObject{{QStringLiteral("a"), QStringLiteral("x")}, {QStringLiteral("b"), 3}})
            << QStringLiteral("labels");
        QTest::newRow("one variant")
            << validWith(QStringLiteral("variants"),
                         QJsonArray{QJsonObject{{QStringLiteral("label"), QStringLiteral("a")},
                                                {QStringLiteral("path"), QStringLiteral("/a")}}})
            << QStringLiteral("variants");
        QTest::newRow("variant without a path")
            << validWith(QStringLiteral("variants"),
                         QJsonArray{QJsonObject{{QStringLiteral("label"), QStringLiteral("a")}},
                                    QJsonObject{{QStringLiteral("label"), QStringLiteral("b")}}})
            << QStringLiteral("variant");
        const auto variant = [](const QString &label, const QString &path) {
            return QJsonObject{{QStringLiteral("label"), label}, {QStringLiteral("path"), path}};
        };
        QTest::newRow("variant label empty")
            << validWith(QStringLiteral("variants"),
                         QJsonArray{variant(QStringLiteral("a"), QStringLiteral("/x")),
                                    variant(QString(), QStringLiteral("/y"))})
            << QStringLiteral("label is empty (/y)");
        QTest::newRow("variant labels twice")
            << validWith(QStringLiteral("variants"),
                         QJsonArray{variant(QStringLiteral("a"), QStringLiteral("/x")),
                                    variant(QStringLiteral("a"), QStringLiteral("/y"))})
            << QStringLiteral("two variants are labelled \"a\"");
        QTest::newRow("scopes string")
            << validWith(QStringLiteral("scopes"), QStringLiteral("mlp")) << QStringLiteral("scopes");
        QTest::newRow("scopes numbers")
            << validWith(QStringLiteral("scopes"), QJsonArray{1, 2}) << QStringLiteral("scopes");
        QTest::newRow("unknown match")
            << validWith(QStringLiteral("match"), QStringLiteral("fuzzy")) << QStringLiteral("fuzzy");
        QTest::newRow("match number") << validWith(QStringLiteral("match"), 1) << QStringLiteral("match");
        QTest::newRow("unknown samples")
            << validWith(QStringLiteral("samples"), QStringLiteral("Kernel")) << QStringLiteral("Kernel");
        QTest::newRow("negative threshold")
            << validWith(QStringLiteral("threshold"), -0.01) << QStringLiteral("threshold");
        QTest::newRow("threshold in percent") // 1.5 meant as 1.5 %
            << validWith(QStringLiteral("threshold"), 1.5) << QStringLiteral("at most 1");
        QTest::newRow("threshold string")
            << validWith(QStringLiteral("threshold"), QStringLiteral("1%")) << QStringLiteral("threshold");
        QTest::newRow("unknown tab") << validWith(QStringLiteral("tab"), QStringLiteral("timeline"))
                                     << QStringLiteral("\"tab\" is not one of changed, scopes");
        QTest::newRow("kernel number") << validWith(QStringLiteral("kernel"), 3) << QStringLiteral("kernel");
        QTest::newRow("byOp string") << validWith(QStringLiteral("byOp"), QStringLiteral("yes"))
                                     << QStringLiteral("byOp");
        QTest::newRow("step number") << validWith(QStringLiteral("step"), 3) << QStringLiteral("step");
        QTest::newRow("pooled string")
            << validWith(QStringLiteral("pooled"), QStringLiteral("yes")) << QStringLiteral("pooled");
        QTest::newRow("logScale number")
            << validWith(QStringLiteral("logScale"), 1) << QStringLiteral("logScale");
        QTest::newRow("view reversed")
            << validWith(QStringLiteral("view"),
                         QJsonObject{{QStringLiteral("b"), QJsonObject{{QStringLiteral("start"), 10},
                                                                       {QStringLiteral("end"), 5}}}})
            << QStringLiteral("view.b");
        QTest::newRow("view fraction")
            << validWith(QStringLiteral("view"),
                         QJsonObject{{QStringLiteral("a"), QJsonObject{{QStringLiteral("start"), 0.5},
                                                                       {QStringLiteral("end"), 5}}}})
            << QStringLiteral("view.a");
        QTest::newRow("view run number")
            << validWith(QStringLiteral("view"),
                         QJsonObject{{QStringLiteral("a"), QJsonObject{{QStringLiteral("start"), 0},
                                                                       {QStringLiteral("end"), 5},
                                                                       {QStringLiteral("run"), 3}}}})
            << QStringLiteral("view.a.run");
        QTest::newRow("view list") << validWith(QStringLiteral("view"), QJsonArray{0, 1})
                                   << QStringLiteral("view");
        // absurd lengths are refused at load, naming the field, before any view lays them out
        const QString longText(5000, QLatin1Char('x'));
        QTest::newRow("path a too long")
            << validWith(QStringLiteral("paths"), QJsonObject{{QStringLiteral("a"), longText},
                                                              {QStringLiteral("b"), QStringLiteral("/b")}})
            << QStringLiteral("\"paths.a\" is 5000 characters long");
        QTest::newRow("scope too long")
            << validWith(QStringLiteral("scopes"), QJsonArray{longText}) << QStringLiteral("scopes");
        QTest::newRow("step too long")
            << validWith(QStringLiteral("step"), longText) << QStringLiteral("step");
    }

    void tenMegabytePathEndsAtOnce()
    {
        // The issue's case: a session whose path is 10 MB of text ends at once with a message that
        // names the file and the field (not the path itself, which would be laid out in the banner).
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("huge.scopeline.json"));
        const QString huge(10 * 1024 * 1024, QLatin1Char('a'));
        QVERIFY(writeBytes(
            file, validWith(QStringLiteral("paths"), QJsonObject{{QStringLiteral("a"), QStringLiteral("/a")},
                                                                 {QStringLiteral("b"), huge}})));
        QElapsedTimer timer;
        timer.start();
        SessionState state;
        QString error;
        QVERIFY(!SessionFile::load(file, state, &error));
        QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY2(error.contains(QDir::toNativeSeparators(file)), qPrintable(error.left(500)));
        QVERIFY2(error.contains(QLatin1String("paths.b")), qPrintable(error.left(500)));
        QVERIFY2(error.size() < 1000, "the message repeats the path");
    }

    void corrupt()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("broken.scopeline"));
        QVERIFY(writeBytes(file, bytes));

        const SessionState before = fullState(QStringLiteral("/keep/a"), QStringLiteral("/keep/b"));
        SessionState state = before;
        QString error;
        QVERIFY(!SessionFile::load(file, state, &error));
        QVERIFY2(state == before, "a failed load changed the state");
        QVERIFY2(error.contains(QDir::toNativeSeparators(file)), qPrintable(error));
        QVERIFY2(error.contains(problem), qPrintable(error));
    }

    void validBaseOfCorruptCases()
    {
        // The base document of the corrupt cases is itself valid, so each case fails for its own reason.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("ok.scopeline"));
        QVERIFY(writeBytes(file, validWith(QString(), QJsonValue())));
        SessionState state;
        QString error;
        QVERIFY2(SessionFile::load(file, state, &error), qPrintable(error));
        QCOMPARE(state.match, MatchMode::Substring);
        QCOMPARE(state.samples, SampleMode::Instance);
        QCOMPARE(state.threshold, 0.05);
        QCOMPARE(state.viewEndA, int64_t(10));
        QCOMPARE(state.pathA, QStringLiteral("/x/a"));
    }

    // A session saved as *.json, damaged or not, is a session by what it says, not by its name; a trace
    // is not, whatever it is named.
    void isSessionFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString saved = dir.filePath(QStringLiteral("session.json"));
        QString error;
        QVERIFY2(SessionFile::save(fullState(QStringLiteral("/a"), QStringLiteral("/b")), saved, &error),
                 qPrintable(error));
        QVERIFY(SessionFile::isSessionFile(saved));
        const QString damaged = dir.filePath(QStringLiteral("damaged.json"));
        QVERIFY(writeBytes(damaged, validWith(QStringLiteral("match"), QStringLiteral("glob"))));
        QVERIFY(SessionFile::isSessionFile(damaged));
        QVERIFY(!SessionFile::isSessionFile(testdata::path("fuzz/ubsan_process_sort_index_overflow.json")));
        QVERIFY(SessionFile::isSessionFile(dir.filePath(QStringLiteral("not_yet_written.scopeline.json"))));
        QVERIFY(!SessionFile::isSessionFile(dir.filePath(QStringLiteral("not_yet_written.json"))));
    }

    // Nothing is written over a saved session: a CSV or report named as one is refused, saying it is a
    // session (it had been called "a trace or a run summary").
    void sessionIsNoOutput()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const QString &name : {QStringLiteral("saved.scopeline.json"), QStringLiteral("saved.json")}) {
            const QString saved = dir.filePath(name);
            QString error;
            QVERIFY2(SessionFile::save(fullState(QStringLiteral("/a"), QStringLiteral("/b")), saved, &error),
                     qPrintable(error));
            QCOMPARE(TraceLoader::outputProblem(saved),
                     QStringLiteral("it is a saved session, which it would replace; name another file"));
        }
        QVERIFY(TraceLoader::outputProblem(dir.filePath(QStringLiteral("new.scopeline.json"))).isEmpty());
    }

    void missingFile()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("nothing.scopeline"));
        SessionState state = fullState(QStringLiteral("/a"), QStringLiteral("/b"));
        const SessionState before = state;
        QString error;
        QVERIFY(!SessionFile::load(file, state, &error));
        QVERIFY(state == before);
        QVERIFY2(error.contains(QDir::toNativeSeparators(file)), qPrintable(error));
    }

    void unwritable_data()
    {
        QTest::addColumn<QString>("relative"); // session file path inside a fresh temporary folder
        QTest::addColumn<bool>("readOnlyFolder");
        QTest::newRow("missing folder") << QStringLiteral("no/such/folder/s.scopeline") << false;
        QTest::newRow("folder is a file") << QStringLiteral("plain-file/s.scopeline") << false;
        QTest::newRow("target is a folder") << QStringLiteral("a-folder") << false;
        // sysfs refuses new files to everyone, root included (an absolute path: filePath keeps it).
        if (QStorageInfo(QStringLiteral("/sys")).fileSystemType() == "sysfs")
            QTest::newRow("file system without new files")
                << QStringLiteral("/sys/scopeline-test.scopeline") << false;
        else
            qInfo("file system without new files: not tested, /sys is no sysfs here");
        // Root (containers) writes into read-only folders anyway: that row needs a process that file
        // permissions apply to, and is left out, saying so, where they do not.
        if (permissionsApply())
            QTest::newRow("read-only folder") << QStringLiteral("locked/s.scopeline") << true;
        else
            qInfo("read-only folder: not tested, this process writes into read-only folders (root)");
    }

    void unwritable()
    {
        QFETCH(QString, relative);
        QFETCH(bool, readOnlyFolder);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeBytes(dir.filePath(QStringLiteral("plain-file")), "x"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("a-folder")));
        const QString locked = dir.filePath(QStringLiteral("locked"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("locked")));
        if (readOnlyFolder)
            QVERIFY(QFile::setPermissions(locked, QFile::ReadOwner | QFile::ExeOwner));
        const QString file = dir.filePath(relative);
        QString error;
        const bool ok =
            SessionFile::save(fullState(QStringLiteral("/a"), QStringLiteral("/b")), file, &error);
        QFile::setPermissions(locked, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY(!ok);
        QVERIFY2(error.contains(QDir::toNativeSeparators(file)), qPrintable(error));
        QVERIFY2(error.size() > QDir::toNativeSeparators(file).size() + 4, qPrintable(error)); // and a reason
        QVERIFY(!QFileInfo(file).isFile());
        QCOMPARE(QDir(locked).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());
        QCOMPARE(
            QDir(dir.filePath(QStringLiteral("a-folder"))).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
            QStringList());
    }

    void failedSaveKeepsOldFile()
    {
        // The old session stays intact when a save cannot complete (here: the state is invalid).
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("s.scopeline"));
        QString error;
        const SessionState good = fullState(QStringLiteral("/a"), QStringLiteral("/b"));
        QVERIFY2(SessionFile::save(good, file, &error), qPrintable(error));
        SessionState bad = good;
        bad.threshold = -1;
        QVERIFY(!SessionFile::save(bad, file, &error));
        QVERIFY2(error.contains(file), qPrintable(error));
        SessionState loaded;
        QVERIFY2(SessionFile::load(file, loaded, &error), qPrintable(error));
        QVERIFY(loaded == good);
    }
};

QTEST_GUILESS_MAIN(TstSessionFile)
#include "tst_sessionfile.moc"
