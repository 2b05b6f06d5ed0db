#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Records the bundled scopeline-hipbench sample: a small launch-chain pair (eager vs graph) into
# resources/samples/hipbench_launch_chain/. Needs a GPU; run from the repository root after a build.
# Usage: resources/samples/record_hipbench.sh [BUILD_DIR]
set -euo pipefail
BUILD=${1:-build}
OUT=resources/samples/hipbench_launch_chain
"$BUILD/app/hipbench/scopeline-hipbench" run launch-chain --kernels 200 --iterations 20 --repeat 2 \
  --out "$OUT.tmp"
rm -rf "$OUT"
mkdir -p "$OUT"
mv "$OUT.tmp/eager" "$OUT.tmp/graph" "$OUT.tmp/summary.json" "$OUT/"
rm -rf "$OUT.tmp"
# summary.json names absolute paths of this machine; keep it for its figures, the pair is the folders.
"$BUILD/app/cli/scopeline-cli" compare "$OUT/eager" "$OUT/graph" --scope chain --samples span
