#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Stands in for scopeline-hipbench in tst_hipbenchrunner and tst_runnerpanel, where no GPU runs it:
# the same command line, `--list --json` shape, progress lines on stderr, output folders, summary.json
# and exit statuses (0 ok, 1 bad usage, 2 cannot write, 3 no GPU, 4 cancelled) as app/hipbench/main.cpp.
# Its list is the real launch-chain entry (tst_hipbenchrunner checks that).
# FAKE_HIPBENCH chooses what it does:
#   ok (default)    lists one workload; `run` records eager and graph and writes summary.json
#   no-gpu          `run` fails as the real program does without a GPU (exit 3)
#   hang            `run` says progress 0/2 and sleeps until terminated
#   ignore-term     like hang, but ignores SIGTERM: only a kill ends it
#   stop-on-term    records eager's first run and says so, then on SIGTERM writes summary.json and
#                   exits 4, as the real program stops after the run in progress
#   crash           `run` dies of SIGSEGV after a line on stderr
#   no-summary      `run` exits 0 without writing summary.json
#   fails-late      `run` records its runs and summary.json, then fails with a GPU error (exit 3)
#   list-garbage    `--list --json` prints something that is not JSON
#   list-fail       `--list --json` fails with exit status 1
#   list-no-library `--list --json` fails as the loader does without libcudart.so.13 (exit 127)
#   process-fails   `child-process 1` records its first run, then fails with a GPU error (exit 3)
#   process-crash   `child-process 1` records its first run, then dies of SIGSEGV
#   process-cancel  `child-process 1`, in its second run, sends SIGTERM to its parent (a user's cancel),
#                   and on the SIGTERM passed on finishes that run and exits 4 as the real child does
# `child-process P WORKLOAD --out DIR ...` is the real program's internal command for one process of
# `run --processes N` (app/hipbench/childprocess.h): its messages are JSON lines on stdout.
set -u
behaviour=${FAKE_HIPBENCH:-ok}
say() { echo "scopeline-hipbench: $*" >&2; }

if [ "${1:-}" = "--list" ]; then
  case $behaviour in
    list-garbage) echo "launch-chain  N small dependent kernels"; exit 0 ;;
    list-fail) say "cannot list: out of memory"; exit 1 ;;
    list-no-library)
      echo "scopeline-hipbench: error while loading shared libraries: libcudart.so.13: cannot open shared object file" >&2
      exit 127 ;;
  esac
  cat <<'JSON'
[
  {
    "description": "N small dependent kernels launched one by one (eager) vs captured once into a graph and replayed (graph); each kernel runs for about a microsecond, so launch overhead dominates",
    "name": "launch-chain",
    "options": [
      {"default": "200", "help": "kernels in the chain", "maximum": 100000, "minimum": 1, "name": "kernels"},
      {"default": "256", "help": "floats each kernel updates", "maximum": 67108864, "minimum": 1, "name": "elements"},
      {"choices": ["eager", "graph", "both"], "default": "both",
       "help": "launch one by one, as a graph, or both (A eager, B graph)", "name": "mode"},
      {"default": "20", "help": "timed repetitions of the workload in each run", "maximum": 100000, "minimum": 1, "name": "iterations"},
      {"default": "3", "help": "runs per variant, each a run folder with its own trace", "maximum": 100, "minimum": 1, "name": "repeat"},
      {"default": "1", "help": "processes per variant, each running --repeat runs (more than 1: run folders proc_<p>/run_<r>)", "maximum": 100, "minimum": 1, "name": "processes"},
      {"default": "2", "help": "untraced repetitions before the traced ones", "maximum": 1000, "minimum": 0, "name": "warmup"}
    ],
    "variants": ["eager", "graph"]
  }
]
JSON
  exit 0
fi

command=${1:-}
case $command in
  run) shift ;;
  child-process) process=${2:-}; shift 2 || { say "child-process needs a process number"; exit 1; } ;;
  *) say "unknown command '$command'"; exit 1 ;;
esac
workload=${1:-}
shift || true
out= repeat=1 processes=1 mode=both # a --repeat or --processes not given counts 1 here
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=${2:-} ;;
    --repeat) repeat=${2:-} ;;
    --processes) processes=${2:-} ;;
    --mode) mode=${2:-} ;;
    --*) ;; # the workload's other options: taken as given
    *) say "unexpected argument '$1'"; exit 1 ;;
  esac
  shift 2 || { say "option $1 wants a value"; exit 1; }
done
[ "$workload" = "launch-chain" ] || { say "unknown workload '$workload' (see --list)"; exit 1; }
[ -n "$out" ] || { say "run needs --out DIR"; exit 1; }
if [ "$command" = run ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  say "$out: not an empty folder: record into a new or empty one"; exit 1
fi
mkdir -p "$out" 2>/dev/null || { say "$out: cannot create the folder"; exit 2; }
out=$(cd "$out" && pwd)

# A run's folder, as the real program lays them out.
folder() { # VARIANT PROCESS RUN
  if [ "$processes" -gt 1 ]; then echo "$out/$1/proc_$2/run_$3"; else echo "$out/$1/run_$3"; fi
}

if [ "$command" = child-process ]; then
  echo '{"device":"Fake GPU"}'
  echo "{\"preparing\":\"$mode\",\"process\":$process}"
  for r in $(seq 0 $((repeat - 1))); do
    if [ "$process" = 1 ] && [ "$r" = 1 ]; then
      case $behaviour in
        process-fails) echo '{"error":"cudaDeviceSynchronize: an illegal memory access was encountered"}'; exit 3 ;;
        process-crash) kill -SEGV $$ ;;
        process-cancel)
          stopped=0
          trap 'stopped=1' TERM
          kill -TERM "$PPID"
          while [ "$stopped" = 0 ]; do sleep 0.05; done ;;
      esac
    fi
    dir=$(folder "$mode" "$process" "$r")
    mkdir -p "$dir" || exit 2
    if [ "$mode" = graph ]; then launches=0 graphs=20 delay=null graphdelay=140000.0
    else launches=4000 graphs=0 delay=6000.0 graphdelay=null; fi
    echo "{\"run\":{\"variant\":\"$mode\",\"process\":$process,\"run\":$r,\"file\":\"$dir/hipbench.pt.trace.json.gz\",\"kernels\":4000,\"kernelLaunches\":$launches,\"graphLaunches\":$graphs,\"busyNs\":4500000,\"spanNs\":7500000,\"idleNs\":3000000,\"idleGaps\":3999,\"medianLaunchDelayNs\":$delay,\"medianGraphLaunchDelayNs\":$graphdelay,\"minLaunchToKernelNs\":4700}}"
    [ "${stopped:-0}" = 1 ] && exit 4
  done
  echo '{"scopes":["chain"],"samples":"span"}'
  exit 0
fi

case $behaviour in
  no-gpu) say "no CUDA-capable device is detected"; exit 3 ;;
  hang | ignore-term)
    echo $$ > "$out/fake.pid" # exec keeps the process id: the test checks that it is gone
    [ "$behaviour" = ignore-term ] && trap '' TERM # and sleep inherits the ignored signal
    echo "progress: 0/2 preparing eager" >&2
    exec sleep 600 ;;
  crash) echo "progress: 0/2 preparing eager" >&2; say "about to crash"; kill -SEGV $$ ;;
  stop-on-term)
    mkdir -p "$(folder eager 0 0)" || exit 2
    trap 'printf "{\"a\": {\"label\": \"eager\", \"path\": \"%s\"}, \"runs\": []}\n" "$out/eager" > "$out/summary.json"; exit 4' TERM
    echo "progress: 1/2 eager run 0 recorded" >&2
    sleep 600 &
    wait $! ;; # the trap runs as the signal comes, not after the sleep
esac

echo "launch-chain on Fake GPU, 20 iterations per run"
echo "variant  process  run  kernels  launches  graph-launches  busy-us  span-us  idle-us  idle-gaps  median-launch-delay-us  median-graph-launch-delay-us  min-launch-to-kernel-us"
total=$((2 * processes * repeat))
done_runs=0
for p in $(seq 0 $((processes - 1))); do
  for variant in eager graph; do
    if [ "$processes" -gt 1 ]; then where=" in process $p" which=" process $p"; else where= which=; fi
    echo "progress: $done_runs/$total preparing $variant$where" >&2
    for r in $(seq 0 $((repeat - 1))); do
      mkdir -p "$(folder "$variant" "$p" "$r")" || { say "$out/$variant: cannot create the folder"; exit 2; }
      done_runs=$((done_runs + 1))
      if [ "$variant" = graph ]; then echo "graph  $p  $r  200  0  10  250.000  300.000  50.000  199  –  7.000  7.000"
      else echo "eager  $p  $r  200  200  0  250.000  300.000  50.000  199  1.000  –  2.000"; fi
      echo "progress: $done_runs/$total $variant$which run $r recorded" >&2
    done
  done
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
if [ "$behaviour" = fails-late ]; then # the real program's two lines: the error, then where the runs are
  say "cudaDeviceSynchronize: an illegal memory access was encountered"
  say "cudaDeviceSynchronize: an illegal memory access was encountered; the $total runs recorded are in $out/summary.json"
  exit 3
fi
printf 'wrote %s' "$out/summary.json" # no newline: the reader must flush the last line
exit 0
