#include "backends/cuda_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "dynamics/model_class.hpp"
#include "ensemble/device_slot.hpp"
#include "ensemble/simulate_instance.hpp"
#include "ensemble/staged_cadence.hpp"
#include "generated/quarter_car.hpp"
#include "generated/stiff_double_pendulum.hpp"

#ifdef MYRIAD_HAVE_CUDA
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cublas_v2.h>

#include "backends/device_buffer.hpp"
#include "ensemble/staged_runner.hpp"
#include "simulate_kernel.cuh"
#include "staged_kernel.cuh"
#include "shared_lu_kernel.cuh"
#include "warp_kernel.cuh"
#endif

namespace myriad {

bool kernels_take(const CompiledModel& model, Method method, std::string* why) {
  std::string reason;
  if (method == Method::implicit && model.constraints.m > 0)
    reason = "the implicit integrators (seed 003's methods and backward Euler) are compiled into the kernels for "
             "models without loops only (kernels/tree_implicit_kernel.cu); use backend 'cpu'";
#ifndef MYRIAD_DEVICE_LOOPS
  else if (model.constraints.m > 0)
    reason = "this build does not compile loop models into the kernels (configure with -DMYRIAD_DEVICE_LOOPS=ON); "
             "use backend 'cpu'";
#else
  (void)model;
#endif
  if (why) *why = reason;
  return reason.empty();
}

CudaRunPlan plan_cuda_run(const CompiledModel& model, Method method, const CudaRunOptions& options) {
  CudaRunPlan plan;
  const bool has_pi = staged_has_linear_algebra(method) && iteration_matrix_order(model) > 0;
  plan.staged = options.strategy == GpuStrategy::staged && (has_pi || !staged_has_linear_algebra(method));
  if (plan.staged) return plan;
  plan.kernel = has_pi ? options.strategy : GpuStrategy::fused;
  plan.thread_local_scratch = plan.kernel == GpuStrategy::fused && options.step_budget <= 0 &&
                              options.scratch == CudaRunOptions::Scratch::automatic &&
                              device_slot_bytes(model, method) <= kThreadLocalSlotBytes;
  const bool specialized_kernels = options.kernel != CudaRunOptions::Kernel::generic;
  plan.specialized = plan.kernel == GpuStrategy::fused && specialized_kernels && model.constraints.m == 0;
  // The implicit methods are in the specialized fused kernel alone (kernels/tree_implicit_kernel.cu); run_ensemble_cuda
  // refuses them with another strategy or the generic kernel.
  if (method == Method::implicit)
    plan.specialized = model.constraints.m == 0 && plan.kernel == GpuStrategy::fused && specialized_kernels;
  plan.axis_joints = plan.specialized && model_in_class<AxisJointsClass>(model);
  if (plan.specialized && options.kernel == CudaRunOptions::Kernel::specialized)
    plan.model_kernel = model_kernel_for(model, method);
  return plan;
}

ModelKernel model_kernel_for(const CompiledModel& model, Method method) {
  // Evaluated once, at compile time: the same constexpr functions the kernels' constants come from.
  static constexpr CompiledModel kQuarterCar = generated::quarter_car();
  static constexpr CompiledModel kStiffDoublePendulum = generated::stiff_double_pendulum();
  const auto equals = [&model](const CompiledModel& kernel_model) {
    return std::memcmp(&model, &kernel_model, sizeof(CompiledModel)) == 0;
  };
  if (method == Method::dopri5 && equals(kQuarterCar)) return ModelKernel::quarter_car_dopri5;
  if (method == Method::rn4 && equals(kStiffDoublePendulum)) return ModelKernel::stiff_double_pendulum_rn4;
  return ModelKernel::none;
}

#ifndef MYRIAD_HAVE_CUDA

bool cuda_device_available(std::string* description) {
  if (description) *description = "this build has no CUDA backend (configured with MYRIAD_CUDA=OFF or no nvcc)";
  return false;
}

EnsembleResult run_ensemble_cuda(const CompiledModel&, const Ensemble&, const RunSpec&, const std::vector<double>&,
                                 const CudaRunOptions&) {
  throw std::runtime_error("the cuda backend is not available: this build has no CUDA (MYRIAD_CUDA=OFF or no nvcc)");
}

void require_cuda_backend(const CompiledModel&, Method) {
  std::string why;
  cuda_device_available(&why);
  throw std::runtime_error("cuda backend: " + why);
}

#else

using cuda::check;
using cuda::DeviceBuffer;
using cuda::upload;

namespace {

void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + ": " + cublasGetStatusString(status));
}

// Owns a cuBLAS handle.
struct CublasHandle {
  cublasHandle_t handle = nullptr;
  CublasHandle() { check_cublas(cublasCreate(&handle), "cublasCreate"); }
  ~CublasHandle() { cublasDestroy(handle); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
};

// Owns an instantiated CUDA graph.
struct Graph {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ~Graph() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
};

// Advances between two host synchronisations of a staged run (whole turns of the cycle, at least this many):
// the host learns how many instances are still running only after a graph launch.
constexpr int kStagedAdvancesPerGraph = 8;

// The staged strategy on one chunk: a first advance to every instance's first request, then the method's cycle
// (ensemble/staged_cadence.hpp; RN4: factor, advance, (solve, advance) x 4; ROS2-W: factor, advance, (solve,
// advance) x 2; RK4, DOPRI5: advance by one attempt) until no instance is left running. Whole turns of the cycle
// are captured once in a CUDA graph and replayed; where capture is refused, their calls are made directly. The
// iteration matrix is stored row-major, which cuBLAS reads as its transpose: getrf factors Pi^T and getrs with
// CUBLAS_OP_T solves Pi z = r. The singularity test of dense_lu.hpp is applied to the factors' diagonal by the
// integrator.
void run_chunk_staged(cuda::StagedParams p, Method method, int threads_per_block, cudaStream_t stream) {
  const int n = staged_has_linear_algebra(method) ? p.n : 0;  // no batched buffers for the explicit methods
  p.n = n;
  const long long count = p.count;
  DeviceBuffer d_matrices(sizeof(double*) * static_cast<size_t>(count));
  DeviceBuffer d_vectors(sizeof(double*) * static_cast<size_t>(count));
  DeviceBuffer d_dummy_matrices(sizeof(double) * static_cast<size_t>(count) * n * n);
  DeviceBuffer d_dummy_vectors(sizeof(double) * static_cast<size_t>(count) * n);
  DeviceBuffer d_pivots(sizeof(int) * static_cast<size_t>(count) * n);
  DeviceBuffer d_info(sizeof(int) * static_cast<size_t>(count));
  DeviceBuffer d_live(sizeof(int) * static_cast<size_t>(count));
  check(cudaMemsetAsync(d_info.pointer, 0, sizeof(int) * static_cast<size_t>(count), stream), "cudaMemset (info)");
  // Defined contents before the first cycle (initcheck; the advance kernel fills the pointers, getrf the pivots).
  if (n > 0)
    check(cudaMemsetAsync(d_pivots.pointer, 0, sizeof(int) * static_cast<size_t>(count) * n, stream), "cudaMemset (pivots)");
  check(cudaMemsetAsync(d_matrices.pointer, 0, sizeof(double*) * static_cast<size_t>(count), stream),
        "cudaMemset (matrix pointers)");
  check(cudaMemsetAsync(d_vectors.pointer, 0, sizeof(double*) * static_cast<size_t>(count), stream),
        "cudaMemset (vector pointers)");
  check(cuda::launch_staged_dummies(d_dummy_matrices.as<double>(), d_dummy_vectors.as<double>(), n, count, stream),
        "staged dummies kernel launch");
  p.matrices = d_matrices.as<double*>();
  p.vectors = d_vectors.as<double*>();
  p.dummy_matrices = d_dummy_matrices.as<double>();
  p.dummy_vectors = d_dummy_vectors.as<double>();
  p.lu_info = d_info.as<int>();
  p.pivots = d_pivots.as<int>();
  CublasHandle cublas;
  check_cublas(cublasSetStream(cublas.handle, stream), "cublasSetStream");
  const int batch = static_cast<int>(count);
  int host_info = 0;  // getrsBatched's argument check (a host value)
  const int length = staged_cycle_length(method);
  const int advances = (kStagedAdvancesPerGraph + length - 1) / length * length;
  const auto cycle = [&]() {
    for (int launch = 0; launch < advances; ++launch) {
      const LinearRequest operation = staged_operation(method, launch);
      if (operation == LinearRequest::factor) {
        check_cublas(cublasDgetrfBatched(cublas.handle, n, p.matrices, n, d_pivots.as<int>(), d_info.as<int>(), batch),
                     "cublasDgetrfBatched");
      } else if (operation == LinearRequest::solve) {
        check_cublas(cublasDgetrsBatched(cublas.handle, CUBLAS_OP_T, n, 1, p.matrices, n, d_pivots.as<int>(),
                                         p.vectors, n, &host_info, batch),
                     "cublasDgetrsBatched");
      }
      cuda::StagedParams advance = p;
      advance.first_launch = false;
      advance.served = operation;
      advance.next = staged_operation(method, launch + 1);
      check(cuda::launch_staged_advance(advance, threads_per_block, stream), "staged advance kernel launch");
    }
  };
  // The first advance: to every instance's first request.
  p.first_launch = true;
  p.served = LinearRequest::none;
  p.next = staged_operation(method, 0);
  check(cuda::launch_staged_advance(p, threads_per_block, stream), "staged advance kernel launch");
  Graph graph;
  bool captured = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess;
  if (captured) {
    try {
      cycle();
    } catch (const std::exception&) {
      captured = false;
    }
    captured = cudaStreamEndCapture(stream, &graph.graph) == cudaSuccess && captured &&
               cudaGraphInstantiate(&graph.exec, graph.graph, 0) == cudaSuccess;
    cudaGetLastError();  // a refused capture leaves an error behind; the cycle then runs without the graph
  }
  for (;;) {
    if (captured)
      check(cudaGraphLaunch(graph.exec, stream), "cudaGraphLaunch (staged cycle)");
    else
      cycle();
    check(cudaStreamSynchronize(stream), "staged cycle");
    if (cuda::compact_live(p.status, count, d_live.as<int>(), stream) == 0) break;
  }
}

}  // namespace

namespace {

// Why cudaGetDeviceCount found nothing, in words that fit this machine: the runtime answers "CUDA driver version is
// insufficient for CUDA runtime version" both when the driver is too old and when there is no driver at all.
std::string no_device_reason(cudaError_t status) {
  void* driver = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver == nullptr) return "no CUDA device: no NVIDIA driver on this machine (libcuda.so.1 cannot be loaded)";
  ::dlclose(driver);
  if (status == cudaErrorInsufficientDriver) {
    int driver_version = 0, runtime_version = 0;
    cudaDriverGetVersion(&driver_version);
    cudaRuntimeGetVersion(&runtime_version);
    return "no CUDA device: the NVIDIA driver supports CUDA " + std::to_string(driver_version / 1000) + "." +
           std::to_string(driver_version % 1000 / 10) + ", older than this build's runtime (CUDA " +
           std::to_string(runtime_version / 1000) + "." + std::to_string(runtime_version % 1000 / 10) + ")";
  }
  if (status == cudaSuccess || status == cudaErrorNoDevice)
    return "no CUDA device: the NVIDIA driver is installed but reports no device";
  return std::string("no CUDA device: ") + cudaGetErrorString(status);
}

}  // namespace

bool cuda_device_available(std::string* description) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    if (description) *description = no_device_reason(status);
    return false;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  if (description)
    *description = std::string(prop.name) + " (compute capability " + std::to_string(prop.major) + "." +
                   std::to_string(prop.minor) + ", " + std::to_string(prop.totalGlobalMem >> 20) + " MiB)";
  return true;
}

void require_cuda_backend(const CompiledModel& model, Method method) {
  std::string why;
  if (!cuda_device_available(&why)) throw std::runtime_error("cuda backend: " + why);
  if (!kernels_take(model, method, &why)) throw std::runtime_error("cuda backend: " + why);
}

EnsembleResult run_ensemble_cuda(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                 const std::vector<double>& output_times, const CudaRunOptions& options) {
  if (options.threads_per_block < 1 || options.threads_per_block > 1024)
    throw std::invalid_argument("cuda backend: threads per block " + std::to_string(options.threads_per_block) +
                                " is outside 1..1024");
  const bool warp_wide = options.strategy == GpuStrategy::warp || options.strategy == GpuStrategy::shared_lu;
  if (warp_wide && options.threads_per_block % 32 != 0)
    throw std::invalid_argument("cuda backend: the warp and shared-lu strategies work in whole warps, so threads per "
                                "block (" + std::to_string(options.threads_per_block) + ") must be a multiple of 32");
  require_cuda_backend(model, spec.method);
  if (spec.method == Method::implicit &&
      (options.strategy != GpuStrategy::fused || options.kernel != CudaRunOptions::Kernel::specialized))
    throw std::invalid_argument("cuda backend: the implicit integrators run in the fused kernel specialized for them "
                                "(gpu strategy 'fused', the specialized kernel), not with the strategy or kernel asked for");
  size_t memory_budget_bytes = options.memory_budget_bytes;
  const auto start = std::chrono::steady_clock::now();
  const long long n = ensemble.n_instances;
  const int n_times = static_cast<int>(output_times.size());
  const CudaRunPlan plan = plan_cuda_run(model, spec.method, options);
  // The named KPIs on line in the fused kernel (the other kernels do not carry KPI state: finish_kpis computes
  // them from their series). Only the states come back when no series is kept.
  const size_t kpi_doubles = static_cast<size_t>(model.n_kpis) * kKpiStateDoubles;
  const bool device_kpis = kpi_doubles > 0 && !plan.staged && plan.kernel == GpuStrategy::fused;
  const bool copy_series = options.keep_series || !device_kpis;
  EnsembleResult result = make_ensemble_result(static_cast<int>(n), output_times, model.n_outputs, copy_series);
  if (device_kpis) result.kpi_state.assign(static_cast<size_t>(n) * kpi_doubles, 0.0);

  const DeviceBuffer d_model = upload(&model, 1);
  const DeviceBuffer d_constants = upload(ensemble.constants.data(), ensemble.constants.size());
  const DeviceBuffer d_q = upload(ensemble.initial_q.data(), ensemble.initial_q.size());
  const DeviceBuffer d_v = upload(ensemble.initial_v.data(), ensemble.initial_v.size());
  const DeviceBuffer d_times = upload(output_times.data(), output_times.size());

  const size_t scratch_bytes = device_slot_bytes(model, spec.method);
  const size_t output_bytes = sizeof(double) * static_cast<size_t>(n_times) * model.n_outputs;
  const int ndof = iteration_matrix_order(model);
  const bool batched_lu = staged_has_linear_algebra(spec.method);
  const bool staged = plan.staged;
  const size_t staged_bytes = !staged       ? 0
                              : batched_lu ? sizeof(double) * static_cast<size_t>(ndof) * (ndof + 1) +
                                                 sizeof(int) * static_cast<size_t>(ndof + 2) + 2 * sizeof(double*)
                                           : sizeof(int);
  const size_t global_scratch_bytes = plan.thread_local_scratch ? 0 : scratch_bytes;
  const size_t kpi_bytes = device_kpis ? sizeof(double) * kpi_doubles : 0;
  const size_t per_instance =
      global_scratch_bytes + output_bytes + 2 * sizeof(int) + sizeof(IntegratorStats) + staged_bytes + kpi_bytes;
  if (memory_budget_bytes == 0) {
    size_t free_bytes = 0, total_bytes = 0;
    check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    memory_budget_bytes = free_bytes / 2;
  }
  const long long chunk = std::max<long long>(1, std::min<long long>(n, static_cast<long long>(memory_budget_bytes / per_instance)));

  DeviceBuffer d_scratch(global_scratch_bytes * static_cast<size_t>(chunk));
  DeviceBuffer d_outputs(output_bytes * static_cast<size_t>(chunk));
  DeviceBuffer d_status(sizeof(int) * static_cast<size_t>(chunk));
  DeviceBuffer d_stats(sizeof(IntegratorStats) * static_cast<size_t>(chunk));
  DeviceBuffer d_live(sizeof(int) * static_cast<size_t>(chunk));
  DeviceBuffer d_kpi_state(kpi_bytes * static_cast<size_t>(chunk));
  std::vector<int> status(static_cast<size_t>(chunk));
  const long long budget = options.step_budget > 0 ? options.step_budget : -1;
  cuda::Stream stream;
  for (long long first = 0; first < n; first += chunk) {
    if (options.progress && options.progress->cancelled()) break;  // the caller throws; the result is dropped
    const long long count = std::min(chunk, n - first);
    cuda::SimulateParams p{d_model.as<CompiledModel>(), d_constants.as<double>(), d_q.as<double>(), d_v.as<double>(),
                           d_times.as<double>(), n_times, n, first, count, spec, d_scratch.as<unsigned char>(),
                           scratch_bytes, d_outputs.as<double>(), d_status.as<int>(), d_stats.as<IntegratorStats>(),
                           nullptr, count, true, budget, plan.thread_local_scratch};
    p.specialized = plan.specialized;
    p.model_class = plan.axis_joints ? cuda::KernelModelClass::axis_joints : cuda::KernelModelClass::any;
    p.model_kernel = plan.model_kernel;
    if (device_kpis) {
      p.kpi_state = d_kpi_state.as<double>();
      check(cudaMemset(d_kpi_state.pointer, 0, kpi_bytes * static_cast<size_t>(count)), "cudaMemset (KPI states)");
    }
    // All-ones bytes are a NaN double: outputs after an instance's failure read NaN, as on the CPU.
    check(cudaMemset(d_outputs.pointer, 0xFF, output_bytes * static_cast<size_t>(count)), "cudaMemset (outputs)");
    check(cudaMemset(d_stats.pointer, 0, sizeof(IntegratorStats) * static_cast<size_t>(count)), "cudaMemset (stats)");
    // Slots start as zeros, as the cpu backend's scratch vectors do, whatever the previous chunk left.
    // compute-sanitizer initcheck reported uninitialized 8-byte reads in the kernels whose slots lie here (budget,
    // warp, shared LU, staged; H100, 2026-11-26); the build has no line info, so which words they were is not
    // known. On the CPU no such read reaches a result (ResumableInstance.WhatTheScratchHeldBeforeTheRunDoesNotMatter
    // runs every model and method from zeros, NaNs and large values, bit for bit alike).
    if (global_scratch_bytes > 0)
      check(cudaMemset(d_scratch.pointer, 0, global_scratch_bytes * static_cast<size_t>(count)), "cudaMemset (scratch)");
    if (staged) {
      check(cudaDeviceSynchronize(), "cudaMemset");  // the staged run's stream does not wait on the default one
      const cuda::StagedParams staged_params{p.model, p.constants, p.initial_q, p.initial_v, p.output_times,
                                             p.n_output_times, p.total, p.first, p.count, p.spec, p.scratch,
                                             p.scratch_bytes, p.outputs, p.status, p.stats, true,
                                             LinearRequest::none, LinearRequest::none, nullptr, nullptr, ndof,
                                             nullptr, nullptr, nullptr, nullptr};
      run_chunk_staged(staged_params, spec.method, options.threads_per_block, stream.stream);
    } else {
      // Launch, list the instances still running, launch again over those alone, until none is left.
      const GpuStrategy kernel = plan.kernel;
      for (;;) {
        check(kernel == GpuStrategy::warp        ? cuda::launch_simulate_warp(p, options.threads_per_block, nullptr)
              : kernel == GpuStrategy::shared_lu ? cuda::launch_simulate_shared_lu(p, options.threads_per_block, nullptr)
                                                 : cuda::launch_simulate(p, options.threads_per_block, nullptr),
              "simulate kernel launch");
        check(cudaDeviceSynchronize(), "simulate kernel");
        if (budget < 0) break;
        const long long live_before = p.n_live;
        p.n_live = cuda::compact_live(d_status.as<int>(), count, d_live.as<int>(), nullptr);
        check(cudaGetLastError(), "compaction of the live instances");
        if (options.progress) options.progress->finished(live_before - p.n_live);
        if (p.n_live == 0 || (options.progress && options.progress->cancelled())) break;
        p.live = d_live.as<int>();
        p.first_launch = false;
      }
    }
    if (copy_series)
      check(cudaMemcpy(result.values.data() + static_cast<size_t>(first) * n_times * model.n_outputs,
                       d_outputs.pointer, output_bytes * static_cast<size_t>(count), cudaMemcpyDeviceToHost),
            "cudaMemcpy (outputs)");
    if (device_kpis)
      check(cudaMemcpy(result.kpi_state.data() + static_cast<size_t>(first) * kpi_doubles, d_kpi_state.pointer,
                       kpi_bytes * static_cast<size_t>(count), cudaMemcpyDeviceToHost),
            "cudaMemcpy (KPI states)");
    check(cudaMemcpy(status.data(), d_status.pointer, sizeof(int) * static_cast<size_t>(count), cudaMemcpyDeviceToHost),
          "cudaMemcpy (status)");
    check(cudaMemcpy(result.stats.data() + first, d_stats.pointer, sizeof(IntegratorStats) * static_cast<size_t>(count),
                     cudaMemcpyDeviceToHost),
          "cudaMemcpy (stats)");
    for (long long i = 0; i < count; ++i) result.status[static_cast<size_t>(first + i)] = static_cast<InstanceStatus>(status[static_cast<size_t>(i)]);
    if (options.progress && (staged || budget < 0)) options.progress->finished(count);  // budgeted: counted above
  }
  result.total_wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

#endif

}  // namespace myriad
