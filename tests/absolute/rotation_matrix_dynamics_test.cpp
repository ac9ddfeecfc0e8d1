// Seed 002's rA formulation (absolute/rotation_matrix_dynamics.hpp, rotation_matrix_kinematics.hpp): the
// orientation matrix itself as state, updated on SO(3) by A <- A exp(h omega-bar~) (eq. 32d). On the single
// pendulum (the 4 m, 78 kg rod released from the horizontal): the consistent start against the physical
// pendulum, and backward Euler (eqs. 32-38) converging with order 1 in position, velocity and acceleration
// with A orthonormal and the constraints held at every step; on the double pendulum: the index-1 equations
// integrated tightly (RK4 on the Lie algebra, RKMK) against Myriad's joint-coordinate engine, and the
// iteration matrix of eq. 38 against the dual-number Jacobian of the residual; on the driven single pendulum:
// the rA kinematics analysis against the closed form.
#include "absolute/rotation_matrix_dynamics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absolute/rotation_matrix_kinematics.hpp"
#include "absolute/seed002_mechanisms.hpp"
#include "support/second_order_reference.hpp"
#include "support/seed002_reference.hpp"

namespace myriad {
namespace {

using ::myriad::testing::rotation_matrix_constraint_violation;
using ::myriad::testing::rotation_matrix_orthonormality_error;
using ::myriad::testing::RotationMatrixRkmk4;

TEST(RotationMatrixDynamics, ConsistentStartGivesThePhysicalPendulumsAcceleration) {
  const AbsoluteModel<1, 5> model = seed002_single_pendulum();
  RotationMatrixDynamics<1, 5> dynamics;
  dynamics.model = &model;
  const RotationMatrixState<1> s = seed002_rotation_matrix_start<1>();
  EXPECT_LT(rotation_matrix_constraint_violation(dynamics, 0.0, s), 1e-15);
  Vec3<double> r_ddot[1], omega_bar_dot[1];
  double lambda[5];
  ASSERT_TRUE(dynamics.accelerations(0.0, s, r_ddot, omega_bar_dot, lambda));
  // At rest, horizontal: the CM accelerates straight down at (L/2)^2 m g / I_O = 7.3575 m/s^2, and the rod
  // turns about its body z (the hinge, global x) at -m g (L/2) / I_O.
  const double phi_ddot = -78.0 * 9.81 * 2.0 / 416.0;
  EXPECT_NEAR(r_ddot[0].x, 0.0, 1e-12);
  EXPECT_NEAR(r_ddot[0].y, 0.0, 1e-12);
  EXPECT_NEAR(r_ddot[0].z, 2.0 * phi_ddot, 1e-11);
  EXPECT_NEAR(omega_bar_dot[0].x, 0.0, 1e-12);
  EXPECT_NEAR(omega_bar_dot[0].y, 0.0, 1e-12);
  EXPECT_NEAR(omega_bar_dot[0].z, phi_ddot, 1e-12);
  // The hinge carries m (g + z''): the multipliers' forces on the rod, Phi_r^T lambda, sum to m (r'' - g).
  double x[RotationMatrixDynamics<1, 5>::NX], phi[5], jacobian[5 * 6];
  ASSERT_EQ(dynamics.start(0.0, s, x), InstanceStatus::ok);
  dynamics.constraint_rows(0.0, s, phi, jacobian);
  for (int k = 0; k < 3; ++k) {
    double force = 0.0;
    for (int c = 0; c < 5; ++c) force -= jacobian[c * 6 + k] * x[6 + c];
    EXPECT_NEAR(force, 78.0 * (x[k] - model.gravity[k]), 1e-9) << k;
  }
}

TEST(RotationMatrixDynamics, DoublePendulumAgreesWithTheJointCoordinateEngineTo1e8) {
  const AbsoluteModel<2, 10> model = seed002_double_pendulum();
  RotationMatrixDynamics<2, 10> dynamics;
  dynamics.model = &model;
  const auto reference = testing::read_seed002_reference("double_pendulum_reference.csv");
  ASSERT_EQ(reference.at("time").size(), 201u);
  RotationMatrixState<2> s = seed002_rotation_matrix_start<2>();
  const RotationMatrixRkmk4<2, 10> rkmk{&dynamics};
  const double h = 2e-4;
  double worst = 0.0, orthonormality = 0.0, drift = 0.0;
  for (int step = 1; step <= 5000; ++step) {
    ASSERT_TRUE(rkmk.step((step - 1) * h, h, s)) << step;
    for (int b = 0; b < 2; ++b)
      orthonormality = std::fmax(orthonormality, rotation_matrix_orthonormality_error(s.A[b]));
    if (step % 500 == 0) {  // every 0.1 s: rows 10, 20, ... of the reference
      const size_t row = static_cast<size_t>(step / 50);
      const char* names[2][3] = {{"rod1_cm_x", "rod1_cm_y", "rod1_cm_z"},
                                 {"rod2_cm_x", "rod2_cm_y", "rod2_cm_z"}};
      for (int b = 0; b < 2; ++b)
        for (int k = 0; k < 3; ++k)
          worst = std::fmax(worst, std::fabs(s.r[b][k] - reference.at(names[b][k])[row]));
      drift = std::fmax(drift, rotation_matrix_constraint_violation(dynamics, step * h, s));
    }
  }
  EXPECT_LT(worst, 1e-8);
  EXPECT_LT(orthonormality, 1e-12);
  std::printf("rA: largest CM difference %.3g m, |A^T A - I| %.2g, constraint drift %.2g\n", worst,
              orthonormality, drift);
  EXPECT_GT(std::fabs(s.r[1].z - (-1.0)), 0.1) << "the pendulum must have moved";
}

TEST(RotationMatrixDynamics, BackwardEulerConvergesWithOrderOneOnSO3) {
  const AbsoluteModel<1, 5> model = seed002_single_pendulum();
  RotationMatrixDynamics<1, 5> dynamics;
  dynamics.model = &model;
  std::vector<double> scratch(static_cast<size_t>(dynamics.integration_scratch_size()));
  const double t_end = 0.5;
  double z_ref, z_dot_ref, z_ddot_ref;
  testing::seed002_physical_pendulum(t_end, z_ref, z_dot_ref, z_ddot_ref);
  std::vector<double> dts, position, velocity, acceleration;
  for (int steps : {50, 100, 200, 400}) {
    const double h = t_end / steps;
    RotationMatrixState<1> s = seed002_rotation_matrix_start<1>();
    double x[RotationMatrixDynamics<1, 5>::NX];
    double orthonormality = 0.0, violation = 0.0;
    auto observer = [&](long long, double t, const RotationMatrixState<1>& now, const double*) {
      orthonormality = std::fmax(orthonormality, rotation_matrix_orthonormality_error(now.A[0]));
      violation = std::fmax(violation, rotation_matrix_constraint_violation(dynamics, t, now));
    };
    ImplicitStats stats;
    ASSERT_EQ(integrate_rotation_matrix_backward_euler(dynamics, 0.0, h, steps, s, x, ImplicitOptions(),
                                                       RotationMatrixIterationMatrix::exact, stats, scratch.data(),
                                                       observer),
              InstanceStatus::ok)
        << steps;
    EXPECT_LT(orthonormality, 1e-12) << steps;  // A on SO(3) by construction (eq. 32d)
    EXPECT_LT(violation, 1e-10) << steps;       // index 3: the position-level constraints at every step
    const double iterations = static_cast<double>(stats.newton_iterations) / static_cast<double>(stats.steps);
    EXPECT_LT(iterations, 4.0) << steps;
    std::printf("rA, h = %g: %.2f Newton iterations per step, |A^T A - I| %.2g, |Phi| %.2g\n", h, iterations,
                orthonormality, violation);
    dts.push_back(h);
    position.push_back(std::fabs(s.r[0].z - z_ref));
    velocity.push_back(std::fabs(s.r_dot[0].z - z_dot_ref));
    acceleration.push_back(std::fabs(x[2] - z_ddot_ref));
  }
  // Seed 002: backward Euler converges with order 1 in positions, velocities and accelerations, rA as rp, re.
  const double orders[3] = {::myriad::testing::fitted_order(dts, position),
                            ::myriad::testing::fitted_order(dts, velocity),
                            ::myriad::testing::fitted_order(dts, acceleration)};
  for (double order : orders) EXPECT_NEAR(order, 1.0, 0.1);
  std::printf("rA backward Euler fitted orders: position %.3f, velocity %.3f, acceleration %.3f\n", orders[0],
              orders[1], orders[2]);
}

TEST(RotationMatrixDynamics, IterationMatrixEqualsTheDualJacobianOfTheResidual) {
  const AbsoluteModel<2, 10> model = seed002_double_pendulum();
  using Dynamics = RotationMatrixDynamics<2, 10>;
  constexpr int NX = Dynamics::NX, NV = Dynamics::NV;
  Dynamics dynamics;
  dynamics.model = &model;
  std::vector<double> scratch(static_cast<size_t>(dynamics.integration_scratch_size()));
  // A moving state (0.3 s of backward Euler at h = 1e-2: both rods turning, every multiplier loaded), and an
  // unconverged iterate next to its solution.
  RotationMatrixState<2> s = seed002_rotation_matrix_start<2>();
  double x[NX];
  ImplicitStats stats;
  ASSERT_EQ(integrate_rotation_matrix_backward_euler(
                dynamics, 0.0, 1e-2, 30, s, x, ImplicitOptions(), RotationMatrixIterationMatrix::exact, stats,
                scratch.data(), [](long long, double, const RotationMatrixState<2>&, const double*) {}),
            InstanceStatus::ok);
  ASSERT_GT(std::fabs(s.omega_bar[1].z), 0.3);
  const double t = 0.31, h = 1e-2;
  for (int i = 0; i < NX; ++i) x[i] *= 1.0 + 0.01 * std::sin(1.0 + i);
  // The Jacobian of g^A (eq. 34b, through eq. 32) in x by dual numbers.
  using D = Dual<double, NX>;
  D xd[NX], gd[NX];
  for (int i = 0; i < NX; ++i) xd[i] = D::variable(x[i], i);
  RotationMatrixState<2, D> next_d;
  ASSERT_TRUE(dynamics.residual(t, h, s, xd, next_d, gd));
  // Eq. 38's G^A.
  RotationMatrixState<2> next;
  double g[NX], phi_q[10 * NV], G[NX * NX], G_seed[NX * NX];
  ASSERT_TRUE(dynamics.residual(t, h, s, x, next, g, phi_q));
  dynamics.iteration_matrix(t, h, next, x, phi_q, RotationMatrixIterationMatrix::exact, G);
  dynamics.iteration_matrix(t, h, next, x, phi_q, RotationMatrixIterationMatrix::seed_eq37, G_seed);
  double scale = 0.0, difference = 0.0, seed_difference = 0.0, residual_difference = 0.0;
  for (int i = 0; i < NX; ++i) {
    residual_difference = std::fmax(residual_difference, std::fabs(gd[i].value - g[i]));
    for (int j = 0; j < NX; ++j) {
      scale = std::fmax(scale, std::fabs(gd[i].d[j]));
      difference = std::fmax(difference, std::fabs(G[i * NX + j] - gd[i].d[j]));
      seed_difference = std::fmax(seed_difference, std::fabs(G_seed[i * NX + j] - gd[i].d[j]));
    }
  }
  EXPECT_EQ(residual_difference, 0.0);
  EXPECT_LT(difference, 1e-12 * scale);
  // Eq. 37's approximation leaves an O(h |omega-bar|) relative error in the orientation columns: a
  // quasi-Newton matrix, not the Jacobian.
  EXPECT_GT(seed_difference, 1e-6 * scale);
  EXPECT_LT(seed_difference, 1e-1 * scale);
  std::printf("eq. 38 G^A against the dual Jacobian: exact %.2g, seed eq. 37 %.2g (largest entry %.3g)\n",
              difference, seed_difference, scale);
}

// The seed's planar pendulums turn about one body axis, along which eq. 37 is exact (Jr(chi) e = e for e
// parallel to chi), so there both iteration matrices take the same iterations. A spinning spatial pendulum
// (the 4 m rod on a spherical joint, 3 CD, J-bar made asymmetric, omega-bar = (6, 1.5, 2) rad/s) separates
// them: the seed's matrix converges linearly, at a rate O(h |omega-bar|), the exact one quadratically, to the
// same solution.
TEST(RotationMatrixDynamics, SeedEq37MatrixIsQuasiNewtonOnASpinningSpatialPendulum) {
  const AbsoluteModel<1, 5> hinged = seed002_single_pendulum();
  AbsoluteModel<1, 3> model;
  model.mass[0] = hinged.mass[0];
  model.inertia[0] = {20.0, 104.0, 90.0};
  int cd = 0;
  for (const Gcon<double>& g : hinged.gcons)
    if (g.kind == GconKind::cd) model.gcons[cd++] = g;
  ASSERT_EQ(cd, 3);
  RotationMatrixDynamics<1, 3> dynamics;
  dynamics.model = &model;
  std::vector<double> scratch(static_cast<size_t>(dynamics.integration_scratch_size()));
  const double h = 1e-2;
  double z[2], iterations[2];
  for (int k = 0; k < 2; ++k) {
    const RotationMatrixIterationMatrix kind =
        k == 0 ? RotationMatrixIterationMatrix::exact : RotationMatrixIterationMatrix::seed_eq37;
    RotationMatrixState<1> s = seed002_rotation_matrix_start<1>();
    s.omega_bar[0] = {6.0, 1.5, 2.0};
    s.r_dot[0] = -1.0 * (s.A[0] * cross(s.omega_bar[0], Vec3<double>{-2.0, 0.0, 0.0}));  // the joint at rest
    double x[RotationMatrixDynamics<1, 3>::NX], violation = 0.0;
    ImplicitStats stats;
    ASSERT_EQ(integrate_rotation_matrix_backward_euler(
                  dynamics, 0.0, h, 100, s, x, ImplicitOptions(), kind, stats, scratch.data(),
                  [&](long long, double t, const RotationMatrixState<1>& now, const double*) {
                    violation = std::fmax(violation, rotation_matrix_constraint_violation(dynamics, t, now));
                  }),
              InstanceStatus::ok);
    EXPECT_LT(violation, 1e-10);
    z[k] = s.r[0].z;
    iterations[k] = static_cast<double>(stats.newton_iterations) / static_cast<double>(stats.steps);
  }
  EXPECT_NEAR(z[0], z[1], 1e-9);
  EXPECT_LT(iterations[0], 3.5);
  EXPECT_GT(iterations[1], iterations[0] + 2.0);
  std::printf(
      "spinning spatial pendulum, h = 0.01: %.2f (exact G) and %.2f (seed eq. 37 G) iterations per step\n",
      iterations[0], iterations[1]);
}

TEST(RotationMatrixDynamics, KinematicsOfTheDrivenPendulumMatchesItsClosedForm) {
  const AbsoluteModel<1, 6> model = seed002_driven_single_pendulum();
  RotationMatrixKinematics<1, 6> kinematics;
  kinematics.dynamics.model = &model;
  const double h = 1e-3;
  const int steps = static_cast<int>(std::lround(M_PI / h));  // one period of cos 2t
  // The pose at t = 0 perturbed, so that the first position analysis has work to do.
  const double alpha0 = 0.25 * M_PI + 0.05;
  RotationMatrixState<1> s = seed002_rotation_matrix_start<1>();
  s.r[0] = {0.0, 2.0 * std::sin(alpha0), -2.0 * std::cos(alpha0)};
  s.A[0] = seed002_rod_orientation(alpha0);
  double worst_position = 0, worst_velocity = 0, worst_acceleration = 0, orthonormality = 0;
  long long total_iterations = 0;
  for (int step = 0; step <= steps; ++step) {
    const double t = step * h;
    int iterations = 0;
    ASSERT_TRUE(kinematics.positions(t, s, iterations)) << t;
    if (step > 0) total_iterations += iterations;
    Vec3<double> r_ddot[1], omega_bar_dot[1];
    ASSERT_TRUE(kinematics.velocities(t, s));
    ASSERT_TRUE(kinematics.accelerations(t, s, r_ddot, omega_bar_dot));
    orthonormality = std::fmax(orthonormality, rotation_matrix_orthonormality_error(s.A[0]));
    // Closed form: alpha = pi/4 cos 2t, CM = 2 (0, sin alpha, -cos alpha), rod turning about global x.
    const testing::Seed002DrivenPendulum closed = testing::seed002_driven_pendulum(t);
    const double alpha = closed.alpha, alpha_dot = closed.alpha_dot, alpha_ddot = closed.alpha_ddot;
    const double y = closed.y, z = closed.z, y_dot = closed.y_dot, z_dot = closed.z_dot;
    const double y_ddot = closed.y_ddot, z_ddot = closed.z_ddot;
    const Mat3<double> A = seed002_rod_orientation(alpha);
    double orientation = 0.0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) orientation = std::fmax(orientation, std::fabs(s.A[0].m[i][j] - A.m[i][j]));
    worst_position =
        std::fmax(worst_position, std::fmax(std::fmax(std::fabs(s.r[0].x), orientation),
                                            std::fmax(std::fabs(s.r[0].y - y), std::fabs(s.r[0].z - z))));
    // The body z axis is the hinge (global x): omega-bar = (0, 0, alpha').
    worst_velocity = std::fmax(worst_velocity,
                               std::fmax(std::fabs(s.r_dot[0].y - y_dot), std::fabs(s.r_dot[0].z - z_dot)));
    worst_velocity = std::fmax(worst_velocity, norm(s.omega_bar[0] - Vec3<double>{0.0, 0.0, alpha_dot}));
    worst_acceleration = std::fmax(
        worst_acceleration, std::fmax(std::fabs(r_ddot[0].y - y_ddot), std::fabs(r_ddot[0].z - z_ddot)));
    worst_acceleration =
        std::fmax(worst_acceleration, norm(omega_bar_dot[0] - Vec3<double>{0.0, 0.0, alpha_ddot}));
  }
  EXPECT_LT(worst_position, 1e-9);
  EXPECT_LT(worst_velocity, 1e-9);
  EXPECT_LT(worst_acceleration, 1e-8);
  EXPECT_LT(orthonormality, 1e-12);
  const double mean_iterations = static_cast<double>(total_iterations) / steps;
  // Seed 002 Table 9: 3.80 iterations per step for rA at h = 1e-3, tolerance 1e-10 (predictor-dependent).
  EXPECT_GT(mean_iterations, 1.5);
  EXPECT_LT(mean_iterations, 5.0);
  std::printf(
      "rA kinematics: position %.2g, velocity %.2g, acceleration %.2g, |A^T A - I| %.2g, %.2f iterations "
      "per step\n",
      worst_position, worst_velocity, worst_acceleration, orthonormality, mean_iterations);
}

}  // namespace
}  // namespace myriad

namespace myriad {
namespace {

// The closed forms of the reaction sensitivities (absolute/gcon_reaction_sensitivity.hpp, seed 002 Tables
// 3-6) equal each GCON's row on dual numbers over the perturbed poses (the way the dual path takes them), for
// every kind, at random poses, between two bodies and against the ground.
TEST(RotationMatrixDynamics, ClosedFormReactionSensitivitiesEqualTheDualRowsOfEveryGcon) {
  using Dynamics = RotationMatrixDynamics<2, 4>;
  using D = Dual<double, 12>;
  unsigned seed = 7;
  const auto uniform = [&seed]() {  // in [-1, 1)
    seed = seed * 1103515245u + 12345u;
    return static_cast<double>((seed >> 8) & 0xFFFF) / 32768.0 - 1.0;
  };
  const auto vector = [&]() { return Vec3<double>{uniform(), uniform(), uniform()}; };
  double worst = 0.0, largest = 0.0;
  int compared = 0;
  for (int draw = 0; draw < 20; ++draw) {
    RotationMatrixState<2> s;
    for (int b = 0; b < 2; ++b) {
      s.r[b] = vector();
      s.A[b] = rotation_about_axis(vector(), 3.0 * uniform());
      s.r_dot[b] = s.omega_bar[b] = Vec3<double>::zero();
    }
    for (GconKind kind : {GconKind::dp1, GconKind::dp2, GconKind::d, GconKind::cd, GconKind::angle})
      for (int body_j : {2, 0}) {
        Gcon<double> g{};
        g.kind = kind;
        g.body_i = 1;
        g.body_j = body_j;
        g.a_bar_i = vector(), g.a_bar_j = vector(), g.s_bar_i_P = vector(), g.s_bar_j_Q = vector();
        g.c = Vec3<double>{0.0, 1.0, 0.0};
        g.driver = -1;
        if (kind == GconKind::angle) {  // f-bar_i, g-bar_i perpendicular to a hinge axis, f-bar_j too
          const Vec3<double> h{0.0, 0.0, 1.0};
          g.a_bar_i = Vec3<double>{1.0, 0.0, 0.0}, g.s_bar_i_P = cross(h, g.a_bar_i);
          g.a_bar_j = Vec3<double>{std::cos(draw), std::sin(draw), 0.0};
        }
        const double lambda = 1.7 * uniform();
        double closed[144], dual[144];
        gcon_reaction_sensitivity(g, Dynamics::pose(s, 1), Dynamics::pose(s, body_j), lambda, closed);
        const DrivingValue<D> none{D(0.0), D(0.0), D(0.0)};
        const GconRow<D, 3> row = gcon_row(gcon_cast<D>(g), Dynamics::perturbed_pose(s, 1, 0),
                                           Dynamics::perturbed_pose(s, body_j, 6), none);
        D force[12];
        for (int k = 0; k < 3; ++k) {
          force[k] = row.phi_r_i[k] * lambda, force[3 + k] = row.phi_orientation_i[k] * lambda;
          force[6 + k] = row.phi_r_j[k] * lambda, force[9 + k] = row.phi_orientation_j[k] * lambda;
        }
        Dynamics::dual_block(force, dual);
        const int columns = body_j == 0 ? 6 : 12;  // the ground's directions are not variables
        for (int k = 0; k < columns; ++k)
          for (int l = 0; l < columns; ++l) {
            worst = std::fmax(worst, std::abs(closed[k * 12 + l] - dual[k * 12 + l]));
            largest = std::fmax(largest, std::abs(dual[k * 12 + l]));
          }
        ++compared;
      }
  }
  std::printf("%d GCON blocks: closed form against dual rows %.1e (largest entry %.2g)\n", compared, worst,
              largest);
  EXPECT_EQ(compared, 200);
  EXPECT_GT(largest, 0.5);
  EXPECT_LT(worst, 1e-13 * largest);
}

}  // namespace
}  // namespace myriad
