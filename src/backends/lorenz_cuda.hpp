#pragma once
// The Lorenz calibration ensemble (ode/lorenz.hpp) on the GPU: parameters uploaded as one structure-of-arrays
// column, one thread per instance, final states copied back; chunks under a memory budget when the ensemble does
// not fit the device.
#include "ode/lorenz_ensemble.hpp"

namespace myriad {

// compute_seconds: the kernels alone (CUDA events); total_seconds: with allocation and transfers.
// memory_budget_bytes 0: half of the device's free memory. Throws std::runtime_error when this build or machine
// has no CUDA device (saying which) or a CUDA call fails.
template <class Real>
LorenzRun<Real> run_lorenz_cuda(const LorenzSpec& spec, long long n, int threads_per_block = 128,
                                size_t memory_budget_bytes = 0);

}  // namespace myriad
