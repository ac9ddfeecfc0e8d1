// Seed 002's kinematics analysis (absolute/absolute_kinematics.hpp) on its driven single pendulum (sec. 4.2: the
// angle between the rod's local y axis and the global -z axis prescribed as pi/2 + pi/4 cos 2t by a rheonomic
// DP1; 3 CD + 3 DP1, Table 7) in rp and re: position, velocity and acceleration analyses at h = 1e-3 over one
// period of the drive against the closed form, and the Newton iterations per step of Table 9.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "absolute/absolute_kinematics.hpp"
#include "absolute/seed002_mechanisms.hpp"
#include "support/seed002_reference.hpp"

namespace myriad {
namespace {

template <class Rep>
void check_driven_pendulum() {
  const AbsoluteModel<1, 6> model = seed002_driven_single_pendulum();
  AbsoluteKinematics<Rep, 1, 6> kinematics;
  kinematics.dae.model = &model;
  constexpr int NQ = AbsoluteKinematics<Rep, 1, 6>::NQ;
  const double h = 1e-3;
  const int steps = static_cast<int>(std::lround(M_PI / h));  // one period of cos 2t
  // Start from the pose at t = 0 perturbed, so that the first position analysis has work to do.
  std::vector<double> q;
  append_seed002_rod<Rep>(q, {0.0, 2.0 * std::sin(0.25 * M_PI + 0.05), -2.0 * std::cos(0.25 * M_PI + 0.05)},
                          0.25 * M_PI + 0.05);
  double worst_position = 0, worst_velocity = 0, worst_acceleration = 0;
  long long total_iterations = 0;
  for (int step = 0; step <= steps; ++step) {
    const double t = step * h;
    int iterations = 0;
    ASSERT_TRUE(kinematics.positions(t, q.data(), iterations)) << Rep::kName << " t " << t;
    if (step > 0) total_iterations += iterations;
    double q_dot[NQ], q_ddot[NQ];
    ASSERT_TRUE(kinematics.velocities(t, q.data(), q_dot));
    ASSERT_TRUE(kinematics.accelerations(t, q.data(), q_dot, q_ddot));
    // Closed form: alpha = pi/4 cos 2t, CM = 2 (0, sin alpha, -cos alpha).
    const testing::Seed002DrivenPendulum closed = testing::seed002_driven_pendulum(t);
    const double y = closed.y, z = closed.z, y_dot = closed.y_dot, z_dot = closed.z_dot;
    const double y_ddot = closed.y_ddot, z_ddot = closed.z_ddot;
    worst_position = std::fmax(worst_position, std::fmax(std::fabs(q[0]), std::fmax(std::fabs(q[1] - y), std::fabs(q[2] - z))));
    worst_velocity = std::fmax(worst_velocity, std::fmax(std::fabs(q_dot[1] - y_dot), std::fabs(q_dot[2] - z_dot)));
    worst_acceleration =
        std::fmax(worst_acceleration, std::fmax(std::fabs(q_ddot[1] - y_ddot), std::fabs(q_ddot[2] - z_ddot)));
  }
  EXPECT_LT(worst_position, 1e-9) << Rep::kName;
  EXPECT_LT(worst_velocity, 1e-9) << Rep::kName;
  EXPECT_LT(worst_acceleration, 1e-8) << Rep::kName;
  const double mean_iterations = static_cast<double>(total_iterations) / steps;
  // Seed 002 Table 9: 3.82 (rp) and 3.80 (re) iterations per step at h = 1e-3, tolerance 1e-10; the count
  // depends on the predictor (here: the previous step's q).
  EXPECT_GT(mean_iterations, 1.5) << Rep::kName;
  EXPECT_LT(mean_iterations, 5.0) << Rep::kName;
  std::printf("%s: position %.2g m, velocity %.2g m/s, acceleration %.2g m/s^2, %.2f iterations per step\n",
              Rep::kName, worst_position, worst_velocity, worst_acceleration, mean_iterations);
}

TEST(AbsoluteKinematics, DrivenSinglePendulumMatchesItsClosedFormInRpAndRe) {
  check_driven_pendulum<EulerParameterCoordinates>();
  check_driven_pendulum<EulerAngleCoordinates>();
}

}  // namespace
}  // namespace myriad
