#pragma once
// Force elements (docs/model-format.md, "Force elements") turned into body spatial forces and joint forces,
// after tree_kinematics has run. O(number of force elements).
#include "dynamics/bushing.hpp"
#include "dynamics/constants_view.hpp"
#include "dynamics/force_table.hpp"
#include "dynamics/model_class.hpp"
#include "dynamics/tire_force.hpp"
#include "dynamics/tree_kinematics.hpp"
#include "model/time_function.hpp"

namespace myriad {

template <class K>
MYRIAD_HD_INLINE TimeValue time_function_value(const CompiledModel& model, const K& k, int index, double t) {
  if (index < 0) return {0.0, 0.0, 0.0};
  const CompiledTimeFunction& f = model.time_functions[index];
  return evaluate_time_function(f.kind, ConstantsView<K>{k, f.constants}, f.points, t);
}

// A time function's value entering the dynamics as scalar S. Time is a plain double everywhere but in the
// Jacobian evaluation of f_t = df/dt (dynamics/tree_second_order.hpp), which passes it as a Dual seeded along
// one direction: the result then carries `rate` times the derivatives of t. Called with (f, f') for a value and
// with (f', f'') for a rate (a moving ground point's velocity).
template <class S>
MYRIAD_HD_INLINE S time_input(double value, double /*rate*/, double /*t*/) {
  return S(value);
}
template <class S, class T>
MYRIAD_HD_INLINE S time_input(double value, double rate, const T& t) {
  return S(value) + rate * (t - value_of(t));
}

// The value of time function `index` at time t as scalar S (see time_input); zero for index -1.
template <class S, class K, class T>
MYRIAD_HD_INLINE S actuator_input(const CompiledModel& model, const K& k, int index, const T& t) {
  const TimeValue m = time_function_value(model, k, index, value_of(t));
  return time_input<S>(m.value, m.rate, t);
}

// The value and the rate of time function `index` at t as scalar S (see time_input): a moving end point's travel
// along its direction and its speed, a road's height and its rate.
template <class S, class K, class T>
MYRIAD_HD_INLINE void time_function_inputs(const CompiledModel& model, const K& k, int index, const T& t, S& value,
                                           S& rate) {
  const TimeValue m = time_function_value(model, k, index, value_of(t));
  value = time_input<S>(m.value, m.rate, t);
  rate = time_input<S>(m.rate, m.acceleration, t);
}

// A one-sided element (ForceElement::acts) acts only on its side of the free length (a tire in contact, a rope
// taut) and then never with the other sign (a tire's damper does not pull it back to the road): elsewhere its
// tension and damper force are zero. The cut is on values, so a Dual tension keeps its derivatives where the
// element acts and has none where it does not: the Jacobians stay exact on either side of the kink.
template <class S>
MYRIAD_HD_INLINE void cut_one_sided(int acts, const S& stretch, S& tension, S& damper) {
  const double x = value_of(stretch), value = value_of(tension);
  const bool acting = acts == 1 ? x < 0.0 && value <= 0.0 : x > 0.0 && value >= 0.0;
  if (!acting) tension = damper = S(0);
}

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
  S travel, speed;
  time_function_inputs(model, k, motion, t, travel, speed);
  const Vec3<S> d = load_vec3<S>(k, direction);
  p = local + travel * d;
  vel = speed * d;
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
  const S stretch = s.length - S(k[c + kTsdaFreeLength]);
  const S spring = f.spring_points > 0 ? table_force(ConstantsView<K>{k, f.spring_table}, f.spring_points, stretch)
                                       : S(k[c + kTsdaStiffness]) * stretch;
  const S damper = f.damper_points > 0 ? table_force(ConstantsView<K>{k, f.damper_table}, f.damper_points, s.rate)
                                       : S(k[c + kTsdaDamping]) * s.rate;
  // A preload pushes the ends apart with a constant force (a strut's installed spring force at l = l0).
  s.tension = spring + damper - S(k[c + kTsdaPreload]) + actuator_input<S>(model, k, f.actuator, t);
  s.damper = damper;
  if (f.acts != 0) cut_one_sided(f.acts, stretch, s.tension, s.damper);
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
