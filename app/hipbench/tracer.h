// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Records what the GPU did: kernel times (CUPTI's activity records on NVIDIA, tracer_cupti.cpp; on AMD
// hipEvents recorded around each launch, tracer_hipevents.cpp), the runtime calls that launched them
// and the named ranges around them, all on one clock.

#include "benchmarks.h"
#include "tracewriter.h"

#include <memory>
#include <string>

namespace hipbench {

class Tracer : public RangeSink
{
public:
    // Null with a message when the profiling interface cannot be used.
    static std::unique_ptr<Tracer> create(std::string &error);
    ~Tracer() override;

    void start();                 // records from now on
    bool stop(TraceRecords &out, std::string &error); // waits for the GPU, flushes, hands the records over
    void beginRange(const char *name) override;
    void endRange() override;
    void launchBegin(void *stream) override;
    void launchEnd(void *stream, const char *kernel, int graphKernels) override;

    // Where the GPU timestamps come from and how precise they are, for --help and the trace's metadata.
    static const char *timestampSource();

private:
    Tracer() = default;
};

} // namespace hipbench
