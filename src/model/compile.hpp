#pragma once
// Model -> CompiledModel, and the per-instance numbers: constants (geometry, inertia, force and time-function
// coefficients) and the initial state. Host-only; done once per model and once per instance.
#include <memory>
#include <vector>

#include "model/compiled_model.hpp"
#include "model/model.hpp"

namespace myriad {

// Topology and layout. Throws ModelError (model.source_file, the JSON pointer of the responsible section or
// entry, the reason with its numbers) when the model exceeds the capacities of model/model_limits.hpp or its
// loops cannot be compiled (loops/loop_structure.hpp: quaternion joints, assembly at the initial state, the
// partition); std::invalid_argument only for a model the loader would not have produced (joints not one per
// body, not parent-first). O(n), plus the dense assembly of a loop model (loops/loop_structure.hpp).
std::unique_ptr<CompiledModel> compile(const Model& model);

// Fills `constants` (compiled.n_constants values) from a model whose parameters are applied. O(n).
void pack_constants(const CompiledModel& compiled, const Model& literal_model, double* constants);

// Where the model's inputs live in an instance's constants: for input a (Model::inputs order), every time function
// that reads it, as (offset of its one coefficient, gain); the stepping API writes gain * u there. O(functions).
struct InputSlot {
  int constant;
  double gain;
};
std::vector<std::vector<InputSlot>> input_slots(const Model& model, const CompiledModel& compiled);

// Initial coordinates q (nq) and velocities v (nv) of a model whose parameters are applied; quaternions normalized.
void initial_state(const Model& literal_model, double* q, double* v);

}  // namespace myriad
