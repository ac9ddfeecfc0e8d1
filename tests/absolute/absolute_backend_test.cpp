// Model files in absolute coordinates through the C++ API (RunOptions::coordinates, backends/absolute_backend.hpp):
// the joint recovery that turns the engine's bodies back into the model's signals, every model file the mapping
// expresses whole against its joint-coordinate run, and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absolute/absolute_run.hpp"
#include "api/myriad/myriad.hpp"
#include "backends/absolute_backend.hpp"
#include "backends/cuda_runner.hpp"
#include "constraints/model_kinematics.hpp"
#include "model/model_loader.hpp"
#include "support/signal_difference.hpp"

namespace myriad {
namespace {

std::vector<std::string> shipped_model_files() {
  std::vector<std::string> files;
  for (const char* folder : {"/models", "/models/loops"})
    for (const auto& entry : std::filesystem::directory_iterator(std::string(MYRIAD_SOURCE_DIR) + folder))
      if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Joint coordinates near the model's initial ones: every coordinate moved by up to 0.7 (rad or m), every velocity
// drawn in [-2, 2], quaternion blocks normalized.
void random_joint_state(const Model& model, std::mt19937& rng, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  std::uniform_real_distribution<double> move(-0.7, 0.7), rate(-2.0, 2.0);
  const kinematics::CoordinateLayout layout = kinematics::coordinate_layout(model);
  q = kinematics::initial_q(model);
  v = Eigen::VectorXd(layout.nv);
  for (Eigen::Index i = 0; i < q.size(); ++i) q[i] += move(rng);
  for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = rate(rng);
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const JointType type = model.joints[j].type;
    if (type != JointType::spherical && type != JointType::free) continue;
    const int at = layout.q_index[j] + (type == JointType::free ? 3 : 0);
    q.segment(at, 4).normalize();
  }
}

// The recovery inverts the joint-coordinate kinematics: joint state (and accelerations) -> bodies -> joint state (and
// accelerations), on every shipped model
// (all joint types: revolute, prismatic, cylindrical, universal, spherical, planar, free, fixed), with the reference
// a whole turn (or the quaternion's sign) away where it may be.
TEST(AbsoluteBackend, JointRecoveryInvertsTheBodyKinematicsOfEveryModel) {
  std::mt19937 rng(20261129);
  int models = 0;
  for (const std::string& file : shipped_model_files()) {
    const Model loaded = load_model_file(file);
    if (loaded.bodies.empty()) continue;
    const Model model = apply_parameters(loaded, default_parameter_values(loaded));
    ++models;
    for (int draw = 0; draw < 5; ++draw) {
      Eigen::VectorXd q, v;
      random_joint_state(model, rng, q, v);
      const std::vector<kinematics::BodyKinematics> bodies = kinematics::body_kinematics(model, q, v);
      // A reference 2 pi away on the angles and with flipped quaternions picks the same coordinates up to that.
      const kinematics::JointState recovered = kinematics::joint_state_from_bodies(model, bodies, q);
      for (Eigen::Index i = 0; i < q.size(); ++i) EXPECT_NEAR(recovered.q[i], q[i], 1e-12) << file << " q " << i;
      for (Eigen::Index i = 0; i < v.size(); ++i) EXPECT_NEAR(recovered.v[i], v[i], 1e-11) << file << " v " << i;
      // Accelerations likewise: joint accelerations -> the bodies' (J a + Jdot v) -> joint accelerations.
      Eigen::VectorXd a(v.size());
      for (Eigen::Index i = 0; i < a.size(); ++i) a[i] = 10.0 * std::sin(3.0 * i + draw);
      const Eigen::VectorXd a_back = kinematics::joint_accelerations_from_bodies(
          model, bodies, kinematics::body_accelerations(model, q, v, a), recovered);
      for (Eigen::Index i = 0; i < a.size(); ++i) EXPECT_NEAR(a_back[i], a[i], 1e-10) << file << " a " << i;
    }
  }
  EXPECT_GE(models, 20);
}

using ::myriad::testing::largest_signal_difference;

// Every shipped model the mapping expresses whole (no force element, actuator or driver left out) runs in rp and in
// re (its bodies' axes turned away from the world z) from its model file through api::simulate, and its signals
// differ from the joint-coordinate run's (DOPRI5 at 1e-12) by no more than the method's own error: ESDIRK4(3)6L[2]SA2
// in 500 steps over 0.7 s (or the model's own end time where shorter: Andrews' squeezer's 0.03 s), every signal
// within max(3e-4 (rp) or 5e-3 (re), 3 x the same method's error on the same grid in joint coordinates) of its
// scale. The window takes in the road bumps (at 0.5 s), whose kinks cost both families alike (quarter car 1.3e-3,
// stiff quarter car 2.5e-2, equal in the three); on smooth models the index-3 DAE's velocities lose order (seed
// 003), which the joint coordinates' ODE does not: double pendulum 9.9e-6 (rp), 1.1e-5 (re) against 4.7e-10,
// undamped chain 9.1e-5 and 1.7e-4 against 7.7e-9; re's angles near their singularity cost the tumbling spatial
// chain 3.0e-3 (rp 9.9e-5; both converge at order 2.2: re 6.1e-4, 1.7e-4 at half and quarter steps). 23 models:
// pendulums, chains (the spatial chain with every joint type, actuators, RSDAs and TSDAs), the free body, the cart
// pole, quarter and half cars, the suspension corners (their templates' bodies and loops), the engine mount's
// bushings (4.1e-7 in rp, 3.6e-7 in re, 3.5e-7 in joint coordinates), the driven wheel's Magic Formula tire
// (1.7e-4, 7.8e-5, 7.8e-5), Andrews' squeezer, the closed loops with and without drivers and springs.
TEST(AbsoluteBackend, EveryExpressibleModelFileMatchesItsJointCoordinateRunToTheMethodsError) {
  int ran = 0;
  for (const std::string& file : shipped_model_files()) {
    const Model loaded = load_model_file(file);
    if (loaded.bodies.empty()) continue;
    const Model literal = apply_parameters(loaded, default_parameter_values(loaded));
    if (!absolute_run_refusal(literal).empty()) continue;
    // The HMMWV, the full car, the sedan: their own tests below (steps, cost).
    if (literal.bodies.size() > 16) continue;
    const api::LoadedModel model = api::load_model(file);
    const double t_end = std::fmin(0.7, literal.simulation.t_end);
    api::SimulateRequest joint;
    joint.options.t_end = t_end;
    joint.options.dt_out = t_end / 14.0;
    joint.options.integrator = "dopri5";
    joint.options.rtol = 1e-12;
    joint.options.atol = 1e-12;
    joint.options.backend = "cpu";
    const api::SimulationResult reference = api::simulate(model, joint);
    ASSERT_EQ(reference.status[0], 0) << file;
    api::SimulateRequest implicit = joint;
    implicit.options.integrator = "esdirk4(3)6l[2]sa2";
    implicit.options.rtol.reset();
    implicit.options.atol.reset();
    implicit.options.h = t_end / 500.0;
    const api::SimulationResult in_joints = api::simulate(model, implicit);
    ASSERT_EQ(in_joints.status[0], 0) << file;
    const double method = largest_signal_difference(in_joints, reference);
    double worst[2];
    for (int rep = 0; rep < 2; ++rep) {
      implicit.options.coordinates = rep == 0 ? "rp" : "re";
      const api::SimulationResult absolute = api::simulate(model, implicit);
      ASSERT_EQ(absolute.status[0], 0) << file << " " << *implicit.options.coordinates << ": "
                                       << api::status_name(absolute.status[0]);
      worst[rep] = largest_signal_difference(absolute, reference);
      EXPECT_LT(worst[rep], std::fmax(rep == 0 ? 3e-4 : 5e-3, 3.0 * method)) << file << " "
                                                                           << *implicit.options.coordinates;
    }
    std::printf("%s: largest signal difference %.2g (rp), %.2g (re) of scale; the method in joint coordinates "
                "%.2g\n", std::filesystem::path(file).filename().c_str(), worst[0], worst[1], method);
    ++ran;
  }
  EXPECT_GE(ran, 20);
}

// DOPRI5 at `tolerance` in joint coordinates on the cpu backend over [0, t_end] (outputs every dt_out): the reference
// of the large models' tests. `request` keeps the span, backend and overrides, its tolerances reset for the runs after.
api::SimulationResult reference_run(const api::LoadedModel& model, api::SimulateRequest& request, double t_end,
                                    double dt_out, double tolerance) {
  request.options.t_end = t_end;
  request.options.dt_out = dt_out;
  request.options.integrator = "dopri5";
  request.options.rtol = tolerance;
  request.options.atol = tolerance;
  request.options.backend = "cpu";
  api::SimulationResult reference = api::simulate(model, request);
  request.options.rtol.reset();
  request.options.atol.reset();
  return reference;
}

// The same method in joint coordinates and in `coordinates`, each expected to end ok.
std::pair<api::SimulationResult, api::SimulationResult> joint_and_absolute_runs(const api::LoadedModel& model,
                                                                                api::SimulateRequest& request,
                                                                                const char* coordinates,
                                                                                const char* integrator) {
  request.options.integrator = integrator;
  request.options.coordinates.reset();
  api::SimulationResult in_joints = api::simulate(model, request);
  request.options.coordinates = coordinates;
  api::SimulationResult absolute = api::simulate(model, request);
  EXPECT_EQ(in_joints.status[0], 0) << integrator;
  EXPECT_EQ(absolute.status[0], 0) << coordinates << ": " << api::status_name(absolute.status[0]);
  return {std::move(in_joints), std::move(absolute)};
}

// The HMMWV (24 bodies, 133 GCONs: the largest shipped model) over its front bump, moved to t = 0.02 s, in rp and re
// (Bathe, h = 2e-4) and rA (its backward Euler, h = 1e-4) against DOPRI5 at 1e-10 in joint coordinates: every signal
// within 3x the same method's error in joint coordinates (1.42 of scale for Bathe in all three coordinates, 1.46 for
// backward Euler in both: the upper arms' bushing forces, whose 2e7 N/m bushings (eigenvalue -1.76e5) the implicit
// methods damp at these steps in any coordinates), and every other signal (chassis, tires, springs, dampers) within
// 1e-4 of scale of the joint-coordinate run with the same method and step (rp 7.8e-7, re 2.8e-6, rA 2.3e-5). rp ran
// here only once its normalization rows were scaled (AbsoluteDae::normalization_scale; before, singular_matrix at the
// bump's onset). About 30 s.
TEST(AbsoluteBackend, TheHmmwvOverItsBumpRunsInRpReAndRAWithinTheMethodsError) {
  const api::LoadedModel model = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/hmmwv.json");
  api::SimulateRequest request;
  request.overrides = {{"t_bump_front", 0.02}};
  const api::SimulationResult reference = reference_run(model, request, 0.1, 0.005, 1e-10);
  ASSERT_EQ(reference.status[0], 0);
  for (const auto& [coordinates, integrator, h] :
       {std::make_tuple("rp", "bathe", 2e-4), std::make_tuple("re", "bathe", 2e-4),
        std::make_tuple("rA", "backward-euler", 1e-4)}) {
    request.options.h = h;
    const auto [in_joints, absolute] = joint_and_absolute_runs(model, request, coordinates, integrator);
    if (HasFailure()) return;
    const double method = largest_signal_difference(in_joints, reference);
    const double worst = largest_signal_difference(absolute, reference);
    EXPECT_LT(worst, 3.0 * method) << coordinates;
    // Past the bushing forces, the two coordinates' runs of one method agree.
    double others = 0.0;
    for (int s = 0; s < reference.n_signals; ++s) {
      if (reference.signal_names[static_cast<size_t>(s)].find("bushing") != std::string::npos) continue;
      double scale = 1.0, difference = 0.0;
      for (int k = 0; k < reference.n_times; ++k) {
        const size_t at = static_cast<size_t>(k) * static_cast<size_t>(reference.n_signals) + static_cast<size_t>(s);
        scale = std::fmax(scale, std::fabs((*reference.values)[at]));
        difference = std::fmax(difference, std::fabs((*absolute.values)[at] - (*in_joints.values)[at]));
      }
      others = std::fmax(others, difference / scale);
    }
    EXPECT_LT(others, 1e-4) << coordinates;
    std::printf("hmmwv over its bump, %s (%s, h = %g): largest signal difference %.3g of scale (joint coordinates "
                "%.3g); past the bushing forces %.2g from the joint coordinates' run\n", coordinates, integrator, h,
                worst, method, others);
  }
}

// The full car (25 bodies, its ten rods each a body of its own: 27 engine bodies, 153 GCONs; AbsoluteBodyMapping::
// rod_loop) in rp, re and rA with backward Euler (h = 1e-3, 0.2 s) against the same method in joint coordinates: every
// signal within 1e-4 of scale of it (3.2e-5 in each), both 0.17 of scale from DOPRI5 at 1e-11 (backward Euler's own
// error, 1.5x allowed). About 20 s.
TEST(AbsoluteBackend, TheFullCarsMassiveRodsRunAsBodiesInRpReAndRA) {
  const api::LoadedModel model = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/full_car.json");
  api::SimulateRequest request;
  const api::SimulationResult reference = reference_run(model, request, 0.2, 0.02, 1e-11);
  ASSERT_EQ(reference.status[0], 0);
  request.options.integrator = "backward-euler";
  request.options.h = 1e-3;
  const api::SimulationResult in_joints = api::simulate(model, request);
  ASSERT_EQ(in_joints.status[0], 0);
  const double method = largest_signal_difference(in_joints, reference);
  for (const char* coordinates : {"rp", "re", "rA"}) {
    request.options.coordinates = coordinates;
    const api::SimulationResult absolute = api::simulate(model, request);
    ASSERT_EQ(absolute.status[0], 0) << coordinates << ": " << api::status_name(absolute.status[0]);
    const double from_joints = largest_signal_difference(absolute, in_joints);
    const double worst = largest_signal_difference(absolute, reference);
    EXPECT_LT(from_joints, 1e-4) << coordinates;
    EXPECT_LT(worst, 1.5 * method) << coordinates;
    std::printf("full car, %s: %.2g of scale from backward Euler in joint coordinates; %.3g from DOPRI5 (joint "
                "coordinates %.3g)\n", coordinates, from_joints, worst, method);
  }
}

// A wheel spinning freely about a fixed axle (no gravity, no forces) at omega = 100 rad/s for ten steps of h = 1e-3:
// joint coordinates, re (the spin is its third angle) and rA (A exp(h omega-bar~) turns it exactly) keep omega to
// 1e-12, rp's backward Euler loses about (omega h)^2 / 2 of it per step (measured 0.45 rad/s a step against 0.5,
// within 20%; at h = 5e-4, 0.119 against 0.125): seed 002's Euler-parameter equations, discretized by backward
// differences, damp the parameters' own oscillation at omega / 2 as backward Euler damps any oscillation, and the
// normalization constraint turns the lost amplitude into lost speed. Bathe (second order) loses 2e-6 of it.
TEST(AbsoluteBackend, RpsBackwardEulerSlowsASpinningBodyByOmegaCubedHOverTwo) {
  const api::LoadedModel wheel = api::load_model_string(R"({"format": "myriad-model", "version": 1, "name": "wheel",
    "gravity": [0, 0, 0],
    "bodies": [{"name": "wheel", "mass": 10, "center_of_mass": [0, 0, 0],
                "inertia": {"ixx": 0.6, "iyy": 1.0, "izz": 0.6}}],
    "joints": [{"name": "axle", "type": "revolute", "parent": "ground", "child": "wheel", "axis": [0, 1, 0],
                "position": [0], "velocity": [100]}],
    "outputs": [{"name": "rate", "type": "joint_velocity", "joint": "axle"}],
    "simulation": {"t_end": 0.01, "dt_out": 0.01}})", "wheel");
  api::SimulateRequest request;
  request.options.integrator = "backward-euler";
  const auto rate_at_end = [&](const char* coordinates, const char* integrator, double h) {
    request.options.coordinates = coordinates;
    request.options.integrator = integrator;
    request.options.h = h;
    const api::SimulationResult run = api::simulate(wheel, request);
    EXPECT_EQ(run.status[0], 0) << coordinates;
    return run.values->back();
  };
  for (const char* coordinates : {"joint", "re", "rA"})
    EXPECT_NEAR(rate_at_end(coordinates, "backward-euler", 1e-3), 100.0, 1e-10) << coordinates;
  for (const double h : {1e-3, 5e-4}) {
    const double loss_per_step = (100.0 - rate_at_end("rp", "backward-euler", h)) * h / 0.01;
    const double predicted = 100.0 * (100.0 * h) * (100.0 * h) / 2.0;
    EXPECT_NEAR(loss_per_step / predicted, 1.0, 0.2) << h;
    std::printf("rp backward Euler, h = %g: %.3g rad/s a step lost from a 100 rad/s spin ((omega h)^2 / 2: %.3g)\n", h,
                loss_per_step, predicted);
  }
  EXPECT_NEAR(rate_at_end("rp", "bathe", 1e-3), 100.0, 1e-3);
}

// The sedan (27 bodies and 12 massive rods: 39 engine bodies, 208 GCONs; Magic Formula tires, its rack driven) at 30
// m/s over 0.05 s against DOPRI5 at 1e-11 in joint coordinates. rp and re with Bathe (h = 1e-3): re within 1e-6 of
// scale of Bathe in joint coordinates (3.2e-7), rp within 5x Bathe's own error there (1.2e-3 against 2.9e-4); rA with
// its backward Euler within 1.5x backward Euler's error in joint coordinates (0.090 against 0.084).
// rp with backward Euler is the exception, and the test holds why: it slows a spinning body by about omega^3 h / 2
// (the test below), 500 rad/s^2 on the wheels at 100 rad/s and h = 1e-3; the tires turn that into a braking force
// that pitches the car, so rp's error grows as the cube of the speed: over 0.01 s at 3 m/s it equals the joint
// coordinates' backward Euler (within 1.1x), at 30 m/s it is far past it (> 20x; 495x measured). About 12 s.
TEST(AbsoluteBackend, TheSedanRunsInRpReAndRAAndRpsBackwardEulerBrakesItsSpinningWheels) {
  const api::LoadedModel model = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/sedan.json");
  api::SimulateRequest request;
  const api::SimulationResult reference = reference_run(model, request, 0.05, 0.005, 1e-11);
  ASSERT_EQ(reference.status[0], 0);
  request.options.h = 1e-3;
  for (const auto& [coordinates, integrator, bound] :
       {std::make_tuple("rp", "bathe", 5.0), std::make_tuple("re", "bathe", 1.01),
        std::make_tuple("rA", "backward-euler", 1.5)}) {
    const auto [in_joints, absolute] = joint_and_absolute_runs(model, request, coordinates, integrator);
    if (HasFailure()) return;
    const double method = largest_signal_difference(in_joints, reference);
    const double worst = largest_signal_difference(absolute, reference);
    const double from_joints = largest_signal_difference(absolute, in_joints);
    EXPECT_LT(worst, bound * method) << coordinates;
    if (std::string(coordinates) == "re") EXPECT_LT(from_joints, 1e-6);
    std::printf("sedan, %s (%s, h = 1e-3): %.3g of scale from DOPRI5 (joint coordinates %.3g), %.2g from the joint "
                "coordinates' run\n", coordinates, integrator, worst, method, from_joints);
  }

  request.options.integrator = "backward-euler";
  double ratio[2] = {};
  for (int k = 0; k < 2; ++k) {
    const double speed = k == 0 ? 3.0 : 30.0;
    request.overrides = {{"speed", speed}};
    request.options.coordinates.reset();
    request.options.h.reset();
    const api::SimulationResult tight = reference_run(model, request, 0.01, 0.001, 1e-11);
    request.options.integrator = "backward-euler";
    request.options.h = 1e-3;
    const api::SimulationResult in_joints = api::simulate(model, request);
    request.options.coordinates = "rp";
    const api::SimulationResult rp = api::simulate(model, request);
    ASSERT_EQ(rp.status[0], 0);
    ratio[k] = largest_signal_difference(rp, tight) / largest_signal_difference(in_joints, tight);
    std::printf("sedan at %g m/s, backward Euler over 0.01 s: rp's error %.3g x the joint coordinates'\n", speed,
                ratio[k]);
  }
  EXPECT_LT(ratio[0], 1.1);
  EXPECT_GT(ratio[1], 20.0);
}

// re on a file whose frames keep clear of the ZXZ gimbal lock (seed 002's double pendulum), rp beside it; and two
// instances with their own parameters, each equal to its own single run bit for bit.
TEST(AbsoluteBackend, EulerAnglesAndPerInstanceParameters) {
  const api::LoadedModel model = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/double_pendulum_002.json");
  api::SimulateRequest request;
  request.options.t_end = 0.3;
  request.options.dt_out = 0.05;
  request.options.integrator = "lms4";
  request.options.h = 5e-4;
  request.options.coordinates = "re";
  const api::SimulationResult re = api::simulate(model, request);
  request.options.coordinates = "rp";
  const api::SimulationResult rp = api::simulate(model, request);
  ASSERT_EQ(re.status[0], 0) << api::status_name(re.status[0]);
  ASSERT_EQ(rp.status[0], 0);
  EXPECT_LT(largest_signal_difference(re, rp), 1e-7);
  EXPECT_EQ(rp.backend, "cpu");

  const std::string name = model.parameter_names().at(0);
  const double base = model.parameter_defaults().at(0);
  const std::vector<double> rows = {base, 1.2 * base};
  request.parameters = api::ParameterSet::from_array({name}, 2, rows.data());
  const api::SimulationResult both = api::simulate(model, request);
  for (int i = 0; i < 2; ++i) {
    api::SimulateRequest single = request;
    single.parameters.reset();
    single.overrides = {{name, rows[static_cast<size_t>(i)]}};
    const api::SimulationResult one = api::simulate(model, single);
    const size_t per = static_cast<size_t>(one.n_times) * one.n_signals;
    for (size_t k = 0; k < per; ++k)
      ASSERT_EQ((*both.values)[static_cast<size_t>(i) * per + k], (*one.values)[k]) << "instance " << i << " " << k;
  }
  EXPECT_NE((*both.values)[both.values->size() - 1], (*rp.values)[rp.values->size() - 1]);
}

// Newton on the index-3 DAE at small steps (integrators/implicit_newton.hpp judges the multipliers' corrections
// against atol / (c dt)^2, as the positions they move): the double pendulum file in rp with Bathe's method, whose
// Newton ended newton_failed at h = 2e-4 when the multipliers' rounding (growing as 1/h^2) was held to atol
// itself, runs at h = 2e-4, 1e-4 and 5e-5, and its signals converge to the joint-coordinate run with order 2.
TEST(AbsoluteBackend, NewtonConvergesAtSmallStepsAndBatheKeepsOrderTwo) {
  const api::LoadedModel model = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/double_pendulum_002.json");
  api::SimulateRequest request;
  request.options.t_end = 0.2;
  request.options.dt_out = 0.02;
  request.options.integrator = "dopri5";
  request.options.rtol = 1e-12;
  request.options.atol = 1e-12;
  const api::SimulationResult reference = api::simulate(model, request);
  request.options.integrator = "bathe";
  request.options.rtol.reset();
  request.options.atol.reset();
  request.options.coordinates = "rp";
  double errors[3];
  const double steps[3] = {2e-4, 1e-4, 5e-5};
  for (int k = 0; k < 3; ++k) {
    request.options.h = steps[k];
    const api::SimulationResult rp = api::simulate(model, request);
    ASSERT_EQ(rp.status[0], 0) << "h = " << steps[k] << ": " << api::status_name(rp.status[0]);
    errors[k] = largest_signal_difference(rp, reference);
  }
  const double order = std::log2(errors[0] / errors[2]) / 2.0;
  EXPECT_GT(order, 1.8);
  EXPECT_LT(order, 2.2);
  std::printf("rp Bathe on the double pendulum: %.3g, %.3g, %.3g at h = 2e-4, 1e-4, 5e-5: order %.3f\n", errors[0],
              errors[1], errors[2], order);
}

// A planar chain of `links` 1 kg links on revolute joints about y, each hanging 0.1 m below the last.
std::string revolute_chain_json(int links) {
  std::string bodies, joints;
  for (int i = 0; i < links; ++i) {
    const std::string name = "link_" + std::to_string(i);
    const std::string parent = i == 0 ? "ground" : "link_" + std::to_string(i - 1);
    bodies += std::string(i ? "," : "") + "{\"name\": \"" + name +
              "\", \"mass\": 1, \"center_of_mass\": [0, 0, -0.05], "
              "\"inertia\": {\"ixx\": 0.001, \"iyy\": 0.001, \"izz\": 0.001}}";
    joints += std::string(i ? "," : "") + "{\"name\": \"hinge_" + std::to_string(i) + "\", \"type\": \"revolute\", "
              "\"parent\": \"" + parent + "\", \"child\": \"" + name + "\", \"parent_frame\": {\"origin\": [0, 0, " +
              (i ? "-0.1" : "0") + "]}, \"axis\": [0, 1, 0], \"position\": [0.01]}";
  }
  return "{\"format\": \"myriad-model\", \"version\": 1, \"name\": \"chain\", \"gravity\": [0, 0, -9.81], "
         "\"bodies\": [" + bodies + "], \"joints\": [" + joints + "], \"outputs\": [{\"name\": \"first\", "
         "\"type\": \"joint_coordinate\", \"joint\": \"hinge_0\"}], \"simulation\": {\"t_end\": 0.01, "
         "\"dt_out\": 0.01}}";
}

// What cannot run says why, naming the setting: a model past the engine's capacities (a 49-link chain: 49 bodies and
// 245 GCONs against 48 and 256), an explicit integrator, another backend.
TEST(AbsoluteBackend, RefusalsNameTheSettingAndTheReason) {
  api::SimulateRequest request;
  request.options.integrator = "bathe";
  request.options.coordinates = "rp";
  const api::LoadedModel chain = api::load_model_string(revolute_chain_json(kAbsoluteRunBodies + 1), "chain");
  try {
    api::simulate(chain, request);
    ADD_FAILURE() << "a chain ran in absolute coordinates past the engine's capacities";
  } catch (const api::SettingError& e) {
    EXPECT_EQ(e.setting(), "coordinates");
    EXPECT_NE(std::string(e.what()).find("49 bodies and 245 GCONs"), std::string::npos) << e.what();
  }
  // One link fewer runs.
  request.options.h = 1e-3;
  request.options.t_end = 0.002;
  EXPECT_EQ(api::simulate(api::load_model_string(revolute_chain_json(kAbsoluteRunBodies), "chain"), request).status[0],
            0);
  request.options.h.reset();
  request.options.t_end.reset();
  const api::LoadedModel pendulum = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/pendulum_002.json");
  request.options.integrator = "dopri5";
  try {
    api::simulate(pendulum, request);
    FAIL() << "dopri5 ran the index-3 DAE";
  } catch (const api::SettingError& e) {
    EXPECT_EQ(e.setting(), "coordinates");
    EXPECT_NE(std::string(e.what()).find("dopri5"), std::string::npos) << e.what();
  }
  request.options.integrator = "bathe";
  request.options.backend = "reference";
  try {
    api::simulate(pendulum, request);
    FAIL() << "the reference backend took absolute coordinates";
  } catch (const api::SettingError& e) {
    EXPECT_EQ(e.setting(), "backend");
  }
  // cuda takes rp, re and rA where a device is present (tests/gpu/absolute_cuda_test.cpp); without a device the
  // refusal names the backend and says why.
  request.options.backend = "cuda";
  request.options.integrator = "backward-euler";
  std::string device;
  if (!cuda_device_available(&device)) {
    for (const char* coordinates : {"rp", "rA"}) {
      request.options.coordinates = coordinates;
      try {
        api::simulate(pendulum, request);
        FAIL() << coordinates << " ran on a cuda backend without a device";
      } catch (const api::SettingError& e) {
        EXPECT_EQ(e.setting(), "backend") << coordinates;
        EXPECT_NE(std::string(e.what()).find(device), std::string::npos) << e.what();
      }
    }
  }
  request.options.backend = "cpu";
  request.options.coordinates = "ra";
  EXPECT_THROW(api::simulate(pendulum, request), api::SettingError);
}

}  // namespace
}  // namespace myriad
