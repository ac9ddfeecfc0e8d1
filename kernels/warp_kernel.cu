#include "warp_kernel.cuh"

#include "ensemble/strided_constants.hpp"
#include "ensemble/warp_cadence.hpp"
#include "instance_slot.cuh"
#include "warp_lu.cuh"

namespace myriad::cuda {

namespace {

constexpr int kLanes = 32;

// The warp as warp_cadence.hpp's group: lane 0 leads.
struct DeviceWarp {
  int lane;
  __device__ bool leader() const { return lane == 0; }
  __device__ int broadcast(int value) const { return __shfl_sync(0xffffffffu, value, 0); }
  __device__ void sync() const { __syncwarp(); }
  __device__ bool factor(int n, double* A, double* pivots) const { return warp_lu_factor(n, A, pivots, lane); }
  __device__ void solve(int n, const double* LU, const double* pivots, double* b) const {
    warp_lu_solve(n, LU, pivots, b, lane);
  }
};

__global__ void warp_simulate_kernel(const SimulateParams p) {
  const long long index = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / kLanes;
  const int lane = static_cast<int>(threadIdx.x % kLanes);
  if (index >= p.n_live) return;  // the whole warp: blockDim.x is a multiple of 32
  const long long local = p.live ? p.live[index] : index;
  const long long instance = p.first + local;
  const CompiledModel& model = *p.model;
  const bool leader = lane == 0;
  const InstanceSlot slot = instance_slot(model, p.scratch, p.scratch_bytes, local, instance, p.total, p.initial_q,
                                          p.initial_v, p.first_launch && leader);
  unsigned char* scratch = slot.scratch;
  if (p.first_launch && leader) begin_instance_external_lu(scratch);
  __syncwarp();
  const StridedConstants k{p.constants + instance, p.total};
  IntegratorStats stats = p.stats[local];
  DeviceWarp warp{lane};
  const bool finished = cooperative_advance_instance(warp, model, k, slot.q, slot.v, p.spec, p.output_times,
                                                     p.n_output_times, scratch,
                                                     p.outputs + local * p.n_output_times * model.n_outputs, stats,
                                                     p.step_budget);
  if (!leader) return;
  p.status[local] = finished ? static_cast<int>(instance_progress(scratch).status) : kInstanceRunning;
  p.stats[local] = stats;
}

}  // namespace

cudaError_t launch_simulate_warp(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  if (params.n_live <= 0) return cudaSuccess;
  if (threads_per_block % kLanes != 0) return cudaErrorInvalidConfiguration;
  const long long warps_per_block = threads_per_block / kLanes;
  const long long blocks = (params.n_live + warps_per_block - 1) / warps_per_block;
  warp_simulate_kernel<<<static_cast<unsigned>(blocks), threads_per_block, 0, stream>>>(params);
  return cudaGetLastError();
}

}  // namespace myriad::cuda
