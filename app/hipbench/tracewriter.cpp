// SPDX-License-Identifier: GPL-3.0-or-later
#include "tracewriter.h"

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <unordered_map>

namespace hipbench {

namespace {

std::string quoted(const std::string &text)
{
    return nlohmann::json(text).dump();
}

// ns relative to base as exact decimal µs ("12.345"): doubles would round absolute clocks.
std::string micros(uint64_t ns, uint64_t base)
{
    const uint64_t rel = ns - base;
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%llu.%03llu", static_cast<unsigned long long>(rel / 1000),
                  static_cast<unsigned long long>(rel % 1000));
    return buffer;
}

std::string complete(const std::string &cat, const std::string &name, uint32_t pid, uint32_t tid,
                     uint64_t start, uint64_t end, uint64_t base, const std::string &args)
{
    return "{\"ph\":\"X\",\"cat\":" + quoted(cat) + ",\"name\":" + quoted(name) +
           ",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
           ",\"ts\":" + micros(start, base) + ",\"dur\":" + micros(std::max(end, start), start) +
           ",\"args\":{" + args + "}}"; // a record that ends before it starts lasts 0, not 2^64 ns
}

std::string metadataEvent(const char *what, uint32_t pid, uint32_t tid, const std::string &name)
{
    return std::string("{\"ph\":\"M\",\"name\":\"") + what + "\",\"pid\":" + std::to_string(pid) +
           ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"name\":" + quoted(name) + "}}";
}

std::string dims(const int (&d)[3])
{
    return "[" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + "]";
}

// The median (the mean of the middle two for an even count); none of nothing.
std::optional<double> median(std::vector<double> values)
{
    if (values.empty())
        return std::nullopt;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

bool isKernelLaunch(const std::string &apiName)
{
    return apiName == "hipLaunchKernel" || apiName == "hipExtLaunchKernel" || apiName == "hipLaunchKernelExC";
}

bool isGraphLaunch(const std::string &apiName)
{
    return apiName == "hipGraphLaunch";
}

RunSummary summarize(const TraceRecords &records)
{
    RunSummary s;
    std::unordered_map<uint32_t, const TraceRecords::Api *> launchOf;
    for (const TraceRecords::Api &api : records.apis) {
        if (isKernelLaunch(api.name))
            ++s.kernelLaunches;
        else if (isGraphLaunch(api.name))
            ++s.graphLaunches;
        else
            continue;
        launchOf[api.correlation] = &api;
    }
    std::vector<const TraceRecords::Kernel *> kernels;
    for (const TraceRecords::Kernel &k : records.kernels)
        kernels.push_back(&k);
    s.kernels = kernels.size();
    if (kernels.empty())
        return s;
    std::sort(kernels.begin(), kernels.end(), [](auto *a, auto *b) { return a->start < b->start; });

    // a record that ends before it starts is written lasting 0 ns at its start (complete): so it counts
    const auto endOf = [](const TraceRecords::Kernel *k) { return std::max(k->start, k->end); };
    uint64_t busyEnd = 0, first = kernels.front()->start, last = 0;
    for (const TraceRecords::Kernel *k : kernels) {
        const uint64_t from = std::max(k->start, busyEnd);
        if (endOf(k) > from)
            s.busyNs += endOf(k) - from;
        busyEnd = std::max(busyEnd, endOf(k));
        last = std::max(last, endOf(k));
    }
    s.spanNs = last - first;
    s.idleNs = s.spanNs - s.busyNs;

    // Gaps per stream: a kernel that starts after everything before it on its stream has ended.
    std::unordered_map<uint32_t, uint64_t> streamEnd;
    for (const TraceRecords::Kernel *k : kernels) {
        auto it = streamEnd.find(k->stream);
        if (it != streamEnd.end() && k->start > it->second)
            ++s.idleGaps;
        uint64_t &end = streamEnd[k->stream];
        end = std::max(end, endOf(k));
    }

    std::vector<double> delays;
    std::unordered_map<uint32_t, int64_t> graphDelays; // graph launch correlation -> its first kernel's delay
    for (const TraceRecords::Kernel *k : kernels) {
        const auto it = launchOf.find(k->correlation);
        if (it == launchOf.end())
            continue;
        const int64_t delay = int64_t(k->start) - int64_t(it->second->start);
        s.minLaunchToKernelNs = std::min(s.minLaunchToKernelNs.value_or(delay), delay);
        if (isKernelLaunch(it->second->name))
            delays.push_back(double(delay));
        else // kernels go by start, and emplace keeps the first: the graph's earliest kernel
            graphDelays.emplace(k->correlation, delay);
    }
    s.medianLaunchDelayNs = median(delays);
    std::vector<double> graph;
    for (const auto &[correlation, delay] : graphDelays)
        graph.push_back(double(delay));
    s.medianGraphLaunchDelayNs = median(graph);
    return s;
}

std::string traceJson(const TraceRecords &records)
{
    uint64_t base = std::numeric_limits<uint64_t>::max();
    for (const auto &a : records.apis)
        base = std::min(base, a.start);
    for (const auto &k : records.kernels)
        base = std::min(base, k.start);
    for (const auto &r : records.ranges)
        base = std::min(base, r.start);
    if (base == std::numeric_limits<uint64_t>::max())
        base = 0;

    nlohmann::json meta(records.metadata);
    std::string out = "{\"schemaVersion\":1,\"baseTimeNanoseconds\":" + std::to_string(base) +
                      ",\"hipbench\":" + meta.dump() +
                      ",\"deviceProperties\":[{\"id\":0,\"name\":" + quoted(records.deviceName) +
                      "}],\"traceEvents\":[\n";
    std::vector<std::string> events;
    events.push_back(metadataEvent("process_name", records.pid, 0, records.processName));
    std::map<uint32_t, bool> threads;
    for (const auto &a : records.apis)
        threads[a.thread] = true;
    for (const auto &r : records.ranges)
        threads[r.thread] = true;
    for (const auto &[tid, unused] : threads)
        events.push_back(
            metadataEvent("thread_name", records.pid, tid, "host thread " + std::to_string(tid)));
    std::map<std::pair<uint32_t, uint32_t>, bool> streams;
    for (const auto &k : records.kernels)
        streams[{k.device, k.stream}] = true;
    std::map<uint32_t, bool> devices;
    for (const auto &[key, unused] : streams) {
        if (!devices[key.first]) {
            devices[key.first] = true;
            events.push_back(metadataEvent("process_name", key.first, 0, "GPU " + std::to_string(key.first)));
        }
        events.push_back(
            metadataEvent("thread_name", key.first, key.second, "stream " + std::to_string(key.second)));
    }

    for (const auto &r : records.ranges)
        events.push_back(
            complete("user_annotation", r.name, records.pid, r.thread, r.start, r.end, base, ""));
    for (const auto &a : records.apis) {
        std::string args = "\"correlation\":" + std::to_string(a.correlation);
        if (!a.backendName.empty())
            args += ",\"backend call\":" + quoted(a.backendName);
        events.push_back(complete("cuda_runtime", a.name, records.pid, a.thread, a.start, a.end, base, args));
    }
    for (const auto &k : records.kernels) {
        std::string args = "\"correlation\":" + std::to_string(k.correlation) +
                           ",\"device\":" + std::to_string(k.device) +
                           ",\"stream\":" + std::to_string(k.stream) + ",\"grid\":" + dims(k.grid) +
                           ",\"block\":" + dims(k.block);
        if (k.graphId)
            args += ",\"graph id\":" + std::to_string(k.graphId);
        events.push_back(complete("kernel", k.name, k.device, k.stream, k.start, k.end, base, args));
    }
    // Flow arrows launch -> kernel ("ac2g", as Kineto writes them) for Perfetto and chrome://tracing;
    // a graph launch points at its first kernel. Scopeline joins by args.correlation.
    std::map<uint32_t, const TraceRecords::Kernel *> firstKernel;
    for (const auto &k : records.kernels) {
        const TraceRecords::Kernel *&first = firstKernel[k.correlation];
        if (!first || k.start < first->start)
            first = &k;
    }
    for (const auto &a : records.apis) {
        const auto it = firstKernel.find(a.correlation);
        if ((!isKernelLaunch(a.name) && !isGraphLaunch(a.name)) || it == firstKernel.end())
            continue;
        const std::string id = std::to_string(a.correlation);
        events.push_back("{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":" + id +
                         ",\"pid\":" + std::to_string(records.pid) + ",\"tid\":" + std::to_string(a.thread) +
                         ",\"ts\":" + micros(a.start, base) + "}");
        const TraceRecords::Kernel &k = *it->second;
        events.push_back("{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":" + id +
                         ",\"pid\":" + std::to_string(k.device) + ",\"tid\":" + std::to_string(k.stream) +
                         ",\"ts\":" + micros(k.start, base) + "}");
    }
    for (std::size_t i = 0; i < events.size(); ++i)
        out += events[i] + (i + 1 < events.size() ? ",\n" : "\n");
    out += "]}\n";
    return out;
}

bool writeFileAtomically(const std::string &path, const std::string &text, std::string &error)
{
    const std::string part = path + ".part";
    std::FILE *file = std::fopen(part.c_str(), "wb");
    if (!file) {
        error = part + ": " + std::strerror(errno);
        return false;
    }
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed || std::rename(part.c_str(), path.c_str()) != 0) {
        error = path + ": " + std::strerror(errno);
        std::remove(part.c_str());
        return false;
    }
    return true;
}

bool writeTrace(const std::string &path, const TraceRecords &records, std::string &error)
{
    const std::string json = traceJson(records);
    const std::string part = path + ".part";
    gzFile file = gzopen(part.c_str(), "wb6");
    if (!file) {
        error = part + ": " + std::strerror(errno);
        return false;
    }
    bool ok = true;
    for (std::size_t at = 0; ok && at < json.size();) { // gzwrite takes an unsigned count
        const unsigned chunk = unsigned(std::min<std::size_t>(json.size() - at, 1u << 30));
        ok = gzwrite(file, json.data() + at, chunk) == int(chunk);
        at += chunk;
    }
    ok = gzclose(file) == Z_OK && ok;
    if (!ok || std::rename(part.c_str(), path.c_str()) != 0) {
        error = path + ": cannot write the compressed trace";
        std::remove(part.c_str());
        return false;
    }
    return true;
}

} // namespace hipbench
