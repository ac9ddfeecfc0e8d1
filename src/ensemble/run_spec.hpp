#pragma once
// What every instance of a run is integrated with. Trivially copyable (goes to the device as is).
#include "integrators/implicit_methods.hpp"
#include "integrators/step_control.hpp"

namespace myriad {

// implicit: one of seed 003's fixed-step methods (or backward Euler), whichever `implicit` holds.
enum class Method : int { rk4 = 0, dopri5 = 1, rn4 = 2, ros2w = 3, implicit = 4 };

struct RunSpec {
  Method method = Method::dopri5;
  double t0 = 0.0;
  double h = 1e-3;              // rk4 step; the implicit methods' largest step (integrators/implicit_outputs.hpp)
  long long max_steps = 10000000;
  StepControl control{};        // adaptive methods (dopri5, rn4, ros2w)
  ImplicitScheme implicit{};    // Method::implicit: the method and its coefficients (implicit_scheme(method, rho_inf))
  ImplicitOptions implicit_options{};  // Method::implicit: Newton's tolerances and iteration limit per time point
};

}  // namespace myriad
