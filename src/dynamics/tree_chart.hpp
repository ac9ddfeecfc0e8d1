#pragma once
// The vector space integrators see. Position-like state x has nv entries: joint coordinates themselves for
// revolute, prismatic, cylindrical, universal and planar joints (so relative tolerances act on q as in seed 000
// eq. 13); for a spherical joint a local rotation vector phi with R = R_base exp(phi); for a free joint the
// position followed by such a rotation vector. Base quaternions live in `base_q` (nq, only quaternion slots used)
// and are re-centred now and then (chart_rebase), as DESIGN.md prescribes.
#include "dynamics/joint_model.hpp"

namespace myriad {

// Index of the first quaternion coordinate of a joint within its q block, or -1.
MYRIAD_HD_INLINE int joint_quaternion_offset(int type) { return type == kSpherical ? 0 : (type == kFree ? 3 : -1); }
// Index of the rotation vector within the joint's x (= v) block, or -1.
MYRIAD_HD_INLINE int joint_rotation_offset(int type) { return type == kSpherical ? 0 : (type == kFree ? 3 : -1); }

// q (nq) from the chart point x (nv).
template <class S>
MYRIAD_HD void chart_to_q(const CompiledModel& model, const double* base_q, const S* x, S* q) {
  MYRIAD_UNROLL
  for (int i = 0; i < model.n_bodies; ++i) {
    const CompiledJoint& joint = model.joints[i];
    const S* xj = x + joint.v_index;
    S* qj = q + joint.q_index;
    const int quat = joint_quaternion_offset(joint.type);
    if (quat < 0) {
      for (int a = 0; a < joint.nq; ++a) qj[a] = xj[a];
      continue;
    }
    const int rot = joint_rotation_offset(joint.type);
    for (int a = 0; a < quat; ++a) qj[a] = xj[a];  // free joint position
    const double* b = base_q + joint.q_index + quat;
    const Quat<S> base{S(b[0]), S(b[1]), S(b[2]), S(b[3])};
    const Quat<S> r = base * quat_exp(Vec3<S>{xj[rot], xj[rot + 1], xj[rot + 2]});
    qj[quat] = r.w;
    qj[quat + 1] = r.x;
    qj[quat + 2] = r.y;
    qj[quat + 3] = r.z;
  }
}

// dx/dt (nv) at chart point x with coordinates q (from chart_to_q) and velocities v.
template <class S>
MYRIAD_HD void chart_rate(const CompiledModel& model, const S* x, const S* q, const S* v, S* x_dot) {
  MYRIAD_UNROLL
  for (int i = 0; i < model.n_bodies; ++i) {
    const CompiledJoint& joint = model.joints[i];
    const int v0 = joint.v_index;
    if (joint.type == kSpherical || joint.type == kFree) {
      const int rot = joint_rotation_offset(joint.type);
      const Vec3<S> phi{x[v0 + rot], x[v0 + rot + 1], x[v0 + rot + 2]};
      const Vec3<S> omega{v[v0 + rot], v[v0 + rot + 1], v[v0 + rot + 2]};
      const Vec3<S> phi_dot = right_jacobian_inverse_times(phi, omega);
      for (int a = 0; a < 3; ++a) x_dot[v0 + rot + a] = phi_dot[a];
      if (joint.type == kFree) {
        // Position rate in F from the body-axis velocity of M's origin.
        const Mat3<S> R_FM = rotation_matrix(load_quat(q + joint.q_index + 3));
        const Vec3<S> p_dot = R_FM * Vec3<S>{v[v0], v[v0 + 1], v[v0 + 2]};
        for (int a = 0; a < 3; ++a) x_dot[v0 + a] = p_dot[a];
      }
    } else {
      for (int a = 0; a < joint.nv; ++a) x_dot[v0 + a] = v[v0 + a];
    }
  }
}

// Chart centred at q: base_q takes q's quaternions (normalized), x the coordinates with zero rotation vectors.
MYRIAD_HD inline void chart_from_q(const CompiledModel& model, const double* q, double* base_q, double* x) {
  MYRIAD_UNROLL
  for (int i = 0; i < model.n_bodies; ++i) {
    const CompiledJoint& joint = model.joints[i];
    for (int a = 0; a < joint.nq; ++a) base_q[joint.q_index + a] = q[joint.q_index + a];
    const int quat = joint_quaternion_offset(joint.type);
    if (quat < 0) {
      for (int a = 0; a < joint.nq; ++a) x[joint.v_index + a] = q[joint.q_index + a];
      continue;
    }
    const Quat<double> n = load_quat(q + joint.q_index + quat);
    double* b = base_q + joint.q_index + quat;
    b[0] = n.w;
    b[1] = n.x;
    b[2] = n.y;
    b[3] = n.z;
    for (int a = 0; a < quat; ++a) x[joint.v_index + a] = q[joint.q_index + a];
    for (int a = 0; a < 3; ++a) x[joint.v_index + joint_rotation_offset(joint.type) + a] = 0.0;
  }
}

// Folds rotation vectors longer than `threshold` rad into the base quaternions. Returns true if x changed.
// Keeping |phi| well below pi keeps the chart far from its singularity.
MYRIAD_HD inline bool chart_rebase(const CompiledModel& model, double* base_q, double* x, double threshold) {
  bool changed = false;
  MYRIAD_UNROLL
  for (int i = 0; i < model.n_bodies; ++i) {
    const CompiledJoint& joint = model.joints[i];
    const int rot = joint_rotation_offset(joint.type);
    if (rot < 0) continue;
    double* phi = x + joint.v_index + rot;
    if (phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2] <= threshold * threshold) continue;
    double* b = base_q + joint.q_index + joint_quaternion_offset(joint.type);
    const Quat<double> r = normalized(Quat<double>{b[0], b[1], b[2], b[3]} * quat_exp(Vec3<double>{phi[0], phi[1], phi[2]}));
    b[0] = r.w;
    b[1] = r.x;
    b[2] = r.y;
    b[3] = r.z;
    phi[0] = phi[1] = phi[2] = 0.0;
    changed = true;
  }
  return changed;
}

}  // namespace myriad
