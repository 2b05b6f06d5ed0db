// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Turns parsed events into a TraceData: interns strings, pairs B/E, names tracks from metadata,
// then classifies tracks (CPU thread or GPU stream) and events (kernel, launch, ...) once at the end.

#include "eventsink.h"
#include "rawevent.h"
#include "tracedata.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace scopeline {

class TraceBuilder : public EventSink
{
public:
    explicit TraceBuilder(TraceData &data);

    // Reserves the columns for the events a text of this many bytes can hold at most: a growing
    // column copies itself and touches fresh pages each time it doubles; pages never touched cost
    // nothing.
    void reserveFor(int64_t textBytes);
    void add(RawEvent &event) override;
    void skip(const QString &reason, int64_t count = 1) override;
    void setKinetoMarker() override { m_kineto = true; }
    // Classifies everything; call once after the last event.
    void finish();

private:
    uint32_t trackFor(const std::string &pid, const std::string &tid);
    uint32_t trackForKey(const std::string &pid, const std::string &tid);
    void addSlice(RawEvent &event, int64_t duration);
    void addMetadata(const RawEvent &event);
    void pruneEmptyTracks();
    void classifyTracks();
    void classifyEvents();
    void sortTrackEvents();
    void deriveCorrelationFromFlows();
    void detectFormat();

    TraceData &m_data;
    bool m_kineto = false;
    std::unordered_map<std::string, uint32_t> m_trackIndex;
    std::string m_lastPid, m_lastTid;
    uint32_t m_lastTrack = UINT32_MAX;
    std::vector<bool> m_gpuCategorySeen;                     // per track
    std::vector<bool> m_correlationFromId;                   // per event
    std::vector<std::vector<RawEvent>> m_open;               // per track, B events awaiting E
    std::unordered_map<std::string, QString> m_processNames; // pid -> name
    std::unordered_map<std::string, int> m_processSort;
    std::unordered_map<std::string, QString> m_threadNames; // pid\x1ftid -> name
    std::unordered_map<std::string, int> m_threadSort;
};

} // namespace scopeline
