// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What Scopeline reads from scopeline-hipbench (app/hipbench/main.cpp): the workloads of
// `--list --json`, the `progress: DONE/TOTAL MESSAGE` lines of a run on stderr, its exit statuses, and
// the DIR/summary.json a finished run leaves. No process handling here (see HipbenchRunner).

#include "model/loading/sessionfile.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace scopeline {

struct HipbenchOption
{
    QString name, defaultValue, help;
    QStringList choices; // empty: a free value
    // A whole number, or a list of them, in [minimum, maximum] when the program says so (maximum > 0).
    qint64 minimum = 0, maximum = 0;
    bool list = false; // numbers separated by commas
};

struct HipbenchWorkload
{
    QString name, description;
    QStringList variants; // A and B, the run folders of a pair
    QList<HipbenchOption> options;
};

struct HipbenchProgress
{
    int done = 0, total = 0;
    QString message; // e.g. "eager run 0", with --processes "graph process 1 run 0"
};

namespace hipbenchprotocol {

// The arguments that list the workloads, and those that run `workload` into `folder`.
QStringList listArguments();
QStringList runArguments(const QString &workload, const QString &folder,
                         const QMap<QString, QString> &options);

// Parses the output of `--list --json`. False, with the problem (e.g. "its output is not JSON (…)"),
// when it is not a non-empty array of named workloads with named options.
bool parseWorkloads(const QByteArray &json, QList<HipbenchWorkload> &workloads, QString *error);

// Why value is not one the program takes for option, naming it ("kernels: a whole number from 1 to
// 100000"); empty when it is (or when the program gave no range).
QString optionProblem(const HipbenchOption &option, const QString &value);

// Parses one line of a run's stderr; false when it is not a progress line.
bool parseProgress(const QString &line, HipbenchProgress &progress);

// What an exit status of the program means, e.g. 3: "no GPU or a GPU error".
QString exitMeaning(int code);

// The summary file of a run into `folder`.
QString summaryPath(const QString &folder);
// Reads FOLDER/summary.json of a finished run: the A and B folders (the variants' folders in FOLDER,
// wherever it was recorded), the scopes and the sample mode. False, with a reason naming the file,
// when it is missing, malformed or names no pair of folders.
bool readSummary(const QString &folder, SessionState &state, QString *error);
// Whether path is a folder a run left its summary.json in: one path that stands for its pair.
bool isRecordedPair(const QString &path);
// A recorded pair given as one set of runs (a side of a comparison, a sweep): its variants would be
// pooled, as one side's processes. The message saying which folder to give instead; empty for any
// other path.
QString recordingAsSide(const QString &path);

} // namespace hipbenchprotocol
} // namespace scopeline
