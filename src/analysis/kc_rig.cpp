#include "analysis/kc_rig.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "constraints/assembly.hpp"
#include "constraints/constraint_equations.hpp"
#include "constraints/model_kinematics.hpp"
#include "dynamics/force_table.hpp"
#include "model/model_geometry.hpp"

namespace myriad {
namespace {

template <class List>
int index_of(const List& list, const std::string& name) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].name == name) return static_cast<int>(i);
  return -1;
}

Eigen::Vector3d eigen(const Vec3<double>& v) { return {v.x, v.y, v.z}; }

// Everything the sweep needs, resolved once.
struct Rig {
  const Model* model = nullptr;
  const Subsystem* corner = nullptr;
  int chassis = -1;  // body, -1 = ground
  int upright = -1, wheel = -1, spring = -1;
  Eigen::Vector3d wheel_point;  // wheel centre in the wheel body's frame
  double spin_sign = 1.0;       // outward spin axis = spin_sign * y of the upright at design
  std::vector<int> free;        // velocity coordinates the rig lets move (the corner's joints)
  std::vector<int> rows;        // constraint rows of the corner's loops
  Eigen::Matrix3d R_WC;         // chassis pose (held)
  Eigen::Vector3d p_WC;
  double design_height = 0.0;   // wheel centre z in chassis axes at the initial state
  std::vector<double> spring_table;  // packed x, f
  struct Torsion {
    int q_index, v_index;  // the rsda's revolute joint: its angle in q, its rate in v
    double stiffness, zero_angle;
  };
  std::vector<Torsion> torsions;
  double loaded_radius = 0.0;
};

Rig make_rig(const Model& model, const KcOptions& options) {
  Rig rig;
  rig.model = &model;
  for (const Subsystem& s : model.subsystems)
    if (options.subsystem.empty() ? model.subsystems.size() == 1 : s.name == options.subsystem) rig.corner = &s;
  if (rig.corner == nullptr) {
    std::string names;
    for (const Subsystem& s : model.subsystems) names += (names.empty() ? "" : ", ") + s.name;
    throw std::invalid_argument(
        model.subsystems.empty() ? "the model has no subsystems (a K&C rig needs a template corner)"
        : options.subsystem.empty() ? "the model has several subsystems (" + names + "): name one"
                                    : "no subsystem '" + options.subsystem + "' (the model has: " + names + ")");
  }
  const Subsystem& c = *rig.corner;
  const auto role = [&](const char* key) -> std::string {
    const std::string* r = c.role(key);
    if (r == nullptr) throw std::invalid_argument("subsystem '" + c.name + "' has no " + key + " for a K&C rig");
    return *r;
  };
  rig.chassis = role("chassis") == "ground" ? -1 : index_of(model.bodies, role("chassis"));
  rig.upright = index_of(model.bodies, role("upright"));
  rig.wheel = index_of(model.bodies, role("wheel"));
  rig.spring = index_of(model.forces, role("spring"));
  const int mount = index_of(model.joints, role("wheel_mount"));
  rig.wheel_point = eigen(vector3(model.joints[static_cast<std::size_t>(mount)].child_frame.origin));
  rig.spin_sign = role("spin_axis_y") == "-1" ? -1.0 : 1.0;

  // The corner, and every subsystem that closes a loop on one of its bodies (an anti-roll bar's droplink): their
  // coordinates move with the wheel and their loops hold; everything else (the chassis, the other corners, the far
  // end of the bar's other droplink) stays at the design position, as on a rig that pushes one wheel.
  std::vector<const Subsystem*> moving = {&c};
  const auto has_part = [](const Subsystem& s, const char* kind, const std::string& name) {
    for (const auto& part : s.parts)
      if (part.first == kind && part.second == name) return true;
    return false;
  };
  for (const Subsystem& other : model.subsystems) {
    if (&other == &c) continue;
    for (const Loop& loop : model.loops) {
      if (!has_part(other, "loop", loop.name)) continue;
      for (int body : {loop.body1, loop.body2})
        if (body >= 0 && has_part(c, "body", model.bodies[static_cast<std::size_t>(body)].name) &&
            std::find(moving.begin(), moving.end(), &other) == moving.end())
          moving.push_back(&other);
    }
  }
  const kinematics::CoordinateLayout layout = kinematics::coordinate_layout(model);
  for (const Subsystem* s : moving)
    for (const auto& part : s->parts) {
      if (part.first != "joint") continue;
      const int j = index_of(model.joints, part.second);
      const int nv = (j + 1 < static_cast<int>(model.joints.size()) ? layout.v_index[static_cast<std::size_t>(j) + 1]
                                                                     : layout.nv) -
                     layout.v_index[static_cast<std::size_t>(j)];
      for (int k = 0; k < nv; ++k) rig.free.push_back(layout.v_index[static_cast<std::size_t>(j)] + k);
    }
  int row = 0;
  for (const Loop& loop : model.loops) {
    bool mine = false;
    for (const Subsystem* s : moving) mine = mine || has_part(*s, "loop", loop.name);
    for (int k = 0; k < loop_equation_count(loop.type); ++k, ++row)
      if (mine) rig.rows.push_back(row);
  }
  // Torsion springs that move with the wheel (the bar's): their energy k (q - q0)^2 / 2 joins the wheel load.
  for (const Subsystem* s : moving)
    if (const std::string* torsion = s->role("torsion")) {
      const ForceElement& f = model.forces[static_cast<std::size_t>(index_of(model.forces, *torsion))];
      rig.torsions.push_back({layout.q_index[static_cast<std::size_t>(f.joint)],
                              layout.v_index[static_cast<std::size_t>(f.joint)], f.stiffness.value, f.zero_angle.value});
    }

  const ForceElement& spring = model.forces[static_cast<std::size_t>(rig.spring)];
  for (const auto& point : spring.spring_table) {
    rig.spring_table.push_back(point[0].value);
    rig.spring_table.push_back(point[1].value);
  }
  rig.loaded_radius = options.loaded_radius;
  if (rig.loaded_radius < 0.0) {
    rig.loaded_radius = 0.0;
    if (const std::string* tire = c.role("tire")) {
      // free_length = 1 m + radius; the ground point sits 1 m + radius - deflection below the wheel centre.
      const ForceElement& t = model.forces[static_cast<std::size_t>(index_of(model.forces, *tire))];
      rig.loaded_radius = rig.wheel_point.z() - t.end2.point[2].value - kTireGroundDepth;
    }
  }
  return rig;
}

// The spring's tension at length l: table or linear, less the preload (docs/model-format.md, "Force elements").
double spring_tension(const Rig& rig, double l) {
  const ForceElement& f = rig.model->forces[static_cast<std::size_t>(rig.spring)];
  const double x = l - f.free_length.value;
  const double spring = rig.spring_table.empty()
                            ? f.stiffness.value * x
                            : table_force<double>(rig.spring_table.data(), static_cast<int>(rig.spring_table.size() / 2), x);
  return spring - f.preload.value;
}

struct Pose {
  Eigen::Vector3d wheel_center;  // chassis frame
  Eigen::Matrix3d R_CU;          // upright in chassis axes
  double spring_length;
  Eigen::Vector3d spring_direction;  // unit, point 1 -> point 2, world
};

Pose pose(const Rig& rig, const Eigen::VectorXd& q) {
  const Model& m = *rig.model;
  const auto bodies = kinematics::body_kinematics(m, q, Eigen::VectorXd::Zero(kinematics::coordinate_layout(m).nv));
  Pose p;
  const auto& wheel = bodies[static_cast<std::size_t>(rig.wheel)];
  p.wheel_center = rig.R_WC.transpose() * (wheel.R_WB * rig.wheel_point + wheel.p_WBo - rig.p_WC);
  p.R_CU = rig.R_WC.transpose() * bodies[static_cast<std::size_t>(rig.upright)].R_WB;
  const ForceElement& f = m.forces[static_cast<std::size_t>(rig.spring)];
  const auto world = [&](int body, const Vector3& point) -> Eigen::Vector3d {
    const Eigen::Vector3d local = eigen(vector3(point));
    if (body < 0) return local;
    const auto& b = bodies[static_cast<std::size_t>(body)];
    return b.R_WB * local + b.p_WBo;
  };
  const Eigen::Vector3d d = world(f.end2.body, f.end2.point) - world(f.end1.body, f.end1.point);
  p.spring_length = d.norm();
  p.spring_direction = d / p.spring_length;
  return p;
}

// Rows: the corner's closure equations, then the travel condition; columns: the free coordinates.
void residual_and_jacobian(const Rig& rig, const Eigen::VectorXd& q, double target, Eigen::VectorXd& r,
                           Eigen::MatrixXd& J) {
  const Model& m = *rig.model;
  const int nv = kinematics::coordinate_layout(m).nv;
  const constraints::ConstraintEvaluation e = constraints::evaluate_constraints(m, 0.0, q, Eigen::VectorXd::Zero(nv));
  const int n = static_cast<int>(rig.rows.size());
  r.resize(n + 1);
  J.resize(n + 1, static_cast<Eigen::Index>(rig.free.size()));
  for (int i = 0; i < n; ++i) {
    r(i) = e.phi(rig.rows[static_cast<std::size_t>(i)]);
    for (std::size_t k = 0; k < rig.free.size(); ++k) J(i, static_cast<Eigen::Index>(k)) = e.G(rig.rows[static_cast<std::size_t>(i)], rig.free[k]);
  }
  r(n) = pose(rig, q).wheel_center.z() - target;
  const Eigen::MatrixXd Jp = kinematics::point_jacobian(m, q, rig.wheel, rig.wheel_point);
  const Eigen::RowVectorXd Jz = rig.R_WC.col(2).transpose() * Jp;
  for (std::size_t k = 0; k < rig.free.size(); ++k) J(n, static_cast<Eigen::Index>(k)) = Jz(rig.free[k]);
}

Eigen::VectorXd scatter(const Rig& rig, const Eigen::VectorXd& dv_free) {
  Eigen::VectorXd dv = Eigen::VectorXd::Zero(kinematics::coordinate_layout(*rig.model).nv);
  for (std::size_t k = 0; k < rig.free.size(); ++k) dv(rig.free[k]) = dv_free(static_cast<Eigen::Index>(k));
  return dv;
}

// Newton from q to the travel s; minimum-norm steps (a free wheel spin has no equation and stays put).
Eigen::VectorXd solve_travel(const Rig& rig, Eigen::VectorXd q, double s) {
  const double target = rig.design_height + s;
  Eigen::VectorXd r;
  Eigen::MatrixXd J;
  for (int iteration = 0; iteration < 50; ++iteration) {
    residual_and_jacobian(rig, q, target, r, J);
    if (r.cwiseAbs().maxCoeff() <= 1e-13) return q;
    const Eigen::VectorXd step = J.completeOrthogonalDecomposition().solve(-r);
    q = constraints::advance_coordinates(*rig.model, q, scatter(rig, step));
  }
  throw std::runtime_error("K&C rig: subsystem '" + rig.corner->name + "' cannot reach travel " + std::to_string(s) +
                           " m (max residual " + std::to_string(r.cwiseAbs().maxCoeff()) +
                           " after 50 Newton steps: the corner locks up or comes apart there)");
}

// dq/ds (in velocity coordinates) at a solved pose: J dv = e_travel.
Eigen::VectorXd tangent(const Rig& rig, const Eigen::VectorXd& q, double s) {
  Eigen::VectorXd r;
  Eigen::MatrixXd J;
  residual_and_jacobian(rig, q, rig.design_height + s, r, J);
  Eigen::VectorXd e = Eigen::VectorXd::Zero(J.rows());
  e(J.rows() - 1) = 1.0;
  return scatter(rig, J.completeOrthogonalDecomposition().solve(e));
}

double spring_rate_of_length(const Rig& rig, const Eigen::VectorXd& q, const Eigen::VectorXd& dv) {
  const Model& m = *rig.model;
  const ForceElement& f = m.forces[static_cast<std::size_t>(rig.spring)];
  const Pose p = pose(rig, q);
  Eigen::Vector3d v = Eigen::Vector3d::Zero();
  if (f.end2.body >= 0) v += kinematics::point_jacobian(m, q, f.end2.body, eigen(vector3(f.end2.point))) * dv;
  if (f.end1.body >= 0) v -= kinematics::point_jacobian(m, q, f.end1.body, eigen(vector3(f.end1.point))) * dv;
  return p.spring_direction.dot(v);
}

// F = dV/ds over the elastic elements that move: the corner's spring T dl/ds and each torsion k (q - q0) dq/ds.
double wheel_load(const Rig& rig, const Eigen::VectorXd& q, const Eigen::VectorXd& dv) {
  double load = spring_tension(rig, pose(rig, q).spring_length) * spring_rate_of_length(rig, q, dv);
  for (const Rig::Torsion& t : rig.torsions)
    load += t.stiffness * (q(t.q_index) - t.zero_angle) * dv(t.v_index);
  return load;
}

double wheel_load(const Rig& rig, const Eigen::VectorXd& q, double s) { return wheel_load(rig, q, tangent(rig, q, s)); }

}  // namespace

KcCurves kinematics_and_compliance(const Model& model, const KcOptions& options) {
  if (!(options.travel > 0.0 && std::isfinite(options.travel)))
    throw std::invalid_argument("travel must be positive and finite, got " + std::to_string(options.travel));
  if (options.points < 2 || options.points > 100000)
    throw std::invalid_argument("points must be 2 ... 100000, got " + std::to_string(options.points));
  Rig rig = make_rig(model, options);

  const constraints::AssemblyResult assembled = constraints::assemble(model);
  if (assembled.status != constraints::AssemblyStatus::ok)
    throw std::runtime_error("K&C rig: the model does not assemble: " + assembled.message);
  const Eigen::VectorXd q0 = assembled.q;
  const int nv = kinematics::coordinate_layout(model).nv;
  const auto bodies = kinematics::body_kinematics(model, q0, Eigen::VectorXd::Zero(nv));
  rig.R_WC = rig.chassis < 0 ? Eigen::Matrix3d::Identity() : bodies[static_cast<std::size_t>(rig.chassis)].R_WB;
  rig.p_WC = rig.chassis < 0 ? Eigen::Vector3d::Zero() : bodies[static_cast<std::size_t>(rig.chassis)].p_WBo;
  rig.design_height = 0.0;
  rig.design_height = pose(rig, q0).wheel_center.z();

  KcCurves curves;
  curves.subsystem = rig.corner->name;
  curves.side = rig.corner->side;
  curves.columns = {"travel", "toe", "camber", "wheel_center_x", "wheel_center_y", "wheel_center_z", "spring_length",
                    "motion_ratio", "wheel_load", "wheel_rate", "roll_centre_height"};
  curves.units = {"m", "rad", "rad", "m", "m", "m", "m", "1", "N", "N/m", "m"};

  // Sweep outward from the design position both ways, so each solve starts next to its answer.
  const int n = options.points;
  std::vector<double> travel(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) travel[static_cast<std::size_t>(k)] = -options.travel + 2.0 * options.travel * k / (n - 1);
  std::vector<Eigen::VectorXd> solved(static_cast<std::size_t>(n));
  int middle = 0;
  for (int k = 1; k < n; ++k)
    if (std::fabs(travel[static_cast<std::size_t>(k)]) < std::fabs(travel[static_cast<std::size_t>(middle)])) middle = k;
  Eigen::VectorXd q = q0;
  for (int k = middle; k < n; ++k) solved[static_cast<std::size_t>(k)] = q = solve_travel(rig, q, travel[static_cast<std::size_t>(k)]);
  q = solved[static_cast<std::size_t>(middle)];
  for (int k = middle - 1; k >= 0; --k) solved[static_cast<std::size_t>(k)] = q = solve_travel(rig, q, travel[static_cast<std::size_t>(k)]);

  const double h = 1e-5;
  for (int k = 0; k < n; ++k) {
    const double s = travel[static_cast<std::size_t>(k)];
    const Eigen::VectorXd& qs = solved[static_cast<std::size_t>(k)];
    const Pose p = pose(rig, qs);
    Eigen::Vector3d a = p.R_CU * Eigen::Vector3d(0.0, rig.spin_sign, 0.0);
    a.y() *= rig.spin_sign;  // a right corner mirrored to a left one
    const double toe = std::atan2(a.x(), a.y());
    const double camber = std::atan2(-a.z(), std::hypot(a.x(), a.y()));

    const Eigen::VectorXd dv = tangent(rig, qs, s);
    const double dl = spring_rate_of_length(rig, qs, dv);
    const double load = wheel_load(rig, qs, dv);
    const double above = wheel_load(rig, solve_travel(rig, qs, s + h), s + h);
    const double below = wheel_load(rig, solve_travel(rig, qs, s - h), s - h);

    // Front view: wheel-centre velocity and the upright's angular velocity about x, per unit travel.
    const auto bodies_s = kinematics::body_kinematics(model, qs, Eigen::VectorXd::Zero(nv));
    const Eigen::MatrixXd Jp = kinematics::point_jacobian(model, qs, rig.wheel, rig.wheel_point);
    const Eigen::Vector3d v_c = rig.R_WC.transpose() * (Jp * dv);
    const Eigen::MatrixXd Jw = kinematics::body_jacobians_cm(model, qs)[static_cast<std::size_t>(rig.upright)].Jw;
    const double w_x = (rig.R_WC.transpose() * (Jw * dv)).x();
    const double ic_y = p.wheel_center.y() - v_c.z() / w_x;
    const double ic_z = p.wheel_center.z() + v_c.y() / w_x;
    const double contact_y = p.wheel_center.y(), contact_z = p.wheel_center.z() - rig.loaded_radius;
    // The line through the contact point and the instant centre, at y = 0.
    const double rc_z = contact_z + (ic_z - contact_z) * (0.0 - contact_y) / (ic_y - contact_y);

    curves.rows.push_back({s, toe, camber, p.wheel_center.x(), p.wheel_center.y(), p.wheel_center.z(),
                           p.spring_length, -dl, load, (above - below) / (2.0 * h), rc_z - contact_z});
  }
  return curves;
}

}  // namespace myriad
