#pragma once
// Ensemble statistics on the GPU: the device-wide launcher of kernels/ensemble_statistics.cu for a result
// held on the host. Same conventions and same operation order as compute_statistics
// (src/ensemble/ensemble_statistics.hpp).
#include "ensemble/ensemble_statistics.hpp"  // and EnsembleResult

namespace myriad {

// Uploads result.values to device 0, enqueues the statistics kernels on a stream of its own, copies the
// results back and synchronises once. O(n_instances * n_times * n_signals) device work, the same in device
// memory. Throws std::invalid_argument when result.values has the wrong size, std::runtime_error when the
// build has no CUDA, no device is present, or a CUDA call fails (naming the call and the CUDA error).
EnsembleStatistics compute_statistics_cuda(const EnsembleResult& result);

}  // namespace myriad
