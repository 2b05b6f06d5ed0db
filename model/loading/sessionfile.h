// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The document a user works on: the A/B pair, selected scopes, modes and view state, saved to and
// reopened from a small JSON session file (written atomically; a corrupt file is reported, not applied).

#include "model/analysis/scopematcher.h"

#include <QString>
#include <QStringList>

#include <cstdint>

namespace scopeline {

struct SessionState
{
    QString pathA, pathB; // trace folders, files or quoted wildcards, as the user gave them
    QString labelA, labelB; // the names given to the sides (LABEL=PATH); empty: named by their paths
    QStringList scopes;
    MatchMode match = MatchMode::Component;
    SampleMode samples = SampleMode::Kernel;
    double threshold = 0.01; // smallest relative change of medians that counts
    QString stepScope;       // What changed's step scope; empty: the detected one
    bool pooled = true;      // boxplots of all runs pooled, else per run pair
    bool logScale = false;
    bool zoomLocked = true;
    int64_t viewStartA = 0, viewEndA = 0, viewStartB = 0, viewEndB = 0; // ns, 0/0: fit
    QString runA, runB; // the file each timeline shows (its view range is of that run); empty: the first
    // More than two variants (the baseline first), with their labels; empty for a pair alone. The
    // pair (pathA, pathB) is then the two of them the pair views show.
    QStringList variantLabels, variantPaths;
    // What changed's table: by op, numbered names folded, its filter, and the kernel (or op) selected.
    bool byOp = false;
    bool foldNumbers = false;
    QString kernelFilter, kernel;
    QString tab; // the tab in front: one of SessionFile::tabNames(); empty: What changed

    bool operator==(const SessionState &other) const;
};

class SessionFile
{
public:
    // Relative trace paths are stored relative to the session file's folder.
    static bool save(const SessionState &state, const QString &file, QString *error);
    static bool load(const QString &file, SessionState &state, QString *error);
    // A session by its name (*.scopeline.json), or a JSON file that says it is one near its start (a
    // session saved as *.json): opened as a session, so that what is wrong with it is said in a
    // session's terms, not a trace's.
    static bool isSessionFile(const QString &file);
    // The window's tabs by name, in their order (`scopeline --tab` takes them too).
    static const QStringList &tabNames();
};

} // namespace scopeline
