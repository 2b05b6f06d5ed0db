// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The named scopes of one trace: for each kernel, the JAX op path components, the CPU annotations
// its launch ran inside and the GPU annotations it ran inside. Yields per-kernel or per-instance
// duration samples for a scope.
//
// Step scopes: annotations named `<name>#<digits>` (PyTorch `ProfilerStep#15`) are one scope `<name>`
// with one instance per number (the CPU range and its GPU mirror of one step are one instance), and
// the JAX host range `PjitFunction(f)` (one per jitted call) is a step too. A matcher accepts a step
// annotation when it accepts the scope name or the full annotation text (`ProfilerStep#15`), so a
// regex or a component name can still pick single steps.

#include "model/analysis/scopematcher.h"
#include "model/tracedata/stringtable.h"

#include <QString>

#include <cstdint>
#include <vector>

class QDataStream;

namespace scopeline {

class TraceAnalysis;
class TraceData;

class ScopeIndex
{
public:
    struct Scope
    {
        QString name;
        int64_t kernels = 0;   // kernels attributed to it
        int64_t instances = 0; // occurrences: annotation ranges, or runs of consecutive kernels on a stream
        bool step = false;     // iterations: collapsed `<name>#N` annotations, or `PjitFunction(...)` ranges
    };

    // Self-contained: it keeps what it needs of the kernels, so the trace may go once it is built.
    explicit ScopeIndex(const TraceAnalysis &analysis);

    // The index as stored in a run summary file (RunSummaryFile), and read back; read() returns false
    // when the stream ends early or holds inconsistent sizes.
    void write(QDataStream &out) const;
    static bool read(QDataStream &in, ScopeIndex &index);
    ScopeIndex() = default; // empty: what read() fills

    // Every scope name that has kernels: step scopes first, each group sorted by name.
    std::vector<Scope> scopes() const;
    // Whether any kernel carries a scope name that is not a step's: what scopes() lists beside the
    // steps, without counting them (it stops at the first).
    bool hasNamedScope() const;
    std::size_t kernelCount() const { return m_start.size(); }
    // The run's step scope: `ProfilerStep` when present, else the step scope with the most kernels
    // (`PjitFunction(...)` before other `<name>#N`); empty when there is none.
    QString stepScope() const;

    // `ProfilerStep#15` -> `ProfilerStep`; empty when the name is not `<name>#<digits>`.
    static QString collapsedStepName(const QString &annotation);
    // Whether a scope name is a step by its text alone (`PjitFunction(...)`).
    static bool isCallScopeName(QStringView name);
    // The same two on UTF-8 text, as the traces store names.
    static std::string_view stepBase(std::string_view text);
    static bool isCallName(std::string_view text);
    // Whether a text is one of the index's names (a scope, a step's full annotation text, a path component).
    bool hasName(std::string_view text) const { return m_names.find(text) >= 0; }
    // The bytes it holds (bench_loadonly --summaries).
    std::size_t heldBytes() const;
    // Durations in ns: one per matching kernel, or per instance (sum of its kernels, or its wall span).
    std::vector<double> samples(const ScopeMatcher &matcher, SampleMode mode) const;
    // The greatest common divisor of its kernels' durations in ns (0 when none is longer than zero): the
    // timer's tick, which samples of one scope that all took the same time cannot tell.
    int64_t durationTick() const;
    // Its kernels' durations in ns.
    const std::vector<int64_t> &durations() const { return m_duration; }

private:
    struct Ref
    {
        uint32_t name;      // in m_names
        uint32_t fullName;  // in m_names: the annotation text when it differs (`ProfilerStep#15`), else name
        // The instance: its annotation event (a step's first range) as numbered by numberInstances,
        // -1 for a path component.
        int64_t annotation;
    };

    // Numbers the instances' annotation events 0, 1, … in file order: the same whichever events a
    // load kept besides them (instants), so that a summary's bytes do not depend on it.
    void numberInstances();
    // Outside JAX no kernel has an op path: none is kept (4 bytes a kernel of every run summary).
    void dropEmptyPaths();

    std::vector<bool> matchingNames(const ScopeMatcher &matcher) const;

    StringTable m_names;
    StringTable m_paths; // JAX op paths (0: none)
    // Per kernel, grouped by stream, by start within a stream: its stream, start, duration, op path.
    std::vector<uint32_t> m_track;
    std::vector<int64_t> m_start, m_duration;
    std::vector<uint32_t> m_path; // in m_paths; empty when no kernel has one (outside JAX)
    bool hasPath(std::size_t pos) const { return !m_path.empty() && m_path[pos] != 0; }
    // The step instance (annotation) the kernel at pos ran in, -1 for none.
    int64_t stepOf(std::size_t pos) const;
    std::vector<uint32_t> m_refBegin; // per kernel position into m_refs; size + 1
    std::vector<Ref> m_refs;
    std::vector<bool> m_stepName; // per name in m_names: a step scope
};

} // namespace scopeline
