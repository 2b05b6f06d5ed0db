#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent test oracle for the step breakdown: how a training/inference step's wall time splits
into GPU busy time and idle time by cause, per run, and how two sides (A, B) of runs compare.
Computed from the raw trace events (kernels and launch calls from trace_summary.py's parser; step
annotations read here), not from the C++ code.

Definitions
  Runs of a side (a folder, a single trace file, or a quoted glob of folders/files): every
  *.pt.trace.json[.gz] and JAX <run>/plugins/profile/<ts>/*.trace.json.gz under it. The run folder is
  the file's folder less a trailing plugins/profile/<ts>; the run name is its path relative to the
  side (the glob's leading non-magic folder; the file name for a single file or a file lying in the
  side folder itself); process = the name's part before its last "/". Runs sorted naturally by name.
  Launch of a kernel: the earliest (by start; on ties kernel launches before graph launches, each in
  file order) kernel- or graph-launch CPU call with the kernel's correlation id (Kineto
  args.correlation, JAX args.correlation_id), as trace_summary.chrome_events finds them.
  Steps of scope S: ph X events on CPU tracks named S or S#<digits>, outermost only (an instance
  contained in another on the same (pid, tid) is dropped; of identical ranges the first in file is
  kept). A step's kernels: those whose launch starts in [step.start, step.end) with the launch's pid
  == the step's pid (any thread); several candidates -> the latest start. Kernels without a launch
  belong to no step; steps without kernels are dropped. --whole-run: one step of all kernels, its
  range the kernels' span.
  Per step (kernels by start, file order on ties): step = last end - first start; busy = length of the
  union of [start, start+dur); idle = step - busy. A gap opens where a kernel starts after reach (the
  max end so far): [reach, start). Cause from that kernel's launch: launch.start >= reach ->
  launch_late, earlier -> gpu_waiting, none -> unknown. launch_late + gpu_waiting + unknown == idle.
  Communication kernels: name containing nccl, rccl or cross_device_reduce (any case), a non-empty
  args "Collective name", or an XLA collective hlo_op (all-reduce, all-gather, reduce-scatter,
  all-to-all, collective-permute, with -start/-done and .N). compute = union of the step's other
  kernels; exposed_comm = busy - compute. Without communication on either side, their rows get no p.
  Per run: mean over its steps of each figure (null without steps; such runs are left out).
  Ranks: a folder whose trace files carry >= 2 distinct ranks (Kineto distributedInfo.rank with
  world_size != 1 in the first 64 KiB of text, else rank_N/rank-N/rankN/workerN in the file name)
  is one run named after the folder; its figure is the mean over its ranks, its step count one
  rank's (the most); its process is its ranks' together (folder, else their OS pids sorted and
  joined by " + "; unknown when one rank's is), so a job launched again is another process.
  Units: by_process when either side has >= 2 distinct non-empty processes; then a unit = a process
  (value = mean of its runs' means), else a unit = a run. mean = mean of the unit values (exact
  rationals); delta = mean_b - mean_a; share_of_delta = delta / step delta (null if |step delta| < threshold * step mean_a or 0).
  With >= 2 units a side: Welch p_raw = ttest_ind_from_stats(b, a, equal_var=False), each side's
  variance (ddof 1) at least 1/12 ns^2, that of rounding to 1 ns (so that a side whose units all give
  one value is judged with that least spread). The step row is judged
  alone: p = p_raw at level alpha; the other rows are one Holm family: p = Holm-adjusted, level =
  Holm's step-down level. CI of delta at ci_level = 1 - level: delta +- t.ppf(1 - level/2, df_WS) * se
  (se = sqrt(va/na + vb/nb), the variances as above), shown only if it excludes 0 exactly when
  p_raw < level. Verdict: < 2 units a side or p null -> not_tested;
  p >= alpha -> no_significant_change; |delta| < threshold * step mean_a -> no_meaningful_change;
  delta < 0 -> faster; else slower.

Variants: with more than two sides (a baseline, then candidates, each [LABEL=]PATH), each candidate is
  a pair with the baseline as above (units, caveat and communication of that pair), and the step rows
  of all candidates are one Holm family, all their other rows another.

Usage: step_breakdown.py (--step SCOPE | --whole-run) [--alpha 0.05] [--threshold 0.01] A B [C ...]
Prints one JSON document.
"""
import argparse
import bisect
import glob
import gzip
import json
import math
import os
import re
import sys
from fractions import Fraction

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats_oracle  # noqa: E402  (Holm's step-down levels, from their definition)
import trace_summary as ts  # noqa: E402  (raw-event parser: kernels, launch calls)

FIELDS = ("step", "busy", "compute", "exposed_comm", "idle", "launch_late", "gpu_waiting", "unknown")
ROWS = ("step", "busy", "busy:compute", "busy:exposed_communication", "idle", "idle:launch_late",
        "idle:gpu_waiting", "idle:unknown")
XLA_COLLECTIVE = re.compile(r"(all-reduce|all-gather|reduce-scatter|all-to-all|collective-permute)"
                            r"(-start|-done)?(\.[0-9]+)?")


def is_communication(kernel):
    """NCCL/RCCL/vLLM names in any case, a Collective name arg, or an XLA collective hlo_op."""
    name, args = kernel["name"].lower(), kernel.get("args") or {}
    hlo = str(args.get("hlo_op", "")).split(" ")[0].lower()
    return ("nccl" in name or "rccl" in name or "cross_device_reduce" in name or bool(args.get("Collective name"))
            or bool(XLA_COLLECTIVE.fullmatch(hlo)))


NCCL_NAMES = {n.lower(): n for n in ("AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Reduce",
                                      "SendRecv", "AllToAll")}


def nccl_name(word):
    """allreduce, reduce_scatter (any case, without "_") as NCCL's kernels spell them; else as is."""
    return NCCL_NAMES.get(word.lower().replace("_", ""), word)


def collective_kind(kernel):
    """The collective a communication kernel performs: its Collective name arg, an XLA op without
    -start/-done and numbering, "cross_device_reduce", the word after ncclKernel_/ncclDevKernel_/
    rccl_kernel_ (any case; not "Generic"), else its name up to "(". The arg and the word are
    spelled as NCCL's kernels spell the collective where it is one of theirs (nccl_name)."""
    name, args = kernel["name"], kernel.get("args") or {}
    if args.get("Collective name"):
        return nccl_name(str(args["Collective name"]))
    m = XLA_COLLECTIVE.fullmatch(str(args.get("hlo_op", "")).split(" ")[0].lower())
    if m:
        return m.group(1)
    if "cross_device_reduce" in name.lower():
        return "cross_device_reduce"
    m = re.match(r"(?:nccldevkernel|ncclkernel|rccl_kernel|rcclkernel)_([^_(]*)", name, re.I)
    if m and m.group(1) != "Generic":
        return nccl_name(m.group(1))
    return name.split("(")[0]


def union_length(kernels):
    total, cur, reach = 0, None, None
    for k in sorted(kernels, key=lambda k: k["start"]):
        if reach is None or k["start"] > reach:
            total += 0 if reach is None else reach - cur
            cur = k["start"]
            reach = k["start"] + k["dur"]
        reach = max(reach, k["start"] + k["dur"])
    return total + (0 if reach is None else reach - cur)


def rank_of(path):
    """Kineto's distributedInfo rank (world size > 1) in the file's first 64 KiB of text, else
    rank_N / rank-N / rankN / workerN in the file name; None when neither."""
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        head = f.read(1 << 16).decode("utf-8", "replace")
    m = re.search(r'"distributedInfo"\s*:\s*\{([^{}]*)', head)
    if m:
        world = re.search(r'"world_size"\s*:\s*(\d+)', m.group(1))
        rank = re.search(r'"rank"\s*:\s*(\d+)', m.group(1))
        if world and int(world.group(1)) == 1:
            return None
        if rank:
            return int(rank.group(1))
    m = re.search(r"(?:^|[^a-z])(?:rank[-_]?|worker)([0-9]+)(?![0-9])", os.path.basename(path), re.I)
    return int(m.group(1)) if m else None


def lone_rank(path):
    """The rank of a file alone in its run: only what its distributedInfo states of a world > 1."""
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        head = f.read(1 << 16).decode("utf-8", "replace")
    m = re.search(r'"distributedInfo"\s*:\s*\{([^{}]*)', head)
    world = m and re.search(r'"world_size"\s*:\s*(\d+)', m.group(1))
    rank = m and re.search(r'"rank"\s*:\s*(\d+)', m.group(1))
    return int(rank.group(1)) if world and rank and int(world.group(1)) > 1 else None


def natural_key(s):
    return [int(c) if i % 2 else c for i, c in enumerate(re.split(r"([0-9]+)", s))]


def is_trace(path):
    name, parts = os.path.basename(path), path.replace(os.sep, "/").split("/")
    if name.endswith((".pt.trace.json.gz", ".pt.trace.json")):
        return True
    return (name.endswith(".trace.json.gz") and name != "perfetto_trace.json.gz"
            and len(parts) >= 4 and parts[-4:-2] == ["plugins", "profile"])


def run_folder(path):
    d = os.path.dirname(path)
    parts = d.replace(os.sep, "/").split("/")
    return "/".join(parts[:-3]) if len(parts) >= 3 and parts[-3:-1] == ["plugins", "profile"] else d


def side_runs(arg):
    """[(run name, process, file, rank or None)] of a side, sorted naturally (a run's ranks by rank)."""
    if os.path.isfile(arg):
        return [(os.path.basename(arg), "", arg, lone_rank(arg))]
    if os.path.isdir(arg):
        base, roots = arg, [arg]
    elif glob.has_magic(arg):
        parts = arg.split("/")
        lead = next(i for i, p in enumerate(parts) if glob.has_magic(p))
        base, roots = "/".join(parts[:lead]) or ".", sorted(glob.glob(arg))
    else:
        raise SystemExit(f"step_breakdown.py: no such side: {arg}")
    files = set()
    for root in roots:
        if os.path.isfile(root) and is_trace(root):
            files.add(root)
        for dirpath, _, names in os.walk(root):
            files.update(p for p in (os.path.join(dirpath, n) for n in names) if is_trace(p))
    # A folder whose files hold >= 2 distinct ranks is one run of several GPUs (each file a rank).
    by_folder = {}
    for f in files:
        by_folder.setdefault(os.path.dirname(f), []).append(f)
    ranked = {}
    for folder, fs in by_folder.items():
        ranks = {f: rank_of(f) for f in fs} if len(fs) >= 2 else {}
        if len({r for r in ranks.values() if r is not None}) >= 2:
            ranked.update(ranks)
    runs = []
    for f in files:
        rel = os.path.relpath(run_folder(f), base).replace(os.sep, "/")
        if f in ranked:
            name = os.path.basename(os.path.abspath(base)) if rel == "." else rel
        else:
            name = os.path.basename(f) if rel == "." else rel
        runs.append((name, name.rpartition("/")[0], f, ranked[f] if f in ranked else lone_rank(f)))
    return sorted(runs, key=lambda r: (natural_key(r[0]), -1 if r[3] is None else r[3], r[2]))


def step_instances(doc, scope):
    """Outermost CPU ph-X events named scope or scope#<digits>: [(start, end, pid, tid, number)], file
    order; number the <digits> (None without)."""
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    events = [e for e in events if isinstance(e, dict)]
    track = ts.track_of
    is_gpu, _ = ts.gpu_tracks(events)  # as trace_summary.chrome_events tells them
    pat = re.compile(re.escape(scope) + r"(#[0-9]+)?", re.S)
    inst = []
    for e in events:
        if e.get("ph") != "X" or not isinstance(e.get("name"), str) or not pat.fullmatch(e["name"]):
            continue
        start = ts.to_ns(e.get("ts"))
        if start is None or is_gpu(track(e)):
            continue
        digits = pat.fullmatch(e["name"]).group(1)
        number = int(digits[1:]) if digits and len(digits) <= 19 else None
        inst.append((start, start + (ts.to_ns(e.get("dur")) or 0)) + track(e) + (number,))

    # Sorted by (track, start, longest first, file order), an instance lies in another iff an earlier
    # one on its track reaches at least its end (of identical ranges the first in file is kept).
    keep, reach, prev = set(), None, None
    for i in sorted(range(len(inst)), key=lambda i: (str(inst[i][2:4]), inst[i][0], -inst[i][1], i)):
        if inst[i][2:4] != prev:
            prev, reach = inst[i][2:4], None
        if reach is None or inst[i][1] > reach:
            keep.add(i)
        reach = inst[i][1] if reach is None else max(reach, inst[i][1])
    return [s for i, s in enumerate(inst) if i in keep]


def step_figures(kernels, launch_of):
    """The figures of one step from its kernels (file order)."""
    ks = sorted(kernels, key=lambda k: k["start"])  # stable: file order on ties
    first = cur = ks[0]["start"]  # cur: start of the busy stretch under way
    reach, busy = ks[0]["start"] + ks[0]["dur"], 0
    out = dict(step=0, busy=0, compute=0, exposed_comm=0, idle=0, launch_late=0, gpu_waiting=0, unknown=0)
    for k in ks:
        if k["start"] > reach:
            busy += reach - cur
            cur = k["start"]
            launch = launch_of.get(k["corr"])
            cause = "unknown" if launch is None else "launch_late" if launch["start"] >= reach else "gpu_waiting"
            out[cause] += k["start"] - reach
        reach = max(reach, k["start"] + k["dur"])
    busy, step = busy + reach - cur, reach - first
    compute = union_length([k for k in ks if not is_communication(k)])
    out.update(step=step, busy=busy, compute=compute, exposed_comm=busy - compute, idle=step - busy,
               comm_kernels=sum(1 for k in ks if is_communication(k)))
    assert out["launch_late"] + out["gpu_waiting"] + out["unknown"] == out["idle"]
    return out


def analyse_run(path, scope, keep_kernels=False):
    """(steps, pid) of one trace file; keep_kernels: each step keeps its kernels (as "members") and
    the run's kernels come third."""
    doc = ts.read_trace(path)
    kernels, launches, graph, _ = ts.chrome_events(doc)
    launch_of = {}  # corr -> earliest launch call (kernel launches before graph launches on a tie)
    for s in launches + graph:
        if s["corr"] is not None and (s["corr"] not in launch_of or s["start"] < launch_of[s["corr"]]["start"]):
            launch_of[s["corr"]] = s
    if scope is None:
        if not kernels:
            return []
        ranges = [(min(k["start"] for k in kernels), max(k["start"] + k["dur"] for k in kernels), None)]
        members = [kernels]
    else:
        inst = step_instances(doc, scope)
        by_pid = {}
        for i, s in enumerate(inst):
            by_pid.setdefault(s[2], []).append(i)
        index = {}
        for pid, idx in by_pid.items():
            idx.sort(key=lambda i: inst[i][0])  # stable: file order among equal starts
            max_end, m = [], None
            for i in idx:
                m = inst[i][1] if m is None else max(m, inst[i][1])
                max_end.append(m)
            index[pid] = (idx, [inst[i][0] for i in idx], max_end)
        members = [[] for _ in inst]
        for k in kernels:
            launch = launch_of.get(k["corr"])
            if launch is None or launch["track"][0] not in index:
                continue
            idx, starts, max_end = index[launch["track"][0]]
            t = launch["start"]
            j = bisect.bisect_right(starts, t) - 1
            while j >= 0 and max_end[j] > t:  # latest start first
                if t < inst[idx[j]][1]:
                    members[idx[j]].append(k)
                    break
                j -= 1
        ranges = [s[:2] + (s[4],) for s in inst]
    steps = []
    for (start, end, number), ks in zip(ranges, members):
        if ks:
            steps.append(dict(start=start, end=end, number=number, kernels=len(ks), **step_figures(ks, launch_of)))
            if keep_kernels:
                steps[-1]["members"] = ks
    steps.sort(key=lambda s: s["start"])
    # A PyTorch (Kineto) trace records the OS process id, and its launch calls' ids
    origin = ts.launch_origin(doc, launches, graph)
    return (steps, origin, kernels) if keep_kernels else (steps, origin)


def mean(xs):
    return sum(xs, Fraction(0)) / len(xs)


def num(x):
    """Exact rational -> JSON number (int when whole); None stays None."""
    return None if x is None else int(x) if Fraction(x).denominator == 1 else float(x)


def holm(ps):
    idx = [i for i, p in enumerate(ps) if p is not None]
    order = sorted(idx, key=lambda i: ps[i])
    out, running = [None] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(order) - rank) * ps[i]))
        out[i] = running
    return out


def holm_levels(ps, alpha):
    """stats_oracle.holm_levels (Holm's step-down level of each p) with None for a row without a p."""
    levels = stats_oracle.holm_levels([math.nan if p is None else p for p in ps], alpha)
    return [None if math.isnan(level) else level for level in levels]

def measure(runs_a, runs_b, by_process, communication):
    def units(runs):
        with_steps = [r for r in runs if r["mean"] is not None]
        if not by_process:
            return with_steps, {f: [r["_mean"][f] for r in with_steps] for f in FIELDS}
        procs = {}
        for r in with_steps:
            procs.setdefault(r["process"], []).append(r["_mean"])
        return with_steps, {f: [mean([m[f] for m in ms]) for ms in procs.values()] for f in FIELDS}
    ra, ua = units(runs_a)
    rb, ub = units(runs_b)
    rows = []
    for comp, f in zip(ROWS, FIELDS):
        a, b = ua[f], ub[f]
        row = dict(component=comp, runs_a=len(ra), runs_b=len(rb), units_a=len(a), units_b=len(b),
                   steps_a=sum(len(r["steps"]) for r in runs_a), steps_b=sum(len(r["steps"]) for r in runs_b),
                   mean_a_ns=mean(a) if a else None, mean_b_ns=mean(b) if b else None,
                   ci_low_ns=None, ci_high_ns=None, ci_level=None, p_raw=None, _half=None)
        row["delta_ns"] = row["mean_b_ns"] - row["mean_a_ns"] if a and b else None
        if len(a) >= 2 and len(b) >= 2:
            va = sum(((x - row["mean_a_ns"]) ** 2 for x in a), Fraction(0)) / (len(a) - 1)
            vb = sum(((x - row["mean_b_ns"]) ** 2 for x in b), Fraction(0)) / (len(b) - 1)
            va, vb = max(va, Fraction(1, 12)), max(vb, Fraction(1, 12))  # values known to 1 ns
            se2 = va / len(a) + vb / len(b)
            se = math.sqrt(float(se2))
            df = float(se2 ** 2 / ((va / len(a)) ** 2 / (len(a) - 1) + (vb / len(b)) ** 2 / (len(b) - 1)))
            row["_half"] = lambda level, df=df, se=se: stats.t.ppf(1 - level / 2, df) * se
            row["p_raw"] = float(stats.ttest_ind_from_stats(
                float(row["mean_b_ns"]), math.sqrt(float(vb)), len(b), float(row["mean_a_ns"]), math.sqrt(float(va)),
                len(a), equal_var=False).pvalue)
        if len(a) >= 2 and len(b) >= 2:  # the ratio B / A, the step's checked against a bootstrap too
            row["_ratio"] = lambda level, a=[float(x) for x in a], b=[float(x) for x in b], step=comp == "step": dict(
                fieller(a, b, level),
                bootstrap=bootstrap_ratio(a, b, level) if step and len(set(a + b)) > 1 else None)
        if comp in ("busy:compute", "busy:exposed_communication") and not communication:
            row["p_raw"], row["_half"] = None, None  # compute is all of busy: nothing to test
        rows.append(row)
    return rows


def fieller(a, b, level):
    """Fieller's interval of mean(b) / mean(a) at confidence 1 - level, written from the definition:
    the theta with |mean_b - theta mean_a| <= t * sqrt(vb/nb + theta^2 va/na), t of the Welch-
    Satterthwaite df of mean_b - mean_a (Welch's test's own, so 1 is inside exactly where that test
    does not reject), each variance at least 1/12 ns^2 as Welch's. None when unbounded."""
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    qa = max(sum((x - ma) ** 2 for x in a) / (len(a) - 1), 1 / 12) / len(a)
    qb = max(sum((x - mb) ** 2 for x in b) / (len(b) - 1), 1 / 12) / len(b)
    if ma == 0:
        return dict(ratio=None, low=None, high=None)
    theta = mb / ma
    df = (qa + qb) ** 2 / (qb ** 2 / (len(b) - 1) + qa ** 2 / (len(a) - 1))
    t = stats.t.ppf(1 - level / 2, df)
    # quadratic in theta: (ma^2 - t^2 qa) theta^2 - 2 ma mb theta + (mb^2 - t^2 qb) <= 0
    A, B, C = ma * ma - t * t * qa, -2 * ma * mb, mb * mb - t * t * qb
    if A <= 0:
        return dict(ratio=theta, low=None, high=None)
    disc = math.sqrt(B * B - 4 * A * C)
    # a ratio of durations is not below 0, however wide the interval
    return dict(ratio=theta, low=max(0.0, (-B - disc) / (2 * A)), high=(-B + disc) / (2 * A))


def bootstrap_ratio(a, b, level, resamples=20000):
    """The percentile bootstrap of mean(b) / mean(a), resampling each side (a check on Fieller)."""
    rng = np.random.default_rng(1)
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ra = rng.choice(a, (resamples, len(a))).mean(axis=1)
    rb = rng.choice(b, (resamples, len(b))).mean(axis=1)
    lo, hi = np.quantile(rb / ra, [level / 2, 1 - level / 2])
    return [float(lo), float(hi)]


def judge(pairs, alpha, threshold):
    """The rows of each pair (a candidate against the baseline), judged together: the step rows of all
    pairs one Holm family, all their other rows another (one pair: the step alone at alpha). Each
    interval at its row's level, a tie's only where it excludes 0 exactly when the row is significant."""
    step_p = [rows[0]["p_raw"] for rows in pairs]
    parts_p = [r["p_raw"] for rows in pairs for r in rows[1:]]
    step_holm, step_levels = holm(step_p), holm_levels(step_p, alpha)
    parts_holm, parts_levels = holm(parts_p), holm_levels(parts_p, alpha)
    n = len(pairs[0]) - 1
    return [finish(rows, [step_holm[i]] + parts_holm[i * n:(i + 1) * n],
                   [step_levels[i]] + parts_levels[i * n:(i + 1) * n], alpha, threshold)
            for i, rows in enumerate(pairs)]


def finish(rows, judged, levels, alpha, threshold):
    step_row = rows[0]
    ratios = []  # per row: B / A with Fieller's interval at the row's level
    for row, level in zip(rows, levels):
        ratio = row.pop("_ratio", None)
        ratios.append(ratio(level) if ratio and level is not None else None)
    step_ratio = ratios[0]
    for row, level in zip(rows, levels):
        half = row.pop("_half")
        if level is None or half is None:
            continue
        low, high = float(row["delta_ns"]) - half(level), float(row["delta_ns"]) + half(level)
        if stats_oracle.interval_agrees(row["p_raw"], level, low, high):
            row["ci_low_ns"], row["ci_high_ns"] = low, high
        row["ci_level"] = 1 - level
    for row, p in zip(rows, judged):
        d, sd = row["delta_ns"], step_row["delta_ns"]
        counts = sd and abs(sd) >= threshold * step_row["mean_a_ns"]
        row["share_of_delta"] = float(d / sd) + 0.0 if d is not None and counts else None
        row["p"] = p
        if row["units_a"] < 2 or row["units_b"] < 2 or p is None:
            row["verdict"] = "not_tested"
        elif p >= alpha:
            row["verdict"] = "no_significant_change"
        elif abs(d) < threshold * step_row["mean_a_ns"]:
            row["verdict"] = "no_meaningful_change"
        else:
            row["verdict"] = "faster" if d < 0 else "slower"
        for k in ("mean_a_ns", "mean_b_ns", "delta_ns"):
            row[k] = num(row[k])
    order = ("component", "runs_a", "runs_b", "units_a", "units_b", "steps_a", "steps_b", "mean_a_ns",
             "mean_b_ns", "delta_ns", "share_of_delta", "ci_low_ns", "ci_high_ns", "ci_level", "p_raw", "p",
             "verdict")
    return [{k: r[k] for k in order} for r in rows], step_ratio, ratios


def read_side(arg, scope):
    runs = []
    for name, proc, path, rank in side_runs(arg):
        steps, (pid, launch_ids) = analyse_run(path, scope)
        # the process folder, else the OS process of a Kineto trace (a rank's: its GPU's)
        proc = proc or pid
        m = {f: mean([s[f] for s in steps]) for f in FIELDS} if steps else None
        rank_row = dict(rank=rank, file=path, process=proc, steps=steps, _mean=m)
        if rank is not None and runs and runs[-1]["run"] == name and runs[-1]["ranks"]:
            runs[-1]["ranks"].append(rank_row)  # another GPU of the same run
        else:
            runs.append(dict(run=name, process=proc, ranks=[rank_row] if rank is not None else [],
                             file=path, steps=steps, _mean=m, _launch_ids=launch_ids))
    for r in runs:
        if r["ranks"]:  # a run of several GPUs: the mean over its ranks, its steps those of each
            # its process: its ranks' together (a job launched again is another), unknown if one's is
            procs = {x["process"] for x in r["ranks"]}
            r["process"] = "" if "" in procs else " + ".join(sorted(procs))
            means = [x["_mean"] for x in r["ranks"] if x["_mean"] is not None]
            r["_mean"] = {f: mean([m[f] for m in means]) for f in FIELDS} if means else None
            r["steps"] = max((x["steps"] for x in r["ranks"]), key=len)
        r["mean"] = {f: num(v) for f, v in r["_mean"].items()} if r["_mean"] else None
        r["communication"] = any(s["comm_kernels"] for x in (r["ranks"] or [r]) for s in x["steps"])
    return runs


def pair_setting(runs_a, runs_b):
    """by_process, shared (A and B interleaved in one OS process: the process effect cancels, no
    caveat), communication: of one pair."""
    sides = (runs_a, runs_b)
    by_process = any(len({r["process"] for r in runs if r["process"] != ""}) >= 2 for runs in sides)
    everyone = [r["process"] for runs in sides for r in runs]
    shared = not by_process and len(set(everyone)) == 1 and everyone[0].startswith("pid ") and \
        ts.one_sequence_of_launches([r["_launch_ids"] for runs in sides for r in runs])
    communication = any(r["communication"] for runs in sides for r in runs)
    return by_process, shared, communication


def label_and_path(arg):
    """LABEL=PATH, unless the argument is itself a path; a path's label is its last part without a
    wildcard."""
    if "=" in arg and not os.path.exists(arg) and not any(c in arg.split("=", 1)[0] for c in "*?["):
        return tuple(arg.split("=", 1))
    parts = [p for p in os.path.normpath(arg).split(os.sep) if p and p != ".."]
    plain = [p for p in parts if not any(c in p for c in "*?[")]
    return (plain[-1] if plain else arg), arg


def main(argv):
    ap = argparse.ArgumentParser(description="step breakdown oracle")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--step")
    g.add_argument("--whole-run", action="store_true")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--threshold", type=float, default=0.01)
    ap.add_argument("sides", nargs="+", help="A B, or a baseline and candidates, each [LABEL=]PATH")
    args = ap.parse_args(argv[1:])
    if len(args.sides) < 2:
        ap.error("two sides or more")
    scope = None if args.whole_run else args.step
    labelled = [label_and_path(arg) for arg in args.sides]
    runs = [read_side(path, scope) for _, path in labelled]
    settings = [pair_setting(runs[0], candidate) for candidate in runs[1:]]
    pairs = [measure(runs[0], candidate, by_process, communication)
             for candidate, (by_process, _, communication) in zip(runs[1:], settings)]
    judged = judge(pairs, args.alpha, args.threshold)
    for side in runs:
        for r in side:
            r.pop("_mean", None)
            r.pop("_launch_ids", None)
            for x in r["ranks"]:
                x.pop("_mean", None)
    if len(runs) == 2:
        by_process, shared, _ = settings[0]
        out = dict(step_scope=scope, by_process=by_process, caveat=not by_process and not shared,
                   sides=dict(a=runs[0], b=runs[1]), rows=judged[0][0], step_ratio=judged[0][1], ratios=judged[0][2])
    else:
        out = dict(step_scope=scope, baseline=labelled[0][0],
                   variants=[dict(variant=label, by_process=setting[0], caveat=not setting[0] and not setting[1],
                                  rows=rows, step_ratio=ratio, ratios=ratios)
                             for (label, _), setting, (rows, ratio, ratios) in zip(labelled[1:], settings, judged)])
    print(json.dumps(out, indent=1, allow_nan=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
