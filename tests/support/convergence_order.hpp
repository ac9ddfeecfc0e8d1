#pragma once
// The order of convergence the convergence tests fit: the least-squares slope of log(error) against log(step).
#include <cmath>
#include <vector>

namespace myriad {
namespace test {

inline double fitted_slope(const std::vector<double>& step, const std::vector<double>& error) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(step.size());
  for (size_t i = 0; i < step.size(); ++i) {
    const double x = std::log(step[i]), y = std::log(error[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace test
}  // namespace myriad
