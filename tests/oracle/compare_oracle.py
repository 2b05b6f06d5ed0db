#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent oracle for `scopeline-cli compare` and `scopes` on JAX traces.

Reads JAX trace-viewer files (gzip JSON) with the standard library, takes the GPU kernels of each
(X events on a process named /device:GPU:N), attributes a kernel to scope S when S is one
'/'-separated component of its args.name, and computes every statistic of the comparison CSV
with numpy/scipy (Hodges-Lehmann and Cliff's delta by brute force over all pairs).

Usage:
  compare_oracle.py compare --samples kernel|instance --a F1 F2 ... --b G1 G2 ... --scope S ...
      prints a JSON list of rows keyed like the CSV header
  compare_oracle.py count FILE SCOPE...
      prints {"scope": kernel count}
"""
import argparse
import gzip
import json
import math
import sys
from decimal import Decimal, ROUND_HALF_UP

import os
import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats_oracle  # noqa: E402  (the Hodges-Lehmann interval by inverting scipy's test, Holm levels)


def ns(value):
    return int((Decimal(str(value)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def kernels(path):
    """[(stream, start_ns, dur_ns, components, step)] sorted by stream then start; step: the index of
    the PjitFunction range around the kernel's launch call (joined by correlation_id), None if none."""
    with gzip.open(path, "rt") as f:
        events = json.load(f, parse_float=Decimal)["traceEvents"]
    gpu = {e["pid"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"
           and str(e["args"]["name"]).startswith("/device:GPU")}
    cpu = [e for e in events if e.get("ph") == "X" and e.get("pid") not in gpu]
    steps = [(e["pid"], e["tid"], e["ts"], e["ts"] + e.get("dur", 0)) for e in cpu
             if str(e.get("name", "")).startswith("PjitFunction")]
    launch = {e["args"]["correlation_id"]: e for e in cpu if "correlation_id" in e.get("args", {})}

    def step_of(kernel):
        call = launch.get(kernel.get("args", {}).get("correlation_id"))
        if call is None:
            return None
        for i, (pid, tid, begin, end) in enumerate(steps):
            if (pid, tid) == (call["pid"], call["tid"]) and begin <= call["ts"] < end:
                return i
        return None

    out = []
    for e in events:
        if e.get("ph") == "X" and e.get("pid") in gpu:
            name = e.get("args", {}).get("name", "")
            out.append((str(e["tid"]), ns(e["ts"]), ns(e.get("dur", 0)), [c for c in name.split("/") if c],
                        step_of(e)))
    out.sort(key=lambda k: (k[0], k[1]))
    return out


def samples(path, scope, mode):
    ks = kernels(path)
    if mode == "kernel":
        return [float(d) for _, _, d, comps, _ in ks if scope in comps]
    # instance: runs of consecutive matching kernels on one stream in one step, summed; a kernel
    # without an op name (a Triton kernel XLA names no op of) neither joins nor ends one
    result, previous, last_named = [], None, None
    for i, (stream, _, d, comps, step) in enumerate(ks):
        if not comps:
            continue
        if scope in comps:
            if previous is not None and previous == last_named and ks[previous][0] == stream \
                    and ks[previous][4] == step:
                result[-1] += d
            else:
                result.append(float(d))
            previous = i
        last_named = i
    return result


def hodges_lehmann(a, b, level):
    [hl] = stats_oracle.hodges_lehmann(a, b, [1 - level], [level])
    return hl["ci_low"], hl["ci_high"]


def holm(ps):
    idx = [i for i, p in enumerate(ps) if p is not None]
    m = len(idx)
    order = sorted(idx, key=lambda i: ps[i])
    adjusted, running = [None] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, (m - rank) * ps[i])
        adjusted[i] = min(1.0, running)
    return adjusted


def row(scope, run, a, b):
    r = {"scope": scope, "run": run, "n_a": len(a), "n_b": len(b)}
    for side, x in (("a", a), ("b", b)):
        r[f"mean_{side}_ns"] = float(np.mean(x)) if x else None
        r[f"std_{side}_ns"] = float(np.std(x, ddof=1)) if len(x) > 1 else None
        r[f"median_{side}_ns"] = float(np.median(x)) if x else None
    keys = ["ranksum_z", "ranksum_p", "mwu_u", "mwu_p", "hl_shift_ns", "hl_ci_low_ns", "hl_ci_high_ns",
            "rel_change_median", "cliffs_delta"]
    if not a or not b:
        r.update({k: None for k in keys})
        return r
    rs = stats.ranksums(a, b)
    mw = stats.mannwhitneyu(a, b, alternative="two-sided")
    diff = np.subtract.outer(np.asarray(b), np.asarray(a))
    r.update(ranksum_z=float(rs.statistic), ranksum_p=float(rs.pvalue), mwu_u=float(mw.statistic),
             mwu_p=float(mw.pvalue), hl_shift_ns=float(np.median(diff)), samples=(a, b),
             rel_change_median=(float(np.median(b)) - float(np.median(a))) / float(np.median(a)),
             cliffs_delta=float((diff > 0).mean() - (diff < 0).mean()))
    return r


def compare(args):
    rows = []
    for scope in args.scope:
        sa = [samples(f, scope, args.samples) for f in args.a]
        sb = [samples(f, scope, args.samples) for f in args.b]
        for i in range(min(len(sa), len(sb))):
            rows.append(row(scope, str(i + 1), sa[i], sb[i]))
        if len(sa) > 1 or len(sb) > 1:
            rows.append(row(scope, "all", [x for s in sa for x in s], [x for s in sb for x in s]))
    for run in {r["run"] for r in rows}:
        family = [r for r in rows if r["run"] == run]
        for key in ("ranksum_p", "mwu_p"):
            for r, p in zip(family, holm([r[key] for r in family])):
                r[key + "_holm"] = p
        # The shift's interval at the level the row's Mann-Whitney p is judged (Holm's step-down level),
        # kept where it says what the test does: 0 outside exactly when p < level, or 0 an open end.
        levels = stats_oracle.holm_levels([math.nan if r["mwu_p"] is None else r["mwu_p"] for r in family],
                                          0.05)
        for r, level in zip(family, levels):
            a, b = r.pop("samples", ([], []))
            if not a or not b or math.isnan(level):
                continue
            lo, hi = hodges_lehmann(a, b, level)
            r["hl_ci_level"] = 1 - level
            r["hl_ci_open"] = ""
            if lo is None:
                continue
            rejected = r["mwu_p"] < level
            if rejected == (lo <= 0 <= hi) and not (rejected and 0 in (lo, hi) and (lo, hi) != (0, 0)):
                lo = hi = None
            r["hl_ci_low_ns"], r["hl_ci_high_ns"] = lo, hi
            # an end at 0 that the test rejects is open
            if lo is not None and rejected and (lo == 0) != (hi == 0):
                r["hl_ci_open"] = "low" if lo == 0 else "high"
    return rows


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compare")
    c.add_argument("--samples", default="kernel", choices=["kernel", "instance"])
    c.add_argument("--a", nargs="+", required=True)
    c.add_argument("--b", nargs="+", required=True)
    c.add_argument("--scope", nargs="+", required=True)
    n = sub.add_parser("count")
    n.add_argument("file")
    n.add_argument("scope", nargs="+")
    i = sub.add_parser("instances")
    i.add_argument("file")
    i.add_argument("scope", nargs="+")
    args = parser.parse_args()
    if args.command == "compare":
        print(json.dumps(compare(args)))
    elif args.command == "instances":
        print(json.dumps({s: samples(args.file, s, "instance") for s in args.scope}))
    else:
        ks = kernels(args.file)
        print(json.dumps({s: sum(1 for k in ks if s in k[3]) for s in args.scope}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
