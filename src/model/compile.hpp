#pragma once
// Model -> CompiledModel, and the per-instance numbers: constants (geometry, inertia, force and time-function
// coefficients) and the initial state. Host-only; done once per model and once per instance.
#include <memory>
#include <vector>

#include "model/compiled_model.hpp"
#include "model/model.hpp"

namespace myriad {

// Topology and layout. Throws std::invalid_argument when the model exceeds the compiled capacities. O(n).
std::unique_ptr<CompiledModel> compile(const Model& model);

// Fills `constants` (compiled.n_constants values) from a model whose parameters are applied. O(n).
void pack_constants(const CompiledModel& compiled, const Model& literal_model, double* constants);

// Initial coordinates q (nq) and velocities v (nv) of a model whose parameters are applied; quaternions normalized.
void initial_state(const Model& literal_model, double* q, double* v);

}  // namespace myriad
