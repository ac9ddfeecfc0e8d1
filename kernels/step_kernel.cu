#include "step_kernel.cuh"

#include "ensemble/device_slot.hpp"
#include "ensemble/step_instance.hpp"

namespace myriad::cuda {

namespace {

// One step of instance i with its scratch wherever it lies. Out of line: both kernels call the one compiled copy of
// the step loops (advance_instance, inlined here).
__device__ __noinline__ void step_device(const StepParams& p, long long i, unsigned char* scratch) {
  step_strided_instance(*p.model, p.constants, p.n, i, p.spec, p.dt, p.t, p.q, p.v, p.status, scratch);
}

// Scratch in global memory: instance i's at scratch + i * scratch_bytes.
__global__ void step_kernel(const StepParams p) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < p.n) step_device(p, i, p.scratch + i * p.scratch_bytes);
}

// Scratch in the thread's local memory, which the hardware interleaves across a warp.
__global__ void step_kernel_thread_local(const StepParams p) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= p.n) return;
  alignas(16) unsigned char scratch[kThreadLocalSlotBytes];
  step_device(p, i, scratch);
}

}  // namespace

cudaError_t launch_step(const StepParams& params, int threads_per_block, cudaStream_t stream) {
  if (params.n <= 0) return cudaSuccess;
  const long long blocks = (params.n + threads_per_block - 1) / threads_per_block;
  if (params.thread_local_scratch) {
    if (params.scratch_bytes > kThreadLocalSlotBytes) return cudaErrorInvalidValue;
    step_kernel_thread_local<<<static_cast<unsigned>(blocks), threads_per_block, 0, stream>>>(params);
  } else {
    step_kernel<<<static_cast<unsigned>(blocks), threads_per_block, 0, stream>>>(params);
  }
  return cudaGetLastError();
}

}  // namespace myriad::cuda
