#include "observe_kernel.cuh"

#include "ensemble/device_slot.hpp"

namespace myriad::cuda {

namespace {

__global__ void observe_kernel(const ObserveParams p) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < p.n)
    observe_strided_instance(*p.model, p.constants, p.n, i, p.method, p.t, p.q, p.v,
                             p.scratch + i * p.scratch_bytes, p.out);
}

__global__ void observe_kernel_thread_local(const ObserveParams p) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= p.n) return;
  alignas(16) unsigned char scratch[kThreadLocalSlotBytes];
  observe_strided_instance(*p.model, p.constants, p.n, i, p.method, p.t, p.q, p.v, scratch, p.out);
}

__global__ void scatter_inputs_kernel(const FlatInputSlot* slots, int n_slots, const double* u, int n_inputs,
                                      long long n, double* constants) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) scatter_strided_inputs(slots, n_slots, u, n_inputs, n, i, constants);
}

unsigned blocks_for(long long n, int threads_per_block) {
  return static_cast<unsigned>((n + threads_per_block - 1) / threads_per_block);
}

}  // namespace

cudaError_t launch_observe(const ObserveParams& params, int threads_per_block, cudaStream_t stream) {
  if (params.n <= 0) return cudaSuccess;
  if (params.thread_local_scratch) {
    if (params.scratch_bytes > kThreadLocalSlotBytes) return cudaErrorInvalidValue;
    observe_kernel_thread_local<<<blocks_for(params.n, threads_per_block), threads_per_block, 0, stream>>>(params);
  } else {
    observe_kernel<<<blocks_for(params.n, threads_per_block), threads_per_block, 0, stream>>>(params);
  }
  return cudaGetLastError();
}

cudaError_t launch_scatter_inputs(const FlatInputSlot* slots, int n_slots, const double* u, int n_inputs, long long n,
                                  double* constants, int threads_per_block, cudaStream_t stream) {
  if (n <= 0 || n_slots == 0) return cudaSuccess;
  scatter_inputs_kernel<<<blocks_for(n, threads_per_block), threads_per_block, 0, stream>>>(slots, n_slots, u,
                                                                                           n_inputs, n, constants);
  return cudaGetLastError();
}

}  // namespace myriad::cuda
