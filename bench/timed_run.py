#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# timed_run.py RESULT CMD ARGS...: runs CMD once, its stdout to /dev/null, and writes
# "SECONDS PEAK_KB CPU_SECONDS" to RESULT: the wall time around the child alone (GNU time's %e has
# 10 ms steps, 5% of a 0.2 s load), the child's peak RSS and its CPU time (user + system, all threads)
# from wait4. Exits with the child's status.
import os
import sys
import time

result, command = sys.argv[1], sys.argv[2:]
to_null = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]
start = time.perf_counter()
pid = os.posix_spawnp(command[0], command, os.environ, file_actions=to_null)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open(result, "w") as out:
    out.write(f"{seconds:.4f} {usage.ru_maxrss} {usage.ru_utime + usage.ru_stime:.4f}\n")
sys.exit(os.waitstatus_to_exitcode(status))
