// Joint coordinates and velocities from body poses and velocities: the inverse of body_kinematics
// (model_kinematics.hpp), for a state another engine computed in body coordinates.
#include <cmath>
#include <stdexcept>
#include <string>

#include "constraints/eigen_conversions.hpp"
#include "constraints/model_kinematics.hpp"
#include "model/model_geometry.hpp"

namespace myriad::kinematics {

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

constexpr double kPi = 3.14159265358979323846;

// The angle in (reference - pi, reference + pi] equal to `angle` modulo 2 pi.
double near(double angle, double reference) {
  double d = std::remainder(angle - reference, 2.0 * kPi);
  if (d <= -kPi) d += 2.0 * kPi;
  return reference + d;
}

// The angle of a rotation R about a unit axis a, for R = Rot(a, angle): sin from the skew part, cos from the
// trace (both exact for such an R).
double angle_about(const Matrix3d& R, const Vector3d& a) {
  const Vector3d skew(R(2, 1) - R(1, 2), R(0, 2) - R(2, 0), R(1, 0) - R(0, 1));
  return std::atan2(0.5 * a.dot(skew), 0.5 * (R.trace() - 1.0));
}

// The unit quaternion (w, x, y, z) of R with the sign nearest the reference's at q[0..3].
void quaternion_near(const Matrix3d& R, const double* reference, double* q) {
  const Eigen::Quaterniond e(R);
  double c[4] = {e.w(), e.x(), e.y(), e.z()};
  const double dot = c[0] * reference[0] + c[1] * reference[1] + c[2] * reference[2] + c[3] * reference[3];
  for (int k = 0; k < 4; ++k) q[k] = dot < 0.0 ? -c[k] : c[k];
}

Vector3d unit(const Vector3& axis) { return to_eigen(unit_vector3(axis)); }

// Joint j's coordinates from R_FM and p_FoMo_F (F axes), near the reference's.
void joint_coordinates(const Joint& joint, const Matrix3d& R_FM, const Vector3d& p, const double* reference,
                       double* q) {
  switch (joint.type) {
    case JointType::revolute: q[0] = near(angle_about(R_FM, unit(joint.axis)), reference[0]); break;
    case JointType::prismatic: q[0] = unit(joint.axis).dot(p); break;
    case JointType::cylindrical: {
      const Vector3d a = unit(joint.axis);
      q[0] = near(angle_about(R_FM, a), reference[0]);
      q[1] = a.dot(p);
      break;
    }
    case JointType::universal: {  // R_FM = Rot(a, q1) Rot(b, q2): R_FM b = Rot(a, q1) b
      const Vector3d a = unit(joint.axis), b = unit(joint.axis2), Rb = R_FM * b;
      q[0] = near(std::atan2(a.dot(b.cross(Rb)), b.dot(Rb)), reference[0]);
      const Matrix3d R_IM = Eigen::AngleAxisd(q[0], a).toRotationMatrix().transpose() * R_FM;
      q[1] = near(angle_about(R_IM, b), reference[1]);
      break;
    }
    case JointType::spherical: quaternion_near(R_FM, reference, q); break;
    case JointType::planar: {
      Vec3<double> e1, e2;
      planar_basis(unit_vector3(joint.axis), e1, e2);
      q[0] = to_eigen(e1).dot(p);
      q[1] = to_eigen(e2).dot(p);
      q[2] = near(angle_about(R_FM, unit(joint.axis)), reference[2]);
      break;
    }
    case JointType::free:
      q[0] = p.x(), q[1] = p.y(), q[2] = p.z();
      quaternion_near(R_FM, reference + 3, q + 3);
      break;
    case JointType::fixed: break;
  }
}

// One joint's frames in the world from its bodies' states: F's orientation and origin (on the parent, or the
// ground), M's origin (on the child).
struct JointFrames {
  Matrix3d R_WF, R_WM;
  Vector3d p_WFo, p_WMo;
};

JointFrames joint_frames(const Model& model, const Joint& joint, const BodyKinematics& parent,
                         const BodyKinematics& child) {
  const Transform<double> X_PF = frame_transform(joint.parent_frame);
  const Transform<double> X_CM = frame_transform(joint.child_frame);
  // Body origins from the centres of mass (ground's origin is the world's).
  const Vector3d p_P = joint.parent >= 0 ? Vector3d(parent.p_WBcm - parent.R_WB *
                                                    to_eigen(vector3(model.bodies[joint.parent].center_of_mass)))
                                         : Vector3d::Zero();
  const Vector3d p_C = child.p_WBcm - child.R_WB * to_eigen(vector3(model.bodies[joint.child].center_of_mass));
  return {parent.R_WB * to_eigen(X_PF.R), child.R_WB * to_eigen(X_CM.R), p_P + parent.R_WB * to_eigen(X_PF.p),
          p_C + child.R_WB * to_eigen(X_CM.p)};
}

// The 6 x nv twist basis [S_w; S_v] of a joint at its coordinates, in F axes.
Eigen::MatrixXd twist_basis(const JointMotion& motion, int nv) {
  Eigen::MatrixXd basis(6, nv);
  basis.topRows(3) = motion.S_w_F;
  basis.bottomRows(3) = motion.S_v_F;
  return basis;
}

void check_body_count(const Model& model, size_t count, const char* what) {
  if (count != model.bodies.size())
    throw std::invalid_argument(std::string("joint recovery: ") + std::to_string(count) + " " + what +
                                " for a model of " + std::to_string(model.bodies.size()) + " bodies");
}

const BodyKinematics kGround{Matrix3d::Identity(), Vector3d::Zero(), Vector3d::Zero(), Vector3d::Zero(),
                             Vector3d::Zero()};

}  // namespace

JointState joint_state_from_bodies(const Model& model, const std::vector<BodyKinematics>& bodies,
                                   const Eigen::VectorXd& reference) {
  const CoordinateLayout layout = coordinate_layout(model);
  check_body_count(model, bodies.size(), "body states");
  check_sizes(layout, reference, nullptr);
  JointState s;
  s.q = Eigen::VectorXd::Zero(layout.nq);
  s.v = Eigen::VectorXd::Zero(layout.nv);
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& joint = model.joints[j];
    const BodyKinematics& parent = joint.parent >= 0 ? bodies[static_cast<size_t>(joint.parent)] : kGround;
    const BodyKinematics& child = bodies[static_cast<size_t>(joint.child)];
    const JointFrames f = joint_frames(model, joint, parent, child);
    const Matrix3d R_FM = f.R_WF.transpose() * f.R_WM;
    const Vector3d p_FoMo_F = f.R_WF.transpose() * (f.p_WMo - f.p_WFo);
    double* qj = s.q.data() + layout.q_index[j];
    joint_coordinates(joint, R_FM, p_FoMo_F, reference.data() + layout.q_index[j], qj);

    // body_kinematics' velocities inverted: w_C = w_P + R_WF S_w v, v_Mo = v_P(at Mo) + R_WF S_v v.
    const int nv = joint_nv(joint.type);
    if (nv == 0) continue;
    const Vector3d w_rel_F = f.R_WF.transpose() * (child.w_WB_W - parent.w_WB_W);
    const Vector3d v_Mo = child.v_WBcm_W + child.w_WB_W.cross(f.p_WMo - child.p_WBcm);
    const Vector3d v_P_at_Mo = parent.v_WBcm_W + parent.w_WB_W.cross(f.p_WMo - parent.p_WBcm);
    const Vector3d v_rel_F = f.R_WF.transpose() * (v_Mo - v_P_at_Mo);
    Eigen::VectorXd twist(6);
    twist << w_rel_F, v_rel_F;
    s.v.segment(layout.v_index[j], nv) = twist_basis(joint_motion(joint, qj), nv).colPivHouseholderQr().solve(twist);
  }
  return s;
}

Eigen::VectorXd joint_accelerations_from_bodies(const Model& model, const std::vector<BodyKinematics>& bodies,
                                                const std::vector<BodyAcceleration>& accelerations,
                                                const JointState& joints) {
  const CoordinateLayout layout = coordinate_layout(model);
  check_body_count(model, bodies.size(), "body states");
  check_body_count(model, accelerations.size(), "body accelerations");
  check_sizes(layout, joints.q, &joints.v);
  const BodyAcceleration at_rest{Vector3d::Zero(), Vector3d::Zero()};
  Eigen::VectorXd a = Eigen::VectorXd::Zero(layout.nv);
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& joint = model.joints[j];
    const int nv = joint_nv(joint.type);
    if (nv == 0) continue;
    const BodyKinematics& parent = joint.parent >= 0 ? bodies[static_cast<size_t>(joint.parent)] : kGround;
    const BodyAcceleration& parent_a = joint.parent >= 0 ? accelerations[static_cast<size_t>(joint.parent)] : at_rest;
    const BodyKinematics& child = bodies[static_cast<size_t>(joint.child)];
    const BodyAcceleration& child_a = accelerations[static_cast<size_t>(joint.child)];
    const JointFrames f = joint_frames(model, joint, parent, child);
    const double* qj = joints.q.data() + layout.q_index[j];
    const double* vj = joints.v.data() + layout.v_index[j];
    const JointMotion motion = joint_motion(joint, qj);
    Vector3d angular_bias_F, linear_bias_F;
    joint_bias(joint, motion, qj, vj, angular_bias_F, linear_bias_F);
    const Eigen::Map<const Eigen::VectorXd> v_joint(vj, nv);
    const Vector3d w_rel_W = f.R_WF * (motion.S_w_F * v_joint), v_rel_W = f.R_WF * (motion.S_v_F * v_joint);
    const Vector3d& w_P = parent.w_WB_W;
    // The child's origin-of-M acceleration from its centre of mass's, and the parent's point at M's origin.
    const Vector3d r_Cm = f.p_WMo - child.p_WBcm, r_Pm = f.p_WMo - parent.p_WBcm;
    const Vector3d a_Mo = child_a.a_cm_W + child_a.alpha_W.cross(r_Cm) + child.w_WB_W.cross(child.w_WB_W.cross(r_Cm));
    const Vector3d a_P_at_Mo =
        parent_a.a_cm_W + parent_a.alpha_W.cross(r_Pm) + w_P.cross(w_P.cross(r_Pm));
    Eigen::VectorXd rhs(6);
    rhs << f.R_WF.transpose() * (child_a.alpha_W - parent_a.alpha_W - w_P.cross(w_rel_W)) - angular_bias_F,
        f.R_WF.transpose() * (a_Mo - a_P_at_Mo - 2.0 * w_P.cross(v_rel_W)) - linear_bias_F;
    a.segment(layout.v_index[j], nv) = twist_basis(motion, nv).colPivHouseholderQr().solve(rhs);
  }
  return a;
}

}  // namespace myriad::kinematics
