// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Records what the GPU did: kernel times from the GPU's own activity records (CUPTI on NVIDIA), the
// runtime calls that launched them and the named ranges around them, all on the profiler's one clock.

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

private:
    Tracer() = default;
};

} // namespace hipbench
