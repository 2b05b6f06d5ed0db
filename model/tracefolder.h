// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Finds the runs in a trace folder: a single trace file, a run folder, or a parent of run folders
// (JAX plugins/profile/<ts>/, PyTorch *.pt.trace.json[.gz] / *.json[.gz], rocprof results.json,
// ROCm 7 rocpd *_results.db (several in one folder are one run), Nsight Systems *.sqlite exports).

#include <QString>
#include <QStringList>

#include <vector>

namespace scopeline {

struct TraceRun
{
    QString name; // relative to the scanned folder, for display and pairing
    QString file;
};

class TraceFolder
{
public:
    // The runs under path, naturally sorted by name. path may hold * ? [ ] wildcards, which
    // select several files or folders (e.g. "traces/trace_file_matmul_*"). On failure returns
    // nothing and sets error to a message naming the path.
    static std::vector<TraceRun> scan(const QString &path, QString *error = nullptr);

    static bool isTraceFileName(const QString &fileName);
};

} // namespace scopeline
