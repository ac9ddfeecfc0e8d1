#include "constraints/assembly.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "constraints/constraint_equations.hpp"
#include "constraints/model_kinematics.hpp"
#include "model/number_text.hpp"

namespace myriad::constraints {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

MatrixXd columns(const MatrixXd& G, const std::vector<int>& which) {
  MatrixXd out(G.rows(), static_cast<Eigen::Index>(which.size()));
  for (size_t k = 0; k < which.size(); ++k) out.col(static_cast<Eigen::Index>(k)) = G.col(which[k]);
  return out;
}

// Numerical rank of A (a column subset of G) relative to the largest entry of the whole G, so that a Phi_u
// whose entries are all tiny next to G's reads as singular.
int numerical_rank(const MatrixXd& A, const MatrixXd& G, double relative_tolerance) {
  const double scale_A = A.size() > 0 ? A.cwiseAbs().maxCoeff() : 0.0;
  const double scale_G = G.size() > 0 ? G.cwiseAbs().maxCoeff() : 0.0;
  if (!(scale_A > relative_tolerance * scale_G)) return 0;
  return partition_coordinates(A, relative_tolerance * scale_G / scale_A).rank;
}

double condition_number(const MatrixXd& A) {
  if (A.size() == 0) return 1.0;
  const Eigen::JacobiSVD<MatrixXd> svd(A);
  const VectorXd s = svd.singularValues();
  const double smallest = s[s.size() - 1];
  return smallest > 0.0 ? s[0] / smallest : INFINITY;
}

AssemblyResult fail(AssemblyResult result, AssemblyStatus status, const std::string& message) {
  result.status = status;
  result.message = message;
  return result;
}

}  // namespace

const char* assembly_status_name(AssemblyStatus status) {
  switch (status) {
    case AssemblyStatus::ok:
      return "ok";
    case AssemblyStatus::not_converged:
      return "not_converged";
    case AssemblyStatus::singular:
      return "singular";
    case AssemblyStatus::redundant:
      return "redundant";
    case AssemblyStatus::too_many_constraints:
      return "too_many_constraints";
    case AssemblyStatus::bad_independent:
      return "bad_independent";
  }
  return "unknown";
}

Partition partition_coordinates(const MatrixXd& G, double relative_tolerance) {
  // seed 000 eq. 6: Gauss-Jordan with full pivoting; the pivot columns are the dependent coordinates.
  MatrixXd A = G;
  const Eigen::Index m = A.rows(), n = A.cols();
  Partition p;
  const double scale = A.size() > 0 ? A.cwiseAbs().maxCoeff() : 0.0;
  std::vector<bool> pivot_column(static_cast<size_t>(n), false);
  if (scale > 0.0) {
    for (Eigen::Index k = 0; k < std::min(m, n); ++k) {
      Eigen::Index best_row = -1, best_column = -1;
      double best = 0.0;
      for (Eigen::Index i = k; i < m; ++i)
        for (Eigen::Index j = 0; j < n; ++j)
          if (!pivot_column[static_cast<size_t>(j)] && std::abs(A(i, j)) > best) {
            best = std::abs(A(i, j));
            best_row = i;
            best_column = j;
          }
      if (best_row < 0 || best <= relative_tolerance * scale) break;
      A.row(k).swap(A.row(best_row));
      A.row(k) /= A(k, best_column);
      for (Eigen::Index i = 0; i < m; ++i)
        if (i != k && A(i, best_column) != 0.0) A.row(i) -= A(i, best_column) * A.row(k);
      pivot_column[static_cast<size_t>(best_column)] = true;
      p.dependent.push_back(static_cast<int>(best_column));
    }
  }
  p.rank = static_cast<int>(p.dependent.size());
  for (Eigen::Index j = 0; j < n; ++j)
    if (!pivot_column[static_cast<size_t>(j)]) p.independent.push_back(static_cast<int>(j));
  return p;
}

AssemblyResult assemble(const Model& model, double t, const VectorXd& q_guess, const VectorXd& v_guess,
                        const AssemblyOptions& options) {
  const kinematics::CoordinateLayout layout = kinematics::coordinate_layout(model);
  if (q_guess.size() != layout.nq || v_guess.size() != layout.nv)
    throw std::invalid_argument("assemble: q_guess and v_guess must have nq = " + std::to_string(layout.nq) +
                                " and nv = " + std::to_string(layout.nv) + " entries");
  const int nv = layout.nv;
  AssemblyResult result;
  result.q = q_guess;
  result.v = v_guess;
  result.constraints = constraint_count(model);
  const int m = result.constraints;

  ConstraintEvaluation c = evaluate_constraints(model, t, result.q, result.v);
  result.residual = m > 0 ? c.phi.cwiseAbs().maxCoeff() : 0.0;
  const Partition partition = partition_coordinates(c.G, options.rank_tolerance);
  result.rank = partition.rank;
  if (m > nv)
    return fail(result, AssemblyStatus::too_many_constraints,
                std::to_string(m) + " constraint equations for " + std::to_string(nv) +
                    " velocity coordinates (rank " + std::to_string(partition.rank) +
                    "): more constraints than coordinates");
  if (partition.rank < m) {
    // Redundant constraints are rank deficient everywhere; a singular configuration only at isolated points.
    VectorXd step(nv);
    for (int k = 0; k < nv; ++k) step[k] = 1e-3 * std::sin(1.7 * k + 0.3);
    const VectorXd nearby = advance_coordinates(model, result.q, step);
    const int nearby_rank =
        partition_coordinates(evaluate_constraints(model, t, nearby, result.v).G, options.rank_tolerance)
            .rank;
    if (nearby_rank < m)
      return fail(result, AssemblyStatus::redundant,
                  "redundant constraints: " + std::to_string(m) +
                      " constraint equations but the Jacobian has rank " +
                      std::to_string(std::max(partition.rank, nearby_rank)));
    return fail(result, AssemblyStatus::singular,
                "the constraint Jacobian is singular at the initial guess (rank " +
                    std::to_string(partition.rank) + " of " + std::to_string(m) +
                    "; full rank nearby): the guess is a singular configuration");
  }

  if (model.independent.empty()) {
    result.independent = partition.independent;
    result.dependent = partition.dependent;
    std::sort(result.dependent.begin(), result.dependent.end());
  } else {
    std::vector<bool> named(static_cast<size_t>(nv), false);
    for (const IndependentCoordinate& ic : model.independent) {
      const int index = layout.v_index[static_cast<size_t>(ic.joint)] + ic.index;
      named[static_cast<size_t>(index)] = true;
      result.independent.push_back(index);
    }
    std::sort(result.independent.begin(), result.independent.end());
    for (int j = 0; j < nv; ++j)
      if (!named[static_cast<size_t>(j)]) result.dependent.push_back(j);
    if (static_cast<int>(result.dependent.size()) != m)
      return fail(result, AssemblyStatus::bad_independent,
                  "the model names " + std::to_string(result.independent.size()) +
                      " independent coordinates, but " + std::to_string(m) + " constraint equations on " +
                      std::to_string(nv) + " velocity coordinates leave " + std::to_string(nv - m));
  }

  // Newton on Phi(u; v held) = 0.
  const auto scatter = [&](const VectorXd& du) {
    VectorXd dv = VectorXd::Zero(nv);
    for (size_t k = 0; k < result.dependent.size(); ++k)
      dv[result.dependent[k]] = du[static_cast<Eigen::Index>(k)];
    return dv;
  };
  for (;;) {
    result.residual = m > 0 ? c.phi.cwiseAbs().maxCoeff() : 0.0;
    if (!std::isfinite(result.residual))
      return fail(
          result, AssemblyStatus::not_converged,
          "Newton diverged after " + std::to_string(result.iterations) + " iterations (non-finite residual)");
    if (result.residual <= options.tolerance) break;
    if (result.iterations >= options.max_iterations)
      return fail(result, AssemblyStatus::not_converged,
                  "Newton did not converge in " + std::to_string(options.max_iterations) +
                      " iterations: max |Phi| = " + number_text(result.residual) + " (tolerance " +
                      number_text(options.tolerance) + ")");
    const MatrixXd G_u = columns(c.G, result.dependent);
    const int rank = numerical_rank(G_u, c.G, options.rank_tolerance);
    if (rank < m)
      return fail(result, AssemblyStatus::singular,
                  "Phi_u is singular (rank " + std::to_string(rank) + " of " + std::to_string(m) +
                      ") at Newton iteration " + std::to_string(result.iterations) +
                      " (max |Phi| = " + number_text(result.residual) + ")");
    const VectorXd du = G_u.fullPivLu().solve(-c.phi);
    result.q = advance_coordinates(model, result.q, scatter(du));
    ++result.iterations;
    c = evaluate_constraints(model, t, result.q, result.v);
  }

  const MatrixXd G_u = columns(c.G, result.dependent);
  result.condition = condition_number(G_u);
  const int rank = numerical_rank(G_u, c.G, options.rank_tolerance);
  if (rank < m)
    return fail(result, AssemblyStatus::singular,
                "Phi_u is singular at the solution (rank " + std::to_string(rank) + " of " +
                    std::to_string(m) + ", condition number " + number_text(result.condition) + ")");

  // Velocity analysis: G_u v_u = -(G_v v_v + Phi_t).
  VectorXd v_independent_part = result.v;
  for (int j : result.dependent) v_independent_part[j] = 0.0;
  const VectorXd rhs = -(c.G * v_independent_part + c.phi_t);
  const VectorXd v_u = G_u.fullPivLu().solve(rhs);
  result.v = v_independent_part + scatter(v_u);
  return result;
}

AssemblyResult assemble(const Model& model, const AssemblyOptions& options) {
  return assemble(model, 0.0, kinematics::initial_q(model), kinematics::initial_v(model), options);
}

}  // namespace myriad::constraints
