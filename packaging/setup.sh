#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Scopeline setup for a fresh Debian 12 machine: install what is missing, configure, build, then
#   run   launch the GUI (build/app/gui/scopeline) if it was built, else show scopeline-cli on the
#         bundled sample pairs in resources/samples/;
#   test  run the test suite with ctest;
#   deb   build the Debian packages (cpack) in build/: scopeline_*.deb (and scopeline-hipbench_*.deb
#         with nvcc, scopeline-hipbench-rocm_*.deb with hipcc);
#   sanitize  build the whole tree with AddressSanitizer + UndefinedBehaviorSanitizer (gcc) in
#         build-asan/ and run the test suite there; any finding fails its test;
#   fuzz [SECONDS]  build the libFuzzer targets tests/fuzz/fuzz_loader and fuzz_eventparser (clang)
#         in build-fuzz/, make the seed corpus from the real traces into build-fuzz/corpus and fuzz
#         the trace loader, then the fast event parse against nlohmann's, SECONDS each (default
#         60); a crash fails the command and leaves its input in build-fuzz/crashes/.
# Usage: sudo packaging/setup.sh run|test|deb|sanitize|fuzz [SECONDS]   (as root, no sudo needed)
# Env:   SCOPELINE_BUILD_DIR  build folder (default: <repo>/build, <repo>/build-asan for sanitize,
#                             <repo>/build-fuzz for fuzz)
set -euo pipefail

readonly PACKAGES=(
  build-essential cmake ninja-build
  qt6-base-dev qt6-tools-dev libqcustomplot-dev nlohmann-json3-dev libboost-math-dev zlib1g-dev
  libisal-dev                   # ISA-L inflate for gzip traces (zlib is the fallback)
  isal                          # igzip: bench/bench_load.sh's pure ISA-L inflate, beside ours
  libsqlite3-dev                # rocpd (ROCm 7) and Nsight Systems SQLite exports
  libiberty-dev                 # binutils' demangler, for kernel names a trace gives mangled
  python3-scipy python3-numpy   # the tests' independent oracle for the statistics
  hipcc libamdhip64-dev         # scopeline-hipbench-rocm, the AMD build of the HIP runner (ROCm 5.2)
  libgl1-mesa-dev               # OpenGL headers Qt's Gui package asks for
  file                          # CPack's dependency step (`setup.sh deb`)
)
# Only for `fuzz`: clang with libFuzzer and the sanitizer runtimes, llvm-symbolizer for the stacks.
readonly FUZZ_PACKAGES=(clang libclang-rt-dev llvm)
readonly CMAKE_MIN=3.25

die() { echo "setup.sh: error: $*" >&2; exit 1; }
say() { echo "==> $*"; }

usage() {
  echo "usage: $0 run|test|deb|sanitize|fuzz [SECONDS]" >&2
  echo "  run       build, then launch the GUI (or scopeline-cli on the bundled samples until the GUI exists)" >&2
  echo "  test      build, then run the tests (ctest, QT_QPA_PLATFORM=offscreen)" >&2
  echo "  deb       build, then make the Debian packages with cpack in the build folder" >&2
  echo "  sanitize  build with ASan+UBSan (gcc) in build-asan/, then run the tests there" >&2
  echo "  fuzz      build the loader's libFuzzer target (clang) in build-fuzz/ and fuzz it SECONDS (60)" >&2
  exit 2
}

(($# >= 1)) || usage
MODE=$1
FUZZ_SECONDS=60
case $MODE in
  run | test | sanitize | deb) (($# == 1)) || usage ;;
  fuzz)
    (($# <= 2)) || usage
    FUZZ_SECONDS=${2:-60}
    [[ $FUZZ_SECONDS =~ ^[1-9][0-9]*$ ]] || die "fuzz SECONDS must be a positive whole number, not '$FUZZ_SECONDS'"
    ;;
  *) usage ;;
esac

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case $MODE in
  sanitize) BUILD=${SCOPELINE_BUILD_DIR:-$REPO/build-asan} ;;
  fuzz) BUILD=${SCOPELINE_BUILD_DIR:-$REPO/build-fuzz} ;;
  *) BUILD=${SCOPELINE_BUILD_DIR:-$REPO/build} ;;
esac
[[ -f $REPO/CMakeLists.txt ]] || die "cannot find the repository root (expected $REPO/CMakeLists.txt)"

# --- 1. packages -------------------------------------------------------------------------------
wanted=("${PACKAGES[@]}")
[[ $MODE == fuzz ]] && wanted+=("${FUZZ_PACKAGES[@]}")
missing=()
for pkg in "${wanted[@]}"; do
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
  say "all ${#wanted[@]} packages already installed"
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
    env SCOPELINE_SETUP_DROPPED=1 bash "$REPO/packaging/setup.sh" "$@"
fi

# --- 2. configure and build ----------------------------------------------------------------------
# A build folder keeps its cached settings: one made for another checkout, generator or mode (fuzz's
# clang without tests, sanitize's flags) is refused rather than reused.
if [[ -f $BUILD/CMakeCache.txt ]]; then
  cached() { sed -n "s/^$1:[A-Z]*=//p" "$BUILD/CMakeCache.txt"; }
  other="remove it or set SCOPELINE_BUILD_DIR"
  [[ $(cached CMAKE_HOME_DIRECTORY) -ef $REPO ]] ||
    die "$BUILD was configured for the checkout at '$(cached CMAKE_HOME_DIRECTORY)': $other"
  [[ $(cached CMAKE_GENERATOR) == Ninja ]] ||
    die "$BUILD was configured with '$(cached CMAKE_GENERATOR)', not Ninja: $other"
  case "$(cached SCOPELINE_FUZZ),$(cached CMAKE_CXX_FLAGS)" in
    ON,*) made=fuzz ;;
    *fsanitize*) made=sanitize ;;
    *) made=build ;;
  esac
  case $MODE in fuzz | sanitize) wanted=$MODE ;; *) wanted=build ;; esac
  [[ $made == "$wanted" ]] || die "$BUILD was configured for '$made', not '$wanted': $other"
fi
say "configuring $BUILD"
case $MODE in
  sanitize)
    # gcc, the compiler of the normal build and of Debian's Qt: the Qt, QCustomPlot and Boost
    # parts build and link as usual. -O1 -g1 keeps the stacks readable (line tables give each frame
    # its file and line; full -g only adds compile time, a third more); asserts stay on (no NDEBUG).
    # -fno-sanitize-recover: a UBSan finding aborts, so the test fails instead of printing and passing.
    cmake -S "$REPO" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
      -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
    ;;
  fuzz)
    # clang for libFuzzer; everything the fuzz target links is built with ASan+UBSan, and
    # tests/fuzz/CMakeLists.txt adds the coverage instrumentation for libFuzzer.
    cmake -S "$REPO" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_COMPILER=clang++ -DSCOPELINE_FUZZ=ON -DBUILD_TESTING=OFF \
      -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
    ;;
  *) cmake -S "$REPO" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON ;;
esac
say "building"
if [[ $MODE == fuzz ]]; then
  cmake --build "$BUILD" --target fuzz_loader fuzz_eventparser
else
  cmake --build "$BUILD"
fi

# --- 3. run or test ------------------------------------------------------------------------------
SAMPLES=$REPO/resources/samples
GUI=$BUILD/app/gui/scopeline
CLI=$BUILD/app/cli/scopeline-cli

if [[ $MODE == test ]]; then
  say "running the tests"
  # One test a core: the tests are independent (their own temporary folders; the include checks that
  # build share a lock), and CI must finish within its time.
  QT_QPA_PLATFORM=offscreen ctest --test-dir "$BUILD" --output-on-failure --no-tests=error -j "$(nproc)"
  exit 0
fi

if [[ $MODE == deb ]]; then
  say "making the Debian packages"
  (cd "$BUILD" && cpack -G DEB)
  exit 0
fi

if [[ $MODE == sanitize ]]; then
  say "running the tests with AddressSanitizer + UndefinedBehaviorSanitizer"
  # Leak detection stays on: Qt's allocations still live at exit are not reported (checked on the
  # whole suite, GUI tests included).
  QT_QPA_PLATFORM=offscreen \
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    ctest --test-dir "$BUILD" --output-on-failure --no-tests=error -j "$(nproc)"
  exit 0
fi

if [[ $MODE == fuzz ]]; then
  say "making the seed corpus in $BUILD/corpus"
  /usr/bin/python3 "$REPO/tests/fuzz/make_corpus.py" "$BUILD/corpus"
  mkdir -p "$BUILD/crashes"
  say "fuzzing the trace loader and the event parse (crash inputs go to $BUILD/crashes/)"
  # libFuzzer exits non-zero on a crash, leak, sanitizer finding, timeout or out-of-memory, and
  # writes the input to $BUILD/crashes/{crash,leak,timeout,oom}-<sha1>; set -e then fails the command.
  for target in fuzz_loader fuzz_eventparser; do
    say "$target: $FUZZ_SECONDS s"
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
      "$BUILD/tests/fuzz/$target" -max_total_time="$FUZZ_SECONDS" -dict="$REPO/tests/fuzz/scopeline.dict" \
      -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix="$BUILD/crashes/$target-" \
      "$BUILD/corpus"
  done
  exit 0
fi

if [[ -x $GUI ]]; then
  # With no arguments the GUI opens the bundled launch-chain pair (eager vs graph) with its scope selected.
  say "launching $GUI on the bundled launch-chain sample pair (eager launches vs CUDA graphs)"
  if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} && -z ${QT_QPA_PLATFORM:-} ]]; then
    # A window nobody can see would run until killed: draw it once into a picture instead.
    shot=$BUILD/scopeline-samples.png
    say "no display: drawing the window into $shot (run this from a desktop session to use the app)"
    QT_QPA_PLATFORM=offscreen "$GUI" --screenshot "$shot" || die "scopeline could not draw the samples"
    exit 0
  fi
  exec "$GUI"
fi

[[ -x $CLI ]] || die "the build did not produce $CLI"
say "the GUI is not built yet; scopeline-cli on the bundled samples instead"
say "scopeline-cli compare matmul einsum (JAX GPT, 3 runs per side, cuBLAS GEMMs)"
"$CLI" compare "$SAMPLES/jax_matmul_vs_einsum/matmul" "$SAMPLES/jax_matmul_vs_einsum/einsum" \
  --scope attn_q_k --scope attn_att_v --scope mlp
echo
say "scopeline-cli compare eager graph (scopeline-hipbench launch-chain: 200 kernels one by one vs one graph)"
"$CLI" compare "$SAMPLES/hipbench_launch_chain/eager" "$SAMPLES/hipbench_launch_chain/graph" --scope chain --samples span
echo
say "scopeline-cli compare eager reduce_overhead (PyTorch GPT, torch.compile with CUDA graphs)"
"$CLI" compare "$SAMPLES/torch_compile/eager" "$SAMPLES/torch_compile/reduce_overhead" --scope ProfilerStep --samples span
