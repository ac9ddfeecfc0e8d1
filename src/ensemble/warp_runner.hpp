#pragma once
// The warp strategy on the CPU (ensemble/warp_cadence.hpp): the twin of the cuda backend's warp-per-instance run,
// one thread standing in for each warp, with the lanes' share of every factorization and solve emulated lane by
// lane (linalg/lane_lu.hpp). Same results as run_ensemble_cpu, bit for bit.
#include <vector>

#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_spec.hpp"

namespace myriad {

// Lanes of a warp: the group size of the warp strategy.
constexpr int kWarpLanes = 32;

// threads <= 0: all hardware threads. Every method (RK4 and DOPRI5 never ask for a factorization: their warp
// run is the leader's alone).
EnsembleResult run_ensemble_warp_cpu(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                     const std::vector<double>& output_times, int threads);

}  // namespace myriad
