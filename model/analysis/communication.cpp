// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/communication.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace scopeline {

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

// An XLA op's collective: "all-reduce-start.3" -> "all-reduce"; empty when it is none.
std::string xlaCollective(std::string_view op)
{
    static constexpr std::array<std::string_view, 5> kOps = {"all-reduce", "all-gather", "reduce-scatter",
                                                             "all-to-all", "collective-permute"};
    const std::string name = lower(op.substr(0, op.find(' '))); // "all-reduce.1 node 3": the op
    for (std::string_view collective : kOps) {
        if (!startsWith(name, collective))
            continue;
        std::string_view rest = std::string_view(name).substr(collective.size());
        for (std::string_view phase : {"-start", "-done"})
            if (startsWith(rest, phase))
                rest.remove_prefix(phase.size());
        // what may follow: nothing, or XLA's ".N" numbering
        if (rest.empty() ||
            (rest[0] == '.' && rest.size() > 1 &&
             std::all_of(rest.begin() + 1, rest.end(), [](char c) { return std::isdigit(c); })))
            return std::string(collective);
    }
    return {};
}

// An NCCL/RCCL kernel's collective: "ncclDevKernel_AllGather_RING_LL(…)" -> "AllGather".
std::string ncclCollective(std::string_view name)
{
    const std::string low = lower(name);
    for (std::string_view prefix : {"nccldevkernel_", "ncclkernel_", "rccl_kernel_", "rcclkernel_"})
        if (startsWith(low, prefix)) {
            const std::string_view rest = name.substr(prefix.size());
            return std::string(rest.substr(0, std::min(rest.find('_'), rest.find('('))));
        }
    return {};
}

// One collective, one name: PyTorch's "Collective name" arg (allreduce, reduce_scatter) and a
// lower-cased kernel name as NCCL's kernels spell it (AllReduce, ReduceScatter), so that traces with and
// without the arg share a row; other names (allreduce_coalesced, _allgather_base, send) as they are.
std::string canonicalCollective(std::string name)
{
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kNccl = {
        {{"allreduce", "AllReduce"},
         {"allgather", "AllGather"},
         {"reducescatter", "ReduceScatter"},
         {"broadcast", "Broadcast"},
         {"reduce", "Reduce"},
         {"sendrecv", "SendRecv"},
         {"alltoall", "AllToAll"}}};
    std::string key = lower(name);
    key.erase(std::remove(key.begin(), key.end(), '_'), key.end());
    for (const auto &[spelled, nccl] : kNccl)
        if (key == spelled)
            return std::string(nccl);
    return name;
}

bool namedAsCommunication(std::string_view name)
{
    const std::string low = lower(name);
    return low.find("nccl") != std::string::npos || low.find("rccl") != std::string::npos ||
           low.find("cross_device_reduce") != std::string::npos;
}

} // namespace

bool isCommunicationKernel(std::string_view name, std::string_view op, std::string_view collectiveArg)
{
    return !collectiveArg.empty() || namedAsCommunication(name) || !xlaCollective(op).empty();
}

std::string collectiveKind(std::string_view name, std::string_view op, std::string_view collectiveArg)
{
    if (!collectiveArg.empty())
        return canonicalCollective(std::string(collectiveArg));
    if (std::string xla = xlaCollective(op); !xla.empty())
        return xla;
    if (lower(name).find("cross_device_reduce") != std::string::npos)
        return "cross_device_reduce";
    if (std::string nccl = ncclCollective(name); !nccl.empty() && nccl != "Generic")
        return canonicalCollective(std::move(nccl));
    return namedAsCommunication(name) ? std::string(name.substr(0, name.find('('))) : std::string();
}

} // namespace scopeline
