#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Makes the small SQLite test databases in tests/data/converted/ from real recorded traces.

No rocpd (ROCm 7 rocprofv3) or Nsight Systems SQLite export with a license that allows shipping it is
known, so these are converted, not recorded: the tables and columns follow the public schemas
(ROCm/rocprofiler-sdk source/share/rocprofiler-sdk-rocpd/*.sql, MIT; the `nsys export --type sqlite`
schema NVIDIA documents), the rows are real events of the public traces in tests/data/public/TraceLens.

  converted/rocpd/908_results.db        the first 1,500 kernel dispatches of rocprofv3's own JSON
                                        (tests__rocprof__908_results.json.gz; it holds no API records)
  converted/rocpd/19_results.db         a vLLM decode step on MI300 (Kineto trace
                                        ..._graph_execution.json.gz): HIP API calls with hipGraphLaunch,
                                        kernels, copies, the user annotation as a roctx range; its
                                        clock moved to start with the 908 process (one run)
  converted/nsys_bert_h100.sqlite       the H100 BERT Kineto trace (..._bert-small-uncased__1016001):
                                        kernels, runtime and driver calls, the memcpy, memsets, the user
                                        annotation as an NVTX push/pop range, thread names

The two rocpd databases sit in one folder as the per-process files of one rocprofv3 run do.
Deterministic: the same input gives byte-identical output. Usage: make_sqlite_fixtures.py [OUT_DIR]
"""
import gzip
import json
import os
import sqlite3
import sys
from decimal import Decimal, ROUND_HALF_UP

HERE = os.path.dirname(os.path.abspath(__file__))
PUBLIC = os.path.join(HERE, "public", "TraceLens")
ROCPROF_JSON = os.path.join(PUBLIC, "tests__rocprof__908_results.json.gz")
VLLM_TRACE = os.path.join(PUBLIC, "tests__traces__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz")
BERT_TRACE = os.path.join(PUBLIC, "tests__traces__h100__gaunernst_bert-small-uncased__1016001.json.gz")
MAX_DISPATCHES = 1500
ROCPD_RUN_START = 63857982592000  # ns: the first dispatch of tests__rocprof__908_results.json.gz


def ns(us):
    """Kineto µs (float in the file, read as Decimal) -> integer ns, half away from zero."""
    return int((Decimal(us) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def load(path):
    with gzip.open(path, "rb") as f:
        return json.loads(f.read(), parse_float=Decimal)


def new_db(path):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 4096")
    return db


# ---------------------------------------------------------------------------------------------- rocpd
# The rocpd tables carry a per-database suffix (`{{uuid}}` in the schema) and are read through views
# of the plain names, as rocprofv3 writes them. Only the tables Scopeline reads are made.
ROCPD_UUID = "_00000000_0000_0000_0000_000000000000"
ROCPD_TABLES = {
    "rocpd_metadata": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "tag" TEXT NOT NULL, "value" TEXT NOT NULL',
    "rocpd_string": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "string" TEXT NOT NULL UNIQUE',
    "rocpd_info_node": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "hash" BIGINT NOT NULL, '
                       '"machine_id" TEXT NOT NULL, "hostname" TEXT',
    "rocpd_info_process": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                          '"ppid" INTEGER, "pid" INTEGER NOT NULL, "name" TEXT, "init" BIGINT, "fini" BIGINT, '
                          '"start" BIGINT, "end" BIGINT, "command" TEXT',
    "rocpd_info_thread": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                         '"ppid" INTEGER, "pid" INTEGER NOT NULL, "tid" INTEGER NOT NULL, "name" TEXT, '
                         '"start" BIGINT, "end" BIGINT',
    "rocpd_info_agent": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                        '"pid" INTEGER NOT NULL, "type" TEXT, "absolute_index" INTEGER, "logical_index" INTEGER, '
                        '"type_index" INTEGER, "name" TEXT, "product_name" TEXT',
    "rocpd_info_queue": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                        '"pid" INTEGER NOT NULL, "name" TEXT',
    "rocpd_info_stream": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                         '"pid" INTEGER NOT NULL, "name" TEXT',
    "rocpd_info_kernel_symbol": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, '
                                '"nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "code_object_id" INTEGER NOT NULL, '
                                '"kernel_name" TEXT, "display_name" TEXT',
    "rocpd_event": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "category_id" INTEGER, '
                   '"stack_id" INTEGER, "parent_stack_id" INTEGER, "correlation_id" INTEGER',
    "rocpd_region": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                    '"pid" INTEGER NOT NULL, "tid" INTEGER NOT NULL, "start" BIGINT NOT NULL, "end" BIGINT NOT NULL, '
                    '"name_id" INTEGER NOT NULL, "event_id" INTEGER',
    "rocpd_kernel_dispatch": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                             '"pid" INTEGER NOT NULL, "tid" INTEGER, "agent_id" INTEGER NOT NULL, '
                             '"kernel_id" INTEGER NOT NULL, "dispatch_id" INTEGER NOT NULL, '
                             '"queue_id" INTEGER NOT NULL, "stream_id" INTEGER NOT NULL, "start" BIGINT NOT NULL, '
                             '"end" BIGINT NOT NULL, "workgroup_size_x" INTEGER NOT NULL, '
                             '"workgroup_size_y" INTEGER NOT NULL, "workgroup_size_z" INTEGER NOT NULL, '
                             '"grid_size_x" INTEGER NOT NULL, "grid_size_y" INTEGER NOT NULL, '
                             '"grid_size_z" INTEGER NOT NULL, "region_name_id" INTEGER, "event_id" INTEGER',
    "rocpd_memory_copy": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                         '"pid" INTEGER NOT NULL, "tid" INTEGER, "start" BIGINT NOT NULL, "end" BIGINT NOT NULL, '
                         '"name_id" INTEGER NOT NULL, "dst_agent_id" INTEGER, "src_agent_id" INTEGER, '
                         '"size" INTEGER NOT NULL, "queue_id" INTEGER, "stream_id" INTEGER, "event_id" INTEGER',
}


class Rocpd:
    """Writes one rocpd database; ids of the info tables deliberately differ from the OS ids they hold."""

    def __init__(self, path, guid):
        self.db = new_db(path)
        self.guid = guid
        for table, columns in ROCPD_TABLES.items():
            self.db.execute(f'CREATE TABLE "{table}{ROCPD_UUID}" ({columns})')
            self.db.execute(f'CREATE VIEW "{table}" AS SELECT * FROM "{table}{ROCPD_UUID}"')
        self.db.executemany(f'INSERT INTO "rocpd_metadata{ROCPD_UUID}" (tag, value) VALUES (?, ?)',
                            [("schema_version", "3"), ("uuid", ROCPD_UUID), ("guid", guid)])
        self.strings = {}
        self.next_event = 1

    def insert(self, table, **values):
        values.setdefault("guid", self.guid) if table != "rocpd_metadata" else None
        keys = ", ".join(f'"{k}"' for k in values)
        marks = ", ".join("?" for _ in values)
        cur = self.db.execute(f'INSERT INTO "{table}{ROCPD_UUID}" ({keys}) VALUES ({marks})', list(values.values()))
        return cur.lastrowid

    def string(self, text):
        if text not in self.strings:
            self.strings[text] = self.insert("rocpd_string", string=text)
        return self.strings[text]

    def event(self, category, correlation):
        return self.insert("rocpd_event", category_id=self.string(category), correlation_id=correlation)

    def close(self):
        self.db.commit()
        self.db.execute("VACUUM")
        self.db.close()


def make_rocpd_from_rocprofv3(path):
    tool = load(ROCPROF_JSON)["rocprofiler-sdk-tool"][0]
    meta = tool["metadata"]
    out = Rocpd(path, "908-guid")
    node = out.insert("rocpd_info_node", hash=0, machine_id=meta["node"]["machine_id"],
                      hostname=meta["node"]["hostname"])
    proc = out.insert("rocpd_info_process", nid=node, pid=int(meta["pid"]), init=int(meta["init_time"]),
                      fini=int(meta["fini_time"]), command=" ".join(meta["command"]))
    dispatches = tool["buffer_records"]["kernel_dispatch"][:MAX_DISPATCHES]
    threads = {}
    for tid in sorted({int(r["thread_id"]) for r in dispatches}):
        threads[tid] = out.insert("rocpd_info_thread", nid=node, pid=proc, tid=tid)
    agents = {}
    for a in tool["agents"]:
        agents[int(a["id"]["handle"])] = out.insert(
            "rocpd_info_agent", nid=node, pid=proc, type="GPU" if int(a["type"]) == 2 else "CPU",
            absolute_index=len(agents), logical_index=len(agents), type_index=int(a["logical_node_type_id"]),
            name=a.get("name", ""), product_name=a["product_name"])
    queues, streams = {}, {}
    used_kernels = {int(r["dispatch_info"]["kernel_id"]) for r in dispatches}
    symbols = {}
    for s in tool["kernel_symbols"]:
        kid = int(s["kernel_id"])
        if kid in used_kernels and kid not in symbols:
            symbols[kid] = out.insert("rocpd_info_kernel_symbol", nid=node, pid=proc, code_object_id=0,
                                      kernel_name=s["kernel_name"], display_name=s["truncated_kernel_name"])
    for r in dispatches:
        info = r["dispatch_info"]
        q = int(info["queue_id"]["handle"])
        if q not in queues:
            queues[q] = out.insert("rocpd_info_queue", nid=node, pid=proc, name=f"queue {q}")
        st = int(r["stream_id"]["handle"])
        if st not in streams:
            streams[st] = out.insert("rocpd_info_stream", nid=node, pid=proc, name=f"stream {st}")
        ev = out.event("KERNEL_DISPATCH", int(r["correlation_id"]["internal"]))
        out.insert("rocpd_kernel_dispatch", nid=node, pid=proc, tid=threads[int(r["thread_id"])],
                   agent_id=agents[int(info["agent_id"]["handle"])], kernel_id=symbols[int(info["kernel_id"])],
                   dispatch_id=int(info["dispatch_id"]), queue_id=queues[q], stream_id=streams[st],
                   start=int(r["start_timestamp"]), end=int(r["end_timestamp"]),
                   workgroup_size_x=info["workgroup_size"]["x"], workgroup_size_y=info["workgroup_size"]["y"],
                   workgroup_size_z=info["workgroup_size"]["z"], grid_size_x=info["grid_size"]["x"],
                   grid_size_y=info["grid_size"]["y"], grid_size_z=info["grid_size"]["z"], event_id=ev)
    out.close()


def hip_category(cat, name):
    if cat == "user_annotation":
        return "MARKER_CORE_RANGE_API"
    return "HIP_RUNTIME_API_EXT" if name.startswith("hipExt") else "HIP_RUNTIME_API"


def make_rocpd_from_kineto(path):
    events = load(VLLM_TRACE)["traceEvents"]
    cpu = [e for e in events if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "user_annotation")]
    gpu = [e for e in events if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy")]
    out = Rocpd(path, "vllm-guid")
    # rocprofv3 processes of one run share one clock: move this recording to start where the 908 one
    # does, so that the folder reads as one run of two processes (every duration and delay is kept).
    shift = ROCPD_RUN_START - min(ns(e["ts"]) for e in cpu + gpu)
    os_pid = int(cpu[0]["pid"])
    node = out.insert("rocpd_info_node", hash=1, machine_id="converted-from-kineto", hostname="mi300")
    proc = out.insert("rocpd_info_process", nid=node, pid=os_pid, command="python3 -m vllm")
    threads = {}
    for tid in sorted({int(e["tid"]) for e in cpu}):
        threads[tid] = out.insert("rocpd_info_thread", nid=node, pid=proc, tid=tid,
                                  name="python3" if tid == os_pid else f"worker {tid}")
    devices = sorted({int(e["pid"]) for e in gpu})
    agents = {d: out.insert("rocpd_info_agent", nid=node, pid=proc, type="GPU", absolute_index=d + 1,
                            logical_index=d + 1, type_index=d, name="gfx942", product_name="AMD Instinct MI300X")
              for d in devices}
    queues, streams, symbols = {}, {}, {}
    for e in cpu:
        corr = e.get("args", {}).get("correlation")
        ev = out.event(hip_category(e["cat"], e["name"]), int(corr) if corr is not None else None)
        start = ns(e["ts"]) + shift
        out.insert("rocpd_region", nid=node, pid=proc, tid=threads[int(e["tid"])], start=start,
                   end=start + ns(e["dur"]), name_id=out.string(e["name"]), event_id=ev)
    for e in gpu:
        dev, stream = int(e["pid"]), int(e["tid"])
        if (dev, stream) not in queues:
            queues[(dev, stream)] = out.insert("rocpd_info_queue", nid=node, pid=proc, name=f"queue {stream}")
        if stream not in streams:
            streams[stream] = out.insert("rocpd_info_stream", nid=node, pid=proc, name=f"stream {stream}")
        args = e.get("args", {})
        corr = args.get("correlation")
        start = ns(e["ts"]) + shift
        end = start + ns(e["dur"])
        common = dict(nid=node, pid=proc, queue_id=queues[(dev, stream)], stream_id=streams[stream],
                      start=start, end=end)
        if e["cat"] == "kernel":
            if e["name"] not in symbols:
                symbols[e["name"]] = out.insert("rocpd_info_kernel_symbol", nid=node, pid=proc, code_object_id=0,
                                                kernel_name=e["name"], display_name=e["name"])
            grid = args.get("grid", [1, 1, 1])
            block = args.get("block", [1, 1, 1])
            ev = out.event("KERNEL_DISPATCH", int(corr) if corr is not None else None)
            out.insert("rocpd_kernel_dispatch", agent_id=agents[dev], kernel_id=symbols[e["name"]],
                       dispatch_id=len(symbols), workgroup_size_x=block[0], workgroup_size_y=block[1],
                       workgroup_size_z=block[2], grid_size_x=grid[0] * block[0], grid_size_y=grid[1] * block[1],
                       grid_size_z=grid[2] * block[2], event_id=ev, **common)
        else:
            ev = out.event("MEMORY_COPY", int(corr) if corr is not None else None)
            out.insert("rocpd_memory_copy", name_id=out.string("MEMORY_COPY_DEVICE_TO_DEVICE"),
                       dst_agent_id=agents[dev], src_agent_id=agents[dev], size=int(args.get("bytes", 0)),
                       event_id=ev, **common)
    out.close()


# ----------------------------------------------------------------------------------------------- nsys
NSYS_TABLES = {
    "StringIds": "id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL",
    "ThreadNames": "nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER",
    "PROCESSES": "globalPid INTEGER, pid INTEGER, name TEXT",
    "TARGET_INFO_GPU": "id INTEGER NOT NULL, name TEXT, busLocation TEXT",
    "CUPTI_ACTIVITY_KIND_KERNEL": "start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
                                  "contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, "
                                  "globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, "
                                  "mangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, "
                                  "blockX INTEGER, blockY INTEGER, blockZ INTEGER, graphNodeId INTEGER",
    "CUPTI_ACTIVITY_KIND_RUNTIME": "start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, "
                                   "globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, "
                                   "returnValue INTEGER NOT NULL, callchainId INTEGER",
    "CUPTI_ACTIVITY_KIND_MEMCPY": "start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
                                  "contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, "
                                  "globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL",
    "CUPTI_ACTIVITY_KIND_MEMSET": "start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
                                  "contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, "
                                  "globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL",
    "NVTX_EVENTS": "start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, "
                   "category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, "
                   "textId INTEGER, domainId INTEGER",
}
NVTX_PUSH_POP = 59


def global_id(pid, tid=0):
    # nsys serialises (hardware id, vm id, pid, tid) into one integer: pid in bits 24..47, tid in 0..23.
    return (pid << 24) | (tid & 0xFFFFFF)


def make_nsys_from_kineto(path):
    events = load(BERT_TRACE)["traceEvents"]
    slices = [e for e in events if e.get("ph") == "X" and "ts" in e]
    t0 = min(ns(e["ts"]) for e in slices)  # nsys times are ns from the start of the session
    db = new_db(path)
    for table, columns in NSYS_TABLES.items():
        db.execute(f"CREATE TABLE {table} ({columns})")
    strings = {}

    def sid(text):
        if text not in strings:
            strings[text] = len(strings) + 1
            db.execute("INSERT INTO StringIds (id, value) VALUES (?, ?)", (strings[text], text))
        return strings[text]

    cpu = [e for e in slices if e.get("cat") in ("cuda_runtime", "cuda_driver", "user_annotation")]
    os_pid = int(cpu[0]["pid"])
    db.execute("INSERT INTO PROCESSES VALUES (?, ?, ?)", (global_id(os_pid), os_pid, "python3"))
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name" and int(e["pid"]) == os_pid:
            db.execute("INSERT INTO ThreadNames VALUES (?, 50, ?)",
                       (sid(e["args"]["name"]), global_id(os_pid, int(e["tid"]))))
    devices = sorted({int(e["pid"]) for e in slices if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")})
    for d in devices:
        db.execute("INSERT INTO TARGET_INFO_GPU VALUES (?, ?, ?)", (d, "NVIDIA H100 80GB HBM3", f"0000:{d:02x}:00.0"))
    for e in cpu:
        start, gtid = ns(e["ts"]) - t0, global_id(os_pid, int(e["tid"]))
        end = start + ns(e["dur"])
        if e["cat"] == "user_annotation":
            db.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId) "
                       "VALUES (?, ?, ?, NULL, ?, ?)", (start, end, NVTX_PUSH_POP, gtid, sid(e["name"])))
            continue
        corr = e.get("args", {}).get("correlation")
        db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, ?, ?, ?, ?, 0, NULL)",
                   (start, end, 1 if e["cat"] == "cuda_runtime" else 2, gtid, corr, sid(e["name"])))
    for e in slices:
        cat = e.get("cat")
        if cat not in ("kernel", "gpu_memcpy", "gpu_memset"):
            continue
        args = e.get("args", {})
        start = ns(e["ts"]) - t0
        row = dict(start=start, end=start + ns(e["dur"]), deviceId=int(args.get("device", e["pid"])),
                   contextId=int(args.get("context", 1)), streamId=int(args.get("stream", e["tid"])),
                   correlationId=args.get("correlation"), globalPid=global_id(os_pid))
        if cat == "kernel":
            grid, block = args.get("grid", [1, 1, 1]), args.get("block", [1, 1, 1])
            short = e["name"].split("<")[0].split("(")[0].split("::")[-1] or e["name"]
            row.update(demangledName=sid(e["name"]), shortName=sid(short), mangledName=None,
                       gridX=grid[0], gridY=grid[1], gridZ=grid[2], blockX=block[0], blockY=block[1],
                       blockZ=block[2], graphNodeId=None)
        elif cat == "gpu_memcpy":
            row.update(bytes=int(args.get("bytes", 0)), copyKind=1)
        else:
            row.update(value=0, bytes=int(args.get("bytes", 0)))
        table = {"kernel": "KERNEL", "gpu_memcpy": "MEMCPY", "gpu_memset": "MEMSET"}[cat]
        keys = ", ".join(row)
        db.execute(f"INSERT INTO CUPTI_ACTIVITY_KIND_{table} ({keys}) VALUES ({', '.join('?' for _ in row)})",
                   list(row.values()))
    db.commit()
    db.execute("VACUUM")
    db.close()


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.join(HERE, "converted")
    os.makedirs(os.path.join(out, "rocpd"), exist_ok=True)
    make_rocpd_from_rocprofv3(os.path.join(out, "rocpd", "908_results.db"))
    make_rocpd_from_kineto(os.path.join(out, "rocpd", "19_results.db"))
    make_nsys_from_kineto(os.path.join(out, "nsys_bert_h100.sqlite"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
