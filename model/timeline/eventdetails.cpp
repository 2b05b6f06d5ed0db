// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/timeline/eventdetails.h"

#include "model/tables/durationformat.h"
#include "model/timeline/timelinelayout.h"

#include <QCoreApplication>

#include <algorithm>
#include <functional>

namespace scopeline {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("EventDetails", text);
}

EventField field(const QString &key, const QString &value, const QString &note = {}, bool wrap = false)
{
    return {key, value, note, wrap};
}

QString elided(std::string_view text, int max)
{
    QString s = QString::fromUtf8(text.data(), qsizetype(text.size()));
    if (s.size() > max)
        s = s.left(max) + QStringLiteral("…");
    return s;
}

void addLaunchFields(EventDetails &d, const TraceData &t, const TraceAnalysis &a, uint32_t e,
                     const std::function<QString(int64_t)> &at)
{
    const EventKind kind = t.kind[e];
    if (kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset) {
        const int64_t launch = a.launchOf(e);
        if (launch >= 0) {
            const uint32_t l = uint32_t(launch);
            d.fields.push_back(field(tr("Launch"), tr("%1 at %2").arg(t.qname(l), at(t.start[l])), {}, true));
            if (t.kind[l] != EventKind::GraphLaunch) {
                d.fields.push_back(
                    field(tr("Launch delay"), formatDuration(double(t.start[e] - t.start[l]))));
            } else {
                // the graph's delay is its first kernel's; a later kernel's offset is where it sits in the
                // graph
                const std::vector<uint32_t> graph = a.kernelsOf(l);
                const uint32_t first = graph.empty() ? e : graph.front();
                d.fields.push_back(
                    field(tr("Graph launch delay"), formatDuration(double(t.start[first] - t.start[l]))));
                if (first != e)
                    d.fields.push_back(
                        field(tr("Since graph launch"), formatDuration(double(t.start[e] - t.start[l]))));
            }
        }
    }
    if (kind == EventKind::KernelLaunch || kind == EventKind::GraphLaunch) {
        const std::vector<uint32_t> kernels = a.kernelsOf(e);
        d.fields.push_back(field(tr("Kernels"), QString::number(kernels.size())));
        if (kernels.empty())
            return;
        const uint32_t k = kernels.front();
        d.fields.push_back(
            field(tr("First kernel"),
                  tr("%1 at %2, %3 after the launch")
                      .arg(t.qname(k), at(t.start[k]), formatDuration(double(t.start[k] - t.start[e]))),
                  {}, true));
        if (kernels.size() > 1) {
            int64_t last = t.end(k);
            for (uint32_t kk : kernels)
                last = std::max(last, t.end(kk));
            d.fields.push_back(field(tr("Kernels span"), formatDuration(double(last - t.start[k]))));
        }
    }
}

} // namespace

QString EventDetails::value(const QString &key) const
{
    for (const EventField &f : fields)
        if (f.key == key)
            return f.value;
    return {};
}

QString eventKindName(EventKind kind)
{
    switch (kind) {
    case EventKind::Kernel:
        return tr("kernel");
    case EventKind::Memcpy:
        return tr("memory copy");
    case EventKind::Memset:
        return tr("memory set");
    case EventKind::GpuOther:
        return tr("GPU activity");
    case EventKind::GpuAnnotation:
        return tr("GPU annotation");
    case EventKind::CpuAnnotation:
        return tr("CPU annotation");
    case EventKind::Runtime:
        return tr("runtime call");
    case EventKind::KernelLaunch:
        return tr("kernel launch");
    case EventKind::GraphLaunch:
        return tr("graph launch");
    case EventKind::Instant:
        return tr("instant");
    case EventKind::Other:
        break;
    }
    return tr("CPU slice");
}

EventDetails eventDetails(const LoadedRun &run, uint32_t e)
{
    EventDetails d;
    if (!run.trace || e >= run.trace->eventCount())
        return d;
    const TraceData &t = *run.trace;
    const int64_t origin = timelineOrigin(t);
    const std::function<QString(int64_t)> at = [origin](int64_t ns) {
        return QStringLiteral("+%1").arg(formatDuration(double(ns - origin)));
    };
    // Times one way: from the start of the timeline, as the axis shows them; the note gives the same
    // time exactly in ns (never the trace's absolute clock, which PyTorch writes as epoch ns).
    auto ns = [origin](int64_t v) { return tr("(%1 ns)").arg(v - origin); };
    d.title = t.qname(e);
    d.fields.push_back(field(tr("Kind"), eventKindName(t.kind[e])));
    d.fields.push_back(field(tr("Track"), t.tracks[t.track[e]].displayName()));
    d.fields.push_back(field(tr("Start"), at(t.start[e]), ns(t.start[e])));
    d.fields.push_back(field(tr("Duration"), formatDuration(double(t.duration[e]))));
    d.fields.push_back(field(tr("End"), at(t.end(e)), ns(t.end(e))));
    if (t.category[e] != 0)
        d.fields.push_back(field(tr("Category"), t.strings.qstring(t.category[e])));
    if (run.run.rank >= 0) // a rank's tracks read as every other rank's ("python3 / stream 7")
        d.fields.push_back(field(
            tr("Rank"), run.run.worldSize > 0
                            ? tr("%1 of %2 (%3)").arg(run.run.rank).arg(run.run.worldSize).arg(run.run.name)
                            : tr("%1 (%2)").arg(run.run.rank).arg(run.run.name)));
    if (run.analysis)
        addLaunchFields(d, t, *run.analysis, e, at);
    if (t.opPathOf(e) != 0)
        d.fields.push_back(field(tr("Scope path"), t.strings.qstring(t.opPathOf(e)), {}, true));
    const auto [first, last] = t.argRange(e);
    for (uint32_t i = first; i < last; ++i) {
        d.args.push_back(field(t.strings.qstring(t.args[i].key), elided(t.argValue(i), 300), {}, true));
    }
    return d;
}

} // namespace scopeline
