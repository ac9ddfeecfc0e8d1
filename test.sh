#!/usr/bin/env bash
# Install what is missing, build (Release, tests on), and run the whole suite through ctest.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)"
