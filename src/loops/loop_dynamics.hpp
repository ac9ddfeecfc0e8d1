#pragma once
// Forward dynamics of a model with loops on the fast path: generalized accelerations vdot (nv) at a state (q, v)
// that satisfies the constraints, with PartitionScratch holding the rows and G_u factors at q (project_positions)
// and the dependent velocities solved (solve_velocities). Two methods (seed 004):
//
// Recursive coordinate reduction (sec. 3; coupled loops sec. 4.3). The velocity transformation
// v = B v_ind, B = [I; -G_u^-1 G_v], and the acceleration offset b (vdot = B vdot_ind + b, G_u b_u = gamma) come
// from the block-by-block solves, loop after loop; each body's nonholonomic partial velocities
// Ptilde_k = dV_k/dv_ind (6 x ndof, eq. 58) and its acceleration at vdot_ind = 0 follow parent-first in one
// pass, and Kane's equations in the independent speeds (eq. 57)
//     sum_k Ptilde_k^T (I_k A_k + v_k x* I_k v_k - f_k) = B^T tau
// give the ndof x ndof system Mhat vdot_ind = rhs with Mhat = sum_k Ptilde_k^T I_k Ptilde_k (seed 000 eq. 10a).
// Cost O(n ndof^2 + ndof^3 + nnz(G) ndof + sum of block sizes cubed): linear in n and m for fixed degrees of
// freedom and bounded loop size. Unlike the paper we do not triangularize through virtual bodies (eqs. 61-71):
// with few degrees of freedom the ndof x ndof system is the cheaper end of the same reduction.
//
// Standard O(n) treatment (sec. 2.5): eta = the tree's unconstrained accelerations (articulated-body
// algorithm), zeta = M^-1 G^T column by column (one articulated-body solve per constraint row, reusing the
// articulated inertias), (G zeta) lambda = gamma - G eta, vdot = eta + zeta lambda. Cost O(n m + m^2 w + m^3)
// (w: row width): the baseline the reduction is measured against (bench/loop_ladder_scaling.cpp).
//
// Host+device, templated on the scalar, no allocation.
#include "dynamics/articulated_body.hpp"
#include "dynamics/energy.hpp"
#include "loops/loop_solve.hpp"

namespace myriad {

template <class S>
struct ReductionScratch {
  S* B;        // nv x ndof, row-major
  S* offset;   // b (nv)
  Motion<S>* P;  // nb x ndof partial velocities (body coordinates)
  Motion<S>* A;  // nb accelerations at vdot_ind = 0 (gravity as base acceleration)
  S* M;        // ndof x ndof
  S* rhs;      // ndof
  int* pivots;  // ndof
  Vec3<S>* rod_J;  // 2 ndof: the world velocity columns of a rod's two ends
  S* rod_prediction;    // ndof: extrapolated independent accelerations (loops/rod_history.hpp)
  bool rod_predicted;   // add_rod takes the rods' coupling from rod_prediction (else: exact)
};

template <class S>
struct StandardScratch {
  S* zeta;       // m x nv, row-major: row r = M^-1 G_r^T
  S* A;          // m x m
  S* lambda;     // m
  int* pivots;   // m
  S* tau;        // nv
  S* u;          // nv
  Force<S>* pA;  // nb
  Motion<S>* a;  // nb
};

// The velocity transformation B and the acceleration offset b at the current q, v (rows evaluated with gamma).
template <class S>
MYRIAD_HD void velocity_transformation(const CompiledModel& model, PartitionScratch<S>& p, ReductionScratch<S>& r) {
  const CompiledConstraints& c = model.constraints;
  const int nv = model.nv, ndof = c.n_independent;
  S* x = p.step;
  for (int col = 0; col < ndof; ++col) {
    for (int i = 0; i < ndof; ++i) x[p.view.independent[i]] = S(i == col ? 1 : 0);
    for (int i = 0; i < c.m; ++i) p.rhs[i] = S(0);
    solve_dependent(model, p.view, p.rows, p.factors, p.rhs, x, p.small);
    for (int i = 0; i < nv; ++i) r.B[i * ndof + col] = x[i];
  }
  for (int i = 0; i < ndof; ++i) r.offset[p.view.independent[i]] = S(0);
  solve_dependent(model, p.view, p.rows, p.factors, p.rows.gamma, r.offset, p.small);
}

// A rod's lumped inertia (seed 001 eqs. 18-19): kinetic energy m/6 (|v1|^2 + v1 . v2 + |v2|^2) of its end points
// adds J1^T (m/3 a1 + m/6 a2) + J2^T (m/6 a1 + m/3 a2) to Kane's equations, with J_e the end points' world
// velocity columns over the independent speeds and a_e their accelerations; gravity on the midpoint enters through
// the bodies' base acceleration like everywhere else. Exact: a_e = J_e vdot_ind + a_e0 puts the whole block on the
// left (Mhat += m/3 (J1^T J1 + J2^T J2) + m/6 (J1^T J2 + J2^T J1)). With r.rod_predicted, seed 001's partition
// (eqs. 47-49): the diagonal blocks m/3 stay exact on the left, and the coupling m/6 acts as a known force from
// the other end's acceleration at the extrapolated vdot_ind (eq. 50), so no rod couples two bodies in Mhat.
// Upper triangle of r.M only.
template <class S, class K>
MYRIAD_HD void add_rod(const CompiledModel& model, const K& k, const TreeWorkspace<S>& w, ReductionScratch<S>& r,
                       int l) {
  const CompiledLoop& loop = model.constraints.loops[l];
  const int ndof = model.constraints.n_independent;
  const S mass = S(k[loop.constants + kLoopMass]);
  Vec3<S> a[2];
  for (int end = 0; end < 2; ++end) {
    const int body = end == 0 ? loop.body1 : loop.body2;
    Vec3<S>* J = r.rod_J + end * ndof;
    if (body < 0) {
      for (int col = 0; col < ndof; ++col) J[col] = Vec3<S>::zero();
      a[end] = Vec3<S>::zero();
      continue;
    }
    const Vec3<S> p = load_vec3<S>(k, loop.constants + (end == 0 ? kLoopOrigin1 : kLoopOrigin2));
    const Mat3<S>& R = w.X_world[body].R;
    for (int col = 0; col < ndof; ++col) {
      const Motion<S>& P = r.P[body * ndof + col];
      J[col] = R * (P.linear + cross(P.angular, p));
    }
    const Motion<S>& V = w.velocity[body];
    const Motion<S>& A = r.A[body];
    a[end] = R * (A.linear + cross(A.angular, p) + cross(V.angular, V.linear + cross(V.angular, p)));
  }
  const S third = mass / S(3), sixth = mass / S(6);
  const Vec3<S>* J1 = r.rod_J;
  const Vec3<S>* J2 = r.rod_J + ndof;
  if (r.rod_predicted) {
    Vec3<S> predicted1 = a[0], predicted2 = a[1];
    for (int col = 0; col < ndof; ++col) {
      predicted1 += r.rod_prediction[col] * J1[col];
      predicted2 += r.rod_prediction[col] * J2[col];
    }
    const Vec3<S> f1 = third * a[0] + sixth * predicted2, f2 = sixth * predicted1 + third * a[1];
    for (int col = 0; col < ndof; ++col) {
      r.rhs[col] -= dot(J1[col], f1) + dot(J2[col], f2);
      for (int row = 0; row <= col; ++row)
        r.M[row * ndof + col] += third * (dot(J1[row], J1[col]) + dot(J2[row], J2[col]));
    }
    return;
  }
  const Vec3<S> f1 = third * a[0] + sixth * a[1], f2 = sixth * a[0] + third * a[1];
  for (int col = 0; col < ndof; ++col) {
    r.rhs[col] -= dot(J1[col], f1) + dot(J2[col], f2);
    for (int row = 0; row <= col; ++row)
      r.M[row * ndof + col] += third * (dot(J1[row], J1[col]) + dot(J2[row], J2[col])) +
                               sixth * (dot(J1[row], J2[col]) + dot(J2[row], J1[col]));
  }
}

// Kane's equations in the independent speeds; writes Mhat into r.M (unfactored copy kept when mass_out) and
// vdot (nv). Needs tree_kinematics at (q, v), applied_forces, and rows with gamma at (q, v). False when Mhat is
// singular.
template <class S, class K>
MYRIAD_HD_OUTLINE bool reduced_accelerations(const CompiledModel& model, const K& k, TreeWorkspace<S>& w,
                                             PartitionScratch<S>& p, ReductionScratch<S>& r, S* vdot,
                                             S* mass_out) {
  const CompiledConstraints& c = model.constraints;
  const int nb = model.n_bodies, ndof = c.n_independent;
  velocity_transformation(model, p, r);
  for (int i = 0; i < ndof * ndof; ++i) r.M[i] = S(0);
  for (int i = 0; i < ndof; ++i) r.rhs[i] = S(0);
  const Motion<S> a_base = base_acceleration<S>(model, k);
  for (int i = 0; i < nb; ++i) {
    const CompiledJoint& joint = model.joints[i];
    const int parent = joint.parent;
    Motion<S> A = (parent < 0 ? motion_to_b(w.X_parent[i], a_base) : motion_to_b(w.X_parent[i], r.A[parent])) +
                  w.bias[i];
    for (int a = 0; a < joint.nv; ++a) A += r.offset[joint.v_index + a] * w.subspace[joint.v_index + a];
    r.A[i] = A;
    Motion<S>* P = r.P + i * ndof;
    for (int col = 0; col < ndof; ++col) {
      Motion<S> Pc = parent < 0 ? Motion<S>::zero() : motion_to_b(w.X_parent[i], r.P[parent * ndof + col]);
      for (int a = 0; a < joint.nv; ++a) Pc += r.B[(joint.v_index + a) * ndof + col] * w.subspace[joint.v_index + a];
      P[col] = Pc;
    }
    const SpatialInertia<S> I = body_inertia<S>(model, k, i);
    const Force<S> h = I * A + cross_force(w.velocity[i], I * w.velocity[i]) - w.f_ext[i];
    for (int col = 0; col < ndof; ++col) {
      const Force<S> IP = I * P[col];
      for (int row = 0; row <= col; ++row) r.M[row * ndof + col] += dot(P[row], IP);
      r.rhs[col] -= dot(P[col], h);
    }
  }
  for (int l = 0; l < c.n_loops; ++l)
    if (c.loops[l].type == kLoopTypeRod) add_rod(model, k, w, r, l);
  for (int row = 0; row < ndof; ++row)
    for (int col = 0; col < row; ++col) r.M[row * ndof + col] = r.M[col * ndof + row];
  for (int v = 0; v < model.nv; ++v)
    for (int col = 0; col < ndof; ++col) r.rhs[col] += r.B[v * ndof + col] * w.tau[v];
  if (mass_out)
    for (int i = 0; i < ndof * ndof; ++i) mass_out[i] = r.M[i];
  if (!lu_factor_scalar(ndof, r.M, r.pivots)) return false;
  lu_solve_scalar(ndof, r.M, r.pivots, r.rhs);
  for (int v = 0; v < model.nv; ++v) {
    S sum = r.offset[v];
    for (int col = 0; col < ndof; ++col) sum += r.B[v * ndof + col] * r.rhs[col];
    vdot[v] = sum;
  }
  return true;
}

// Standard O(n) treatment with constraint forces. Needs tree_kinematics at (q, v), applied_forces, rows with
// gamma. False on a singular joint inertia or a singular G M^-1 G^T.
template <class S, class K>
MYRIAD_HD_OUTLINE bool standard_accelerations(const CompiledModel& model, const K& k, TreeWorkspace<S>& w,
                                              PartitionScratch<S>& p, StandardScratch<S>& s, S* vdot) {
  const CompiledConstraints& c = model.constraints;
  const int nv = model.nv, m = c.m;
  if (!articulated_body_accelerations(model, k, w, vdot)) return false;  // eta
  for (int r = 0; r < m; ++r) {
    for (int v = 0; v < nv; ++v) s.tau[v] = S(0);
    const S* g = p.rows.g + c.row_values[r];
    const int* column = c.slot_column + c.row_slots[r];
    for (int j = 0; j < c.row_width[r]; ++j) s.tau[column[j]] += g[j];
    articulated_body_solve(model, w, s.tau, s.pA, s.u, s.a, s.zeta + r * nv);  // M^-1 tau
  }
  for (int r = 0; r < m; ++r) {
    const S* g = p.rows.g + c.row_values[r];
    const int* column = c.slot_column + c.row_slots[r];
    S rhs = p.rows.gamma[r];
    for (int j = 0; j < c.row_width[r]; ++j) rhs -= g[j] * vdot[column[j]];
    s.lambda[r] = rhs;
    for (int r2 = 0; r2 < m; ++r2) {
      S sum = S(0);
      for (int j = 0; j < c.row_width[r]; ++j) sum += g[j] * s.zeta[r2 * nv + column[j]];
      s.A[r * m + r2] = sum;
    }
  }
  if (!lu_factor_scalar(m, s.A, s.pivots)) return false;
  lu_solve_scalar(m, s.A, s.pivots, s.lambda);
  for (int r = 0; r < m; ++r)
    for (int v = 0; v < nv; ++v) vdot[v] += s.zeta[r * nv + v] * s.lambda[r];
  return true;
}

}  // namespace myriad
