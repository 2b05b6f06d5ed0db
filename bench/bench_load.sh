#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Load benchmark: Scopeline's load alone (bench_loadonly), load + analysis (scopeline-cli info
# --json) and load + analysis + scope index (scopeline-cli scopes) against zcat, a pure ISA-L
# inflate (igzip -d -c) and Python's json.load, on
#   (i)  the 63 MB TraceLens xdit_flux.1 trace (AMD MI300X, 229k events, PyTorch/Kineto args), and
#   (ii) a >= 150 MB trace made from it by bench/make_large_trace.py (in a temporary folder), and
#   (iii) a heavy-args trace: HolisticTraceAnalysis' df_index_resolver (PyTorch with record_shapes and
#        profile_memory) replicated to >= 140 MB the same way,
# each gzip'ed and plain. "load" keeps every arg (what a timeline shows); info reads only the args a
# figure reads (TraceDetail::Figures). Times are the best of BENCH_RUNS (default 3) runs, peak RSS the largest
# seen, via bench/timed_run.py. Targets (issue 13): load + analysis of gzip <= 0.5x zcat (aim 0.25x),
# plain JSON >= 1 GB/s, peak RSS <= 0.5x the JSON size; issue 33's, printed after each trace's rows:
# load + analysis of gzip <= 0.25x zcat, peak RSS <= 0.35x the JSON size.
# usage: bench/bench_load.sh [PATH/TO/scopeline-cli [PATH/TO/bench_loadonly]]
#   env: BENCH_RUNS, BENCH_MIN_MB (default 150), BENCH_PYTHON=0 to leave out Python (slow)
# The xdit trace is the repository's copy, tests/data/public/TraceLens/ (see tests/data/README.md).
# Exit status: 0 when run (whether or not targets are met), 1 on a failed command.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=${1:-$REPO/build/app/cli/scopeline-cli}
LOADONLY=${2:-$(dirname "$CLI")/../../bench/bench_loadonly}
RUNS=${BENCH_RUNS:-3}
MIN_MB=${BENCH_MIN_MB:-150}
PY=/usr/bin/python3
XDIT=$REPO/tests/data/public/TraceLens/tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz
HEAVY=$REPO/tests/data/public/HolisticTraceAnalysis/tests__data__df_index_resolver__df_index_resolver.json.gz

die() { echo "bench_load.sh: $*" >&2; exit 1; }
[[ -x $CLI ]] || die "no scopeline-cli at $CLI (build it, or pass its path)"
[[ -x $LOADONLY ]] || die "no bench_loadonly at $LOADONLY (ninja bench_loadonly, or pass its path)"
IGZIP=$(command -v igzip || true) # Debian package isal (setup.sh installs it); said so when missing
[[ -f $XDIT ]] || die "missing $XDIT (part of the repository: see tests/data/README.md)"
[[ -f $HEAVY ]] || die "missing $HEAVY (part of the repository: see tests/data/README.md)"
[[ -x $PY ]] || die "$PY missing"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/scopeline-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

source "$REPO/bench/measure.sh"

# row LABEL SECONDS KB: one line of the table, with the time against zcat's ($Z_S) and MB/s.
row() {
  awk -v l="$1" -v s="$2" -v kb="$3" -v z="$Z_S" -v bytes="$BYTES" 'BEGIN {
    printf "  %-38s %6.3f s  %7.0f MB/s  %5.2fx zcat", l, s, (s > 0 ? bytes / s / 1e6 : 0), (z > 0 ? s / z : 0)
    if (kb > 0) printf "  peak RSS %7.1f MB (%.2fx JSON)", kb * 1024 / 1e6, kb * 1024 / bytes
    printf "\n" }'
}

bench_file() {
  local label=$1 file=$2 plain=$TMP/plain.json
  zcat "$file" > "$plain"
  BYTES=$(stat -c %s "$plain")
  cat "$file" "$plain" > /dev/null # warm the page cache
  printf "%s: %s\n  JSON %.1f MB uncompressed (%.1f MB gzip)\n" "$label" "$file" \
    "$(awk -v b="$BYTES" 'BEGIN { print b / 1e6 }')" "$(awk -v b="$(stat -c %s "$file")" 'BEGIN { print b / 1e6 }')"
  measure zcat zcat "$file"
  Z_S=$BEST_S
  row "zcat > /dev/null" "$Z_S" 0
  if [[ -n $IGZIP ]]; then
    measure igzip "$IGZIP" -d -c "$file"
    row "igzip -d -c (ISA-L inflate alone)" "$BEST_S" 0
  else
    echo "  igzip -d -c (ISA-L inflate alone)       not run: no igzip (Debian package isal; packaging/setup.sh installs it)"
  fi
  if [[ ${BENCH_PYTHON:-1} != 0 ]]; then
    measure python "$PY" -c 'import gzip, json, sys; json.load(gzip.open(sys.argv[1]))' "$file"
    row "python3 json.load(gzip.open(F))" "$BEST_S" "$PEAK_KB"
  fi
  measure load "$LOADONLY" "$file"
  row "scopeline load, gzip" "$BEST_S" "$PEAK_KB"
  measure info "$CLI" info --json "$file"
  row "scopeline load+analysis, gzip" "$BEST_S" "$PEAK_KB"
  INFO_S=$BEST_S INFO_KB=$PEAK_KB
  measure scopes "$CLI" scopes "$file"
  row "scopeline load+analysis+scopes, gzip" "$BEST_S" "$PEAK_KB"
  measure load "$LOADONLY" "$plain"
  row "scopeline load, plain" "$BEST_S" "$PEAK_KB"
  measure info "$CLI" info --json "$plain"
  row "scopeline load+analysis, plain" "$BEST_S" "$PEAK_KB"
  measure scopes "$CLI" scopes "$plain"
  row "scopeline load+analysis+scopes, plain" "$BEST_S" "$PEAK_KB"
  # the event parse alone, one thread: about half of a load's CPU time, the rest its inflate, copy,
  # columns and analysis (bench_loadonly --parse)
  local parse events
  read -r parse events < <("$LOADONLY" --parse "$plain") || die "bench_loadonly --parse failed on $plain"
  row "event parse alone, one thread (CPU)" "$parse" 0
  awk -v s="$parse" -v n="$events" 'BEGIN { printf "  %-38s %6.0f ns an event (%d events)\n", "", s * 1e9 / n, n }'
  targets "$INFO_S" "$INFO_KB"
  rm -f "$plain"
}

# targets SECONDS KB: issues 33 and 42's single-run targets for load + analysis of the gzip, met or not.
targets() {
  awk -v s="$1" -v kb="$2" -v z="$Z_S" -v bytes="$BYTES" 'BEGIN {
    t = s / z; m = kb * 1024 / bytes
    printf "  single-run targets (issues 33, 42): load+analysis gzip %.2fx zcat (<= 0.25x: %s), peak RSS %.2fx JSON (<= 0.35x: %s)\n",
      t, (t <= 0.25 ? "met" : "not met"), m, (m <= 0.35 ? "met" : "not met") }'
}

echo "scopeline load benchmark: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), best of $RUNS runs, $("$CLI" --version 2>/dev/null | head -n1)"
echo "generating the large traces (>= $MIN_MB MB, >= 140 MB) ..."
"$PY" "$REPO/bench/make_large_trace.py" "$XDIT" "$TMP/xdit_large.json.gz" --min-mb "$MIN_MB" | sed 's/^/  /'
"$PY" "$REPO/bench/make_large_trace.py" "$HEAVY" "$TMP/heavy_large.json.gz" --min-mb 140 | sed 's/^/  /'
echo
bench_file "(i) xdit_flux.1 (TraceLens, MI300X)" "$XDIT"
echo
bench_file "(ii) xdit_flux.1 replicated" "$TMP/xdit_large.json.gz"
echo
bench_file "(iii) HTA df_index_resolver (V100, shapes and memory) replicated" "$TMP/heavy_large.json.gz"
