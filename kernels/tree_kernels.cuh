#pragma once
// The fused kernels specialized at compile time to one method on tree models (ensemble/step_loops.hpp,
// TreeStepLoops), each for every model (AnyModelClass) and for models of joints about one axis
// (AxisJointsClass, SimulateParams::model_class; dynamics/model_class.hpp): the generic kernel's code less the
// branches such a run never takes, all eight in tree_kernels.cu
// (one file: CI's build, without device optimization, pays a fixed cost per file; ptxas takes 1-1.5 min per method
// where the generic kernel's file takes 5). launch_simulate picks one for SimulateParams::specialized.
#include <cuda_runtime.h>

#include "simulate_kernel.cuh"

namespace myriad::cuda {

cudaError_t launch_tree_rk4(const SimulateParams& params, int threads_per_block, cudaStream_t stream);
cudaError_t launch_tree_dopri5(const SimulateParams& params, int threads_per_block, cudaStream_t stream);
cudaError_t launch_tree_rn4(const SimulateParams& params, int threads_per_block, cudaStream_t stream);
cudaError_t launch_tree_ros2w(const SimulateParams& params, int threads_per_block, cudaStream_t stream);
// In tree_implicit_kernel.cu (the only translation unit compiling the implicit methods for the device).
cudaError_t launch_tree_implicit(const SimulateParams& params, int threads_per_block, cudaStream_t stream);

}  // namespace myriad::cuda
