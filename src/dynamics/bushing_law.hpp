#pragma once
// A bushing's law (docs/model-format.md, "Force elements"): a linear six-axis spring-damper between frame F1 and
// frame F2, given by their orientations, origins and the velocities of the bodies carrying them; both engines take
// their frames from their own kinematics (dynamics/bushing.hpp: the tree's bodies; absolute/absolute_forces.hpp: seed
// 002's absolute coordinates) and this file turns them into the deflections, the energy and the load. With R1 =
// R_WF1 and o1, o2 the frames' origins in the world, the deflections in F1's axes are
//   d = R1^T (o2 - o1),   theta = log(R1^T R2)   (the rotation vector of F2 relative to F1),
// and the stored energy V = 1/2 d^T K_t d + 1/2 theta^T K_r theta (K diagonal). Its exact generalized forces:
// d changes with the motion of o2 relative to the point of body 1 that coincides with it, so
//   F = R1 (K_t d + C_t d')   pulls body 2 at o2 (as -F) and body 1 at that coincident point (as +F);
// theta changes as J_l(theta)^-1 R1^T (delta phi_2 - delta phi_1), so the elastic moment is
//   M = R1 J_l(theta)^-T K_r theta = R1 J_r(theta)^-1 K_r theta   (J_l^-T = J_r^-1)
// on body 2 as -M and body 1 as +M, plus the damping moment R1 C_r R1^T (omega_2 - omega_1). The elastic part is
// conservative at any rotation below pi (tests/physics/bushing_test.cpp keeps the energy of a large swing);
// d' = R1^T (v_o2 - v_o1*) with v_o1* the coincident point's velocity. Host+device, any scalar (Duals).
#include "model/compiled_model.hpp"
#include "spatial/quaternion.hpp"

namespace myriad {

template <class S>
struct BushingState {
  Mat3<S> R1;            // R_WF1
  Vec3<S> o2;            // frame 2's origin in the world
  Vec3<S> d, d_rate;     // translational deflection and its rate, F1 axes
  Vec3<S> theta, w_rel;  // rotation vector of F2 in F1 and the relative angular velocity, F1 axes
};

// The deflections and their rates from the two frames: orientations R1, R2, origins o1, o2, the velocity v1 of o1
// and v2 of o2, and the angular velocities w1, w2 of the bodies carrying them (all in the world).
template <class S>
MYRIAD_HD_INLINE BushingState<S> bushing_relative_state(const Mat3<S>& R1, const Vec3<S>& o1, const Vec3<S>& v1,
                                                        const Vec3<S>& w1, const Mat3<S>& R2, const Vec3<S>& o2,
                                                        const Vec3<S>& v2, const Vec3<S>& w2) {
  BushingState<S> s;
  s.R1 = R1;
  s.o2 = o2;
  const Vec3<S> r = o2 - o1;
  s.d = transpose_times(R1, r);
  s.d_rate = transpose_times(R1, v2 - (v1 + cross(w1, r)));
  s.theta = rotation_log(transpose(R1) * R2);
  s.w_rel = transpose_times(R1, w2 - w1);
  return s;
}

// 1/2 d^T K_t d + 1/2 theta^T K_r theta.
template <class S, class K>
MYRIAD_HD_INLINE S bushing_energy(const K& k, const CompiledForce& f, const BushingState<S>& s) {
  const int c = f.constants + kBushingStiffness;
  return S(0.5) * (S(k[c]) * s.d.x * s.d.x + S(k[c + 1]) * s.d.y * s.d.y + S(k[c + 2]) * s.d.z * s.d.z +
                   S(k[c + 3]) * s.theta.x * s.theta.x + S(k[c + 4]) * s.theta.y * s.theta.y +
                   S(k[c + 5]) * s.theta.z * s.theta.z);
}

// The force F and moment M (world) the bushing exerts on body 1; body 2 gets -F at o2 and -M.
template <class S, class K>
MYRIAD_HD_INLINE void bushing_load(const K& k, const CompiledForce& f, const BushingState<S>& s, Vec3<S>& F_W,
                                   Vec3<S>& M_W) {
  const int ks = f.constants + kBushingStiffness, cs = f.constants + kBushingDamping;
  const auto diag = [&](int at, const Vec3<S>& x) { return Vec3<S>{S(k[at]) * x.x, S(k[at + 1]) * x.y, S(k[at + 2]) * x.z}; };
  F_W = s.R1 * (diag(ks, s.d) + diag(cs, s.d_rate));
  M_W = s.R1 * (right_jacobian_inverse_times(s.theta, diag(ks + 3, s.theta)) + diag(cs + 3, s.w_rel));
}

}  // namespace myriad
