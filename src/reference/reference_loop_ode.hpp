#pragma once
// The reference backend's state-space ODE of a model with loops (seed 000 eqs. 4-10), built only from the dense
// reference path: Newton on Phi(q) = 0 over the dependent coordinates with constraints::evaluate_constraints
// (Eigen LU of G_u), the velocity solve G_u v_u = -(G_v v_v + Phi_t), and the accelerations of the augmented
// system (reference::constrained_forward_dynamics). The partition is the compiled model's initial one (the
// reference does not re-choose it). State (x, w) = independent coordinates and their rates, as the fast path's
// LoopOde, so fixed-step RK4 takes identical steps on both. With extrapolated rod inertia (Model::rod_inertia) it
// keeps its own history of the accelerations at accepted states (those rebase() reports, entered when next or
// last evaluated there, as the fast path's loops/rod_history.hpp does) and solves the partitioned system of
// reference::constrained_forward_dynamics with the extrapolated accelerations, projected onto the constraints at
// acceleration level (G_u vdot_u = gamma - G_v vdot_v). Host only; allocates.
#include <Eigen/Dense>
#include <deque>
#include <vector>

#include "model/compiled_model.hpp"
#include "model/model.hpp"

namespace myriad::reference {

class ReferenceLoopOde {
 public:
  ReferenceLoopOde(const Model& literal, const CompiledModel& compiled, const double* q_init, const double* v_init);

  int dimension() const { return 2 * ndof_; }
  // y' = (w, x''). False when Newton does not reach 1e-12, G_u or the augmented system is singular, or a value
  // is not finite (failed() then says whether it was the projection). O(iterations (m^3 + cost of G)).
  bool derivative(double t, const double* y, double* dydt);
  // Never re-chooses the partition; enters the accepted state into the rod history.
  bool rebase(double t, double* y) {
    accepted(t, y, y + ndof_);
    return false;
  }
  void accepted(double t, const double* x, const double* w);
  // The pieces of the second-order view (ReferenceLoopSecondOrder below): x'' alone, Jacobians by central
  // differences (step cbrt(eps) max(1, |component|)), the identity as Mhat (RN4's stage solutions do not depend
  // on that scaling, as for ReferenceTreeSecondOrder).
  bool acceleration(double t, const double* x, const double* w, double* f);
  bool jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2, double* f_t);
  bool mass_matrix(double t, const double* x, double* M);
  int independent_count() const { return ndof_; }

  // The initial state (x, w) from q_init, v_init after projection; false when it does not assemble.
  bool initial_state(double t, double* y);
  bool projection_failed() const { return projection_failed_; }

 private:
  bool evaluate(double t, const double* x, const double* w);
  // The extrapolated accelerations at t (nv; dependent entries from the constraints), or false with no history.
  bool predicted_accelerations(double t, const Eigen::MatrixXd& Gu, const Eigen::MatrixXd& Gv,
                               const Eigen::VectorXd& gamma, Eigen::VectorXd& vdot_hat) const;
  Eigen::VectorXd independent_state(const double* x, const double* w) const;

  const Model* literal_;
  int ndof_;
  std::vector<int> independent_, dependent_;
  Eigen::VectorXd q_, v_, vdot_;
  Eigen::VectorXd q_converged_;  // Newton's start after a failed projection (see evaluate)
  bool projection_failed_ = false;
  // Rod history: newest first, at most rod_points_ (0: exact rods).
  int rod_points_ = 0;
  std::deque<std::pair<double, Eigen::VectorXd>> history_;
  bool awaiting_ = false;  // an accepted state not yet evaluated
  double awaiting_t_ = 0.0, last_t_ = 0.0;
  Eigen::VectorXd awaiting_state_, last_state_, last_vdot_;  // (x, w) and vdot
  bool last_valid_ = false;
  void enter(double t, const Eigen::VectorXd& vdot);
};

// The second-order system (integrators/second_order_system.hpp) over the same evaluation, for RN4 and ROS2:
// dimension ndof.
struct ReferenceLoopSecondOrder {
  ReferenceLoopOde* ode;
  int dimension() const { return ode->independent_count(); }
  bool acceleration(double t, const double* x, const double* w, double* f) { return ode->acceleration(t, x, w, f); }
  bool jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2, double* f_t) {
    return ode->jacobians(t, x, w, f, J1, J2, f_t);
  }
  bool mass_matrix(double t, const double* x, double* M) { return ode->mass_matrix(t, x, M); }
  bool rebase(double t, double* x, double* w) {
    ode->accepted(t, x, w);
    return false;
  }
};

}  // namespace myriad::reference
