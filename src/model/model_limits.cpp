#include "model/model_limits.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace myriad {

std::size_t output_time_count(double t0, double t_end, double dt_out) {
  if (!std::isfinite(t0) || !(t_end >= t0) || !(dt_out > 0.0))
    throw std::invalid_argument(
        "output_time_count: needs finite t0 <= t_end and dt_out > 0, got t0 = " + std::to_string(t0) +
        ", t_end = " + std::to_string(t_end) + ", dt_out = " + std::to_string(dt_out));
  // The same arithmetic as output_grid (ensemble/cpu_runner.cpp), kept in double until the count is known to
  // be exact: above 2^53 consecutive integers are no longer all doubles, and far above it a long long
  // overflows.
  const double exact_limit = 9007199254740992.0;  // 2^53
  const double steps = std::floor((t_end - t0) / dt_out + 1e-9);
  if (!(steps < exact_limit)) return kOutputTimeCountUnbounded;
  const double last = t0 + steps * dt_out;
  const bool remainder = t_end - last > 1e-12 * std::max(1.0, std::abs(t_end));
  return static_cast<std::size_t>(steps) + 1 + (remainder ? 1 : 0);
}

}  // namespace myriad
