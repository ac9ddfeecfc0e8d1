#!/usr/bin/env bash
# Install what is missing (Debian packages; the Python test environment build/venv: scripts/python-env.sh), build
# (Release, tests on, the Python package myriad under build/python), and run the whole suite through ctest (the
# pytest suite of tests/python is the ctest `python_tests`); then the sanitizer
# job (ASan + UBSan build, `fast` tests; MYRIAD_SKIP_SANITIZE=1 skips it) and the fuzzing job (MYRIAD_FUZZ_SECONDS
# per target, default 60, 0 skips it). Each job ends with its own ctest summary and stops the script on failure.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/python-env.sh
scripts/build.sh
(cd build && ctest --output-on-failure -j "$(nproc)")
scripts/sanitize.sh
scripts/fuzz.sh
