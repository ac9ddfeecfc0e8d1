#pragma once
// Test support: run a shipped model's ensemble on the CPU fast path.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ensemble/cpu_runner.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"
#include "support/model_fixture.hpp"

namespace myriad::testing {

inline EnsembleResult run_model(const Model& model, const RunSpec& spec, const std::vector<double>& times,
                                const std::vector<std::pair<std::string, double>>& overrides = {},
                                int instances = 1, int threads = 1) {
  const auto compiled = compile(model);
  const Ensemble ensemble = build_ensemble(model, *compiled, instances, nullptr, overrides);
  return run_ensemble_cpu(*compiled, ensemble, spec, times, threads);
}

// n instances with the model's first parameter spread over +-20% (-0.1 .. 0.1 where it is 0), so that their step
// sequences differ; all alike when the model has no parameters.
inline Ensemble spread_first_parameter(const Model& model, const CompiledModel& compiled, int n) {
  ParameterTable t;
  t.source = "generated";
  if (!model.parameters.empty()) {
    t.names = {model.parameters[0].name};
    const double base = model.parameters[0].value;
    for (int i = 0; i < n; ++i)
      t.rows.push_back({base != 0.0 ? base * (0.8 + 0.4 * i / (n - 1)) : -0.1 + 0.2 * i / (n - 1)});
  }
  return build_ensemble(model, compiled, n, model.parameters.empty() ? nullptr : &t, {});
}

// n instances with the parameter `name` spread over +-20% of its default (which must not be 0).
inline Ensemble spread_parameter(const Model& model, const CompiledModel& compiled, const std::string& name,
                                 int n) {
  ParameterTable t;
  t.source = "generated";
  t.names = {name};
  double base = 0.0;
  for (const Parameter& p : model.parameters)
    if (p.name == name) base = p.value;
  if (base == 0.0)
    throw std::invalid_argument("spread_parameter: " + name + " is not a parameter with a default");
  for (int i = 0; i < n; ++i) t.rows.push_back({base * (0.8 + 0.4 * i / (n - 1))});
  return build_ensemble(model, compiled, n, &t, {});
}

inline RunSpec rk4(double h) {
  RunSpec spec;
  spec.method = Method::rk4;
  spec.h = h;
  return spec;
}

inline RunSpec dopri5(double rtol, double atol) {
  RunSpec spec;
  spec.method = Method::dopri5;
  spec.control.rtol = rtol;
  spec.control.atol = atol;
  return spec;
}

}  // namespace myriad::testing
