// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloads.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace hipbench {

namespace {

using Type = OptionSpec::Type;

OptionSpec intOption(const char *name, const char *def, const char *help, long minimum, long maximum)
{
    OptionSpec o;
    o.name = name;
    o.defaultValue = def;
    o.help = help;
    o.type = Type::Int;
    o.minimum = minimum;
    o.maximum = maximum;
    return o;
}

OptionSpec choiceOption(const char *name, const char *def, const char *help, std::vector<std::string> choices)
{
    OptionSpec o;
    o.name = name;
    o.defaultValue = def;
    o.help = help;
    o.type = Type::Choice;
    o.choices = std::move(choices);
    return o;
}

std::vector<OptionSpec> withCommon(std::vector<OptionSpec> options, const char *iterations)
{
    options.push_back(intOption("iterations", iterations, "timed repetitions of the workload in each run", 1, 100000));
    options.push_back(intOption("repeat", "3", "runs per variant, each a run folder with its own trace", 1, 100));
    options.push_back(intOption("processes", "1",
                                "processes per variant, each running --repeat runs (more than 1: run folders "
                                "proc_<p>/run_<r>)",
                                1, 100));
    options.push_back(intOption("warmup", "2", "untraced repetitions before the traced ones", 0, 1000));
    return options;
}

std::vector<WorkloadSpec> makeWorkloads()
{
    std::vector<WorkloadSpec> list;

    WorkloadSpec chain;
    chain.name = "launch-chain";
    chain.description = "N small dependent kernels launched one by one (eager) vs captured once into a graph and "
                        "replayed (graph); each kernel runs for about a microsecond, so launch overhead dominates";
    chain.variantA = "eager";
    chain.variantB = "graph";
    chain.variantOption = "mode";
    chain.options = withCommon({intOption("kernels", "200", "kernels in the chain", 1, 100000),
                                intOption("elements", "256", "floats each kernel updates", 1, 1 << 26),
                                choiceOption("mode", "both", "launch one by one, as a graph, or both (A eager, B graph)",
                                             {"eager", "graph", "both"})},
                               "20");
    list.push_back(chain);

    WorkloadSpec bmm;
    bmm.name = "batched-matmul";
    bmm.description = "the batched product (1000,1000,3,K) @ (1000,1000,K,1) for each K, f32 (A) vs f64 (B); "
                      "one scope per K (bmm_K05, ...) so that the sweep shows where time jumps";
    bmm.variantA = "f32";
    bmm.variantB = "f64";
    bmm.variantOption = "dtype";
    OptionSpec ks;
    ks.name = "k";
    ks.defaultValue = "5,10,15,20,25,30,35,40,45,50";
    ks.help = "comma-separated inner sizes K";
    ks.type = Type::IntList;
    ks.minimum = 1;
    ks.maximum = 512;
    bmm.options = withCommon({ks, intOption("batch", "1000000", "batch items (1000 x 1000 in the article)", 1, 4000000),
                              choiceOption("dtype", "both", "element type: f32, f64 or both (A f32, B f64)",
                                           {"f32", "f64", "both"})},
                             "10");
    list.push_back(bmm);

    WorkloadSpec attn;
    attn.name = "attention";
    attn.description = "q·kᵀ and att·v of GPT-like attention (no softmax) in a straightforward matmul kernel (A) and "
                       "a shared-memory tiled one (B); kernel ranges named attn_q_k and attn_att_v";
    attn.variantA = "naive";
    attn.variantB = "tiled";
    attn.variantOption = "impl";
    attn.options = withCommon({intOption("batch", "4", "sequences", 1, 256), intOption("heads", "12", "heads", 1, 256),
                               intOption("seq", "1024", "tokens per sequence", 16, 16384),
                               intOption("dim", "64", "head dimension", 16, 256),
                               choiceOption("impl", "both", "implementation: naive, tiled or both (A naive, B tiled)",
                                            {"naive", "tiled", "both"})},
                              "20");
    list.push_back(attn);
    return list;
}

bool parseLong(const std::string &text, long &value)
{
    // digits alone, as the runner panel takes them: strtol would pass " 5" and "+5"
    if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-'))
        return false;
    errno = 0;
    char *end = nullptr;
    value = std::strtol(text.c_str(), &end, 10);
    return errno == 0 && end && *end == '\0';
}

bool parseList(const std::string &text, std::vector<long> &values)
{
    values.clear();
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        long value = 0;
        if (!parseLong(item, value))
            return false;
        values.push_back(value);
    }
    return !values.empty() && text.back() != ',';
}

// Checks a value against its option; returns an empty string or what is wrong.
std::string check(const OptionSpec &option, const std::string &value)
{
    const std::string range = std::to_string(option.minimum) + " to " + std::to_string(option.maximum);
    switch (option.type) {
    case Type::Int: {
        long v = 0;
        if (!parseLong(value, v) || v < option.minimum || v > option.maximum)
            return "--" + option.name + " wants a whole number from " + range + ", not '" + value + "'";
        return {};
    }
    case Type::IntList: {
        std::vector<long> values;
        bool ok = parseList(value, values);
        for (long v : values)
            ok = ok && v >= option.minimum && v <= option.maximum;
        if (!ok)
            return "--" + option.name + " wants comma-separated whole numbers from " + range + ", not '" + value + "'";
        return {};
    }
    case Type::Choice:
        for (const std::string &choice : option.choices)
            if (choice == value)
                return {};
        std::string choices;
        for (const std::string &choice : option.choices)
            choices += (choices.empty() ? "" : ", ") + choice;
        return "--" + option.name + " is one of " + choices + ", not '" + value + "'";
    }
    return {};
}

} // namespace

const std::vector<WorkloadSpec> &workloads()
{
    static const std::vector<WorkloadSpec> list = makeWorkloads();
    return list;
}

const WorkloadSpec *findWorkload(const std::string &name)
{
    for (const WorkloadSpec &w : workloads())
        if (w.name == name)
            return &w;
    return nullptr;
}

long RunConfig::integer(const std::string &option) const
{
    long value = 0;
    parseLong(text(option), value);
    return value;
}

std::vector<long> RunConfig::integers(const std::string &option) const
{
    std::vector<long> values;
    parseList(text(option), values);
    return values;
}

const std::string &RunConfig::text(const std::string &option) const
{
    static const std::string none;
    const auto it = values.find(option);
    return it == values.end() ? none : it->second;
}

std::vector<std::string> RunConfig::variants() const
{
    const std::string &value = text(workload->variantOption);
    if (value == "both")
        return {workload->variantA, workload->variantB};
    return {value};
}

bool parseRun(const std::vector<std::string> &given, RunConfig &config, std::string &error)
{
    // --NAME=VALUE is --NAME VALUE
    std::vector<std::string> args;
    for (const std::string &arg : given) {
        const std::size_t equals = arg.find('=');
        if (arg.rfind("--", 0) == 0 && equals != std::string::npos) {
            args.push_back(arg.substr(0, equals));
            args.push_back(arg.substr(equals + 1));
        } else {
            args.push_back(arg);
        }
    }
    if (std::find(args.begin(), args.end(), "--help") != args.end()) {
        error = "the workloads' options are listed by --list, the command line by --help";
        return false;
    }
    if (args.empty() || args[0].rfind("--", 0) == 0) {
        error = "run needs a workload: launch-chain, batched-matmul or attention (see --list)";
        return false;
    }
    config = RunConfig();
    config.workload = findWorkload(args[0]);
    if (!config.workload) {
        error = "unknown workload '" + args[0] + "' (see --list)";
        return false;
    }
    for (const OptionSpec &o : config.workload->options)
        config.values[o.name] = o.defaultValue;
    for (std::size_t i = 1; i < args.size(); i += 2) {
        const std::string &flag = args[i];
        if (flag.rfind("--", 0) != 0) {
            error = "unexpected '" + flag + "': options are --NAME VALUE";
            return false;
        }
        if (i + 1 >= args.size()) {
            error = flag + " needs a value";
            return false;
        }
        const std::string name = flag.substr(2), &value = args[i + 1];
        if (name == "out") {
            config.out = value;
            continue;
        }
        const OptionSpec *spec = nullptr;
        for (const OptionSpec &o : config.workload->options)
            if (o.name == name)
                spec = &o;
        if (!spec) {
            error = config.workload->name + " has no option " + flag + " (see --list)";
            return false;
        }
        if (const std::string problem = check(*spec, value); !problem.empty()) {
            error = problem;
            return false;
        }
        config.values[name] = value;
    }
    if (config.out.empty()) {
        error = "run needs --out DIR, the folder the run folders are written into";
        return false;
    }
    // attention launches a grid with batch x heads blocks along z, which GPUs cap at 65535
    if (config.workload->name == "attention" && config.integer("batch") * config.integer("heads") > 65535) {
        error = "attention: --batch x --heads is at most 65535 (a GPU grid's z dimension)";
        return false;
    }
    return true;
}

std::string listText()
{
    std::ostringstream out;
    for (const WorkloadSpec &w : workloads()) {
        out << w.name << "\n  " << w.description << "\n  writes " << w.variantA << "/ (A) and " << w.variantB
            << "/ (B)\n";
        for (const OptionSpec &o : w.options) {
            std::string choices;
            for (const std::string &c : o.choices)
                choices += (choices.empty() ? " (" : "|") + c;
            if (!choices.empty())
                choices += ")";
            out << "    --" << o.name << " " << o.defaultValue << "  " << o.help << choices << "\n";
        }
    }
    return out.str();
}

std::string listJson()
{
    nlohmann::json list = nlohmann::json::array();
    for (const WorkloadSpec &w : workloads()) {
        nlohmann::json options = nlohmann::json::array();
        for (const OptionSpec &o : w.options) {
            nlohmann::json option = {{"name", o.name}, {"default", o.defaultValue}, {"help", o.help}};
            if (!o.choices.empty()) {
                option["choices"] = o.choices;
            } else { // a whole number, or a list of them, in this range
                option["minimum"] = o.minimum;
                option["maximum"] = o.maximum;
                if (o.type == Type::IntList)
                    option["list"] = true;
            }
            options.push_back(option);
        }
        list.push_back({{"name", w.name},
                        {"description", w.description},
                        {"variants", {w.variantA, w.variantB}},
                        {"options", options}});
    }
    return list.dump(2) + "\n";
}

} // namespace hipbench
