#!/usr/bin/env bash
# Scopeline setup for a fresh Debian 12 machine: install what is missing, configure, build, then
#   run   launch the GUI (build/app/gui/scopeline) if it was built, else show scopeline-cli on the
#         bundled sample pairs in resources/samples/;
#   test  run the test suite with ctest.
# Usage: sudo packaging/setup.sh run|test   (as root, no sudo needed)
# Env:   SCOPELINE_BUILD_DIR  build folder (default: <repo>/build)
set -euo pipefail

readonly PACKAGES=(
  build-essential cmake ninja-build
  qt6-base-dev qt6-tools-dev libqcustomplot-dev nlohmann-json3-dev libboost-math-dev zlib1g-dev
  python3-scipy python3-numpy   # the tests' independent oracle for the statistics
  xvfb xauth libgl1-mesa-dev    # headless GUI runs
  time                          # /usr/bin/time for bench/bench_load.sh
)
readonly CMAKE_MIN=3.25

die() { echo "setup.sh: error: $*" >&2; exit 1; }
say() { echo "==> $*"; }

usage() {
  echo "usage: $0 run|test" >&2
  echo "  run   build, then launch the GUI (or scopeline-cli on the bundled samples until the GUI exists)" >&2
  echo "  test  build, then run the tests (ctest, QT_QPA_PLATFORM=offscreen)" >&2
  exit 2
}

[[ $# -eq 1 ]] || usage
MODE=$1
[[ $MODE == run || $MODE == test ]] || usage

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${SCOPELINE_BUILD_DIR:-$REPO/build}
[[ -f $REPO/CMakeLists.txt ]] || die "cannot find the repository root (expected $REPO/CMakeLists.txt)"

# --- 1. packages -------------------------------------------------------------------------------
missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  say "installing missing packages: ${missing[*]}"
  SUDO=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 ||
      die "missing packages (${missing[*]}) and not root, and sudo is not available: run this script as root"
    SUDO=(sudo)
  fi
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
else
  say "all ${#PACKAGES[@]} packages already installed"
fi

cmake_version=$(cmake --version | awk 'NR == 1 { print $3 }')
if [[ $(printf '%s\n%s\n' "$CMAKE_MIN" "$cmake_version" | sort -V | head -n1) != "$CMAKE_MIN" ]]; then
  die "CMake $CMAKE_MIN or newer is needed, found $cmake_version"
fi

# Under sudo, build and run as the invoking user when the checkout is theirs, so build/ is not
# root-owned and the GUI does not run as root.
if [[ $(id -u) -eq 0 && -n ${SUDO_USER:-} && $SUDO_USER != root && -z ${SCOPELINE_SETUP_DROPPED:-} ]] &&
  [[ $(stat -c %U "$REPO") == "$SUDO_USER" ]] && { [[ ! -e $BUILD ]] || [[ $(stat -c %U "$BUILD") == "$SUDO_USER" ]]; }; then
  say "continuing as $SUDO_USER"
  exec sudo -u "$SUDO_USER" -H \
    --preserve-env=DISPLAY,WAYLAND_DISPLAY,XAUTHORITY,XDG_RUNTIME_DIR,SCOPELINE_BUILD_DIR \
    env SCOPELINE_SETUP_DROPPED=1 bash "$REPO/packaging/setup.sh" "$MODE"
fi

# --- 2. configure and build ----------------------------------------------------------------------
if [[ -f $BUILD/CMakeCache.txt ]]; then
  generator=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$BUILD/CMakeCache.txt")
  [[ $generator == Ninja ]] ||
    die "$BUILD was configured with '$generator', not Ninja: remove it or set SCOPELINE_BUILD_DIR"
fi
say "configuring $BUILD"
cmake -S "$REPO" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release
say "building"
cmake --build "$BUILD"

# --- 3. run or test ------------------------------------------------------------------------------
SAMPLES=$REPO/resources/samples
GUI=$BUILD/app/gui/scopeline
CLI=$BUILD/app/cli/scopeline-cli

if [[ $MODE == test ]]; then
  say "running the tests"
  QT_QPA_PLATFORM=offscreen ctest --test-dir "$BUILD" --output-on-failure
  exit 0
fi

if [[ -x $GUI ]]; then
  # With no arguments the GUI opens the bundled matmul/einsum pair with its scopes selected.
  say "launching $GUI on the bundled matmul/einsum sample pair"
  if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} && -z ${QT_QPA_PLATFORM:-} ]]; then
    say "no display: running under xvfb-run (nothing will be visible)"
    exec xvfb-run -a "$GUI"
  fi
  exec "$GUI"
fi

[[ -x $CLI ]] || die "the build did not produce $CLI"
say "the GUI is not built yet; scopeline-cli on the bundled samples instead"
say "scopeline-cli compare matmul einsum (JAX GPT, 3 runs per side, cuBLAS GEMMs)"
"$CLI" compare "$SAMPLES/jax_matmul_vs_einsum/matmul" "$SAMPLES/jax_matmul_vs_einsum/einsum" \
  --scope attn_q_k --scope attn_att_v --scope mlp
echo
say "scopeline-cli info eager graph (same model, one launch per kernel vs CUDA graphs)"
"$CLI" info "$SAMPLES/eager_vs_graph/eager" "$SAMPLES/eager_vs_graph/graph"
