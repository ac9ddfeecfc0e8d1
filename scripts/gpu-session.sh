#!/usr/bin/env bash
# The GPU checks and benchmarks of a session with a device machine (issue 14).
#
# The short way, one call of the device tool (a lease has about 15 minutes, a call at most 10):
#   here:   scripts/gpu-session.sh pack     build for sm_90 in build-gpu (CUDA on, Python off) and put the
#                                           programs and their libraries into .gpu/bundle.tar.xz (git-ignored)
#   there:  scripts/gpu-session.sh device   (carry [".gpu"]) unpack, then within GPU_SESSION_SECONDS (default 540):
#           the checks: the GPU tests (GPU_TEST_SHARDS processes at once) and, beside them, compute-sanitizer
#           memcheck, racecheck, initcheck (every strategy and method on a tree and a loop model:
#           tests/gpu_sanitizer) and synccheck (warp and shared-LU kernels), a process per tool, strategy and model,
#           as many at once as the device memory allows; then the figures: the stiff pendulum's fused-vs-all-cores
#           rows (ensemble_throughput, N = 1e3 .. 1e6), `myriad study` on the cuda backend against the cpu backend
#           (scripts/compare_study_kpis.py), the CLI as a user runs it (cuda against cpu on every core, compared by
#           scripts/compare_ensemble_csv.py), the stepping API's env steps per second (step_throughput), an
#           ncu profile of the fused kernel (RN4, N = 1e5), the crossover from n = 8, batched LU,
#           lorenz_calibration and an ncu profile of its float32 kernel, the step-budget probe; the Python package's
#           cuda tests and env steps when the bundle has it (step python; carry .whl too, with gymnasium's wheels).
#           A step that would not fit the time left is skipped and says so; GPU_SESSION_STEPS=cli,lorenz (say)
#           runs only those (a second call on the still-warm machine, for what the first had to skip). After each step the logs and
#           results are packed into $OUT/gpu_session.tar.gz and a line goes to $OUT/summary.txt, so a call cut
#           off at its limit still returns what ran.
#
# The long way, when a machine can build for itself (build-gpu stays between calls while the machine is held):
#   scripts/gpu-session.sh build        unpack .deps (../shared/scripts/pack-offline-deps.sh), configure for
#                                       sm_90, build everything
#   scripts/gpu-session.sh test|lu|crossover|throughput|lorenz    one stage each
# Each writes its raw output, the command and nvidia-smi's device line to $OUT (default out/gpu); the results
# then go to bench/results/ with the device named.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=${1:?usage: scripts/gpu-session.sh pack|device|build|test|lu|crossover|throughput|lorenz}
out=${OUT:-out/gpu}
mkdir -p "$out"
build=${GPU_BUILD_DIR:-build-gpu}  # the device stage reads the bundle's own (build_dir)
# Where pack puts the bundle and device reads it (pack empties it first): GPU_BUNDLE_DIR=.gpu-nofmad-tests (say)
# keeps another bundle beside the first, carried as [".gpu-nofmad-tests"] with the same variable set there.
bundle=${GPU_BUNDLE_DIR:-.gpu}
case "$bundle" in
  .gpu | .gpu-*) ;;
  *) echo "GPU_BUNDLE_DIR must be .gpu or .gpu-<name> (git-ignored): $bundle" >&2; exit 2 ;;
esac
record() {  # record NAME COMMAND...: runs the command, keeping its output, the command and the device
  local name=$1
  shift
  { echo "# command: $*"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
    echo "# host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"; } > "$out/$name.txt"
  "$@" 2>&1 | tee -a "$out/$name.txt"
}
programs=(myriad myriad_tests gpu_sanitizer_runs bench/ensemble_throughput bench/gpu_strategy_crossover
          bench/lorenz_calibration bench/batched_lu bench/step_throughput)
gpu_filter="CudaBackend.*:CudaRunPlan.*:CudaSimulator.*:LorenzGpu.*:EnsembleStatisticsGpu.*:AbsoluteCuda.*"
strategies=${GPU_SANITIZER_STRATEGIES:-fused,budget,warp,shared-lu,staged,step}
work=/tmp/gpu-session
pendulum=(simulate models/stiff_double_pendulum.json --integrator rn4 --rtol 1e-6 --atol 1e-6 --quiet)
device_env() {  # the unpacked bundle's programs and libraries; cuBLAS from the device's toolkit (or a wheel's copy)
  bin=$PWD/$bundle/unpacked/bin
  source_dir=$(cat "$bundle"/unpacked/source_dir)
  local cublas_dir=
  if [ ! -e /usr/local/cuda/lib64/libcublas.so.13 ] && ! ldconfig -p | grep -q 'libcublas\.so\.13'; then
    cublas_dir=$(dirname "$(find / -xdev -name 'libcublas.so.13' 2>/dev/null | head -n 1 || true)")
  fi
  local nsight
  nsight=$(ls -d /opt/nvidia/nsight-compute/*/ 2>/dev/null | tail -n 1 || true)
  export PATH=$PATH:/usr/local/cuda/bin:/usr/local/cuda/compute-sanitizer${nsight:+:$nsight}
  export LD_LIBRARY_PATH=$PWD/$bundle/unpacked/lib:/usr/local/cuda/lib64${cublas_dir:+:$cublas_dir}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
}
case "$stage" in
  pack)
    # Built here (nvcc, 2 cores: the kernels take most of an hour), run there: the device's minutes go to the
    # checks, not to compiling. The programs find the models through the source directory compiled into them
    # (MYRIAD_SOURCE_DIR), which the device stage recreates as a link to its checkout. A second build to weigh
    # against the first: GPU_BUILD_DIR=build-gpu-nofmad GPU_PACK_CMAKE_ARGS=-DMYRIAD_CUDA_FMAD=OFF
    # GPU_BUNDLE_DIR=.gpu-nofmad-tests GPU_PACK_PROGRAMS=myriad_tests (say), each bundle carried in a call of its own.
    if [ ! -f "$build/CMakeCache.txt" ]; then
      # shellcheck disable=SC2086  # GPU_PACK_CMAKE_ARGS: options, split on spaces
      cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DMYRIAD_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DMYRIAD_BUILD_PYTHON=OFF ${GPU_PACK_CMAKE_ARGS:-}
    fi
    # GPU_PACK_PROGRAMS (e.g. myriad,myriad_tests,bench/ensemble_throughput) bundles only those: each program now
    # carries its own 45-60 MB of kernels, so the whole list may not fit a call's 64 MiB (below).
    if [ -n "${GPU_PACK_PROGRAMS:-}" ]; then IFS=, read -r -a programs <<< "$GPU_PACK_PROGRAMS"; fi
    targets=()
    for p in "${programs[@]}"; do targets+=(--target "$(basename "$p")"); done
    # The Python package too (the device step `python`) when build-gpu was configured for it: with the device's
    # interpreter (3.12) and a pybind11 that reads NumPy 2 (the device's NumPy; Debian's 2.10 does not), e.g.
    #   cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DMYRIAD_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    #     -DMYRIAD_BUILD_PYTHON=ON -DPython_EXECUTABLE=<python3.12> -Dpybind11_DIR=$(<python3.12> -m pybind11 --cmakedir)
    python_package=
    if grep -q '^MYRIAD_BUILD_PYTHON:BOOL=ON' "$build/CMakeCache.txt"; then python_package=1; targets+=(--target _myriad); fi
    cmake --build "$build" -j "$(nproc)" "${targets[@]}"
    rm -rf "$bundle" && mkdir -p "$bundle"/stage/bin "$bundle"/stage/lib
    for p in "${programs[@]}"; do cp "$build/$p" "$bundle"/stage/bin/; done
    strip --strip-unneeded "$bundle"/stage/bin/*
    if [ -n "$python_package" ]; then
      cp -r "$build/python" "$bundle"/stage/python
      find "$bundle"/stage/python -name __pycache__ -prune -exec rm -rf {} +
    fi
    # Libraries outside the C runtime, except the CUDA ones the device's toolkit has (cuBLAS is hundreds of MB).
    for p in "$bundle"/stage/bin/* "$bundle"/stage/python/myriad/_myriad*.so; do
      [ -e "$p" ] || continue
      ldd "$p" | awk '/=> \//{print $3}'
    done | sort -u | grep -Ev '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|ld-linux[^/]*|libcuda|libcublas[^/]*)\.so' \
      | while read -r lib; do cp -L "$lib" "$bundle"/stage/lib/; done
    pwd > "$bundle"/stage/source_dir
    echo "$build" > "$bundle"/stage/build_dir
    grep -E '^MYRIAD_CUDA_FMAD' "$build/CMakeCache.txt" > "$bundle"/stage/cmake_options || true
    git rev-parse HEAD > "$bundle"/stage/commit
    # The programs' kernels are alike: one xz stream whose dictionary spans several programs stores what they share
    # once. The default 64 MiB window did while a program was 40 MB (19 MB bundles, 26 MB with the tire formulas);
    # at 50-85 MB a program it saw none (121 MB and growing, 2026-11-30), 256 MiB does (myriad, myriad_tests and
    # ensemble_throughput: 58.7 MB; the three are 200 MB). The working tree travels too (8.9 MB, 1.6 MB of it
    # bench/results), and both must stay under the call's 64 MiB: the fatbins are compressed already, so since the
    # fmad-off kernels (61.1 MB for myriad_tests alone) a bundle holds one program (docs/validation/ensembles.md).
    tar -cf - -C "$bundle"/stage . | xz -T1 --lzma2=preset=9,dict=256MiB > "$bundle"/bundle.tar.xz
    rm -rf "$bundle"/stage
    ls -l "$bundle"/bundle.tar.xz
    ;;
  device)
    begin=$(date +%s)
    budget=${GPU_SESSION_SECONDS:-540}
    rm -rf "$work" "$bundle"/unpacked && mkdir -p "$work/results" "$bundle"/unpacked
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$bundle"/bundle.tar.xz "$bundle"/unpacked
    device_env
    if [ "$source_dir" != "$PWD" ] && [ ! -e "$source_dir" ]; then
      mkdir -p "$(dirname "$source_dir")" && ln -s "$PWD" "$source_dir"
    fi
    build=$(cat "$bundle"/unpacked/build_dir 2>/dev/null || echo build-gpu)
    if [ -x "$bin/myriad" ]; then  # MYRIAD_CLI of the tests; a bundle of the tests and benchmarks alone has none
      mkdir -p "$source_dir/$build" && cp "$bin/myriad" "$source_dir/$build/myriad"
    fi
    {
      echo "Device: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader)"
      echo "Host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/{print $2}') GiB"
      echo "Bundle: commit $(cat "$bundle"/unpacked/commit), built on the development machine for sm_90 in $build"
      cat "$bundle"/unpacked/cmake_options 2>/dev/null || true
      nvcc --version | tail -2 || true
      ncu --version | tail -1 || true
      compute-sanitizer --version | tail -1 || true
    } > "$work/device.txt" 2>&1
    cat "$work/device.txt"
    summary=$out/summary.txt
    : > "$summary"
    pack_out() { tar -czf "$out/gpu_session.tar.gz" -C "$work" .; }
    # step NAME SECONDS COMMAND...: runs COMMAND under a timeout when SECONDS still fit the budget, its output
    # (after the command and the device) in $work/NAME.txt.
    step() {
      local name=$1 seconds=$2
      shift 2
      if [ -n "${GPU_SESSION_STEPS:-}" ] && [[ ",$GPU_SESSION_STEPS,smoke," != *",$name,"* ]]; then
        return 0
      fi
      # gpu_tests and sanitizers are part of checks; alone only when GPU_SESSION_STEPS names them
      if [ -z "${GPU_SESSION_STEPS:-}" ] && { [ "$name" = gpu_tests ] || [ "$name" = sanitizers ]; }; then
        return 0
      fi
      local left=$((budget - ($(date +%s) - begin)))
      if [ "$left" -lt 15 ]; then
        echo "$name: skipped, ${left} s of the session's budget left" | tee -a "$summary"
        return 0
      fi
      if [ "$seconds" -gt "$left" ]; then seconds=$left; fi
      local t0 rc=0
      t0=$(date +%s)
      { echo "# command: $*"; echo "# limit: ${seconds} s"; cat "$work/device.txt"; } > "$work/$name.txt"
      STEP_SECONDS=$seconds timeout -k 5 "$seconds" "$@" >> "$work/$name.txt" 2>&1 || rc=$?
      echo "$name: exit $rc after $(($(date +%s) - t0)) s$([ "$rc" = 124 ] && echo ' (time limit)')" | tee -a "$summary"
      pack_out
    }
    self=$PWD/scripts/gpu-session.sh
    step smoke 20 "$self" _smoke
    if grep -q "=> not found" "$work/smoke.txt"; then
      echo "libraries missing on the device (see smoke.txt); nothing else run" | tee -a "$summary"
      exit 1
    fi
    # The pendulum's parameter files: k2 spread +-20% over the instances.
    awk 'BEGIN { print "k2"; for (i = 0; i < 100000; ++i) printf "%.6f\n", 300000 * (0.8 + 0.4 * (i % 1000) / 999) }' \
      > "$work/pendulum_1e5.csv"
    head -n 10001 "$work/pendulum_1e5.csv" > "$work/pendulum_1e4.csv"
    # In the order of what the device sessions so far left owed (docs/validation/ensembles.md). First the checks:
    # the GPU tests (GPU_TEST_SHARDS processes, the long ones each alone in a process; their CPU halves take much of
    # their time) and, beside them, the sanitizers (a process per tool, strategy and model, as many at once as the
    # device memory the tests leave allows, more once the tests end). Then the figures: the stiff pendulum's fused
    # vs all-cores rows from N = 1e3 to 1e6 (GPU_THROUGHPUT_MIN_N), a study on the cuda backend against the cpu
    # backend (issue 18), the CLI as a user runs it, the fused kernel's ncu profile, the crossover's rows from
    # n = 8; then what earlier sessions recorded on kernels that have not changed since (batched LU, Lorenz and
    # its profile, the step-budget probe).
    # Times seen on the H200 (2026-11-27): the sanitizers' 34 processes, four at a time beside the tests, 215 s
    # (the slowest, memcheck of the staged strategy on the pendulum, 100 s); the tests beside them ran about twice
    # as long as alone (every-model 215 s, staged 237 s; the step-budget and warp tests, 144 s and 133 s alone, had
    # not ended at 240 s); throughput 171 s (the cpu backend at N = 1e6 87 s), study 27 s, cli 13 s, ncu 24 s.
    step checks "${GPU_CHECKS_SECONDS:-330}" "$self" _checks
    # GPU_TESTS_STEP_SECONDS: the step's limit when gpu_tests runs alone (AbsoluteCuda had not ended at 240 s beside
    # seven other processes, 2026-11-30).
    step gpu_tests "${GPU_TESTS_STEP_SECONDS:-240}" "$self" _tests
    step sanitizers 320 "$self" _sanitizers
    # GPU_THROUGHPUT_MODELS / _METHODS pick the cases (issue 19's: quarter_car,stiff_double_pendulum and
    # dopri5,rn4, the model kernels against the method's, the generic one and every core), _SECONDS the limit,
    # _CPU_MAX_N the largest N of the cpu rows (0: the kernels alone, as a second bundle's call needs).
    step throughput "${GPU_THROUGHPUT_SECONDS:-210}" "$bin/ensemble_throughput" \
      --models "${GPU_THROUGHPUT_MODELS:-stiff_double_pendulum}" \
      --methods "${GPU_THROUGHPUT_METHODS:-rk4,dopri5,rn4,ros2w}" --cpu-max-n "${GPU_THROUGHPUT_CPU_MAX_N:-1000000}" \
      --one-thread-max-n 0 \
      --reference-max-n 0 --variants-max-n "${GPU_THROUGHPUT_VARIANTS_MAX_N:-0}" \
      --min-n "${GPU_THROUGHPUT_MIN_N:-1000}" --repeat-below "${GPU_THROUGHPUT_REPEAT_BELOW:-10}" \
      --out "$work/results/ensemble_throughput_gpu.md"
    step study 60 "$self" _study
    step cli 45 "$self" _cli
    # The stepping API's env steps per second, cpu (1 thread to N = 16384, 16 threads) and cuda (observations
    # copied back, and left on the device), N = 1 .. GPU_STEP_MAX_N (default 262144; issue 16).
    step step_throughput 150 "$bin/step_throughput" --seconds 1 --max-n "${GPU_STEP_MAX_N:-262144}" \
      --one-thread-max-n 16384 --out "$work/results/step_throughput.md"
    step ncu 60 "$self" _profile
    step nsys 40 "$self" _stepper_trace
    # The Python package on the device (issue 16): test_api's cuda tests (observe_in_place into PyTorch by DLPack)
    # and the env's steps per second on the cuda backend beside the cpu backend (bench_env_steps.py --backends).
    step python 120 "$self" _python
    # From n = 8 to 16 by default: the second session's 120 s reached n = 4 (the warp strategy takes 31 s there);
    # the rows are written as they finish, so a cut-off run keeps them (GPU_CROSSOVER_MIN_N for a next call).
    # At 1e5 instances the six GPU columns of n = 8 outran 148 s (H100) and 95 s (H200): GPU_CROSSOVER_INSTANCES
    # lowers N (the chains above n = 8 take N x 64 / n^2, at least 1000), GPU_CROSSOVER_SECONDS lengthens the step.
    step crossover "${GPU_CROSSOVER_SECONDS:-240}" "$bin/gpu_strategy_crossover" --min-n "${GPU_CROSSOVER_MIN_N:-8}" \
      --max-n "${GPU_CROSSOVER_MAX_N:-16}" --instances "${GPU_CROSSOVER_INSTANCES:-100000}" \
      --out "$work/results/gpu_strategy_crossover.md"
    step batched_lu 45 "$bin/batched_lu" --min-n "${GPU_LU_MIN_N:-64}"
    step lorenz 45 "$bin/lorenz_calibration" --cpu-max-n 65536 --out "$work/results/lorenz_calibration.md"
    step lorenz_ncu 40 "$self" _lorenz_profile
    step budget_probe 30 "$self" _budget_probe
    rm -f "$work"/pendulum_1e*.csv
    pack_out
    echo "done after $(($(date +%s) - begin)) s" | tee -a "$summary"
    ;;
  _tests)  # the GPU tests in GPU_TEST_SHARDS (default 8: the long ones each in a process of its own) at once
    device_env
    shards=${GPU_TEST_SHARDS:-8}
    pids=()
    for ((i = 0; i < shards; ++i)); do
      GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$bin/myriad_tests" --gtest_filter="${GPU_TEST_FILTER:-$gpu_filter}" \
        --gtest_color=no > "$work/gpu_tests_shard$i.txt" 2>&1 &
      pids+=($!)
    done
    rc=0
    for ((i = 0; i < shards; ++i)); do
      shard_rc=0
      wait "${pids[$i]}" || shard_rc=$?
      echo "shard $i: exit $shard_rc"
      [ "$shard_rc" = 0 ] || rc=1
    done
    grep -h -E '^\[ +(OK|FAILED|SKIPPED) +\]|^\[ cuda \]' "$work"/gpu_tests_shard*.txt || true
    exit $rc
    ;;
  _checks)  # the GPU tests and, beside them, the sanitizers (each in its own log: gpu_tests.txt, sanitizers.txt)
    device_env
    self=$PWD/scripts/gpu-session.sh
    shards=${GPU_TEST_SHARDS:-8}
    # Within the step's limit: a timeout of its own puts the tests in a process group the step's timeout would not
    # reach, so they must end first.
    tests_seconds=${GPU_TESTS_SECONDS:-300}
    if [ -n "${STEP_SECONDS:-}" ] && [ "$tests_seconds" -gt $((STEP_SECONDS - 10)) ]; then
      tests_seconds=$((STEP_SECONDS - 10))
    fi
    ( test_rc=0
      { echo "# command: $self _tests ($shards processes)"; echo "# limit: $tests_seconds s"; } > "$work/gpu_tests.txt"
      timeout -k 5 "$tests_seconds" "$self" _tests >> "$work/gpu_tests.txt" 2>&1 || test_rc=$?
      echo "$test_rc" > "$work/gpu_tests.rc" ) &
    tests=$!
    rc=0
    # The tests' processes each hold the kernels' local memory (about 9 GB) and their data: the sanitizers start
    # within what is left of GPU_TEST_RESERVED_MIB a process while the tests run.
    GPU_SANITIZER_BESIDE=$tests GPU_SANITIZER_RESERVED_MIB=$((shards * ${GPU_TEST_RESERVED_MIB:-10000})) \
      "$self" _sanitizers > "$work/sanitizers.txt" 2>&1 || rc=1
    wait "$tests" || true
    test_rc=$(cat "$work/gpu_tests.rc" 2>/dev/null || echo "?")
    echo "gpu tests: exit $test_rc$([ "$test_rc" = 124 ] && echo " (time limit $tests_seconds s)")"
    tail -n 40 "$work/gpu_tests.txt"
    echo "sanitizers:"
    cat "$work/sanitizers.txt"
    [ "$test_rc" = 0 ] || rc=1
    exit $rc
    ;;
  _sanitizers)  # memcheck, racecheck, initcheck (every strategy) and synccheck (warp, shared LU), both models
    # A process per tool, strategy and model. How many run at once follows the device memory: each process
    # reserves the kernels' local memory (34 KB a thread across every resident thread, about 9 GB) besides the
    # tool's own, and 17 at once ran out of the H100's 80 GB (2026-11-26), so one per GPU_SANITIZER_MIB (13 GB) of
    # what GPU_SANITIZER_BESIDE (the GPU tests' process, while it runs) leaves of GPU_SANITIZER_RESERVED_MIB;
    # GPU_SANITIZER_JOBS caps it. Under the tools a stiff-pendulum run took 1-36 s at --t-end 0.01 (H100 and
    # H200, 2026-11-26); the four-bar's a few seconds. The slowest processes start first.
    device_env
    self=$PWD/scripts/gpu-session.sh
    memory_mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -n 1 || echo 80000)
    per_job=${GPU_SANITIZER_MIB:-13000}
    max_jobs=${GPU_SANITIZER_JOBS:-$((memory_mib / per_job > 0 ? memory_mib / per_job : 1))}
    slots() {  # how many processes may run now
      local free=$memory_mib n
      if [ -n "${GPU_SANITIZER_BESIDE:-}" ] && kill -0 "$GPU_SANITIZER_BESIDE" 2>/dev/null; then
        free=$((memory_mib - ${GPU_SANITIZER_RESERVED_MIB:-0}))
      fi
      n=$((free > 0 ? free / per_job : 0))
      echo $((n < max_jobs ? n : max_jobs))
    }
    # RN4 and ROS2-W at rtol = atol = 1e-4 (GPU_SANITIZER_ROSENBROCK_TOL): at the GPU tests' 1e-6 / 1e-8 ROS2-W
    # takes 3,800 steps of the stiff pendulum's first milliseconds whatever --t-end (254 at 1e-4), and under a tool
    # each is about 25 ms (100 s for the fused run on the H200, 2026-11-26b; staged did not end in 170 s).
    runs=(-- --t-end "${GPU_SANITIZER_T_END:-0.01}" --rosenbrock-tol "${GPU_SANITIZER_ROSENBROCK_TOL:-1e-4}")
    progress=$work/sanitizers_progress.txt
    : > "$progress"
    names=()
    for model in stiff_double_pendulum four_bar; do
      for strategy in staged budget warp shared-lu fused step; do
        [[ ",$strategies," == *",$strategy,"* ]] || continue
        # The stepping API's kernel takes tree models only (backends/cuda_stepper.hpp).
        [ "$strategy" = step ] && [ "$model" = four_bar ] && continue
        for tool in memcheck initcheck racecheck synccheck; do
          case $tool in
            memcheck) options=(--leak-check full) ;;
            racecheck) options=(--racecheck-report all) ;;
            initcheck) options=() ;;
            synccheck) options=(); [ "$strategy" = warp ] || [ "$strategy" = shared-lu ] || continue ;;
          esac
          while [ "$(jobs -rp | wc -l)" -ge "$(slots)" ]; do sleep 1; done
          name=${tool}_${strategy}_$model
          ( t0=$(date +%s) run_rc=0
            "$self" _sanitize "$tool" "${options[@]}" "${runs[@]}" --strategies "$strategy" --models "$model" \
              > "$work/$name.txt" 2>&1 || run_rc=$?
            echo "$run_rc" > "$work/$name.rc"
            # A verdict line as each process ends, so that a step cut at its limit still says what ran.
            echo "$name: exit $run_rc after $(($(date +%s) - t0)) s; $(grep -c '^ok ' "$work/$name.txt") runs ok," \
              "$(grep -c '^FAIL ' "$work/$name.txt") failed; $(grep -E '(ERROR|RACECHECK) SUMMARY' "$work/$name.txt" | tail -n 1)" \
              >> "$progress" ) &
          names+=("$name")
          echo "$(date +%T) started $name ($(jobs -rp | wc -l) running)"
        done
      done
    done
    wait
    rc=0
    echo "at most $max_jobs processes at once (one per $per_job MiB of device memory)"
    for name in "${names[@]}"; do
      grep "^$name: " "$progress" || echo "$name: no verdict"
      [ "$(cat "$work/$name.rc" 2>/dev/null || echo "?")" = 0 ] || rc=1
    done
    exit $rc
    ;;
  _python)  # the bundle's Python package under the device's python3 (PyTorch, NumPy 2), gymnasium carried as wheels
    device_env
    [ -d "$bundle"/unpacked/python/myriad ] || { echo "the bundle has no Python package (build-gpu without MYRIAD_BUILD_PYTHON)"; exit 1; }
    site=$work/site
    if compgen -G '.whl/*.whl' > /dev/null; then
      python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site" .whl/*.whl
    fi
    export PYTHONPATH=$PWD/$bundle/unpacked/python${PYTHONPATH:+:$PYTHONPATH}:$site MYRIAD_CLI=$bin/myriad \
      MYRIAD_SOURCE_DIR=$source_dir PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
    python3 -c 'import myriad, numpy, torch; print("myriad", myriad.__version__, "numpy", numpy.__version__, "torch", torch.__version__)'
    rc=0
    timeout -k 5 "${GPU_PYTHON_TEST_SECONDS:-45}" python3 -m pytest -q -p no:cacheprovider -rs tests/python/test_api.py \
      -k "cuda" || rc=$?
    python3 bench/python/bench_env_steps.py --backends cpu,cuda --sizes "${GPU_ENV_SIZES:-1,64,1024,16384}" \
      --target 1e5 --md "$work/results/env_steps_cuda.md" || rc=1
    exit $rc
    ;;
  _study)  # issue 18's study on the cuda backend against the cpu backend on every core: the road LHS study
    device_env
    kpis=comfort_wk_rms,comfort_vdv,dynamic_tire_load,lift_off_fraction,travel_rms
    for backend in cuda cpu; do
      sed -e "s|\"backend\": \"auto\"|\"backend\": \"$backend\"|" \
        -e "s|\"model\": \"../quarter_car_road.json\"|\"model\": \"$source_dir/models/quarter_car_road.json\"|" \
        models/studies/quarter_car_road_lhs.json > "$work/study_$backend.json"
      grep -q "\"backend\": \"$backend\"" "$work/study_$backend.json" || { echo "study file not rewritten"; exit 1; }
      echo "$backend:"
      time "$bin/myriad" study "$work/study_$backend.json" --out "$work/study_$backend.h5" --quiet || exit 1
    done
    rc=0
    python3 scripts/compare_study_kpis.py "$work/study_cpu_kpis.csv" "$work/study_cuda_kpis.csv" --kpis "$kpis" || rc=$?
    rm -f "$work"/study_*.h5  # large; the KPI CSVs and the comparison are the record
    exit $rc
    ;;
  _smoke)  # the device stage's steps, each a process of its own so that `timeout` can stop it
    device_env
    if [ -x "$bin/myriad" ]; then "$bin/myriad" info --devices; else nvidia-smi -L; fi
    for p in "$bin"/*; do ldd "$p" | grep -E 'not found|cublas' || true; done
    ;;
  _sanitize)  # _sanitize TOOL [TOOL OPTIONS...] [-- RUNS OPTIONS...]: gpu_sanitizer_runs under compute-sanitizer
    device_env
    tool=$2
    shift 2
    tool_options=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do tool_options+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    compute-sanitizer --tool "$tool" --print-limit 200 --error-exitcode 9 "${tool_options[@]}" \
      "$bin/gpu_sanitizer_runs" --source-dir "$source_dir" "$@"
    ;;
  _profile)  # ncu on the fused kernel: stiff pendulum, RN4, N = 1e5
    device_env
    sections=(--section LaunchStats --section Occupancy --section SpeedOfLight --section ComputeWorkloadAnalysis
              --section MemoryWorkloadAnalysis_Tables --section WarpStateStats)
    metrics=l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum
    metrics+=,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active
    metrics+=,sm__sass_thread_inst_executed_op_dfma_pred_on.sum,sm__sass_thread_inst_executed_op_dadd_pred_on.sum
    metrics+=,sm__sass_thread_inst_executed_op_dmul_pred_on.sum
    # t in [0, 0.2] rather than the benchmark's [0, 2]: the same kernel and the same steps per output interval,
    # a tenth of its time per replay pass (at 2 s, 33 passes of 1.5 s each outlasted ncu's patience on an H200).
    run=("$bin/myriad" "${pendulum[@]}" --t-end 0.2 --dt-out 0.01 --params "$work/pendulum_1e5.csv" --backend cuda)
    # Unknown metric names stop ncu before it runs anything: then once more with the sections alone, replaying
    # the whole program rather than the kernel.
    ncu --clock-control none --kernel-name regex:simulate_kernel --launch-count 1 "${sections[@]}" \
      --metrics "$metrics" --export "$work/fused_rn4_1e5" --force-overwrite "${run[@]}" ||
      ncu --clock-control none --kernel-name regex:simulate_kernel --launch-count 1 "${sections[@]}" \
        --replay-mode application --export "$work/fused_rn4_1e5" --force-overwrite "${run[@]}"
    ncu --import "$work/fused_rn4_1e5.ncu-rep" --page raw --csv > "$work/fused_rn4_1e5_raw.csv"
    ;;
  _stepper_trace)  # nsys on the stepping API's cuda backend: where an env step's time goes at N = 1 and 1024
    device_env
    nsys_bin=$(command -v nsys || ls /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/bin/nsys 2>/dev/null | head -n 1 || true)
    if [ -z "$nsys_bin" ]; then echo "nsys: not installed on this machine"; exit 0; fi
    "$nsys_bin" profile --trace cuda,osrt --force-overwrite true --output "$work/stepper" \
      "$bin/step_throughput" --max-n 1024 --one-thread-max-n 0 --seconds 0.3 --out "$work/stepper_under_nsys.md"
    "$nsys_bin" stats --report cuda_api_sum,cuda_gpu_kern_sum,cuda_gpu_mem_time_sum --format csv \
      --output "$work/stepper" "$work/stepper.nsys-rep" || true
    rm -f "$work/stepper.nsys-rep" "$work/stepper.sqlite"  # the report's size is unbounded; the CSVs are the record
    ;;
  _lorenz_profile)  # ncu on the float32 Lorenz kernel at N = 4,194,304 (the fifth float launch: 1024 .. 4M)
    device_env
    ncu --clock-control none --kernel-name-base demangled --kernel-name 'regex:lorenz_kernel<float>' --launch-skip 4 \
      --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight \
      --section ComputeWorkloadAnalysis --section WarpStateStats --section InstructionStats \
      --export "$work/lorenz_f32" --force-overwrite \
      "$bin/lorenz_calibration" --cpu-max-n 0 --reps 1 --gpu-max-n 8388608 --out "$work/lorenz_under_ncu.md"
    ncu --import "$work/lorenz_f32.ncu-rep" --page details > "$work/lorenz_f32_details.txt"
    ncu --import "$work/lorenz_f32.ncu-rep" --page raw --csv > "$work/lorenz_f32_raw.csv"
    ;;
  _budget_probe)  # what one budgeted launch costs: budget 5 with compaction against one launch, 300 instances
    device_env
    probe=(--instances 300 --t-end 0.5 --dt-out 0.05 --backend cuda --quiet --stats)
    set +e -x
    time "$bin/myriad" simulate models/quarter_car.json --integrator rk4 --h 1e-3 "${probe[@]}"
    time "$bin/myriad" simulate models/quarter_car.json --integrator rk4 --h 1e-3 "${probe[@]}" --gpu-step-budget 5
    time "$bin/myriad" simulate models/stiff_double_pendulum.json --integrator dopri5 "${probe[@]}"
    time "$bin/myriad" simulate models/stiff_double_pendulum.json --integrator dopri5 "${probe[@]}" \
      --gpu-step-budget 5
    ;;
  _cli)  # the CLI as a user runs it: cuda, then cpu on every core, then the comparison; quarter car, pendulum
    device_env
    qc=(simulate models/quarter_car.json --params models/quarter_car_study.csv --t-end 3 --dt-out 0.01
        --integrator dopri5 --rtol 1e-7 --atol 1e-9 --quiet)
    rc=0
    set -x
    time "$bin/myriad" "${qc[@]}" --backend cuda --out "$work/qc_cuda.csv" --stats || rc=1
    time "$bin/myriad" "${qc[@]}" --backend cpu --threads "$(nproc)" --out "$work/qc_cpu.csv" --stats || rc=1
    python3 scripts/compare_ensemble_csv.py "$work/qc_cpu.csv" "$work/qc_cuda.csv" --rtol 1e-7 --mode mixed \
      --model models/quarter_car.json || rc=1
    time "$bin/myriad" "${pendulum[@]}" --t-end 2 --dt-out 0.05 --params "$work/pendulum_1e4.csv" --backend cuda \
      --out "$work/pendulum_cuda.csv" --stats || rc=1
    time "$bin/myriad" "${pendulum[@]}" --t-end 2 --dt-out 0.05 --params "$work/pendulum_1e4.csv" --backend cpu \
      --threads "$(nproc)" --out "$work/pendulum_cpu.csv" --stats || rc=1
    python3 scripts/compare_ensemble_csv.py "$work/pendulum_cpu.csv" "$work/pendulum_cuda.csv" --rtol 1e-6 \
      --mode mixed --model models/stiff_double_pendulum.json || rc=1
    set +x
    rm -f "$work"/qc_*.csv "$work"/pendulum_c*.csv  # large; the comparison's output is the record
    exit $rc
    ;;
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
