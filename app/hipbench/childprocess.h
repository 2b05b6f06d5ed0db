// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `run --processes N`: each process's runs are recorded by a child process of the program itself, so
// that what differs from one process to the next (memory placement, module loading, the driver's
// choices) is measured. The children run one at a time, never two on the GPU together; each writes its
// traces and says what it did as RunReport messages, one JSON object a line on its stdout. No GPU code
// here, so that it is tested everywhere (with tests/fake_hipbench.sh as the child).

#include "runreport.h"
#include "workloads.h"

#include <functional>
#include <string>
#include <vector>

namespace hipbench {

// The hidden sub-command of a child: `child-process P WORKLOAD --out DIR [--NAME VALUE ...]` records
// the --repeat runs of process P of the one variant its options choose.
extern const char *const kChildCommand;

// The arguments (after the program's name) of process `process` of `variant`: the run's own
// options, with the variant chosen.
std::vector<std::string> childArguments(const RunConfig &config, const std::string &out,
                                        const std::string &variant, long process);

struct ChildExit
{
    int status = -1; // the exit status; -1 when it did not exit (a signal) or could not be started
    std::string how; // "exit status 3 (no GPU or a GPU error)", "killed by signal 11 (Segmentation fault)"
};

// SIGTERM and SIGINT ask the run to stop after the run in progress (passed on to a child process
// running); a second one ends the program at once. A signal ignored when the program started stays
// ignored. Clears an earlier request.
void stopOnSignals();
bool stopRequested();

// Runs program with args and waits for it: its stderr is this process's, each line of its stdout goes
// to onLine. The child is killed if this process dies (Linux), so that it never outlives a killed run.
ChildExit runChild(const std::string &program, const std::vector<std::string> &args,
                   const std::function<void(const std::string &line)> &onLine);

// Records config's run as `program`'s child processes: for each process index, one child per variant
// (A then B, so that the variants alternate in time), into report. A failed child is reported naming
// it and the others still run, unless none has recorded a run yet. Returns the exit status: 0, else that of
// the first failed child (a child killed by a signal counts as a GPU error).
int recordInProcesses(const std::string &program, const RunConfig &config, const std::string &out,
                      RunReport &report);

} // namespace hipbench
