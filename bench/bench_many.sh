#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Many-runs benchmark (issue 33): `scopeline-cli diff A B` on N v N runs of the >= 150 MB replica
# of the TraceLens xdit trace (bench/make_large_trace.py; the runs are hard links to one file), for
# N = 1, 10, 50 (BENCH_MANY_N), wall time and peak RSS, printed beside the single-run figures of the
# same file: zcat, load + analysis (`info --json`) and load + summary (`scopes`), each of the gzip.
# Also `summarize` of 10 runs and `diff` on those summaries. Targets: 20 v 20 peak RSS <= 400 MB and
# wall <= 0.8 x 40 single-run loads; one run: load + analysis of gzip <= 0.25 x zcat, peak RSS <= 0.35 x
# the JSON.
# usage: bench/bench_many.sh [PATH/TO/scopeline-cli]   env: BENCH_RUNS (default 1), BENCH_MANY_N
# Exit status: 0 when run (whether or not targets are met), 1 on a failed command.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=${1:-$REPO/build/app/cli/scopeline-cli}
RUNS=${BENCH_RUNS:-1}
COUNTS=${BENCH_MANY_N:-1 10 20 50}
PY=/usr/bin/python3
XDIT=$REPO/tests/data/public/TraceLens/tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz

die() { echo "bench_many.sh: $*" >&2; exit 1; }
[[ -x $CLI ]] || die "no scopeline-cli at $CLI (build it, or pass its path)"
[[ -f $XDIT ]] || die "missing $XDIT (part of the repository: see tests/data/README.md)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/scopeline-many.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

source "$REPO/bench/measure.sh"

echo "scopeline many-runs benchmark: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), best of $RUNS, $("$CLI" --version 2>/dev/null | head -n1)"
"$PY" "$REPO/bench/make_large_trace.py" "$XDIT" "$TMP/large.json.gz" --min-mb 150 | sed 's/^/  /'
FILE=$TMP/large.json.gz
BYTES=$(zcat "$FILE" | wc -c)
cat "$FILE" > /dev/null
printf "replica: %.1f MB JSON (%.1f MB gzip)\n" "$(awk -v b="$BYTES" 'BEGIN { print b / 1e6 }')" \
  "$(awk -v b="$(stat -c %s "$FILE")" 'BEGIN { print b / 1e6 }')"

measure zcat zcat "$FILE"
Z_S=$BEST_S
printf "  %-34s %7.3f s\n" "zcat > /dev/null" "$Z_S"
measure info "$CLI" info --json "$FILE"
INFO_S=$BEST_S
awk -v l="one run: load + analysis (info)" -v s="$BEST_S" -v kb="$PEAK_KB" -v z="$Z_S" -v b="$BYTES" 'BEGIN {
  printf "  %-34s %7.3f s  %5.2fx zcat   peak RSS %7.1f MB (%.2fx JSON)   targets 0.25x zcat (%s), 0.35x JSON (%s)\n",
    l, s, s / z, kb * 1024 / 1e6, kb * 1024 / b, (s / z <= 0.25 ? "met" : "not met"), (kb * 1024 / b <= 0.35 ? "met" : "not met") }'
measure scopes "$CLI" scopes "$FILE"
LOAD_S=$BEST_S
awk -v l="one run: load + summary (scopes)" -v s="$BEST_S" -v kb="$PEAK_KB" -v z="$Z_S" -v b="$BYTES" 'BEGIN {
  printf "  %-34s %7.3f s  %5.2fx zcat   peak RSS %7.1f MB (%.2fx JSON)\n", l, s, s / z, kb * 1024 / 1e6, kb * 1024 / b }'

for n in $COUNTS; do
  for side in a b; do
    mkdir -p "$TMP/n$n/$side"
    # hard links: each a run of its own (a symbolic link to a trace already found counts once)
    for ((i = 0; i < n; i++)); do ln -f "$FILE" "$TMP/n$n/$side/run_$(printf %03d "$i").json.gz"; done
  done
  measure "diff $n v $n" "$CLI" diff "$TMP/n$n/a" "$TMP/n$n/b"
  awk -v n="$n" -v s="$BEST_S" -v kb="$PEAK_KB" -v one="$LOAD_S" 'BEGIN {
    printf "  diff %3d v %-3d runs                %7.3f s  %5.2fx %d single-run loads   peak RSS %7.1f MB\n",
      n, n, s, s / (2 * n * one), 2 * n, kb * 1024 / 1e6 }'
  rm -rf "$TMP/n$n"
done
echo "  (targets: 20 v 20 peak RSS <= 400 MB, wall <= 0.8x 40 single-run loads)"

mkdir -p "$TMP/s/a" "$TMP/s/b"
for ((i = 0; i < 10; i++)); do ln -f "$FILE" "$TMP/s/a/run_$i.json.gz"; ln -f "$FILE" "$TMP/s/b/run_$i.json.gz"; done
measure summarize "$CLI" summarize "$TMP/s/a" -o "$TMP/sum/a"
printf "  %-34s %7.3f s  peak RSS %7.1f MB  (%s per summary)\n" "summarize 10 runs" "$BEST_S" \
  "$(awk -v kb="$PEAK_KB" 'BEGIN { print kb * 1024 / 1e6 }')" "$(du -h "$(find "$TMP/sum/a" -name '*.slsum' | head -n1)" | cut -f1)"
"$CLI" summarize "$TMP/s/b" -o "$TMP/sum/b" > /dev/null
measure "diff summaries" "$CLI" diff "$TMP/sum/a" "$TMP/sum/b"
printf "  %-34s %7.3f s  peak RSS %7.1f MB\n" "diff 10 v 10 summaries" "$BEST_S" \
  "$(awk -v kb="$PEAK_KB" 'BEGIN { print kb * 1024 / 1e6 }')"
