#pragma once
// A model file's ensemble in absolute coordinates (rp, re, rA) on the GPU: the instances are prepared on the
// host (backends/absolute_batch.hpp: mapping, start), integrated by a thread each in kernels/absolute_kernel.cu
// or, for rA, kernels/rotation_matrix_kernel.cu (the cpu backend's integrate_absolute_instance and
// integrate_rotation_matrix_instance), and their output states turned into the model's signals and KPIs on the
// host again, in chunks that fit a device-memory budget.
#include <vector>

#include "backends/absolute_backend.hpp"
#include "backends/cuda_runner.hpp"
#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_progress.hpp"
#include "ensemble/run_spec.hpp"
#include "model/compiled_model.hpp"
#include "model/model.hpp"

namespace myriad {

// Runs the ensemble (spec.method must be Method::implicit; backward Euler for rA) on device 0. threads: host
// threads for the preparation and the recording (<= 0: all). options: memory_budget_bytes (0: half the free
// memory), threads_per_block, progress and keep_series as for run_ensemble_cuda; the other options do not
// apply. Throws std::runtime_error when the build has no CUDA, no device is present or a CUDA call fails;
// std::invalid_argument for another method, a model the mapping cannot express (as run_ensemble_absolute).
EnsembleResult run_ensemble_absolute_cuda(AbsoluteCoordinates coordinates, const Model& model,
                                          const CompiledModel& compiled, const Ensemble& ensemble,
                                          const RunSpec& spec, const std::vector<double>& output_times,
                                          int threads, const CudaRunOptions& options);

}  // namespace myriad
