#!/usr/bin/env bash
# The sanitizer job: the library, the CLI and the tests built by clang with ASan + UBSan (CPU only, no
# benchmarks) under build-asan/, then the `fast` test label through ctest. A sanitizer report aborts the process
# (no recovery), so it fails the test that triggered it. MYRIAD_SKIP_SANITIZE=1 skips the job.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${MYRIAD_SKIP_SANITIZE:-0}" = 1 ]; then
  echo "sanitize.sh: skipped (MYRIAD_SKIP_SANITIZE=1)"
  exit 0
fi
scripts/install-deps.sh --clang
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
if [ ! -f build-asan/CMakeCache.txt ]; then
  # clang: on two cores (a fresh-clone .ci/run on the development machine) it built this job in 18.4 minutes
  # where g++ took 26.2 and ran the fast tests in 1.6 against 2.4; its UBSan also checks null + offset
  # pointer arithmetic, which g++'s does not.
  # -O1 -g1: fast enough to run the tests, line numbers in the reports; assertions stay on (no NDEBUG).
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)  # as scripts/build.sh
  cmake -S . -B build-asan "${generator[@]}" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_CXX_FLAGS="$sanitize" -DCMAKE_EXE_LINKER_FLAGS="$sanitize" \
    -DMYRIAD_CUDA=OFF -DMYRIAD_BUILD_BENCH=OFF \
    -DMYRIAD_BUILD_PYTHON=OFF  # an ASan extension cannot load into the system interpreter
fi
cmake --build build-asan -j "$(nproc)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd build-asan
ctest -L fast --output-on-failure -j "$(nproc)"
