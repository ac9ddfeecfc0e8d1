// myriad: command-line front end. Subcommands: info, check, simulate, study, modes, kc, expand, tire (see README.md). Exit status: 0 success,
// 1 a failed check, 2 bad input (the message names the file or flag, the field and the reason), 3 some instances
// failed.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include "commands.hpp"
#include "core/integrator_names.hpp"
#include "signal_cleanup.hpp"
#include "version.hpp"

namespace {

const std::vector<std::string> kSubcommands = {"info", "check", "simulate", "study", "modes", "kc", "expand", "codegen",
                                                "tire"};

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// CLI11 says "A subcommand is required" for a mistyped one; name it and the likely intent instead.
bool refuse_unknown_subcommand(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return false;
  const std::string given = argv[1];
  if (std::find(kSubcommands.begin(), kSubcommands.end(), given) != kSubcommands.end()) return false;
  std::cerr << "myriad: error: unknown subcommand '" << given << "' (expected one of: info, check, simulate, study, modes, kc, expand, codegen, tire)";
  for (const std::string& known : kSubcommands)
    if (edit_distance(given, known) <= 2) std::cerr << "; did you mean '" << known << "'?";
  std::cerr << "\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace myriad::cli;
  CLI::App app{"Myriad: ensembles of constrained multibody models"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text());

  std::string info_model;
  bool devices = false;
  CLI::App* info = app.add_subcommand("info", "Bodies, joints, coordinates, degrees of freedom, parameters, outputs");
  info->add_option("model", info_model, "model file (JSON)");
  info->add_flag("--devices", devices, "list the backends and devices available here");

  CheckOptions check;
  CLI::App* check_cmd = app.add_subcommand("check", "Compare fast-path and reference dynamics at random states");
  check_cmd->add_option("model", check.model, "model file (JSON)")->required();
  check_cmd->add_option("--states", check.states, "number of random states (1 .. 1000000)");
  check_cmd->add_option("--seed", check.seed, "random seed");
  check_cmd->add_option("--tolerance", check.tolerance, "largest accepted relative difference (default 1e-9)");

  SimulateOptions sim;
  CLI::App* sim_cmd = app.add_subcommand("simulate", "Simulate an ensemble and write the output signals as CSV");
  sim_cmd->add_option("model", sim.model, "model file (JSON)")->required();
  sim_cmd->add_option("--instances", sim.instances, "number of instances (default: rows of --params, else 1)");
  sim_cmd->add_option("--params", sim.params_file, "CSV: header of parameter names, one row per instance");
  sim_cmd->add_option("--param", sim.params, "NAME=VALUE for every instance (repeatable)");
  sim_cmd->add_option("--t-end", sim.t_end, "end time [s] (default: the model's simulation block)");
  sim_cmd->add_option("--dt-out", sim.dt_out, "output interval [s] (default: the model's simulation block)");
  sim_cmd->add_option("--integrator", sim.integrator,
                      "rk4 | dopri5 | rn4 | ros2w, or an implicit fixed-step method (seed 003; cpu and reference "
                      "backends): backward-euler | lms2 | lms3 | lms4 | ss2 | ss3 | ss4 | bathe | msstc3 | msstc4 | "
                      "msstc5 | mssth3 | mssth4 | mssth5 | 'esdirk3(2)4l[2]sa' | 'esdirk3(2)5l[2]sa' | "
                      "'esdirk4(3)6l[2]sa2'")
      ->check(CLI::IsMember(myriad::integrator_names()));
  sim_cmd->add_option("--h", sim.h, "RK4 step; the implicit methods' largest step [s]");
  sim_cmd->add_option("--rho-inf", sim.rho_inf,
                      "implicit methods: spectral radius at infinity in [0, 1] (default 0: most dissipation)");
  sim_cmd->add_option("--rtol", sim.rtol, "relative tolerance of the adaptive methods");
  sim_cmd->add_option("--atol", sim.atol, "absolute tolerance of the adaptive methods");
  sim_cmd->add_option("--fac", sim.fac, "step-size safety factor (seed 000 eq. 16)");
  sim_cmd->add_option("--facmin", sim.facmin, "smallest step-size ratio");
  sim_cmd->add_option("--facmax", sim.facmax, "largest step-size ratio");
  sim_cmd->add_option("--max-steps", sim.max_steps, "per-instance step budget");
  sim_cmd->add_option("--threads", sim.threads, "threads of the cpu and reference backends (default 0: all)");
  sim_cmd->add_option("--lanes", sim.lanes,
                      "cpu: instances each thread integrates in lockstep in its vector lanes, where the model and "
                      "method allow (dopri5, rk4 on tree models without bushings or tires): 1 (one at a time), 2, 4 or 8 "
                      "(default 4); the results are the same bit for bit");
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
                      "launches (default 0: one launch runs every instance to the end)");
  sim_cmd->add_option("--coordinates", sim.coordinates,
                      "joint (default) | rp | re | rA: rp and re integrate the model in seed 002's absolute "
                      "coordinates (Euler parameters, ZXZ Euler angles) on the index-3 DAE with an implicit "
                      "--integrator, rA (rotation matrices on SO(3)) with backward-euler only; cpu backend (auto) or "
                      "cuda, the same output signals")
      ->check(CLI::IsMember({"joint", "rp", "re", "rA"}));
  sim_cmd->add_option("--signals", sim.signals,
                      "NAME[,NAME...]: the model's outputs to keep, in this order (default: all): a CSV run never "
                      "computes the others, an HDF5 file keeps only these series; a named KPI's output has to be "
                      "among them")
      ->delimiter(',');
  sim_cmd->add_option("--out", sim.out, "output CSV file, or an HDF5 results file (.h5: streamed in chunks)");
  sim_cmd->add_option("--chunk", sim.chunk,
                      "--out is computed and written this many instances at a time, so its series never sit in "
                      "memory at once (CSV default: as many as 256 MiB of output values hold, 2 GiB on the cuda backend; HDF5: the study's "
                      "choice; a multiple of 64 with --summary or a model without named KPIs' --kpis, reduced chunk "
                      "by chunk in tiles of 64 instances)")
      ->check(CLI::PositiveNumber);
  sim_cmd->add_option("--stats-json", sim.stats_json, "write statistics as JSON");
  sim_cmd->add_flag("--stats", sim.stats, "print per-instance statistics summary");
  sim_cmd->add_option("--summary", sim.summary, "CSV of ensemble statistics per output time and signal");
  sim_cmd->add_option("--kpis", sim.kpis,
                      "CSV of per-instance KPIs: the model's named KPIs (instance,kpi,value,unit), or for a model "
                      "without any, max |signal|, RMS and final value of every output");
  sim_cmd->add_option("--max-memory", sim.max_memory,
                      "refuse a run whose estimated memory exceeds this (bytes, or with K, M, G, T: 8G, 512MiB); "
                      "default: the memory available to this process");
  sim_cmd->add_flag("--follow-symlinks", sim.follow_symlinks,
                    "an output path that is a symbolic link writes the file it points to (default: refused)");
  sim_cmd->add_flag("--quiet,-q", sim.quiet, "no progress and no memory estimate on stderr");

  ModesOptions modes;
  CLI::App* modes_cmd =
      app.add_subcommand("modes", "Natural frequencies and damping ratios about static equilibrium");
  modes_cmd->add_option("model", modes.model, "model file (JSON)")->required();
  modes_cmd->add_option("--param", modes.params, "NAME=VALUE: a parameter value (repeatable)");
  modes_cmd->add_option("--time", modes.t, "the time to linearize at (time functions and inputs held there; "
                                           "default 0)");
  modes_cmd->add_flag("--at-initial-state", modes.at_initial_state,
                      "linearize at the model's initial state instead of solving for static equilibrium");
  modes_cmd->add_option("--json", modes.json, "also write the result as JSON to this file");

  KcOptions kc;
  CLI::App* kc_cmd = app.add_subcommand(
      "kc", "Kinematics and compliance of a template corner: bump steer, camber, motion ratio, wheel rate, roll centre");
  kc_cmd->add_option("model", kc.model, "model file (JSON) with a template subsystem")->required();
  kc_cmd->add_option("--subsystem", kc.subsystem, "the corner (default: the model's only subsystem)");
  kc_cmd->add_option("--travel", kc.travel, "sweep the wheel travel from -TRAVEL to +TRAVEL metres (default 0.08)");
  kc_cmd->add_option("--points", kc.points, "number of travels (default 33)");
  kc_cmd->add_option("--param", kc.params, "NAME=VALUE: a parameter value (repeatable)");
  kc_cmd->add_option("--out", kc.out, "write the CSV here instead of stdout");

  ExpandOptions expand;
  CLI::App* expand_cmd =
      app.add_subcommand("expand", "Write the model with its template subsystems expanded into plain entries");
  expand_cmd->add_option("model", expand.model, "model file (JSON)")->required();
  expand_cmd->add_option("--out", expand.out, "write the expanded model here instead of stdout");

  CodegenOptions codegen;
  CLI::App* codegen_cmd = app.add_subcommand(
      "codegen", "Write the compiled model as a C++ header, for a CUDA kernel specialized on the model");
  codegen_cmd->add_option("model", codegen.model, "model file (JSON)")->required();
  codegen_cmd->add_option("--name", codegen.name, "name of the generated constexpr function")->required();
  codegen_cmd->add_option("--origin", codegen.origin, "the model as the header's comment names it (default: MODEL)");
  codegen_cmd->add_option("--out", codegen.out, "write the header here instead of stdout");

  StudyOptions study;
  CLI::App* study_cmd = app.add_subcommand(
      "study", "Run a study file (sampled parameters -> KPIs, kept series, Sobol indices) into one HDF5 file");
  study_cmd->add_option("study", study.study, "study file (JSON, docs/study-format.md)")->required();
  study_cmd->add_option("--out", study.out, "the results file (HDF5); default: the study's \"output\"");
  study_cmd->add_flag("--resume", study.resume, "continue an interrupted run (OUT.part) from its completed chunks");
  study_cmd->add_flag("--progress-json", study.progress_json, "progress as JSON lines on stderr, for machines");
  study_cmd->add_flag("--quiet", study.quiet, "no progress on stderr");
  study_cmd->add_option("--design-only", study.design_only, "write the sampled design (CSV) here and stop");

  TireOptions tire;
  CLI::App* tire_cmd =
      app.add_subcommand("tire", "Force curves of a Magic Formula tire (.tir, PAC2002 / MF 5.2) as CSV");
  tire_cmd->add_option("file", tire.file, ".tir property file")->required();
  tire_cmd->add_option("--fz", tire.fz, "vertical load in N (default 4000)");
  tire_cmd->add_option("--camber", tire.camber, "camber angle in rad (default 0)");
  tire_cmd->add_option("--combined-alpha", tire.combined_alpha_deg,
                       "slip angle of the combined-slip sweep, degrees (default 4)");
  tire_cmd->add_option("--out", tire.out, "write the CSV here instead of stdout");

  if (refuse_unknown_subcommand(argc, argv)) return 2;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    const std::string what = e.what();
    std::cerr << "myriad: error: "
              << (what == "A subcommand is required" ? "give a subcommand: info, check, simulate, study, modes, kc, expand, codegen or tire" : what)
              << "\nmyriad --help lists the subcommands, myriad SUBCOMMAND --help their flags\n";
    return 2;
  }
  install_signal_cleanup();
  try {
    if (info->parsed()) {
      if (devices) run_devices();
      if (!info_model.empty()) return run_info(info_model);
      if (!devices) throw std::invalid_argument("info: give a model file, --devices, or both");
      return 0;
    }
    if (check_cmd->parsed()) return run_check(check);
    if (sim_cmd->parsed()) return run_simulate(sim);
    if (study_cmd->parsed()) return run_study(study);
    if (modes_cmd->parsed()) return run_modes(modes);
    if (tire_cmd->parsed()) return run_tire(tire);
    if (kc_cmd->parsed()) return run_kc(kc);
    if (expand_cmd->parsed()) return run_expand(expand);
    if (codegen_cmd->parsed()) return run_codegen(codegen);
  } catch (const std::bad_alloc&) {
    std::cerr << "myriad: error: out of memory (the run's memory estimate was too low, or another process took "
                 "the memory; try fewer --instances or --max-memory)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "myriad: error: " << e.what() << '\n';
    return 2;
  }
  return 2;
}
