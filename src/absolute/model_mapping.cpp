#include "absolute/model_mapping.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>

#include "constraints/model_kinematics.hpp"
#include "model/model_geometry.hpp"
#include "model/time_function_packing.hpp"

namespace myriad {

namespace {

// The joint's or loop's frame on a body: its origin and axes in that body's absolute frame.
struct MappedFrame {
  int body;              // absolute index: 0 the ground
  Vec3<double> origin;   // in P
  Mat3<double> R;        // the frame's axes in P (columns)
};

AbsoluteBodyMapping map_body(const Body& body) {
  AbsoluteBodyMapping out;
  out.name = body.name;
  out.mass = body.mass.value;
  out.center_of_mass = vector3(body.center_of_mass);
  const Mat3<double> I = inertia_matrix(body.inertia);
  Eigen::Matrix3d inertia;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) inertia(i, j) = I(i, j);
  // Diagonal already: keep the body's own axes (a model's frames are often chosen so, and an eigen-solver would
  // mix the axes of equal moments, e.g. a rod's two transverse ones, arbitrarily).
  const double largest = std::fmax(std::fabs(I(0, 0)), std::fmax(std::fabs(I(1, 1)), std::fabs(I(2, 2))));
  if (std::fabs(I(0, 1)) + std::fabs(I(0, 2)) + std::fabs(I(1, 2)) <= 1e-14 * largest && I(0, 0) > 0.0 &&
      I(1, 1) > 0.0 && I(2, 2) > 0.0) {
    out.R_BP = Mat3<double>::identity();
    out.principal_inertia = {I(0, 0), I(1, 1), I(2, 2)};
    return out;
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(inertia);
  if (solver.info() != Eigen::Success || !(solver.eigenvalues()(0) > 0.0))
    throw std::invalid_argument("body '" + body.name +
                                "': its inertia is not positive definite, so it has no principal frame for the "
                                "absolute coordinates (seed 002 sec. 3)");
  Eigen::Matrix3d axes = solver.eigenvectors();
  if (axes.determinant() < 0.0) axes.col(2) = -axes.col(2);  // right-handed
  for (int k = 0; k < 3; ++k) {
    out.principal_inertia[k] = solver.eigenvalues()(k);
    for (int i = 0; i < 3; ++i) out.R_BP(i, k) = axes(i, k);
  }
  return out;
}

MappedFrame map_frame(const AbsoluteMapping& mapping, int body, const Frame& frame) {
  const Transform<double> X = frame_transform(frame);  // X_BF
  MappedFrame out;
  out.body = body + 1;
  out.origin = absolute_point(mapping, body, X.p);
  out.R = body < 0 ? X.R : transpose(mapping.bodies[static_cast<size_t>(body)].R_BP) * X.R;
  return out;
}

// Unit vectors u, w with (u, w, axis) right-handed and orthonormal.
void complete_triad(const Vec3<double>& axis, Vec3<double>& u, Vec3<double>& w) {
  const Vec3<double> seed = std::fabs(axis.x) < 0.6 ? Vec3<double>{1.0, 0.0, 0.0} : Vec3<double>{0.0, 1.0, 0.0};
  const Vec3<double> c = cross(seed, axis);
  u = (1.0 / norm(c)) * c;
  w = cross(axis, u);
}

// The model's joint axis (in F and, at q = 0, in M) and its triad.
struct Triad {
  Vec3<double> axis, u, w;
};
Triad triad(const Vector3& axis) {
  Triad t;
  t.axis = unit_vector3(axis);
  complete_triad(t.axis, t.u, t.w);
  return t;
}

void add(AbsoluteMapping& mapping, const std::string& what, const JointGcons<double>& joint) {
  for (int k = 0; k < joint.count; ++k) mapping.gcons.push_back(joint.gcons[k]);
  mapping.sources.push_back({what, count_gcons(joint)});
}

void add(AbsoluteMapping& mapping, const std::string& what, const Gcon<double>& gcon) {
  mapping.gcons.push_back(gcon);
  mapping.sources.push_back({what, count_gcons(&gcon, 1)});
}

// The GCONs of a pair of frames F (body i) and M (body j) that coincide at the reference configuration, for a
// joint of `type` with `axis` (in F) and `axis2` (universal: in M).
JointGcons<double> pair_gcons(JointType type, const MappedFrame& F, const MappedFrame& M, const Vector3& axis,
                              const Vector3& axis2) {
  const Triad t = triad(axis);
  const int i = F.body, j = M.body;
  switch (type) {
    case JointType::revolute:
      return revolute_joint<double>(i, F.origin, F.R * t.u, F.R * t.w, j, M.origin,
                                    M.R * t.axis);
    case JointType::prismatic:
      return translational_joint<double>(i, F.origin, F.R * t.u, F.R * t.w, j, M.origin,
                                         M.R * t.axis, M.R * t.w);
    case JointType::cylindrical:
      return cylindrical_joint<double>(i, F.origin, F.R * t.u, F.R * t.w, j, M.origin,
                                       M.R * t.axis);
    case JointType::universal:
      return universal_joint<double>(i, F.origin, F.R * t.axis, j, M.origin,
                                     M.R * unit_vector3(axis2));
    case JointType::spherical: return spherical_joint<double>(i, F.origin, j, M.origin);
    case JointType::planar: {
      JointGcons<double> joint = perpendicular_1<double>(i, F.R * t.u, F.R * t.w, j,
                                                         M.R * t.axis);
      joint.gcons[joint.count++] = make_dp2<double>(i, F.R * t.axis, F.origin, j, M.origin, 0.0);
      return joint;
    }
    case JointType::fixed: {
      JointGcons<double> joint = spherical_joint<double>(i, F.origin, j, M.origin);
      const Vec3<double> e[3] = {{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}};
      for (int k = 0; k < 3; ++k)  // M's axis k perpendicular to F's axis k + 1: the three relative rotations
        joint.gcons[joint.count++] =
            make_dp1<double>(i, F.R * e[(k + 1) % 3], j, M.R * e[k], 0.0);
      return joint;
    }
    case JointType::free: break;
  }
  JointGcons<double> none{};
  none.count = 0;
  return none;
}

}  // namespace

Vec3<double> absolute_point(const AbsoluteMapping& mapping, int body, const Vec3<double>& p) {
  if (body < 0) return p;
  const AbsoluteBodyMapping& b = mapping.bodies[static_cast<size_t>(body)];
  return transpose_times(b.R_BP, p - b.center_of_mass);
}

Vec3<double> absolute_direction(const AbsoluteMapping& mapping, int body, const Vec3<double>& a) {
  return body < 0 ? a : transpose_times(mapping.bodies[static_cast<size_t>(body)].R_BP, a);
}

std::vector<WorldBodyState> world_body_states(const Model& model, const std::vector<double>& q,
                                              const std::vector<double>& v) {
  const Eigen::VectorXd q_model = q.empty() ? kinematics::initial_q(model)
                                            : Eigen::Map<const Eigen::VectorXd>(q.data(), static_cast<Eigen::Index>(q.size()));
  const Eigen::VectorXd v_model = v.empty() ? kinematics::initial_v(model)
                                            : Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
  std::vector<WorldBodyState> states;
  for (const kinematics::BodyKinematics& b : kinematics::body_kinematics(model, q_model, v_model)) {
    WorldBodyState state;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) state.R_WB(i, j) = b.R_WB(i, j);
    state.p_cm = {b.p_WBcm.x(), b.p_WBcm.y(), b.p_WBcm.z()};
    state.v_cm = {b.v_WBcm_W.x(), b.v_WBcm_W.y(), b.v_WBcm_W.z()};
    state.w = {b.w_WB_W.x(), b.w_WB_W.y(), b.w_WB_W.z()};
    states.push_back(state);
  }
  return states;
}

void append_rod_states(const Model& model, const AbsoluteMapping& mapping, std::vector<WorldBodyState>& states) {
  // A point p of model body `body` (-1: the world): its world position and velocity.
  const auto point = [&](int body, const Vec3<double>& p, Vec3<double>& at, Vec3<double>& rate) {
    if (body < 0) {
      at = p, rate = Vec3<double>{0.0, 0.0, 0.0};
      return;
    }
    const WorldBodyState& s = states[static_cast<size_t>(body)];
    const Vec3<double> arm = s.R_WB * (p - mapping.bodies[static_cast<size_t>(body)].center_of_mass);
    at = s.p_cm + arm;
    rate = s.v_cm + cross(s.w, arm);
  };
  for (const AbsoluteBodyMapping& b : mapping.bodies) {
    if (b.rod_loop < 0) continue;
    const Loop& loop = model.loops[static_cast<size_t>(b.rod_loop)];
    Vec3<double> p1, v1, p2, v2;
    point(loop.body1, vector3(loop.point1), p1, v1);
    point(loop.body2, vector3(loop.point2), p2, v2);
    const Vec3<double> d = p2 - p1;
    const double length2 = dot(d, d);
    if (!(length2 > 0.0)) throw std::invalid_argument("loop '" + loop.name + "': the rod's ends coincide");
    const Vec3<double> x = (1.0 / std::sqrt(length2)) * d;
    Vec3<double> z = cross(Vec3<double>{0.0, 0.0, 1.0}, x);
    if (dot(z, z) < 0.25) z = cross(Vec3<double>{1.0, 0.0, 0.0}, x);  // within 30 degrees of vertical
    z = (1.0 / std::sqrt(dot(z, z))) * z;
    const Vec3<double> y = cross(z, x);
    WorldBodyState s;
    for (int i = 0; i < 3; ++i) s.R_WB(i, 0) = x[i], s.R_WB(i, 1) = y[i], s.R_WB(i, 2) = z[i];
    s.p_cm = 0.5 * (p1 + p2);
    s.v_cm = 0.5 * (v1 + v2);
    s.w = (1.0 / length2) * cross(d, v2 - v1);
    states.push_back(s);
  }
}

std::string gcon_counts_text(const GconCounts& c) {
  return std::to_string(c.cd) + " CD, " + std::to_string(c.dp1) + " DP1, " + std::to_string(c.dp2) + " DP2, " +
         std::to_string(c.d) + " D" + (c.angle > 0 ? ", " + std::to_string(c.angle) + " angle" : "");
}

namespace {

// BodyAxisOrder::z_away_from_world_z: the principal axes in the cyclic order whose z axis starts farthest from the
// world's z, for a body whose z starts within 45 degrees of it. The model's initial joint coordinates give the start
// orientations (a model whose kinematics cannot be evaluated keeps its orders).
void turn_axes_from_the_world_z(AbsoluteMapping& mapping, const Model& model) {
  std::vector<WorldBodyState> states;
  try {
    states = world_body_states(model);
  } catch (const std::exception&) {
    return;
  }
  for (size_t b = 0; b < mapping.bodies.size() && b < states.size(); ++b) {
    AbsoluteBodyMapping& body = mapping.bodies[b];
    double cosine[3];
    for (int k = 0; k < 3; ++k)  // world z component of principal axis k
      cosine[k] = std::fabs(states[b].R_WB(2, 0) * body.R_BP(0, k) + states[b].R_WB(2, 1) * body.R_BP(1, k) +
                            states[b].R_WB(2, 2) * body.R_BP(2, k));
    if (cosine[2] <= std::sqrt(0.5)) continue;
    const int m = cosine[0] <= cosine[1] ? 0 : 1;  // the new z
    const Mat3<double> R = body.R_BP;
    const Vec3<double> J = body.principal_inertia;
    for (int k = 0; k < 3; ++k) {
      const int from = (m + 1 + k) % 3;
      for (int i = 0; i < 3; ++i) body.R_BP(i, k) = R(i, from);
      body.principal_inertia[k] = J[from];
    }
  }
}

// Something of the model the mapped mechanism does not have.
void lose(AbsoluteMapping& mapping, const std::string& what) {
  mapping.unmapped.push_back(what);
  mapping.missing.push_back(what);
}

}  // namespace

AbsoluteMapping map_to_absolute(const Model& model, RevoluteDriverGcon revolute_drivers, BodyAxisOrder axes) {
  AbsoluteMapping mapping;
  for (const Body& body : model.bodies) mapping.bodies.push_back(map_body(body));
  if (axes == BodyAxisOrder::z_away_from_world_z) turn_axes_from_the_world_z(mapping, model);
  mapping.gravity = vector3(model.gravity);
  for (const Joint& joint : model.joints) {
    const std::string what = "joint '" + joint.name + "' (" + joint_type_name(joint.type) + ")";
    if (joint.type == JointType::free) {
      mapping.unmapped.push_back(what + ": no constraint");
      continue;
    }
    const MappedFrame F = map_frame(mapping, joint.parent, joint.parent_frame);
    const MappedFrame M = map_frame(mapping, joint.child, joint.child_frame);
    add(mapping, what, pair_gcons(joint.type, F, M, joint.axis, joint.axis2));
  }
  for (const Loop& loop : model.loops) {
    const std::string what = "loop '" + loop.name + "' (" + loop_type_name(loop.type) + ")";
    if (loop.type == LoopType::rod && loop.mass.value != 0.0) {  // a body of its own (AbsoluteBodyMapping::rod_loop)
      const double length = loop.length.value, m = loop.mass.value;
      AbsoluteBodyMapping rod;
      rod.name = "rod '" + loop.name + "'";
      rod.mass = m;
      rod.principal_inertia = Vec3<double>{1.0, 1.0, 1.0} * (m * length * length / 12.0);
      rod.R_BP = Mat3<double>::identity();
      rod.rod_loop = static_cast<int>(&loop - model.loops.data());
      mapping.bodies.push_back(rod);
      const int body = static_cast<int>(mapping.bodies.size());  // its absolute index (0 is the ground)
      add(mapping, what + ": its first end",
          spherical_joint<double>(loop.body1 + 1, absolute_point(mapping, loop.body1, vector3(loop.point1)), body,
                                  Vec3<double>{-0.5 * length, 0.0, 0.0}));
      add(mapping, what + ": its second end",
          spherical_joint<double>(loop.body2 + 1, absolute_point(mapping, loop.body2, vector3(loop.point2)), body,
                                  Vec3<double>{0.5 * length, 0.0, 0.0}));
      continue;
    }
    if (loop.type == LoopType::distance || loop.type == LoopType::rod) {
      const double length = loop.length.value;
      add(mapping, what,
          distance_joint<double>(loop.body1 + 1, absolute_point(mapping, loop.body1, vector3(loop.point1)),
                                 loop.body2 + 1, absolute_point(mapping, loop.body2, vector3(loop.point2)), length));
      continue;
    }
    const MappedFrame F = map_frame(mapping, loop.body1, loop.frame1);
    const MappedFrame M = map_frame(mapping, loop.body2, loop.frame2);
    switch (loop.type) {
      case LoopType::cut_spherical: add(mapping, what, pair_gcons(JointType::spherical, F, M, loop.axis, loop.axis2)); break;
      case LoopType::cut_revolute: add(mapping, what, pair_gcons(JointType::revolute, F, M, loop.axis, loop.axis2)); break;
      case LoopType::cut_universal: add(mapping, what, pair_gcons(JointType::universal, F, M, loop.axis, loop.axis2)); break;
      case LoopType::cut_planar_revolute: {
        const Triad t = triad(loop.axis);
        add(mapping, what,
            perpendicular_2<double>(F.body, F.R * t.u, F.R * t.w, F.origin, M.body, M.origin));
        break;
      }
      default: break;
    }
  }
  for (int d = 0; d < static_cast<int>(model.drivers.size()); ++d) {
    const Driver& driver = model.drivers[static_cast<size_t>(d)];
    const Joint& joint = model.joints[static_cast<size_t>(driver.joint)];
    const std::string what = "driver '" + driver.name + "' (" + joint_type_name(joint.type) + " '" + joint.name + "')";
    const MappedFrame F = map_frame(mapping, joint.parent, joint.parent_frame);
    const MappedFrame M = map_frame(mapping, joint.child, joint.child_frame);
    const Triad t = triad(joint.axis);
    if (joint.type == JointType::revolute && revolute_drivers == RevoluteDriverGcon::angle) {  // the angle = q
      add(mapping, what, driven(make_angle<double>(F.body, F.R * t.axis, F.R * t.u, M.body, M.R * t.u, 0.0), d));
    } else if (joint.type == JointType::revolute) {  // u_F . u_M = cos q (seed 002 sec. 4.2's rheonomic DP1)
      add(mapping, what, driven(make_dp1<double>(F.body, F.R * t.u, M.body, M.R * t.u, 0.0), d));
    } else if (joint.type == JointType::prismatic) {  // axis_F . (F -> M) = q
      add(mapping, what, driven(make_dp2<double>(F.body, F.R * t.axis, F.origin, M.body, M.origin, 0.0), d));
    } else {
      lose(mapping, what + ": only revolute and prismatic coordinates have a GCON driver here");
    }
  }
  for (int index = 0; index < static_cast<int>(model.forces.size()); ++index) {
    const ForceElement& force = model.forces[static_cast<size_t>(index)];
    const std::string what = "force '" + force.name + "' (" + force_type_name(force.type) + ")";
    if (force.type == ForceType::tsda) {  // its law stays the compiled model's; the ends in the bodies' frames
      AbsoluteTsda e;
      e.force = index;
      e.body_i = force.end1.body + 1, e.body_j = force.end2.body + 1;
      e.s_bar_i = force.end1.body >= 0 ? absolute_point(mapping, force.end1.body, vector3(force.end1.point))
                                       : vector3(force.end1.point);
      e.s_bar_j = force.end2.body >= 0 ? absolute_point(mapping, force.end2.body, vector3(force.end2.point))
                                       : vector3(force.end2.point);
      mapping.tsdas.push_back(e);
      continue;
    }
    if (force.type == ForceType::bushing) {  // its law stays the compiled model's; its frames in the bodies' frames
      const MappedFrame F1 = map_frame(mapping, force.end1.body, force.frame1);
      const MappedFrame F2 = map_frame(mapping, force.end2.body, force.frame2);
      AbsoluteBushing e;
      e.force = index;
      e.body_i = F1.body, e.body_j = F2.body;
      e.R_bar_i = F1.R, e.R_bar_j = F2.R;
      e.s_bar_i = F1.origin, e.s_bar_j = F2.origin;
      mapping.bushings.push_back(e);
      continue;
    }
    if (force.type == ForceType::tire) {  // its law stays the compiled model's; the wheel's centre and spin axis
      AbsoluteTire e;
      e.force = index;
      e.body = force.end1.body + 1;
      e.center_bar = absolute_point(mapping, force.end1.body, vector3(force.end1.point));
      e.axis_bar = absolute_direction(mapping, force.end1.body, unit_vector3(force.tire_axis));
      mapping.tires.push_back(e);
      continue;
    }
    const JointType actuated = force.type == ForceType::joint_actuator && force.joint >= 0
                                   ? model.joints[static_cast<size_t>(force.joint)].type
                                   : JointType::fixed;
    // A joint actuator along a translation (prismatic; a cylindrical joint's second coordinate) or about a rotation
    // (revolute; a cylindrical joint's first).
    const bool along = (actuated == JointType::prismatic && force.index == 0) ||
                       (actuated == JointType::cylindrical && force.index == 1);
    const bool about = (actuated == JointType::revolute || actuated == JointType::cylindrical) && force.index == 0;
    if (along) {  // u along axis_F . (F -> M) = q
      const Joint& joint = model.joints[static_cast<size_t>(force.joint)];
      const MappedFrame F = map_frame(mapping, joint.parent, joint.parent_frame);
      const MappedFrame M = map_frame(mapping, joint.child, joint.child_frame);
      const Triad t = triad(joint.axis);
      AbsoluteActuator a;
      a.gcon = make_dp2<double>(F.body, F.R * t.axis, F.origin, M.body, M.origin, 0.0);
      a.force = index;
      mapping.actuators.push_back(a);
      continue;
    }
    if (force.type != ForceType::rsda && !about) {
      lose(mapping, what + (force.type == ForceType::joint_actuator
                                ? ": the absolute engine drives revolute, prismatic and cylindrical joints only"
                                : ": the absolute engine has spring-damper-actuators (tsda, rsda), bushings and tires only"));
      continue;
    }
    const Joint& joint = model.joints[static_cast<size_t>(force.joint)];
    const MappedFrame F = map_frame(mapping, joint.parent, joint.parent_frame);
    const MappedFrame M = map_frame(mapping, joint.child, joint.child_frame);
    const Triad t = triad(joint.axis);
    const double q0 = joint.initial_position.empty() ? 0.0 : joint.initial_position[0].value;
    AbsoluteRsda e;  // a joint actuator: an RSDA without spring or damper
    e.body_i = F.body, e.body_j = M.body;
    e.axis_bar_i = F.R * t.axis, e.reference_bar_i = F.R * t.u, e.reference_bar_j = M.R * t.u;
    if (force.type == ForceType::rsda) {
      e.stiffness = force.stiffness.value, e.damping = force.damping.value;
      e.zero_angle = rsda_effective_zero_angle(force.zero_angle.value, q0, force.shortest_initial_deflection);
    }
    e.unwrapped_anchor = q0, e.wrapped_anchor = wrap_to_pi(q0);
    if (force.type == ForceType::joint_actuator || force.has_actuator) e.force = index;
    mapping.rsdas.push_back(e);
  }
  mapping.counts = count_gcons(mapping.gcons.data(), static_cast<int>(mapping.gcons.size()));
  return mapping;
}

}  // namespace myriad
