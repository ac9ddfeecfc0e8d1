#pragma once
// The constraint equations of a model's loops and drivers on the fast path: for each row Phi_r(q, t), its
// structural Jacobian entries G_r (d/dt Phi = G v + Phi_t), Phi_t and gamma_r (d^2/dt^2 Phi = G vdot - gamma),
// the same quantities as constraints/constraint_equations.hpp (the dense Eigen version the tests compare with),
// here from the tree's body transforms and spatial velocities. Host+device, templated on the scalar, no
// allocation; O(sum over rows of the path lengths).
//
// A Jacobian column of coordinate v on the path of body b is the joint's motion subspace in world axes,
// S_W = (omega_W, v_W at the world origin): a body point p moves with v_W + omega_W x p, a body direction u with
// omega_W x u. Second derivatives use the bodies' bias accelerations a0 (accelerations at vdot = 0, no gravity).
#include "dynamics/force_elements.hpp"
#include "model/compiled_model.hpp"

namespace myriad {

// Per-instance values of all rows (lengths m, m, m and CompiledConstraints::n_values).
template <class S>
struct ConstraintRows {
  S* phi;
  S* g;      // Jacobian values by slot: row r's at g[row_values[r] + s]
  S* phi_t;
  S* gamma;
};

// Bias accelerations a0 (body coordinates) of every body: accelerations with vdot = 0 and no gravity, from
// tree_kinematics' velocity-product terms. O(n).
template <class S>
MYRIAD_HD void bias_accelerations(const CompiledModel& model, const TreeWorkspace<S>& w, Motion<S>* a0) {
  for (int i = 0; i < model.n_bodies; ++i) {
    const int parent = model.joints[i].parent;
    a0[i] = parent < 0 ? w.bias[i] : motion_to_b(w.X_parent[i], a0[parent]) + w.bias[i];
  }
}

namespace detail {

// A world vector fixed on a body: a point (moves with the body's velocity field) or a direction (rotates only).
template <class S>
struct Moving {
  Vec3<S> value, rate, bias;
  int body;  // tree body, -1 = ground
  int side;  // 1 or 2: which path of the loop its columns follow
  bool point;
};

template <class S>
MYRIAD_HD_INLINE Moving<S> moving(const TreeWorkspace<S>& w, const Motion<S>* a0, int body, int side,
                                  const Vec3<S>& local, bool point) {
  if (body < 0) return {local, Vec3<S>::zero(), Vec3<S>::zero(), body, side, point};
  const Transform<S>& X = w.X_world[body];
  const Motion<S>& V = w.velocity[body];
  const Motion<S>& A = a0[body];
  if (point) {
    const Vec3<S> v_B = V.linear + cross(V.angular, local);
    const Vec3<S> a_B = A.linear + cross(A.angular, local) + cross(V.angular, v_B);
    return {transform_point(X, local), X.R * v_B, X.R * a_B, body, side, true};
  }
  const Vec3<S> r_B = cross(V.angular, local);
  const Vec3<S> a_B = cross(A.angular, local) + cross(V.angular, r_B);
  return {X.R * local, X.R * r_B, X.R * a_B, body, side, false};
}

template <class S>
MYRIAD_HD_INLINE Vec3<S> column_derivative(const Moving<S>& X, const Motion<S>& S_W) {
  return X.point ? S_W.linear + cross(S_W.angular, X.value) : cross(S_W.angular, X.value);
}

// Calls fn(slot, column derivative of X) for every coordinate on X's path. Path 1 fills slots 0..path1_slots-1
// bottom-up; path 2 its own part after them, then joins path 1 at the lowest common body.
template <class S, class Fn>
MYRIAD_HD_INLINE void for_each_column(const CompiledModel& model, const CompiledLoop& loop,
                                      const TreeWorkspace<S>& w, const Moving<S>& X, Fn&& fn) {
  int slot = X.side == 1 ? 0 : loop.path1_slots;
  for (int b = X.body; b >= 0; b = model.joints[b].parent) {
    if (X.side == 2 && b == loop.lca) slot = loop.lca_slot;
    const CompiledJoint& joint = model.joints[b];
    for (int a = 0; a < joint.nv; ++a)
      fn(slot++, column_derivative(X, motion_to_a(w.X_world[b], w.subspace[joint.v_index + a])));
  }
}

// Rows for the world components of D = X2 - X1 (component c of `count` starting at `row`).
template <class S>
MYRIAD_HD void difference_rows(const CompiledModel& model, const CompiledLoop& loop, const TreeWorkspace<S>& w,
                               const Moving<S>& X1, const Moving<S>& X2, int row, ConstraintRows<S>& out) {
  const CompiledConstraints& c = model.constraints;
  for (int i = 0; i < 3; ++i) {
    const int r = row + i;
    S* g = out.g + c.row_values[r];
    for (int s = 0; s < loop.slots; ++s) g[s] = S(0);
    out.phi[r] = X2.value[i] - X1.value[i];
    out.phi_t[r] = S(0);
    out.gamma[r] = -(X2.bias[i] - X1.bias[i]);
    for_each_column(model, loop, w, X2, [&](int s, const Vec3<S>& d) { g[s] += d[i]; });
    for_each_column(model, loop, w, X1, [&](int s, const Vec3<S>& d) { g[s] -= d[i]; });
  }
}

// One row for X . Y: d/dt = Y . Xdot + X . Ydot, d^2/dt^2 = Y . Xddot + X . Yddot + 2 Xdot . Ydot.
template <class S>
MYRIAD_HD void dot_row(const CompiledModel& model, const CompiledLoop& loop, const TreeWorkspace<S>& w,
                       const Moving<S>& X, const Moving<S>& Y, int r, ConstraintRows<S>& out) {
  S* g = out.g + model.constraints.row_values[r];
  for (int s = 0; s < loop.slots; ++s) g[s] = S(0);
  out.phi[r] = dot(X.value, Y.value);
  out.phi_t[r] = S(0);
  out.gamma[r] = -(dot(Y.value, X.bias) + dot(X.value, Y.bias) + S(2) * dot(X.rate, Y.rate));
  for_each_column(model, loop, w, X, [&](int s, const Vec3<S>& d) { g[s] += dot(Y.value, d); });
  for_each_column(model, loop, w, Y, [&](int s, const Vec3<S>& d) { g[s] += dot(X.value, d); });
}

// A difference D = X2 - X1 of two points, as one Moving on neither body: only its value/rate/bias are used.
template <class S>
MYRIAD_HD_INLINE Moving<S> difference(const Moving<S>& X2, const Moving<S>& X1) {
  return {X2.value - X1.value, X2.rate - X1.rate, X2.bias - X1.bias, -1, 0, true};
}

}  // namespace detail

// Evaluates every row at the kinematics in `w` (tree_kinematics at q, v) and bias accelerations a0
// (bias_accelerations; only gamma reads it). Time t is double, or a Dual for df/dt (drivers' functions).
template <class S, class K, class T>
MYRIAD_HD_OUTLINE void evaluate_constraint_rows(const CompiledModel& model, const K& k, const T& t, const S* q,
                                                const TreeWorkspace<S>& w, const Motion<S>* a0,
                                                ConstraintRows<S>& out) {
  using detail::Moving;
  const CompiledConstraints& c = model.constraints;
  for (int l = 0; l < c.n_loops; ++l) {
    const CompiledLoop& loop = c.loops[l];
    const int off = loop.constants;
    const Mat3<S> R1 = load_mat3<S>(k, off + kLoopRotation1), R2 = load_mat3<S>(k, off + kLoopRotation2);
    const Vec3<S> o1 = load_vec3<S>(k, off + kLoopOrigin1), o2 = load_vec3<S>(k, off + kLoopOrigin2);
    const Moving<S> P1 = detail::moving(w, a0, loop.body1, 1, o1, true);
    const Moving<S> P2 = detail::moving(w, a0, loop.body2, 2, o2, true);
    const int row = loop.row;
    switch (loop.type) {
      case 0:  // cut_spherical
        detail::difference_rows(model, loop, w, P1, P2, row, out);
        break;
      case 1: {  // cut_revolute: frame 1's axis stays normal to frame 2's in-plane directions
        detail::difference_rows(model, loop, w, P1, P2, row, out);
        const Moving<S> a1 = detail::moving(w, a0, loop.body1, 1, R1 * load_vec3<S>(k, off + kLoopAxis), false);
        const Moving<S> e1 = detail::moving(w, a0, loop.body2, 2, R2 * load_vec3<S>(k, off + kLoopE1), false);
        const Moving<S> e2 = detail::moving(w, a0, loop.body2, 2, R2 * load_vec3<S>(k, off + kLoopE2), false);
        detail::dot_row(model, loop, w, e1, a1, row + 3, out);
        detail::dot_row(model, loop, w, e2, a1, row + 4, out);
        break;
      }
      case 2: {  // cut_universal
        detail::difference_rows(model, loop, w, P1, P2, row, out);
        const Moving<S> a1 = detail::moving(w, a0, loop.body1, 1, R1 * load_vec3<S>(k, off + kLoopAxis), false);
        const Moving<S> a2 = detail::moving(w, a0, loop.body2, 2, R2 * load_vec3<S>(k, off + kLoopAxis2), false);
        detail::dot_row(model, loop, w, a1, a2, row + 3, out);
        break;
      }
      case 3: {  // cut_planar_revolute: the origins coincide along frame 1's in-plane directions
        const Moving<S> e1 = detail::moving(w, a0, loop.body1, 1, R1 * load_vec3<S>(k, off + kLoopE1), false);
        const Moving<S> e2 = detail::moving(w, a0, loop.body1, 1, R1 * load_vec3<S>(k, off + kLoopE2), false);
        // e . (P2 - P1) = e . P2 - e . P1: two dot rows' worth of columns, accumulated into one row each.
        for (int i = 0; i < 2; ++i) {
          const Moving<S>& e = i == 0 ? e1 : e2;
          const int r = row + i;
          S* g = out.g + c.row_values[r];
          for (int s = 0; s < loop.slots; ++s) g[s] = S(0);
          const Moving<S> D = detail::difference(P2, P1);
          out.phi[r] = dot(e.value, D.value);
          out.phi_t[r] = S(0);
          out.gamma[r] = -(dot(D.value, e.bias) + dot(e.value, D.bias) + S(2) * dot(e.rate, D.rate));
          detail::for_each_column(model, loop, w, e, [&](int s, const Vec3<S>& d) { g[s] += dot(D.value, d); });
          detail::for_each_column(model, loop, w, P2, [&](int s, const Vec3<S>& d) { g[s] += dot(e.value, d); });
          detail::for_each_column(model, loop, w, P1, [&](int s, const Vec3<S>& d) { g[s] -= dot(e.value, d); });
        }
        break;
      }
      default: {  // distance (rods never reach the fast path)
        const Moving<S> D = detail::difference(P2, P1);
        const S length = scalar_sqrt(dot(D.value, D.value));
        const Vec3<S> e = (S(1) / length) * D.value;
        const S along = dot(e, D.rate);
        S* g = out.g + c.row_values[row];
        for (int s = 0; s < loop.slots; ++s) g[s] = S(0);
        out.phi[row] = length - S(k[off + kLoopLength]);
        out.phi_t[row] = S(0);
        out.gamma[row] = -(dot(e, D.bias) + (dot(D.rate, D.rate) - along * along) / length);
        detail::for_each_column(model, loop, w, P2, [&](int s, const Vec3<S>& d) { g[s] += dot(e, d); });
        detail::for_each_column(model, loop, w, P1, [&](int s, const Vec3<S>& d) { g[s] -= dot(e, d); });
        break;
      }
    }
  }
  for (int d = 0; d < c.n_drivers; ++d) {
    const CompiledDriver& driver = c.drivers[d];
    const TimeValue f = time_function_value(model, k, driver.time_function, value_of(t));
    out.phi[driver.row] = q[driver.v_index] - time_input<S>(f.value, f.rate, t);
    out.g[c.row_values[driver.row]] = S(1);
    out.phi_t[driver.row] = -time_input<S>(f.rate, f.acceleration, t);
    out.gamma[driver.row] = time_input<S>(f.acceleration, 0.0, t);
  }
}

}  // namespace myriad
