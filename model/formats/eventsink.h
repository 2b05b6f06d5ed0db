// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where a parser puts the events it reads: the TraceBuilder, or a chunk buffer of a parallel parse.

#include "model/tracedata/tracedata.h"

#include <QString>

#include <cstdint>

namespace scopeline {

struct RawEvent;

class EventSink
{
public:
    virtual ~EventSink() = default;
    // Consumes one event; its strings may be moved or swapped away.
    virtual void add(RawEvent &event) = 0;
    virtual void skip(const QString &reason, int64_t count = 1) = 0;
    // The file's top level carries Kineto's keys (schemaVersion, deviceProperties).
    virtual void setKinetoMarker() {}
    // Which args it keeps (eventfields::keepsArg): a parser need not read the others.
    virtual TraceDetail detail() const { return TraceDetail::Full; }
};

} // namespace scopeline
