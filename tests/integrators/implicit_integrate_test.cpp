// The seed 003 integrators on problems with known answers (integrators/implicit_integrate.hpp): every method's
// order of convergence on a smooth nonlinear problem, LMS2 at rho_inf = 0 against a hand-written BDF2, the single-
// step methods' y-sequences against their LMS recursions (the equivalence of seed 003 sec. 2.2), the steppers'
// amplification against the coefficients' characteristic polynomials and limits (sec. 4), and backward Euler's
// first order on the index-3 pendulum with its constraint held exactly (seed 002 eqs. 32-38).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "analysis/implicit_linear_analysis.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "integrators/implicit_integrate.hpp"
#include "ode/implicit_test_problems.hpp"
#include "support/second_order_reference.hpp"
#include "support/implicit_schemes.hpp"

namespace myriad {
namespace {

using test::every_implicit_scheme;
using test::implicit_label;

// Keeps every point of an integration.
struct ImplicitRecorder {
  std::vector<double> t;
  std::vector<std::vector<double>> y, ydot, z;
  int n = 0, m = 0;
  void operator()(long long, double time, const double* yk, const double* ydotk, const double* zk) {
    t.push_back(time);
    y.emplace_back(yk, yk + n);
    ydot.emplace_back(ydotk, ydotk + n);
    z.emplace_back(zk, zk + m);
  }
};

template <class System>
ImplicitRecorder run_implicit(System& system, const ImplicitScheme& scheme, double dt, long long steps,
                              const std::vector<double>& y0, const ImplicitOptions& options = ImplicitOptions()) {
  const int n = system.differential_dimension(), m = system.algebraic_dimension();
  std::vector<double> work(static_cast<size_t>(implicit_workspace_size(n, m)));
  ImplicitRecorder recorder;
  recorder.n = n, recorder.m = m;
  ImplicitStats stats;
  const InstanceStatus status = integrate_implicit(system, scheme, 0.0, dt, steps, y0.data(), work.data(), options,
                                                   stats, recorder);
  EXPECT_EQ(status, InstanceStatus::ok) << implicit_label(scheme) << " dt " << dt;
  return recorder;
}

void pendulum_reference(double& theta, double& omega) { pendulum_angle_reference(PendulumAngleDae(), 1.0, theta, omega); }

TEST(ImplicitIntegrate, EveryMethodConvergesWithItsNominalOrderOnTheNonlinearPendulum) {
  double theta_ref, omega_ref;
  pendulum_reference(theta_ref, omega_ref);
  ImplicitOptions tight;
  tight.newton_rtol = tight.newton_atol = 1e-13;
  for (const ImplicitScheme& s : every_implicit_scheme()) {
    // Step counts that keep the errors between about 1e-3 and 1e-12, in the asymptotic range: MSSTH(4) at
    // rho_inf = 1 (which the seed advises against: it dissipates at intermediate frequencies) shows local slopes
    // 4.9, 4.6, 4.3, 4.1 from 10 steps on, so the higher-order methods at rho_inf = 1 start at 40.
    const std::vector<long long> counts = s.order <= 2   ? std::vector<long long>{20, 40, 80, 160}
                                          : s.rho_inf < 1.0 ? std::vector<long long>{10, 20, 40, 80}
                                                            : std::vector<long long>{40, 80, 160, 320};
    std::vector<double> dts, errors;
    for (long long steps : counts) {
      PendulumAngleDae system;
      const ImplicitRecorder run = run_implicit(system, s, 1.0 / steps, steps, {1.0, 0.0}, tight);
      ASSERT_EQ(run.y.size(), static_cast<size_t>(steps + 1));
      // The error in the pendulum's phase plane (theta, omega / sqrt(g/L)): one component alone can pass near zero.
      const double scale = std::sqrt(system.gravity / system.length);
      dts.push_back(1.0 / steps);
      errors.push_back(std::hypot(run.y.back()[0] - theta_ref, (run.y.back()[1] - omega_ref) / scale));
    }
    EXPECT_NEAR(testing::fitted_order(dts, errors), s.order, 0.2) << implicit_label(s) << " errors " << errors[0] << " .. "
                                                         << errors.back();
  }
}

TEST(ImplicitIntegrate, Lms2AtRhoZeroIsBdf2StepForStep) {
  // BDF2 by hand: y_k = 4/3 y_k-1 - 1/3 y_k-2 + 2/3 h f(y_k), after one trapezoidal step (seed 003 eq. 3), Newton
  // on the 2 x 2 system to convergence.
  const PendulumAngleDae p;
  const double h = 0.01, k = p.gravity / p.length;
  const int steps = 100;
  std::vector<double> theta(steps + 1), omega(steps + 1);
  theta[0] = 1.0, omega[0] = 0.0;
  for (int n = 1; n <= steps; ++n) {
    const bool trapezoidal = n == 1;
    const double c = trapezoidal ? 0.5 * h : 2.0 / 3.0 * h;
    const double psi_t = trapezoidal ? theta[0] + 0.5 * h * omega[0] : 4.0 / 3.0 * theta[n - 1] - theta[n - 2] / 3.0;
    const double psi_w = trapezoidal ? omega[0] - 0.5 * h * k * std::sin(theta[0])
                                     : 4.0 / 3.0 * omega[n - 1] - omega[n - 2] / 3.0;
    double t = theta[n - 1], w = omega[n - 1];
    for (int it = 0; it < 50; ++it) {  // F = (t - psi_t - c w, w - psi_w + c k sin t) = 0
      const double F1 = t - psi_t - c * w, F2 = w - psi_w + c * k * std::sin(t);
      const double J11 = 1.0, J12 = -c, J21 = c * k * std::cos(t), J22 = 1.0;
      const double det = J11 * J22 - J12 * J21;
      t -= (F1 * J22 - F2 * J12) / det;
      w -= (J11 * F2 - J21 * F1) / det;
    }
    theta[n] = t, omega[n] = w;
  }
  PendulumAngleDae system;
  ImplicitOptions tight;
  tight.newton_rtol = tight.newton_atol = 1e-14;
  const ImplicitRecorder run = run_implicit(system, implicit_scheme(ImplicitMethod::lms2, 0.0), h, steps, {1.0, 0.0}, tight);
  double worst = 0.0;
  for (int n = 0; n <= steps; ++n)
    worst = std::fmax(worst, std::fmax(std::fabs(run.y[n][0] - theta[n]), std::fabs(run.y[n][1] - omega[n])));
  EXPECT_LT(worst, 1e-12);
}

TEST(ImplicitIntegrate, SingleStepMethodsFollowTheirMultistepRecursion) {
  // Eliminating the auxiliary derivatives from eqs. 4a-4e leaves LMS(r)'s eq. 2 between the points: check it on
  // a nonlinear problem, point by point, once r points of history exist.
  for (const ImplicitScheme& s : every_implicit_scheme()) {
    if (s.family != ImplicitFamily::single_step) continue;
    const ImplicitMethod lms = s.steps == 2 ? ImplicitMethod::lms2 : s.steps == 3 ? ImplicitMethod::lms3 : ImplicitMethod::lms4;
    const ImplicitScheme multistep = implicit_scheme(lms, s.rho_inf);
    PendulumAngleDae system;
    ImplicitOptions tight;
    tight.newton_rtol = tight.newton_atol = 1e-14;
    const double h = 0.02;
    const ImplicitRecorder run = run_implicit(system, s, h, 60, {1.0, 0.0}, tight);
    double worst = 0.0;
    for (size_t k = 2 * s.steps; k < run.y.size(); ++k)
      for (int i = 0; i < 2; ++i) {
        double defect = run.y[k][i];
        for (int j = 1; j <= multistep.steps; ++j) defect -= multistep.alpha[j] * run.y[k - j][i];
        for (int j = 0; j <= multistep.steps; ++j) defect -= h * multistep.beta[j] * run.ydot[k - j][i];
        worst = std::fmax(worst, std::fabs(defect));
      }
    EXPECT_LT(worst, 1e-12) << implicit_label(s);
  }
}

TEST(ImplicitIntegrate, MultistepAmplificationHasTheCharacteristicRootsOfItsCoefficients) {
  // Seed 003 sec. 4: on x'' + omega^2 x = 0 every eigenvalue zeta of one step's amplification matrix is a root of
  // zeta^r - sum alpha_j zeta^(r-j) - z sum beta_j zeta^(r-j) for z = +-i omega dt.
  for (const ImplicitScheme& s : every_implicit_scheme()) {
    if (s.family != ImplicitFamily::multistep) continue;
    for (double omega_dt : {0.3, 2.0, 30.0}) {
      const Eigen::MatrixXd G = implicit_amplification_matrix(s, omega_dt);
      const Eigen::VectorXcd roots = G.eigenvalues();
      for (int i = 0; i < roots.size(); ++i) {
        double smallest = 1e300;
        for (double sign : {1.0, -1.0}) {
          const std::complex<double> z(0.0, sign * omega_dt), zeta = roots[i];
          std::complex<double> p = std::pow(zeta, s.steps) - z * s.beta[0] * std::pow(zeta, s.steps);
          for (int j = 1; j <= s.steps; ++j) p -= (s.alpha[j] + z * s.beta[j]) * std::pow(zeta, s.steps - j);
          smallest = std::fmin(smallest, std::abs(p) / (1.0 + std::abs(z)));
        }
        EXPECT_LT(smallest, 1e-8) << implicit_label(s) << " omega dt " << omega_dt << " root " << roots[i];
      }
    }
  }
}

TEST(ImplicitIntegrate, EsdirkSpectralRadiusApproachesRhoInf) {
  // The stepper's own amplification at omega dt = 1e5 (within O(1/(omega dt)) of the limit; the coefficient test
  // checks the limit itself).
  for (const ImplicitScheme& s : every_implicit_scheme()) {
    if (s.family != ImplicitFamily::esdirk) continue;
    EXPECT_NEAR(implicit_linear_analysis(s, 1e5).spectral_radius, s.rho_inf, 1e-3) << implicit_label(s);
    // and every method is stable (rho <= 1) across the range, A-stability on the imaginary axis
    for (double omega_dt : {0.01, 0.1, 1.0, 10.0, 100.0, 1000.0})
      EXPECT_LE(implicit_linear_analysis(s, omega_dt).spectral_radius, 1.0 + 1e-9) << implicit_label(s) << omega_dt;
  }
}

TEST(ImplicitIntegrate, BackwardEulerIsFirstOrderOnTheIndexThreePendulumAndHoldsItsConstraint) {
  // Reference: the angle ODE (theta from the downward vertical: x = L sin theta, y = -L cos theta) by RK4.
  double theta_ref, omega_ref;
  pendulum_reference(theta_ref, omega_ref);
  const ImplicitScheme euler = implicit_scheme(ImplicitMethod::backward_euler, 0.0);
  std::vector<double> dts, position_errors, velocity_errors;
  for (long long steps : {400, 800, 1600, 3200}) {
    PendulumCartesianDae system;
    const double L = system.length;
    const ImplicitRecorder run =
        run_implicit(system, euler, 1.0 / steps, steps, {L * std::sin(1.0), -L * std::cos(1.0), 0.0, 0.0});
    double drift = 0.0;
    for (const auto& y : run.y) drift = std::fmax(drift, std::fabs(0.5 * (y[0] * y[0] + y[1] * y[1] - L * L)));
    EXPECT_LT(drift, 1e-12) << steps;  // index 3: the position constraint is an equation of every point
    const std::vector<double>& y = run.y.back();
    dts.push_back(1.0 / steps);
    position_errors.push_back(std::hypot(y[0] - L * std::sin(theta_ref), y[1] + L * std::cos(theta_ref)));
    velocity_errors.push_back(std::hypot(y[2] - L * std::cos(theta_ref) * omega_ref, y[3] - L * std::sin(theta_ref) * omega_ref));
  }
  EXPECT_NEAR(testing::fitted_order(dts, position_errors), 1.0, 0.1);
  EXPECT_NEAR(testing::fitted_order(dts, velocity_errors), 1.0, 0.1);
}

}  // namespace
}  // namespace myriad
