#pragma once
// Loop-closure and driving constraints of a model (docs/model-format.md, "Loops", "Drivers"), evaluated on
// the host with Eigen: the independent, dense formulation the fast path's loop code will be tested against.
//
// Rows are the loops in Model::loops order (3, 5, 4, 2, 1, 1 equations for cut_spherical, cut_revolute,
// cut_universal, cut_planar_revolute, distance, rod; see loop_equation_count), then one row per driver.
// Everything is expressed in world axes and built from the host kinematics below them
// (constraints/model_kinematics.hpp: body_kinematics, point_jacobian, body_jacobians_cm, body_bias_accelerations).
//
// With v the generalized velocities of docs/model-format.md (for quaternion joints the angular velocity, not
// the quaternion rate) the evaluation returns
//   Phi(q, t)   (m)        the constraint residuals, zero on the constraint manifold;
//   G(q)        (m x nv)   the Jacobian with respect to v: d/dt Phi = G v + Phi_t along any motion;
//   Phi_t       (m)        the explicit time derivative (non-zero for drivers only);
//   gamma       (m)        d^2/dt^2 Phi = G vdot - gamma along any motion: gamma collects every term of the
//                          second derivative without vdot, negated (-(dG/dt) v - 2 dPhi_t/dq... - Phi_tt), so
//                          G vdot = gamma keeps d^2 Phi / dt^2 = 0 (seed 000 eq. 3's right-hand side tau).
// The model must have had its parameters applied (all Numbers literal). Host-only; allocates freely.
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace myriad::constraints {

// m: the number of scalar constraint equations (loops, then drivers). O(loops + drivers).
int constraint_count(const Model& model);

// One label per row, e.g. "loop 'closure' (cut_revolute) equation 4", "driver 'crank'"; for messages. O(m).
std::vector<std::string> constraint_labels(const Model& model);

// One JSON pointer per row: the loop ("/loops/2", by Loop::file_index) or driver ("/drivers/0") it belongs
// to; for errors that must name the entry of the model file. O(m).
std::vector<std::string> constraint_pointers(const Model& model);

struct ConstraintEvaluation {
  Eigen::VectorXd phi;    // (m) Phi(q, t)
  Eigen::MatrixXd G;      // (m x nv) dPhi/dq mapped to velocity coordinates
  Eigen::VectorXd phi_t;  // (m) partial Phi / partial t
  Eigen::VectorXd gamma;  // (m) right-hand side of G vdot = gamma
};

// All four at (t, q, v). O(m * bodies * nv) (one point Jacobian per constrained point). Throws
// std::invalid_argument for wrongly sized q or v (as the reference path), and a ModelError naming the model's
// file and the loop when a distance or rod has zero current length (its Jacobian is undefined there).
ConstraintEvaluation evaluate_constraints(const Model& model, double t, const Eigen::VectorXd& q,
                                          const Eigen::VectorXd& v);

// Phi alone (v taken as zero). Same cost and throws as evaluate_constraints.
Eigen::VectorXd constraint_residual(const Model& model, double t, const Eigen::VectorXd& q);

// q advanced by the velocity-space increment dv (nv): q + dv for coordinates that are their own rates; for a
// spherical joint R_FM <- R_FM exp(dv) (dv in M axes); for a free joint the translation moves by R_FM dv_lin
// and the rotation as for a spherical joint. To first order this is q + qdot(q, dv). Used by Newton
// iterations and finite differences. O(nq). Throws std::invalid_argument for wrongly sized q or dv.
Eigen::VectorXd advance_coordinates(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& dv);

}  // namespace myriad::constraints
