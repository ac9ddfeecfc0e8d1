#pragma once
// The tree's state-space ODE in second-order (Nystrom) form for the Rosenbrock-Nystrom integrators
// (src/integrators/second_order_system.hpp, seed 000 eqs. 8-10): positions x are the chart coordinates of
// dynamics/tree_chart.hpp (nv of them), velocities w = x' the chart rates, and x'' = f(t, x, w).
//
// The generalized velocities u of the dynamics are u = T(x) w, T block diagonal: the identity for revolute,
// prismatic, cylindrical, universal and planar joints; Jr(phi) (right Jacobian of SO(3)) on a rotation vector
// phi of a spherical or free joint (omega = Jr(phi) phi'); R_FM^T on a free joint's position (v_lin = R_FM^T
// p'). With u' from the articulated-body algorithm the chart accelerations are
//   non-rotation joints:     x'' = u'
//   rotation vector phi:     phi'' = d/dt[Jr^-1(phi) omega] = Jr^-1(phi) omega' + D_phi[Jr^-1(phi) omega] .
//   phi' free joint position p:   p'' = d/dt[R_FM v_lin] = R_FM (v_lin' + omega x v_lin)     (R_FM' = R_FM
//   [omega]x)
// and the mass matrix of eq. 10a in these coordinates is Mhat = T^T M T (M u' = Q  =>  T^T M T x'' = T^T (Q -
// M T' w)).
//
// Jacobians J1 = df/dx, J2 = df/dw and f_t = df/dt are exact, by differentiating the equations of motion rather
// than their solution (Carpentier & Mansard 2018, "Analytical derivatives of rigid body dynamics algorithms",
// sec. III): with u' = FD(q, u, t) the residual r(q, u, t, a) = ID(q, u, a) - Q(t, q, u) = M(q) a + C - Q vanishes
// at a = u', so for any direction z
//   du'/dz = -M(q)^-1 dr/dz |_(a = u' held),
// and the recursive Newton-Euler algorithm (dynamics/inverse_dynamics.hpp) on forward-mode Dual numbers
// (core/dual.hpp) gives dr/dz, kJacobianChunk directions per pass, through chart_to_q and the w -> u map. The
// x'' map then runs on Duals whose u' carries those derivatives. The Newton-Euler passes cost well under the
// articulated-body passes they replace (no articulated inertias, no joint inverses), and M^-1 is applied by the
// articulated-body factors the plain forward dynamics leaves behind (articulated_body_solve): O(n) per
// direction, with no mass matrix to form or factor and no buffer beyond the plain scratch. (A dense LU of the
// CRBA M, tried first, gave the same Jacobians to within the same cond(M) eps.) Time enters only through time
// functions; the Dual evaluation passes time itself as a Dual (see time_input in dynamics/force_elements.hpp).
//
// Host+device, no allocation: the caller owns every buffer (tree_second_order_bytes,
// carve_tree_second_order).
#include <cstddef>

#include "core/dual.hpp"
#include "dynamics/articulated_body.hpp"
#include "dynamics/inverse_dynamics.hpp"
#include "dynamics/mass_matrix.hpp"
#include "dynamics/tree_chart.hpp"

namespace myriad {

// Derivative directions per Dual pass of TreeSecondOrder::jacobians (and LoopSecondOrder's): a Jacobian costs
// ceil((2 nv + 1) / kJacobianChunk) evaluations of the dynamics in Dual arithmetic (the + 1 is time, only for
// models with time functions). Each direction's derivative is computed by the same operations whatever the
// chunk, so the width changes the cost, never the Jacobian. Two is the measured best: a Dual<double, 2>
// (3 doubles) keeps the spatial algebra's small structs in registers, while the 8-wide one (9 doubles) moved
// them through memory on every call and ran slower despite its fewer passes (RN4, one thread, bit-identical
// outputs: stiff pendulum 3.1 -> 1.15 s, four-bar 1.07 -> 0.22 s, spatial chain 13.5 -> 6.3 s; widths 1 and 4
// were in between). On the GPU the same width keeps the Dual paths' stack frames a third of the 8-wide size.
constexpr int kJacobianChunk = 2;
using JacobianDual = Dual<double, kJacobianChunk>;

// Direction j of a Jacobian pass, derivative(i) for i < n, stored where it belongs: column j of J1 (j < n),
// column j - n of J2 (j < 2n) or f_t (j = 2n, time). False, with the direction partly stored, if one is not finite.
template <class S, class Derivative>
MYRIAD_HD_INLINE bool store_jacobian_direction(int n, int j, const Derivative& derivative, S* J1, S* J2, S* f_t) {
  for (int i = 0; i < n; ++i) {
    const S value = derivative(i);
    if (!is_finite(value)) return false;
    if (j < n)
      J1[i * n + j] = value;
    else if (j < 2 * n)
      J2[i * n + (j - n)] = value;
    else
      f_t[i] = value;
  }
  return true;
}

// ---- the maps between chart rates w and generalized velocities u ----

// u = T(x) w (nv): generalized velocities from chart rates at chart point x with coordinates q (chart_to_q).
// The inverse of chart_rate. O(nv).
template <class S>
MYRIAD_HD void velocity_from_chart_rate(const CompiledModel& model, const S* x, const S* q, const S* w,
                                        S* u) {
  for (int i = 0; i < model.n_bodies; ++i) {
    const CompiledJoint& joint = model.joints[i];
    const int v0 = joint.v_index;
    const int rot = joint_rotation_offset(joint.type);
    if (rot < 0) {
      for (int a = 0; a < joint.nv; ++a) u[v0 + a] = w[v0 + a];
      continue;
    }
    const Vec3<S> phi{x[v0 + rot], x[v0 + rot + 1], x[v0 + rot + 2]};
    const Vec3<S> omega = right_jacobian_times(phi, Vec3<S>{w[v0 + rot], w[v0 + rot + 1], w[v0 + rot + 2]});
    for (int a = 0; a < 3; ++a) u[v0 + rot + a] = omega[a];
    if (joint.type == kFree) {
      const Mat3<S> R_FM = rotation_matrix(load_quat(q + joint.q_index + 3));
      const Vec3<S> v_M = transpose_times(R_FM, Vec3<S>{w[v0], w[v0 + 1], w[v0 + 2]});
      for (int a = 0; a < 3; ++a) u[v0 + a] = v_M[a];
    }
  }
}

// x'' (nv) from the chart point x, its coordinates q, chart rates w, generalized velocities u = T w and their
// rates u_dot (forward dynamics); the formulas in this file's header. O(nv).
template <class S>
MYRIAD_HD void chart_acceleration(const CompiledModel& model, const S* x, const S* q, const S* w, const S* u,
                                  const S* u_dot, S* x_ddot) {
  for (int i = 0; i < model.n_bodies; ++i) {
    const CompiledJoint& joint = model.joints[i];
    const int v0 = joint.v_index;
    const int rot = joint_rotation_offset(joint.type);
    if (rot < 0) {
      for (int a = 0; a < joint.nv; ++a) x_ddot[v0 + a] = u_dot[v0 + a];
      continue;
    }
    const Vec3<S> phi{x[v0 + rot], x[v0 + rot + 1], x[v0 + rot + 2]};
    const Vec3<S> phi_dot{w[v0 + rot], w[v0 + rot + 1], w[v0 + rot + 2]};
    const Vec3<S> omega{u[v0 + rot], u[v0 + rot + 1], u[v0 + rot + 2]};
    const Vec3<S> omega_dot{u_dot[v0 + rot], u_dot[v0 + rot + 1], u_dot[v0 + rot + 2]};
    const Vec3<S> phi_ddot = right_jacobian_inverse_times(phi, omega_dot) +
                             right_jacobian_inverse_derivative_times(phi, omega, phi_dot);
    for (int a = 0; a < 3; ++a) x_ddot[v0 + rot + a] = phi_ddot[a];
    if (joint.type == kFree) {
      const Mat3<S> R_FM = rotation_matrix(load_quat(q + joint.q_index + 3));
      const Vec3<S> v_M{u[v0], u[v0 + 1], u[v0 + 2]};
      const Vec3<S> v_dot_M{u_dot[v0], u_dot[v0 + 1], u_dot[v0 + 2]};
      const Vec3<S> p_ddot = R_FM * (v_dot_M + cross(omega, v_M));
      for (int a = 0; a < 3; ++a) x_ddot[v0 + a] = p_ddot[a];
    }
  }
}

// The 3x3 block B of T = du/dw (see the file header) for part 0 (rotation vector: Jr(phi)) or part 1 (free
// position: R_FM^T) of a joint at chart point x with coordinates q (chart_to_q), and its first index; false if the
// joint has no such block. O(1).
MYRIAD_HD_INLINE bool chart_velocity_block(const CompiledJoint& joint, const double* x, const double* q, int part,
                                           Mat3<double>& B, int& first) {
  const int rot = joint_rotation_offset(joint.type);
  if (rot < 0) return false;
  if (part == 0) {
    first = joint.v_index + rot;
    const Vec3<double> phi{x[first], x[first + 1], x[first + 2]};
    for (int col = 0; col < 3; ++col) {
      Vec3<double> e = Vec3<double>::zero();
      e[col] = 1.0;
      const Vec3<double> column = right_jacobian_times(phi, e);
      for (int row = 0; row < 3; ++row) B.m[row][col] = column[row];
    }
    return true;
  }
  if (joint.type != kFree) return false;
  first = joint.v_index;
  B = transpose(rotation_matrix(load_quat(q + joint.q_index + 3)));
  return true;
}

// M <- T^T M T (nv x nv, row-major) at chart point x with coordinates q, made exactly symmetric: the mass matrix in
// chart rates, for a model with spherical or free joints (T is the identity elsewhere). O(nv^2).
MYRIAD_HD_INLINE void chart_mass_matrix(const CompiledModel& model, const double* x, const double* q, double* M) {
  const int n = model.nv;
  // M <- M T (each 3-column block of a rotation vector or free position times its 3x3 block B).
  for (int b = 0; b < model.n_bodies; ++b) {
    const CompiledJoint& joint = model.joints[b];
    for (int part = 0; part < 2; ++part) {
      Mat3<double> B;
      int c0;
      if (!chart_velocity_block(joint, x, q, part, B, c0)) continue;
      for (int r = 0; r < n; ++r) {
        double* m = M + r * n + c0;
        const double m0 = m[0], m1 = m[1], m2 = m[2];
        for (int j = 0; j < 3; ++j) m[j] = m0 * B.m[0][j] + m1 * B.m[1][j] + m2 * B.m[2][j];
      }
    }
  }
  // M <- T^T M.
  for (int b = 0; b < model.n_bodies; ++b) {
    const CompiledJoint& joint = model.joints[b];
    for (int part = 0; part < 2; ++part) {
      Mat3<double> B;
      int r0;
      if (!chart_velocity_block(joint, x, q, part, B, r0)) continue;
      for (int col = 0; col < n; ++col) {
        const double m0 = M[r0 * n + col], m1 = M[(r0 + 1) * n + col], m2 = M[(r0 + 2) * n + col];
        for (int i = 0; i < 3; ++i) M[(r0 + i) * n + col] = B.m[0][i] * m0 + B.m[1][i] * m1 + B.m[2][i] * m2;
      }
    }
  }
  // Exactly symmetric for the factorization of Pi.
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) M[i * n + j] = M[j * n + i] = 0.5 * (M[i * n + j] + M[j * n + i]);
}

// ---- per-instance scratch ----

template <class S>
struct TreeSecondOrderScratch {
  S* x;  // chart point (nv), a copy of the input seeded for Jacobians; written by TreeSecondOrder::jacobians
  S* w;  // chart rates (nv), likewise
  S* q;  // coordinates (nq), written by chart_to_q
  S* u;  // generalized velocities (nv), written by velocity_from_chart_rate
  S* u_dot;               // generalized accelerations (nv), written by articulated_body_accelerations
  S* f;  // chart accelerations x'' (nv) on Duals; on doubles jacobians' right-hand sides and solutions
  TreeWorkspace<S> tree;  // the tree algorithms' scratch (tree_workspace.hpp)
};

// Lays the scratch for scalar S out over `buffer`; with buffer == nullptr only `bytes_used` is useful. O(1).
template <class S>
MYRIAD_HD TreeSecondOrderScratch<S> carve_tree_second_order_scratch(const CompiledModel& model, void* buffer,
                                                                    std::size_t* bytes_used) {
  const int nv = model.nv > 0 ? model.nv : 1, nq = model.nq > 0 ? model.nq : 1;
  unsigned char* start = static_cast<unsigned char*>(buffer);
  unsigned char* cursor = start;
  TreeSecondOrderScratch<S> s;
  s.x = detail::carve<S>(cursor, nv);
  s.w = detail::carve<S>(cursor, nv);
  s.q = detail::carve<S>(cursor, nq);
  s.u = detail::carve<S>(cursor, nv);
  s.u_dot = detail::carve<S>(cursor, nv);
  s.f = detail::carve<S>(cursor, nv);
  std::size_t tree_bytes = 0;
  s.tree = carve_tree_workspace<S>(model, cursor, &tree_bytes);
  cursor = reinterpret_cast<unsigned char*>(reinterpret_cast<std::size_t>(cursor) + tree_bytes);  // null-safe
  if (bytes_used)
    *bytes_used =
        reinterpret_cast<std::size_t>(cursor) - reinterpret_cast<std::size_t>(start) + alignof(S) + 64;
  return s;
}

template <class S>
std::size_t tree_second_order_scratch_bytes(const CompiledModel& model) {
  std::size_t bytes = 0;
  carve_tree_second_order_scratch<S>(model, nullptr, &bytes);
  return bytes;
}

// ---- the evaluation, on any scalar ----

// x'' = f(t, x, w) (nv) into `f` on scalar S, with time t a double or an S (to differentiate with respect to
// time). Uses s.q, s.u, s.u_dot, s.tree. O(n). Returns false on a singular joint inertia.
template <class S, class K, class T>
MYRIAD_HD bool tree_second_order_acceleration(const CompiledModel& model, const K& k, const double* base_q,
                                              const T& t, const S* x, const S* w,
                                              TreeSecondOrderScratch<S>& s, S* f) {
  chart_to_q(model, base_q, x, s.q);
  velocity_from_chart_rate(model, x, s.q, w, s.u);
  tree_kinematics(model, k, s.q, s.u, s.tree);
  applied_forces(model, k, t, s.q, s.u, s.tree);
  if (!articulated_body_accelerations(model, k, s.tree, s.u_dot)) return false;
  chart_acceleration(model, x, s.q, w, s.u, s.u_dot, f);
  return true;
}

// The residual r = ID(q, u, a) - Q(t, q, u) (nv) into s.u_dot at chart point x and rates w, with the
// accelerations a held (the forward dynamics' value): its derivatives on scalar S are M du'/dz with the sign
// flipped (see the file header). Leaves s.q and s.u for chart_acceleration. O(n).
template <class S, class K, class T>
MYRIAD_HD void tree_second_order_residual(const CompiledModel& model, const K& k, const double* base_q,
                                          const T& t, const S* x, const S* w, const double* a,
                                          TreeSecondOrderScratch<S>& s) {
  chart_to_q(model, base_q, x, s.q);
  velocity_from_chart_rate(model, x, s.q, w, s.u);
  tree_kinematics(model, k, s.q, s.u, s.tree);
  applied_forces(model, k, t, s.q, s.u, s.tree);
  newton_euler_forces(model, k, a, s.tree, s.u_dot);
}

// ---- the system the Rosenbrock-Nystrom integrators see ----

template <class K>
struct TreeSecondOrder {
  const CompiledModel* model;
  K constants;
  double* base_q;                          // chart base (nq), owned by the caller; rewritten by rebase
  TreeSecondOrderScratch<double> scratch;  // acceleration, mass_matrix, rebase and the state conversions
  TreeSecondOrderScratch<JacobianDual>
      dual;  // jacobians only (may stay uncarved if jacobians is never called)
  // Rotation-vector length past which rebase re-centres the chart. 0 (the Rosenbrock methods'): at every step. The
  // implicit multistep methods (integrators/implicit_outputs.hpp) restart after a re-centring, so their runs set
  // kChartRebaseThreshold, as the first-order form has.
  double rebase_threshold = 0.0;

  // The model, or the constant a kernel specialized on it folds (model_of, dynamics/model_class.hpp).
  MYRIAD_HD_INLINE const CompiledModel& the_model() const { return model_of<K>(*model); }

  MYRIAD_HD int dimension() const { return the_model().nv; }

  // f = x''. O(n). False on a singular joint inertia or a non-finite value.
  MYRIAD_HD bool acceleration(double t, const double* x, const double* w, double* f) {
    if (!tree_second_order_acceleration(the_model(), constants, base_q, t, x, w, scratch, f)) return false;
    for (int i = 0; i < the_model().nv; ++i)
      if (!is_finite(f[i])) return false;
    return true;
  }

  // f, J1 = df/dx, J2 = df/dw (nv x nv, row-major) and f_t = df/dt (nv), all exact: one plain forward dynamics
  // for f and u', then ceil((2 nv + timed) / kJacobianChunk) Dual passes of the Newton-Euler residual over
  // (x, w, t), each followed by kJacobianChunk solves with the forward dynamics' articulated-body factors and
  // the x'' map on Duals (see the file header). f_t is zero without time functions. False on a singular joint
  // inertia or a non-finite value.
  MYRIAD_HD bool jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2,
                           double* f_t) {
    const int n = the_model().nv;
    const bool timed = the_model().n_time_functions > 0;
    const int directions = 2 * n + (timed ? 1 : 0);
    if (!timed)
      for (int i = 0; i < n; ++i) f_t[i] = 0.0;
    // Leaves u' in scratch.u_dot and the articulated-body factors of M(q) in scratch.tree.
    if (!acceleration(t, x, w, f)) return false;
    for (int first = 0; first < directions; first += kJacobianChunk) {
      // Direction j seeds x_j (j < n), w_(j-n) (n <= j < 2n) or time (j = 2n); variable() ignores directions
      // outside this pass.
      for (int i = 0; i < n; ++i) {
        dual.x[i] = JacobianDual::variable(x[i], i - first);
        dual.w[i] = JacobianDual::variable(w[i], n + i - first);
      }
      const JacobianDual t_dual = JacobianDual::variable(t, timed ? 2 * n - first : -1);
      tree_second_order_residual(the_model(), constants, base_q, t_dual, dual.x, dual.w, scratch.u_dot, dual);
      // du'/dz = M^-1 (-dr/dz) per direction (scratch.f carries it); dual.u_dot becomes u' with those
      // derivatives.
      for (int slot = 0; slot < kJacobianChunk && first + slot < directions; ++slot) {
        for (int i = 0; i < n; ++i) scratch.f[i] = -dual.u_dot[i].d[slot];
        articulated_body_solve(the_model(), scratch.tree, scratch.f, scratch.tree.pA, scratch.tree.u,
                               scratch.tree.acceleration, scratch.f);
        for (int i = 0; i < n; ++i) dual.u_dot[i].d[slot] = scratch.f[i];
      }
      for (int i = 0; i < n; ++i) dual.u_dot[i].value = scratch.u_dot[i];
      chart_acceleration(the_model(), dual.x, dual.q, dual.w, dual.u, dual.u_dot, dual.f);
      for (int slot = 0; slot < kJacobianChunk && first + slot < directions; ++slot) {
        const auto derivative = [&](int i) { return dual.f[i].d[slot]; };
        if (!store_jacobian_direction(n, first + slot, derivative, J1, J2, f_t)) return false;
      }
    }
    return true;
  }

  // Mhat = T^T M T (nv x nv, row-major, symmetric positive definite) at chart point x, with M from the
  // composite-rigid-body algorithm and T = du/dw block diagonal (see the file header). O(n d + nv^2).
  // False on a non-finite value.
  MYRIAD_HD bool mass_matrix(double, const double* x, double* M) {
    const int n = the_model().nv;
    chart_to_q(the_model(), base_q, x, scratch.q);
    for (int i = 0; i < n; ++i) scratch.u[i] = 0.0;
    ::myriad::mass_matrix(the_model(), constants, scratch.q, scratch.u, scratch.tree, M);
    if (the_model().has_quaternions) chart_mass_matrix(the_model(), x, scratch.q, M);
    for (int i = 0; i < n * n; ++i)
      if (!is_finite(M[i])) return false;
    return true;
  }

  // Re-centres the chart at the current configuration: every non-zero rotation vector is folded into its base
  // quaternion (phi = 0 afterwards) and w is recomputed from the unchanged generalized velocities u (at phi =
  // 0, w_phi = omega). q and u are the same before and after up to round-off. Returns true if anything
  // changed (always false for models without spherical or free joints). O(n).
  MYRIAD_HD bool rebase(double, double* x, double* w) {
    if (!the_model().has_quaternions) return false;
    chart_to_q(the_model(), base_q, x, scratch.q);
    velocity_from_chart_rate(the_model(), x, scratch.q, w, scratch.u);
    if (!chart_rebase(the_model(), base_q, x, rebase_threshold)) return false;
    chart_to_q(the_model(), base_q, x, scratch.q);
    chart_rate(the_model(), x, scratch.q, scratch.u, w);
    return true;
  }

  // y = (x, u) (2 nv), the state of TreeOde (dynamics/tree_ode.hpp) over the same chart base, from (x, w).
  // O(n).
  MYRIAD_HD void to_first_order(const double* x, const double* w, double* y) {
    const int n = the_model().nv;
    for (int i = 0; i < n; ++i) y[i] = x[i];
    chart_to_q(the_model(), base_q, x, scratch.q);
    velocity_from_chart_rate(the_model(), x, scratch.q, w, y + n);
  }

  // (x, w) from the TreeOde state y = (x, u) over the same chart base. O(n).
  MYRIAD_HD void from_first_order(const double* y, double* x, double* w) {
    const int n = the_model().nv;
    for (int i = 0; i < n; ++i) x[i] = y[i];
    chart_to_q(the_model(), base_q, x, scratch.q);
    chart_rate(the_model(), x, scratch.q, y + n, w);
  }

};

// Bytes of the one buffer make_tree_second_order carves (double scratch, then the Dual scratch of jacobians).
MYRIAD_HD inline std::size_t tree_second_order_bytes(const CompiledModel& model) {
  std::size_t plain = 0, dual = 0;
  carve_tree_second_order_scratch<double>(model, nullptr, &plain);
  carve_tree_second_order_scratch<JacobianDual>(model, nullptr, &dual);
  return plain + dual;
}

// A TreeSecondOrder over the caller's `buffer` (tree_second_order_bytes(model) bytes) and chart base `base_q`
// (nq). O(1); no allocation.
template <class K>
MYRIAD_HD TreeSecondOrder<K> make_tree_second_order(const CompiledModel& model, const K& constants,
                                                    double* base_q, void* buffer) {
  TreeSecondOrder<K> system{&model, constants, base_q, {}, {}};
  unsigned char* cursor = static_cast<unsigned char*>(buffer);
  std::size_t bytes = 0;
  system.scratch = carve_tree_second_order_scratch<double>(model, cursor, &bytes);
  cursor = reinterpret_cast<unsigned char*>(reinterpret_cast<std::size_t>(cursor) + bytes);
  system.dual = carve_tree_second_order_scratch<JacobianDual>(model, cursor, nullptr);
  return system;
}

}  // namespace myriad
