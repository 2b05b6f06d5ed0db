// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// rocprofv3's SQLite output (ROCm 7, `rocprofv3 --output-format rocpd`): one `<pid>_results.db` per
// process, several of one run read as one (the folder is passed). Calls pair with GPU work on
// rocpd_event.stack_id, ROCm's internal correlation id. What a database lacks goes to TraceData::notes.

#include "model/formats/tracereader.h"

#include <QCoreApplication>

#include <set>
#include <string>

namespace scopeline {

class RocpdReader : public TraceReader
{
    Q_DECLARE_TR_FUNCTIONS(RocpdReader)

public:
    // Whether a database with these tables and views is a rocpd database.
    static bool isRocpd(const std::set<std::string> &objects);
    // The rocpd databases of one run in a folder (`*_results.db`), sorted; empty when there are none.
    static QStringList rocpdFilesIn(const QString &folder);

    QString formatName() const override;
    QStringList fileNamePatterns() const override;
    QString lookedFor() const override;
    Input input() const override { return Input::File; }
    Match match(const TraceProbe &probe) const override;
    QString refusal(const TraceProbe &probe) const override;
    QStringList filesOfOneRun(const QDir &dir) const override;
    // A folder where rocprofv3 wrote a process as JSON beside its database (`--output-format json
    // rocpd`): its databases are the run, the JSON files the same records again, left out and said.
    bool sessionsIn(const QDir &dir, QDir &runFolder, std::vector<Session> &sessions) const override;
    ReadResult read(const TraceProbe &probe, TraceBuilder &builder,
                    const ReadContext &context) const override;
};

} // namespace scopeline
