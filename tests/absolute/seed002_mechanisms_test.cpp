// Seed 002's closed loops in absolute coordinates (absolute/seed002_mechanisms.hpp), rp and re, against
// Myriad's joint-coordinate engine: the slider crank as the seed authors built it
// (tests/data/seed002/slider_crank_reference.csv) and the project's four-link stand-in
// (models/loops/four_link.json; tests/data/seed002/four_link_reference.csv), both driven by one rheonomic
// DP1 (0 DOF). Table 7's GCON counts; the start states; the kinematics analysis (sec. 2) over 2 s; the
// index-1 dynamics (AbsoluteDae::accelerations by RK4), which for a 0-DOF mechanism must reproduce the
// prescribed motion; backward Euler on the index-3 equations (sec. 4.3, "Order Analysis"): exact positions,
// order 1 in velocity, acceleration and the Lagrange multipliers.
//
// Both drivers are singular where their two vectors are parallel (the slider crank at t = 1/4 + k/2 s, the
// four link at t = 1/2 + k s; see the models' comments): the kinematics skips those reference rows, and the
// dynamics runs stop before the first of them (the index-1 equations lose their accuracy through it: measured
// in the rp slider crank, 1e-5 m after t = 0.25 s with RK4 at h = 3.6e-3 s, which steps around it).
#include "absolute/seed002_mechanisms.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absolute/absolute_dynamics.hpp"
#include "absolute/absolute_kinematics.hpp"
#include "absolute/joint_recipes.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "integrators/implicit_integrate.hpp"
#include "integrators/rk4.hpp"
#include "support/second_order_reference.hpp"
#include "support/seed002_reference.hpp"

namespace myriad {
namespace {

using MechanismsModel = AbsoluteModel<3, 18>;

// A reference run of tests/data/seed002 and the mechanism it describes.
struct MechanismsCase {
  const char* csv;                  // file in tests/data/seed002
  std::array<const char*, 3> body;  // the CSV's names of bodies 1, 2, 3
  double first_singular_time;       // the driver's first singular instant ...
  double singular_period;           // ... and their spacing (s)
};

const MechanismsCase kMechanismsSliderCrank{
    "slider_crank_reference.csv", {"crank", "rod", "slider"}, 0.25, 0.5};
const MechanismsCase kMechanismsFourLink{"four_link_reference.csv", {"rotor", "rocker", "coupler"}, 0.5, 1.0};

bool mechanisms_is_singular_instant(const MechanismsCase& mechanism, double t) {
  const double phase = (t - mechanism.first_singular_time) / mechanism.singular_period;
  return std::fabs(phase - std::round(phase)) < 1e-9;
}

// Largest |CM position - reference| (or CM velocity, `velocity`) over the three bodies at one reference row;
// q holds the positions or the velocities.
template <class Rep>
double mechanisms_cm_difference(const std::map<std::string, std::vector<double>>& reference,
                                const MechanismsCase& mechanism, size_t row, const double* q, bool velocity) {
  constexpr int per_body = 3 + Rep::kOrientation;
  const char* position_suffix[3] = {"_cm_x", "_cm_y", "_cm_z"};
  const char* velocity_suffix[3] = {"_vx", "_vy", "_vz"};
  double worst = 0.0;
  for (int b = 0; b < 3; ++b)
    for (int k = 0; k < 3; ++k) {
      const std::string name =
          std::string(mechanism.body[b]) + (velocity ? velocity_suffix[k] : position_suffix[k]);
      worst = std::fmax(worst, std::fabs(q[b * per_body + k] - reference.at(name)[row]));
    }
  return worst;
}

TEST(Seed002Mechanisms, GconCountsAreTable7s) {
  // Table 7 (CD, DP1, DP2, D); GconCounts is (dp1, dp2, d, cd).
  const MechanismsModel slider_crank = seed002_slider_crank(), four_link = four_link_stand_in();
  EXPECT_EQ(count_gcons(slider_crank.gcons, 18), (GconCounts{7, 4, 1, 6}));
  EXPECT_EQ(count_gcons(four_link.gcons, 18), (GconCounts{6, 0, 0, 12}));
  const AbsoluteModel<1, 6> single = seed002_driven_single_pendulum();
  const AbsoluteModel<2, 10> pair = seed002_double_pendulum();
  EXPECT_EQ(count_gcons(single.gcons, 6), (GconCounts{3, 0, 0, 3}));
  EXPECT_EQ(count_gcons(pair.gcons, 10), (GconCounts{4, 0, 0, 6}));
  // 6 per body in rA's count: the closed loops and the driven pendulum have 0 DOF, the double pendulum 2.
  EXPECT_EQ(count_gcons(slider_crank.gcons, 18).total(), 6 * 3);
  EXPECT_EQ(count_gcons(four_link.gcons, 18).total(), 6 * 3);
  // One driver each, a DP1 (sec. 4.2).
  for (const MechanismsModel* model : {&slider_crank, &four_link}) {
    int drivers = 0;
    for (const Gcon<double>& g : model->gcons)
      if (g.driver >= 0) {
        ++drivers;
        EXPECT_EQ(g.kind, GconKind::dp1);
      }
    EXPECT_EQ(drivers, 1);
  }
}

// The start states satisfy Phi = 0 and Phi_q q' = nu and put the centres of mass where the reference's first
// row has them, moving as it has them.
template <class Rep>
void mechanisms_check_start(const MechanismsModel& model, const std::vector<double>& y0,
                            const MechanismsCase& mechanism) {
  using Dae = AbsoluteDae<Rep, 3, 18>;
  constexpr int NQ = Dae::NQ, NZ = Dae::NZ;
  ASSERT_EQ(y0.size(), static_cast<size_t>(2 * NQ)) << Rep::kName << " " << mechanism.csv;
  Dae dae;
  dae.model = &model;
  std::vector<double> phi(NZ), jacobian(NZ * NQ);
  dae.constraint_rows(0.0, y0.data(), phi.data(), jacobian.data());
  double worst_phi = 0.0, worst_nu = 0.0;
  for (int c = 0; c < NZ; ++c) {
    double row = -dae.constraint_nu(0.0, c);
    for (int j = 0; j < NQ; ++j) row += jacobian[c * NQ + j] * y0[NQ + j];
    worst_phi = std::fmax(worst_phi, std::fabs(phi[c]));
    worst_nu = std::fmax(worst_nu, std::fabs(row));
  }
  EXPECT_LT(worst_phi, 1e-14) << Rep::kName << " " << mechanism.csv;
  EXPECT_LT(worst_nu, 1e-13) << Rep::kName << " " << mechanism.csv;
  const auto reference = testing::read_seed002_reference(mechanism.csv);
  EXPECT_LT(mechanisms_cm_difference<Rep>(reference, mechanism, 0, y0.data(), false), 1e-14) << Rep::kName;
  EXPECT_LT(mechanisms_cm_difference<Rep>(reference, mechanism, 0, y0.data() + NQ, true), 1e-13)
      << Rep::kName;
}

TEST(Seed002Mechanisms, StartStatesAreConsistentAndMatchTheReferencesFirstRow) {
  const MechanismsModel slider_crank = seed002_slider_crank(), four_link = four_link_stand_in();
  mechanisms_check_start<EulerParameterCoordinates>(
      slider_crank, seed002_slider_crank_start<EulerParameterCoordinates>(), kMechanismsSliderCrank);
  mechanisms_check_start<EulerAngleCoordinates>(
      slider_crank, seed002_slider_crank_start<EulerAngleCoordinates>(), kMechanismsSliderCrank);
  mechanisms_check_start<EulerParameterCoordinates>(
      four_link, four_link_stand_in_start<EulerParameterCoordinates>(), kMechanismsFourLink);
  mechanisms_check_start<EulerAngleCoordinates>(four_link, four_link_stand_in_start<EulerAngleCoordinates>(),
                                                kMechanismsFourLink);
}

// The kinematics analysis at every reference row (0.01 s apart over 2 s) but the driver's singular instants.
// Each position analysis starts from the previous solution advanced by q' dt + q'' dt^2 / 2: from the
// previous position alone Newton would take the mirror branch after a singular instant (q and pi - q give the
// driver the same f, and 0.24 s and 0.26 s are mirror images for the slider crank). Checks the CM positions
// and velocities against the joint-coordinate engine to 1e-8, and, for re, the smallest sin(theta) met (the
// frames' promise).
template <class Rep>
void mechanisms_check_kinematics(const MechanismsModel& model, const std::vector<double>& y0,
                                 const MechanismsCase& mechanism, double smallest_sin_theta_bound) {
  AbsoluteKinematics<Rep, 3, 18> kinematics;
  kinematics.dae.model = &model;
  constexpr int NQ = AbsoluteKinematics<Rep, 3, 18>::NQ;
  constexpr int per_body = 3 + Rep::kOrientation;
  const auto reference = testing::read_seed002_reference(mechanism.csv);
  const std::vector<double>& time = reference.at("time");
  ASSERT_EQ(time.size(), 201u);
  ASSERT_EQ(y0.size(), static_cast<size_t>(2 * NQ));
  std::vector<double> q(y0.begin(), y0.begin() + NQ), q_dot(y0.begin() + NQ, y0.end()), q_ddot(NQ);
  ASSERT_TRUE(kinematics.accelerations(0.0, q.data(), q_dot.data(), q_ddot.data()));
  double previous_t = 0.0, worst_position = 0.0, worst_velocity = 0.0, smallest_sin_theta = 1.0;
  long long iterations = 0, solves = 0, skipped = 0;
  for (size_t row = 0; row < time.size(); ++row) {
    const double t = time[row];
    if (mechanisms_is_singular_instant(mechanism, t)) {
      ++skipped;
      continue;
    }
    if (row > 0) {
      const double h = t - previous_t;
      for (int i = 0; i < NQ; ++i) q[i] += h * q_dot[i] + 0.5 * h * h * q_ddot[i];
      int taken = 0;
      ASSERT_TRUE(kinematics.positions(t, q.data(), taken))
          << Rep::kName << " " << mechanism.csv << " t " << t;
      iterations += taken, ++solves;
      ASSERT_TRUE(kinematics.velocities(t, q.data(), q_dot.data()));
      ASSERT_TRUE(kinematics.accelerations(t, q.data(), q_dot.data(), q_ddot.data()));
    }
    previous_t = t;
    worst_position =
        std::fmax(worst_position, mechanisms_cm_difference<Rep>(reference, mechanism, row, q.data(), false));
    worst_velocity = std::fmax(worst_velocity,
                               mechanisms_cm_difference<Rep>(reference, mechanism, row, q_dot.data(), true));
    if (!Rep::kNormalized)
      for (int b = 0; b < 3; ++b)
        smallest_sin_theta = std::fmin(smallest_sin_theta, std::fabs(std::sin(q[b * per_body + 4])));
  }
  EXPECT_EQ(skipped, static_cast<long long>(std::lround(2.0 / mechanism.singular_period)));
  EXPECT_LT(worst_position, 1e-8) << Rep::kName << " " << mechanism.csv;
  EXPECT_LT(worst_velocity, 1e-8) << Rep::kName << " " << mechanism.csv;
  const double mean_iterations = static_cast<double>(iterations) / static_cast<double>(solves);
  EXPECT_GE(mean_iterations, 1.0) << Rep::kName;
  EXPECT_LT(mean_iterations, 5.0)
      << Rep::kName;  // seed 002 Table 9: 4.5-4.8 at h = 1e-3 from the last position
  if (!Rep::kNormalized) {
    EXPECT_GT(smallest_sin_theta, smallest_sin_theta_bound) << mechanism.csv;
  }
  std::printf(
      "%s %s: CM position %.2g m, velocity %.2g m/s over %lld rows; %.2f Newton iterations per step%s",
      mechanism.csv, Rep::kName, worst_position, worst_velocity, solves + 1, mean_iterations,
      Rep::kNormalized ? "\n" : "");
  if (!Rep::kNormalized) std::printf("; smallest sin(theta) %.3f\n", smallest_sin_theta);
}

TEST(Seed002Mechanisms, SliderCrankKinematicsMatchesTheJointCoordinateEngineTo1e8InRpAndRe) {
  const MechanismsModel model = seed002_slider_crank();
  // re: the rod's sin(theta) >= sqrt(1 - (2/3)^2) = 0.745 (seed002_slider_crank's comment).
  mechanisms_check_kinematics<EulerParameterCoordinates>(
      model, seed002_slider_crank_start<EulerParameterCoordinates>(), kMechanismsSliderCrank, 0.0);
  mechanisms_check_kinematics<EulerAngleCoordinates>(
      model, seed002_slider_crank_start<EulerAngleCoordinates>(), kMechanismsSliderCrank, 0.74);
}

TEST(Seed002Mechanisms, FourLinkStandInKinematicsMatchesTheJointCoordinateEngineTo1e8InRpAndRe) {
  const MechanismsModel model = four_link_stand_in();
  // re: the coupler's sin(theta) >= 0.5546 (four_link_stand_in's comment).
  mechanisms_check_kinematics<EulerParameterCoordinates>(
      model, four_link_stand_in_start<EulerParameterCoordinates>(), kMechanismsFourLink, 0.0);
  mechanisms_check_kinematics<EulerAngleCoordinates>(model, four_link_stand_in_start<EulerAngleCoordinates>(),
                                                     kMechanismsFourLink, 0.55);
}

// The index-1 equations (AbsoluteDae::accelerations) as the ODE y' = (v, q'') for integrate_rk4.
template <class Rep>
struct MechanismsIndexOneSystem {
  AbsoluteDae<Rep, 3, 18> dae;
  int dimension() const { return AbsoluteDae<Rep, 3, 18>::NY; }
  bool derivative(double t, const double* y, double* dydt) {
    constexpr int NQ = AbsoluteDae<Rep, 3, 18>::NQ;
    double z[AbsoluteDae<Rep, 3, 18>::NZ];
    for (int i = 0; i < NQ; ++i) dydt[i] = y[NQ + i];
    return dae.accelerations(t, y, dydt + NQ, z);
  }
  bool rebase(double, double*) { return false; }
};

// With 0 DOF, Phi_q q'' = gamma alone fixes q'': the forward dynamics must give the kinematics' accelerations
// (whatever the masses), and integrating it must follow the prescribed motion. RK4 at h = 2e-3 s (its error
// here is ~1e-10 m) from t = 0 to `t_end`, before the driver's first singular instant, compared with the
// joint-coordinate engine every 0.01 s.
template <class Rep>
void mechanisms_check_dynamics(const MechanismsModel& model, std::vector<double> y,
                               const MechanismsCase& mechanism, double t_end) {
  using Dae = AbsoluteDae<Rep, 3, 18>;
  constexpr int NQ = Dae::NQ;
  ASSERT_EQ(y.size(), static_cast<size_t>(2 * NQ));
  ASSERT_LT(t_end, mechanism.first_singular_time);
  MechanismsIndexOneSystem<Rep> system;
  system.dae.model = &model;
  AbsoluteKinematics<Rep, 3, 18> kinematics;
  kinematics.dae.model = &model;
  double q_ddot_dynamics[NQ], q_ddot_kinematics[NQ], z[Dae::NZ];
  ASSERT_TRUE(system.dae.accelerations(0.0, y.data(), q_ddot_dynamics, z));
  ASSERT_TRUE(kinematics.accelerations(0.0, y.data(), y.data() + NQ, q_ddot_kinematics));
  for (int i = 0; i < NQ; ++i)
    EXPECT_NEAR(q_ddot_dynamics[i], q_ddot_kinematics[i], 1e-10) << Rep::kName << " " << i;

  const auto reference = testing::read_seed002_reference(mechanism.csv);
  const int rows = static_cast<int>(std::lround(t_end / 0.01));
  std::vector<double> output_times(static_cast<size_t>(rows));
  for (int k = 0; k < rows; ++k)
    output_times[static_cast<size_t>(k)] = reference.at("time")[static_cast<size_t>(k + 1)];
  double worst = 0.0;
  auto observer = [&](int k, double, const double* state) {
    worst = std::fmax(
        worst, mechanisms_cm_difference<Rep>(reference, mechanism, static_cast<size_t>(k + 1), state, false));
  };
  std::vector<double> work(static_cast<size_t>(rk4_workspace_size(Dae::NY)));
  IntegratorStats stats;
  ASSERT_EQ(integrate_rk4(system, 0.0, 2e-3, y.data(), output_times.data(), rows, observer, work.data(),
                          stats, 100000),
            InstanceStatus::ok)
      << Rep::kName << " " << mechanism.csv;
  EXPECT_LT(worst, 1e-8) << Rep::kName << " " << mechanism.csv;
  std::printf("%s %s: index-1 dynamics (RK4) to %.2f s: largest CM difference %.2g m\n", mechanism.csv,
              Rep::kName, t_end, worst);
}

TEST(Seed002Mechanisms, SliderCrankIndexOneDynamicsFollowsTheDriveTo1e8InRpAndRe) {
  const MechanismsModel model = seed002_slider_crank();
  mechanisms_check_dynamics<EulerParameterCoordinates>(
      model, seed002_slider_crank_start<EulerParameterCoordinates>(), kMechanismsSliderCrank, 0.2);
  mechanisms_check_dynamics<EulerAngleCoordinates>(model, seed002_slider_crank_start<EulerAngleCoordinates>(),
                                                   kMechanismsSliderCrank, 0.2);
}

TEST(Seed002Mechanisms, FourLinkStandInIndexOneDynamicsFollowsTheDriveTo1e8InRpAndRe) {
  const MechanismsModel model = four_link_stand_in();
  mechanisms_check_dynamics<EulerParameterCoordinates>(
      model, four_link_stand_in_start<EulerParameterCoordinates>(), kMechanismsFourLink, 0.4);
  mechanisms_check_dynamics<EulerAngleCoordinates>(model, four_link_stand_in_start<EulerAngleCoordinates>(),
                                                   kMechanismsFourLink, 0.4);
}

// Backward Euler on the index-3 equations (seed 002 sec. 4.3, "Order Analysis") of the driven slider crank.
// With 0 DOF every step's positions are the constraints' solution at that time ("there is no error in the
// position-level data since the index 3 solution approach explicitly enforces the position ... constraint
// equations"): their order is meaningless, so the check is that they are exact. The velocities are then
// backward differences of exact positions, the accelerations second differences (from the second step on),
// and the multipliers follow from the accelerations: order 1 each, against the kinematics analysis and, for
// lambda, the forward dynamics at its state. Local errors (nothing accumulates), so a short run shows the
// order: 0.03 s in 3, 6 and 12 steps (each Newton iteration costs milliseconds: the Jacobians are taken on
// dual numbers of width NY).
template <class Rep>
void mechanisms_check_backward_euler() {
  using Dae = AbsoluteDae<Rep, 3, 18>;
  constexpr int NQ = Dae::NQ, NZ = Dae::NZ;
  const MechanismsModel model = seed002_slider_crank();
  Dae dae;
  dae.model = &model;
  const std::vector<double> y0 = seed002_slider_crank_start<Rep>();
  ASSERT_EQ(y0.size(), static_cast<size_t>(Dae::NY));
  const double t_end = 0.03;
  // Reference at t_end: the kinematics analysis (position to 1e-14), then lambda from the forward dynamics.
  AbsoluteKinematics<Rep, 3, 18> kinematics;
  kinematics.dae.model = &model;
  std::vector<double> y_reference(y0);
  int taken = 0;
  ASSERT_TRUE(kinematics.positions(t_end, y_reference.data(), taken, 1e-14));
  ASSERT_TRUE(kinematics.velocities(t_end, y_reference.data(), y_reference.data() + NQ));
  double q_ddot_reference[NQ], z_reference[NZ];
  ASSERT_TRUE(dae.accelerations(t_end, y_reference.data(), q_ddot_reference, z_reference));

  const ImplicitScheme euler = implicit_scheme(ImplicitMethod::backward_euler, 0.0);
  std::vector<double> dts, position, velocity, acceleration, multipliers;
  long long iterations = 0, points = 0;
  int most = 0;
  for (long long steps : {3, 6, 12}) {
    std::vector<double> work(static_cast<size_t>(implicit_workspace_size(Dae::NY, NZ)));
    std::vector<double> y_end(Dae::NY), ydot_end(Dae::NY), z_end(NZ);
    auto observer = [&](long long, double, const double* y, const double* ydot, const double* z) {
      for (int i = 0; i < Dae::NY; ++i) y_end[i] = y[i], ydot_end[i] = ydot[i];
      for (int c = 0; c < NZ; ++c) z_end[c] = z[c];
    };
    ImplicitStats stats;
    ASSERT_EQ(integrate_implicit(dae, euler, 0.0, t_end / static_cast<double>(steps), steps, y0.data(),
                                 work.data(), ImplicitOptions(), stats, observer),
              InstanceStatus::ok)
        << Rep::kName << " " << steps;
    iterations += stats.newton_iterations, points += stats.points;
    most = std::max(most, stats.max_point_iterations);
    double p = 0.0, v = 0.0, a = 0.0, l = 0.0;
    for (int b = 0; b < 3; ++b)
      for (int k = 0; k < 3; ++k) {
        const int i = b * Dae::kPerBody + k;
        p = std::fmax(p, std::fabs(y_end[i] - y_reference[i]));
        v = std::fmax(v, std::fabs(y_end[NQ + i] - y_reference[NQ + i]));
        a = std::fmax(a, std::fabs(ydot_end[NQ + i] - q_ddot_reference[i]));
      }
    for (int c = 0; c < NZ; ++c) l = std::fmax(l, std::fabs(z_end[c] - z_reference[c]));
    dts.push_back(t_end / static_cast<double>(steps));
    position.push_back(p), velocity.push_back(v), acceleration.push_back(a), multipliers.push_back(l);
  }
  for (double p : position) EXPECT_LT(p, 1e-12) << Rep::kName;
  const double velocity_order = myriad::testing::fitted_order(dts, velocity),
               acceleration_order = myriad::testing::fitted_order(dts, acceleration),
               multiplier_order = myriad::testing::fitted_order(dts, multipliers);
  EXPECT_NEAR(velocity_order, 1.0, 0.1) << Rep::kName;
  EXPECT_NEAR(acceleration_order, 1.0, 0.1) << Rep::kName;
  EXPECT_NEAR(multiplier_order, 1.0, 0.1) << Rep::kName;
  const double mean_iterations = static_cast<double>(iterations) / static_cast<double>(points);
  EXPECT_LT(mean_iterations, 5.0) << Rep::kName;
  std::printf(
      "slider crank %s backward Euler: positions within %.2g m; orders velocity %.3f, acceleration %.3f, "
      "lambda %.3f; %.2f Newton iterations per step (at most %d)\n",
      Rep::kName, std::fmax(position[0], std::fmax(position[1], position[2])), velocity_order,
      acceleration_order, multiplier_order, mean_iterations, most);
}

TEST(Seed002Mechanisms, BackwardEulerOnTheSliderCrankKeepsPositionsExactAndConvergesWithOrderOneInRp) {
  mechanisms_check_backward_euler<EulerParameterCoordinates>();
}

TEST(Seed002Mechanisms, BackwardEulerOnTheSliderCrankKeepsPositionsExactAndConvergesWithOrderOneInRe) {
  mechanisms_check_backward_euler<EulerAngleCoordinates>();
}

}  // namespace
}  // namespace myriad
