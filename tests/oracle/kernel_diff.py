#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent oracle for `scopeline-cli diff` (the kernel-level "what changed" table).

Reads raw trace files (Chrome/Kineto/JAX trace JSON, gzip or plain) with the standard library, takes
the kernels exactly as trace_summary.py (the `info` oracle) counts them, and computes every column of
the diff CSV with numpy/scipy: per kernel name (or op) and run the calls, total and median duration;
means per run over all the side's runs; pooled medians; and, per unit (a process when a side's runs
come from >= 2 processes, else a run), two tests with Holm over the rows each:
  run_level_*: GPU time per run. Welch (scipy.stats.ttest_ind_from_stats, equal_var=False) on the
    units' mean totals (a run without the kernel counts 0); change = delta / mean A, its interval likewise.
  per_call_*: Welch on the logs of the units' mean medians, the interval of the ratio.
Each interval is at *_ci_level = 1 - the row's Holm step-down level at --alpha (what its verdict is
judged at); the time/run one bounded as a time is (low end >= -100 %, none for a kernel gone from B).
Each side's variance is taken as at least step^2 / 12 (step: the GCD of every duration of the diff, a
row whose calls all took one time would give that time), the variance of rounding to the timer's
step, so that sides whose units all repeat one value are judged with that least spread. A run's
process: its folder under --root-a/--root-b (`side/<process>/<run>/`), else the OS pid of a Kineto
trace's first launch call, else unknown. A and B under one pid ran interleaved in that process only
when their runs' launch ids never overlap.

More than two variants: --b given once per candidate (with --label each), the baseline --a against
each as a pair, and Holm over the rows of every pair (kernels x candidates), for each test.

Usage:
  kernel_diff.py --a F1 [F2 ...] --b G1 [G2 ...] [--b H1 ... --label L1 --label L2]
                 [--root-a DIR --root-b DIR] [--by kernel|op] [--fold-numbers] [--alpha P] [--threshold PERCENT]
prints {"summary": {...}, "rows": [{column: value, ...}, ...]} with the rows in the CLI's order; with
several candidates {"variants": [{"variant": label, "summary": ..., "rows": [...]}, ...]}.
"""
import argparse
import gzip
import json
import math
import os
import re
import sys
from decimal import Decimal


import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats_oracle  # noqa: E402  (Holm's step-down levels, from their definition)
import step_breakdown as sb  # noqa: E402  (which kernels are communication, and their collective)
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

    ts.read_symbols([s for s in slices if is_gpu(s["track"])])
    return [(s["name"] if isinstance(s["name"], str) else "", s["dur"])
            for s in slices if is_gpu(s["track"]) and is_kernel(s)]


NOT_OPS = {"cuda_runtime", "cuda_driver", "Runtime", "hip_runtime", "user_annotation"}


def kernel_ops(doc):
    """Each kernel's op, in chrome_events' kernel order: JAX's hlo_op (inside a command buffer with its
    graph node index, the low 32 bits of cuda_graph_node_id), else the innermost CPU slice around its
    launch call that is not itself a runtime call or annotation (PyTorch's aten:: op), else its name."""
    kernels, launches, graph, _ = ts.chrome_events(doc)
    first = {}
    for s in launches + graph:
        if s["corr"] is not None and (s["corr"] not in first or s["start"] < first[s["corr"]]["start"]):
            first[s["corr"]] = s
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    is_gpu, _ = ts.gpu_tracks([e for e in events if isinstance(e, dict)])
    ops_by_track = {}
    launch_names = set(ts.LAUNCH_APIS)
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "X" or e.get("cat") in NOT_OPS:
            continue
        name, start, dur = e.get("name"), ts.to_ns(e.get("ts")), ts.to_ns(e.get("dur")) or 0
        t = ts.track_of(e)
        if start is None or dur <= 0 or is_gpu(t) or not isinstance(name, str) or name in launch_names \
                or name.startswith(ts.GRAPH_PREFIXES) or re.fullmatch(r"ProfilerStep#[0-9]+", name) \
                or (not e.get("cat") and re.fullmatch(r"PjitFunction\(.+\)", name, re.S)):
            continue
        ops_by_track.setdefault(t, []).append((start, start + dur, name))
    out = []
    for k in kernels:
        a = k["args"]
        if a.get("hlo_op"):
            node = a.get("cuda_graph_node_id")
            out.append(str(a["hlo_op"]) + ("" if node is None else f" node {int(str(node)) & 0xffffffff}"))
            continue
        call = first.get(k["corr"]) if k["corr"] is not None else None
        around = [o for o in ops_by_track.get(call["track"], []) if o[0] <= call["start"] < o[1]] if call else []
        # innermost: the latest start, then the shortest
        out.append(max(around, key=lambda o: (o[0], -o[1]))[2] if around else k["name"])
    return out


def process_of(path, pid, root):
    """The run's folder under root when it sits in root/<process>/<run>/, else a Kineto trace's OS pid."""
    if root:
        parts = os.path.relpath(os.path.dirname(path), root).replace(os.sep, "/").split("/")
        if len(parts) >= 4 and parts[-3:-1] == ["plugins", "profile"]:
            parts = parts[:-3]
        if len(parts) >= 2 and parts[0] != "..":
            return "/".join(parts[:-1])
    return pid


def read_run(path, by_op, root):
    doc = load(path)
    ks = kernels(doc)
    info = ts.summarize_chrome(doc)
    # The two readings of one file must agree, or this oracle is not checking what `info` counts.
    if info["kernels"] != len(ks):
        raise SystemExit(f"kernel_diff.py: {path}: {len(ks)} kernels here, {info['kernels']} in trace_summary")
    ordered, launches, graph, _ = ts.chrome_events(doc)
    pid, launch_ids = ts.launch_origin(doc, launches, graph)
    # communication kernels (step_breakdown.is_communication); by op, their collective is their op
    comm = {k["name"] for k in ordered if sb.is_communication(k)}
    if by_op:
        ops = kernel_ops(doc)
        ks = [(k["name"], k["dur"], sb.collective_kind(k) if sb.is_communication(k) else op, sb.is_communication(k))
              for k, op in zip(ordered, ops)]
    else:
        ks = [(name, dur, None, name in comm) for name, dur in ks]
    return ks, info["gpu_busy_ns"], process_of(path, pid, root), launch_ids


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


def holm_levels(ps, alpha):
    """stats_oracle.holm_levels (Holm's step-down level of each p) with None for a row without a p."""
    levels = stats_oracle.holm_levels([math.nan if p is None else p for p in ps], alpha)
    return [None if math.isnan(level) else level for level in levels]

def t_quantile(tail, df):
    """The t quantile with `tail` above it. scipy 1.10's t.ppf for fractional df is good to ~4e-9
    only; two Newton steps on t.sf (accurate to 1e-16) make it exact to double precision."""
    q = stats.t.ppf(1 - tail, df)
    for _ in range(2):
        q += (stats.t.sf(q, df) - tail) / stats.t.pdf(q, df)
    return q


def time_level(tot_a, tot_b, step, level=0.05):
    """Welch on the units' totals: (p, change, ci_low, ci_high, mwu_p), change relative to A's mean, the
    interval at 1 - level, bounded as a time is: low end >= -100 %, none when B is all zeros."""
    if len(tot_a) < 2 or len(tot_b) < 2:
        return None, None, None, None, None
    a, b = np.asarray(tot_a, float), np.asarray(tot_b, float)
    delta, p, df, se = stats_oracle.welch_at_resolution(a, b, step)
    mwu = float(stats.mannwhitneyu(a, b, alternative="two-sided").pvalue)
    half = t_quantile(level / 2, df) * se
    if not a.mean() > 0:  # time where A's units had none: new in B, an infinite change
        return p, math.inf if delta > 0 else None, None, None, mwu
    if not b.any():
        return p, delta / a.mean(), None, None, mwu
    return p, delta / a.mean(), max(-1.0, (delta - half) / a.mean()), (delta + half) / a.mean(), mwu


def run_level(meds_a, meds_b, step, level=0.05):
    """Welch on log per-unit medians: (p, change, ci_low, ci_high, mwu_p), the interval at 1 - level;
    Nones below 2 units a side."""
    if len(meds_a) < 2 or len(meds_b) < 2 or min(meds_a + meds_b) <= 0:
        return None, None, None, None, None
    la, lb = np.log(meds_a), np.log(meds_b)
    # a median v known to the timer's step has its log known to step / v, each side's at its level
    diff, p, df, se = stats_oracle.welch_at_resolution(la, lb, step / math.exp(la.mean()), step / math.exp(lb.mean()))
    mwu = float(stats.mannwhitneyu(meds_a, meds_b, alternative="two-sided").pvalue)
    half = t_quantile(level / 2, df) * se
    return p, math.expm1(diff), math.expm1(diff - half), math.expm1(diff + half), mwu


def verdict_of(p, change, alpha, threshold):
    if p is None or not p < alpha or change is None:
        return "no significant change"
    if abs(change) < threshold:
        return "no meaningful change"
    return "B faster" if change < 0 else "B slower"


def measure(sides, by_op, fold_numbers, same=False):
    """One pair (baseline, candidate): the rows with their raw tests, before Holm. same: the candidate's
    files are the baseline's very files, so nothing is tested."""
    n = [len(sides[0]), len(sides[1])]
    # Units: processes when a side's runs come from >= 2 known ones, else runs; A and B interleaved in
    # one OS process share it (no caveat).
    procs = [[proc for _, _, proc, _ in runs] for runs in sides]
    known = [{p for p in ps if p} for ps in procs]
    by_process = any(len(k) >= 2 for k in known)
    everyone = procs[0] + procs[1]
    shared = not by_process and len(set(everyone)) == 1 and everyone[0].startswith("pid ") and \
        ts.one_sequence_of_launches([ids for runs in sides for _, _, _, ids in runs])
    # one run on a side: no run-level test to carry the caveat ("one run" says more)
    caveat = "" if by_process or shared or min(n) < 2 else \
        "one process a side: differences between processes (compilation, autotuning, placement) not measured"
    processes = [max(1, len(k)) for k in known]
    units = []
    for s in (0, 1):
        keys = procs[s] if by_process else list(range(n[s]))
        order = list(dict.fromkeys(keys))
        units.append([[r for r in range(n[s]) if keys[r] == u] for u in order])

    groups = {}  # key -> {"names": set, "runs": [[durations per run] per side]}
    for s, runs in enumerate(sides):
        for r, (ks, _, _, _) in enumerate(runs):
            for name, dur, op, is_comm in ks:
                key = op if by_op else name
                key = fold(key)[0] if fold_numbers else key
                g = groups.setdefault(key, {"names": set(), "comm": False,
                                            "runs": [[[] for _ in range(n[0])], [[] for _ in range(n[1])]]})
                g["names"].add(name)
                g["comm"] = g["comm"] or is_comm
                g["runs"][s][r].append(dur)

    def per_run(values, s):
        """A side's mean per run; by process, the mean of its processes' means (what the test takes)."""
        if by_process:
            means = [sum(float(values[r]) for r in u) / len(u) for u in units[s]]
            return sum(means) / len(means)
        return sum(values) / n[s]

    kernel_times = [[sum(d for _, d, _, _ in ks) for ks, _, _, _ in runs] for runs in sides]
    per_run_time = [per_run(kernel_times[s], s) for s in (0, 1)]
    total_delta = per_run_time[1] - per_run_time[0]
    busy = [per_run([b for _, b, _, _ in runs], s) for s, runs in enumerate(sides)]

    all_durations = [int(d) for g in groups.values() for side in g["runs"] for run in side for d in run]
    step = stats_oracle.timer_tick(all_durations)
    rows = []
    for key, g in groups.items():
        display = key
        if fold_numbers and not by_op:
            numbered = sorted(x for x in g["names"] if fold(x)[1] is not None)
            if numbered:
                display = key + fold(numbered[0])[1] + "*"
        row = dict(kernel=display)
        unit_tot, unit_med, with_kernel = [[], []], [[], []], [0, 0]
        for s, tag in enumerate("ab"):
            runs = g["runs"][s]
            pooled = [d for run in runs for d in run]
            row[f"runs_{tag}"] = sum(1 for run in runs if run)
            row[f"calls_{tag}"] = len(pooled) / n[s]
            row[f"total_{tag}_ns"] = per_run([float(sum(run)) for run in runs], s)
            row[f"median_{tag}_ns"] = float(np.median(pooled)) if pooled else None
            for u in units[s]:
                unit_tot[s].append(float(np.mean([float(sum(runs[r])) for r in u])))
                meds = [float(np.median(runs[r])) for r in u if runs[r]]
                if meds:
                    unit_med[s].append(float(np.mean(meds)))
            with_kernel[s] = len(unit_med[s])
        row["delta_total_ns"] = row["total_b_ns"] - row["total_a_ns"]
        row["share_of_delta"] = row["delta_total_ns"] / total_delta if total_delta != 0 else None
        ma, mb = row["median_a_ns"], row["median_b_ns"]
        row["rel_change_median"] = (mb - ma) / ma if ma and mb is not None else None  # None for ma = 0
        untested = (None,) * 5
        (row["run_level_p_raw"], row["run_level_change"], row["run_level_ci_low"], row["run_level_ci_high"],
         row["run_level_mwu_p"]) = untested if same else time_level(unit_tot[0], unit_tot[1], step)
        (row["per_call_p_raw"], row["per_call_change"], row["per_call_ci_low"], row["per_call_ci_high"],
         _) = untested if same else run_level(unit_med[0], unit_med[1], step)
        row["folded_names"] = ";".join(sorted(g["names"])) if fold_numbers or by_op else ""
        row["process_dependent"] = by_process and any(0 < with_kernel[s] < processes[s] for s in (0, 1))
        row["_with"] = with_kernel
        row["processes_a"], row["processes_b"] = processes
        row["caveat"] = caveat if row["run_level_p_raw"] is not None else ""
        row["communication"] = int(g["comm"])
        row["_units"] = (unit_tot, unit_med, step)
        rows.append(row)

    rows.sort(key=lambda r: (-abs(r["delta_total_ns"]), -max(r["total_a_ns"], r["total_b_ns"]),
                             r["kernel"].encode("utf-8")))
    summary = dict(runs_a=n[0], runs_b=n[1], busy_per_run_a=busy[0], busy_per_run_b=busy[1],
                   kernel_time_per_run_a=per_run_time[0], kernel_time_per_run_b=per_run_time[1],
                   delta_total_ns=total_delta,
                   by_process=by_process, caveat=caveat)
    return dict(rows=rows, summary=summary, processes=processes, by_process=by_process, same=same)


def judge(pairs, alpha, threshold):
    """Holm over the rows of every pair (kernels x candidates), for each of the two tests."""
    rows = [row for pair in pairs for row in pair["rows"]]
    for pair in pairs:
        s = pair["summary"]
        # shares only of a change of kernel time that reaches the threshold of A's
        counts = abs(s["delta_total_ns"]) >= threshold * s["kernel_time_per_run_a"]
        for row in pair["rows"]:
            row["_pair"] = pair
            if not counts:
                row["share_of_delta"] = None
    # Each interval at the level its verdict is judged: Holm's step-down level in its family; a tie's
    # interval (not from the test) only where it excludes 0 exactly when p < level.
    for prefix, test, index in (("run_level", time_level, 0), ("per_call", run_level, 1)):
        for row, level in zip(rows, holm_levels([r[prefix + "_p_raw"] for r in rows], alpha)):
            row[prefix + "_ci_level"] = None if level is None else 1 - level
            if level is None:
                continue
            units, step = row["_units"][index], row["_units"][2]
            _, _, low, high, _ = test(units[0], units[1], step, level)
            agrees = low is not None and stats_oracle.interval_agrees(row[prefix + "_p_raw"], level, low, high)
            row[prefix + "_ci_low"], row[prefix + "_ci_high"] = (low, high) if agrees else (None, None)
    for row, p, pc in zip(rows, holm([r["run_level_p_raw"] for r in rows]),
                          holm([r["per_call_p_raw"] for r in rows])):
        row["run_level_p"], row["per_call_p"] = p, pc
        row["per_call_verdict"] = "" if pc is None else verdict_of(pc, row["per_call_change"], alpha, threshold)
        # a kernel of one side alone: "only in A/B" where its time per run tests as a change, else said
        # beside the verdict the test gave
        one_side = None if row["process_dependent"] else "B" if row["runs_a"] == 0 else "A" if row["runs_b"] == 0 else None
        if row["_pair"]["same"]:
            verdict = "the same runs on both sides: nothing is compared"
        elif row["run_level_p_raw"] is None:
            verdict = ("process-to-process variation not measured" if row["_pair"]["by_process"]
                       else "run-to-run variation not measured")
        else:
            verdict = verdict_of(p, row["run_level_change"], alpha, threshold)
        if one_side and verdict in ("B faster", "B slower"):
            verdict = "only in " + one_side
        elif one_side:
            verdict += "; only in " + one_side
        if row["process_dependent"] and not verdict.startswith("only"):
            verdict += "; process-dependent: in %d of %d processes of A, %d of %d of B" % (
                row["_with"][0], row["_pair"]["processes"][0], row["_with"][1], row["_pair"]["processes"][1])
        row["verdict"] = verdict
        del row["_with"], row["per_call_p_raw"], row["_units"], row["_pair"]

    for pair in pairs:
        rows = pair["rows"]
        # where the kernels ran: those of one side only, process-dependent or not
        pair["summary"].update(kernels=len(rows), only_in_a=sum(r["runs_b"] == 0 for r in rows),
                               only_in_b=sum(r["runs_a"] == 0 for r in rows),
                               process_dependent=sum(r["process_dependent"] for r in rows))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--a", nargs="+", required=True)
    parser.add_argument("--b", nargs="+", required=True, action="append",
                        help="a candidate's runs; several --b: a baseline (--a) against each, Holm over all")
    parser.add_argument("--root-a")
    parser.add_argument("--root-b", action="append")
    parser.add_argument("--label", action="append", help="each candidate's label, in --b order")
    parser.add_argument("--by", choices=("kernel", "op"), default="kernel")
    parser.add_argument("--fold-numbers", action="store_true")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--threshold", type=float, default=1.0)
    args = parser.parse_args()
    by_op = args.by == "op"
    roots_b = args.root_b or [None] * len(args.b)
    baseline = [read_run(f, by_op, args.root_a) for f in args.a]
    same = lambda files: sorted(map(os.path.realpath, files)) == sorted(map(os.path.realpath, args.a))
    pairs = [measure([baseline, [read_run(f, by_op, root) for f in files]], by_op, args.fold_numbers, same(files))
             for files, root in zip(args.b, roots_b)]
    judge(pairs, args.alpha, args.threshold / 100)
    for pair in pairs:  # JSON has no infinity: written as the CSV writes it
        for row in pair["rows"]:
            for key, value in row.items():
                if isinstance(value, float) and math.isinf(value):
                    row[key] = "inf" if value > 0 else "-inf"
    if len(pairs) == 1:
        print(json.dumps(dict(summary=pairs[0]["summary"], rows=pairs[0]["rows"])))
    else:
        labels = args.label or [str(i + 1) for i in range(len(pairs))]
        print(json.dumps(dict(variants=[dict(variant=label, summary=pair["summary"], rows=pair["rows"])
                                        for label, pair in zip(labels, pairs)])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
