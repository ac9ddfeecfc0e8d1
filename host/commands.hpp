#pragma once
// The `myriad` subcommands. Each returns the process exit status; errors in input are reported on stderr by the
// caller (main.cpp) from the exceptions they throw.
#include <optional>
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
  std::optional<long long> instances;  // unset: from --params, else 1
  std::string params_file;
  std::vector<std::string> params;  // NAME=VALUE
  // Unset: the model's simulation block. A value given is checked as given (never replaced by the default).
  std::optional<double> t_end, dt_out, h, rtol, atol, rho_inf;
  std::string integrator;           // empty: model default
  double fac = 0.9, facmin = 0.2, facmax = 5.0;
  long long max_steps = 10000000;
  int threads = 0;             // cpu and reference backends; 0: all hardware threads
  int lanes = 4;               // cpu: instances each thread integrates in lockstep (1, 2, 4, 8)
  std::string backend = "auto";  // auto | reference | cpu | cuda
  std::optional<std::string> gpu_strategy;   // cuda: fused | warp | shared-lu | staged (default fused)
  std::optional<std::string> coordinates;    // joint | rp | re (api::RunOptions::coordinates)
  std::optional<long long> gpu_step_budget;  // cuda: step attempts per launch between compactions; 0: to the end
  // The outputs a run keeps (computed, recorded, written), in this order; empty: every output of the model.
  std::vector<std::string> signals;
  std::string out;
  // instances per chunk of --out (CSV: a multiple of 64 with --summary; HDF5); unset: 256 MiB of CSV values, the
  // study's choice
  std::optional<long long> chunk;
  std::string stats_json;
  std::string summary;  // per output time and signal: count, mean, std, min, max over instances
  std::string kpis;     // per instance and signal: max |x|, RMS, final value
  bool stats = false;
  std::string max_memory;        // empty: the memory available to the process
  bool follow_symlinks = false;  // an output path that is a symlink writes its target
  bool quiet = false;            // no progress or estimate on stderr
};

struct ModesOptions {
  std::string model;
  std::vector<std::string> params;  // NAME=VALUE
  double t = 0.0;
  bool at_initial_state = false;
  std::string json;  // empty: none
};

struct TireOptions {
  std::string file;                 // the .tir file
  double fz = 4000.0;               // vertical load, N
  double camber = 0.0;              // rad
  double combined_alpha_deg = 4.0;  // slip angle of the combined-slip sweep
  std::string out;                  // empty: stdout
};

struct KcOptions {
  std::string model;
  std::string subsystem;            // empty: the only one
  double travel = 0.08;             // m
  int points = 33;
  std::vector<std::string> params;  // NAME=VALUE
  std::string out;                  // empty: stdout
};

struct StudyOptions {
  std::string study;        // the study file
  std::string out;          // empty: the study's "output"
  bool resume = false;      // continue OUT.part
  bool progress_json = false;
  bool quiet = false;
  std::string design_only;  // non-empty: write the sampled design here as CSV and stop
};

struct ExpandOptions {
  std::string model;
  std::string out;  // empty: stdout
};

struct CodegenOptions {
  std::string model;
  std::string name;    // the generated function's name (a C++ identifier)
  std::string origin;  // the model's name in the header's comment; empty: the path given
  std::string out;     // empty: stdout
};

int run_info(const std::string& model_path);
int run_codegen(const CodegenOptions& options);
int run_kc(const KcOptions& options);
int run_expand(const ExpandOptions& options);
int run_tire(const TireOptions& options);
int run_modes(const ModesOptions& options);
int run_devices();
int run_check(const CheckOptions& options);
int run_check_loops(const Model& model, const CompiledModel& compiled, const CheckOptions& options);
int run_simulate(const SimulateOptions& options);
int run_study(const StudyOptions& options);

}  // namespace myriad::cli
