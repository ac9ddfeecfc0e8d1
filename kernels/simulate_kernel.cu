#include "simulate_kernel.cuh"

#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>

#include "ensemble/simulate_instance.hpp"
#include "ensemble/strided_constants.hpp"
#include "instance_slot.cuh"

namespace myriad::cuda {

__global__ void simulate_kernel(const SimulateParams p) {
  const long long index = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (index >= p.n_live) return;
  const long long local = p.live ? p.live[index] : index;
  const long long instance = p.first + local;
  const CompiledModel& model = *p.model;
  const InstanceSlot slot = instance_slot(model, p.scratch, p.scratch_bytes, local, instance, p.total, p.initial_q,
                                          p.initial_v, p.first_launch);
  unsigned char* scratch = slot.scratch;
  if (p.first_launch) begin_instance(scratch);
  const StridedConstants k{p.constants + instance, p.total};
  IntegratorStats stats = p.stats[local];
  const bool finished = advance_instance(model, k, slot.q, slot.v, p.spec, p.output_times, p.n_output_times, scratch,
                                         p.outputs + local * p.n_output_times * model.n_outputs, stats,
                                         p.step_budget);
  p.status[local] = finished ? static_cast<int>(instance_progress(scratch).status) : kInstanceRunning;
  p.stats[local] = stats;
}

cudaError_t launch_simulate(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  if (params.n_live <= 0) return cudaSuccess;
  const long long blocks = (params.n_live + threads_per_block - 1) / threads_per_block;
  simulate_kernel<<<static_cast<unsigned>(blocks), threads_per_block, 0, stream>>>(params);
  return cudaGetLastError();
}

namespace {

struct IsRunning {
  __host__ __device__ bool operator()(int status) const { return status == kInstanceRunning; }
};

}  // namespace

long long compact_live(const int* status, long long count, int* live, cudaStream_t stream) {
  const thrust::counting_iterator<int> first(0);
  int* end = thrust::copy_if(thrust::cuda::par.on(stream), first, first + count, status, live, IsRunning{});
  return end - live;
}

}  // namespace myriad::cuda
