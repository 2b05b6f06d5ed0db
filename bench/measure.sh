# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by the bench scripts (sourced): one timed measurement through bench/timed_run.py.
# Needs PY, REPO, RUNS, TMP and die() from the script that sources it.

# Every load reads its trace: a summary kept from an earlier run (README, SummaryCache) would time
# the cache, not the load. bench_many.sh times the cache on its own.
export SCOPELINE_SUMMARY_CACHE=off

# measure NAME CMD...: run CMD (stdout to /dev/null) RUNS times; sets BEST_S (the best wall time),
# BEST_CPU_S (the CPU time of that run, every thread's) and PEAK_KB (the largest peak RSS).
measure() {
  local name=$1 i e m c
  shift
  BEST_S="" BEST_CPU_S="" PEAK_KB=0
  for ((i = 0; i < RUNS; i++)); do
    if ! "$PY" "$REPO/bench/timed_run.py" "$TMP/time" "$@" 2> "$TMP/err"; then
      cat "$TMP/err" >&2
      die "$name failed: $*"
    fi
    read -r e m c < <(tail -n1 "$TMP/time")
    if [[ -z $BEST_S ]] || awk -v a="$e" -v b="$BEST_S" 'BEGIN { exit !(a < b) }'; then BEST_S=$e BEST_CPU_S=$c; fi
    if ((m > PEAK_KB)); then PEAK_KB=$m; fi
  done
}
