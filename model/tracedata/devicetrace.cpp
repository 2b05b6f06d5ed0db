// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/tracedata/devicetrace.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace scopeline {

std::vector<int> gpuDevices(const TraceData &trace)
{
    std::set<int> devices;
    for (std::size_t t = 0; t < trace.tracks.size(); ++t)
        if (trace.tracks[t].gpu && trace.tracks[t].device >= 0 && !trace.trackEvents[t].empty())
            devices.insert(trace.tracks[t].device);
    return {devices.begin(), devices.end()};
}

TraceData traceOfDevice(const TraceData &trace, int device)
{
    // Which GPUs each process launches onto: its events that share a correlation with a GPU event.
    std::unordered_map<int64_t, int> deviceOfCorrelation;
    for (uint32_t e = 0; e < trace.eventCount(); ++e)
        if (trace.onGpu(e) && trace.correlation[e] != TraceData::kNoCorrelation)
            deviceOfCorrelation.emplace(trace.correlation[e], trace.tracks[trace.track[e]].device);
    // Which GPUs each process, and each thread, launches onto.
    std::map<QString, std::set<int>> launchesOnto;
    std::vector<std::set<int>> threadLaunchesOnto(trace.tracks.size());
    for (uint32_t e = 0; e < trace.eventCount(); ++e) {
        if (trace.onGpu(e) || trace.correlation[e] == TraceData::kNoCorrelation)
            continue;
        if (const auto found = deviceOfCorrelation.find(trace.correlation[e]);
            found != deviceOfCorrelation.end()) {
            launchesOnto[trace.tracks[trace.track[e]].pid].insert(found->second);
            threadLaunchesOnto[trace.track[e]].insert(found->second);
        }
    }
    std::vector<int64_t> newTrack(trace.tracks.size(), -1);
    TraceData out;
    for (std::size_t t = 0; t < trace.tracks.size(); ++t) {
        const Track &track = trace.tracks[t];
        const auto launches = launchesOnto.find(track.pid);
        // A thread of a process driving several GPUs that launches onto others only (JAX's thread per
        // device) is theirs, with its step ranges: the GPU's steps are its own threads'.
        const std::set<int> &ofThread = threadLaunchesOnto[t];
        const bool keep =
            track.gpu ? track.device == device
                      : launches == launchesOnto.end() || (launches->second.count(device) > 0 &&
                                                           (ofThread.empty() || ofThread.count(device) > 0));
        if (!keep)
            continue;
        newTrack[t] = int64_t(out.tracks.size());
        out.tracks.push_back(track);
        if (t < trace.instantsLeftOut.size())
            out.instantsLeftOut.push_back(trace.instantsLeftOut[t]);
    }

    // The events of the tracks kept, in file order, with their args; names and the string table as they are.
    // A thread that launches onto several GPUs keeps its other events, not its launches onto another GPU:
    // they are that GPU's rank's (its launch counts, its launch lane).
    std::vector<int64_t> newEvent(trace.eventCount(), -1);
    const bool paths = !trace.opPath.empty(), args = !trace.argsBegin.empty();
    if (args)
        out.argsBegin.push_back(0);
    for (uint32_t e = 0; e < trace.eventCount(); ++e) {
        if (newTrack[trace.track[e]] < 0)
            continue;
        if (!trace.onGpu(e) && trace.correlation[e] != TraceData::kNoCorrelation)
            if (const auto found = deviceOfCorrelation.find(trace.correlation[e]);
                found != deviceOfCorrelation.end() && found->second != device)
                continue;
        newEvent[e] = int64_t(out.start.size());
        out.start.push_back(trace.start[e]);
        out.duration.push_back(trace.duration[e]);
        out.name.push_back(trace.name[e]);
        out.category.push_back(trace.category[e]);
        out.track.push_back(uint32_t(newTrack[trace.track[e]]));
        out.kind.push_back(trace.kind[e]);
        out.correlation.push_back(trace.correlation[e]);
        if (paths)
            out.opPath.push_back(trace.opPath[e]);
        if (args) {
            const auto [first, last] = trace.argRange(e);
            for (uint32_t i = first; i < last; ++i) { // the values of the events kept, one after another
                out.args.push_back({trace.args[i].key, uint32_t(out.argText.size())});
                out.argText.append(trace.argValue(i));
            }
            out.argsBegin.push_back(uint32_t(out.args.size()));
        }
    }
    out.trackEvents.resize(out.tracks.size());
    for (std::size_t t = 0; t < trace.tracks.size(); ++t)
        if (newTrack[t] >= 0)
            for (const uint32_t e : trace.trackEvents[t])
                if (newEvent[e] >= 0)
                    out.trackEvents[std::size_t(newTrack[t])].push_back(uint32_t(newEvent[e]));
    for (const FlowPoint &flow : trace.flows)
        if (newTrack[flow.track] >= 0)
            out.flows.push_back({flow.key, uint32_t(newTrack[flow.track]), flow.ts, flow.start});
    for (uint32_t id = 1; id < trace.strings.size(); ++id) // the same ids: each text is there once
        out.strings.intern(trace.strings.view(id));
    out.format = trace.format;
    out.detail = trace.detail;
    out.sourceFile = trace.sourceFile;
    out.bytesRead = trace.bytesRead;
    out.skipped = trace.skipped;
    // a note of one database of several stays with its own GPUs
    const auto about = [&](const QStringList &texts) {
        QStringList kept;
        for (const QString &text : texts)
            if (const auto found = trace.noteDevices.find(text);
                found == trace.noteDevices.end() ||
                std::find(found->second.begin(), found->second.end(), device) != found->second.end())
                kept << text;
        return kept;
    };
    out.notes = about(trace.notes);
    out.caveats = about(trace.caveats);
    return out;
}

} // namespace scopeline
