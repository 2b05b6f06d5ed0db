#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent test oracle for the launch analysis of Chrome/Kineto/JAX traces, from the raw events
(read by trace_summary.py's parser, which tst_cli checks against `scopeline-cli info`).

  gaps FILE        idle gaps between consecutive kernels of each GPU stream, counted by cause
  pool FILE...     the figures of several runs pooled: sums, and the medians of all launch delays and
                   of all graph launch delays
  gapslices FILE   every gap (stream, start, end, cause) with the CPU slice it is blamed on ("CPU in ...")
  delays FILE      the launch-delay distributions of `scopeline-cli info --json` (launch_delay_ns,
                   graph_launch_delay_ns): n, mean, min, q1, median, q3, max by numpy (quartiles by
                   linear interpolation, numpy's default); null where there is no delay

Definitions (DESIGN.md, "Analysis"): a stream is one (pid, tid) of kernels, in start order (file order
among equal starts). A gap opens where a kernel starts after the latest end of the kernels before it.
Its cause comes from the launch call of the kernel after it (the earliest kernel or graph launch with
its correlation id): launched at or after the gap's start -> "launch_late" (the CPU had not launched
it yet), before -> "gpu_waiting", no launch in the trace -> "unknown".
The CPU slice of a gap with a launch call: on the launch call's thread (pid, tid), the innermost slice
(X, or B/E matched per thread) open at the gap's middle t = start + (end - start) // 2, i.e. among the
slices with begin <= t <= begin + dur the one that starts latest; on equal starts the shorter; on equal
start and length the later one read (an X at its line, a B/E pair at its E). Instants do not count.
None for a gap without a launch call, or when nothing is open on that thread at t.
Launch delay (DESIGN.md): kernel start - the earliest start of a kernel launch call with its
correlation id, one per kernel that has one; graph launch delay: the earliest start of a kernel with the
graph launch's correlation id - the graph launch's start, one per graph launch that has one. rocprofv3's
own JSON has no launch calls: both null.
  compare ALPHA THRESHOLD A_FILE... -- B_FILE...
                   the summary strip's tests (one file a run, runs the unit): for each per-run total
                   (gpu_busy_ns, gpu_idle_ns = span - busy, kernel_launches, graph_launches, kernels),
                   Welch on the runs' values with kernel_diff.py's time_level (the change of the means
                   relative to A's, a 1 ns or one-count resolution), Holm over the five, each interval
                   at its Holm level, the verdict by kernel_diff.py's rule with the threshold a fraction
                   of A's mean GPU span for busy and idle time (their whole), of A's own mean otherwise
Prints JSON. Standard library only, except `delays` (numpy) and `compare` (kernel_diff.py's scipy).
"""
import bisect
import json
import math
import sys

import trace_summary as ts


def gaps(doc):
    kernels, launches, graph, _ = ts.chrome_events(doc)
    first_launch = {}  # correlation id -> earliest launch start, kernel and graph launches alike
    for s in launches + graph:
        if s["corr"] is not None:
            first_launch[s["corr"]] = min(s["start"], first_launch.get(s["corr"], s["start"]))
    streams = {}
    for k in kernels:  # file order, kept by the stable sort below among equal starts
        streams.setdefault(k["track"], []).append(k)
    causes = {c: {"count": 0, "ns": 0} for c in ("launch_late", "gpu_waiting", "unknown")}
    idle_by_stream = []
    for stream in streams.values():
        stream.sort(key=lambda k: k["start"])
        reach = stream[0]["start"] + stream[0]["dur"]
        idle = 0
        for k in stream:
            if k["start"] > reach:
                length = k["start"] - reach
                launch = first_launch.get(k["corr"]) if k["corr"] is not None else None
                cause = "unknown" if launch is None else ("launch_late" if launch >= reach else "gpu_waiting")
                causes[cause]["count"] += 1
                causes[cause]["ns"] += length
                idle += length
            reach = max(reach, k["start"] + k["dur"])
        idle_by_stream.append(idle)
    return dict(streams=len(streams), causes=causes, stream_idle_ns=sorted(idle_by_stream))


def pool(docs):
    out = dict(runs=0, kernels=0, kernel_launches=0, graph_launches=0, gpu_busy_ns=0, gpu_span_ns=0)
    delays, graph_delays = [], []
    for doc in docs:
        kernels, launches, graph, _ = ts.chrome_events(doc)
        first_launch = {}
        for s in launches:
            if s["corr"] is not None:
                first_launch[s["corr"]] = min(s["start"], first_launch.get(s["corr"], s["start"]))
        delays += [k["start"] - first_launch[k["corr"]] for k in kernels if k["corr"] in first_launch]
        first_kernel = {}
        for k in kernels:
            if k["corr"] is not None:
                first_kernel[k["corr"]] = min(k["start"], first_kernel.get(k["corr"], k["start"]))
        graph_delays += [first_kernel[g["corr"]] - g["start"] for g in graph if g["corr"] in first_kernel]
        busy, span = ts.busy_span([(k["start"], k["start"] + k["dur"]) for k in kernels])
        out["runs"] += 1
        out["kernels"] += len(kernels)
        out["kernel_launches"] += len(launches)
        out["graph_launches"] += len(graph)
        out["gpu_busy_ns"] += busy
        out["gpu_span_ns"] += span
    out["median_launch_delay_ns"] = ts.median(delays)
    out["median_graph_launch_delay_ns"] = ts.median(graph_delays)
    return out


def thread_slices(doc):
    """(pid, tid) -> [(begin, dur, name, order)] of every X and matched B/E slice, as read."""
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    out, open_b, order = {}, {}, 0
    for e in events:
        if not isinstance(e, dict):
            continue
        ph, t = e.get("ph"), ts.track_of(e)
        begin = ts.to_ns(e.get("ts"))
        if begin is None or ph not in ("X", "B", "E"):
            continue
        if ph == "X":
            dur = ts.to_ns(e["dur"]) if "dur" in e else 0
            if dur is None or dur < 0:
                continue
            out.setdefault(t, []).append((begin, dur, e.get("name"), order))
        elif ph == "B":
            open_b.setdefault(t, []).append((begin, e.get("name")))
        elif open_b.get(t):
            b_begin, name = open_b[t].pop()
            if begin < b_begin:
                continue
            out.setdefault(t, []).append((b_begin, begin - b_begin, name, order))
        order += 1
    return out


def innermost_at(index, by_thread, thread, t):
    """The slice of thread open at t with the greatest (begin, -dur, order), or None. Slices sorted by
    that key; walking back from the last one beginning at or before t, the first that still reaches t
    is it, and once the running maximum of ends (from the front) drops below t none earlier can."""
    if thread not in index:
        lst = sorted(by_thread.get(thread, []), key=lambda s: (s[0], -s[1], s[3]))
        max_end, m = [], None
        for s in lst:
            m = s[0] + s[1] if m is None else max(m, s[0] + s[1])
            max_end.append(m)
        index[thread] = (lst, [s[0] for s in lst], max_end)
    lst, begins, max_end = index[thread]
    i = bisect.bisect_right(begins, t) - 1
    while i >= 0 and max_end[i] >= t:
        if lst[i][0] + lst[i][1] >= t:
            return lst[i]
        i -= 1
    return None


def gap_slices(doc):
    kernels, launches, graph, _ = ts.chrome_events(doc)
    first_launch = {}  # correlation id -> the earliest launch call (kernel or graph launch)
    for s in launches + graph:
        if s["corr"] is not None and (s["corr"] not in first_launch or s["start"] < first_launch[s["corr"]]["start"]):
            first_launch[s["corr"]] = s
    by_thread, index = thread_slices(doc), {}
    streams = {}
    for k in kernels:
        streams.setdefault(k["track"], []).append(k)
    out = []
    for track, stream in streams.items():
        stream.sort(key=lambda k: k["start"])
        reach = stream[0]["start"] + stream[0]["dur"]
        for k in stream:
            if k["start"] > reach:
                launch = first_launch.get(k["corr"]) if k["corr"] is not None else None
                gap = dict(stream="%s/%s" % track, start=reach, end=k["start"], cpu=None,
                           cause="unknown" if launch is None else
                           "launch_late" if launch["start"] >= reach else "gpu_waiting")
                if launch is not None:
                    t = reach + (k["start"] - reach) // 2
                    found = innermost_at(index, by_thread, launch["track"], t)
                    if found is not None:
                        begin, dur, name, _ = found
                        gap["cpu"] = dict(name=name, start=begin, dur=dur, thread="%s/%s" % launch["track"])
                out.append(gap)
            reach = max(reach, k["start"] + k["dur"])
    out.sort(key=lambda g: (g["stream"], g["start"]))
    return dict(gaps=out)


def distribution(xs):
    """n, mean, min, q1, median, q3, max of xs by numpy; None when xs is empty."""
    import numpy as np
    if not xs:
        return None
    a = np.array(xs, dtype=np.float64)
    q1, median, q3 = np.percentile(a, [25, 50, 75])  # method="linear", numpy's default
    return dict(n=len(xs), mean=float(np.mean(a)), min=float(a.min()), q1=float(q1), median=float(median),
                q3=float(q3), max=float(a.max()))


def delays(doc):
    if isinstance(doc, dict) and "rocprofiler-sdk-tool" in doc:
        return dict(launch_delay_ns=None, graph_launch_delay_ns=None)
    kernels, launches, graph, _ = ts.chrome_events(doc)
    first_launch = {}  # correlation id -> earliest kernel launch call start (graph launches apart)
    for s in launches:
        if s["corr"] is not None:
            first_launch[s["corr"]] = min(s["start"], first_launch.get(s["corr"], s["start"]))
    first_kernel = {}  # correlation id -> earliest kernel start
    for k in kernels:
        if k["corr"] is not None:
            first_kernel[k["corr"]] = min(k["start"], first_kernel.get(k["corr"], k["start"]))
    kernel_delays = [k["start"] - first_launch[k["corr"]] for k in kernels if k["corr"] in first_launch]
    graph_delays = [first_kernel[g["corr"]] - g["start"] for g in graph if g["corr"] in first_kernel]
    return dict(launch_delay_ns=distribution(kernel_delays), graph_launch_delay_ns=distribution(graph_delays))


TOTALS = ("gpu_busy_ns", "gpu_idle_ns", "kernel_launches", "graph_launches", "kernels")


def compare(alpha, threshold, docs_a, docs_b):
    import kernel_diff as kd  # scipy, for this mode only
    import stats_oracle

    def totals(docs):
        runs = [pool([doc]) for doc in docs]
        for run in runs:
            run["gpu_idle_ns"] = run["gpu_span_ns"] - run["gpu_busy_ns"]
        return {key: [run[key] for run in runs] for key in TOTALS + ("gpu_span_ns",)}

    a, b = totals(docs_a), totals(docs_b)
    rows = {key: dict(zip(("p_raw", "change"), kd.time_level(a[key], b[key], 1)[:2]),
                      mean_a=sum(a[key]) / len(a[key]), mean_b=sum(b[key]) / len(b[key])) for key in TOTALS}
    ps = [rows[key]["p_raw"] for key in TOTALS]
    for key, p, level in zip(TOTALS, kd.holm(ps), kd.holm_levels(ps, alpha)):
        row = rows[key]
        row["holm_p"], row["ci_level"] = p, None if level is None else 1 - level
        low = high = None
        if level is not None:
            _, _, low, high, _ = kd.time_level(a[key], b[key], 1, level)
            if low is None or not stats_oracle.interval_agrees(row["p_raw"], level, low, high):
                low = high = None
        row["ci_low"], row["ci_high"] = low, high
        whole = sum(a["gpu_span_ns"]) if key in ("gpu_busy_ns", "gpu_idle_ns") else sum(a[key])
        part = sum(a[key])
        row["verdict"] = kd.verdict_of(p, row["change"], alpha, threshold * whole / part if part else threshold)
        if row["change"] == math.inf:  # JSON has no infinity: new in B
            row["change"] = "inf"
    return rows


def main(argv):
    modes = ("gaps", "pool", "delays", "gapslices", "compare")
    if len(argv) < 3 or argv[1] not in modes or (argv[1] not in ("pool", "compare") and len(argv) != 3) or (
            argv[1] == "compare" and "--" not in argv[4:]):
        print("usage: launch_analysis.py gaps FILE | gapslices FILE | pool FILE... | delays FILE | "
              "compare ALPHA THRESHOLD A_FILE... -- B_FILE...", file=sys.stderr)
        return 2
    if argv[1] == "compare":
        split = argv.index("--", 4)
        try:
            sides = [[ts.read_trace(path) for path in paths] for paths in (argv[4:split], argv[split + 1:])]
        except (OSError, EOFError, ValueError) as exc:
            print(f"launch_analysis.py: cannot read: {exc}", file=sys.stderr)
            return 2
        print(json.dumps(compare(float(argv[2]), float(argv[3]), *sides), sort_keys=True))
        return 0
    try:
        docs = [ts.read_trace(path) for path in argv[2:]]
    except (OSError, EOFError, ValueError) as exc:
        print(f"launch_analysis.py: cannot read: {exc}", file=sys.stderr)
        return 2
    out = (gaps(docs[0]) if argv[1] == "gaps" else gap_slices(docs[0]) if argv[1] == "gapslices"
           else delays(docs[0]) if argv[1] == "delays" else pool(docs))
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
