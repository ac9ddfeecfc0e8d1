#pragma once
// Force elements (docs/model-format.md, "Force elements") turned into body spatial forces and joint forces,
// after tree_kinematics has run. O(number of force elements).
#include "dynamics/bushing.hpp"
#include "dynamics/constants_view.hpp"
#include "dynamics/force_laws.hpp"
#include "dynamics/force_table.hpp"
#include "dynamics/model_class.hpp"
#include "dynamics/tire_force.hpp"
#include "dynamics/tree_kinematics.hpp"
#include "model/time_function.hpp"

namespace myriad {

// State of a TSDA: length, its rate, tension, and the world geometry needed to apply it.
template <class S>
struct TsdaState {
  S length, rate, tension;
  S damper;  // the damper's part of the tension (0 where a one-sided element does not act)
  Vec3<S> p_W1, p_W2;  // end points in the world
  Vec3<S> e_W;         // unit vector from end 1 to end 2
};

template <class S, class K, class T>
MYRIAD_HD_INLINE void tsda_end(const CompiledModel& model, const K& k, const TreeWorkspace<S>& w, int body,
                               int point, int direction, int motion, const T& t, Vec3<S>& p, Vec3<S>& vel) {
  const Vec3<S> local = load_vec3<S>(k, point);
  if (body >= 0) {
    body_point_state(w, body, local, p, vel);
    return;
  }
  ground_point_state(model, k, local, direction, motion, t, p, vel);
}

template <class S, class K, class T>
MYRIAD_HD TsdaState<S> tsda_state(const CompiledModel& model, const K& k, const TreeWorkspace<S>& w,
                                  const CompiledForce& f, const T& t) {
  const int c = f.constants;
  TsdaState<S> s;
  Vec3<S> v1, v2;
  tsda_end(model, k, w, f.body1, c + kTsdaPoint1, c + kTsdaDirection1, f.motion1, t, s.p_W1, v1);
  tsda_end(model, k, w, f.body2, c + kTsdaPoint2, c + kTsdaDirection2, f.motion2, t, s.p_W2, v2);
  const Vec3<S> d = s.p_W2 - s.p_W1;
  s.length = norm(d);
  s.e_W = (S(1) / s.length) * d;
  s.rate = dot(s.e_W, v2 - v1);
  tsda_tension(model, k, f, s.length - S(k[c + kTsdaFreeLength]), s.rate, t, s.tension, s.damper);
  return s;
}

// Joint torque of an RSDA: -k (q - q0) - c q' + actuator(t).
template <class S, class K, class T>
MYRIAD_HD_INLINE S rsda_torque(const CompiledModel& model, const K& k, const CompiledForce& f, const S* q,
                               const S* v, const T& t) {
  const CompiledJoint& joint = model.joints[f.joint];
  const int c = f.constants;
  return -S(k[c + kRsdaStiffness]) * (q[joint.q_index] - S(k[c + kRsdaZeroAngle])) -
         S(k[c + kRsdaDamping]) * v[joint.v_index] + actuator_input<S>(model, k, f.actuator, t);
}

// A world-frame force applied at a world point of tree body i, accumulated as a body-coordinate spatial force.
template <class S>
MYRIAD_HD_INLINE void add_point_force(TreeWorkspace<S>& w, int i, const Vec3<S>& p_W, const Vec3<S>& F_W) {
  w.f_ext[i] += point_force_in_body(w.X_world[i], p_W, F_W);
}

// Writes f_ext (nb) and tau (nv) from all force elements. Gravity is not here: the recursions apply it as a
// base acceleration. Time t is a double, or a Dual of S's type for derivatives with respect to time
// (time_input). An element K's model class leaves out (dynamics/model_class.hpp) adds nothing.
template <class S, class K, class T>
MYRIAD_HD void applied_forces(const CompiledModel& model, const K& k, const T& t, const S* q, const S* v,
                              TreeWorkspace<S>& w) {
  for (int i = 0; i < model.n_bodies; ++i) w.f_ext[i] = Force<S>::zero();
  for (int i = 0; i < model.nv; ++i) w.tau[i] = S(0);
  MYRIAD_UNROLL
  for (int e = 0; e < model.n_forces; ++e) {
    const CompiledForce& f = model.forces[e];
    switch (f.type) {
      case kTsda:  // positive tension pulls the ends together
        if constexpr (force_compiled<K>(kTsda)) {
          const TsdaState<S> s = tsda_state(model, k, w, f, t);
          const Vec3<S> F_on_1 = s.tension * s.e_W;
          if (f.body1 >= 0) add_point_force(w, f.body1, s.p_W1, F_on_1);
          if (f.body2 >= 0) add_point_force(w, f.body2, s.p_W2, -F_on_1);
        }
        break;
      case kRsda:
        if constexpr (force_compiled<K>(kRsda)) w.tau[model.joints[f.joint].v_index] += rsda_torque(model, k, f, q, v, t);
        break;
      case kJointActuator:
        if constexpr (force_compiled<K>(kJointActuator))
          w.tau[model.joints[f.joint].v_index + f.index] += actuator_input<S>(model, k, f.actuator, t);
        break;
      case kBushing:  // dynamics/bushing.hpp
        if constexpr (!is_lanes<S>::value && force_compiled<K>(kBushing)) apply_bushing(k, f, w);
        break;
      case kTire:  // dynamics/tire_force.hpp, on the road z = h(t)
        if constexpr (!is_lanes<S>::value && force_compiled<K>(kTire)) {
          S road, road_rate;
          time_function_inputs(model, k, f.motion1, t, road, road_rate);
          apply_tire(k, f, road, road_rate, w);
        }
        break;
      default: break;
    }
  }
}

}  // namespace myriad
