#pragma once
// `myriad simulate`'s flags checked and combined with the model's simulation block: every value the user gave is
// checked as given (a bad one is refused by flag name, never replaced by the model's default), then the defaults
// fill what was not given.
#include <string>
#include <vector>

#include "commands.hpp"
#include "ensemble/run_spec.hpp"

namespace myriad::cli {

// Threads a run may ask for: more than this is a typo, not a machine.
constexpr int kMaxThreads = 4096;
// Instances of one run: instances are numbered by int.
constexpr long long kMaxInstances = 2147483647;

struct SimulateSettings {
  RunSpec spec;
  std::string integrator;     // rk4 | dopri5 | rn4 | ros2w
  double t_end = 0, dt_out = 0;
  std::vector<double> times;  // the output grid
};

// Checks the flags that need no model (numbers, counts); throws std::invalid_argument naming the flag, the value
// and the reason. O(1).
void check_simulate_flags(const SimulateOptions& options);

// The run's integrator settings and output grid: flags first, the model's simulation block for the rest. The grid
// is refused (naming the flags or /simulation fields it came from) when it would have more than kMaxOutputTimes
// times. O(output times).
SimulateSettings resolve_simulate_settings(const SimulateOptions& options, const Model& model);

}  // namespace myriad::cli
