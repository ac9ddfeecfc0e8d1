#include "shared_lu_kernel.cuh"

#include "ensemble/simulate_instance.hpp"
#include "ensemble/strided_constants.hpp"
#include "instance_slot.cuh"
#include "warp_lu.cuh"

namespace myriad::cuda {

namespace {

using Request = IntegrationProgress::LinearRequest;

// A pointer held by lane `owner`, on every lane.
__device__ inline double* shuffle_pointer(double* pointer, int owner) {
  return reinterpret_cast<double*>(
      __shfl_sync(kFullWarpMask, reinterpret_cast<unsigned long long>(pointer), owner));
}

__global__ void shared_lu_simulate_kernel(const SimulateParams p) {
  const long long index = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % kWarpLanes);
  if (index - lane >= p.n_live) return;  // the whole warp is past the end (blockDim.x is a multiple of 32)
  // Lanes past the end own no instance but still take part in the warp's factorizations and solves.
  const bool active = index < p.n_live;
  const CompiledModel& model = *p.model;
  const int n = iteration_matrix_order(model);
  const long long local = active ? (p.live ? p.live[index] : index) : 0;
  const long long instance = p.first + local;
  InstanceSlot slot{nullptr, nullptr, nullptr};
  IntegratorStats stats;
  if (active) {
    slot = instance_slot(model, p.scratch, p.scratch_bytes, local, instance, p.total, p.initial_q, p.initial_v,
                         p.first_launch);
    if (p.first_launch) begin_instance_external_lu(slot.scratch);
    stats = p.stats[local];
  }
  const StridedConstants k{p.constants + instance, p.total};
  long long budget = p.step_budget;
  bool finished = !active, stopped = !active;  // stopped: finished, or out of budget for this launch
  for (;;) {
    int request = static_cast<int>(Request::none);
    double *matrix = nullptr, *pivots = nullptr, *vector = nullptr;
    if (!stopped) {
      finished = advance_instance(model, k, slot.q, slot.v, p.spec, p.output_times, p.n_output_times, slot.scratch,
                                  p.outputs + local * p.n_output_times * model.n_outputs, stats, budget);
      const IntegrationProgress& integration = instance_progress(slot.scratch).integration;
      budget = integration.budget;  // what is left of this launch's budget after the attempts begun so far
      if (!finished) request = static_cast<int>(integration.request);
      stopped = request == static_cast<int>(Request::none);
      matrix = integration.factor_matrix;
      pivots = integration.factor_pivots;
      vector = integration.solve_vector;
    }
    // Every lane's request, served by the whole warp in lane order.
    unsigned pending = __ballot_sync(kFullWarpMask, request != static_cast<int>(Request::none));
    if (pending == 0) break;
    while (pending != 0) {
      const int owner = __ffs(pending) - 1;
      pending &= pending - 1;
      const int served = __shfl_sync(kFullWarpMask, request, owner);
      double* owner_matrix = shuffle_pointer(matrix, owner);
      double* owner_pivots = shuffle_pointer(pivots, owner);
      double* owner_vector = shuffle_pointer(vector, owner);
      if (served == static_cast<int>(Request::factor)) {
        const bool factored = warp_lu_factor(n, owner_matrix, owner_pivots, lane);
        if (lane == owner) instance_progress(slot.scratch).integration.lu_info = factored ? 0 : 1;
      } else {
        warp_lu_solve(n, owner_matrix, owner_pivots, owner_vector, lane);
      }
      __syncwarp(kFullWarpMask);  // the owner's factors or solution complete before it reads them
    }
  }
  if (!active) return;
  p.status[local] = finished ? static_cast<int>(instance_progress(slot.scratch).status) : kInstanceRunning;
  p.stats[local] = stats;
}

}  // namespace

cudaError_t launch_simulate_shared_lu(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  if (params.n_live <= 0) return cudaSuccess;
  if (threads_per_block % kWarpLanes != 0) return cudaErrorInvalidConfiguration;
  const long long blocks = (params.n_live + threads_per_block - 1) / threads_per_block;
  shared_lu_simulate_kernel<<<static_cast<unsigned>(blocks), threads_per_block, 0, stream>>>(params);
  return cudaGetLastError();
}

}  // namespace myriad::cuda
