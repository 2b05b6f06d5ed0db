// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracer.h"

#include <cuda_runtime.h>
#include <cupti.h>

#include <cxxabi.h>

#include <cstdlib>
#include <mutex>
#include <unistd.h>

namespace hipbench {

namespace {

// CUPTI's callbacks are plain functions; one tracer is active at a time.
std::mutex g_mutex;
TraceRecords g_records;
std::vector<std::pair<std::string, uint64_t>> g_open; // ranges begun, not yet ended
bool g_overflow = false;

// The whole program launches from one thread; CUPTI's thread ids and ours differ in kind, so both
// become this one.
constexpr uint32_t kHostThread = 1;

std::string demangled(const char *name)
{
    int status = 0;
    char *text = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    std::string result = status == 0 && text ? text : name;
    std::free(text);
    for (const std::string noise : {"hipbench::(anonymous namespace)::", "(anonymous namespace)::"})
        for (std::size_t at; (at = result.find(noise)) != std::string::npos;)
            result.erase(at, noise.size());
    return result;
}

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel"; empty for the calls not worth a row.
std::string runtimeName(CUpti_CallbackId cbid)
{
    const char *raw = nullptr;
    if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &raw) != CUPTI_SUCCESS || !raw)
        return {};
    std::string name = raw;
    if (const std::size_t version = name.find("_v"); version != std::string::npos)
        name.erase(version);
    static const char *kept[] = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cudaGraphLaunch",
                                 "cudaStreamSynchronize", "cudaDeviceSynchronize"};
    for (const char *k : kept)
        if (name == k)
            return name;
    return {};
}

void CUPTIAPI bufferRequested(uint8_t **buffer, size_t *size, size_t *maxRecords)
{
    *size = 8 << 20;
    *buffer = static_cast<uint8_t *>(std::aligned_alloc(8, *size));
    *maxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *buffer, size_t, size_t validSize)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    CUpti_Activity *record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            const auto *k = reinterpret_cast<const CUpti_ActivityKernel10 *>(record);
            TraceRecords::Kernel kernel;
            kernel.name = demangled(k->name);
            kernel.device = k->deviceId;
            kernel.stream = k->streamId;
            kernel.start = k->start;
            kernel.end = k->end;
            kernel.correlation = k->correlationId;
            kernel.grid[0] = k->gridX, kernel.grid[1] = k->gridY, kernel.grid[2] = k->gridZ;
            kernel.block[0] = k->blockX, kernel.block[1] = k->blockY, kernel.block[2] = k->blockZ;
            kernel.graphId = k->graphId;
            g_records.kernels.push_back(std::move(kernel));
        } else if (record->kind == CUPTI_ACTIVITY_KIND_RUNTIME) {
            const auto *a = reinterpret_cast<const CUpti_ActivityAPI *>(record);
            const std::string backend = runtimeName(a->cbid);
            if (backend.empty())
                continue;
            TraceRecords::Api api;
            api.name = "hip" + backend.substr(4); // the HIP call the program made
            api.backendName = backend;
            api.thread = kHostThread;
            api.start = a->start;
            api.end = a->end;
            api.correlation = a->correlationId;
            g_records.apis.push_back(std::move(api));
        }
    }
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS && dropped)
        g_overflow = true;
    std::free(buffer);
}

std::string cuptiError(CUptiResult result, const char *call)
{
    const char *text = nullptr;
    cuptiGetResultString(result, &text);
    return std::string(call) + ": " + (text ? text : "unknown CUPTI error");
}

uint64_t now()
{
    uint64_t timestamp = 0;
    cuptiGetTimestamp(&timestamp);
    return timestamp;
}

} // namespace

std::unique_ptr<Tracer> Tracer::create(std::string &error)
{
    const CUptiResult result = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
    if (result != CUPTI_SUCCESS) {
        error = cuptiError(result, "cuptiActivityRegisterCallbacks");
        return nullptr;
    }
    return std::unique_ptr<Tracer>(new Tracer());
}

Tracer::~Tracer() = default;

void Tracer::start()
{
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_records = TraceRecords();
        g_open.clear();
        g_overflow = false;
    }
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME);
}

bool Tracer::stop(TraceRecords &out, std::string &error)
{
    const cudaError_t synced = cudaDeviceSynchronize();
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_RUNTIME);
    const CUptiResult flushed = cuptiActivityFlushAll(1);
    std::lock_guard<std::mutex> lock(g_mutex);
    if (synced != cudaSuccess) {
        error = std::string("cudaDeviceSynchronize: ") + cudaGetErrorString(synced);
        return false;
    }
    if (flushed != CUPTI_SUCCESS) {
        error = cuptiError(flushed, "cuptiActivityFlushAll");
        return false;
    }
    if (g_overflow) {
        error = "CUPTI dropped activity records; run fewer iterations";
        return false;
    }
    out = std::move(g_records);
    out.pid = uint32_t(getpid());
    return true;
}

void Tracer::beginRange(const char *name)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_open.emplace_back(name, now());
}

const char *Tracer::timestampSource()
{
    return "CUPTI activity records: each kernel's start and end from the GPU, in ns; launch calls from "
           "CUPTI's runtime API records, on the same clock";
}

// CUPTI sees the launch calls and their kernels itself.
void Tracer::launchBegin(void *) {}
void Tracer::launchEnd(void *, const char *, int) {}

void Tracer::endRange()
{
    const uint64_t end = now();
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_open.empty())
        return;
    g_records.ranges.push_back({g_open.back().first, kHostThread, g_open.back().second, end});
    g_open.pop_back();
}

} // namespace hipbench
