#pragma once
// The corrector of seed 003 sec. 3.2: Newton's method on the equations of one time point t_N of an implicit DAE
// (integrators/implicit_dae_system.hpp) once the integration formula has been written as
//
//   y_N = psi + c dt y'_N                                          (seed 003 eq. 8b)
//
// with psi collecting everything known (past points, earlier stages, auxiliary variables) and c dt = dy_N/dy'_N
// (beta_0 dt for the multistep methods, gamma dt for the ESDIRKs, the products of eqs. 9-11 for SS2-SS4). The
// unknowns are u = (y'_N, z_N); each iteration solves
//
//   [c dt r_y + r_y' | r_z] du = -r(psi + c dt y'_N, y'_N, z_N, t_N)                 (eq. 21a)
//
// with the m algebraic rows (the position-level constraints) divided by c dt (sec. 2, after Bottasso, Bauchau &
// Cardona 2007: without it those rows scale like dt^2 relative to the dynamic ones in the index-3 multibody DAE),
// then updates y'_N += du_y', y_N += c dt du_y', z_N += du_z (eqs. 21b-21c). Full Newton: the Jacobian is
// re-evaluated every iteration.
//
// Convergence: after an update, every component of the position-level change c dt du_y' is within
// atol + rtol |y_N,i| and every multiplier change within atol / (c dt)^2 + rtol max_j |z_N,j| (weighted max norm
// <= 1 of the last correction; near the solution Newton's next correction is far smaller than this one, so the
// accepted point is at least this accurate): the multipliers relative to the largest of them, and in absolute
// terms as the positions they move through (c dt)^2. The rounding floor: with an exact Jacobian the norm falls
// quadratically until the solve's rounding errors dominate; a component whose own value is tiny (a velocity still near zero beside
// velocities of 1e3) can sit above its weight there for ever (Andrews' squeezer at dt = 1e-5: corrections of
// 2e-10 on a velocity of 2e-8, with accelerations of 1e4 elsewhere). From the third iteration on, a correction
// whose norm no longer falls below a quarter of the previous one while within kNewtonRoundingFloor of the
// tolerance is that floor, and the point is accepted. Host and device, no allocation.
#include <cmath>

#include "core/hd.hpp"
#include "core/status.hpp"
#include "integrators/implicit_methods.hpp"
#include "linalg/dense_lu.hpp"

namespace myriad {

// Weighted-norm ceiling of a correction accepted as the rounding floor (see above): 1e3 x the tolerance.
constexpr double kNewtonRoundingFloor = 1e3;

// Work counters of an implicit integration. points = time points solved (steps for the multistep and
// single-step methods, s - 1 implicit stages per step for an s-stage ESDIRK); newton_iterations = Jacobian
// evaluations = LU factorizations.
struct ImplicitStats {
  long long steps = 0;
  long long points = 0;
  long long newton_iterations = 0;
  long long residual_evaluations = 0;
  int max_point_iterations = 0;  // the most iterations any one point needed
};

// Doubles implicit_point_solve needs in `work` for n differential and m algebraic variables.
MYRIAD_HD_INLINE int implicit_point_workspace_size(int n, int m) {
  const int N = n + m;
  return N * N + N * n * 2 + N * m + 2 * N;
}

// Solves the equations of one time point t with the formula y = psi + cdt ydot (cdt = c dt > 0) for (ydot, z),
// starting from their predictions in ydot (n) and z (m); writes y (n) consistent with the final ydot. work:
// implicit_point_workspace_size(n, m) doubles. Returns ok, non_finite (a residual or Jacobian evaluation failed),
// singular_matrix (the iteration matrix could not be factored) or newton_failed (no convergence within
// options.max_newton_iterations). Cost per iteration: one residual_jacobians call and O((n+m)^3).
template <class System>
MYRIAD_HD InstanceStatus implicit_point_solve(System& sys, double t, double cdt, const double* psi, double* ydot,
                                              double* z, double* y, double* work, const ImplicitOptions& options,
                                              ImplicitStats& stats) {
  const int n = sys.differential_dimension();
  const int m = sys.algebraic_dimension();
  const int N = n + m;
  double* J = work;               // iteration matrix (N x N), row-major, then its LU factors
  double* r_y = J + N * N;        // dr/dy (N x n)
  double* r_ydot = r_y + N * n;   // dr/dy' (N x n)
  double* r_z = r_ydot + N * n;   // dr/dz (N x m)
  double* r = r_z + N * m;        // residual, then -du (N)
  double* pivots = r + N;         // LU row exchanges (N)
  const double inverse_cdt = 1.0 / cdt;
  for (int i = 0; i < n; ++i) y[i] = psi[i] + cdt * ydot[i];
  double previous_norm = 0.0;
  for (int iteration = 1; iteration <= options.max_newton_iterations; ++iteration) {
    ++stats.residual_evaluations;
    ++stats.newton_iterations;
    if (!sys.residual_jacobians(t, y, ydot, z, r, r_y, r_ydot, r_z)) return InstanceStatus::non_finite;
    for (int row = 0; row < N; ++row) {
      const double scale = row < n ? 1.0 : inverse_cdt;
      for (int col = 0; col < n; ++col) J[row * N + col] = scale * (cdt * r_y[row * n + col] + r_ydot[row * n + col]);
      for (int col = 0; col < m; ++col) J[row * N + n + col] = scale * r_z[row * m + col];
      r[row] *= scale;
    }
    // The index-3 matrices of absolute coordinates are mostly zeros (a GCON's row touches two bodies): the sparse
    // elimination gives lu_factor's factors at a fraction of the cost, its column list in r_y, consumed above.
    if (!lu_factor_sparse(N, J, pivots, r_y)) return InstanceStatus::singular_matrix;
    lu_solve(N, J, pivots, r);  // r = J^-1 r = -du
    double norm = 0.0;  // weighted max norm of the correction
    for (int i = 0; i < n; ++i) {
      const double dy = -cdt * r[i];
      ydot[i] -= r[i];
      y[i] = psi[i] + cdt * ydot[i];
      norm = std::fmax(norm, std::fabs(dy) / (options.newton_atol + options.newton_rtol * std::fabs(y[i])));
    }
    // Multipliers are judged against the largest of them: a constraint force near zero (an Euler-parameter
    // normalization's, a joint direction that carries no load) otherwise asks for digits its rounding floor,
    // set by the loaded ones, does not have.
    double z_scale = 0.0;
    for (int j = 0; j < m; ++j) {
      z[j] -= r[n + j];
      z_scale = std::fmax(z_scale, std::fabs(z[j]));
    }
    // Index 3: a multiplier acts on the positions through (c dt)^2 (its force through two integrations), so its
    // absolute tolerance is atol / (c dt)^2 (Hairer & Wanner's h^2-scaled index-3 variables): the solve's rounding
    // in the multipliers grows as 1 / (c dt)^2 and would otherwise stall Newton at small steps.
    const double z_atol = options.newton_atol / (cdt * cdt);
    for (int j = 0; j < m; ++j)
      norm = std::fmax(norm, std::fabs(r[n + j]) / (z_atol + options.newton_rtol * z_scale));
    if (!std::isfinite(norm)) return InstanceStatus::non_finite;
    const bool floor = iteration >= 3 && norm <= kNewtonRoundingFloor && norm > 0.25 * previous_norm;
    if (norm <= 1.0 || floor) {
      if (iteration > stats.max_point_iterations) stats.max_point_iterations = iteration;
      return InstanceStatus::ok;
    }
    previous_norm = norm;
  }
  return InstanceStatus::newton_failed;
}

}  // namespace myriad
