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
import itertools
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


def mwu_smallest_p(a, b):
    """scipy's p with the same values moved so that every one of A lies below every one of B: the smallest
    p the test can give these values, unless a group of ties would straddle the two (then it is a bound)."""
    a, b = a[~np.isnan(a)], b[~np.isnan(b)]
    if len(a) == 0 or len(b) == 0:
        return {"min_p": float("nan"), "min_p_straddles": False}
    pooled = np.sort(np.concatenate([a, b]))
    m = len(a)
    p = stats.mannwhitneyu(pooled[:m], pooled[m:], alternative="two-sided", method="auto").pvalue
    return {"min_p": p, "min_p_straddles": bool(pooled[m - 1] == pooled[m])}


def hodges_lehmann(a, b, confidences, levels=None):
    """The median of every difference b_j - a_i, and per confidence the interval of shifts d that
    scipy's own Mann-Whitney test (method='auto') of a against b - d does not reject at 1 - confidence:
    the test is run at a shift inside each gap between distinct differences (every gap when there are
    up to 2000, else a bisection on each side of the median). Both ends None when a kept gap is
    unbounded (no interval has the confidence); both the shift when no gap is kept (the differences
    around the median are all one value). levels: the tests' levels themselves, where 1 - confidence
    would round (Holm's 0.05 / 3)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.size * b.size == 0 or a.size * b.size > MAX_PAIRS:
        return None
    d = np.sort(np.subtract.outer(b, a).ravel())
    shift = np.median(d)
    u = np.unique(d)

    def p_gap(g):  # gap g lies between u[g-1] and u[g]; the outer gaps are unbounded
        lo = u[g - 1] if g > 0 else u[0] - 1.0
        hi = u[g] if g < u.size else u[-1] + 1.0
        return stats.mannwhitneyu(a, b - (lo + hi) / 2, alternative="two-sided", method="auto").pvalue

    everyP = [p_gap(g) for g in range(u.size + 1)] if u.size <= 2000 else None
    out = []
    for conf, level in zip(confidences, levels or [1.0 - conf for conf in confidences]):
        if everyP is not None:
            kept = [g for g, p in enumerate(everyP) if p >= level]
            if not kept:  # every difference near the middle is one value: the shift's, the interval's ends
                out.append({"confidence": conf, "shift": shift, "ci_low": shift, "ci_high": shift})
                continue
            assert kept == list(range(kept[0], kept[-1] + 1)), "kept gaps not contiguous"
            first, last = kept[0], kept[-1]
        else:
            middle = int(np.searchsorted(u, shift, side="right"))
            assert p_gap(middle) >= level
            lo, hi = 0, middle  # first kept gap
            while lo < hi:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if p_gap(mid) >= level else (mid + 1, hi)
            first = lo
            lo, hi = middle, u.size  # last kept gap
            while lo < hi:
                mid = (lo + hi + 1) // 2
                lo, hi = (mid, hi) if p_gap(mid) >= level else (lo, mid - 1)
            last = lo
        if first == 0 or last == u.size:
            out.append({"confidence": conf, "shift": shift, "ci_low": None, "ci_high": None})
        else:
            out.append({"confidence": conf, "shift": shift, "ci_low": u[first - 1], "ci_high": u[last]})
    return out


def cliffs_delta(a, b):
    N = len(a) * len(b)
    if N == 0 or N > MAX_PAIRS:
        return None
    d = np.subtract.outer(b, a)
    return (np.count_nonzero(d > 0) - np.count_nonzero(d < 0)) / N


KRUSKAL_EXACT_SPLITS = 10**6  # the rules stats::kruskalWallis states for how it finds p
KRUSKAL_EXACT_VALUES = 64
KRUSKAL_LARGE_GROUP = 5
KRUSKAL_PERMUTED_VALUES = 256
KRUSKAL_ORACLE_DRAWS = 10**6


def kruskal(groups, with_smallest=False):
    """Kruskal-Wallis (H, p, method) across non-empty groups: H as scipy.stats.kruskal; p by brute force
    over every split of the pooled values' ranks into groups of these sizes (the share whose H is at
    least the observed, each split's H from its rank sums) where there are at most KRUSKAL_EXACT_SPLITS
    splits of at most KRUSKAL_EXACT_VALUES values ("exact"); else, with a group under
    KRUSKAL_LARGE_GROUP values, the same share over a million random splits of numpy's own generator,
    close to (not equal to) the program's seeded 100 000 ("permutation"); else scipy's p
    ("chi-squared"). with_smallest adds the smallest p there is, by brute force the share of the splits
    whose H is the greatest ("exact" only; else None)."""
    observed = stats.kruskal(*groups)
    sizes = [len(g) for g in groups]
    n = sum(sizes)
    ranks = stats.rankdata([x for g in groups for x in g])
    total, constant = n * (n + 1) / 12.0, 3.0 * (n + 1)
    ties = 1 - sum(t ** 3 - t for t in np.unique(ranks, return_counts=True)[1]) / (n ** 3 - n)
    least = observed.statistic * (1 - 1e-9)
    ways = math.factorial(n) // math.prod(math.factorial(k) for k in sizes)
    if n <= KRUSKAL_EXACT_VALUES and ways <= KRUSKAL_EXACT_SPLITS:
        def statistic(split):
            return (sum(ranks[list(idx)].sum() ** 2 / len(idx) for idx in split) / total - constant) / ties

        def splits(left, sizes):
            if not sizes:
                yield []
                return
            for first in itertools.combinations(left, sizes[0]):
                rest = [i for i in left if i not in first]
                for more in splits(rest, sizes[1:]):
                    yield [first] + more

        h = [statistic(split) for split in splits(list(range(n)), sizes)]
        at = sum(v >= least for v in h)
        result = float(observed.statistic), at / ways, "exact"
        greatest = max(h) * (1 - 1e-9)
        return result + (sum(v >= greatest for v in h) / ways,) if with_smallest else result
    if min(sizes) < KRUSKAL_LARGE_GROUP and n <= KRUSKAL_PERMUTED_VALUES:
        rng = np.random.default_rng(0)
        shuffled = rng.permuted(np.tile(ranks, (KRUSKAL_ORACLE_DRAWS, 1)), axis=1)
        bounds = np.cumsum([0] + sizes)
        sums = np.stack([shuffled[:, lo:hi].sum(axis=1) for lo, hi in zip(bounds[:-1], bounds[1:])], axis=1)
        h = ((sums ** 2 / np.array(sizes)).sum(axis=1) / total - constant) / ties
        result = float(observed.statistic), float(np.mean(h >= least)), "permutation"
    else:
        result = float(observed.statistic), float(observed.pvalue), "chi-squared"
    return result + (None,) if with_smallest else result


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
    at alpha / (m - k + 1), k counting a tie as one rank, its lowest (1 + how many p are smaller), so
    equal p get equal levels; at the first that is not below its level the procedure stops, and the
    rest are judged at that same level."""
    valid = sorted((v, i) for i, v in enumerate(p) if not math.isnan(v))
    m = len(valid)
    out = [float("nan")] * len(p)
    stop = None
    for v, i in valid:
        k = 1 + sum(1 for w, _ in valid if w < v)
        level = stop if stop is not None else alpha / (m - k + 1)
        if stop is None and not v < level:
            stop = level
        out[i] = level
    return out


def interval_agrees(p, level, low, high):
    """The rule every table keeps: an interval beside a verdict excludes 0 exactly when p < level."""
    return (p < level) == (low > 0 or high < 0)


def timer_tick(durations):
    """The step a timer measured these durations (whole ns) in: their GCD, or, where durations were
    rounded to whole ns after the tick (JAX on H100: 32 ns, 1 ns either way, a GCD of 1), the largest step
    of 16 ns or more that every duration lies within 1 ns of a multiple of, with 16 durations or more of
    at least 16 ns to tell it from chance. Searched step by step up to 2**16 ns; at least 1."""
    values = np.unique(np.abs(np.asarray(durations, dtype=np.int64)))
    gcd = int(np.gcd.reduce(values)) if values.size else 0
    telling = sum(1 for d in durations if abs(int(d)) >= 16)
    if gcd >= 16 or telling < 16:
        return max(gcd, 1)
    for step in range(1 << 16, 15, -1):
        rest = values % step
        if np.all((rest <= 1) | (rest >= step - 1)):
            return max(gcd, step)
    return max(gcd, 1)


def welch_at_resolution(a, b, resolution_a=1.0, resolution_b=None):
    """Welch's test of mean(b) - mean(a) (scipy.stats.ttest_ind_from_stats) with each side's sample
    variance taken as at least resolution^2 / 12, the variance of rounding to the timer's step: so that
    sides whose values all repeat one (timer ticks) are judged with that least spread.
    Returns (delta, p, df, se)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    rb = resolution_a if resolution_b is None else resolution_b
    va = max(float(a.var(ddof=1)), resolution_a ** 2 / 12)
    vb = max(float(b.var(ddof=1)), rb ** 2 / 12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        p = float(stats.ttest_ind_from_stats(b.mean(), math.sqrt(vb), b.size, a.mean(), math.sqrt(va), a.size,
                                             equal_var=False).pvalue)
    qa, qb = va / a.size, vb / b.size
    df = (qa + qb) ** 2 / (qa ** 2 / (a.size - 1) + qb ** 2 / (b.size - 1))
    return float(b.mean() - a.mean()), p, df, math.sqrt(qa + qb)


def run_level(a, b, confidences, resolution=1.0):
    """Run-level test on per-run summaries: NaN entries are runs without samples and are dropped;
    a side with fewer than 2 runs, or a summary that is not positive and finite, gives no figures.
    resolution: the timer's step (ns) the summaries are known to."""
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
    # a summary v known to the timer's step r has its log known to r / v: each side's at its geometric mean
    diff, out["p"], df, se = welch_at_resolution(la, lb, resolution / math.exp(la.mean()),
                                                 resolution / math.exp(lb.mean()))
    out["change"] = math.expm1(diff)
    out["rank_p"] = stats.mannwhitneyu(a, b, alternative="two-sided", method="auto").pvalue
    if se > 0:
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
            "mannwhitneyu": {"u": mw.statistic, "p": mw.pvalue, "exact": mwu_method_chosen(a, b),
                             **mwu_smallest_p(a, b)},
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
