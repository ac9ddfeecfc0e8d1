#include "tree_kernels.cuh"

#include "fused_kernels.cuh"

namespace myriad::cuda {

namespace {

template <Method M>
cudaError_t launch_tree(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  if (params.model_class == KernelModelClass::axis_joints)
    return fused::launch<TreeStepLoops<M>, fused::KernelConstants<AxisJointsClass>>(params, threads_per_block, stream);
  return fused::launch<TreeStepLoops<M>, fused::KernelConstants<AnyModelClass>>(params, threads_per_block, stream);
}

}  // namespace

cudaError_t launch_tree_rk4(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  return launch_tree<Method::rk4>(params, threads_per_block, stream);
}

cudaError_t launch_tree_dopri5(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  return launch_tree<Method::dopri5>(params, threads_per_block, stream);
}

cudaError_t launch_tree_rn4(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  return launch_tree<Method::rn4>(params, threads_per_block, stream);
}

cudaError_t launch_tree_ros2w(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  return launch_tree<Method::ros2w>(params, threads_per_block, stream);
}

}  // namespace myriad::cuda
