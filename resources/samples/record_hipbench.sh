#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Records the bundled scopeline-hipbench sample again: the launch-chain pair (eager vs graph, 5 runs a
# side, the runner's defaults otherwise: 200 kernels, 20 iterations) into
# resources/samples/hipbench_launch_chain/, replacing the H100 recording there (README.md). Needs an
# NVIDIA GPU; run from the repository root after a build.
# Usage: resources/samples/record_hipbench.sh [BUILD_DIR]
set -euo pipefail
BUILD=${1:-build}
OUT=resources/samples/hipbench_launch_chain
rm -rf "$OUT.tmp" # the runner records into a new folder only
"$BUILD/app/hipbench/scopeline-hipbench" run launch-chain --kernels 200 --iterations 20 --repeat 5 \
  --out "$OUT.tmp"
rm -rf "$OUT"
mkdir -p "$OUT"
mv "$OUT.tmp/eager" "$OUT.tmp/graph" "$OUT/"
rm -rf "$OUT.tmp"
# The runner's summary.json (absolute paths of this machine) goes with the temporary folder; that of the
# bundled recording is tests/data/h100_runs/hipbench/launch-chain/summary.json.
"$BUILD/app/cli/scopeline-cli" compare "$OUT/eager" "$OUT/graph" --scope chain --samples span
