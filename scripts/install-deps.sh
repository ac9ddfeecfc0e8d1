#!/usr/bin/env bash
# Installs the Debian packages the build needs, only those missing. With --clang also clang, its sanitizer and
# libFuzzer runtimes (a package named for clang's major version) and llvm-symbolizer, for scripts/sanitize.sh
# and scripts/fuzz.sh. Needs root (or sudo) when something is missing.
set -euo pipefail

install_missing() {
  local need=() p
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
  done
  [ ${#need[@]} -eq 0 ] && return 0
  echo "installing: ${need[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
}

install_missing cmake g++ make ninja-build libeigen3-dev nlohmann-json3-dev libgtest-dev libcli11-dev
# The Python package (python/): pybind11 and the interpreter's development files; venv for scripts/python-env.sh.
install_missing pybind11-dev python3-dev python3-venv
# Studies (src/study): results in HDF5 files; MPI across processes and nodes (mpirun -np K myriad study).
install_missing libhdf5-dev libopenmpi-dev openmpi-bin
if [ "${1:-}" = --clang ]; then
  install_missing clang llvm
  install_missing "libclang-rt-$(clang++ --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)-dev"
fi
