// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Real runs that the timeline tests share, and loading the first run of a folder or file.

#include "model/analysis/runsummaryfile.h"
#include "model/loading/loadedrun.h"
#include "model/loading/tracefolder.h"
#include "testdata.h"

namespace testruns {

// JAX on an H100: the einsum variant's first run (named scopes, one GPU stream).
inline const QString kJaxRun = testdata::path("jax_h100/jax_named_scopes/trace_file_einsum_0");
// vLLM on an H100 with CUDA graph launches (TraceLens test trace).
inline const QString kGraphTrace = testdata::path(
    "public/TraceLens/tests__traces__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz");

// The first run found at path; an empty LoadedRun (not ok()) when there is none.
inline scopeline::LoadedRun loadFirst(const QString &path)
{
    const QList<scopeline::LoadedRun> runs = scopeline::LoadedRun::loadAll(scopeline::TraceFolder::scan(path));
    return runs.isEmpty() ? scopeline::LoadedRun() : runs.front();
}

// A summary as its file's bytes (written to file): two summaries are the same when these are.
inline QByteArray summaryBytes(const scopeline::RunSummary &summary, const QString &file)
{
    if (!scopeline::RunSummaryFile::write(summary, file).isEmpty())
        return {};
    QFile in(file);
    return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray();
}

} // namespace testruns
