#!/usr/bin/env bash
# Load benchmark: scopeline-cli info --json against zcat and Python's json.load, on
#   (i)  the 63 MB TraceLens xdit_flux.1 trace (AMD MI300X, 229k events), and
#   (ii) a >= 150 MB trace made from it by bench/make_large_trace.py (in a temporary folder).
# Times are the best of BENCH_RUNS (default 3) runs, peak RSS the largest seen, via /usr/bin/time.
# Targets: scopeline-cli time <= 2x zcat time, scopeline-cli peak RSS <= uncompressed JSON size.
# usage: bench/bench_load.sh [PATH/TO/scopeline-cli]
#   env: BENCH_RUNS, BENCH_MIN_MB (default 150)
# The xdit trace is the repository's copy, tests/data/public/TraceLens/ (see tests/data/README.md).
# Exit status: 0 when run (whether or not targets are met), 1 on a failed command.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=${1:-$REPO/build/app/cli/scopeline-cli}
RUNS=${BENCH_RUNS:-3}
MIN_MB=${BENCH_MIN_MB:-150}
PY=/usr/bin/python3
XDIT=$REPO/tests/data/public/TraceLens/tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz

die() { echo "bench_load.sh: $*" >&2; exit 1; }
[[ -x $CLI ]] || die "no scopeline-cli at $CLI (build it, or pass its path)"
[[ -f $XDIT ]] || die "missing $XDIT (part of the repository: see tests/data/README.md)"
[[ -x /usr/bin/time ]] || die "/usr/bin/time missing (apt-get install time)"
[[ -x $PY ]] || die "$PY missing"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/scopeline-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# measure NAME CMD...: run CMD (stdout to /dev/null) RUNS times; sets BEST_S and PEAK_KB.
measure() {
  local name=$1 i e m
  shift
  BEST_S="" PEAK_KB=0
  for ((i = 0; i < RUNS; i++)); do
    if ! /usr/bin/time -f '%e %M' -o "$TMP/time" "$@" > /dev/null 2> "$TMP/err"; then
      cat "$TMP/err" >&2
      die "$name failed: $*"
    fi
    read -r e m < <(tail -n1 "$TMP/time")
    if [[ -z $BEST_S ]] || awk -v a="$e" -v b="$BEST_S" 'BEGIN { exit !(a < b) }'; then BEST_S=$e; fi
    if ((m > PEAK_KB)); then PEAK_KB=$m; fi
  done
}

bench_file() {
  local label=$1 file=$2 bytes z_s py_s py_kb sl_s sl_kb
  bytes=$(zcat "$file" | wc -c)
  cat "$file" > /dev/null # warm the page cache
  measure zcat zcat "$file"
  z_s=$BEST_S
  measure python "$PY" -c 'import gzip, json, sys; json.load(gzip.open(sys.argv[1]))' "$file"
  py_s=$BEST_S py_kb=$PEAK_KB
  measure scopeline-cli "$CLI" info --json "$file"
  sl_s=$BEST_S sl_kb=$PEAK_KB
  awk -v label="$label" -v file="$file" -v bytes="$bytes" -v gz="$(stat -c %s "$file")" \
    -v z="$z_s" -v py="$py_s" -v pykb="$py_kb" -v sl="$sl_s" -v slkb="$sl_kb" 'BEGIN {
      mb = bytes / 1e6; rss = slkb * 1024 / 1e6; tr = (z > 0) ? sl / z : 0; mr = slkb * 1024 / bytes
      printf "%s: %s\n", label, file
      printf "  JSON %.1f MB uncompressed (%.1f MB gzip)\n", mb, gz / 1e6
      printf "  %-34s %7.2f s\n", "zcat > /dev/null", z
      printf "  %-34s %7.2f s  peak RSS %7.1f MB\n", "python3 json.load(gzip.open(F))", py, pykb * 1024 / 1e6
      printf "  %-34s %7.2f s  peak RSS %7.1f MB\n", "scopeline-cli info --json", sl, rss
      printf "  time   scopeline/zcat      %5.2fx  (target <= 2x: %s)\n", tr, tr <= 2 ? "met" : sprintf("missed, %.2fx over", tr / 2)
      printf "  memory scopeline RSS/JSON  %5.2fx  (target <= 1x: %s)\n", mr, mr <= 1 ? "met" : sprintf("missed, %.2fx over", mr)
    }'
}

echo "scopeline load benchmark: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), best of $RUNS runs, $("$CLI" --version 2>/dev/null | head -n1)"
echo "generating the large trace (>= $MIN_MB MB) ..."
"$PY" "$REPO/bench/make_large_trace.py" "$XDIT" "$TMP/xdit_large.json.gz" --min-mb "$MIN_MB" | sed 's/^/  /'
echo
bench_file "(i) xdit_flux.1 (TraceLens, MI300X)" "$XDIT"
echo
bench_file "(ii) xdit_flux.1 replicated" "$TMP/xdit_large.json.gz"
