// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the tests find real traces: in the repository only, under tests/data/ (SCOPELINE_TEST_DATA;
// tests/data/README.md gives each file's source and license) and the bundled samples in
// resources/samples/ (SCOPELINE_SAMPLES). A test never skips for lack of data: a missing file fails
// the test that needs it, with a message naming the file.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QStringList>
#include <QtTest>

#include <unistd.h>

namespace testdata {

// A path below tests/data/, e.g. path("public/kineto/...json.gz").
inline QString path(const QString &relative)
{
    return QStringLiteral(SCOPELINE_TEST_DATA "/") + relative;
}

inline QString path(const char *relative)
{
    return path(QString::fromUtf8(relative));
}

// The 8 rank files of one DLRM training step (one run of 8 GPUs).
inline QString dlrmRun()
{
    return path("public/param/dlrm_kineto");
}

// One trace as a run of its own under another name, for many runs from one file: a hard link (a copy
// across filesystems). A symbolic link would be the same run, counted once by the folder scan. Make
// the folder under the build tree (testdata::scratchDir) so that the link stays on one filesystem.
inline bool anotherRun(const QString &trace, const QString &name)
{
    return ::link(QFile::encodeName(trace).constData(), QFile::encodeName(name).constData()) == 0 ||
           QFile::copy(trace, name);
}

// Runs of the 8-rank DLRM job in `folder`: folder/run_<i>/ each with the 8 rank files (hard links).
inline bool rankRuns(const QString &folder, int runs)
{
    const QDir job(dlrmRun());
    for (int i = 0; i < runs; ++i) {
        const QString run = QDir(folder).filePath(QStringLiteral("run_%1").arg(i));
        if (!QDir().mkpath(run))
            return false;
        for (const QString &file : job.entryList({QStringLiteral("*.json.gz")}, QDir::Files))
            if (!anotherRun(job.filePath(file), QDir(run).filePath(file)))
                return false;
    }
    return true;
}

// A temporary folder's template beside the test's working directory (the build tree), on the same
// filesystem as the repository's test data in a fresh clone.
inline QString scratchDir()
{
    return QDir::current().filePath(QStringLiteral("scratch-XXXXXX"));
}

// The public traces of tests/data/README.md, relative to tests/data/public/: tests that read "every
// public trace" list these, so that one gone missing fails naming it.
inline QStringList publicTraces()
{
    return {
        QStringLiteral(
            "HolisticTraceAnalysis/tests__data__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz"),
        QStringLiteral(
            "HolisticTraceAnalysis/tests__data__negative_queue_length_values_check__rank0.json.gz"),
        QStringLiteral("HolisticTraceAnalysis/"
                       "tests__data__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"),
        QStringLiteral("TraceLens/tests__rocprof__908_results.json.gz"),
        QStringLiteral("TraceLens/tests__traces__h100__gaunernst_bert-small-uncased__1016001.json.gz"),
        QStringLiteral("TraceLens/tests__traces__inference__sglang_decode__sglang_Qwen3-8B_decode.json.gz"),
        QStringLiteral(
            "TraceLens/tests__traces__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz"),
        QStringLiteral(
            "TraceLens/tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz"),
        QStringLiteral("TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz"),
        QStringLiteral(
            "kineto/tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz"),
        QStringLiteral("rocmProfileData/examples__rocm-profile-data__results__matmul_result.json.gz"),
        QStringLiteral("HolisticTraceAnalysis/tests__data__nccl_parser_config__nccl_data.json.gz"),
        QStringLiteral("HolisticTraceAnalysis/tests__data__df_index_resolver__df_index_resolver.json.gz"),
    };
}


// The first of paths that does not exist (following symbolic links); empty when all do.
inline QString firstMissing(const QStringList &paths)
{
    for (const QString &p : paths)
        if (p.isEmpty() || !QFileInfo::exists(p))
            return p.isEmpty() ? QStringLiteral("(empty path)") : p;
    return {};
}

inline QByteArray missingMessage(const QString &missing)
{
    return QStringLiteral("missing test data: %1 (tests/data/README.md says where it comes from)")
        .arg(missing)
        .toLocal8Bit();
}

} // namespace testdata

// Fails the current test, naming the file, unless every path given exists.
#define REQUIRE_TEST_DATA(...)                                                                               \
    do {                                                                                                     \
        const QString missing_ = testdata::firstMissing(QStringList{__VA_ARGS__});                           \
        QVERIFY2(missing_.isEmpty(), testdata::missingMessage(missing_).constData());                        \
    } while (false)
