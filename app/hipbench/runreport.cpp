// SPDX-License-Identifier: GPL-3.0-or-later
#include "runreport.h"

#include <algorithm>
#include <cstdio>

namespace hipbench {

namespace {

const char *const kMissing = "\xe2\x80\x93"; // "–": nothing to take a median or minimum of

// ns as µs with 3 decimals, or "–" for null.
std::string microseconds(const nlohmann::json &ns)
{
    if (!ns.is_number())
        return kMissing;
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f", ns.get<double>() / 1000.0);
    return buffer;
}

template <typename T> nlohmann::json orNull(const std::optional<T> &value)
{
    return value ? nlohmann::json(*value) : nlohmann::json();
}

std::string processName(const std::string &variant, long process)
{
    return "process " + std::to_string(process) + " (" + variant + ")";
}

} // namespace

const char *exitMeaning(int status)
{
    switch (status) {
    case BadUsage:
        return "bad usage";
    case CannotWrite:
        return "cannot write DIR";
    case GpuError:
        return "no GPU or a GPU error";
    case Cancelled:
        return "cancelled";
    default:
        return "unexpected failure";
    }
}

std::string runFolder(const std::string &out, const std::string &variant, long processes, long process,
                      long run)
{
    std::string folder = out + "/" + variant + "/";
    if (processes > 1)
        folder += "proc_" + std::to_string(process) + "/";
    return folder + "run_" + std::to_string(run);
}

nlohmann::json runEntry(const std::string &variant, long process, long run, const std::string &file,
                        const RunSummary &s)
{
    return {{"variant", variant},
            {"process", process},
            {"run", run},
            {"file", file},
            {"kernels", s.kernels},
            {"kernelLaunches", s.kernelLaunches},
            {"graphLaunches", s.graphLaunches},
            {"busyNs", s.busyNs},
            {"spanNs", s.spanNs},
            {"idleNs", s.idleNs},
            {"idleGaps", s.idleGaps},
            {"medianLaunchDelayNs", orNull(s.medianLaunchDelayNs)},
            {"medianGraphLaunchDelayNs", orNull(s.medianGraphLaunchDelayNs)},
            {"minLaunchToKernelNs", orNull(s.minLaunchToKernelNs)}};
}

std::string tableHeader()
{
    return "variant  process  run  kernels  launches  graph-launches  busy-us  span-us  idle-us  idle-gaps  "
           "median-launch-delay-us  median-graph-launch-delay-us  min-launch-to-kernel-us\n";
}

std::string tableRow(const nlohmann::json &e)
{
    const auto count = [&](const char *key) { return std::to_string(e.value(key, 0L)); };
    const auto us = [&](const char *key) {
        return microseconds(e.contains(key) ? e[key] : nlohmann::json());
    };
    return e.value("variant", "") + "  " + count("process") + "  " + count("run") + "  " + count("kernels") +
           "  " + count("kernelLaunches") + "  " + count("graphLaunches") + "  " + us("busyNs") + "  " +
           us("spanNs") + "  " + us("idleNs") + "  " + count("idleGaps") + "  " + us("medianLaunchDelayNs") +
           "  " + us("medianGraphLaunchDelayNs") + "  " + us("minLaunchToKernelNs") + "\n";
}

RunReport::RunReport(const RunConfig &config, const std::string &out, std::ostream &table,
                     std::ostream &progress)
    : m_config(config), m_out(out), m_table(table), m_progress(progress),
      m_processes(config.integer("processes")),
      m_total(long(config.variants().size()) * config.integer("processes") * config.integer("repeat"))
{}

bool RunReport::take(const nlohmann::json &message)
{
    if (!message.is_object())
        return false;
    if (const auto device = message.find("device"); device != message.end() && device->is_string()) {
        if (m_device.empty()) {
            m_table << m_config.workload->name << " on " << device->get<std::string>() << ", "
                    << m_config.integer("iterations") << " iterations per run";
            if (m_processes > 1)
                m_table << ", " << m_config.integer("repeat") << " runs in each of " << m_processes
                        << " processes per variant";
            m_table << "\n" << tableHeader() << std::flush;
        }
        m_device = device->get<std::string>();
        return true;
    }
    if (const auto variant = message.find("preparing"); variant != message.end() && variant->is_string()) {
        m_progress << "progress: " << m_runs.size() << "/" << m_total << " preparing "
                   << variant->get<std::string>();
        if (m_processes > 1)
            m_progress << " in process " << message.value("process", 0L);
        m_progress << std::endl;
        return true;
    }
    if (const auto run = message.find("run"); run != message.end() && run->is_object()) {
        m_runs.push_back(*run);
        // summary.json after every run: a run killed later (a cancel past its grace, a crash, a closed
        // window) keeps the runs recorded before, readable as their pair. finish() writes it once more.
        std::string ignored; // a summary that cannot be written is said by finish()
        writeSummary(ignored);
        m_table << tableRow(*run) << std::flush;
        m_progress << "progress: " << m_runs.size() << "/" << m_total << " " << run->value("variant", "");
        if (m_processes > 1)
            m_progress << " process " << run->value("process", 0L);
        m_progress << " run " << run->value("run", 0L) << " recorded" << std::endl; // not the one running now
        return true;
    }
    if (const auto scopes = message.find("scopes"); scopes != message.end() && scopes->is_array()) {
        m_scopes = *scopes;
        m_samples = message.value("samples", "kernel");
        return true;
    }
    if (const auto error = message.find("error"); error != message.end() && error->is_string()) {
        m_error = error->get<std::string>();
        if (m_processes == 1)
            m_progress << "scopeline-hipbench: " << m_error << std::endl;
        return true;
    }
    return false;
}

void RunReport::processFailed(const std::string &variant, long process, const std::string &how)
{
    const std::string why = m_error.empty() ? how : m_error + "; " + how;
    m_error.clear();
    m_progress << "scopeline-hipbench: " << processName(variant, process) << " failed: " << why << std::endl;
    m_failures.push_back({{"variant", variant}, {"process", process}, {"error", why}});
}

nlohmann::json RunReport::summary() const
{
    nlohmann::json summary = {{"workload", m_config.workload->name},
                              {"device", m_device},
                              {"options", m_config.values},
                              {"scopes", m_scopes},
                              {"samples", m_samples.empty() ? std::string("kernel") : m_samples}};
    // The variants with a run recorded (a run cancelled or failed before B's first has A alone, which
    // opens against itself); A when none has.
    std::vector<std::string> sides;
    for (const std::string &variant : m_config.variants())
        if (std::any_of(m_runs.begin(), m_runs.end(),
                        [&](const nlohmann::json &run) { return run["variant"] == variant; }))
            sides.push_back(variant);
    if (sides.empty())
        sides.push_back(m_config.variants().front());
    summary["a"] = {{"label", sides.front()}, {"path", m_out + "/" + sides.front()}};
    if (sides.size() > 1)
        summary["b"] = {{"label", sides.back()}, {"path", m_out + "/" + sides.back()}};
    summary["runs"] = m_runs;
    if (!m_failures.empty())
        summary["failed"] = m_failures;
    return summary;
}

bool RunReport::writeSummary(std::string &error) const
{
    return writeFileAtomically(m_out + "/summary.json",
                               summary().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                               error);
}

int RunReport::finish(int status)
{
    const std::string path = m_out + "/summary.json";
    std::string first, failed; // "process 1 (graph): why", "1 of 4 processes failed (first: ...); "
    if (!m_failures.empty()) {
        const nlohmann::json &f = m_failures.front();
        first = processName(f["variant"].get<std::string>(), f["process"].get<long>()) + ": " +
                f["error"].get<std::string>();
        failed = std::to_string(m_failures.size()) + " of " +
                 std::to_string(m_processes * long(m_config.variants().size())) +
                 " processes failed (first: " + first + "); ";
    }
    if (m_processes == 1 && !m_error.empty()) // the cause, on the line a caller shows
        failed = m_error + "; ";
    if (status == Cancelled)
        failed = "cancelled; " + failed;
    if (m_runs.empty()) {
        if (status == Cancelled)
            m_progress << "scopeline-hipbench: cancelled before a run was recorded" << std::endl;
        else if (!first.empty())
            m_progress << "scopeline-hipbench: nothing was recorded (" << first << ")" << std::endl;
        return status;
    }
    std::string error;
    if (!writeSummary(error)) {
        m_progress << "scopeline-hipbench: " << error << std::endl;
        return status != Success ? status : CannotWrite;
    }
    if (status == Success) {
        m_table << "wrote " << path << "\n" << std::flush;
        return Success;
    }
    m_progress << "scopeline-hipbench: " << failed
               << (m_runs.size() == 1 ? "the 1 run recorded is in "
                                      : "the " + std::to_string(m_runs.size()) + " runs recorded are in ")
               << path << std::endl;
    return status;
}

} // namespace hipbench
