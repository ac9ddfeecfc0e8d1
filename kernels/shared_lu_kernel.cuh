#pragma once
// Kernel entry point of the shared-LU variant of the fused strategy: a thread per instance runs its integration
// (as simulate_kernel.cuh), but the factorizations of the iteration matrix and the stage solves are done by the
// whole warp, one lane's matrix after another, with the lane LU of warp_lu.cuh (one row per lane, warp-shuffle
// pivot search). The thread-per-instance kernel has each lane stream through its own matrix, 32 matrices at once
// per warp; here the warp works through one matrix at a time, so its rows stay in L1, at the price of the lanes
// waiting for each other at every factorization and solve. Same occupancy as the thread-per-instance kernel
// (unlike the warp-per-instance kernel, warp_kernel.cuh), same parameters, step budget and compaction.
#include <cuda_runtime.h>

#include "simulate_kernel.cuh"

namespace myriad::cuda {

// threads_per_block: a multiple of 32.
cudaError_t launch_simulate_shared_lu(const SimulateParams& params, int threads_per_block, cudaStream_t stream);

}  // namespace myriad::cuda
