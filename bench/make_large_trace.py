#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Make a large Chrome/Kineto trace for load benchmarks by replicating a real one.

The input's traceEvents are written K times, copy k shifted by k * span (span = the input's first
timestamp to its last event end, rounded up to a whole µs so decimal timestamps stay exact), with
args.correlation, flow-event ids and args["External id"] offset per copy so they stay unique.
Metadata (ph "M") events are written once. K is the smallest count whose uncompressed JSON is at
least --min-mb megabytes. Standard library only.

usage: make_large_trace.py INPUT.json[.gz] OUTPUT.json.gz [--min-mb 150]
Prints: copies, events, uncompressed bytes.
"""
import argparse
import gzip
import json
import math


def open_any(path):
    return gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--min-mb", type=float, default=150.0, help="uncompressed size to reach, in MB (10^6 bytes)")
    args = parser.parse_args()

    with open_any(args.input) as f:
        doc = json.load(f)
    if isinstance(doc, list):
        doc = {"traceEvents": doc}
    events = doc.pop("traceEvents")
    meta = [e for e in events if e.get("ph") == "M"]
    timed = [e for e in events if e.get("ph") != "M" and "ts" in e]
    if not timed:
        raise SystemExit("no timed events in " + args.input)

    start = min(float(e["ts"]) for e in timed)
    end = max(float(e["ts"]) + float(e.get("dur", 0) or 0) for e in timed)
    shift_us = math.ceil(end - start) + 1

    def ints(values):
        return [v for v in values if isinstance(v, int) and not isinstance(v, bool)]

    corr_step = 1 + max(ints([e.get("args", {}).get("correlation") for e in timed] +
                             [e.get("id") for e in timed if e.get("ph") in ("s", "t", "f")]) or [0])
    ext_step = 1 + max(ints([e.get("args", {}).get("External id") for e in timed]) or [0])

    def copy_lines(k):
        lines = []
        for e in timed:
            if k:
                e = dict(e)
                ts = e["ts"]
                e["ts"] = (ts + k * shift_us) if isinstance(ts, (int, float)) else repr(float(ts) + k * shift_us)
                a = e.get("args")
                if a and ("correlation" in a or "External id" in a):
                    a = dict(a)
                    if isinstance(a.get("correlation"), int):
                        a["correlation"] += k * corr_step
                    if isinstance(a.get("External id"), int):
                        a["External id"] += k * ext_step
                    e["args"] = a
                if e.get("ph") in ("s", "t", "f") and isinstance(e.get("id"), int):
                    e["id"] += k * corr_step
            lines.append(json.dumps(e))
        return lines

    head = json.dumps(doc)[:-1]  # the other top-level keys, without the closing brace
    head = (head + ", " if len(doc) else "{") + '"traceEvents": [\n'
    meta_lines = [json.dumps(e) for e in meta]
    first = copy_lines(0)
    per_copy = sum(len(s) + 2 for s in first)
    fixed = len(head) + sum(len(s) + 2 for s in meta_lines) + 4
    copies = max(1, math.ceil((args.min_mb * 1e6 - fixed) / per_copy))

    total = 0
    count = 0
    with gzip.open(args.output, "wb", compresslevel=6) as out:
        def write(text):
            nonlocal total
            data = text.encode("utf-8")
            total += len(data)
            out.write(data)

        write(head)
        write(",\n".join(meta_lines))
        sep = ",\n" if meta_lines else ""
        count += len(meta_lines)
        for k in range(copies):
            lines = first if k == 0 else copy_lines(k)
            write(sep + ",\n".join(lines))
            sep = ",\n"
            count += len(lines)
        write("\n]}\n")
    print(f"copies {copies}, events {count}, uncompressed bytes {total}")


if __name__ == "__main__":
    main()
