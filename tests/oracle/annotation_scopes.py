#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent oracle for annotation scopes: for a Kineto or JAX trace, counts per annotation name
the kernels that ran inside a GPU annotation (gpu_user_annotation, same pid/tid, kernel start in
[start, end)) or whose launch ran inside a CPU annotation (user_annotation, or in JAX the call of a
jitted function "PjitFunction(f)"; same pid/tid as the launch, launch start in [start, end));
launch <-> kernel by args.correlation (JAX: args.correlation_id). Prints {"name": kernels}.
Step annotations `<name>#<digits>` (PyTorch "ProfilerStep#15") count under `<name>`.
With --steps, prints per step scope and step text the kernels of that step instance (a kernel belongs
to the step of the CPU range around its launch, else to the one of the GPU range around it), their
summed duration, their wall span (first start to last end) and the CPU range's duration, all in ns:
{"ProfilerStep": {"ProfilerStep#15": {"kernels": n, "sum": ns, "span": ns, "range": ns}}}.
Usage: annotation_scopes.py [--steps] TRACE.json[.gz]"""
import gzip
import json
import re
import sys
from decimal import Decimal, ROUND_HALF_UP

GRAPH = ("cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch")


def ns(v):
    return int((Decimal(str(v).strip()) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def step_base(name):
    m = re.fullmatch(r"(.+)#([0-9]+)", name, re.S)
    return m.group(1) if m else None


def key(e):
    def norm(v):
        s = str(v).strip()
        return str(int(s)) if s.lstrip("-").isdigit() else s
    return norm(e.get("pid")), norm(e.get("tid", 0))


def main(path, steps=False):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        # exact decimals: epoch-based µs with 3 decimals lose ns in a double
        events = [e for e in json.load(f, parse_float=Decimal)["traceEvents"]
                  if isinstance(e, dict) and e.get("ph") == "X"]
    # JAX writes no categories: its kernels are the events of the "/device:GPU:N" processes.
    with opener(path, "rt") as f:
        jax_gpu = {str(e.get("pid")) for e in json.load(f)["traceEvents"] if isinstance(e, dict)
                   and e.get("ph") == "M" and e.get("name") == "process_name"
                   and str(e.get("args", {}).get("name", "")).startswith("/device:GPU")}

    def corr(e):
        args = e.get("args", {})
        return args.get("correlation", args.get("correlation_id"))

    def is_jax_host(e):
        return "cat" not in e and str(e.get("pid")) not in jax_gpu

    kernels = [e for e in events if e.get("cat") == "kernel" or str(e.get("pid")) in jax_gpu]
    kernel_corr = {corr(e) for e in kernels if corr(e) is not None}
    # Launches: runtime calls sharing a correlation id with a kernel (kernel launches and graph launches).
    launches = {}
    for e in events:
        c = corr(e)
        if (e.get("cat") in ("cuda_runtime", "cuda_driver") or is_jax_host(e)) and c in kernel_corr:
            if c not in launches or ns(e["ts"]) < ns(launches[c]["ts"]):
                launches[c] = e
    cpu_ann = [e for e in events if e.get("cat") == "user_annotation" or
               (is_jax_host(e) and e["name"].startswith("PjitFunction(") and e["name"].endswith(")"))]
    gpu_ann = [e for e in events if e.get("cat") == "gpu_user_annotation"]

    def inside(ann, e):
        return key(ann) == key(e) and ns(ann["ts"]) <= ns(e["ts"]) < ns(ann["ts"]) + ns(ann.get("dur", 0))

    counts = {}
    instances = {}  # step base -> step text -> [kernels, sum, first start, last end]
    for k in kernels:
        gpu = [a for a in gpu_ann if inside(a, k)]
        launch = launches.get(corr(k))
        cpu = [a for a in cpu_ann if inside(a, launch)] if launch is not None else []
        names = {step_base(a["name"]) or a["name"] for a in gpu + cpu}
        for n in names:
            counts[n] = counts.get(n, 0) + 1
        step = {}
        for a in gpu + cpu:  # later wins: the CPU range the user wrote over its GPU mirror
            if step_base(a["name"]):
                step[step_base(a["name"])] = a["name"]
        for base, text in step.items():
            i = instances.setdefault(base, {}).setdefault(text, [0, 0, None, None])
            start, end = ns(k["ts"]), ns(k["ts"]) + ns(k.get("dur", 0))
            i[0] += 1
            i[1] += end - start
            i[2] = start if i[2] is None else min(i[2], start)
            i[3] = end if i[3] is None else max(i[3], end)
    if not steps:
        print(json.dumps(counts, sort_keys=True))
        return
    ranges = {a["name"]: ns(a.get("dur", 0)) for a in cpu_ann if step_base(a["name"])}
    print(json.dumps({base: {text: {"kernels": i[0], "sum": i[1], "span": i[3] - i[2],
                                    "range": ranges.get(text, -1)}
                             for text, i in per.items()}
                      for base, per in instances.items()}, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[-1], "--steps" in sys.argv[1:-1])
