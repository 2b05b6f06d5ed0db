// SPDX-License-Identifier: GPL-3.0-or-later
// scopeline-hipbench: records comparable trace pairs (eager vs graph, implementation 1 vs 2) with the
// GPU's own kernel times, as Chrome trace JSON that Scopeline, Perfetto and chrome://tracing open.

#include "benchmarks.h"
#include "childprocess.h"
#include "runreport.h"
#include "tracer.h"
#include "tracewriter.h"
#include "workloads.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <stdexcept>

namespace fs = std::filesystem;
using namespace hipbench;

namespace {

// This build's name, in its usage (its messages and --version keep the family's, "scopeline-hipbench").
#ifdef __HIP_PLATFORM_AMD__
const std::string kProgram = "scopeline-hipbench-rocm";
#else
const std::string kProgram = "scopeline-hipbench";
#endif

const std::string kUsage =
    "Usage: " + kProgram +
    " --list [--json]\n"
    "       " +
    kProgram +
    " run WORKLOAD --out DIR [--NAME VALUE ...]\n"
    "\n"
    "Records trace pairs for Scopeline: one run folder per variant and repetition under DIR\n"
    "(DIR/<variant>/run_<i>/hipbench.pt.trace.json.gz; with --processes N > 1, each process a fresh one,\n"
    "DIR/<variant>/proc_<p>/run_<i>/...), DIR/summary.json naming the A/B pair, and a summary on stdout;\n"
    "progress on stderr. --list shows the workloads and their options.\n"
    "SIGTERM or Ctrl+C stops it after the run in progress, with summary.json of the runs recorded;\n"
    "a second one at once.\n"
    "Exit status: 0 success, 1 bad usage, 2 cannot write DIR, 3 no GPU or a GPU error, 4 cancelled.\n";

int fail(int status, const std::string &message)
{
    std::cerr << "scopeline-hipbench: " << message << "\n";
    return status;
}

// Receives RunReport's messages: the report itself in a one-process run, stdout in a child process.
using Emit = std::function<void(const nlohmann::json &message)>;

// One traced run of a variant: its trace file and its message.
int recordRun(Tracer &tracer, Benchmark &bench, const RunConfig &config, const std::string &variant,
              long process, long r, const fs::path &out, const std::string &device, const Emit &emit)
{
    std::string error;
    tracer.start();
    bench.run(int(config.integer("iterations")), &tracer);
    TraceRecords records;
    if (!tracer.stop(records, error))
        return emit({{"error", error}}), GpuError;
    records.deviceName = device;
    records.metadata.insert(config.values.begin(), config.values.end()); // beside what the tracer noted
    records.metadata["gpu timestamps"] = Tracer::timestampSource();
    records.metadata["workload"] = config.workload->name;
    records.metadata["variant"] = variant;
    records.metadata["process"] = std::to_string(process);
    const fs::path folder = runFolder(out.string(), variant, config.integer("processes"), process, r);
    std::error_code ec;
    fs::create_directories(folder, ec);
    const std::string file = (folder / "hipbench.pt.trace.json.gz").string();
    if (ec || !writeTrace(file, records, error))
        return emit({{"error", ec ? folder.string() + ": " + ec.message() : error}}), CannotWrite;
    emit({{"run", runEntry(variant, process, r, file, summarize(records))}});
    return Success;
}

// Records the configured variants in this process, as process `process` of the run: for each, warm-up,
// then --repeat traced runs. Says what happens, errors too, through emit; returns the exit status.
int recordHere(const RunConfig &config, const fs::path &out, long process, const Emit &emit)
{
    std::string device, error;
    if (!initGpu(device, error))
        return emit({{"error", error}}), GpuError;
    std::unique_ptr<Tracer> tracer = Tracer::create(error);
    if (!tracer)
        return emit({{"error", "cannot record GPU activity: " + error}}), GpuError;
    emit({{"device", device}});
    try {
        for (const std::string &variant : config.variants()) {
            emit({{"preparing", variant}, {"process", process}});
            if (stopRequested())
                return Cancelled;
            const std::unique_ptr<Benchmark> bench = makeBenchmark(config, variant);
            // said first, so that a run stopped before its end keeps them in summary.json
            emit({{"scopes", bench->scopes()}, {"samples", bench->sampleMode()}});
            bench->run(int(config.integer("warmup")), nullptr);
            for (long r = 0; r < config.integer("repeat"); ++r) {
                if (stopRequested())
                    return Cancelled;
                if (const int status =
                        recordRun(*tracer, *bench, config, variant, process, r, out, device, emit))
                    return status;
            }
        }
    } catch (const std::runtime_error &e) {
        return emit({{"error", e.what()}}), GpuError;
    }
    return Success;
}

// A folder's path without "." or ".." and without a trailing "/", which names it a second time.
fs::path folderPath(const fs::path &path)
{
    const fs::path normal = path.lexically_normal();
    return normal.has_filename() ? normal : normal.parent_path();
}

// The checked command line and its absolute --out folder, created; false with the exit status. With
// `created` (the run, not a child of it), a folder that holds anything is refused, since Scopeline reads
// every run folder under it: an earlier recording's runs would join this one's; and `created` is then the
// outermost folder made for it (empty where --out was there).
bool prepare(const std::vector<std::string> &args, RunConfig &config, fs::path &out, int &status,
             fs::path *created = nullptr)
{
    std::string error;
    if (!parseRun(args, config, error))
        return status = fail(BadUsage, error), false;
    std::error_code ec;
    if (created && fs::exists(config.out, ec) &&
        !(fs::is_directory(config.out, ec) && fs::is_empty(config.out, ec)))
        return status = fail(BadUsage, config.out + ": not an empty folder: record into a new or empty one"),
               false;
    out = folderPath(fs::absolute(config.out, ec)); // a/../b makes no a
    if (created) { // the outermost folder of --out that is made here (a/b/c makes a when none is there)
        created->clear();
        for (fs::path folder = out;
             !folder.empty() && !fs::exists(folder, ec) && folder != folder.parent_path();
             folder = folder.parent_path())
            *created = folder;
    }
    fs::create_directories(out, ec);
    if (ec || !fs::is_directory(out))
        return status = fail(CannotWrite,
                             config.out + ": cannot create the folder" + (ec ? ": " + ec.message() : "")),
               false;
    return true;
}

int runCommand(const std::vector<std::string> &args, const std::string &self)
{
    RunConfig config;
    fs::path out;
    int status = Success;
    fs::path created;
    if (!prepare(args, config, out, status, &created))
        return status;
    RunReport report(config, out.string(), std::cout, std::cerr);
    if (config.integer("processes") > 1)
        status = recordInProcesses(self, config, out.string(), report);
    else
        status = recordHere(config, out, 0, [&](const nlohmann::json &message) { report.take(message); });
    status = report.finish(status);
    // nothing recorded (no GPU, say): none of the folders made for it left behind
    std::error_code ec;
    if (!created.empty())
        for (fs::path folder = out; fs::is_empty(folder, ec) && fs::remove(folder, ec);
             folder = folder.parent_path())
            if (folder == created)
                break;
    return status;
}

// A child process of `run --processes N` (childprocess.h): its messages go to the parent on stdout.
int childCommand(const std::vector<std::string> &args)
{
    if (args.empty())
        return fail(BadUsage, std::string(kChildCommand) + " needs a process number");
    char *end = nullptr;
    const long process = std::strtol(args[0].c_str(), &end, 10);
    if (args[0].empty() || *end || process < 0)
        return fail(BadUsage, std::string(kChildCommand) + ": '" + args[0] + "' is not a process number");
    RunConfig config;
    fs::path out;
    int status = Success;
    if (!prepare({args.begin() + 1, args.end()}, config, out, status))
        return status;
    return recordHere(config, out, process, [](const nlohmann::json &message) {
        std::cout << message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    });
}

// This program, for its child processes.
std::string self(const char *argv0)
{
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::absolute(argv0).string() : exe.string();
}

} // namespace

int main(int argc, char **argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return std::cerr << kUsage, BadUsage;
    if (args[0] == "--help" || args[0] == "-h")
        return std::cout << kUsage << "GPU timestamps: " << Tracer::timestampSource() << ".\n", Success;
    if (args[0] == "--version")
        return std::cout << "scopeline-hipbench " << SCOPELINE_VERSION << "\n", Success;
    if (args[0] == "--list") {
        const bool json = args.size() == 2 && args[1] == "--json";
        if (args.size() > 2 || (args.size() == 2 && !json))
            return fail(BadUsage, "--list takes --json or nothing");
        std::cout << (json ? listJson() : listText());
        return Success;
    }
    stopOnSignals();
    if (args[0] == "run")
        return runCommand({args.begin() + 1, args.end()}, self(argv[0]));
    if (args[0] == kChildCommand) // internal: not in the usage text
        return childCommand({args.begin() + 1, args.end()});
    std::cerr << "scopeline-hipbench: unknown command '" << args[0] << "'\n" << kUsage;
    return BadUsage;
}
