#pragma once
// Runs an ensemble on the CPU with the fast-path (host+device) per-instance code, instances split over threads.
#include <vector>

#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_spec.hpp"

namespace myriad {

// threads <= 0: all hardware threads. Each instance runs independently: a failing one records its status and the
// others go on. Results do not depend on the thread count. Instances go to threads in blocks from one shared
// counter (ensemble/instance_blocks.hpp).
EnsembleResult run_ensemble_cpu(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                const std::vector<double>& output_times, int threads);

}  // namespace myriad
