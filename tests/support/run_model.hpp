#pragma once
// Test support: run a shipped model's ensemble on the CPU fast path.
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
