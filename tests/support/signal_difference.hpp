#pragma once
// Comparing two api::simulate results of one instance signal by signal (the absolute-coordinate tests).
#include <cmath>
#include <cstddef>

#include "api/myriad/myriad.hpp"

namespace myriad::testing {

// Largest difference of any signal between `a` and `reference` (instance 0), relative to max(1, the reference
// signal's largest magnitude over the output times).
inline double largest_signal_difference(const api::SimulationResult& a, const api::SimulationResult& reference) {
  double worst = 0.0;
  for (int s = 0; s < a.n_signals; ++s) {
    double scale = 1.0;
    for (int k = 0; k < a.n_times; ++k)
      scale = std::fmax(scale, std::fabs((*reference.values)[static_cast<std::size_t>(k) * a.n_signals + s]));
    for (int k = 0; k < a.n_times; ++k) {
      const std::size_t at = static_cast<std::size_t>(k) * a.n_signals + s;
      worst = std::fmax(worst, std::fabs((*a.values)[at] - (*reference.values)[at]) / scale);
    }
  }
  return worst;
}

}  // namespace myriad::testing
