#include "ensemble/ensemble.hpp"

#include <cmath>
#include <stdexcept>

#include "model/compile.hpp"
#include "model/model_validation.hpp"

namespace myriad {
namespace {

int parameter_index(const Model& model, const std::string& name, const std::string& where) {
  for (size_t p = 0; p < model.parameters.size(); ++p)
    if (model.parameters[p].name == name) return static_cast<int>(p);
  std::string known;
  for (const Parameter& p : model.parameters) known += (known.empty() ? "" : ", ") + p.name;
  throw std::invalid_argument(where + ": '" + name + "' is not a parameter of model '" + model.name +
                              "' (parameters: " + (known.empty() ? "none" : known) + ")");
}

}  // namespace

void Ensemble::gather_constants(int i, double* out) const {
  for (int c = 0; c < n_constants; ++c) out[c] = constants[static_cast<size_t>(c) * n_instances + i];
}

Model Ensemble::literal_model(const Model& model, int i, std::vector<double>& values) const {
  values.resize(model.parameters.size());
  for (size_t p = 0; p < values.size(); ++p) values[p] = parameter(static_cast<int>(p), i);
  Model literal = apply_parameters(model, values);
  key_instance(literal, instance_id(i));
  return literal;
}

void Ensemble::gather_initial_state(int i, double* q, double* v) const {
  for (int j = 0; j < nq; ++j) q[j] = initial_q[static_cast<size_t>(j) * n_instances + i];
  for (int j = 0; j < nv; ++j) v[j] = initial_v[static_cast<size_t>(j) * n_instances + i];
}

Ensemble build_ensemble(const Model& model, const CompiledModel& compiled, int n_instances,
                        const ParameterTable* table, const std::vector<std::pair<std::string, double>>& overrides,
                        const std::vector<long long>* instance_ids) {
  if (table) {
    const int rows = static_cast<int>(table->rows.size());
    if (n_instances != 0 && n_instances != rows)
      throw std::invalid_argument(table->source + ": has " + std::to_string(rows) + " rows but " +
                                  std::to_string(n_instances) + " instances were asked for");
    n_instances = rows;
  }
  if (n_instances <= 0) throw std::invalid_argument("the number of instances must be positive");

  std::vector<double> base = default_parameter_values(model);
  for (const auto& [name, value] : overrides) {
    if (!std::isfinite(value)) throw std::invalid_argument("--param " + name + ": value must be finite");
    base[static_cast<size_t>(parameter_index(model, name, "--param"))] = value;
  }
  std::vector<int> columns;
  if (table)
    for (const std::string& name : table->names) columns.push_back(parameter_index(model, name, table->source));

  Ensemble e;
  e.n_instances = n_instances;
  e.n_parameters = static_cast<int>(model.parameters.size());
  e.n_constants = compiled.n_constants;
  e.nq = compiled.nq;
  e.nv = compiled.nv;
  const size_t n = static_cast<size_t>(n_instances);
  e.parameters.resize(static_cast<size_t>(e.n_parameters) * n);
  e.constants.resize(static_cast<size_t>(e.n_constants) * n);
  e.initial_q.resize(static_cast<size_t>(e.nq) * n);
  e.initial_v.resize(static_cast<size_t>(e.nv) * n);

  std::vector<double> constants(static_cast<size_t>(e.n_constants)), q(static_cast<size_t>(e.nq)),
      v(static_cast<size_t>(e.nv));
  if (instance_ids) {
    if (instance_ids->size() != n)
      throw std::invalid_argument("build_ensemble: " + std::to_string(instance_ids->size()) + " instance ids for " +
                                  std::to_string(n_instances) + " instances");
    e.instance_ids = *instance_ids;
  }
  // A model with a random road packs every instance: its phases differ even where the parameters do not.
  const bool keyed = has_instance_keyed_functions(model);
  std::vector<double> previous;
  for (int i = 0; i < n_instances; ++i) {
    std::vector<double> values = base;
    if (table)
      for (size_t c = 0; c < columns.size(); ++c)
        values[static_cast<size_t>(columns[c])] = table->rows[static_cast<size_t>(i)][c];
    // Instances with the same parameter values share the (costly) resolution; the common case is all-equal rows.
    if (i == 0 || values != previous || keyed) {
      Model literal = apply_parameters(model, values);
      key_instance(literal, e.instance_id(i));
      validate_instance_values(model, values, "instance " + std::to_string(i));
      pack_constants(compiled, literal, constants.data());
      initial_state(literal, q.data(), v.data());
      previous = values;
    }
    for (int p = 0; p < e.n_parameters; ++p) e.parameters[static_cast<size_t>(p) * n + i] = values[static_cast<size_t>(p)];
    for (int c = 0; c < e.n_constants; ++c) e.constants[static_cast<size_t>(c) * n + i] = constants[static_cast<size_t>(c)];
    for (int j = 0; j < e.nq; ++j) e.initial_q[static_cast<size_t>(j) * n + i] = q[static_cast<size_t>(j)];
    for (int j = 0; j < e.nv; ++j) e.initial_v[static_cast<size_t>(j) * n + i] = v[static_cast<size_t>(j)];
  }
  return e;
}

}  // namespace myriad
