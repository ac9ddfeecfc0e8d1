#pragma once
// N instances of one compiled model: the N x P parameter table, each instance's constants and initial state,
// stored structure-of-arrays (entry j of instance i at [j * N + i]) so the GPU reads them coalesced.
#include <string>
#include <utility>
#include <vector>

#include "ensemble/parameter_table.hpp"
#include "model/compiled_model.hpp"
#include "model/model.hpp"

namespace myriad {

struct Ensemble {
  int n_instances = 0;
  int n_parameters = 0, n_constants = 0, nq = 0, nv = 0;
  std::vector<double> parameters;  // [p * N + i], P = model parameters in Model::parameters order
  std::vector<double> constants;   // [c * N + i], layout of CompiledModel
  std::vector<double> initial_q;   // [j * N + i]
  std::vector<double> initial_v;   // [j * N + i]
  // The study's index of each instance, which keys its random road (key_instance); empty: instance i is i.
  std::vector<long long> instance_ids;

  double parameter(int p, int i) const { return parameters[static_cast<size_t>(p) * n_instances + i]; }
  long long instance_id(int i) const { return instance_ids.empty() ? i : instance_ids[static_cast<size_t>(i)]; }
  // Gathers instance i's constants / initial state into contiguous arrays (CPU backends).
  void gather_constants(int i, double* out) const;
  void gather_initial_state(int i, double* q, double* v) const;
  // Instance i's own model: `model` with the instance's parameter values applied and keyed by its study index
  // (its random roads), for the backends that run a literal model per instance (reference, absolute coordinates).
  // `values` is the caller's scratch (one per parameter). Throws as apply_parameters does.
  Model literal_model(const Model& model, int i, std::vector<double>& values) const;
};

// Builds an ensemble: every instance starts from the model's parameter defaults, then `overrides` (name, value)
// apply to all instances, then row i of `table` (if given) to instance i. n_instances must equal the table's row
// count when a table is given (pass 0 to take it from the table). Every instance's values are validated; throws
// std::invalid_argument or ModelError naming the instance, parameter and field. O(N n).
// `instance_ids` (one per instance, when given) are the instances' indices in the whole study, which key their
// random roads: a slice of a study (the stepping API's chosen instances) then gets the roads the whole study has.
Ensemble build_ensemble(const Model& model, const CompiledModel& compiled, int n_instances,
                        const ParameterTable* table, const std::vector<std::pair<std::string, double>>& overrides,
                        const std::vector<long long>* instance_ids = nullptr);

}  // namespace myriad
