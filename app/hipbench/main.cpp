// SPDX-License-Identifier: GPL-3.0-or-later
// scopeline-hipbench: records comparable trace pairs (eager vs graph, implementation 1 vs 2) with the
// GPU's own kernel times, as Chrome trace JSON that Scopeline, Perfetto and chrome://tracing open.

#include "benchmarks.h"
#include "tracer.h"
#include "tracewriter.h"
#include "workloads.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace fs = std::filesystem;
using namespace hipbench;

namespace {

enum Exit { Success = 0, BadUsage = 1, CannotWrite = 2, GpuError = 3 };

const char *kUsage =
    "Usage: scopeline-hipbench --list [--json]\n"
    "       scopeline-hipbench run WORKLOAD --out DIR [--NAME VALUE ...]\n"
    "\n"
    "Records trace pairs for Scopeline: one run folder per variant and repetition under DIR\n"
    "(DIR/<variant>/run_<i>/hipbench.pt.trace.json.gz), DIR/summary.json naming the A/B pair, and a\n"
    "summary on stdout; progress on stderr. --list shows the workloads and their options.\n"
    "Exit status: 0 success, 1 bad usage, 2 cannot write DIR, 3 no GPU or a GPU error.\n";

int fail(int status, const std::string &message)
{
    std::cerr << "scopeline-hipbench: " << message << "\n";
    return status;
}

std::string microseconds(double ns)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f", ns / 1000.0);
    return buffer;
}

// One traced run of a variant: its trace file, its line on stdout and its entry in summary.json.
int recordRun(Tracer &tracer, Benchmark &bench, const RunConfig &config, const std::string &variant, long r,
              const fs::path &variantFolder, const std::string &device, nlohmann::json &runs)
{
    std::string error;
    tracer.start();
    bench.run(int(config.integer("iterations")), &tracer);
    TraceRecords records;
    if (!tracer.stop(records, error))
        return fail(GpuError, error);
    records.deviceName = device;
    records.metadata = config.values;
    records.metadata["workload"] = config.workload->name;
    records.metadata["variant"] = variant;
    const fs::path folder = variantFolder / ("run_" + std::to_string(r));
    std::error_code ec;
    fs::create_directories(folder, ec);
    const std::string file = (folder / "hipbench.pt.trace.json.gz").string();
    if (ec || !writeTrace(file, records, error))
        return fail(CannotWrite, ec ? folder.string() + ": " + ec.message() : error);
    const RunSummary s = summarize(records);
    std::cout << variant << "  " << r << "  " << s.kernels << "  " << s.kernelLaunches << "  "
              << s.graphLaunches << "  " << microseconds(double(s.busyNs)) << "  "
              << microseconds(double(s.spanNs)) << "  " << microseconds(double(s.idleNs)) << "  "
              << s.idleGaps << "  " << microseconds(s.medianLaunchDelayNs) << "  "
              << microseconds(double(s.minLaunchToKernelNs)) << "\n";
    runs.push_back({{"variant", variant},
                    {"run", r},
                    {"file", file},
                    {"kernels", s.kernels},
                    {"kernelLaunches", s.kernelLaunches},
                    {"graphLaunches", s.graphLaunches},
                    {"busyNs", s.busyNs},
                    {"spanNs", s.spanNs},
                    {"idleNs", s.idleNs},
                    {"idleGaps", s.idleGaps},
                    {"medianLaunchDelayNs", s.medianLaunchDelayNs},
                    {"minLaunchToKernelNs", s.minLaunchToKernelNs}});
    return Success;
}

int runCommand(const std::vector<std::string> &args)
{
    RunConfig config;
    std::string error;
    if (!parseRun(args, config, error))
        return fail(BadUsage, error);
    std::error_code ec;
    fs::create_directories(config.out, ec);
    if (ec || !fs::is_directory(config.out))
        return fail(CannotWrite, config.out + ": cannot create the folder" + (ec ? ": " + ec.message() : ""));
    const fs::path out = fs::absolute(config.out);

    std::string device;
    if (!initGpu(device, error))
        return fail(GpuError, error);
    std::unique_ptr<Tracer> tracer = Tracer::create(error);
    if (!tracer)
        return fail(GpuError, "cannot record GPU activity: " + error);

    const std::vector<std::string> variants = config.variants();
    const long repeat = config.integer("repeat");
    const long total = long(variants.size()) * repeat;
    long done = 0;
    nlohmann::json summary = {
        {"workload", config.workload->name}, {"device", device}, {"options", config.values}};
    nlohmann::json runs = nlohmann::json::array();
    std::cout << config.workload->name << " on " << device << ", " << config.integer("iterations")
              << " iterations per run\n";
    std::cout << "variant  run  kernels  launches  graph-launches  busy-us  span-us  idle-us  idle-gaps  "
                 "median-launch-delay-us  min-launch-to-kernel-us\n";
    try {
        for (const std::string &variant : variants) {
            std::cerr << "progress: " << done << "/" << total << " preparing " << variant << std::endl;
            const std::unique_ptr<Benchmark> bench = makeBenchmark(config, variant);
            bench->run(int(config.integer("warmup")), nullptr);
            for (long r = 0; r < repeat; ++r) {
                const int status =
                    recordRun(*tracer, *bench, config, variant, r, out / variant, device, runs);
                if (status != Success)
                    return status;
                std::cerr << "progress: " << ++done << "/" << total << " " << variant << " run " << r
                          << std::endl;
            }
            summary["scopes"] = bench->scopes();
            summary["samples"] = bench->sampleMode();
        }
    } catch (const std::runtime_error &e) {
        return fail(GpuError, e.what());
    }
    summary["a"] = {{"label", variants.front()}, {"path", (out / variants.front()).string()}};
    if (variants.size() > 1)
        summary["b"] = {{"label", variants.back()}, {"path", (out / variants.back()).string()}};
    summary["runs"] = runs;
    if (!writeFileAtomically((out / "summary.json").string(), summary.dump(2) + "\n", error))
        return fail(CannotWrite, error);
    std::cout << "wrote " << (out / "summary.json").string() << "\n";
    return Success;
}

} // namespace

int main(int argc, char **argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return std::cerr << kUsage, BadUsage;
    if (args[0] == "--help" || args[0] == "-h")
        return std::cout << kUsage, Success;
    if (args[0] == "--version")
        return std::cout << "scopeline-hipbench " << SCOPELINE_VERSION << "\n", Success;
    if (args[0] == "--list") {
        const bool json = args.size() > 1 && args[1] == "--json";
        std::cout << (json ? listJson() : listText());
        return Success;
    }
    if (args[0] == "run")
        return runCommand({args.begin() + 1, args.end()});
    std::cerr << "scopeline-hipbench: unknown command '" << args[0] << "'\n" << kUsage;
    return BadUsage;
}
