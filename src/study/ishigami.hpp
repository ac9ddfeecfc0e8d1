#pragma once
// The Ishigami function (Ishigami & Homma 1990), the standard test of a sensitivity analysis: with x1..x3
// uniform on [-pi, pi], a = 7, b = 0.1 its Sobol' indices are known in closed form (S1 = 0.3139, 0.4424, 0;
// ST = 0.5576, 0.4424, 0.2437). A study whose model is "builtin:ishigami" evaluates it in place of a
// simulation.
#include <cmath>

namespace myriad::study {

constexpr double kIshigamiA = 7.0, kIshigamiB = 0.1;

inline double ishigami(double x1, double x2, double x3) {
  const double s2 = std::sin(x2);
  return std::sin(x1) + kIshigamiA * s2 * s2 + kIshigamiB * x3 * x3 * x3 * x3 * std::sin(x1);
}

}  // namespace myriad::study
