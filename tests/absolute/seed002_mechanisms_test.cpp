// Seed 002's closed loops in absolute coordinates (absolute/seed002_mechanisms.hpp), rA, rp and re, against
// Myriad's joint-coordinate engine: the slider crank as the seed authors built it
// (tests/data/seed002/slider_crank_reference.csv) and the project's four-link stand-in
// (models/loops/four_link.json; tests/data/seed002/four_link_reference.csv), both driven by one rheonomic
// DP1 (0 DOF). Table 7's GCON counts; the start states; the kinematics analysis (sec. 2) over 2 s; the
// index-1 dynamics (AbsoluteDae::accelerations by RK4; rA: RotationMatrixDynamics::accelerations by RK4 in
// the Lie algebra, RKMK), which for a 0-DOF mechanism must reproduce the prescribed motion; backward Euler on
// the index-3 equations (sec. 4.3, "Order Analysis"; rA: eqs. 32-38 on SO(3)): exact positions, order 1 in
// velocity, acceleration and the Lagrange multipliers.
//
// Both drivers are singular where their two vectors are parallel (the slider crank at t = 1/4 + k/2 s, the
// four link at t = 1/2 + k s; see the models' comments): the kinematics skips those reference rows, and the
// dynamics runs stop before the first of them (the index-1 equations lose their accuracy through it: measured
// in the rp slider crank, 1e-5 m after t = 0.25 s with RK4 at h = 3.6e-3 s, which steps around it). Driven on the
// angle itself (seed002_angle_driven, the angle GCON) they have no such instant: both run the whole 2 s.
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
#include "absolute/rotation_matrix_dynamics.hpp"
#include "absolute/rotation_matrix_kinematics.hpp"
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
// The same runs driven on the angle itself (seed002_angle_driven): no singular instant.
const MechanismsCase kMechanismsSliderCrankAngle{
    "slider_crank_reference.csv", {"crank", "rod", "slider"}, INFINITY, INFINITY};
const MechanismsCase kMechanismsFourLinkAngle{
    "four_link_reference.csv", {"rotor", "rocker", "coupler"}, INFINITY, INFINITY};

bool mechanisms_is_singular_instant(const MechanismsCase& mechanism, double t) {
  if (std::isinf(mechanism.singular_period)) return false;
  const double phase = (t - mechanism.first_singular_time) / mechanism.singular_period;
  return std::fabs(phase - std::round(phase)) < 1e-9;
}

using MechanismsReference = std::map<std::string, std::vector<double>>;

// Largest |CM position - reference| (or CM velocity, `velocity`) over the three bodies at one reference row;
// value(b, k) is coordinate k of body b's CM position or velocity.
template <class Value>
double mechanisms_cm_difference_of(const MechanismsReference& reference, const MechanismsCase& mechanism,
                                   size_t row, bool velocity, const Value& value) {
  const char* position_suffix[3] = {"_cm_x", "_cm_y", "_cm_z"};
  const char* velocity_suffix[3] = {"_vx", "_vy", "_vz"};
  double worst = 0.0;
  for (int b = 0; b < 3; ++b)
    for (int k = 0; k < 3; ++k) {
      const std::string name =
          std::string(mechanism.body[b]) + (velocity ? velocity_suffix[k] : position_suffix[k]);
      worst = std::fmax(worst, std::fabs(value(b, k) - reference.at(name)[row]));
    }
  return worst;
}

// The same from rp or re coordinates: q holds the positions or the velocities.
template <class Rep>
double mechanisms_cm_difference(const MechanismsReference& reference, const MechanismsCase& mechanism,
                                size_t row, const double* q, bool velocity) {
  constexpr int per_body = 3 + Rep::kOrientation;
  return mechanisms_cm_difference_of(reference, mechanism, row, velocity,
                                     [q](int b, int k) { return q[b * per_body + k]; });
}

// The same from an rA state: its r or r'.
double mechanisms_cm_difference_rotation_matrix(const MechanismsReference& reference,
                                                const MechanismsCase& mechanism, size_t row,
                                                const RotationMatrixState<3>& s, bool velocity) {
  return mechanisms_cm_difference_of(reference, mechanism, row, velocity, [&s, velocity](int b, int k) {
    return velocity ? s.r_dot[b][k] : s.r[b][k];
  });
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

// rA's start from the same poses (seed002_driven_rotation_matrix_start): the same motion as a start in rp or
// re coordinates y0. Largest difference of r, r', A (against the coordinates' orientation matrix) and
// omega-bar (against their body angular velocity, 2 G(p) p' for rp).
template <class Rep>
double mechanisms_rotation_matrix_start_difference(const RotationMatrixState<3>& s,
                                                   const std::vector<double>& y0) {
  constexpr int per_body = 3 + Rep::kOrientation, NQ = 3 * per_body;
  double worst = 0.0;
  for (int b = 0; b < 3; ++b) {
    const double* q = y0.data() + b * per_body;
    const double* q_dot = q + NQ;
    const auto orientation = Rep::template orientation<double>(q + 3);
    const Mat3<double> A = orientation_matrix(orientation);
    const Vec3<double> omega_bar =
        body_angular_velocity(orientation, Rep::template orientation<double>(q_dot + 3));
    for (int k = 0; k < 3; ++k) {
      worst = std::fmax(worst, std::fmax(std::fabs(s.r[b][k] - q[k]), std::fabs(s.r_dot[b][k] - q_dot[k])));
      worst = std::fmax(worst, std::fabs(s.omega_bar[b][k] - omega_bar[k]));
      for (int j = 0; j < 3; ++j) worst = std::fmax(worst, std::fabs(s.A[b].m[k][j] - A.m[k][j]));
    }
  }
  return worst;
}

// The rA start from a mechanism's poses satisfies Phi = 0 and [Phi_r Phi_pi] (r', omega-bar) = nu with A on
// SO(3), puts the centres of mass where the reference's first row has them, moving as it has them, and is the
// rp and re starts' motion.
void mechanisms_check_rotation_matrix_start(const MechanismsModel& model, const MechanismsCase& mechanism,
                                            RotationMatrixState<3> s, const std::vector<double>& rp,
                                            const std::vector<double>& re) {
  ASSERT_TRUE(seed002_driven_rotation_matrix_start(model, s, 0.0)) << mechanism.csv;
  using Dynamics = RotationMatrixDynamics<3, 18>;
  constexpr int NV = Dynamics::NV;
  Dynamics dynamics;
  dynamics.model = &model;
  double phi[18], jacobian[18 * NV], worst_nu = 0.0, orthonormality = 0.0;
  dynamics.constraint_rows(0.0, s, phi, jacobian);
  for (int c = 0; c < 18; ++c) {
    double row = -dynamics.constraint_nu(0.0, c);
    for (int b = 0; b < 3; ++b)
      for (int k = 0; k < 3; ++k)
        row += jacobian[c * NV + Dynamics::kPerBody * b + k] * s.r_dot[b][k] +
               jacobian[c * NV + Dynamics::kPerBody * b + 3 + k] * s.omega_bar[b][k];
    worst_nu = std::fmax(worst_nu, std::fabs(row));
  }
  for (int b = 0; b < 3; ++b)
    orthonormality =
        std::fmax(orthonormality, ::myriad::testing::rotation_matrix_orthonormality_error(s.A[b]));
  const double worst_phi = ::myriad::testing::rotation_matrix_constraint_violation(dynamics, 0.0, s);
  EXPECT_LT(worst_phi, 1e-14) << mechanism.csv;
  EXPECT_LT(worst_nu, 1e-13) << mechanism.csv;
  EXPECT_LT(orthonormality, 1e-15) << mechanism.csv;
  const auto reference = testing::read_seed002_reference(mechanism.csv);
  EXPECT_LT(mechanisms_cm_difference_rotation_matrix(reference, mechanism, 0, s, false), 1e-14)
      << mechanism.csv;
  EXPECT_LT(mechanisms_cm_difference_rotation_matrix(reference, mechanism, 0, s, true), 1e-13)
      << mechanism.csv;
  const double from_rp = mechanisms_rotation_matrix_start_difference<EulerParameterCoordinates>(s, rp),
               from_re = mechanisms_rotation_matrix_start_difference<EulerAngleCoordinates>(s, re);
  EXPECT_LT(from_rp, 1e-13) << mechanism.csv;
  EXPECT_LT(from_re, 1e-13) << mechanism.csv;
  std::printf("%s rA start: |Phi| %.2g, |Phi_q v - nu| %.2g, |A^T A - I| %.2g; against rp %.2g, re %.2g\n",
              mechanism.csv, worst_phi, worst_nu, orthonormality, from_rp, from_re);
}

TEST(Seed002Mechanisms, RotationMatrixStartStatesAreConsistentAndEqualTheRpAndReStarts) {
  const MechanismsModel slider_crank = seed002_slider_crank(), four_link = four_link_stand_in();
  mechanisms_check_rotation_matrix_start(slider_crank, kMechanismsSliderCrank, seed002_slider_crank_poses(),
                                         seed002_slider_crank_start<EulerParameterCoordinates>(),
                                         seed002_slider_crank_start<EulerAngleCoordinates>());
  mechanisms_check_rotation_matrix_start(four_link, kMechanismsFourLink, four_link_stand_in_poses(),
                                         four_link_stand_in_start<EulerParameterCoordinates>(),
                                         four_link_stand_in_start<EulerAngleCoordinates>());
}

// What mechanisms_follow_the_reference measured.
struct MechanismsKinematicsRun {
  double position = 0.0, velocity = 0.0;  // largest CM differences from the reference (m, m/s)
  double mean_iterations = 0.0;           // Newton iterations per position analysis
  long long rows = 0;                     // reference rows compared
};

// The kinematics analysis at every reference row (0.01 s apart over 2 s) but the driver's singular instants.
// Each position analysis starts from the previous solution advanced by q' dt + q'' dt^2 / 2 (rA: r likewise,
// A turned by A exp((omega-bar dt + omega-bar' dt^2 / 2)~)): from the previous position alone Newton would
// take the mirror branch after a singular instant (q and pi - q give the driver the same f, and 0.24 s and
// 0.26 s are mirror images for the slider crank). Checks the CM positions and velocities against the
// joint-coordinate engine to 1e-8. `analysis` is one representation's: accelerate(t) (the acceleration
// analysis), predict(dt), solve(t, iterations) (the position and velocity analyses), cm_difference(reference,
// mechanism, row, velocity) and observe() (after each row, for the representation's own measures).
template <class Analysis>
void mechanisms_follow_the_reference(Analysis& analysis, const MechanismsCase& mechanism, const char* name,
                                     MechanismsKinematicsRun& run) {
  const auto reference = testing::read_seed002_reference(mechanism.csv);
  const std::vector<double>& time = reference.at("time");
  ASSERT_EQ(time.size(), 201u);
  ASSERT_TRUE(analysis.accelerate(0.0)) << name << " " << mechanism.csv;
  double previous_t = 0.0;
  long long iterations = 0, solves = 0, skipped = 0;
  for (size_t row = 0; row < time.size(); ++row) {
    const double t = time[row];
    if (mechanisms_is_singular_instant(mechanism, t)) {
      ++skipped;
      continue;
    }
    if (row > 0) {
      analysis.predict(t - previous_t);
      int taken = 0;
      ASSERT_TRUE(analysis.solve(t, taken)) << name << " " << mechanism.csv << " t " << t;
      iterations += taken, ++solves;
      ASSERT_TRUE(analysis.accelerate(t)) << name << " " << mechanism.csv << " t " << t;
    }
    previous_t = t;
    run.position = std::fmax(run.position, analysis.cm_difference(reference, mechanism, row, false));
    run.velocity = std::fmax(run.velocity, analysis.cm_difference(reference, mechanism, row, true));
    analysis.observe();
  }
  EXPECT_EQ(skipped, std::isinf(mechanism.singular_period)
                         ? 0
                         : static_cast<long long>(std::lround(2.0 / mechanism.singular_period)));
  EXPECT_LT(run.position, 1e-8) << name << " " << mechanism.csv;
  EXPECT_LT(run.velocity, 1e-8) << name << " " << mechanism.csv;
  run.rows = solves + 1;
  run.mean_iterations = static_cast<double>(iterations) / static_cast<double>(solves);
  EXPECT_GE(run.mean_iterations, 1.0) << name;
  EXPECT_LT(run.mean_iterations, 5.0)
      << name;  // seed 002 Table 9: 4.5-4.8 at h = 1e-3 from the last position
  std::printf("%s %s: CM position %.2g m, velocity %.2g m/s over %lld rows; %.2f Newton iterations per step",
              mechanism.csv, name, run.position, run.velocity, run.rows, run.mean_iterations);
}

// rp or re: AbsoluteKinematics on q, q', q''; observes re's smallest sin(theta) (the frames' promise).
template <class Rep>
struct MechanismsCoordinateAnalysis {
  static constexpr int NQ = AbsoluteKinematics<Rep, 3, 18>::NQ;
  AbsoluteKinematics<Rep, 3, 18> kinematics;
  std::vector<double> q, q_dot, q_ddot;
  double smallest_sin_theta = 1.0;
  bool accelerate(double t) { return kinematics.accelerations(t, q.data(), q_dot.data(), q_ddot.data()); }
  void predict(double h) {
    for (int i = 0; i < NQ; ++i) q[i] += h * q_dot[i] + 0.5 * h * h * q_ddot[i];
  }
  bool solve(double t, int& taken) {
    return kinematics.positions(t, q.data(), taken) && kinematics.velocities(t, q.data(), q_dot.data());
  }
  double cm_difference(const MechanismsReference& reference, const MechanismsCase& mechanism, size_t row,
                       bool velocity) const {
    return mechanisms_cm_difference<Rep>(reference, mechanism, row, velocity ? q_dot.data() : q.data(),
                                         velocity);
  }
  void observe() {
    if (!Rep::kNormalized)
      for (int b = 0; b < 3; ++b)
        smallest_sin_theta =
            std::fmin(smallest_sin_theta, std::fabs(std::sin(q[b * (3 + Rep::kOrientation) + 4])));
  }
};

template <class Rep>
void mechanisms_check_kinematics(const MechanismsModel& model, const std::vector<double>& y0,
                                 const MechanismsCase& mechanism, double smallest_sin_theta_bound) {
  using Analysis = MechanismsCoordinateAnalysis<Rep>;
  ASSERT_EQ(y0.size(), static_cast<size_t>(2 * Analysis::NQ));
  Analysis analysis;
  analysis.kinematics.dae.model = &model;
  analysis.q.assign(y0.begin(), y0.begin() + Analysis::NQ);
  analysis.q_dot.assign(y0.begin() + Analysis::NQ, y0.end());
  analysis.q_ddot.resize(Analysis::NQ);
  MechanismsKinematicsRun run;
  mechanisms_follow_the_reference(analysis, mechanism, Rep::kName, run);
  if (!Rep::kNormalized) {
    EXPECT_GT(analysis.smallest_sin_theta, smallest_sin_theta_bound) << mechanism.csv;
    std::printf("; smallest sin(theta) %.3f", analysis.smallest_sin_theta);
  }
  std::printf("\n");
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

// rA: RotationMatrixKinematics on the state (r, A, r', omega-bar) and (r'', omega-bar'); observes |A^T A - I|
// (the position analysis turns A by exponentials only, so it stays on SO(3)).
struct MechanismsRotationMatrixAnalysis {
  RotationMatrixKinematics<3, 18> kinematics;
  RotationMatrixState<3> s;
  Vec3<double> r_ddot[3], omega_bar_dot[3];
  double orthonormality = 0.0;
  bool accelerate(double t) { return kinematics.accelerations(t, s, r_ddot, omega_bar_dot); }
  void predict(double h) {
    for (int b = 0; b < 3; ++b) {
      s.r[b] += h * s.r_dot[b] + (0.5 * h * h) * r_ddot[b];
      s.A[b] = rotation_update(s.A[b], h * s.omega_bar[b] + (0.5 * h * h) * omega_bar_dot[b]);
    }
  }
  bool solve(double t, int& taken) {
    return kinematics.positions(t, s, taken) && kinematics.velocities(t, s);
  }
  double cm_difference(const MechanismsReference& reference, const MechanismsCase& mechanism, size_t row,
                       bool velocity) const {
    return mechanisms_cm_difference_rotation_matrix(reference, mechanism, row, s, velocity);
  }
  void observe() {
    for (int b = 0; b < 3; ++b)
      orthonormality =
          std::fmax(orthonormality, ::myriad::testing::rotation_matrix_orthonormality_error(s.A[b]));
  }
};

// From the mechanism's poses through seed002_driven_rotation_matrix_start.
void mechanisms_check_rotation_matrix_kinematics(const MechanismsModel& model,
                                                 const MechanismsCase& mechanism,
                                                 const RotationMatrixState<3>& poses) {
  MechanismsRotationMatrixAnalysis analysis;
  analysis.kinematics.dynamics.model = &model;
  analysis.s = poses;
  ASSERT_TRUE(seed002_driven_rotation_matrix_start(model, analysis.s, 0.0)) << mechanism.csv;
  MechanismsKinematicsRun run;
  mechanisms_follow_the_reference(analysis, mechanism, "rA", run);
  EXPECT_LT(analysis.orthonormality, 1e-13) << mechanism.csv;  // rounding of 200 position analyses: 1.2e-14
  std::printf("; |A^T A - I| %.2g\n", analysis.orthonormality);
}

TEST(Seed002Mechanisms, SliderCrankKinematicsMatchesTheJointCoordinateEngineTo1e8InRA) {
  mechanisms_check_rotation_matrix_kinematics(seed002_slider_crank(), kMechanismsSliderCrank,
                                              seed002_slider_crank_poses());
}

TEST(Seed002Mechanisms, FourLinkStandInKinematicsMatchesTheJointCoordinateEngineTo1e8InRA) {
  mechanisms_check_rotation_matrix_kinematics(four_link_stand_in(), kMechanismsFourLink,
                                              four_link_stand_in_poses());
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

// rA: the same with RotationMatrixDynamics::accelerations (eq. 31 with the acceleration-level constraints),
// at t = 0 equal to rA's kinematic accelerations (r'', omega-bar'), integrated by RK4 in the Lie algebra
// (RKMK, tests/support/seed002_reference.hpp, as the rA double pendulum) at h = 2e-3 s to `t_end`, with A on
// SO(3) throughout; the constraints themselves are not imposed, so their drift is the integration's error.
// From the mechanism's poses through seed002_driven_rotation_matrix_start.
void mechanisms_check_rotation_matrix_dynamics(const MechanismsModel& model, const MechanismsCase& mechanism,
                                               RotationMatrixState<3> s, double t_end) {
  ASSERT_TRUE(seed002_driven_rotation_matrix_start(model, s, 0.0)) << mechanism.csv;
  ASSERT_LT(t_end, mechanism.first_singular_time);
  RotationMatrixDynamics<3, 18> dynamics;
  dynamics.model = &model;
  RotationMatrixKinematics<3, 18> kinematics;
  kinematics.dynamics.model = &model;
  Vec3<double> r_ddot[3], omega_bar_dot[3], r_ddot_kinematics[3], omega_bar_dot_kinematics[3];
  double lambda[18], start_difference = 0.0;
  ASSERT_TRUE(dynamics.accelerations(0.0, s, r_ddot, omega_bar_dot, lambda));
  ASSERT_TRUE(kinematics.accelerations(0.0, s, r_ddot_kinematics, omega_bar_dot_kinematics));
  for (int b = 0; b < 3; ++b)
    start_difference =
        std::fmax(start_difference, std::fmax(norm(r_ddot[b] - r_ddot_kinematics[b]),
                                              norm(omega_bar_dot[b] - omega_bar_dot_kinematics[b])));
  EXPECT_LT(start_difference, 1e-10) << mechanism.csv;

  const auto reference = testing::read_seed002_reference(mechanism.csv);
  const ::myriad::testing::RotationMatrixRkmk4<3, 18> rkmk{&dynamics};
  const double h = 2e-3;
  const int per_row = 5;  // steps per 0.01 s
  const int steps = per_row * static_cast<int>(std::lround(t_end / 0.01));
  double worst = 0.0, orthonormality = 0.0, drift = 0.0;
  for (int step = 1; step <= steps; ++step) {
    ASSERT_TRUE(rkmk.step((step - 1) * h, h, s)) << mechanism.csv << " step " << step;
    for (int b = 0; b < 3; ++b)
      orthonormality =
          std::fmax(orthonormality, ::myriad::testing::rotation_matrix_orthonormality_error(s.A[b]));
    if (step % per_row != 0) continue;
    const size_t row = static_cast<size_t>(step / per_row);
    ASSERT_NEAR(reference.at("time")[row], step * h, 1e-12);
    worst = std::fmax(worst, mechanisms_cm_difference_rotation_matrix(reference, mechanism, row, s, false));
    drift = std::fmax(drift, ::myriad::testing::rotation_matrix_constraint_violation(dynamics, step * h, s));
  }
  EXPECT_LT(worst, 1e-8) << mechanism.csv;
  EXPECT_LT(orthonormality, 1e-13) << mechanism.csv;
  std::printf(
      "%s rA: index-1 dynamics (RKMK4) to %.2f s: largest CM difference %.2g m, constraint drift %.2g, "
      "|A^T A - I| %.2g; start accelerations against the kinematics' %.2g\n",
      mechanism.csv, t_end, worst, drift, orthonormality, start_difference);
}

TEST(Seed002Mechanisms, SliderCrankIndexOneDynamicsFollowsTheDriveTo1e8InRA) {
  mechanisms_check_rotation_matrix_dynamics(seed002_slider_crank(), kMechanismsSliderCrank,
                                            seed002_slider_crank_poses(), 0.2);
}

TEST(Seed002Mechanisms, FourLinkStandInIndexOneDynamicsFollowsTheDriveTo1e8InRA) {
  mechanisms_check_rotation_matrix_dynamics(four_link_stand_in(), kMechanismsFourLink,
                                            four_link_stand_in_poses(), 0.4);
}

// Driven on the angle itself instead of its cosine (seed002_angle_driven), both mechanisms follow the joint-
// coordinate engine through every reference row, kinematics and index-1 dynamics, over the whole 2 s (four
// turns of the crank, two of the rotor) in rA, rp and re.
TEST(Seed002Mechanisms, WithAnAngleDriverTheKinematicsMatchesTheJointCoordinateEngineOverTheWholeRun) {
  const MechanismsModel crank = seed002_slider_crank_angle_driven(), rotor = four_link_stand_in_angle_driven();
  const RotationMatrixState<3> crank_poses = seed002_slider_crank_poses(), rotor_poses = four_link_stand_in_poses();
  mechanisms_check_kinematics<EulerParameterCoordinates>(
      crank, seed002_driven_start<EulerParameterCoordinates>(crank, crank_poses, 0.0), kMechanismsSliderCrankAngle,
      0.0);
  mechanisms_check_kinematics<EulerAngleCoordinates>(
      crank, seed002_driven_start<EulerAngleCoordinates>(crank, crank_poses, 0.0), kMechanismsSliderCrankAngle, 0.74);
  mechanisms_check_rotation_matrix_kinematics(crank, kMechanismsSliderCrankAngle, crank_poses);
  mechanisms_check_kinematics<EulerParameterCoordinates>(
      rotor, seed002_driven_start<EulerParameterCoordinates>(rotor, rotor_poses, 0.0), kMechanismsFourLinkAngle, 0.0);
  mechanisms_check_kinematics<EulerAngleCoordinates>(
      rotor, seed002_driven_start<EulerAngleCoordinates>(rotor, rotor_poses, 0.0), kMechanismsFourLinkAngle, 0.55);
  mechanisms_check_rotation_matrix_kinematics(rotor, kMechanismsFourLinkAngle, rotor_poses);
}

TEST(Seed002Mechanisms, WithAnAngleDriverTheIndexOneDynamicsFollowsTheDriveOverTheWholeRun) {
  const MechanismsModel crank = seed002_slider_crank_angle_driven(), rotor = four_link_stand_in_angle_driven();
  const RotationMatrixState<3> crank_poses = seed002_slider_crank_poses(), rotor_poses = four_link_stand_in_poses();
  mechanisms_check_dynamics<EulerParameterCoordinates>(
      crank, seed002_driven_start<EulerParameterCoordinates>(crank, crank_poses, 0.0), kMechanismsSliderCrankAngle,
      2.0);
  mechanisms_check_dynamics<EulerAngleCoordinates>(
      crank, seed002_driven_start<EulerAngleCoordinates>(crank, crank_poses, 0.0), kMechanismsSliderCrankAngle, 2.0);
  mechanisms_check_rotation_matrix_dynamics(crank, kMechanismsSliderCrankAngle, crank_poses, 2.0);
  mechanisms_check_dynamics<EulerParameterCoordinates>(
      rotor, seed002_driven_start<EulerParameterCoordinates>(rotor, rotor_poses, 0.0), kMechanismsFourLinkAngle, 2.0);
  mechanisms_check_dynamics<EulerAngleCoordinates>(
      rotor, seed002_driven_start<EulerAngleCoordinates>(rotor, rotor_poses, 0.0), kMechanismsFourLinkAngle, 2.0);
  mechanisms_check_rotation_matrix_dynamics(rotor, kMechanismsFourLinkAngle, rotor_poses, 2.0);
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
struct MechanismsEulerErrors {
  double position = 0.0, velocity = 0.0, acceleration = 0.0, multipliers = 0.0;  // largest at t_end
};

// The three runs of one representation and their fitted orders: run(steps, errors, stats) integrates 0.03 s
// in `steps` steps and measures the CM positions (rA: and A), CM velocities, CM accelerations and multipliers
// at the end against the reference.
template <class Run>
void mechanisms_check_euler_orders(const char* name, double t_end, const Run& run) {
  std::vector<double> dts, position, velocity, acceleration, multipliers;
  long long iterations = 0, points = 0;
  int most = 0;
  for (long long steps : {3, 6, 12}) {
    MechanismsEulerErrors errors;
    ImplicitStats stats;
    run(steps, errors, stats);
    if (::testing::Test::HasFatalFailure()) return;
    iterations += stats.newton_iterations, points += stats.points;
    most = std::max(most, stats.max_point_iterations);
    dts.push_back(t_end / static_cast<double>(steps));
    position.push_back(errors.position), velocity.push_back(errors.velocity);
    acceleration.push_back(errors.acceleration), multipliers.push_back(errors.multipliers);
  }
  for (double p : position) EXPECT_LT(p, 1e-12) << name;
  const double velocity_order = myriad::testing::fitted_order(dts, velocity),
               acceleration_order = myriad::testing::fitted_order(dts, acceleration),
               multiplier_order = myriad::testing::fitted_order(dts, multipliers);
  EXPECT_NEAR(velocity_order, 1.0, 0.1) << name;
  EXPECT_NEAR(acceleration_order, 1.0, 0.1) << name;
  EXPECT_NEAR(multiplier_order, 1.0, 0.1) << name;
  const double mean_iterations = static_cast<double>(iterations) / static_cast<double>(points);
  EXPECT_LT(mean_iterations, 5.0) << name;
  std::printf(
      "slider crank %s backward Euler: positions within %.2g m; orders velocity %.3f, acceleration %.3f, "
      "lambda %.3f; %.2f Newton iterations per step (at most %d)\n",
      name, std::fmax(position[0], std::fmax(position[1], position[2])), velocity_order, acceleration_order,
      multiplier_order, mean_iterations, most);
}

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
  mechanisms_check_euler_orders(
      Rep::kName, t_end, [&](long long steps, MechanismsEulerErrors& e, ImplicitStats& stats) {
        std::vector<double> work(static_cast<size_t>(implicit_workspace_size(Dae::NY, NZ)));
        std::vector<double> y_end(Dae::NY), ydot_end(Dae::NY), z_end(NZ);
        auto observer = [&](long long, double, const double* y, const double* ydot, const double* z) {
          for (int i = 0; i < Dae::NY; ++i) y_end[i] = y[i], ydot_end[i] = ydot[i];
          for (int c = 0; c < NZ; ++c) z_end[c] = z[c];
        };
        ASSERT_EQ(integrate_implicit(dae, euler, 0.0, t_end / static_cast<double>(steps), steps, y0.data(),
                                     work.data(), ImplicitOptions(), stats, observer),
                  InstanceStatus::ok)
            << Rep::kName << " " << steps;
        for (int b = 0; b < 3; ++b)
          for (int k = 0; k < 3; ++k) {
            const int i = b * Dae::kPerBody + k;
            e.position = std::fmax(e.position, std::fabs(y_end[i] - y_reference[i]));
            e.velocity = std::fmax(e.velocity, std::fabs(y_end[NQ + i] - y_reference[NQ + i]));
            e.acceleration = std::fmax(e.acceleration, std::fabs(ydot_end[NQ + i] - q_ddot_reference[i]));
          }
        for (int c = 0; c < NZ; ++c)
          e.multipliers = std::fmax(e.multipliers, std::fabs(z_end[c] - z_reference[c]));
      });
}

TEST(Seed002Mechanisms, BackwardEulerOnTheSliderCrankKeepsPositionsExactAndConvergesWithOrderOneInRp) {
  mechanisms_check_backward_euler<EulerParameterCoordinates>();
}

TEST(Seed002Mechanisms, BackwardEulerOnTheSliderCrankKeepsPositionsExactAndConvergesWithOrderOneInRe) {
  mechanisms_check_backward_euler<EulerAngleCoordinates>();
}

// rA: eqs. 32-38 (integrate_rotation_matrix_backward_euler, eq. 38's exact iteration matrix), against rA's
// kinematics analysis at t_end and (r'', omega-bar', lambda) of rA's forward dynamics there; A stays on SO(3)
// and Phi = 0 at every step.
TEST(Seed002Mechanisms, BackwardEulerOnTheSliderCrankKeepsPositionsExactAndConvergesWithOrderOneInRA) {
  using Dynamics = RotationMatrixDynamics<3, 18>;
  constexpr int NV = Dynamics::NV, NX = Dynamics::NX;
  const MechanismsModel model = seed002_slider_crank();
  Dynamics dynamics;
  dynamics.model = &model;
  std::vector<double> scratch(static_cast<size_t>(dynamics.integration_scratch_size()));
  RotationMatrixState<3> start = seed002_slider_crank_poses();
  ASSERT_TRUE(seed002_driven_rotation_matrix_start(model, start, 0.0));
  const double t_end = 0.03;
  RotationMatrixKinematics<3, 18> kinematics;
  kinematics.dynamics.model = &model;
  RotationMatrixState<3> reference = start;
  int taken = 0;
  ASSERT_TRUE(kinematics.positions(t_end, reference, taken, 1e-14));
  ASSERT_TRUE(kinematics.velocities(t_end, reference));
  double x_reference[NX];
  ASSERT_TRUE(dynamics.accelerations(t_end, reference, x_reference));

  double orthonormality = 0.0, violation = 0.0;
  mechanisms_check_euler_orders(
      "rA", t_end, [&](long long steps, MechanismsEulerErrors& e, ImplicitStats& stats) {
        RotationMatrixState<3> s = start;
        double x[NX];
        auto observer = [&](long long, double t, const RotationMatrixState<3>& now, const double*) {
          for (int b = 0; b < 3; ++b)
            orthonormality =
                std::fmax(orthonormality, ::myriad::testing::rotation_matrix_orthonormality_error(now.A[b]));
          violation =
              std::fmax(violation, ::myriad::testing::rotation_matrix_constraint_violation(dynamics, t, now));
        };
        ASSERT_EQ(integrate_rotation_matrix_backward_euler(
                      dynamics, 0.0, t_end / static_cast<double>(steps), steps, s, x, ImplicitOptions(),
                      RotationMatrixIterationMatrix::exact, stats, scratch.data(), observer),
                  InstanceStatus::ok)
            << steps;
        for (int b = 0; b < 3; ++b)
          for (int k = 0; k < 3; ++k) {
            e.position = std::fmax(e.position, std::fabs(s.r[b][k] - reference.r[b][k]));
            for (int j = 0; j < 3; ++j)
              e.position = std::fmax(e.position, std::fabs(s.A[b].m[k][j] - reference.A[b].m[k][j]));
            e.velocity = std::fmax(e.velocity, std::fabs(s.r_dot[b][k] - reference.r_dot[b][k]));
            const int i = Dynamics::kPerBody * b + k;
            e.acceleration = std::fmax(e.acceleration, std::fabs(x[i] - x_reference[i]));
          }
        for (int c = 0; c < 18; ++c)
          e.multipliers = std::fmax(e.multipliers, std::fabs(x[NV + c] - x_reference[NV + c]));
      });
  EXPECT_LT(orthonormality, 1e-14);
  EXPECT_LT(violation, 1e-12);
  std::printf("slider crank rA backward Euler: |A^T A - I| %.2g, |Phi| %.2g at every step\n", orthonormality,
              violation);
}

}  // namespace
}  // namespace myriad
