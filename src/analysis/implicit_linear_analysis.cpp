#include "analysis/implicit_linear_analysis.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "integrators/implicit_coefficients.hpp"
#include "integrators/implicit_integrate.hpp"

namespace myriad {
namespace {

// The test equation as an implicit ODE: r = (x' - v, v' + Omega^2 x).
struct LinearOscillator {
  double omega = 1.0;
  int differential_dimension() const { return 2; }
  int algebraic_dimension() const { return 0; }
  bool residual(double, const double* y, const double* ydot, const double*, double* r) const {
    r[0] = ydot[0] - y[1];
    r[1] = ydot[1] + omega * omega * y[0];
    return true;
  }
  bool residual_jacobians(double t, const double* y, const double* ydot, const double* z, double* r, double* r_y,
                          double* r_ydot, double*) const {
    r_y[0] = 0.0, r_y[1] = -1.0, r_y[2] = omega * omega, r_y[3] = 0.0;
    r_ydot[0] = 1.0, r_ydot[1] = 0.0, r_ydot[2] = 0.0, r_ydot[3] = 1.0;
    return residual(t, y, ydot, z, r);
  }
  bool consistent_start(double, const double* y, double* ydot, double*) const {
    ydot[0] = y[1];
    ydot[1] = -omega * omega * y[0];
    return true;
  }
};

int state_size(const ImplicitScheme& scheme) {
  switch (scheme.family) {
    case ImplicitFamily::multistep: return 2 * scheme.steps;
    case ImplicitFamily::single_step: return 2 + 4 * (scheme.steps - 1);
    case ImplicitFamily::esdirk: return 2;
  }
  return 2;
}

}  // namespace

Eigen::MatrixXd implicit_amplification_matrix(const ImplicitScheme& scheme, double omega_dt) {
  LinearOscillator system{omega_dt};
  const int d = state_size(scheme);
  std::vector<double> work(static_cast<size_t>(implicit_workspace_size(2, 0)));
  const ImplicitWorkspace w = implicit_workspace(2, 0, work.data());
  ImplicitOptions options;
  // The problem is linear: Newton's first correction is exact up to rounding, and the matrix is as accurate as
  // y = psi + c dt y' can be formed: |psi| grows like (omega dt)^2, so y carries a rounding error of about
  // (omega dt)^2 eps (relative to the unit state; 2e-6 at omega dt = 1e5). The tolerance follows it.
  const double floor = 100.0 * 2.220446049250313e-16 * omega_dt * omega_dt;
  options.newton_rtol = options.newton_atol = std::fmax(1e-10, floor);
  Eigen::MatrixXd G(d, d);
  for (int column = 0; column < d; ++column) {
    Eigen::VectorXd state = Eigen::VectorXd::Zero(d);
    state[column] = 1.0;
    ImplicitHistory history;
    for (int s = 0; s < kImplicitPointSlots; ++s) history.order[s] = s;
    const int points = scheme.family == ImplicitFamily::multistep ? scheme.steps : 1;
    for (int j = 0; j < kImplicitPointSlots; ++j) {  // unused slots still feed the predictor: give them zeros
      w.t[j] = -static_cast<double>(j);
      const double x = j < points ? state[2 * j] : 0.0, v = j < points ? state[2 * j + 1] : 0.0;
      w.y[2 * j] = x, w.y[2 * j + 1] = v;
      w.ydot[2 * j] = v, w.ydot[2 * j + 1] = -omega_dt * omega_dt * x;
    }
    history.count = points < 2 ? 2 : points;
    for (int level = 0; level < kMaxSingleStepLevels; ++level)
      for (int i = 0; i < 2; ++i) {
        const bool used = scheme.family == ImplicitFamily::single_step && level < scheme.steps - 1;
        w.aux[(2 * level) * 2 + i] = used ? state[2 + 4 * level + i] : 0.0;
        w.aux[(2 * level + 1) * 2 + i] = used ? state[2 + 4 * level + 2 + i] : 0.0;
      }
    ImplicitStats stats;
    const InstanceStatus status = implicit_step(system, scheme, 1.0, w, history, options, stats);
    if (status != InstanceStatus::ok)
      throw std::runtime_error(std::string("implicit_amplification_matrix: ") + implicit_method_name(scheme.method) +
                               " failed at omega dt = " + std::to_string(omega_dt) + ": " +
                               instance_status_name(status));
    Eigen::VectorXd next = Eigen::VectorXd::Zero(d);
    for (int j = 0; j < points; ++j) {
      const int slot = history.order[j];
      next[2 * j] = w.y[2 * slot], next[2 * j + 1] = w.y[2 * slot + 1];
    }
    if (scheme.family == ImplicitFamily::single_step)
      for (int level = 0; level < scheme.steps - 1; ++level)
        for (int i = 0; i < 2; ++i) {
          next[2 + 4 * level + i] = w.aux[(2 * level) * 2 + i];
          next[2 + 4 * level + 2 + i] = w.aux[(2 * level + 1) * 2 + i];
        }
    G.col(column) = next;
  }
  return G;
}

ImplicitLinearAnalysis implicit_linear_analysis(const ImplicitScheme& scheme, double omega_dt) {
  ImplicitLinearAnalysis result;
  result.omega_dt = omega_dt;
  const Eigen::MatrixXd G = implicit_amplification_matrix(scheme, omega_dt);
  const Eigen::EigenSolver<Eigen::MatrixXd> solver(G, false);
  const std::complex<double> exact = std::polar(1.0, omega_dt);
  double nearest = 1e300;
  for (int i = 0; i < G.rows(); ++i) {
    const std::complex<double> lambda = solver.eigenvalues()[i];
    result.spectral_radius = std::fmax(result.spectral_radius, std::abs(lambda));
    if (lambda.imag() >= 0.0 && std::abs(lambda - exact) < nearest) {
      nearest = std::abs(lambda - exact);
      result.principal_root = lambda;
    }
  }
  const std::complex<double> log_root = std::log(result.principal_root);  // = omega_bar dt (-xi + i sqrt(1-xi^2))
  const double omega_bar_dt = std::abs(log_root);
  result.damping_ratio = omega_bar_dt > 0.0 ? -log_root.real() / omega_bar_dt : 0.0;
  result.period_elongation = omega_bar_dt > 0.0 ? omega_dt / omega_bar_dt - 1.0 : 0.0;
  return result;
}

}  // namespace myriad
