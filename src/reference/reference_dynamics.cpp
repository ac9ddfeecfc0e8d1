#include "reference/reference_dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "constraints/eigen_conversions.hpp"
#include "model/model_geometry.hpp"
#include "model/time_function_packing.hpp"
#include "reference/reference_errors.hpp"
#include "tire/fiala.hpp"
#include "tire/magic_formula.hpp"

namespace myriad::reference {

namespace {

using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

using kinematics::check_sizes;
using kinematics::evaluate_tree;
using kinematics::jacobians_at;
using kinematics::to_eigen;
using kinematics::TreeState;

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

// A force table's f(x) (ForceElement::spring_table): the reference's own lookup, by binary search over the
// points, continued linearly past the ends.
double table_at(const std::vector<std::array<Number, 2>>& table, double x) {
  const auto above = std::upper_bound(table.begin(), table.end(), x,
                                      [](double value, const std::array<Number, 2>& p) { return value < p[0].value; });
  const std::ptrdiff_t last = static_cast<std::ptrdiff_t>(table.size()) - 2;
  const std::ptrdiff_t i = std::clamp<std::ptrdiff_t>((above - table.begin()) - 1, 0, last);
  const auto& a = table[static_cast<size_t>(i)];
  const auto& b = table[static_cast<size_t>(i + 1)];
  return a[1].value + (b[1].value - a[1].value) * (x - a[0].value) / (b[0].value - a[0].value);
}

// Its integral from 0 to x: the trapezoid rule between 0, x and the points between them, exact for a
// piecewise-linear f.
double table_energy(const std::vector<std::array<Number, 2>>& table, double x) {
  std::vector<double> knots = {0.0, x};
  for (const auto& p : table)
    if (p[0].value > std::min(0.0, x) && p[0].value < std::max(0.0, x)) knots.push_back(p[0].value);
  std::sort(knots.begin(), knots.end());
  double sum = 0.0;
  for (size_t i = 1; i < knots.size(); ++i)
    sum += 0.5 * (knots[i] - knots[i - 1]) * (table_at(table, knots[i - 1]) + table_at(table, knots[i]));
  return x < 0.0 ? -sum : sum;
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
  const double stretch = out.length - f.free_length.value;
  out.tension = (f.spring_table.empty() ? f.stiffness.value * stretch : table_at(f.spring_table, stretch)) +
                (f.damper_table.empty() ? f.damping.value * out.length_rate : table_at(f.damper_table, out.length_rate));
  out.tension -= f.preload.value;  // pushes the ends apart
  if (f.has_actuator) out.tension += evaluate_time_function(f.actuator, t).value;
  // One-sided: only while compressed and pushing (a tire on the road), or stretched and pulling (a taut rope).
  if (f.acts == TsdaActs::compression && !(stretch < 0.0 && out.tension <= 0.0)) out.tension = 0.0;
  if (f.acts == TsdaActs::tension && !(stretch > 0.0 && out.tension >= 0.0)) out.tension = 0.0;
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

namespace {

// A bushing's frames, deflections and load (the reference's own: Eigen's angle-axis for the relative rotation,
// the inverse right Jacobian written out; the fast path's is dynamics/bushing.hpp).
struct BushingLoad {
  Vector3d o2, d, theta, force_W, moment_W;  // force and moment on body 1 (body 2 gets their negatives at o2)
};

Matrix3d hat(const Vector3d& a) {
  Matrix3d m;
  m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return m;
}

BushingLoad bushing_load_of(const ForceElement& f, const TreeState& s) {
  const auto frame = [&](int body, const Frame& F, Matrix3d& R, Vector3d& o, Vector3d& v, Vector3d& w) {
    const Transform<double> X_BF = frame_transform(F);
    const Matrix3d R_BF = to_eigen(X_BF.R);
    const Vector3d p_BF = to_eigen(X_BF.p);
    if (body < 0) {
      R = R_BF, o = p_BF, v.setZero(), w.setZero();
      return;
    }
    const auto& b = s.bodies[static_cast<size_t>(body)];
    R = b.R_WB * R_BF;
    o = b.p_WBo + b.R_WB * p_BF;
    w = b.w_WB_W;
    v = b.v_WBcm_W + w.cross(o - b.p_WBcm);
  };
  Matrix3d R1, R2;
  Vector3d o1, v1, w1, v2, w2;
  BushingLoad out;
  frame(f.end1.body, f.frame1, R1, o1, v1, w1);
  frame(f.end2.body, f.frame2, R2, out.o2, v2, w2);
  const Vector3d r = out.o2 - o1;
  out.d = R1.transpose() * r;
  const Vector3d d_rate = R1.transpose() * (v2 - v1 - w1.cross(r));
  const Eigen::AngleAxisd relative(Matrix3d(R1.transpose() * R2));
  out.theta = relative.angle() * relative.axis();
  const Vector3d w_rel = R1.transpose() * (w2 - w1);
  Vector3d kt, kr, ct, cr;
  for (int i = 0; i < 3; ++i) {
    kt[i] = f.bushing_stiffness[static_cast<size_t>(i)].value, kr[i] = f.bushing_stiffness[static_cast<size_t>(i + 3)].value;
    ct[i] = f.bushing_damping[static_cast<size_t>(i)].value, cr[i] = f.bushing_damping[static_cast<size_t>(i + 3)].value;
  }
  // J_r(theta)^-1 = I + 1/2 [theta]x + (1/theta^2 - (1 + cos theta) / (2 theta sin theta)) [theta]x^2.
  const double angle = out.theta.norm();
  const double beta = angle < 1e-4 ? 1.0 / 12.0 + angle * angle / 720.0
                                   : 1.0 / (angle * angle) - (1.0 + std::cos(angle)) / (2.0 * angle * std::sin(angle));
  const Matrix3d T = hat(out.theta);
  const Matrix3d jr_inverse = Matrix3d::Identity() + 0.5 * T + beta * T * T;
  out.force_W = R1 * (kt.cwiseProduct(out.d) + ct.cwiseProduct(d_rate));
  out.moment_W = R1 * (jr_inverse * kr.cwiseProduct(out.theta) + cr.cwiseProduct(w_rel));
  return out;
}

double bushing_energy_of(const ForceElement& f, const TreeState& s) {
  const BushingLoad b = bushing_load_of(f, s);
  double energy = 0.0;
  for (int i = 0; i < 3; ++i)
    energy += 0.5 * (f.bushing_stiffness[static_cast<size_t>(i)].value * b.d[i] * b.d[i] +
                     f.bushing_stiffness[static_cast<size_t>(i + 3)].value * b.theta[i] * b.theta[i]);
  return energy;
}

// A tire's contact and load (the reference's own geometry: the rim's lowest point from the wheel plane's
// in-plane basis, the contact frame from the heading; the fast path's is dynamics/tire_force.hpp). The formulas
// themselves (tire/magic_formula.hpp, tire/fiala.hpp) are the constitutive law both paths evaluate; their own
// tests hold them to published values.
struct TireLoad {
  Vector3d contact, force_W, moment_W;
  double deflection = 0.0;
};

TireLoad tire_load_of(const ForceElement& f, const TreeState& s, double t) {
  const BodyKinematics& b = s.bodies[static_cast<size_t>(f.end1.body)];
  const Vector3d center = b.p_WBo + b.R_WB * to_eigen(vector3(f.end1.point));
  const Vector3d v_center = b.v_WBcm_W + b.w_WB_W.cross(center - b.p_WBcm);
  const Vector3d a = (b.R_WB * to_eigen(vector3(f.tire_axis))).normalized();
  const Vector3d up = Vector3d::UnitZ();
  const Vector3d down_in_plane = -(up - up.dot(a) * a).normalized();  // towards the road, in the wheel plane
  const double radius = f.free_length.value;
  const Vector3d lowest = center + radius * down_in_plane;
  double road = 0.0, road_rate = 0.0;
  if (f.end1.moves) {
    const TimeValue h = evaluate_time_function(f.end1.motion, t);
    road = h.value, road_rate = h.rate;
  }
  TireLoad out;
  out.deflection = road - lowest.z();
  out.contact = Vector3d(lowest.x(), lowest.y(), road);
  out.force_W.setZero();
  out.moment_W.setZero();
  const double deflection_rate = road_rate - (v_center + b.w_WB_W.cross(lowest - center)).z();
  const double fz = f.stiffness.value * out.deflection + f.damping.value * deflection_rate;
  if (!(out.deflection > 0.0 && fz > 0.0)) return out;
  const Vector3d heading = a.cross(up).normalized();
  const Vector3d lateral = up.cross(heading);
  const double vx = v_center.dot(heading), vy = v_center.dot(lateral);
  const double v_ref = std::hypot(vx, f.tire_speed.value);
  const double kappa = (b.w_WB_W.dot(a) * (radius - out.deflection) - vx) / v_ref;
  const double alpha = std::atan(vy / v_ref);
  const double gamma = std::asin(a.z());
  const std::vector<double>& p = f.tire_coefficients;
  const TireForces forces =
      f.tire_formula == TireFormula::fiala
          ? fiala_forces(FialaParameters{p[0], p[1], p[2], p[3], p[4], p[5]}, kappa, alpha, fz)
          : tire_forces(p.data(), kappa, alpha, gamma, fz);
  out.force_W = forces.fx * heading + forces.fy * lateral + fz * up;
  out.moment_W = forces.mz * up;
  return out;
}

}  // namespace

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
      case ForceType::bushing: {
        const BushingLoad b = bushing_load_of(f, s);
        for (const auto& [body, sign] : {std::make_pair(f.end1.body, 1.0), std::make_pair(f.end2.body, -1.0)}) {
          if (body < 0) continue;  // ground takes the reaction
          MatrixXd Jv, Jw;
          jacobians_at(model, s, body, b.o2, Jv, Jw);
          Q += sign * (Jv.transpose() * b.force_W + Jw.transpose() * b.moment_W);
        }
        break;
      }
      case ForceType::tire: {
        const TireLoad tire = tire_load_of(f, s, t);
        MatrixXd Jv, Jw;
        jacobians_at(model, s, f.end1.body, tire.contact, Jv, Jw);
        Q += Jv.transpose() * tire.force_W + Jw.transpose() * tire.moment_W;
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
      const double stored = f.acts == TsdaActs::compression ? std::min(stretch, 0.0)
                            : f.acts == TsdaActs::tension   ? std::max(stretch, 0.0)
                                                            : stretch;
      energy += f.spring_table.empty() ? 0.5 * f.stiffness.value * stored * stored
                                       : (stored == 0.0 ? 0.0 : table_energy(f.spring_table, stored));
      energy -= f.preload.value * stored;  // the preload's potential, -P (l - l0), where the spring acts
    } else if (f.type == ForceType::rsda) {
      const int j = rsda_joint(model, f);
      const double deflection = q[layout.q_index[j]] - rsda_zero_angle(model, k);
      energy += 0.5 * f.stiffness.value * deflection * deflection;
    } else if (f.type == ForceType::bushing) {
      energy += bushing_energy_of(f, s);
    } else if (f.type == ForceType::tire) {
      const double deflection = std::max(tire_load_of(f, s, t).deflection, 0.0);
      energy += 0.5 * f.stiffness.value * deflection * deflection;
    }
  }
  return energy;
}

}  // namespace myriad::reference
