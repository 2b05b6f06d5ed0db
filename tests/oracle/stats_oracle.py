#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent test oracle for Scopeline's stats library (tst_stats).

Computes every figure straight from its definition with numpy/scipy, by brute force where that is
simplest (all pairwise differences for Hodges–Lehmann and Cliff's delta), deliberately not following
the C++ algorithms.

Input (JSON file): {"confidences": [...],
                    "cases": [{"name": str, "a": [...], "b": [...], "ranks": bool}, ...],
                    "holm": [{"name": str, "p": [... may contain NaN]}, ...],
                    "runlevel": [{"name": str, "a": [...], "b": [...]}, ...]}   (one summary per run)
Output (stdout, JSON; NaN written as null): per case describe_a/describe_b, ranksums, mannwhitneyu
(with scipy's own exact/asymptotic choice), hodges_lehmann per confidence (null when n1*n2 is too large
to enumerate), relative_median_change, cliffs_delta, optionally ranks; per Holm set the adjusted p;
per run-level case Welch's t on the logs (scipy.stats.ttest_ind, equal_var=False), the CI of the ratio
of geometric means per confidence (scipy.stats.t.ppf with Welch-Satterthwaite df) and Mann-Whitney p.

Usage: /usr/bin/python3 stats_oracle.py INPUT_JSON
"""
import json
import math
import sys
import warnings

import numpy as np
import scipy
from scipy import stats

MAX_PAIRS = 25_000_000  # brute-force differences: 200 MB of float64 at most


def clean(obj):
    """JSON cannot hold NaN/inf; the test reads null as NaN."""
    if isinstance(obj, dict):
        return {k: clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean(v) for v in obj]
    if isinstance(obj, (np.floating, float)):
        v = float(obj)
        return v if math.isfinite(v) else None
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj


def describe(x):
    x = np.asarray(x, dtype=np.float64)
    nan = float("nan")
    if x.size == 0:
        return {"n": 0, "mean": nan, "std": nan, "min": nan, "q1": nan, "median": nan, "q3": nan,
                "max": nan, "iqr": nan, "whisker_low": nan, "whisker_high": nan, "outliers": []}
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    inside = x[(x >= lo) & (x <= hi)]
    outliers = np.sort(x[(x < lo) | (x > hi)])
    return {
        "n": int(x.size),
        "mean": np.mean(x),
        "std": np.std(x, ddof=1) if x.size > 1 else nan,
        "min": np.min(x),
        "q1": q1,
        "median": np.median(x),
        "q3": q3,
        "max": np.max(x),
        "iqr": iqr,
        "whisker_low": np.min(inside),
        "whisker_high": np.max(inside),
        "outliers": outliers.tolist(),
    }


def mwu_method_chosen(a, b):
    """scipy's own decision for method='auto' (private helper of scipy 1.10)."""
    try:
        from scipy.stats._mannwhitneyu import _mwu_choose_method
    except ImportError:
        return None
    xy = np.concatenate([a, b])
    return _mwu_choose_method(len(a), len(b), xy, "auto") == "exact"


def hodges_lehmann(a, b, confidences):
    n1, n2 = len(a), len(b)
    N = n1 * n2
    if N == 0 or N > MAX_PAIRS:
        return None
    d = np.subtract.outer(b, a).ravel()  # every b_j - a_i
    d.sort()
    shift = np.median(d)
    out = []
    for conf in confidences:
        k = hodges_lehmann_k(n1, n2, conf)
        if k is None:  # no interval of such small samples has the confidence
            out.append({"confidence": conf, "shift": shift, "ci_low": None, "ci_high": None, "k": None})
            continue
        # 1-based D_(k+1) and D_(N-k)
        out.append({"confidence": conf, "shift": shift, "ci_low": d[k], "ci_high": d[N - k - 1], "k": k})
    return out


def hodges_lehmann_k(n1, n2, conf):
    """The k of the interval [D_(k+1), D_(N-k)]: with a sample of <= 8, the largest k whose coverage
    1 - 2 P(U <= k) under scipy's own exact Mann-Whitney distribution is at least conf (None when even
    k = 0 falls short); else Moses' normal approximation."""
    N, alpha = n1 * n2, 1.0 - conf
    if min(n1, n2) <= 8:
        from scipy.stats._mannwhitneyu import _mwu_state  # the distribution scipy's exact test uses
        k = -1
        while k + 1 <= (N - 1) // 2 and 2 * _mwu_state.cdf(k + 1, n1, n2) <= alpha:
            k += 1
        return k if k >= 0 and 2 * _mwu_state.cdf(k, n1, n2) <= alpha else None
    z = stats.norm.ppf(1.0 - alpha / 2.0)
    k = math.floor(N / 2 - z * math.sqrt(N * (n1 + n2 + 1) / 12))
    return min(max(k, 0), (N - 1) // 2)


def cliffs_delta(a, b):
    N = len(a) * len(b)
    if N == 0 or N > MAX_PAIRS:
        return None
    d = np.subtract.outer(b, a)
    return (np.count_nonzero(d > 0) - np.count_nonzero(d < 0)) / N


def holm(p):
    """Holm step-down from its textbook definition: adj_(i) = min(1, max_{j<=i} (m-j+1) p_(j))."""
    p = list(p)
    valid = [i for i, v in enumerate(p) if not math.isnan(v)]
    m = len(valid)
    order = sorted(valid, key=lambda i: p[i])
    out = [float("nan")] * len(p)
    for pos, i in enumerate(order):
        candidates = [(m - j) * p[order[j]] for j in range(pos + 1)]  # j 0-based: factor m - j
        out[i] = min(1.0, max(candidates))
    return out


def holm_levels(p, alpha):
    """The level Holm's step-down tests each p at: walk up the sorted p-values, testing the k-th of m
    at alpha / (m - k + 1); at the first that is not below its level the procedure stops, and the
    rest are judged at that same level."""
    valid = sorted((v, i) for i, v in enumerate(p) if not math.isnan(v))
    m = len(valid)
    out = [float("nan")] * len(p)
    stop = None
    for k, (v, i) in enumerate(valid, start=1):
        level = stop if stop is not None else alpha / (m - k + 1)
        if stop is None and not v < level:
            stop = level
        out[i] = level
    return out


def interval_agrees(p, level, low, high):
    """The rule every table keeps: an interval beside a verdict excludes 0 exactly when p < level (a tie's
    interval, one timer step either way, is shown only where it does)."""
    return (p < level) == (low > 0 or high < 0)


def run_level(a, b, confidences):
    """Run-level test on per-run summaries: NaN entries are runs without samples and are dropped;
    a side with fewer than 2 runs, or a summary that is not positive and finite, gives no figures."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    a, b = a[~np.isnan(a)], b[~np.isnan(b)]
    nan = float("nan")
    out = {"runs_a": int(a.size), "runs_b": int(b.size), "p": nan, "change": nan, "rank_p": nan,
           "ci": [{"confidence": c, "low": nan, "high": nan} for c in confidences]}
    usable = all(np.all(np.isfinite(x) & (x > 0)) for x in (a, b))
    if a.size < 2 or b.size < 2 or not usable:
        return out
    la, lb = np.log(a), np.log(b)
    out["p"] = stats.ttest_ind(lb, la, equal_var=False).pvalue
    diff = lb.mean() - la.mean()
    out["change"] = math.expm1(diff)
    out["rank_p"] = stats.mannwhitneyu(a, b, alternative="two-sided", method="auto").pvalue
    if np.ptp(a) == 0 and np.ptp(b) == 0:
        # Each side one value (timer ticks): no spread for Welch. The exact permutation test of the
        # difference of means over every split, and the ratio read with each value off by one step
        # (1 ns, the test's resolution) either way.
        out["p"] = stats.permutation_test((b, a), lambda x, y: np.mean(x) - np.mean(y), vectorized=False,
                                          permutation_type="independent", n_resamples=np.inf,
                                          alternative="two-sided").pvalue
        for item in out["ci"]:
            item["low"] = (b[0] - 1) / (a[0] + 1) - 1
            item["high"] = (b[0] + 1) / (a[0] - 1) - 1
        return out
    va, vb = la.var(ddof=1) / a.size, lb.var(ddof=1) / b.size
    se = math.sqrt(va + vb)
    if se > 0:
        df = (va + vb) ** 2 / (va ** 2 / (a.size - 1) + vb ** 2 / (b.size - 1))
        for item in out["ci"]:
            tail = (1 - item["confidence"]) / 2
            q = stats.t.ppf(1 - tail, df)
            # scipy 1.10's t.ppf for fractional df (cdflib) is good to ~4e-9 only; two Newton steps on
            # t.sf, which is accurate to 1e-16, make it exact to double precision.
            for _ in range(2):
                q += (stats.t.sf(q, df) - tail) / stats.t.pdf(q, df)
            item["low"], item["high"] = math.expm1(diff - q * se), math.expm1(diff + q * se)
    return out


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    confidences = spec.get("confidences", [0.95])
    result = {"numpy": np.__version__, "scipy": scipy.__version__, "cases": [], "holm": []}
    warnings.simplefilter("ignore")
    for case in spec["cases"]:
        a = np.asarray(case["a"], dtype=np.float64)
        b = np.asarray(case["b"], dtype=np.float64)
        rs = stats.ranksums(a, b)
        mw = stats.mannwhitneyu(a, b, alternative="two-sided", method="auto")
        ma, mb = np.median(a), np.median(b)
        out = {
            "name": case["name"],
            "describe_a": describe(a),
            "describe_b": describe(b),
            "ranksums": {"z": rs.statistic, "p": rs.pvalue},
            "mannwhitneyu": {"u": mw.statistic, "p": mw.pvalue, "exact": mwu_method_chosen(a, b)},
            "hodges_lehmann": hodges_lehmann(a, b, confidences),
            "relative_median_change": (mb - ma) / ma if ma != 0 else float("nan"),
            "cliffs_delta": cliffs_delta(a, b),
        }
        if case.get("ranks"):
            out["ranks"] = stats.rankdata(np.concatenate([a, b])).tolist()
        result["cases"].append(out)
    for item in spec.get("holm", []):
        result["holm"].append({"name": item["name"], "adjusted": holm(item["p"]),
                               "levels": holm_levels(item["p"], 0.05)})
    result["runlevel"] = [dict(name=item["name"], **run_level(item["a"], item["b"], confidences))
                          for item in spec.get("runlevel", [])]
    json.dump(clean(result), sys.stdout)


if __name__ == "__main__":
    main()
