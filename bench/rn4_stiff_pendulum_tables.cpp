// Reproduces seed 000 Tables 1-2: RN4 on the stiff double pendulum (sec. 5.1) over 2 s with Atol = Rtol = 10^k,
// k = -2..-5, against a tight reference; max error of theta1 and theta1-dot, the time of the max, the relative
// error and the RMS error over the output grid, and step counts. Then the same in the seed's own coordinates
// (issue 21 item 4: absolute Cartesian + Euler-parameter coordinates, the state-space ODE over independent
// coordinates partitioned out of them, absolute/seed000_pendulum.hpp), on the output grid and at the run's own
// step ends as the seed measured.
// Usage: rn4_stiff_pendulum_tables [OUT.md]  (default docs/validation/rn4_stiff_double_pendulum.md)
#include <chrono>
#include <iomanip>
#include <iostream>

#include "absolute/seed000_pendulum.hpp"
#include "bench_support.hpp"

using namespace myriad;

namespace {

struct ErrorRow {
  double t_star = 0, max_error = 0, relative_percent = 0, rms = 0;
};

ErrorRow errors(const EnsembleResult& r, const EnsembleResult& ref, int signal) {
  ErrorRow row;
  double sum = 0;
  for (int k = 0; k < r.n_times; ++k) {
    const double e = std::abs(r.value(0, k, signal) - ref.value(0, k, signal));
    sum += e * e;
    if (e > row.max_error) {
      row.max_error = e;
      row.t_star = r.times[static_cast<size_t>(k)];
      row.relative_percent = 100.0 * e / std::abs(ref.value(0, k, signal));
    }
  }
  row.rms = std::sqrt(sum / r.n_times);
  return row;
}

ErrorRow errors(const std::vector<double>& times, const std::vector<double>& values, const EnsembleResult& ref,
                int signal) {
  ErrorRow row;
  double sum = 0;
  for (size_t k = 0; k < values.size(); ++k) {
    const double reference = ref.value(0, static_cast<int>(k), signal), e = std::abs(values[k] - reference);
    sum += e * e;
    if (e > row.max_error) {
      row.max_error = e;
      row.t_star = times[k];
      row.relative_percent = 100.0 * e / std::abs(reference);
    }
  }
  row.rms = std::sqrt(sum / static_cast<double>(values.size()));
  return row;
}

std::string coordinate_name(int index) {
  static const char* names[] = {"x", "y", "z", "e0", "e1", "e2", "e3"};
  return names[index % 7] + std::to_string(index / 7 + 1);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out_path = argc > 1 ? argv[1] : bench::source_path("docs/validation/rn4_stiff_double_pendulum.md");
  const Model model = load_model_file(bench::source_path("models/stiff_double_pendulum.json"));
  const auto compiled = compile(model);
  const Ensemble ensemble = build_ensemble(model, *compiled, 1, nullptr, {});
  const std::vector<double> times = output_grid(0.0, 2.0, 1e-3);
  const int theta = bench::signal_index(model, "theta1"), theta_dot = bench::signal_index(model, "theta1_dot");
  const EnsembleResult ref = run_ensemble_cpu(*compiled, ensemble, bench::adaptive(Method::dopri5, 1e-12, 1e-12), times, 1);
  const EnsembleResult ref_rn4 = run_ensemble_cpu(*compiled, ensemble, bench::adaptive(Method::rn4, 1e-10, 1e-10), times, 1);

  std::ostringstream md;
  md << std::setprecision(4);
  md << "# RN4 on the stiff double pendulum: seed 000 Tables 1-2\n\n"
     << "Regenerate: `build/bench/rn4_stiff_pendulum_tables` (writes this file). Model: `models/stiff_double_pendulum.json`\n"
     << "(seed 000 sec. 5.1 as read in `../shared/notes/seed-notes.md`). Machine: " << bench::machine_description()
     << ".\n\nAtol = Rtol = 10^k on positions and velocities (seed 000 eq. 13). Errors are taken on an output grid of\n"
     << "1 ms (dense output) against a reference computed with DOPRI5 at rtol = atol = 1e-12; an RN4 run at 1e-10\n"
     << "agrees with that reference to " << errors(ref_rn4, ref, theta).max_error << " rad in theta1 and "
     << errors(ref_rn4, ref, theta_dot).max_error << " rad/s in theta1-dot (max over the grid).\n"
     << "t* is the time of the largest error, RelErr = 100 * max error / |reference value at t*|, and the average\n"
     << "trajectory error is the RMS of the error over the grid.\n\n";
  struct Run {
    int k;
    EnsembleResult r;
  };
  std::vector<Run> runs;
  for (int k = -2; k >= -5; --k) {
    const double tol = std::pow(10.0, k);
    runs.push_back({k, run_ensemble_cpu(*compiled, ensemble, bench::adaptive(Method::rn4, tol, tol), times, 1)});
  }
  const char* paper1[] = {"0.592127 | 5.223e-2 | 0.12126 | 3.234e-3", "0.599954 | 4.198e-3 | 0.00964 | 2.631e-4",
                          "0.626135 | 4.916e-4 | 0.00108 | 2.946e-5", "1.065146 | 1.902e-5 | 0.00039 | 9.868e-6"};
  const char* paper2[] = {"0.795548 | 4.061e-2 | 1.84434 | 2.348e-2", "0.373114 | 3.792e-3 | 0.12340 | 2.181e-3",
                          "0.217757 | 8.652e-4 | 0.00922 | 3.445e-4", "0.186183 | 2.343e-4 | 0.00246 | 9.357e-5"};
  for (int table = 0; table < 2; ++table) {
    const int signal = table == 0 ? theta : theta_dot;
    md << "## Table " << table + 1 << ": " << (table == 0 ? "theta1 (position)" : "theta1-dot (velocity)") << "\n\n"
       << "| k | t* | max error | RelErr [%] | RMS error | steps | rejected | status | paper: t* / max / RelErr / avg |\n"
       << "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (size_t i = 0; i < runs.size(); ++i) {
      const ErrorRow e = errors(runs[i].r, ref, signal);
      md << "| " << runs[i].k << " | " << e.t_star << " | " << e.max_error << " | " << e.relative_percent << " | " << e.rms
         << " | " << runs[i].r.stats[0].steps << " | " << runs[i].r.stats[0].rejected << " | "
         << instance_status_name(runs[i].r.status[0]) << " | " << (table == 0 ? paper1[i] : paper2[i]) << " |\n";
    }
    md << '\n';
  }
  // ---- the seed's own coordinates ----
  struct AbsoluteRow {
    int k;
    Seed000AbsoluteRun run;
    EnsembleResult at_steps;
  };
  std::vector<AbsoluteRow> absolute;
  for (int k = -2; k >= -5; --k) {
    const double tol = std::pow(10.0, k);
    Seed000AbsoluteRun run = run_seed000_absolute_rn4(model, times, tol, tol);
    EnsembleResult at_steps =
        run_ensemble_cpu(*compiled, ensemble, bench::adaptive(Method::dopri5, 1e-12, 1e-12), run.step_times, 1);
    absolute.push_back({k, std::move(run), std::move(at_steps)});
  }
  const Seed000AbsoluteRun& first = absolute.front().run;
  md << "## Tables 1-2 in the seed's own coordinates\n\n"
     << "The same model file mapped onto Cartesian + Euler-parameter coordinates (`absolute/model_mapping.hpp`: 14\n"
     << "coordinates; two revolute joints = 6 CD + 4 DP1, two normalizations: 12 constraints; the two RSDAs about\n"
     << "the joint axes) and integrated by the same RN4 as the state-space ODE over independent coordinates\n"
     << "partitioned out of them by Gauss-Jordan with full pivoting (seed 000 eqs. 4-10; `absolute/state_space.hpp`;\n"
     << "repartitioned when cond(Phi_u) grows past 1.25x, Step 14). The first partition takes "
     << coordinate_name(first.independent[0]) << " and " << coordinate_name(first.independent[1])
     << " (the CMs' heights) as independent; by the end it is " << coordinate_name(first.independent_at_end[0])
     << " and " << coordinate_name(first.independent_at_end[1]) << ". Atol = Rtol = 10^k act on\n"
     << "these coordinates and their velocities (eq. 13). theta1 is body 1's angle about z from its Euler\n"
     << "parameters, theta1-dot its angular velocity. Errors as above on the 1 ms grid (RN4's dense output of the\n"
     << "independent coordinates, dependent ones recovered) and, as the seed measured them, at the run's own step\n"
     << "ends t_i (the DOPRI5 reference evaluated at those times).\n\n";
  for (int table = 0; table < 2; ++table) {
    const int signal = table == 0 ? theta : theta_dot;
    md << "### Table " << table + 1 << " in absolute coordinates: " << (table == 0 ? "theta1" : "theta1-dot") << "\n\n"
       << "| k | grid: t* / max / RMS | steps: t* / max / RMS | steps | rejected | repartitions | Newton it. per recovery "
          "| joint coordinates (grid): max / RMS | paper: max / avg |\n"
       << "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (size_t i = 0; i < absolute.size(); ++i) {
      const Seed000AbsoluteRun& run = absolute[i].run;
      const ErrorRow grid = errors(times, table == 0 ? run.theta1 : run.theta1_dot, ref, signal);
      const ErrorRow steps =
          errors(run.step_times, table == 0 ? run.step_theta1 : run.step_theta1_dot, absolute[i].at_steps, signal);
      const ErrorRow joint = errors(runs[i].r, ref, signal);
      const std::string paper = table == 0 ? paper1[i] : paper2[i];
      const size_t bar = paper.find('|'), bar2 = paper.find('|', bar + 1), bar3 = paper.find('|', bar2 + 1);
      md << "| " << absolute[i].k << " | " << grid.t_star << " / " << grid.max_error << " / " << grid.rms << " | "
         << steps.t_star << " / " << steps.max_error << " / " << steps.rms << " | " << run.stats.steps << " | "
         << run.stats.rejected << " | " << run.repartitions << " | " << run.newton_iterations_per_recovery << " | "
         << joint.max_error << " / " << joint.rms << " | " << paper.substr(bar + 2, bar2 - bar - 3) << " / "
         << paper.substr(bar3 + 2) << " |\n";
    }
    md << '\n';
  }

  md << "## Reading\n\n"
     << "* The largest theta1 error is of order 10^k at every k, as in the paper (5.2e-2, 4.2e-3, 4.9e-4, 1.9e-5 there):\n"
     << "  the embedded error estimate and the step control of seed 000 eqs. 13-16 deliver the accuracy asked for.\n"
     << "* theta1-dot errors are of order 10^(k+1), as the seed notes record for the paper's Table 2 reading; the\n"
     << "  velocity varies between -9.7 and 6.4 rad/s, so the relative tolerance lets it err more in absolute terms.\n"
     << "* RelErr is not comparable: the paper's 5.223e-2 at 0.12126 % implies |theta1(t*)| = 43 rad, an angle\n"
     << "  measured with another offset or accumulated otherwise than the joint angle here (|theta1| stays below\n"
     << "  about 2 pi); t* also differs, since where the error peaks depends on the error's phase. The maximum and RMS\n"
     << "  errors are the comparable columns.\n"
     << "* Step counts grow like tol^(-1/4), as an order-3 error estimate implies.\n"
     << "* In the seed's coordinates, measured as the seed measured (at the run's step ends), theta1's largest\n"
     << "  error is of order 10^k and theta1-dot's of order 10^(k+1), each within about 3x of the paper's at every\n"
     << "  k (k = -5: 1.6e-5 and 1.7e-4 against the paper's 1.9e-5 and 2.3e-4), closer than the joint-coordinate\n"
     << "  run's theta1-dot on the grid, with 1.4x the joint-coordinate run's steps.\n"
     << "* theta1-dot is not among the controlled variables here: the control acts on the independent coordinates\n"
     << "  and their velocities (up to 15 m/s, so Rtol admits more there), and theta1-dot follows from them\n"
     << "  through the velocity constraints. On the 1 ms grid it also carries RN4's cubic Hermite interpolation of\n"
     << "  v' between step ends, whose end slopes are the stiff mode's accelerations (the RSDA 2 mode, eigenvalue\n"
     << "  about -1e5): the grid errors exceed the step-end errors by 10-80x. In joint coordinates the stiff mode\n"
     << "  is the relative angle alone and theta1-dot barely sees it.\n"
     << "* What still differs from the paper, and why: the paper's independent coordinates and its partition\n"
     << "  history are not printed (Gauss-Jordan picks among equal pivots by the order of the columns, so an\n"
     << "  implementation with another coordinate order starts from other coordinates); its step-size controller\n"
     << "  details beyond eqs. 13-16 (initial step, limits on growth) and its reference's spline interpolation are\n"
     << "  not reproduced; its RelErr column is not consistent with |theta1| < 2 pi (above). These change where the\n"
     << "  errors peak and their averages, not their order: theta1's maxima of order 10^k hold in both codes and in\n"
     << "  both coordinate sets.\n";
  std::ofstream(out_path) << md.str();
  std::cout << md.str();
  return 0;
}
