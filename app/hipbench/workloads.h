// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The workloads of scopeline-hipbench and their options: what `--list` prints and how a `run`
// command line is checked. No GPU code here, so that it is tested everywhere.

#include <map>
#include <string>
#include <vector>

namespace hipbench {

struct OptionSpec
{
    std::string name;
    std::string defaultValue;
    std::string help;
    std::vector<std::string> choices; // empty: free value
    enum class Type { Int, IntList, Choice } type = Type::Int;
    long minimum = 1, maximum = 1000000000; // for Int and each IntList item
};

struct WorkloadSpec
{
    std::string name;
    std::string description;
    std::string variantA, variantB; // the run folders written when both are run; A is the baseline
    std::string variantOption;      // the option choosing A, B or "both"
    std::vector<OptionSpec> options; // the workload's own and the common ones (iterations, repeat)
};

const std::vector<WorkloadSpec> &workloads();
const WorkloadSpec *findWorkload(const std::string &name);

// A checked `run` command line: every option of the workload has a value (given or its default).
struct RunConfig
{
    const WorkloadSpec *workload = nullptr;
    std::string out;
    std::map<std::string, std::string> values;

    long integer(const std::string &option) const;
    std::vector<long> integers(const std::string &option) const;
    const std::string &text(const std::string &option) const;
    // The variants to run: the workload's "both" choice expands to A then B.
    std::vector<std::string> variants() const;
};

// Parses `WORKLOAD --out DIR [--NAME VALUE ...]` (the words after `run`). On failure returns false and
// sets error to a message naming the option and what it wants.
bool parseRun(const std::vector<std::string> &args, RunConfig &config, std::string &error);

std::string listText();
std::string listJson();

} // namespace hipbench
