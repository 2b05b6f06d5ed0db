#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Makes the small SQLite test databases in tests/data/converted/ from real recorded traces.

No rocpd (ROCm 7 rocprofv3) database with a license that allows shipping it is known, so these are
converted, not recorded: the tables and columns follow the public schemas (ROCm/rocprofiler-sdk
source/share/rocprofiler-sdk-rocpd/rocpd_tables.sql, MIT; the `nsys export --type sqlite` schema NVIDIA
documents), the rows are real events of the public traces in tests/data/public/TraceLens. (Real Nsight
Systems exports are in tests/data/public/pipit and public/Fuser; the nsys database here is kept for its
NVTX range, memcpy and memsets from a trace whose figures the JSON loader checks too.)

  converted/rocpd/908_results.db        the first 1,500 kernel dispatches of rocprofv3's own JSON
                                        (tests__rocprof__908_results.json.gz; it holds no API records)
  converted/rocpd/19_results.db         a vLLM decode step on MI300 (Kineto trace
                                        ..._graph_execution.json.gz): HIP API calls with hipGraphLaunch,
                                        kernels, copies, the user annotation as a roctx range; its
                                        clock moved to start with the 908 process (one run)
  converted/nsys_bert_h100.sqlite       the H100 BERT Kineto trace (..._bert-small-uncased__1016001):
                                        kernels, runtime and driver calls, the memcpy, memsets, the user
                                        annotation as an NVTX push/pop range, thread names
  converted/nsys_graphs/node.sqlite     torch.compile reduce-overhead on an H100 (our recording,
  converted/nsys_graphs/graph.sqlite    h100_runs/torch_compile/reduce_overhead/run_0) with its CUDA
                                        graphs traced node by node, and whole (nsys's default)

rocpd ids are stored where rocprofiler-sdk's writer stores them. References are to ROCm/rocm-systems
at commit 1b1610fc2b2ab32af71e6e04e4d4a6a4ae597992, projects/rocprofiler-sdk/ (the same files are
ROCm/rocprofiler-sdk's source/...):
- source/lib/output/generateRocpd.cpp
  - 996-1002, 1170-1177, 1330-1338: every kernel dispatch, memory copy and API call gets a rocpd_event
    row with stack_id = the *internal* correlation id (the one a HIP call shares with the dispatches and
    copies it caused), parent_stack_id = its ancestor (dispatches and copies: the internal id again),
    and correlation_id = the *external* id, which is 0 unless `--kernel-rename` sets it.
  - 1031-1055: rocpd_kernel_dispatch.id = the dispatch id (1034); 1179-1198: rocpd_memory_copy rows
    get an id counted from 1 (1182) and a stream_id (1196), but no queue_id (the column stays NULL).
  - 1358-1372: an API call with start != end is a rocpd_region row whose id is its internal
    correlation id (1363); 1373-1389: one of zero length is a rocpd_sample row (id = internal id, its
    timestamp) on a rocpd_track named after its category (1377-1378).
  - 1288-1312, 1337: a roctx range's text is the event's extdata {"message": ...}; the region's name
    is the operation (roctxThreadRangeA).
  - 722-736, 816-822, 849, 907, 680-684, 708-712, 770: info-table ids are the OS tid and pid, the
    agent's node id, the kernel id, the stream and queue handles, the node id.
  - 1406-1417: API calls are written first (HIP, HSA, markers), then dispatches, then copies.
- source/lib/python/rocpd/source/perfetto.cpp 391, 434, 478, 560: ROCm's Perfetto exporter links a call
  to its dispatches and copies with Flow::Global(stack_id ^ uuid_pid) (193: uuid_pid names the
  process), and shows stack_id as "corr_id" (404-405, 447-448, 495-496, 571-572);
  source/lib/python/rocpd/source/csv.cpp 76-79 (the "Correlation_Id" column), 256, 305, 400: its CSV
  exporter writes stack_id there. So a call pairs with its dispatches on stack_id, within one process.

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
# torch.compile mode="reduce-overhead" on an H100 (our recording, tests/data/h100_runs): CUDA graphs.
TORCH_GRAPHS_TRACE = os.path.join(HERE, "h100_runs", "torch_compile", "reduce_overhead", "run_0",
                                  "trace.pt.trace.json.gz")
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
# of the plain names, as rocprofv3 writes them. The columns are rocpd_tables.sql's (its foreign keys
# left out); only the tables Scopeline reads, and the ones the writer fills beside them, are made.
ROCPD_UUID = "_00000000_0000_0000_0000_000000000000"
_EXT = '"extdata" JSONB DEFAULT "{}" NOT NULL'
ROCPD_TABLES = {
    "rocpd_metadata": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "tag" TEXT NOT NULL, "value" TEXT NOT NULL',
    "rocpd_string": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "string" TEXT NOT NULL UNIQUE',
    "rocpd_info_node": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "hash" BIGINT NOT NULL UNIQUE, '
                       '"machine_id" TEXT NOT NULL UNIQUE, "system_name" TEXT, "hostname" TEXT, "release" TEXT, '
                       '"version" TEXT, "hardware_name" TEXT, "domain_name" TEXT',
    "rocpd_info_process": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                          '"ppid" INTEGER, "pid" INTEGER NOT NULL, "init" BIGINT, "fini" BIGINT, '
                          '"start" BIGINT, "end" BIGINT, "command" TEXT, '
                          '"environment" JSONB DEFAULT "{}" NOT NULL, ' + _EXT,
    "rocpd_info_thread": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                         '"ppid" INTEGER, "pid" INTEGER NOT NULL, "tid" INTEGER NOT NULL, "name" TEXT, '
                         '"start" BIGINT, "end" BIGINT, ' + _EXT,
    "rocpd_info_agent": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                        '"pid" INTEGER NOT NULL, "type" TEXT CHECK ("type" IN (\'CPU\', \'GPU\')), '
                        '"absolute_index" INTEGER, "logical_index" INTEGER, "type_index" INTEGER, "uuid" INTEGER, '
                        '"name" TEXT, "model_name" TEXT, "vendor_name" TEXT, "product_name" TEXT, '
                        '"user_name" TEXT, ' + _EXT,
    "rocpd_info_queue": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                        '"pid" INTEGER NOT NULL, "name" TEXT, ' + _EXT,
    "rocpd_info_stream": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                         '"pid" INTEGER NOT NULL, "name" TEXT, ' + _EXT,
    "rocpd_info_kernel_symbol": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, '
                                '"nid" INTEGER NOT NULL, "pid" INTEGER NOT NULL, "code_object_id" INTEGER NOT NULL, '
                                '"kernel_name" TEXT, "display_name" TEXT, ' + _EXT,
    "rocpd_track": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                   '"pid" INTEGER, "tid" INTEGER, "name_id" INTEGER, ' + _EXT,
    "rocpd_event": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "category_id" INTEGER, '
                   '"stack_id" INTEGER, "parent_stack_id" INTEGER, "correlation_id" INTEGER, '
                   '"call_stack" JSONB DEFAULT "{}" NOT NULL, "line_info" JSONB DEFAULT "{}" NOT NULL, ' + _EXT,
    "rocpd_region": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                    '"pid" INTEGER NOT NULL, "tid" INTEGER NOT NULL, "start" BIGINT NOT NULL, "end" BIGINT NOT NULL, '
                    '"name_id" INTEGER NOT NULL, "event_id" INTEGER, ' + _EXT,
    "rocpd_sample": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "track_id" INTEGER NOT NULL, '
                    '"timestamp" BIGINT NOT NULL, "event_id" INTEGER, ' + _EXT,
    "rocpd_kernel_dispatch": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                             '"pid" INTEGER NOT NULL, "tid" INTEGER, "agent_id" INTEGER NOT NULL, '
                             '"kernel_id" INTEGER NOT NULL, "dispatch_id" INTEGER NOT NULL, '
                             '"queue_id" INTEGER NOT NULL, "stream_id" INTEGER NOT NULL, "start" BIGINT NOT NULL, '
                             '"end" BIGINT NOT NULL, "private_segment_size" INTEGER, "group_segment_size" INTEGER, '
                             '"workgroup_size_x" INTEGER NOT NULL, '
                             '"workgroup_size_y" INTEGER NOT NULL, "workgroup_size_z" INTEGER NOT NULL, '
                             '"grid_size_x" INTEGER NOT NULL, "grid_size_y" INTEGER NOT NULL, '
                             '"grid_size_z" INTEGER NOT NULL, "region_name_id" INTEGER, "event_id" INTEGER, ' + _EXT,
    "rocpd_memory_copy": '"id" INTEGER PRIMARY KEY AUTOINCREMENT, "guid" TEXT NOT NULL, "nid" INTEGER NOT NULL, '
                         '"pid" INTEGER NOT NULL, "tid" INTEGER, "start" BIGINT NOT NULL, "end" BIGINT NOT NULL, '
                         '"name_id" INTEGER NOT NULL, "dst_agent_id" INTEGER, "dst_address" INTEGER, '
                         '"src_agent_id" INTEGER, "src_address" INTEGER, "size" INTEGER NOT NULL, '
                         '"queue_id" INTEGER, "stream_id" INTEGER, "region_name_id" INTEGER, "event_id" INTEGER, '
                         + _EXT,
}
ROCTX_RANGE = "roctxThreadRangeA"  # the MARKER_CORE_RANGE_API operation of a push/pop range


class Rocpd:
    """Writes one rocpd database, its ids where generateRocpd.cpp puts them (see the docstring)."""

    def __init__(self, path, guid, pid, machine_id, hostname, node_hash):
        self.db = new_db(path)
        self.guid = guid
        self.pid = pid
        for table, columns in ROCPD_TABLES.items():
            self.db.execute(f'CREATE TABLE "{table}{ROCPD_UUID}" ({columns})')
            self.db.execute(f'CREATE VIEW "{table}" AS SELECT * FROM "{table}{ROCPD_UUID}"')
        self.db.executemany(f'INSERT INTO "rocpd_metadata{ROCPD_UUID}" (tag, value) VALUES (?, ?)',
                            [("schema_version", "3"), ("uuid", ROCPD_UUID), ("guid", guid)])
        self.strings, self.threads, self.streams, self.queues, self.tracks = {}, set(), set(), set(), {}
        # generateRocpd.cpp 570-573: the node id is the machine id's hash, cut to 32 bits.
        self.node = self.insert("rocpd_info_node", id=node_hash % 0xFFFFFFFF, hash=node_hash,
                                machine_id=machine_id, hostname=hostname)
        self.copies = 0

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

    def process(self, command, init=None, fini=None):
        # 816-822: the process row's id is its pid
        self.insert("rocpd_info_process", id=self.pid, nid=self.node, pid=self.pid, init=init, fini=fini,
                    start=init, end=fini, command=command)
        # 664-717: the default stream and queue (handle 0) come first
        self.stream(0)
        self.queue(0)

    def thread(self, tid, name=None):
        # 722-736: a thread's row is made on first use, its id the OS tid
        if tid not in self.threads:
            self.threads.add(tid)
            self.insert("rocpd_info_thread", id=tid, nid=self.node, pid=self.pid, tid=tid, name=name)
        return tid

    def stream(self, handle):
        if handle not in self.streams:
            name = "Default Stream" if handle == 0 else f"Stream {len(self.streams) - 1}"
            self.streams.add(handle)
            self.insert("rocpd_info_stream", id=handle, nid=self.node, pid=self.pid, name=name)
        return handle

    def queue(self, handle):
        if handle not in self.queues:
            name = "Default Queue" if handle == 0 else f"Queue {len(self.queues) - 1}"
            self.queues.add(handle)
            self.insert("rocpd_info_queue", id=handle, nid=self.node, pid=self.pid, name=name)
        return handle

    def event(self, category, stack_id, parent_stack_id, external=0, extdata="{}"):
        return self.insert("rocpd_event", category_id=self.string(category), stack_id=stack_id,
                           parent_stack_id=parent_stack_id, correlation_id=external, extdata=extdata)

    def api_call(self, category, name, internal, tid, start, end, ancestor=0, message=None):
        """1290-1388: an API call's event, then a region (start != end) or a sample (zero length)."""
        extdata = json.dumps({"message": message}) if message is not None else "{}"
        ev = self.event(category, internal, ancestor, 0, extdata)
        tid = self.thread(tid)
        if start != end:
            self.insert("rocpd_region", id=internal, nid=self.node, pid=self.pid, tid=tid, start=start, end=end,
                        name_id=self.string(name), event_id=ev)
        else:
            key = (tid, category)
            if key not in self.tracks:
                self.tracks[key] = self.insert("rocpd_track", id=len(self.tracks) + 1, nid=self.node, pid=self.pid,
                                               tid=tid, name_id=self.string(category))
            self.insert("rocpd_sample", id=internal, track_id=self.tracks[key], timestamp=start, event_id=ev)

    def dispatch(self, dispatch_id, internal, tid, agent, kernel_id, queue, stream, start, end, block, grid):
        """993-1055: the event (stack_id and parent_stack_id the internal id), then the dispatch row."""
        ev = self.event("KERNEL_DISPATCH", internal, internal)
        self.insert("rocpd_kernel_dispatch", id=dispatch_id, nid=self.node, pid=self.pid, tid=self.thread(tid),
                    agent_id=agent, kernel_id=kernel_id, dispatch_id=dispatch_id, queue_id=self.queue(queue),
                    stream_id=self.stream(stream), start=start, end=end, workgroup_size_x=block[0],
                    workgroup_size_y=block[1], workgroup_size_z=block[2], grid_size_x=grid[0],
                    grid_size_y=grid[1], grid_size_z=grid[2], region_name_id=self.string(""), event_id=ev)

    def memory_copy(self, internal, tid, name, dst_agent, src_agent, size, stream, start, end):
        """1160-1197: the event, then the copy row: an id counted from 1, a stream_id, no queue_id."""
        ev = self.event("MEMORY_COPY", internal, internal)
        self.copies += 1
        self.insert("rocpd_memory_copy", id=self.copies, nid=self.node, pid=self.pid, tid=self.thread(tid),
                    start=start, end=end, name_id=self.string(name), dst_agent_id=dst_agent,
                    src_agent_id=src_agent, size=size, stream_id=self.stream(stream), event_id=ev)

    def close(self):
        self.db.commit()
        self.db.execute("VACUUM")
        self.db.close()


def make_rocpd_from_rocprofv3(path):
    tool = load(ROCPROF_JSON)["rocprofiler-sdk-tool"][0]
    meta = tool["metadata"]
    out = Rocpd(path, "908-guid", int(meta["pid"]), meta["node"]["machine_id"], meta["node"]["hostname"], 908)
    out.process(" ".join(meta["command"]), int(meta["init_time"]), int(meta["fini_time"]))
    dispatches = tool["buffer_records"]["kernel_dispatch"][:MAX_DISPATCHES]
    for a in tool["agents"]:
        # 840-856: an agent's id is its node id
        out.insert("rocpd_info_agent", id=int(a["node_id"]), nid=out.node, pid=out.pid,
                   type="GPU" if int(a["type"]) == 2 else "CPU", absolute_index=int(a["node_id"]),
                   logical_index=int(a["logical_node_id"]), type_index=int(a["logical_node_type_id"]),
                   name=a.get("name", ""), product_name=a["product_name"])
    agent_node = {int(a["id"]["handle"]): int(a["node_id"]) for a in tool["agents"]}
    used_kernels = {int(r["dispatch_info"]["kernel_id"]) for r in dispatches}
    for s in tool["kernel_symbols"]:
        kid = int(s["kernel_id"])
        if kid in used_kernels:  # 907: a symbol's id is its kernel id
            used_kernels.discard(kid)
            out.insert("rocpd_info_kernel_symbol", id=kid, nid=out.node, pid=out.pid, code_object_id=0,
                       kernel_name=s["kernel_name"], display_name=s["formatted_kernel_name"])
    for r in dispatches:
        info = r["dispatch_info"]
        corr = r["correlation_id"]
        assert int(corr["external"]) == 0  # no --kernel-rename: the external id stays 0
        out.dispatch(int(info["dispatch_id"]), int(corr["internal"]), int(r["thread_id"]),
                     agent_node[int(info["agent_id"]["handle"])], int(info["kernel_id"]),
                     int(info["queue_id"]["handle"]), int(r["stream_id"]["handle"]), int(r["start_timestamp"]),
                     int(r["end_timestamp"]), [info["workgroup_size"][k] for k in "xyz"],
                     [info["grid_size"][k] for k in "xyz"])
    out.close()


def hip_category(name):
    return "HIP_RUNTIME_API_EXT" if name.startswith("hipExt") else "HIP_RUNTIME_API"


def make_rocpd_from_kineto(path):
    events = load(VLLM_TRACE)["traceEvents"]
    calls = [e for e in events if e.get("ph") == "X" and e.get("cat") == "cuda_runtime"]
    ranges = [e for e in events if e.get("ph") == "X" and e.get("cat") == "user_annotation"]
    gpu = [e for e in events if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy")]
    # Kineto's correlation is rocprofiler-sdk's internal correlation id (HIP calls, their dispatches
    # and copies share it); every call has its own.
    internal_ids = [int(e["args"]["correlation"]) for e in calls]
    assert len(set(internal_ids)) == len(internal_ids)
    os_pid = int(calls[0]["pid"])
    out = Rocpd(path, "vllm-guid", os_pid, "converted-from-kineto", "mi300", 19)
    out.process("python3 -m vllm")
    # rocprofv3 processes of one run share one clock: move this recording to start where the 908 one
    # does, so that the folder reads as one run of two processes (every duration and delay is kept).
    shift = ROCPD_RUN_START - min(ns(e["ts"]) for e in calls + ranges + gpu)
    for tid in sorted({int(e["tid"]) for e in calls + ranges}):
        out.thread(tid, "python3" if tid == os_pid else f"worker {tid}")
    devices = sorted({int(e["pid"]) for e in gpu})
    agents = {}
    for d in devices:
        agents[d] = out.insert("rocpd_info_agent", id=d + 1, nid=out.node, pid=out.pid, type="GPU",
                               absolute_index=d + 1, logical_index=d + 1, type_index=d, name="gfx942",
                               product_name="AMD Instinct MI300X")
    symbols = {}
    for e in gpu:
        if e["cat"] == "kernel" and e["name"] not in symbols:
            symbols[e["name"]] = out.insert("rocpd_info_kernel_symbol", id=len(symbols) + 1, nid=out.node,
                                            pid=out.pid, code_object_id=0, kernel_name=e["name"],
                                            display_name=e["name"])
    # 1406-1417: API calls first (HIP, then markers), then dispatches, then copies.
    for e in calls:
        start = ns(e["ts"]) + shift
        out.api_call(hip_category(e["name"]), e["name"], int(e["args"]["correlation"]), int(e["tid"]), start,
                     start + ns(e["dur"]))
    # The user annotation becomes a roctx range; its internal id is one no call has, taken before the
    # calls it encloses are made, as the range is pushed first.
    next_free = min(internal_ids) - 1
    for e in ranges:
        assert next_free > 0 and next_free not in internal_ids
        start = ns(e["ts"]) + shift
        out.api_call("MARKER_CORE_RANGE_API", ROCTX_RANGE, next_free, int(e["tid"]), start, start + ns(e["dur"]),
                     message=e["name"])
        next_free -= 1
    dispatch_id = 0
    for e in gpu:
        if e["cat"] != "kernel":
            continue
        args = e.get("args", {})
        grid, block = args.get("grid", [1, 1, 1]), args.get("block", [1, 1, 1])
        dispatch_id += 1
        start = ns(e["ts"]) + shift
        out.dispatch(dispatch_id, int(args["correlation"]), os_pid, agents[int(e["pid"])], symbols[e["name"]],
                     int(e["tid"]), int(e["tid"]), start, start + ns(e["dur"]), block,
                     [g * b for g, b in zip(grid, block)])
    for e in gpu:
        if e["cat"] != "gpu_memcpy":
            continue
        args = e.get("args", {})
        dev, start = int(e["pid"]), ns(e["ts"]) + shift
        out.memory_copy(int(args["correlation"]), os_pid, "MEMORY_COPY_DEVICE_TO_DEVICE", agents[dev], agents[dev],
                        int(args.get("bytes", 0)), int(e["tid"]), start, start + ns(e["dur"]))
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
    # As nsys's own `cuda_gpu_trace` report reads it: one row per graph launch traced whole.
    "CUPTI_ACTIVITY_KIND_GRAPH_TRACE": "start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, "
                                       "contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, "
                                       "correlationId INTEGER, globalPid INTEGER, graphId INTEGER NOT NULL, "
                                       "graphExecId INTEGER NOT NULL",
    "NVTX_EVENTS": "start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, "
                   "category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, "
                   "textId INTEGER, domainId INTEGER",
}
NVTX_PUSH_POP = 59


def global_id(pid, tid=0):
    # nsys serialises (hardware id, vm id, pid, tid) into one integer: pid in bits 24..47, tid in 0..23.
    return (pid << 24) | (tid & 0xFFFFFF)


def make_nsys_from_kineto(path, source=BERT_TRACE, whole_graphs=False):
    """whole_graphs: as `nsys profile --cuda-graph-trace=graph` (nsys's default) records them, each
    graph launch one CUPTI_ACTIVITY_KIND_GRAPH_TRACE row from its first node's start to its last one's
    end, its nodes not written; else as --cuda-graph-trace=node, every node a row of its own."""
    events = load(source)["traceEvents"]
    slices = [e for e in events if e.get("ph") == "X" and "ts" in e]
    t0 = min(ns(e["ts"]) for e in slices)  # nsys times are ns from the start of the session
    db = new_db(path)
    for table, columns in NSYS_TABLES.items():
        if whole_graphs or table != "CUPTI_ACTIVITY_KIND_GRAPH_TRACE":  # nsys leaves out empty tables
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
    graph_launches = {e["args"]["correlation"] for e in cpu if e["name"].startswith("cudaGraphLaunch")}
    graph_rows = {}  # correlation -> the GRAPH_TRACE row of that launch
    graph_ids = {}  # the sequence of node names -> its graphId
    nodes = {}
    for e in slices:
        cat = e.get("cat")
        if cat not in ("kernel", "gpu_memcpy", "gpu_memset"):
            continue
        args = e.get("args", {})
        start = ns(e["ts"]) - t0
        row = dict(start=start, end=start + ns(e["dur"]), deviceId=int(args.get("device", e["pid"])),
                   contextId=int(args.get("context", 1)), streamId=int(args.get("stream", e["tid"])),
                   correlationId=args.get("correlation"), globalPid=global_id(os_pid))
        if whole_graphs and row["correlationId"] in graph_launches:
            whole = graph_rows.setdefault(row["correlationId"], dict(row, greenContextId=None))
            whole["start"], whole["end"] = min(whole["start"], row["start"]), max(whole["end"], row["end"])
            nodes.setdefault(row["correlationId"], []).append(e["name"])
            continue
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
    for exec_id, (corr, row) in enumerate(sorted(graph_rows.items()), start=1):
        row.update(graphId=graph_ids.setdefault(tuple(nodes[corr]), len(graph_ids) + 1), graphExecId=exec_id)
        keys = ", ".join(row)
        db.execute(f"INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE ({keys}) VALUES ({', '.join('?' for _ in row)})",
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
    os.makedirs(os.path.join(out, "nsys_graphs"), exist_ok=True)
    for whole, name in ((False, "node.sqlite"), (True, "graph.sqlite")):
        make_nsys_from_kineto(os.path.join(out, "nsys_graphs", name), TORCH_GRAPHS_TRACE, whole)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
