#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent oracle for the boxes the scope boxplot draws (the comparison panel and the report).

Takes each scope's samples from the JAX trace files themselves (compare_oracle.samples: kernel
durations, or instance sums, of the kernels whose args.name has the scope as a component) and computes
each box with numpy from DESIGN.md's definitions: quartiles and median by linear interpolation
(numpy's default); whiskers at the most extreme data within 1.5·IQR of the quartiles (the smallest
sample >= q1 - 1.5·IQR, the largest <= q3 + 1.5·IQR); every sample beyond them an outlier.

Usage:
  boxplot_oracle.py --samples kernel|instance --a F1 F2 ... --b G1 G2 ... --scope S ...
Prints a JSON list, per scope in the order given: one row per run pair ("1", "2", ...) and, when a side
has several runs, the pooled row "all"; each {"scope", "run", "a": box, "b": box}, a box being
{"n", "q1", "median", "q3", "whisker_low", "whisker_high", "outliers" (ascending)} or null without
samples. Values in ns.
"""
import argparse
import json
import sys

import numpy as np

from compare_oracle import samples


def box(values):
    if not values:
        return None
    x = np.sort(np.asarray(values, dtype=np.float64))
    q1, median, q3 = np.percentile(x, [25, 50, 75])
    reach = 1.5 * (q3 - q1)
    low_fence, high_fence = q1 - reach, q3 + reach
    within = x[(x >= low_fence) & (x <= high_fence)]
    return dict(n=int(x.size), q1=float(q1), median=float(median), q3=float(q3),
                whisker_low=float(within[0]), whisker_high=float(within[-1]),
                outliers=[float(v) for v in x if v < low_fence or v > high_fence])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", default="kernel", choices=["kernel", "instance"])
    parser.add_argument("--a", nargs="+", required=True)
    parser.add_argument("--b", nargs="+", required=True)
    parser.add_argument("--scope", nargs="+", required=True)
    args = parser.parse_args()
    rows = []
    for scope in args.scope:
        sa = [samples(f, scope, args.samples) for f in args.a]
        sb = [samples(f, scope, args.samples) for f in args.b]
        for i in range(min(len(sa), len(sb))):
            rows.append(dict(scope=scope, run=str(i + 1), a=box(sa[i]), b=box(sb[i])))
        if len(sa) > 1 or len(sb) > 1:
            rows.append(dict(scope=scope, run="all", a=box([v for s in sa for v in s]),
                             b=box([v for s in sb for v in s])))
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
