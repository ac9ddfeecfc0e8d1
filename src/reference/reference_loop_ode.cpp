#include "reference/reference_loop_ode.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include "constraints/constraint_equations.hpp"
#include "reference/finite_difference_jacobians.hpp"
#include "reference/reference_constrained.hpp"

namespace myriad::reference {

namespace {
constexpr double kNewtonTolerance = 1e-12;
constexpr int kNewtonIterations = 25;
}  // namespace

ReferenceLoopOde::ReferenceLoopOde(const Model& literal, const CompiledModel& compiled, const double* q_init,
                                   const double* v_init)
    : literal_(&literal),
      ndof_(compiled.constraints.n_independent),
      q_(Eigen::Map<const Eigen::VectorXd>(q_init, compiled.nv)),
      v_(Eigen::Map<const Eigen::VectorXd>(v_init, compiled.nv)),
      vdot_(Eigen::VectorXd::Zero(compiled.nv)),
      q_converged_(q_) {
  std::vector<bool> is_independent(static_cast<size_t>(compiled.nv), false);
  for (int i = 0; i < ndof_; ++i) {
    independent_.push_back(compiled.constraints.independent[i]);
    is_independent[static_cast<size_t>(compiled.constraints.independent[i])] = true;
  }
  for (int j = 0; j < compiled.nv; ++j)
    if (!is_independent[static_cast<size_t>(j)]) dependent_.push_back(j);
  for (const Loop& loop : literal.loops)
    if (loop.type == LoopType::rod) rod_points_ = static_cast<int>(literal.rod_inertia);
}

Eigen::VectorXd ReferenceLoopOde::independent_state(const double* x, const double* w) const {
  Eigen::VectorXd state(2 * ndof_);
  for (int i = 0; i < ndof_; ++i) {
    state[i] = x[i];
    state[ndof_ + i] = w[i];
  }
  return state;
}

void ReferenceLoopOde::enter(double t, const Eigen::VectorXd& vdot) {
  if (!history_.empty() && history_.front().first == t) {
    history_.front().second = vdot;
    return;
  }
  history_.emplace_front(t, vdot);
  if (static_cast<int>(history_.size()) > 3) history_.pop_back();
}

void ReferenceLoopOde::accepted(double t, const double* x, const double* w) {
  if (rod_points_ == 0) return;
  const Eigen::VectorXd state = independent_state(x, w);
  if (last_valid_ && last_t_ == t && last_state_ == state) {
    enter(t, last_vdot_);
    awaiting_ = false;
    return;
  }
  awaiting_ = true;
  awaiting_t_ = t;
  awaiting_state_ = state;
}

bool ReferenceLoopOde::predicted_accelerations(double t, const Eigen::MatrixXd& Gu, const Eigen::MatrixXd& Gv,
                                               const Eigen::VectorXd& gamma, Eigen::VectorXd& vdot_hat) const {
  const int n = rod_points_;  // exact until that many accelerations are kept
  if (static_cast<int>(history_.size()) < n) return false;
  // Lagrange extrapolation through the newest n points (seed 001 eqs. 35, 38).
  Eigen::VectorXd independent_hat = Eigen::VectorXd::Zero(ndof_);
  for (int j = 0; j < n; ++j) {
    double weight = 1.0;
    for (int k = 0; k < n; ++k)
      if (k != j)
        weight *= (t - history_[static_cast<size_t>(k)].first) /
                  (history_[static_cast<size_t>(j)].first - history_[static_cast<size_t>(k)].first);
    for (int i = 0; i < ndof_; ++i)
      independent_hat[i] += weight * history_[static_cast<size_t>(j)].second[independent_[static_cast<size_t>(i)]];
  }
  vdot_hat = Eigen::VectorXd::Zero(q_.size());
  for (int i = 0; i < ndof_; ++i) vdot_hat[independent_[static_cast<size_t>(i)]] = independent_hat[i];
  if (!dependent_.empty()) {
    const Eigen::VectorXd dependent_hat = Gu.partialPivLu().solve(gamma - Gv * independent_hat);
    for (size_t c = 0; c < dependent_.size(); ++c) vdot_hat[dependent_[c]] = dependent_hat[static_cast<Eigen::Index>(c)];
  }
  return true;
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
        // The failed iterate is no start for the next (shorter) trial step: it may sit on the other assembly
        // branch. Start again from the last coordinates that assembled.
        q_ = q_converged_;
        projection_failed_ = true;
        return false;
      }
      const Eigen::VectorXd step = Gu.partialPivLu().solve(-e.phi);
      for (int c = 0; c < m; ++c) q_[dependent_[static_cast<size_t>(c)]] += step[c];
    }
    q_converged_ = q_;
    for (int c = 0; c < ndof_; ++c) Gv.col(c) = e.G.col(independent_[static_cast<size_t>(c)]);
    Eigen::VectorXd vv(ndof_);
    for (int c = 0; c < ndof_; ++c) vv[c] = w[c];
    const Eigen::VectorXd vu = Gu.partialPivLu().solve(-(e.phi_t + Gv * vv));
    for (int c = 0; c < m; ++c) v_[dependent_[static_cast<size_t>(c)]] = vu[c];
    Eigen::VectorXd vdot_hat;
    // gamma at the solved velocities (e's is at the previous ones).
    const bool predicted =
        rod_points_ > 0 && !history_.empty() &&
        predicted_accelerations(t, Gu, Gv, constraints::evaluate_constraints(*literal_, t, q_, v_).gamma, vdot_hat);
    const ConstrainedDynamics d = predicted ? constrained_forward_dynamics(*literal_, t, q_, v_, vdot_hat)
                                            : constrained_forward_dynamics(*literal_, t, q_, v_);
    if (d.status != ConstrainedDynamics::Status::ok) return false;
    vdot_ = d.vdot;
  } catch (const std::exception&) {
    q_ = q_converged_;
    return false;
  }
  if (!vdot_.allFinite() || !v_.allFinite()) return false;
  if (rod_points_ > 0) {
    const Eigen::VectorXd state = independent_state(x, w);
    if (awaiting_ && awaiting_t_ == t && awaiting_state_ == state) {
      enter(t, vdot_);
      awaiting_ = false;
    }
    last_valid_ = true;
    last_t_ = t;
    last_state_ = state;
    last_vdot_ = vdot_;
  }
  return true;
}

bool ReferenceLoopOde::initial_state(double t, double* y) {
  for (int i = 0; i < ndof_; ++i) {
    y[i] = q_[independent_[static_cast<size_t>(i)]];
    y[ndof_ + i] = v_[independent_[static_cast<size_t>(i)]];
  }
  history_.clear();
  last_valid_ = false;
  accepted(t, y, y + ndof_);  // the initial state's exact accelerations start the history
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
  return finite_difference_jacobians(
      ndof_,
      [this](double s, const double* a, const double* b, double* out) { return acceleration(s, a, b, out); }, t, x,
      w, f, J1, J2, f_t);
}

bool ReferenceLoopOde::mass_matrix(double, const double*, double* M) {
  for (int i = 0; i < ndof_ * ndof_; ++i) M[i] = i % (ndof_ + 1) == 0 ? 1.0 : 0.0;
  return true;
}

}  // namespace myriad::reference
