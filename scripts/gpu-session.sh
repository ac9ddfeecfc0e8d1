#!/usr/bin/env bash
# The GPU checks and benchmarks of a session with a device machine, in stages that each fit one 10-minute call of
# the device tool (the build directory build-gpu stays between calls while the machine is held):
#   scripts/gpu-session.sh build        unpack .deps (see ../shared/scripts/pack-offline-deps.sh), configure
#                                       for sm_90, build everything
#   scripts/gpu-session.sh test         the GPU tests (CudaBackend.*, LorenzGpu.*, EnsembleStatisticsGpu.*)
#   scripts/gpu-session.sh lu           bench/batched_lu
#   scripts/gpu-session.sh crossover    bench/gpu_strategy_crossover (thread / warp / staged per ndof)
#   scripts/gpu-session.sh throughput   bench/ensemble_throughput (incl. the 30x figure at N = 1e5)
#   scripts/gpu-session.sh lorenz       bench/lorenz_calibration (vs MPGOS)
# Each stage writes its raw output, the command and nvidia-smi's device line to $OUT (default out/gpu), from
# where the results are copied into bench/results/ with the device named.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=${1:?usage: scripts/gpu-session.sh build|test|lu|crossover|throughput|lorenz}
out=${OUT:-out/gpu}
mkdir -p "$out"
build=build-gpu
record() {  # record NAME COMMAND...: runs the command, keeping its output, the command and the device
  local name=$1
  shift
  { echo "# command: $*"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
    echo "# host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"; } > "$out/$name.txt"
  "$@" 2>&1 | tee -a "$out/$name.txt"
}
case "$stage" in
  build)
    prefix=()
    if [ -d .deps ]; then
      mkdir -p .deps/root
      for f in .deps/*.deb; do dpkg -x "$f" .deps/root; done
      prefix=(-DCMAKE_PREFIX_PATH="$PWD/.deps/root/usr")
    fi
    # No Python package: .deps carries no pybind11 or Python headers (pack-offline-deps.sh), and the GPU checks
    # here are C++ (add pybind11-dev python3-dev to the pack and drop the flag for the Python-on-GPU checks).
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DMYRIAD_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DMYRIAD_BUILD_PYTHON=OFF "${prefix[@]}" > "$out/configure.txt" 2>&1
    cmake --build "$build" -j "$(nproc)" > "$out/build.txt" 2>&1 || { tail -50 "$out/build.txt"; exit 1; }
    tail -3 "$out/build.txt"
    ;;
  test) record gpu_tests ctest --test-dir "$build" -R "Gpu|Cuda" --output-on-failure ;;
  lu) record batched_lu "$build/bench/batched_lu" ;;
  crossover) record gpu_strategy_crossover "$build/bench/gpu_strategy_crossover" --out "$out/gpu_strategy_crossover.md" ;;
  throughput)
    record ensemble_throughput "$build/bench/ensemble_throughput" --cpu-max-n 100000 --reference-max-n 100 \
      --out "$out/ensemble_throughput_gpu.md" ;;
  lorenz) record lorenz_calibration "$build/bench/lorenz_calibration" --out "$out/lorenz_calibration.md" ;;
  *) echo "unknown stage $stage" >&2; exit 2 ;;
esac
