#pragma once
// Seed 000 sec. 2 as written: the state-space ODE over independent coordinates partitioned out of the absolute
// (Cartesian + Euler-parameter) coordinates, as a second-order system (integrators/second_order_system.hpp) for
// RN4 (or any integrator of that concept). Issue 21 item 4: Tables 1-2 in the seed's own coordinates.
//
// q = (r_1, p_1, ..., r_NB, p_NB) (7 NB), Phi(q) the GCONs and the normalizations (absolute/absolute_dynamics.hpp,
// rp). The partition (eqs. 4-6): Gauss-Jordan with full pivoting on Phi_q(q0) picks m pivot columns, the
// dependent coordinates u (Phi_u nonsingular, eq. 5); the n - m others are the independent v, the integrator's
// x = v and w = v'. For given (v, v'):
//   * u solves Phi(u, v) = 0 (eq. 8) by Newton on Phi_u from the last recovered configuration (Step 13);
//   * u' solves Phi_u u' = nu - Phi_v v' (eq. 7d);
//   * q'' comes from the augmented system (eq. 3); f = v'' is its independent part. That equals eq. 9's
//     Mhat^-1 Qhat: eq. 3's solution satisfies eqs. 7a-7e, from which eq. 9 was derived.
// Integration Jacobians J1 = dv''/dv, J2 = dv''/dv' (eqs. 32, 35) are exact: the same chain on dual numbers of
// width 2 (n - m), where u's derivatives come from one Newton step on duals at the converged u (u_dual = -Phi_u^-1
// Phi_v v_dual, the implicit function theorem), u' and q'' by the dual evaluation of eqs. 7d and 3. Mhat (eq.
// 10a) = H^T M H with H = dq/dv = (I; -Phi_u^-1 Phi_v) in (v, u) order, M = diag(m I, 4 G^T J G).
// After each accepted step (rebase, Step 14): u and u' are recovered at the step end, the springs' anchors move
// there (absolute/absolute_forces.hpp), and the condition number of Phi_u is compared with the one the last
// partitioning gave; past 1.25 times it (the seed's 25%) Phi_q is partitioned again, and if the independent set
// changed, x and w are rewritten in the new one (the integrator then re-linearizes).
//
// Scleronomic models only (as the seed's derivation, eq. 46: f_t = 0); a model with a driven GCON is refused by
// initialize(). The independent coordinates are some r or p components, not joint angles: the integrator's
// Atol/Rtol act on them (seed 000 eq. 13), which is where this run's step sizes and errors differ from the
// joint-coordinate engine's.
//
// Host and device (fixed sizes, no allocation). Cost per acceleration: a Newton solve of m x m systems and an
// (7 NB + m)^2 augmented LU; per Jacobian the same on duals of width 2 (n - m).
#include <cmath>

#include "absolute/absolute_dynamics.hpp"
#include "core/dual.hpp"
#include "core/hd.hpp"
#include "linalg/dense_lu.hpp"

namespace myriad {

template <int NB, int NC>
struct AbsoluteStateSpace {
  using Rep = EulerParameterCoordinates;
  using Dae = AbsoluteDae<Rep, NB, NC>;
  static constexpr int NQ = Dae::NQ;  // 7 NB
  static constexpr int M = Dae::NZ;   // NC + NB constraints
  static constexpr int N = NQ - M;    // degrees of freedom
  static_assert(N > 0, "a state-space ODE needs at least one degree of freedom");
  using J = Dual<double, 2 * N>;

  AbsoluteModel<NB, NC> model;  // a copy: the springs' anchors move with the motion
  int independent[N] = {};      // nu of eq. 4: v[k] = q[independent[k]]
  int dependent[M] = {};        // mu of eq. 4
  double q[NQ] = {}, q_dot[NQ] = {};  // the configuration last recovered (Newton's next start)
  double partition_condition = 0.0;   // cond_1(Phi_u) when the partition was chosen
  double position_tolerance = 1e-12;  // ||Phi||_inf and Newton's last correction (Step 13)
  int max_newton_iterations = 20;
  double repartition_factor = 1.25;   // seed 000 sec. 4, Step 14
  // Counters (added to, never reset here).
  long newton_iterations = 0, recoveries = 0;
  int repartitions = 0;  // partitions after the first that changed the independent set

  MYRIAD_HD Dae dae() const { return Dae{&model}; }
  MYRIAD_HD int dimension() const { return N; }

  // Starts from a consistent (q0, q0') of the model (Phi = 0, Phi_q q' = 0): copies the model, partitions Phi_q(q0)
  // and writes x = v0, w = v0'. False for a driven model or a rank-deficient Phi_q.
  MYRIAD_HD bool initialize(const AbsoluteModel<NB, NC>& m, double t0, const double* q0, const double* q0_dot,
                            double* x, double* w) {
    model = m;
    for (int c = 0; c < NC; ++c)
      if (model.gcons[c].driver >= 0) return false;
    for (int i = 0; i < NQ; ++i) q[i] = q0[i], q_dot[i] = q0_dot[i];
    if (!partition(t0)) return false;
    for (int k = 0; k < N; ++k) x[k] = q[independent[k]], w[k] = q_dot[independent[k]];
    return true;
  }

  // Eq. 6: Gauss-Jordan with full pivoting on Phi_q(q); its pivot columns become u. Both index sets ascending.
  // False if Phi_q has rank below m. O(m^2 NQ).
  MYRIAD_HD bool partition(double t) {
    double phi[M], a[M * NQ];
    dae().constraint_rows_of(t, q, phi, a);
    int column[NQ];
    for (int j = 0; j < NQ; ++j) column[j] = j;
    double largest = 0.0;
    for (int i = 0; i < M * NQ; ++i) largest = std::fmax(largest, std::fabs(a[i]));
    for (int r = 0; r < M; ++r) {
      int pr = r, pc = r;
      double best = -1.0;
      for (int i = r; i < M; ++i)
        for (int j = r; j < NQ; ++j)
          if (std::fabs(a[i * NQ + j]) > best) best = std::fabs(a[i * NQ + j]), pr = i, pc = j;
      if (!(best > 1e-10 * largest)) return false;
      for (int j = 0; j < NQ; ++j) {
        const double s = a[r * NQ + j];
        a[r * NQ + j] = a[pr * NQ + j], a[pr * NQ + j] = s;
      }
      for (int i = 0; i < M; ++i) {
        const double s = a[i * NQ + r];
        a[i * NQ + r] = a[i * NQ + pc], a[i * NQ + pc] = s;
      }
      const int sc = column[r];
      column[r] = column[pc], column[pc] = sc;
      for (int i = 0; i < M; ++i) {
        if (i == r) continue;
        const double factor = a[i * NQ + r] / a[r * NQ + r];
        for (int j = r; j < NQ; ++j) a[i * NQ + j] -= factor * a[r * NQ + j];
      }
    }
    sort_ascending(column, M);
    sort_ascending(column + M, N);
    for (int i = 0; i < M; ++i) dependent[i] = column[i];
    for (int k = 0; k < N; ++k) independent[k] = column[M + k];
    Linearization lin;
    double rows_phi[M];
    dae().constraint_rows_of(t, q, rows_phi, lin.a);
    partition_condition = factor_dependent(lin) ? dependent_condition(lin) : 0.0;
    return partition_condition > 0.0;
  }

  // Phi_q at the current q and the LU of its dependent columns Phi_u (what recover() leaves for its callers).
  struct Linearization {
    double a[M * NQ];
    double lu[M * M];
    int pivots[M];
  };

  // cond_1(Phi_u) from a factored linearization. O(m^3).
  MYRIAD_HD double dependent_condition(const Linearization& lin) const {
    double norm = 0.0, inverse_norm = 0.0;
    for (int c = 0; c < M; ++c) {
      double column_sum = 0.0, e[M];
      for (int i = 0; i < M; ++i) column_sum += std::fabs(lin.a[i * NQ + dependent[c]]), e[i] = i == c ? 1.0 : 0.0;
      norm = std::fmax(norm, column_sum);
      lu_solve(M, lin.lu, lin.pivots, e);
      double inverse_sum = 0.0;
      for (int i = 0; i < M; ++i) inverse_sum += std::fabs(e[i]);
      inverse_norm = std::fmax(inverse_norm, inverse_sum);
    }
    return norm * inverse_norm;
  }

  // f = v'' at (t, x = v, w = v'). False if Newton or a factorization fails.
  MYRIAD_HD bool acceleration(double t, const double* x, const double* w, double* f) {
    Linearization lin;
    if (!recover(t, x, w, lin)) return false;
    double q_ddot[NQ], z[M];
    if (!dae().accelerations_of(t, q, q_dot, q_ddot, z)) return false;
    for (int k = 0; k < N; ++k) f[k] = q_ddot[independent[k]];
    return true;
  }

  // f, J1 = df/dx, J2 = df/dw (N x N, row-major), f_t = 0 (scleronomic). Exact (dual numbers; see the top).
  MYRIAD_HD bool jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2,
                           double* f_t) {
    Linearization lin;
    if (!recover(t, x, w, lin)) return false;
    J qd[NQ], vd[NQ];
    for (int i = 0; i < NQ; ++i) qd[i] = J(q[i]), vd[i] = J(q_dot[i]);
    for (int k = 0; k < N; ++k) qd[independent[k]].d[k] = 1.0, vd[independent[k]].d[N + k] = 1.0;
    // u on duals: one Newton step at the converged u gives du/dv exactly (its value moves by rounding only).
    J phi[M], a[M * NQ];
    dae().constraint_rows_of(t, qd, phi, a);
    solve_dependent_dual(lin.lu, lin.pivots, phi);
    for (int i = 0; i < M; ++i) qd[dependent[i]] -= phi[i];
    // u' on duals: Phi_u u' = -Phi_v v' (eq. 7d), Phi_q taken on the dual q so that its derivatives enter.
    dae().constraint_rows_of(t, qd, phi, a);
    J phi_u[M * M], rhs[M];
    int dual_pivots[M];
    for (int i = 0; i < M; ++i) {
      rhs[i] = J(0.0);
      for (int k = 0; k < N; ++k) rhs[i] -= a[i * NQ + independent[k]] * vd[independent[k]];
      for (int c = 0; c < M; ++c) phi_u[i * M + c] = a[i * NQ + dependent[c]];
    }
    if (!detail::lu_factor_impl(M, phi_u, dual_pivots)) return false;
    detail::lu_solve_impl(M, phi_u, dual_pivots, rhs);
    for (int i = 0; i < M; ++i) vd[dependent[i]] = rhs[i];
    J q_ddot[NQ], z[M];
    if (!dae().accelerations_of(t, qd, vd, q_ddot, z)) return false;
    for (int k = 0; k < N; ++k) {
      const J& fk = q_ddot[independent[k]];
      f[k] = fk.value;
      f_t[k] = 0.0;
      for (int j = 0; j < N; ++j) J1[k * N + j] = fk.d[j], J2[k * N + j] = fk.d[N + j];
    }
    return true;
  }

  // Mhat = H^T M H (eq. 10a) at x (N x N, row-major).
  MYRIAD_HD bool mass_matrix(double t, const double* x, double* M_hat) {
    for (int k = 0; k < N; ++k) q[independent[k]] = x[k];
    Linearization lin;
    if (!recover_positions(t, lin)) return false;
    double H[NQ * N];
    for (int i = 0; i < NQ * N; ++i) H[i] = 0.0;
    for (int k = 0; k < N; ++k) {
      H[independent[k] * N + k] = 1.0;
      double column[M];
      for (int i = 0; i < M; ++i) column[i] = -lin.a[i * NQ + independent[k]];
      lu_solve(M, lin.lu, lin.pivots, column);
      for (int i = 0; i < M; ++i) H[dependent[i] * N + k] = column[i];
    }
    for (int i = 0; i < N * N; ++i) M_hat[i] = 0.0;
    for (int b = 0; b < NB; ++b) {
      const int o = b * Dae::kPerBody;
      double block[16];
      Dae::rotational_mass(q + o + 3, model.inertia[b], block);
      for (int r = 0; r < 7; ++r)
        for (int c = 0; c < 7; ++c) {
          const double mrc = r < 3 ? (r == c ? model.mass[b] : 0.0) : (c < 3 ? 0.0 : block[(r - 3) * 4 + c - 3]);
          if (mrc == 0.0) continue;
          for (int k = 0; k < N; ++k)
            for (int l = 0; l < N; ++l) M_hat[k * N + l] += H[(o + r) * N + k] * mrc * H[(o + c) * N + l];
        }
    }
    return true;
  }

  // Step 14 after each accepted step: see the top. True if the independent set changed (x, w rewritten).
  MYRIAD_HD bool rebase(double t, double* x, double* w) {
    Linearization lin;
    if (!recover(t, x, w, lin)) return false;  // the next linearization reports the failure
    for (int e = 0; e < model.rsda_count; ++e) {
      AbsoluteRsda& f = model.rsdas[e];
      move_rsda_anchor<Rep>(f, body_orientation(f.body_i), body_orientation(f.body_j));
    }
    const double condition = dependent_condition(lin);
    if (condition > 0.0 && condition <= repartition_factor * partition_condition) return false;
    int before[N];
    for (int k = 0; k < N; ++k) before[k] = independent[k];
    if (!partition(t)) return false;
    bool changed = false;
    for (int k = 0; k < N; ++k) changed = changed || before[k] != independent[k];
    if (!changed) return false;
    ++repartitions;
    for (int k = 0; k < N; ++k) x[k] = q[independent[k]], w[k] = q_dot[independent[k]];
    return true;
  }

  // The full (q, q') at (t, x, w), for observers (theta1 of Tables 1-2 from body 1's Euler parameters).
  MYRIAD_HD bool configuration(double t, const double* x, const double* w, double* q_out, double* q_dot_out) {
    Linearization lin;
    if (!recover(t, x, w, lin)) return false;
    for (int i = 0; i < NQ; ++i) q_out[i] = q[i], q_dot_out[i] = q_dot[i];
    return true;
  }

 private:
  MYRIAD_HD static void sort_ascending(int* v, int n) {
    for (int i = 1; i < n; ++i)
      for (int j = i; j > 0 && v[j - 1] > v[j]; --j) {
        const int s = v[j];
        v[j] = v[j - 1], v[j - 1] = s;
      }
  }

  MYRIAD_HD const double* body_orientation(int body) const {
    return body > 0 ? q + (body - 1) * Dae::kPerBody + 3 : nullptr;
  }

  // Phi_u from lin.a, factored into lin.lu (LU with partial pivoting). False if singular.
  MYRIAD_HD bool factor_dependent(Linearization& lin) const {
    for (int i = 0; i < M; ++i)
      for (int c = 0; c < M; ++c) lin.lu[i * M + c] = lin.a[i * NQ + dependent[c]];
    return lu_factor(M, lin.lu, lin.pivots);
  }

  // Phi_u^-1 b for a dual right-hand side (value and each direction), Phi_u given by its double LU.
  MYRIAD_HD static void solve_dependent_dual(const double* lu, const int* pivots, J* b) {
    double part[M];
    for (int i = 0; i < M; ++i) part[i] = b[i].value;
    lu_solve(M, lu, pivots, part);
    for (int i = 0; i < M; ++i) b[i].value = part[i];
    for (int d = 0; d < 2 * N; ++d) {
      for (int i = 0; i < M; ++i) part[i] = b[i].d[d];
      lu_solve(M, lu, pivots, part);
      for (int i = 0; i < M; ++i) b[i].d[d] = part[i];
    }
  }

  // Step 13: u with Phi(u, v) = 0 by Newton from the stored u, v = q[independent] already set; leaves Phi_q and
  // Phi_u's LU at the solution in lin.
  MYRIAD_HD bool recover_positions(double t, Linearization& lin) {
    ++recoveries;
    for (int it = 0; it <= max_newton_iterations; ++it) {
      double phi[M];
      dae().constraint_rows_of(t, q, phi, lin.a);
      double residual = 0.0;
      for (int i = 0; i < M; ++i) residual = std::fmax(residual, std::fabs(phi[i]));
      if (!is_finite(residual)) return false;
      const bool converged = residual <= position_tolerance;
      if (!converged && it == max_newton_iterations) return false;
      if (!factor_dependent(lin)) return false;
      if (converged) return true;
      lu_solve(M, lin.lu, lin.pivots, phi);
      for (int i = 0; i < M; ++i) q[dependent[i]] -= phi[i];
      ++newton_iterations;
    }
    return false;
  }

  // u and u' at (x, w) (eqs. 8, 7d); Phi_q and Phi_u's LU there in lin.
  MYRIAD_HD bool recover(double t, const double* x, const double* w, Linearization& lin) {
    for (int k = 0; k < N; ++k) q[independent[k]] = x[k];
    if (!recover_positions(t, lin)) return false;
    double rhs[M];
    for (int i = 0; i < M; ++i) {
      rhs[i] = 0.0;
      for (int k = 0; k < N; ++k) rhs[i] -= lin.a[i * NQ + independent[k]] * w[k];
    }
    lu_solve(M, lin.lu, lin.pivots, rhs);
    for (int k = 0; k < N; ++k) q_dot[independent[k]] = w[k];
    for (int i = 0; i < M; ++i) q_dot[dependent[i]] = rhs[i];
    return true;
  }
};

}  // namespace myriad
