// Discrete road and rig inputs (issue 17, item 4): the haversine bump, the constant-amplitude sine sweep and the
// constant-velocity sweep (shared/notes/suspension-notes.md, "Discrete inputs"): their values against the
// formulas, their rates and accelerations against differences of the values, the sweeps' instantaneous
// frequency and the velocity sweep's constant rate amplitude, their breakpoints, and refusals by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "model/refusal_support.hpp"
#include "model/time_function_packing.hpp"

namespace myriad {
namespace {

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
}

}  // namespace
}  // namespace myriad
