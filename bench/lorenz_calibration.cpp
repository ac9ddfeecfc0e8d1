// Calibration against published GPU ensemble solvers on their own workload: the Lorenz system (sigma 10, beta 8/3,
// rho spread over [0, 21]), t in [0, 1], 1000 fixed RK4 steps, float32 and float64, through Myriad's ensemble
// machinery (ode/lorenz.hpp: the built-in model; the cpu backend's thread hand-out; a thread-per-instance kernel).
// Published on a V100 in float32 at N = 8,388,608: MPGOS (RK4) 94 ms, DiffEqGPU kernel ensemble (Tsit5) 145 ms.
// Usage: lorenz_calibration [--gpu-max-n N] [--cpu-max-n N] [--reps R] [--out FILE.md]
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "backends/cuda_runner.hpp"
#include "ensemble/instance_blocks.hpp"
#include "backends/lorenz_cuda.hpp"
#include "ode/lorenz_ensemble.hpp"

#ifdef MYRIAD_HAVE_CUDA
#include <cuda_runtime.h>
#endif

using namespace myriad;

namespace {

// Peak float32 rate of the device in TFLOP/s (FP32 lanes x 2 flops per FMA x boost clock), 0 when unknown.
double device_fp32_tflops(std::string* what) {
#ifdef MYRIAD_HAVE_CUDA
  int device = 0, sms = 0, clock_khz = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return 0.0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  // FP32 lanes per SM by architecture (CUDA C++ Programming Guide, arithmetic instruction throughput table).
  int lanes = 64;
  if (major == 9 || major >= 10 || (major == 8 && minor >= 6) || major == 5 || major == 6) lanes = 128;
  if (major == 7 || (major == 8 && minor == 0)) lanes = 64;
  const double tflops = static_cast<double>(sms) * lanes * 2.0 * clock_khz * 1e3 * 1e-12;
  std::ostringstream s;
  s << sms << " SMs x " << lanes << " FP32 lanes x 2 x " << clock_khz / 1000 << " MHz = " << std::setprecision(3)
    << tflops << " TFLOP/s";
  *what = s.str();
  return tflops;
#else
  *what = "no CUDA in this build";
  return 0.0;
#endif
}

template <class Real>
const char* precision_name() {
  return sizeof(Real) == 4 ? "float32" : "float64";
}

// Median of `reps` runs; the rows report the median run's figures.
template <class Real, class Run>
LorenzRun<Real> median_run(int reps, Run&& run) {
  std::vector<LorenzRun<Real>> runs;
  for (int r = 0; r < reps; ++r) runs.push_back(run());
  std::sort(runs.begin(), runs.end(),
            [](const LorenzRun<Real>& a, const LorenzRun<Real>& b) { return a.compute_seconds < b.compute_seconds; });
  return runs[runs.size() / 2];
}

template <class Real>
void row(std::ostringstream& md, const std::string& backend, const LorenzRun<Real>& run, const LorenzRun<double>* check) {
  long long failed = 0;
  for (InstanceStatus s : run.status) failed += s != InstanceStatus::ok;
  double worst = 0.0;
  if (check)
    for (size_t k = 0; k < run.final_state.size(); ++k)
      worst = std::max(worst, std::abs(static_cast<double>(run.final_state[k]) - check->final_state[k]) /
                                  std::max(1.0, std::abs(check->final_state[k])));
  const double instance_steps = static_cast<double>(run.n) * static_cast<double>(run.steps);
  md << "| " << backend << " | " << precision_name<Real>() << " | " << run.n << " | " << std::setprecision(4)
     << run.compute_seconds * 1e3 << " | " << run.total_seconds * 1e3 << " | " << instance_steps / run.compute_seconds
     << " | " << failed << " | ";
  if (check)
    md << worst;
  else
    md << "-";
  md << " |\n";
  std::cerr << backend << " " << precision_name<Real>() << " N=" << run.n << " " << run.compute_seconds * 1e3 << " ms\n";
}

}  // namespace

int main(int argc, char** argv) {
  long long gpu_max_n = 8388608, cpu_max_n = 1 << 18;
  int reps = 3;
  std::string out_path = bench::source_path("bench/results/lorenz_calibration.md");
  std::ostringstream command;
  command << "build/bench/lorenz_calibration";
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    command << " " << arg;
    if (a + 1 >= argc) {
      std::cerr << "usage: lorenz_calibration [--gpu-max-n N] [--cpu-max-n N] [--reps R] [--out FILE.md]\n";
      return 2;
    }
    const std::string value = argv[++a];
    command << " " << value;
    if (arg == "--gpu-max-n") gpu_max_n = std::atoll(value.c_str());
    else if (arg == "--cpu-max-n") cpu_max_n = std::atoll(value.c_str());
    else if (arg == "--reps") reps = std::max(1, std::atoi(value.c_str()));
    else if (arg == "--out") out_path = value;
    else {
      std::cerr << "lorenz_calibration: unknown option " << arg << "\n";
      return 2;
    }
  }
  const LorenzSpec spec;
  std::string device;
  const bool gpu = cuda_device_available(&device);
  std::string peak_what;
  const double peak = gpu ? device_fp32_tflops(&peak_what) : 0.0;

  std::ostringstream md;
  md << "# Lorenz calibration (RK4, 1000 steps, t in [0, 1], rho over [0, 21])\n\n"
     << "Host: " << bench::machine_description() << "  \n"
     << "Device: " << (gpu ? device : "none (" + device + ")") << "  \n"
     << "Command: `" << command.str() << "` (Release; median of " << reps << " runs)\n\n"
     << "compute ms: CPU threads' wall time, or the kernels alone (CUDA events); total ms adds allocation and\n"
     << "transfers. instance-steps/s = N x 1000 / compute time. max rel diff: against the float64 CPU run of the same\n"
     << "N (where one was made).\n\n"
     << "| backend | precision | N | compute ms | total ms | instance-steps/s | failed | max rel diff |\n"
     << "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  const int all = resolve_thread_count(0, 1 << 30);
  // N = 1024 x 8^k up to the largest asked for, which is always included (8,388,608 = 1024 x 8^3 x 2^3 by default).
  const long long max_n = std::max(gpu ? gpu_max_n : 0, cpu_max_n);
  std::vector<long long> sizes;
  for (long long n = 1024; n < max_n; n *= 8) sizes.push_back(n);
  sizes.push_back(max_n);
  for (const long long n : sizes) {
    LorenzRun<double> reference;
    const bool on_cpu = n <= cpu_max_n;
    if (on_cpu) {
      reference = median_run<double>(reps, [&] { return run_lorenz_cpu<double>(spec, n, all); });
      row(md, "cpu, 1 thread", median_run<double>(1, [&] { return run_lorenz_cpu<double>(spec, n, 1); }), &reference);
      row(md, "cpu, " + std::to_string(all) + " threads", reference, nullptr);
      row(md, "cpu, " + std::to_string(all) + " threads",
          median_run<float>(reps, [&] { return run_lorenz_cpu<float>(spec, n, all); }), &reference);
    }
    if (gpu && n <= gpu_max_n) {
      row(md, "cuda", median_run<double>(reps, [&] { return run_lorenz_cuda<double>(spec, n); }),
          on_cpu ? &reference : nullptr);
      row(md, "cuda", median_run<float>(reps, [&] { return run_lorenz_cuda<float>(spec, n); }),
          on_cpu ? &reference : nullptr);
    }
  }
  md << "\n";
  // The published figure scaled to this device: MPGOS's 94 ms on a V100 (SXM2: 80 SMs x 64 FP32 lanes x 2 x
  // 1530 MHz = 15.7 TFLOP/s) times the ratio of peak float32 rates.
  if (gpu && peak > 0.0) {
    const double v100 = 15.67;
    const double scaled = 94.0 * v100 / peak;
    md << "Device float32 peak: " << peak_what << ". V100 (SXM2) 15.7 TFLOP/s: ratio " << std::setprecision(3)
       << peak / v100 << ", MPGOS's 94 ms scaled to this device: " << scaled << " ms (acceptance: within 2x, <= "
       << 2.0 * scaled << " ms for float32 at N = 8,388,608).\n";
  } else {
    md << "No GPU in this run: the calibration against MPGOS (94 ms on a V100, float32, N = 8,388,608) is owed to a "
          "run on a device.\n";
  }
  std::ofstream(out_path) << md.str();
  std::cout << md.str();
  return 0;
}
