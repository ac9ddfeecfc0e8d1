#include "reference/reference_loop_ode.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include "constraints/constraint_equations.hpp"
#include "reference/difference_step.hpp"
#include "reference/reference_constrained.hpp"

namespace myriad::reference {

namespace {
constexpr double kNewtonTolerance = 1e-12;
constexpr int kNewtonIterations = 25;
}  // namespace

ReferenceLoopOde::ReferenceLoopOde(const Model& literal, const CompiledModel& compiled, const double* q_init,
                                   const double* v_init)
    : literal_(&literal),
      compiled_(&compiled),
      ndof_(compiled.constraints.n_independent),
      q_(Eigen::Map<const Eigen::VectorXd>(q_init, compiled.nv)),
      v_(Eigen::Map<const Eigen::VectorXd>(v_init, compiled.nv)),
      vdot_(Eigen::VectorXd::Zero(compiled.nv)) {
  std::vector<bool> is_independent(static_cast<size_t>(compiled.nv), false);
  for (int i = 0; i < ndof_; ++i) {
    independent_.push_back(compiled.constraints.independent[i]);
    is_independent[static_cast<size_t>(compiled.constraints.independent[i])] = true;
  }
  for (int j = 0; j < compiled.nv; ++j)
    if (!is_independent[static_cast<size_t>(j)]) dependent_.push_back(j);
}

bool ReferenceLoopOde::evaluate(double t, const double* x, const double* w) {
  projection_failed_ = false;
  const int m = static_cast<int>(dependent_.size());
  for (int i = 0; i < ndof_; ++i) {
    q_[independent_[static_cast<size_t>(i)]] = x[i];
    v_[independent_[static_cast<size_t>(i)]] = w[i];
  }
  try {
    Eigen::MatrixXd Gu(m, m), Gv(m, ndof_);
    constraints::ConstraintEvaluation e;
    for (int iteration = 0;; ++iteration) {
      e = constraints::evaluate_constraints(*literal_, t, q_, v_);
      for (int c = 0; c < m; ++c) Gu.col(c) = e.G.col(dependent_[static_cast<size_t>(c)]);
      const double residual = m > 0 ? e.phi.cwiseAbs().maxCoeff() : 0.0;
      if (residual <= kNewtonTolerance) break;
      if (iteration == kNewtonIterations || !std::isfinite(residual)) {
        projection_failed_ = true;
        return false;
      }
      const Eigen::VectorXd step = Gu.partialPivLu().solve(-e.phi);
      for (int c = 0; c < m; ++c) q_[dependent_[static_cast<size_t>(c)]] += step[c];
    }
    for (int c = 0; c < ndof_; ++c) Gv.col(c) = e.G.col(independent_[static_cast<size_t>(c)]);
    Eigen::VectorXd vv(ndof_);
    for (int c = 0; c < ndof_; ++c) vv[c] = w[c];
    const Eigen::VectorXd vu = Gu.partialPivLu().solve(-(e.phi_t + Gv * vv));
    for (int c = 0; c < m; ++c) v_[dependent_[static_cast<size_t>(c)]] = vu[c];
    const ConstrainedDynamics d = constrained_forward_dynamics(*literal_, t, q_, v_);
    if (d.status != ConstrainedDynamics::Status::ok) return false;
    vdot_ = d.vdot;
  } catch (const std::exception&) {
    return false;
  }
  return vdot_.allFinite() && v_.allFinite();
}

bool ReferenceLoopOde::initial_state(double t, double* y) {
  for (int i = 0; i < ndof_; ++i) {
    y[i] = q_[independent_[static_cast<size_t>(i)]];
    y[ndof_ + i] = v_[independent_[static_cast<size_t>(i)]];
  }
  return evaluate(t, y, y + ndof_);
}

bool ReferenceLoopOde::derivative(double t, const double* y, double* dydt) {
  if (!evaluate(t, y, y + ndof_)) return false;
  for (int i = 0; i < ndof_; ++i) {
    dydt[i] = y[ndof_ + i];
    dydt[ndof_ + i] = vdot_[independent_[static_cast<size_t>(i)]];
  }
  return true;
}

bool ReferenceLoopOde::acceleration(double t, const double* x, const double* w, double* f) {
  if (!evaluate(t, x, w)) return false;
  for (int i = 0; i < ndof_; ++i) f[i] = vdot_[independent_[static_cast<size_t>(i)]];
  return true;
}

bool ReferenceLoopOde::jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2,
                                 double* f_t) {
  const int n = ndof_;
  std::vector<double> xm(x, x + n), wm(w, w + n), fp(static_cast<size_t>(n)), fm(static_cast<size_t>(n));
  for (int part = 0; part < 2; ++part)
    for (int j = 0; j < n; ++j) {
      std::vector<double>& moved = part == 0 ? xm : wm;
      const double centre = moved[static_cast<size_t>(j)], h = central_difference_step(centre);
      moved[static_cast<size_t>(j)] = centre + h;
      const double up = moved[static_cast<size_t>(j)] - centre;
      if (!acceleration(t, xm.data(), wm.data(), fp.data())) return false;
      moved[static_cast<size_t>(j)] = centre - h;
      const double down = centre - moved[static_cast<size_t>(j)];
      if (!acceleration(t, xm.data(), wm.data(), fm.data())) return false;
      moved[static_cast<size_t>(j)] = centre;
      for (int i = 0; i < n; ++i)
        (part == 0 ? J1 : J2)[i * n + j] = (fp[static_cast<size_t>(i)] - fm[static_cast<size_t>(i)]) / (up + down);
    }
  // One-sided second-order difference in time (never looks back across a segment's first breakpoint).
  const double d = central_difference_step(t);
  std::vector<double> f1(static_cast<size_t>(n)), f2(static_cast<size_t>(n));
  if (!acceleration(t + d, x, w, f1.data()) || !acceleration(t + 2 * d, x, w, f2.data())) return false;
  if (!acceleration(t, x, w, f)) return false;
  for (int i = 0; i < n; ++i)
    f_t[i] = (-3.0 * f[i] + 4.0 * f1[static_cast<size_t>(i)] - f2[static_cast<size_t>(i)]) / (2.0 * d);
  return true;
}

bool ReferenceLoopOde::mass_matrix(double, const double*, double* M) {
  for (int i = 0; i < ndof_ * ndof_; ++i) M[i] = i % (ndof_ + 1) == 0 ? 1.0 : 0.0;
  return true;
}

}  // namespace myriad::reference
