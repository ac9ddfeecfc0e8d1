#include "simulate_settings.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include "ensemble/ensemble_result.hpp"
#include "model/model_limits.hpp"

namespace myriad::cli {
namespace {

// The shortest text that reads back as `value`: -0.1, not -0.10000000000000001.
std::string shown(double value) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof text, value).ptr);
}

void require_positive(const std::optional<double>& value, const char* flag, const char* what) {
  if (value && !(std::isfinite(*value) && *value > 0.0))
    throw std::invalid_argument(std::string(flag) + " " + shown(*value) + ": " + what +
                                " must be a positive finite number");
}

}  // namespace

void check_simulate_flags(const SimulateOptions& o) {
  require_positive(o.t_end, "--t-end", "the end time [s]");
  require_positive(o.dt_out, "--dt-out", "the output interval [s]");
  require_positive(o.h, "--h", "the RK4 step [s]");
  require_positive(o.rtol, "--rtol", "the relative tolerance");
  require_positive(o.atol, "--atol", "the absolute tolerance");
  if (o.rtol && *o.rtol >= 1.0)
    throw std::invalid_argument("--rtol " + shown(*o.rtol) + ": a relative tolerance must be below 1");
  if (!(std::isfinite(o.fac) && o.fac > 0 && o.fac <= 1))
    throw std::invalid_argument("--fac " + shown(o.fac) + ": the safety factor must be in (0, 1]");
  if (!(std::isfinite(o.facmin) && o.facmin > 0 && o.facmin <= 1))
    throw std::invalid_argument("--facmin " + shown(o.facmin) + ": the smallest step ratio must be in (0, 1]");
  if (!(std::isfinite(o.facmax) && o.facmax >= 1 && o.facmax <= 1e6))
    throw std::invalid_argument("--facmax " + shown(o.facmax) + ": the largest step ratio must be in [1, 1e6]");
  if (o.max_steps <= 0)
    throw std::invalid_argument("--max-steps " + std::to_string(o.max_steps) + ": the step budget must be positive");
  if (o.threads < 0 || o.threads > kMaxThreads)
    throw std::invalid_argument("--threads " + std::to_string(o.threads) + ": must be 0 (all cores) .. " +
                                std::to_string(kMaxThreads));
  if (o.instances && (*o.instances < 1 || *o.instances > kMaxInstances))
    throw std::invalid_argument("--instances " + std::to_string(*o.instances) + ": must be 1 .. " +
                                std::to_string(kMaxInstances));
  if (o.gpu_step_budget && *o.gpu_step_budget < 0)
    throw std::invalid_argument("--gpu-step-budget " + std::to_string(*o.gpu_step_budget) +
                                ": must be 0 (one launch to the end) or positive");
}

SimulateSettings resolve_simulate_settings(const SimulateOptions& o, const Model& model) {
  const SimulationDefaults& d = model.simulation;
  SimulateSettings s;
  s.integrator = o.integrator.empty() ? d.integrator : o.integrator;
  s.spec.method = s.integrator == "rk4"     ? Method::rk4
                  : s.integrator == "rn4"   ? Method::rn4
                  : s.integrator == "ros2w" ? Method::ros2w
                                            : Method::dopri5;
  s.spec.h = o.h.value_or(d.h);
  s.spec.max_steps = o.max_steps;
  s.spec.control.rtol = o.rtol.value_or(d.rtol);
  s.spec.control.atol = o.atol.value_or(d.atol);
  s.spec.control.fac = o.fac;
  s.spec.control.facmin = o.facmin;
  s.spec.control.facmax = o.facmax;
  s.t_end = o.t_end.value_or(d.t_end);
  s.dt_out = o.dt_out.value_or(d.dt_out);
  const std::size_t count = output_time_count(0.0, s.t_end, s.dt_out);
  if (count > kMaxOutputTimes) {
    const std::string end = o.t_end ? "--t-end " + shown(s.t_end) : "t_end " + shown(s.t_end) + " (/simulation/t_end)";
    const std::string step =
        o.dt_out ? "--dt-out " + shown(s.dt_out) : "dt_out " + shown(s.dt_out) + " (/simulation/dt_out)";
    const std::string how_many =
        count == kOutputTimeCountUnbounded ? "more than 2^53" : "about " + shown(static_cast<double>(count));
    throw std::invalid_argument(step + " with " + end + ": the output grid would have " + how_many +
                                " times, more than the limit of " + std::to_string(kMaxOutputTimes) +
                                " (give a coarser --dt-out or a shorter --t-end)");
  }
  s.times = output_grid(0.0, s.t_end, s.dt_out);
  return s;
}

}  // namespace myriad::cli
