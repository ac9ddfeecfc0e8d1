// `myriad simulate MODEL ...`: an ensemble on the CPU, written as CSV, with a statistics summary.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <stdexcept>

#include "backend.hpp"
#include "commands.hpp"
#include "ensemble/cpu_runner.hpp"
#include "ensemble/ensemble_statistics.hpp"
#include "io/result_writers.hpp"
#include "io/statistics_writers.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"

namespace myriad::cli {
namespace {

std::vector<std::pair<std::string, double>> parse_overrides(const std::vector<std::string>& items) {
  std::vector<std::pair<std::string, double>> out;
  for (const std::string& item : items) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("--param '" + item + "': expected NAME=VALUE");
    const std::string text = item.substr(eq + 1);
    size_t used = 0;
    double value = 0.0;
    try {
      value = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size() || !std::isfinite(value))
      throw std::invalid_argument("--param '" + item + "': '" + text + "' is not a finite number");
    out.emplace_back(item.substr(0, eq), value);
  }
  return out;
}

void require_positive(double value, const char* flag) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw std::invalid_argument(std::string(flag) + " must be positive, got " + std::to_string(value));
}

}  // namespace

int run_simulate(const SimulateOptions& o) {
  const Model model = load_model_file(o.model);
  const auto compiled = compile(model);
  const SimulationDefaults& d = model.simulation;

  RunSpec spec;
  const std::string integrator = o.integrator.empty() ? d.integrator : o.integrator;
  spec.method = integrator == "rk4"     ? Method::rk4
                : integrator == "rn4"   ? Method::rn4
                : integrator == "ros2w" ? Method::ros2w
                                        : Method::dopri5;
  spec.h = o.h > 0 ? o.h : d.h;
  spec.max_steps = o.max_steps;
  spec.control.rtol = o.rtol > 0 ? o.rtol : d.rtol;
  spec.control.atol = o.atol > 0 ? o.atol : d.atol;
  spec.control.fac = o.fac;
  spec.control.facmin = o.facmin;
  spec.control.facmax = o.facmax;
  const double t_end = o.t_end > 0 ? o.t_end : d.t_end;
  const double dt_out = o.dt_out > 0 ? o.dt_out : d.dt_out;
  require_positive(t_end, "--t-end");
  require_positive(dt_out, "--dt-out");
  require_positive(spec.h, "--h");
  require_positive(spec.control.rtol, "--rtol");
  require_positive(spec.control.atol, "--atol");
  if (!(o.facmin > 0 && o.facmin <= 1 && o.facmax >= 1 && o.fac > 0 && o.fac <= 1))
    throw std::invalid_argument("step control needs 0 < facmin <= 1 <= facmax and 0 < fac <= 1");

  ParameterTable table;
  const bool has_table = !o.params_file.empty();
  if (has_table) table = read_parameter_csv(o.params_file);
  const int instances = o.instances > 0 ? o.instances : (has_table ? 0 : 1);
  const Ensemble ensemble =
      build_ensemble(model, *compiled, instances, has_table ? &table : nullptr, parse_overrides(o.params));

  const std::vector<double> times = output_grid(0.0, t_end, dt_out);
  Backend backend = choose_backend(o.backend, o.threads);
#ifndef MYRIAD_DEVICE_LOOPS
  if (backend.automatic && backend.kind == BackendKind::cuda && compiled->constraints.m > 0) {
    backend = choose_backend("cpu", o.threads);  // loop models are not in this build's kernel
    backend.description += " (auto: loop models are not compiled into this build's CUDA kernel)";
  }
#endif
  backend.cuda.step_budget = o.gpu_step_budget;
  backend.cuda.strategy = o.gpu_strategy == "staged"      ? GpuStrategy::staged
                          : o.gpu_strategy == "warp"      ? GpuStrategy::warp
                          : o.gpu_strategy == "shared-lu" ? GpuStrategy::shared_lu
                                                          : GpuStrategy::fused;
  const EnsembleResult result = run_on_backend(backend, model, *compiled, ensemble, spec, times, o.threads);

  std::vector<std::string> names;
  for (const Output& output : model.outputs) names.push_back(output.name);
  if (!o.out.empty()) write_result_csv(o.out, result, names);
  if (!o.stats_json.empty()) write_stats_json(o.stats_json, result, model.name, integrator);
  if (!o.summary.empty() || !o.kpis.empty()) {
    const EnsembleStatistics statistics = compute_statistics(result, o.threads);
    if (!o.summary.empty()) write_summary_csv(o.summary, statistics, result.times, names);
    if (!o.kpis.empty()) write_kpi_csv(o.kpis, statistics, names);
  }

  const StatsTotals t = totals(result);
  std::cout << "model: " << model.name << "  instances: " << result.n_instances << "  integrator: " << integrator
            << "  t_end: " << t_end << "  outputs: " << result.n_times << " times x " << result.n_signals
            << " signals\nbackend: " << backend.name << " (" << backend.description << ")\n"
            << "steps: " << t.steps << "  rejected: " << t.rejected << "  function evaluations: "
            << t.function_evaluations << "  Jacobians: " << t.jacobian_evaluations << "  LU factorizations: "
            << t.lu_factorizations << "  wall time: " << std::setprecision(4) << result.total_wall_seconds
            << " s\nstatus:";
  for (int s = 0; s < kInstanceStatusCount; ++s)
    if (t.status_counts[s] > 0) std::cout << "  " << instance_status_name(static_cast<InstanceStatus>(s)) << " " << t.status_counts[s];
  std::cout << '\n';
  if (o.stats) {
    long long min_steps = -1, max_steps = 0;
    for (const IntegratorStats& s : result.stats) {
      min_steps = min_steps < 0 ? s.steps : std::min(min_steps, s.steps);
      max_steps = std::max(max_steps, s.steps);
    }
    std::cout << "steps per instance: min " << min_steps << "  mean "
              << static_cast<double>(t.steps) / result.n_instances << "  max " << max_steps
              << "\nfunction evaluations per instance: mean "
              << static_cast<double>(t.function_evaluations) / result.n_instances << '\n';
    const int shown = std::min(result.n_instances, 5);
    for (int i = 0; i < shown; ++i) {
      const IntegratorStats& s = result.stats[static_cast<size_t>(i)];
      std::cout << "  instance " << i << ": steps " << s.steps << "  rejected " << s.rejected << "  evaluations "
                << s.function_evaluations << "  " << instance_status_name(result.status[static_cast<size_t>(i)])
                << '\n';
    }
    if (result.n_instances > shown) std::cout << "  ... (" << result.n_instances - shown << " more; --stats-json has all)\n";
  }
  for (const std::string* path : {&o.out, &o.stats_json, &o.summary, &o.kpis})
    if (!path->empty()) std::cout << "wrote " << *path << '\n';
  return t.status_counts[0] == result.n_instances ? 0 : 3;
}

}  // namespace myriad::cli
