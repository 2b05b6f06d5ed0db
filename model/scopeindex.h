#pragma once
// The named scopes of one trace: for each kernel, the JAX op path components, the CPU annotations
// its launch ran inside and the GPU annotations it ran inside. Yields per-kernel or per-instance
// duration samples for a scope.

#include "scopematcher.h"
#include "stringtable.h"

#include <QString>

#include <cstdint>
#include <vector>

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
    };

    explicit ScopeIndex(const TraceAnalysis &analysis);

    // Every scope name that has kernels, sorted by name.
    std::vector<Scope> scopes() const;
    // Durations in ns: one per matching kernel, or per instance (sum of its kernels, or its wall span).
    std::vector<double> samples(const ScopeMatcher &matcher, SampleMode mode) const;

private:
    struct Ref
    {
        uint32_t name;      // in m_names
        int64_t annotation; // annotation event, -1 for an op path component
    };

    std::vector<bool> matchingNames(const ScopeMatcher &matcher) const;

    const TraceData &m_trace;
    StringTable m_names;
    std::vector<uint32_t> m_kernels;  // grouped by stream, by start within a stream
    std::vector<uint32_t> m_refBegin; // per kernel position into m_refs; size + 1
    std::vector<Ref> m_refs;
};

} // namespace scopeline
