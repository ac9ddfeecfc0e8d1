#pragma once
// The `myriad` subcommands. Each returns the process exit status; errors in input are reported on stderr by the
// caller (main.cpp) from the exceptions they throw.
#include <string>
#include <utility>
#include <vector>

#include "model/compiled_model.hpp"
#include "model/model.hpp"

namespace myriad::cli {

struct CheckOptions {
  std::string model;
  int states = 10;
  unsigned seed = 1;
  double tolerance = 1e-9;
};

struct SimulateOptions {
  std::string model;
  int instances = 0;  // 0: from --params, else 1
  std::string params_file;
  std::vector<std::string> params;  // NAME=VALUE
  double t_end = -1, dt_out = -1;   // < 0: model's simulation defaults
  std::string integrator;           // empty: model default
  double h = -1, rtol = -1, atol = -1;
  double fac = 0.9, facmin = 0.2, facmax = 5.0;
  long long max_steps = 10000000;
  int threads = 0;             // cpu and reference backends; 0: all hardware threads
  std::string backend = "auto";  // auto | reference | cpu | cuda
  std::string gpu_strategy = "fused";  // cuda: fused | staged
  long long gpu_step_budget = 0;   // cuda: step attempts per launch between compactions; 0: one launch to the end
  std::string out;
  std::string stats_json;
  std::string summary;  // per output time and signal: count, mean, std, min, max over instances
  std::string kpis;     // per instance and signal: max |x|, RMS, final value
  bool stats = false;
};

int run_info(const std::string& model_path);
int run_devices();
int run_check(const CheckOptions& options);
int run_check_loops(const Model& model, const CompiledModel& compiled, const CheckOptions& options);
int run_simulate(const SimulateOptions& options);

}  // namespace myriad::cli
