// api::modes: the model at its parameter values, linearized about static equilibrium (analysis/linearization.hpp)
// and its eigenvalues (analysis/modes.hpp), with the coordinates named by their joints.
#include <cmath>
#include <stdexcept>
#include <string>

#include "analysis/linearization.hpp"
#include "analysis/modes.hpp"
#include "api/model_impl.hpp"
#include "api/run_options.hpp"
#include "model/compile.hpp"

namespace myriad::api {
namespace {

// "joint" for a one-coordinate joint, "joint[i]" for coordinate i of a joint with several. O(joints).
std::string coordinate_name(const Model& model, const CompiledModel& compiled, int v_index) {
  for (std::size_t j = 0; j < model.joints.size(); ++j) {
    const CompiledJoint& c = compiled.joints[j];
    if (v_index >= c.v_index && v_index < c.v_index + c.nv)
      return c.nv == 1 ? model.joints[j].name : model.joints[j].name + "[" + std::to_string(v_index - c.v_index) + "]";
  }
  return "v[" + std::to_string(v_index) + "]";
}

}  // namespace

ModesResult modes(const LoadedModel& loaded, const ModesOptions& options) {
  if (!loaded.impl) throw std::invalid_argument("modes: the model is empty (not loaded)");
  const ModelImpl& mi = *loaded.impl;
  if (!std::isfinite(options.t)) throw SettingError("t", "setting 't' = " + shown(options.t) + ": must be finite");
  if (!(options.tolerance > 0.0 && std::isfinite(options.tolerance)))
    throw SettingError("tolerance", "setting 'tolerance' = " + shown(options.tolerance) + ": must be > 0");
  const std::vector<double> values = parameter_values_with(mi, options.overrides);
  const Model model = apply_parameters(mi.model, values);
  const auto compiled = compile(model);
  std::vector<double> k(static_cast<std::size_t>(compiled->n_constants));
  pack_constants(*compiled, model, k.data());
  std::vector<double> q0(static_cast<std::size_t>(compiled->nq)), v0(static_cast<std::size_t>(compiled->nv));
  initial_state(model, q0.data(), v0.data());

  EquilibriumOptions equilibrium;
  equilibrium.solve = !options.at_initial_state;
  equilibrium.tolerance = options.tolerance;
  Linearization l;
  try {
    l = linearize(*compiled, k.data(), options.t, q0.data(), v0.data(), equilibrium);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("modes of " + mi.source + ": " + e.what());
  }
  const ModalAnalysis analysis = modal_analysis(l);

  ModesResult r;
  for (int i = 0; i < l.n; ++i) r.coordinates.push_back(coordinate_name(model, *compiled, l.coordinate[static_cast<std::size_t>(i)]));
  r.q = l.q;
  r.v = l.v;
  r.t = l.t;
  r.iterations = l.iterations;
  r.residual = l.residual;
  for (const myriad::Mode& m : analysis.modes) {
    Mode out;
    out.oscillating = m.oscillating;
    out.real = m.eigenvalue.real();
    out.imag = m.eigenvalue.imag();
    out.natural_hz = m.natural_hz;
    out.damped_hz = m.damped_hz;
    out.damping_ratio = m.damping_ratio;
    out.dominant = r.coordinates[static_cast<std::size_t>(m.dominant)];
    out.shape = m.shape;
    r.modes.push_back(out);
  }
  for (const myriad::UndampedMode& m : analysis.undamped) {
    UndampedMode out;
    out.frequency_hz = m.frequency_hz;
    out.eigenvalue = m.eigenvalue;
    out.dominant = r.coordinates[static_cast<std::size_t>(m.dominant)];
    out.shape = m.shape;
    r.undamped.push_back(out);
  }
  return r;
}

}  // namespace myriad::api
