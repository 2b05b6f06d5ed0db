// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `run` reports: a table line per traced run on stdout, progress lines on stderr and
// DIR/summary.json. It is built from the messages of whatever records the runs: this process (one
// process per variant) or, with --processes N, the child processes, which write them as JSON lines on
// their stdout (childprocess.h). No GPU code here, so that it is tested everywhere.

#include "tracewriter.h"
#include "workloads.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace hipbench {

// The program's exit statuses.
enum Exit { Success = 0, BadUsage = 1, CannotWrite = 2, GpuError = 3, Cancelled = 4 };
// "bad usage", "cannot write DIR", "no GPU or a GPU error", "cancelled", else "unexpected failure".
const char *exitMeaning(int status);

// The folder of one traced run: DIR/<variant>/run_<r> with one process per variant, and
// DIR/<variant>/proc_<p>/run_<r> with more (Scopeline reads a side's runs grouped by process).
std::string runFolder(const std::string &out, const std::string &variant, long processes, long process,
                      long run);

// The summary.json entry of a traced run; a median or minimum that has nothing to be taken of is null.
nlohmann::json runEntry(const std::string &variant, long process, long run, const std::string &file,
                        const RunSummary &summary);

// The per-run table: its header, and the line of a runEntry (µs, "–" for a null).
std::string tableHeader();
std::string tableRow(const nlohmann::json &entry);

class RunReport
{
public:
    // `out` is the absolute --out folder.
    RunReport(const RunConfig &config, const std::string &out, std::ostream &table, std::ostream &progress);

    // Takes one message of a recording process; false when it is none of these:
    //   {"device": NAME}                        the GPU (the first prints the table's title and header)
    //   {"preparing": VARIANT, "process": P}    allocating and warming up
    //   {"run": ENTRY}                          a traced run, a runEntry: its table line and progress,
    //                                           and summary.json of the runs so far
    //   {"scopes": [...], "samples": MODE}      what compares the variants
    //   {"error": TEXT}                         why the process stops (said with processFailed() when
    //                                           there are several processes, at once with one)
    bool take(const nlohmann::json &message);
    // A child process that failed, e.g. how = "exit status 3": said on the progress stream, naming the
    // process and its error; its runs and those of the other processes stay.
    void processFailed(const std::string &variant, long process, const std::string &how);
    // Something else a child wrote on its stdout: passed on to the table's stream.
    void otherLine(const std::string &line) { m_table << line << "\n"; }

    std::size_t runs() const { return m_runs.size(); }
    std::size_t failures() const { return m_failures.size(); }
    nlohmann::json summary() const;
    // Writes DIR/summary.json when any run was recorded, also after a failure (status != 0), and says
    // where it is; returns the exit status (CannotWrite when only the summary failed).
    int finish(int status);

private:
    bool writeSummary(std::string &error) const; // DIR/summary.json of the runs so far, atomically

    const RunConfig &m_config;
    std::string m_out;
    std::ostream &m_table, &m_progress;
    long m_processes = 1, m_total = 0;
    std::string m_device, m_samples, m_error;
    nlohmann::json m_scopes = nlohmann::json::array(), m_runs = nlohmann::json::array();
    nlohmann::json m_failures = nlohmann::json::array();
};

} // namespace hipbench
