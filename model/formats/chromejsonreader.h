// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Chrome trace event JSON as PyTorch's profiler (Kineto), JAX's (the trace viewer's *.trace.json.gz,
// perfetto_trace.json.gz) and others write it, gzip or not: read by EventArrayReader. It takes any
// text no other reader claims, so that what is wrong with a file is said in JSON's terms.

#include "model/formats/tracereader.h"

#include <QCoreApplication>

namespace scopeline {

class ChromeJsonReader : public TraceReader
{
    Q_DECLARE_TR_FUNCTIONS(ChromeJsonReader)

public:
    QString formatName() const override;
    QStringList fileNamePatterns() const override;
    QString lookedFor() const override;
    Input input() const override { return Input::Text; }
    Match match(const TraceProbe &probe) const override;
    QString refusal(const TraceProbe &probe) const override;
    QString folderRefusal(const QDir &dir, const QString &shown) const override;
    bool sessionsIn(const QDir &dir, QDir &runFolder, std::vector<Session> &sessions) const override;
    ReadResult read(const TraceProbe &probe, TraceBuilder &builder,
                    const ReadContext &context) const override;
};

} // namespace scopeline
