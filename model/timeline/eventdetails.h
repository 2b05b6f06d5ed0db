// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What is known about one event, as ordered key/value fields (name, kind, track, times, launch or
// kernels, scope path, args): the data behind the timeline's tooltip and the Details pane, formatted
// elsewhere.

#include "model/loading/loadedrun.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace scopeline {

struct EventField
{
    QString key;
    QString value;
    QString note;      // secondary text shown dimmed after the value, e.g. the absolute ns
    bool wrap = false; // a long identifier (kernel name, op path, arg): may break anywhere
};

struct EventDetails
{
    QString title; // the event's name
    std::vector<EventField> fields;
    std::vector<EventField> args; // the event's own args, in file order
    bool isEmpty() const { return title.isEmpty() && fields.empty(); }
    // The value of the field with this key, empty when there is none.
    QString value(const QString &key) const;
};

// The details of an event of a run; empty when the run has no such event.
EventDetails eventDetails(const LoadedRun &run, uint32_t event);
// The name of an event kind, for people.
QString eventKindName(EventKind kind);

} // namespace scopeline
