// Seed 003's implicit methods as ensemble integrators (Method::implicit, the cpu backend): per model and method,
// the instances' statuses, Newton iterations per step, wall time per instance and the largest error of every output
// signal against DOPRI5 at rtol = atol = 1e-12, beside DOPRI5 and RN4 at rtol 1e-6. Models: seed 002's double
// pendulum (violent, non-stiff), seed 000's stiff double pendulum (dominant eigenvalue about -1e5), the four-bar
// (a loop model, over its independent coordinate) and the quarter car over its bump (the fixed grid does not stop
// at the bump's kinks, unlike the adaptive methods). 64 instances each, the first parameter spread by +-20%.
// Usage: implicit_ensemble [OUT.md]   (default bench/results/implicit_ensemble.md; about a minute on 2 cores)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "ensemble/cpu_runner.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"

using namespace myriad;

namespace {

constexpr int kInstances = 64;

struct Row {
  std::string label;
  RunSpec spec;
};

RunSpec implicit_spec(ImplicitMethod method, double rho, double h) {
  RunSpec spec;
  spec.method = Method::implicit;
  spec.implicit = implicit_scheme(method, rho);
  spec.h = h;
  return spec;
}

Ensemble spread(const Model& model, const CompiledModel& compiled) {
  ParameterTable table;
  table.source = "bench";
  table.names = {model.parameters[0].name};
  const double base = model.parameters[0].value;
  for (int i = 0; i < kInstances; ++i) table.rows.push_back({base * (0.8 + 0.4 * i / (kInstances - 1))});
  return build_ensemble(model, compiled, 0, &table, {});
}

// Largest difference of the position-level signals (joint coordinates, body positions: rad and m) over the
// instances that finished ok, every output time.
double largest_difference(const Model& model, const EnsembleResult& a, const EnsembleResult& b) {
  double worst = 0.0;
  for (int i = 0; i < a.n_instances; ++i) {
    if (a.status[static_cast<size_t>(i)] != InstanceStatus::ok) continue;
    for (int k = 0; k < a.n_times; ++k)
      for (int s = 0; s < a.n_signals; ++s) {
        const OutputKind kind = model.outputs[static_cast<size_t>(s)].kind;
        if (kind != OutputKind::joint_coordinate && kind != OutputKind::body_position) continue;
        worst = std::fmax(worst, std::fabs(a.value(i, k, s) - b.value(i, k, s)));
      }
  }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out_path = argc > 1 ? argv[1] : bench::source_path("bench/results/implicit_ensemble.md");
  struct Case {
    const char* file;
    double t_end;
    std::vector<double> steps;
  };
  const std::vector<Case> cases = {{"double_pendulum_002.json", 1.0, {1e-3, 2.5e-4}},
                                   {"stiff_double_pendulum.json", 1.0, {1e-2, 1e-3}},
                                   {"loops/four_bar.json", 1.0, {1e-3}},
                                   {"quarter_car.json", 1.0, {1e-3}}};
  const std::vector<std::pair<ImplicitMethod, double>> methods = {
      {ImplicitMethod::backward_euler, 0.0}, {ImplicitMethod::lms2, 0.0},    {ImplicitMethod::lms3, 0.6},
      {ImplicitMethod::ss3, 0.6},            {ImplicitMethod::bathe, 0.6},   {ImplicitMethod::msstc3, 0.6},
      {ImplicitMethod::mssth3, 0.6},         {ImplicitMethod::mssth5, 0.6},  {ImplicitMethod::esdirk3_4l, 0.0},
      {ImplicitMethod::esdirk4_6l, 0.0}};
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

  std::ostringstream md;
  md << std::setprecision(3);
  md << "# Implicit methods in ensembles (cpu backend)\n\n"
     << "Regenerate: `build/bench/implicit_ensemble` (writes this file; about a minute on 2 cores). Machine: "
     << bench::machine_description() << "; " << threads << " threads.\n\n"
     << kInstances << " instances per model, the first parameter spread by +-20%; outputs every 0.01 s to t_end = 1 s. "
     << "Error: the largest difference of the position-level signals (joint coordinates and body positions, rad and "
     << "m) of the instances that finished ok, against DOPRI5 at rtol = atol = 1e-12. Newton it./step: Newton "
     << "iterations (= Jacobian evaluations = LU factorizations, counted as such in the stats) per step (nan where an "
     << "instance failed: its last point counts up to 25), summed over "
     << "an ESDIRK's implicit stages. us/instance: wall time x threads / instances. The implicit methods take "
     << "ceil(1 s / h) equal steps; Newton to rtol = atol = 1e-10 per point, at most 25 iterations.\n\n";
  for (const Case& c : cases) {
    const Model model = load_model_file(bench::source_path(std::string("models/") + c.file));
    const auto compiled = compile(model);
    const Ensemble ensemble = spread(model, *compiled);
    const std::vector<double> times = output_grid(0.0, c.t_end, 0.01);
    const EnsembleResult reference =
        run_ensemble_cpu(*compiled, ensemble, bench::adaptive(Method::dopri5, 1e-12, 1e-12), times, threads);
    std::vector<Row> rows = {{"dopri5 rtol 1e-6", bench::adaptive(Method::dopri5, 1e-6, 1e-8)},
                             {"rn4 rtol 1e-6", bench::adaptive(Method::rn4, 1e-6, 1e-8)}};
    for (double h : c.steps)
      for (const auto& [method, rho] : methods) {
        std::ostringstream label;
        label << implicit_method_name(method) << " rho_inf " << rho << " h " << h;
        rows.push_back({label.str(), implicit_spec(method, rho, h)});
      }
    md << "## " << model.name << " (`models/" << c.file << "`, nv = " << compiled->nv
       << (compiled->constraints.m > 0 ? ", loops: over its independent coordinates" : "") << ")\n\n"
       << "| integrator | ok / " << kInstances << " | others | steps | Newton it./step | us/instance | error |\n"
       << "| --- | --- | --- | --- | --- | --- | --- |\n";
    for (const Row& row : rows) {
      const auto start = std::chrono::steady_clock::now();
      const EnsembleResult run = run_ensemble_cpu(*compiled, ensemble, row.spec, times, threads);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      int ok = 0, failed[kInstanceStatusCount] = {};
      long long steps = 0, newton = 0;
      for (int i = 0; i < run.n_instances; ++i) {
        ok += run.status[static_cast<size_t>(i)] == InstanceStatus::ok;
        ++failed[static_cast<int>(run.status[static_cast<size_t>(i)])];
        steps += run.stats[static_cast<size_t>(i)].steps;
        newton += run.stats[static_cast<size_t>(i)].jacobian_evaluations;
      }
      std::string others;
      for (int k = 1; k < kInstanceStatusCount; ++k)
        if (failed[k] > 0)
          others += (others.empty() ? "" : ", ") + std::to_string(failed[k]) + " " +
                    instance_status_name(static_cast<InstanceStatus>(k));
      md << "| " << row.label << " | " << ok << " | " << (others.empty() ? "-" : others) << " | "
         << static_cast<double>(steps) / kInstances << " | ";
      if (row.spec.method == Method::implicit)
        md << (ok == kInstances ? static_cast<double>(newton) / std::max(1LL, steps) : NAN);
      else
        md << "-";
      md << " | " << seconds * threads / kInstances * 1e6 << " | " << (ok > 0 ? largest_difference(model, run, reference) : NAN)
         << " |\n";
      std::cerr << model.name << ": " << row.label << " done\n";
    }
    md << "\n";
  }
  std::ofstream(out_path) << md.str();
  std::cout << md.str();
  return 0;
}
