#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent test oracle for `scopeline-cli info --json` on SQLite traces.

Reads an Nsight Systems SQLite export (`nsys export --type sqlite`), a rocprofv3 rocpd database
(`<pid>_results.db`) or a folder of rocpd databases (the per-process files of one run, read as one run)
with Python's sqlite3 module and prints the same launch/kernel figures as trace_summary.py.
Written from the public schemas and the profilers' own sources, not from the C++ reader.

Definitions: kernels are the rows of CUPTI_ACTIVITY_KIND_KERNEL / rocpd_kernel_dispatch (memory copies
and sets are not kernels), and of CUPTI_ACTIVITY_KIND_GRAPH_TRACE: nsys's default
--cuda-graph-trace=graph records each graph launch as one range from its first node's start to its last
one's end (CUpti_ActivityGraphTrace2), its nodes not at all, so the range is the GPU work there is; launches are runtime/driver API calls whose name is a kernel-launch API;
graph launches those starting with cudaGraphLaunch/cuGraphLaunch/hipGraphLaunch. launch delay = kernel
start - earliest launch start of its key; graph launch delay = earliest kernel start of the graph
launch's key - graph launch start. busy = union of kernel intervals, span = first kernel start to last
kernel end, idle = span - busy. Memory copies and sets: their count and time, and the time of each
stream's idle gaps (between its kernels) that they fill.

Nsight Systems (any version from 2022 on):
- API names carry a version suffix, `cudaLaunchKernel_v7000`, `cudaGetDeviceProperties_v2_v12000`:
  the last `_v<digits>` is cut before a name is compared.
- CUDA correlation ids are unique within one process only: the key is (pid, correlationId), the pid
  taken from bits 24..47 of globalPid (GPU rows) or globalTid (API rows), as nsys serialises them.
- Exports of nsys 2022 hold every API call a second time as a "CUDA backtrace" record (eventClass
  TRACE_PROCESS_EVENT_CUDABACKTRACE, 67, the row that carries the callchainId), starting before and
  ending after the call itself: those rows are not calls.

rocpd (ROCm 7): rocprofiler-sdk's writer (source/lib/output/generateRocpd.cpp) stores the internal
correlation id, the one shared by a HIP call and the dispatches and copies it caused, in
rocpd_event.stack_id; correlation_id holds the external id (0 unless --kernel-rename). ROCm's own
exporters pair on stack_id within one process (rocpd perfetto.cpp: Flow::Global(stack_id ^ uuid_pid);
csv.cpp writes stack_id as Correlation_Id), so the key is (database, stack_id). API calls of zero
length are in rocpd_sample, named after their track (the category) as rocpd's `samples` view does.

Usage: /usr/bin/python3 sqlite_summary.py FILE_OR_FOLDER
"""
import glob
import json
import os
import re
import sqlite3
import sys

_LAUNCH_BASE = ["cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchCooperativeKernel",
                "cudaLaunchCooperativeKernelMultiDevice", "cuLaunchKernel", "cuLaunchKernelEx",
                "cuLaunchCooperativeKernel", "hipLaunchKernel", "hipLaunchKernelExC", "hipExtLaunchKernel",
                "hipExtModuleLaunchKernel", "hipModuleLaunchKernel", "hipHccModuleLaunchKernel",
                "hipLaunchCooperativeKernel", "hipModuleLaunchCooperativeKernel",
                "hipDrvLaunchKernelEx", "hipLaunchByPtr", "hipLaunchCooperativeKernelMultiDevice",
                "hipModuleLaunchCooperativeKernelMultiDevice", "hipExtLaunchMultiKernelMultiDevice"]
LAUNCH_APIS = {b + s for b in _LAUNCH_BASE for s in ("", "_ptsz", "_spt")}
GRAPH_PREFIXES = ("cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch")
VERSION_SUFFIX = re.compile(r"_v[0-9]+$")
NSYS_BACKTRACE_CLASS = "TRACE_PROCESS_EVENT_CUDABACKTRACE"
NSYS_BACKTRACE_CLASS_ID = 67  # its id in every ENUM_NSYS_EVENT_CLASS seen; 2022 exports lack the table


def base_name(name):
    return VERSION_SUFFIX.sub("", name or "")


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


def columns(db, table):
    return {r[1] for r in db.execute(f'PRAGMA table_info("{table}")')}


def read_rocpd(db, key):
    """(kernels, cpu calls): kernels as (start, end, key), calls as (start, name, key)."""
    t = tables(db)
    kernels = [(s, e, (key, c)) for s, e, c in db.execute(
        "SELECT k.start, k.end, ev.stack_id FROM rocpd_kernel_dispatch k "
        "LEFT JOIN rocpd_event ev ON ev.id = k.event_id")]
    calls = []
    if "rocpd_region" in t:
        calls += [(s, n, (key, c)) for s, n, c in db.execute(
            "SELECT r.start, s.string, ev.stack_id FROM rocpd_region r "
            "JOIN rocpd_string s ON s.id = r.name_id LEFT JOIN rocpd_event ev ON ev.id = r.event_id")]
    if "rocpd_sample" in t and "rocpd_track" in t:
        calls += [(s, n or "", (key, c)) for s, n, c in db.execute(
            "SELECT p.timestamp, s.string, ev.stack_id FROM rocpd_sample p "
            "LEFT JOIN rocpd_track tr ON tr.id = p.track_id LEFT JOIN rocpd_string s ON s.id = tr.name_id "
            "LEFT JOIN rocpd_event ev ON ev.id = p.event_id")]
    return kernels, calls


def nsys_backtrace_classes(db):
    if "ENUM_NSYS_EVENT_CLASS" in tables(db):
        return {i for i, name in db.execute("SELECT id, name FROM ENUM_NSYS_EVENT_CLASS")
                if name == NSYS_BACKTRACE_CLASS}
    return {NSYS_BACKTRACE_CLASS_ID}


def nsys_pid(global_id):
    return None if global_id is None else (global_id >> 24) & 0xFFFFFF


def read_nsys(db, key):
    names = dict(db.execute("SELECT id, value FROM StringIds"))
    kernels = [(s, e, (key, nsys_pid(p), c)) for table in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE")
               if table in tables(db)
               for s, e, p, c in db.execute(f"SELECT start, end, globalPid, correlationId FROM {table}")]
    calls = []
    if "CUPTI_ACTIVITY_KIND_RUNTIME" in tables(db):
        backtraces = nsys_backtrace_classes(db)
        has_class = "eventClass" in columns(db, "CUPTI_ACTIVITY_KIND_RUNTIME")
        rows = db.execute("SELECT start, nameId, globalTid, correlationId, %s FROM CUPTI_ACTIVITY_KIND_RUNTIME"
                          % ("eventClass" if has_class else "NULL"))
        calls = [(s, base_name(names.get(n, "")), (key, nsys_pid(t), c)) for s, n, t, c, cls in rows
                 if cls not in backtraces]
    return kernels, calls


def memory_ops(db, fmt, key):
    """(kernels by stream, copies and sets): kernels as (stream, start, end), the others as
    (stream, start, end, "copy" | "set"). rocpd gives a copy a stream and no queue, a dispatch a queue:
    they share no stream."""
    t = tables(db)
    if fmt == "nsys":
        kernels = [((key, nsys_pid(p), d, st), s, e)
                   for table in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE") if table in t
                   for s, e, p, d, st in db.execute(
                       f"SELECT start, end, globalPid, deviceId, streamId FROM {table}")]
        ops = [((key, nsys_pid(p), d, st), s, e, what)
               for table, what in (("CUPTI_ACTIVITY_KIND_MEMCPY", "copy"), ("CUPTI_ACTIVITY_KIND_MEMSET", "set"))
               if table in t
               for s, e, p, d, st in db.execute(f"SELECT start, end, globalPid, deviceId, streamId FROM {table}")]
    else:
        kernels = [((key, "queue", q), s, e)
                   for s, e, q in db.execute("SELECT start, end, queue_id FROM rocpd_kernel_dispatch")]
        ops = [((key, "stream", st), s, e, "copy") for s, e, st in db.execute(
            "SELECT start, end, stream_id FROM rocpd_memory_copy")] if "rocpd_memory_copy" in t else []
    return kernels, ops


def gap_memory_ns(kernels, ops):
    """The time of each stream's gaps between its kernels (start past the latest end so far) that
    the union of its copies and sets covers, summed over streams."""
    total = 0
    for stream in {k[0] for k in kernels}:
        gaps, reach = [], None
        for s, e in sorted((s, e) for k, s, e in kernels if k == stream):
            if reach is not None and s > reach:
                gaps.append((reach, s))
            reach = e if reach is None else max(reach, e)
        union = []
        for s, e in sorted((s, e) for k, s, e, _ in ops if k == stream):
            if union and s <= union[-1][1]:
                union[-1][1] = max(union[-1][1], e)
            else:
                union.append([s, e])
        total += sum(max(0, min(e, ge) - max(s, gs)) for s, e in union for gs, ge in gaps)
    return total


def summarize(paths):
    kernels, calls, fmt = [], [], None
    stream_kernels, ops = [], []
    for i, path in enumerate(paths):
        db = connect(path)
        t = tables(db)
        if "rocpd_kernel_dispatch" in t:
            k, c = read_rocpd(db, i)
            fmt = "rocpd"
        elif t & {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"} and "StringIds" in t:
            k, c = read_nsys(db, i)
            fmt = "nsys"
        else:
            raise ValueError(f"{path}: neither rocpd nor an nsys export with kernels")
        sk, o = memory_ops(db, fmt, i)
        stream_kernels += sk
        ops += o
        db.close()
        kernels += k
        calls += c
    launches = [c for c in calls if c[1] in LAUNCH_APIS]
    graph = [c for c in calls if c[1].startswith(GRAPH_PREFIXES)]
    first_launch, first_kernel = {}, {}
    for s, _, k in launches:
        if k[-1] is not None:
            first_launch[k] = min(s, first_launch.get(k, s))
    for s, _, k in kernels:
        if k[-1] is not None:
            first_kernel[k] = min(s, first_kernel.get(k, s))
    delays = [s - first_launch[k] for s, _, k in kernels if k in first_launch]
    graph_delays = [first_kernel[k] - s for s, _, k in graph if k in first_kernel]
    busy, span = busy_span([(s, e) for s, e, _ in kernels])
    return dict(format=fmt, kernels=len(kernels), kernel_launches=len(launches), graph_launches=len(graph),
                gpu_busy_ns=busy, gpu_span_ns=span, gpu_idle_ns=span - busy,
                median_launch_delay_ns=median(delays), median_graph_launch_delay_ns=median(graph_delays),
                launches_paired=len(delays),
                memory=dict(copies=sum(o[3] == "copy" for o in ops),
                            copy_ns=sum(o[2] - o[1] for o in ops if o[3] == "copy"),
                            sets=sum(o[3] == "set" for o in ops),
                            set_ns=sum(o[2] - o[1] for o in ops if o[3] == "set")),
                gap_memory_ns=gap_memory_ns(stream_kernels, ops))


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
