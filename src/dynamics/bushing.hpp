#pragma once
// A bushing on the tree's bodies: its frames from the tree kinematics, its law dynamics/bushing_law.hpp's, its
// load applied to the bodies as spatial forces. Host+device, any scalar (Duals).
#include "dynamics/bushing_law.hpp"
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
  Vec3<S> o1, v1, w1, o2, v2, w2;
  bushing_frame(w, k, f.body1, c + kBushingRotation1, c + kBushingOrigin1, R1, o1, v1, w1);
  bushing_frame(w, k, f.body2, c + kBushingRotation2, c + kBushingOrigin2, R2, o2, v2, w2);
  return bushing_relative_state(R1, o1, v1, w1, R2, o2, v2, w2);
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
