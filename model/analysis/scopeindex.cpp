// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/scopeindex.h"

#include "model/tracedata/hugepages.h"
#include "model/tracedata/sortbyruns.h"
#include "model/analysis/runsummarystream.h"
#include "model/analysis/traceanalysis.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>

namespace scopeline {

namespace {

// For each target event on a track, the containers (annotations) open at its start, outermost first.
// Events are sorted by start with parents first; a container holds an event starting before its end.
template <typename IsContainer, typename IsTarget, typename Record>
void sweepContainment(const TraceData &t, uint32_t track, IsContainer isContainer, IsTarget isTarget,
                      Record record)
{
    std::vector<uint32_t> open;
    for (uint32_t e : t.trackEvents[track]) {
        const int64_t start = t.start[e];
        open.erase(std::remove_if(open.begin(), open.end(), [&](uint32_t a) { return t.end(a) <= start; }),
                   open.end());
        if (isTarget(e) && !open.empty())
            record(e, open);
        if (isContainer(e))
            open.push_back(e);
    }
}

// The containers recorded for events by sweepContainment, in two flat vectors rather than a map of
// small vectors: one record per kernel adds up on large traces.
class OpenAnnotations
{
public:
    void add(uint32_t event, const std::vector<uint32_t> &open)
    {
        m_records.push_back(Record{event, uint32_t(m_containers.size()), uint32_t(open.size())});
        m_containers.insert(m_containers.end(), open.begin(), open.end());
    }
    // Call once after the last add(), before of(). Each track's records mostly come in event order.
    void sort()
    {
        sortByRuns(m_records, [](const Record &a, const Record &b) { return a.event < b.event; });
    }
    struct Range
    {
        const uint32_t *first = nullptr, *last = nullptr;
        const uint32_t *begin() const { return first; }
        const uint32_t *end() const { return last; }
        std::size_t size() const { return std::size_t(last - first); }
    };
    static constexpr uint32_t kNone = UINT32_MAX;
    // The record of an event, kNone for -1 or an event without one.
    uint32_t recordOf(int64_t event) const
    {
        auto it = std::lower_bound(m_records.begin(), m_records.end(), event,
                                   [](const Record &r, int64_t value) { return int64_t(r.event) < value; });
        if (event < 0 || it == m_records.end() || it->event != event)
            return kNone;
        return uint32_t(it - m_records.begin());
    }
    // The containers of a record's event, outermost first; none for kNone.
    Range containers(uint32_t record) const
    {
        if (record == kNone)
            return {};
        const uint32_t *first = m_containers.data() + m_records[record].first;
        return {first, first + m_records[record].count};
    }

private:
    struct Record
    {
        uint32_t event, first, count; // first: into m_containers
    };
    std::vector<Record> m_records;
    std::vector<uint32_t> m_containers;
};

} // namespace

std::string_view ScopeIndex::stepBase(std::string_view text)
{
    const std::size_t hash = text.rfind('#');
    if (hash == std::string_view::npos || hash == 0 || hash + 1 == text.size())
        return {};
    for (std::size_t i = hash + 1; i < text.size(); ++i)
        if (text[i] < '0' || text[i] > '9')
            return {};
    return text.substr(0, hash);
}

bool ScopeIndex::isCallName(std::string_view text)
{
    constexpr std::string_view prefix = "PjitFunction(";
    return text.size() > prefix.size() && text.substr(0, prefix.size()) == prefix && text.back() == ')';
}

QString ScopeIndex::collapsedStepName(const QString &annotation)
{
    const std::string utf8 = annotation.toStdString();
    const std::string_view base = stepBase(utf8);
    return QString::fromUtf8(base.data(), qsizetype(base.size()));
}

bool ScopeIndex::isCallScopeName(QStringView name)
{
    return name.startsWith(QLatin1String("PjitFunction(")) && name.endsWith(QLatin1Char(')')) &&
           name.size() > 13;
}

ScopeIndex::ScopeIndex(const TraceAnalysis &analysis)
{
    const TraceData &t = analysis.trace();
    auto isLaunch = [&t](uint32_t e) {
        return t.kind[e] == EventKind::KernelLaunch || t.kind[e] == EventKind::GraphLaunch;
    };
    OpenAnnotations annotations; // of each launch on a CPU thread and each kernel on a GPU stream
    for (uint32_t track = 0; track < t.tracks.size(); ++track) {
        auto record = [&annotations](uint32_t e, const std::vector<uint32_t> &open) {
            annotations.add(e, open);
        };
        if (t.tracks[track].gpu) {
            sweepContainment(
                t, track, [&t](uint32_t e) { return t.kind[e] == EventKind::GpuAnnotation; },
                [&t](uint32_t e) { return t.kind[e] == EventKind::Kernel; }, record);
        } else {
            sweepContainment(
                t, track, [&t](uint32_t e) { return t.kind[e] == EventKind::CpuAnnotation; }, isLaunch,
                record);
        }
    }
    annotations.sort();

    const std::vector<uint32_t> positions = analysis.kernelPositionsByTrack();
    std::vector<uint32_t> kernels;
    kernels.reserve(positions.size());
    for (uint32_t p : positions)
        kernels.push_back(analysis.kernels()[p]);
    m_track.reserve(kernels.size());
    m_start.reserve(kernels.size());
    m_duration.reserve(kernels.size());
    m_path.reserve(kernels.size());
    std::unordered_map<uint32_t, uint32_t> pathIds; // trace string id -> m_paths id
    for (uint32_t k : kernels) {
        m_track.push_back(t.track[k]);
        m_start.push_back(t.start[k]);
        m_duration.push_back(t.duration[k]);
        uint32_t path = 0;
        if (t.opPathOf(k)) {
            auto [it, inserted] = pathIds.try_emplace(t.opPathOf(k), 0);
            if (inserted)
                it->second = m_paths.intern(t.strings.view(t.opPathOf(k)));
            path = it->second;
        }
        m_path.push_back(path);
    }
    dropEmptyPaths();
    m_refBegin.reserve(kernels.size() + 1);
    std::unordered_map<uint32_t, std::vector<uint32_t>> componentsOfPath; // op path -> name ids
    // One instance per step number: the first range seen of each `<name>#N` text stands for all of
    // them (the CPU range and its GPU mirror, which may each hold kernels the other lacks).
    std::unordered_map<uint32_t, int64_t> stepInstance; // annotation text (trace string id) -> event
    auto markStep = [this](uint32_t name) {
        if (m_stepName.size() <= name)
            m_stepName.resize(std::size_t(name) + 1);
        m_stepName[name] = true;
    };
    // What an annotation's text stands for, worked out at its first sight: texts repeat on every kernel.
    struct AnnotationName
    {
        uint32_t name = UINT32_MAX, fullName = 0;
        bool step = false; // `<name>#N`: one instance per text
    };
    std::vector<AnnotationName> annotationNames(t.strings.size());
    auto annotationName = [&](uint32_t text) -> const AnnotationName & {
        AnnotationName &n = annotationNames[text];
        if (n.name != UINT32_MAX)
            return n;
        const std::string_view view = t.strings.view(text);
        const std::string_view base = stepBase(view);
        if (base.empty()) {
            n.name = n.fullName = m_names.intern(view);
            if (isCallName(view))
                markStep(n.name);
        } else {
            n.name = m_names.intern(base);
            markStep(n.name);
            n.fullName = m_names.intern(view);
            n.step = true;
        }
        return n;
    };
    const std::vector<uint32_t> noComponents;
    auto componentsOf = [&](uint32_t path) -> const std::vector<uint32_t> & {
        if (!path) // no op path: every kernel outside JAX
            return noComponents;
        auto [it, inserted] = componentsOfPath.try_emplace(path);
        if (inserted) {
            const std::string_view text = t.strings.view(path);
            std::size_t from = 0;
            while (from <= text.size()) {
                const std::size_t slash = std::min(text.find('/', from), text.size());
                if (slash > from)
                    it->second.push_back(m_names.intern(text.substr(from, slash - from)));
                from = slash + 1;
            }
        }
        return it->second;
    };
    // Counted first: the refs of a large trace take megabytes, better reserved than grown. Each
    // kernel's records (its own, its launch's) are searched once, for both passes.
    std::vector<std::pair<uint32_t, uint32_t>> records;
    hugepages::reserve(records, kernels.size());
    std::size_t refCount = 0;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const uint32_t k = kernels[i];
        records.emplace_back(annotations.recordOf(k), annotations.recordOf(analysis.launchAt(positions[i])));
        refCount += componentsOf(t.opPathOf(k)).size() + annotations.containers(records[i].first).size() +
                    annotations.containers(records[i].second).size();
    }
    hugepages::reserveExact(m_refs, refCount);
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const uint32_t k = kernels[i];
        m_refBegin.push_back(uint32_t(m_refs.size()));
        for (uint32_t name : componentsOf(t.opPathOf(k)))
            m_refs.push_back(Ref{name, name, -1});
        auto addAnnotations = [&](uint32_t record) {
            for (uint32_t a : annotations.containers(record)) {
                const AnnotationName &n = annotationName(t.name[a]);
                const int64_t instance = n.step ? stepInstance.try_emplace(t.name[a], a).first->second : a;
                m_refs.push_back(Ref{n.name, n.fullName, instance});
            }
        };
        // GPU annotations first: the last matching ref is a kernel's instance, and the CPU range the
        // user wrote is preferred over its GPU mirror.
        addAnnotations(records[i].first);
        addAnnotations(records[i].second);
    }
    m_refBegin.push_back(uint32_t(m_refs.size()));
    m_stepName.resize(m_names.size());
    numberInstances();
}

void ScopeIndex::dropEmptyPaths()
{
    if (std::all_of(m_path.begin(), m_path.end(), [](uint32_t p) { return p == 0; }))
        std::vector<uint32_t>().swap(m_path);
}

int64_t ScopeIndex::stepOf(std::size_t pos) const
{
    for (uint32_t r = m_refBegin[pos]; r < m_refBegin[pos + 1]; ++r)
        if (m_refs[r].annotation >= 0 && m_stepName[m_refs[r].name])
            return m_refs[r].annotation;
    return -1;
}

void ScopeIndex::numberInstances()
{
    std::vector<int64_t> events;
    for (const Ref &ref : m_refs)
        if (ref.annotation >= 0)
            events.push_back(ref.annotation);
    std::sort(events.begin(), events.end());
    events.erase(std::unique(events.begin(), events.end()), events.end());
    for (Ref &ref : m_refs)
        if (ref.annotation >= 0)
            ref.annotation = std::lower_bound(events.begin(), events.end(), ref.annotation) - events.begin();
}

std::vector<ScopeIndex::Scope> ScopeIndex::scopes() const
{
    std::vector<Scope> result(m_names.size());
    std::vector<int64_t> lastKernel(m_names.size(), -1);     // position of the last kernel counted
    std::vector<int64_t> lastPathKernel(m_names.size(), -2); // position of the last path match
    std::vector<std::vector<int64_t>> annotations(m_names.size());
    std::vector<std::pair<uint32_t, int64_t>> kernelAnnotations; // name -> innermost annotation of one kernel
    int64_t previousWithPath = -2;
    for (std::size_t pos = 0; pos < m_track.size(); ++pos) {
        if (pos > 0 && hasPath(pos - 1))
            previousWithPath = int64_t(pos) - 1;
        const bool sameStream = previousWithPath >= 0 &&
                                m_track[std::size_t(previousWithPath)] == m_track[pos] &&
                                stepOf(std::size_t(previousWithPath)) == stepOf(pos);
        kernelAnnotations.clear();
        for (uint32_t r = m_refBegin[pos]; r < m_refBegin[pos + 1]; ++r) {
            const Ref &ref = m_refs[r];
            if (lastKernel[ref.name] != int64_t(pos)) {
                lastKernel[ref.name] = int64_t(pos);
                ++result[ref.name].kernels;
            }
            if (ref.annotation >= 0) {
                // As in samples(): the innermost annotation of a name is the kernel's instance.
                auto it = std::find_if(kernelAnnotations.begin(), kernelAnnotations.end(),
                                       [&ref](const auto &entry) { return entry.first == ref.name; });
                if (it == kernelAnnotations.end())
                    kernelAnnotations.emplace_back(ref.name, ref.annotation);
                else
                    it->second = ref.annotation;
            } else {
                if (!(sameStream && lastPathKernel[ref.name] == previousWithPath))
                    ++result[ref.name].instances;
                lastPathKernel[ref.name] = int64_t(pos);
            }
        }
        for (const auto &[name, annotation] : kernelAnnotations)
            annotations[name].push_back(annotation);
    }
    for (uint32_t name = 0; name < m_names.size(); ++name) {
        auto &list = annotations[name];
        std::sort(list.begin(), list.end());
        result[name].instances += std::unique(list.begin(), list.end()) - list.begin();
        result[name].name = m_names.qstring(name);
        result[name].step = m_stepName[name];
    }
    result.erase(std::remove_if(result.begin(), result.end(), [](const Scope &s) { return s.kernels == 0; }),
                 result.end());
    std::sort(result.begin(), result.end(),
              [](const Scope &a, const Scope &b) { return a.step != b.step ? a.step : a.name < b.name; });
    return result;
}

bool ScopeIndex::hasNamedScope() const
{
    return std::any_of(m_refs.begin(), m_refs.end(),
                       [this](const Ref &ref) { return !m_stepName[ref.name]; });
}

QString ScopeIndex::stepScope() const
{
    const Scope *best = nullptr;
    auto rank = [](const Scope &s) {
        return s.name == QLatin1String("ProfilerStep") ? 2 : isCallScopeName(s.name) ? 1 : 0;
    };
    const std::vector<Scope> all = scopes();
    for (const Scope &scope : all)
        if (scope.step && (!best || std::make_pair(rank(scope), scope.kernels) >
                                        std::make_pair(rank(*best), best->kernels)))
            best = &scope;
    return best ? best->name : QString();
}

std::vector<bool> ScopeIndex::matchingNames(const ScopeMatcher &matcher) const
{
    std::vector<bool> match(m_names.size());
    for (uint32_t name = 0; name < m_names.size(); ++name)
        match[name] = name != 0 && matcher.matchesName(m_names.view(name));
    return match;
}

std::vector<double> ScopeIndex::samples(const ScopeMatcher &matcher, SampleMode mode) const
{
    const std::vector<bool> nameMatches = matchingNames(matcher);
    std::unordered_map<uint32_t, bool> pathMatches; // whole op paths, for substring and regex modes
    auto pathMatches_ = [&](uint32_t path) {
        if (!path || matcher.mode() == MatchMode::Component)
            return false;
        auto [it, inserted] = pathMatches.try_emplace(path, false);
        if (inserted)
            it->second = matcher.matchesPath(m_paths.view(path));
        return it->second;
    };

    struct Instance
    {
        double sum = 0;
        int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
    };
    std::vector<double> result;
    std::vector<Instance> instances;
    std::map<int64_t, std::size_t> byAnnotation; // annotation event -> instance
    int64_t lastPathPos = -2;                    // position of the last kernel matched by its path
    int64_t previousWithPath = -2;
    for (std::size_t pos = 0; pos < m_track.size(); ++pos) {
        if (pos > 0 && hasPath(pos - 1))
            previousWithPath = int64_t(pos) - 1;
        bool byPath = false;
        int64_t annotation = -1; // the innermost matching annotation
        for (uint32_t r = m_refBegin[pos]; r < m_refBegin[pos + 1]; ++r) {
            if (!nameMatches[m_refs[r].name] && !nameMatches[m_refs[r].fullName])
                continue;
            if (m_refs[r].annotation >= 0)
                annotation = m_refs[r].annotation;
            else
                byPath = true;
        }
        byPath = byPath || (!m_path.empty() && pathMatches_(m_path[pos]));
        if (!byPath && annotation < 0)
            continue;
        if (mode == SampleMode::Kernel) {
            result.push_back(double(m_duration[pos]));
            continue;
        }
        std::size_t index;
        if (annotation >= 0) {
            auto [it, inserted] = byAnnotation.try_emplace(annotation, instances.size());
            if (inserted)
                instances.emplace_back();
            index = it->second;
        } else {
            // A path instance is a run of consecutive matching kernels on one stream within one step;
            // kernels without an op path between them (a Triton kernel XLA names no op of) do not end it.
            const bool continues = lastPathPos >= 0 && lastPathPos == previousWithPath &&
                                   m_track[std::size_t(lastPathPos)] == m_track[pos] &&
                                   stepOf(std::size_t(lastPathPos)) == stepOf(pos);
            if (!continues)
                instances.emplace_back();
            index = instances.size() - 1;
            lastPathPos = int64_t(pos);
        }
        Instance &instance = instances[index];
        instance.sum += double(m_duration[pos]);
        instance.first = std::min(instance.first, m_start[pos]);
        instance.last = std::max(instance.last, m_start[pos] + m_duration[pos]);
    }
    if (mode != SampleMode::Kernel)
        for (const Instance &instance : instances)
            result.push_back(mode == SampleMode::Instance ? instance.sum
                                                          : double(instance.last - instance.first));
    return result;
}

int64_t ScopeIndex::durationTick() const
{
    int64_t tick = 0;
    for (int64_t duration : m_duration)
        if (tick == 0 || duration % tick != 0) {
            tick = std::gcd(tick, std::llabs(duration));
            if (tick == 1)
                break;
        }
    return tick;
}

void ScopeIndex::write(QDataStream &out) const
{
    using namespace summarystream;
    writeStrings(out, m_names);
    writeStrings(out, m_paths);
    writeArray(out, m_track);
    writeArray(out, m_start);
    writeArray(out, m_duration);
    if (m_path.empty()) // the file keeps a path per kernel, 0 for none
        writeArray(out, std::vector<uint32_t>(m_track.size(), 0));
    else
        writeArray(out, m_path);
    writeArray(out, m_refBegin);
    writeArray(out, m_refs);
    writeBools(out, m_stepName);
}

bool ScopeIndex::read(QDataStream &in, ScopeIndex &index)
{
    using namespace summarystream;
    if (!readStrings(in, index.m_names) || !readStrings(in, index.m_paths) || !readArray(in, index.m_track) ||
        !readArray(in, index.m_start) || !readArray(in, index.m_duration) || !readArray(in, index.m_path) ||
        !readArray(in, index.m_refBegin) || !readArray(in, index.m_refs) || !readBools(in, index.m_stepName))
        return false;
    // What the queries index by must be in range: a damaged file must not read out of bounds.
    const std::size_t n = index.m_track.size();
    bool consistent = index.m_start.size() == n && index.m_duration.size() == n && index.m_path.size() == n &&
                      index.m_refBegin.size() == n + 1 && index.m_stepName.size() == index.m_names.size();
    for (std::size_t i = 0; consistent && i < n; ++i)
        consistent = index.m_path[i] < index.m_paths.size() && index.m_refBegin[i] <= index.m_refBegin[i + 1];
    consistent = consistent && index.m_refBegin.back() == index.m_refs.size();
    index.dropEmptyPaths();
    for (const Ref &ref : index.m_refs)
        consistent = consistent && ref.name < index.m_names.size() && ref.fullName < index.m_names.size();
    return consistent;
}

std::size_t ScopeIndex::heldBytes() const
{
    using hugepages::usedBytes;
    return m_names.heldBytes() + m_paths.heldBytes() + usedBytes(m_track) + usedBytes(m_start) +
           usedBytes(m_duration) + usedBytes(m_path) + usedBytes(m_refBegin) + usedBytes(m_refs) +
           m_stepName.size() / 8;
}

} // namespace scopeline
