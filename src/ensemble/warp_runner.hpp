#pragma once
// The warp strategy on the CPU (ensemble/warp_cadence.hpp): the twin of the cuda backend's warp-per-instance run,
// one thread standing in for each warp, with the lanes' share of every factorization and solve emulated lane by
// lane (linalg/lane_lu.hpp). Same results as run_ensemble_cpu, bit for bit.
#include <vector>

#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_spec.hpp"
#include "linalg/lane_lu.hpp"

namespace myriad {

// Lanes of a warp: the group size of the warp strategy.
constexpr int kWarpLanes = 32;

// A warp of kWarpLanes lanes played by one thread, as ensemble/warp_cadence.hpp's group: it is the leader,
// broadcasts are the leader's own values, and the cooperative LU runs phase by phase, every lane's share in turn.
struct EmulatedWarp {
  bool leader() const { return true; }
  int broadcast(int value) const { return value; }
  void sync() const {}
  bool factor(int n, double* A, double* pivots) const { return lane_lu_factor_emulated(n, A, pivots, kWarpLanes); }
  void solve(int n, const double* LU, const double* pivots, double* b) const {
    lane_lu_solve_emulated(n, LU, pivots, b, kWarpLanes);
  }
};

// threads <= 0: all hardware threads. Every method (RK4 and DOPRI5 never ask for a factorization: their warp
// run is the leader's alone). step_budget > 0: each instance is advanced that many attempts per call, call after
// call, as the GPU's launches with a step budget advance it (<= 0: one call to the end).
EnsembleResult run_ensemble_warp_cpu(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                     const std::vector<double>& output_times, int threads,
                                     long long step_budget = 0);

}  // namespace myriad
