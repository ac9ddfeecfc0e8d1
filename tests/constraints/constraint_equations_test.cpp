// The constraint equations (src/constraints/constraint_equations.hpp) against finite differences: G v is the
// derivative of Phi along q' = qdot(q, v) (reference::qdot, so the quaternion joints use the project's v),
// Phi_t the derivative in t, and G a - gamma the second derivative along the flow (q' = qdot(q, v), v' = a).
// One spatial model carries every joint type with coordinates and every loop type plus two drivers.
#include "constraints/constraint_equations.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "constraints/loop_test_models.hpp"
#include "reference/reference_dynamics.hpp"

namespace myriad::constraints {
namespace constraint_equations_test {

using Eigen::MatrixXd;
using Eigen::VectorXd;

struct State {
  VectorXd q, v, a;
};

// Random coordinates (quaternions normalized), velocities and accelerations.
State random_state(const Model& model, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const reference::CoordinateLayout layout = reference::coordinate_layout(model);
  State s{VectorXd(layout.nq), VectorXd(layout.nv), VectorXd(layout.nv)};
  for (int i = 0; i < layout.nq; ++i) s.q[i] = u(rng);
  for (int i = 0; i < layout.nv; ++i) s.v[i] = u(rng);
  for (int i = 0; i < layout.nv; ++i) s.a[i] = u(rng);
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const JointType type = model.joints[j].type;
    const int at = type == JointType::spherical ? 0 : (type == JointType::free ? 3 : -1);
    if (at < 0) continue;
    const int q0 = layout.q_index[j] + at;
    s.q.segment<4>(q0).normalize();
  }
  return s;
}

double max_abs(const VectorXd& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }

TEST(ConstraintEquations, row_count_and_labels) {
  const Model model = testing::literal_model_text(testing::spatial_loop_model_text());
  EXPECT_EQ(constraint_count(model), 3 + 5 + 4 + 2 + 1 + 1 + 2);
  const std::vector<std::string> labels = constraint_labels(model);
  ASSERT_EQ(labels.size(), 18u);
  EXPECT_EQ(labels[0], "loop 'sph' (cut_spherical) equation 0");
  EXPECT_EQ(labels[15], "loop 'rod' (rod)");
  EXPECT_EQ(labels[17], "driver 'd_sled'");
}

TEST(ConstraintEquations, jacobian_matches_finite_differences_of_phi_along_qdot) {
  const Model model = testing::literal_model_text(testing::spatial_loop_model_text());
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const State s = random_state(model, seed);
    const double t = 0.37 * seed;
    const ConstraintEvaluation c = evaluate_constraints(model, t, s.q, s.v);
    const VectorXd qdot = reference::qdot(model, s.q, s.v);
    const double h = 1e-6;
    const VectorXd fd =
        (constraint_residual(model, t, s.q + h * qdot) - constraint_residual(model, t, s.q - h * qdot)) /
        (2.0 * h);
    EXPECT_LT(max_abs(fd - c.G * s.v), 1e-7 * (1.0 + max_abs(fd))) << "seed " << seed;
    const VectorXd fd_t =
        (constraint_residual(model, t + h, s.q) - constraint_residual(model, t - h, s.q)) / (2.0 * h);
    EXPECT_LT(max_abs(fd_t - c.phi_t), 1e-7) << "seed " << seed;
  }
}

TEST(ConstraintEquations, gamma_matches_finite_differences_of_the_constraint_rate_along_the_flow) {
  const Model model = testing::literal_model_text(testing::spatial_loop_model_text());
  for (unsigned seed = 11; seed <= 15; ++seed) {
    const State s = random_state(model, seed);
    const double t = 0.21 * seed - 2.0;
    const ConstraintEvaluation c = evaluate_constraints(model, t, s.q, s.v);
    // d/dt (G v + Phi_t) = G a - gamma. Points on the flow at t +- h to second order: q + qdot dt + qddot
    // dt^2 / 2 with qddot from a finite difference of qdot; the symmetric O(h^2) errors cancel in the central
    // difference.
    const double h = 1e-5;
    const auto rate_at = [&](double dt) {
      const VectorXd v = s.v + dt * s.a;
      const VectorXd qdot0 = reference::qdot(model, s.q, s.v);
      const double e = 1e-6;
      const VectorXd qddot = (reference::qdot(model, s.q + e * qdot0, s.v + e * s.a) -
                              reference::qdot(model, s.q - e * qdot0, s.v - e * s.a)) /
                             (2.0 * e);
      const VectorXd q = s.q + dt * qdot0 + 0.5 * dt * dt * qddot;
      const ConstraintEvaluation ce = evaluate_constraints(model, t + dt, q, v);
      return VectorXd(ce.G * v + ce.phi_t);
    };
    const VectorXd fd = (rate_at(h) - rate_at(-h)) / (2.0 * h);
    const VectorXd expected = c.G * s.a - c.gamma;
    EXPECT_LT(max_abs(fd - expected), 1e-6 * (1.0 + max_abs(expected))) << "seed " << seed;
  }
}

TEST(ConstraintEquations, drivers_are_coordinate_minus_function) {
  const Model model = testing::literal_model_text(testing::spatial_loop_model_text());
  const State s = random_state(model, 3);
  const double t = 0.8;
  const ConstraintEvaluation c = evaluate_constraints(model, t, s.q, s.v);
  const reference::CoordinateLayout layout = reference::coordinate_layout(model);
  const int arm = testing::joint_index(model, "j_arm");
  const double w = 2.0 * M_PI * 0.7, arg = w * t + 0.2;
  EXPECT_NEAR(c.phi[16], s.q[layout.q_index[arm]] - (0.1 + 0.5 * std::sin(arg)), 1e-15);
  EXPECT_NEAR(c.phi_t[16], -0.5 * w * std::cos(arg), 1e-14);
  EXPECT_NEAR(c.gamma[16], -0.5 * w * w * std::sin(arg), 1e-13);
  EXPECT_EQ(c.G.row(16).sum(), 1.0);
  EXPECT_EQ(c.G(16, layout.v_index[arm]), 1.0);
}

TEST(ConstraintEquations, distance_residual_is_length_error) {
  // Tip of a 1 m pendulum to a ground point 2 m away along x at q = 0: |D| = 1.
  const Model model = testing::literal_model_text(R"({"format": "myriad-model", "version": 1,
    "bodies": [{"name": "p", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "j", "type": "revolute", "parent": "ground", "child": "p", "axis": [0, 0, 1]}],
    "loops": [{"name": "d", "type": "distance", "body1": "p", "point1": [1, 0, 0], "body2": "ground",
               "point2": [2, 0, 0], "length": 0.25}]})");
  VectorXd q(1), v(1);
  q << M_PI / 2;
  v << 1.0;
  const ConstraintEvaluation c = evaluate_constraints(model, 0.0, q, v);
  EXPECT_NEAR(c.phi[0], std::sqrt(5.0) - 0.25, 1e-15);
  // d|D|/dq = d/dq sqrt(5 - 4 cos q) = 2 sin q / |D|
  EXPECT_NEAR(c.G(0, 0), 2.0 / std::sqrt(5.0), 1e-15);
  q << 0.0;
  v << 0.0;
  EXPECT_NO_THROW(evaluate_constraints(model, 0.0, q, v));
}

TEST(ConstraintEquations, advance_coordinates_moves_along_qdot_to_first_order) {
  const Model model = testing::literal_model_text(testing::spatial_loop_model_text());
  const State s = random_state(model, 7);
  const double h = 1e-7;
  const VectorXd step = (advance_coordinates(model, s.q, h * s.v) - s.q) / h;
  EXPECT_LT(max_abs(step - reference::qdot(model, s.q, s.v)), 1e-6);
}

}  // namespace constraint_equations_test
}  // namespace myriad::constraints
