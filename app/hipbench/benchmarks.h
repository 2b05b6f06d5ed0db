// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The GPU workloads (HIP source, built for AMD with hipcc as HIP itself, or for NVIDIA with nvcc through
// hip_compat.h).
// GPU errors are thrown as std::runtime_error with the call and HIP's message.

#include "workloads.h"

#include <memory>
#include <string>

namespace hipbench {

// Receives the named ranges (scopes) a workload opens around its launches, and each launch call.
class RangeSink
{
public:
    virtual ~RangeSink() = default;
    virtual void beginRange(const char *name) = 0;
    virtual void endRange() = 0;
    // Around each traced launch call on `stream` (a hipStream_t): a tracer that cannot see the
    // runtime's calls (hipEvents on AMD) times them and the GPU work here; CUPTI needs neither.
    // `kernel` names what was launched; a graph launch says how many kernels it ran.
    virtual void launchBegin(void *stream) { (void)stream; }
    virtual void launchEnd(void *stream, const char *kernel, int graphKernels)
    {
        (void)stream, (void)kernel, (void)graphKernels;
    }
};

// The first GPU, made current; false with a message when there is none.
bool initGpu(std::string &deviceName, std::string &error);

class Benchmark
{
public:
    virtual ~Benchmark() = default;
    // Runs the workload `iterations` times and waits for the GPU; ranges go to sink (may be null).
    virtual void run(int iterations, RangeSink *sink) = 0;
    // The scopes that compare the variants and how (kernel, instance or span samples).
    virtual std::vector<std::string> scopes() const = 0;
    virtual const char *sampleMode() const = 0;
};

// Allocates and prepares one variant of the configured workload (captures its graph in graph mode).
std::unique_ptr<Benchmark> makeBenchmark(const RunConfig &config, const std::string &variant);

} // namespace hipbench
