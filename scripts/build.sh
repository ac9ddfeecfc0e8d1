#!/usr/bin/env bash
# Configures (once) and builds Myriad in Release under build/. MYRIAD_CUDA=AUTO|ON|OFF is passed through.
set -euo pipefail
cd "$(dirname "$0")/.."
cuda=${MYRIAD_CUDA:-AUTO}
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMYRIAD_CUDA="$cuda" ${MYRIAD_CMAKE_ARGS:-}
fi
cmake --build build -j "$(nproc)"
