// Reference constrained dynamics (seed 000 eq. 3): G vdot = gamma, the Andrews test-set initial
// accelerations, energy conservation of a conservative four-bar (and of a four-bar whose coupler is a massive
// rod) under an RK4 integration with constraint projection, Lagrange multipliers of a statically held
// four-bar, and the rods' lumped inertia against their kinetic energy.
#include "reference/reference_constrained.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "constraints/assembly.hpp"
#include "constraints/constraint_equations.hpp"
#include "constraints/loop_test_models.hpp"
#include "reference/reference_dynamics.hpp"

namespace myriad::reference {
namespace reference_constrained_test {

using Eigen::MatrixXd;
using Eigen::VectorXd;

double max_abs(const VectorXd& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }

Model four_bar() { return testing::literal_loop_model("four_bar"); }

// The four-bar with its coupler replaced by a 2.5 kg rod (a distance constraint between crank and rocker
// tips).
Model rod_four_bar() {
  return testing::literal_model_text(R"({"format": "myriad-model", "version": 1, "gravity": [0, -9.81, 0],
    "bodies": [
      {"name": "crank", "mass": 1, "center_of_mass": [0.5, 0, 0], "inertia": {"ixx": 1e-4, "iyy": 0.0833, "izz": 0.0833}},
      {"name": "rocker", "mass": 2, "center_of_mass": [1, 0, 0], "inertia": {"ixx": 1e-4, "iyy": 0.667, "izz": 0.667}}],
    "joints": [
      {"name": "crank_pivot", "type": "revolute", "parent": "ground", "child": "crank", "axis": [0, 0, 1],
       "position": [1.5707963267948966]},
      {"name": "rocker_pivot", "type": "revolute", "parent": "ground", "child": "rocker", "axis": [0, 0, 1],
       "parent_frame": {"origin": [2, 0, 0]}, "position": [1.42]}],
    "loops": [{"name": "coupler", "type": "rod", "body1": "crank", "point1": [1, 0, 0], "body2": "rocker",
               "point2": [2, 0, 0], "length": 2.5, "mass": 2.5}],
    "independent": [{"joint": "crank_pivot"}]})");
}

TEST(ReferenceConstrained, accelerations_satisfy_the_acceleration_constraints) {
  for (const Model& model : {four_bar(), testing::literal_loop_model("slider_crank"),
                             testing::literal_loop_model("andrews_squeezer"), rod_four_bar()}) {
    const constraints::AssemblyResult a = constraints::assemble(model);
    ASSERT_EQ(a.status, constraints::AssemblyStatus::ok) << model.name << ": " << a.message;
    VectorXd v = a.v;
    if (!a.independent.empty()) {  // give the mechanism some speed
      VectorXd vi = VectorXd::Zero(v.size());
      vi[a.independent[0]] = 2.0;
      v = constraints::assemble(model, 0.0, a.q, vi).v;
    }
    const ConstrainedDynamics d = constrained_forward_dynamics(model, 0.0, a.q, v);
    ASSERT_EQ(d.status, ConstrainedDynamics::Status::ok) << d.message;
    const constraints::ConstraintEvaluation c = constraints::evaluate_constraints(model, 0.0, a.q, v);
    EXPECT_LE(max_abs(c.G * d.vdot - c.gamma), 1e-12 * (1.0 + max_abs(c.gamma))) << model.name;
    // M vdot = Q - G^T lambda
    const VectorXd residual = constrained_mass_matrix(model, a.q) * d.vdot -
                              constrained_generalized_forces(model, 0.0, a.q, v) + c.G.transpose() * d.lambda;
    EXPECT_LE(max_abs(residual), 1e-9 * (1.0 + max_abs(d.vdot))) << model.name;
  }
}

TEST(ReferenceConstrained, andrews_initial_accelerations_match_the_test_set) {
  // Hairer & Wanner / test set 'andrews': at the consistent initial values (at rest) w(beta) =
  // 14222.4439199541138705911625887, w(theta) = -10666.8329399655854029433719415, the other five zero; the
  // multipliers of the first closure are (98.5668703962410896057654982170, -6.12268834425566265503114393122)
  // in world axes, the others zero.
  const Model model = testing::literal_loop_model("andrews_squeezer");
  const VectorXd q = initial_q(model), v = VectorXd::Zero(7);
  const ConstrainedDynamics d = constrained_forward_dynamics(model, 0.0, q, v);
  ASSERT_EQ(d.status, ConstrainedDynamics::Status::ok) << d.message;
  const int beta = testing::joint_index(model, "beta"), theta = testing::joint_index(model, "theta");
  EXPECT_NEAR(d.vdot[beta], 14222.4439199541138705911625887, 1e-7 * 14222.44);
  EXPECT_NEAR(d.vdot[theta], -10666.8329399655854029433719415, 1e-7 * 10666.83);
  for (int k = 0; k < 7; ++k)
    if (k != beta && k != theta) EXPECT_NEAR(d.vdot[k], 0.0, 1e-8) << k;
  // Loop E_K3's rows are along K3's rotated in-plane axes: rotate them back to world axes.
  const double gamma = q[testing::joint_index(model, "gamma")];
  const double lx = std::cos(gamma) * d.lambda[0] - std::sin(gamma) * d.lambda[1];
  const double ly = std::sin(gamma) * d.lambda[0] + std::cos(gamma) * d.lambda[1];
  EXPECT_NEAR(lx, 98.5668703962410896057654982170, 1e-7 * 98.57);
  EXPECT_NEAR(ly, -6.12268834425566265503114393122, 1e-7 * 98.57);
  EXPECT_LE(max_abs(d.lambda.tail(4)), 1e-8);
}

// RK4 on (q, v) with q' = v (revolute joints only), projecting onto the constraints after every step.
double energy_drift(const Model& model, double t_end, double h) {
  constraints::AssemblyResult a = constraints::assemble(model);
  EXPECT_EQ(a.status, constraints::AssemblyStatus::ok) << a.message;
  VectorXd q = a.q, v = a.v;
  const auto energy = [&](const VectorXd& qq, const VectorXd& vv) {
    return constrained_kinetic_energy(model, qq, vv) + constrained_potential_energy(model, 0.0, qq);
  };
  const auto accel = [&](const VectorXd& qq, const VectorXd& vv) {
    return constrained_forward_dynamics(model, 0.0, qq, vv).vdot;
  };
  const double e0 = energy(q, v);
  double scale = std::abs(e0), worst = 0.0;
  const int steps = static_cast<int>(std::lround(t_end / h));
  for (int n = 0; n < steps; ++n) {
    const VectorXd k1q = v, k1v = accel(q, v);
    const VectorXd k2q = v + 0.5 * h * k1v, k2v = accel(q + 0.5 * h * k1q, k2q);
    const VectorXd k3q = v + 0.5 * h * k2v, k3v = accel(q + 0.5 * h * k2q, k3q);
    const VectorXd k4q = v + h * k3v, k4v = accel(q + h * k3q, k4q);
    q += h / 6.0 * (k1q + 2.0 * k2q + 2.0 * k3q + k4q);
    v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
    a = constraints::assemble(model, 0.0, q, v);  // projection: independent coordinates held
    EXPECT_EQ(a.status, constraints::AssemblyStatus::ok) << a.message;
    q = a.q;
    v = a.v;
    scale = std::max(scale, constrained_kinetic_energy(model, q, v));
    worst = std::max(worst, std::abs(energy(q, v) - e0));
  }
  return worst / scale;
}

TEST(ReferenceConstrained, conservative_four_bar_keeps_its_energy) {
  EXPECT_LT(energy_drift(four_bar(), 0.5, 1e-3), 1e-8);
}

TEST(ReferenceConstrained, four_bar_with_a_massive_rod_keeps_its_energy) {
  EXPECT_LT(energy_drift(rod_four_bar(), 0.5, 1e-3), 1e-8);
}

TEST(ReferenceConstrained, multipliers_of_a_statically_held_four_bar_balance_gravity) {
  // Hold the crank with a constant driver: the mechanism has no freedom left and stays at rest, and the
  // driver's multiplier is the holding torque: lambda = -dV/dtheta along the mechanism (M vdot = Q - G^T
  // lambda = 0).
  Model held = four_bar();
  Driver hold;
  hold.name = "hold";
  hold.joint = 0;
  hold.function.kind = TimeFunction::Kind::constant;
  hold.function.value.value = M_PI / 2;
  held.drivers.push_back(hold);
  held.independent.clear();
  const constraints::AssemblyResult a = constraints::assemble(held);
  ASSERT_EQ(a.status, constraints::AssemblyStatus::ok) << a.message;
  const ConstrainedDynamics d = constrained_forward_dynamics(held, 0.0, a.q, a.v);
  ASSERT_EQ(d.status, ConstrainedDynamics::Status::ok) << d.message;
  EXPECT_LE(max_abs(d.vdot), 1e-12);
  const constraints::ConstraintEvaluation c = constraints::evaluate_constraints(held, 0.0, a.q, a.v);
  EXPECT_LE(max_abs(constrained_generalized_forces(held, 0.0, a.q, a.v) - c.G.transpose() * d.lambda), 1e-12);

  const Model free = four_bar();
  const auto potential_at = [&](double crank) {
    VectorXd guess = a.q;
    guess[0] = crank;
    const constraints::AssemblyResult r = constraints::assemble(free, 0.0, guess, VectorXd::Zero(3));
    EXPECT_EQ(r.status, constraints::AssemblyStatus::ok) << r.message;
    return constrained_potential_energy(free, 0.0, r.q);
  };
  const double h = 1e-5;
  const double dV = (potential_at(M_PI / 2 + h) - potential_at(M_PI / 2 - h)) / (2.0 * h);
  EXPECT_NEAR(d.lambda[2], -dV, 1e-7 * (1.0 + std::abs(dV)));
}

TEST(ReferenceConstrained, rod_inertia_matches_its_kinetic_energy) {
  const Model model = testing::literal_model_text(testing::spatial_loop_model_text());
  const VectorXd q = initial_q(model);
  VectorXd v(model.joints.size() ? coordinate_layout(model).nv : 0);
  for (int i = 0; i < v.size(); ++i) v[i] = std::sin(1.3 * i + 0.4);
  const MatrixXd M = constrained_mass_matrix(model, q);
  EXPECT_NEAR(0.5 * v.dot(M * v), constrained_kinetic_energy(model, q, v), 1e-12 * (1.0 + v.dot(M * v)));
  // The rod adds m/6 (|v1|^2 + v1.v2 + |v2|^2) on top of the tree.
  EXPECT_GT(constrained_kinetic_energy(model, q, v), kinetic_energy(model, q, v));
}

TEST(ReferenceConstrained, redundant_constraints_are_reported) {
  Model model = four_bar();
  model.loops[0].type = LoopType::cut_spherical;  // planar four-bar, 3 equations of rank 2
  const constraints::AssemblyResult a = constraints::assemble(four_bar());
  const ConstrainedDynamics d = constrained_forward_dynamics(model, 0.0, a.q, a.v);
  EXPECT_EQ(d.status, ConstrainedDynamics::Status::redundant);
  EXPECT_EQ(d.constraint_rank, 2);
  EXPECT_NE(d.message.find("3 constraint equations, rank 2"), std::string::npos) << d.message;
  // vdot is still the unique one: same as with the non-redundant planar closure.
  const ConstrainedDynamics planar = constrained_forward_dynamics(four_bar(), 0.0, a.q, a.v);
  EXPECT_LE(max_abs(d.vdot - planar.vdot), 1e-9 * (1.0 + max_abs(planar.vdot)));
}

}  // namespace reference_constrained_test
}  // namespace myriad::reference
