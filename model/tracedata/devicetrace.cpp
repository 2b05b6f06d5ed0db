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
    int64_t tracksKept = 0;
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
        if (keep)
            newTrack[t] = tracksKept++;
    }
    // A thread that launches onto several GPUs keeps its other events, not its launches onto another GPU:
    // they are that GPU's rank's (its launch counts, its launch lane).
    std::vector<bool> keepEvent(trace.eventCount(), true);
    for (uint32_t e = 0; e < trace.eventCount(); ++e)
        if (!trace.onGpu(e) && trace.correlation[e] != TraceData::kNoCorrelation)
            if (const auto found = deviceOfCorrelation.find(trace.correlation[e]);
                found != deviceOfCorrelation.end() && found->second != device)
                keepEvent[e] = false;
    TraceData out = trace.subset(newTrack, keepEvent);
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
