// SPDX-License-Identifier: GPL-3.0-or-later
// The AMD tracer without roctracer (Debian 12 packages none): a hipEvent on the launch's stream before
// and after each launch call, read back when the run stops. An event's time is when the GPU reached it
// in its stream, so a kernel's interval is the time between the event before it and the one after,
// which includes the events' own cost; hipEventElapsedTime gives float ms with about 1 µs resolution
// (HIP's documentation). The launch calls and the named ranges are host times (CLOCK_MONOTONIC); the
// GPU times are put on that clock through one reference event recorded at start(), whose host time is
// known only to within the round trip that recorded it (written into the trace's metadata). A graph
// launch is one interval: the kernels inside a graph are not seen one by one.
#include "tracer.h"

#include <hip/hip_runtime_api.h>

#include <chrono>
#include <cmath>
#include <mutex>
#include <unistd.h>
#include <unordered_map>

namespace hipbench {

namespace {

constexpr uint32_t kHostThread = 1; // the program launches from one thread

struct PendingLaunch
{
    std::string kernel;
    int graphKernels = 0;
    uint32_t stream = 0, correlation = 0;
    uint64_t callStart = 0, callEnd = 0;
    hipEvent_t before = nullptr, after = nullptr;
};

// One tracer at a time, as with CUPTI's callbacks.
std::mutex g_mutex;
std::vector<hipEvent_t> g_pool; // created once, reused by every run
std::size_t g_used = 0;
hipEvent_t g_reference = nullptr;
uint64_t g_referenceNs = 0, g_referenceUncertaintyNs = 0;
std::vector<PendingLaunch> g_launches;
PendingLaunch g_current; // between launchBegin and launchEnd
std::unordered_map<void *, uint32_t> g_streams;
TraceRecords g_records;
std::vector<std::pair<std::string, uint64_t>> g_open; // ranges begun, not yet ended
std::string g_error;                                  // the first HIP error while recording

uint64_t now()
{
    return uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

bool failed(hipError_t status, const char *call)
{
    if (status == hipSuccess)
        return false;
    if (g_error.empty())
        g_error = std::string(call) + ": " + hipGetErrorString(status);
    return true;
}

hipEvent_t nextEvent()
{
    if (g_used == g_pool.size()) {
        hipEvent_t event = nullptr;
        if (failed(hipEventCreate(&event), "hipEventCreate"))
            return nullptr;
        g_pool.push_back(event);
    }
    return g_pool[g_used++];
}

// The event's time on the host clock: the reference's plus the GPU time between them.
bool eventNs(hipEvent_t event, uint64_t &ns)
{
    float ms = 0;
    if (failed(hipEventElapsedTime(&ms, g_reference, event), "hipEventElapsedTime"))
        return false;
    ns = uint64_t(int64_t(g_referenceNs) + std::llround(double(ms) * 1e6));
    return true;
}

} // namespace

const char *Tracer::timestampSource()
{
    return "hipEvents (roctracer not found at build time): an event before and after each launch on its "
           "stream, read with hipEventElapsedTime (float ms, about 1 us resolution); a kernel's interval "
           "includes the events' own cost, a graph launch is one interval for all its kernels; launch "
           "calls and ranges are host CLOCK_MONOTONIC times, the GPU times aligned to them through one "
           "reference event";
}

std::unique_ptr<Tracer> Tracer::create(std::string &error)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_reference) {
        const hipError_t status = hipEventCreate(&g_reference);
        if (status != hipSuccess) {
            error = std::string("hipEventCreate: ") + hipGetErrorString(status);
            return nullptr;
        }
    }
    return std::unique_ptr<Tracer>(new Tracer());
}

Tracer::~Tracer()
{
    std::lock_guard<std::mutex> lock(g_mutex);
    for (hipEvent_t event : g_pool)
        (void)hipEventDestroy(event);
    g_pool.clear();
    g_used = 0;
    if (g_reference)
        (void)hipEventDestroy(g_reference);
    g_reference = nullptr;
}

void Tracer::start()
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_records = TraceRecords();
    g_open.clear();
    g_launches.clear();
    g_streams.clear();
    g_used = 0;
    g_error.clear();
    failed(hipDeviceSynchronize(), "hipDeviceSynchronize");
    // The reference: recorded on the null stream with the GPU idle, waited for; its GPU time lies
    // between the two host times, taken as their middle.
    const uint64_t before = now();
    failed(hipEventRecord(g_reference, nullptr), "hipEventRecord");
    failed(hipEventSynchronize(g_reference), "hipEventSynchronize");
    const uint64_t after = now();
    g_referenceNs = before + (after - before) / 2;
    g_referenceUncertaintyNs = (after - before + 1) / 2;
}

bool Tracer::stop(TraceRecords &out, std::string &error)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    failed(hipDeviceSynchronize(), "hipDeviceSynchronize");
    for (const PendingLaunch &launch : g_launches) {
        if (!g_error.empty())
            break;
        TraceRecords::Api api;
        api.name = launch.graphKernels ? "hipGraphLaunch" : "hipLaunchKernel";
        api.thread = kHostThread;
        api.start = launch.callStart;
        api.end = launch.callEnd;
        api.correlation = launch.correlation;
        g_records.apis.push_back(api);
        TraceRecords::Kernel kernel;
        kernel.name = launch.graphKernels ? "graph of " + std::to_string(launch.graphKernels) + " x " + launch.kernel
                                          : launch.kernel;
        kernel.stream = launch.stream;
        kernel.correlation = launch.correlation;
        kernel.graphId = launch.graphKernels ? 1 : 0;
        if (eventNs(launch.before, kernel.start) && eventNs(launch.after, kernel.end)) {
            kernel.end = std::max(kernel.end, kernel.start);
            g_records.kernels.push_back(std::move(kernel));
        }
    }
    if (!g_error.empty()) {
        error = g_error;
        return false;
    }
    out = std::move(g_records);
    out.pid = uint32_t(getpid());
    out.metadata["gpu clock alignment uncertainty ns"] = std::to_string(g_referenceUncertaintyNs);
    return true;
}

void Tracer::beginRange(const char *name)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_open.emplace_back(name, now());
}

void Tracer::endRange()
{
    const uint64_t end = now();
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_open.empty())
        return;
    g_records.ranges.push_back({g_open.back().first, kHostThread, g_open.back().second, end});
    g_open.pop_back();
}

void Tracer::launchBegin(void *stream)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_current = PendingLaunch();
    g_current.stream = g_streams.emplace(stream, uint32_t(g_streams.size() + 1)).first->second;
    g_current.before = nextEvent();
    if (g_current.before)
        failed(hipEventRecord(g_current.before, static_cast<hipStream_t>(stream)), "hipEventRecord");
    g_current.callStart = now(); // after the event's own host cost
}

void Tracer::launchEnd(void *stream, const char *kernel, int graphKernels)
{
    const uint64_t callEnd = now();
    std::lock_guard<std::mutex> lock(g_mutex);
    g_current.callEnd = callEnd;
    g_current.kernel = kernel;
    g_current.graphKernels = graphKernels;
    g_current.correlation = uint32_t(g_launches.size() + 1);
    g_current.after = nextEvent();
    if (g_current.after)
        failed(hipEventRecord(g_current.after, static_cast<hipStream_t>(stream)), "hipEventRecord");
    if (g_current.before && g_current.after)
        g_launches.push_back(g_current);
}

} // namespace hipbench
