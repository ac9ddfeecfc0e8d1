#pragma once
// Applied forces of the absolute-coordinate engine (seed 000 sec. 5.1's rotational spring-damper-actuators, RSDA;
// the model files' translational ones, TSDA, joint actuators, bushings and tires) as generalized forces Q on the
// coordinates of rp (Euler parameters), re (Euler angles) and rA (absolute/rotation_matrix_dynamics.hpp).
//
// An RSDA acts between body i (0: the ground) and body j about an axis h fixed in body i; f_i (on i) and f_j (on
// j) are unit vectors perpendicular to it that coincide at angle 0. Its angle theta is the angle GCON's
// (absolute/constraint_primitives.hpp: atan2(g_i . f_j, f_i . f_j), g-bar_i = h-bar_i x f-bar_i), the rotation of j
// relative to i about h (a revolute joint's coordinate when f_i, f_j are one vector of its two frames). The torque
// tau = -(k delta + c theta') with the deflection delta = theta - zero_angle made continuous: atan2 wraps to
// (-pi, pi], so delta = unwrapped_anchor + wrap(theta - wrapped_anchor) - zero_angle, where (wrapped_anchor,
// unwrapped_anchor) are one earlier angle as atan2 gave it and as the continuous motion reached it. wrap() has
// slope 1, so delta is smooth in q as long as the angle stays within pi of the anchor; callers that integrate far
// move the anchor along with the motion (absolute/state_space.hpp does after every accepted step).
//
// By virtual work (tau delta-theta), Q = tau dtheta/do on the orientation coordinates o of i and j, and theta' =
// dtheta/do . o': both from the angle GCON's row, exact for the representation's coordinates, also off the unit
// sphere where Newton's iterates of rp live (a component of Q along p lies in the normalization constraint's row and
// only moves its multiplier).
//
// Host and device, any scalar S (double, or dual numbers for the integration Jacobians). O(K) per element.
#include "absolute/constraint_primitives.hpp"
#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "dynamics/bushing_law.hpp"
#include "dynamics/force_laws.hpp"
#include "dynamics/tire_law.hpp"

namespace myriad {

constexpr int kMaxAbsoluteRsdas = 4;

struct AbsoluteRsda {
  int body_i = 0, body_j = 0;                   // absolute body indices (0: the ground)
  Vec3<double> axis_bar_i{0.0, 0.0, 1.0};       // h-bar in body i's frame
  Vec3<double> reference_bar_i{1.0, 0.0, 0.0};  // f-bar_i, perpendicular to h-bar_i
  Vec3<double> reference_bar_j{1.0, 0.0, 0.0};  // f-bar_j
  double stiffness = 0.0, damping = 0.0, zero_angle = 0.0;
  double wrapped_anchor = 0.0, unwrapped_anchor = 0.0;  // see above
  // The compiled model's force element whose actuator(t) adds to the torque (a model rsda's actuator, a revolute
  // joint_actuator: k = c = 0), -1 for none; evaluated where the engine holds a compiled model.
  int force = -1;
};

// The angle GCON's row of an element (f = 0: its value is theta in (-pi, pi]) for orientations given as Rep's
// coordinates o_i, o_j (any scalar; the ground when null).
template <class Rep, class S>
MYRIAD_HD_INLINE GconRow<S, Rep::kOrientation> rsda_angle_row(const AbsoluteRsda& e, const S* o_i, const S* o_j) {
  using O = typename Rep::template Orientation<S>;
  const Vec3<S> origin{S(0.0), S(0.0), S(0.0)};
  const AbsolutePose<S, O> pose_i{origin, o_i ? Rep::orientation(o_i) : Rep::template identity<S>()};
  const AbsolutePose<S, O> pose_j{origin, o_j ? Rep::orientation(o_j) : Rep::template identity<S>()};
  const DrivingValue<S> none{S(0.0), S(0.0), S(0.0)};
  return angle_row(vec3_cast<S>(e.reference_bar_i), vec3_cast<S>(cross(e.axis_bar_i, e.reference_bar_i)), pose_i,
                   vec3_cast<S>(e.reference_bar_j), pose_j, none);
}

// The element's continuous deflection at orientation coordinates o_i, o_j (double; null for the ground).
template <class Rep>
MYRIAD_HD_INLINE double rsda_deflection(const AbsoluteRsda& e, const double* o_i, const double* o_j) {
  return e.unwrapped_anchor + wrap_to_pi(rsda_angle_row<Rep>(e, o_i, o_j).phi - e.wrapped_anchor) - e.zero_angle;
}

// Adds the element's generalized force on the orientation coordinates (K each) of bodies i and j to Q_i, Q_j
// (null for the ground) at orientations o and orientation rates u.
template <class Rep, class S>
MYRIAD_HD_INLINE void add_rsda_force(const AbsoluteRsda& e, const S* o_i, const S* u_i, const S* o_j,
                                     const S* u_j, S* Q_i, S* Q_j, double actuator_torque = 0.0) {
  constexpr int K = Rep::kOrientation;
  const GconRow<S, K> row = rsda_angle_row<Rep>(e, o_i, o_j);
  S theta_dot = S(0.0);
  for (int k = 0; k < K; ++k) {
    if (o_i) theta_dot += row.phi_orientation_i[k] * u_i[k];
    if (o_j) theta_dot += row.phi_orientation_j[k] * u_j[k];
  }
  const S delta = S(e.unwrapped_anchor) + wrap_to_pi(row.phi - S(e.wrapped_anchor)) - S(e.zero_angle);
  const S tau = -(S(e.stiffness) * delta + S(e.damping) * theta_dot) + S(actuator_torque);
  for (int k = 0; k < K; ++k) {
    if (Q_i) Q_i[k] += tau * row.phi_orientation_i[k];
    if (Q_j) Q_j[k] += tau * row.phi_orientation_j[k];
  }
}

// Re-anchors an element at orientation coordinates o_i, o_j (null for the ground): the continuous angle there
// becomes the anchor, so that a later evaluation may lie within pi of this one rather than of the old anchor.
template <class Rep>
MYRIAD_HD_INLINE void move_rsda_anchor(AbsoluteRsda& e, const double* o_i, const double* o_j) {
  const double theta = rsda_angle_row<Rep>(e, o_i, o_j).phi;
  e.unwrapped_anchor += wrap_to_pi(theta - e.wrapped_anchor);
  e.wrapped_anchor = theta;
}

// ---- joint actuators along a GCON ----

constexpr int kMaxAbsoluteActuators = 4;

// A joint actuator as a generalized force u(t) dPhi/dq along a GCON Phi whose value is the joint's coordinate
// (a prismatic joint's DP2: axis_F . (F -> M) = q; by virtual work u dq): the time function is the compiled model's
// force element's `actuator`. Its force is the GCON's reaction with the multiplier -u, so its Jacobian is the
// reaction-force sensitivity (absolute/absolute_dynamics.hpp assembles both in one loop).
struct AbsoluteActuator {
  Gcon<double> gcon{};  // f = 0, no driver
  int force = -1;       // the compiled model's force element
};

// ---- translational spring-damper-actuators ----

constexpr int kMaxAbsoluteTsdas = 16;

// A model's TSDA between a point of body i and a point of body j (0: the ground, whose end is a world point that
// may move as the element's motion says). Its law is the joint-coordinate engine's (dynamics/force_laws.hpp:
// tsda_tension on the compiled model's force element `force` with the instance's constants), so a table spring,
// a one-sided damper or an actuator act the same in both engines; only the ends' kinematics are this engine's:
// P = r + A s-bar, P' = r' + sum_k (d(A s-bar)/do_k) o'_k.
struct AbsoluteTsda {
  int force = -1;                   // the compiled model's force element
  int body_i = 0, body_j = 0;       // absolute body indices (0: the ground)
  Vec3<double> s_bar_i{}, s_bar_j{};  // the ends in the bodies' frames; a ground end's world point at rest
};

// Adds the element's generalized forces to Q_i, Q_j (3 + K values each: on r, then on the orientation
// coordinates: F and (d(A s-bar)/do_k) . F by virtual work) at body coordinates x = (r, o) and their rates u of
// bodies i and j (null for the ground), at time t. Any scalar S (dual numbers for the Jacobians). O(K).
template <class Rep, class S, class K>
MYRIAD_HD_INLINE void add_tsda_force(const CompiledModel& model, const K& k, const AbsoluteTsda& e, double t,
                                     const S* x_i, const S* u_i, const S* x_j, const S* u_j, S* Q_i, S* Q_j) {
  constexpr int KO = Rep::kOrientation;
  const CompiledForce& f = model.forces[e.force];
  const int c = f.constants;
  const S* x[2] = {x_i, x_j};
  const S* u[2] = {u_i, u_j};
  S* Q[2] = {Q_i, Q_j};
  const Vec3<double> s_bar[2] = {e.s_bar_i, e.s_bar_j};
  const int directions[2] = {c + kTsdaDirection1, c + kTsdaDirection2}, motions[2] = {f.motion1, f.motion2};
  Vec3<S> p[2], v[2];
  BodyFixedVector<S, KO> attached[2];
  for (int side = 0; side < 2; ++side) {
    if (!x[side]) {
      ground_point_state(model, k, vec3_cast<S>(s_bar[side]), directions[side], motions[side], t, p[side], v[side]);
      continue;
    }
    attached[side] = attached_vector(Rep::orientation(x[side] + 3), vec3_cast<S>(s_bar[side]));
    p[side] = Vec3<S>{x[side][0], x[side][1], x[side][2]} + attached[side].s;
    v[side] = Vec3<S>{u[side][0], u[side][1], u[side][2]};
    for (int q = 0; q < KO; ++q) v[side] = v[side] + u[side][3 + q] * attached[side].s_q[q];
  }
  const Vec3<S> d = p[1] - p[0];
  const S length = norm(d);
  const Vec3<S> direction = (S(1.0) / length) * d;
  S tension, damper;
  tsda_tension(model, k, f, length - S(k[c + kTsdaFreeLength]), dot(direction, v[1] - v[0]), t, tension, damper);
  for (int side = 0; side < 2; ++side) {  // a positive tension pulls end 1 toward end 2 and end 2 back
    if (!Q[side]) continue;
    const Vec3<S> F = (side == 0 ? tension : -tension) * direction;
    Q[side][0] += F.x, Q[side][1] += F.y, Q[side][2] += F.z;
    for (int q = 0; q < KO; ++q) Q[side][3 + q] += dot(F, attached[side].s_q[q]);
  }
}

// ---- body velocities and loads for the six-axis laws (bushings, tires) ----

// The body's angular velocity per unit rate of each orientation coordinate (world): omega_k = 1/2 sum_a (A e_a) x
// d(A e_a)/do_k, exact for an orthonormal A (d(A e_a)/do_k = omega_k x A e_a for every a). rA: A e_k.
template <class Rep, class S, class O>
MYRIAD_HD_INLINE void angular_velocity_columns(const O& orientation, Vec3<S>* omega_k) {
  constexpr int KO = Rep::kOrientation;
  for (int q = 0; q < KO; ++q) omega_k[q] = Vec3<S>{S(0.0), S(0.0), S(0.0)};
  for (int a = 0; a < 3; ++a) {
    Vec3<S> unit{S(0.0), S(0.0), S(0.0)};
    unit[a] = S(1.0);
    const BodyFixedVector<S, KO> axis = attached_vector(orientation, unit);
    for (int q = 0; q < KO; ++q) omega_k[q] = omega_k[q] + S(0.5) * cross(axis.s, axis.s_q[q]);
  }
}

// A load on a body with centre of mass r by virtual work, added to Q (3 + K): the force F at the world point p (a
// material point of the body there) and the moment M; on r the force, on o_k the moment about the centre of mass
// dotted with omega_k.
template <int KO, class S>
MYRIAD_HD_INLINE void add_body_load(const Vec3<S>& r, const Vec3<S>* omega_k, const Vec3<S>& p, const Vec3<S>& F,
                                    const Vec3<S>& M, S* Q) {
  const Vec3<S> moment = cross(p - r, F) + M;
  Q[0] += F.x, Q[1] += F.y, Q[2] += F.z;
  for (int q = 0; q < KO; ++q) Q[3 + q] += dot(moment, omega_k[q]);
}

// ---- bushings ----

constexpr int kMaxAbsoluteBushings = 4;

// A model's bushing between frame F1 on body i and frame F2 on body j (0: the ground, whose frame is given in the
// world). Its law is the joint-coordinate engine's (dynamics/bushing_law.hpp, on the compiled model's force element
// `force` with the instance's constants); only the frames' kinematics are this engine's.
struct AbsoluteBushing {
  int force = -1;                          // the compiled model's force element
  int body_i = 0, body_j = 0;              // absolute body indices (0: the ground)
  Mat3<double> R_bar_i = Mat3<double>::identity(), R_bar_j = Mat3<double>::identity();  // the frames' axes
  Vec3<double> s_bar_i{}, s_bar_j{};       // their origins, in the bodies' frames (the world for the ground)
};

// Adds the bushing's generalized forces to Q_i, Q_j (3 + K values each, null for the ground) at body coordinates x
// = (r, o) and rates u (null for the ground). A frame's axes are A R-bar, its origin r + A s-bar with velocity r' +
// sum_k (d(A s-bar)/do_k) o'_k, and the body's angular velocity sum_k omega_k o'_k with omega_k = 1/2 sum_a (A e_a)
// x d(A e_a)/do_k (exact for an orthonormal A: d(A e_a)/do_k = omega_k x A e_a). The law's load, F and M on body i
// (F at the point coincident with o2) and -F at o2, -M on body j, by virtual work: on r the force, on o_k the
// moment about the centre of mass dotted with omega_k. Any scalar S (dual numbers for the Jacobians). O(K).
template <class Rep, class S, class K>
MYRIAD_HD_INLINE void add_bushing_force(const CompiledModel& model, const K& k, const AbsoluteBushing& e,
                                        const S* x_i, const S* u_i, const S* x_j, const S* u_j, S* Q_i, S* Q_j) {
  constexpr int KO = Rep::kOrientation;
  const CompiledForce& f = model.forces[e.force];
  const S* x[2] = {x_i, x_j};
  const S* u[2] = {u_i, u_j};
  S* Q[2] = {Q_i, Q_j};
  const Mat3<double> R_bar[2] = {e.R_bar_i, e.R_bar_j};
  const Vec3<double> s_bar[2] = {e.s_bar_i, e.s_bar_j};
  Mat3<S> R[2];
  Vec3<S> o[2], v[2], w[2], w_k[2][KO];
  for (int side = 0; side < 2; ++side) {
    const Mat3<S> R_bar_s = mat3_cast<S>(R_bar[side]);
    if (!x[side]) {
      R[side] = R_bar_s;
      o[side] = vec3_cast<S>(s_bar[side]);
      v[side] = w[side] = Vec3<S>{S(0.0), S(0.0), S(0.0)};
      continue;
    }
    const auto orientation = Rep::orientation(x[side] + 3);
    R[side] = orientation_matrix(orientation) * R_bar_s;
    const BodyFixedVector<S, KO> s = attached_vector(orientation, vec3_cast<S>(s_bar[side]));
    o[side] = Vec3<S>{x[side][0], x[side][1], x[side][2]} + s.s;
    v[side] = Vec3<S>{u[side][0], u[side][1], u[side][2]};
    w[side] = Vec3<S>{S(0.0), S(0.0), S(0.0)};
    angular_velocity_columns<Rep>(orientation, w_k[side]);
    for (int q = 0; q < KO; ++q) {
      v[side] = v[side] + u[side][3 + q] * s.s_q[q];
      w[side] = w[side] + u[side][3 + q] * w_k[side][q];
    }
  }
  const BushingState<S> state = bushing_relative_state(R[0], o[0], v[0], w[0], R[1], o[1], v[1], w[1]);
  Vec3<S> F, M;
  bushing_load(k, f, state, F, M);
  for (int side = 0; side < 2; ++side)
    if (Q[side])
      add_body_load<KO>(Vec3<S>{x[side][0], x[side][1], x[side][2]}, w_k[side], state.o2, side == 0 ? F : -F,
                        side == 0 ? M : -M, Q[side]);
}

// ---- tires ----

constexpr int kMaxAbsoluteTires = 4;

// A model's handling tire on a wheel body (absolute index >= 1) on the road z = h(t) (the compiled model's force
// element's road, or z = 0). Its law is the joint-coordinate engine's (dynamics/tire_law.hpp: contact, slips,
// Magic Formula or Fiala, with the instance's constants); only the wheel's kinematics are this engine's.
struct AbsoluteTire {
  int force = -1;                         // the compiled model's force element
  int body = 1;                           // the wheel
  Vec3<double> center_bar{}, axis_bar{};  // its centre and unit spin axis in the body's frame
};

// Adds the tire's generalized forces (3 + K) to Q at the wheel's coordinates x = (r, o) and rates u, at time t: the
// centre r + A c-bar with velocity r' + sum_k (d(A c-bar)/do_k) o'_k, the spin axis A a-bar and the angular velocity
// as for the bushings; the load Fx e_x + Fy e_y + Fz e_z at the contact point and Mz about e_z by virtual work.
// Any scalar S (dual numbers for the Jacobians; the lift-off cut acts on values). O(K).
template <class Rep, class S, class K>
MYRIAD_HD_INLINE void add_tire_force(const CompiledModel& model, const K& k, const AbsoluteTire& e, double t,
                                     const S* x, const S* u, S* Q) {
  constexpr int KO = Rep::kOrientation;
  const CompiledForce& f = model.forces[e.force];
  const auto orientation = Rep::orientation(x + 3);
  const Vec3<S> r{x[0], x[1], x[2]};
  const BodyFixedVector<S, KO> c = attached_vector(orientation, vec3_cast<S>(e.center_bar));
  const BodyFixedVector<S, KO> a = attached_vector(orientation, vec3_cast<S>(e.axis_bar));
  Vec3<S> omega_k[KO];
  angular_velocity_columns<Rep>(orientation, omega_k);
  Vec3<S> v_center{u[0], u[1], u[2]}, omega{S(0.0), S(0.0), S(0.0)};
  for (int q = 0; q < KO; ++q) {
    v_center = v_center + u[3 + q] * c.s_q[q];
    omega = omega + u[3 + q] * omega_k[q];
  }
  S road, road_rate;
  time_function_inputs(model, k, f.motion1, t, road, road_rate);
  TireState<S> s = tire_contact_of(k, f, r + c.s, v_center, a.s, omega, road, road_rate);
  add_tire_formula(k, f, s);
  if (!s.in_contact) return;
  const Vec3<S> F = s.fx * s.ex + s.fy * s.ey + Vec3<S>{S(0.0), S(0.0), s.fz};
  add_body_load<KO>(r, omega_k, s.contact, F, Vec3<S>{S(0.0), S(0.0), s.mz}, Q);
}

}  // namespace myriad
