#pragma once
// The force laws of the force elements (docs/model-format.md, "Force elements") as functions of their own
// variables (a TSDA's stretch and rate, time), apart from the kinematics that supply them: the tree engine
// (dynamics/force_elements.hpp) and the absolute-coordinate engine (absolute/absolute_forces.hpp) evaluate the
// same laws from their own body states. Host and device, any scalar. O(1) but a force table (O(points)).
#include "dynamics/constants_view.hpp"
#include "dynamics/force_table.hpp"
#include "dynamics/joint_model.hpp"
#include "dynamics/model_class.hpp"
#include "model/compiled_model.hpp"
#include "model/time_function.hpp"

namespace myriad {

// Time function `index` at t ({0, 0, 0} for -1). In a kernel compiled on one model (model_constant_of) its kind is a
// constant and the one case it takes is inlined, with the same bits: the call the generic kernels make, in the
// middle of the dynamics, made ptxas save the registers live there (the quarter car's kernel at 128 registers:
// spills 328 -> 184 B, bench/results/kernel_call_spills.md).
template <class K>
MYRIAD_HD_INLINE TimeValue time_function_value(const CompiledModel& model, const K& k, int index, double t) {
  if (index < 0) return {0.0, 0.0, 0.0};
  const CompiledTimeFunction& f = model.time_functions[index];
  if constexpr (model_constant_of<K>::known)
    return time_function_in_line(f.kind, ConstantsView<K>{k, f.constants}, f.points, t);
  else
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

// A ground point that may move along a direction (a base excitation, a road under a tire's spring): its position
// local + travel(t) d and velocity speed(t) d, time function `motion` (-1: at rest), d at constants `direction`.
template <class S, class K, class T>
MYRIAD_HD_INLINE void ground_point_state(const CompiledModel& model, const K& k, const Vec3<S>& local, int direction,
                                         int motion, const T& t, Vec3<S>& p, Vec3<S>& vel) {
  S travel, speed;
  time_function_inputs(model, k, motion, t, travel, speed);
  const Vec3<S> d = load_vec3<S>(k, direction);
  p = local + travel * d;
  vel = speed * d;
}

// A TSDA's tension (positive pulls its ends together) and its damper's part at the stretch l - l0 and the rate
// l': spring (a table or k) + damper (a table or c) - preload + actuator(t), cut for a one-sided element.
template <class S, class K, class T>
MYRIAD_HD_INLINE void tsda_tension(const CompiledModel& model, const K& k, const CompiledForce& f, const S& stretch,
                                   const S& rate, const T& t, S& tension, S& damper_force) {
  const int c = f.constants;
  const S spring = f.spring_points > 0 ? table_force(ConstantsView<K>{k, f.spring_table}, f.spring_points, stretch)
                                       : S(k[c + kTsdaStiffness]) * stretch;
  const S damper = f.damper_points > 0 ? table_force(ConstantsView<K>{k, f.damper_table}, f.damper_points, rate)
                                       : S(k[c + kTsdaDamping]) * rate;
  // A preload pushes the ends apart with a constant force (a strut's installed spring force at l = l0).
  tension = spring + damper - S(k[c + kTsdaPreload]) + actuator_input<S>(model, k, f.actuator, t);
  damper_force = damper;
  if (f.acts != 0) cut_one_sided(f.acts, stretch, tension, damper_force);
}

}  // namespace myriad
