// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One trace format: which files it takes (magic bytes or first text, file-name patterns for folder
// scans and the open dialog) and how it reads one into the TraceBuilder. TraceReader::all() is the
// list TraceLoader dispatches through; a new format is one reader and one line in that list.

#include "model/tracedata/tracedata.h"

#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace scopeline {

class InflatingStreamBuf;
class TraceBuilder;

// What a reader is shown of a path before it is read.
struct TraceProbe
{
    QString path;
    QFileInfo info;      // info.isDir() for a folder
    bool opened = false; // the file could be opened (false for a folder)
    QByteArray magic;    // its first 16 bytes as stored (empty for a folder)
    // Text readers only: the decompressed stream, and its first block (not consumed).
    InflatingStreamBuf *text = nullptr;
    std::string_view head;
};

struct ReadContext
{
    std::function<void(double)> progress; // fraction read, may be empty
    const std::atomic<bool> *cancel = nullptr;
};

struct ReadResult
{
    QString error; // what was wrong, without the file name (the loader adds it)
    bool cancelled = false;
    int64_t bytesRead = 0;                     // TraceData::bytesRead
    TraceFormat format = TraceFormat::Unknown; // Unknown: the builder tells (Chrome, Kineto, JAX)
};

class TraceReader
{
public:
    // Binary readers decide on the stored bytes and open the file themselves; text readers decide on
    // the first decompressed text and read the stream the loader opened (JSON, gzip or not).
    enum class Input { File, Text };
    // Yes: this format for sure. Fallback: taken when no reader says Yes (the readers that take
    // anything of their kind and report what is wrong with it).
    enum class Match { No, Fallback, Yes };

    virtual ~TraceReader() = default;

    // The readers, in the order they are asked and listed: the one list of formats.
    static const std::vector<const TraceReader *> &all();

    // What the open dialog's tooltip calls the format ("Nsight Systems SQLite export").
    virtual QString formatName() const = 0;
    // File names a folder scan collects and the open dialog offers (QDir wildcards, "*.sqlite").
    virtual QStringList fileNamePatterns() const = 0;
    // How "no trace files found (looked for ...)" names what this format's files look like.
    virtual QString lookedFor() const = 0;
    virtual Input input() const = 0;
    virtual Match match(const TraceProbe &probe) const = 0;
    // A file of this format's family that it cannot read (an Nsight Systems .nsys-rep, a JAX
    // .xplane.pb): the message saying what to open instead. Asked before any reader reads.
    virtual QString refusal(const TraceProbe &) const { return {}; }
    // The same for a folder scan that found no trace: its message when dir (shown as `shown`) holds
    // only such files, else empty.
    virtual QString folderRefusal(const QDir &, const QString &) const { return {}; }
    // A folder that this format's profiler lays out as its runs (JAX: plugins/profile/<session>/), or
    // a folder of that layout below the run folder: true with the run folder and each session's file
    // (empty where a session has none) and what the scan should say of it, and the scan does not go
    // below it. A session's other files (a second copy of the profile, other hosts') are not runs.
    struct Session
    {
        QString name, file;
        QString note; // files of the session left out, or why it has no file; empty when neither
    };
    virtual bool sessionsIn(const QDir &, QDir &, std::vector<Session> &) const { return false; }
    // Files of dir that together are one run, read by passing the folder (rocpd: one database per
    // process); empty when dir holds no such set.
    virtual QStringList filesOfOneRun(const QDir &) const { return {}; }

    // Reads the probed path into builder (not finished); an error or a cancel ends it.
    virtual ReadResult read(const TraceProbe &probe, TraceBuilder &builder,
                            const ReadContext &context) const = 0;
};

} // namespace scopeline
