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

}  // namespace

JointState joint_state_from_bodies(const Model& model, const std::vector<BodyKinematics>& bodies,
                                   const Eigen::VectorXd& reference) {
  const CoordinateLayout layout = coordinate_layout(model);
  if (bodies.size() != model.bodies.size())
    throw std::invalid_argument("joint_state_from_bodies: " + std::to_string(bodies.size()) +
                                " body states for a model of " + std::to_string(model.bodies.size()) + " bodies");
  check_sizes(layout, reference, nullptr);
  JointState s;
  s.q = Eigen::VectorXd::Zero(layout.nq);
  s.v = Eigen::VectorXd::Zero(layout.nv);
  const BodyKinematics ground{Matrix3d::Identity(), Vector3d::Zero(), Vector3d::Zero(), Vector3d::Zero(),
                              Vector3d::Zero()};
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& joint = model.joints[j];
    const BodyKinematics& parent = joint.parent >= 0 ? bodies[static_cast<size_t>(joint.parent)] : ground;
    const BodyKinematics& child = bodies[static_cast<size_t>(joint.child)];
    const Transform<double> X_PF = frame_transform(joint.parent_frame);
    const Transform<double> X_CM = frame_transform(joint.child_frame);
    const Matrix3d R_WF = parent.R_WB * to_eigen(X_PF.R);
    const Matrix3d R_WM = child.R_WB * to_eigen(X_CM.R);
    // Body origins from the centres of mass (ground's origin is the world's).
    const Vector3d p_P = joint.parent >= 0 ? Vector3d(parent.p_WBcm - parent.R_WB *
                                                      to_eigen(vector3(model.bodies[joint.parent].center_of_mass)))
                                           : Vector3d::Zero();
    const Vector3d p_C = child.p_WBcm - child.R_WB * to_eigen(vector3(model.bodies[joint.child].center_of_mass));
    const Vector3d p_WFo = p_P + parent.R_WB * to_eigen(X_PF.p);
    const Vector3d p_WMo = p_C + child.R_WB * to_eigen(X_CM.p);
    const Matrix3d R_FM = R_WF.transpose() * R_WM;
    const Vector3d p_FoMo_F = R_WF.transpose() * (p_WMo - p_WFo);
    double* qj = s.q.data() + layout.q_index[j];
    joint_coordinates(joint, R_FM, p_FoMo_F, reference.data() + layout.q_index[j], qj);

    // body_kinematics' velocities inverted: w_C = w_P + R_WF S_w v, v_Mo = v_P(at Mo) + R_WF S_v v.
    const int nv = joint_nv(joint.type);
    if (nv == 0) continue;
    const JointMotion motion = joint_motion(joint, qj);
    const Vector3d w_rel_F = R_WF.transpose() * (child.w_WB_W - parent.w_WB_W);
    const Vector3d v_Mo = child.v_WBcm_W + child.w_WB_W.cross(p_WMo - child.p_WBcm);
    const Vector3d v_P_at_Mo = parent.v_WBcm_W + parent.w_WB_W.cross(p_WMo - parent.p_WBcm);
    const Vector3d v_rel_F = R_WF.transpose() * (v_Mo - v_P_at_Mo);
    Eigen::MatrixXd basis(6, nv);
    basis.topRows(3) = motion.S_w_F;
    basis.bottomRows(3) = motion.S_v_F;
    Eigen::VectorXd twist(6);
    twist << w_rel_F, v_rel_F;
    s.v.segment(layout.v_index[j], nv) = basis.colPivHouseholderQr().solve(twist);
  }
  return s;
}

}  // namespace myriad::kinematics
