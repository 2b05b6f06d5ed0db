#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes converted/two_gpus_one_trace/dlrm_ranks_0_1.pt.trace.json.gz: ranks 0 and 1 of the real
8-GPU DLRM step (public/param/dlrm_kineto/, MIT) as ONE trace of two GPUs, the layout one trace of
several processes has (each rank's CPU process and its GPU, pids as recorded: 59811/GPU 0,
59812/GPU 1). No public trace holds several GPUs in one file; this one is made from two real ones so
that each GPU read out of it can be checked against its own rank file.

What changes: the events of both files in one traceEvents list; rank 1's correlation and flow ids
(per process in Kineto, so they collide: 70 of them) get an offset; `distributedInfo` is dropped (one
trace, not a rank file); the profiler's own span ("Trace" category) and metadata are kept once per
process. Timestamps are untouched: the ranks ran on one host and share its clock."""
import glob
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OFFSET = 1_000_000_000  # beyond any correlation or flow id of the files


def load(rank):
    (path,) = glob.glob(os.path.join(HERE, f"public/param/dlrm_kineto/worker{rank}_step_12.*.pt.trace.json.gz"))
    with gzip.open(path, "rt") as f:
        return json.load(f)


def one_process(source, target):
    """The same trace as ONE process launching onto both GPUs (JAX, or one PyTorch process driving two
    devices): rank 1's CPU events move into rank 0's process (pid 59812 -> 59811) on threads of their own."""
    with gzip.open(source, "rt") as f:
        trace = json.load(f)
    for e in trace["traceEvents"]:
        if e.get("pid") == 59812:
            e["pid"] = 59811
            if isinstance(e.get("tid"), int):
                e["tid"] += OFFSET
    with gzip.GzipFile(target, "wb", mtime=0) as f:
        f.write(json.dumps(trace, separators=(",", ":")).encode())


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--one-process":  # used by tst_ranks, into a scratch folder
        one_process(sys.argv[2], sys.argv[3])
        return
    first, second = load(0), load(1)
    events = list(first["traceEvents"])
    meta = {(e.get("pid"), e.get("tid"), e.get("name")) for e in events if e.get("ph") == "M"}
    for e in second["traceEvents"]:
        if e.get("ph") == "M" and (e.get("pid"), e.get("tid"), e.get("name")) in meta:
            continue  # the GPUs' processes are named in the first file already
        if e.get("cat") == "Trace":
            continue  # the profiler's span: once
        e = dict(e)
        if e.get("ph") in ("s", "f", "t"):
            e["id"] = e["id"] + OFFSET
        args = e.get("args")
        if isinstance(args, dict):
            args = dict(args)
            for key in ("correlation", "External id"):
                if key in args and isinstance(args[key], int):
                    args[key] += OFFSET
            e["args"] = args
        events.append(e)
    out = {k: v for k, v in first.items() if k not in ("traceEvents", "distributedInfo")}
    out["traceEvents"] = events
    path = os.path.join(HERE, "converted/two_gpus_one_trace/dlrm_ranks_0_1.pt.trace.json.gz")
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(json.dumps(out, separators=(",", ":")).encode())


if __name__ == "__main__":
    main()
