// Seed 003 sec. 4 (Figs. 2-7): the linear analysis of the implicit integrators on x'' + omega^2 x = 0, from the
// steppers themselves (analysis/implicit_linear_analysis.hpp): spectral radius rho, amplitude decay AD(%) =
// 100 xi_bar and period elongation PE(%) = 100 (omega / omega_bar - 1) against dt / (n T), n = 1 for the multistep
// methods and s - 1 implicit stages for an s-stage ESDIRK (the seed's abscissa: equal work per unit time). The
// single-step methods are spectrally equivalent to the multistep ones (tests: ImplicitIntegrate.
// SingleStepMethodsFollowTheirMultistepRecursion) and, as in the seed, are not repeated. rho at infinity: the
// limit from the coefficients (roots of sum beta_j zeta^(r-j) for LMS, R(-inf) for the ESDIRKs) beside the
// stepper's rho at omega dt = 1e5.
// Usage: implicit_linear_analysis [OUT.md]   (default bench/results/implicit_linear_analysis.md)
#include <Eigen/Dense>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "analysis/implicit_linear_analysis.hpp"
#include "bench_support.hpp"
#include "integrators/implicit_coefficients.hpp"

using namespace myriad;

namespace {

// The exact limit of the spectral radius as omega dt -> infinity, from the coefficients.
double limit_radius(const ImplicitScheme& s) {
  if (s.family == ImplicitFamily::esdirk) {
    const int n = s.stages;
    Eigen::MatrixXd A(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) A(i, j) = s.a[i][j];
    // R(z) -> last component of (I - z A)^-1 e; the limit is that of -A^-1 e's scaling: solve at z = -1e12.
    const Eigen::VectorXd Y = (Eigen::MatrixXd::Identity(n, n) + 1e12 * A).partialPivLu().solve(Eigen::VectorXd::Ones(n));
    return std::fabs(Y[n - 1]);
  }
  // sum_j beta_j zeta^(r-j) = beta_0 (zeta + rho)^r (the coefficient test checks it): beta_r / beta_0 = rho^r.
  return std::pow(std::fabs(s.beta[s.steps] / s.beta[0]), 1.0 / s.steps);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out_path = argc > 1 ? argv[1] : bench::source_path("bench/results/implicit_linear_analysis.md");
  struct Entry {
    ImplicitMethod method;
    double rho;
  };
  std::vector<Entry> entries;
  for (double rho : {0.0, 0.6})
    for (ImplicitMethod m : {ImplicitMethod::lms2, ImplicitMethod::lms3, ImplicitMethod::lms4, ImplicitMethod::bathe,
                             ImplicitMethod::msstc3, ImplicitMethod::msstc4, ImplicitMethod::msstc5})
      entries.push_back({m, rho});
  for (ImplicitMethod m : {ImplicitMethod::mssth3, ImplicitMethod::mssth4, ImplicitMethod::mssth5, ImplicitMethod::esdirk3_4l,
                           ImplicitMethod::esdirk3_5l, ImplicitMethod::esdirk4_6l, ImplicitMethod::backward_euler})
    entries.push_back({m, 0.0});
  const std::vector<double> ratios = {0.01, 0.02, 0.05, 0.1, 0.2};      // dt / (n T)
  const std::vector<double> radius_ratios = {0.1, 0.3, 1.0, 3.0, 10.0, 100.0};

  std::ostringstream md;
  md << std::setprecision(3);
  md << "# Linear analysis of the seed 003 integrators\n\n"
     << "Regenerate: `build/bench/implicit_linear_analysis` (writes this file; about a second). Machine: "
     << bench::machine_description() << ".\n\n"
     << "Seed 003 sec. 4 (its Figs. 2-7) on x'' + omega^2 x = 0: the amplification matrix of one step is taken from\n"
     << "the stepper (`analysis/implicit_linear_analysis.hpp`, one `implicit_step` per state component), rho is its\n"
     << "spectral radius, and the principal root exp(omega_bar dt (-xi + i sqrt(1 - xi^2))) (eq. 22) gives AD(%) =\n"
     << "100 xi_bar (the amplitude decay ratio) and PE(%) = 100 (omega / omega_bar - 1). The abscissa is dt / (n T),\n"
     << "n = 1 for the multistep methods and the s - 1 implicit stages of an s-stage ESDIRK. SS2/3/4 are spectrally\n"
     << "equivalent to LMS2/3/4 and are left out, as in the seed. rho(inf) is the limit from the coefficients; the\n"
     << "stepper's rho at omega dt = 1e5 sits beside it (the LMS roots at infinity are r-fold, so the stepper\n"
     << "approaches the limit only like (omega dt)^(-1/r)). A dash: omega dt >= pi, where the principal root\n"
     << "cannot be told from its alias.\n\n";
  md << "## Amplitude decay AD(%) and period elongation PE(%)\n\n| method | rho_inf |";
  for (double r : ratios) md << " AD " << r << " |";
  for (double r : ratios) md << " PE " << r << " |";
  md << "\n|---|---|";
  for (size_t i = 0; i < 2 * ratios.size(); ++i) md << "---|";
  md << "\n";
  for (const Entry& e : entries) {
    const ImplicitScheme s = implicit_scheme(e.method, e.rho);
    const int n = s.family == ImplicitFamily::esdirk ? s.stages - 1 : 1;
    md << "| " << implicit_method_name(e.method) << " | " << e.rho << " |";
    std::ostringstream pe;
    for (double r : ratios) {
      if (n * r >= 0.5) {  // omega dt >= pi: the principal root is no longer identifiable (aliasing)
        md << " - |";
        pe << " - |";
        continue;
      }
      const ImplicitLinearAnalysis a = implicit_linear_analysis(s, 2.0 * M_PI * n * r);
      md << " " << 100.0 * a.damping_ratio << " |";
      pe << " " << 100.0 * a.period_elongation << " |";
    }
    md << pe.str() << "\n";
  }
  md << "\n## Spectral radius rho\n\n| method | rho_inf |";
  for (double r : radius_ratios) md << " " << r << " |";
  md << " stepper at omega dt = 1e5 | rho(inf) from the coefficients |\n|---|---|";
  for (size_t i = 0; i < radius_ratios.size() + 2; ++i) md << "---|";
  md << "\n";
  for (const Entry& e : entries) {
    const ImplicitScheme s = implicit_scheme(e.method, e.rho);
    const int n = s.family == ImplicitFamily::esdirk ? s.stages - 1 : 1;
    md << "| " << implicit_method_name(e.method) << " | " << e.rho << " |";
    for (double r : radius_ratios) md << " " << implicit_linear_analysis(s, 2.0 * M_PI * n * r).spectral_radius << " |";
    md << " " << std::setprecision(6) << implicit_linear_analysis(s, 1e5).spectral_radius << " | " << limit_radius(s)
       << " |\n"
       << std::setprecision(3);
  }
  std::ofstream(out_path) << md.str();
  std::cout << md.str();
  return 0;
}
