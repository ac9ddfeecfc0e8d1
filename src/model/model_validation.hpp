#pragma once
// Checks of everything a parameter value can break (docs/model-format.md: masses, inertias, axes, rotations,
// time-function ordering, coincident spring ends, finiteness), run by the loader on the parameter defaults
// and again for every instance of an ensemble before it starts. The structure of a model (names, references,
// topology, types) cannot change with parameters and is the loader's business alone.
#include <string>
#include <vector>

#include "model/model.hpp"
#include "model/model_error.hpp"

namespace myriad {

// Checks the values of `model` as they stand (Number::value). Throws ModelError(model.source_file, pointer of
// the field in the file, reason); the reason starts with "<label>: " when `label` is not empty, and ends with
// the parameters the field comes from when its Numbers still name them ("... (from parameter 'm')"). Pointers
// into `joints` use Joint::file_index (the loader reorders joints), or the joint's position when it is -1.
// O(model).
void validate_model_values(const Model& model, const std::string& label = "");

// One instance of an ensemble, given as a model whose parameters were applied (apply_parameters). The literal
// model no longer says which parameter set a field, so the message names the instance and the field only,
// e.g.
// "/bodies/0/mass: instance 17: mass must be positive and finite, got -3". O(model).
void validate_instance_values(const Model& literal_model, const std::string& instance_label);

// The same for the parametric `model` and one instance's parameter values (one per model parameter, in
// Model::parameters order); the message also names the parameter behind the field ("... (from parameter
// 'm')"). Throws std::invalid_argument when values.size() differs from the number of parameters. O(model).
void validate_instance_values(const Model& model, const std::vector<double>& parameter_values,
                              const std::string& instance_label);

}  // namespace myriad
