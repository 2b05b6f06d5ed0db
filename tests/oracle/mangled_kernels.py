#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent test oracle for the kernel names a trace gives mangled.

Counts the kernels of a trace whose raw name is a mangled C++ symbol ("_Z..."), by the name binutils'
`c++filt --no-verbose --no-recurse-limit` reads from it (trace_summary.read_symbols; the symbol itself where c++filt
cannot read it), and prints
them as a JSON object {name: count}. Reads Chrome/Kineto trace JSON (gzip or plain: events of category
kernel) and rocpd databases (each dispatch's kernel symbol, its display name before its symbol name).

Usage: /usr/bin/python3 mangled_kernels.py TRACE_FILE
"""
import collections
import gzip
import json
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_summary as ts  # noqa: E402  (read_symbols: how a mangled kernel name is read)


def raw_kernel_names(path):
    with open(path, "rb") as f:
        head = f.read(16)
    if head.startswith(b"SQLite format 3"):
        db = sqlite3.connect(path)
        rows = db.execute("SELECT COALESCE(NULLIF(S.display_name, ''), S.kernel_name) FROM rocpd_kernel_dispatch K "
                          "JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id")
        return [name for (name,) in rows]
    opener = gzip.open if head.startswith(b"\x1f\x8b") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    return [e["name"] for e in events if e.get("ph") == "X" and e.get("cat") in ("kernel", "Kernel")]


def main():
    kernels = [{"name": n} for n in raw_kernel_names(sys.argv[1]) if n.startswith("_Z")]
    ts.read_symbols(kernels)
    print(json.dumps(collections.Counter(k["name"] for k in kernels)))


if __name__ == "__main__":
    main()
