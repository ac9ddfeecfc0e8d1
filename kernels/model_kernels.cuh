#pragma once
// The fused kernels compiled for one model each (generated/model_kernels.hpp: the quarter car with DOPRI5,
// the stiff double pendulum with RN4), in model_kernels.cu: the method's kernel on trees whose model is a
// constant of the code (its CompiledModel as `myriad codegen` wrote it, generated/*.hpp), so the compiler
// folds the loop bounds, joint types and constant offsets and keeps no code for joints and elements the model
// lacks (issue 19, item 4). The same functions as every other kernel run; results are the same bit for bit.
// launch_simulate picks one for SimulateParams::model_kernel.
#include <cuda_runtime.h>

#include "simulate_kernel.cuh"

namespace myriad::cuda {

cudaError_t launch_model_kernel(const SimulateParams& params, int threads_per_block, cudaStream_t stream);

}  // namespace myriad::cuda
