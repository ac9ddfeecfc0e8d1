// Seed 003 sec. 5.1 (Figs. 9-12): Andrews' squeezing mechanism (ode/andrews_squeezer.hpp) over [0, 0.05] s by every
// seed 003 integrator at dt / n = 1e-4 and 1e-5 s (n = implicit points per step: 1, or s - 1 for an s-stage
// ESDIRK), the second-order methods at rho_inf = 0 and 0.6, the higher-order ones at 0, as the seed runs them. The
// energy balance of eq. 23, Delta E = E - E0 - T (beta - beta0), which the exact solution keeps at 0, is sampled
// every 1e-4 s; the table gives it at 0.01 .. 0.05 s with its extremes, beta and omega = beta' at 0.03 s against
// the test set's reference, the Newton iterations per implicit point (seed Fig. 28) and the wall time. An ESDIRK's
// step is n (dt / n) long and need not end on 0.01 s: the table interpolates linearly between the two step ends
// around each mark, and a run whose step does not divide 0.05 s ends at the first step end past it.
// Usage: andrews_energy [OUT.md] (default bench/results/andrews_energy.md; the Delta E series go to
// bench/results/andrews_energy_1e-4.csv and _1e-5.csv beside it, for bench/andrews_energy_plot.py).
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

#include "bench_support.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "integrators/implicit_integrate.hpp"
#include "ode/andrews_squeezer.hpp"

using namespace myriad;

namespace {

constexpr double kBetaReference = 0.1581077119629904e+02;   // test set, t = 0.03 s (PSIDE, 1e-14)
constexpr double kOmegaReference = 0.1139920302151208e+04;  // its beta' there

struct Configuration {
  ImplicitMethod method;
  double rho;
};

struct Run {
  std::string label;
  std::vector<double> times, delta_E;  // the first step end at or past each multiple of 1e-4 s (for the figures)
  double at_marks[5] = {};             // Delta E at 0.01 .. 0.05 s, linear between the two step ends around it
  double lowest = 0, highest = 0;      // over every step end
  double beta_03 = 0, omega_03 = 0, iterations_per_point = 0, seconds = 0;
  InstanceStatus status = InstanceStatus::ok;
};

Run run(const Configuration& c, double dt_per_point) {
  const ImplicitScheme s = implicit_scheme(c.method, c.rho);
  const int points = s.family == ImplicitFamily::esdirk ? s.stages - 1 : 1;
  const double dt = dt_per_point * points;
  const long long steps = std::llround(0.05 / dt);
  Run r;
  std::ostringstream label;
  label << implicit_method_name(c.method);
  if (implicit_method_tunable(c.method)) label << " (" << c.rho << ")";
  r.label = label.str();
  AndrewsSqueezerDae system;
  std::vector<double> y0(14, 0.0);
  for (int i = 0; i < 7; ++i) y0[i] = andrews::q0[i];
  const double zero[7] = {};
  const double E0 = andrews::energy(andrews::q0, zero);
  double previous_t = 0.0, previous_dE = 0.0, previous_beta = y0[0], previous_omega = 0.0;
  long long next_sample = 0;  // index of the next 1e-4 mark
  auto observer = [&](long long, double t, const double* y, const double*, const double*) {
    const double dE = andrews::energy(y, y + 7) - E0 - andrews::drive_torque * (y[0] - andrews::q0[0]);
    r.lowest = std::fmin(r.lowest, dE), r.highest = std::fmax(r.highest, dE);
    if (t >= next_sample * 1e-4 - 1e-12) {
      r.times.push_back(t);
      r.delta_E.push_back(dE);
      while (next_sample * 1e-4 <= t + 1e-12) ++next_sample;
    }
    for (int k = 0; k < 5; ++k) {  // marks crossed by this step: interpolate between its ends
      const double mark = 0.01 * (k + 1);
      if (previous_t < mark - 1e-12 && t >= mark - 1e-12) {
        const double w = (mark - previous_t) / (t - previous_t);
        r.at_marks[k] = (1.0 - w) * previous_dE + w * dE;
        if (k == 2) r.beta_03 = (1.0 - w) * previous_beta + w * y[0], r.omega_03 = (1.0 - w) * previous_omega + w * y[7];
      }
    }
    previous_t = t, previous_dE = dE, previous_beta = y[0], previous_omega = y[7];
  };
  std::vector<double> work(static_cast<size_t>(implicit_workspace_size(14, 6)));
  ImplicitStats stats;
  const auto start = std::chrono::steady_clock::now();
  r.status = integrate_implicit(system, s, 0.0, dt, steps, y0.data(), work.data(), ImplicitOptions(), stats, observer);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.iterations_per_point = stats.points > 0 ? static_cast<double>(stats.newton_iterations) / stats.points : 0.0;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out_path = argc > 1 ? argv[1] : bench::source_path("bench/results/andrews_energy.md");
  const std::string stem = out_path.substr(0, out_path.size() - 3);
  std::vector<Configuration> configurations;
  for (double rho : {0.0, 0.6})
    for (ImplicitMethod m : {ImplicitMethod::lms2, ImplicitMethod::lms3, ImplicitMethod::lms4, ImplicitMethod::ss2,
                             ImplicitMethod::ss3, ImplicitMethod::ss4, ImplicitMethod::bathe, ImplicitMethod::msstc3,
                             ImplicitMethod::msstc4, ImplicitMethod::msstc5})
      configurations.push_back({m, rho});
  for (ImplicitMethod m : {ImplicitMethod::mssth3, ImplicitMethod::mssth4, ImplicitMethod::mssth5, ImplicitMethod::esdirk3_4l,
                           ImplicitMethod::esdirk3_5l, ImplicitMethod::esdirk4_6l})
    configurations.push_back({m, 0.0});

  std::ostringstream md;
  md << "# Andrews' squeezing mechanism: energy balance of the seed 003 integrators\n\n"
     << "Regenerate: `build/bench/andrews_energy` (writes this file and the two CSV files beside it; about a minute),\n"
     << "then `build/venv/bin/python bench/andrews_energy_plot.py` for the figures in docs/validation. Machine: "
     << bench::machine_description() << ".\n\n"
     << "Seed 003 sec. 5.1: the index-3 DAE of `ode/andrews_squeezer.hpp` (the test set's parameters and consistent\n"
     << "start, beta0 = -0.0617138900142764) over [0, 0.05] s. Delta E = E - E0 - T (beta - beta0) (eq. 23) in J;\n"
     << "E0 = 1.4358 J and E grows to 2.554 J by 0.05 s. beta and omega errors at 0.03 s are against the test set's\n"
     << "reference (beta = 15.81077119629904 rad, omega = 1139.920302151208 rad/s). Newton: full, exact Jacobians,\n"
     << "rtol = atol = 1e-10 (`integrators/implicit_newton.hpp`). it/pt = Newton iterations per implicit point.\n"
     << "Delta E at 0.01 .. 0.05 s and beta, omega at 0.03 s: linear between the step ends around each time (an\n"
     << "s-stage ESDIRK's step is (s - 1) dt/n long); min and max over every step end. The CSV files keep the first\n"
     << "step end at or past every 1e-4 s.\n";
  for (double dt_per_point : {1e-4, 1e-5}) {
    std::vector<Run> runs;
    for (const Configuration& c : configurations) runs.push_back(run(c, dt_per_point));
    md << "\n## dt / n = " << dt_per_point << " s\n\n"
       << "| method (rho_inf) | dE 0.01 | dE 0.02 | dE 0.03 | dE 0.04 | dE 0.05 | min dE | max dE | beta err 0.03 | "
          "omega err 0.03 | it/pt | s |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    md << std::setprecision(2) << std::scientific;
    for (const Run& r : runs) {
      md << "| " << r.label;
      if (r.status != InstanceStatus::ok) {
        md << " | failed: " << instance_status_name(r.status) << " after " << r.times.back() << " s | | | | | | | | | | |\n";
        continue;
      }
      for (int k = 0; k < 5; ++k) md << " | " << r.at_marks[k];
      md << " | " << r.lowest << " | " << r.highest << " | " << r.beta_03 - kBetaReference << " | " << r.omega_03 - kOmegaReference
         << " | " << std::fixed << std::setprecision(2) << r.iterations_per_point << " | " << r.seconds
         << std::scientific << " |\n";
    }
    std::ostringstream name;
    name << stem << (dt_per_point > 5e-5 ? "_1e-4.csv" : "_1e-5.csv");
    std::ofstream csv(name.str());  // long format: one row per sample
    csv << "method,t,delta_E\n" << std::setprecision(6);
    for (const Run& r : runs)
      for (size_t k = 0; k < r.times.size(); ++k) csv << r.label << "," << r.times[k] << "," << r.delta_E[k] << "\n";
  }
  std::ofstream(out_path) << md.str();
  std::cout << md.str();
  return 0;
}
