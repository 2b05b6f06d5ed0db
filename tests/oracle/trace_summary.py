#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent test oracle for `scopeline-cli info --json`.

Reads one trace file (Chrome/Kineto/JAX trace JSON, gzip or plain, or rocprofv3's own JSON)
and prints a JSON object of launch/kernel figures. Standard library only; deliberately written
without looking at the C++ loader, from the definitions in the test brief.

Usage: /usr/bin/python3 trace_summary.py TRACE_FILE
"""
import bisect
import decimal
import gzip
import json
import re
import subprocess
import sys
import zlib
from decimal import Decimal, ROUND_HALF_UP

decimal.getcontext().prec = 80  # epoch µs with many decimals must survive ×1000 exactly

KERNEL_CATS = {"kernel", "Kernel"}
GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation", "Kernel", "Memcpy", "Memset"}
_LAUNCH_BASE = ["cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchCooperativeKernel",
                "cudaLaunchCooperativeKernelMultiDevice", "cuLaunchKernel", "cuLaunchKernelEx",
                "cuLaunchCooperativeKernel", "hipLaunchKernel", "hipLaunchKernelExC", "hipExtLaunchKernel",
                "hipExtModuleLaunchKernel", "hipModuleLaunchKernel", "hipHccModuleLaunchKernel",
                "hipLaunchCooperativeKernel", "hipModuleLaunchCooperativeKernel",
                "hipDrvLaunchKernelEx", "hipLaunchByPtr", "hipLaunchCooperativeKernelMultiDevice",
                "hipModuleLaunchCooperativeKernelMultiDevice", "hipExtLaunchMultiKernelMultiDevice"]
LAUNCH_APIS = {b + s for b in _LAUNCH_BASE for s in ("", "_ptsz", "_spt")}
GRAPH_PREFIXES = ("cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch")
GPU_PROCESS_RE = re.compile(r"GPU\s*\d+", re.ASCII)  # used with fullmatch (no trailing "\n" allowed)
INT_RE = re.compile(r"[+-]?\d+", re.ASCII)


def to_ns(v):
    """µs (Decimal from json, or string) -> int ns, rounded half away from zero; None if unusable."""
    if isinstance(v, str):
        try:
            v = Decimal(v.strip())
        except decimal.InvalidOperation:
            return None
    if isinstance(v, bool) or not isinstance(v, Decimal) or not v.is_finite():
        return None
    return int((v * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def norm_id(v):
    """pid/tid/flow id: "6", " 6 " and 6 are the same; other strings are kept stripped."""
    if isinstance(v, str):
        s = v.strip()
        return int(s) if INT_RE.fullmatch(s) else s
    if isinstance(v, Decimal) and v == v.to_integral_value():
        return int(v)
    return v


def as_int(v):
    """Correlation value: an int, or a string holding an int; else None."""
    if isinstance(v, Decimal) and v.is_finite() and v == v.to_integral_value():
        return int(v)
    if isinstance(v, str) and INT_RE.fullmatch(v.strip()):
        return int(v.strip())
    return None


def median(xs):
    """numpy.median: mean of the two middle values for an even count."""
    if not xs:
        return None
    xs = sorted(xs)
    n = len(xs)
    m = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
    return int(m) if m == int(m) else m


def busy_span(intervals):
    """(union length, last end - first start) of [start, end] intervals."""
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


def summarize_rocprofv3(doc):
    # rocprofv3's own JSON: kernels are buffer_records.kernel_dispatch (integer ns already); HIP API
    # calls (hip_api) are named by strings.buffer_records[kind].operations[operation] and pair with
    # dispatches on correlation_id.internal.
    iv, launches, graph, first_kernel = [], [], [], {}
    for tool in doc["rocprofiler-sdk-tool"]:
        names = tool.get("strings", {}).get("buffer_records", [])
        for r in tool["buffer_records"]["kernel_dispatch"]:
            iv.append((int(r["start_timestamp"]), int(r["end_timestamp"])))
            corr = int(r["correlation_id"]["internal"])
            first_kernel[corr] = min(iv[-1][0], first_kernel.get(corr, iv[-1][0]))
        for r in tool["buffer_records"].get("hip_api", []):
            kind, op = int(r["kind"]), int(r["operation"])
            name = names[kind]["operations"][op] if kind < len(names) and op < len(names[kind]["operations"]) else ""
            call = (int(r["start_timestamp"]), int(r["correlation_id"]["internal"]))
            if name in LAUNCH_APIS:
                launches.append(call)
            elif name.startswith(GRAPH_PREFIXES):
                graph.append(call)
    busy, span = busy_span(iv)
    first_launch = {}
    for start, corr in launches:
        first_launch[corr] = min(start, first_launch.get(corr, start))
    delays = []
    for tool in doc["rocprofiler-sdk-tool"]:
        for r in tool["buffer_records"]["kernel_dispatch"]:
            corr = int(r["correlation_id"]["internal"])
            if corr in first_launch:
                delays.append(int(r["start_timestamp"]) - first_launch[corr])
    graph_delays = [first_kernel[c] - s for s, c in graph if c in first_kernel]
    return dict(format="rocprofv3", kernels=len(iv), kernel_launches=len(launches), graph_launches=len(graph),
                gpu_busy_ns=busy, gpu_span_ns=span, gpu_idle_ns=span - busy,
                median_launch_delay_ns=median(delays), median_graph_launch_delay_ns=median(graph_delays))


def track_of(e):
    """An event's (pid, tid), normalised."""
    return (norm_id(e.get("pid")), norm_id(e.get("tid", 0)))


def gpu_tracks(events):
    """(is_gpu(track), process names): a track is a GPU track when it holds GPU-category events or its
    process is named like a GPU ("/device:GPU:0", "GPU 0")."""
    pnames, gpu = {}, set()
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_name" and isinstance(e.get("args"), dict):
            pnames[norm_id(e.get("pid"))] = e["args"].get("name")
        if e.get("cat") in GPU_CATS:
            gpu.add(track_of(e))

    def is_gpu(t):
        pn = pnames.get(t[0])
        return t in gpu or (isinstance(pn, str) and (pn.startswith("/device:GPU") or bool(GPU_PROCESS_RE.fullmatch(pn))))
    return is_gpu, pnames


MAX_SYMBOL = 4096  # longer symbols keep their mangled name
MAX_NAME = 64 * 1024  # and so do symbols that stand for longer names


def read_symbols(gpu_slices):
    """Names the GPU slices that a trace names by a mangled C++ symbol ("_Z...", up to MAX_SYMBOL
    bytes) as binutils' `c++filt --no-verbose --no-recurse-limit` reads the symbol (unchanged where it
    cannot, or where it reads more than MAX_NAME characters)."""
    symbols = sorted({s["name"] for s in gpu_slices if isinstance(s["name"], str)
                      and s["name"].startswith("_Z") and len(s["name"]) <= MAX_SYMBOL})
    if not symbols:
        return
    read = subprocess.run(["c++filt", "--no-verbose", "--no-recurse-limit"], input="\n".join(symbols) + "\n", text=True,
                          capture_output=True, check=True).stdout.splitlines()
    assert len(read) == len(symbols), "c++filt gave a line per name"
    readable = {symbol: name for symbol, name in zip(symbols, read) if len(name) <= MAX_NAME}
    for s in gpu_slices:
        if isinstance(s["name"], str):
            s["name"] = readable.get(s["name"], s["name"])


def chrome_events(doc):
    """(kernels, launches, graph launches, process names) of a Chrome/Kineto/JAX trace: slices as dicts
    with track/start/dur/name/cat/args/corr, in file order."""
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    events = [e for e in events if isinstance(e, dict) and e]
    track = track_of
    is_gpu, pnames = gpu_tracks(events)

    # Slices: dicts with track/start/dur/name/cat/args. B/E matched per track in file order.
    slices, open_b = [], {}
    for e in events:
        ph, t = e.get("ph"), track(e)
        if ph == "X" or ph == "B":
            start = to_ns(e.get("ts"))
            if start is None:
                continue
            s = dict(track=t, start=start, dur=to_ns(e.get("dur")) or 0, name=e.get("name"), cat=e.get("cat"),
                     args=e.get("args") if isinstance(e.get("args"), dict) else {})
            if ph == "X":
                slices.append(s)
            else:
                open_b.setdefault(t, []).append(s)
        elif ph == "E" and open_b.get(t):
            s, end = open_b[t].pop(), to_ns(e.get("ts"))
            if end is not None:
                s["dur"] = end - s["start"]
                slices.append(s)

    for s in slices:
        a = s["args"]
        s["corr"] = as_int(a.get("correlation"))
        if s["corr"] is None:
            s["corr"] = as_int(a.get("correlation_id"))
        s["gpu"] = is_gpu(s["track"])

    if all(s["corr"] is None for s in slices):
        derive_correlation_from_flows(events, slices, track)

    def is_kernel(s):
        cat, name, args = s["cat"], s["name"], s["args"]
        if cat in KERNEL_CATS:
            return True
        if isinstance(cat, str) and cat != "":
            return False
        if "desc" in args:
            return args["desc"] == "KernelExecution"
        return not (isinstance(name, str) and name.lower().startswith(("memcpy", "memset")))

    read_symbols([s for s in slices if s["gpu"]])
    kernels = [s for s in slices if s["gpu"] and is_kernel(s)]
    kernel_corrs = {k["corr"] for k in kernels if k["corr"] is not None}
    cpu = [s for s in slices if not s["gpu"]]
    for s in cpu:
        s["name"] = s["name"] if isinstance(s["name"], str) else ""
    graph = [s for s in cpu if s["name"].startswith(GRAPH_PREFIXES)]
    graph_ids = {id(s) for s in graph}
    # JAX names host launch events after the kernel: accept those via correlation_id to a kernel.
    # (Flow-derived ids do not count here: they are not args.correlation_id.)
    launches = [s for s in cpu if s["name"] in LAUNCH_APIS
                or (id(s) not in graph_ids and "correlation_id" in s["args"] and s["corr"] is not None
                    and s["corr"] in kernel_corrs)]
    return kernels, launches, graph, pnames


def summarize_chrome(doc):
    kernels, launches, graph, pnames = chrome_events(doc)

    first_launch = {}  # correlation id -> earliest launch start
    for s in launches:
        if s["corr"] is not None:
            first_launch[s["corr"]] = min(s["start"], first_launch.get(s["corr"], s["start"]))
    first_kernel = {}  # correlation id -> earliest kernel start
    for k in kernels:
        if k["corr"] is not None:
            first_kernel[k["corr"]] = min(k["start"], first_kernel.get(k["corr"], k["start"]))
    delays = [k["start"] - first_launch[k["corr"]] for k in kernels if k["corr"] in first_launch]
    graph_delays = [first_kernel[g["corr"]] - g["start"] for g in graph if g["corr"] in first_kernel]

    busy, span = busy_span([(k["start"], k["start"] + k["dur"]) for k in kernels])
    gap_causes = count_gap_causes(kernels, launches + graph)
    names = [p for p in pnames.values() if isinstance(p, str)]
    if any(p.startswith(("/device:", "/host:")) for p in names):
        fmt = "jax"
    elif isinstance(doc, dict) and ("schemaVersion" in doc or "deviceProperties" in doc):
        fmt = "kineto"
    else:
        fmt = "chrome"
    return dict(format=fmt, kernels=len(kernels), kernel_launches=len(launches), graph_launches=len(graph),
                gpu_busy_ns=busy, gpu_span_ns=span, gpu_idle_ns=span - busy,
                median_launch_delay_ns=median(delays), median_graph_launch_delay_ns=median(graph_delays),
                gap_causes=gap_causes)


def launch_origin(doc, launches, graph):
    """Which process launched a PyTorch (Kineto) trace's kernels: ("pid <n>" of its first launch call,
    (smallest, largest) correlation id of its launch calls, or None); ("", None) for other traces."""
    kineto = isinstance(doc, dict) and ("schemaVersion" in doc or "deviceProperties" in doc)
    calls = launches or graph
    if not kineto or not calls:
        return "", None
    ids = [c["corr"] for c in launches + graph if c["corr"] is not None]
    return "pid " + str(calls[0]["track"][0]), (min(ids), max(ids)) if ids else None


def one_sequence_of_launches(ids):
    """Runs under one pid are one process (A and B interleaved in it) only when each run's launch ids
    are known and no two runs' ranges overlap: a process numbers its calls in one sequence, and a new
    process under a reused pid starts again from the same ids."""
    if any(r is None for r in ids):
        return False
    ordered = sorted(ids)
    return all(b[0] > a[1] for a, b in zip(ordered, ordered[1:]))


def count_gap_causes(kernels, launch_calls):
    """Idle gaps over all GPU streams, by cause. On a stream (kernels by start), a gap is where a kernel
    starts after the latest end so far. Its cause comes from the earliest launch call (regular or graph)
    sharing the kernel's correlation id: issued at or after the gap began, the CPU launched late;
    before it, the GPU was waiting; no such call, unknown."""
    launch_start = {}
    for s in launch_calls:
        if s["corr"] is not None:
            launch_start[s["corr"]] = min(s["start"], launch_start.get(s["corr"], s["start"]))
    streams = {}
    for k in kernels:
        streams.setdefault(k["track"], []).append(k)
    causes = {}
    for stream in streams.values():
        stream.sort(key=lambda k: k["start"])  # stable: file order on a tie
        reach = None
        for k in stream:
            end = k["start"] + k["dur"]
            if reach is not None and k["start"] > reach:
                launch = launch_start.get(k["corr"]) if k["corr"] is not None else None
                cause = ("unknown" if launch is None
                         else "CPU launched late" if launch >= reach else "GPU waiting")
                causes[cause] = causes.get(cause, 0) + 1
            reach = end if reach is None else max(reach, end)
    return causes


def derive_correlation_from_flows(events, slices, track):
    """No slice carries a correlation id: pair `s`/`f` flow events by (cat, id) and give both bound
    slices a fresh id. Each end binds to the innermost slice on its track containing ts (latest start,
    then shortest; start <= ts <= start+dur)."""
    by_track = {}
    for s in slices:
        by_track.setdefault(s["track"], []).append(s)
    index = {}
    for t, lst in by_track.items():
        lst.sort(key=lambda s: (s["start"], -s["dur"]))  # within equal starts, shortest comes last
        max_end, m = [], None
        for s in lst:
            m = s["start"] + s["dur"] if m is None else max(m, s["start"] + s["dur"])
            max_end.append(m)
        index[t] = (lst, [s["start"] for s in lst], max_end)

    def bind(e):
        ts = to_ns(e.get("ts"))
        if ts is None or track(e) not in index:
            return None
        lst, starts, max_end = index[track(e)]
        i = bisect.bisect_right(starts, ts) - 1
        while i >= 0 and max_end[i] >= ts:  # max_end: no earlier slice can reach ts once it drops below
            if lst[i]["start"] + lst[i]["dur"] >= ts:
                return lst[i]
            i -= 1
        return None

    # (cat, id) -> {"s": first s event, "f": first f event}. If a slice is bound by several pairs,
    # the pair met last in file order wins (never happens in the sample traces).
    pairs = {}
    for e in events:
        if e.get("ph") in ("s", "f") and "id" in e:
            pairs.setdefault((e.get("cat"), norm_id(e["id"])), {}).setdefault(e["ph"], e)
    fresh = 0
    for ends in pairs.values():
        if "s" in ends and "f" in ends:
            a, b = bind(ends["s"]), bind(ends["f"])
            if a is not None and b is not None:
                fresh += 1
                a["corr"] = b["corr"] = fresh


def read_trace(path):
    """The JSON document of a trace file, gzip or plain, numbers as Decimal."""
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw, parse_float=Decimal, parse_int=Decimal)


def main(argv):
    if len(argv) != 2:
        print("usage: trace_summary.py TRACE_FILE", file=sys.stderr)
        return 2
    path = argv[1]
    try:
        doc = read_trace(path)
    except (OSError, EOFError, ValueError, zlib.error) as exc:
        print(f"trace_summary.py: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    try:
        if isinstance(doc, dict) and "rocprofiler-sdk-tool" in doc:
            out = summarize_rocprofv3(doc)
        elif isinstance(doc, list) or (isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list)):
            out = summarize_chrome(doc)
        else:
            raise ValueError("neither traceEvents, a bare event array nor rocprofiler-sdk-tool")
    except (KeyError, TypeError, ValueError) as exc:
        print(f"trace_summary.py: {path}: not a usable trace: {exc!r}", file=sys.stderr)
        return 2
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
