// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// rocprofv3's own JSON (`rocprofv3 --output-format json`, results.json): one object whose first key
// is "rocprofiler-sdk-tool", parsed as one document by RocprofV3Handler.

#include "model/formats/tracereader.h"

#include <QCoreApplication>

namespace scopeline {

class RocprofV3JsonReader : public TraceReader
{
    Q_DECLARE_TR_FUNCTIONS(RocprofV3JsonReader)

public:
    QString formatName() const override;
    QStringList fileNamePatterns() const override;
    QString lookedFor() const override;
    Input input() const override { return Input::Text; }
    Match match(const TraceProbe &probe) const override;
    ReadResult read(const TraceProbe &probe, TraceBuilder &builder,
                    const ReadContext &context) const override;
};

} // namespace scopeline
