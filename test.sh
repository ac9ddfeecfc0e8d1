#!/usr/bin/env bash
# Install what is missing, build (Release, tests on), and run the whole suite through ctest; then the sanitizer
# job (ASan + UBSan build, `fast` tests; MYRIAD_SKIP_SANITIZE=1 skips it) and the fuzzing job (MYRIAD_FUZZ_SECONDS
# per target, default 60, 0 skips it). Each job ends with its own ctest summary and stops the script on failure.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
(cd build && ctest --output-on-failure -j "$(nproc)")
scripts/sanitize.sh
scripts/fuzz.sh
