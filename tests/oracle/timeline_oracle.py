#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent test oracle for the timeline's data: rows and nesting lanes per track, and the summary of
a time range. Chrome/Kineto/JAX traces of complete ("X") events only. Standard library only; shares
trace_summary.py's parsing helpers (units, ids, category and API lists), not the C++ code.

Usage: timeline_oracle.py layout TRACE_FILE
       timeline_oracle.py range TRACE_FILE FROM_NS TO_NS
layout prints {"tracks": [{"pid", "tid", "gpu", "events", "depths": [count at depth 0, 1, ...]}],
"cpu_processes", "gpu_processes"}; depths deeper than 5 count as 5 (the timeline's last lane).
range prints {"busy_ns", "kernels", "kernel_launches", "graph_launches"} for [FROM, TO): GPU busy is
the union of kernel intervals clipped to the range; kernels and launches count when they start in it.
"""
import gzip
import json
import sys
from decimal import Decimal

from trace_summary import (GPU_CATS, GPU_PROCESS_RE, GRAPH_PREFIXES, KERNEL_CATS, LAUNCH_APIS, as_int, norm_id,
                           to_ns)

MAX_DEPTH = 5


def read(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw, parse_float=Decimal, parse_int=Decimal)
    return doc.get("traceEvents", []) if isinstance(doc, dict) else doc


def slices(events):
    """X events as dicts with track, start, dur, gpu, and the raw name/cat/args."""
    key = lambda e: (norm_id(e.get("pid")), norm_id(e.get("tid", 0)))
    pnames, gpu_tracks = {}, set()
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            pnames[norm_id(e.get("pid"))] = (e.get("args") or {}).get("name")
        if e.get("cat") in GPU_CATS:
            gpu_tracks.add(key(e))

    def on_gpu(track):
        name = pnames.get(track[0])
        return track in gpu_tracks or (isinstance(name, str) and (name.startswith("/device:GPU") or
                                                                  bool(GPU_PROCESS_RE.fullmatch(name))))
    out = []
    for e in events:
        if e.get("ph") != "X" or to_ns(e.get("ts")) is None:
            continue
        track = key(e)
        out.append(dict(track=track, start=to_ns(e["ts"]), dur=to_ns(e.get("dur")) or 0, gpu=on_gpu(track),
                        name=e.get("name") if isinstance(e.get("name"), str) else "", cat=e.get("cat"),
                        args=e.get("args") if isinstance(e.get("args"), dict) else {}))
    return out


def depths(track_slices):
    """Nesting depth of each slice: how many earlier slices are still open at its start. A slice that
    outlives its parent is cut at the parent's end."""
    ordered = sorted(track_slices, key=lambda s: (s["start"], -s["dur"]))
    open_ends, result = [], []
    for s in ordered:
        open_ends = [end for end in open_ends if end > s["start"]]
        result.append(min(len(open_ends), MAX_DEPTH))
        end = s["start"] + s["dur"]
        open_ends.append(min(end, open_ends[-1]) if open_ends else end)
    return result


def layout(events):
    by_track = {}
    for s in slices(events):
        by_track.setdefault(s["track"], []).append(s)
    tracks = []
    for (pid, tid), lst in sorted(by_track.items(), key=lambda kv: str(kv[0])):
        counts = [0] * (MAX_DEPTH + 1)
        for d in depths(lst):
            counts[d] += 1
        while len(counts) > 1 and counts[-1] == 0:
            counts.pop()
        tracks.append(dict(pid=str(pid), tid=str(tid), gpu=lst[0]["gpu"], events=len(lst), depths=counts))
    return dict(tracks=tracks, cpu_processes=len({t["pid"] for t in tracks if not t["gpu"]}),
                gpu_processes=len({t["pid"] for t in tracks if t["gpu"]}))


def is_kernel(s):
    if s["cat"] in KERNEL_CATS:
        return True
    if isinstance(s["cat"], str) and s["cat"] != "":
        return False
    if "desc" in s["args"]:
        return s["args"]["desc"] == "KernelExecution"
    return not s["name"].lower().startswith(("memcpy", "memset"))


def correlation(s):
    c = as_int(s["args"].get("correlation"))
    return c if c is not None else as_int(s["args"].get("correlation_id"))


def range_summary(events, lo, hi):
    all_slices = slices(events)
    kernels = [s for s in all_slices if s["gpu"] and is_kernel(s)]
    kernel_corrs = {correlation(k) for k in kernels} - {None}
    cpu = [s for s in all_slices if not s["gpu"]]
    graph = [s for s in cpu if s["name"].startswith(GRAPH_PREFIXES)]
    launches = [s for s in cpu if not s["name"].startswith(GRAPH_PREFIXES) and
                (s["name"] in LAUNCH_APIS or ("correlation_id" in s["args"] and correlation(s) in kernel_corrs))]
    # busy: sweep the clipped intervals in start order, adding what extends past the covered end
    busy, covered = 0, lo
    for start, end in sorted((max(k["start"], lo), min(k["start"] + k["dur"], hi)) for k in kernels):
        if end > start and end > covered:
            busy += end - max(start, covered)
            covered = end
    inside = lambda s: lo <= s["start"] < hi
    return dict(busy_ns=busy, kernels=sum(map(inside, kernels)), kernel_launches=sum(map(inside, launches)),
                graph_launches=sum(map(inside, graph)))


def main(argv):
    if len(argv) == 3 and argv[1] == "layout":
        out = layout(read(argv[2]))
    elif len(argv) == 5 and argv[1] == "range":
        out = range_summary(read(argv[2]), int(argv[3]), int(argv[4]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
