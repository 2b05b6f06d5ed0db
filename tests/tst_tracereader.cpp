// SPDX-License-Identifier: GPL-3.0-or-later
// The list of trace readers: the file names it gives the open dialog and the folder scan, and that
// each reader takes its format's real files (tests/data) and the loader picks it for them.

#include "model/formats/chromejsonreader.h"
#include "model/formats/demangle.h"
#include "model/formats/inflatingstreambuf.h"
#include "model/formats/nsyssqlitereader.h"
#include "model/formats/rocpdreader.h"
#include "model/formats/rocprofv3jsonreader.h"
#include "model/formats/tracereader.h"
#include "model/loading/tracefolder.h"
#include "model/loading/traceloader.h"

#include "testdata.h"
#include "testprocess.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace scopeline;

Q_DECLARE_METATYPE(scopeline::TraceFormat)

namespace {

// The reader TraceLoader::load picks, asked the way it asks: binary readers on the stored bytes,
// then text readers on the first decompressed block. Yes wins, else the first Fallback.
const TraceReader *pickedFor(const QString &path, TraceReader::Match *match)
{
    TraceProbe probe;
    probe.path = path;
    probe.info = QFileInfo(path);
    if (!probe.info.isDir()) {
        QFile file(path);
        probe.opened = file.open(QIODevice::ReadOnly);
        probe.magic = file.read(16);
    }
    InflatingStreamBuf buffer;
    for (const TraceReader::Input input : {TraceReader::Input::File, TraceReader::Input::Text}) {
        if (input == TraceReader::Input::Text) {
            if (probe.info.isDir() || !buffer.open(path))
                return nullptr;
            probe.head = buffer.peek();
            probe.text = &buffer;
        }
        const TraceReader *fallback = nullptr;
        for (const TraceReader *reader : TraceReader::all()) {
            if (reader->input() != input)
                continue;
            const TraceReader::Match m = reader->match(probe);
            if (m == TraceReader::Match::Yes) {
                *match = m;
                return reader;
            }
            if (m == TraceReader::Match::Fallback && !fallback)
                fallback = reader;
        }
        if (fallback) {
            *match = TraceReader::Match::Fallback;
            return fallback;
        }
    }
    return nullptr;
}

} // namespace

class TstTraceReader : public QObject
{
    Q_OBJECT

private slots:
    // The open dialog's filter and the folder scan's file names are the readers' patterns, in order.
    void patternsComeFromTheReaders()
    {
        QCOMPARE(TraceLoader::fileNamePatterns(),
                 (QStringList{QStringLiteral("*.json"), QStringLiteral("*.json.gz"),
                              QStringLiteral("*_results.db"), QStringLiteral("*.sqlite")}));
        const QStringList formats = TraceLoader::formats();
        QCOMPARE(formats.size(), int(TraceReader::all().size()));
        for (std::size_t i = 0; i < TraceReader::all().size(); ++i) {
            const TraceReader *reader = TraceReader::all()[i];
            QVERIFY(!reader->formatName().isEmpty());
            QVERIFY(formats[int(i)].startsWith(reader->formatName()));
            for (const QString &pattern : reader->fileNamePatterns())
                QVERIFY2(TraceLoader::fileNamePatterns().contains(pattern), qPrintable(pattern));
        }
        for (const char *name :
             {"vm.trace.json.gz", "results.json", "908_results.db", "report1.sqlite", "TRACE.JSON.GZ",
              "notes.txt", "trace.json.bak", "x_results.db.bak", "profile.nsys-rep", "vm.xplane.pb"})
            QCOMPARE(TraceFolder::isTraceFileName(QLatin1String(name)),
                     QDir::match(TraceLoader::fileNamePatterns(), QLatin1String(name)));
    }

    // "looked for ..." is the readers' lookedFor() in list order: the same words as before the list.
    void emptyFolderNamesWhatWasLookedFor()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        QVERIFY(TraceFolder::scan(dir.path(), &error).empty());
        QCOMPARE(error,
                 QStringLiteral("%1: no trace files found (looked for plugins/profile/*/*.trace.json.gz, "
                                "*.pt.trace.json[.gz], *.json[.gz], results.json, *_results.db, *.sqlite)")
                     .arg(QDir::toNativeSeparators(dir.path())));
    }

    void realFilesGoToTheirReader_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("reader"); // formatName() of the reader that must take it
        QTest::addColumn<TraceFormat>("format");
        const QString chrome = ChromeJsonReader().formatName(),
                      rocprofV3 = RocprofV3JsonReader().formatName(), rocpd = RocpdReader().formatName(),
                      nsys = NsysSqliteReader().formatName();
        QTest::newRow("Kineto 2021")
            << testdata::path(
                   "public/kineto/"
                   "tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz")
            << chrome << TraceFormat::Kineto;
        QTest::newRow("JAX trace viewer")
            << testdata::path(
                   "h100_runs/jax_processes/einsum/proc_0/run_0/plugins/profile/2026_11_26_16_58_44/"
                   "vm.trace.json.gz")
            << chrome << TraceFormat::Jax;
        QTest::newRow("rocprofv3 JSON")
            << testdata::path("public/TraceLens/tests__rocprof__908_results.json.gz") << rocprofV3
            << TraceFormat::RocprofV3;
        QTest::newRow("rocpd database")
            << testdata::path("converted/rocpd/908_results.db") << rocpd << TraceFormat::Rocpd;
        QTest::newRow("rocpd run folder") << testdata::path("converted/rocpd") << rocpd << TraceFormat::Rocpd;
        QTest::newRow("nsys 2022")
            << testdata::path("public/pipit/pipit__tests__data__saxpy-mpi-cuda_nsys_perlmutter0.sqlite")
            << nsys << TraceFormat::NsysSqlite;
        QTest::newRow("nsys 2024") << testdata::path("public/Fuser/h200/f6ab0c3_report1.sqlite") << nsys
                                   << TraceFormat::NsysSqlite;
    }

    void realFilesGoToTheirReader()
    {
        QFETCH(QString, file);
        QFETCH(QString, reader);
        QFETCH(TraceFormat, format);
        REQUIRE_TEST_DATA(file);
        TraceReader::Match match = TraceReader::Match::No;
        const TraceReader *picked = pickedFor(file, &match);
        QVERIFY(picked);
        QCOMPARE(picked->formatName(), reader);
        // Only the Chrome JSON reader takes files as a fallback; every other one recognises its own.
        QCOMPARE(match, reader == ChromeJsonReader().formatName() ? TraceReader::Match::Fallback
                                                                  : TraceReader::Match::Yes);
        const QFileInfo info(file);
        if (info.isDir()) // a run's databases, several: one run, read through the folder
            QCOMPARE(picked->filesOfOneRun(QDir(file)).size(),
                     QDir(file).entryList({QStringLiteral("*_results.db")}).size());
        else
            QVERIFY2(QDir::match(picked->fileNamePatterns(), info.fileName()), qPrintable(info.fileName()));

        const LoadResult loaded = TraceLoader::load(file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(loaded.trace->format, format);
    }

    // Kernels a trace names by their mangled symbol are named by what it stands for, in every format:
    // each such kernel's count under its readable name against a Python count of the raw events, read
    // by binutils' c++filt. The symbol stays only where c++filt cannot read it either.
    void mangledKernelNamesAreRead_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("unreadable");
        // CK convolutions of 1,637 to 2,004 bytes: GCC's __cxa_demangle refuses all five
        QTest::newRow("ROCm Kineto, CK kernels")
            << testdata::path("public/TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz") << 0;
        QTest::newRow("CUDA Kineto, cuDNN's CUTLASS kernels")
            << testdata::path(
                   "public/HolisticTraceAnalysis/tests__data__nccl_parser_config__nccl_data.json.gz")
            << 0;
        // std::bfloat16_t (DF16b), and one symbol no demangler here reads (C++20's Tn)
        QTest::newRow("ROCm Kineto, aiter and C++20")
            << testdata::path(
                   "public/TraceLens/tests__traces__inference__sglang_decode__sglang_Qwen3-8B_decode.json.gz")
            << 1;
        QTest::newRow("rocpd, ck_tile kernels ROCm left mangled")
            << testdata::path("converted/rocpd/19_results.db") << 0;
    }
    void mangledKernelNamesAreRead()
    {
        QFETCH(QString, file);
        QFETCH(int, unreadable);
        REQUIRE_TEST_DATA(file);
        const ProcessResult oracle =
            runProcess(QStringLiteral(SCOPELINE_PYTHON),
                       {QStringLiteral(SCOPELINE_ORACLE_DIR "/mangled_kernels.py"), file});
        QVERIFY2(oracle.exitCode == 0, oracle.err.constData());
        const QJsonObject expected = QJsonDocument::fromJson(oracle.out).object();
        QVERIFY(!expected.isEmpty());

        const LoadResult loaded = TraceLoader::load(file);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        const TraceData &trace = *loaded.trace;
        QHash<QString, int> kernels;
        QSet<QString> mangled;
        for (uint32_t e = 0; e < trace.eventCount(); ++e)
            if (trace.kind[e] == EventKind::Kernel) {
                ++kernels[trace.qname(e)];
                if (trace.nameOf(e).substr(0, 2) == "_Z")
                    mangled.insert(trace.qname(e));
            }
        int stillMangled = 0;
        for (auto it = expected.begin(); it != expected.end(); ++it) {
            QCOMPARE(kernels.value(it.key()), it.value().toInt());
            stillMangled += it.key().startsWith(QLatin1String("_Z"));
        }
        QCOMPARE(stillMangled, unreadable);
        QCOMPARE(mangled.size(), unreadable);
    }

    // What the demangler is not given: text that is no symbol, and symbols past the length its stack
    // allows. Nesting as deep as the length allows returns, read or not.
    void demanglerBounds()
    {
        QCOMPARE(demangledName("ampere_sgemm_128x64_nn"), std::string());
        QCOMPARE(demangledName("_Z"), std::string());
        QCOMPARE(demangledName("_Z3addPfS_"), std::string("add(float*, float*)"));
        // void f<f<…f<int>…> >()
        auto nested = [](int depth) {
            std::string symbol = "_Z";
            for (int i = 0; i < depth; ++i)
                symbol += "1fI";
            symbol += 'i';
            for (int i = 0; i < depth; ++i)
                symbol += 'E';
            return symbol + "vv";
        };
        const std::string read = demangledName(nested(500));
        QCOMPARE(std::count(read.begin(), read.end(), '<'), std::ptrdiff_t(500));
        const int deepest = int(kMaxMangledName - 5) / 4; // 4 bytes a level and 5 more
        QVERIFY(nested(deepest).size() <= kMaxMangledName);
        demangledName(nested(deepest)); // libiberty gives up past about 550 levels; it must not crash
        QVERIFY(nested(deepest + 1).size() > kMaxMangledName);
        QCOMPARE(demangledName(nested(deepest + 1)), std::string());
        // a short symbol whose back-references double the name at each parameter, P<prev, prev>: 30 of
        // them stand for gigabytes (a load had taken 18 s and 2.2 GB at 25); cut off, left as it is
        const auto doubling = [](int times) {
            std::string symbol = "_Z1f1PIiiE";
            for (int i = 1; i <= times; ++i) { // the substitution before: S_, S0_ … S9_, SA_ … (base 36)
                const int n = i - 2;
                const std::string previous =
                    n < 0 ? "S_" : "S" + std::string(1, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n]) + "_";
                symbol += "S_I" + previous + previous + "E";
            }
            return symbol;
        };
        QVERIFY(doubling(30).size() < 320); // 308 bytes
        QCOMPARE(demangledName(doubling(30)), std::string());
        const std::string ten = demangledName(doubling(10)); // 2^10 of them, 1,432 characters: read whole
        QVERIFY2(ten.size() > 1000 && ten.size() < kMaxDemangledName, ten.c_str());
    }
};

QTEST_GUILESS_MAIN(TstTraceReader)
#include "tst_tracereader.moc"
