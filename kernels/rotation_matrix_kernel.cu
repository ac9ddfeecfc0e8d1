// rA's kernel: a thread per instance runs integrate_rotation_matrix_instance (absolute/rotation_matrix_run.hpp,
// seed 002's backward Euler on SO(3)), the function the cpu backend calls, over the batch of
// backends/absolute_batch.hpp (AbsoluteKernelParams: rA's state layout in starts and rows; the scheme is unused,
// rA has its own method). Its own translation unit beside absolute_kernel.cu so that the two compile side by
// side.
#include "absolute/rotation_matrix_run.hpp"
#include "absolute_kernel.cuh"

namespace myriad::cuda {

namespace {

__global__ void rotation_matrix_kernel(const AbsoluteKernelParams p) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= p.count || p.status[i] != static_cast<int>(InstanceStatus::ok)) return;
  IntegratorStats stats;
  int reached = 0;
  const InstanceStatus status = integrate_rotation_matrix_instance(
      p.models[i], p.options, p.t0, p.h, p.max_steps, p.starts + i * p.ny, p.times, p.n_times, p.accelerations,
      p.rows + i * static_cast<long long>(p.n_times) * p.row_size, p.work + i * p.work_size, stats, reached);
  p.status[i] = static_cast<int>(status);
  p.reached[i] = reached;
  p.stats[i] = stats;
}

}  // namespace

cudaError_t launch_absolute_ra(const AbsoluteKernelParams& params, int threads_per_block, cudaStream_t stream) {
  if (params.count <= 0) return cudaSuccess;
  const long long blocks = (params.count + threads_per_block - 1) / threads_per_block;
  rotation_matrix_kernel<<<static_cast<unsigned>(blocks), threads_per_block, 0, stream>>>(params);
  return cudaGetLastError();
}

}  // namespace myriad::cuda
