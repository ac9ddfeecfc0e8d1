// Work-precision of RN4, ROS2 (W-method) and DOPRI5 on stiff problems (Rosenbrock issue): per tolerance the
// steps, rejected steps, function evaluations, Jacobians, LU factorizations, wall time and the error against a
// tight reference. Usage: work_precision [OUT.md]  (default bench/results/work_precision.md)
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>

#include "bench_support.hpp"

using namespace myriad;

namespace {

struct Problem {
  std::string file, signal;
  double t_end, dt_out;
};

double max_error(const EnsembleResult& r, const EnsembleResult& ref, int signal) {
  double e = 0.0;
  for (int k = 0; k < r.n_times; ++k) e = std::max(e, std::abs(r.value(0, k, signal) - ref.value(0, k, signal)));
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out_path = argc > 1 ? argv[1] : bench::source_path("bench/results/work_precision.md");
  const std::vector<Problem> problems = {{"models/stiff_double_pendulum.json", "theta1", 2.0, 0.01},
                                         {"models/stiff_quarter_car.json", "z_s", 2.0, 0.01}};
  const std::vector<double> tolerances = {1e-2, 1e-3, 1e-4, 1e-5, 1e-6};
  std::ostringstream md;
  md << "# Work-precision: RN4, ROS2 (W-method), DOPRI5\n\n"
     << "Machine: " << bench::machine_description() << "  \n"
     << "Command: `build/bench/work_precision` (Release build), one instance, one thread; Atol = Rtol = tol on\n"
     << "positions and velocities; error = max over the output grid of |signal - reference|, reference = DOPRI5 at\n"
     << "rtol = atol = 1e-12.\n\n";
  for (const Problem& p : problems) {
    const Model model = load_model_file(bench::source_path(p.file));
    const auto compiled = compile(model);
    const Ensemble ensemble = build_ensemble(model, *compiled, 1, nullptr, {});
    const std::vector<double> times = output_grid(0.0, p.t_end, p.dt_out);
    const int signal = bench::signal_index(model, p.signal);
    const EnsembleResult ref = run_ensemble_cpu(*compiled, ensemble, bench::adaptive(Method::dopri5, 1e-12, 1e-12), times, 1);
    md << "## " << model.name << " (" << p.file << "), signal `" << p.signal << "`, t_end = " << p.t_end << " s\n\n"
       << "| method | tol | steps | rejected | f evals | Jacobians | LU | wall [s] | max error | status |\n"
       << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (double tol : tolerances)
      for (Method method : {Method::rn4, Method::ros2w, Method::dopri5}) {
        const auto start = std::chrono::steady_clock::now();
        const EnsembleResult r = run_ensemble_cpu(*compiled, ensemble, bench::adaptive(method, tol, tol), times, 1);
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const IntegratorStats& s = r.stats[0];
        md << "| " << bench::method_name(method) << " | " << tol << " | " << s.steps << " | " << s.rejected << " | "
           << s.function_evaluations << " | " << s.jacobian_evaluations << " | " << s.lu_factorizations << " | "
           << std::setprecision(3) << wall << " | " << max_error(r, ref, signal) << " | "
           << instance_status_name(r.status[0]) << " |\n";
        std::cerr << model.name << " " << bench::method_name(method) << " tol " << tol << ": " << s.steps << " steps\n";
      }
    md << '\n';
  }
  std::ofstream(out_path) << md.str();
  std::cout << md.str();
  return 0;
}
