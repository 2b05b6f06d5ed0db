// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Loads one trace file into TraceData, streaming, with progress and an atomic cancel flag: the first
// of the readers in model/formats/ that takes the file reads it.

#include "model/tracedata/tracedata.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

namespace scopeline {

struct LoadResult
{
    QString path;
    std::shared_ptr<const TraceData> trace; // null on failure
    QString error;                          // names the file and what was wrong
    bool cancelled = false;
    bool ok() const { return trace != nullptr; }
};

// How to read a trace: which args to keep, and whether to parse on the calling thread alone (when
// several files load at once, each on a thread of its own, handing chunks to other threads only adds
// waiting: 10 % of the time of a side's runs on two cores).
struct LoadOptions
{
    TraceDetail detail = TraceDetail::Full;
};

class TraceLoader
{
    Q_DECLARE_TR_FUNCTIONS(TraceLoader)

public:
    // Reads one file. progress gets the fraction of the file read; a set cancel flag stops it.
    // PairLoader runs this off the GUI thread.
    static LoadResult load(const QString &path, const std::function<void(double)> &progress = {},
                           const std::atomic<bool> *cancel = nullptr, LoadOptions options = {});
    // File names of every format read (QDir wildcards), for the open dialog's filter.
    static QStringList fileNamePatterns();
    // Why a file is no trace Scopeline reads (a text file, an image, a broken archive), from its first
    // bytes, before Open; empty when a reader takes it, or it is a run summary file. Reads at most the
    // first inflated block.
    static QString notATrace(const QString &file);
    // Why an output (a CSV, a picture) is not to be written to path: a trace or a run summary is there,
    // which it would replace, or saveProblem's reasons; empty when it may be written.
    static QString outputProblem(const QString &path);
    // Every format read with its file names ("Nsight Systems SQLite export (*.sqlite)"), for tooltips.
    static QStringList formats();
};

} // namespace scopeline
