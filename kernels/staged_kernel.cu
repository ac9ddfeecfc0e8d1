#include "staged_kernel.cuh"

#include "ensemble/strided_constants.hpp"
#include "instance_slot.cuh"
#include "simulate_kernel.cuh"

namespace myriad::cuda {

__global__ void staged_advance_kernel(const StagedParams p) {
  const long long local = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (local >= p.count) return;
  const long long instance = p.first + local;
  const CompiledModel& model = *p.model;
  const InstanceSlot slot = instance_slot(model, p.scratch, p.scratch_bytes, local, instance, p.total, p.initial_q,
                                          p.initial_v, p.first_launch);
  unsigned char* scratch = slot.scratch;
  if (p.first_launch) begin_instance_external_lu(scratch);
  const StridedConstants k{p.constants + instance, p.total};
  int* pivots = p.pivots + local * p.n;
  if (!p.first_launch && p.served == LinearRequest::factor && staged_request(scratch) == LinearRequest::factor) {
    double* kept = instance_progress(scratch).integration.factor_pivots;
    for (int i = 0; i < p.n; ++i) kept[i] = pivots[i];
  }
  IntegratorStats stats = p.stats[local];
  const bool finished =
      staged_advance_instance(model, k, slot.q, slot.v, p.spec, p.output_times, p.n_output_times, scratch,
                              p.outputs + local * p.n_output_times * model.n_outputs, stats, p.served,
                              p.first_launch ? 0 : p.lu_info[local]);
  p.stats[local] = stats;
  p.status[local] = finished ? static_cast<int>(instance_progress(scratch).status) : kInstanceRunning;
  if (p.next == LinearRequest::none) return;  // RK4, DOPRI5: no batched operation
  // Point the next batched operation at this instance's matrix and stage vector (and, for a solve, put its
  // pivots back), or at its dummies.
  const LinearRequest request = staged_request(scratch);
  const IntegrationProgress& integration = instance_progress(scratch).integration;
  double* dummy_matrix = p.dummy_matrices + local * p.n * p.n;
  double* dummy_vector = p.dummy_vectors + local * p.n;
  const bool takes_part = request == p.next;
  p.matrices[local] = takes_part ? integration.factor_matrix : dummy_matrix;
  p.vectors[local] = takes_part && request == LinearRequest::solve ? integration.solve_vector : dummy_vector;
  if (p.next == LinearRequest::solve) {
    for (int i = 0; i < p.n; ++i)
      pivots[i] = takes_part ? static_cast<int>(integration.factor_pivots[i]) : i + 1;
  }
}

__global__ void staged_dummies_kernel(double* dummy_matrices, double* dummy_vectors, int n, long long count) {
  const long long local = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (local >= count) return;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) dummy_matrices[(local * n + i) * n + j] = i == j ? 1.0 : 0.0;
    dummy_vectors[local * n + i] = 0.0;
  }
}

cudaError_t launch_staged_advance(const StagedParams& params, int threads_per_block, cudaStream_t stream) {
  if (params.count <= 0) return cudaSuccess;
  const long long blocks = (params.count + threads_per_block - 1) / threads_per_block;
  staged_advance_kernel<<<static_cast<unsigned>(blocks), threads_per_block, 0, stream>>>(params);
  return cudaGetLastError();
}

cudaError_t launch_staged_dummies(double* dummy_matrices, double* dummy_vectors, int n, long long count,
                                  cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  const long long blocks = (count + 127) / 128;
  staged_dummies_kernel<<<static_cast<unsigned>(blocks), 128, 0, stream>>>(dummy_matrices, dummy_vectors, n, count);
  return cudaGetLastError();
}

}  // namespace myriad::cuda
