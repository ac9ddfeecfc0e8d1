// Discrete road and rig inputs (issue 17, item 4): the haversine bump, the constant-amplitude sine sweep, the
// constant-velocity sweep and a measured profile file (shared/notes/suspension-notes.md, "Discrete inputs"): their values against the
// formulas, their rates and accelerations against differences of the values, the sweeps' instantaneous
// frequency and the velocity sweep's constant rate amplitude, their breakpoints, and refusals by name.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "model/model_loader.hpp"
#include "model/refusal_support.hpp"
#include "model/time_function_packing.hpp"

namespace myriad {
namespace road_inputs_test {

TimeFunction function(TimeFunction::Kind kind, double t0, double duration) {
  TimeFunction f;
  f.kind = kind;
  f.t0 = {t0, -1};
  f.duration = {duration, -1};
  return f;
}

TimeFunction sweep(TimeFunction::Kind kind, double scale, double f0, double f1) {
  TimeFunction f = function(kind, 0.5, 20.0);
  (kind == TimeFunction::Kind::sine_sweep ? f.amplitude : f.velocity) = {scale, -1};
  f.f0 = {f0, -1};
  f.f1 = {f1, -1};
  return f;
}

void expect_derivatives(const TimeFunction& f, double t, double scale) {
  const double h = 1e-6;
  const TimeValue m = evaluate_time_function(f, t - h), c = evaluate_time_function(f, t),
                  p = evaluate_time_function(f, t + h);
  EXPECT_NEAR(c.rate, (p.value - m.value) / (2 * h), 1e-6 * scale) << t;
  EXPECT_NEAR(c.acceleration, (p.rate - m.rate) / (2 * h), 1e-5 * scale) << t;
}

// A 1 m bump of 3 cm passed at 80 km/h: 45 ms; top height at the middle, zero slope at both ends.
TEST(RoadInputs, HaversineBumpRisesToItsHeightAndBackWithZeroSlopeAtTheEnds) {
  TimeFunction f = function(TimeFunction::Kind::haversine_bump, 0.2, 0.045);
  f.height = {0.03, -1};
  EXPECT_EQ(evaluate_time_function(f, 0.1).value, 0.0);
  EXPECT_EQ(evaluate_time_function(f, 0.3).value, 0.0);
  EXPECT_NEAR(evaluate_time_function(f, 0.2225).value, 0.03, 1e-15);
  EXPECT_NEAR(evaluate_time_function(f, 0.2).rate, 0.0, 1e-15);
  EXPECT_NEAR(evaluate_time_function(f, 0.245).rate, 0.0, 1e-12);
  const double tau = 0.3;  // (H/2)(1 - cos(2 pi tau))
  EXPECT_NEAR(evaluate_time_function(f, 0.2 + tau * 0.045).value, 0.015 * (1 - std::cos(2 * kPi * tau)), 1e-15);
  for (double t : {0.205, 0.22, 0.24}) expect_derivatives(f, t, 100.0);
}

// Seed 000 sec. 5.2's half-cylinder bump (0.1 m diameter) under a 0.47 m tire at 10 mph: while they touch, the
// wheel centre (x, R + z) stays R + r from the cylinder's axis, an independent check of the lift; contact lasts
// 2 sqrt(r (r + 2 R)) / v, the lift peaks at r over the axis, and the rate where contact starts is v a / R, finite.
TEST(RoadInputs, CylinderBumpIsTheLiftOfARigidRingRollingOverIt) {
  const double R = 0.47, r = 0.05, v = 4.4704, t0 = 0.5;
  TimeFunction f;
  f.kind = TimeFunction::Kind::cylinder_bump;
  f.t0 = {t0, -1};
  f.speed = {v, -1};
  f.radius = {r, -1};
  f.tire_radius = {R, -1};
  const double a = std::sqrt(r * (r + 2 * R)), duration = 2 * a / v;
  EXPECT_EQ(evaluate_time_function(f, t0 - 1e-9).value, 0.0);
  EXPECT_EQ(evaluate_time_function(f, t0 + duration + 1e-9).value, 0.0);
  EXPECT_NEAR(evaluate_time_function(f, t0).value, 0.0, 1e-15);
  EXPECT_NEAR(evaluate_time_function(f, t0 + duration).value, 0.0, 1e-15);
  EXPECT_NEAR(evaluate_time_function(f, t0 + 0.5 * duration).value, r, 1e-15);
  EXPECT_NEAR(evaluate_time_function(f, t0).rate, v * a / R, 1e-12);
  EXPECT_NEAR(evaluate_time_function(f, t0 + duration).rate, -v * a / R, 1e-12);
  for (int i = 0; i <= 100; ++i) {
    const double t = t0 + duration * i / 100.0, x = v * (t - t0) - a;
    EXPECT_NEAR(std::hypot(x, R + evaluate_time_function(f, t).value), R + r, 1e-14) << t;
  }
  for (double t : {t0 + 0.1 * duration, t0 + 0.5 * duration, t0 + 0.9 * duration}) expect_derivatives(f, t, 10.0);
  // An adaptive method restarts exactly at the packed end t0 + duration, where rounding may put the wheel a hair
  // past the contact's end: the lift is 0 there and finite for every t0.
  for (int i = 0; i < 1000; ++i) {
    f.t0 = {0.001 * i, -1};
    std::vector<double> packed;
    pack_time_function(f, packed);
    const TimeValue end = evaluate_time_function(f, packed[0] + packed[1]);
    ASSERT_TRUE(std::isfinite(end.value) && std::isfinite(end.rate) && std::isfinite(end.acceleration)) << i;
    EXPECT_NEAR(end.value, 0.0, 1e-15);
  }
}

// Zero crossings of the constant-amplitude sweep sit where the phase is a multiple of pi: the instantaneous
// frequency f0 + (f1 - f0) tau / D, from 0.5 to 15 Hz over 20 s.
TEST(RoadInputs, SineSweepFollowsItsLinearFrequencyAtConstantAmplitude) {
  const TimeFunction f = sweep(TimeFunction::Kind::sine_sweep, 0.01, 0.5, 15.0);
  double peak = 0.0;
  for (double t = 0.5; t <= 20.5; t += 1e-4) peak = std::max(peak, std::abs(evaluate_time_function(f, t).value));
  EXPECT_NEAR(peak, 0.01, 1e-6);
  for (double tau : {1.0, 10.0, 19.0}) {
    // Phase at tau by the closed form; the sweep's value there is 0.01 sin(phase).
    const double phase = 2 * kPi * (0.5 * tau + 0.5 * (14.5 / 20.0) * tau * tau);
    EXPECT_NEAR(evaluate_time_function(f, 0.5 + tau).value, 0.01 * std::sin(phase), 1e-12);
    expect_derivatives(f, 0.5 + tau, 1e2);
  }
  EXPECT_EQ(evaluate_time_function(f, 20.6).value, 0.0);
}

// The constant-velocity sweep's rate has the same amplitude at 1 Hz as at 14 Hz, while its displacement shrinks
// as 1 / frequency.
TEST(RoadInputs, VelocitySweepKeepsItsRateAmplitudeWhileTheDisplacementShrinks) {
  const TimeFunction f = sweep(TimeFunction::Kind::velocity_sweep, 0.1, 0.5, 15.0);
  const auto peaks = [&](double from, double to) {
    double z = 0.0, v = 0.0;
    for (double t = from; t <= to; t += 1e-5) {
      const TimeValue x = evaluate_time_function(f, t);
      z = std::max(z, std::abs(x.value));
      v = std::max(v, std::abs(x.rate));
    }
    return std::make_pair(z, v);
  };
  const auto [z_low, v_low] = peaks(0.5 + 0.5 / 0.725 * 2, 0.5 + 0.5 / 0.725 * 2 + 1.2);  // about 1.5 Hz
  const auto [z_high, v_high] = peaks(20.0, 20.5);                                     // about 15 Hz
  EXPECT_NEAR(v_low, 0.1, 2e-3);
  EXPECT_NEAR(v_high, 0.1, 2e-3);
  EXPECT_GT(z_low / z_high, 8.0) << "the displacement amplitude falls as 1/f";
  for (double t : {1.0, 10.0, 20.0}) expect_derivatives(f, t, 1e3);
}

TEST(RoadInputs, BadInputsAreRefusedByName) {
  using testing::text_refused;
  const auto model = [](const std::string& function) {
    nlohmann::ordered_json m = testing::pendulum_model();
    m["forces"] = nlohmann::ordered_json::parse(
        R"([{"name": "tire", "type": "tsda", "body1": "bob", "body2": "ground", "stiffness": 100,
             "motion2": {"direction": [0, 1, 0], "function": )" + function + "}}]");
    return m.dump();
  };
  const std::string f = "/forces/0/motion2/function";
  EXPECT_TRUE(text_refused(model(R"({"type": "haversine_bump", "t0": 0, "duration": 0, "height": 1})"),
                           f + "/duration", {"positive"}));
  EXPECT_TRUE(text_refused(
      model(R"({"type": "sine_sweep", "amplitude": 1, "f0": 0, "f1": 10, "t0": 0, "duration": 5})"), f + "/f0",
      {"positive"}));
  EXPECT_TRUE(text_refused(
      model(R"({"type": "velocity_sweep", "velocity": 1, "f0": 1, "f1": -2, "t0": 0, "duration": 5})"), f + "/f1",
      {"positive"}));
  EXPECT_TRUE(text_refused(model(R"({"type": "velocity_sweep", "velocity": 1, "f0": 1, "f1": 2, "t0": 0})"),
                           f + "/duration", {"missing required key"}));
  EXPECT_TRUE(text_refused(
      model(R"({"type": "cylinder_bump", "t0": 0.5, "speed": 4, "radius": 0, "tire_radius": 0.47})"), f + "/radius",
      {"positive"}));
  EXPECT_TRUE(text_refused(
      model(R"({"type": "cylinder_bump", "t0": 0.5, "speed": 0, "radius": 0.05, "tire_radius": 0.47})"),
      f + "/speed", {"positive"}));
  EXPECT_TRUE(text_refused(model(R"({"type": "cylinder_bump", "t0": 0.5, "speed": 4, "radius": 0.05})"),
                           f + "/tire_radius", {"missing required key"}));
}

}  // namespace road_inputs_test
}  // namespace myriad

namespace myriad {
namespace road_inputs_test {

namespace fs = std::filesystem;

// A model whose tire follows `function`, written beside a profile in a fresh folder; returns the model's path.
fs::path write_profile_model(const std::string& profile_text, const std::string& function) {
  const fs::path dir = fs::temp_directory_path() / ("myriad_profile_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "road.csv") << profile_text;
  nlohmann::ordered_json m = testing::pendulum_model();
  m["forces"] = nlohmann::ordered_json::parse(
      R"([{"name": "tire", "type": "tsda", "body1": "bob", "body2": "ground", "stiffness": 100,
           "motion2": {"direction": [0, 1, 0], "function": )" + function + "}}]");
  std::ofstream(dir / "model.json") << m.dump();
  return dir / "model.json";
}

// The profile is read beside the model file and run at `speed` from `distance`: the height under the wheel at t is
// the linear interpolation at x = distance + speed t, flat beyond the ends; the header and comments are skipped.
TEST(RoadProfile, AMeasuredProfileIsRunAtItsSpeedFromItsStartingDistance) {
  const fs::path file = write_profile_model("distance,height\n# a ramp and a step down\n0, 0\n2, 0.02\n2.5 0.02\n3,0\n",
                                            R"({"type": "profile", "file": "road.csv", "speed": 10, "distance": -1})");
  const Model model = load_model_file(file.string());
  const TimeFunction& f = model.forces[0].end2.motion;
  ASSERT_EQ(f.table.size(), 4u);
  EXPECT_EQ(f.file, (file.parent_path() / "road.csv").string());
  const auto height = [&](double x) {  // the profile, interpolated here
    if (x <= 0) return 0.0;
    if (x <= 2) return 0.01 * x;
    if (x <= 2.5) return 0.02;
    if (x <= 3) return 0.02 - 0.04 * (x - 2.5);
    return 0.0;
  };
  for (double t : {0.0, 0.05, 0.15, 0.29, 0.32, 0.36, 0.5}) {
    const TimeValue v = evaluate_time_function(f, t);
    EXPECT_NEAR(v.value, height(-1 + 10 * t), 1e-15) << t;
  }
  EXPECT_NEAR(evaluate_time_function(f, 0.2).rate, 0.1, 1e-12) << "slope 0.01 at 10 m/s";
  fs::remove_all(file.parent_path());
}

TEST(RoadProfile, BadProfilesAreRefusedWithTheFileTheLineAndTheReason) {
  const std::string function = R"({"type": "profile", "file": "road.csv", "speed": 10})";
  const auto refused = [&](const std::string& text, const std::vector<std::string>& parts) {
    const fs::path file = write_profile_model(text, function);
    const auto result = testing::throws_model_error([&] { load_model_file(file.string()); }, file.string(),
                                                    "/forces/0/motion2/function/file", parts);
    fs::remove_all(file.parent_path());
    return result;
  };
  EXPECT_TRUE(refused("0,0\n1,0.1\n1,0.2\n", {"road.csv' line 3", "strictly increasing"}));
  EXPECT_TRUE(refused("0,0\n1,abc\n", {"line 2", "not two numbers"}));
  EXPECT_TRUE(refused("0,0\n1,0.1,5\n", {"line 2", "expected 2 fields"}));
  EXPECT_TRUE(refused("0,0\n", {"at least 2 points"}));
  EXPECT_TRUE(refused("0,0\n1,inf\n", {"line 2", "finite"}));
  const fs::path file = write_profile_model("0,0\n1,0\n", R"({"type": "profile", "file": "nowhere.csv", "speed": 10})");
  EXPECT_TRUE(testing::throws_model_error([&] { load_model_file(file.string()); }, file.string(),
                                          "/forces/0/motion2/function/file", {"nowhere.csv", "cannot open"}));
  const fs::path slow = write_profile_model("0,0\n1,0\n", R"({"type": "profile", "file": "road.csv", "speed": 0})");
  EXPECT_TRUE(testing::throws_model_error([&] { load_model_file(slow.string()); }, slow.string(),
                                          "/forces/0/motion2/function/speed", {"positive"}));
  fs::remove_all(file.parent_path());
}

}  // namespace road_inputs_test
}  // namespace myriad
