// The fused kernel for seed 003's implicit methods (Method::implicit) on tree models, for every model
// (AnyModelClass) and for models of joints about one axis (AxisJointsClass). Its own file because it is the one
// translation unit that compiles the implicit step loops for the device: MYRIAD_DEVICE_IMPLICIT, defined before
// any include, turns on ensemble/simulate_instance.hpp's kImplicitCompiled here only, so the generic kernel, the
// other specialized kernels and the step kernel stay without the implicit integrator's Newton and LU
// (bench/results/kernel_resources.md: the generic kernel is at the register cap already). The implicit
// steps run on the second-order form with RN4's Jacobians (integrators/second_order_implicit.hpp).
#define MYRIAD_DEVICE_IMPLICIT 1

#include "tree_kernels.cuh"

#include "fused_kernels.cuh"

namespace myriad::cuda {

cudaError_t launch_tree_implicit(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  using Loops = TreeStepLoops<Method::implicit>;
  if (params.model_class == KernelModelClass::axis_joints)
    return fused::launch<Loops, fused::KernelConstants<AxisJointsClass>>(params, threads_per_block, stream);
  return fused::launch<Loops, fused::KernelConstants<AnyModelClass>>(params, threads_per_block, stream);
}

}  // namespace myriad::cuda
