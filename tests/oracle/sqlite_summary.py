#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent test oracle for `scopeline-cli info --json` on SQLite traces.

Reads an Nsight Systems SQLite export (`nsys export --type sqlite`), a rocprofv3 rocpd database
(`<pid>_results.db`) or a folder of rocpd databases (the per-process files of one run, read as one run)
with Python's sqlite3 module and prints the same launch/kernel figures as trace_summary.py.
Written from the public schemas, not from the C++ reader.

Definitions: kernels are the rows of CUPTI_ACTIVITY_KIND_KERNEL / rocpd_kernel_dispatch (memory copies
and sets are not kernels); launches are runtime/driver API calls (CUPTI_ACTIVITY_KIND_RUNTIME names,
rocpd_region names) whose name is a kernel-launch API; graph launches those starting with
cudaGraphLaunch/cuGraphLaunch/hipGraphLaunch. Launch and kernel join by correlation id, per database.
launch delay = kernel start - earliest launch start of its correlation id; graph launch delay = earliest
kernel start of the graph launch's correlation id - graph launch start. busy = union of kernel intervals,
span = first kernel start to last kernel end, idle = span - busy.

Usage: /usr/bin/python3 sqlite_summary.py FILE_OR_FOLDER
"""
import glob
import json
import os
import sqlite3
import sys

_LAUNCH_BASE = ["cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchCooperativeKernel",
                "cudaLaunchCooperativeKernelMultiDevice", "cuLaunchKernel", "cuLaunchKernelEx",
                "cuLaunchCooperativeKernel", "hipLaunchKernel", "hipLaunchKernelExC", "hipExtLaunchKernel",
                "hipExtModuleLaunchKernel", "hipModuleLaunchKernel", "hipHccModuleLaunchKernel",
                "hipLaunchCooperativeKernel", "hipModuleLaunchCooperativeKernel"]
LAUNCH_APIS = {b + s for b in _LAUNCH_BASE for s in ("", "_ptsz", "_spt")}
GRAPH_PREFIXES = ("cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch")


def median(xs):
    if not xs:
        return None
    xs = sorted(xs)
    n = len(xs)
    m = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
    return int(m) if m == int(m) else m


def busy_span(intervals):
    busy, cur_s, cur_e = 0, None, None
    for s, e in sorted(intervals):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                busy += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    if cur_e is not None:
        busy += cur_e - cur_s
    span = max(e for _, e in intervals) - min(s for s, _ in intervals) if intervals else 0
    return busy, span


def connect(path):
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def tables(db):
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}


def read_rocpd(db, key):
    """(kernels, cpu calls): kernels as (start, end, corr), calls as (start, name, corr)."""
    kernels = [(s, e, (key, c)) for s, e, c in db.execute(
        "SELECT k.start, k.end, ev.correlation_id FROM rocpd_kernel_dispatch k "
        "LEFT JOIN rocpd_event ev ON ev.id = k.event_id")]
    calls = [(s, n, (key, c)) for s, n, c in db.execute(
        "SELECT r.start, s.string, ev.correlation_id FROM rocpd_region r "
        "JOIN rocpd_string s ON s.id = r.name_id LEFT JOIN rocpd_event ev ON ev.id = r.event_id")]
    return kernels, calls


def read_nsys(db, key):
    names = dict(db.execute("SELECT id, value FROM StringIds"))
    kernels = [(s, e, (key, c)) for s, e, c in db.execute(
        "SELECT start, end, correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL")]
    calls = []
    if "CUPTI_ACTIVITY_KIND_RUNTIME" in tables(db):
        calls = [(s, names.get(n, ""), (key, c)) for s, n, c in db.execute(
            "SELECT start, nameId, correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME")]
    return kernels, calls


def summarize(paths):
    kernels, calls, fmt = [], [], None
    for i, path in enumerate(paths):
        db = connect(path)
        t = tables(db)
        if "rocpd_kernel_dispatch" in t:
            k, c = read_rocpd(db, i)
            fmt = "rocpd"
        elif "CUPTI_ACTIVITY_KIND_KERNEL" in t and "StringIds" in t:
            k, c = read_nsys(db, i)
            fmt = "nsys"
        else:
            raise ValueError(f"{path}: neither rocpd nor an nsys export")
        db.close()
        kernels += k
        calls += c
    launches = [c for c in calls if c[1] in LAUNCH_APIS]
    graph = [c for c in calls if c[1].startswith(GRAPH_PREFIXES)]
    first_launch, first_kernel = {}, {}
    for s, _, corr in launches:
        if corr[1] is not None:
            first_launch[corr] = min(s, first_launch.get(corr, s))
    for s, _, corr in kernels:
        if corr[1] is not None:
            first_kernel[corr] = min(s, first_kernel.get(corr, s))
    delays = [s - first_launch[corr] for s, _, corr in kernels if corr in first_launch]
    graph_delays = [first_kernel[corr] - s for s, _, corr in graph if corr in first_kernel]
    busy, span = busy_span([(s, e) for s, e, _ in kernels])
    return dict(format=fmt, kernels=len(kernels), kernel_launches=len(launches), graph_launches=len(graph),
                gpu_busy_ns=busy, gpu_span_ns=span, gpu_idle_ns=span - busy,
                median_launch_delay_ns=median(delays), median_graph_launch_delay_ns=median(graph_delays))


def main(argv):
    if len(argv) != 2:
        print("usage: sqlite_summary.py FILE_OR_FOLDER", file=sys.stderr)
        return 2
    path = argv[1]
    paths = sorted(glob.glob(os.path.join(path, "*_results.db"))) if os.path.isdir(path) else [path]
    try:
        out = summarize(paths)
    except (sqlite3.Error, ValueError) as exc:
        print(f"sqlite_summary.py: {path}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
