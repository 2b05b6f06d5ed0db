#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent count, from the raw events, of the figures scopeline-hipbench writes in summary.json.

Usage: /usr/bin/python3 hipbench_check.py WORKLOAD_FOLDER
(a folder the runner wrote: summary.json and the trace files its "runs" name, relative to the folder's
parent as in tests/data/h100_runs/hipbench/, or absolute).

For each run of summary.json prints {"variant", "run", "file", "summary": <its entry>, "raw": {...}},
where raw is counted here from the trace's events (standard library only, not the C++ reader):
  kernels          X events of cat "kernel"
  kernelLaunches   X events of cat "cuda_runtime" named hipLaunchKernel, hipExtLaunchKernel or
                   hipLaunchKernelExC; graphLaunches: named hipGraphLaunch
  busyNs           length of the union of the kernels' [ts, ts + dur)
  spanNs           first kernel start to last kernel end; idleNs = spanNs - busyNs
  idleGaps         per stream (pid, tid) in start order: kernels that start after the latest end before them
  medianLaunchDelayNs       median over kernels launched by a kernel launch of kernel start - launch start
                            (the mean of the middle two for an even count); null when there is none
  medianGraphLaunchDelayNs  the same over graph launches, from each one's earliest kernel
  minLaunchToKernelNs       smallest kernel start - launch start, either kind; null when there is none
Times: ts and dur are exact decimal µs in these files; read as Decimal and turned into integer ns.
"""
import gzip
import json
import os
import sys
from decimal import Decimal

KERNEL_LAUNCHES = {"hipLaunchKernel", "hipExtLaunchKernel", "hipLaunchKernelExC"}
GRAPH_LAUNCHES = {"hipGraphLaunch"}


def ns(value):
    return int(Decimal(str(value)) * 1000)


def median(values):
    if not values:
        return None
    v = sorted(values)
    n = len(v)
    return float(v[n // 2]) if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def count(path):
    with gzip.open(path, "rt") as f:
        doc = json.load(f, parse_float=Decimal)
    kernels, launches = [], {}
    raw = {"kernelLaunches": 0, "graphLaunches": 0}
    for e in doc["traceEvents"]:
        if e.get("ph") != "X":
            continue
        start = ns(e["ts"])
        end = start + ns(e["dur"])
        corr = e.get("args", {}).get("correlation")
        if e.get("cat") == "kernel":
            kernels.append((start, end, (e["pid"], e["tid"]), corr))
        elif e.get("cat") == "cuda_runtime" and e["name"] in KERNEL_LAUNCHES | GRAPH_LAUNCHES:
            graph = e["name"] in GRAPH_LAUNCHES
            raw["graphLaunches" if graph else "kernelLaunches"] += 1
            launches[corr] = (start, graph)
    kernels.sort(key=lambda k: k[0])
    raw["kernels"] = len(kernels)
    busy, covered = 0, None
    for start, end, _, _ in kernels:
        if covered is None or start >= covered:
            busy += end - start
            covered = end
        elif end > covered:
            busy += end - covered
            covered = end
    raw["busyNs"] = busy
    raw["spanNs"] = (max(k[1] for k in kernels) - kernels[0][0]) if kernels else 0
    raw["idleNs"] = raw["spanNs"] - busy
    gaps, stream_end = 0, {}
    for start, end, stream, _ in kernels:
        if stream in stream_end and start > stream_end[stream]:
            gaps += 1
        stream_end[stream] = max(stream_end.get(stream, end), end)
    raw["idleGaps"] = gaps
    delays, graph_first = [], {}
    for start, _, _, corr in kernels:
        if corr not in launches:
            continue
        launch_start, graph = launches[corr]
        if graph:
            graph_first.setdefault(corr, start - launch_start)  # kernels go by start: the earliest
        else:
            delays.append(start - launch_start)
    raw["medianLaunchDelayNs"] = median(delays)
    raw["medianGraphLaunchDelayNs"] = median(list(graph_first.values()))
    every = delays + list(graph_first.values())
    raw["minLaunchToKernelNs"] = min(every) if every else None
    return raw


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "summary.json")) as f:
        summary = json.load(f)
    out = []
    for entry in summary["runs"]:
        path = entry["file"]
        if not os.path.isabs(path):
            path = os.path.join(os.path.dirname(os.path.abspath(folder)), path)
        out.append({"variant": entry["variant"], "run": entry["run"], "file": path, "summary": entry,
                    "raw": count(path)})
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
