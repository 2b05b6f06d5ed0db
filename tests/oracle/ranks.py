#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent test oracle for `scopeline-cli ranks`: per GPU (rank) of a multi-GPU run, the step
figures with busy split into compute and exposed communication, the overlapped communication, and the
waits at collectives; computed from the raw trace events (trace_summary.py's parser, the steps and
the communication rule of step_breakdown.py), not from the C++ code.

Definitions
  Runs, ranks, steps, step figures and communication kernels: as step_breakdown.py defines them.
  Per rank, means over its steps: step, busy, compute, exposed_comm, idle; overlapped_comm = union of
  the step's communication kernels - exposed_comm; comm_kernels = communication kernels of the step.
  Collectives of a run of >= 2 ranks: each rank's communication kernels by name and step (the
  step's key: its number N of scope#N when every step of the rank has one, else the index of the
  rank's step holding it; or none) in start order (file order on ties); within a name and step, the
  k-th is one collective when every rank has as many of them there (none matched where the counts
  differ). Where a kernel's args give "Process Group Name" / "Process Group Ranks" ("[]": none), its
  name and group together take the place of its name, and the ranks of a group are the matched ranks
  its "Process Group Ranks" lists, where it lists them in full and lists every matched rank with a
  kernel of the group, else those with any kernel of that group: its k-th is one collective of those
  ranks alone, where they are two or more. Ranks without communication kernels are left out (matched among the rest, their waits
  None). arrival = kernel start; a rank's wait = the latest arrival - its own. Counted for a rank
  only where its kernel belongs to one of its steps: collective_wait_ns = the sum of its waits /
  the number of step keys every member rank has; arrived_last_share = (collectives where its arrival is the
  latest, 1/t where t ranks tie for it) / (its counted collectives). end spread = latest end -
  earliest end of a collective. None for every rank when no collective matched, or when the median
  end spread is over 100 us (clocks of different hosts: the waits would measure the clocks).
  Collective kinds (step_breakdown.collective_kind) of kernels in a step (a kind with none: no row), a
  kind in each process group its row (process_group = "<Process Group Name> <Process Group Ranks>", None
  where the args name none), per
  side over every rank of every run: per_step =
  mean over ranks of (its kernels of the kind in its steps / its steps); median_ns = median of all
  their durations; rank_median_min_ns / rank_median_max_ns = the least / greatest of the ranks'
  medians, longest_on the rank of the greatest, or the ranks that tie for it ("3, 6"; None without
  ranks). Where a kernel's args give "In msg nelems"/"Out msg nelems" and a known "dtype": bytes = the larger count x the dtype's size,
  algbw_gbps = the sum of bytes / the sum of durations over the kind's kernels with sizes (bytes per ns =
  GB/s: time-weighted, so that messages of two sizes give the bandwidth they moved at together, not a
  median between them), busbw_gbps the same of bytes x 2(n-1)/n (allreduce*), (n-1)/n (*allgather*,
  *reducescatter*, alltoall*: PyTorch's _allgather_base and *_coalesced too), 1 otherwise, n = "Group size".

Usage: ranks.py (--step SCOPE | --whole-run) SIDE [SIDE]. Prints one JSON document.
"""
import argparse
import json
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import step_breakdown as sb  # noqa: E402


def mean(xs):
    return float(sum(xs, Fraction(0)) / len(xs)) if xs else None


DTYPE_BYTES = {"Double": 8, "Long": 8, "ComplexFloat": 8, "Float": 4, "Int": 4, "Half": 2, "BFloat16": 2,
               "Short": 2, "Byte": 1, "Char": 1, "Bool": 1, "Float8_e4m3fn": 1, "Float8_e5m2": 1,
               "Float8_e4m3fnuz": 1, "Float8_e5m2fnuz": 1}


def message(kernel, kind):
    """(bytes, bus factor) of a communication kernel whose args give its message, else (None, None); the
    factor None where its group's size is needed and not given."""
    a = kernel.get("args") or {}
    count = max(int(a.get("In msg nelems", 0) or 0), int(a.get("Out msg nelems", 0) or 0))
    size = DTYPE_BYTES.get(a.get("dtype"), 0)
    if count <= 0 or size <= 0 or kernel["dur"] <= 0:
        return None, None
    key = kind.lower().replace("_", "").replace("-", "")
    n = int(a.get("Group size", 0) or 0)
    # PyTorch's variants too: allreduce_coalesced, _allgather_base, reduce_scatter_tensor_coalesced
    if key.startswith("allreduce"):
        factor = 2 * (n - 1) / n if n > 0 else None
    elif "allgather" in key or "reducescatter" in key or key.startswith("alltoall"):
        factor = (n - 1) / n if n > 0 else None
    else:
        factor = 1
    return count * size, factor


def process_group(kernel):
    """A communication kernel's process group from its args, None when they name none."""
    a = kernel.get("args") or {}
    name, ranks = a.get("Process Group Name", ""), a.get("Process Group Ranks", "")
    if ranks == "[]":
        ranks = ""
    return (str(name), str(ranks)) if name or ranks else None


def listed_ranks(group):
    """The ranks a group's "Process Group Ranks" lists in full: "[0, 1, 2]" (blanks around a number
    allowed), else None (none listed, "[0, 1, ..., 29, ...]" cut short, an empty item, a number no
    32-bit int holds)."""
    if group is None:
        return None
    text = group[1].strip()
    if not (text.startswith("[") and text.endswith("]")) or "[" in text[1:]:
        return None
    ranks = set()
    for item in text[1:-1].split(","):
        try:
            rank = int(item.strip())
        except ValueError:
            return None
        if not -2**31 <= rank < 2**31:
            return None
        ranks.add(rank)
    return ranks or None


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def side_rows(side, path, scope):
    rows, runs, kinds = [], [], {}
    groups = []
    for name, _, file, rank in sb.side_runs(path):
        if rank is not None and groups and groups[-1][0] == name and groups[-1][1][0][1] is not None:
            groups[-1][1].append((file, rank))
        else:
            groups.append((name, [(file, rank)]))
    for name, files in groups:
        ranks = []
        for file, rank in files:
            steps, _, kernels = sb.analyse_run(file, scope, keep_kernels=True)
            n = len(steps)
            row = dict(side=side, run=name, rank=rank, steps=n)
            for key, field in (("step_ns", "step"), ("busy_ns", "busy"), ("compute_ns", "compute"),
                               ("exposed_comm_ns", "exposed_comm"), ("idle_ns", "idle")):
                row[key] = mean([s[field] for s in steps])
            row["overlapped_comm_ns"] = mean([
                sb.union_length([k for k in s["members"] if sb.is_communication(k)]) - s["exposed_comm"]
                for s in steps])
            row["comm_kernels"] = mean([s["comm_kernels"] for s in steps])
            # kernels no launch call in the file launched, started while a step ran (its range, or later
            # while its kernels ran), per step: in no step
            _, launches, graph, _ = sb.ts.chrome_events(sb.ts.read_trace(file))
            launched = {c["corr"] for c in launches + graph if c["corr"] is not None}
            during = [(s["start"], max([s["end"]] + [k["start"] + k["dur"] for k in s["members"]])) for s in steps]
            row["unlaunched_ns"] = (sum(k["dur"] for k in kernels if k["corr"] not in launched
                                        and any(a <= k["start"] < b for a, b in during)) / n) if n else 0
            numbered = all(s["number"] is not None for s in steps)
            keys = [s["number"] if numbered else i for i, s in enumerate(steps)]
            in_step = {id(k): keys[i] for i, s in enumerate(steps) for k in s["members"]}
            counts = {}
            for k in kernels:
                if sb.is_communication(k):
                    group = process_group(k)
                    key = (sb.collective_kind(k), " ".join(group) if group else "")
                    kind = kinds.setdefault(key, dict(per_step=[], durations={}, alg=[0, 0], bus=[0, 0]))
                    counts[key] = counts.get(key, 0) + (id(k) in in_step)
                    if id(k) not in in_step:  # a kind's figures are of its kernels in the steps
                        continue
                    kind["durations"].setdefault((name, rank), []).append(k["dur"])
                    size, factor = message(k, sb.collective_kind(k))  # [bytes, ns] summed
                    if size is not None:
                        kind["alg"] = [kind["alg"][0] + size, kind["alg"][1] + k["dur"]]
                    if factor is not None:
                        kind["bus"] = [kind["bus"][0] + size * factor, kind["bus"][1] + k["dur"]]
            if n:
                for kind, c in counts.items():
                    kinds[kind]["per_step"].append(c / n)
            comm = {}
            for k in sorted(kernels, key=lambda k: k["start"]):
                if sb.is_communication(k):
                    comm.setdefault((k["name"], process_group(k), in_step.get(id(k))), []).append(k)
            ranks.append((row, comm, in_step))
            rows.append(row)
        for row, _, _ in ranks:
            row.update(collective_wait_ns=None, arrived_last_share=None)
        members = [r for r, (_, comm, _) in enumerate(ranks) if comm]  # ranks with communication kernels
        if len(members) < 2:
            continue
        waits, last, counted, spreads = [0] * len(ranks), [0] * len(ranks), [0] * len(ranks), []
        names = set().union(*(ranks[r][1].keys() for r in members))
        for kname in names:
            group = kname[1]
            takers = [r for r in members if group is None or any(key[1] == group for key in ranks[r][1])]
            listed = listed_ranks(group)
            if listed is not None and all(ranks[r][0]["rank"] in listed for r in takers):
                takers = [r for r in members if ranks[r][0]["rank"] in listed]
            counts = {len(ranks[r][1].get(kname, [])) for r in takers}
            matched = counts.pop() if len(counts) == 1 and len(takers) >= 2 else 0
            for k in range(matched):
                ks = [(r, ranks[r][1][kname][k]) for r in takers]
                latest = max(x["start"] for _, x in ks)
                tied = sum(x["start"] == latest for _, x in ks)
                ends = [x["start"] + x["dur"] for _, x in ks]
                spreads.append(max(ends) - min(ends))
                for r, x in ks:
                    if id(x) in ranks[r][2]:
                        waits[r] += latest - x["start"]
                        last[r] += (x["start"] == latest) / tied
                        counted[r] += 1
        if not spreads or median(spreads) > 100e3:  # nothing matched, or clocks that disagree
            continue
        shared = set.intersection(*(set(ranks[r][2].values()) for r in members))
        for r in members:
            row = ranks[r][0]
            row["collective_wait_ns"] = waits[r] / len(shared) if shared else None
            row["arrived_last_share"] = last[r] / counted[r] if counted[r] else None
        runs.append(dict(side=side, run=name, ranks=len(ranks), max_end_spread_ns=max(spreads) if spreads else None))
    kind_rows = []
    for kind in sorted(kinds):
        k = kinds[kind]
        if not k["durations"]:  # none in a step
            continue
        medians = [(median(d), key[1]) for key, d in k["durations"].items()]
        longest = max(m[0] for m in medians)
        longest_on = sorted({m[1] for m in medians if m[0] == longest and m[1] is not None and m[1] >= 0})
        kind_rows.append(dict(side=side, collective=kind[0], process_group=kind[1] or None,
                              per_step=sum(k["per_step"]) / len(k["per_step"]) if k["per_step"] else None,
                              median_ns=median([d for ds in k["durations"].values() for d in ds]),
                              rank_median_min_ns=min(m[0] for m in medians), rank_median_max_ns=longest,
                              longest_on=", ".join(map(str, longest_on)) or None,
                              algbw_gbps=k["alg"][0] / k["alg"][1] if k["alg"][1] else None,
                              busbw_gbps=k["bus"][0] / k["bus"][1] if k["bus"][1] else None))
    return rows, runs, kind_rows


def main(argv):
    ap = argparse.ArgumentParser(description="ranks oracle")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--step")
    g.add_argument("--whole-run", action="store_true")
    ap.add_argument("sides", nargs="+")
    args = ap.parse_args(argv[1:])
    scope = None if args.whole_run else args.step
    rows, runs, kinds = [], [], []
    for side, path in zip("AB", args.sides):
        r, c, k = side_rows(side, path, scope)
        rows += r
        runs += c
        kinds += k
    print(json.dumps(dict(rows=rows, runs=runs, collectives=kinds), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
