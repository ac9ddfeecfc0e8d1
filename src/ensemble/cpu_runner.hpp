#pragma once
// Runs an ensemble on the CPU with the fast-path (host+device) per-instance code, instances split over threads.
#include <vector>

#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_spec.hpp"

namespace myriad {

// threads <= 0: all hardware threads. Each instance runs independently: a failing one records its status and the
// others go on. Results do not depend on the thread count.
// Instances per hand-out from the shared counter of the CPU workers (cpu and reference backends): instances differ
// in cost (stiff parameter rows take more steps), so a static split would leave threads idle. Up to 16 amortize
// the counter; small ensembles get at least 8 blocks a thread (N = 10 on 2 threads: blocks of 1). O(1).
int ensemble_block_size(int instances, int threads);

EnsembleResult run_ensemble_cpu(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                const std::vector<double>& output_times, int threads);

}  // namespace myriad
