#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Huge-trace benchmark (issue 42): about 50 million events, the TraceLens xdit trace replicated to
# BENCH_HUGE_MB (default 12000) MB of JSON by bench/make_large_trace.py (gzip, in a temporary folder;
# several minutes), or the trace in BENCH_HUGE_FILE. Once each, beside zcat of the same file:
# `scopeline-cli info --json` (load + analysis), the window opening it to a painted timeline
# (`scopeline FILE --screenshot`, offscreen: start-up, load, summary, layout, paint and the PNG) and
# bench_timeline's frame times on it. Targets: the window's peak RSS <= 0.3x the JSON, a frame at fit
# <= 16 ms.
# usage: bench/bench_huge.sh [PATH/TO/scopeline-cli [PATH/TO/scopeline [PATH/TO/bench_timeline]]]
# Exit status: 0 when run (whether or not targets are met), 1 on a failed command.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=${1:-$REPO/build/app/cli/scopeline-cli}
GUI=${2:-$(dirname "$CLI")/../gui/scopeline}
TIMELINE=${3:-$(dirname "$CLI")/../../bench/bench_timeline}
RUNS=1
PY=/usr/bin/python3
XDIT=$REPO/tests/data/public/TraceLens/tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz

die() { echo "bench_huge.sh: $*" >&2; exit 1; }
[[ -x $CLI ]] || die "no scopeline-cli at $CLI (build it, or pass its path)"
[[ -f $XDIT ]] || die "missing $XDIT (part of the repository: see tests/data/README.md)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/scopeline-huge.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

source "$REPO/bench/measure.sh"

echo "scopeline huge-trace benchmark: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo) of memory, load average $(cut -d' ' -f1-3 /proc/loadavg), $("$CLI" --version 2>/dev/null | head -n1)"
FILE=${BENCH_HUGE_FILE:-}
if [[ -z $FILE ]]; then
  FILE=$TMP/huge.json.gz
  echo "generating >= ${BENCH_HUGE_MB:-12000} MB of JSON ..."
  "$PY" "$REPO/bench/make_large_trace.py" "$XDIT" "$FILE" --min-mb "${BENCH_HUGE_MB:-12000}" | tee "$TMP/made" | sed 's/^/  /'
  BYTES=$(awk '{ print $NF }' "$TMP/made")
else
  BYTES=$(zcat -f "$FILE" | wc -c)
fi
cat "$FILE" > /dev/null
printf "%s: %.1f GB JSON (%.2f GB gzip)\n" "$FILE" "$(awk -v b="$BYTES" 'BEGIN { print b / 1e9 }')" \
  "$(awk -v b="$(stat -c %s "$FILE")" 'BEGIN { print b / 1e9 }')"

# row LABEL SECONDS KB: the time against zcat's, the peak RSS against the JSON's size.
row() {
  awk -v l="$1" -v s="$2" -v kb="$3" -v z="$Z_S" -v b="$BYTES" 'BEGIN {
    printf "  %-40s %8.2f s  %5.2fx zcat", l, s, s / z
    if (kb > 0) printf "  peak RSS %8.1f MB (%.3fx JSON)", kb * 1024 / 1e6, kb * 1024 / b
    printf "\n" }'
}

measure zcat zcat "$FILE"
Z_S=$BEST_S
row "zcat > /dev/null" "$Z_S" 0
measure info "$CLI" info --json "$FILE"
row "scopeline-cli info (load + analysis)" "$BEST_S" "$PEAK_KB"
if [[ -x $GUI ]]; then
  measure window env QT_QPA_PLATFORM=offscreen "$GUI" "$FILE" --size 1600x900 --screenshot "$TMP/window.png"
  row "window: open to a painted timeline" "$BEST_S" "$PEAK_KB"
  awk -v kb="$PEAK_KB" -v b="$BYTES" 'BEGIN { m = kb * 1024 / b
    printf "  target: the window'"'"'s peak RSS <= 0.3x the JSON: %s\n", (m <= 0.3 ? "met" : "not met") }'
else
  echo "  window: not run (no $GUI: the GUI is not built)"
fi
if [[ -x $TIMELINE ]]; then
  echo "  timeline frames (bench_timeline on this trace):"
  QT_QPA_PLATFORM=offscreen BENCH_FRAMES=${BENCH_FRAMES:-10} "$TIMELINE" "$FILE" | sed 's/^/    /'
else
  echo "  timeline frames: not run (no $TIMELINE)"
fi
