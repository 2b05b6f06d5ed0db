#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent test oracle for the launch args a kernel's details show (grid, block or workgroup,
registers, shared/LDS and scratch memory), read straight from the profiler's own file:

- an Nsight Systems SQLite export: CUPTI_ACTIVITY_KIND_KERNEL's gridX..Z, blockX..Z,
  registersPerThread, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread;
- a rocprofv3 rocpd database: rocpd_kernel_dispatch's grid_size_*, workgroup_size_*,
  group_segment_size, private_segment_size (NULL: no such arg);
- a rocprofv3 JSON (results.json[.gz]): buffer_records.kernel_dispatch[].dispatch_info's grid_size,
  workgroup_size, group_segment_size, private_segment_size, and its kernel symbol's arch_vgpr_count,
  accum_vgpr_count and sgpr_count.

Prints a JSON list with one line per kernel, "name=value;..." in the order above, sorted: the
multiset of what the kernels' details must show. Written from the schemas, not from the C++ readers.
usage: launch_args.py FILE
"""
import gzip
import json
import sqlite3
import sys


def triple(values):
    return None if any(v is None for v in values) else "[%d, %d, %d]" % tuple(values)


def line(pairs):
    return ";".join("%s=%s" % (k, v) for k, v in pairs if v is not None)


def nsys(db):
    cols = {r[1] for r in db.execute("PRAGMA table_info(CUPTI_ACTIVITY_KIND_KERNEL)")}
    rows = db.execute("SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL")
    names = [d[0] for d in rows.description]
    out = []
    for row in rows:
        r = dict(zip(names, row))
        pairs = [("grid", triple([r.get(c) for c in ("gridX", "gridY", "gridZ")]) if "gridX" in cols else None),
                 ("block", triple([r.get(c) for c in ("blockX", "blockY", "blockZ")]) if "blockX" in cols else None)]
        for arg, c in (("registers per thread", "registersPerThread"), ("static shared memory", "staticSharedMemory"),
                       ("dynamic shared memory", "dynamicSharedMemory"),
                       ("local memory per thread", "localMemoryPerThread")):
            pairs.append((arg, r.get(c)))
        out.append(line(pairs))
    return out


def rocpd(db):
    rows = db.execute("SELECT * FROM rocpd_kernel_dispatch")
    names = [d[0] for d in rows.description]
    out = []
    for row in rows:
        r = dict(zip(names, row))
        out.append(line([("grid_size", triple([r.get("grid_size_" + a) for a in "xyz"])),
                         ("workgroup_size", triple([r.get("workgroup_size_" + a) for a in "xyz"])),
                         ("group_segment_size", r.get("group_segment_size")),
                         ("private_segment_size", r.get("private_segment_size"))]))
    return out


def rocprof_json(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        tool = json.load(f)["rocprofiler-sdk-tool"][0]
    symbols = {s["kernel_id"]: s for s in tool.get("kernel_symbols", [])}
    out = []
    for d in tool["buffer_records"]["kernel_dispatch"]:
        info = d["dispatch_info"]
        pairs = [("grid_size", triple([info["grid_size"][a] for a in "xyz"])),
                 ("workgroup_size", triple([info["workgroup_size"][a] for a in "xyz"])),
                 ("group_segment_size", info.get("group_segment_size")),
                 ("private_segment_size", info.get("private_segment_size"))]
        symbol = symbols.get(info["kernel_id"], {})
        for key in ("arch_vgpr_count", "accum_vgpr_count", "sgpr_count"):
            pairs.append((key, symbol.get(key)))
        out.append(line(pairs))
    return out


def main():
    path = sys.argv[1]
    if path.endswith(".json") or path.endswith(".json.gz"):
        lines = rocprof_json(path)
    else:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        lines = rocpd(db) if "rocpd_kernel_dispatch" in tables else nsys(db)
    print(json.dumps(sorted(lines)))


if __name__ == "__main__":
    main()
