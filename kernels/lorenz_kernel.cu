#include "lorenz_kernel.cuh"

namespace myriad::cuda {

template <class Real>
__global__ void lorenz_kernel(const LorenzSpec spec, const Real* __restrict__ rho, long long count,
                              Real* __restrict__ final_state, int* __restrict__ status) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  Real work[15];  // rk4_workspace_size(3): with the state size known after inlining, these stay in registers
  Real state[3];
  IntegratorStats stats;
  status[i] = static_cast<int>(simulate_lorenz_instance(spec, rho[i], state, work, stats));
  for (int j = 0; j < 3; ++j) final_state[j * count + i] = state[j];
}

template <class Real>
cudaError_t launch_lorenz(const LorenzSpec& spec, const Real* rho, long long count, Real* final_state, int* status,
                          int threads_per_block, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  const long long blocks = (count + threads_per_block - 1) / threads_per_block;
  lorenz_kernel<Real><<<static_cast<unsigned>(blocks), threads_per_block, 0, stream>>>(spec, rho, count, final_state,
                                                                                       status);
  return cudaGetLastError();
}

template cudaError_t launch_lorenz<float>(const LorenzSpec&, const float*, long long, float*, int*, int,
                                          cudaStream_t);
template cudaError_t launch_lorenz<double>(const LorenzSpec&, const double*, long long, double*, int*, int,
                                           cudaStream_t);

}  // namespace myriad::cuda
