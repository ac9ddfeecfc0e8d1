#pragma once
// Test support for models with loops: loading with outputs for every coordinate and velocity, a fast-path
// LoopOde over one instance, and the state (q, v) recorded at every output time.
#include <Eigen/Dense>

#include <memory>
#include <string>
#include <vector>

#include "loops/loop_ode.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"
#include "support/run_model.hpp"

namespace myriad::testing {

// The model at `file` (under models/) with its own outputs replaced by q_j then v_j of every coordinate, then
// total energy; parameters at their defaults.
inline Model loop_model_with_state_outputs(const std::string& file) {
  const Model loaded = load_model_file(model_path(file));
  Model model = apply_parameters(loaded, default_parameter_values(loaded));
  model.outputs.clear();
  for (int kind = 0; kind < 2; ++kind)
    for (size_t j = 0; j < model.joints.size(); ++j)
      for (int a = 0; a < joint_nv(model.joints[j].type); ++a) {
        Output o;
        o.name = (kind == 0 ? "q_" : "v_") + model.joints[j].name + std::to_string(a);
        o.kind = kind == 0 ? OutputKind::joint_coordinate : OutputKind::joint_velocity;
        o.joint = static_cast<int>(j);
        o.index = a;
        model.outputs.push_back(o);
      }
  Output energy;
  energy.name = "E";
  energy.kind = OutputKind::total_energy;
  model.outputs.push_back(energy);
  return model;
}

// q (nv) and v (nv) of instance 0 at output index k of a run of a loop_model_with_state_outputs model.
inline void recorded_state(const EnsembleResult& r, int nv, int k, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  q.resize(nv);
  v.resize(nv);
  for (int i = 0; i < nv; ++i) {
    q[i] = r.value(0, k, i);
    v[i] = r.value(0, k, nv + i);
  }
}

// One fast-path instance of a loop model: compiled model, packed constants and a LoopOde over its own scratch.
struct LoopInstance {
  Model model;
  std::unique_ptr<CompiledModel> compiled;
  std::vector<double> constants, q, v, y;
  std::vector<unsigned char> buffer, dual_buffer;
  LoopOde<const double*> ode{};

  explicit LoopInstance(const Model& literal, int method = kLoopMethodNone) : model(literal) {
    compiled = compile(model);
    if (method != kLoopMethodNone) compiled->constraints.method = method;
    constants.resize(static_cast<size_t>(compiled->n_constants));
    pack_constants(*compiled, model, constants.data());
    q.resize(static_cast<size_t>(compiled->nv));
    v.resize(static_cast<size_t>(compiled->nv));
    initial_state(model, q.data(), v.data());
    y.resize(static_cast<size_t>(2 * compiled->constraints.n_independent + 1));
    buffer.resize(loop_scratch_bytes<double>(*compiled));
    dual_buffer.resize(loop_scratch_bytes<JacobianDual>(*compiled));
    ode = LoopOde<const double*>{compiled.get(), constants.data(),
                                 carve_loop_scratch<double>(*compiled, buffer.data(), nullptr), LoopFailure::none, 0.0, 0};
  }

  LoopSecondOrder<const double*> second_order() {
    return {&ode, carve_loop_scratch<JacobianDual>(*compiled, dual_buffer.data(), nullptr), false, 0.0};
  }
};

}  // namespace myriad::testing
