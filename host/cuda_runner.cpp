#include "cuda_runner.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <stdexcept>

#include "ensemble/simulate_instance.hpp"

#ifdef MYRIAD_HAVE_CUDA
#include <cuda_runtime.h>

#include "device_buffer.hpp"
#include "simulate_kernel.cuh"
#endif

namespace myriad {

#ifndef MYRIAD_HAVE_CUDA

bool cuda_device_available(std::string* description) {
  if (description) *description = "this build has no CUDA backend (configured with MYRIAD_CUDA=OFF or no nvcc)";
  return false;
}

EnsembleResult run_ensemble_cuda(const CompiledModel&, const Ensemble&, const RunSpec&, const std::vector<double>&,
                                 size_t) {
  throw std::runtime_error("the cuda backend is not available: this build has no CUDA (MYRIAD_CUDA=OFF or no nvcc)");
}

#else

using cuda::check;
using cuda::DeviceBuffer;
using cuda::upload;

bool cuda_device_available(std::string* description) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    if (description) *description = std::string("no CUDA device: ") + (status != cudaSuccess ? cudaGetErrorString(status) : "none found");
    return false;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  if (description)
    *description = std::string(prop.name) + " (compute capability " + std::to_string(prop.major) + "." +
                   std::to_string(prop.minor) + ", " + std::to_string(prop.totalGlobalMem >> 20) + " MiB)";
  return true;
}

EnsembleResult run_ensemble_cuda(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                 const std::vector<double>& output_times, size_t memory_budget_bytes) {
  std::string why;
  if (!cuda_device_available(&why)) throw std::runtime_error(why);
#ifndef MYRIAD_DEVICE_LOOPS
  if (model.constraints.m > 0)
    throw std::runtime_error(
        "cuda backend: this build does not compile loop models into the kernel (configure with "
        "-DMYRIAD_DEVICE_LOOPS=ON); use --backend cpu");
#endif
  const auto start = std::chrono::steady_clock::now();
  const long long n = ensemble.n_instances;
  const int n_times = static_cast<int>(output_times.size());
  EnsembleResult result;
  result.n_instances = static_cast<int>(n);
  result.n_times = n_times;
  result.n_signals = model.n_outputs;
  result.times = output_times;
  result.values.assign(static_cast<size_t>(n) * n_times * model.n_outputs, std::numeric_limits<double>::quiet_NaN());
  result.status.assign(static_cast<size_t>(n), InstanceStatus::ok);
  result.stats.assign(static_cast<size_t>(n), IntegratorStats{});
  result.wall_seconds.assign(static_cast<size_t>(n), 0.0);

  const DeviceBuffer d_model = upload(&model, 1);
  const DeviceBuffer d_constants = upload(ensemble.constants.data(), ensemble.constants.size());
  const DeviceBuffer d_q = upload(ensemble.initial_q.data(), ensemble.initial_q.size());
  const DeviceBuffer d_v = upload(ensemble.initial_v.data(), ensemble.initial_v.size());
  const DeviceBuffer d_times = upload(output_times.data(), output_times.size());

  size_t scratch_bytes = instance_scratch_layout(model, spec.method, n_times).bytes +
                         sizeof(double) * static_cast<size_t>(model.nq + model.nv);
  scratch_bytes = (scratch_bytes + 15) / 16 * 16;
  const size_t output_bytes = sizeof(double) * static_cast<size_t>(n_times) * model.n_outputs;
  const size_t per_instance = scratch_bytes + output_bytes + sizeof(int) + sizeof(IntegratorStats);
  if (memory_budget_bytes == 0) {
    size_t free_bytes = 0, total_bytes = 0;
    check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    memory_budget_bytes = free_bytes / 2;
  }
  const long long chunk = std::max<long long>(1, std::min<long long>(n, static_cast<long long>(memory_budget_bytes / per_instance)));

  DeviceBuffer d_scratch(scratch_bytes * static_cast<size_t>(chunk));
  DeviceBuffer d_outputs(output_bytes * static_cast<size_t>(chunk));
  DeviceBuffer d_status(sizeof(int) * static_cast<size_t>(chunk));
  DeviceBuffer d_stats(sizeof(IntegratorStats) * static_cast<size_t>(chunk));
  std::vector<int> status(static_cast<size_t>(chunk));
  for (long long first = 0; first < n; first += chunk) {
    const long long count = std::min(chunk, n - first);
    cuda::SimulateParams p{d_model.as<CompiledModel>(), d_constants.as<double>(), d_q.as<double>(), d_v.as<double>(),
                           d_times.as<double>(), n_times, n, first, count, spec, d_scratch.as<unsigned char>(),
                           scratch_bytes, d_outputs.as<double>(), d_status.as<int>(), d_stats.as<IntegratorStats>()};
    // All-ones bytes are a NaN double: outputs after an instance's failure read NaN, as on the CPU.
    check(cudaMemset(d_outputs.pointer, 0xFF, output_bytes * static_cast<size_t>(count)), "cudaMemset (outputs)");
    check(cuda::launch_simulate(p, 128, nullptr), "simulate kernel launch");
    check(cudaDeviceSynchronize(), "simulate kernel");
    check(cudaMemcpy(result.values.data() + static_cast<size_t>(first) * n_times * model.n_outputs, d_outputs.pointer,
                     output_bytes * static_cast<size_t>(count), cudaMemcpyDeviceToHost),
          "cudaMemcpy (outputs)");
    check(cudaMemcpy(status.data(), d_status.pointer, sizeof(int) * static_cast<size_t>(count), cudaMemcpyDeviceToHost),
          "cudaMemcpy (status)");
    check(cudaMemcpy(result.stats.data() + first, d_stats.pointer, sizeof(IntegratorStats) * static_cast<size_t>(count),
                     cudaMemcpyDeviceToHost),
          "cudaMemcpy (stats)");
    for (long long i = 0; i < count; ++i) result.status[static_cast<size_t>(first + i)] = static_cast<InstanceStatus>(status[static_cast<size_t>(i)]);
  }
  result.total_wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

#endif

}  // namespace myriad
