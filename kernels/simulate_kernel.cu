#include "simulate_kernel.cuh"

#include "ensemble/simulate_instance.hpp"
#include "ensemble/strided_constants.hpp"

namespace myriad::cuda {

__global__ void simulate_kernel(const SimulateParams p) {
  const long long local = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (local >= p.count) return;
  const long long instance = p.first + local;
  const CompiledModel& model = *p.model;
  unsigned char* scratch = p.scratch + local * p.scratch_bytes;
  // The initial state is gathered into the scratch's chart slots' neighbours: q and v occupy the first nq + nv
  // doubles past the scratch proper, reserved by the launcher.
  double* q = reinterpret_cast<double*>(scratch + p.scratch_bytes) - (model.nq + model.nv);
  double* v = q + model.nq;
  for (int j = 0; j < model.nq; ++j) q[j] = p.initial_q[j * p.total + instance];
  for (int j = 0; j < model.nv; ++j) v[j] = p.initial_v[j * p.total + instance];
  const StridedConstants k{p.constants + instance, p.total};
  IntegratorStats stats;
  const InstanceStatus status =
      simulate_instance(model, k, q, v, p.spec, p.output_times, p.n_output_times, scratch,
                        p.outputs + local * p.n_output_times * model.n_outputs, stats);
  p.status[local] = static_cast<int>(status);
  p.stats[local] = stats;
}

cudaError_t launch_simulate(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  if (params.count <= 0) return cudaSuccess;
  const long long blocks = (params.count + threads_per_block - 1) / threads_per_block;
  simulate_kernel<<<static_cast<unsigned>(blocks), threads_per_block, 0, stream>>>(params);
  return cudaGetLastError();
}

}  // namespace myriad::cuda
