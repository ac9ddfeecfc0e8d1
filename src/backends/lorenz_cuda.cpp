#include "backends/lorenz_cuda.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cuda_runner.hpp"

#ifdef MYRIAD_HAVE_CUDA
#include "backends/device_buffer.hpp"
#include "lorenz_kernel.cuh"
#endif

namespace myriad {

#ifndef MYRIAD_HAVE_CUDA

template <class Real>
LorenzRun<Real> run_lorenz_cuda(const LorenzSpec&, long long, int, size_t) {
  throw std::runtime_error("the cuda backend is not available: this build has no CUDA (MYRIAD_CUDA=OFF or no nvcc)");
}

#else

namespace {

// Times the kernels of one run with a pair of CUDA events per chunk.
struct EventPair {
  cudaEvent_t start = nullptr, stop = nullptr;
  EventPair() {
    cuda::check(cudaEventCreate(&start), "cudaEventCreate");
    cuda::check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~EventPair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
};

}  // namespace

template <class Real>
LorenzRun<Real> run_lorenz_cuda(const LorenzSpec& spec, long long n, int threads_per_block,
                                size_t memory_budget_bytes) {
  std::string why;
  if (!cuda_device_available(&why)) throw std::runtime_error(why);
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  LorenzRun<Real> run = empty_lorenz_run<Real>(spec, n);
  run.threads = 0;
  run.steps = spec.steps;
  if (n == 0) return run;
  const std::vector<Real> rho = lorenz_parameters<Real>(spec, n);

  const size_t per_instance = 4 * sizeof(Real) + sizeof(int);
  if (memory_budget_bytes == 0) {
    size_t free_bytes = 0, total_bytes = 0;
    cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    memory_budget_bytes = free_bytes / 2;
  }
  const long long chunk =
      std::max<long long>(1, std::min<long long>(n, static_cast<long long>(memory_budget_bytes / per_instance)));
  cuda::DeviceArray<Real> d_rho(static_cast<size_t>(chunk));
  cuda::DeviceArray<Real> d_state(static_cast<size_t>(3 * chunk));
  cuda::DeviceArray<int> d_status(static_cast<size_t>(chunk));
  std::vector<Real> state(static_cast<size_t>(3 * chunk));
  std::vector<int> status(static_cast<size_t>(chunk));
  EventPair events;
  double kernel_ms = 0.0;
  for (long long first = 0; first < n; first += chunk) {
    const long long count = std::min(chunk, n - first);
    cuda::check(cudaMemcpy(d_rho.pointer, rho.data() + first, sizeof(Real) * static_cast<size_t>(count),
                           cudaMemcpyHostToDevice),
                "cudaMemcpy (rho)");
    cuda::check(cudaEventRecord(events.start), "cudaEventRecord");
    cuda::check(cuda::launch_lorenz<Real>(spec, d_rho.pointer, count, d_state.pointer, d_status.pointer,
                                          threads_per_block, nullptr),
                "lorenz kernel launch");
    cuda::check(cudaEventRecord(events.stop), "cudaEventRecord");
    cuda::check(cudaEventSynchronize(events.stop), "lorenz kernel");
    float ms = 0.0f;
    cuda::check(cudaEventElapsedTime(&ms, events.start, events.stop), "cudaEventElapsedTime");
    kernel_ms += ms;
    cuda::check(cudaMemcpy(state.data(), d_state.pointer, sizeof(Real) * static_cast<size_t>(3 * count),
                           cudaMemcpyDeviceToHost),
                "cudaMemcpy (final states)");
    cuda::check(cudaMemcpy(status.data(), d_status.pointer, sizeof(int) * static_cast<size_t>(count),
                           cudaMemcpyDeviceToHost),
                "cudaMemcpy (status)");
    for (int j = 0; j < 3; ++j)
      std::copy(state.begin() + j * count, state.begin() + (j + 1) * count, run.final_state.begin() + j * n + first);
    for (long long i = 0; i < count; ++i)
      run.status[static_cast<size_t>(first + i)] = static_cast<InstanceStatus>(status[static_cast<size_t>(i)]);
  }
  run.compute_seconds = kernel_ms * 1e-3;
  run.total_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return run;
}

#endif

template LorenzRun<float> run_lorenz_cuda<float>(const LorenzSpec&, long long, int, size_t);
template LorenzRun<double> run_lorenz_cuda<double>(const LorenzSpec&, long long, int, size_t);

}  // namespace myriad
