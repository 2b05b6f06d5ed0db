// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which kernels are communication, one list for every figure that tells communication from compute:
// NCCL and RCCL kernels in any case (ncclKernel_*, ncclDevKernel_*, rccl*), vLLM's custom all-reduce
// (cross_device_reduce*), kernels whose args name a collective, and XLA's collective ops by hlo_op.
// DESIGN.md section 8.

#include <string>
#include <string_view>

namespace scopeline {

// Whether a kernel is communication, by its name, its op (a JAX kernel's hlo_op) and its
// `Collective name` arg (empty when it has none).
bool isCommunicationKernel(std::string_view name, std::string_view op = {},
                           std::string_view collectiveArg = {});

// The collective a communication kernel performs, for grouping: the `Collective name` arg when there
// is one ("allreduce"), else from an NCCL name ("AllReduce" of ncclKernel_AllReduce_RING_LL_Sum_float),
// an XLA op ("all-reduce" of all-reduce-start.3) or vLLM's ("cross_device_reduce"); empty when the
// kernel is not communication.
std::string collectiveKind(std::string_view name, std::string_view op = {},
                           std::string_view collectiveArg = {});

} // namespace scopeline
