#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Stands in for scopeline-hipbench in tst_hipbenchrunner and tst_runnerpanel, where no GPU runs it:
# the same command line, `--list --json` shape, progress lines on stderr, output folders, summary.json
# and exit statuses (0 ok, 1 bad usage, 2 cannot write, 3 no GPU) as app/hipbench/main.cpp.
# Its list is the real launch-chain entry (tst_hipbenchrunner checks that).
# FAKE_HIPBENCH chooses what it does:
#   ok (default)    lists one workload; `run` records eager and graph and writes summary.json
#   no-gpu          `run` fails as the real program does without a GPU (exit 3)
#   hang            `run` says progress 0/2 and sleeps until terminated
#   ignore-term     like hang, but ignores SIGTERM: only a kill ends it
#   crash           `run` dies of SIGSEGV after a line on stderr
#   no-summary      `run` exits 0 without writing summary.json
#   list-garbage    `--list --json` prints something that is not JSON
#   list-fail       `--list --json` fails with exit status 1
set -u
behaviour=${FAKE_HIPBENCH:-ok}
say() { echo "scopeline-hipbench: $*" >&2; }

if [ "${1:-}" = "--list" ]; then
  case $behaviour in
    list-garbage) echo "launch-chain  N small dependent kernels"; exit 0 ;;
    list-fail) say "cannot list: out of memory"; exit 1 ;;
  esac
  cat <<'JSON'
[
  {
    "description": "N small dependent kernels launched one by one (eager) vs captured once into a graph and replayed (graph); each kernel runs for about a microsecond, so launch overhead dominates",
    "name": "launch-chain",
    "options": [
      {"default": "200", "help": "kernels in the chain", "name": "kernels"},
      {"default": "256", "help": "floats each kernel updates", "name": "elements"},
      {"choices": ["eager", "graph", "both"], "default": "both",
       "help": "launch one by one, as a graph, or both (A eager, B graph)", "name": "mode"},
      {"default": "20", "help": "timed repetitions of the workload in each run", "name": "iterations"},
      {"default": "3", "help": "runs per variant, each a run folder with its own trace", "name": "repeat"},
      {"default": "2", "help": "untraced repetitions before the traced ones", "name": "warmup"}
    ],
    "variants": ["eager", "graph"]
  }
]
JSON
  exit 0
fi

[ "${1:-}" = "run" ] || { say "unknown command '${1:-}'"; exit 1; }
shift
workload=${1:-}
shift || true
out=
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=${2:-} ;;
    --*) ;; # the workload's options: taken as given
    *) say "unexpected argument '$1'"; exit 1 ;;
  esac
  shift 2 || { say "option $1 wants a value"; exit 1; }
done
[ "$workload" = "launch-chain" ] || { say "unknown workload '$workload' (see --list)"; exit 1; }
[ -n "$out" ] || { say "run needs --out DIR"; exit 1; }
mkdir -p "$out" 2>/dev/null || { say "$out: cannot create the folder"; exit 2; }
out=$(cd "$out" && pwd)

case $behaviour in
  no-gpu) say "no CUDA-capable device is detected"; exit 3 ;;
  hang | ignore-term)
    echo $$ > "$out/fake.pid" # exec keeps the process id: the test checks that it is gone
    [ "$behaviour" = ignore-term ] && trap '' TERM # and sleep inherits the ignored signal
    echo "progress: 0/2 preparing eager" >&2
    exec sleep 600 ;;
  crash) echo "progress: 0/2 preparing eager" >&2; say "about to crash"; kill -SEGV $$ ;;
esac

echo "launch-chain on Fake GPU, 20 iterations per run"
done_runs=0
for variant in eager graph; do
  echo "progress: $done_runs/2 preparing $variant" >&2
  mkdir -p "$out/$variant/run_0" || { say "$out/$variant: cannot create the folder"; exit 2; }
  done_runs=$((done_runs + 1))
  echo "$variant  0  200  200  0  250.000  300.000  50.000  199  1.000  2.000"
  echo "progress: $done_runs/2 $variant run 0" >&2
done
[ "$behaviour" = "no-summary" ] && exit 0
cat > "$out/summary.json" <<JSON
{
  "workload": "launch-chain",
  "device": "Fake GPU",
  "scopes": ["chain"],
  "samples": "span",
  "a": {"label": "eager", "path": "$out/eager"},
  "b": {"label": "graph", "path": "$out/graph"},
  "runs": []
}
JSON
printf 'wrote %s' "$out/summary.json" # no newline: the reader must flush the last line
exit 0
