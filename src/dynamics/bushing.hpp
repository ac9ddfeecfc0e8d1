#pragma once
// A bushing (docs/model-format.md, "Force elements"): a linear six-axis spring-damper between frame F1 on body 1
// and frame F2 on body 2 (rubber mounts, suspension bushings). With R1 = R_WF1 and o1, o2 the frames' origins in
// the world, the deflections in F1's axes are
//   d = R1^T (o2 - o1),   theta = log(R1^T R2)   (the rotation vector of F2 relative to F1),
// and the stored energy V = 1/2 d^T K_t d + 1/2 theta^T K_r theta (K diagonal). Its exact generalized forces:
// d changes with the motion of o2 relative to the point of body 1 that coincides with it, so
//   F = R1 (K_t d + C_t d')   pulls body 2 at o2 (as -F) and body 1 at that coincident point (as +F);
// theta changes as J_l(theta)^-1 R1^T (delta phi_2 - delta phi_1), so the elastic moment is
//   M = R1 J_l(theta)^-T K_r theta = R1 J_r(theta)^-1 K_r theta   (J_l^-T = J_r^-1)
// on body 2 as -M and body 1 as +M, plus the damping moment R1 C_r R1^T (omega_2 - omega_1). The elastic part is
// conservative at any rotation below pi (tests/physics/bushing_test.cpp keeps the energy of a large swing);
// d' = R1^T (v_o2 - v_o1*) with v_o1* the coincident point's velocity. Host+device, any scalar (Duals).
#include "dynamics/joint_model.hpp"
#include "dynamics/tree_kinematics.hpp"
#include "dynamics/tree_workspace.hpp"
#include "model/compiled_model.hpp"
#include "spatial/quaternion.hpp"

namespace myriad {

// A world-frame force at world point p_W as a spatial force in the coordinates of the body at X_WB.
template <class S>
MYRIAD_HD_INLINE Force<S> point_force_in_body(const Transform<S>& X_WB, const Vec3<S>& p_W, const Vec3<S>& F_W) {
  const Vec3<S> F_B = transpose_times(X_WB.R, F_W);
  return Force<S>{cross(transpose_times(X_WB.R, p_W - X_WB.p), F_B), F_B};
}

template <class S>
struct BushingState {
  Mat3<S> R1;            // R_WF1
  Vec3<S> o2;            // frame 2's origin in the world
  Vec3<S> d, d_rate;     // translational deflection and its rate, F1 axes
  Vec3<S> theta, w_rel;  // rotation vector of F2 in F1 and the relative angular velocity, F1 axes
};

// A frame fixed on tree body `body` (-1: ground, the frame given in the world): its rotation, origin, the origin's
// velocity and the body's angular velocity, all in the world.
template <class S, class K>
MYRIAD_HD_INLINE void bushing_frame(const TreeWorkspace<S>& w, const K& k, int body, int rotation, int origin,
                                    Mat3<S>& R, Vec3<S>& o, Vec3<S>& v, Vec3<S>& omega) {
  const Mat3<S> R_BF = load_mat3<S>(k, rotation);
  const Vec3<S> p_BF = load_vec3<S>(k, origin);
  if (body < 0) {
    R = R_BF;
    o = p_BF;
    v = Vec3<S>::zero();
    omega = Vec3<S>::zero();
    return;
  }
  const Transform<S>& X_WB = w.X_world[body];
  R = X_WB.R * R_BF;
  body_point_state(w, body, p_BF, o, v);
  omega = X_WB.R * w.velocity[body].angular;
}

template <class S, class K>
MYRIAD_HD_INLINE BushingState<S> bushing_state(const TreeWorkspace<S>& w, const K& k, const CompiledForce& f) {
  const int c = f.constants;
  Mat3<S> R1, R2;
  Vec3<S> o1, v1, w1, v2, w2;
  BushingState<S> s;
  bushing_frame(w, k, f.body1, c + kBushingRotation1, c + kBushingOrigin1, R1, o1, v1, w1);
  bushing_frame(w, k, f.body2, c + kBushingRotation2, c + kBushingOrigin2, R2, s.o2, v2, w2);
  s.R1 = R1;
  const Vec3<S> r = s.o2 - o1;
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

// Adds the bushing's load to the bodies' applied forces: F and M on body 1 (F at the point coincident with o2),
// -F at o2 and -M on body 2. Outlined on the device (one copy per scalar type instead of one per caller).
template <class S, class K>
MYRIAD_HD_OUTLINE void apply_bushing(const K& k, const CompiledForce& f, TreeWorkspace<S>& w) {
  const BushingState<S> s = bushing_state(w, k, f);
  Vec3<S> F_W, M_W;
  bushing_load(k, f, s, F_W, M_W);
  if (f.body1 >= 0) {
    w.f_ext[f.body1] += point_force_in_body(w.X_world[f.body1], s.o2, F_W);
    w.f_ext[f.body1] += Force<S>{transpose_times(w.X_world[f.body1].R, M_W), Vec3<S>::zero()};
  }
  if (f.body2 >= 0) {
    w.f_ext[f.body2] += point_force_in_body(w.X_world[f.body2], s.o2, -F_W);
    w.f_ext[f.body2] += Force<S>{transpose_times(w.X_world[f.body2].R, -M_W), Vec3<S>::zero()};
  }
}

}  // namespace myriad
