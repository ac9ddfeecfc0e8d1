#include "absolute_kernel.cuh"

namespace myriad::cuda {

namespace {

template <class Rep>
__global__ void absolute_kernel(const AbsoluteKernelParams p) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= p.count || p.status[i] != static_cast<int>(InstanceStatus::ok)) return;
  IntegratorStats stats;
  int reached = 0;
  const InstanceStatus status = integrate_absolute_instance<Rep>(
      p.models[i], p.scheme, p.options, p.t0, p.h, p.max_steps, p.starts + i * p.ny, p.times, p.n_times,
      p.accelerations, p.rows + i * static_cast<long long>(p.n_times) * p.row_size, p.work + i * p.work_size,
      stats, reached);
  p.status[i] = static_cast<int>(status);
  p.reached[i] = reached;
  p.stats[i] = stats;
}

template <class Rep>
cudaError_t launch_absolute(const AbsoluteKernelParams& params, int threads_per_block, cudaStream_t stream) {
  if (params.count <= 0) return cudaSuccess;
  const long long blocks = (params.count + threads_per_block - 1) / threads_per_block;
  absolute_kernel<Rep><<<static_cast<unsigned>(blocks), threads_per_block, 0, stream>>>(params);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_absolute_rp(const AbsoluteKernelParams& params, int threads_per_block,
                               cudaStream_t stream) {
  return launch_absolute<EulerParameterCoordinates>(params, threads_per_block, stream);
}

cudaError_t launch_absolute_re(const AbsoluteKernelParams& params, int threads_per_block,
                               cudaStream_t stream) {
  return launch_absolute<EulerAngleCoordinates>(params, threads_per_block, stream);
}

}  // namespace myriad::cuda
