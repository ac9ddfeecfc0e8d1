#include "analysis/linearization.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "dynamics/tree_second_order.hpp"
#include "loops/loop_ode.hpp"

namespace myriad {
namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

double max_abs(const std::vector<double>& a) {
  double m = 0.0;
  for (double x : a) m = std::max(m, std::abs(x));
  return m;
}

// Newton on f(t, x, 0) = 0 with the exact J1, then J1 and J2 at the result, for either second-order view
// (TreeSecondOrder, LoopSecondOrder). `scale` turns the relative tolerance into acceleration units.
template <class System>
void solve_and_linearize(System& system, double t, std::vector<double>& x, const std::vector<double>& w0,
                         const EquilibriumOptions& options, double scale, Linearization& out) {
  const int n = out.n;
  const std::size_t nn = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<double> w = options.solve ? std::vector<double>(static_cast<std::size_t>(n), 0.0) : w0;
  std::vector<double> f(static_cast<std::size_t>(n)), J1(nn), J2(nn), f_t(static_cast<std::size_t>(n));
  std::vector<double> trial(static_cast<std::size_t>(n)), f_trial(static_cast<std::size_t>(n));
  const auto evaluate_jacobians = [&]() {
    if (!system.jacobians(t, x.data(), w.data(), f.data(), J1.data(), J2.data(), f_t.data()))
      throw std::runtime_error("the dynamics failed at the state reached (a singular joint inertia, loops that do "
                               "not close, or a non-finite value)");
  };
  evaluate_jacobians();
  const double tolerance = options.tolerance * scale;
  int iterations = 0;
  while (options.solve && max_abs(f) > tolerance) {
    if (iterations == options.max_iterations) {
      std::ostringstream message;
      message << "no static equilibrium found: max |x''| = " << max_abs(f) << " after " << iterations
              << " Newton iterations (tolerance " << tolerance << ")";
      throw std::runtime_error(message.str());
    }
    // The minimum-norm least-squares step: where the equilibria form a continuum (a pendulum chain free to turn
    // about the vertical) J1 is singular at the solution, and this step still converges to one of them.
    const Eigen::Map<const RowMatrix> A(J1.data(), n, n);
    const Eigen::CompleteOrthogonalDecomposition<RowMatrix> cod(A);
    const Eigen::VectorXd step = cod.solve(Eigen::Map<const Eigen::VectorXd>(f.data(), n));
    // Backtracking: far from the equilibrium (a large initial sag) a full step may overshoot.
    double lambda = 1.0;
    const double before = max_abs(f);
    bool improved = false;
    for (int halving = 0; halving < 30 && !improved && step.allFinite(); ++halving, lambda *= 0.5) {
      for (int i = 0; i < n; ++i) trial[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(i)] - lambda * step[i];
      improved = system.acceleration(t, trial.data(), w.data(), f_trial.data()) && max_abs(f_trial) < before;
    }
    // A model with light bodies (a template's kingpin, 0.1 kg) under large spring forces has a roundoff floor of
    // |x''| above the tolerance (1.6e-9 m/s^2 on models/full_car.json); once Newton's full step is below 1e-10 of
    // the coordinates' scale the equilibrium is located as well as the coordinates can hold it.
    if (!improved && cod.rank() == n && step.allFinite() &&
        step.cwiseAbs().maxCoeff() <= 1e-10 * std::max(1.0, max_abs(x)))
      break;
    if (!improved) {
      std::ostringstream message;
      if (cod.rank() < n)
        message << "no static equilibrium: df/dx is singular (rank " << cod.rank() << " of " << n
                << ") and max |x''| = " << before
                << " cannot be reduced, so some coordinate has no restoring force against a load (a free body "
                   "under gravity, a mechanism without springs); linearize at the initial state instead "
                   "(--at-initial-state)";
      else
        message << "no static equilibrium found: Newton cannot reduce max |x''| = " << before << " further";
      throw std::runtime_error(message.str());
    }
    x = trial;
    ++iterations;
    evaluate_jacobians();
  }
  out.iterations = iterations;
  out.f = f;
  out.residual = max_abs(f);
  out.J1 = J1;
  out.J2 = J2;
}

}  // namespace

Linearization linearize(const CompiledModel& model, const double* k, double t, const double* q0, const double* v0,
                        const EquilibriumOptions& options) {
  if (options.max_iterations < 0) throw std::invalid_argument("linearize: max_iterations must be >= 0");
  Linearization out;
  out.t = t;
  const double* g = k + model.gravity;
  const double scale = std::max(1.0, std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]));
  const std::size_t nq = static_cast<std::size_t>(model.nq), nv = static_cast<std::size_t>(model.nv);
  out.q.assign(nq, 0.0);
  out.v.assign(nv, 0.0);
  if (model.constraints.m > 0) {
    const int n = model.constraints.n_independent;
    if (n == 0) throw std::runtime_error("the model has no degrees of freedom (every coordinate is driven)");
    out.n = n;
    std::size_t bytes = 0;
    carve_loop_scratch<double>(model, nullptr, &bytes);
    std::vector<unsigned char> plain(bytes);
    carve_loop_scratch<JacobianDual>(model, nullptr, &bytes);
    std::vector<unsigned char> dual(bytes);
    LoopOde<const double*> ode{&model, k, carve_loop_scratch<double>(model, plain.data(), nullptr),
                               LoopFailure::none, 0.0, 0};
    std::vector<double> y(2 * static_cast<std::size_t>(n));
    if (!ode.initialize(t, q0, v0, y.data()))
      throw std::runtime_error("the initial state cannot be assembled onto the loop constraints");
    // The linearization is of the exact equations: extrapolated rod inertia (a history of accepted states) has
    // no meaning at one state, so the history stays empty and the rods exact.
    if (ode.s.rods.header) rod_history_reset(ode.s.rods);
    LoopSecondOrder<const double*> system{&ode, carve_loop_scratch<JacobianDual>(model, dual.data(), nullptr), false,
                                          0.0};
    std::vector<double> x(y.begin(), y.begin() + n), w(y.begin() + n, y.end());
    solve_and_linearize(system, t, x, w, options, scale, out);
    const std::vector<double> w_end = options.solve ? std::vector<double>(static_cast<std::size_t>(n), 0.0) : w;
    if (!ode.expand(t, x.data(), w_end.data()))
      throw std::runtime_error("the equilibrium cannot be assembled onto the loop constraints");
    for (std::size_t i = 0; i < nq; ++i) out.q[i] = ode.s.q[i];
    for (std::size_t i = 0; i < nv; ++i) out.v[i] = ode.s.v[i];
    for (int i = 0; i < n; ++i) out.coordinate.push_back(ode.independent()[i]);
    return out;
  }
  const int n = model.nv;
  if (n == 0) throw std::runtime_error("the model has no degrees of freedom");
  out.n = n;
  std::vector<double> base_q(nq), x(nv), w(nv);
  std::vector<unsigned char> buffer(tree_second_order_bytes(model));
  TreeSecondOrder<const double*> system = make_tree_second_order(model, k, base_q.data(), buffer.data());
  std::vector<double> y(2 * nv);
  chart_from_q(model, q0, base_q.data(), y.data());
  for (std::size_t i = 0; i < nv; ++i) y[nv + i] = v0[i];
  system.from_first_order(y.data(), x.data(), w.data());
  solve_and_linearize(system, t, x, w, options, scale, out);
  if (options.solve) std::fill(w.begin(), w.end(), 0.0);
  system.to_first_order(x.data(), w.data(), y.data());
  chart_to_q(model, base_q.data(), x.data(), out.q.data());
  for (std::size_t i = 0; i < nv; ++i) out.v[i] = y[nv + i];
  for (int i = 0; i < n; ++i) out.coordinate.push_back(i);
  return out;
}

}  // namespace myriad
