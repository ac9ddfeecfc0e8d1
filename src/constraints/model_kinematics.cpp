#include "constraints/model_kinematics.hpp"

#include <stdexcept>
#include <string>

#include "constraints/eigen_conversions.hpp"
#include "model/model_error.hpp"
#include "model/model_geometry.hpp"
#include "model/model_pointers.hpp"

namespace myriad::kinematics {

namespace {

using Eigen::Matrix3d;
using Eigen::Matrix3Xd;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

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

}  // namespace

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

namespace {

}  // namespace

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

namespace {

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

// Joint `joint`'s `position` or `velocity` (key) does not fit it: `reason` says how.
[[noreturn]] void refuse_initial_state(const Model& model, int joint, const char* key, const std::string& reason) {
  throw ModelError(model.source_file, joint_pointer(model, joint) + "/" + key,
                   "joint '" + model.joints[static_cast<size_t>(joint)].name + "': " + reason);
}

}  // namespace

void check_sizes(const CoordinateLayout& layout, const VectorXd& q, const VectorXd* v) {
  if (q.size() != layout.nq)
    throw std::invalid_argument("reference: q has " + std::to_string(q.size()) +
                                " entries, the model has nq = " + std::to_string(layout.nq));
  if (v != nullptr && v->size() != layout.nv)
    throw std::invalid_argument("reference: v has " + std::to_string(v->size()) +
                                " entries, the model has nv = " + std::to_string(layout.nv));
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
    // A fixed joint's twist basis is 3 x 0 with no storage; Eigen's product would index rows of its null data.
    const Vector3d w_rel_W = nv > 0 ? Vector3d(s.A_W[j] * v_joint) : Vector3d::Zero();
    const Vector3d v_rel_W = nv > 0 ? Vector3d(s.B_W[j] * v_joint) : Vector3d::Zero();
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

}  // namespace myriad::kinematics
