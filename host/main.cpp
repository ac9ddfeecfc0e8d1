// myriad: command-line front end. Subcommands: info, check, simulate (see README.md).
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
  using namespace myriad::cli;
  CLI::App app{"Myriad: ensembles of constrained multibody models"};
  app.require_subcommand(1);

  std::string info_model;
  bool devices = false;
  CLI::App* info = app.add_subcommand("info", "Bodies, joints, coordinates, degrees of freedom, parameters, outputs");
  info->add_option("model", info_model, "model file (JSON)");
  info->add_flag("--devices", devices, "list the backends and devices available here");

  CheckOptions check;
  CLI::App* check_cmd = app.add_subcommand("check", "Compare fast-path and reference dynamics at random states");
  check_cmd->add_option("model", check.model, "model file (JSON)")->required();
  check_cmd->add_option("--states", check.states, "number of random states")->check(CLI::PositiveNumber);
  check_cmd->add_option("--seed", check.seed, "random seed");
  check_cmd->add_option("--tolerance", check.tolerance, "largest accepted relative difference (default 1e-9)");

  SimulateOptions sim;
  CLI::App* sim_cmd = app.add_subcommand("simulate", "Simulate an ensemble and write the output signals as CSV");
  sim_cmd->add_option("model", sim.model, "model file (JSON)")->required();
  sim_cmd->add_option("--instances", sim.instances, "number of instances (default: rows of --params, else 1)")
      ->check(CLI::PositiveNumber);
  sim_cmd->add_option("--params", sim.params_file, "CSV: header of parameter names, one row per instance");
  sim_cmd->add_option("--param", sim.params, "NAME=VALUE for every instance (repeatable)");
  sim_cmd->add_option("--t-end", sim.t_end, "end time [s]");
  sim_cmd->add_option("--dt-out", sim.dt_out, "output interval [s]");
  sim_cmd->add_option("--integrator", sim.integrator, "rk4 | dopri5 | rn4 | ros2w")
      ->check(CLI::IsMember({"rk4", "dopri5", "rn4", "ros2w"}));
  sim_cmd->add_option("--h", sim.h, "RK4 step [s]");
  sim_cmd->add_option("--rtol", sim.rtol, "relative tolerance (dopri5)");
  sim_cmd->add_option("--atol", sim.atol, "absolute tolerance (dopri5)");
  sim_cmd->add_option("--fac", sim.fac, "step-size safety factor (seed 000 eq. 16)");
  sim_cmd->add_option("--facmin", sim.facmin, "smallest step-size ratio");
  sim_cmd->add_option("--facmax", sim.facmax, "largest step-size ratio");
  sim_cmd->add_option("--max-steps", sim.max_steps, "per-instance step budget");
  sim_cmd->add_option("--threads", sim.threads, "threads of the cpu and reference backends (default 0: all)");
  sim_cmd->add_option("--backend", sim.backend, "auto | reference | cpu | cuda (auto: cuda when a GPU is present)")
      ->check(CLI::IsMember({"auto", "reference", "cpu", "cuda"}));
  sim_cmd->add_option("--gpu-strategy", sim.gpu_strategy,
                      "cuda: fused (a thread per instance runs its whole step loop) | warp (fused, a warp per "
                      "instance sharing Pi's LU and solves; rn4, ros2w) | shared-lu (fused, thread per instance, the "
                      "warp doing each lane's LU and solves together; rn4, ros2w) | staged (a kernel per phase, Pi "
                      "factored by cuBLAS batched LU, the cycle in a CUDA graph)")
      ->check(CLI::IsMember({"fused", "warp", "shared-lu", "staged"}));
  sim_cmd->add_option("--gpu-step-budget", sim.gpu_step_budget,
                      "cuda: step attempts per instance and launch; finished instances are compacted out between "
                      "launches (default 0: one launch runs every instance to the end)")
      ->check(CLI::NonNegativeNumber);
  sim_cmd->add_option("--out", sim.out, "output CSV file");
  sim_cmd->add_option("--stats-json", sim.stats_json, "write statistics as JSON");
  sim_cmd->add_flag("--stats", sim.stats, "print per-instance statistics summary");
  sim_cmd->add_option("--summary", sim.summary, "CSV of ensemble statistics per output time and signal");
  sim_cmd->add_option("--kpis", sim.kpis, "CSV of per-instance KPIs (max |signal|, RMS, final value)");

  CLI11_PARSE(app, argc, argv);
  try {
    if (info->parsed()) {
      if (devices) run_devices();
      if (!info_model.empty()) return run_info(info_model);
      if (!devices) throw std::invalid_argument("info: give a model file, --devices, or both");
      return 0;
    }
    if (check_cmd->parsed()) return run_check(check);
    if (sim_cmd->parsed()) return run_simulate(sim);
  } catch (const std::exception& e) {
    std::cerr << "myriad: error: " << e.what() << '\n';
    return 2;
  }
  return 2;
}
