// Seed 002's dynamics in absolute coordinates (absolute/absolute_dynamics.hpp): on its single pendulum, a 4 m,
// 78 kg rod hinged at one end (here released from the horizontal, undriven), the consistent start against the
// physical pendulum's closed form and backward Euler (seed 002 eqs. 40-45) converging with order 1 in position,
// velocity and acceleration for the rp and re representations, with the Euler-parameter normalization held; on
// its double pendulum, the absolute-coordinate equations of motion integrated tightly against Myriad's
// joint-coordinate engine (tests/data/seed002/double_pendulum_reference.csv, DOPRI5 at 1e-12).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absolute/absolute_dynamics.hpp"
#include "absolute/model_mapping.hpp"
#include "absolute/seed002_mechanisms.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "integrators/implicit_integrate.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"
#include "support/second_order_reference.hpp"
#include "support/seed002_reference.hpp"

namespace myriad {
namespace {

template <class Rep>
void check_consistent_start() {
  const AbsoluteModel<1, 5> model = seed002_single_pendulum();
  AbsoluteDae<Rep, 1, 5> dae;
  dae.model = &model;
  const std::vector<double> y0 = seed002_pendulum_start<Rep>(1);
  double ydot[AbsoluteDae<Rep, 1, 5>::NY], z[AbsoluteDae<Rep, 1, 5>::NZ], r[AbsoluteDae<Rep, 1, 5>::NY + AbsoluteDae<Rep, 1, 5>::NZ];
  ASSERT_TRUE(dae.consistent_start(0.0, y0.data(), ydot, z)) << Rep::kName;
  ASSERT_TRUE(dae.residual(0.0, y0.data(), ydot, z, r));
  for (double value : r) EXPECT_NEAR(value, 0.0, 1e-11) << Rep::kName;
  const int NQ = AbsoluteDae<Rep, 1, 5>::NQ;
  // At rest, horizontal: the CM accelerates straight down at (L/2)^2 m g / I_O = 7.3575 m/s^2.
  EXPECT_NEAR(ydot[NQ + 0], 0.0, 1e-12) << Rep::kName;
  EXPECT_NEAR(ydot[NQ + 1], 0.0, 1e-12) << Rep::kName;
  EXPECT_NEAR(ydot[NQ + 2], -2.0 * 78.0 * 9.81 * 2.0 / 416.0, 1e-11) << Rep::kName;
}

TEST(AbsoluteDynamics, ConsistentStartGivesThePhysicalPendulumsAcceleration) {
  check_consistent_start<EulerParameterCoordinates>();
  check_consistent_start<EulerAngleCoordinates>();
}

template <class Rep>
void check_backward_euler_order() {
  const AbsoluteModel<1, 5> model = seed002_single_pendulum();
  AbsoluteDae<Rep, 1, 5> dae;
  dae.model = &model;
  using Dae = AbsoluteDae<Rep, 1, 5>;
  const double t_end = 0.5;
  double z_ref, z_dot_ref, z_ddot_ref;
  testing::seed002_physical_pendulum(t_end, z_ref, z_dot_ref, z_ddot_ref);
  const std::vector<double> y0 = seed002_pendulum_start<Rep>(1);
  const ImplicitScheme euler = implicit_scheme(ImplicitMethod::backward_euler, 0.0);
  std::vector<double> dts, position, velocity, acceleration;
  for (long long steps : {50, 100, 200, 400}) {
    std::vector<double> work(static_cast<size_t>(implicit_workspace_size(Dae::NY, Dae::NZ)));
    double z = 0, z_dot = 0, z_ddot = 0, normalization = 0;
    auto observer = [&](long long, double, const double* y, const double* ydot, const double*) {
      z = y[2], z_dot = y[Dae::NQ + 2], z_ddot = ydot[Dae::NQ + 2];
      if (Rep::kNormalized)
        normalization = std::fmax(normalization, std::fabs(y[3] * y[3] + y[4] * y[4] + y[5] * y[5] + y[6] * y[6] - 1.0));
    };
    ImplicitStats stats;
    ASSERT_EQ(integrate_implicit(dae, euler, 0.0, t_end / steps, steps, y0.data(), work.data(), ImplicitOptions(),
                                 stats, observer),
              InstanceStatus::ok)
        << Rep::kName << steps;
    EXPECT_LT(normalization, 1e-13) << Rep::kName;  // an index-3 constraint: held at every point
    EXPECT_LT(static_cast<double>(stats.newton_iterations) / stats.points, 5.0) << Rep::kName;
    dts.push_back(t_end / steps);
    position.push_back(std::fabs(z - z_ref));
    velocity.push_back(std::fabs(z_dot - z_dot_ref));
    acceleration.push_back(std::fabs(z_ddot - z_ddot_ref));
  }
  // Seed 002: backward Euler converges with order 1 (fitted slope 0.9 - 1.1) in positions, velocities and
  // accelerations, for every representation.
  EXPECT_NEAR(testing::fitted_order(dts, position), 1.0, 0.1) << Rep::kName;
  EXPECT_NEAR(testing::fitted_order(dts, velocity), 1.0, 0.1) << Rep::kName;
  EXPECT_NEAR(testing::fitted_order(dts, acceleration), 1.0, 0.1) << Rep::kName;
}

TEST(AbsoluteDynamics, BackwardEulerConvergesWithOrderOneInRpAndRe) {
  check_backward_euler_order<EulerParameterCoordinates>();
  check_backward_euler_order<EulerAngleCoordinates>();
}

template <class Rep>
void check_double_pendulum_against_joint_coordinates() {
  const AbsoluteModel<2, 10> model = seed002_double_pendulum();
  using Dae = AbsoluteDae<Rep, 2, 10>;
  Dae dae;
  dae.model = &model;
  ASSERT_EQ(testing::read_seed002_reference("double_pendulum_reference.csv").at("time").size(), 201u);
  // The index-1 equations (absolute coordinates, unstabilized: the drift over 1 s at this accuracy is ~1e-12)
  // by classical RK4, h = 2e-4, so the integration error is far below the 1e-8 compared.
  std::vector<double> y = seed002_pendulum_start<Rep>(2);
  const double worst = testing::seed002_double_pendulum_difference(dae, y);
  ASSERT_GE(worst, 0.0) << Rep::kName << ": the forward dynamics failed";
  // The motion is large (rod 2's CM travels metres): agreement to 1e-8 m is agreement of the equations.
  EXPECT_LT(worst, 1e-8) << Rep::kName;
  std::printf("%s: largest CM difference %.3g m\n", Rep::kName, worst);
  EXPECT_GT(std::fabs(y[Dae::kPerBody + 2] - (-1.0)), 0.1) << Rep::kName << ": the pendulum must have moved";
}

TEST(AbsoluteDynamics, DoublePendulumAgreesWithTheJointCoordinateEngineTo1e8) {
  check_double_pendulum_against_joint_coordinates<EulerParameterCoordinates>();
  check_double_pendulum_against_joint_coordinates<EulerAngleCoordinates>();
}

}  // namespace
}  // namespace myriad

namespace myriad {
namespace {

// The assembled residual Jacobians (AbsoluteDae::residual_jacobians: per body, per GCON, per RSDA on small duals)
// equal the dual numbers through the whole residual (dual_residual_jacobians_whole), entry by entry, at arbitrary
// (y, y', z) (the identity holds off the constraint manifold too): the double pendulum, the driven slider crank at
// t = 0.3, and a pendulum with two RSDAs (one to the ground, one between the bodies), in rp and re.
template <class Rep, int NB, int NC>
double absolute_assembled_jacobian_difference(const AbsoluteModel<NB, NC>& model, std::vector<double> y,
                                              unsigned seed) {
  using Dae = AbsoluteDae<Rep, NB, NC>;
  Dae dae;
  dae.model = &model;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  std::vector<double> ydot(Dae::NY), z(Dae::NZ);
  for (double& value : y) value += u(rng);
  for (double& value : ydot) value = 10.0 * u(rng);
  for (double& value : z) value = 100.0 * u(rng);
  constexpr int NR = Dae::NY + Dae::NZ;
  std::vector<double> r1(NR), r2(NR), y1(NR * Dae::NY), y2(NR * Dae::NY), d1(NR * Dae::NY), d2(NR * Dae::NY),
      z1(NR * Dae::NZ), z2(NR * Dae::NZ);
  EXPECT_TRUE(dae.residual_jacobians(0.3, y.data(), ydot.data(), z.data(), r1.data(), y1.data(), d1.data(), z1.data()));
  EXPECT_TRUE(dae.dual_residual_jacobians_whole(0.3, y.data(), ydot.data(), z.data(), r2.data(), y2.data(),
                                                d2.data(), z2.data()));
  double scale = 1.0, worst = 0.0;
  for (size_t i = 0; i < y1.size(); ++i) scale = std::fmax(scale, std::fabs(y2[i]));
  for (size_t i = 0; i < y1.size(); ++i)
    worst = std::fmax(worst, std::fmax(std::fabs(y1[i] - y2[i]), std::fabs(d1[i] - d2[i])));
  for (size_t i = 0; i < z1.size(); ++i) worst = std::fmax(worst, std::fabs(z1[i] - z2[i]));
  for (int i = 0; i < NR; ++i) worst = std::fmax(worst, std::fabs(r1[i] - r2[i]));
  return worst / scale;
}

// A shipped model file (its parameter defaults applied) mapped for representation Rep (re: the bodies' axes off the
// gimbal lock), with its compiled model and packed constants, which the engine's force laws read.
template <class Rep>
struct AbsoluteFile {
  Model literal;
  std::unique_ptr<CompiledModel> compiled;
  std::vector<double> constants;
  AbsoluteMapping mapping;
  AbsoluteFile(const std::string& name, RevoluteDriverGcon drivers) {
    const Model loaded = load_model_file(std::string(MYRIAD_SOURCE_DIR) + "/models/" + name);
    literal = apply_parameters(loaded, default_parameter_values(loaded));
    compiled = compile(loaded);
    constants.assign(static_cast<size_t>(compiled->n_constants) + 1, 0.0);
    pack_constants(*compiled, literal, constants.data());
    mapping = map_to_absolute(literal, drivers,
                              Rep::kNormalized ? BodyAxisOrder::as_found : BodyAxisOrder::z_away_from_world_z);
  }
  template <int NB, int NC>
  AbsoluteModel<NB, NC> model() const {
    AbsoluteModel<NB, NC> m = absolute_model<NB, NC>(mapping);
    m.compiled = compiled.get(), m.constants = constants.data();
    return m;
  }
  std::vector<double> start() const { return absolute_state<Rep>(mapping, world_body_states(literal)); }
};

template <class Rep>
void absolute_check_assembled_jacobians() {
  const double pendulum = absolute_assembled_jacobian_difference<Rep>(seed002_double_pendulum(),
                                                                      seed002_pendulum_start<Rep>(2), 11);
  const double crank =
      absolute_assembled_jacobian_difference<Rep>(seed002_slider_crank(), seed002_slider_crank_start<Rep>(), 12);
  AbsoluteModel<2, 10> sprung = seed002_double_pendulum();
  sprung.rsda_count = 2;
  sprung.rsdas[0].body_i = 0, sprung.rsdas[0].body_j = 1;
  sprung.rsdas[0].axis_bar_i = {1.0, 0.0, 0.0}, sprung.rsdas[0].reference_bar_i = {0.0, 1.0, 0.0};
  sprung.rsdas[0].reference_bar_j = {1.0, 0.0, 0.0};
  sprung.rsdas[0].stiffness = 400.0, sprung.rsdas[0].damping = 15.0, sprung.rsdas[0].zero_angle = 0.3;
  sprung.rsdas[1] = sprung.rsdas[0];
  sprung.rsdas[1].body_i = 1, sprung.rsdas[1].body_j = 2, sprung.rsdas[1].axis_bar_i = {0.0, 0.0, 1.0};
  sprung.rsdas[1].reference_bar_i = {1.0, 0.0, 0.0}, sprung.rsdas[1].stiffness = 3e5, sprung.rsdas[1].damping = 5e4;
  const double springs = absolute_assembled_jacobian_difference<Rep>(sprung, seed002_pendulum_start<Rep>(2), 13);
  // A model file's TSDAs mapped: the quarter car's suspension and tire spring-dampers, their laws the compiled
  // model's, the tire's ground end riding the road.
  const AbsoluteFile<Rep> quarter_car("quarter_car.json", RevoluteDriverGcon::dp1_cosine);
  AbsoluteModel<2, 10> tsdas = quarter_car.template model<2, 10>();
  ASSERT_EQ(tsdas.tsda_count, 2);
  const double tsda = absolute_assembled_jacobian_difference<Rep>(tsdas, quarter_car.start(), 14);
  // The engine mount's three bushings (the joint-coordinate engine's law between mapped frames) on its one free
  // body. The whole-residual duals take the capacities as the model's counts: one body and one GCON (a DP1 added
  // to the free body; the identity holds with any constraint).
  const AbsoluteFile<Rep> mount("engine_mount.json", RevoluteDriverGcon::angle);
  AbsoluteModel<1, 1> bushings = mount.template model<1, 1>();
  bushings.gcons[0] = make_dp1<double>(0, Vec3<double>{0.0, 0.0, 1.0}, 1, Vec3<double>{1.0, 0.0, 0.0}, 0.0);
  bushings.gcon_count = 1;
  ASSERT_EQ(bushings.bushing_count, 3);
  const double bushing = absolute_assembled_jacobian_difference<Rep>(bushings, mount.start(), 15);
  // The driven wheel's handling tire (Magic Formula on the wheel body, its drive torque an RSDA actuator), in
  // contact at the start: 3 bodies and 15 GCONs, the full counts.
  const AbsoluteFile<Rep> wheel("driven_wheel.json", RevoluteDriverGcon::angle);
  AbsoluteModel<3, 15> tires = wheel.template model<3, 15>();
  ASSERT_EQ(tires.tire_count, 1);
  const double tire = absolute_assembled_jacobian_difference<Rep>(tires, wheel.start(), 16);
  EXPECT_LT(bushing, 1e-13) << Rep::kName;
  EXPECT_LT(tire, 1e-13) << Rep::kName;
  EXPECT_LT(pendulum, 1e-13) << Rep::kName;
  EXPECT_LT(crank, 1e-13) << Rep::kName;
  EXPECT_LT(springs, 1e-13) << Rep::kName;
  EXPECT_LT(tsda, 1e-13) << Rep::kName;
  std::printf("%s: assembled against whole-residual dual Jacobians, relative %.2g, %.2g, %.2g, %.2g, %.2g, %.2g\n",
              Rep::kName, pendulum, crank, springs, tsda, bushing, tire);
}

TEST(AbsoluteDynamics, AssembledResidualJacobiansEqualDualNumbersThroughTheWholeResidual) {
  absolute_check_assembled_jacobians<EulerParameterCoordinates>();
  absolute_check_assembled_jacobians<EulerAngleCoordinates>();
}

}  // namespace
}  // namespace myriad
