#!/usr/bin/env bash
# The fuzzing job: builds the libFuzzer targets of tests/fuzz under build-fuzz/ with clang and runs each through
# ctest for SECONDS (argument, else MYRIAD_FUZZ_SECONDS, else 60; 0 skips the job), two at a time, from a fresh
# working corpus seeded with the shipped models and CSVs (tests/fuzz/run_fuzzer.sh). Any finding fails the job
# and prints the path of the input that caused it; every run is killed SECONDS + 60 s after it starts at most.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${MYRIAD_FUZZ_SECONDS:-60}}
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2; }
if [ "$seconds" -eq 0 ]; then
  echo "fuzz.sh: skipped (0 seconds)"
  exit 0
fi

scripts/install-deps.sh --clang

if [ ! -f build-fuzz/CMakeCache.txt ]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)  # as scripts/build.sh
  cmake -S tests/fuzz -B build-fuzz "${generator[@]}" -DCMAKE_CXX_COMPILER=clang++
fi
cmake --build build-fuzz -j "$(nproc)"
MYRIAD_FUZZ_SECONDS=$seconds ctest --test-dir build-fuzz --verbose -j "$(nproc)" --timeout $((seconds + 120))
