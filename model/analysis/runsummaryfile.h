// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Run summaries as files (`scopeline-cli summarize`): the map step of a set of runs larger than one
// machine. A versioned header, then the RunSummary compressed; docs/summary-format.md has the layout.

#include "model/analysis/runsummary.h"

#include <QString>

namespace scopeline {

class RunSummaryFile
{
public:
    static constexpr char kMagic[9] = "SCOPESUM"; // the file's first 8 bytes
    // 2: kernels carry the communication flag; 3: the launch calls' correlation ids (LaunchOrigin)
    static constexpr uint32_t kVersion = 6;
    static QString suffix() { return QStringLiteral(".slsum"); }
    // The pattern a folder scan collects summaries by.
    static QString fileNamePattern() { return QStringLiteral("*.slsum"); }

    // Whether a file is a summary: by its suffix, else by its magic bytes.
    static bool isSummaryFile(const QString &path);
    // Writes atomically (temporary file, then rename); returns an error naming the file, else empty.
    static QString write(const RunSummary &summary, const QString &path);
    // Reads a summary; returns an error naming the file and what was wrong (not a summary, a version
    // this build does not read, truncated, damaged), else empty.
    static QString read(const QString &path, RunSummary &summary);
};

} // namespace scopeline
