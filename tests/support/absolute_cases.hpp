#pragma once
// The runs that hold the absolute-coordinate kernel's batch layout to the cpu backend: on the host through
// the kernel's body (tests/absolute/absolute_batch_test.cpp) and on a device
// (tests/gpu/absolute_cuda_test.cpp). Each model exercises a part of the layout with a parameter that only
// that part carries to the kernel, spread over the instances: a driver's rate in the packed coefficients (the
// slider crank), RSDAs whose anchors move in the instance's own model (the stiff double pendulum), a TSDA's
// rate in the packed constants with outputs that read accelerations and KPIs (the quarter car), a tire's rate
// in the constants beside an actuator (the driven wheel).
#include <memory>
#include <string>
#include <vector>

#include "backends/absolute_backend.hpp"
#include "ensemble/ensemble.hpp"
#include "ensemble/run_spec.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"
#include "support/run_model.hpp"

namespace myriad::testing {

struct AbsoluteCase {
  const char* file;       // under the source tree
  const char* parameter;  // spread over the instances
  double t_end, h;        // the device run's horizon and Bathe's step
};

inline constexpr AbsoluteCoordinates kAbsoluteCoordinates[] = {AbsoluteCoordinates::rp, AbsoluteCoordinates::re,
                                                               AbsoluteCoordinates::rA};

inline const char* coordinates_name(AbsoluteCoordinates coordinates) {
  switch (coordinates) {
    case AbsoluteCoordinates::rp:
      return "rp";
    case AbsoluteCoordinates::re:
      return "re";
    case AbsoluteCoordinates::rA:
      break;
  }
  return "rA";
}

inline std::vector<AbsoluteCase> absolute_layout_cases() {
  return {{"models/loops/slider_crank.json", "crank_rate", 0.2, 1e-3},
          {"models/stiff_double_pendulum.json", "k1", 0.1, 2e-4},
          {"models/quarter_car.json", "k_s", 0.2, 1e-3},
          {"models/driven_wheel.json", "k_t", 0.1, 1e-3}};
}

// A case's model, ensemble of `instances`, eight output intervals over t_end * horizon and Bathe (rho_inf 0).
struct AbsoluteCaseRun {
  Model model;
  std::unique_ptr<CompiledModel> compiled;
  Ensemble ensemble;
  std::vector<double> times;
  RunSpec spec;
};

inline AbsoluteCaseRun absolute_case_run(const AbsoluteCase& c, int instances, double horizon) {
  AbsoluteCaseRun run;
  run.model = load_model_file(std::string(MYRIAD_SOURCE_DIR) + "/" + c.file);
  run.compiled = compile(run.model);
  run.ensemble = spread_parameter(run.model, *run.compiled, c.parameter, instances);
  for (int k = 0; k <= 8; ++k) run.times.push_back(c.t_end * horizon * k / 8.0);
  run.spec.method = Method::implicit;
  run.spec.implicit = implicit_scheme(ImplicitMethod::bathe, 0.0);
  run.spec.h = c.h;
  return run;
}

// The run's spec for `coordinates`: Bathe for rp and re, rA's own backward Euler for rA (the same step).
inline RunSpec absolute_case_spec(const AbsoluteCaseRun& run, AbsoluteCoordinates coordinates) {
  RunSpec spec = run.spec;
  if (coordinates == AbsoluteCoordinates::rA) spec.implicit = implicit_scheme(ImplicitMethod::backward_euler, 0.0);
  return spec;
}

}  // namespace myriad::testing
