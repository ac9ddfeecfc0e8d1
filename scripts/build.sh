#!/usr/bin/env bash
# Configures (once) and builds Myriad in Release under build/. MYRIAD_CUDA=AUTO|ON|OFF is passed through. The
# Python package is built against build/venv's interpreter when scripts/python-env.sh made it (test.sh does), so
# that its tests run with numpy and pytest; a build configured before the venv existed is pointed at it.
set -euo pipefail
cd "$(dirname "$0")/.."
cuda=${MYRIAD_CUDA:-AUTO}
python_args=()
venv_python="$PWD/build/venv/bin/python"
[ -x "$venv_python" ] && python_args=(-DPython_EXECUTABLE="$venv_python")
# Ninja where it is installed (scripts/install-deps.sh installs it): unlike make it starts a target's compiles before
# the libraries it links are archived, which keeps both cores busy while the CUDA kernels compile.
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DMYRIAD_CUDA="$cuda" "${python_args[@]}" ${MYRIAD_CMAKE_ARGS:-}
elif [ ${#python_args[@]} -gt 0 ] && ! grep -qx "Python_EXECUTABLE:[A-Z]*=$venv_python" build/CMakeCache.txt; then
  cmake -S . -B build "${python_args[@]}"
fi
cmake --build build -j "$(nproc)"
