#pragma once
// What every instance of a run is integrated with. Trivially copyable (goes to the device as is).
#include "integrators/step_control.hpp"

namespace myriad {

enum class Method : int { rk4 = 0, dopri5 = 1, rn4 = 2, ros2w = 3 };

struct RunSpec {
  Method method = Method::dopri5;
  double t0 = 0.0;
  double h = 1e-3;              // rk4 step
  long long max_steps = 10000000;
  StepControl control{};        // adaptive methods (dopri5, rn4, ros2w)
};

}  // namespace myriad
