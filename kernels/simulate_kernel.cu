#include "simulate_kernel.cuh"

#include "fused_kernels.cuh"
#include "model_kernels.cuh"
#include "tree_kernels.cuh"

namespace myriad::cuda {

cudaError_t launch_simulate(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  if (!params.specialized)
    return fused::launch<AnyStepLoops, fused::KernelConstants<AnyModelClass>>(params, threads_per_block, stream);
  if (params.model_kernel != ModelKernel::none) return launch_model_kernel(params, threads_per_block, stream);
  switch (params.spec.method) {
    case Method::rk4: return launch_tree_rk4(params, threads_per_block, stream);
    case Method::dopri5: return launch_tree_dopri5(params, threads_per_block, stream);
    case Method::rn4: return launch_tree_rn4(params, threads_per_block, stream);
    case Method::ros2w: return launch_tree_ros2w(params, threads_per_block, stream);
    case Method::implicit: return launch_tree_implicit(params, threads_per_block, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace myriad::cuda
