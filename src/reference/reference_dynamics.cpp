#include "reference/reference_dynamics.hpp"

#include <stdexcept>
#include <string>

#include "model/model_geometry.hpp"
#include "model/time_function_packing.hpp"
#include "reference/eigen_conversions.hpp"
#include "reference/reference_errors.hpp"

namespace myriad::reference {

namespace {

using Eigen::Matrix3d;
using Eigen::Matrix3Xd;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

using reference::to_eigen;

Vector3d unit_axis(const Vector3& axis) { return to_eigen(unit_vector3(axis)); }

Matrix3d rotation_about(const Vector3d& unit_axis_, double angle) {
  return Eigen::AngleAxisd(angle, unit_axis_).toRotationMatrix();
}

// R_FM of the quaternion (w, x, y, z) stored at q[0..3], normalized on use.
Matrix3d quaternion_rotation(const double* q) {
  const Eigen::Quaterniond quaternion(q[0], q[1], q[2], q[3]);
  if (!(quaternion.norm() > 0.0)) throw std::invalid_argument("reference: zero quaternion in q");
  return quaternion.normalized().toRotationMatrix();
}

// Motion of M in F for one joint at coordinates q (docs/model-format.md, "Joints"), with its twist basis: a
// unit v_k gives M the angular velocity S_w_F.col(k) and its origin the velocity S_v_F.col(k) relative to F,
// in F axes.
struct JointMotion {
  Matrix3d R_FM = Matrix3d::Identity();
  Vector3d p_FoMo_F = Vector3d::Zero();
  Matrix3Xd S_w_F;  // 3 x nv
  Matrix3Xd S_v_F;  // 3 x nv
};

JointMotion joint_motion(const Joint& joint, const double* q) {
  const int nv = joint_nv(joint.type);
  JointMotion m;
  m.S_w_F = Matrix3Xd::Zero(3, nv);
  m.S_v_F = Matrix3Xd::Zero(3, nv);
  switch (joint.type) {
    case JointType::revolute: {
      const Vector3d a = unit_axis(joint.axis);
      m.R_FM = rotation_about(a, q[0]);
      m.S_w_F.col(0) = a;
      break;
    }
    case JointType::prismatic: {
      const Vector3d a = unit_axis(joint.axis);
      m.p_FoMo_F = a * q[0];
      m.S_v_F.col(0) = a;
      break;
    }
    case JointType::cylindrical: {
      const Vector3d a = unit_axis(joint.axis);
      m.R_FM = rotation_about(a, q[0]);
      m.p_FoMo_F = a * q[1];
      m.S_w_F.col(0) = a;
      m.S_v_F.col(1) = a;
      break;
    }
    case JointType::universal: {
      // R_FM = Rot(a, q1) Rot(b, q2), b given in M (the same coordinates in the intermediate frame).
      const Vector3d a = unit_axis(joint.axis), b = unit_axis(joint.axis2);
      const Matrix3d R_FI = rotation_about(a, q[0]);
      m.R_FM = R_FI * rotation_about(b, q[1]);
      m.S_w_F.col(0) = a;
      m.S_w_F.col(1) = R_FI * b;
      break;
    }
    case JointType::spherical: {
      m.R_FM = quaternion_rotation(q);
      m.S_w_F = m.R_FM;  // v = angular velocity in M axes
      break;
    }
    case JointType::planar: {
      const Vector3d n = unit_axis(joint.axis);
      Vec3<double> e1, e2;
      planar_basis(unit_vector3(joint.axis), e1, e2);
      m.p_FoMo_F = to_eigen(e1) * q[0] + to_eigen(e2) * q[1];
      m.R_FM = rotation_about(n, q[2]);
      m.S_v_F.col(0) = to_eigen(e1);
      m.S_v_F.col(1) = to_eigen(e2);
      m.S_w_F.col(2) = n;
      break;
    }
    case JointType::free: {
      m.p_FoMo_F = Vector3d(q[0], q[1], q[2]);
      m.R_FM = quaternion_rotation(q + 3);
      m.S_v_F.leftCols(3) = m.R_FM;   // linear velocity of M's origin, in M axes
      m.S_w_F.rightCols(3) = m.R_FM;  // angular velocity, in M axes
      break;
    }
    case JointType::fixed:
      break;
  }
  return m;
}

// Rates of S_w_F v and S_v_F v when dv/dt = 0 (the q-dependence of the joint's own basis), in F axes.
void joint_bias(const Joint& joint, const JointMotion& m, const double* q, const double* v,
                Vector3d& angular_bias_F, Vector3d& linear_bias_F) {
  angular_bias_F.setZero();
  linear_bias_F.setZero();
  switch (joint.type) {
    case JointType::universal: {
      // d/dt (Rot(a, q1) b) = (a q1') x (Rot(a, q1) b)
      const Vector3d a = unit_axis(joint.axis), b = unit_axis(joint.axis2);
      angular_bias_F = (a * v[0]).cross(rotation_about(a, q[0]) * b) * v[1];
      break;
    }
    case JointType::free: {
      // d/dt (R_FM v_lin) = R_FM (w_M x v_lin); the angular part R_FM (w_M x w_M) vanishes.
      const Vector3d v_lin_M(v[0], v[1], v[2]), w_M(v[3], v[4], v[5]);
      linear_bias_F = m.R_FM * w_M.cross(v_lin_M);
      break;
    }
    default:
      break;  // constant bases, or R_FM w_M whose rate R_FM (w_M x w_M) vanishes (spherical)
  }
}

// Everything one parent-first pass over the tree yields.
struct TreeState {
  CoordinateLayout layout;
  std::vector<int> body_joint;  // joint whose child each body is
  std::vector<BodyKinematics> bodies;
  std::vector<Vector3d> p_WMo;  // per joint: world position of M's origin
  std::vector<Matrix3Xd>
      A_W;  // per joint: angular velocity of M relative to F per unit v_k, world (3 x nv_j)
  std::vector<Matrix3Xd>
      B_W;  // per joint: velocity of M's origin relative to F per unit v_k, world (3 x nv_j)
  std::vector<BodyAcceleration> bias;  // per body, Jdot v
};

void check_sizes(const CoordinateLayout& layout, const VectorXd& q, const VectorXd* v) {
  if (q.size() != layout.nq)
    throw std::invalid_argument("reference: q has " + std::to_string(q.size()) +
                                " entries, the model has nq = " + std::to_string(layout.nq));
  if (v != nullptr && v->size() != layout.nv)
    throw std::invalid_argument("reference: v has " + std::to_string(v->size()) +
                                " entries, the model has nv = " + std::to_string(layout.nv));
}

// Joint indices parent-first (independent of whether Model::joints already is), and each body's joint.
std::vector<int> tree_order(const Model& model, std::vector<int>& body_joint) {
  const int body_count = static_cast<int>(model.bodies.size());
  const int joint_count = static_cast<int>(model.joints.size());
  body_joint.assign(model.bodies.size(), -1);
  for (int j = 0; j < joint_count; ++j) {
    const Joint& joint = model.joints[j];
    if (joint.child < 0 || joint.child >= body_count || joint.parent < -1 || joint.parent >= body_count)
      throw std::invalid_argument("reference: joint '" + joint.name + "' names a body that does not exist");
    if (body_joint[joint.child] != -1)
      throw std::invalid_argument("reference: body '" + model.bodies[joint.child].name +
                                  "' has two parent joints");
    body_joint[joint.child] = j;
  }
  for (int b = 0; b < body_count; ++b)
    if (body_joint[b] == -1)
      throw std::invalid_argument("reference: body '" + model.bodies[b].name + "' has no parent joint");
  std::vector<int> order;
  std::vector<bool> done(model.joints.size(), false);
  while (static_cast<int>(order.size()) < joint_count) {
    const size_t before = order.size();
    for (int j = 0; j < joint_count; ++j) {
      if (done[j]) continue;
      const int parent = model.joints[j].parent;
      if (parent == -1 || done[body_joint[parent]]) {
        done[j] = true;
        order.push_back(j);
      }
    }
    if (order.size() == before)
      throw std::invalid_argument("reference: the joints do not form a tree on ground");
  }
  return order;
}

// Poses, velocities, joint twist bases and (optionally) bias accelerations of every body: one recursion in
// world axes. Ground has zero pose, velocity and acceleration.
TreeState evaluate_tree(const Model& model, const VectorXd& q, const VectorXd& v, bool with_bias) {
  TreeState s;
  s.layout = coordinate_layout(model);
  check_sizes(s.layout, q, &v);
  const std::vector<int> order = tree_order(model, s.body_joint);
  s.bodies.resize(model.bodies.size());
  s.bias.resize(model.bodies.size());
  s.p_WMo.resize(model.joints.size());
  s.A_W.resize(model.joints.size());
  s.B_W.resize(model.joints.size());

  for (const int j : order) {
    const Joint& joint = model.joints[j];
    const double* qj = q.data() + s.layout.q_index[j];
    const double* vj = v.data() + s.layout.v_index[j];
    const int nv = joint_nv(joint.type);
    const Eigen::Map<const VectorXd> v_joint(vj, nv);

    // Parent state (ground: all zero).
    BodyKinematics parent{Matrix3d::Identity(), Vector3d::Zero(), Vector3d::Zero(), Vector3d::Zero(),
                          Vector3d::Zero()};
    BodyAcceleration parent_bias{Vector3d::Zero(), Vector3d::Zero()};
    if (joint.parent >= 0) {
      parent = s.bodies[joint.parent];
      parent_bias = s.bias[joint.parent];
    }

    // Poses: X_WC = X_WP X_PF X_FM(q) X_CM^-1.
    const Transform<double> X_PF = frame_transform(joint.parent_frame);
    const Transform<double> X_CM = frame_transform(joint.child_frame);
    const Matrix3d R_PF = to_eigen(X_PF.R), R_CM = to_eigen(X_CM.R);
    const Vector3d p_PoFo_P = to_eigen(X_PF.p), p_CoMo_C = to_eigen(X_CM.p);
    const JointMotion motion = joint_motion(joint, qj);
    const Matrix3d R_WF = parent.R_WB * R_PF;
    const Vector3d p_WFo = parent.p_WBo + parent.R_WB * p_PoFo_P;
    const Matrix3d R_WM = R_WF * motion.R_FM;
    const Vector3d p_WMo = p_WFo + R_WF * motion.p_FoMo_F;
    BodyKinematics& child = s.bodies[joint.child];
    child.R_WB = R_WM * R_CM.transpose();
    child.p_WBo = p_WMo - child.R_WB * p_CoMo_C;
    child.p_WBcm = child.p_WBo + child.R_WB * to_eigen(vector3(model.bodies[joint.child].center_of_mass));

    // Joint twist basis in world axes.
    s.p_WMo[j] = p_WMo;
    s.A_W[j] = R_WF * motion.S_w_F;
    s.B_W[j] = R_WF * motion.S_v_F;

    // Velocities: w_C = w_P + w_rel; v_Mo = (velocity of P's point at Mo) + v_rel; v_Ccm = v_Mo + w_C x r.
    const Vector3d w_rel_W = s.A_W[j] * v_joint;
    const Vector3d v_rel_W = s.B_W[j] * v_joint;
    const Vector3d r_PcmMo_W = p_WMo - parent.p_WBcm;
    const Vector3d r_MoCcm_W = child.p_WBcm - p_WMo;
    child.w_WB_W = parent.w_WB_W + w_rel_W;
    const Vector3d v_WMo_W = parent.v_WBcm_W + parent.w_WB_W.cross(r_PcmMo_W) + v_rel_W;
    child.v_WBcm_W = v_WMo_W + child.w_WB_W.cross(r_MoCcm_W);

    if (!with_bias) continue;
    // Accelerations with dv/dt = 0. The world axes of F turn with the parent (d/dt R_WF x = w_P x R_WF x):
    //   alpha_C = alpha_P + w_P x w_rel + R_WF (d/dt S_w) v
    //   a_Mo    = a_P(at Mo) + 2 w_P x v_rel + R_WF (d/dt S_v) v          (Coriolis theorem)
    //   a_Ccm   = a_Mo + alpha_C x r + w_C x (w_C x r)
    Vector3d angular_bias_F, linear_bias_F;
    joint_bias(joint, motion, qj, vj, angular_bias_F, linear_bias_F);
    const Vector3d& w_P = parent.w_WB_W;
    BodyAcceleration& b = s.bias[joint.child];
    b.alpha_W = parent_bias.alpha_W + w_P.cross(w_rel_W) + R_WF * angular_bias_F;
    const Vector3d a_P_at_Mo =
        parent_bias.a_cm_W + parent_bias.alpha_W.cross(r_PcmMo_W) + w_P.cross(w_P.cross(r_PcmMo_W));
    const Vector3d a_WMo = a_P_at_Mo + 2.0 * w_P.cross(v_rel_W) + R_WF * linear_bias_F;
    b.a_cm_W = a_WMo + b.alpha_W.cross(r_MoCcm_W) + child.w_WB_W.cross(child.w_WB_W.cross(r_MoCcm_W));
  }
  return s;
}

// Jacobians (3 x nv) of the velocity of the world point p_WQ moving with `body`, and of its angular velocity.
void jacobians_at(const Model& model, const TreeState& s, int body, const Vector3d& p_WQ, MatrixXd& Jv,
                  MatrixXd& Jw) {
  Jv = MatrixXd::Zero(3, s.layout.nv);
  Jw = MatrixXd::Zero(3, s.layout.nv);
  for (int j = s.body_joint[body]; j >= 0;) {
    const int v0 = s.layout.v_index[j];
    for (int k = 0; k < s.A_W[j].cols(); ++k) {
      const Vector3d a = s.A_W[j].col(k);
      Jw.col(v0 + k) = a;
      Jv.col(v0 + k) = s.B_W[j].col(k) + a.cross(p_WQ - s.p_WMo[j]);
    }
    const int parent = model.joints[j].parent;
    j = parent >= 0 ? s.body_joint[parent] : -1;
  }
}

Matrix3d world_inertia(const Model& model, int body, const Matrix3d& R_WB) {
  return R_WB * to_eigen(inertia_matrix(model.bodies[body].inertia)) * R_WB.transpose();
}

const ForceElement& force_of(const Model& model, int force, ForceType type, const char* what) {
  if (force < 0 || force >= static_cast<int>(model.forces.size()))
    throw std::invalid_argument(std::string("reference: no force element ") + std::to_string(force));
  const ForceElement& f = model.forces[force];
  if (f.type != type) throw std::invalid_argument("reference: force '" + f.name + "' is not " + what);
  return f;
}

// World position and velocity of one TSDA end.
void tsda_end(const TreeState& s, const BodyPoint& end, double t, Vector3d& p_W, Vector3d& v_W) {
  if (end.body < 0) {
    p_W = to_eigen(vector3(end.point));
    v_W.setZero();
    if (end.moves) {
      const Vector3d u = to_eigen(unit_vector3(end.motion_direction));
      const TimeValue m = evaluate_time_function(end.motion, t);
      p_W += u * m.value;
      v_W = u * m.rate;
    }
    return;
  }
  if (end.body >= static_cast<int>(s.bodies.size()))
    throw std::invalid_argument("reference: tsda end on body " + std::to_string(end.body) +
                                " does not exist");
  const BodyKinematics& b = s.bodies[end.body];
  p_W = b.p_WBo + b.R_WB * to_eigen(vector3(end.point));
  v_W = b.v_WBcm_W + b.w_WB_W.cross(p_W - b.p_WBcm);
}

TsdaState tsda_state_of(const Model& model, const TreeState& s, int force, double t) {
  const ForceElement& f = force_of(model, force, ForceType::tsda, "a tsda");
  TsdaState out;
  Vector3d v_W1, v_W2;
  tsda_end(s, f.end1, t, out.p_W1, v_W1);
  tsda_end(s, f.end2, t, out.p_W2, v_W2);
  const Vector3d d = out.p_W2 - out.p_W1;
  out.length = d.norm();
  if (!(out.length > 0.0)) refuse_zero_length_tsda(model, force);
  const Vector3d e = d / out.length;
  out.length_rate = e.dot(v_W2 - v_W1);
  out.tension = f.stiffness.value * (out.length - f.free_length.value) + f.damping.value * out.length_rate;
  if (f.has_actuator) out.tension += evaluate_time_function(f.actuator, t).value;
  return out;
}

int rsda_joint(const Model& model, const ForceElement& f) {
  if (f.joint < 0 || f.joint >= static_cast<int>(model.joints.size()) ||
      model.joints[f.joint].type != JointType::revolute)
    throw std::invalid_argument("reference: rsda '" + f.name + "' is not on a revolute joint");
  return f.joint;
}

double initial_coordinate(const Joint& joint) {
  return joint.initial_position.empty() ? 0.0 : joint.initial_position[0].value;
}

}  // namespace

CoordinateLayout coordinate_layout(const Model& model) {
  CoordinateLayout layout;
  for (const Joint& joint : model.joints) {
    layout.q_index.push_back(layout.nq);
    layout.v_index.push_back(layout.nv);
    layout.nq += joint_nq(joint.type);
    layout.nv += joint_nv(joint.type);
  }
  return layout;
}

std::vector<BodyKinematics> body_kinematics(const Model& model, const VectorXd& q, const VectorXd& v) {
  return evaluate_tree(model, q, v, false).bodies;
}

std::vector<BodyJacobian> body_jacobians_cm(const Model& model, const VectorXd& q) {
  const CoordinateLayout layout = coordinate_layout(model);
  check_sizes(layout, q, nullptr);
  const TreeState s = evaluate_tree(model, q, VectorXd::Zero(layout.nv), false);
  std::vector<BodyJacobian> out(model.bodies.size());
  for (size_t i = 0; i < out.size(); ++i)
    jacobians_at(model, s, static_cast<int>(i), s.bodies[i].p_WBcm, out[i].Jv, out[i].Jw);
  return out;
}

MatrixXd point_jacobian(const Model& model, const VectorXd& q, int body, const Vector3d& p_BQ_B) {
  if (body < 0 || body >= static_cast<int>(model.bodies.size()))
    throw std::out_of_range("reference: no body " + std::to_string(body));
  const CoordinateLayout layout = coordinate_layout(model);
  check_sizes(layout, q, nullptr);
  const TreeState s = evaluate_tree(model, q, VectorXd::Zero(layout.nv), false);
  const BodyKinematics& b = s.bodies[body];
  MatrixXd Jv, Jw;
  jacobians_at(model, s, body, b.p_WBo + b.R_WB * p_BQ_B, Jv, Jw);
  return Jv;
}

std::vector<BodyAcceleration> body_bias_accelerations(const Model& model, const VectorXd& q,
                                                      const VectorXd& v) {
  return evaluate_tree(model, q, v, true).bias;
}

std::vector<BodyAcceleration> body_accelerations(const Model& model, const VectorXd& q, const VectorXd& v,
                                                 const VectorXd& vdot) {
  const TreeState s = evaluate_tree(model, q, v, true);
  if (vdot.size() != s.layout.nv) throw std::invalid_argument("reference: vdot has the wrong size");
  std::vector<BodyAcceleration> out = s.bias;
  for (size_t i = 0; i < out.size(); ++i) {
    MatrixXd Jv, Jw;
    jacobians_at(model, s, static_cast<int>(i), s.bodies[i].p_WBcm, Jv, Jw);
    out[i].alpha_W += Jw * vdot;
    out[i].a_cm_W += Jv * vdot;
  }
  return out;
}

MatrixXd mass_matrix(const Model& model, const VectorXd& q) {
  const CoordinateLayout layout = coordinate_layout(model);
  check_sizes(layout, q, nullptr);
  const TreeState s = evaluate_tree(model, q, VectorXd::Zero(layout.nv), false);
  MatrixXd M = MatrixXd::Zero(layout.nv, layout.nv);
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    const int body = static_cast<int>(i);
    MatrixXd Jv, Jw;
    jacobians_at(model, s, body, s.bodies[i].p_WBcm, Jv, Jw);
    const Matrix3d I_W = world_inertia(model, body, s.bodies[i].R_WB);
    M += model.bodies[i].mass.value * Jv.transpose() * Jv + Jw.transpose() * I_W * Jw;
  }
  return M;
}

TsdaState tsda_state(const Model& model, int force, double t, const VectorXd& q, const VectorXd& v) {
  return tsda_state_of(model, evaluate_tree(model, q, v, false), force, t);
}

double rsda_zero_angle(const Model& model, int force) {
  const ForceElement& f = force_of(model, force, ForceType::rsda, "an rsda");
  const Joint& joint = model.joints[rsda_joint(model, f)];
  return rsda_effective_zero_angle(f.zero_angle.value, initial_coordinate(joint),
                                   f.shortest_initial_deflection);
}

double rsda_torque(const Model& model, int force, double t, const VectorXd& q, const VectorXd& v) {
  const CoordinateLayout layout = coordinate_layout(model);
  check_sizes(layout, q, &v);
  const ForceElement& f = force_of(model, force, ForceType::rsda, "an rsda");
  const int j = rsda_joint(model, f);
  const double angle = q[layout.q_index[j]], rate = v[layout.v_index[j]];
  double torque = -f.stiffness.value * (angle - rsda_zero_angle(model, force)) - f.damping.value * rate;
  if (f.has_actuator) torque += evaluate_time_function(f.actuator, t).value;
  return torque;
}

VectorXd generalized_forces(const Model& model, double t, const VectorXd& q, const VectorXd& v) {
  const TreeState s = evaluate_tree(model, q, v, true);
  const Vector3d g = to_eigen(vector3(model.gravity));
  VectorXd Q = VectorXd::Zero(s.layout.nv);

  // Gravity and the velocity-product terms, body by body.
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    const int body = static_cast<int>(i);
    const BodyKinematics& b = s.bodies[i];
    const double m = model.bodies[i].mass.value;
    const Matrix3d I_W = world_inertia(model, body, b.R_WB);
    MatrixXd Jv, Jw;
    jacobians_at(model, s, body, b.p_WBcm, Jv, Jw);
    const Vector3d inertial_force = m * (s.bias[i].a_cm_W - g);
    const Vector3d inertial_moment = I_W * s.bias[i].alpha_W + b.w_WB_W.cross(I_W * b.w_WB_W);
    Q -= Jv.transpose() * inertial_force + Jw.transpose() * inertial_moment;
  }

  for (int k = 0; k < static_cast<int>(model.forces.size()); ++k) {
    const ForceElement& f = model.forces[k];
    switch (f.type) {
      case ForceType::tsda: {
        const TsdaState state = tsda_state_of(model, s, k, t);
        const Vector3d e = (state.p_W2 - state.p_W1) / state.length;  // unit, from end 1 to end 2
        const auto apply = [&](const BodyPoint& end, const Vector3d& p_W, const Vector3d& force_W) {
          if (end.body < 0) return;  // ground takes the reaction
          MatrixXd Jv, Jw;
          jacobians_at(model, s, end.body, p_W, Jv, Jw);
          Q += Jv.transpose() * force_W;
        };
        apply(f.end1, state.p_W1, state.tension * e);   // tension pulls end 1 towards end 2
        apply(f.end2, state.p_W2, -state.tension * e);  // and end 2 towards end 1
        break;
      }
      case ForceType::rsda: {
        const int j = rsda_joint(model, f);
        Q[s.layout.v_index[j]] += rsda_torque(model, k, t, q, v);
        break;
      }
      case ForceType::joint_actuator: {
        if (f.joint < 0 || f.joint >= static_cast<int>(model.joints.size()) || f.index < 0 ||
            f.index >= joint_nv(model.joints[f.joint].type))
          throw std::invalid_argument("reference: joint_actuator '" + f.name +
                                      "' has no such joint coordinate");
        Q[s.layout.v_index[f.joint] + f.index] += evaluate_time_function(f.actuator, t).value;
        break;
      }
    }
  }
  return Q;
}

VectorXd forward_dynamics(const Model& model, double t, const VectorXd& q, const VectorXd& v) {
  const MatrixXd M = mass_matrix(model, q);
  const VectorXd Q = generalized_forces(model, t, q, v);
  const Eigen::LLT<MatrixXd> cholesky(M);
  if (cholesky.info() != Eigen::Success) refuse_mass_matrix(model, M);
  return cholesky.solve(Q);
}

double kinetic_energy(const Model& model, const VectorXd& q, const VectorXd& v) {
  const std::vector<BodyKinematics> bodies = body_kinematics(model, q, v);
  double energy = 0.0;
  for (size_t i = 0; i < bodies.size(); ++i) {
    const BodyKinematics& b = bodies[i];
    const Matrix3d I_W = world_inertia(model, static_cast<int>(i), b.R_WB);
    energy +=
        0.5 * model.bodies[i].mass.value * b.v_WBcm_W.squaredNorm() + 0.5 * b.w_WB_W.dot(I_W * b.w_WB_W);
  }
  return energy;
}

double potential_energy(const Model& model, double t, const VectorXd& q) {
  const CoordinateLayout layout = coordinate_layout(model);
  check_sizes(layout, q, nullptr);
  const VectorXd v = VectorXd::Zero(layout.nv);
  const TreeState s = evaluate_tree(model, q, v, false);
  const Vector3d g = to_eigen(vector3(model.gravity));
  double energy = 0.0;
  for (size_t i = 0; i < model.bodies.size(); ++i)
    energy -= model.bodies[i].mass.value * g.dot(s.bodies[i].p_WBcm);
  for (int k = 0; k < static_cast<int>(model.forces.size()); ++k) {
    const ForceElement& f = model.forces[k];
    if (f.type == ForceType::tsda) {
      const double stretch = tsda_state_of(model, s, k, t).length - f.free_length.value;
      energy += 0.5 * f.stiffness.value * stretch * stretch;
    } else if (f.type == ForceType::rsda) {
      const int j = rsda_joint(model, f);
      const double deflection = q[layout.q_index[j]] - rsda_zero_angle(model, k);
      energy += 0.5 * f.stiffness.value * deflection * deflection;
    }
  }
  return energy;
}

VectorXd qdot(const Model& model, const VectorXd& q, const VectorXd& v) {
  const CoordinateLayout layout = coordinate_layout(model);
  check_sizes(layout, q, &v);
  VectorXd out(layout.nq);
  // Quaternion rate for an angular velocity in M axes: d/dt q = 1/2 q (0, w_M).
  const auto quaternion_rate = [](const double* quaternion, const double* w_M, double* rate) {
    const Eigen::Quaterniond p(quaternion[0], quaternion[1], quaternion[2], quaternion[3]);
    const Eigen::Quaterniond w(0.0, w_M[0], w_M[1], w_M[2]);
    const Eigen::Quaterniond r = p * w;
    rate[0] = 0.5 * r.w();
    rate[1] = 0.5 * r.x();
    rate[2] = 0.5 * r.y();
    rate[3] = 0.5 * r.z();
  };
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& joint = model.joints[j];
    const int q0 = layout.q_index[j], v0 = layout.v_index[j];
    switch (joint.type) {
      case JointType::spherical:
        quaternion_rate(q.data() + q0, v.data() + v0, out.data() + q0);
        break;
      case JointType::free: {
        const Matrix3d R_FM = quaternion_rotation(q.data() + q0 + 3);
        out.segment<3>(q0) = R_FM * v.segment<3>(v0);
        quaternion_rate(q.data() + q0 + 3, v.data() + v0 + 3, out.data() + q0 + 3);
        break;
      }
      default:
        out.segment(q0, joint_nq(joint.type)) = v.segment(v0, joint_nv(joint.type));
        break;
    }
  }
  return out;
}

VectorXd initial_q(const Model& model) {
  const CoordinateLayout layout = coordinate_layout(model);
  VectorXd q = VectorXd::Zero(layout.nq);
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& joint = model.joints[j];
    const int nq = joint_nq(joint.type), q0 = layout.q_index[j];
    const int quaternion_at =
        joint.type == JointType::spherical ? 0 : (joint.type == JointType::free ? 3 : -1);
    if (joint.initial_position.empty()) {
      if (quaternion_at >= 0) q[q0 + quaternion_at] = 1.0;
      continue;
    }
    if (static_cast<int>(joint.initial_position.size()) != nq)
      refuse_initial_state(model, static_cast<int>(j), "position",
                           std::to_string(joint.initial_position.size()) + " initial positions, expected " +
                               std::to_string(nq));
    for (int k = 0; k < nq; ++k) q[q0 + k] = joint.initial_position[k].value;
    if (quaternion_at >= 0 && !normalize_quaternion(q.data() + q0 + quaternion_at))
      refuse_initial_state(model, static_cast<int>(j), "position",
                           "the initial quaternion (w, x, y, z) is zero or not finite");
  }
  return q;
}

VectorXd initial_v(const Model& model) {
  const CoordinateLayout layout = coordinate_layout(model);
  VectorXd v = VectorXd::Zero(layout.nv);
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& joint = model.joints[j];
    const int nv = joint_nv(joint.type);
    if (joint.initial_velocity.empty()) continue;
    if (static_cast<int>(joint.initial_velocity.size()) != nv)
      refuse_initial_state(model, static_cast<int>(j), "velocity",
                           std::to_string(joint.initial_velocity.size()) + " initial velocities, expected " +
                               std::to_string(nv));
    for (int k = 0; k < nv; ++k) v[layout.v_index[j] + k] = joint.initial_velocity[k].value;
  }
  return v;
}

}  // namespace myriad::reference
