#!/usr/bin/python3
"""Independent oracle for annotation scopes: for a Kineto or JAX trace, counts per annotation name
the kernels that ran inside a GPU annotation (gpu_user_annotation, same pid/tid, kernel start in
[start, end)) or whose launch ran inside a CPU annotation (user_annotation, or in JAX the call of a
jitted function "PjitFunction(f)"; same pid/tid as the launch, launch start in [start, end));
launch <-> kernel by args.correlation (JAX: args.correlation_id). Prints {"name": kernels}.
Usage: annotation_scopes.py TRACE.json[.gz]"""
import gzip
import json
import sys
from decimal import Decimal, ROUND_HALF_UP

GRAPH = ("cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch")


def ns(v):
    return int((Decimal(str(v).strip()) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def key(e):
    def norm(v):
        s = str(v).strip()
        return str(int(s)) if s.lstrip("-").isdigit() else s
    return norm(e.get("pid")), norm(e.get("tid", 0))


def main(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        events = [e for e in json.load(f)["traceEvents"] if isinstance(e, dict) and e.get("ph") == "X"]
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
    for k in kernels:
        names = {a["name"] for a in gpu_ann if inside(a, k)}
        launch = launches.get(corr(k))
        if launch is not None:
            names |= {a["name"] for a in cpu_ann if inside(a, launch)}
        for n in names:
            counts[n] = counts.get(n, 0) + 1
    print(json.dumps(counts, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
