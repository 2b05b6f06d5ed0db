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

class TraceLoader
{
    Q_DECLARE_TR_FUNCTIONS(TraceLoader)

public:
    // Reads one file. progress gets the fraction of the file read; a set cancel flag stops it; detail
    // says which args to keep. PairLoader runs this off the GUI thread.
    static LoadResult load(const QString &path, const std::function<void(double)> &progress = {},
                           const std::atomic<bool> *cancel = nullptr, TraceDetail detail = TraceDetail::Full);
    // File names of every format read (QDir wildcards), for the open dialog's filter.
    static QStringList fileNamePatterns();
    // Why a file is no trace Scopeline reads (a text file, an image, a broken archive), from its first
    // bytes, before Open; empty when a reader takes it. Reads at most the first inflated block.
    static QString notATrace(const QString &file);
    // Every format read with its file names ("Nsight Systems SQLite export (*.sqlite)"), for tooltips.
    static QStringList formats();
};

} // namespace scopeline
