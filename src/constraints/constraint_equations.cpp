#include "constraints/constraint_equations.hpp"

#include <cmath>
#include <stdexcept>

#include "constraints/eigen_conversions.hpp"
#include "constraints/model_kinematics.hpp"
#include "model/model_error.hpp"
#include "model/model_geometry.hpp"
#include "model/model_pointers.hpp"
#include "model/time_function_packing.hpp"

namespace myriad::constraints {

namespace {

using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

using kinematics::to_eigen;

Matrix3d skew(const Vector3d& a) {
  Matrix3d s;
  s << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return s;
}

// A world vector X(q) that moves with the mechanism: its value, its Jacobian (dX/dt = J v), its rate J v and
// its bias acceleration (d^2X/dt^2 = J vdot + bias).
struct Moving {
  Vector3d value;
  MatrixXd J;  // 3 x nv
  Vector3d rate;
  Vector3d bias;
};

// The kinematic state the constraint rows are built from, evaluated once per call.
class Kinematics {
 public:
  Kinematics(const Model& model, const VectorXd& q, const VectorXd& v)
      : model_(model),
        q_(q),
        nv_(static_cast<int>(v.size())),
        bodies_(kinematics::body_kinematics(model, q, v)),
        jacobians_(kinematics::body_jacobians_cm(model, q)),
        bias_(kinematics::body_bias_accelerations(model, q, v)) {}

  // A point fixed on `body` (-1 = ground), given in the body frame (world for ground).
  Moving point(int body, const Vector3d& p_BQ_B) const {
    Moving m{p_BQ_B, MatrixXd::Zero(3, nv_), Vector3d::Zero(), Vector3d::Zero()};
    if (body < 0) return m;
    const kinematics::BodyKinematics& b = bodies_[static_cast<size_t>(body)];
    m.value = b.p_WBo + b.R_WB * p_BQ_B;
    m.J = kinematics::point_jacobian(model_, q_, body, p_BQ_B);
    const Vector3d r = m.value - b.p_WBcm;
    m.rate = b.v_WBcm_W + b.w_WB_W.cross(r);
    const kinematics::BodyAcceleration& a = bias_[static_cast<size_t>(body)];
    m.bias = a.a_cm_W + a.alpha_W.cross(r) + b.w_WB_W.cross(b.w_WB_W.cross(r));
    return m;
  }

  // A direction fixed on `body` (-1 = ground), given in the body frame.
  Moving direction(int body, const Vector3d& u_B) const {
    Moving m{u_B, MatrixXd::Zero(3, nv_), Vector3d::Zero(), Vector3d::Zero()};
    if (body < 0) return m;
    const kinematics::BodyKinematics& b = bodies_[static_cast<size_t>(body)];
    m.value = b.R_WB * u_B;
    m.J = -skew(m.value) * jacobians_[static_cast<size_t>(body)].Jw;  // w x u = -u x w
    m.rate = b.w_WB_W.cross(m.value);
    const kinematics::BodyAcceleration& a = bias_[static_cast<size_t>(body)];
    m.bias = a.alpha_W.cross(m.value) + b.w_WB_W.cross(m.rate);
    return m;
  }

  int nv() const { return nv_; }

 private:
  const Model& model_;
  const VectorXd& q_;
  int nv_;
  std::vector<kinematics::BodyKinematics> bodies_;
  std::vector<kinematics::BodyJacobian> jacobians_;
  std::vector<kinematics::BodyAcceleration> bias_;
};

Moving difference(const Moving& a, const Moving& b) {  // a - b
  return {a.value - b.value, a.J - b.J, a.rate - b.rate, a.bias - b.bias};
}

// Writes one row for the scalar X . Y:
//   d/dt = Y . Xdot + X . Ydot,  d^2/dt^2 = Y . Xddot + X . Yddot + 2 Xdot . Ydot.
void dot_row(const Moving& X, const Moving& Y, int row, ConstraintEvaluation& out) {
  out.phi[row] = X.value.dot(Y.value);
  out.G.row(row) = Y.value.transpose() * X.J + X.value.transpose() * Y.J;
  out.gamma[row] = -(Y.value.dot(X.bias) + X.value.dot(Y.bias) + 2.0 * X.rate.dot(Y.rate));
}

// Rows for the three world components of D.
void vector_rows(const Moving& D, int row, ConstraintEvaluation& out) {
  out.phi.segment<3>(row) = D.value;
  out.G.middleRows(row, 3) = D.J;
  out.gamma.segment<3>(row) = -D.bias;
}

Vector3d vec(const Vector3& v) { return to_eigen(vector3(v)); }

// Frame on a body: origin and rotation in the body frame (world for ground).
struct FrameOnBody {
  Vector3d origin;
  Matrix3d R;
};

FrameOnBody frame_on_body(const Frame& frame) {
  const Transform<double> X = frame_transform(frame);
  return {to_eigen(X.p), to_eigen(X.R)};
}

void in_plane_basis(const Vector3& axis, Vector3d& e1, Vector3d& e2) {
  Vec3<double> a, b;
  planar_basis(unit_vector3(axis), a, b);
  e1 = to_eigen(a);
  e2 = to_eigen(b);
}

void loop_rows(const Model& model, int loop_index, const Kinematics& k, int row, ConstraintEvaluation& out) {
  const Loop& loop = model.loops[static_cast<size_t>(loop_index)];
  if (loop.type == LoopType::distance || loop.type == LoopType::rod) {
    const Moving D = difference(k.point(loop.body2, vec(loop.point2)), k.point(loop.body1, vec(loop.point1)));
    const double length = D.value.norm();
    if (!(length > 0.0))
      throw ModelError(model.source_file, loop_pointer(model, loop_index),
                       std::string(loop_type_name(loop.type)) + " '" + loop.name +
                           "' has zero length at this configuration (its two points coincide; its direction, "
                           "and so its Jacobian, is undefined)");
    const Vector3d e = D.value / length;
    const double along = e.dot(D.rate);
    out.phi[row] = length - loop.length.value;
    out.G.row(row) = e.transpose() * D.J;
    // d^2|D|/dt^2 = e . Dddot + (|Ddot|^2 - (e . Ddot)^2) / |D|
    out.gamma[row] = -(e.dot(D.bias) + (D.rate.squaredNorm() - along * along) / length);
    return;
  }
  const FrameOnBody f1 = frame_on_body(loop.frame1), f2 = frame_on_body(loop.frame2);
  const Moving P1 = k.point(loop.body1, f1.origin), P2 = k.point(loop.body2, f2.origin);
  const Moving D = difference(P2, P1);
  switch (loop.type) {
    case LoopType::cut_spherical:
      vector_rows(D, row, out);
      break;
    case LoopType::cut_revolute: {
      vector_rows(D, row, out);
      // Frame 1's axis stays perpendicular to the two in-plane directions of frame 2's axis (same
      // components).
      Vector3d e1, e2;
      in_plane_basis(loop.axis, e1, e2);
      const Moving a1 = k.direction(loop.body1, f1.R * to_eigen(unit_vector3(loop.axis)));
      dot_row(k.direction(loop.body2, f2.R * e1), a1, row + 3, out);
      dot_row(k.direction(loop.body2, f2.R * e2), a1, row + 4, out);
      break;
    }
    case LoopType::cut_universal: {
      vector_rows(D, row, out);
      const Moving a1 = k.direction(loop.body1, f1.R * to_eigen(unit_vector3(loop.axis)));
      const Moving a2 = k.direction(loop.body2, f2.R * to_eigen(unit_vector3(loop.axis2)));
      dot_row(a1, a2, row + 3, out);
      break;
    }
    case LoopType::cut_planar_revolute: {
      // The two origins coincide along the in-plane directions of frame 1 (the plane normal to its axis).
      Vector3d e1, e2;
      in_plane_basis(loop.axis, e1, e2);
      dot_row(k.direction(loop.body1, f1.R * e1), D, row, out);
      dot_row(k.direction(loop.body1, f1.R * e2), D, row + 1, out);
      break;
    }
    default:
      break;
  }
}

bool is_quaternion_joint(JointType type) { return type == JointType::spherical || type == JointType::free; }

}  // namespace

int constraint_count(const Model& model) {
  int m = 0;
  for (const Loop& loop : model.loops) m += loop_equation_count(loop.type);
  return m + static_cast<int>(model.drivers.size());
}

std::vector<std::string> constraint_labels(const Model& model) {
  std::vector<std::string> labels;
  for (const Loop& loop : model.loops) {
    const int count = loop_equation_count(loop.type);
    for (int i = 0; i < count; ++i)
      labels.push_back("loop '" + loop.name + "' (" + loop_type_name(loop.type) + ")" +
                       (count > 1 ? " equation " + std::to_string(i) : std::string()));
  }
  for (const Driver& driver : model.drivers) labels.push_back("driver '" + driver.name + "'");
  return labels;
}

std::vector<std::string> constraint_pointers(const Model& model) {
  std::vector<std::string> pointers;
  for (size_t l = 0; l < model.loops.size(); ++l)
    pointers.insert(pointers.end(), static_cast<size_t>(loop_equation_count(model.loops[l].type)),
                    loop_pointer(model, static_cast<int>(l)));
  for (size_t d = 0; d < model.drivers.size(); ++d) pointers.push_back(driver_pointer(static_cast<int>(d)));
  return pointers;
}

ConstraintEvaluation evaluate_constraints(const Model& model, double t, const VectorXd& q,
                                          const VectorXd& v) {
  const kinematics::CoordinateLayout layout = kinematics::coordinate_layout(model);
  if (q.size() != layout.nq || v.size() != layout.nv)
    throw std::invalid_argument("constraints: q and v must have nq = " + std::to_string(layout.nq) +
                                " and nv = " + std::to_string(layout.nv) + " entries");
  const int m = constraint_count(model);
  ConstraintEvaluation out{VectorXd::Zero(m), MatrixXd::Zero(m, layout.nv), VectorXd::Zero(m),
                           VectorXd::Zero(m)};
  const Kinematics k(model, q, v);
  int row = 0;
  for (size_t l = 0; l < model.loops.size(); ++l) {
    loop_rows(model, static_cast<int>(l), k, row, out);
    row += loop_equation_count(model.loops[l].type);
  }
  for (const Driver& driver : model.drivers) {
    const Joint& joint = model.joints[static_cast<size_t>(driver.joint)];
    if (is_quaternion_joint(joint.type) || driver.index >= joint_nq(joint.type))
      throw std::invalid_argument("constraints: driver '" + driver.name +
                                  "' is not on a drivable coordinate");
    const TimeValue f = evaluate_time_function(driver.function, t);
    const int qi = layout.q_index[static_cast<size_t>(driver.joint)] + driver.index;
    const int vi = layout.v_index[static_cast<size_t>(driver.joint)] + driver.index;
    out.phi[row] = q[qi] - f.value;
    out.G(row, vi) = 1.0;
    out.phi_t[row] = -f.rate;
    out.gamma[row] = f.acceleration;
    ++row;
  }
  return out;
}

VectorXd constraint_residual(const Model& model, double t, const VectorXd& q) {
  const kinematics::CoordinateLayout layout = kinematics::coordinate_layout(model);
  return evaluate_constraints(model, t, q, VectorXd::Zero(layout.nv)).phi;
}

VectorXd advance_coordinates(const Model& model, const VectorXd& q, const VectorXd& dv) {
  const kinematics::CoordinateLayout layout = kinematics::coordinate_layout(model);
  if (q.size() != layout.nq || dv.size() != layout.nv)
    throw std::invalid_argument("constraints: advance_coordinates needs q (nq) and dv (nv)");
  VectorXd out = q;
  const auto rotate = [](const double* quaternion, const Vector3d& phi_M, double* result) {
    Eigen::Quaterniond p(quaternion[0], quaternion[1], quaternion[2], quaternion[3]);
    p.normalize();
    const double angle = phi_M.norm();
    const Eigen::Quaterniond step = angle > 0.0 ? Eigen::Quaterniond(Eigen::AngleAxisd(angle, phi_M / angle))
                                                : Eigen::Quaterniond::Identity();
    const Eigen::Quaterniond r = (p * step).normalized();
    result[0] = r.w();
    result[1] = r.x();
    result[2] = r.y();
    result[3] = r.z();
  };
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& joint = model.joints[j];
    const int q0 = layout.q_index[j], v0 = layout.v_index[j];
    switch (joint.type) {
      case JointType::spherical:
        rotate(q.data() + q0, dv.segment<3>(v0), out.data() + q0);
        break;
      case JointType::free: {
        const Eigen::Quaterniond p(q[q0 + 3], q[q0 + 4], q[q0 + 5], q[q0 + 6]);
        out.segment<3>(q0) += p.normalized().toRotationMatrix() * dv.segment<3>(v0);
        rotate(q.data() + q0 + 3, dv.segment<3>(v0 + 3), out.data() + q0 + 3);
        break;
      }
      default:
        out.segment(q0, joint_nq(joint.type)) += dv.segment(v0, joint_nv(joint.type));
        break;
    }
  }
  return out;
}

}  // namespace myriad::constraints
