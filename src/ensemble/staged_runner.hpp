#pragma once
// The staged strategy on the CPU (ensemble/staged_cadence.hpp): the twin of the cuda backend's staged run, with
// the batched factorizations and solves done by lu_factor/lu_solve. Same results as run_ensemble_cpu, bit for bit.
#include <vector>

#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_spec.hpp"

namespace myriad {

// threads <= 0: all hardware threads (blocks of instances go through the cycle independently). Every method:
// RN4 and ROS2-W with their factorizations and solves batched, RK4 and DOPRI5 one attempt per advance.
EnsembleResult run_ensemble_staged_cpu(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                       const std::vector<double>& output_times, int threads);

}  // namespace myriad
