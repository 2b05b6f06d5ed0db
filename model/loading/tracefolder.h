// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Finds the runs in a trace folder: a single trace file, a run folder, or a parent of run folders.
// What a trace file is called, a format's own folder layout (JAX plugins/profile/<ts>/) and files
// that are one run together (ROCm 7 rocpd *_results.db) come from the readers in model/formats/.

#include <QString>
#include <QStringList>

#include <vector>

namespace scopeline {

struct TraceRun
{
    QString name; // relative to the scanned folder, for display and pairing; shared by a run's ranks
    QString file;
    int rank = -1;     // the GPU of a distributed job this file is (RankInfo); -1: not a rank file
    int worldSize = 0; // ranks in the job, 0 when unknown
    // The GPU this entry reads of a trace that holds several (its rank is that GPU); -1: the whole file.
    int device = -1;
    // The name, with the rank when there is one: "dlrm · rank 3".
    QString label() const;
};

class TraceFolder
{
public:
    // The runs under path, naturally sorted by name. path may hold * ? [ ] wildcards, which
    // select several files or folders (e.g. "traces/trace_file_matmul_*"). On failure returns
    // nothing and sets error to a message naming the path.
    // Each trace counts once: files and folders are known by their real paths, so a link to a run
    // already found ("latest -> run_1"), or to a folder the scan is already in, is passed over;
    // notes, when given, gets a line for each ("latest: the same folder as run_1, counted once"), and
    // for each run folder (right below path, or matched) without a trace file.
    // A folder whose trace files are distinct ranks of one job is one run: each file a TraceRun of
    // the folder's name with its rank (a partial world is noted); duplicate ranks, different world
    // sizes or files without a rank among them are an error naming the files. Files a wildcard
    // matches in one folder are that folder's traces: rank files of one job among them are one run.
    static std::vector<TraceRun> scan(const QString &path, QString *error = nullptr,
                                      QStringList *notes = nullptr);

    // How many runs the entries are: a multi-GPU run's rank files count once.
    static int runCount(const std::vector<TraceRun> &runs);

    // Whether a file name matches a reader's patterns (TraceLoader::fileNamePatterns()).
    static bool isTraceFileName(const QString &fileName);

    // Whether a path names something there, as scan() reads it: a file or folder, or a wildcard that
    // matches one.
    static bool isThere(const QString &path);
};

} // namespace scopeline
