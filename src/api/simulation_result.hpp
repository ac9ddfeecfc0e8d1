#pragma once
// api::SimulationResult <-> the ensemble layer's EnsembleResult (private to src/api and the CLI, whose writers in
// src/io read EnsembleResult). The output values move, never copy.
#include <string>
#include <vector>

#include "api/myriad/myriad.hpp"
#include "ensemble/ensemble_result.hpp"

namespace myriad::api {

// Moves `result` (its values into the shared vector) and adds the names. O(N) for the per-instance arrays.
SimulationResult to_simulation_result(EnsembleResult&& result, std::vector<std::string> signal_names,
                                      std::string backend, std::string integrator);

// Back to the ensemble layer's form: the values move out of `result` when it holds the only reference to them
// (else they are copied). O(N) for the per-instance arrays.
EnsembleResult to_ensemble_result(SimulationResult&& result);

}  // namespace myriad::api
