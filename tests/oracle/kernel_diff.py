#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent oracle for `scopeline-cli diff` (the kernel-level "what changed" table).

Reads raw trace files (Chrome/Kineto/JAX trace JSON, gzip or plain) with the standard library, takes
the kernels exactly as trace_summary.py (the `info` oracle) counts them, and computes every column of
the diff CSV with numpy/scipy: per kernel name and run the calls, total and median duration; means per
run over all the side's runs; pooled medians; the run-level Welch t-test on the logs of the per-run
medians (scipy.stats.ttest_ind, equal_var=False) with its confidence interval of the ratio; the
Mann-Whitney p on the per-run medians; Holm over the rows; the verdict.

Usage:
  kernel_diff.py --a F1 [F2 ...] --b G1 [G2 ...] [--fold-numbers] [--alpha P] [--threshold PERCENT]
prints {"summary": {...}, "rows": [{column: value, ...}, ...]} with the rows in the CLI's order.
"""
import argparse
import gzip
import json
import math
import os
import re
import sys
from decimal import Decimal

import warnings

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_summary as ts  # noqa: E402  (the `info` oracle: its reading of times, ids and GPU tracks)

FOLD_RE = re.compile(r"(.+?)((?:[_.][0-9]+)+)", re.S)


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw, parse_float=Decimal, parse_int=Decimal)


def kernels(doc):
    """[(name, duration_ns)] of the kernels, as trace_summary.summarize_chrome selects them."""
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    events = [e for e in events if isinstance(e, dict) and e]
    track = ts.track_of
    is_gpu, _ = ts.gpu_tracks(events)

    slices, open_b = [], {}
    for e in events:
        ph, t = e.get("ph"), track(e)
        if ph in ("X", "B"):
            start = ts.to_ns(e.get("ts"))
            if start is None:
                continue
            s = dict(track=t, dur=ts.to_ns(e.get("dur")) or 0, name=e.get("name"), cat=e.get("cat"),
                     args=e.get("args") if isinstance(e.get("args"), dict) else {}, start=start)
            (slices.append(s) if ph == "X" else open_b.setdefault(t, []).append(s))
        elif ph == "E" and open_b.get(t):
            s, end = open_b[t].pop(), ts.to_ns(e.get("ts"))
            if end is not None:
                s["dur"] = end - s["start"]
                slices.append(s)

    def is_kernel(s):
        cat, name, args = s["cat"], s["name"], s["args"]
        if cat in ts.KERNEL_CATS:
            return True
        if isinstance(cat, str) and cat != "":
            return False
        if "desc" in args:
            return args["desc"] == "KernelExecution"
        return not (isinstance(name, str) and name.lower().startswith(("memcpy", "memset")))

    return [(s["name"] if isinstance(s["name"], str) else "", s["dur"])
            for s in slices if is_gpu(s["track"]) and is_kernel(s)]


def read_run(path):
    doc = load(path)
    ks = kernels(doc)
    info = ts.summarize_chrome(doc)
    # The two readings of one file must agree, or this oracle is not checking what `info` counts.
    if info["kernels"] != len(ks):
        raise SystemExit(f"kernel_diff.py: {path}: {len(ks)} kernels here, {info['kernels']} in trace_summary")
    return ks, info["gpu_busy_ns"]


def fold(name):
    m = FOLD_RE.fullmatch(name)
    return (m.group(1), m.group(2)[0]) if m else (name, None)


def holm(ps):
    idx = sorted((i for i, p in enumerate(ps) if p is not None), key=lambda i: ps[i])
    adjusted, running, m = [None] * len(ps), 0.0, len(idx)
    for rank, i in enumerate(idx):
        running = max(running, (m - rank) * ps[i])
        adjusted[i] = min(1.0, running)
    return adjusted


def run_level(meds_a, meds_b):
    """Welch on log per-run medians: (p, change, ci_low, ci_high, mwu_p); Nones below 2 runs a side."""
    if len(meds_a) < 2 or len(meds_b) < 2 or min(meds_a + meds_b) <= 0:
        return None, None, None, None, None
    la, lb = np.log(meds_a), np.log(meds_b)
    diff = lb.mean() - la.mean()
    va, vb = la.var(ddof=1) / len(la), lb.var(ddof=1) / len(lb)
    mwu = float(stats.mannwhitneyu(meds_a, meds_b, alternative="two-sided").pvalue)
    change = math.expm1(diff)
    if va + vb == 0:  # no spread at all: stats/runlevel.h defines p = 1 (equal) or 0 (different)
        return (1.0 if diff == 0 else 0.0), change, change, change, mwu
    with warnings.catch_warnings():  # nearly equal logs: scipy warns, the p it gives is what we check
        warnings.simplefilter("ignore", RuntimeWarning)
        p = float(stats.ttest_ind(lb, la, equal_var=False).pvalue)
    df = (va + vb) ** 2 / (va ** 2 / (len(la) - 1) + vb ** 2 / (len(lb) - 1))
    half = stats.t.ppf(0.975, df) * math.sqrt(va + vb)
    return p, change, math.expm1(diff - half), math.expm1(diff + half), mwu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--a", nargs="+", required=True)
    parser.add_argument("--b", nargs="+", required=True)
    parser.add_argument("--fold-numbers", action="store_true")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--threshold", type=float, default=1.0)
    args = parser.parse_args()
    threshold = args.threshold / 100

    sides = [[read_run(f) for f in args.a], [read_run(f) for f in args.b]]
    n = [len(sides[0]), len(sides[1])]
    groups = {}  # key -> {"names": set, "runs": [[durations per run] per side]}
    for s, runs in enumerate(sides):
        for r, (ks, _) in enumerate(runs):
            for name, dur in ks:
                key = fold(name)[0] if args.fold_numbers else name
                g = groups.setdefault(key, {"names": set(), "runs": [[[] for _ in range(n[0])],
                                                                     [[] for _ in range(n[1])]]})
                g["names"].add(name)
                g["runs"][s][r].append(dur)

    kernel_time = [sum(d for ks, _ in runs for _, d in ks) for runs in sides]
    per_run = [kernel_time[s] / n[s] for s in (0, 1)]
    total_delta = per_run[1] - per_run[0]
    busy = [sum(b for _, b in runs) / len(runs) for runs in sides]

    rows = []
    for key, g in groups.items():
        display = key
        if args.fold_numbers:
            numbered = sorted(x for x in g["names"] if fold(x)[1] is not None)
            if numbered:
                display = key + fold(numbered[0])[1] + "*"
        row = dict(kernel=display)
        meds = [[], []]
        for s, tag in enumerate("ab"):
            runs = g["runs"][s]
            pooled = [d for run in runs for d in run]
            row[f"runs_{tag}"] = sum(1 for run in runs if run)
            row[f"calls_{tag}"] = len(pooled) / n[s]
            row[f"total_{tag}_ns"] = sum(pooled) / n[s]
            row[f"median_{tag}_ns"] = float(np.median(pooled)) if pooled else None
            meds[s] = [float(np.median(run)) for run in runs if run]
        row["delta_total_ns"] = row["total_b_ns"] - row["total_a_ns"]
        row["share_of_delta"] = row["delta_total_ns"] / total_delta if total_delta != 0 else None
        ma, mb = row["median_a_ns"], row["median_b_ns"]
        row["rel_change_median"] = (mb - ma) / ma if ma and mb is not None else None  # None for ma = 0
        (row["run_level_p_raw"], row["run_level_change"], row["run_level_ci_low"], row["run_level_ci_high"],
         row["run_level_mwu_p"]) = run_level(meds[0], meds[1])
        row["folded_names"] = ";".join(sorted(g["names"])) if args.fold_numbers else ""
        rows.append(row)

    rows.sort(key=lambda r: (-abs(r["delta_total_ns"]), r["kernel"].encode("utf-8")))
    for row, p in zip(rows, holm([r["run_level_p_raw"] for r in rows])):
        row["run_level_p"] = p
        if row["runs_a"] == 0:
            verdict = "only in B"
        elif row["runs_b"] == 0:
            verdict = "only in A"
        elif row["runs_a"] < 2 or row["runs_b"] < 2:
            verdict = "run-to-run variation not measured"
        elif p is None or not p < args.alpha:
            verdict = "no significant change"
        elif abs(row["run_level_change"]) < threshold:
            verdict = "no meaningful change"
        else:
            verdict = "B faster" if row["run_level_change"] < 0 else "B slower"
        row["verdict"] = verdict

    summary = dict(runs_a=n[0], runs_b=n[1], busy_per_run_a=busy[0], busy_per_run_b=busy[1],
                   kernel_time_per_run_a=per_run[0], kernel_time_per_run_b=per_run[1], delta_total_ns=total_delta,
                   kernels=len(rows), only_in_a=sum(r["runs_b"] == 0 for r in rows),
                   only_in_b=sum(r["runs_a"] == 0 for r in rows))
    print(json.dumps(dict(summary=summary, rows=rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
