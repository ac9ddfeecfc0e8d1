#pragma once
// Assembly of a constrained model (docs/model-format.md, "Loops", "Drivers", "Independent coordinates"):
// generalized coordinate partitioning by Gauss-Jordan elimination with full pivoting on the constraint
// Jacobian (seed 000 eq. 6), Newton's method on Phi(q, t) = 0 for the dependent coordinates with the
// independent ones held at their given values, and the velocity analysis G_u v_u = -(G_v v_v + Phi_t).
// Host-only, dense Eigen; the model must have had its parameters applied.
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace myriad::constraints {

// The result of seed 000 eq. 6 on one Jacobian G (m x nv).
struct Partition {
  std::vector<int> dependent;    // pivot columns, in pivot order (rank of them): the coordinates u
  std::vector<int> independent;  // the other columns, ascending: the coordinates v of seed 000 eq. 4
  int rank = 0;                  // numerical rank of G
};

// Gauss-Jordan elimination with full pivoting: at each step the largest remaining entry |G_ij| (rows not yet
// pivoted, columns not yet pivoted) is the pivot; elimination stops when it is at most relative_tolerance
// times the largest entry of G. O(m * nv * rank). Never throws (an all-zero or empty G has rank 0).
Partition partition_coordinates(const Eigen::MatrixXd& G, double relative_tolerance = 1e-10);

enum class AssemblyStatus {
  ok,
  not_converged,         // Newton stopped after max_iterations (or diverged) with |Phi| above tolerance
  singular,              // Phi_u is singular: at the initial guess, during Newton or at the solution
  redundant,             // G has rank r < m everywhere near the guess (the message gives m and r)
  too_many_constraints,  // m > nv
  bad_independent        // the named independent coordinates do not leave exactly m dependent ones
};
const char* assembly_status_name(AssemblyStatus status);

struct AssemblyOptions {
  double tolerance = 1e-12;  // on max |Phi_i| (m for lengths, rad-like for axis conditions)
  int max_iterations = 50;
  double rank_tolerance = 1e-10;  // relative, for the partition and the singularity checks
};

struct AssemblyResult {
  AssemblyStatus status = AssemblyStatus::ok;
  std::string message;           // empty when ok; else says what failed, with the numbers
  Eigen::VectorXd q;             // (nq) assembled coordinates (the last iterate when not ok)
  Eigen::VectorXd v;             // (nv) consistent velocities (set when ok)
  std::vector<int> independent;  // velocity indices held at their given values
  std::vector<int> dependent;    // velocity indices solved for (m of them when ok)
  int constraints = 0;           // m
  int rank = 0;                  // numerical rank of G at the guess
  double residual = 0.0;         // max |Phi_i| at q
  int iterations = 0;            // Newton iterations taken
  double condition = 0.0;        // 2-norm condition number of Phi_u at q (0 when not computed)
};

// Assembles at time t from q_guess (independent coordinates at their intended values, a guess for the rest)
// and v_guess (independent velocities as intended; the rest is overwritten). Independent coordinates are
// those the model names (Model::independent) or, when it names none, the non-pivot columns of
// partition_coordinates on G at q_guess. Steps: m > nv -> too_many_constraints; rank of G below m at q_guess
// and at a nearby perturbed configuration -> redundant (below m only at q_guess -> singular); Newton on the
// dependent coordinates (updates through advance_coordinates, so quaternion joints stay unit) until max |Phi|
// <= tolerance -> else not_converged with the residual; Phi_u singular at an iterate or at the solution ->
// singular. O(iterations * (m^3 + cost of evaluate_constraints)). Throws std::invalid_argument for wrongly
// sized q_guess or v_guess.
AssemblyResult assemble(const Model& model, double t, const Eigen::VectorXd& q_guess,
                        const Eigen::VectorXd& v_guess, const AssemblyOptions& options = {});

// The same at t = 0 from the model's initial coordinates and velocities (kinematics::initial_q, initial_v).
AssemblyResult assemble(const Model& model, const AssemblyOptions& options = {});

}  // namespace myriad::constraints
