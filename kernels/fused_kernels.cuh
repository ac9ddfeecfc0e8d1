#pragma once
// The thread-per-instance ("fused") kernels over one compiled copy S of advance_instance's step loops
// (ensemble/step_loops.hpp) for one model class (dynamics/model_class.hpp) or one model: AnyStepLoops on
// AnyModelClass in simulate_kernel.cu (every method, trees and loops, every joint and element: the generic
// interpreter), TreeStepLoops<M> on AnyModelClass and on AxisJointsClass in tree_kernels.cu (one method on tree
// models), TreeStepLoops<M> on one generated model in model_kernels.cu. Included by those files alone, each
// instantiating its own, so each kernel's device code is compiled in exactly one translation unit.
//
// The parameters are __grid_constant__: the kernels pass them on by reference, which without it makes each thread
// copy the whole struct into its local memory (800 B of stack, ptxas).
#include <cuda_runtime.h>

#include "dynamics/model_class.hpp"
#include "ensemble/device_slot.hpp"
#include "ensemble/simulate_instance.hpp"
#include "ensemble/strided_constants.hpp"
#include "instance_slot.cuh"
#include "simulate_kernel.cuh"

namespace myriad::cuda::fused {

// The instance's constants in the SoA table, typed with the class the kernel is compiled for (the generic kernel's
// plain StridedConstants belong to AnyModelClass), and the model the kernel reads: the device copy in the
// parameters.
template <class Class>
struct KernelConstants {
  using type = ClassConstants<Class, StridedConstants>;
  __device__ static type of(const StridedConstants& k) { return {k}; }
  __device__ static const CompiledModel& model(const SimulateParams& p) { return *p.model; }
};

template <>
struct KernelConstants<AnyModelClass> {
  using type = StridedConstants;
  __device__ static type of(const StridedConstants& k) { return k; }
  __device__ static const CompiledModel& model(const SimulateParams& p) { return *p.model; }
};

// For a kernel compiled for one model (model_kernels.cu): Model::get() is the model as a constant of the kernel's
// code (equal to *p.model: the host launches it only then), so the compiler folds its topology.
template <class Model>
struct ModelKernelConstants {
  using type = ModelConstants<Model, StridedConstants>;
  __device__ static type of(const StridedConstants& k) { return {k}; }
  __device__ static const CompiledModel& model(const SimulateParams&) { return Model::get(); }
};

// One launch of instance `local` over its slot, wherever the slot lies. Out of line: both kernels call the
// one compiled copy of advance_instance's step loops. C: KernelConstants<Class> or ModelKernelConstants<Model>.
template <class S, class C>
__device__ __noinline__ void advance_slot(const SimulateParams& p, long long local, long long instance,
                                          const InstanceSlot& slot) {
  const CompiledModel& model = C::model(p);
  if (p.first_launch) begin_instance(slot.scratch);
  const auto k = C::of(StridedConstants{p.constants + instance, p.total});
  IntegratorStats stats = p.stats[local];
  double* kpi_state = p.kpi_state ? p.kpi_state + local * model.n_kpis * kKpiStateDoubles : nullptr;
  const bool finished = advance_instance<S>(model, k, slot.q, slot.v, p.spec, p.output_times, p.n_output_times,
                                            slot.scratch, p.outputs + local * p.n_output_times * model.n_outputs,
                                            stats, p.step_budget, kpi_state);
  p.status[local] = finished ? static_cast<int>(instance_progress(slot.scratch).status) : kInstanceRunning;
  p.stats[local] = stats;
}

// Slots in global memory, kept across launches (step budgets, compaction).
template <class S, class C>
__global__ void simulate_kernel(const __grid_constant__ SimulateParams p) {
  const long long index = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (index >= p.n_live) return;
  const long long local = p.live ? p.live[index] : index;
  const long long instance = p.first + local;
  advance_slot<S, C>(p, local, instance,
                     instance_slot(C::model(p), p.scratch, p.scratch_bytes, local, instance, p.total, p.initial_q,
                                   p.initial_v, p.first_launch));
}

// Slots in the thread's local memory (simulate_kernel.cuh says why), for one launch from the start to the end.
template <class S, class C>
__global__ void simulate_kernel_thread_local(const __grid_constant__ SimulateParams p) {
  const long long local = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (local >= p.n_live) return;
  alignas(16) unsigned char slot_memory[kThreadLocalSlotBytes];
  const long long instance = p.first + local;
  advance_slot<S, C>(p, local, instance,
                     instance_slot(C::model(p), slot_memory, p.scratch_bytes, 0, instance, p.total, p.initial_q,
                                   p.initial_v, true));
}

// C: KernelConstants<Class> or ModelKernelConstants<Model>.
template <class S, class C>
cudaError_t launch(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  if (params.n_live <= 0) return cudaSuccess;
  const long long blocks = (params.n_live + threads_per_block - 1) / threads_per_block;
  if (params.thread_local_scratch) {
    if (params.step_budget >= 0 || !params.first_launch || params.live != nullptr ||
        params.scratch_bytes > kThreadLocalSlotBytes)
      return cudaErrorInvalidValue;
    simulate_kernel_thread_local<S, C><<<static_cast<unsigned>(blocks), threads_per_block, 0, stream>>>(params);
  } else {
    simulate_kernel<S, C><<<static_cast<unsigned>(blocks), threads_per_block, 0, stream>>>(params);
  }
  return cudaGetLastError();
}

}  // namespace myriad::cuda::fused
