#pragma once
// Kernel of the Lorenz calibration ensemble (ode/lorenz.hpp): one thread per instance runs
// simulate_lorenz_instance, the same function the CPU path calls.
#include <cuda_runtime.h>

#include "ode/lorenz.hpp"

namespace myriad::cuda {

// Instances [0, count) of one chunk: rho (count), final states structure of arrays [j * count + i], statuses.
template <class Real>
cudaError_t launch_lorenz(const LorenzSpec& spec, const Real* rho, long long count, Real* final_state, int* status,
                          int threads_per_block, cudaStream_t stream);

}  // namespace myriad::cuda
