// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/tracedata/tracedata.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdint>

namespace scopeline {

QString formatName(TraceFormat format)
{
    switch (format) {
    case TraceFormat::ChromeTrace:
        return QStringLiteral("chrome");
    case TraceFormat::Kineto:
        return QStringLiteral("kineto");
    case TraceFormat::Jax:
        return QStringLiteral("jax");
    case TraceFormat::RocprofV3:
        return QStringLiteral("rocprofv3");
    case TraceFormat::Rocpd:
        return QStringLiteral("rocpd");
    case TraceFormat::NsysSqlite:
        return QStringLiteral("nsys");
    case TraceFormat::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString Track::displayName() const
{
    const QString process = processName.isEmpty() ? pid : processName;
    const QString thread = threadName.isEmpty() ? tid : threadName;
    return process + QStringLiteral(" / ") + thread;
}

namespace {

// Where event e's value is, or would go, among values kept aside by event.
template <typename Aside>
auto asideAt(Aside &aside, std::size_t e)
{
    return std::lower_bound(aside.begin(), aside.end(), std::pair<std::size_t, int64_t>(e, INT64_MIN));
}

} // namespace

void DurationColumn::push_back(int64_t ns)
{
    if (uint64_t(ns) < kLong) {
        m_short.push_back(uint32_t(ns));
        return;
    }
    m_long.emplace_back(m_short.size(), ns);
    m_short.push_back(kLong);
}

int64_t DurationColumn::longOf(std::size_t e) const
{
    return asideAt(m_long, e)->second;
}

uint32_t CorrelationColumn::highAt(std::size_t e) const
{
    const auto after = std::upper_bound(m_high.begin(), m_high.end(), e,
                                        [](std::size_t event, const HighBits &h) { return event < h.first; });
    return after == m_high.begin() ? 0 : std::prev(after)->high;
}

int64_t CorrelationColumn::at(std::size_t e) const
{
    const uint32_t low = m_low[e];
    if (low == kNone)
        return TraceData::kNoCorrelation;
    if (low == kAside)
        return asideAt(m_aside, e)->second;
    return int64_t((uint64_t(m_high.empty() ? 0 : highAt(e)) << 32) | low);
}

void CorrelationColumn::push_back(int64_t id)
{
    const uint32_t low = uint32_t(uint64_t(id)), high = uint32_t(uint64_t(id) >> 32);
    if (id == TraceData::kNoCorrelation || (low < kAside && high == (m_high.empty() ? 0 : m_high.back().high))) {
        m_low.push_back(id == TraceData::kNoCorrelation ? kNone : low); // the usual: no marker, no new run
        return;
    }
    m_low.push_back(kNone);
    set(m_low.size() - 1, id);
}

void CorrelationColumn::set(std::size_t e, int64_t id)
{
    auto aside = asideAt(m_aside, e);
    if (m_low[e] == kAside)
        aside = m_aside.erase(aside);
    if (id == TraceData::kNoCorrelation) {
        m_low[e] = kNone;
        return;
    }
    const uint32_t low = uint32_t(uint64_t(id)), high = uint32_t(uint64_t(id) >> 32);
    // the last event's high bits may start a run of their own; any other event keeps its run's
    if (e + 1 == m_low.size() && high != (m_high.empty() ? 0 : m_high.back().high) &&
        (m_high.empty() || m_high.back().first < e))
        m_high.push_back({e, high});
    if (low >= kAside || high != highAt(e)) {
        m_low[e] = kAside;
        m_aside.insert(aside, {e, id});
        return;
    }
    m_low[e] = low;
}

bool CorrelationColumn::anyId() const
{
    return std::any_of(m_low.begin(), m_low.end(), [](uint32_t low) { return low != kNone; });
}

int64_t TraceData::eventsRead() const
{
    int64_t read = int64_t(eventCount());
    for (const int64_t n : instantsLeftOut)
        read += n;
    return read;
}

std::string_view TraceData::arg(uint32_t e, std::string_view key) const
{
    const auto [first, last] = argRange(e);
    for (uint32_t i = first; i < last; ++i) {
        if (strings.view(args[i].key) == key)
            return argValue(i);
    }
    return {};
}

bool TraceData::isBenignSkip(const QString &reason)
{
    return reason == QCoreApplication::translate("TraceBuilder", "counter (ph C)") ||
           reason.startsWith(QCoreApplication::translate("TraceBuilder", "unsupported ph"));
}

TraceData TraceData::subset(const std::vector<int64_t> &newTrack, const std::vector<bool> &keepEvent) const
{
    TraceData out;
    for (std::size_t t = 0; t < tracks.size(); ++t)
        if (newTrack[t] >= 0) {
            out.tracks.push_back(tracks[t]);
            if (t < instantsLeftOut.size())
                out.instantsLeftOut.push_back(instantsLeftOut[t]);
        }
    std::vector<int64_t> newEvent(eventCount(), -1);
    const bool paths = !opPath.empty(), withArgs = !argsBegin.empty();
    if (withArgs)
        out.argsBegin.push_back(0);
    for (uint32_t e = 0; e < eventCount(); ++e) {
        if (newTrack[track[e]] < 0 || !keepEvent[e])
            continue;
        newEvent[e] = int64_t(out.start.size());
        out.start.push_back(start[e]);
        out.duration.push_back(duration[e]);
        out.name.push_back(name[e]);
        out.category.push_back(category[e]);
        out.track.push_back(uint32_t(newTrack[track[e]]));
        out.kind.push_back(kind[e]);
        out.correlation.push_back(correlation[e]);
        if (paths)
            out.opPath.push_back(opPath[e]);
        if (withArgs) {
            const auto [first, last] = argRange(e);
            for (uint32_t i = first; i < last; ++i) { // the values of the events kept, one after another
                out.args.push_back({args[i].key, uint32_t(out.argText.size())});
                out.argText.append(argValue(i));
            }
            out.argsBegin.push_back(uint32_t(out.args.size()));
        }
    }
    out.trackEvents.resize(out.tracks.size());
    for (std::size_t t = 0; t < tracks.size(); ++t)
        if (newTrack[t] >= 0)
            for (const uint32_t e : trackEvents[t])
                if (newEvent[e] >= 0)
                    out.trackEvents[std::size_t(newTrack[t])].push_back(uint32_t(newEvent[e]));
    for (const FlowPoint &flow : flows)
        if (newTrack[flow.track] >= 0)
            out.flows.push_back({flow.key, uint32_t(newTrack[flow.track]), flow.ts, flow.start});
    for (uint32_t id = 1; id < strings.size(); ++id) // the same ids: each text is there once
        out.strings.intern(strings.view(id));
    out.format = format;
    out.detail = detail;
    out.sourceFile = sourceFile;
    out.bytesRead = bytesRead;
    out.skipped = skipped;
    out.notes = notes;
    out.caveats = caveats;
    out.noteDevices = noteDevices;
    return out;
}

} // namespace scopeline
