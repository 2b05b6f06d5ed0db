#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes converted/rocprofv3/19_results.json.gz: the vLLM decode step of converted/rocpd/19_results.db
(HIP API calls with hipGraphLaunch, kernels, copies, a roctx range) as rocprofv3's own JSON.

No rocprofv3 JSON with API records and a license that allows shipping it is known (the TraceLens one
holds kernel dispatches alone), so the rows of the rocpd fixture are written as rocprofv3's writer
writes them. References are to ROCm/rocprofiler-sdk at commit 8ab1ed7:
- source/lib/output/generateJSON.cpp: the document is {"rocprofiler-sdk-tool": [{metadata, agents,
  strings, kernel_symbols, buffer_records, ...}]}; strings.buffer_records is the buffer tracing name
  table, strings.marker_api the roctx messages; buffer_records holds kernel_dispatch, hip_api,
  marker_api, memory_copy, ... arrays.
- source/include/rocprofiler-sdk/cxx/serialization.hpp: an API record is {size, kind, operation,
  correlation_id {internal, external}, start_timestamp, end_timestamp, thread_id} (save_buffer_tracing_
  api_record); a dispatch {size, kind, operation, thread_id, correlation_id, start_timestamp,
  end_timestamp, dispatch_info {agent_id, queue_id, kernel_id, dispatch_id, ...}}; a copy {size, kind,
  operation, thread_id, correlation_id, start_timestamp, end_timestamp, dst_agent_id, src_agent_id,
  bytes}; the name table an array of {kind: name, operations: [names]}, indexed by kind; a std::map
  (the marker messages) an array of {key, value}.
The name table itself is the real one of tests__rocprof__908_results.json.gz (a rocprofv3 run), so
kinds and operations are numbered as rocprofv3 numbers them. The rocpd fixture's internal correlation
id (rocpd_event.stack_id) is each record's correlation_id.internal, its agent id the agent's handle.
"""
import gzip
import json
import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.join(HERE, "converted", "rocprofv3", "19_results.json.gz")
    with gzip.open(os.path.join(HERE, "public", "TraceLens", "tests__rocprof__908_results.json.gz")) as f:
        names = json.load(f)["rocprofiler-sdk-tool"][0]["strings"]["buffer_records"]
    kinds = {entry["kind"]: (k, entry["operations"]) for k, entry in enumerate(names)}

    def record(kind, operation, tid, corr, start, end):
        k, operations = kinds[kind]
        return dict(size=64, kind=k, operation=operations.index(operation), thread_id=tid,
                    correlation_id=dict(internal=corr, external=0), start_timestamp=start,
                    end_timestamp=end)

    db = sqlite3.connect(os.path.join(HERE, "converted", "rocpd", "19_results.db"))
    q = db.execute
    (pid,) = q("SELECT pid FROM rocpd_info_process").fetchone()
    agents = [dict(size=0, id=dict(handle=aid), type=2 if typ == "GPU" else 1, node_id=aid,
                   logical_node_type_id=type_index, product_name=product)
              for aid, typ, type_index, product in
              q("SELECT id, type, type_index, product_name FROM rocpd_info_agent ORDER BY id")]
    symbols = [dict(size=0, kernel_id=kid, kernel_name=name, formatted_kernel_name=display,
                    demangled_kernel_name=display, truncated_kernel_name=display)
               for kid, name, display in
               q("SELECT id, kernel_name, display_name FROM rocpd_info_kernel_symbol ORDER BY id")]
    hip, markers, messages = [], [], []
    for tid, start, end, name, category, corr, extdata in q(
            "SELECT T.tid, R.start, R.end, N.string, C.string, E.stack_id, E.extdata FROM rocpd_region R "
            "JOIN rocpd_info_thread T ON T.id = R.tid JOIN rocpd_string N ON N.id = R.name_id "
            "JOIN rocpd_event E ON E.id = R.event_id JOIN rocpd_string C ON C.id = E.category_id "
            "ORDER BY R.start, R.id"):
        if category.startswith("MARKER"):
            markers.append(record(category, name, tid, corr, start, end))
            messages.append(dict(key=corr, value=json.loads(extdata)["message"]))
        else:
            hip.append(record(category, name, tid, corr, start, end))
    dispatches = []
    for tid, agent, kernel, dispatch, queue, stream, start, end, corr in q(
            "SELECT T.tid, K.agent_id, K.kernel_id, K.dispatch_id, K.queue_id, K.stream_id, K.start, K.end, "
            "E.stack_id FROM rocpd_kernel_dispatch K JOIN rocpd_info_thread T ON T.id = K.tid "
            "JOIN rocpd_event E ON E.id = K.event_id ORDER BY K.start, K.id"):
        r = record("KERNEL_DISPATCH", "KERNEL_DISPATCH_COMPLETE", tid, corr, start, end)
        r["dispatch_info"] = dict(size=72, agent_id=dict(handle=agent), queue_id=dict(handle=queue),
                                  kernel_id=kernel, dispatch_id=dispatch)
        dispatches.append(r)
    copies = []
    for tid, name, dst, src, size, start, end, corr in q(
            "SELECT T.tid, N.string, M.dst_agent_id, M.src_agent_id, M.size, M.start, M.end, E.stack_id "
            "FROM rocpd_memory_copy M JOIN rocpd_info_thread T ON T.id = M.tid "
            "JOIN rocpd_string N ON N.id = M.name_id JOIN rocpd_event E ON E.id = M.event_id "
            "ORDER BY M.start, M.id"):
        r = record("MEMORY_COPY", name, tid, corr, start, end)
        r.update(dst_agent_id=dict(handle=dst), src_agent_id=dict(handle=src), bytes=size)
        copies.append(r)
    tool = dict(metadata=dict(pid=pid, command=["python3", "-m", "vllm"]), agents=agents,
                strings=dict(buffer_records=names, marker_api=messages), kernel_symbols=symbols,
                buffer_records=dict(kernel_dispatch=dispatches, hip_api=hip, marker_api=markers,
                                    memory_copy=copies, hsa_api=[], rccl_api=[]))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with gzip.GzipFile(out, "wb", mtime=0) as f:
        f.write(json.dumps({"rocprofiler-sdk-tool": [tool]}, separators=(",", ":")).encode())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
