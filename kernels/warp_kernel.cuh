#pragma once
// Kernel entry point of the warp-per-instance variant of the fused strategy (ensemble/warp_cadence.hpp): a warp
// advances one instance, its lane 0 running the integration and all 32 lanes sharing each factorization of the
// iteration matrix (one row per lane, warp-shuffle pivot search) and each stage solve. Same parameters, step
// budget and compaction as the thread-per-instance kernel (simulate_kernel.cuh).
#include <cuda_runtime.h>

#include "simulate_kernel.cuh"

namespace myriad::cuda {

// threads_per_block: a multiple of 32 (one warp per instance).
cudaError_t launch_simulate_warp(const SimulateParams& params, int threads_per_block, cudaStream_t stream);

}  // namespace myriad::cuda
