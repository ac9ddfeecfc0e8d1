#pragma once
// Reference constrained dynamics (shared/DESIGN.md, "reference path"): the augmented system of seed 000 eq.
// 3,
//   [ M   G^T ] [ vdot   ]   [ Q     ]
//   [ G   0   ] [ lambda ] = [ gamma ],
// solved densely with Eigen, so M vdot = Q - G^T lambda (the constraint forces are -G^T lambda). M and Q are
// the tree's (reference::mass_matrix, reference::generalized_forces) plus the exact contribution of every
// rod: a uniform slender rod between its two points, whose kinetic energy m/6 (|v1|^2 + v1.v2 + |v2|^2) lumps
// the mass on the two neighbouring bodies with the point mass blocks m/3, m/6 of seed 001 eqs. 18-19 (no spin
// about its own axis); gravity acts on its midpoint. The rods' coupling stays on the left-hand side (no
// extrapolation). G and gamma come from constraints::evaluate_constraints. Host-only; allocates freely; the
// model must have had its parameters applied.
#include <Eigen/Dense>
#include <string>

#include "model/model.hpp"

namespace myriad::reference {

// Tree mass matrix plus the rods' lumped inertia (nv x nv). O(bodies * nv^2 + rods * bodies * nv^2). Throws
// as mass_matrix.
Eigen::MatrixXd constrained_mass_matrix(const Model& model, const Eigen::VectorXd& q);

// Tree generalized forces plus the rods' gravity and velocity-product terms (nv). Throws as
// generalized_forces.
Eigen::VectorXd constrained_generalized_forces(const Model& model, double t, const Eigen::VectorXd& q,
                                               const Eigen::VectorXd& v);

// Kinetic and potential energy of the tree (kinetic_energy, potential_energy) plus the rods'. O(model).
double constrained_kinetic_energy(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
double constrained_potential_energy(const Model& model, double t, const Eigen::VectorXd& q);

struct ConstrainedDynamics {
  enum class Status {
    ok,         // unique vdot and lambda
    redundant,  // G has rank < m: vdot is still unique when the constraints are consistent, lambda is the
                // minimum-norm one of many
    singular    // the augmented matrix is singular although G has full row rank
  };
  Status status = Status::ok;
  std::string message;   // empty when ok
  Eigen::VectorXd vdot;  // (nv)
  Eigen::VectorXd
      lambda;  // (m) Lagrange multipliers, one per constraint row (constraints::constraint_labels)
  int constraint_rank = 0;  // numerical rank of G
};

// Solves seed 000 eq. 3 at (t, q, v) with a full-pivoting LU of the augmented matrix; when G is rank
// deficient (relative tolerance 1e-10 of its largest entry) the minimum-norm solution of a complete
// orthogonal decomposition instead, with status `redundant`. O((nv + m)^3 + cost of M, Q, G, gamma). Throws
// as the functions it calls (std::invalid_argument for wrongly sized q or v).
ConstrainedDynamics constrained_forward_dynamics(const Model& model, double t, const Eigen::VectorXd& q,
                                                 const Eigen::VectorXd& v);

// The rods' coupling blocks C = sum over rods of m/6 (J1^T J2 + J2^T J1) (nv x nv; seed 001 eq. 19's
// off-diagonal blocks). O(rods * bodies * nv^2).
Eigen::MatrixXd rod_coupling_matrix(const Model& model, const Eigen::VectorXd& q);

// Seed 001's partitioned rod inertia (eqs. 47-49): the rods' coupling C moves to the right-hand side at known
// accelerations vdot_hat (extrapolated ones), (M - C) vdot = Q - C vdot_hat - G^T lambda. With vdot_hat equal to
// the exact solution it reproduces it; with massless rods C = 0.
ConstrainedDynamics constrained_forward_dynamics(const Model& model, double t, const Eigen::VectorXd& q,
                                                 const Eigen::VectorXd& v, const Eigen::VectorXd& vdot_hat);

}  // namespace myriad::reference
