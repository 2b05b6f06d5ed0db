// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Nsight Systems exports (`nsys export --type sqlite`): kernels, memory copies and sets, CUDA
// runtime/driver calls (paired with their GPU work on correlationId within a process) and NVTX
// ranges. Its own .nsys-rep reports are a closed format: refused with how to export them.

#include "model/formats/tracereader.h"

#include <QCoreApplication>

#include <set>
#include <string>

namespace scopeline {

class NsysSqliteReader : public TraceReader
{
    Q_DECLARE_TR_FUNCTIONS(NsysSqliteReader)

public:
    // Whether a database with these tables and views is an Nsight Systems export.
    static bool isNsysExport(const std::set<std::string> &objects);

    QString formatName() const override;
    QStringList fileNamePatterns() const override;
    QString lookedFor() const override;
    Input input() const override { return Input::File; }
    Match match(const TraceProbe &probe) const override;
    QString refusal(const TraceProbe &probe) const override;
    QString folderRefusal(const QDir &dir, const QString &shown) const override;
    ReadResult read(const TraceProbe &probe, TraceBuilder &builder,
                    const ReadContext &context) const override;
};

} // namespace scopeline
