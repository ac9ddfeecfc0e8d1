#pragma once
// The CUDA ensemble run: compiled model copied to the device once, SoA tables of the ensemble copied once,
// instances run thread-per-instance in chunks that fit a device-memory budget, outputs copied back per chunk.
#include <string>
#include <vector>

#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_spec.hpp"

namespace myriad {

// True when this build has CUDA and a device is present; `description` names the device or why there is none.
bool cuda_device_available(std::string* description);

// Runs the ensemble on device 0. memory_budget_bytes = 0: half the free device memory. Throws std::runtime_error
// when the build has no CUDA, no device is present, or a CUDA call fails (naming the call and the CUDA error).
EnsembleResult run_ensemble_cuda(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                 const std::vector<double>& output_times, size_t memory_budget_bytes = 0);

}  // namespace myriad
