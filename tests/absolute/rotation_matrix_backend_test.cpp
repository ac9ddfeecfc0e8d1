// Model files in seed 002's rA formulation (RunOptions::coordinates = "rA": absolute/rotation_matrix_dynamics.hpp's
// backward Euler on SO(3), run by backends/absolute_backend.cpp): the force elements' terms in eq. 38's iteration
// matrix against the dual-number Jacobian of the residual, order 1 towards the joint-coordinate run, every model
// file the mapping expresses whole within backward Euler's own error, and the refusal of other methods.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absolute/model_mapping.hpp"
#include "absolute/rotation_matrix_dynamics.hpp"
#include "api/myriad/myriad.hpp"
#include "backends/absolute_backend.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"
#include "model/time_function_packing.hpp"
#include "support/signal_difference.hpp"

namespace myriad {
namespace {

using ::myriad::testing::largest_signal_difference;

// Eq. 38's exact G^A with the model file's force elements (RSDAs, TSDAs with their compiled laws and moving ground
// ends, translational actuators as u(t) Phi_q^T, bushings, a handling tire) equals the dual-number Jacobian of the residual g^A, at a moving
// state (random joint velocities, so the dampers act) and an arbitrary iterate x. The engine runs with capacities
// above the model's counts, so the run-time layout (nx wide, not NX) is what is checked.
template <int NB, int NC>
void check_force_jacobian(const char* file, unsigned seed) {
  const Model loaded = load_model_file(std::string(MYRIAD_SOURCE_DIR) + "/models/" + file);
  const Model literal = apply_parameters(loaded, default_parameter_values(loaded));
  const auto compiled = compile(loaded);
  std::vector<double> constants(static_cast<size_t>(compiled->n_constants) + 1);
  pack_constants(*compiled, literal, constants.data());
  const AbsoluteMapping mapping = map_to_absolute(literal, RevoluteDriverGcon::angle);
  ASSERT_TRUE(mapping.missing.empty()) << file;
  std::vector<std::vector<double>> coefficients;
  AbsoluteModel<NB, NC> model = absolute_model<NB, NC>(mapping);
  model.compiled = compiled.get(), model.constants = constants.data();
  for (size_t d = 0; d < literal.drivers.size(); ++d) {
    coefficients.emplace_back();
    model.drivers[d].points = pack_time_function(literal.drivers[d].function, coefficients.back());
    model.drivers[d].time_function = packed_time_function_kind(literal.drivers[d].function);
    model.drivers[d].coefficients = coefficients.back().data();
  }
  using Dynamics = RotationMatrixDynamics<NB, NC>;
  Dynamics dynamics;
  dynamics.model = &model;
  const int nx = dynamics.unknown_count(), nv = dynamics.velocity_count();
  ASSERT_LT(nx, Dynamics::NX) << file;

  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<WorldBodyState> moving = world_body_states(literal);
  for (WorldBodyState& b : moving) {
    b.v_cm = b.v_cm + Vec3<double>{u(rng), u(rng), u(rng)};
    b.w = b.w + Vec3<double>{2.0 * u(rng), 2.0 * u(rng), 2.0 * u(rng)};
  }
  RotationMatrixState<NB> s;
  for (size_t b = 0; b < moving.size(); ++b) {
    s.A[b] = moving[b].R_WB * mapping.bodies[b].R_BP;
    s.r[b] = moving[b].p_cm, s.r_dot[b] = moving[b].v_cm;
    s.omega_bar[b] = transpose_times(s.A[b], moving[b].w);
  }
  std::vector<double> x(static_cast<size_t>(Dynamics::NX), 0.0);
  for (int i = 0; i < nx; ++i) x[static_cast<size_t>(i)] = (i < nv ? 3.0 : 200.0) * u(rng);
  const double t = 0.31, h = 2e-3;

  using D = Dual<double, Dynamics::NX>;
  std::vector<D> xd(static_cast<size_t>(Dynamics::NX)), gd(static_cast<size_t>(Dynamics::NX));
  for (int i = 0; i < nx; ++i) xd[static_cast<size_t>(i)] = D::variable(x[static_cast<size_t>(i)], i);
  auto next_d = std::make_unique<RotationMatrixState<NB, D>>();
  ASSERT_TRUE(dynamics.residual(t, h, s, xd.data(), *next_d, gd.data())) << file;
  RotationMatrixState<NB> next;
  std::vector<double> g(static_cast<size_t>(Dynamics::NX)), phi_q(static_cast<size_t>(NC * Dynamics::NV)),
      G(static_cast<size_t>(Dynamics::NX * Dynamics::NX));
  ASSERT_TRUE(dynamics.residual(t, h, s, x.data(), next, g.data(), phi_q.data()));
  dynamics.iteration_matrix(t, h, next, x.data(), phi_q.data(), RotationMatrixIterationMatrix::exact, G.data());
  double scale = 0.0, difference = 0.0, residual_difference = 0.0, residual_scale = 1.0, forces = 0.0;
  for (int i = 0; i < nx; ++i) {
    const D& r = gd[static_cast<size_t>(i)];
    residual_difference = std::fmax(residual_difference, std::fabs(r.value - g[static_cast<size_t>(i)]));
    residual_scale = std::fmax(residual_scale, std::fabs(g[static_cast<size_t>(i)]));
    for (int j = 0; j < nx; ++j) {
      scale = std::fmax(scale, std::fabs(r.d[j]));
      difference = std::fmax(difference, std::fabs(G[static_cast<size_t>(i * nx + j)] - r.d[j]));
    }
  }
  // The force elements matter here: without them the residual's dynamic rows differ by this much.
  AbsoluteModel<NB, NC> bare = model;
  bare.rsda_count = bare.tsda_count = bare.actuator_count = bare.bushing_count = bare.tire_count = 0;
  Dynamics without;
  without.model = &bare;
  std::vector<double> g_bare(static_cast<size_t>(Dynamics::NX));
  RotationMatrixState<NB> next_bare;
  ASSERT_TRUE(without.residual(t, h, s, x.data(), next_bare, g_bare.data()));
  for (int i = 0; i < nv; ++i)
    forces = std::fmax(forces, std::fabs(g[static_cast<size_t>(i)] - g_bare[static_cast<size_t>(i)]));
  // The laws' dual evaluations round apart from the double ones (a norm, a division) by a few ulps.
  EXPECT_LT(residual_difference, 1e-14 * residual_scale) << file;
  EXPECT_LT(difference, 1e-12 * scale) << file;
  EXPECT_GT(forces, 1.0) << file;
  std::printf("%s (%d bodies, %d GCONs, %d RSDA, %d TSDA, %d actuators, %d bushings, %d tires): G^A against the "
              "dual Jacobian %.2g of %.3g; the force elements move the residual by %.3g\n",
              file, model.body_count, model.gcon_count, model.rsda_count, model.tsda_count, model.actuator_count,
              model.bushing_count, model.tire_count, difference, scale, forces);
}

TEST(RotationMatrixBackend, IterationMatrixWithForceElementsEqualsTheDualJacobianOfTheResidual) {
  check_force_jacobian<3, 12>("quarter_car.json", 5);
  check_force_jacobian<10, 60>("spatial_chain.json", 6);
  check_force_jacobian<2, 4>("engine_mount.json", 7);
  check_force_jacobian<4, 20>("driven_wheel.json", 8);
}

// Runs `file` over [0, t_end] with outputs every t_end / 10: DOPRI5 at 1e-12 in joint coordinates (the reference)
// and backward Euler in rA (steps t_end / n), and on the same grid in joint coordinates and in rp (seed 002's
// index-3 backward Euler with Euler parameters).
struct RotationRuns {
  api::SimulationResult reference, rotation, joints, euler_parameters;
};

RotationRuns rotation_runs(const std::string& file, double t_end, int n, bool with_rp = true) {
  const api::LoadedModel model = api::load_model(file);
  api::SimulateRequest request;
  request.options.t_end = t_end;
  request.options.dt_out = t_end / 10.0;
  request.options.integrator = "dopri5";
  request.options.rtol = 1e-12;
  request.options.atol = 1e-12;
  request.options.backend = "cpu";
  RotationRuns runs;
  runs.reference = api::simulate(model, request);
  request.options.integrator = "backward-euler";
  request.options.rtol.reset();
  request.options.atol.reset();
  request.options.h = t_end / n;
  runs.joints = api::simulate(model, request);
  request.options.coordinates = "rA";
  runs.rotation = api::simulate(model, request);
  if (!with_rp) return runs;
  request.options.coordinates = "rp";
  runs.euler_parameters = api::simulate(model, request);
  return runs;
}

// The fitted order of rA's backward Euler towards the joint-coordinate run over n, 2n and 4n steps in 0.5 s.
void expect_order_one(const char* name, int n) {
  const std::string file = std::string(MYRIAD_SOURCE_DIR) + "/models/" + name;
  double errors[3];
  for (int k = 0; k < 3; ++k) {
    const RotationRuns runs = rotation_runs(file, 0.5, n << k, false);
    ASSERT_EQ(runs.rotation.status[0], 0) << name << ": " << api::status_name(runs.rotation.status[0]);
    errors[k] = largest_signal_difference(runs.rotation, runs.reference);
  }
  const double order = std::log2(errors[0] / errors[2]) / 2.0;
  EXPECT_GT(order, 0.9) << name;
  EXPECT_LT(order, 1.1) << name;
  std::printf("%s: rA backward Euler, largest signal error %.3g, %.3g, %.3g at %d, %d, %d steps: order %.3f\n", name,
              errors[0], errors[1], errors[2], n, 2 * n, 4 * n, order);
}

// Backward Euler in rA converges to the joint-coordinate run with order 1 (seed 002 Table 8's method), the fitted
// order in [0.9, 1.1]: the double pendulum file over 200, 400, 800 steps; the spatial chain (every joint type, RSDA,
// TSDAs, actuators; outputs between grid points interpolated) over 1000, 2000, 4000, where its tumbling bodies are
// past the pre-asymptotic range.
TEST(RotationMatrixBackend, BackwardEulerOnSO3ConvergesWithOrderOneToTheJointCoordinateRun) {
  expect_order_one("double_pendulum_002.json", 200);
}

TEST(RotationMatrixBackend, BackwardEulerOnSO3ConvergesWithOrderOneOnTheSpatialChain) {
  expect_order_one("spatial_chain.json", 1000);
}

// Every shipped model the mapping expresses whole runs in rA from its model file (backward Euler, 2000 steps over
// 0.7 s or the model's own shorter end), every signal within 1.5x the error of seed 002's index-3 backward Euler in
// rp on the same grid, or 3x that of backward Euler in joint coordinates (all against DOPRI5 at 1e-12), or 1e-6 of
// its scale. The index-3 formulations share what the joint coordinates do not have: velocities integrated rather
// than projected (a fully driven four-link: 7.1e-4 in rA and rp, exact in joint coordinates) and Andrews'
// squeezer's stiff 0.03 s (rA 0.23, rp 0.41, joints 0.017). At 500 steps the tumbling spatial chain's errors are
// beyond the asymptotic range (rA 0.68 of a quaternion's scale: the recovered joint quaternion takes the other
// sign of a rotation that far off).
TEST(RotationMatrixBackend, EveryExpressibleModelFileRunsInRAWithinBackwardEulersError) {
  std::vector<std::string> files;
  for (const char* folder : {"/models", "/models/loops"})
    for (const auto& entry : std::filesystem::directory_iterator(std::string(MYRIAD_SOURCE_DIR) + folder))
      if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  int ran = 0;
  for (const std::string& file : files) {
    const Model loaded = load_model_file(file);
    if (loaded.bodies.empty()) continue;
    const Model literal = apply_parameters(loaded, default_parameter_values(loaded));
    if (!absolute_run_refusal(literal).empty()) continue;
    // The HMMWV, the full car, the sedan: their own tests (absolute_backend_test.cpp).
    if (literal.bodies.size() > 16) continue;
    const RotationRuns runs = rotation_runs(file, std::fmin(0.7, literal.simulation.t_end), 2000);
    ASSERT_EQ(runs.reference.status[0], 0) << file;
    ASSERT_EQ(runs.joints.status[0], 0) << file;
    ASSERT_EQ(runs.euler_parameters.status[0], 0) << file;
    ASSERT_EQ(runs.rotation.status[0], 0) << file << ": " << api::status_name(runs.rotation.status[0]);
    const double joints = largest_signal_difference(runs.joints, runs.reference);
    const double rp = largest_signal_difference(runs.euler_parameters, runs.reference);
    const double rotation = largest_signal_difference(runs.rotation, runs.reference);
    EXPECT_LT(rotation, std::fmax(1e-6, std::fmax(1.5 * rp, 3.0 * joints))) << file;
    std::printf("%s: backward Euler, largest signal error of scale: rA %.2g, rp %.2g, joint coordinates %.2g\n",
                std::filesystem::path(file).filename().c_str(), rotation, rp, joints);
    ++ran;
  }
  EXPECT_GE(ran, 20);
}

// rA takes its own backward Euler only: another implicit method is refused, naming the integrator.
TEST(RotationMatrixBackend, OtherMethodsAreRefusedNamingTheIntegrator) {
  const api::LoadedModel pendulum = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/pendulum_002.json");
  api::SimulateRequest request;
  request.options.integrator = "bathe";
  request.options.coordinates = "rA";
  try {
    api::simulate(pendulum, request);
    FAIL() << "rA ran Bathe's method";
  } catch (const api::SettingError& e) {
    EXPECT_EQ(e.setting(), "integrator");
    EXPECT_NE(std::string(e.what()).find("bathe"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace myriad
