#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the seed corpus for fuzz_loader into a folder: small cut-down copies of the real traces
(plain JSON and gzip; the SQLite databases, rocpd and Nsight Systems exports, with their first rows)
and a few hand-made edge cases. Each seed stays under 64 kB so that the
fuzzer runs fast. Run at CI time (packaging/setup.sh fuzz); the corpus is not committed.

usage: make_corpus.py OUT_DIR [--traces DIR]   (DIR defaults to <repo>/tests/data, see its README.md)
"""
import argparse
import gzip
import json
import os
import sqlite3
import sys
import tempfile

MAX_SEED = 64 * 1024
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read_json(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return json.loads(f.read().decode("utf-8-sig"))


def dump(doc):
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def has_correlation(event):
    args = event.get("args") if isinstance(event, dict) else None
    return isinstance(args, dict) and ("correlation" in args or "correlation_id" in args)


def cut_events(events, n):
    """Metadata events plus n others: a window of the trace around its first launch/kernel pair
    (by ts), so that tracks, launches, kernels and their correlation ids survive the cut."""
    meta = [e for e in events if isinstance(e, dict) and e.get("ph") == "M"][:64]
    rest = [e for e in events if not (isinstance(e, dict) and e.get("ph") == "M")]
    if len(rest) <= n:
        return meta + rest
    ordered = sorted(range(len(rest)), key=lambda i: number(rest[i].get("ts") if isinstance(rest[i], dict) else 0))
    anchor = next((k for k, i in enumerate(ordered) if has_correlation(rest[i])), 0)
    lo = max(0, min(anchor - n // 4, len(ordered) - n))
    keep = sorted(ordered[lo:lo + n])  # back in file order
    return meta + [rest[i] for i in keep]


def fit(make, n=200):
    """The largest cut (halving n) whose JSON is under MAX_SEED; None when even 1 is too big."""
    while n >= 1:
        data = make(n)
        if len(data) < MAX_SEED:
            return data
        n //= 2
    return None


def chrome_seeds(path):
    doc = read_json(path)
    if isinstance(doc, list):
        return fit(lambda n: dump(cut_events(doc, n)))
    events = doc.get("traceEvents", [])
    others = {k: v for k, v in doc.items() if k != "traceEvents" and len(dump(v)) < 2048}

    def make(n):
        out = dict(others)
        out["traceEvents"] = cut_events(events, n)
        return dump(out)

    return fit(make)


def truncate_lists(value, k):
    if isinstance(value, list):
        return [truncate_lists(v, k) for v in value[:k]]
    if isinstance(value, dict):
        return {key: truncate_lists(v, k) for key, v in value.items()}
    return value


def rocprof_seed(path):
    doc = read_json(path)
    return fit(lambda k: dump(truncate_lists(doc, k)), 64)


# Tables the SQLite readers read; the rest of an export (ENUM_*, OSRT_API, SCHED_EVENTS, ...) is dropped
# from a seed. Rows are cut to the first n of each activity table, with the calls, events and strings
# they refer to, so that launches still pair with kernels.
NSYS_KEPT = {"StringIds", "ThreadNames", "PROCESSES", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME",
             "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET", "NVTX_EVENTS", "META_DATA_EXPORT",
             "EXPORT_META_DATA", "ENUM_NSYS_EVENT_CLASS"}
NSYS_GPU = ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET")
ROCPD_ACTIVITY = ("rocpd_kernel_dispatch", "rocpd_memory_copy", "rocpd_region", "rocpd_sample")


def cut_nsys(db, n):
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for t in sorted(tables - NSYS_KEPT):
        db.execute('DROP TABLE "%s"' % t)
    for t in NSYS_GPU + ("NVTX_EVENTS",):
        if t in tables:
            db.execute('DELETE FROM %s WHERE rowid NOT IN (SELECT rowid FROM %s ORDER BY start LIMIT %d)' % (t, t, n))
    if "CUPTI_ACTIVITY_KIND_RUNTIME" in tables:
        gpu = " UNION ".join("SELECT correlationId FROM %s WHERE correlationId IS NOT NULL" % t
                             for t in NSYS_GPU if t in tables)
        db.execute("DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId NOT IN (%s) AND rowid NOT IN "
                   "(SELECT rowid FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY start LIMIT %d)" % (gpu or "SELECT NULL", n))
    if "PROCESSES" in tables:  # a whole machine's processes: keep those with activity
        db.execute("DELETE FROM PROCESSES WHERE rowid NOT IN (SELECT rowid FROM PROCESSES ORDER BY name = '' LIMIT %d)" % n)
    if "ThreadNames" in tables:
        db.execute("DELETE FROM ThreadNames WHERE rowid NOT IN (SELECT rowid FROM ThreadNames LIMIT %d)" % n)
    if "StringIds" in tables:
        used = []
        for t in tables & NSYS_KEPT:
            cols = {r[1] for r in db.execute('PRAGMA table_info("%s")' % t)}
            used += ["SELECT %s FROM %s WHERE %s IS NOT NULL" % (c, t, c) for c in ("nameId", "demangledName", "shortName", "mangledName",
                                                             "textId") if c in cols]
        if used:
            db.execute("DELETE FROM StringIds WHERE id NOT IN (%s)" % " UNION ".join(used))


def cut_rocpd(db, n):
    objects = dict(db.execute("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')"))
    table = {}  # plain name -> the table behind its view (rows are deleted there)
    for name, kind in objects.items():
        if kind == "view" and name.startswith("rocpd_"):
            backing = [t for t in objects if t.startswith(name + "_") and objects[t] == "table"]
            if backing:
                table[name] = backing[0]
        elif kind == "table" and name.startswith("rocpd_") and name not in table:
            table.setdefault(name, name)
    for t in ROCPD_ACTIVITY:
        if t in table:
            order = "timestamp" if t == "rocpd_sample" else "start"
            db.execute('DELETE FROM "%s" WHERE rowid NOT IN (SELECT rowid FROM "%s" ORDER BY %s LIMIT %d)'
                       % (table[t], table[t], order, n))
    if "rocpd_event" in table:
        refs = " UNION ".join('SELECT event_id FROM "%s" WHERE event_id IS NOT NULL' % table[t]
                              for t in ROCPD_ACTIVITY if t in table)
        db.execute('DELETE FROM "%s" WHERE id NOT IN (%s)' % (table["rocpd_event"], refs or "SELECT NULL"))
    if "rocpd_info_kernel_symbol" in table and "rocpd_kernel_dispatch" in table:
        db.execute('DELETE FROM "%s" WHERE id NOT IN (SELECT kernel_id FROM "%s" WHERE kernel_id IS NOT NULL)'
                   % (table["rocpd_info_kernel_symbol"], table["rocpd_kernel_dispatch"]))


def sqlite_seed(path):
    """The largest cut of a database (first n rows, halving n) that fits a seed, with 512-byte pages;
    None when even one row is too big. The cut is made in a temporary file: an in-memory database
    keeps its page size."""
    source = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    names = {r[0] for r in source.execute("SELECT name FROM sqlite_master")}
    cut = cut_rocpd if any(x.startswith("rocpd_") for x in names) else cut_nsys
    try:
        with tempfile.TemporaryDirectory() as tmp:
            n = 256
            while n >= 1:
                scratch = os.path.join(tmp, "seed_%d.db" % n)
                db = sqlite3.connect(scratch)
                source.backup(db)
                cut(db, n)
                db.commit()
                db.execute("PRAGMA page_size = 512")
                db.execute("VACUUM")
                db.close()
                with open(scratch, "rb") as f:
                    data = f.read()
                if len(data) < MAX_SEED:
                    return data
                n //= 2
            return None
    finally:
        source.close()


def write(out_dir, name, data, written):
    if data is None:
        return
    assert len(data) < MAX_SEED, name
    with open(os.path.join(out_dir, name), "wb") as f:
        f.write(data)
    written.append((name, len(data)))


def edge_cases():
    e = {
        "empty_object.json": b"{}",
        "empty_array.json": b"[]",
        "empty_events.json": b'{"traceEvents":[]}',
        "bare_array.json": b'[{},{"ph":"X","name":"k","pid":1,"tid":2,"ts":1.5,"dur":2}]',
        "bom.json": b'\xef\xbb\xbf{"traceEvents":[{"ph":"X","name":"a","pid":0,"tid":0,"ts":0,"dur":1}]}',
        "string_fields.json": b'[{"ph":"X","name":"k","pid":"6","tid":"stream 7 ","ts":"12.345","dur":"0.001"}]',
        "begin_end.json": b'{"traceEvents":[{"ph":"B","name":"s","pid":1,"tid":1,"ts":1},'
                          b'{"ph":"E","pid":1,"tid":1,"ts":3},{"ph":"i","name":"m","pid":1,"tid":1,"ts":2,"s":"t"}]}',
        "kineto_launch.json": (
            b'{"traceEvents":['
            b'{"ph":"M","name":"process_name","pid":0,"args":{"name":"GPU 0"}},'
            b'{"ph":"X","cat":"user_annotation","name":"scope_a","pid":1,"tid":1,"ts":0,"dur":50},'
            b'{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":3,'
            b'"args":{"correlation":7}},'
            b'{"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":1,"tid":1,"ts":5,"dur":3,'
            b'"args":{"correlation":8}},'
            b'{"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":10,"dur":4,"args":{"correlation":7}},'
            b'{"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":7,"ts":15,"dur":4,"args":{"correlation":8}},'
            b'{"ph":"X","cat":"kernel","name":"k3","pid":0,"tid":7,"ts":20,"dur":4,"args":{"correlation":8}},'
            b'{"ph":"X","cat":"gpu_user_annotation","name":"scope_a","pid":0,"tid":7,"ts":9,"dur":20},'
            b'{"ph":"s","cat":"ac2g","id":7,"pid":1,"tid":1,"ts":1},{"ph":"f","cat":"ac2g","id":7,"pid":0,"tid":7,"ts":10,"bp":"e"},'
            b'{"ph":"C","name":"mem","pid":1,"ts":2,"args":{"v":1}}],'
            b'"displayTimeUnit":"ns"}'),
        "jax_scope.json": (
            b'{"traceEvents":['
            b'{"ph":"M","name":"process_name","pid":2,"args":{"name":"/device:GPU:0"}},'
            b'{"ph":"M","name":"thread_name","pid":2,"tid":3,"args":{"name":"Stream #14(Compute)"}},'
            b'{"ph":"M","name":"process_name","pid":1,"args":{"name":"/host:CPU"}},'
            b'{"ph":"X","name":"PjitFunction(f)","pid":1,"tid":1,"ts":0,"dur":100},'
            b'{"ph":"X","name":"cuLaunchKernel","pid":1,"tid":1,"ts":2,"dur":3,"args":{"correlation_id":"5"}},'
            b'{"ph":"X","name":"fusion","pid":2,"tid":3,"ts":34.476999999999997,"dur":1e1,'
            b'"args":{"name":"jit(f)/attn/attn_q_k/dot","correlation_id":"5"}}]}'),
        "rocprofv3_min.json": (
            b'{"rocprofiler-sdk-tool":[{"agents":[{"id":{"handle":1},"type":2,"logical_node_type_id":0,'
            b'"name":"gfx942","product_name":"MI300X"}],"kernel_symbols":[{"kernel_id":1,"kernel_name":"k",'
            b'"truncated_kernel_name":"k"}],"buffer_records":{"kernel_dispatch":[{"correlation_id":{"internal":1},'
            b'"start_timestamp":10,"end_timestamp":20,"dispatch_info":{"agent_id":{"handle":1},"kernel_id":1,'
            b'"queue_id":{"handle":3},"dispatch_id":1}}]}}]}'),
        # kernels named by mangled C++ symbols, which the loader demangles (libiberty)
        "mangled_kernels.json": (
            b'[{"ph":"M","name":"process_name","pid":0,"args":{"name":"GPU 0"}},'
            b'{"ph":"X","cat":"kernel","name":"_ZN7ck_tile6kentryILi1ENS_4PassIDF16bfEEEEvPKT_","pid":0,"tid":7,'
            b'"ts":1,"dur":2},{"ph":"X","cat":"kernel","name":"_Z1fI1fI1fIiEEEvv","pid":0,"tid":7,"ts":4,"dur":2},'
            # back-references that double the name at each S_I…E: 30 of them stand for gigabytes
            b'{"ph":"X","cat":"kernel","name":"_Z1f1PIiiE' + b''.join(
                b'S_I' + (b'S_' if i < 2 else b'S' + b'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'[i - 2:i - 1] + b'_') * 2
                + b'E' for i in range(1, 31)) + b'","pid":0,"tid":7,"ts":7,"dur":2}]'),
        "deep_nesting.json": b'{"traceEvents":[{"args":' + b'[' * 200 + b']' * 200 + b'}]}',
        "numbers.json": b'[{"ph":"X","name":"n","pid":-1,"tid":1e300,"ts":-9223372036854775808,"dur":1.8e19}]',
    }
    seeds = []
    for name, data in e.items():
        seeds.append((name, data))
        if name in ("bare_array.json", "kineto_launch.json", "jax_scope.json"):
            seeds.append((name + ".gz", gzip.compress(data, mtime=0)))
    return seeds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir")
    parser.add_argument("--traces", default=os.path.join(REPO, "tests", "data"))
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    written = []

    public = os.path.join(args.traces, "public")
    jax = os.path.join(args.traces, "jax_h100")
    sources = []
    # and the converted rocprofv3 JSON, the one with HIP calls, roctx ranges and copies
    for root, _, files in [*os.walk(public, followlinks=True), *os.walk(os.path.join(args.traces, "converted"))]:
        sources += [os.path.join(root, f) for f in files if f.endswith((".json", ".json.gz"))]
    for variant in sorted(os.listdir(jax)) if os.path.isdir(jax) else []:
        # One einsum and one matmul run per variant, and every perfetto_trace.json.gz (one run keeps it).
        # Run folders may be symbolic links into resources/samples/.
        runs = sorted(os.listdir(os.path.join(jax, variant)))
        for run in runs:
            for root, _, files in os.walk(os.path.join(jax, variant, run), followlinks=True):
                sources += [os.path.join(root, f) for f in files if f.endswith(".json.gz") and
                            (run in (runs[0], runs[-1]) or f.startswith("perfetto_trace"))]
    if not sources:
        sys.exit("make_corpus.py: no traces under %s" % args.traces)

    for path in sorted(sources):
        parts = os.path.relpath(path, args.traces).split(os.sep)
        if parts[0] == "jax_h100":  # jax_h100/<variant>/<run>/.../<file>
            base = "jax__%s__%s__%s" % (parts[1], parts[2], parts[-1])
        else:  # public/<project>/<file>
            base = "%s__%s" % (parts[-2], parts[-1].split("__")[-1])
        base = base[:-3] if base.endswith(".gz") else base
        try:
            data = rocprof_seed(path) if path.endswith("results.json.gz") else chrome_seeds(path)
        except (OSError, ValueError) as error:
            sys.exit("make_corpus.py: cannot read %s: %s" % (path, error))
        write(args.out_dir, base, data, written)
        if data is not None:
            write(args.out_dir, base + ".gz", gzip.compress(data, mtime=0), written)

    for name, data in edge_cases():
        write(args.out_dir, "edge__" + name, data, written)

    # The SQLite formats: the converted rocpd and nsys databases and the real Nsight Systems exports
    # (public/pipit, public/Fuser), each cut down to fit a seed.
    databases = []
    for top in ("converted", "public"):
        for root, _, files in os.walk(os.path.join(args.traces, top)):
            databases += [os.path.join(root, f) for f in files if f.endswith((".sqlite", ".db"))]
    for path in sorted(databases):
        try:
            data = sqlite_seed(path)
        except sqlite3.Error as error:
            sys.exit("make_corpus.py: cannot read %s: %s" % (path, error))
        write(args.out_dir, "sqlite__" + os.path.basename(path).split("__")[-1], data, written)

    total = sum(size for _, size in written)
    print("make_corpus.py: %d seeds, %.1f kB in %s" % (len(written), total / 1024, args.out_dir))


if __name__ == "__main__":
    main()
