#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent oracle for the run-level columns of `scopeline-cli compare` (tst_runlevel).

For each scope: each run's median of its samples (read from the raw JAX trace with the standard
library, as compare_oracle.py does), then Welch's t on the log run medians with scipy
(stats_oracle.run_level: ttest_ind_from_stats(equal_var=False), the CI of the ratio from scipy.stats.t.ppf with
Welch-Satterthwaite df, mannwhitneyu on the medians) and Holm over the scopes compared together.

Usage:
  runlevel_oracle.py traces --samples kernel|instance --a F1 F2 ... --b G1 G2 ... [--b H1 ...] --scope S ...
      run medians computed from the trace files; several --b: {"rows": [...], "across": [per scope:
      Kruskal-Wallis h, p_raw, p (Holm over the scopes)]}
  runlevel_oracle.py medians FILE
      FILE: {"scopes": [{"scope": str, "a": [run medians], "b": [...]}, ...], "resolution": ns} (NaN: a
      run without samples; resolution: the timer's step the medians are known to, 1 ns if absent)
Prints a JSON list, one object per scope: scope, medians_a, medians_b, runs_a, runs_b, run_level_p (Holm),
run_level_p_raw, run_level_change, run_level_ci_low, run_level_ci_high at run_level_ci_level (1 - the
row's Holm step-down level at alpha 0.05), run_level_rank_p. Each side's log variance is at least that of
rounding to the timer's step (the GCD of every GPU event's duration in the traces), as scopeline's.
"""
import argparse
import json
import math
import os
import sys

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_oracle import kernels, samples  # noqa: E402  (the raw-trace reader)
from stats_oracle import (  # noqa: E402  (scipy formulas)
    clean, holm, holm_levels, interval_agrees, kruskal, run_level, timer_tick)


def rows(per_scope, resolution, alpha=0.05):
    out = []
    for scope, a, b in per_scope:
        r = run_level(a, b, [], resolution)
        out.append({"scope": scope, "medians_a": a, "medians_b": b,
                    "runs_a": r["runs_a"], "runs_b": r["runs_b"], "run_level_p_raw": r["p"], "run_level_change": r["change"],
                    "run_level_ci_low": math.nan, "run_level_ci_high": math.nan, "run_level_ci_level": math.nan,
                    "run_level_rank_p": r["rank_p"]})
    raw = [r["run_level_p_raw"] for r in out]
    for r, p, level in zip(out, holm(raw), holm_levels(raw, alpha)):
        r["run_level_p"] = p
        if math.isnan(level):
            continue
        # The interval at the level the verdict is judged.
        ci = run_level(r["medians_a"], r["medians_b"], [1 - level], resolution)["ci"][0]
        if interval_agrees(r["run_level_p_raw"], level, ci["low"], ci["high"]):
            r["run_level_ci_low"], r["run_level_ci_high"] = ci["low"], ci["high"]
        r["run_level_ci_level"] = 1 - level
    return out


def variants(args):
    """A baseline against several candidates: the rows of every candidate (scope order within each,
    candidates in order) with Holm over all of them, and per scope Kruskal-Wallis (stats_oracle.kruskal)
    across the variants' run medians (runs without samples left out; a variant without any left out),
    Holm over the scopes."""
    medians = [[[median_or_nan(samples(f, s, args.samples)) for f in files] for s in args.scope]
               for files in [args.a] + args.b]
    per_scope = [(s, medians[0][i], medians[c][i]) for c in range(1, len(medians))
                 for i, s in enumerate(args.scope)]
    across = []
    for i, scope in enumerate(args.scope):
        groups = [[x for x in medians[v][i] if not math.isnan(x)] for v in range(len(medians))]
        groups = [g for g in groups if g]
        if len(groups) >= 2 and len({x for g in groups for x in g}) > 1:
            h, p, method = kruskal(groups)
            across.append({"scope": scope, "groups": len(groups), "h": h, "p_raw": p, "method": method})
        else:
            across.append({"scope": scope, "groups": len(groups), "h": math.nan, "p_raw": math.nan})
    for row, p in zip(across, holm([r["p_raw"] for r in across])):
        row["p"] = p
    return {"rows": rows(per_scope, timer_step(args.a + [f for files in args.b for f in files])), "across": across}


def timer_step(files):
    """The timer's tick (stats_oracle.timer_tick) of every GPU event's duration (ns) in the files: the
    step a run's median is known to."""
    return timer_tick([duration for path in files for _, _, duration, _, _ in kernels(path)])


def median_or_nan(values):
    return float(np.median(values)) if values else float("nan")


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("traces")
    t.add_argument("--samples", default="kernel", choices=["kernel", "instance"])
    t.add_argument("--a", nargs="+", required=True)
    t.add_argument("--b", nargs="+", required=True, action="append",
                   help="a candidate's runs; several --b: a baseline (--a) against each, Holm over "
                        "scopes x candidates, and Kruskal-Wallis across all per scope")
    t.add_argument("--scope", nargs="+", required=True)
    m = sub.add_parser("medians")
    m.add_argument("file")
    args = parser.parse_args()
    if args.command == "traces" and len(args.b) > 1:
        json.dump(clean(variants(args)), sys.stdout)
        return 0
    if args.command == "traces":
        per_scope = [(s, [median_or_nan(samples(f, s, args.samples)) for f in args.a],
                      [median_or_nan(samples(f, s, args.samples)) for f in args.b[0]]) for s in args.scope]
        resolution = timer_step(args.a + args.b[0])
    else:
        with open(args.file, encoding="utf-8") as f:
            spec = json.load(f)
        per_scope = [(item["scope"], item["a"], item["b"]) for item in spec["scopes"]]
        resolution = spec.get("resolution", 1.0)
    json.dump(clean(rows(per_scope, resolution)), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
