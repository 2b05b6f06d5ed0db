#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Many-runs benchmark (issues 33 and 42): `scopeline-cli diff A B` on N v N runs of a heavy-args trace,
# the HolisticTraceAnalysis df_index_resolver trace (PyTorch with record_shapes and profile_memory)
# replicated to >= BENCH_MIN_MB (default 140) MB by bench/make_large_trace.py (the runs are hard links
# to one file), for N = BENCH_MANY_N (default 1 10 20 50 100): wall time against 2N single-run loads
# (`info --json`, load + analysis, timed in the same run), peak RSS, and the CPU time a run against
# info's. Also one run's figures beside zcat (the best of at least 3), what a summary holds per run
# (bench_loadonly --summaries), each N v N again with its summaries kept by a first `diff` (the
# summary cache, off for every other figure), `summarize` of 10 runs and `diff` on those summaries. Targets (issue
# 42): 20 v 20 <= 0.8x the time of 40 single loads and <= 400 MB, 100 v 100 <= 1.5 GB; one load <= 0.25x
# zcat and peak RSS <= 0.35x the JSON.
# usage: bench/bench_many.sh [PATH/TO/scopeline-cli [PATH/TO/bench_loadonly]]
#   env: BENCH_RUNS (default 1), BENCH_MANY_N, BENCH_MIN_MB
# Exit status: 0 when run (whether or not targets are met), 1 on a failed command.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=${1:-$REPO/build/app/cli/scopeline-cli}
LOADONLY=${2:-$(dirname "$CLI")/../../bench/bench_loadonly}
RUNS=${BENCH_RUNS:-1}
COUNTS=${BENCH_MANY_N:-1 10 20 50 100}
MIN_MB=${BENCH_MIN_MB:-140}
PY=/usr/bin/python3
HEAVY=$REPO/tests/data/public/HolisticTraceAnalysis/tests__data__df_index_resolver__df_index_resolver.json.gz

die() { echo "bench_many.sh: $*" >&2; exit 1; }
[[ -x $CLI ]] || die "no scopeline-cli at $CLI (build it, or pass its path)"
[[ -x $LOADONLY ]] || die "no bench_loadonly at $LOADONLY (ninja bench_loadonly, or pass its path)"
[[ -f $HEAVY ]] || die "missing $HEAVY (part of the repository: see tests/data/README.md)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/scopeline-many.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

source "$REPO/bench/measure.sh"

mb() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb * 1024 / 1e6 }'; }

echo "scopeline many-runs benchmark: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), best of $RUNS, $("$CLI" --version 2>/dev/null | head -n1)"
"$PY" "$REPO/bench/make_large_trace.py" "$HEAVY" "$TMP/heavy.json.gz" --min-mb "$MIN_MB" | sed 's/^/  /'
FILE=$TMP/heavy.json.gz
BYTES=$(zcat "$FILE" | wc -c)
cat "$FILE" > /dev/null
printf "heavy-args replica: %.1f MB JSON (%.1f MB gzip)\n" "$(awk -v b="$BYTES" 'BEGIN { print b / 1e6 }')" \
  "$(awk -v b="$(stat -c %s "$FILE")" 'BEGIN { print b / 1e6 }')"

# The single-run figures every ratio is taken against: at least the best of 3, as one run is noisy.
MANY_RUNS=$RUNS
RUNS=$((RUNS > 3 ? RUNS : 3))
measure zcat zcat "$FILE"
Z_S=$BEST_S
printf "  %-34s %7.3f s\n" "zcat > /dev/null" "$Z_S"
measure info "$CLI" info --json "$FILE"
ONE_S=$BEST_S ONE_CPU_S=$BEST_CPU_S
awk -v l="one run: load + analysis (info)" -v s="$BEST_S" -v kb="$PEAK_KB" -v z="$Z_S" -v b="$BYTES" -v cpu="$BEST_CPU_S" 'BEGIN {
  printf "  %-34s %7.3f s  %5.2fx zcat   peak RSS %7.1f MB (%.2fx JSON)   targets 0.25x zcat (%s), 0.35x JSON (%s)   CPU %.3f s\n",
    l, s, s / z, kb * 1024 / 1e6, kb * 1024 / b, (s / z <= 0.25 ? "met" : "not met"), (kb * 1024 / b <= 0.35 ? "met" : "not met"), cpu }'
measure load "$LOADONLY" "$FILE"
awk -v l="one run: load, every arg (timeline)" -v s="$BEST_S" -v kb="$PEAK_KB" -v z="$Z_S" -v b="$BYTES" 'BEGIN {
  printf "  %-34s %7.3f s  %5.2fx zcat   peak RSS %7.1f MB (%.2fx JSON)\n", l, s, s / z, kb * 1024 / 1e6, kb * 1024 / b }'
RUNS=$MANY_RUNS
"$LOADONLY" --summaries 10 "$FILE" | sed 's/^/  /'

for n in $COUNTS; do
  for side in a b; do
    mkdir -p "$TMP/n$n/$side"
    # hard links: each a run of its own (a symbolic link to a trace already found counts once)
    for ((i = 0; i < n; i++)); do ln -f "$FILE" "$TMP/n$n/$side/run_$(printf %03d "$i").json.gz"; done
  done
  measure "diff $n v $n" "$CLI" diff "$TMP/n$n/a" "$TMP/n$n/b"
  # CPU per run beside info's: a summarised run reads the same events as info does, which bounds the ratio
  awk -v n="$n" -v s="$BEST_S" -v kb="$PEAK_KB" -v one="$ONE_S" -v cpu="$BEST_CPU_S" -v onecpu="$ONE_CPU_S" 'BEGIN {
    printf "  diff %3d v %-3d runs                %7.3f s  %5.2fx %d single-run loads   peak RSS %7.1f MB   CPU a run %.3f s (%.2fx info)\n",
      n, n, s, s / (2 * n * one), 2 * n, kb * 1024 / 1e6, cpu / (2 * n), cpu / (2 * n * onecpu) }'
  # the same runs again, their summaries kept by a first diff (a baseline compared once more)
  SCOPELINE_SUMMARY_CACHE=$TMP/cache "$CLI" diff "$TMP/n$n/a" "$TMP/n$n/b" > /dev/null
  SCOPELINE_SUMMARY_CACHE=$TMP/cache measure "diff $n v $n kept" "$CLI" diff "$TMP/n$n/a" "$TMP/n$n/b"
  awk -v n="$n" -v s="$BEST_S" -v kb="$PEAK_KB" -v one="$ONE_S" 'BEGIN {
    printf "  diff %3d v %-3d runs, summaries kept %7.3f s  %5.2fx %d single-run loads   peak RSS %7.1f MB\n",
      n, n, s, s / (2 * n * one), 2 * n, kb * 1024 / 1e6 }'
  rm -rf "$TMP/n$n" "$TMP/cache"
done
echo "  (targets: 20 v 20 <= 0.8x 40 single-run loads and <= 400 MB; 100 v 100 <= 1500 MB)"

mkdir -p "$TMP/s/a" "$TMP/s/b"
for ((i = 0; i < 10; i++)); do ln -f "$FILE" "$TMP/s/a/run_$i.json.gz"; ln -f "$FILE" "$TMP/s/b/run_$i.json.gz"; done
measure summarize "$CLI" summarize "$TMP/s/a" -o "$TMP/sum/a"
printf "  %-34s %7.3f s  %5.2fx 10 single-run loads   peak RSS %7.1f MB  (%s per summary file)\n" "summarize 10 runs" \
  "$BEST_S" "$(awk -v s="$BEST_S" -v one="$ONE_S" 'BEGIN { print s / (10 * one) }')" "$(mb "$PEAK_KB")" \
  "$(du -h "$(find "$TMP/sum/a" -name '*.slsum' | head -n1)" | cut -f1)"
"$CLI" summarize "$TMP/s/b" -o "$TMP/sum/b" > /dev/null
measure "diff summaries" "$CLI" diff "$TMP/sum/a" "$TMP/sum/b"
printf "  %-34s %7.3f s  peak RSS %7.1f MB\n" "diff 10 v 10 summaries" "$BEST_S" "$(mb "$PEAK_KB")"
