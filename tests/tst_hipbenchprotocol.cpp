// SPDX-License-Identifier: GPL-3.0-or-later
// What Scopeline reads from scopeline-hipbench, checked against the program's own code: the workload
// list is the text its `--list --json` prints (listJson(), and the built program when there is one),
// run arguments are accepted by its own parseRun(), progress lines are in the format main.cpp writes.
// A summary.json that is missing or malformed is an error naming the file; with a GPU, the summary of
// a real run reads back as its pair.

#include "model/runner/hipbenchprotocol.h"
#include "model/analysis/scopematcher.h"
#include "runreport.h"
#include "testprocess.h"
#include "workloads.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <sstream>

using namespace scopeline;

namespace {

const QString kHipbench = QStringLiteral(SCOPELINE_HIPBENCH); // empty when it is not built here

QByteArray realList()
{
    return QByteArray::fromStdString(hipbench::listJson());
}

// The workloads as the JSON says, to compare a parse with.
void compareWithJson(const QList<HipbenchWorkload> &parsed, const QJsonArray &json)
{
    QCOMPARE(parsed.size(), json.size());
    for (qsizetype i = 0; i < json.size(); ++i) {
        const QJsonObject w = json.at(i).toObject();
        QCOMPARE(parsed[i].name, w[QStringLiteral("name")].toString());
        QCOMPARE(parsed[i].description, w[QStringLiteral("description")].toString());
        QCOMPARE(parsed[i].variants.size(), 2);
        const QJsonArray options = w[QStringLiteral("options")].toArray();
        QCOMPARE(parsed[i].options.size(), options.size());
        for (qsizetype j = 0; j < options.size(); ++j) {
            const QJsonObject o = options.at(j).toObject();
            const HipbenchOption &option = parsed[i].options[j];
            QCOMPARE(option.name, o[QStringLiteral("name")].toString());
            QCOMPARE(option.defaultValue, o[QStringLiteral("default")].toString());
            QCOMPARE(option.help, o[QStringLiteral("help")].toString());
            QCOMPARE(option.choices.size(), o[QStringLiteral("choices")].toArray().size());
        }
    }
}

} // namespace

class TstHipbenchProtocol : public QObject
{
    Q_OBJECT

private slots:
    void parsesTheRealList()
    {
        QList<HipbenchWorkload> workloads;
        QString error;
        QVERIFY2(hipbenchprotocol::parseWorkloads(realList(), workloads, &error), qPrintable(error));
        compareWithJson(workloads, QJsonDocument::fromJson(realList()).array());
        QCOMPARE(workloads.first().name, QStringLiteral("launch-chain"));
        QCOMPARE(workloads.first().variants, (QStringList{QStringLiteral("eager"), QStringLiteral("graph")}));
    }

    void parsesTheBuiltProgramsList()
    {
        // `--list --json` needs no GPU: the built program is asked where there is one.
        if (kHipbench.isEmpty())
            QSKIP("no GPU: scopeline-hipbench is not built here (it needs nvcc and CUPTI)");
        const ProcessResult list = runProcess(kHipbench, hipbenchprotocol::listArguments());
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(list.out, realList());
        QList<HipbenchWorkload> workloads;
        QString error;
        QVERIFY2(hipbenchprotocol::parseWorkloads(list.out, workloads, &error), qPrintable(error));
    }

    void badLists_data()
    {
        // Each is the real list, broken in one way.
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        const QByteArray real = realList();
        QJsonArray list = QJsonDocument::fromJson(real).array();
        QTest::newRow("truncated") << real.left(real.size() / 2)
                                   << QStringLiteral("its output is not JSON (");
        QTest::newRow("text") << QByteArray(hipbench::listText().c_str()) << QStringLiteral("is not JSON");
        QTest::newRow("empty output") << QByteArray() << QStringLiteral("is not JSON");
        QTest::newRow("one workload, not a list")
            << QJsonDocument(list.first().toObject()).toJson() << QStringLiteral("not a JSON array");
        QTest::newRow("no workloads") << QByteArray("[]\n") << QStringLiteral("listed no workloads");
        QJsonObject second = list.at(1).toObject();
        second.remove(QStringLiteral("name"));
        QJsonArray noName = list;
        noName.replace(1, second);
        QTest::newRow("nameless workload")
            << QJsonDocument(noName).toJson() << QStringLiteral("workload 2 of its list has no name");
        QJsonObject first = list.first().toObject();
        QJsonArray options = first[QStringLiteral("options")].toArray();
        QJsonObject option = options.first().toObject();
        option.remove(QStringLiteral("name"));
        options.replace(0, option);
        first[QStringLiteral("options")] = options;
        list.replace(0, first);
        QTest::newRow("nameless option") << QJsonDocument(list).toJson()
                                         << QStringLiteral("an option of workload launch-chain has no name");
    }

    void badLists()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        QList<HipbenchWorkload> workloads{HipbenchWorkload{}};
        QString why;
        QVERIFY(!hipbenchprotocol::parseWorkloads(json, workloads, &why));
        QVERIFY2(why.contains(error), qPrintable(why));
        QCOMPARE(workloads.size(), 1); // left as it was
    }

    void runArgumentsAreTheProgramsOwn()
    {
        // Every workload with every option at its default: the program's own parser accepts the line.
        QList<HipbenchWorkload> workloads;
        QVERIFY(hipbenchprotocol::parseWorkloads(realList(), workloads, nullptr));
        for (const HipbenchWorkload &w : workloads) {
            QMap<QString, QString> values;
            for (const HipbenchOption &option : w.options)
                values.insert(option.name, option.defaultValue);
            const QStringList args =
                hipbenchprotocol::runArguments(w.name, QStringLiteral("/tmp/out dir"), values);
            QCOMPARE(args.first(), QStringLiteral("run"));
            std::vector<std::string> words;
            for (qsizetype i = 1; i < args.size(); ++i)
                words.push_back(args[i].toStdString());
            hipbench::RunConfig config;
            std::string error;
            QVERIFY2(hipbench::parseRun(words, config, error), error.c_str());
            QCOMPARE(config.workload->name, w.name.toStdString());
            QCOMPARE(config.out, std::string("/tmp/out dir"));
            for (auto it = values.cbegin(); it != values.cend(); ++it)
                QCOMPARE(QString::fromStdString(config.text(it.key().toStdString())), it.value());
        }
    }

    void progressLines()
    {
        // As main.cpp writes them: "progress: " << done << "/" << total << " " << what
        HipbenchProgress progress;
        QVERIFY(hipbenchprotocol::parseProgress(QStringLiteral("progress: 0/4 preparing eager"), progress));
        QCOMPARE(progress.done, 0);
        QCOMPARE(progress.total, 4);
        QCOMPARE(progress.message, QStringLiteral("preparing eager"));
        QVERIFY(hipbenchprotocol::parseProgress(QStringLiteral("progress: 3/4 graph run 1\n"), progress));
        QCOMPARE(progress.done, 3);
        QCOMPARE(progress.message, QStringLiteral("graph run 1"));
        QVERIFY(hipbenchprotocol::parseProgress(QStringLiteral("progress: 2/2"), progress));
        QCOMPARE(progress.message, QString());
        for (const char *other : {"scopeline-hipbench: no CUDA-capable device is detected", "progress: a/b",
                                  "eager  0  200  200  0  250.000", "progress 1/2"})
            QVERIFY2(!hipbenchprotocol::parseProgress(QString::fromUtf8(other), progress), other);
    }

    void progressLinesOfSeveralProcesses()
    {
        // As the program's RunReport writes them for --processes 2: one progress step per run, and the
        // message names the process.
        hipbench::RunConfig config;
        std::string error;
        QVERIFY(hipbench::parseRun({"launch-chain", "--processes", "2", "--repeat", "1", "--out", "d"},
                                   config, error));
        std::ostringstream table, progress;
        hipbench::RunReport report(config, "/d", table, progress);
        for (long p = 0; p < 2; ++p)
            for (const char *variant : {"eager", "graph"}) {
                QVERIFY(report.take({{"device", "GPU"}}));
                QVERIFY(report.take({{"preparing", variant}, {"process", p}}));
                QVERIFY(report.take({{"run", hipbench::runEntry(variant, p, 0, "f", {})}}));
            }
        QStringList messages;
        QList<int> done;
        for (const QString &line :
             QString::fromStdString(progress.str()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            HipbenchProgress parsed;
            QVERIFY2(hipbenchprotocol::parseProgress(line, parsed), qPrintable(line));
            QCOMPARE(parsed.total, 4);
            messages << parsed.message;
            done << parsed.done;
        }
        QCOMPARE(done, (QList<int>{0, 1, 1, 2, 2, 3, 3, 4}));
        QCOMPARE(messages.mid(4, 4), (QStringList{QStringLiteral("preparing eager in process 1"),
                                                  QStringLiteral("eager process 1 run 0 recorded"),
                                                  QStringLiteral("preparing graph in process 1"),
                                                  QStringLiteral("graph process 1 run 0 recorded")}));
    }

    // The ranges --list --json gives, checked as the program checks them (workloads.cpp's check()).
    void optionRanges()
    {
        HipbenchOption kernels;
        kernels.name = QStringLiteral("kernels");
        kernels.minimum = 1;
        kernels.maximum = 100000;
        for (const char *good : {"1", "100000", "200"})
            QCOMPARE(hipbenchprotocol::optionProblem(kernels, QString::fromLatin1(good)), QString());
        for (const char *bad : {"0", "100001", "", "1,000", "+5", "x", "5,10"})
            QCOMPARE(hipbenchprotocol::optionProblem(kernels, QString::fromLatin1(bad)),
                     QStringLiteral("kernels: a whole number from 1 to 100000"));
        HipbenchOption k = kernels;
        k.name = QStringLiteral("k");
        k.list = true;
        k.maximum = 600;
        QCOMPARE(hipbenchprotocol::optionProblem(k, QStringLiteral("5,10")), QString());
        for (const char *bad : {"5,10,", ",5", "5,601", ""})
            QCOMPARE(hipbenchprotocol::optionProblem(k, QString::fromLatin1(bad)),
                     QStringLiteral("k: whole numbers from 1 to 600, separated by commas"));
        HipbenchOption unranged = kernels; // a program that gives no range: its own check decides
        unranged.maximum = 0;
        QCOMPARE(hipbenchprotocol::optionProblem(unranged, QStringLiteral("0")), QString());
    }

    void exitMeanings()
    {
        // The exit statuses of the program's usage text.
        QCOMPARE(hipbenchprotocol::exitMeaning(1), QStringLiteral("bad usage"));
        QCOMPARE(hipbenchprotocol::exitMeaning(2), QStringLiteral("cannot write the output folder"));
        QCOMPARE(hipbenchprotocol::exitMeaning(3), QStringLiteral("no GPU or a GPU error"));
        QCOMPARE(hipbenchprotocol::exitMeaning(4), QStringLiteral("cancelled"));
        QCOMPARE(hipbenchprotocol::exitMeaning(77), QStringLiteral("unexpected failure"));
        // the loader's own status when a library is missing (libcudart.so.13): never ran, even --list
        QVERIFY(hipbenchprotocol::exitMeaning(127).contains(QLatin1String("library it needs is missing")));
    }

    void summaryFile_data()
    {
        // Written the way main.cpp writes it: "a" and "b" with label and path, scopes, samples.
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error"); // empty: read
        QTest::newRow("pair") << QByteArray(
                                     R"({"workload":"launch-chain","a":{"label":"eager","path":"@/eager"},
            "b":{"label":"graph","path":"@/graph"},"scopes":["chain"],"samples":"span"})")
                              << QString();
        QTest::newRow("no scopes") << QByteArray(
                                          R"({"a":{"path":"@/eager"},"b":{"path":"@/graph"},"scopes":[],
            "samples":"kernel"})") << QString();
        // As `scopeline-hipbench -o out` writes it where it ran: the folders are read beside the file.
        QTest::newRow("relative") << QByteArray(R"({"a":{"path":"out/eager"},"b":{"path":"out/graph"}})")
                                  << QString();
        QTest::newRow("missing") << QByteArray() << QStringLiteral("cannot be read");
        QTest::newRow("truncated") << QByteArray(R"({"a":{"path":"@/eager"},"b":)")
                                   << QStringLiteral("is not a JSON object (");
        QTest::newRow("array") << QByteArray("[1,2]") << QStringLiteral("is not a JSON object");
        // one variant (--mode eager) opens against itself, as a trace alone does
        QTest::newRow("one variant") << QByteArray(
                                            R"({"a":{"label":"eager","path":"@/eager"},"scopes":["chain"]})")
                                     << QString();
        QTest::newRow("no side A") << QByteArray(R"({"b":{"path":"@/graph"}})")
                                   << QStringLiteral("names no folder for side A");
        QTest::newRow("no folder") << QByteArray(R"({"a":{"path":"@/eager"},"b":{"path":"@/nowhere"}})")
                                   << QStringLiteral("which is not a folder");
        QTest::newRow("bad samples") << QByteArray(R"({"a":{"path":"@/eager"},"b":{"path":"@/graph"},
            "samples":"per-kernel"})")
                                     << QStringLiteral("unknown sample mode 'per-kernel'");
        QTest::newRow("bad scopes") << QByteArray(R"({"a":{"path":"@/eager"},"b":{"path":"@/graph"},
            "scopes":"chain"})") << QStringLiteral("\"scopes\" is not a list");
        // another program's summary.json beside traces: its folder is no recording (the array neither),
        // though read as one it says why it is not
        QTest::newRow("another program's")
            << QByteArray(R"({"accuracy":0.93,"runs":2})") << QStringLiteral("names no folder for side A");
    }

    void summaryFile()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("eager")) &&
                QDir(dir.path()).mkpath(QStringLiteral("graph")));
        if (!json.isEmpty()) {
            QFile file(hipbenchprotocol::summaryPath(dir.path()));
            QVERIFY(file.open(QIODevice::WriteOnly));
            QVERIFY(file.write(json.replace('@', dir.path().toUtf8())) > 0);
        }
        const bool foreign = QByteArray(QTest::currentDataTag()) == "array" ||
                             QByteArray(QTest::currentDataTag()) == "another program's";
        QCOMPARE(hipbenchprotocol::isRecordedPair(dir.path()), !json.isEmpty() && !foreign);
        SessionState state;
        QString why;
        const bool read = hipbenchprotocol::readSummary(dir.path(), state, &why);
        if (!error.isEmpty()) {
            QVERIFY(!read);
            QVERIFY2(why.contains(error), qPrintable(why));
            QVERIFY2(why.contains(hipbenchprotocol::summaryPath(dir.path())),
                     qPrintable(why)); // names the file
            return;
        }
        QVERIFY2(read, qPrintable(why));
        QCOMPARE(state.pathA, dir.filePath(QStringLiteral("eager")));
        const bool oneVariant = QByteArray(QTest::currentDataTag()) == "one variant";
        QCOMPARE(state.pathB, dir.filePath(oneVariant ? QStringLiteral("eager") : QStringLiteral("graph")));
        if (oneVariant) {
            QCOMPARE(state.scopes, QStringList{QStringLiteral("chain")});
        } else if (QByteArray(QTest::currentDataTag()) == "pair") {
            QCOMPARE(state.scopes, QStringList{QStringLiteral("chain")});
            QCOMPARE(state.samples, SampleMode::Span);
        } else {
            QVERIFY(state.scopes.isEmpty());
            QCOMPARE(state.samples, SampleMode::Kernel);
        }
    }

    // The real program on the GPU: skipped, with the reason, where there is none.
    void readsARealRunsSummary()
    {
        if (kHipbench.isEmpty())
            QSKIP("no GPU: scopeline-hipbench is not built here (it needs nvcc and CUPTI)");
        QTemporaryDir dir;
        const ProcessResult run = runProcess(
            kHipbench, hipbenchprotocol::runArguments(QStringLiteral("launch-chain"), dir.path(),
                                                      {{QStringLiteral("kernels"), QStringLiteral("16")},
                                                       {QStringLiteral("iterations"), QStringLiteral("2")},
                                                       {QStringLiteral("repeat"), QStringLiteral("1")}}));
        if (run.exitCode == 3)
            QSKIP(qPrintable(QStringLiteral("no GPU: ") + QString::fromUtf8(run.err.trimmed())));
        QVERIFY2(run.exitCode == 0, run.err.constData());
        // every stderr line is progress, and the last says all is done
        HipbenchProgress progress;
        for (const QByteArray &line : run.err.trimmed().split('\n'))
            QVERIFY2(hipbenchprotocol::parseProgress(QString::fromUtf8(line), progress), line.constData());
        QCOMPARE(progress.done, progress.total);
        SessionState state;
        QString error;
        QVERIFY2(hipbenchprotocol::readSummary(dir.path(), state, &error), qPrintable(error));
        QCOMPARE(state.pathA, dir.filePath(QStringLiteral("eager")));
        QCOMPARE(state.pathB, dir.filePath(QStringLiteral("graph")));
        QCOMPARE(state.scopes, QStringList{QStringLiteral("chain")});
        QCOMPARE(state.samples, SampleMode::Span);
    }
};

QTEST_GUILESS_MAIN(TstHipbenchProtocol)
#include "tst_hipbenchprotocol.moc"
