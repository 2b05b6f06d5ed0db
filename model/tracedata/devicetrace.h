// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One GPU of a trace that holds several (a JAX process driving its local GPUs, one report of several
// processes): the device's own events, so that each GPU can be read as a rank of one run.

#include "model/tracedata/tracedata.h"

#include <vector>

namespace scopeline {

// The GPUs of a trace with events on them, ascending; a GPU process named without events (XProf
// names every visible GPU) is not one of them, nor a GPU track whose device is not known.
std::vector<int> gpuDevices(const TraceData &trace);

// The trace as one GPU of it sees it: that device's GPU tracks, and the CPU tracks of the processes
// that launch onto it, or onto no GPU of the trace (a host that drives every GPU keeps its threads,
// including its launches onto the others: they are what kept it busy).
TraceData traceOfDevice(const TraceData &trace, int device);

} // namespace scopeline
